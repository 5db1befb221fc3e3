//! Statepoint lowering: each `gc.frame.statepoint` becomes a store of the return address (the
//! `blockaddress` of the block after the call), the call with the frame pointer, and a split after
//! it; the frame and result the callee returns replace the statepoint's accessor and result, and
//! loads through an accessor read the frame it now stands for.

use super::check::{Origins, const_operand};
use super::ir::{as_i8, slot_addr, stamp};
use super::{Kind, Layout, Returns, Statepoint, frame_now};
use llir::ir::build::Builder;
use llir::ir::{Block, Function, Inst, InstData, Opcode, Value};
use llir::types::{Type, TypeData, TypeTable};
use rustc_hash::FxHashMap;

/// A statepoint once lowered: its call and where execution continues after it.
pub(super) struct LoweredSite {
    pub(super) call: Inst,
    /// The statepoint's token in the input (for messages).
    pub(super) token: Option<Value>,
    /// How the callee returns.
    pub(super) returns: Returns,
    pub(super) cont: Block,
    /// How many instructions at the top of `cont` read the call's return value.
    pub(super) head: usize,
    /// The frame pointer the call was made with.
    pub(super) frame: Value,
    pub(super) ra: i64,
    pub(super) spill: i64,
    pub(super) gc_slots: Vec<i64>,
}

/// What lowering a function's statepoints reads besides the function.
struct Cx<'a> {
    calls: &'a [(Inst, Kind)],
    layouts: &'a FxHashMap<Inst, Layout>,
    /// The alloca that holds the current frame pointer.
    frame_slot: Option<Value>,
    typed: bool,
}

/// Each statepoint: the return address stored, the call with `sp`, the block split after it, and
/// the frame and result the callee returned read from its return value. What llcoro puts in the
/// place of an intrinsic carries the intrinsic's place in the input, so that a refusal found later
/// (a frame pointer used after its call) points at what the user wrote.
#[allow(clippy::too_many_arguments)]
pub(super) fn lower_statepoints(
    f: &mut Function,
    types: &mut TypeTable,
    calls: &[(Inst, Kind)],
    statepoints: &[Statepoint],
    layouts: &FxHashMap<Inst, Layout>,
    frame_slot: Option<Value>,
    typed: bool,
    src: &str,
    origins: &mut Origins,
) -> Vec<LoweredSite> {
    let cx = Cx { calls, layouts, frame_slot, typed };
    let mut out = Vec::new();
    for (k, sp_call) in statepoints.iter().enumerate() {
        out.extend(lower_statepoint(f, types, &cx, k, sp_call, origins));
    }
    accessors_as_frame_pointers(f, types, calls, origins);
    lower_loads(f, types, calls, typed, src, origins);
    out
}

/// Statepoint `k`: `sp_call` lowered, unless the checks left it without a frame (then it stays).
fn lower_statepoint(
    f: &mut Function,
    types: &mut TypeTable,
    cx: &Cx<'_>,
    k: usize,
    sp_call: &Statepoint,
    origins: &mut Origins,
) -> Option<LoweredSite> {
    let lay = cx.layouts.get(&sp_call.layout)?;
    let spill = lay.spill?;
    let &token = f.insts[sp_call.inst].call_args().last()?;
    let frame = frame_now(f, token, cx.layouts);
    let sp_ty = f.values[frame].ty;
    let ret_ty = match sp_call.returns {
        Returns::Pair(t) => types.intern(TypeData::Struct { fields: vec![sp_ty, t].into(), packed: false }),
        Returns::Wrapped => types.intern(TypeData::Struct { fields: vec![sp_ty].into(), packed: false }),
        Returns::Bare => sp_ty,
    };
    let b = f.insts[sp_call.inst].block?;
    let pos = f.blocks[b].insts.iter().position(|&x| x == sp_call.inst)?;
    let span = f.insts[sp_call.inst].span;
    // The return address: the block after the call.
    let name = f.unique_block_name(&format!("stackless.ret.{k}"));
    let cont = f.split_block(types, b, pos + 1, Some(&name));
    origins.split(b, cont);
    // Spelled with this function's name: the re-entry function's copy of this store must
    // still write this function's key.
    let ba = f.const_value(types.ptr, &format!("blockaddress({}, %{name})", f.name));
    let ptr = types.ptr;
    let (mut seq, ra_addr) = slot_addr(f, types, frame, lay.ra, ptr, cx.typed);
    seq.push(Builder::new(f, types).store(ba, ra_addr, 8));
    // The operands as they are now: earlier statepoints' results have replaced what they read.
    let now = f.insts[sp_call.inst].call_args().to_vec();
    let (callee, rest) = match now.as_slice() {
        [callee, rest @ .., _token] => (*callee, rest.to_vec()),
        _ => (sp_call.callee, Vec::new()),
    };
    let mut call_args = vec![frame];
    call_args.extend(rest);
    let call = Builder::new(f, types).call("", "", ret_ty, callee, &call_args);
    seq.push(call);
    let r = f.insts[call].result.unwrap_or(frame);
    stamp(f, &seq, span);
    for (j, x) in seq.into_iter().enumerate() {
        f.insert_inst_at(b, pos + j, x);
    }
    let (head, new_sp, res) = after_call(f, types, cx, k, sp_call.returns, r, sp_ty);
    stamp(f, &head, span);
    let head_len = head.len();
    for (j, x) in head.into_iter().enumerate() {
        f.insert_inst_at(cont, j, x);
    }
    replace_reads(f, cx.calls, sp_call.inst, new_sp, res, origins);
    f.remove_inst(sp_call.inst);
    Some(LoweredSite {
        call,
        token: f.insts[sp_call.inst].result,
        returns: sp_call.returns,
        cont,
        head: head_len,
        frame,
        ra: lay.ra,
        spill,
        gc_slots: Vec::new(),
    })
}

/// What starts call site `k`'s continuation (not yet placed): its marker, the frame pointer and the
/// result read from `r`, the call's value, as `returns` says, and the frame pointer kept in the
/// slot. Returns those instructions, the frame pointer, and the result.
fn after_call(
    f: &mut Function,
    types: &mut TypeTable,
    cx: &Cx<'_>,
    k: usize,
    returns: Returns,
    r: Value,
    sp_ty: Type,
) -> (Vec<Inst>, Value, Option<Value>) {
    let mut head = vec![site_marker(f, types, k)];
    let new_sp = match returns {
        Returns::Bare => r,
        Returns::Pair(_) | Returns::Wrapped => {
            let (i, v) = extract(f, types, r, 0, sp_ty);
            head.push(i);
            v
        }
    };
    let res = match returns {
        Returns::Pair(t) => {
            let (i, v) = extract(f, types, r, 1, t);
            head.push(i);
            Some(v)
        }
        Returns::Wrapped | Returns::Bare => None,
    };
    if let Some(slot) = cx.frame_slot {
        let (mut c, v) = as_i8(f, types, new_sp, cx.typed);
        c.push(Builder::new(f, types).store(v, slot, 8));
        head.extend(c);
    }
    (head, new_sp, res)
}

/// The accessor and result of `statepoint` are the frame pointer `new_sp` and the result `res`
/// now: their uses read these, and they go.
fn replace_reads(
    f: &mut Function,
    calls: &[(Inst, Kind)],
    statepoint: Inst,
    new_sp: Value,
    res: Option<Value>,
    origins: &mut Origins,
) {
    for &(i, kind) in calls {
        if f.insts[i].call_args().first().and_then(|&t| f.value_inst(t)) != Some(statepoint) {
            continue;
        }
        let Some(rv) = f.insts[i].result else { continue };
        let now = match (kind, res) {
            (Kind::Accessor | Kind::Sp, _) => new_sp,
            (Kind::Result, Some(res)) => res,
            _ => continue,
        };
        f.replace_all_uses(rv, now);
        origins.replaced(f, now, rv);
        f.remove_inst(i);
    }
}

/// `sp(accessor)`: the accessor is the frame pointer now (checked: it was a statepoint's or an
/// accessor's token).
fn accessors_as_frame_pointers(f: &mut Function, types: &TypeTable, calls: &[(Inst, Kind)], origins: &mut Origins) {
    for &(i, kind) in calls {
        if kind != Kind::Sp || f.insts[i].block.is_none() {
            continue;
        }
        if let (Some(&a), Some(r)) = (f.insts[i].call_args().first(), f.insts[i].result)
            && f.values[a].ty != types.token
        {
            f.replace_all_uses(r, a);
            origins.replaced(f, a, r);
            f.remove_inst(i);
        }
    }
}

/// Loads from an accessor (now the frame pointer it stands for).
fn lower_loads(
    f: &mut Function,
    types: &mut TypeTable,
    calls: &[(Inst, Kind)],
    typed: bool,
    src: &str,
    origins: &mut Origins,
) {
    for &(i, kind) in calls {
        if kind != Kind::Load || f.insts[i].block.is_none() {
            continue;
        }
        let (Some(&base), Some(off), Some(rv)) =
            (f.insts[i].call_args().first(), const_operand(f, i, 1, src), f.insts[i].result)
        else {
            continue;
        };
        let ty = f.values[rv].ty;
        let (mut seq, addr) = slot_addr(f, types, base, off, ty, typed);
        let ld = Builder::new(f, types).load(ty, addr, 1);
        seq.push(ld);
        stamp(f, &seq, f.insts[i].span);
        let Some(b) = f.insts[i].block else { continue };
        let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == i) else { continue };
        for (k, x) in seq.into_iter().enumerate() {
            f.insert_inst_at(b, pos + k, x);
        }
        if let Some(lv) = f.insts[ld].result {
            f.replace_all_uses(rv, lv);
            origins.replaced(f, lv, rv);
        }
        f.remove_inst(i);
    }
}

/// `call void asm sideeffect "", "i"(i32 k)`: the first instruction of call site `k`'s
/// continuation. It emits no code, but the optimizer can neither remove it nor sink it into a
/// successor (an inline asm operand cannot become a phi), so the continuation never becomes an
/// empty block. Without it, when two continuations end up with the same code (two calls in the
/// arms of an `if`, joining after), LLVM sinks that code into the join, folds both empty blocks
/// into it and points both `blockaddress`es at the join: two call sites with one key.
/// `noduplicate` keeps passes that copy code (loop peeling and unrolling, jump threading) from
/// copying the continuation: a copy's `blockaddress` names the copy, a key the table lacks (a loop
/// around a call peeled at -O2, found by the stackless generator, seed 61).
fn site_marker(f: &mut Function, types: &mut TypeTable, k: usize) -> Inst {
    let asm = f.const_value(types.ptr, "asm sideeffect \"\", \"i\"");
    let site = f.const_value(types.i32, &k.to_string());
    let void = types.void;
    let call = Builder::new(f, types).call("", "", void, asm, &[site]);
    f.insts[call].push_piece(llir::ir::edit::t(" noduplicate"));
    call
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
