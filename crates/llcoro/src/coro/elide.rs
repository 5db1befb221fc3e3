//! Heap elision without inlining, module-wide.
//!
//! LLVM elides a coroutine's heap frame only after inlining its ramp into the caller. llcoro does
//! it across the call instead: a ramp that returns its frame gets an elided twin (`split::
//! elided_ramp`) that takes the frame memory as an extra argument, and a caller that creates the
//! coroutine and destroys it on every path before it returns (or creates it again) passes an
//! alloca of its own instead of letting the ramp allocate.
//!
//! Why that is enough: the caller's destroy proves the frame is still alive there (a coroutine that
//! had freed itself could not be destroyed again), and after a destroy the frame is gone in the heap
//! version too, so a copy of the handle kept elsewhere dangles in both. The twin installs `.cleanup`
//! as its destroy function, so whoever destroys it, nothing frees the caller's stack.
//!
//! Like LLVM's CoroElide, the path check follows the CFG: a call that unwinds without an `invoke`
//! leaves the caller on no edge, so it is not a path out.
//!
//! This pass reads and rewrites one function (the caller); it only needs to know, for each ramp in
//! the module, the name, size and alignment of its twin.

use crate::coro::intrinsics::{Intr, intr_of};
use crate::coro::provenance::{Effect, HandleOut, Prover};
use crate::coro::shape::has_presplit_attr;
use llir::ItemKind;
use llir::Module;
use llir::ir::build::Builder;
use llir::ir::edit::t;
use llir::ir::{Block, Extra, Function, Inst, InstData, Opcode, Piece, Value};
use llir::types::{TypeData, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};

/// A ramp's elided twin: its name, the frame's size and alignment, where the ramp leaves the
/// frame pointer when that had to be proved (a C++ task object) rather than seen (`ret` of it), and
/// the `.cleanup` it installs as the destroy function.
#[derive(Clone, Debug)]
pub struct Twin {
    pub name: String,
    pub size: u64,
    pub align: u64,
    pub out: Option<HandleOut>,
    pub cleanup: String,
    /// `cleanup` does nothing a program could see (`effects::does_nothing`).
    pub cleanup_does_nothing: bool,
}

/// The presplit coroutines some other function calls (a text scan, before anything is parsed):
/// the ones worth an elided twin; and the callers, which must be looked at even if they use no
/// coroutine intrinsic themselves.
pub fn wanted(m: &Module, candidates: &[usize], groups: &[&str]) -> Wanted {
    let presplit = |i: usize| has_presplit_attr(m.item_head(i), groups);
    let ramps: FxHashSet<&str> = candidates
        .iter()
        .copied()
        .filter(|&i| m.items[i].kind == ItemKind::Define && presplit(i))
        .map(|i| m.item_name(i))
        .collect();
    let mut w = Wanted::default();
    if ramps.is_empty() {
        return w;
    }
    let is_candidate: FxHashSet<usize> = candidates.iter().copied().collect();
    // Each definition's callees, by a scan of its body: a global name followed by `(`.
    let callees = |i: usize| llir::parser::module::called_globals(m.item_body(i));
    let mut callers_of_ramps = Vec::new();
    for i in m.definitions() {
        let mut calls_one = false;
        for name in callees(i) {
            if ramps.contains(name) {
                w.ramps.insert(name.to_string());
                calls_one = true;
            }
        }
        if calls_one && !is_candidate.contains(&i) {
            callers_of_ramps.push(i);
        }
    }
    // A function that is no coroutine, calls a ramp and is called itself may hand its caller the
    // coroutine it made (a lambda that returns `coro()`): its callers are looked at too.
    let maybe: FxHashSet<&str> = callers_of_ramps.iter().map(|&i| m.item_name(i)).collect();
    for i in m.definitions().filter(|_| !maybe.is_empty()) {
        let mut calls_one = false;
        for name in callees(i) {
            if maybe.contains(name) && name != m.item_name(i) {
                w.wrappers.insert(name.to_string());
                calls_one = true;
            }
        }
        if calls_one && !is_candidate.contains(&i) && !callers_of_ramps.contains(&i) {
            w.callers.push(i);
        }
    }
    w.callers.extend(callers_of_ramps);
    w
}

/// The ramps among `ramps` that some call marks safe to elide (`take_safe_marks`), by a scan of the
/// text: a call line with the attribute or one of `safe_groups`, or any ramp called in a function
/// that uses `llvm.coro.safe.elide`. Such a ramp gets a twin whatever allocator it uses, as LLVM
/// makes its `.noalloc` variant.
pub fn marked_callees(m: &Module, ramps: &FxHashSet<String>, safe_groups: &[String]) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    let intrinsic = m.globals.contains("@llvm.coro.safe.elide");
    if ramps.is_empty() || (safe_groups.is_empty() && !intrinsic) {
        return out;
    }
    let marked_line = |line: &str| {
        line.split(|c: char| c.is_whitespace() || c == ',')
            .any(|w| w == "coro_elide_safe" || safe_groups.iter().any(|g| g == w))
    };
    for i in m.definitions() {
        let text = m.item_text(i);
        let whole = intrinsic && text.contains("@llvm.coro.safe.elide(");
        for line in text.lines().filter(|l| whole || marked_line(l)) {
            for (k, _) in line.match_indices('@') {
                let name = line[k..].split('(').next().unwrap_or("");
                if ramps.contains(name) {
                    out.insert(name.to_string());
                }
            }
        }
    }
    out
}

/// What `wanted` finds.
#[derive(Default)]
pub struct Wanted {
    /// The presplit coroutines some other function calls: the ones worth an elided twin.
    pub ramps: FxHashSet<String>,
    /// Functions to look at although they use no coroutine intrinsic: callers of ramps and of
    /// wrappers.
    pub callers: Vec<usize>,
    /// Functions that are no coroutine, call a ramp, and are called themselves (`wrapper_twin`).
    pub wrappers: FxHashSet<String>,
}

/// Allocation functions whose calls a program cannot observe beyond the memory they return (when
/// the module does not define them): the only frame allocations llcoro elides, with a module
/// function that only forwards to one (`Prover::forwards_to`). A promise-specific or user-defined
/// allocator may count, log or hand out arena memory the program looks at.
const PLAIN_ALLOCATORS: [&str; 6] = [
    "@_Znwm",
    "@_ZnwmRKSt9nothrow_t",
    "@_ZnwmSt11align_val_t",
    "@_ZnwmSt11align_val_tRKSt9nothrow_t",
    "@_Znwj",
    "@malloc",
];

/// The deallocation functions of `PLAIN_ALLOCATORS`' memory.
const PLAIN_DEALLOCATORS: [&str; 8] = [
    "@_ZdlPv",
    "@_ZdlPvm",
    "@_ZdlPvj",
    "@_ZdlPvSt11align_val_t",
    "@_ZdlPvmSt11align_val_t",
    "@_ZdlPvjSt11align_val_t",
    "@_ZdlPvRKSt9nothrow_t",
    "@free",
];

/// Does coroutine `f` (its `coro.begin` is `begin`) get its frame from a plain allocator and give it
/// back to a plain deallocator, so that a caller's memory in their place changes nothing a program
/// can see? A module function that only forwards to one (`Prover::forwards_to`) counts as one.
pub fn plain_allocator(f: &Function, begin: Inst, src: &str, prover: &mut Prover<'_>, types: &mut TypeTable) -> bool {
    let mut plain = |n: &str, list: &[&str]| {
        if prover.defines(n) { prover.forwards_to(n, list, types) } else { list.contains(&n) }
    };
    let Some(&mem) = f.insts[begin].call_args().get(1) else { return false };
    let sources: Vec<Value> = match f.value_inst(mem) {
        Some(i) if f.insts[i].op == Opcode::Phi => f.insts[i].args.to_vec(),
        _ => vec![mem],
    };
    let allocated = sources.iter().all(|&v| {
        f.const_text(v, src) == Some("null")
            || f.value_inst(v).and_then(|i| f.callee_name(i, src)).is_some_and(|n| plain(n, &PLAIN_ALLOCATORS))
    });
    if !allocated {
        return false;
    }
    // What coro.free gives, and what passes it on unchanged (phis, selects, casts).
    let mut freed: FxHashSet<Value> = f
        .inst_iter()
        .filter(|&(_, i)| intr_of(f, i, src) == Some(Intr::Free))
        .filter_map(|(_, i)| f.insts[i].result)
        .collect();
    loop {
        let more: Vec<Value> = f
            .inst_iter()
            .filter(|&(_, i)| {
                let d = &f.insts[i];
                matches!(d.op, Opcode::Phi | Opcode::Select | Opcode::BitCast | Opcode::AddrSpaceCast)
                    && d.result.is_some_and(|r| !freed.contains(&r))
                    && d.args.iter().any(|a| freed.contains(a))
            })
            .filter_map(|(_, i)| f.insts[i].result)
            .collect();
        if more.is_empty() {
            break;
        }
        freed.extend(more);
    }
    // Every call that gets it.
    f.inst_iter().all(|(_, i)| {
        let d = &f.insts[i];
        !matches!(d.op, Opcode::Call | Opcode::Invoke)
            || !d.call_args().iter().any(|a| freed.contains(a))
            || f.callee_name(i, src).is_some_and(|n| plain(n, &PLAIN_DEALLOCATORS))
    })
}

/// The calls of coroutine `g` that its front end marked safe to elide, and the marks removed: LLVM
/// 20+'s `coro_elide_safe` call-site attribute (in the call's text, or in one of the attribute
/// groups `safe_groups`), and the call whose result or argument an `llvm.coro.safe.elide` names.
/// Clang marks a call so when it is awaited at once (`[[clang::coro_await_elidable]]`): the child
/// ends before the parent goes on, so its frame may live in the parent's, as LLVM's
/// CoroAnnotationElide does without further proof. Marks in a function that is no coroutine are
/// not trusted (LLVM does not either): there they are only removed, by `lower_uses`.
pub fn take_safe_marks(g: &mut Function, src: &str, safe_groups: &[String]) -> FxHashSet<Inst> {
    let mut safe = FxHashSet::default();
    let mut marks = Vec::new();
    for (_, i) in g.inst_iter() {
        if !matches!(g.insts[i].op, Opcode::Call | Opcode::Invoke) {
            continue;
        }
        if intr_of(g, i, src) == Some(Intr::SafeElide) {
            marks.push(i);
            continue;
        }
        let marked = g.insts[i].tmpl.iter().any(|p| match p {
            Piece::Text(t) => t
                .get(src)
                .split(|c: char| c.is_whitespace() || c == ',')
                .any(|w| w == "coro_elide_safe" || (w.starts_with('#') && safe_groups.iter().any(|s| s == w))),
            _ => false,
        });
        if marked {
            safe.insert(i);
        }
    }
    for m in marks {
        let Some(&v) = g.insts[m].call_args().first() else { continue };
        let named = g.value_inst(v).filter(|&c| matches!(g.insts[c].op, Opcode::Call | Opcode::Invoke));
        let passed = g
            .inst_iter()
            .map(|(_, c)| c)
            .filter(|&c| matches!(g.insts[c].op, Opcode::Call | Opcode::Invoke) && g.insts[c].call_args().contains(&v))
            .filter(|&c| c != m);
        safe.extend(named.into_iter().chain(passed));
        g.remove_inst(m);
    }
    safe
}

/// Gives every call in `g` of a ramp in `twins` whose coroutine `g` destroys on every path the
/// frame as an alloca of `g`'s, through the ramp's elided twin. Returns the ramps elided, one per
/// call site.
///
/// `g` may be a presplit coroutine itself (a child created and awaited by its parent): the alloca
/// then lives in the parent's frame, which outlasts the parent's suspends, so a suspend is not a
/// way out of `g` (its `-1` edge is not followed); the child must be destroyed before every path
/// that ends the parent's frame (its cleanup) or leaves it by unwinding.
pub fn elide_calls(
    g: &mut Function,
    types: &mut TypeTable,
    src: &str,
    twins: &FxHashMap<String, Twin>,
    safe: &FxHashSet<Inst>,
    prover: &mut Prover<'_>,
) -> Vec<String> {
    let mut done = Vec::new();
    if twins.is_empty() {
        return done;
    }
    let calls: Vec<(Inst, String)> = g
        .inst_iter()
        .filter(|&(_, i)| matches!(g.insts[i].op, Opcode::Call | Opcode::Invoke))
        .filter_map(|(_, i)| g.callee_name(i, src).filter(|n| twins.contains_key(*n)).map(|n| (i, n.to_string())))
        .collect();
    let suspend_exits = suspend_exits(g, src);
    let ptr_size = prover.layout().pointer_size(0);
    for (c, ramp) in calls {
        let (Some(entry), Some(tw)) = (g.entry(), twins.get(&ramp)) else {
            continue;
        };
        let Twin { name: twin, size, align, out, .. } = tw;
        let destroys = if safe.contains(&c) { Some(Vec::new()) } else { None };
        let destroys = destroys.or_else(|| destroyed_on_every_path(g, c, *out, src, types, prover, &suspend_exits));
        if destroys.is_none() && !made_destroyed(g, c, &ramp, *out, src, types, prover) {
            continue;
        }
        if !matches!(g.insts[c].extra, Extra::Call { .. }) {
            continue;
        }
        // The frame: an alloca at the top of the entry block, live for the whole call of `g`.
        let ty = types.intern(TypeData::Array(*size, types.i8));
        let mut d = InstData::new(Opcode::Alloca, types.ptr, vec![t(&format!("alloca [{size} x i8], align {align}"))]);
        d.extra = Extra::Alloca { ty, align: Some(*align as u32) };
        let a = g.create_inst(types, d);
        let Some(mem) = g.insts[a].result else { continue };
        let name = g.unique_name("coro.elided.frame");
        g.values[mem].name = Some(name);
        g.insert_inst_at(entry, 0, a);
        if pass_frame(g, types, src, c, twin, mem) {
            let marks = prover.lifetime_takes_size().map(|sized| Lifetime { mem, size: *size, sized });
            if let Some(l) = &marks {
                l.start_before(g, types, c);
            }
            for (call, cell) in destroys.unwrap_or_default() {
                // The frame's bytes are free again once it is destroyed.
                if let Some(l) = &marks {
                    l.end_after(g, types, call);
                }
                if !(tw.cleanup_does_nothing && drop_destroy(g, call, src, types, prover)) {
                    restate_before_destroy(g, types, call, cell, mem, &tw.cleanup, ptr_size);
                }
            }
            done.push(ramp);
        }
    }
    done
}

/// Lifetime markers for an elided frame `mem` of `size` bytes, with the module's own declarations
/// (`sized`: LLVM 21 and earlier take the size first): alive from just before the twin call to just
/// after each destroy the walk found. A path that destroys some other way keeps it alive to the
/// end, as without markers. Frames of children that are never alive together then share bytes in
/// a parent coroutine's frame (the frame engine reads the markers), and -O2 colours them together
/// on other callers' stacks. Only where the module declares `.p0` markers: opaque pointers.
struct Lifetime {
    mem: Value,
    size: u64,
    sized: bool,
}

impl Lifetime {
    fn marker(&self, g: &mut Function, types: &mut TypeTable, name: &str) -> Inst {
        let callee = g.const_value(types.ptr, name);
        let mut args = Vec::new();
        if self.sized {
            args.push(g.const_value(types.i64, &self.size.to_string()));
        }
        args.push(self.mem);
        let void = types.void;
        Builder::new(g, types).call("", "", void, callee, &args)
    }

    /// Before the twin call `c`; when `c` is an `invoke` whose landing pad only it reaches, the
    /// frame ends again there (a ramp that throws has made nothing, and a body's exception path
    /// often runs on to its final suspend).
    fn start_before(&self, g: &mut Function, types: &mut TypeTable, c: Inst) {
        let start = self.marker(g, types, "@llvm.lifetime.start.p0");
        g.insert_inst_before(c, start);
        let (Some(cb), Some(&pad)) = (g.insts[c].block, g.insts[c].blocks.get(1)) else { return };
        if g.insts[c].op != Opcode::Invoke {
            return;
        }
        let only_c = g.layout.iter().all(|&b| b == cb || !g.successors(b).contains(&pad));
        let at = g.first_insertion_point(pad);
        let after_landingpad =
            at > 0 && g.blocks[pad].insts.get(at - 1).is_some_and(|&x| g.insts[x].op == Opcode::LandingPad);
        if only_c && after_landingpad {
            let end = self.marker(g, types, "@llvm.lifetime.end.p0");
            g.insert_inst_at(pad, at, end);
        }
    }

    /// After `call`, a plain call (after an `invoke`, the frame stays alive on both edges).
    fn end_after(&self, g: &mut Function, types: &mut TypeTable, call: Inst) {
        let Some(b) = g.insts[call].block else { return };
        if g.insts[call].op != Opcode::Call {
            return;
        }
        let Some(pos) = g.blocks[b].insts.iter().position(|&x| x == call) else { return };
        let end = self.marker(g, types, "@llvm.lifetime.end.p0");
        g.insert_inst_at(b, pos + 1, end);
    }
}

/// Removes `call`, which destroys an elided frame whose `.cleanup` does nothing, when the callee
/// does nothing else (`Prover::only_destroys_once`): a task's destructor after the child was
/// awaited, as CoroElide removes a destroy of an elided frame. Restating the frame for it instead
/// would leave its stores in the parent's `.cleanup`, a switch -O2 cannot fold. Returns whether
/// it did.
fn drop_destroy(g: &mut Function, call: Inst, src: &str, types: &mut TypeTable, prover: &mut Prover<'_>) -> bool {
    // Nothing may use what it returns once it is gone.
    let d = &g.insts[call];
    let unused = d.result.is_none_or(|r| !g.inst_iter().any(|(_, i)| g.insts[i].args.contains(&r)));
    let only =
        d.op == Opcode::Call && unused && g.callee_name(call, src).is_some_and(|n| prover.only_destroys_once(n, types));
    if only {
        g.remove_inst(call);
    }
    only
}

/// Writes again, just before `call` destroys the elided frame `mem` kept in task-object cell
/// `cell`, what the walk proved is there: the frame pointer in the cell and `cleanup` in the
/// frame's destroy slot. Both are already there; said again in the function that destroys, they
/// let -O2 see which coroutine is destroyed and call its `.cleanup` directly (usually empty at the
/// final suspend, so the null test and the indirect call go), as CoroElide does where the handle
/// is still an SSA value. Without this, a parent coroutine destroys each awaited child after a
/// resume through memory it cannot see (`baker_task` of bench/parity.sh). Opaque pointers only.
fn restate_before_destroy(
    g: &mut Function,
    types: &mut TypeTable,
    call: Inst,
    cell: (Value, i64),
    mem: Value,
    cleanup: &str,
    ptr_size: u64,
) {
    let ptr = types.ptr;
    if !matches!(types.get(ptr), TypeData::Ptr(0)) || g.values[cell.0].ty != ptr || g.values[mem].ty != ptr {
        return;
    }
    let Ok(off) = u64::try_from(cell.1) else { return };
    let align = ptr_size;
    let cleanup_v = g.const_value(ptr, cleanup);
    let mut b = Builder::new(g, types);
    let mut seq = Vec::new();
    let at = if off == 0 {
        cell.0
    } else {
        let gep = b.gep_i8(cell.0, off);
        seq.push(gep);
        b.result(gep)
    };
    seq.push(b.store(mem, at, align));
    let slot = b.gep_i8(mem, ptr_size);
    let slot_v = b.result(slot);
    seq.push(slot);
    seq.push(b.store(cleanup_v, slot_v, align));
    for i in seq {
        g.insert_inst_before(call, i);
    }
}

/// The symbolic interpreter's answer (`Prover::destroys_made`) for call `c` of `ramp` in `g`, where
/// the task-object check cannot see the destroy. Only for a `g` that is no coroutine and calls
/// `ramp` once, outside any loop: the interpreter's frame is the one coroutine that call makes.
fn made_destroyed(
    g: &Function,
    c: Inst,
    ramp: &str,
    out: Option<HandleOut>,
    src: &str,
    types: &mut TypeTable,
    prover: &mut Prover<'_>,
) -> bool {
    let mut calls = 0;
    for (_, i) in g.inst_iter() {
        if intr_of(g, i, src) == Some(Intr::Begin) {
            return false;
        }
        if matches!(g.insts[i].op, Opcode::Call | Opcode::Invoke) && g.callee_name(i, src) == Some(ramp) {
            calls += 1;
        }
    }
    let Some(cb) = g.insts[c].block else { return false };
    // On a cycle: `cb` reached again from its successors.
    if calls != 1 || g.reachable_along(g.successors(cb), &|_| None)[cb] {
        return false;
    }
    prover.destroys_made(g, ramp, out.unwrap_or(HandleOut::Returned), types)
}

/// Makes call `c` of a ramp a call of its twin `twin`, with `mem` as one more argument after the
/// others. False when the call's text has no place for it (nothing is changed then).
fn pass_frame(g: &mut Function, types: &mut TypeTable, src: &str, c: Inst, twin: &str, mem: Value) -> bool {
    let Extra::Call { callee, nargs, fn_ty } = g.insts[c].extra else { return false };
    let n = nargs as usize;
    let tmpl = &g.insts[c].tmpl;
    let Some(at) = tmpl.iter().position(|p| match p {
        Piece::Arg(k) if n > 0 => *k as usize == n - 1,
        Piece::Arg(k) => *k == callee,
        _ => false,
    }) else {
        return false;
    };
    // The new text after the last argument (or, with none, in place of the text that opens the
    // list, `(` or `()`), decided before anything changes.
    let (end, added) = if n > 0 {
        (at + 1, vec![t(", ptr "), Piece::Arg(n as u16)])
    } else {
        let Some(Piece::Text(after)) = tmpl.get(at + 1) else { return false };
        let after = after.get(src).to_string();
        let Some(open) = after.find('(') else { return false };
        (at + 2, vec![t(&after[..=open]), t("ptr "), Piece::Arg(0), t(&after[open + 1..])])
    };
    let twin_v = g.const_value(types.ptr, twin);
    let d = &mut g.insts[c];
    let mut tmpl = d.tmpl.to_vec();
    for p in tmpl.iter_mut() {
        if let Piece::Arg(k) = p
            && *k as usize >= n
        {
            *k += 1;
        }
    }
    d.args.insert(n, mem);
    tmpl.splice(at + 1..end, added);
    d.tmpl = tmpl.into();
    let callee = callee + 1;
    d.args[callee as usize] = twin_v;
    let fn_ty = match types.get(fn_ty).clone() {
        TypeData::Func { ret, params, vararg } => {
            let mut ps = params.to_vec();
            ps.push(types.ptr);
            types.intern(TypeData::Func { ret, params: ps.into(), vararg })
        }
        _ => fn_ty,
    };
    g.insts[c].extra = Extra::Call { callee, nargs: nargs + 1, fn_ty };
    true
}

/// The twin of a wrapper of a ramp. `g` is no coroutine; it calls exactly one ramp of `twins` once,
/// and every normal return of `g` gives its caller that coroutine's frame pointer where `prover`
/// shows (it follows `g` into the ramp): a lambda that returns `coro()`. The twin, `@g.elided`,
/// takes the frame's memory as one more parameter and passes it to the ramp's twin, so that a
/// caller that destroys what `g` returns on every path can give the frame from its own stack.
/// Returns the twin function, its `Twin` and the ramp it wraps.
pub fn wrapper_twin(
    g: &Function,
    types: &mut TypeTable,
    src: &str,
    twins: &FxHashMap<String, Twin>,
    globals: &FxHashSet<Box<str>>,
    prover: &mut Prover<'_>,
) -> Option<(Function, Twin, String)> {
    let calls: Vec<(Inst, &str)> = g
        .inst_iter()
        .filter(|&(_, i)| matches!(g.insts[i].op, Opcode::Call | Opcode::Invoke))
        .filter_map(|(_, i)| g.callee_name(i, src).filter(|n| twins.contains_key(*n)).map(|n| (i, n)))
        .collect();
    let [(c, ramp)] = calls.as_slice() else { return None };
    let rt = twins.get(*ramp)?;
    let out = prover.wrapper(g, ramp, rt.out.unwrap_or(HandleOut::Returned), types)?;
    let mut w = g.clone();
    crate::coro::split::make_internal_twin(&mut w, src, globals);
    let mem = crate::coro::split::push_frame_memory(&mut w, types, rt.align, rt.size);
    if !pass_frame(&mut w, types, src, *c, &rt.name, mem) {
        return None;
    }
    let twin = Twin { name: w.name.to_string(), out: Some(out), ..rt.clone() };
    Some((w, twin, ramp.to_string()))
}

/// The suspend edges of a presplit coroutine `g` (none for other functions): from the block of a
/// `switch` on a `coro.suspend` result to its default destination, the `-1` way, where the
/// coroutine returns to whoever resumed it while its frame lives on. Only that canonical form is
/// recognised; a suspend written otherwise keeps its edge, which can only prevent an elision.
fn suspend_exits(g: &Function, src: &str) -> FxHashSet<(Block, Block)> {
    let mut out = FxHashSet::default();
    for (b, i) in g.inst_iter() {
        let d = &g.insts[i];
        if d.op != Opcode::Switch {
            continue;
        }
        let Some(&cond) = d.args.first() else { continue };
        let Some(def) = g.value_inst(cond) else { continue };
        if intr_of(g, def, src) != Some(Intr::Suspend) {
            continue;
        }
        if let Some(&default) = d.blocks.first() {
            out.insert((b, default));
        }
    }
    out
}

/// Where a pointer of `g` points: an alloca of `g` and a constant byte offset into it. A pointer
/// loaded from a reference slot (`refs`) points where the slot's one address does.
fn address(
    g: &Function,
    v: Value,
    src: &str,
    dl: &llir::layout::DataLayout,
    types: &TypeTable,
    refs: &FxHashMap<Value, (Value, i64)>,
) -> Option<(Value, i64)> {
    let i = g.value_inst(v)?;
    let d = &g.insts[i];
    match d.op {
        Opcode::Alloca => Some((v, 0)),
        Opcode::Load => refs.get(d.args.first()?).copied(),
        Opcode::BitCast | Opcode::AddrSpaceCast => address(g, *d.args.first()?, src, dl, types, refs),
        Opcode::GetElementPtr => {
            let (a, off) = address(g, *d.args.first()?, src, dl, types, refs)?;
            let Extra::Gep { source } = d.extra else { return None };
            let idx: Vec<i64> = d
                .args
                .get(1..)?
                .iter()
                .map(|&x| g.const_int(x, src).and_then(|c| i64::try_from(c).ok()))
                .collect::<Option<_>>()?;
            Some((a, off.checked_add(dl.gep_offset(types, source, &idx)?)?))
        }
        _ => None,
    }
}

/// The allocas of `g` that hold one address and nothing else, as a C++ reference variable does
/// (`auto&& __range = numbers();` in a range-based `for`): every use stores that same address (of
/// another alloca) into it or loads it back. Each with the address it holds.
fn reference_slots(
    g: &Function,
    src: &str,
    dl: &llir::layout::DataLayout,
    types: &TypeTable,
) -> FxHashMap<Value, (Value, i64)> {
    let none = FxHashMap::default();
    // Per alloca: the address stored so far (`Ok(None)`: none yet), or `Err` once it is not one.
    let mut held: FxHashMap<Value, Result<Option<(Value, i64)>, ()>> = FxHashMap::default();
    for (_, i) in g.inst_iter() {
        let d = &g.insts[i];
        if d.op == Opcode::Alloca {
            if let Some(r) = d.result {
                held.entry(r).or_insert(Ok(None));
            }
            continue;
        }
        let marker = d.is_debug()
            || g.callee_name(i, src).is_some_and(|n| n.starts_with("@llvm.lifetime") || n.starts_with("@llvm.dbg"));
        for (k, &a) in d.args.iter().enumerate() {
            if g.value_inst(a).is_none_or(|x| g.insts[x].op != Opcode::Alloca) {
                continue;
            }
            let stored = match d.op {
                Opcode::Load if k == 0 => Ok(None),
                Opcode::Store if k == 1 => {
                    d.args.first().and_then(|&x| address(g, x, src, dl, types, &none)).map(Some).ok_or(())
                }
                _ if marker => Ok(None),
                _ => Err(()),
            };
            let entry = held.entry(a).or_insert(Ok(None));
            *entry = match (*entry, stored) {
                (Err(()), _) | (_, Err(())) => Err(()),
                (Ok(None), Ok(x)) | (Ok(x), Ok(None)) => Ok(x),
                (Ok(Some(x)), Ok(Some(y))) if x == y => Ok(Some(x)),
                _ => Err(()),
            };
        }
    }
    held.into_iter().filter_map(|(k, v)| Some((k, v.ok()??))).collect()
}

/// What is known, on a path, of the coroutine `destroyed_on_every_path` follows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Life {
    Destroyed,
    Alive,
    Lost,
}

/// Is the coroutine ramp call `c` creates destroyed on every path before `g` returns, unwinds out,
/// or comes back to `c`? It is destroyed by `coro.destroy` of the call's result, or, when the
/// handle is kept in a task object of `g` (`out`, where `provenance` proved the ramp leaves it), by a
/// call that `prover` sees destroy it. A path that ends in `unreachable` never returns, so it counts.
/// When it is, returns the calls that destroy it through the task object's cell, each with the
/// cell, that every path reaches with the coroutine alive (so the cell holds its handle there).
fn destroyed_on_every_path(
    g: &Function,
    c: Inst,
    out: Option<HandleOut>,
    src: &str,
    types: &mut TypeTable,
    prover: &mut Prover<'_>,
    suspend_exits: &FxHashSet<(Block, Block)>,
) -> Option<Vec<(Inst, (Value, i64))>> {
    let dl = prover.layout();
    let refs = reference_slots(g, src, dl, types);
    let handle = g.insts[c].result;
    let cell = handle_cell(g, c, out, src, dl, types, &refs)?;
    let start = after_ramp(g, c)?;
    let walk = Walk { g, src, dl, refs: &refs, out, handle, cell, ptr_size: dl.pointer_size(0) as i64 };
    // Each block is walked once per state a path arrives in (a path where the coroutine is
    // destroyed is walked apart from one where it is alive, to know which calls see it alive on
    // every path); a path that loses it ends the walk.
    let mut arrived: FxHashSet<(Block, Life)> = FxHashSet::default();
    let mut work: Vec<(Block, usize, Life)> = vec![(start.0, start.1, Life::Alive)];
    let mut ask = Ask { types, prover, effects: FxHashMap::default() };
    // Calls that destroyed it, and calls some path reaches after it was destroyed.
    let mut destroys: Vec<Inst> = Vec::new();
    let mut reached_destroyed: FxHashSet<Inst> = FxHashSet::default();
    'blocks: while let Some((b, from, mut s)) = work.pop() {
        for &i in g.blocks[b].insts.iter().skip(from) {
            if i == c {
                // Back at the ramp call: alive, one alloca would hold two frames; destroyed, what
                // follows belongs to the next coroutine made here.
                if s != Life::Destroyed {
                    return None;
                }
                continue 'blocks;
            }
            let before = s;
            s = walk.step(i, s, &mut ask);
            match g.insts[i].op {
                Opcode::Ret | Opcode::Resume | Opcode::CleanupRet | Opcode::CatchSwitch if s != Life::Destroyed => {
                    return None;
                }
                Opcode::Call | Opcode::Invoke if before == Life::Destroyed => {
                    reached_destroyed.insert(i);
                }
                Opcode::Call | Opcode::Invoke if s == Life::Destroyed && !destroys.contains(&i) => destroys.push(i),
                _ => {}
            }
            // A path through a call that never comes back is no way out.
            if g.insts[i].op == Opcode::Call
                && s != Life::Lost
                && g.callee_name(i, src).is_some_and(|n| !n.starts_with("@llvm.") && ask.prover.never_returns(n))
            {
                continue 'blocks;
            }
        }
        if s == Life::Lost {
            return None;
        }
        // An invoke of a function that cannot throw never takes its unwind edge.
        let dead_unwind = g.terminator(b).and_then(|t| {
            (g.insts[t].op == Opcode::Invoke && g.callee_name(t, src).is_some_and(|n| ask.prover.cannot_unwind(n)))
                .then(|| g.insts[t].blocks.get(1).copied())
                .flatten()
        });
        for &succ in g.successors(b) {
            if suspend_exits.contains(&(b, succ)) || Some(succ) == dead_unwind {
                continue;
            }
            if arrived.insert((succ, s)) {
                work.push((succ, 0, s));
            }
        }
    }
    let through_cell = |i: &Inst| intr_of(g, *i, src) != Some(Intr::Destroy) && !reached_destroyed.contains(i);
    Some(cell.map_or_else(Vec::new, |cell| destroys.into_iter().filter(through_cell).map(|i| (i, cell)).collect()))
}

/// The cell of a task object holding the handle ramp call `c` makes: (alloca, offset), Some(None)
/// when the handle is not kept in one, None when where it is kept is not known.
fn handle_cell(
    g: &Function,
    c: Inst,
    out: Option<HandleOut>,
    src: &str,
    dl: &llir::layout::DataLayout,
    types: &TypeTable,
    refs: &FxHashMap<Value, (Value, i64)>,
) -> Option<Option<(Value, i64)>> {
    let handle = g.insts[c].result;
    Some(match out {
        Some(HandleOut::InSret { param, off }) => {
            let &p = g.insts[c].call_args().get(param)?;
            let (a, o) = address(g, p, src, dl, types, refs)?;
            Some((a, o + off))
        }
        // A returned handle whose only use is a store into a task object.
        Some(HandleOut::Returned) => handle.and_then(|r| {
            let mut users = g.inst_iter().map(|(_, i)| i).filter(|&i| g.insts[i].args.contains(&r));
            match (users.next(), users.next()) {
                (Some(st), None) if g.insts[st].op == Opcode::Store && g.insts[st].args.first() == Some(&r) => {
                    address(g, *g.insts[st].args.get(1)?, src, dl, types, refs)
                }
                _ => None,
            }
        }),
        // The promise pointer in a task object: `made_destroyed` follows it.
        Some(HandleOut::PromiseReturned) | None => None,
    })
}

/// Where the coroutine ramp call `c` makes first exists: (block, index of the instruction). After
/// an `invoke` of the ramp, that is the normal edge only: a ramp that throws has made nothing to
/// destroy.
fn after_ramp(g: &Function, c: Inst) -> Option<(Block, usize)> {
    let cb = g.insts[c].block?;
    Some(match g.insts[c].op {
        Opcode::Invoke => (*g.insts[c].blocks.first()?, 0),
        _ => (cb, g.blocks[cb].insts.iter().position(|&x| x == c).map_or(0, |p| p + 1)),
    })
}

/// What `destroyed_on_every_path` follows: the coroutine's handle and the task object's cell
/// holding it.
struct Walk<'a> {
    g: &'a Function,
    src: &'a str,
    dl: &'a llir::layout::DataLayout,
    refs: &'a FxHashMap<Value, (Value, i64)>,
    out: Option<HandleOut>,
    handle: Option<Value>,
    cell: Option<(Value, i64)>,
    ptr_size: i64,
}

/// What `destroyed_on_every_path` asks of the callees, and the answers so far (many calls
/// share a method).
struct Ask<'a, 'p> {
    types: &'a mut TypeTable,
    prover: &'a mut Prover<'p>,
    effects: FxHashMap<(String, usize, i64), Effect>,
}

impl Walk<'_> {
    /// The state after instruction `i`, given `s` before it.
    fn step(&self, i: Inst, s: Life, ask: &mut Ask<'_, '_>) -> Life {
        let (g, src) = (self.g, self.src);
        let d = &g.insts[i];
        if s == Life::Alive && self.handle.is_some() && intr_of(g, i, src) == Some(Intr::Destroy) {
            if d.call_args().first().copied() == self.handle { Life::Destroyed } else { s }
        } else if s == Life::Alive
            && !d.is_debug()
            && let Some(cell) = self.cell
        {
            self.cell_step(i, cell, s, ask)
        } else {
            s
        }
    }

    /// What instruction `i` does to `cell`, through every operand pointing into the task object.
    fn cell_step(&self, i: Inst, cell: (Value, i64), mut s: Life, ask: &mut Ask<'_, '_>) -> Life {
        let (g, src, dl, ptr_size) = (self.g, self.src, self.dl, self.ptr_size);
        let d = &g.insts[i];
        for (k, &v) in d.args.iter().enumerate() {
            let Some((a, o)) = address(g, v, src, dl, ask.types, self.refs) else { continue };
            if a != cell.0 {
                continue;
            }
            let is_call_arg = k < d.call_args().len();
            s = match d.op {
                Opcode::Load if k == 0 => s,
                // The coerced result going into its cell, or a store beside the cell.
                // The address kept in a reference variable: its loads are this address.
                Opcode::Store if k == 0 && d.args.get(1).is_some_and(|p| self.refs.contains_key(p)) => s,
                Opcode::Store if k == 1 => {
                    let size = d.args.first().map_or(ptr_size, |&x| dl.store_size(ask.types, g.values[x].ty) as i64);
                    let hits = o < cell.1 + ptr_size && cell.1 < o + size;
                    let initial = self.out == Some(HandleOut::Returned) && self.handle == d.args.first().copied();
                    if hits && !initial { Life::Lost } else { s }
                }
                Opcode::Call | Opcode::Invoke if is_call_arg => self.call_effect(i, k, cell.1 - o, s, ask),
                Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast if k == 0 => s,
                _ => Life::Lost,
            };
            if s == Life::Destroyed {
                break;
            }
        }
        s
    }

    /// What call `i` does to the cell, given a pointer `at` bytes before it as argument `k`.
    fn call_effect(&self, i: Inst, k: usize, at: i64, s: Life, ask: &mut Ask<'_, '_>) -> Life {
        let (g, src) = (self.g, self.src);
        let d = &g.insts[i];
        // `coro.await.suspend.*(awaiter, frame, wrapper)` runs `wrapper(awaiter,
        // frame)`: what the wrapper does to the awaiter is what this does.
        let wrapper = matches!(
            intr_of(g, i, src),
            Some(Intr::AwaitSuspendVoid | Intr::AwaitSuspendBool | Intr::AwaitSuspendHandle)
        )
        .then(|| d.call_args().get(2).and_then(|&w| g.const_text(w, src)))
        .flatten();
        let (name, nargs) = match wrapper {
            Some(w) if k == 0 => (w, 2),
            Some(_) => ("", 0),
            None => (g.callee_name(i, src).unwrap_or(""), d.call_args().len()),
        };
        // The end of the object's lifetime leaves the frame as it is (an exit
        // still needs it destroyed); a copy out of the object reads the cell.
        let copies_out = k == 1 && (name.starts_with("@llvm.memcpy") || name.starts_with("@llvm.memmove"));
        if name.starts_with("@llvm.lifetime.") || name.starts_with("@llvm.dbg") || copies_out {
            return s;
        }
        if at < 0 {
            return Life::Lost;
        }
        let key = (name.to_string(), k, at);
        let Ask { types, prover, effects } = ask;
        let e = *effects.entry(key).or_insert_with(|| prover.effect(name, k, nargs, at, types));
        match e {
            Effect::Keeps => s,
            Effect::Destroys => Life::Destroyed,
            Effect::Unknown => Life::Lost,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `body` as `@caller`, with `@gen` a ramp and `@use` an opaque function, and returns
    /// whether its first call of `@gen` is elided.
    fn elided(body: &str) -> bool {
        elided_with("", body, None)
    }

    /// `elided`, with the module text `extra` too, and `@gen` leaving its frame as `out` says.
    fn elided_with(extra: &str, body: &str, out: Option<HandleOut>) -> bool {
        lowered_with(extra, body, out).is_some()
    }

    /// `@caller` printed after `elide_calls`, when its first call of `@gen` is elided (`elided_with`).
    fn lowered_with(extra: &str, body: &str, out: Option<HandleOut>) -> Option<String> {
        lowered_twin(extra, body, out, false)
    }

    /// `lowered_with`, `@gen.cleanup` doing nothing when `nothing` says so.
    fn lowered_twin(extra: &str, body: &str, out: Option<HandleOut>, nothing: bool) -> Option<String> {
        let src = format!(
            "declare ptr @gen()\ndeclare void @use(ptr)\ndeclare void @llvm.coro.destroy(ptr)\n\
             declare i8 @llvm.coro.suspend(token, i1)\ndefine void @caller(i1 %c) {{\n{body}}}\n{extra}"
        );
        let m = Module::parse(src).map_err(|e| e.0).expect("parses");
        let i = m.definitions().find(|&i| m.item_name(i) == "@caller").expect("@caller");
        let mut types = m.types.clone();
        let mut g = m.parse_function_with(i, &mut types).expect("function");
        let twin = Twin {
            name: "@gen.elided".to_string(),
            size: 24,
            align: 8,
            out,
            cleanup: "@gen.cleanup".to_string(),
            cleanup_does_nothing: nothing,
        };
        let twins: FxHashMap<String, Twin> = [("@gen".to_string(), twin)].into_iter().collect();
        let src = m.src.clone();
        let dl = llir::layout::DataLayout::from_module_text(&src);
        let names = crate::coro::provenance::names(&m);
        let mut parsed = crate::coro::provenance::Parsed::default();
        let mut prover = Prover::new(&m, &dl, &names, &mut parsed);
        let out = elide_calls(&mut g, &mut types, &src, &twins, &FxHashSet::default(), &mut prover);
        if out.is_empty() {
            return None;
        }
        let text = llir::print::print_function(&g, &types, &src);
        assert!(text.contains("%coro.elided.frame = alloca [24 x i8], align 8"), "{text}");
        assert!(text.contains("call ptr @gen.elided(ptr %coro.elided.frame)"), "{text}");
        llir::verify::verify_function(&g).expect("verifies");
        Some(text)
    }

    #[test]
    fn destroyed_on_every_path() {
        let straight = "entry:\n  %h = call ptr @gen()\n  call void @use(ptr %h)\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\n";
        assert!(elided(straight));
        // Both arms destroy, and a path that ends in unreachable never returns.
        let arms = "entry:\n  %h = call ptr @gen()\n  br i1 %c, label %a, label %b\na:\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\nb:\n  unreachable\n";
        assert!(elided(arms));
    }

    #[test]
    fn a_path_without_destroy_keeps_the_heap() {
        let one_arm = "entry:\n  %h = call ptr @gen()\n  br i1 %c, label %a, label %b\na:\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\nb:\n  ret void\n";
        assert!(!elided(one_arm));
        // Created again in a loop before the last one is destroyed: one alloca cannot hold both.
        let loop_ = "entry:\n  br label %l\nl:\n  %h = call ptr @gen()\n  br i1 %c, label %l, label %x\nx:\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\n";
        assert!(!elided(loop_));
    }

    /// A coroutine creating a child: its suspend returns to whoever resumed it (`-1`) while its
    /// frame, holding the child's, lives on; the child must be gone by every other way out.
    const SUSPENDING: &str = "entry:\n  %h = call ptr @gen()\n  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  \
        switch i8 %s, label %out [\n    i8 0, label %resumed\n    i8 1, label %cleanup\n  ]\n\
        resumed:\n  call void @llvm.coro.destroy(ptr %h)\n  br label %out\n\
        cleanup:\n  CLEANUP\n  br label %out\nout:\n  ret void\n";

    #[test]
    fn a_suspend_is_not_a_way_out_of_a_coroutine() {
        assert!(elided(&SUSPENDING.replace("CLEANUP", "call void @llvm.coro.destroy(ptr %h)")));
    }

    #[test]
    fn a_coroutine_destroyed_without_destroying_its_child_keeps_the_heap() {
        assert!(!elided(&SUSPENDING.replace("CLEANUP", "call void @use(ptr %h)")));
    }

    /// Functions for a handle kept in a task object `%t` (`TASK`): `@dtor` destroys what the object
    /// holds; the others are callees whose headers or bodies say whether they come back or throw.
    const TASK_FUNCTIONS: &str = "define void @dtor(ptr %this) {\n  %x = load ptr, ptr %this\n  \
        call void @llvm.coro.destroy(ptr %x)\n  ret void\n}\n\
        declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\ndeclare void @llvm.lifetime.end.p0(i64, ptr)\n\
        declare void @stop() #0\ndeclare void @go_on()\ndeclare void @safe() #1\ndeclare void @risky()\n\
        declare i32 @puts(ptr)\ndeclare i32 @__gxx_personality_v0(...)\n\
        define void @dies() {\n  call void @stop()\n  unreachable\n}\n\
        attributes #0 = { noreturn }\nattributes #1 = { nounwind }\n";
    const TASK: &str = "entry:\n  %t = alloca ptr\n  %o = alloca ptr\n  %h = call ptr @gen()\n  store ptr %h, ptr %t\n";

    fn task_elided(rest: &str) -> bool {
        elided_with(TASK_FUNCTIONS, &format!("{TASK}{rest}"), Some(HandleOut::Returned))
    }

    /// `@gen` returns its promise pointer, kept in a task object `%t` (a task that stores the
    /// promise's `this`); `@caller` rebuilds the handle from it and destroys that. `REST` follows.
    const PROMISE_TASK: &str = "entry:\n  %t = alloca ptr\n  %p = call ptr @gen()\n  store ptr %p, ptr %t\n  \
        %q = load ptr, ptr %t\n  %h = call ptr @llvm.coro.promise(ptr %q, i32 8, i1 true)\n  \
        %x = call ptr @llvm.coro.promise(ptr %h, i32 8, i1 false)\nREST";
    const PROMISE_FUNCTIONS: &str = "declare ptr @llvm.coro.promise(ptr, i32, i1)\n\
        declare void @llvm.coro.resume(ptr)\ndeclare void @go_on()\n@keep = global ptr null\n";

    fn promise_task_elided(rest: &str) -> bool {
        elided_with(PROMISE_FUNCTIONS, &PROMISE_TASK.replace("REST", rest), Some(HandleOut::PromiseReturned))
    }

    #[test]
    fn a_handle_rebuilt_from_the_promise_pointer_is_followed() {
        // `from_address(m.p == &h.promise() ? h.address() : nullptr).destroy()`.
        let compared = "  %same = icmp eq ptr %x, %q\n  %d = select i1 %same, ptr %h, ptr null\n  \
            call void @llvm.coro.destroy(ptr %d)\n  ret void\n";
        assert!(promise_task_elided(compared));
        let not_on_every_path = "  br i1 %c, label %a, label %b\na:\n  call void @llvm.coro.destroy(ptr %h)\n  \
            ret void\nb:\n  ret void\n";
        assert!(!promise_task_elided(not_on_every_path));
    }

    /// What the caller wrote into the promise is forgotten once coroutine code may have run: a
    /// resume, or any unknown call after the frame got out (into a global, or as an integer).
    #[test]
    fn the_promise_is_not_trusted_after_the_coroutine_ran() {
        let decided_by_the_promise = |between: &str| {
            format!(
                "  store i32 1, ptr %x\n{between}  %f = load i32, ptr %x\n  %one = icmp eq i32 %f, 1\n  \
                 br i1 %one, label %a, label %b\na:\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\n\
                 b:\n  ret void\n"
            )
        };
        assert!(promise_task_elided(&decided_by_the_promise("")), "nothing ran: the cell is known");
        assert!(!promise_task_elided(&decided_by_the_promise("  call void @llvm.coro.resume(ptr %h)\n")));
        assert!(promise_task_elided(&decided_by_the_promise("  call void @go_on()\n")), "the frame is not out");
        assert!(!promise_task_elided(&decided_by_the_promise("  store ptr %h, ptr @keep\n  call void @go_on()\n")));
        // An integer of the frame's address can come back as a pointer.
        assert!(!promise_task_elided(&decided_by_the_promise("  %n = ptrtoint ptr %h to i64\n  call void @go_on()\n")));
    }

    #[test]
    fn a_copy_out_of_the_task_object_reads_the_handle() {
        let copy = |to: &str, from: &str| {
            format!(
                "  call void @llvm.memcpy.p0.p0.i64(ptr {to}, ptr {from}, i64 8, i1 false)\n  \
                 call void @dtor(ptr %t)\n  ret void\n"
            )
        };
        assert!(task_elided(&copy("%o", "%t")));
        // A copy into the object overwrites the handle.
        assert!(!task_elided(&copy("%t", "%o")));
    }

    /// When the child's `.cleanup` does nothing, a destroy by a method that does nothing else goes,
    /// as CoroElide removes it; a method that also writes the object (`reset`) stays, restated.
    #[test]
    fn a_destroy_that_does_nothing_goes() {
        let straight = "  call void @use(ptr null)\n  call void @dtor(ptr %t)\n  ret void\n";
        let body = format!("{TASK}{straight}");
        let text = lowered_twin(TASK_FUNCTIONS, &body, Some(HandleOut::Returned), true).expect("elided");
        assert!(!text.contains("call void @dtor"), "{text}");
        let text = lowered_twin(TASK_FUNCTIONS, &body, Some(HandleOut::Returned), false).expect("elided");
        assert!(text.contains("store ptr @gen.cleanup, ptr %0, align 8\n  call void @dtor(ptr %t)"), "{text}");
        let reset = "define void @reset(ptr %this) {\n  %x = load ptr, ptr %this\n  \
            call void @llvm.coro.destroy(ptr %x)\n  store ptr null, ptr %this\n  ret void\n}\n";
        let body = format!("{TASK}  call void @reset(ptr %t)\n  ret void\n");
        let text = lowered_twin(&format!("{TASK_FUNCTIONS}{reset}"), &body, Some(HandleOut::Returned), true);
        let text = text.expect("elided");
        assert!(text.contains("store ptr @gen.cleanup, ptr %0, align 8\n  call void @reset(ptr %t)"), "{text}");
    }

    /// With the module's lifetime declarations, the frame is marked alive from the twin call to
    /// the destroy (sized as the module's declarations are); without them, not at all.
    #[test]
    fn the_elided_frame_is_alive_from_the_call_to_the_destroy() {
        let body = format!("{TASK}  call void @use(ptr null)\n  call void @dtor(ptr %t)\n  ret void\n");
        // `TASK_FUNCTIONS` declares `lifetime.end` (sized) and not `.start`.
        let sized = "declare void @llvm.lifetime.start.p0(i64 immarg, ptr)\n";
        let text = lowered_twin(&format!("{TASK_FUNCTIONS}{sized}"), &body, Some(HandleOut::Returned), false);
        let text = text.expect("elided");
        let start = "call void @llvm.lifetime.start.p0(i64 24, ptr %coro.elided.frame)\n  \
            %h = call ptr @gen.elided(ptr %coro.elided.frame)";
        assert!(text.contains(start), "{text}");
        assert!(
            text.contains("call void @dtor(ptr %t)\n  call void @llvm.lifetime.end.p0(i64 24, ptr %coro.elided.frame)"),
            "{text}"
        );
        let bare = TASK_FUNCTIONS.replace("@llvm.lifetime.end.p0(i64, ptr)", "@llvm.lifetime.end.p0(ptr)");
        let bare = format!("{bare}declare void @llvm.lifetime.start.p0(ptr)\n");
        let text = lowered_twin(&bare, &body, Some(HandleOut::Returned), false);
        assert!(text.expect("elided").contains("call void @llvm.lifetime.end.p0(ptr %coro.elided.frame)"));
        let text = lowered_twin(TASK_FUNCTIONS, &body, Some(HandleOut::Returned), false).expect("elided");
        assert!(!text.contains("lifetime"), "{text}");
    }

    /// The destroy through the task object is told what the walk proved there (the frame in the
    /// cell, `.cleanup` in its destroy slot), so that -O2 calls `.cleanup` directly; not where some
    /// path arrives with the coroutine already destroyed (the cell may hold anything then).
    #[test]
    fn a_destroy_through_the_task_object_restates_the_frame_and_its_cleanup() {
        let restated = "  store ptr %coro.elided.frame, ptr %t, align 8\n  \
            %0 = getelementptr inbounds i8, ptr %coro.elided.frame, i64 8\n  \
            store ptr @gen.cleanup, ptr %0, align 8\n  call void @dtor(ptr %t)\n";
        let straight = "  call void @use(ptr null)\n  call void @dtor(ptr %t)\n  ret void\n";
        let text = lowered_with(TASK_FUNCTIONS, &format!("{TASK}{straight}"), Some(HandleOut::Returned));
        assert!(text.as_deref().is_some_and(|t| t.contains(restated)), "{text:?}");
        // One arm destroys and empties the object (`reset`); the destructor after the arms meet
        // destroys only on the other arm.
        let reset = "define void @reset(ptr %this) {\n  %x = load ptr, ptr %this\n  \
            call void @llvm.coro.destroy(ptr %x)\n  store ptr null, ptr %this\n  ret void\n}\n\
            define void @dtor_checked(ptr %this) {\n  %x = load ptr, ptr %this\n  \
            %null = icmp eq ptr %x, null\n  br i1 %null, label %done, label %destroy\n\
            destroy:\n  call void @llvm.coro.destroy(ptr %x)\n  br label %done\ndone:\n  ret void\n}\n";
        let arms = "  br i1 %c, label %a, label %b\na:\n  call void @reset(ptr %t)\n  br label %m\n\
            b:\n  br label %m\nm:\n  call void @dtor_checked(ptr %t)\n  ret void\n";
        let extra = format!("{TASK_FUNCTIONS}{reset}");
        let text = lowered_with(&extra, &format!("{TASK}{arms}"), Some(HandleOut::Returned));
        let text = text.expect("destroyed on every path");
        assert!(text.contains("store ptr @gen.cleanup, ptr %0, align 8\n  call void @reset(ptr %t)"), "{text}");
        assert_eq!(text.matches("store ptr @gen.cleanup").count(), 1, "not before @dtor_checked:\n{text}");
        // Made and destroyed in a loop: the next turn's destructor is another coroutine's.
        let looped = "entry:\n  %t = alloca ptr\n  %o = alloca ptr\n  br label %l\nl:\n  %h = call ptr @gen()\n  \
            store ptr %h, ptr %t\n  call void @dtor(ptr %t)\n  br i1 %c, label %l, label %x\nx:\n  ret void\n";
        let text = lowered_with(TASK_FUNCTIONS, looped, Some(HandleOut::Returned));
        assert!(text.as_deref().is_some_and(|t| t.contains("store ptr @gen.cleanup")), "{text:?}");
    }

    #[test]
    fn a_call_that_never_comes_back_is_no_way_out() {
        let path = |callee: &str| {
            format!(
                "  br i1 %c, label %a, label %b\na:\n  call void @dtor(ptr %t)\n  ret void\n\
                 b:\n  call void @llvm.lifetime.end.p0(i64 8, ptr %t)\n  call void {callee}()\n  ret void\n"
            )
        };
        assert!(task_elided(&path("@stop")), "declared noreturn");
        assert!(task_elided(&path("@dies")), "a body without ret");
        assert!(!task_elided(&path("@go_on")), "it may come back, and the frame is not destroyed");
    }

    #[test]
    fn an_invoke_of_what_cannot_throw_has_no_unwind_way_out() {
        let invoke = |call: &str| {
            format!(
                "  invoke {call} to label %a unwind label %lp\na:\n  call void @dtor(ptr %t)\n  ret void\n\
                 lp:\n  %e = landingpad {{ ptr, i32 }} cleanup\n  resume {{ ptr, i32 }} %e\n"
            )
        };
        assert!(task_elided(&invoke("void @safe()")), "nounwind");
        assert!(task_elided(&invoke("i32 @puts(ptr null)")), "a C library function");
        assert!(!task_elided(&invoke("void @risky()")), "its exception leaves with the frame alive");
    }

    #[test]
    fn plain_allocators_and_functions_that_only_forward_to_them() {
        let plain = |new: &str, delete: &str| {
            let src = format!(
                "declare token @llvm.coro.id(i32, ptr, ptr, ptr)\ndeclare ptr @llvm.coro.begin(token, ptr)\n\
                 declare ptr @llvm.coro.free(token, ptr)\ndeclare ptr @_Znwm(i64)\ndeclare void @_ZdlPv(ptr)\n\
                 declare ptr @my_new(i64)\n@freed = global i64 0\n\
                 define ptr @new_fwd(i64 %n) {{\n  %p = call ptr @_Znwm(i64 %n)\n  ret ptr %p\n}}\n\
                 define void @delete_fwd(ptr %p) {{\n  call void @_ZdlPv(ptr %p)\n  ret void\n}}\n\
                 define void @delete_counting(ptr %p) {{\n  store i64 1, ptr @freed\n  \
                 call void @_ZdlPv(ptr %p)\n  ret void\n}}\n\
                 define ptr @coro() {{\nentry:\n  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)\n  \
                 %mem = call ptr {new}(i64 32)\n  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)\n  \
                 %f = call ptr @llvm.coro.free(token %id, ptr %hdl)\n  %f2 = select i1 true, ptr %f, ptr null\n  \
                 call void {delete}(ptr %f2)\n  ret ptr %hdl\n}}\n"
            );
            let m = Module::parse(src).map_err(|e| e.0).expect("parses");
            let i = m.definitions().find(|&i| m.item_name(i) == "@coro").expect("@coro");
            let mut types = m.types.clone();
            let f = m.parse_function_with(i, &mut types).expect("function");
            let begin = f
                .inst_iter()
                .map(|(_, x)| x)
                .find(|&x| intr_of(&f, x, &m.src) == Some(Intr::Begin))
                .expect("coro.begin");
            let dl = llir::layout::DataLayout::from_module_text(&m.src);
            let names = crate::coro::provenance::names(&m);
            let mut parsed = crate::coro::provenance::Parsed::default();
            let mut prover = Prover::new(&m, &dl, &names, &mut parsed);
            plain_allocator(&f, begin, &m.src, &mut prover, &mut types)
        };
        assert!(plain("@_Znwm", "@_ZdlPv"));
        assert!(plain("@new_fwd", "@delete_fwd"), "module functions that only forward");
        assert!(!plain("@new_fwd", "@delete_counting"), "the deallocator writes a global");
        assert!(!plain("@my_new", "@_ZdlPv"), "an allocator the program may watch");
    }
}
