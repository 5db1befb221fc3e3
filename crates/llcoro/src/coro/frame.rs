//! The switched-resume coroutine's frame, built on the shared engine (`crate::frame`).
//!
//! What is particular to `llvm.coro.*`:
//! - **Header.** Resume function at 0, destroy function at one pointer, the promise where
//!   `coro.promise` expects it, and the suspend index (and, with computed-goto dispatch, the resume
//!   label), packed with the spills and allocas around them.
//! - **Where the frame exists.** From `coro.begin` on: pointers derived from allocas before it are
//!   made again after it (`realias`), and allocas written before it are copied in after it.
//! - **Code only the ramp runs** (after `coro.end`, the ramp's unwind path, `coro.is_in_ramp`)
//!   keeps SSA values and keeps nothing alive across a suspend; reading frame memory after
//!   `coro.end` is a warning, as is a `!coro.outside.frame` alloca used after a suspend.
//! - **`coro.param`** copies that nothing uses after a suspend are not made.

use crate::coro::intrinsics::{Intr, intr_of, promise_offset};
use crate::coro::shape::{Shape, warning_at};
use crate::diag::{Finding, error_at};
use crate::frame::allocas::is_lifetime;
use crate::frame::rewrite::{MoveSites, SpillSites, copy_in, frame_uses, move_allocas, spill_and_reload};
use crate::frame::{
    Candidates, Field, FieldKind, Frame, Site, Survey, alloca_info, classify, crossing, remat, value_fields,
};
use llir::analysis::cfg::Cfg;
use llir::analysis::liveness::Liveness;
use llir::ir::{Block, Function, Inst, Opcode, Value};
use llir::layout::DataLayout;
use llir::types::{Type, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};

pub struct Env<'a> {
    pub src: &'a str,
    pub dl: &'a DataLayout,
    pub typed: bool,
    pub dispatch: Dispatch,
    /// The module's `!{}` node for `!invariant.group` on the frame header's destroy slot
    /// (`HeaderGroup`); none for typed pointers.
    pub header_group: Option<u32>,
    /// The module's global names, which new functions' names must not take.
    pub globals: &'a rustc_hash::FxHashSet<Box<str>>,
}

/// How `.resume` finds where to continue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Dispatch {
    /// A `switch` on the suspend index (LLVM's way).
    #[default]
    Switch,
    /// An `indirectbr` on a block address each suspend stores in the frame (Kotlin/Native's
    /// computed goto); the index stays for `.destroy` and `.cleanup`.
    Indirectbr,
}

/// Is `i` a coroutine intrinsic call that splitting rewrites (so its operands are not real uses)?
pub fn is_structural(f: &Function, i: Inst, src: &str) -> bool {
    matches!(
        intr_of(f, i, src),
        Some(
            Intr::Id
                | Intr::Alloc
                | Intr::Size
                | Intr::Align
                | Intr::Begin
                | Intr::Free
                | Intr::Frame
                | Intr::Save
                | Intr::Suspend
                | Intr::End
                | Intr::IsInRamp
                | Intr::Param
        )
    )
}

/// Code that only the ramp runs, in two degrees. `after_end`: code after a non-unwind `coro.end` in
/// its block (the parts return there), the ramp's return path, which runs once the coroutine is
/// suspended and possibly resumed and freed elsewhere. `ramp_only`: that, plus the edge an unwind
/// `coro.end` takes when it answers false (an exception leaving the ramp, which still owns its
/// frame) and the edge `coro.is_in_ramp()` takes when it answers true. Each grows to the blocks all
/// of whose entries are such code or such edges.
pub struct RampOnly {
    pub ramp_only: FxHashSet<Inst>,
    pub after_end: FxHashSet<Inst>,
}

pub fn ramp_only_insts(f: &Function, shape: &Shape, cfg: &Cfg, src: &str) -> RampOnly {
    let mut seed: FxHashSet<Inst> = FxHashSet::default();
    let mut tail_blocks: FxHashSet<Block> = FxHashSet::default();
    let mut ramp_edges: FxHashSet<(Block, Block)> = FxHashSet::default();
    // The edge of `br i1 %c` that `c` == `when` takes, if `c` feeds a branch in its own block.
    let edge_when = |c: Inst, when: bool| -> Option<(Block, Block)> {
        let r = f.insts[c].result?;
        let b = f.insts[c].block?;
        let t = f.terminator(b)?;
        let d = &f.insts[t];
        (d.op == Opcode::Br && d.args.first() == Some(&r) && d.blocks.len() == 2)
            .then(|| (b, d.blocks[if when { 0 } else { 1 }]))
    };
    for &e in &shape.ends {
        let unwind = f.insts[e].call_args().get(1).and_then(|&v| f.const_int(v, src)).unwrap_or(0) != 0;
        let Some(eb) = f.insts[e].block else { continue };
        if unwind {
            ramp_edges.extend(edge_when(e, false));
            continue;
        }
        let pos = f.blocks[eb].insts.iter().position(|&x| x == e).unwrap_or(0);
        seed.extend(f.blocks[eb].insts[pos + 1..].iter().copied());
        tail_blocks.insert(eb);
    }
    for &(i, k) in &shape.others {
        if k == Intr::IsInRamp {
            ramp_edges.extend(edge_when(i, true));
        }
    }
    let grow = |mut out: FxHashSet<Inst>, mut blocks: FxHashSet<Block>, edges: &FxHashSet<(Block, Block)>| {
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &cfg.rpo {
                if blocks.contains(&b) || cfg.preds(b).is_empty() {
                    continue;
                }
                if cfg.preds(b).iter().all(|&p| blocks.contains(&p) || edges.contains(&(p, b))) {
                    blocks.insert(b);
                    out.extend(f.blocks[b].insts.iter().copied());
                    changed = true;
                }
            }
        }
        out
    };
    let after_end = grow(seed.clone(), tail_blocks.clone(), &FxHashSet::default());
    let ramp_only = grow(seed, tail_blocks, &ramp_edges);
    RampOnly { ramp_only, after_end }
}

/// A pointer derived from an alloca before `coro.begin` (a GEP or cast) and used after it is made
/// again right after `coro.begin`, and the later uses take the new one. The address is the same; but
/// if the alloca moves into the frame, only pointers made after `coro.begin` can point there.
fn realias(f: &mut Function, types: &mut TypeTable, shape: &Shape, src: &str) {
    let Some(bb) = f.insts[shape.begin].block else { return };
    let Some(begin_pos) = f.blocks[bb].insts.iter().position(|&x| x == shape.begin) else { return };
    // What runs before coro.begin: its block's head, and the blocks the entry reaches without passing
    // through it (those it does not dominate), found in depth-first preorder, which visits a
    // block's dominators before the block, so definitions come before their uses.
    let Some(entry) = f.entry() else { return };
    let mut early_blocks: Vec<Block> = Vec::new();
    let mut is_early: cranelift_entity::SecondaryMap<Block, bool> = cranelift_entity::SecondaryMap::new();
    let mut work = vec![entry];
    while let Some(b) = work.pop() {
        if is_early[b] {
            continue;
        }
        is_early[b] = true;
        early_blocks.push(b);
        if b != bb {
            work.extend(f.successors(b).iter().rev().copied().filter(|&x| !is_early[x]));
        }
    }
    let early = |f: &Function, i: Inst| match f.insts[i].block {
        Some(b) if b == bb => f.blocks[bb].insts.iter().position(|&x| x == i).is_some_and(|p| p < begin_pos),
        Some(b) => is_early[b],
        None => false,
    };
    let is_ptr_op = |op: Opcode| matches!(op, Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast);
    // Bases: allocas, then (in order) the early pointers derived from them.
    let mut bases: FxHashMap<Value, Option<Value>> = FxHashMap::default();
    for (_, i) in f.inst_iter() {
        if f.insts[i].op == Opcode::Alloca
            && let Some(r) = f.insts[i].result
        {
            bases.insert(r, None);
        }
    }
    let mut order: Vec<Inst> = Vec::new();
    for &b in &early_blocks {
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            let Some(r) = d.result else { continue };
            if is_ptr_op(d.op) && d.args.first().is_some_and(|a| bases.contains_key(a)) && early(f, i) {
                bases.insert(r, None);
                order.push(i);
            }
        }
    }
    if order.is_empty() {
        return;
    }
    let mut late_users: FxHashMap<Value, Vec<Inst>> = FxHashMap::default();
    for (_, u) in f.inst_iter() {
        if early(f, u) || is_structural(f, u, src) {
            continue;
        }
        for &a in &f.insts[u].args {
            if bases.contains_key(&a) {
                late_users.entry(a).or_default().push(u);
            }
        }
    }
    // A pointer is made again when it is used late, or a pointer made from it is.
    let mut needed: FxHashSet<Value> = FxHashSet::default();
    for &i in order.iter().rev() {
        if let Some(r) = f.insts[i].result
            && (late_users.contains_key(&r) || needed.contains(&r))
            && let Some(&base) = f.insts[i].args.first()
        {
            needed.insert(r);
            needed.insert(base);
        }
    }
    let mut at = begin_pos + 1;
    for i in order {
        let Some(r) = f.insts[i].result.filter(|r| needed.contains(r)) else { continue };
        let base = f.insts[i].args[0];
        let mut data = f.insts[i].clone();
        if let Some(Some(nb)) = bases.get(&base) {
            data.args[0] = *nb;
        }
        let ni = f.create_inst(types, data);
        f.insert_inst_at(bb, at, ni);
        at += 1;
        let Some(nr) = f.insts[ni].result else { continue };
        bases.insert(r, Some(nr));
        for u in late_users.remove(&r).unwrap_or_default() {
            for y in f.insts[u].args.iter_mut() {
                if *y == r {
                    *y = nr;
                }
            }
        }
    }
}

/// The suspends as the engine sees them: each continues in its resume and destroy blocks.
fn sites(shape: &Shape) -> Vec<Site> {
    shape
        .suspends
        .iter()
        .map(|s| Site {
            index: s.index,
            inst: s.call,
            continues: [s.resume_block, s.destroy_block].into_iter().flatten().collect(),
        })
        .collect()
}

/// Builds the frame for `shape` and rewrites `f` to use it. `f` must be normalised.
pub fn build(f: &mut Function, types: &mut TypeTable, shape: &Shape, env: &Env<'_>) -> Result<Frame, Vec<Finding>> {
    let src = env.src;
    let frame_val = shape.frame(f);
    let begin_block = f.insts[shape.begin].block.expect("coro.begin is placed");
    realias(f, types, shape, src);

    // What crosses a suspend. Code after a (non-unwind) coro.end runs only in the ramp: the parts
    // return at coro.end. Its uses do not keep anything alive across a suspend. A suspend's use of
    // its save token does count: a token saved before another suspend cannot survive it, and that
    // must be reported rather than miscompiled.
    let cfg = Cfg::compute(f);
    let ramp = ramp_only_insts(f, shape, &cfg, src);
    let ignored = |f: &Function, i: Inst| {
        (is_structural(f, i, src) && intr_of(f, i, src) != Some(Intr::Suspend)) || ramp.ramp_only.contains(&i)
    };
    let live = Liveness::compute_ignoring(f, &cfg, |i| ignored(f, i));
    let sites = sites(shape);
    let crossing = crossing(&live, &sites, &|v| v == frame_val);
    lower_params(f, types, shape, &crossing);
    let candidates = classify(f, types, &crossing, src)?;

    // Which allocas move, and which stay on each split function's stack.
    let pinned: Vec<Value> = shape.promise.into_iter().collect();
    let survey = Survey::new(f, &cfg, &sites, &pinned, src);
    // Positions are looked up when asked: rewriting removes and inserts instructions.
    let before_begin = |f: &Function, i: Inst| -> bool {
        let Some(b) = f.insts[i].block else { return false };
        if b == begin_block {
            let pos = |x: Inst| f.blocks[b].insts.iter().position(|&y| y == x).unwrap_or(0);
            pos(i) < pos(shape.begin)
        } else {
            !survey.dom.dominates(begin_block, b)
        }
    };
    let contents = contents(f, shape, &survey, &live, candidates, &ramp, &before_begin, frame_val);

    // Layout, then what the report shows.
    let (mut fields, index_ty, end) =
        layout(f, types, shape, env, &survey, &live, &contents.allocas, &contents.spills, &|i| ignored(f, i))?;
    survey.describe(f, &live, &mut fields, &|k| matches!(k, FieldKind::Promise(_)));
    let mut frame = laid_out(f, fields, index_ty, end, env.dl.pointer_size(0), contents);

    let moves = Moves { frame: frame_val, sites: &sites, ramp_only: &ramp.ramp_only, before_begin: &before_begin };
    rewrite(f, types, shape, env, &moves, &live, &mut frame);
    Ok(frame)
}

/// What goes into the frame besides its header, and what does not: the choice `contents` makes.
struct Contents {
    /// Allocas that move into the frame.
    allocas: Vec<Value>,
    /// Values stored in the frame.
    spills: Vec<Value>,
    /// Allocas each split function has its own of.
    local_allocas: Vec<Value>,
    /// Values recomputed after each resume instead of stored.
    remat: Vec<Value>,
    warnings: Vec<Finding>,
}

/// Which of the `candidates` go into the frame: allocas (and those hidden behind pointers that
/// cross a suspend) unless the ramp needs them on its stack or every split function can have its
/// own; spills unless recomputed. With the warnings about allocas that stay out.
#[allow(clippy::too_many_arguments)]
fn contents(
    f: &Function,
    shape: &Shape,
    survey: &Survey<'_>,
    live: &Liveness,
    candidates: Candidates,
    ramp: &RampOnly,
    before_begin: &dyn Fn(&Function, Inst) -> bool,
    frame_val: Value,
) -> Contents {
    let Candidates { mut allocas, mut spills, outside } = candidates;
    // Allocas the ramp reads after coro.end, or uses before coro.begin, stay on the ramp's stack
    // (as in LLVM).
    let stays = |f: &Function, a: Value| {
        Some(a) == shape.promise
            || survey.users_through_pointers(f, a).iter().any(|&u| ramp.after_end.contains(&u) || before_begin(f, u))
    };
    let hidden = survey.hidden_allocas(
        f,
        &Candidates { allocas: allocas.clone(), spills: spills.clone(), outside: Vec::new() },
        &stays,
    );
    allocas.extend(hidden);
    let unpinned: Vec<Value> = allocas.iter().copied().filter(|&a| Some(a) != shape.promise).collect();
    let mut local_allocas = survey.local_allocas(f, &unpinned, &ramp.ramp_only);
    allocas.retain(|a| !local_allocas.contains(a));
    let mut warnings = check_outside_frame(f, survey, &outside, &ramp.ramp_only, &mut local_allocas);
    warnings.extend(check_frame_after_end(f, survey, &allocas, shape.promise, &ramp.after_end));
    let free: FxHashSet<Value> = allocas.iter().copied().chain(shape.promise).collect();
    let remat = remat::rematerialisable(f, &spills, &free, live, frame_val);
    spills.retain(|v| !remat.contains(v));
    Contents { allocas, spills, local_allocas, remat, warnings }
}

/// The frame of `fields`, laid out up to `end`: its size, alignment and header offsets.
fn laid_out(f: &Function, fields: Vec<Field>, index_ty: Type, end: u64, ptr_size: u64, contents: Contents) -> Frame {
    let align = fields.iter().map(|x| x.align).max().unwrap_or(ptr_size);
    let size = end.div_ceil(align) * align;
    let index_off = fields.iter().find(|x| x.kind == FieldKind::Index).map_or(0, |x| x.offset);
    let label_off = fields.iter().find(|x| x.kind == FieldKind::ResumeLabel).map(|x| x.offset);
    Frame {
        fields,
        size,
        align,
        index_ty,
        index_off,
        label_off,
        ptr_size,
        local_allocas: contents.local_allocas,
        declares: Vec::new(),
        remat_names: crate::frame::remat::names(f, &contents.remat),
        remat: contents.remat,
        warnings: contents.warnings,
    }
}

/// What the rewrite needs to know of the coroutine besides its frame.
struct Moves<'s> {
    /// The frame pointer (`coro.begin`).
    frame: Value,
    sites: &'s [Site],
    /// Code only the ramp runs.
    ramp_only: &'s FxHashSet<Inst>,
    /// Does an instruction run before `coro.begin`?
    before_begin: &'s dyn Fn(&Function, Inst) -> bool,
}

/// The rewrite: allocas into the frame (what was written before coro.begin copied in after it),
/// then spills, recomputed values and reloads.
fn rewrite(
    f: &mut Function,
    types: &mut TypeTable,
    shape: &Shape,
    env: &Env<'_>,
    at: &Moves<'_>,
    live: &Liveness,
    frame: &mut Frame,
) {
    let src = env.src;
    let uses = frame_uses(f, &frame.fields, &frame.remat);
    let moved: Vec<_> = frame.fields.iter().filter_map(crate::frame::Moved::of).collect();
    let move_at = MoveSites {
        frame: at.frame,
        typed: env.typed,
        src,
        before_frame: at.before_begin,
        ignore_use: &|f, u| is_structural(f, u, src) && intr_of(f, u, src) == Some(Intr::Id),
        removed_later: &|f, u| is_structural(f, u, src),
    };
    let (written_before, declares) = move_allocas(f, types, &move_at, &moved, &uses);
    frame.declares = declares;
    copy_in(f, types, env.dl, at.frame, shape.begin, written_before, env.typed);
    let spill_at = SpillSites {
        frame: at.frame,
        frame_slot: None,
        typed: env.typed,
        ready: shape.begin,
        before_frame: at.before_begin,
        keeps_value: &|f, u| is_structural(f, u, src) || at.ramp_only.contains(&u),
        continues: at.sites.iter().flat_map(|s| s.continues.iter().copied()).collect(),
        head: Vec::new(),
        leaves: Vec::new(),
    };
    spill_and_reload(f, types, &spill_at, live, &frame.fields, &frame.remat, &uses);
}

/// `coro.param(original, copy)`: the copy is needed only if it is used after a suspend; otherwise
/// the copy's construction is skipped (false) and its uses read the original.
fn lower_params(f: &mut Function, types: &mut TypeTable, shape: &Shape, crossing: &[Value]) {
    for &(i, k) in &shape.others {
        if k != Intr::Param || f.insts[i].block.is_none() {
            continue;
        }
        let args = f.insts[i].call_args().to_vec();
        let Some(r) = f.insts[i].result else { continue };
        let needed = match args.as_slice() {
            [orig, copy] => {
                if crossing.binary_search(copy).is_ok() {
                    true
                } else {
                    let (orig, copy) = (*orig, *copy);
                    let users: Vec<Inst> = f.inst_iter().map(|(_, u)| u).filter(|&u| u != i).collect();
                    for u in users {
                        for a in f.insts[u].args.iter_mut() {
                            if *a == copy {
                                *a = orig;
                            }
                        }
                    }
                    false
                }
            }
            _ => true,
        };
        let c = f.const_value(types.i1, if needed { "true" } else { "false" });
        f.replace_all_uses(r, c);
        f.remove_inst(i);
    }
}

/// A `!coro.outside.frame` alloca may be touched after a suspend only by markers and by code the
/// ramp alone runs; a real access there would see a fresh stack slot, not what the ramp wrote.
/// Such allocas are local to each split function.
fn check_outside_frame(
    f: &Function,
    survey: &Survey<'_>,
    outside: &[Value],
    ramp_only: &FxHashSet<Inst>,
    local_allocas: &mut Vec<Value>,
) -> Vec<Finding> {
    let mut warnings = Vec::new();
    for &a in outside {
        let bad = survey.users_through_pointers(f, a).into_iter().find(|&u| {
            f.insts[u].block.is_some_and(|b| survey.after_suspend[b])
                && !f.insts[u].is_debug()
                && !is_lifetime(f, u, survey.src)
                && !ramp_only.contains(&u)
                && !matches!(f.insts[u].op, Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast)
        });
        if let Some(u) = bad.filter(|_| !crate::frame::catch_objects(f).contains(&a)) {
            // LLVM lowers it the same way; whether this code ever runs after a resume is up to the
            // program (clang emits such accesses on exception paths that do not).
            warnings.push(warning_at(
                f,
                Some(u),
                "coro-outside-frame",
                "this accesses an alloca marked !coro.outside.frame in code that can run after a suspend point, \
                 where each split function has only a fresh copy of it"
                    .into(),
                "the marker says the alloca lives only in the ramp: use it only before the first suspend or on the \
                 ramp's return path (after coro.end, or under coro.is_in_ramp); if a compiler produced this IR and this \
                 path can run after a resume, report it there, since LLVM's lowering reads the same fresh copy",
            ));
        }
        if f.value_inst(a).is_some_and(|i| f.insts[i].args.is_empty()) {
            local_allocas.push(a);
        }
    }
    warnings
}

/// After coro.end on the return path, the ramp may run with the frame already freed (a coroutine
/// that ran to completion destroys itself), so nothing there may read the frame. Only memory is
/// read there: a spilled value keeps its SSA value in code the ramp alone runs (the definition
/// dominates the use), but an alloca moved into the frame is frame memory.
fn check_frame_after_end(
    f: &Function,
    survey: &Survey<'_>,
    allocas: &[Value],
    promise: Option<Value>,
    ramp_return: &FxHashSet<Inst>,
) -> Option<Finding> {
    let in_frame: FxHashSet<Value> = allocas
        .iter()
        .copied()
        .chain(promise)
        .flat_map(|a| if survey.any_alloca { crate::frame::allocas::derived(f, a, &survey.use_map) } else { vec![a] })
        .collect();
    let mut after_end: Vec<Inst> = ramp_return.iter().copied().collect();
    after_end.sort_unstable();
    let src = survey.src;
    let bad = *after_end.iter().find(|&&i| {
        !f.insts[i].is_debug()
            && !is_structural(f, i, src)
            && !is_lifetime(f, i, src)
            && f.insts[i].args.iter().any(|a| in_frame.contains(a))
    })?;
    // LLVM reads the frame here too; it is freed only if the coroutine ran to its end (or was
    // destroyed) while suspended, before the ramp returns.
    Some(warning_at(
        f,
        Some(bad),
        "coro-frame-after-end",
        "this reads coroutine frame storage on the ramp's return path (after coro.end); if the coroutine can \
         be resumed and run to its end before the ramp returns (another thread, or await_suspend resuming it), \
         the frame is already freed here"
            .into(),
        "this memory is also used after a suspend, so it lives in the frame; return a copy made before the \
         first suspend instead (a compiler that emits this should mark the alloca !coro.outside.frame); lowered \
         as LLVM lowers it",
    ))
}

/// The header (resume and destroy functions, the promise where `coro.promise` expects it), then
/// the index, allocas, resume label and spills packed around it. Returns the fields sorted by
/// offset, the index type, and the end of the last byte used.
#[allow(clippy::too_many_arguments)]
fn layout(
    f: &Function,
    types: &mut TypeTable,
    shape: &Shape,
    env: &Env<'_>,
    survey: &Survey<'_>,
    live: &Liveness,
    allocas: &[Value],
    spills: &[Value],
    ignored: &dyn Fn(Inst) -> bool,
) -> Result<(Vec<Field>, llir::types::Type, u64), Vec<Finding>> {
    let src = env.src;
    let ptr_size = env.dl.pointer_size(0);
    let nsusp = shape.suspends.len().max(1) as u64;
    let bits = (64 - (nsusp - 1).leading_zeros()).max(1);
    let index_ty = types.int(bits);
    let mut fields = vec![
        Field::new(FieldKind::ResumeFn, types.ptr, ptr_size, ptr_size),
        Field::new(FieldKind::DestroyFn, types.ptr, ptr_size, ptr_size),
    ];
    fields[1].offset = ptr_size;
    let mut end = 2 * ptr_size;
    if let Some(p) = shape.promise {
        let Some((ty, size, align)) = alloca_info(f, types, env.dl, p, src) else {
            return Err(vec![error_at(
                f,
                Some(shape.id),
                "coro-promise",
                "the promise operand of coro.id is not a fixed-size alloca".into(),
                "pass the promise alloca (or null) as coro.id's second operand",
            )]);
        };
        let off = promise_offset(ptr_size, align);
        let mut fl = Field::new(FieldKind::Promise(p), ty, size, align);
        fl.offset = off;
        fields.push(fl);
        end = off + size;
    }
    let mut rest = vec![Field::new(
        FieldKind::Index,
        index_ty,
        env.dl.alloc_size(types, index_ty),
        env.dl.abi_align(types, index_ty),
    )];
    let unpinned: Vec<Value> = allocas.iter().copied().filter(|&a| Some(a) != shape.promise).collect();
    let (alloca_fields, errors, spill_fields) = value_fields(f, types, env.dl, &unpinned, spills, src);
    rest.extend(alloca_fields);
    if env.dispatch == Dispatch::Indirectbr {
        rest.push(Field::new(FieldKind::ResumeLabel, types.ptr, ptr_size, ptr_size));
    }
    rest.extend(spill_fields);
    if !errors.is_empty() {
        return Err(errors);
    }
    end = end.max(survey.pack(f, live, &mut rest, &fields, 2 * ptr_size, ignored));
    fields.extend(rest);
    fields.sort_by(|a, b| a.offset.cmp(&b.offset).then(b.size.cmp(&a.size)));
    Ok((fields, index_ty, end))
}
