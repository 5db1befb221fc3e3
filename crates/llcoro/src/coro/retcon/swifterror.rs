//! `swifterror` in returned-continuation and async coroutines, as LLVM's CoroFrame/CoroSplit treat it.
//!
//! A swifterror slot belongs to one function: the verifier lets it only be loaded, stored and
//! passed as a `swifterror` argument. So before the split, the coroutine's swifterror parameter and
//! allocas become an ordinary variable (an alloca the frame keeps when a suspend crosses it), and
//! each place that needs the function's real slot gets a placeholder: `set(v)` (store `v` into the
//! slot, the slot's address is its result) and `get()` (the slot's value). Calls taking the
//! variable as their swifterror argument are bracketed by `set`/`get`; with a swifterror
//! parameter, so are the suspends (the caller of each continuation owns the slot from then on),
//! and each `coro.end` hands the value back with a `set`. After the split, each function resolves
//! its placeholders against its own slot: its swifterror parameter (the ramp's is the coroutine's,
//! a continuation's is the prototype's), else a swifterror alloca of its own.

use super::Suspend;
use llir::ir::build::Builder;
use llir::ir::edit::t;
use llir::ir::{Extra, Function, Inst, InstData, Opcode, Text, Value};
use llir::types::{Type, TypeTable};

/// The callee of the placeholder that stores a value into the function's slot; never printed.
const SET: &str = "@llcoro.swifterror.set";
/// The callee of the placeholder that reads the function's slot; never printed.
const GET: &str = "@llcoro.swifterror.get";

/// Whether attribute or instruction text has the `swifterror` keyword (not a name containing it).
fn spells(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || c == ',').any(|w| w == "swifterror")
}

/// The index of `f`'s swifterror parameter.
fn swifterror_param(f: &Function, src: &str) -> Option<usize> {
    f.header.params.iter().position(|p| spells(p.attrs.get(src)))
}

fn is_swifterror_alloca(f: &Function, i: Inst, src: &str) -> bool {
    let d = &f.insts[i];
    d.op == Opcode::Alloca && d.tmpl.iter().any(|p| matches!(p, llir::ir::Piece::Text(x) if spells(x.get(src))))
}

/// The type a swifterror slot of type `slot_ty` holds: `ptr`, or the typed pointer's pointee.
fn value_type(types: &TypeTable, slot_ty: Type) -> Type {
    types.pointee(slot_ty).unwrap_or(types.ptr)
}

/// `alloca [swifterror] TY, align A`, not yet placed.
fn make_alloca(
    f: &mut Function,
    types: &mut TypeTable,
    value_ty: Type,
    slot_ty: Type,
    align: u64,
    swifterror: bool,
) -> Inst {
    let word = if swifterror { "swifterror " } else { "" };
    let text = format!("alloca {word}{}, align {align}", types.display(value_ty));
    let mut d = InstData::new(Opcode::Alloca, slot_ty, vec![t(&text)]);
    d.extra = Extra::Alloca { ty: value_ty, align: Some(align as u32) };
    f.create_inst(types, d)
}

/// Where a coroutine leaves: its suspends (each with its continuation block) and its `coro.end`s.
pub struct Stops<'a> {
    pub suspends: &'a [Suspend],
    pub ends: &'a [Inst],
}

fn placeholder(f: &mut Function, types: &mut TypeTable, name: &str, ret: Type, args: &[Value]) -> Inst {
    let callee = f.const_value(types.ptr, name);
    Builder::new(f, types).call("", "", ret, callee, args)
}

/// Before the split: the coroutine's swifterror parameter and allocas become an ordinary variable
/// with `set`/`get` placeholders where the function's own slot is needed (LLVM's
/// `eliminateSwiftError`). Run after `normalize`, so each suspend's continuation block exists.
pub fn eliminate(f: &mut Function, types: &mut TypeTable, at: &Stops<'_>, src: &str, align: u64) {
    let Some(entry) = f.entry() else { return };
    let mut vars: Vec<(Value, Type)> = Vec::new();
    if let Some(k) = swifterror_param(f, src)
        && let Some(&arg) = f.params.get(k)
    {
        let slot_ty = f.values[arg].ty;
        let value_ty = value_type(types, slot_ty);
        let a = make_alloca(f, types, value_ty, slot_ty, align, false);
        let Some(var) = f.insts[a].result else { return };
        f.replace_all_uses(arg, var);
        let null = f.const_value(value_ty, "null");
        let init = Builder::new(f, types).store(null, var, align);
        // swifterror is null on entry to a coroutine, as in LLVM.
        f.insert_inst_at(entry, 0, init);
        f.insert_inst_at(entry, 0, a);
        save_around_suspends(f, types, at.suspends, var, value_ty, align);
        for &e in at.ends {
            let (v, ld) = load(f, types, value_ty, var, align);
            f.insert_inst_before(e, ld);
            let set = placeholder(f, types, SET, slot_ty, &[v]);
            f.insert_inst_before(e, set);
        }
        vars.push((var, value_ty));
    }
    let allocas: Vec<Inst> =
        f.blocks[entry].insts.iter().copied().filter(|&i| is_swifterror_alloca(f, i, src)).collect();
    for a in allocas {
        f.insts[a].rewrite_texts(|x| {
            let s = x.get(src);
            spells(s).then(|| Text::own(s.replacen("swifterror ", "", 1)))
        });
        let ty = match f.insts[a].extra {
            Extra::Alloca { ty, .. } => ty,
            _ => types.ptr,
        };
        if let Some(var) = f.insts[a].result {
            vars.push((var, ty));
        }
    }
    for (var, value_ty) in vars {
        bracket_calls(f, types, var, value_ty, align);
    }
}

fn load(f: &mut Function, types: &mut TypeTable, ty: Type, ptr: Value, align: u64) -> (Value, Inst) {
    let ld = Builder::new(f, types).load(ty, ptr, align);
    (f.insts[ld].result.unwrap_or(ptr), ld)
}

/// The slot gets the variable's value before each suspend; the continuation starts by reading
/// its own slot (its caller's) into the variable.
fn save_around_suspends(
    f: &mut Function,
    types: &mut TypeTable,
    suspends: &[Suspend],
    var: Value,
    value_ty: Type,
    align: u64,
) {
    let slot_ty = f.values[var].ty;
    for s in suspends {
        let (v, ld) = load(f, types, value_ty, var, align);
        f.insert_inst_before(s.call, ld);
        let set = placeholder(f, types, SET, slot_ty, &[v]);
        f.insert_inst_before(s.call, set);
        let Some(r) = s.resume else { continue };
        let at = usize::from(s.values.is_some());
        let get = placeholder(f, types, GET, value_ty, &[]);
        let Some(g) = f.insts[get].result else { continue };
        let st = Builder::new(f, types).store(g, var, align);
        f.insert_inst_at(r, at, st);
        f.insert_inst_at(r, at, get);
    }
}

/// Each call passing `var` as an argument gets the function's slot instead, set from the variable
/// before the call and read back into it after.
fn bracket_calls(f: &mut Function, types: &mut TypeTable, var: Value, value_ty: Type, align: u64) {
    let slot_ty = f.values[var].ty;
    let calls: Vec<Inst> = f
        .inst_iter()
        .map(|(_, i)| i)
        .filter(|&i| matches!(f.insts[i].op, Opcode::Call | Opcode::Invoke) && f.insts[i].call_args().contains(&var))
        .collect();
    for c in calls {
        let (v, ld) = load(f, types, value_ty, var, align);
        f.insert_inst_before(c, ld);
        let set = placeholder(f, types, SET, slot_ty, &[v]);
        f.insert_inst_before(c, set);
        let Some(slot) = f.insts[set].result else { continue };
        let nargs = f.insts[c].call_args().len();
        for a in f.insts[c].args.iter_mut().take(nargs) {
            if *a == var {
                *a = slot;
            }
        }
        let get = placeholder(f, types, GET, value_ty, &[]);
        let Some(g) = f.insts[get].result else { continue };
        let st = Builder::new(f, types).store(g, var, align);
        let Some(b) = f.insts[c].block else { continue };
        let (block, at) = if f.insts[c].op == Opcode::Invoke {
            // After an invoke is the start of its normal destination (LLVM does the same).
            match f.insts[c].blocks.first() {
                Some(&normal) => (normal, f.first_insertion_point(normal)),
                None => continue,
            }
        } else {
            (b, f.blocks[b].insts.iter().position(|&x| x == c).map_or(0, |p| p + 1))
        };
        f.insert_inst_at(block, at, st);
        f.insert_inst_at(block, at, get);
    }
}

/// After the split, in the ramp or a continuation `g`: each placeholder uses `g`'s own slot, its
/// swifterror parameter or else a swifterror alloca made for it.
pub fn resolve(g: &mut Function, types: &mut TypeTable, src: &str, align: u64) {
    let ops: Vec<(Inst, bool)> = g
        .inst_iter()
        .map(|(_, i)| i)
        .filter_map(|i| match g.callee_name(i, src) {
            Some(SET) => Some((i, true)),
            Some(GET) => Some((i, false)),
            _ => None,
        })
        .collect();
    let Some(&(first, _)) = ops.first() else { return };
    let slot = match swifterror_param(g, src).and_then(|k| g.params.get(k).copied()) {
        Some(p) => {
            unpack_resume_slot(g, src, p);
            p
        }
        None => {
            let Some(entry) = g.entry() else { return };
            let value_ty = match g.insts[first].call_args().first() {
                Some(&v) => g.values[v].ty,
                None => g.insts[first].ty,
            };
            let typed = g.params.first().is_some_and(|&p| types.pointee(g.values[p].ty).is_some());
            let slot_ty = types.pointer_to(value_ty, 0, typed);
            let a = make_alloca(g, types, value_ty, slot_ty, align, true);
            g.insert_inst_at(entry, 0, a);
            match g.insts[a].result {
                Some(r) => r,
                None => return,
            }
        }
    };
    let mut subst = rustc_hash::FxHashMap::default();
    for (op, is_set) in ops {
        let result = g.insts[op].result;
        let new = if is_set {
            let Some(&v) = g.insts[op].call_args().first() else { continue };
            let st = Builder::new(g, types).store(v, slot, align);
            g.insert_inst_before(op, st);
            Some(slot)
        } else {
            let ty = g.insts[op].ty;
            let (v, ld) = load(g, types, ty, slot, align);
            g.insert_inst_before(op, ld);
            Some(v)
        };
        if let (Some(r), Some(n)) = (result, new) {
            subst.insert(r, n);
        }
        g.remove_inst(op);
    }
    g.replace_uses_with_map(&subst);
}

/// The trailing single index of an `insertvalue`/`extractvalue` (`..., 1`).
fn single_index(g: &Function, i: Inst, src: &str) -> Option<u32> {
    match g.insts[i].tmpl.last() {
        Some(llir::ir::Piece::Text(x)) => x.get(src).trim().strip_prefix(',')?.trim().parse().ok(),
        _ => None,
    }
}

/// A continuation's swifterror parameter is also one of the suspend's resume values; the
/// aggregate standing for them must not hold it (only loads, stores and swifterror arguments may
/// use the slot), so extracts of its element read the parameter itself, as LLVM's peephole does.
fn unpack_resume_slot(g: &mut Function, src: &str, param: Value) {
    let inserts: Vec<Inst> = g
        .inst_iter()
        .map(|(_, i)| i)
        .filter(|&i| g.insts[i].op == Opcode::InsertValue && g.insts[i].args.get(1) == Some(&param))
        .collect();
    let mut subst = rustc_hash::FxHashMap::default();
    for ins in inserts {
        let Some(k) = single_index(g, ins, src) else { continue };
        let Some(mut whole) = g.insts[ins].result else { continue };
        while let Some(next) = g
            .inst_iter()
            .map(|(_, i)| i)
            .find(|&i| g.insts[i].op == Opcode::InsertValue && g.insts[i].args.first() == Some(&whole))
            .and_then(|i| g.insts[i].result)
        {
            whole = next;
        }
        for (_, x) in g.inst_iter() {
            let d = &g.insts[x];
            if d.op == Opcode::ExtractValue
                && d.args.first() == Some(&whole)
                && single_index(g, x, src) == Some(k)
                && let Some(r) = d.result
            {
                subst.insert(r, param);
            }
        }
        let poison = g.const_value(g.values[param].ty, "poison");
        if let Some(a) = g.insts[ins].args.get_mut(1) {
            *a = poison;
        }
    }
    g.replace_uses_with_map(&subst);
}

#[cfg(test)]
mod tests {
    use super::spells;

    #[test]
    fn the_attribute_as_a_word() {
        assert!(spells("ptr swifterror"));
        assert!(spells("alloca swifterror ptr, align 8"));
        assert!(!spells("ptr swiftself"));
        assert!(!spells("call void @swifterror_log(ptr %p)"));
        assert!(!spells("alloca %swifterror, align 8"));
    }
}
