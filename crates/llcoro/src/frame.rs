//! The coroutine frame: what must live in it, where each piece goes, and the rewrite that makes the
//! body read and write it.
//!
//! - **Crossing.** After `shape::normalize`, a value is live across a suspend exactly when it is
//!   live into that suspend's resume or destroy block. SSA liveness gives that in time proportional
//!   to the live ranges. Uses by the coroutine intrinsics that splitting removes do not count.
//! - **What is stored.** Crossing allocas (and the promise) move into the frame; every other
//!   crossing value is spilled: stored once after its definition, and reloaded in each block that
//!   can be reached from a suspend while the value is live.
//! - **Layout.** Resume function at 0, destroy function at one pointer, the promise where
//!   `coro.promise` expects it; the index, spills and allocas are packed around them by
//!   `interference`, so fields never needed at the same time share bytes. Which allocas stay off
//!   the frame, and when their bytes are needed, is `allocas`.

use crate::allocas::{derived, escapes, is_lifetime, lifetimes, memory_crosses, pointer_bases};
use crate::diag::Finding;
use crate::intrinsics::{Intr, intr_of, promise_offset};
use crate::shape::{Shape, error_at, is_unspillable, warning_at};
use llir::analysis::cfg::Cfg;
use llir::analysis::dom::DomTree;
use llir::analysis::liveness::Liveness;
use llir::ir::build::Builder;
use llir::ir::{Block, Extra, Function, Inst, Opcode, Value, ValueKind};
use llir::layout::DataLayout;
use llir::types::{Type, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldKind {
    ResumeFn,
    DestroyFn,
    Promise(Value),
    Index,
    Spill(Value),
    Alloca(Value),
    /// With `Dispatch::IndirectBr`: the address of the block `.resume` continues at.
    ResumeLabel,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub kind: FieldKind,
    pub ty: Type,
    pub offset: u64,
    pub size: u64,
    pub align: u64,
    /// Indices of the suspend points the field is live across (all of them for the header,
    /// promise and index).
    pub live_across: Vec<u32>,
    /// The source variable (`!DILocalVariable` id) held here, from the debug records, if any.
    pub var: Option<u32>,
    /// The value's name in the IR, if it has one.
    pub ir_name: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Frame {
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    pub index_ty: Type,
    pub index_off: u64,
    /// Where the resume block address is, with `Dispatch::Indirectbr`.
    pub label_off: Option<u64>,
    pub ptr_size: u64,
    /// Allocas used after a suspend but never alive across one: every split function has its own.
    pub local_allocas: Vec<Value>,
    /// Debug records now describing a variable as frame + offset; each split function declares
    /// them at its entry if its body does not already.
    pub declares: Vec<Inst>,
    /// Values live across a suspend that are recomputed after each resume instead of stored.
    pub remat: Vec<Value>,
    /// For the report: each rematerialised value's IR name, or its opcode when it has none.
    pub remat_names: Vec<String>,
    /// Lowerable but doubtful input found while building the frame.
    pub warnings: Vec<Finding>,
}

pub struct Env<'a> {
    pub src: &'a str,
    pub dl: &'a DataLayout,
    pub typed: bool,
    pub dispatch: Dispatch,
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
                if blocks.contains(&b) || cfg.preds[b].is_empty() {
                    continue;
                }
                if cfg.preds[b].iter().all(|&p| blocks.contains(&p) || edges.contains(&(p, b))) {
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

/// Rewrites operand `k` of debug record `u` from an alloca to `frame` + `off`, adding
/// `DW_OP_plus_uconst` to its expression. False if the record has no inline `!DIExpression(`.
fn point_into_frame(f: &mut Function, u: Inst, k: usize, frame: Value, off: u64, src: &str) -> bool {
    let tmpl = &f.insts[u].tmpl;
    let Some(at) = tmpl.iter().position(|p| matches!(p, llir::ir::Piece::Arg(x) if *x as usize == k)) else {
        return false;
    };
    let Some(pi) = (at + 1..tmpl.len())
        .find(|&i| matches!(&tmpl[i], llir::ir::Piece::Text(t) if t.get(src).contains("!DIExpression(")))
    else {
        return false;
    };
    if off != 0 {
        let llir::ir::Piece::Text(t) = &tmpl[pi] else { return false };
        let text = t.get(src);
        let Some(p) = text.find("!DIExpression(") else { return false };
        let open = p + "!DIExpression(".len();
        let empty = text[open..].starts_with(')');
        let new =
            format!("{}DW_OP_plus_uconst, {off}{}{}", &text[..open], if empty { "" } else { ", " }, &text[open..]);
        f.insts[u].tmpl[pi] = llir::ir::Piece::Text(llir::ir::Text::own(new));
    }
    f.insts[u].args[k] = frame;
    true
}

/// In a typed-pointer debug record, the type spelled before operand `k` (`metadata %T* %x`) becomes
/// `ty`, for the new operand it is given.
pub fn retype_metadata_operand(f: &mut Function, u: Inst, k: usize, ty: &str, src: &str) {
    let tmpl = &f.insts[u].tmpl;
    let Some(at) = tmpl.iter().position(|p| matches!(p, llir::ir::Piece::Arg(x) if *x as usize == k)) else {
        return;
    };
    let Some(llir::ir::Piece::Text(t)) = at.checked_sub(1).and_then(|i| tmpl.get(i)) else { return };
    let text = t.get(src);
    let Some(p) = text.rfind("metadata ") else { return };
    let new = format!("{}{ty} ", &text[..p + "metadata ".len()]);
    f.insts[u].tmpl[at - 1] = llir::ir::Piece::Text(llir::ir::Text::own(new));
}

impl Field {
    fn new(kind: FieldKind, ty: Type, size: u64, align: u64) -> Field {
        Field { kind, ty, offset: 0, size, align, live_across: Vec::new(), var: None, ir_name: None }
    }
}

/// The variable of a debug record or `llvm.dbg.*` call: the first `!N` after its value operand.
fn debug_variable(f: &Function, i: Inst, src: &str) -> Option<u32> {
    let mut after_value = false;
    for p in &f.insts[i].tmpl {
        match p {
            llir::ir::Piece::Arg(0) => after_value = true,
            llir::ir::Piece::Text(t) if after_value => {
                let s = t.get(src);
                let k = s.find('!')?;
                let digits: String = s[k + 1..].chars().take_while(|c| c.is_ascii_digit()).collect();
                if let Ok(n) = digits.parse() {
                    return Some(n);
                }
            }
            _ => {}
        }
    }
    None
}

/// Does instruction `i` carry metadata attachment `name` (such as `!coro.outside.frame`)?
fn has_attachment(f: &Function, i: Inst, src: &str, name: &str) -> bool {
    f.insts[i].tmpl.iter().any(|p| matches!(p, llir::ir::Piece::Text(t) if t.get(src).contains(name)))
}

/// The frame address `off` bytes in, typed for `ty` in the typed-pointer dialect.
pub fn frame_addr(
    f: &mut Function,
    types: &mut TypeTable,
    frame: Value,
    off: u64,
    ty: Type,
    typed: bool,
) -> (Vec<Inst>, Value) {
    let mut b = Builder::new(f, types);
    let mut seq = Vec::new();
    let mut v = frame;
    if off != 0 || typed {
        let g = b.gep_i8(frame, off);
        seq.push(g);
        v = b.result(g);
    }
    if typed {
        let pt = b.types.pointer_to(ty, 0, true);
        let c = b.bitcast(v, pt);
        seq.push(c);
        v = b.result(c);
    }
    (seq, v)
}

/// Builds the frame for `shape` and rewrites `f` to use it. `f` must be normalised.
pub fn build(f: &mut Function, types: &mut TypeTable, shape: &Shape, env: &Env<'_>) -> Result<Frame, Vec<Finding>> {
    let src = env.src;
    let frame_val = shape.frame(f);
    let begin_block = f.insts[shape.begin].block.expect("coro.begin is placed");

    realias(f, types, shape, src);

    // ---- What crosses a suspend. ----
    let cfg = Cfg::compute(f);
    // Code after a (non-unwind) coro.end runs only in the ramp: the parts return at coro.end. Its
    // uses do not keep anything alive across a suspend.
    let RampOnly { ramp_only, after_end: ramp_return } = ramp_only_insts(f, shape, &cfg, src);
    // A suspend's use of its save token does count: a token saved before another suspend cannot
    // survive it, and that must be reported rather than miscompiled.
    let ignored = |f: &Function, i: Inst| {
        (is_structural(f, i, src) && intr_of(f, i, src) != Some(Intr::Suspend)) || ramp_only.contains(&i)
    };
    let live = Liveness::compute_ignoring(f, &cfg, |i| ignored(f, i));
    let mut crossing: Vec<Value> = Vec::new();
    let mut seen: FxHashSet<Value> = FxHashSet::default();
    for s in &shape.suspends {
        for b in [s.resume_block, s.destroy_block].into_iter().flatten() {
            for &v in &live.live_in[b] {
                if v != frame_val && seen.insert(v) {
                    crossing.push(v);
                }
            }
        }
    }
    crossing.sort_unstable();
    // coro.param(original, copy): the copy is needed only if it is used after a suspend; otherwise
    // the copy's construction is skipped (false) and its uses read the original.
    for &(i, k) in &shape.others {
        if k != Intr::Param || f.insts[i].block.is_none() {
            continue;
        }
        let args = f.insts[i].call_args().to_vec();
        let Some(r) = f.insts[i].result else { continue };
        let needed = match args.as_slice() {
            [orig, copy] => {
                if seen.contains(copy) {
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
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut allocas: Vec<Value> = Vec::new();
    let mut spills: Vec<Value> = Vec::new();
    let mut outside: Vec<Value> = Vec::new();
    for &v in &crossing {
        let def = f.value_inst(v);
        if is_unspillable(types, f.values[v].ty) {
            errors.push(error_at(
                f,
                def,
                "coro-token-across-suspend",
                format!("a {} value is live across a suspend point", types.display(f.values[v].ty)),
                "tokens cannot be saved in the coroutine frame; recreate the value after the suspend instead",
            ));
            continue;
        }
        match def {
            Some(i) if f.insts[i].op == Opcode::Alloca => {
                if has_attachment(f, i, src, "!coro.outside.frame") {
                    // Never in the frame (as in LLVM): each split function has its own copy, which
                    // is right as long as nothing the ramp wrote there is read after a resume.
                    outside.push(v);
                    continue;
                }
                allocas.push(v);
            }
            _ => spills.push(v),
        }
    }
    let suspend_blocks: Vec<Block> = shape.suspends.iter().filter_map(|s| f.insts[s.call].block).collect();
    let suspend_numbers: Vec<u32> =
        shape.suspends.iter().filter(|s| f.insts[s.call].block.is_some()).map(|s| s.index).collect();
    let any_alloca = f.inst_iter().any(|(_, i)| f.insts[i].op == Opcode::Alloca);
    // Blocks that run after some suspend: reachable from a resume or destroy block.
    let mut after_suspend: cranelift_entity::SecondaryMap<Block, bool> = cranelift_entity::SecondaryMap::new();
    let mut work: Vec<Block> =
        shape.suspends.iter().flat_map(|s| [s.resume_block, s.destroy_block]).flatten().collect();
    while let Some(b) = work.pop() {
        if !after_suspend[b] {
            after_suspend[b] = true;
            work.extend(f.successors(b).iter().copied().filter(|&x| !after_suspend[x]));
        }
    }
    let mut use_map: FxHashMap<Value, Vec<Inst>> = FxHashMap::default();
    if any_alloca {
        for (_, u) in f.inst_iter() {
            for &x in &f.insts[u].args {
                use_map.entry(x).or_default().push(u);
            }
        }
    }
    let dom = DomTree::compute(f, &cfg);
    // Positions are looked up when asked: rewriting removes and inserts instructions.
    let before_begin = |f: &Function, i: Inst| -> bool {
        let Some(b) = f.insts[i].block else { return false };
        if b == begin_block {
            let pos = |x: Inst| f.blocks[b].insts.iter().position(|&y| y == x).unwrap_or(0);
            pos(i) < pos(shape.begin)
        } else {
            !dom.dominates(begin_block, b)
        }
    };
    // Every alloca's lifetime, once: each alloca's answer does not depend on which others are asked.
    let all_allocas: Vec<Value> = f
        .inst_iter()
        .filter(|&(_, i)| f.insts[i].op == Opcode::Alloca)
        .filter_map(|(_, i)| f.insts[i].result)
        .filter(|&a| Some(a) != shape.promise)
        .collect();
    let lt = lifetimes(f, &cfg, &all_allocas, src, &suspend_blocks);
    let lt_index: FxHashMap<Value, usize> = all_allocas.iter().enumerate().map(|(k, &a)| (a, k)).collect();
    let at_suspend = |a: Value| lt_index.get(&a).is_none_or(|&k| lt.at_suspend[k]);
    // Allocas whose bytes are reached across a suspend though their own address is not live there:
    // those a crossing pointer is derived from, and those whose address escapes (a copy may be read
    // after the suspend) while they are alive at one. Allocas the ramp reads after coro.end, or uses
    // before coro.begin, stay on the ramp's stack (as in LLVM).
    let mut hidden: Vec<Value> = spills.iter().flat_map(|&v| pointer_bases(f, v)).collect();
    hidden.extend(all_allocas.iter().copied().filter(|&a| {
        !allocas.contains(&a)
            && f.value_inst(a).is_some_and(|i| f.insts[i].args.is_empty())
            && at_suspend(a)
            && escapes(f, a, src, &use_map)
    }));
    hidden.sort_unstable();
    hidden.dedup();
    for a in hidden {
        let Some(ai) = f.value_inst(a) else { continue };
        if allocas.contains(&a) || Some(a) == shape.promise || has_attachment(f, ai, src, "!coro.outside.frame") {
            continue;
        }
        let ramp_local = derived(f, a, &use_map)
            .iter()
            .flat_map(|p| use_map.get(p).into_iter().flatten())
            .any(|&u| ramp_return.contains(&u) || before_begin(f, u));
        if !ramp_local {
            allocas.push(a);
        }
    }
    // An alloca whose lifetime markers say it is dead at every suspend needs no frame slot: each
    // split function gets its own copy of it.
    let local_allocas: Vec<Value> = allocas
        .iter()
        .copied()
        .filter(|&a| Some(a) != shape.promise)
        .filter(|&a| {
            let plain = f.value_inst(a).is_some_and(|i| f.insts[i].args.is_empty());
            // Dead at every suspend by its lifetime markers, or (for an alloca only ever loaded and
            // stored) no suspend with a store before it and a load after it.
            plain
                && (!at_suspend(a)
                    || (!escapes(f, a, src, &use_map) && !memory_crosses(f, &cfg, a, shape, &ramp_only, &use_map, src)))
        })
        .collect();
    allocas.retain(|a| !local_allocas.contains(a));
    // A `!coro.outside.frame` alloca may be touched after a suspend only by markers and by code the
    // ramp alone runs; a real access there would see a fresh stack slot, not what the ramp wrote.
    let mut local_allocas = local_allocas;
    for &a in &outside {
        let bad =
            derived(f, a, &use_map).iter().flat_map(|p| use_map.get(p).into_iter().flatten()).copied().find(|&u| {
                f.insts[u].block.is_some_and(|b| after_suspend[b])
                    && !f.insts[u].is_debug()
                    && !is_lifetime(f, u, src)
                    && !ramp_only.contains(&u)
                    && !matches!(f.insts[u].op, Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast)
            });
        if let Some(u) = bad {
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
    // After coro.end on the return path, the ramp may run with the frame already freed (a coroutine
    // that ran to completion destroys itself), so nothing there may read the frame.
    // Only memory is read there: a spilled value keeps its SSA value in code the ramp alone runs (the
    // definition dominates the use), but an alloca moved into the frame is frame memory.
    let in_frame: FxHashSet<Value> = allocas
        .iter()
        .copied()
        .chain(shape.promise)
        .flat_map(|a| if any_alloca { derived(f, a, &use_map) } else { vec![a] })
        .collect();
    let mut after_end: Vec<Inst> = ramp_return.iter().copied().collect();
    after_end.sort_unstable();
    if let Some(&bad) = after_end.iter().find(|&&i| {
        !f.insts[i].is_debug()
            && !is_structural(f, i, src)
            && !is_lifetime(f, i, src)
            && f.insts[i].args.iter().any(|a| in_frame.contains(a))
    }) {
        // LLVM reads the frame here too; it is freed only if the coroutine ran to its end (or was
        // destroyed) while suspended, before the ramp returns.
        warnings.push(warning_at(
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
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let free: FxHashSet<Value> = allocas.iter().copied().chain(shape.promise).collect();
    let remat = rematerialisable(f, &spills, &free, &live, frame_val);
    spills.retain(|v| !remat.contains(v));

    // ---- Layout. ----
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
    let alloca_info = |f: &Function, types: &TypeTable, v: Value| -> Option<(Type, u64, u64)> {
        let i = f.value_inst(v)?;
        let Extra::Alloca { ty, align } = f.insts[i].extra else { return None };
        let count = match f.insts[i].args.first() {
            Some(&n) => u64::try_from(f.const_int(n, src)?).ok()?,
            None => 1,
        };
        let al = align.map_or_else(|| env.dl.abi_align(types, ty), |a| a as u64).max(1);
        Some((ty, env.dl.alloc_size(types, ty) * count, al))
    };
    if let Some(p) = shape.promise {
        let Some((ty, size, align)) = alloca_info(f, types, p) else {
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
    let mut rest: Vec<Field> = Vec::new();
    rest.push(Field::new(
        FieldKind::Index,
        index_ty,
        env.dl.alloc_size(types, index_ty),
        env.dl.abi_align(types, index_ty),
    ));
    for &a in &allocas {
        if Some(a) == shape.promise {
            continue;
        }
        match alloca_info(f, types, a) {
            Some((ty, size, align)) => rest.push(Field::new(FieldKind::Alloca(a), ty, size, align)),
            None => errors.push(error_at(
                f,
                f.value_inst(a),
                "coro-dynamic-alloca",
                "an alloca with a run-time size is live across a suspend point".into(),
                "give the alloca a constant size, or keep it between two suspends",
            )),
        }
    }
    if env.dispatch == Dispatch::Indirectbr {
        rest.push(Field::new(FieldKind::ResumeLabel, types.ptr, ptr_size, ptr_size));
    }
    for &v in &spills {
        let ty = f.values[v].ty;
        rest.push(Field::new(FieldKind::Spill(v), ty, env.dl.alloc_size(types, ty), env.dl.abi_align(types, ty)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // Everything after the header and promise is packed by interference: fields that are never
    // needed at the same time share bytes, and the rest go by decreasing alignment. The gap before
    // an over-aligned promise is used too.
    let clashes = crate::interference::compute(f, &live, &rest, &all_allocas, &lt, &|i| ignored(f, i));
    let fixed: Vec<(u64, u64)> = fields.iter().map(|x| (x.offset, x.size)).collect();
    end = end.max(crate::interference::pack(&mut rest, &clashes, 2 * ptr_size, &fixed));
    fields.extend(rest);
    fields.sort_by(|a, b| a.offset.cmp(&b.offset).then(b.size.cmp(&a.size)));
    // What the report shows: where each value is live, and which source variable it is.
    let all: Vec<u32> = shape.suspends.iter().map(|s| s.index).collect();
    let mut var_of: FxHashMap<Value, u32> = FxHashMap::default();
    for (_, i) in f.inst_iter() {
        if f.insts[i].is_debug()
            && let Some(&v) = f.insts[i].args.first()
            && let Some(var) = debug_variable(f, i, src)
        {
            var_of.entry(v).or_insert(var);
        }
    }
    for fl in fields.iter_mut() {
        match fl.kind {
            FieldKind::Spill(v) | FieldKind::Alloca(v) | FieldKind::Promise(v) => {
                fl.live_across = shape
                    .suspends
                    .iter()
                    .filter(|s| {
                        [s.resume_block, s.destroy_block].into_iter().flatten().any(|b| live.live_in[b].contains(&v))
                    })
                    .map(|s| s.index)
                    .collect();
                if matches!(fl.kind, FieldKind::Promise(_)) {
                    fl.live_across = all.clone();
                } else if fl.live_across.is_empty()
                    && let Some(&k) = lt_index.get(&v)
                {
                    // Reached only through a derived or escaped pointer: where its lifetime spans.
                    fl.live_across = lt.alive_at[k].iter().filter_map(|&j| suspend_numbers.get(j).copied()).collect();
                }
                fl.var = var_of.get(&v).copied();
                fl.ir_name =
                    f.values[v].name.as_deref().filter(|n| !llir::print::is_numbered(n)).map(|n| format!("%{n}"));
            }
            _ => fl.live_across = all.clone(),
        }
    }
    let align = fields.iter().map(|x| x.align).max().unwrap_or(ptr_size);
    let size = end.div_ceil(align) * align;
    let index_off = fields.iter().find(|x| x.kind == FieldKind::Index).map_or(0, |x| x.offset);
    let label_off = fields.iter().find(|x| x.kind == FieldKind::ResumeLabel).map(|x| x.offset);
    let mut frame = Frame {
        fields,
        size,
        align,
        index_ty,
        index_off,
        label_off,
        ptr_size,
        local_allocas,
        declares: Vec::new(),
        remat_names: remat
            .iter()
            .map(|&v| match f.values[v].name.as_deref().filter(|n| !llir::print::is_numbered(n)) {
                Some(n) => format!("%{n}"),
                None => f.value_inst(v).map_or_else(String::new, |i| format!("a {:?}", f.insts[i].op).to_lowercase()),
            })
            .collect(),
        remat,
        warnings,
    };

    // ---- Rewrite: allocas into the frame. ----
    // Use lists of the values the rewrite moves or reloads, and of their casts (checked below), found
    // in one pass with a dense mark per value instead of a hash per operand.
    let mut wanted: cranelift_entity::SecondaryMap<Value, bool> = cranelift_entity::SecondaryMap::new();
    for fl in &frame.fields {
        if let FieldKind::Promise(v) | FieldKind::Alloca(v) | FieldKind::Spill(v) = fl.kind {
            wanted[v] = true;
        }
    }
    for &v in &frame.remat {
        wanted[v] = true;
    }
    for (_, i) in f.inst_iter() {
        let d = &f.insts[i];
        if matches!(d.op, Opcode::BitCast | Opcode::AddrSpaceCast)
            && d.args.first().is_some_and(|&a| wanted[a])
            && let Some(r) = d.result
        {
            wanted[r] = true;
        }
    }
    let mut uses: FxHashMap<Value, Vec<(Inst, usize)>> = FxHashMap::default();
    for (_, i) in f.inst_iter() {
        for (k, &a) in f.insts[i].args.iter().enumerate() {
            if wanted[a] {
                uses.entry(a).or_default().push((i, k));
            }
        }
    }
    let moved: Vec<(Value, u64, Type)> = frame
        .fields
        .iter()
        .filter_map(|fl| match fl.kind {
            FieldKind::Promise(v) | FieldKind::Alloca(v) => Some((v, fl.offset, fl.ty)),
            _ => None,
        })
        .collect();
    let mut keep_before_begin: Vec<(Value, u64, Type)> = Vec::new();
    for &(a, off, ty) in &moved {
        for &(u, k) in uses.get(&a).map(|v| v.as_slice()).unwrap_or(&[]) {
            if f.insts[u].block.is_none() {
                continue;
            }
            if is_structural(f, u, src) && intr_of(f, u, src) == Some(Intr::Id) {
                continue;
            }
            if f.insts[u].is_debug() && !before_begin(f, u) {
                // The variable now lives in the frame: describe it as frame + offset, so debuggers
                // find it in every split function (the frame pointer is each part's parameter).
                if point_into_frame(f, u, k, frame_val, off, src) {
                    if env.typed {
                        let fty = types.display(f.values[frame_val].ty);
                        retype_metadata_operand(f, u, k, &fty, src);
                    }
                    frame.declares.push(u);
                    continue;
                }
            }
            if is_lifetime(f, u, src) || f.insts[u].is_debug() {
                // Lifetime markers must name an alloca; a debug record that cannot be pointed into
                // the frame is dropped rather than left pointing at a stack slot that is gone.
                f.remove_inst(u);
                continue;
            }
            if before_begin(f, u) && matches!(f.insts[u].op, Opcode::BitCast | Opcode::AddrSpaceCast) {
                // A no-op cast feeding only coro intrinsics (clang 19 wraps the promise this way).
                if let Some(r) = f.insts[u].result
                    && uses.get(&r).is_none_or(|us| us.iter().all(|&(x, _)| is_structural(f, x, src)))
                {
                    let ty = f.values[r].ty;
                    let null = f.const_value(ty, "null");
                    f.replace_all_uses(r, null);
                    f.remove_inst(u);
                    continue;
                }
            }
            if before_begin(f, u) {
                // Before coro.begin there is no frame: the alloca stays for these uses, and what
                // they wrote is copied into the frame right after coro.begin (as LLVM does).
                // (`realias` made pointers derived here again after coro.begin.)
                keep_before_begin.push((a, off, ty));
                continue;
            }
            let at = use_point(f, u, k);
            let (mut seq, mut addr) = frame_addr(f, types, frame_val, off, ty, env.typed);
            // An alloca in another address space: its users get the frame address cast to it.
            let want = f.values[a].ty;
            if f.values[addr].ty != want && !env.typed {
                let c = Builder::new(f, types).addrspacecast(addr, want);
                seq.push(c);
                addr = f.insts[c].result.unwrap_or(addr);
            }
            insert_all(f, at, seq);
            f.insts[u].args[k] = addr;
        }
        if keep_before_begin.iter().any(|x| x.0 == a) {
            continue;
        }
        if let Some(i) = f.value_inst(a) {
            f.remove_inst(i);
        }
    }
    // Allocas written before coro.begin: their contents move into the frame right after it.
    keep_before_begin.sort_by_key(|x| x.0);
    keep_before_begin.dedup_by_key(|x| x.0);
    for &(a, off, ty) in &keep_before_begin {
        let Some(pos) = f.blocks[begin_block].insts.iter().position(|&x| x == shape.begin) else { continue };
        let Some(ai) = f.value_inst(a) else { continue };
        let al = match f.insts[ai].extra {
            Extra::Alloca { align: Some(x), .. } => x as u64,
            _ => env.dl.abi_align(types, ty),
        };
        let mut seq = Vec::new();
        let mut b = Builder::new(f, types);
        let ld = b.load(ty, a, al);
        let v = b.result(ld);
        seq.push(ld);
        let (mut addr_seq, addr) = frame_addr(f, types, frame_val, off, ty, env.typed);
        seq.append(&mut addr_seq);
        seq.push(Builder::new(f, types).store(v, addr, al));
        insert_all(f, (begin_block, pos + 1), seq);
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // ---- Rewrite: spills, rematerialised values and reloads. ----
    let mut slot_of: FxHashMap<Value, (u64, Type, u64)> = FxHashMap::default();
    for fl in &frame.fields {
        if let FieldKind::Spill(v) = fl.kind {
            slot_of.insert(v, (fl.offset, fl.ty, fl.align));
        }
    }
    let mut order: Vec<Value> = Vec::new();
    for fl in frame.fields.clone() {
        let FieldKind::Spill(v) = fl.kind else { continue };
        // Store once, right after the definition (or after coro.begin for earlier values).
        let at = store_point(f, types, v, shape.begin, &before_begin);
        let (mut seq, addr) = frame_addr(f, types, frame_val, fl.offset, fl.ty, env.typed);
        let st = Builder::new(f, types).store(v, addr, fl.align);
        seq.push(st);
        insert_all(f, at, seq);
        order.push(v);
    }
    order.extend(frame.remat.iter().copied());
    // A recomputed value is made from its operands as they are now, before reloads rewrite them: a
    // reload belongs to one block, and a recomputation may be needed in another.
    let remat_args: FxHashMap<Value, Vec<Value>> =
        frame.remat.iter().filter_map(|&v| Some((v, f.insts[f.value_inst(v)?].args.to_vec()))).collect();
    let mut reloads = Reloads {
        frame: frame_val,
        typed: env.typed,
        slot_of,
        remat_args,
        memo: FxHashMap::default(),
        top: FxHashMap::default(),
    };
    let mut flood_stamp: cranelift_entity::SecondaryMap<Block, u32> = cranelift_entity::SecondaryMap::new();
    let mut stamp_no = 0u32;
    for v in order {
        // Flood from the suspend successors through blocks where v is live. A stamp per block
        // (this value's number) marks the flooded ones without clearing anything between values.
        stamp_no += 1;
        let lives = |b: Block| live.live_in[b].contains(&v);
        let mut work: Vec<Block> = shape
            .suspends
            .iter()
            .flat_map(|s| [s.resume_block, s.destroy_block])
            .flatten()
            .filter(|&b| lives(b))
            .collect();
        while let Some(b) = work.pop() {
            if flood_stamp[b] == stamp_no {
                continue;
            }
            flood_stamp[b] = stamp_no;
            for &s in f.successors(b) {
                if flood_stamp[s] != stamp_no && lives(s) {
                    work.push(s);
                }
            }
        }
        let flooded = |b: Block| flood_stamp[b] == stamp_no;
        let my_uses: Vec<(Inst, usize)> = uses.get(&v).cloned().unwrap_or_default();
        for (u, k) in my_uses {
            let Some(ub) = f.insts[u].block else { continue };
            // Code the ramp alone runs keeps the SSA value: its definition dominates it there.
            if is_structural(f, u, src) || ramp_only.contains(&u) {
                continue;
            }
            let phi = f.insts[u].op == Opcode::Phi;
            let target = if phi { f.insts[u].blocks[k] } else { ub };
            if !flooded(target) {
                continue;
            }
            let r = reloads.get(f, types, v, target, phi);
            f.insts[u].args[k] = r;
        }
    }
    Ok(frame)
}

/// The value of a frame-resident value at the top (or, for phi operands, the end) of a block
/// reached from a suspend: a load from its slot, or its recomputation from such values.
struct Reloads {
    frame: Value,
    typed: bool,
    slot_of: FxHashMap<Value, (u64, Type, u64)>,
    /// The operands of each recomputed value's instruction, before any reload replaced them.
    remat_args: FxHashMap<Value, Vec<Value>>,
    memo: FxHashMap<(Value, Block, bool), Value>,
    /// How many instructions this pass has put at the top of each block, so that later ones go
    /// after the operands they use.
    top: FxHashMap<Block, usize>,
}

impl Reloads {
    fn get(&mut self, f: &mut Function, types: &mut TypeTable, v: Value, b: Block, at_end: bool) -> Value {
        if v == self.frame || f.is_const(v) {
            return v;
        }
        if let Some(&r) = self.memo.get(&(v, b, at_end)) {
            return r;
        }
        let (seq, r) = if let Some(&(off, ty, align)) = self.slot_of.get(&v) {
            let (mut seq, addr) = frame_addr(f, types, self.frame, off, ty, self.typed);
            let mut bl = Builder::new(f, types);
            let l = bl.load(ty, addr, align);
            let r = bl.result(l);
            seq.push(l);
            (seq, r)
        } else if let Some(i) = f.value_inst(v).filter(|&i| is_cheap(f, i)) {
            // Rematerialised: the same instruction over the operands' values here.
            let mut data = f.insts[i].clone();
            if let Some(orig) = self.remat_args.get(&v) {
                data.args = orig.iter().copied().collect();
            }
            for k in 0..data.args.len() {
                data.args[k] = self.get(f, types, data.args[k], b, at_end);
            }
            let c = f.create_inst(types, data);
            let Some(r) = f.insts[c].result else { return v };
            (vec![c], r)
        } else {
            return v;
        };
        let at = if at_end {
            (b, f.blocks[b].insts.len().saturating_sub(1))
        } else {
            let n = self.top.entry(b).or_insert(0);
            let at = (b, f.first_insertion_point(b) + *n);
            *n += seq.len();
            at
        };
        insert_all(f, at, seq);
        self.memo.insert((v, b, at_end), r);
        r
    }
}

/// An instruction without side effects that costs about one machine instruction: what
/// rematerialisation may repeat.
fn is_cheap(f: &Function, i: Inst) -> bool {
    use Opcode::*;
    let op = f.insts[i].op;
    matches!(op, GetElementPtr | ICmp | Add | Sub | Mul | And | Or | Xor | Shl | LShr | AShr) || op.is_cast()
}

/// Rematerialisation, by an explicit cost rule. A value live across a suspend gets no frame slot,
/// and is recomputed after each resume instead, when
/// 1. its definition is cheap (`is_cheap`: a GEP, a cast, integer arithmetic other than division,
///    or a comparison), and
/// 2. recomputing it needs at most one load from the frame and at most three instructions in all:
///    constants, the frame pointer and allocas in the frame are free (their address is the frame
///    plus an offset); a spilled operand costs one load and must be live wherever this value is;
///    a rematerialised operand costs what it costs, plus its instruction.
///
/// A slot costs its bytes in every frame and a store; a reload costs one load. So this trades at
/// most a few register operations per resume for the slot's bytes, and never extends a live range.
fn rematerialisable(
    f: &Function,
    spills: &[Value],
    free: &FxHashSet<Value>,
    live: &Liveness,
    frame_val: Value,
) -> Vec<Value> {
    if !spills.iter().any(|&v| f.value_inst(v).is_some_and(|i| is_cheap(f, i))) {
        return Vec::new();
    }
    let spill_set: FxHashSet<Value> = spills.iter().copied().collect();
    // Blocks each spilled value is live into and out of, sorted for subset tests by merging.
    let mut blocks_of: FxHashMap<Value, (Vec<Block>, Vec<Block>)> = FxHashMap::default();
    for b in f.layout.iter().copied() {
        for &v in &live.live_in[b] {
            if spill_set.contains(&v) {
                blocks_of.entry(v).or_default().0.push(b);
            }
        }
        for &v in &live.live_out[b] {
            if spill_set.contains(&v) {
                blocks_of.entry(v).or_default().1.push(b);
            }
        }
    }
    for (ins, outs) in blocks_of.values_mut() {
        ins.sort_unstable();
        outs.sort_unstable();
    }
    let rc = RematCost { f, free, frame_val, spill_set, blocks_of };
    spills
        .iter()
        .copied()
        .filter(|&v| rc.of_inst(v, v, 0).is_some_and(|(loads, insts)| loads <= 1 && insts <= 3))
        .collect()
}

/// Is sorted `a` a subset of sorted `b`?
fn subset(a: &[Block], b: &[Block]) -> bool {
    let mut it = b.iter();
    a.iter().all(|x| it.by_ref().any(|y| y == x))
}

/// What recomputing a value costs, as (loads from the frame, instructions).
struct RematCost<'a> {
    f: &'a Function,
    free: &'a FxHashSet<Value>,
    frame_val: Value,
    spill_set: FxHashSet<Value>,
    /// Blocks each spilled value is live into and out of.
    blocks_of: FxHashMap<Value, (Vec<Block>, Vec<Block>)>,
}

impl RematCost<'_> {
    /// Is spilled value `w` live wherever `v` is (so using it where `v` is reloaded extends nothing)?
    fn covers(&self, w: Value, v: Value) -> bool {
        let (Some((wi, wo)), Some((vi, vo))) = (self.blocks_of.get(&w), self.blocks_of.get(&v)) else { return false };
        subset(vi, wi) && subset(vo, wo)
    }

    /// The cost of having operand `x` where `at` is reloaded; None if it cannot be had.
    fn of(&self, x: Value, at: Value, depth: u32) -> Option<(u32, u32)> {
        if x == self.frame_val || self.f.is_const(x) || self.free.contains(&x) {
            return Some((0, 0));
        }
        if x != at && self.spill_set.contains(&x) && self.covers(x, at) {
            // Loaded (one load), unless recomputing it needs no load at all.
            let again = if depth < 3 { self.of_inst(x, at, depth) } else { None };
            return Some(again.filter(|c| c.0 == 0).unwrap_or((1, 0)));
        }
        if depth >= 3 {
            return None;
        }
        self.of_inst(x, at, depth)
    }

    /// The cost of recomputing `x`'s own instruction.
    fn of_inst(&self, x: Value, at: Value, depth: u32) -> Option<(u32, u32)> {
        let i = self.f.value_inst(x).filter(|&i| is_cheap(self.f, i))?;
        let mut total = (0, 1);
        for &a in &self.f.insts[i].args {
            let c = self.of(a, at, depth + 1)?;
            total = (total.0 + c.0, total.1 + c.1);
        }
        Some(total)
    }
}

/// Where code that feeds operand `k` of `u` goes: right before `u`, or at the end of the incoming
/// block for a phi.
fn use_point(f: &Function, u: Inst, k: usize) -> (Block, usize) {
    let d = &f.insts[u];
    if d.op == Opcode::Phi {
        let inb = d.blocks[k];
        (inb, f.blocks[inb].insts.len().saturating_sub(1))
    } else {
        let b = d.block.expect("placed");
        (b, f.blocks[b].insts.iter().position(|&x| x == u).unwrap_or(0))
    }
}

fn store_point(
    f: &mut Function,
    types: &TypeTable,
    v: Value,
    begin: Inst,
    before_begin: &dyn Fn(&Function, Inst) -> bool,
) -> (Block, usize) {
    let after = |f: &Function, i: Inst| -> (Block, usize) {
        let b = f.insts[i].block.expect("placed");
        (b, f.blocks[b].insts.iter().position(|&x| x == i).map_or(0, |p| p + 1))
    };
    let def = match f.values[v].kind {
        ValueKind::Inst(i) => i,
        _ => return after(f, begin),
    };
    if before_begin(f, def) {
        return after(f, begin);
    }
    let b = f.insts[def].block.expect("placed");
    match f.insts[def].op {
        Opcode::Phi | Opcode::LandingPad => (b, f.first_insertion_point(b)),
        Opcode::Invoke => {
            // The result exists only on the normal edge; give that edge a block of its own.
            let normal = f.insts[def].blocks[0];
            let nb = if f.phis(normal).is_empty() && Cfg::compute(f).preds[normal].len() == 1 {
                normal
            } else {
                f.split_successor(types, b, 0, None).unwrap_or(normal)
            };
            (nb, f.first_insertion_point(nb))
        }
        _ => after(f, def),
    }
}

fn insert_all(f: &mut Function, at: (Block, usize), seq: Vec<Inst>) {
    for (k, i) in seq.into_iter().enumerate() {
        f.insert_inst_at(at.0, at.1 + k, i);
    }
}
