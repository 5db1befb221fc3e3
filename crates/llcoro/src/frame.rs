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
//!   `coro.promise` expects it, then the suspend index and the rest by decreasing alignment.

use crate::diag::Finding;
use crate::intrinsics::{Intr, intr_of, promise_offset};
use crate::shape::{Shape, error_at, is_unspillable};
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
    pub ptr_size: u64,
    /// Allocas used after a suspend but never alive across one: every split function has its own.
    pub local_allocas: Vec<Value>,
    /// Debug records now describing a variable as frame + offset; each split function declares
    /// them at its entry if its body does not already.
    pub declares: Vec<Inst>,
}

pub struct Env<'a> {
    pub src: &'a str,
    pub dl: &'a DataLayout,
    pub typed: bool,
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

/// Instructions that only the ramp runs: those after a non-unwind `coro.end` in its block, and every
/// instruction of blocks all of whose predecessors are such code.
fn ramp_only_insts(f: &Function, shape: &Shape, cfg: &Cfg, src: &str) -> FxHashSet<Inst> {
    let mut out: FxHashSet<Inst> = FxHashSet::default();
    let mut tail_blocks: FxHashSet<Block> = FxHashSet::default();
    for &e in &shape.ends {
        let unwind = f.insts[e].call_args().get(1).and_then(|&v| f.const_int(v, src)).unwrap_or(0) != 0;
        let Some(eb) = f.insts[e].block else { continue };
        if unwind {
            continue;
        }
        let pos = f.blocks[eb].insts.iter().position(|&x| x == e).unwrap_or(0);
        out.extend(f.blocks[eb].insts[pos + 1..].iter().copied());
        tail_blocks.insert(eb);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &cfg.rpo {
            if tail_blocks.contains(&b) || cfg.preds[b].is_empty() {
                continue;
            }
            if cfg.preds[b].iter().all(|p| tail_blocks.contains(p)) {
                tail_blocks.insert(b);
                out.extend(f.blocks[b].insts.iter().copied());
                changed = true;
            }
        }
    }
    out
}

/// Which frame allocas may never share bytes. Each alloca is alive from a `lifetime.start` on it
/// until a `lifetime.end`; an alloca without markers is alive everywhere. Two allocas alive in the
/// same block clash (a block-level, conservative test). Returns `clash(i, j)`.
struct Lifetimes {
    always: Vec<bool>,
    clash: Vec<Vec<u64>>,
    /// Alive at the end of some suspend's block, i.e. across that suspend.
    at_suspend: Vec<bool>,
}

impl Lifetimes {
    fn clash(&self, i: usize, j: usize) -> bool {
        self.always[i] || self.always[j] || (self.clash[i][j / 64] >> (j % 64)) & 1 == 1
    }
}

fn lifetimes(f: &Function, cfg: &Cfg, allocas: &[Value], src: &str, suspend_blocks: &[Block]) -> Lifetimes {
    let n = allocas.len();
    if n == 0 {
        return Lifetimes { always: Vec::new(), clash: Vec::new(), at_suspend: Vec::new() };
    }
    let mut always: Vec<bool> = vec![true; n];
    // Per block: markers in order, as (alloca index, is_start).
    let mut markers: FxHashMap<Block, Vec<(usize, bool)>> = FxHashMap::default();
    let index: FxHashMap<Value, usize> = allocas.iter().enumerate().map(|(k, &v)| (v, k)).collect();
    for (b, i) in f.inst_iter() {
        let Some(name) = f.callee_name(i, src) else { continue };
        let start = name.starts_with("@llvm.lifetime.start");
        if !start && !name.starts_with("@llvm.lifetime.end") {
            continue;
        }
        for a in f.insts[i].call_args() {
            if let Some(&k) = index.get(a) {
                always[k] = false;
                markers.entry(b).or_default().push((k, start));
            }
        }
    }
    let words = n.div_ceil(64).max(1);
    let empty = vec![0u64; words];
    let set = |m: &mut [u64], k: usize, on: bool| {
        if on {
            m[k / 64] |= 1 << (k % 64);
        } else {
            m[k / 64] &= !(1 << (k % 64));
        }
    };
    // Forward "maybe alive" dataflow to a fixed point, in reverse post-order.
    let mut out: FxHashMap<Block, Vec<u64>> = FxHashMap::default();
    let mut seen_in: FxHashMap<Block, Vec<u64>> = FxHashMap::default();
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &cfg.rpo {
            let mut cur = empty.clone();
            for p in &cfg.preds[b] {
                if let Some(o) = out.get(p) {
                    for (c, x) in cur.iter_mut().zip(o) {
                        *c |= x;
                    }
                }
            }
            // Everything alive at some point of the block: what comes in, plus what starts here.
            let mut touched = cur.clone();
            for &(k, start) in markers.get(&b).map(|v| v.as_slice()).unwrap_or(&[]) {
                set(&mut cur, k, start);
                if start {
                    set(&mut touched, k, true);
                }
            }
            if out.get(&b) != Some(&cur) {
                out.insert(b, cur);
                changed = true;
            }
            seen_in.insert(b, touched);
        }
    }
    // Backward: an alloca holds something worth keeping only where a read (any use but a lifetime
    // marker) can follow without a new lifetime.start first. Where neither is needed, two allocas
    // may share bytes even if both are "maybe alive", as on destroy paths.
    let mut uses_up: FxHashMap<Block, Vec<u64>> = FxHashMap::default(); // used before any start in B
    let mut starts: FxHashMap<Block, Vec<u64>> = FxHashMap::default();
    let mut used_in: FxHashMap<Block, Vec<u64>> = FxHashMap::default();
    for &b in &cfg.rpo {
        let mut up = empty.clone();
        let mut st = empty.clone();
        let mut any = empty.clone();
        for &i in &f.blocks[b].insts {
            let name = f.callee_name(i, src).unwrap_or("");
            let is_start = name.starts_with("@llvm.lifetime.start");
            let is_marker = is_start || name.starts_with("@llvm.lifetime.end");
            for a in &f.insts[i].args {
                let Some(&k) = index.get(a) else { continue };
                if is_start {
                    set(&mut st, k, true);
                } else if !is_marker && !f.insts[i].is_debug() {
                    set(&mut any, k, true);
                    if st[k / 64] >> (k % 64) & 1 == 0 {
                        set(&mut up, k, true);
                    }
                }
            }
        }
        uses_up.insert(b, up);
        starts.insert(b, st);
        used_in.insert(b, any);
    }
    let mut live_in: FxHashMap<Block, Vec<u64>> = FxHashMap::default();
    let mut changed = true;
    while changed {
        changed = false;
        for &b in cfg.rpo.iter().rev() {
            let mut out_b = empty.clone();
            for s in f.successors(b) {
                if let Some(li) = live_in.get(s) {
                    for (o, x) in out_b.iter_mut().zip(li) {
                        *o |= x;
                    }
                }
            }
            let st = &starts[&b];
            let up = &uses_up[&b];
            let new: Vec<u64> = (0..words).map(|w| up[w] | (out_b[w] & !st[w])).collect();
            if live_in.get(&b) != Some(&new) {
                live_in.insert(b, new);
                changed = true;
            }
        }
    }
    // Only after both fixed points: an alloca counts in b where it is maybe alive and needed
    // (live in, used in b, or live out of b).
    let mut use_map: FxHashMap<Value, Vec<Inst>> = FxHashMap::default();
    for (_, u) in f.inst_iter() {
        for &x in &f.insts[u].args {
            use_map.entry(x).or_default().push(u);
        }
    }
    let escaped: Vec<bool> = allocas.iter().map(|&a| escapes(f, a, src, &use_map)).collect();
    for &b in &cfg.rpo {
        let mut needed = used_in[&b].clone();
        if let Some(li) = live_in.get(&b) {
            for (x, l) in needed.iter_mut().zip(li) {
                *x |= l;
            }
        }
        for s in f.successors(b) {
            if let Some(li) = live_in.get(s) {
                for (x, l) in needed.iter_mut().zip(li) {
                    *x |= l;
                }
            }
        }
        // Only allocas whose address never escapes may be trimmed to their direct uses: an escaped
        // address can be read through a copy anywhere in the lifetime.
        for (k, &e) in escaped.iter().enumerate() {
            if e {
                set(&mut needed, k, true);
            }
        }
        if let Some(t) = seen_in.get_mut(&b) {
            for (x, nd) in t.iter_mut().zip(&needed) {
                *x &= nd;
            }
        }
    }
    let mut clash = vec![vec![0u64; words]; n];
    for touched in seen_in.values() {
        for i in 0..n {
            if touched[i / 64] >> (i % 64) & 1 == 1 {
                for (c, t) in clash[i].iter_mut().zip(touched) {
                    *c |= t;
                }
            }
        }
    }
    let at_suspend = (0..n)
        .map(|k| always[k] || suspend_blocks.iter().any(|b| out.get(b).is_some_and(|o| o[k / 64] >> (k % 64) & 1 == 1)))
        .collect();
    Lifetimes { always, clash, at_suspend }
}

/// For an alloca whose address never escapes: can a store to it reach a load from it across a
/// suspend? (Per block: some suspend has a store before it, in its block or upstream, and a load
/// after it downstream, ramp-only code after coro.end excluded.)
fn memory_crosses(
    f: &Function,
    cfg: &Cfg,
    a: Value,
    shape: &Shape,
    ramp_only: &FxHashSet<Inst>,
    use_map: &FxHashMap<Value, Vec<Inst>>,
) -> bool {
    // Pointers derived from the alloca, then its stores and loads.
    let mut ptrs = vec![a];
    let mut k = 0;
    while k < ptrs.len() {
        for &u in use_map.get(&ptrs[k]).map(|v| v.as_slice()).unwrap_or(&[]) {
            if matches!(f.insts[u].op, Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast)
                && let Some(r) = f.insts[u].result
                && !ptrs.contains(&r)
            {
                ptrs.push(r);
            }
        }
        k += 1;
    }
    let mut stores: Vec<Inst> = Vec::new();
    let mut loads: Vec<Inst> = Vec::new();
    for p in &ptrs {
        for &u in use_map.get(p).map(|v| v.as_slice()).unwrap_or(&[]) {
            match f.insts[u].op {
                Opcode::Store if f.insts[u].args.get(1) == Some(p) => stores.push(u),
                Opcode::Load if !ramp_only.contains(&u) => loads.push(u),
                _ => {}
            }
        }
    }
    // Blocks strictly after some store, and blocks from which some load is reachable.
    let mut after: FxHashSet<Block> = FxHashSet::default();
    let mut work: Vec<Block> =
        stores.iter().filter_map(|&s| f.insts[s].block).flat_map(|b| f.successors(b).to_vec()).collect();
    while let Some(b) = work.pop() {
        if after.insert(b) {
            work.extend(f.successors(b).iter().copied());
        }
    }
    let mut before: FxHashSet<Block> = FxHashSet::default();
    let mut work: Vec<Block> = loads.iter().filter_map(|&l| f.insts[l].block).collect();
    while let Some(b) = work.pop() {
        if before.insert(b) {
            work.extend(cfg.preds[b].iter().copied());
        }
    }
    shape.suspends.iter().any(|s| {
        let Some(sb) = f.insts[s.call].block else { return true };
        let pos = |i: Inst| f.blocks[sb].insts.iter().position(|&x| x == i).unwrap_or(usize::MAX);
        let written =
            after.contains(&sb) || stores.iter().any(|&st| f.insts[st].block == Some(sb) && pos(st) < pos(s.call));
        let read = f.successors(sb).iter().any(|b| before.contains(b));
        written && read
    })
}

/// Can the address of alloca `a` be copied somewhere (a call argument, a stored value, an integer)?
/// Loads from it, stores into it, lifetime markers, debug records, and GEPs and casts whose results
/// only do the same, do not count.
fn escapes(f: &Function, a: Value, src: &str, use_map: &FxHashMap<Value, Vec<Inst>>) -> bool {
    // The alloca and everything derived from it, followed through the use lists.
    let mut work = vec![a];
    let mut seen = vec![a];
    while let Some(p) = work.pop() {
        if seen.len() > 4096 {
            return true;
        }
        for &u in use_map.get(&p).map(|v| v.as_slice()).unwrap_or(&[]) {
            let d = &f.insts[u];
            let Some(pos) = d.args.iter().position(|&x| x == p) else { continue };
            match d.op {
                Opcode::Load => {}
                Opcode::Store if pos == 1 && d.args[0] != p => {}
                Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast if pos == 0 => {
                    if let Some(r) = d.result
                        && !seen.contains(&r)
                    {
                        seen.push(r);
                        work.push(r);
                    }
                }
                _ if d.is_debug() => {}
                Opcode::Call if f.callee_name(u, src).is_some_and(|n| n.starts_with("@llvm.lifetime.")) => {}
                _ => return true,
            }
        }
    }
    false
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

fn is_lifetime(f: &Function, i: Inst, src: &str) -> bool {
    f.callee_name(i, src).is_some_and(|n| n.starts_with("@llvm.lifetime."))
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

    // ---- What crosses a suspend. ----
    let cfg = Cfg::compute(f);
    // Code after a (non-unwind) coro.end runs only in the ramp: the parts return at coro.end. Its
    // uses do not keep anything alive across a suspend.
    let ramp_only = ramp_only_insts(f, shape, &cfg, src);
    // A suspend's use of its save token does count: a token saved before another suspend cannot
    // survive it, and that must be reported rather than miscompiled.
    let live = Liveness::compute_ignoring(f, &cfg, |i| {
        (is_structural(f, i, src) && intr_of(f, i, src) != Some(Intr::Suspend)) || ramp_only.contains(&i)
    });
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
    let mut allocas: Vec<Value> = Vec::new();
    let mut spills: Vec<Value> = Vec::new();
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
                    errors.push(error_at(
                        f,
                        Some(i),
                        "coro-outside-frame",
                        "this alloca is marked !coro.outside.frame but is used after a suspend point".into(),
                        "drop the !coro.outside.frame marker, or stop using the alloca after the coroutine suspends",
                    ));
                    continue;
                }
                allocas.push(v);
            }
            _ => spills.push(v),
        }
    }
    // An alloca whose lifetime markers say it is dead at every suspend needs no frame slot: each
    // split function gets its own copy of it.
    let suspend_blocks: Vec<Block> = shape.suspends.iter().filter_map(|s| f.insts[s.call].block).collect();
    let candidates: Vec<Value> = allocas.iter().copied().filter(|&a| Some(a) != shape.promise).collect();
    let lt0 = lifetimes(f, &cfg, &candidates, src, &suspend_blocks);
    let mut use_map: FxHashMap<Value, Vec<Inst>> = FxHashMap::default();
    for (_, u) in f.inst_iter() {
        for &x in &f.insts[u].args {
            use_map.entry(x).or_default().push(u);
        }
    }
    let local_allocas: Vec<Value> = candidates
        .iter()
        .enumerate()
        .filter(|&(k, &a)| {
            let plain = f.value_inst(a).is_some_and(|i| f.insts[i].args.is_empty());
            // Dead at every suspend by its lifetime markers, or (for an alloca only ever loaded and
            // stored) no suspend with a store before it and a load after it.
            plain
                && (!lt0.at_suspend[k]
                    || (!escapes(f, a, src, &use_map) && !memory_crosses(f, &cfg, a, shape, &ramp_only, &use_map)))
        })
        .map(|(_, &a)| a)
        .collect();
    allocas.retain(|a| !local_allocas.contains(a));
    // After coro.end on the return path, the ramp may run with the frame already freed (a coroutine
    // that ran to completion destroys itself), so nothing there may read the frame.
    let in_frame: FxHashSet<Value> = allocas.iter().chain(&spills).copied().chain(shape.promise).collect();
    let mut after_end: Vec<Inst> = ramp_only.iter().copied().collect();
    after_end.sort_unstable();
    if let Some(&bad) = after_end.iter().find(|&&i| {
        !f.insts[i].is_debug() && !is_structural(f, i, src) && f.insts[i].args.iter().any(|a| in_frame.contains(a))
    }) {
        errors.push(error_at(
            f,
            Some(bad),
            "coro-frame-after-end",
            "this reads coroutine frame storage after coro.end, when the frame may already be freed".into(),
            "keep what the ramp returns in a local alloca that is not used after any suspend, and read that instead",
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }

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
    for &v in &spills {
        let ty = f.values[v].ty;
        rest.push(Field::new(FieldKind::Spill(v), ty, env.dl.alloc_size(types, ty), env.dl.abi_align(types, ty)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // The index first (it is read on every resume), then spills by decreasing alignment to limit
    // padding, then the allocas, which share bytes when their lifetimes never meet.
    let (mut movable, spill_fields): (Vec<Field>, Vec<Field>) =
        rest.split_off(1).into_iter().partition(|x| matches!(x.kind, FieldKind::Alloca(_)));
    let mut fixed = rest;
    let mut spill_fields = spill_fields;
    spill_fields.sort_by(|a, b| b.align.cmp(&a.align).then(b.size.cmp(&a.size)));
    fixed.extend(spill_fields);
    for mut fl in fixed {
        fl.offset = end.div_ceil(fl.align) * fl.align;
        end = fl.offset + fl.size;
        fields.push(fl);
    }
    movable.sort_by(|a, b| b.size.cmp(&a.size).then(b.align.cmp(&a.align)));
    let vals: Vec<Value> = movable
        .iter()
        .map(|x| match x.kind {
            FieldKind::Alloca(v) => v,
            _ => unreachable!("partitioned on allocas"),
        })
        .collect();
    let lt = lifetimes(f, &cfg, &vals, src, &[]);
    let clash = |i: usize, j: usize| lt.clash(i, j);
    let base = end;
    let mut placed: Vec<(u64, u64)> = Vec::new();
    for (k, mut fl) in movable.into_iter().enumerate() {
        // The lowest aligned offset whose bytes no interfering, already placed alloca uses.
        let mut off = base.div_ceil(fl.align) * fl.align;
        loop {
            let hit = placed.iter().enumerate().find(|&(j, &(o, sz))| clash(k, j) && off < o + sz && o < off + fl.size);
            match hit {
                Some((_, &(o, sz))) => off = (o + sz).div_ceil(fl.align) * fl.align,
                None => break,
            }
        }
        fl.offset = off;
        placed.push((off, fl.size));
        end = end.max(off + fl.size);
        fields.push(fl);
    }
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
    let mut frame = Frame { fields, size, align, index_ty, index_off, ptr_size, local_allocas, declares: Vec::new() };

    // ---- Rewrite: allocas into the frame. ----
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
    let mut uses: FxHashMap<Value, Vec<(Inst, usize)>> = FxHashMap::default();
    for (_, i) in f.inst_iter() {
        for (k, &a) in f.insts[i].args.iter().enumerate() {
            uses.entry(a).or_default().push((i, k));
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
                errors.push(error_at(
                    f,
                    Some(u),
                    "coro-use-before-begin",
                    "this alloca lives in the coroutine frame but is used before coro.begin, when there is no frame yet".into(),
                    "move the use after coro.begin, or keep the alloca out of the frame by not using it after a suspend",
                ));
                continue;
            }
            let at = use_point(f, u, k);
            let (seq, addr) = frame_addr(f, types, frame_val, off, ty, env.typed);
            insert_all(f, at, seq);
            f.insts[u].args[k] = addr;
        }
        if let Some(i) = f.value_inst(a) {
            f.remove_inst(i);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // ---- Rewrite: spills and reloads. ----
    let mut flood_stamp: cranelift_entity::SecondaryMap<Block, u32> = cranelift_entity::SecondaryMap::new();
    let mut stamp_no = 0u32;
    for fl in frame.fields.clone() {
        let FieldKind::Spill(v) = fl.kind else { continue };
        // Store once, right after the definition (or after coro.begin for earlier values).
        let at = store_point(f, types, v, shape.begin, &before_begin);
        let (mut seq, addr) = frame_addr(f, types, frame_val, fl.offset, fl.ty, env.typed);
        let st = Builder::new(f, types).store(v, addr, fl.align);
        seq.push(st);
        insert_all(f, at, seq);
        // Flood from the suspend successors through blocks where v is live. A stamp per block
        // (this spill's number) marks the flooded ones without clearing anything between spills.
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
        let mut reload_in: FxHashMap<Block, Value> = FxHashMap::default();
        let my_uses: Vec<(Inst, usize)> = uses.get(&v).cloned().unwrap_or_default();
        for (u, k) in my_uses {
            let Some(ub) = f.insts[u].block else { continue };
            if is_structural(f, u, src) {
                continue;
            }
            let target = if f.insts[u].op == Opcode::Phi {
                let inb = f.insts[u].blocks[k];
                if !flooded(inb) {
                    continue;
                }
                inb
            } else {
                if !flooded(ub) {
                    continue;
                }
                ub
            };
            let r = match reload_in.get(&target) {
                Some(&r) => r,
                None => {
                    let at = if f.insts[u].op == Opcode::Phi {
                        let n = f.blocks[target].insts.len().saturating_sub(1);
                        (target, n)
                    } else {
                        (target, f.first_insertion_point(target))
                    };
                    let (mut seq, addr) = frame_addr(f, types, frame_val, fl.offset, fl.ty, env.typed);
                    let mut b = Builder::new(f, types);
                    let l = b.load(fl.ty, addr, fl.align);
                    let r = b.result(l);
                    seq.push(l);
                    insert_all(f, at, seq);
                    reload_in.insert(target, r);
                    r
                }
            };
            f.insts[u].args[k] = r;
        }
    }
    Ok(frame)
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
