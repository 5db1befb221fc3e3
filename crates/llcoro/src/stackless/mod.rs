//! Stackless heap frames (seed `004`): a front end places its call frames in the heap and controls
//! their layout with the `llvm.gc.frame.*` intrinsics (also spelled `llvm.frame.*`); llcoro lowers
//! them to plain IR on the shared frame engine.
//!
//! The calling convention: a stackless function takes its caller's frame pointer (`sp`) first and
//! returns `{ptr sp, T result}`. In order:
//! 1. `check`: find every frame intrinsic and check how they connect (a statepoint's last
//!    operand is a layout, a load reads an accessor, explicit slots do not overlap);
//! 2. explicit saves become stores at `sp + offset`;
//! 3. `statepoint`: each statepoint becomes: the return-address slot gets the `blockaddress` of
//!    the block after the call, the callee is called with `sp`, and the block is split after the
//!    call (the block after starts with an empty `noduplicate` inline asm statement naming the call
//!    site, so that no optimization folds it into another call's continuation or copies it); the
//!    frame the callee returns (`gc.frame.accessor`) and its result (`gc.frame.result`) are read
//!    from its return value;
//! 4. `spill`: the frame engine finds what is live after each call: values the front end saved
//!    itself are reloaded from their slots, every other value is stored in the spill area after its
//!    definition and reloaded, after each call, from the frame the callee returned (the GC may have
//!    moved it); a GC pointer (`addrspace(1)`) with no slot of its own is refused;
//! 5. `gc.frame.spillsz` becomes the spill area's size, and `frame.return` builds `{sp, value}`;
//! 6. `reentry`: the function a runtime calls to continue a captured frame after its pending call.
//!
//! `table` emits the module's frame descriptor table from every function's call sites; `ir` holds
//! what the phases build alike (slot addresses, typed-pointer casts, `{sp, v}` pairs).

mod check;
mod ir;
mod reentry;
mod spill;
mod statepoint;
pub mod table;

use crate::diag::{Finding, block_name};
use crate::frame::{Frame, Site};
use check::{Checked, Origins};
use ir::{as_i8, insert_after, make_pair, slot_addr, stamp, wrap};
use llir::ir::build::Builder;
use llir::ir::{Function, Inst, InstData, Opcode, Value};
use llir::layout::DataLayout;
use llir::types::{Type, TypeData, TypeTable};
use reentry::reentry;
use rustc_hash::{FxHashMap, FxHashSet};
use statepoint::lower_statepoints;

/// The two spellings the seed uses.
const PREFIXES: [&str; 2] = ["@llvm.gc.frame.", "@llvm.frame."];

/// The alignment a frame pointer is known to have (docs/stackless.md): what `malloc` and the
/// runtime's allocators give. Spills are placed and accessed for it, never for more.
pub const FRAME_ALIGN: u64 = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    SpillSize,
    Layout,
    Save,
    Statepoint,
    Accessor,
    /// `ptr sp(token)`: the frame pointer after a call (of a statepoint or its accessor).
    Sp,
    Load,
    Result,
    Return,
}

/// The intrinsic a callee name names, with or without a type suffix (`.p1`, `.i32`).
fn kind_of(name: &str) -> Option<Kind> {
    let rest = PREFIXES.iter().find_map(|p| name.strip_prefix(p))?;
    let base = rest.split('.').next()?;
    Some(match base {
        "spillsz" => Kind::SpillSize,
        "layout" => Kind::Layout,
        "save" => Kind::Save,
        "statepoint" => Kind::Statepoint,
        "accessor" => Kind::Accessor,
        "sp" => Kind::Sp,
        "load" | "restore" => Kind::Load,
        "result" => Kind::Result,
        "return" => Kind::Return,
        _ => return None,
    })
}

/// Does `f` use any frame intrinsic?
pub fn is_stackless(f: &Function, src: &str) -> bool {
    f.inst_iter().any(|(_, i)| f.callee_name(i, src).is_some_and(|n| kind_of(n).is_some()))
}

/// Quick test on a module's text.
pub fn may_contain(src: &str) -> bool {
    PREFIXES.iter().any(|p| src.contains(p))
}

/// One call site, for the frame descriptor table.
#[derive(Clone, Debug)]
pub struct CallSite {
    /// The block execution continues in (its `blockaddress` is the return-address key).
    pub resume_block: String,
    pub ra_offset: i64,
    pub spill_offset: i64,
    /// Offsets of the explicit slots holding GC pointers (`addrspace(1)`) at this call.
    pub gc_slots: Vec<i64>,
}

pub struct Lowered {
    pub frame: Frame,
    pub sites: Vec<CallSite>,
    pub spill_size: u64,
    /// `{ptr, T} @f.reenter(ptr frame, ptr result)`: continues `f` after the call whose key is in
    /// the frame's return-address slot. None without call sites, or when they keep the return
    /// address at different offsets.
    pub reentry: Option<Function>,
}

struct Layout {
    inst: Inst,
    sp: Value,
    ra: i64,
    spill: Option<i64>,
}

struct Save {
    inst: Inst,
    layout: Inst,
    value: Value,
    offset: i64,
}

/// How a callee hands back its caller's frame (and its result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Returns {
    /// `{ptr sp, T result}`.
    Pair(Type),
    /// `{ptr sp}`.
    Wrapped,
    /// `ptr sp`.
    Bare,
}

struct Statepoint {
    inst: Inst,
    layout: Inst,
    callee: Value,
    returns: Returns,
}

/// Lowers the stackless function `f` in place. `signature` gives the declaration of a function of
/// the module by name, which a statepoint calling it must agree with.
pub fn lower(
    f: &mut Function,
    types: &mut TypeTable,
    dl: &DataLayout,
    src: &str,
    typed: bool,
    signature: check::Signatures<'_>,
) -> Result<Lowered, Vec<Finding>> {
    let mut origins = Origins::new(f);
    let Checked { calls, layouts, saves, statepoints } = check::check(f, types, dl, src, signature, &origins)?;
    let (frame_slot, slot_stores) = match frame_slot(f, types, &layouts, &statepoints, typed) {
        Some((s, st)) => (Some(s), st),
        None => (None, Vec::new()),
    };
    let lowered_sites =
        lower_statepoints(f, types, &calls, &statepoints, &layouts, frame_slot, typed, src, &mut origins);
    let sites: Vec<Site> = lowered_sites
        .iter()
        .enumerate()
        .map(|(k, s)| Site { index: k as u32, inst: s.call, continues: vec![s.cont] })
        .collect();
    let stored = lower_saves(f, types, &saves, &layouts, typed);
    lower_returns(f, types, &calls, &layouts);
    let mut lowered_sites = lowered_sites;
    let empty = Frame {
        fields: Vec::new(),
        size: 0,
        align: 1,
        index_ty: types.i1,
        index_off: 0,
        label_off: None,
        ptr_size: dl.pointer_size(0),
        local_allocas: Vec::new(),
        declares: Vec::new(),
        remat: Vec::new(),
        remat_names: Vec::new(),
        warnings: Vec::new(),
    };
    let (frame, spill_size) = match frame_slot {
        Some(slot) => {
            let body = spill::Body {
                src,
                typed,
                sites: &sites,
                stored: &stored,
                slot,
                slot_stores: &slot_stores,
                origins: &origins,
            };
            spill::build(f, types, dl, &body, &mut lowered_sites, empty)?
        }
        None => (empty, 0),
    };
    finish(f, &calls, spill_size);
    let call_sites = lowered_sites
        .iter()
        .map(|s| CallSite {
            resume_block: block_name(f, s.cont),
            ra_offset: s.ra,
            spill_offset: s.spill,
            gc_slots: s.gc_slots.clone(),
        })
        .collect();
    let reentry = frame_slot.and_then(|slot| reentry(f, types, &lowered_sites, slot, typed, src));
    Ok(Lowered { frame, sites: call_sites, spill_size, reentry })
}

impl Layout {
    /// The frame pointer as the layout call names it now (lowering may have replaced it, as when it
    /// was a `gc.frame.load`).
    fn sp_now(&self, f: &Function) -> Value {
        f.insts[self.inst].call_args().first().copied().unwrap_or(self.sp)
    }
}

/// The frame pointer a token operand names now: a layout's frame pointer, or (once the statepoint
/// before it is lowered) the frame pointer that replaced an accessor.
fn frame_now(f: &Function, token: Value, layouts: &FxHashMap<Inst, Layout>) -> Value {
    match f.value_inst(token).and_then(|i| layouts.get(&i)) {
        Some(lay) => lay.sp_now(f),
        None => token,
    }
}

/// An alloca holding the current frame pointer: set at each layout and after each call, so that a
/// reload anywhere reads the frame where it is now (mem2reg turns it into SSA values later).
fn frame_slot(
    f: &mut Function,
    types: &mut TypeTable,
    layouts: &FxHashMap<Inst, Layout>,
    statepoints: &[Statepoint],
    typed: bool,
) -> Option<(Value, Vec<Inst>)> {
    if statepoints.is_empty() {
        return None;
    }
    let entry = f.entry()?;
    let ptr = types.ptr;
    let data = {
        let mut d = InstData::new(
            Opcode::Alloca,
            types.pointer_to(ptr, 0, typed),
            vec![llir::ir::edit::t(&format!("alloca {}, align 8", types.display(ptr)))],
        );
        d.extra = llir::ir::Extra::Alloca { ty: ptr, align: Some(8) };
        d
    };
    let a = f.create_inst(types, data);
    f.insert_inst_at(entry, 0, a);
    let slot = f.insts[a].result?;
    // Every layout of a frame (one with a spill area) sets it, and so does each call with the frame it
    // returns.
    let used: FxHashSet<Inst> = layouts.values().filter(|l| l.spill.is_some()).map(|l| l.inst).collect();
    let mut at: Vec<Inst> = used.into_iter().collect();
    at.sort_unstable();
    let mut stores = Vec::new();
    for l in at {
        let Some(lay) = layouts.get(&l) else { continue };
        let (mut seq, sp) = as_i8(f, types, lay.sp, typed);
        let st = Builder::new(f, types).store(sp, slot, 8);
        seq.push(st);
        stores.push(st);
        stamp(f, &seq, f.insts[l].span);
        insert_after(f, l, seq);
    }
    Some((slot, stores))
}

/// An explicit save after lowering: the store that writes the slot.
struct Stored {
    value: Value,
    offset: i64,
    store: Inst,
}

/// Explicit saves become stores at `sp + offset`.
fn lower_saves(
    f: &mut Function,
    types: &mut TypeTable,
    saves: &[Save],
    layouts: &FxHashMap<Inst, Layout>,
    typed: bool,
) -> Vec<Stored> {
    let mut out = Vec::new();
    for s in saves {
        // The operands as they are now: a statepoint lowered before may have replaced the value.
        let (Some(&token), Some(&value)) = (f.insts[s.inst].call_args().first(), f.insts[s.inst].call_args().get(1))
        else {
            continue;
        };
        let sp = frame_now(f, token, layouts);
        let ty = f.values[value].ty;
        let (mut seq, addr) = slot_addr(f, types, sp, s.offset, ty, typed);
        let align = 1;
        let store = Builder::new(f, types).store(value, addr, align);
        seq.push(store);
        stamp(f, &seq, f.insts[s.inst].span);
        out.push(Stored { value, offset: s.offset, store });
        let Some(b) = f.insts[s.inst].block else { continue };
        let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == s.inst) else { continue };
        for (k, x) in seq.into_iter().enumerate() {
            f.insert_inst_at(b, pos + k, x);
        }
        f.remove_inst(s.inst);
    }
    out
}

/// `frame.return(layout, v)` builds `{sp, v}` (`frame.return(layout)`: `{sp}` or `sp`), before the
/// spill area is made: the frame pointer it returns is then a value like any other.
fn lower_returns(f: &mut Function, types: &mut TypeTable, calls: &[(Inst, Kind)], layouts: &FxHashMap<Inst, Layout>) {
    for &(i, kind) in calls {
        if kind != Kind::Return || f.insts[i].block.is_none() {
            continue;
        }
        let args = f.insts[i].call_args().to_vec();
        let (Some(&tok), Some(r)) = (args.first(), f.insts[i].result) else { continue };
        let Some(lay) = f.value_inst(tok).and_then(|l| layouts.get(&l)) else { continue };
        let sp = lay.sp_now(f);
        let rty = f.values[r].ty;
        let (made, value) = match args.get(1) {
            Some(&v) => match make_pair(f, types, rty, sp, v) {
                Some(m) => m,
                None => continue,
            },
            None if matches!(types.get(rty), TypeData::Struct { .. }) => match wrap(f, types, rty, sp) {
                Some(m) => m,
                None => continue,
            },
            None => (Vec::new(), sp),
        };
        stamp(f, &made, f.insts[i].span);
        for x in made {
            f.insert_inst_before(i, x);
        }
        f.replace_all_uses(r, value);
        f.remove_inst(i);
    }
}

/// `spillsz` becomes the spill area's size; layouts go.
fn finish(f: &mut Function, calls: &[(Inst, Kind)], size: u64) {
    for &(i, kind) in calls {
        if kind != Kind::SpillSize || f.insts[i].block.is_none() {
            continue;
        }
        if let Some(r) = f.insts[i].result {
            let c = f.const_value(f.values[r].ty, &size.to_string());
            f.replace_all_uses(r, c);
        }
        f.remove_inst(i);
    }
    for &(i, kind) in calls {
        if kind == Kind::Layout && f.insts[i].block.is_some() {
            f.remove_inst(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::pipeline::{Options, run};

    /// ackermann's shape: `%mm1` is live across the inner call only, which is on one branch.
    const ACK: &str = r#"
declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare ptr @push(i32)

define { ptr, i64 } @ack(ptr %sp_arg, i64 %m, i64 %n) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size = add i32 %spill, 16
  %sp = call ptr @push(i32 %size)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %sp_arg, i32 0)
  %mm1 = sub i64 %m, 1
  %n0 = icmp eq i64 %n, 0
  br i1 %n0, label %one, label %two

one:
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @ack, i64 %mm1, i64 1, token %lay)
  %r1 = call i64 @llvm.gc.frame.result.i64(token %t1)
  %a1 = call token @llvm.gc.frame.accessor(token %t1)
  %f1 = call ptr @llvm.frame.sp(token %a1)
  br label %out

two:
  %nm1 = sub i64 %n, 1
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @ack, i64 %m, i64 %nm1, token %lay)
  %inner = call i64 @llvm.gc.frame.result.i64(token %t2)
  %a2 = call token @llvm.gc.frame.accessor(token %t2)
  %t3 = call token (...) @llvm.gc.frame.statepoint(ptr @ack, i64 %mm1, i64 %inner, token %a2)
  %r3 = call i64 @llvm.gc.frame.result.i64(token %t3)
  %a3 = call token @llvm.gc.frame.accessor(token %t3)
  %f3 = call ptr @llvm.frame.sp(token %a3)
  br label %out

out:
  %fr = phi ptr [ %f1, %one ], [ %f3, %two ]
  %res = phi i64 [ %r1, %one ], [ %r3, %two ]
  %back = load ptr, ptr %fr
  %ol = call token @llvm.frame.layout(ptr %back, i32 8)
  %or = call { ptr, i64 } @llvm.frame.return.i64(token %ol, i64 %res)
  ret { ptr, i64 } %or
}
"#;

    /// The lines of block `name` in the first function of `text`.
    fn block<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
        let head = format!("{name}:");
        text.lines().skip_while(|l| !l.starts_with(&head)).skip(1).take_while(|l| !l.is_empty()).collect()
    }

    #[test]
    fn a_spill_is_stored_on_the_path_that_calls_with_it_live() {
        let out = run(ACK.into(), Options::default()).map(|o| o.text).unwrap_or_default();
        let stores = |b: &str| block(&out, b).iter().filter(|l| l.contains("store i64 %mm1")).count();
        // Not where it is defined (the `one` path never needs it in the frame), once before the call
        // in `two` that it is live across.
        assert_eq!((stores("entry"), stores("one"), stores("two")), (0, 0, 1), "{out}");
    }

    #[test]
    fn a_spill_read_where_a_path_did_not_call_is_stored_where_it_is_made() {
        // `%v` is reloaded in `join`, which `entry` also reaches without the call: a store before
        // the call would leave the frame without it on that path.
        let src = r#"
declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare i32 @llvm.gc.frame.spillsz()
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare { ptr, i64 } @g(ptr, i64)

define { ptr, i64 } @f(ptr %sp, i64 %n, i1 %p) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %v = mul i64 %n, %n
  br i1 %p, label %calls, label %join

calls:
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @g, i64 %n, token %lay)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %s2 = call ptr @llvm.frame.sp(token %a)
  br label %join

join:
  %fp = phi ptr [ %sp, %entry ], [ %s2, %calls ]
  %r0 = insertvalue { ptr, i64 } poison, ptr %fp, 0
  %r = insertvalue { ptr, i64 } %r0, i64 %v, 1
  ret { ptr, i64 } %r
}
"#;
        let out = run(src.into(), Options::default()).map(|o| o.text).unwrap_or_default();
        let stores = |b: &str| block(&out, b).iter().filter(|l| l.contains("store i64 %v")).count();
        assert_eq!((stores("entry"), stores("calls")), (1, 0), "{out}");
    }

    #[test]
    fn a_spill_is_placed_for_its_alignment_from_the_aligned_frame_pointer() {
        // The spill area at 40 (8-aligned): the <4 x i32> goes to 48, the i64 into the padding at 40.
        let src = r#"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare i32 @llvm.gc.frame.spillsz()
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr @use(ptr, i32)
declare { ptr, i64 } @g(ptr, i64)

define { ptr, i64 } @f(ptr %sp, <4 x i32> %v, i64 %n) {
entry:
  %size = call i32 @llvm.gc.frame.spillsz()
  %u = call ptr @use(ptr %sp, i32 %size)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 40)
  %w = add <4 x i32> %v, %v
  %m = mul i64 %n, %n
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @g, i64 %n, token %lay)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %s2 = call ptr @llvm.frame.sp(token %a)
  %e = extractelement <4 x i32> %w, i32 1
  %z = zext i32 %e to i64
  %k = add i64 %z, %m
  %r0 = insertvalue { ptr, i64 } poison, ptr %s2, 0
  %r = insertvalue { ptr, i64 } %r0, i64 %k, 1
  ret { ptr, i64 } %r
}
"#;
        let out = run(src.into(), Options::default()).map(|o| o.text).unwrap_or_default();
        let entry = block(&out, "entry");
        let stored = |ty: &str, off: &str, al: &str| {
            let at =
                entry.iter().position(|l| l.contains(&format!("i64 {off}\n")) || l.ends_with(&format!("i64 {off}")));
            at.is_some_and(|k| entry.get(k + 1).is_some_and(|l| l.contains(&format!("store {ty}")) && l.ends_with(al)))
        };
        assert!(stored("<4 x i32> %w", "48", "align 16"), "{out}");
        assert!(stored("i64 %m", "40", "align 8"), "{out}");
        assert!(entry.iter().any(|l| l.contains("@use(ptr %sp, i32 24)")), "spillsz counts the padding: {out}");
    }

    #[test]
    fn each_continuation_has_a_mark_of_its_own() {
        let out = run(ACK.into(), Options::default()).map(|o| o.text).unwrap_or_default();
        let ack = out.split("define internal").next().unwrap_or_default();
        for k in 0..3 {
            let mark = format!("call void asm sideeffect \"\", \"i\"(i32 {k}) noduplicate");
            assert_eq!(
                block(ack, &format!("stackless.ret.{k}")).first().map(|l| l.trim()),
                Some(mark.as_str()),
                "{out}"
            );
        }
    }
}
