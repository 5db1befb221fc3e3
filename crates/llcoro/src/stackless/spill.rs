//! The spill area of a stackless function, on the frame engine: what is live after each call
//! survives it in the frame. Values the front end saved itself are read back from their own slots;
//! every other value is stored in the spill area and reloaded from the frame the callee returned.
//! Found here because only the lowered body shows them: a frame pointer used after its call, a GC
//! pointer or a token live across a call, an alloca used after one, a reload where the frame is not
//! laid out yet.
//!
//! The spill area's offsets are from the frame pointer, which is `FRAME_ALIGN`-aligned: each field
//! is placed at a multiple of its alignment (up to that) and accessed with it, after padding when
//! the area's own offset is not aligned enough.

use super::check::{Origins, operand_span};
use super::statepoint::LoweredSite;
use super::{FRAME_ALIGN, Stored};
use crate::diag::{Finding, is_unspillable};
use crate::frame::rewrite::{SpillSites, frame_uses, spill_and_reload};
use crate::frame::{Candidates, Field, FieldKind, Frame, Site, Survey, classify, crossing, remat, value_fields};
use llir::analysis::cfg::Cfg;
use llir::analysis::dom::DomTree;
use llir::analysis::liveness::Liveness;
use llir::ir::{Block, Function, Inst, Opcode, Value};
use llir::layout::DataLayout;
use llir::types::{Type, TypeData, TypeTable};
use rustc_hash::FxHashSet;

/// What the body is, once the calls are lowered.
pub struct Body<'a> {
    pub src: &'a str,
    pub typed: bool,
    pub sites: &'a [Site],
    pub stored: &'a [Stored],
    /// The alloca holding the current frame pointer, and its stores after the layouts.
    pub slot: Value,
    pub slot_stores: &'a [Inst],
    pub origins: &'a Origins,
}

/// The engine's phases: what is live after each call, kept in the spill area (values the front end
/// saved itself read back from their own slots). Returns the frame and the spill area's size.
pub fn build(
    f: &mut Function,
    types: &mut TypeTable,
    dl: &DataLayout,
    body: &Body<'_>,
    lowered: &mut [LoweredSite],
    empty: Frame,
) -> Result<(Frame, u64), Vec<Finding>> {
    let (src, slot, o) = (body.src, body.slot, body.origins);
    let cfg = Cfg::compute(f);
    let live = Liveness::compute_ignoring(f, &cfg, |_| false);
    let dom = DomTree::compute(f, &cfg);
    // The call results are read only at the top of their own continuation.
    let results: FxHashSet<Value> = lowered.iter().filter_map(|s| f.insts[s.call].result).collect();
    let crossing = crossing(&live, body.sites, &|v| results.contains(&v) || v == slot);
    stale_frames(f, src, &live, lowered, o)?;
    tokens_across(f, types, &crossing, o)?;
    record_gc_slots(f, types, &dom, lowered, body.stored);
    let Candidates { allocas, spills, .. } = classify(f, types, &crossing, src)?;
    if let Some(at) = allocas.first().and_then(|&a| o.def(f, a)) {
        let a = f.insts[at].result.unwrap_or(slot);
        return Err(vec![o.error_at(
            f,
            at,
            None,
            "stackless-alloca",
            format!(
                "the alloca {} is used after a statepoint: it lives on the native stack, which a stackless call \
                 does not keep",
                o.name(f, a)
            ),
            "keep the value in the frame: `gc.frame.save` it before the call and `gc.frame.load` it after",
        )]);
    }
    let (saved_fields, mut spilled) = sort_spills(f, types, dl, &dom, body, lowered, &live, &spills)?;
    let cfg = Cfg::compute(f);
    let survey = Survey::new(f, &cfg, body.sites, &[], src);
    let remat = remat::rematerialisable(f, &spilled, &FxHashSet::default(), &live, slot);
    spilled.retain(|v| !remat.contains(v));
    let (_, errs, mut rest) = value_fields(f, types, dl, &[], &spilled, src);
    if !errs.is_empty() {
        return Err(errs);
    }
    // Offsets are from `sp`, which is only known to be FRAME_ALIGN-aligned: a field is placed at a
    // multiple of its alignment up to that, and accessed with that alignment; the area starts with
    // padding when its offset is not aligned enough for the first field.
    for fl in rest.iter_mut() {
        fl.align = fl.align.clamp(1, FRAME_ALIGN);
    }
    let spill_base = lowered.first().map_or(0, |s| s.spill.max(0) as u64);
    let end = survey.pack(f, &live, &mut rest, &[], spill_base, &|_| false);
    let align = rest.iter().map(|fl| fl.align).max().unwrap_or(1);
    let mut fields = saved_fields;
    fields.extend(rest);
    survey.describe(f, &live, &mut fields, &|_| false);
    fields.sort_by(|a, b| a.offset.cmp(&b.offset).then(b.size.cmp(&a.size)));
    let ready = laid_out(f, &dom, &live, body, lowered, &fields)?;
    let uses = frame_uses(f, &fields, &remat);
    let before = |f: &Function, i: Inst| !dominates_inst(f, &dom, ready, i);
    let spill_at = SpillSites {
        frame: f.const_value(types.ptr, "null"),
        frame_slot: Some(slot),
        typed: body.typed,
        ready,
        before_frame: &before,
        keeps_value: &|_, _| false,
        continues: body.sites.iter().flat_map(|s| s.continues.iter().copied()).collect(),
        head: lowered.iter().map(|s| (s.cont, s.head)).collect(),
        leaves: body.sites.iter().map(|s| (s.inst, s.continues.clone())).collect(),
    };
    spill_and_reload(f, types, &spill_at, &live, &fields, &remat, &uses);
    let size = end - spill_base;
    let remat_names = crate::frame::remat::names(f, &remat);
    Ok((Frame { fields, size, align, remat, remat_names, ..empty }, size))
}

/// A frame pointer live after its own call is stale: the frame may have moved. Refused at the first
/// use after the call (in the input's order).
fn stale_frames(
    f: &Function,
    src: &str,
    live: &Liveness,
    lowered: &[LoweredSite],
    o: &Origins,
) -> Result<(), Vec<Finding>> {
    let mut errors = Vec::new();
    for s in lowered {
        let sp = s.frame;
        if !live.live_in[s.cont].contains(&sp) {
            continue;
        }
        let after: FxHashSet<Block> = flooded(f, live, &[s.cont], sp).into_iter().collect();
        let used_after = |i: Inst, k: usize| {
            let d = &f.insts[i];
            let b = if d.op == Opcode::Phi { d.blocks.get(k).copied() } else { d.block };
            b.is_some_and(|b| after.contains(&b))
        };
        let bad = f
            .inst_iter()
            .flat_map(|(_, i)| f.insts[i].args.iter().enumerate().map(move |(k, &a)| (i, k, a)))
            .filter(|&(i, k, a)| a == sp && used_after(i, k))
            .map(|(i, _, _)| i)
            .min_by_key(|&i| (!in_input(f, i), f.insts[i].span.start));
        let at = bad.unwrap_or(s.call);
        let user = o.user_value(sp);
        let token = s.token.map_or_else(|| "of this call".into(), |t| o.name(f, t));
        errors.push(o.error_at(
            f,
            at,
            operand_span(f, src, at, user, false),
            "stackless-stale-frame",
            format!(
                "the frame pointer {} is used here, after the statepoint {token}, which may have moved the frame",
                o.name(f, sp)
            ),
            "after the call, use the frame that the statepoint's accessor names (`gc.frame.accessor`, then \
             `gc.frame.load` or `frame.sp` of it)",
        ));
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// A token cannot be kept in the frame.
fn tokens_across(f: &Function, types: &TypeTable, crossing: &[Value], o: &Origins) -> Result<(), Vec<Finding>> {
    let errors: Vec<Finding> = crossing
        .iter()
        .filter(|&&v| is_unspillable(types, f.values[v].ty))
        .filter_map(|&v| {
            Some(o.error_at(
                f,
                o.def(f, v)?,
                None,
                "coro-token-across-suspend",
                format!("the {} value {} is live across a statepoint", types.display(f.values[v].ty), o.name(f, v)),
                "a token cannot be kept in the frame; make it again after the call",
            ))
        })
        .collect();
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// GC slots per call: the offsets of pointer-typed explicit saves that come before the call on
/// every path. An activation has one frame (relocated by each call, laid out again on the new
/// pointer), so a slot saved through any of its layouts holds a pointer at the call.
fn record_gc_slots(f: &Function, types: &TypeTable, dom: &DomTree, lowered: &mut [LoweredSite], stored: &[Stored]) {
    for site in lowered.iter_mut() {
        let mut slots: Vec<i64> = stored
            .iter()
            .filter(|st| matches!(types.get(f.values[st.value].ty), TypeData::Ptr(_) | TypeData::TypedPtr(..)))
            .filter(|st| dominates_inst(f, dom, st.store, site.call))
            .map(|st| st.offset)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        site.gc_slots = slots;
    }
}

/// The values live across a call the front end saved in a slot of its own (fields at that slot),
/// and the others, to spill; a GC pointer with no slot of its own is refused.
#[allow(clippy::too_many_arguments)]
fn sort_spills(
    f: &Function,
    types: &TypeTable,
    dl: &DataLayout,
    dom: &DomTree,
    body: &Body<'_>,
    lowered: &[LoweredSite],
    live: &Liveness,
    spills: &[Value],
) -> Result<(Vec<Field>, Vec<Value>), Vec<Finding>> {
    let o = body.origins;
    let mut errors = Vec::new();
    let mut saved = Vec::new();
    let mut spilled = Vec::new();
    for &v in spills {
        let ty = f.values[v].ty;
        match saved_slot(f, dom, body.stored, lowered, live, v) {
            Some(off) => {
                let mut fl = Field::new(FieldKind::Saved(v), ty, dl.alloc_size(types, ty), 1);
                fl.offset = off.max(0) as u64;
                saved.push(fl);
            }
            None if is_gc_pointer(types, ty) => {
                // Its definition, or (a parameter) the first call it is live across.
                let crossed = lowered.iter().find(|s| live.live_in[s.cont].contains(&v)).map(|s| s.call);
                let Some(at) = o.def(f, v).or(crossed) else { continue };
                errors.push(o.error_at(
                    f,
                    at,
                    None,
                    "stackless-gc-pointer",
                    format!(
                        "the GC pointer {} (addrspace(1)) is live across a statepoint without a slot of its own: \
                         the GC could not find it, nor update it when it moves the object",
                        o.name(f, v)
                    ),
                    "`gc.frame.save` it before the call and `gc.frame.load` it from the accessor after",
                ));
            }
            None => spilled.push(v),
        }
    }
    if errors.is_empty() { Ok((saved, spilled)) } else { Err(errors) }
}

/// Where the frame exists: the store into the frame-pointer slot after the layout that comes before
/// the others. Every reload reads the frame through the slot, so the slot must hold the frame
/// wherever one can happen: that first layout comes before all of them.
fn laid_out(
    f: &Function,
    dom: &DomTree,
    live: &Liveness,
    body: &Body<'_>,
    lowered: &[LoweredSite],
    fields: &[Field],
) -> Result<Inst, Vec<Finding>> {
    let o = body.origins;
    let stores = body.slot_stores;
    let ready = stores.iter().copied().find(|&st| stores.iter().all(|&x| dominates_inst(f, dom, st, x)));
    let first_call = lowered.first().map(|s| s.call);
    let Some(ready) = ready else {
        let at = first_call.or(stores.first().copied());
        return Err(at
            .map(|at| {
                o.error_at(
                    f,
                    at,
                    None,
                    "stackless-layout",
                    "no frame layout of this function comes before all of its statepoints".into(),
                    "make the frame (`gc.frame.layout`) before the first statepoint, on every path",
                )
            })
            .into_iter()
            .collect());
    };
    let conts: Vec<Block> = lowered.iter().map(|s| s.cont).collect();
    let ready_block = f.insts[ready].block;
    for fl in fields {
        let (FieldKind::Spill(v) | FieldKind::Saved(v)) = fl.kind else { continue };
        let Some(b) = flooded(f, live, &conts, v)
            .into_iter()
            .filter(|&b| ready_block.is_none_or(|rb| rb == b || !dom.dominates(rb, b)))
            .min_by_key(|&b| f.blocks[b].insts.first().map(|&i| f.insts[i].span.start))
        else {
            continue;
        };
        // Its use there, or the block's first instruction the input has.
        let insts = &f.blocks[b].insts;
        let Some(at) = insts
            .iter()
            .copied()
            .find(|&i| f.insts[i].args.contains(&v) && in_input(f, i))
            .or_else(|| insts.iter().copied().find(|&i| in_input(f, i)))
            .or(insts.first().copied())
        else {
            continue;
        };
        return Err(vec![o.error_at(
            f,
            at,
            None,
            "stackless-layout",
            format!(
                "{} is live across a call and needed here, where the frame may not be laid out yet (the first \
                 `gc.frame.layout` does not come before this block on every path)",
                o.name(f, v)
            ),
            "lay the frame out once before any loop that makes calls, and inside the loop lay out the frame \
             pointer the previous call returned (`frame.sp` of its accessor)",
        )]);
    }
    Ok(ready)
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

/// Has instruction `i` a place in the input (its own, or the intrinsic's it replaces)?
fn in_input(f: &Function, i: Inst) -> bool {
    f.insts[i].span.end > f.insts[i].span.start
}

fn is_gc_pointer(types: &TypeTable, ty: Type) -> bool {
    matches!(types.get(ty), TypeData::Ptr(1) | TypeData::TypedPtr(_, 1))
}

pub fn dominates_inst(f: &Function, dom: &DomTree, a: Inst, b: Inst) -> bool {
    let (Some(ba), Some(bb)) = (f.insts[a].block, f.insts[b].block) else { return false };
    if ba == bb {
        let pos = |x: Inst| f.blocks[ba].insts.iter().position(|&y| y == x);
        return pos(a) <= pos(b);
    }
    dom.dominates(ba, bb)
}
