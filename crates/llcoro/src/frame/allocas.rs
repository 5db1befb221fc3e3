//! Alloca analysis for the frame: when each alloca's bytes hold something (lifetime markers, trimmed
//! to where a read can still follow), whether its address escapes, and whether its memory must
//! survive a suspend at all.

use crate::frame::Site;
use llir::analysis::cfg::Cfg;
use llir::ir::{Block, Extra, Function, Inst, Opcode, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// Which frame allocas may never share bytes. Each alloca is alive from a `lifetime.start` on it
/// until a `lifetime.end`; an alloca without markers is alive everywhere. Two allocas alive in the
/// same block clash (a block-level, conservative test). Returns `clash(i, j)`.
pub struct Lifetimes {
    pub always: Vec<bool>,
    clash: Vec<Vec<u64>>,
    /// Alive at the end of some suspend's block, i.e. across that suspend.
    pub at_suspend: Vec<bool>,
    /// Per alloca, the positions in `suspend_blocks` of the suspends it may be alive across.
    pub alive_at: Vec<Vec<usize>>,
    /// Per block, the allocas (bit k for `allocas[k]`) alive there and holding something needed.
    pub touched: FxHashMap<Block, Vec<u64>>,
}

impl Lifetimes {
    pub fn clash(&self, i: usize, j: usize) -> bool {
        self.always[i] || self.always[j] || (self.clash[i][j / 64] >> (j % 64)) & 1 == 1
    }
}

pub fn lifetimes(f: &Function, cfg: &Cfg, allocas: &[Value], src: &str, suspend_blocks: &[Block]) -> Lifetimes {
    let n = allocas.len();
    if n == 0 {
        return Lifetimes {
            always: Vec::new(),
            clash: Vec::new(),
            at_suspend: Vec::new(),
            alive_at: Vec::new(),
            touched: FxHashMap::default(),
        };
    }
    let mut always: Vec<bool> = vec![true; n];
    // Blocks are numbered by their position in reverse post-order, and every per-block set is a row
    // of a flat bit matrix: hashing blocks and cloning a vector per block per pass was the cost.
    let nb = cfg.rpo.len();
    let pos = |b: Block| -> Option<usize> {
        let p = cfg.rpo_index[b];
        (p != u32::MAX).then_some(p as usize)
    };
    // Markers in order, as (block position, alloca index, is_start); unreachable blocks only clear
    // `always`.
    let mut markers: Vec<(usize, usize, bool)> = Vec::new();
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
                if let Some(p) = pos(b) {
                    markers.push((p, k, start));
                }
            }
        }
    }
    // Stable: each block's markers stay in instruction order.
    markers.sort_by_key(|m| m.0);
    let mut marker_start = vec![0usize; nb + 1];
    for m in &markers {
        marker_start[m.0 + 1] += 1;
    }
    for k in 1..marker_start.len() {
        marker_start[k] += marker_start[k - 1];
    }
    // Predecessor and successor positions of every reachable block.
    let mut pred_pos: Vec<Vec<usize>> = Vec::with_capacity(nb);
    let mut succ_pos: Vec<Vec<usize>> = Vec::with_capacity(nb);
    for &b in &cfg.rpo {
        pred_pos.push(cfg.preds[b].iter().filter_map(|&p| pos(p)).collect());
        succ_pos.push(f.successors(b).iter().filter_map(|&s| pos(s)).collect());
    }
    let words = n.div_ceil(64).max(1);
    let set = |m: &mut [u64], k: usize, on: bool| {
        if on {
            m[k / 64] |= 1 << (k % 64);
        } else {
            m[k / 64] &= !(1 << (k % 64));
        }
    };
    let row = |p: usize| -> std::ops::Range<usize> { p * words..(p + 1) * words };
    // Forward "maybe alive" dataflow to a fixed point, in reverse post-order. A block not yet
    // visited counts as empty, so starting from zeros reaches the same (least) fixed point.
    let mut out = vec![0u64; nb * words];
    let mut seen_in = vec![0u64; nb * words];
    let mut cur = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..nb {
            cur.fill(0);
            for &q in &pred_pos[p] {
                for (c, x) in cur.iter_mut().zip(&out[row(q)]) {
                    *c |= x;
                }
            }
            // Everything alive at some point of the block: what comes in, plus what starts here.
            let touched = &mut seen_in[p * words..(p + 1) * words];
            touched.copy_from_slice(&cur);
            for &(_, k, start) in &markers[marker_start[p]..marker_start[p + 1]] {
                set(&mut cur, k, start);
                if start {
                    set(touched, k, true);
                }
            }
            let o = &mut out[p * words..(p + 1) * words];
            if *o != *cur {
                o.copy_from_slice(&cur);
                changed = true;
            }
        }
    }
    // Backward: an alloca holds something worth keeping only where a read (any use but a lifetime
    // marker) can follow without a new lifetime.start first. Where neither is needed, two allocas
    // may share bytes even if both are "maybe alive", as on destroy paths.
    let mut uses_up = vec![0u64; nb * words]; // used before any start in B
    let mut starts = vec![0u64; nb * words];
    let mut used_in = vec![0u64; nb * words];
    for (p, &b) in cfg.rpo.iter().enumerate() {
        let r = p * words..(p + 1) * words;
        let (up, st, any) = (&mut uses_up[r.clone()], &mut starts[r.clone()], &mut used_in[r]);
        for &i in &f.blocks[b].insts {
            let name = f.callee_name(i, src).unwrap_or("");
            let is_start = name.starts_with("@llvm.lifetime.start");
            let is_marker = is_start || name.starts_with("@llvm.lifetime.end");
            for a in &f.insts[i].args {
                let Some(&k) = index.get(a) else { continue };
                if is_start {
                    set(st, k, true);
                } else if !is_marker && !f.insts[i].is_debug() {
                    set(any, k, true);
                    if st[k / 64] >> (k % 64) & 1 == 0 {
                        set(up, k, true);
                    }
                }
            }
        }
    }
    let mut live_in = vec![0u64; nb * words];
    let mut out_b = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        for p in (0..nb).rev() {
            out_b.fill(0);
            for &q in &succ_pos[p] {
                for (o, x) in out_b.iter_mut().zip(&live_in[row(q)]) {
                    *o |= x;
                }
            }
            let r = row(p);
            let (st, up) = (&starts[r.clone()], &uses_up[r.clone()]);
            let li = &mut live_in[r];
            for w in 0..words {
                let new = up[w] | (out_b[w] & !st[w]);
                if li[w] != new {
                    li[w] = new;
                    changed = true;
                }
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
    let mut escaped_bits = vec![0u64; words];
    for (k, &e) in escaped.iter().enumerate() {
        if e {
            set(&mut escaped_bits, k, true);
        }
    }
    let mut needed = vec![0u64; words];
    for (p, succs) in succ_pos.iter().enumerate() {
        let r = row(p);
        needed.copy_from_slice(&used_in[r.clone()]);
        for (x, l) in needed.iter_mut().zip(&live_in[r.clone()]) {
            *x |= l;
        }
        for &q in succs {
            for (x, l) in needed.iter_mut().zip(&live_in[row(q)]) {
                *x |= l;
            }
        }
        // Only allocas whose address never escapes may be trimmed to their direct uses: an escaped
        // address can be read through a copy anywhere in the lifetime.
        for (x, e) in needed.iter_mut().zip(&escaped_bits) {
            *x |= e;
        }
        for (x, nd) in seen_in[r].iter_mut().zip(&needed) {
            *x &= nd;
        }
    }
    let mut clash = vec![vec![0u64; words]; n];
    for touched in seen_in.chunks_exact(words) {
        for i in 0..n {
            if touched[i / 64] >> (i % 64) & 1 == 1 {
                for (c, t) in clash[i].iter_mut().zip(touched) {
                    *c |= t;
                }
            }
        }
    }
    let alive_at: Vec<Vec<usize>> = (0..n)
        .map(|k| {
            (0..suspend_blocks.len())
                .filter(|&j| {
                    always[k] || pos(suspend_blocks[j]).is_some_and(|p| out[p * words + k / 64] >> (k % 64) & 1 == 1)
                })
                .collect()
        })
        .collect();
    let at_suspend = (0..n).map(|k| always[k] || !alive_at[k].is_empty()).collect();
    let mut touched: FxHashMap<Block, Vec<u64>> = FxHashMap::default();
    touched.reserve(nb);
    for (&b, t) in cfg.rpo.iter().zip(seen_in.chunks_exact(words)) {
        touched.insert(b, t.to_vec());
    }
    Lifetimes { always, clash, at_suspend, alive_at, touched }
}

/// For an alloca whose address never escapes: can a store to it reach a read of it across a
/// suspend? (Per block: some suspend has a store before it, in its block or upstream, and a read
/// after it downstream that no store of the whole alloca comes between; ramp-only code after
/// coro.end excluded.)
pub fn memory_crosses(
    f: &Function,
    cfg: &Cfg,
    a: Value,
    sites: &[Site],
    ramp_only: &FxHashSet<Inst>,
    use_map: &FxHashMap<Value, Vec<Inst>>,
    src: &str,
) -> bool {
    // Pointers derived from the alloca, then its stores and loads.
    let ptrs = derived(f, a, use_map);
    let mut stores: Vec<Inst> = Vec::new();
    let mut loads: Vec<Inst> = Vec::new();
    for p in &ptrs {
        for &u in use_map.get(p).map(|v| v.as_slice()).unwrap_or(&[]) {
            let reads = !ramp_only.contains(&u);
            match f.insts[u].op {
                Opcode::Store if f.insts[u].args.get(1) == Some(p) => stores.push(u),
                Opcode::Load if reads => loads.push(u),
                Opcode::Call | Opcode::Invoke => {
                    for (k, _) in f.insts[u].call_args().iter().enumerate().filter(|&(_, x)| x == p) {
                        match call_access(f, u, k, src) {
                            Some(Access::Read) if reads => loads.push(u),
                            Some(Access::Write) => stores.push(u),
                            Some(Access::ReadWrite) => {
                                stores.push(u);
                                if reads {
                                    loads.push(u);
                                }
                            }
                            _ => {}
                        }
                    }
                }
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
    // A store of the alloca's whole type to the alloca itself overwrites everything: a read after
    // it in its block, or downstream of it, does not see what was there before.
    let alloc_ty = f.value_inst(a).and_then(|i| match f.insts[i].extra {
        Extra::Alloca { ty, .. } if f.insts[i].args.is_empty() => Some(ty),
        _ => None,
    });
    let kills = |u: Inst| {
        let d = &f.insts[u];
        d.op == Opcode::Store
            && d.args.get(1) == Some(&a)
            && d.args.first().map(|&v| f.values[v].ty) == alloc_ty
            && alloc_ty.is_some()
    };
    let kill_blocks: FxHashSet<Block> =
        stores.iter().filter(|&&u| kills(u)).filter_map(|&u| f.insts[u].block).collect();
    // Blocks entered with the old contents still to be read: those with a read not preceded by a
    // killing store in the block, and upstream of them through blocks without a killing store.
    let mut before: FxHashSet<Block> = FxHashSet::default();
    let mut work: Vec<Block> = loads
        .iter()
        .filter_map(|&l| {
            let b = f.insts[l].block?;
            let insts = &f.blocks[b].insts;
            let at = insts.iter().position(|&x| x == l)?;
            (!insts[..at].iter().any(|&x| kills(x))).then_some(b)
        })
        .collect();
    while let Some(b) = work.pop() {
        if before.insert(b) {
            work.extend(cfg.preds[b].iter().copied().filter(|p| !kill_blocks.contains(p)));
        }
    }
    sites.iter().any(|s| {
        let Some(sb) = f.insts[s.inst].block else { return true };
        let pos = |i: Inst| f.blocks[sb].insts.iter().position(|&x| x == i).unwrap_or(usize::MAX);
        let written =
            after.contains(&sb) || stores.iter().any(|&st| f.insts[st].block == Some(sb) && pos(st) < pos(s.inst));
        let read = f.successors(sb).iter().any(|b| before.contains(b));
        written && read
    })
}

/// Can the address of alloca `a` be copied somewhere (a call argument, a stored value, an integer)?
/// Loads from it, stores into it, lifetime markers, debug records, call operands that cannot be
/// captured (`call_access`), and GEPs and casts whose results only do the same, do not count.
pub fn escapes(f: &Function, a: Value, src: &str, use_map: &FxHashMap<Value, Vec<Inst>>) -> bool {
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
                Opcode::Call | Opcode::Invoke
                    if pos < d.call_args().len()
                        && d.call_args()
                            .iter()
                            .enumerate()
                            .all(|(k, &x)| x != p || call_access(f, u, k, src).is_some()) => {}
                _ => return true,
            }
        }
    }
    false
}

pub fn is_lifetime(f: &Function, i: Inst, src: &str) -> bool {
    f.callee_name(i, src).is_some_and(|n| n.starts_with("@llvm.lifetime."))
}

/// What a call does with the memory behind pointer argument `k`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    ReadWrite,
}

/// How call `u` uses the memory of its pointer argument `k`, when it cannot keep the pointer: the
/// memory intrinsics, `byval` operands (the callee gets a copy, so the call only reads), and
/// operands marked `nocapture` or `captures(none)`. `None` when the call may capture the pointer.
pub fn call_access(f: &Function, u: Inst, k: usize, src: &str) -> Option<Access> {
    let name = f.callee_name(u, src).unwrap_or("");
    if name.starts_with("@llvm.memcpy") || name.starts_with("@llvm.memmove") {
        return match k {
            0 => Some(Access::Write),
            1 => Some(Access::Read),
            _ => None,
        };
    }
    if name.starts_with("@llvm.memset") {
        return (k == 0).then_some(Access::Write);
    }
    // The attributes written before the operand, after the previous one.
    let d = &f.insts[u];
    let at = d.tmpl.iter().position(|p| matches!(p, llir::ir::Piece::Arg(x) if *x as usize == k))?;
    let llir::ir::Piece::Text(t) = d.tmpl.get(at.checked_sub(1)?)? else { return None };
    let text = t.get(src);
    let attrs = &text[text.rfind(", ").map_or(0, |i| i + 2)..];
    if attrs.contains(" byval(") || attrs.starts_with("byval(") {
        Some(Access::Read)
    } else if attrs.contains(" nocapture") || attrs.contains(" captures(none)") {
        Some(Access::ReadWrite)
    } else {
        None
    }
}

/// `a` and the pointers derived from it by GEPs and casts, through the use lists.
pub fn derived(f: &Function, a: Value, use_map: &FxHashMap<Value, Vec<Inst>>) -> Vec<Value> {
    let mut ptrs = vec![a];
    let mut k = 0;
    while k < ptrs.len() {
        for &u in use_map.get(&ptrs[k]).map(|v| v.as_slice()).unwrap_or(&[]) {
            if matches!(f.insts[u].op, Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast)
                && f.insts[u].args.first() == Some(&ptrs[k])
                && let Some(r) = f.insts[u].result
                && !ptrs.contains(&r)
            {
                ptrs.push(r);
            }
        }
        k += 1;
    }
    ptrs
}

/// The allocas pointer `v` may point into: followed back through GEPs, casts, phis and selects.
pub fn pointer_bases(f: &Function, v: Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut seen = vec![v];
    let mut work = vec![v];
    while let Some(p) = work.pop() {
        let Some(i) = f.value_inst(p) else { continue };
        let d = &f.insts[i];
        let from: &[Value] = match d.op {
            Opcode::Alloca => {
                out.push(p);
                &[]
            }
            Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast => d.args.get(..1).unwrap_or(&[]),
            Opcode::Select => d.args.get(1..3).unwrap_or(&[]),
            Opcode::Phi => &d.args,
            _ => &[],
        };
        for &x in from {
            if seen.len() < 1024 && !seen.contains(&x) {
                seen.push(x);
                work.push(x);
            }
        }
    }
    out
}
