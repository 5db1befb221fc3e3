//! Stackless heap frames (seed `004`): a front end places its call frames in the heap and controls
//! their layout with the `llvm.gc.frame.*` intrinsics (also spelled `llvm.frame.*`); llcoro lowers
//! them to plain IR on the shared frame engine.
//!
//! The calling convention: a stackless function takes its caller's frame pointer (`sp`) first and
//! returns `{ptr sp, T result}`. In order:
//! 1. `intrinsics`: find every frame intrinsic and check how they connect (a statepoint's last
//!    operand is a layout, a load reads an accessor, explicit slots do not overlap);
//! 2. explicit saves become stores at `sp + offset`;
//! 3. each statepoint becomes: the return-address slot gets the `blockaddress` of the block after the
//!    call, the callee is called with `sp`, and the block is split after the call (the block after
//!    starts with an empty inline asm statement naming the call site, so that no optimization folds
//!    it into another call's continuation); the frame the callee returns (`gc.frame.accessor`) and
//!    its result (`gc.frame.result`) are read from its return value;
//! 4. the frame engine finds what is live after each call: values the front end saved itself are
//!    reloaded from their slots, every other value is stored in the spill area after its definition
//!    and reloaded, after each call, from the frame the callee returned (the GC may have moved it);
//!    a GC pointer (`addrspace(1)`) with no slot of its own is refused;
//! 5. `gc.frame.spillsz` becomes the spill area's size, and `frame.return` builds `{sp, value}`.

pub mod table;

use crate::diag::{Finding, block_name, error_at};
use crate::frame::rewrite::{SpillSites, frame_uses, spill_and_reload};
use crate::frame::{Candidates, Field, FieldKind, Frame, Site, Survey, classify, crossing, remat, value_fields};
use llir::analysis::cfg::Cfg;
use llir::analysis::dom::DomTree;
use llir::analysis::liveness::Liveness;
use llir::ir::build::Builder;
use llir::ir::{Block, Function, Inst, InstData, Opcode, Value};
use llir::layout::DataLayout;
use llir::types::{Type, TypeData, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};

/// The two spellings the seed uses.
const PREFIXES: [&str; 2] = ["@llvm.gc.frame.", "@llvm.frame."];

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

struct Statepoint {
    inst: Inst,
    layout: Inst,
    callee: Value,
    args: Vec<Value>,
}

/// Lowers the stackless function `f` in place. `callee_ret` gives the declared return type of a
/// function of the module by name, for statepoints whose result is never read.
pub fn lower(
    f: &mut Function,
    types: &mut TypeTable,
    dl: &DataLayout,
    src: &str,
    typed: bool,
    callee_ret: &dyn Fn(&str, &mut TypeTable) -> Option<Type>,
) -> Result<Lowered, Vec<Finding>> {
    let calls = intrinsics(f, src)?;
    check_loads(f, &calls)?;
    let layouts = layouts(f, &calls, src)?;
    let saves = saves(f, &calls, &layouts, src)?;
    let statepoints = statepoints(f, &calls, &layouts, src)?;
    let (frame_slot, slot_stores) = match frame_slot(f, types, &layouts, &statepoints, typed) {
        Some((s, st)) => (Some(s), st),
        None => (None, Vec::new()),
    };
    check_slots(f, types, dl, &saves, &layouts)?;
    let lowered_sites =
        lower_statepoints(f, types, &calls, &statepoints, &layouts, frame_slot, typed, src, callee_ret)?;
    let sites: Vec<Site> = lowered_sites
        .iter()
        .enumerate()
        .map(|(k, s)| Site { index: k as u32, inst: s.call, continues: vec![s.cont] })
        .collect();
    let stored = lower_saves(f, types, &saves, &layouts, typed);
    let mut lowered_sites = lowered_sites;
    let (frame, spill_size) =
        build_frame(f, types, dl, src, typed, &sites, &mut lowered_sites, &stored, (frame_slot, &slot_stores))?;
    finish(f, types, &calls, &layouts, spill_size);
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

/// Every frame intrinsic call, by kind, in body order.
fn intrinsics(f: &Function, src: &str) -> Result<Vec<(Inst, Kind)>, Vec<Finding>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (_, i) in f.inst_iter() {
        let Some(name) = f.callee_name(i, src) else { continue };
        if !PREFIXES.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        match kind_of(name) {
            Some(k) if f.insts[i].op == Opcode::Call => out.push((i, k)),
            Some(_) => errors.push(error_at(
                f,
                Some(i),
                "stackless-invoke",
                "a frame intrinsic called with invoke".into(),
                "call frame intrinsics with `call`; they do not throw",
            )),
            None => errors.push(error_at(
                f,
                Some(i),
                "stackless-unknown",
                format!("{name} is not a frame intrinsic llcoro knows"),
                "use spillsz, layout, save, statepoint, accessor, sp, load, result or return (docs/stackless.md)",
            )),
        }
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

/// A frame load must read through the token `gc.frame.accessor` returned.
fn check_loads(f: &Function, calls: &[(Inst, Kind)]) -> Result<(), Vec<Finding>> {
    let kind: FxHashMap<Inst, Kind> = calls.iter().copied().collect();
    let errors: Vec<Finding> = calls
        .iter()
        .filter(|&&(_, k)| k == Kind::Load)
        .filter(|&&(i, _)| {
            let tok = f.insts[i].call_args().first().and_then(|&t| f.value_inst(t));
            tok.and_then(|t| kind.get(&t)) != Some(&Kind::Accessor)
        })
        .map(|&(i, _)| {
            error_at(
                f,
                Some(i),
                "stackless-load-token",
                "this frame load does not read an accessor: its token is not what `gc.frame.accessor` returned".into(),
                "after a statepoint the frame may have moved: load from `gc.frame.accessor(token %statepoint)`",
            )
        })
        .collect();
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

fn const_operand(f: &Function, i: Inst, k: usize, src: &str) -> Option<i64> {
    f.insts[i].call_args().get(k).and_then(|&v| f.const_int(v, src)).and_then(|c| i64::try_from(c).ok())
}

fn layouts(f: &Function, calls: &[(Inst, Kind)], src: &str) -> Result<FxHashMap<Inst, Layout>, Vec<Finding>> {
    let mut out = FxHashMap::default();
    let mut errors = Vec::new();
    for &(i, k) in calls {
        if k != Kind::Layout {
            continue;
        }
        let args = f.insts[i].call_args();
        let (Some(&sp), Some(ra)) = (args.first(), const_operand(f, i, 1, src)) else {
            errors.push(error_at(
                f,
                Some(i),
                "stackless-layout",
                "a frame layout needs the frame pointer and a constant return-address offset".into(),
                "write `layout(ptr %sp, i32 RA_OFFSET, i32 SPILL_OFFSET)` (or without the spill offset on the return side)",
            ));
            continue;
        };
        let spill = if args.len() > 2 {
            match const_operand(f, i, 2, src) {
                Some(s) => Some(s),
                None => {
                    errors.push(error_at(
                        f,
                        Some(i),
                        "stackless-layout",
                        "the spill-area offset of a frame layout is not a constant".into(),
                        "give the spill area's byte offset as an integer constant",
                    ));
                    continue;
                }
            }
        } else {
            None
        };
        out.insert(i, Layout { inst: i, sp, ra, spill });
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

impl Layout {
    /// The frame pointer as the layout call names it now (lowering may have replaced it, as when it
    /// was a `gc.frame.load`).
    fn sp_now(&self, f: &Function) -> Value {
        f.insts[self.inst].call_args().first().copied().unwrap_or(self.sp)
    }
}

/// The layout a frame token stands for: a layout call itself, or an accessor (the relocated frame
/// keeps the layout of the frame it was before the call).
fn layout_of(f: &Function, v: Value, layouts: &FxHashMap<Inst, Layout>, src: &str) -> Option<Inst> {
    let mut v = v;
    for _ in 0..1024 {
        let i = f.value_inst(v)?;
        if layouts.contains_key(&i) {
            return Some(i);
        }
        // Only an accessor stands for a frame: accessor(statepoint) → the statepoint's frame token.
        if f.callee_name(i, src).and_then(kind_of) != Some(Kind::Accessor) {
            return None;
        }
        let stp = f.insts[i].call_args().first().and_then(|&t| f.value_inst(t))?;
        if f.callee_name(stp, src).and_then(kind_of) != Some(Kind::Statepoint) {
            return None;
        }
        v = *f.insts[stp].call_args().last()?;
    }
    None
}

/// The frame pointer a token operand names now: a layout's frame pointer, or (once the statepoint
/// before it is lowered) the frame pointer that replaced an accessor.
fn frame_now(f: &Function, token: Value, layouts: &FxHashMap<Inst, Layout>) -> Value {
    match f.value_inst(token).and_then(|i| layouts.get(&i)) {
        Some(lay) => lay.sp_now(f),
        None => token,
    }
}

fn saves(
    f: &Function,
    calls: &[(Inst, Kind)],
    layouts: &FxHashMap<Inst, Layout>,
    src: &str,
) -> Result<Vec<Save>, Vec<Finding>> {
    let mut out: Vec<Save> = Vec::new();
    let mut errors = Vec::new();
    for &(i, k) in calls {
        if k != Kind::Save {
            continue;
        }
        let args = f.insts[i].call_args();
        let layout = args.first().and_then(|&t| layout_of(f, t, layouts, src));
        let (Some(layout), Some(&value), Some(offset)) = (layout, args.get(1), const_operand(f, i, 2, src)) else {
            errors.push(error_at(
                f,
                Some(i),
                "stackless-save",
                "a frame save needs a layout token, a value and a constant offset".into(),
                "write `save(token %layout, <value>, i32 OFFSET)` with the token of a `layout` call",
            ));
            continue;
        };
        out.push(Save { inst: i, layout, value, offset });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(out)
}

fn statepoints(
    f: &Function,
    calls: &[(Inst, Kind)],
    layouts: &FxHashMap<Inst, Layout>,
    src: &str,
) -> Result<Vec<Statepoint>, Vec<Finding>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for &(i, k) in calls {
        if k != Kind::Statepoint {
            continue;
        }
        let args = f.insts[i].call_args();
        let layout = args.last().and_then(|&t| layout_of(f, t, layouts, src));
        match (args.first(), layout) {
            (Some(&callee), Some(layout)) if args.len() >= 2 => {
                out.push(Statepoint { inst: i, layout, callee, args: args[1..args.len() - 1].to_vec() })
            }
            _ => errors.push(error_at(
                f,
                Some(i),
                "stackless-statepoint-layout",
                "this statepoint's last operand is not the token of a frame layout".into(),
                "pass the callee, its arguments, then the token a `gc.frame.layout` call returned",
            )),
        }
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
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
        insert_after(f, l, seq);
    }
    Some((slot, stores))
}

/// `v` as an `i8*` in typed IR (a bitcast when it is another pointer type).
fn as_i8(f: &mut Function, types: &mut TypeTable, v: Value, typed: bool) -> (Vec<Inst>, Value) {
    let ptr = types.ptr;
    if !typed || f.values[v].ty == ptr {
        return (Vec::new(), v);
    }
    let c = Builder::new(f, types).bitcast(v, ptr);
    let r = f.insts[c].result.unwrap_or(v);
    (vec![c], r)
}

fn insert_after(f: &mut Function, i: Inst, seq: Vec<Inst>) {
    let Some(b) = f.insts[i].block else { return };
    let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == i) else { return };
    for (k, x) in seq.into_iter().enumerate() {
        f.insert_inst_at(b, pos + 1 + k, x);
    }
}

/// The address `off` bytes from frame pointer `sp`, typed for `ty`.
fn slot_addr(
    f: &mut Function,
    types: &mut TypeTable,
    sp: Value,
    off: i64,
    ty: Type,
    typed: bool,
) -> (Vec<Inst>, Value) {
    let (mut seq, base) = as_i8(f, types, sp, typed);
    let mut b = Builder::new(f, types);
    let mut v = base;
    if off != 0 {
        let g = if off > 0 { b.gep_i8(base, off as u64) } else { b.gep_i8_neg(base, off.unsigned_abs()) };
        seq.push(g);
        v = b.result(g);
    }
    if typed {
        let pt = b.types.pointer_to(ty, 0, true);
        if b.types.ptr != pt {
            let c = b.bitcast(v, pt);
            seq.push(c);
            v = b.result(c);
        }
    }
    (seq, v)
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

struct LoweredSite {
    call: Inst,
    cont: Block,
    /// How many instructions at the top of `cont` read the call's return value.
    head: usize,
    /// The frame pointer the call was made with.
    frame: Value,
    ra: i64,
    spill: i64,
    gc_slots: Vec<i64>,
}

/// Each statepoint: the return address stored, the call with `sp`, the block split after it, and
/// the frame and result the callee returned read from its return value.
#[allow(clippy::too_many_arguments)]
fn lower_statepoints(
    f: &mut Function,
    types: &mut TypeTable,
    calls: &[(Inst, Kind)],
    statepoints: &[Statepoint],
    layouts: &FxHashMap<Inst, Layout>,
    frame_slot: Option<Value>,
    typed: bool,
    src: &str,
    callee_ret: &dyn Fn(&str, &mut TypeTable) -> Option<Type>,
) -> Result<Vec<LoweredSite>, Vec<Finding>> {
    let mut out = Vec::new();
    for (k, sp_call) in statepoints.iter().enumerate() {
        let Some(lay) = layouts.get(&sp_call.layout) else { continue };
        let Some(spill) = lay.spill else {
            return Err(vec![error_at(
                f,
                Some(sp_call.inst),
                "stackless-statepoint-layout",
                "this statepoint's layout has no spill area".into(),
                "give the layout a spill-area offset: `gc.frame.layout(ptr %sp, i32 RA, i32 SPILL)`",
            )]);
        };
        // The callee's result type: what gc.frame.result reads, or the callee's declaration.
        let result_of = calls.iter().find(|&&(i, kind)| {
            kind == Kind::Result && f.insts[i].call_args().first().and_then(|&t| f.value_inst(t)) == Some(sp_call.inst)
        });
        let result_ty = match result_of {
            Some(&(i, _)) => Some(f.values[f.insts[i].result.unwrap_or(sp_call.callee)].ty),
            None => {
                f.const_text(sp_call.callee, src).and_then(|n| callee_ret(n, types)).and_then(|t| match types.get(t) {
                    TypeData::Struct { fields, .. } if fields.len() == 2 => fields.get(1).copied(),
                    _ => None,
                })
            }
        };
        let Some(result_ty) = result_ty else {
            return Err(vec![error_at(
                f,
                Some(sp_call.inst),
                "stackless-callee-type",
                "cannot tell what this statepoint's callee returns".into(),
                "read its result with `gc.frame.result`, or call a function declared in the module as returning `{ptr, T}`",
            )]);
        };
        let Some(&token) = f.insts[sp_call.inst].call_args().last() else { continue };
        let frame = frame_now(f, token, layouts);
        let sp_ty = f.values[frame].ty;
        let ret_ty = types.intern(TypeData::Struct { fields: vec![sp_ty, result_ty].into(), packed: false });
        let Some(b) = f.insts[sp_call.inst].block else { continue };
        let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == sp_call.inst) else { continue };
        // The return address: the block after the call.
        let name = f.unique_block_name(&format!("stackless.ret.{k}"));
        let cont = f.split_block(types, b, pos + 1, Some(&name));
        // Spelled with this function's name: the re-entry function's copy of this store must
        // still write this function's key.
        let ba = f.const_value(types.ptr, &format!("blockaddress({}, %{name})", f.name));
        let ptr = types.ptr;
        let (mut seq, ra_addr) = slot_addr(f, types, frame, lay.ra, ptr, typed);
        seq.push(Builder::new(f, types).store(ba, ra_addr, 8));
        // The operands as they are now: earlier statepoints' results have replaced what they read.
        let now = f.insts[sp_call.inst].call_args().to_vec();
        let (callee, rest) = match now.as_slice() {
            [callee, rest @ .., _token] => (*callee, rest.to_vec()),
            _ => (sp_call.callee, sp_call.args.clone()),
        };
        let mut call_args = vec![frame];
        call_args.extend(rest);
        let call = Builder::new(f, types).call("", "", ret_ty, callee, &call_args);
        seq.push(call);
        let r = f.insts[call].result.unwrap_or(frame);
        for (j, x) in seq.into_iter().enumerate() {
            f.insert_inst_at(b, pos + j, x);
        }
        // After the call: the frame where it is now, and the result.
        let new_sp = extract(f, types, r, 0, sp_ty);
        let res = extract(f, types, r, 1, result_ty);
        let mut head = vec![site_marker(f, types, k), new_sp.0, res.0];
        if let Some(slot) = frame_slot {
            let (mut c, v) = as_i8(f, types, new_sp.1, typed);
            c.push(Builder::new(f, types).store(v, slot, 8));
            head.extend(c);
        }
        let head_len = head.len();
        for (j, x) in head.into_iter().enumerate() {
            f.insert_inst_at(cont, j, x);
        }
        // accessor and result of this statepoint.
        for &(i, kind) in calls {
            if f.insts[i].call_args().first().and_then(|&t| f.value_inst(t)) != Some(sp_call.inst) {
                continue;
            }
            let Some(rv) = f.insts[i].result else { continue };
            match kind {
                Kind::Accessor | Kind::Sp => f.replace_all_uses(rv, new_sp.1),
                Kind::Result => f.replace_all_uses(rv, res.1),
                _ => continue,
            }
            f.remove_inst(i);
        }
        f.remove_inst(sp_call.inst);
        out.push(LoweredSite { call, cont, head: head_len, frame, ra: lay.ra, spill, gc_slots: Vec::new() });
    }
    // `sp(accessor)`: the accessor is the frame pointer now.
    for &(i, kind) in calls {
        if kind != Kind::Sp || f.insts[i].block.is_none() {
            continue;
        }
        let arg = f.insts[i].call_args().first().copied();
        match (arg, f.insts[i].result) {
            (Some(a), Some(r)) if f.values[a].ty != types.token => {
                f.replace_all_uses(r, a);
                f.remove_inst(i);
            }
            _ => {
                return Err(vec![error_at(
                    f,
                    Some(i),
                    "stackless-sp-token",
                    "`frame.sp` reads the frame pointer of a statepoint or of its accessor, not of this token".into(),
                    "pass the token a `gc.frame.statepoint` or `gc.frame.accessor` call returned",
                )]);
            }
        }
    }
    // Loads from an accessor (now the frame pointer it stands for).
    for &(i, kind) in calls {
        if kind != Kind::Load || f.insts[i].block.is_none() {
            continue;
        }
        let args = f.insts[i].call_args().to_vec();
        let (Some(&base), Some(off)) = (args.first(), const_operand(f, i, 1, src)) else {
            return Err(vec![error_at(
                f,
                Some(i),
                "stackless-load",
                "a frame load needs an accessor token and a constant offset".into(),
                "write `load(token %accessor, i32 OFFSET)` with the token of a `gc.frame.accessor` call",
            )]);
        };
        let Some(rv) = f.insts[i].result else { continue };
        let ty = f.values[rv].ty;
        let (mut seq, addr) = slot_addr(f, types, base, off, ty, typed);
        let ld = Builder::new(f, types).load(ty, addr, 1);
        seq.push(ld);
        let Some(b) = f.insts[i].block else { continue };
        let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == i) else { continue };
        for (k, x) in seq.into_iter().enumerate() {
            f.insert_inst_at(b, pos + k, x);
        }
        if let Some(lv) = f.insts[ld].result {
            f.replace_all_uses(rv, lv);
        }
        f.remove_inst(i);
    }
    Ok(out)
}

/// `call void asm sideeffect "", "i"(i32 k)`: the first instruction of call site `k`'s
/// continuation. It emits no code, but the optimizer can neither remove it nor sink it into a
/// successor (an inline asm operand cannot become a phi), so the continuation never becomes an
/// empty block. Without it, when two continuations end up with the same code (two calls in the
/// arms of an `if`, joining after), LLVM sinks that code into the join, folds both empty blocks
/// into it and points both `blockaddress`es at the join: two call sites with one key.
fn site_marker(f: &mut Function, types: &mut TypeTable, k: usize) -> Inst {
    let asm = f.const_value(types.ptr, "asm sideeffect \"\", \"i\"");
    let site = f.const_value(types.i32, &k.to_string());
    let void = types.void;
    Builder::new(f, types).call("", "", void, asm, &[site])
}

fn extract(f: &mut Function, types: &mut TypeTable, agg: Value, idx: u32, ty: Type) -> (Inst, Value) {
    let aty = types.display(f.values[agg].ty);
    let tmpl = vec![
        llir::ir::edit::t(&format!("extractvalue {aty} ")),
        llir::ir::Piece::Arg(0),
        llir::ir::edit::t(&format!(", {idx}")),
    ];
    let mut d = InstData::new(Opcode::ExtractValue, ty, tmpl);
    d.args.push(agg);
    let i = f.create_inst(types, d);
    (i, f.insts[i].result.unwrap_or(agg))
}

/// The engine's phases: what is live after each call, kept in the spill area (values the front end
/// saved itself read back from their own slots). Returns the frame and the spill area's size.
#[allow(clippy::too_many_arguments)]
fn build_frame(
    f: &mut Function,
    types: &mut TypeTable,
    dl: &DataLayout,
    src: &str,
    typed: bool,
    sites: &[Site],
    lowered: &mut [LoweredSite],
    stored: &[Stored],
    (frame_slot, slot_stores): (Option<Value>, &[Inst]),
) -> Result<(Frame, u64), Vec<Finding>> {
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
    let Some(slot) = frame_slot else { return Ok((empty, 0)) };
    let cfg = Cfg::compute(f);
    let live = Liveness::compute_ignoring(f, &cfg, |_| false);
    let dom = DomTree::compute(f, &cfg);
    // The call results are read only at the top of their own continuation.
    let results: FxHashSet<Value> = lowered.iter().filter_map(|s| f.insts[s.call].result).collect();
    let crossing = crossing(&live, sites, &|v| results.contains(&v) || v == slot);
    // A frame pointer live after its own call is stale: the frame may have moved.
    let mut errors = Vec::new();
    for s in lowered.iter() {
        let sp = s.frame;
        if live.live_in[s.cont].contains(&sp) {
            errors.push(error_at(
                f,
                f.value_inst(sp).or(Some(s.call)),
                "stackless-stale-frame",
                "this frame pointer is used after a statepoint that may move the frame".into(),
                "after the call, use the frame `gc.frame.accessor` returns (and `gc.frame.load` from it)",
            ));
        }
    }
    let spill_offsets: FxHashSet<i64> = lowered.iter().map(|s| s.spill).collect();
    if spill_offsets.len() > 1 {
        errors.push(error_at(
            f,
            lowered.get(1).map(|s| s.call),
            "stackless-spill-offset",
            "the statepoints of this function put the spill area at different offsets".into(),
            "give every frame layout of one function the same spill-area offset",
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let spill_off = lowered.first().map_or(0, |s| s.spill);
    // GC slots per call: the offsets of pointer-typed explicit saves that come before the call on
    // every path. An activation has one frame (relocated by each call, laid out again on the new
    // pointer), so a slot saved through any of its layouts holds a pointer at the call.
    for site in lowered.iter_mut() {
        let mut slots: Vec<i64> = stored
            .iter()
            .filter(|st| matches!(types.get(f.values[st.value].ty), TypeData::Ptr(_) | TypeData::TypedPtr(..)))
            .filter(|st| dominates_inst(f, &dom, st.store, site.call))
            .map(|st| st.offset)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        site.gc_slots = slots;
    }
    let Candidates { allocas, spills, .. } = classify(f, types, &crossing, src)?;
    if let Some(&a) = allocas.first() {
        return Err(vec![error_at(
            f,
            f.value_inst(a),
            "stackless-alloca",
            "this alloca is used after a statepoint: it lives on the native stack, which a stackless call \
             does not keep"
                .into(),
            "keep the value in the frame: `gc.frame.save` it before the call and `gc.frame.load` it after",
        )]);
    }
    let mut gc_errors = Vec::new();
    let mut saved_fields = Vec::new();
    let mut spilled = Vec::new();
    for &v in &spills {
        let explicit = saved_slot(f, &dom, stored, lowered, &live, v);
        match explicit {
            Some(off) => {
                let ty = f.values[v].ty;
                let mut fl = Field::new(FieldKind::Saved(v), ty, dl.alloc_size(types, ty), 1);
                fl.offset = off.max(0) as u64;
                saved_fields.push(fl);
            }
            None if is_gc_pointer(types, f.values[v].ty) => gc_errors.push(error_at(
                f,
                f.value_inst(v),
                "stackless-gc-pointer",
                "this GC pointer (addrspace(1)) is live across a statepoint without a slot of its own: the GC \
                 could not find it, nor update it when it moves the object"
                    .into(),
                "`gc.frame.save` it before the call and `gc.frame.load` it from the accessor after",
            )),
            None => spilled.push(v),
        }
    }
    if !gc_errors.is_empty() {
        return Err(gc_errors);
    }
    let cfg = Cfg::compute(f);
    let survey = Survey::new(f, &cfg, sites, &[], src);
    let remat = remat::rematerialisable(f, &spilled, &FxHashSet::default(), &live, slot);
    spilled.retain(|v| !remat.contains(v));
    let (_, errs, mut rest) = value_fields(f, types, dl, &[], &spilled, src);
    if !errs.is_empty() {
        return Err(errs);
    }
    let end = survey.pack(f, &live, &mut rest, &[], 0, &|_| false);
    for fl in rest.iter_mut() {
        fl.offset += spill_off.max(0) as u64;
    }
    let mut fields = saved_fields;
    fields.extend(rest);
    survey.describe(f, &live, &mut fields, &|_| false);
    fields.sort_by(|a, b| a.offset.cmp(&b.offset).then(b.size.cmp(&a.size)));
    let ptr = types.ptr;
    let frame_ptr = f.const_value(ptr, "null");
    let uses = frame_uses(f, &fields, &remat);
    // The frame exists once the slot first holds it: the store after the layout that dominates the
    // others.
    let ready = slot_stores.iter().copied().find(|&st| slot_stores.iter().all(|&o| dominates_inst(f, &dom, st, o)));
    let Some(ready) = ready else {
        return Err(vec![error_at(
            f,
            lowered.first().map(|s| s.call),
            "stackless-layout",
            "no frame layout of this function comes before all of its statepoints".into(),
            "make the frame (`gc.frame.layout`) before the first statepoint, on every path",
        )]);
    };
    // Every reload reads the frame through the slot, so the slot must hold the frame wherever one
    // can happen: the first layout comes before all of them.
    let conts: Vec<Block> = lowered.iter().map(|s| s.cont).collect();
    let ready_block = f.insts[ready].block;
    for fl in &fields {
        let (FieldKind::Spill(v) | FieldKind::Saved(v)) = fl.kind else { continue };
        if let Some(b) = flooded(f, &live, &conts, v)
            .into_iter()
            .find(|&b| ready_block.is_none_or(|rb| rb == b || !dom.dominates(rb, b)))
        {
            return Err(vec![error_at(
                f,
                f.blocks[b].insts.first().copied(),
                "stackless-layout",
                "a value live across a call is needed here, where the frame may not be laid out yet (the first \
                 `gc.frame.layout` does not come before this block on every path)"
                    .into(),
                "lay the frame out once before any loop that makes calls, and inside the loop lay out the frame \
                 pointer the previous call returned (`frame.sp` of its accessor)",
            )]);
        }
    }
    let before = |f: &Function, i: Inst| !dominates_inst(f, &dom, ready, i);
    let spill_at = SpillSites {
        frame: frame_ptr,
        frame_slot: Some(slot),
        typed,
        ready,
        before_frame: &before,
        keeps_value: &|_, _| false,
        continues: sites.iter().flat_map(|s| s.continues.iter().copied()).collect(),
        head: lowered.iter().map(|s| (s.cont, s.head)).collect(),
        leaves: sites.iter().map(|s| (s.inst, s.continues.clone())).collect(),
    };
    spill_and_reload(f, types, &spill_at, &live, &fields, &remat, &uses);
    let size = end;
    let remat_names = crate::frame::remat::names(f, &remat);
    let frame = Frame { fields, size, align: 1, remat, remat_names, ..empty };
    Ok((frame, size))
}

/// The one offset `v` is saved at, when it has one, nothing else is saved there, and a save of `v`
/// comes before every call `v` is live across (so the slot holds `v` wherever it is reloaded).
fn saved_slot(
    f: &Function,
    dom: &DomTree,
    stored: &[Stored],
    lowered: &[LoweredSite],
    live: &Liveness,
    v: Value,
) -> Option<i64> {
    let mut offs: Vec<i64> = stored.iter().filter(|s| s.value == v).map(|s| s.offset).collect();
    offs.sort_unstable();
    offs.dedup();
    let [off] = offs.as_slice() else { return None };
    let alone = stored.iter().all(|s| s.offset != *off || s.value == v);
    // Reloads go at the top of every block a call's continuation reaches while `v` is live: a save
    // must have run on every way into each of them.
    let conts: Vec<Block> = lowered.iter().map(|s| s.cont).collect();
    let saved_before = flooded(f, live, &conts, v).into_iter().all(|b| {
        stored
            .iter()
            .any(|st| st.value == v && f.insts[st.store].block.is_some_and(|sb| sb != b && dom.dominates(sb, b)))
    });
    (alone && saved_before && *off >= 0).then_some(*off)
}

/// The blocks a reload of `v` may go to: reachable from a continuation through blocks `v` is live
/// into (as the engine floods them).
fn flooded(f: &Function, live: &Liveness, conts: &[Block], v: Value) -> Vec<Block> {
    let mut seen: FxHashSet<Block> = FxHashSet::default();
    let mut work: Vec<Block> = conts.iter().copied().filter(|&b| live.live_in[b].contains(&v)).collect();
    while let Some(b) = work.pop() {
        if seen.insert(b) {
            work.extend(f.successors(b).iter().copied().filter(|&s| live.live_in[s].contains(&v)));
        }
    }
    seen.into_iter().collect()
}

/// Do two layouts describe the same frame pointer?
fn same_frame(layouts: &FxHashMap<Inst, Layout>, a: Inst, b: Inst) -> bool {
    matches!((layouts.get(&a), layouts.get(&b)), (Some(x), Some(y)) if x.sp == y.sp || x.inst == y.inst)
}

/// Explicit slots of one layout must not overlap each other (unless they are the same slot) or the
/// return-address slot.
fn check_slots(
    f: &Function,
    types: &TypeTable,
    dl: &DataLayout,
    saves: &[Save],
    layouts: &FxHashMap<Inst, Layout>,
) -> Result<(), Vec<Finding>> {
    let ptr_size = dl.pointer_size(0) as i64;
    let range = |s: &Save| (s.offset, s.offset + dl.store_size(types, f.values[s.value].ty) as i64);
    for (k, a) in saves.iter().enumerate() {
        let (a0, a1) = range(a);
        let clash = |what: String| {
            Err(vec![error_at(
                f,
                Some(a.inst),
                "stackless-slot-overlap",
                what,
                "give every explicit slot of a frame its own bytes, apart from the return address and the spill area",
            )])
        };
        if let Some(lay) = layouts.get(&a.layout) {
            if a0 < lay.ra + ptr_size && lay.ra < a1 {
                return clash(format!("this save's bytes {a0}..{a1} overlap the return-address slot at {}", lay.ra));
            }
            if let Some(sp) = lay.spill
                && a1 > sp
            {
                return clash(format!("this save's bytes {a0}..{a1} reach into the spill area at {sp}"));
            }
        }
        for b in &saves[..k] {
            if !same_frame(layouts, a.layout, b.layout) {
                continue;
            }
            let (b0, b1) = range(b);
            let same = a0 == b0 && a1 == b1;
            if !same && a0 < b1 && b0 < a1 {
                return clash(format!("this save's bytes {a0}..{a1} overlap another save's bytes {b0}..{b1}"));
            }
        }
    }
    Ok(())
}

fn is_gc_pointer(types: &TypeTable, ty: Type) -> bool {
    matches!(types.get(ty), TypeData::Ptr(1) | TypeData::TypedPtr(_, 1))
}

fn dominates_inst(f: &Function, dom: &DomTree, a: Inst, b: Inst) -> bool {
    let (Some(ba), Some(bb)) = (f.insts[a].block, f.insts[b].block) else { return false };
    if ba == bb {
        let pos = |x: Inst| f.blocks[ba].insts.iter().position(|&y| y == x);
        return pos(a) <= pos(b);
    }
    dom.dominates(ba, bb)
}

/// `spillsz` becomes the spill area's size; layouts go; `frame.return(layout, v)` builds `{sp, v}`.
fn finish(
    f: &mut Function,
    types: &mut TypeTable,
    calls: &[(Inst, Kind)],
    layouts: &FxHashMap<Inst, Layout>,
    size: u64,
) {
    for &(i, kind) in calls {
        if f.insts[i].block.is_none() {
            continue;
        }
        match kind {
            Kind::SpillSize => {
                if let Some(r) = f.insts[i].result {
                    let c = f.const_value(f.values[r].ty, &size.to_string());
                    f.replace_all_uses(r, c);
                }
                f.remove_inst(i);
            }
            Kind::Return => {
                let args = f.insts[i].call_args().to_vec();
                let (Some(&tok), Some(&v), Some(r)) = (args.first(), args.get(1), f.insts[i].result) else { continue };
                let Some(lay) = f.value_inst(tok).and_then(|l| layouts.get(&l)) else { continue };
                let sp = lay.sp_now(f);
                let rty = f.values[r].ty;
                let Some((made, pair)) = make_pair(f, types, rty, sp, v) else { continue };
                for x in made {
                    f.insert_inst_before(i, x);
                }
                f.replace_all_uses(r, pair);
                f.remove_inst(i);
            }
            _ => {}
        }
    }
    for &(i, kind) in calls {
        if kind == Kind::Layout && f.insts[i].block.is_some() {
            f.remove_inst(i);
        }
    }
}

/// The re-entry function. A runtime calls it with a captured frame and a pointer to the result the
/// frame's pending call would have returned; it reads the key in the frame's return-address slot,
/// and continues after that call site with every value reloaded from the frame. It is `f`'s code
/// from the call sites on: what runs before the first call is not there.
fn reentry(
    f: &Function,
    types: &mut TypeTable,
    sites: &[LoweredSite],
    slot: Value,
    typed: bool,
    src: &str,
) -> Option<Function> {
    let ra = sites.first()?.ra;
    if sites.iter().any(|s| s.ra != ra) {
        return None;
    }
    let ptr = types.ptr;
    let header = llir::ir::Header {
        prefix: llir::ir::Text::own("define internal "),
        ret: f.header.ret,
        params: vec![
            llir::ir::Param { ty: ptr, attrs: llir::ir::Text::own("") },
            llir::ir::Param { ty: ptr, attrs: llir::ir::Text::own("") },
        ],
        vararg: false,
        suffix: llir::ir::Text::own(crate::coro::split::part_suffix(f.header.suffix.get(src))),
    };
    let mut g = Function::new(crate::coro::split::derived_name(&f.name, "reenter"), header);
    let frame =
        g.values.push(llir::ir::ValueData { ty: ptr, kind: llir::ir::ValueKind::Param(0), name: Some("frame".into()) });
    let result = g.values.push(llir::ir::ValueData {
        ty: ptr,
        kind: llir::ir::ValueKind::Param(1),
        name: Some("result".into()),
    });
    g.params.push(frame);
    g.params.push(result);
    let entry = g.create_block(Some("entry"));
    g.layout.push(entry);
    let mut vmap: cranelift_entity::SecondaryMap<Value, Option<Value>> = cranelift_entity::SecondaryMap::new();
    for &p in &f.params {
        let ty = f.values[p].ty;
        vmap[p] = Some(g.const_value(ty, "poison"));
    }
    // The frame-pointer slot, in the entry block, holding the captured frame.
    let slot_ty = f.values[slot].ty;
    let mut d = InstData::new(
        Opcode::Alloca,
        slot_ty,
        vec![llir::ir::edit::t(&format!("alloca {}, align 8", types.display(ptr)))],
    );
    d.extra = llir::ir::Extra::Alloca { ty: ptr, align: Some(8) };
    let new_slot_inst = g.create_inst(types, d);
    let new_slot = g.insts[new_slot_inst].result?;
    g.append_inst(entry, new_slot_inst);
    vmap[slot] = Some(new_slot);
    let st = Builder::new(&mut g, types).store(frame, new_slot, 8);
    g.append_inst(entry, st);
    // The blocks the copy will hold: those reachable from a call site's continuation.
    let mut copied: cranelift_entity::SecondaryMap<Block, bool> = cranelift_entity::SecondaryMap::new();
    let mut work: Vec<Block> = sites.iter().map(|s| s.cont).collect();
    while let Some(b) = work.pop() {
        if !copied[b] {
            copied[b] = true;
            work.extend(f.successors(b).iter().copied());
        }
    }
    // Per call site, what the call would have returned: {frame, *result}.
    let mut landing = Vec::new();
    for site in sites {
        let rty = f.values[f.insts[site.call].result?].ty;
        let res_ty = match types.get(rty) {
            TypeData::Struct { fields, .. } => fields.get(1).copied()?,
            _ => return None,
        };
        let name = g.unique_block_name("reenter.site");
        let lb = g.create_block(Some(&name));
        let mut pre_load = Vec::new();
        let mut from = result;
        if typed {
            let want = types.pointer_to(res_ty, 0, true);
            let c = Builder::new(&mut g, types).bitcast(result, want);
            from = g.insts[c].result?;
            pre_load.push(c);
        }
        let load = Builder::new(&mut g, types).load(res_ty, from, 1);
        let loaded = g.insts[load].result?;
        let (frame_v, pre) = if typed && g.values[frame].ty != sp_type(f, site) {
            let want = sp_type(f, site);
            let c = Builder::new(&mut g, types).bitcast(frame, want);
            (g.insts[c].result?, vec![c])
        } else {
            (frame, Vec::new())
        };
        let (made, agg) = make_pair(&mut g, types, rty, frame_v, loaded)?;
        pre_load.extend(pre);
        let mut pre = pre_load;
        pre.push(load);
        pre.extend(made);
        for i in pre {
            g.append_inst(lb, i);
        }
        // A call that is not copied (nothing after a call site leads to it) is its landing value.
        if let Some(r) = f.insts[site.call].result
            && !f.insts[site.call].block.is_some_and(|b| copied[b])
        {
            vmap[r] = Some(agg);
        }
        landing.push((lb, agg));
    }
    let roots: Vec<Block> = sites.iter().map(|s| s.cont).collect();
    let maps = g.clone_reachable_from(f, &mut vmap, &roots);
    // Each landing block enters its call site's continuation; where the call itself was copied
    // (another call site leads to it), the continuation takes the call's value from either edge.
    for (site, &(lb, agg)) in sites.iter().zip(&landing) {
        let cont = maps.blocks[site.cont]?;
        let br = g.create_br(types, cont);
        g.append_inst(lb, br);
        g.layout.push(lb);
        if let Some(call) = maps.insts[site.call]
            && let Some(cv) = g.insts[call].result
            && let Some(pred) = g.insts[call].block
        {
            let rty = g.values[cv].ty;
            let users: Vec<Inst> = g.blocks[cont].insts.to_vec();
            let phi = Builder::new(&mut g, types).phi(rty, &[(cv, pred), (agg, lb)]);
            let pv = g.insts[phi].result?;
            // The copy kept the landing value for the call's result: both edges meet in the phi.
            for u in users {
                for a in g.insts[u].args.iter_mut() {
                    if *a == cv || *a == agg {
                        *a = pv;
                    }
                }
            }
            g.insert_inst_at(cont, 0, phi);
        }
    }
    // The dispatch: the key in the frame's return-address slot names the call site.
    let (mut seq, addr) = slot_addr(&mut g, types, frame, ra, ptr, typed);
    let key = Builder::new(&mut g, types).load(ptr, addr, 8);
    let key_v = g.insts[key].result?;
    seq.push(key);
    for i in seq {
        g.append_inst(entry, i);
    }
    let fname = f.name.to_string();
    let mut at = entry;
    for (k, (site, &(lb, _))) in sites.iter().zip(&landing).enumerate() {
        let ba = g.const_value(ptr, &format!("blockaddress({fname}, %{})", block_name(f, site.cont)));
        let eq = Builder::new(&mut g, types).icmp("eq", key_v, ba);
        let eq_v = g.insts[eq].result?;
        g.append_inst(at, eq);
        let next_name = g.unique_block_name(&format!("reenter.next.{k}"));
        let next = g.create_block(Some(&next_name));
        let br = Builder::new(&mut g, types).cond_br(eq_v, lb, next);
        g.append_inst(at, br);
        g.layout.push(next);
        at = next;
    }
    let u = Builder::new(&mut g, types).unreachable();
    g.append_inst(at, u);
    crate::coro::split::strip_debug(&mut g);
    Some(g)
}

/// `{first, second}` of type `ty` built by two `insertvalue`s (not yet placed), and its value.
fn make_pair(
    f: &mut Function,
    types: &mut TypeTable,
    ty: Type,
    first: Value,
    second: Value,
) -> Option<(Vec<Inst>, Value)> {
    let text = types.display(ty);
    let first_ty = types.display(f.values[first].ty);
    let second_ty = types.display(f.values[second].ty);
    let mut a = InstData::new(
        Opcode::InsertValue,
        ty,
        vec![
            llir::ir::edit::t(&format!("insertvalue {text} poison, {first_ty} ")),
            llir::ir::Piece::Arg(0),
            llir::ir::edit::t(", 0"),
        ],
    );
    a.args.push(first);
    let ai = f.create_inst(types, a);
    let av = f.insts[ai].result?;
    let mut b = InstData::new(
        Opcode::InsertValue,
        ty,
        vec![
            llir::ir::edit::t(&format!("insertvalue {text} ")),
            llir::ir::Piece::Arg(0),
            llir::ir::edit::t(&format!(", {second_ty} ")),
            llir::ir::Piece::Arg(1),
            llir::ir::edit::t(", 1"),
        ],
    );
    b.args.push(av);
    b.args.push(second);
    let bi = f.create_inst(types, b);
    Some((vec![ai, bi], f.insts[bi].result?))
}

/// The frame pointer type a call site's callee returns first.
fn sp_type(f: &Function, site: &LoweredSite) -> Type {
    f.values[site.frame].ty
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
    fn each_continuation_has_a_mark_of_its_own() {
        let out = run(ACK.into(), Options::default()).map(|o| o.text).unwrap_or_default();
        let ack = out.split("define internal").next().unwrap_or_default();
        for k in 0..3 {
            let mark = format!("call void asm sideeffect \"\", \"i\"(i32 {k})");
            assert_eq!(
                block(ack, &format!("stackless.ret.{k}")).first().map(|l| l.trim()),
                Some(mark.as_str()),
                "{out}"
            );
        }
    }
}
