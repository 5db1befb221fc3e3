//! Alloca analysis for the frame: when each alloca's bytes hold something (lifetime markers, trimmed
//! to where a read can still follow), whether its address escapes, and whether its memory must
//! survive a suspend at all.

use crate::shape::Shape;
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
    let alive_at: Vec<Vec<usize>> = (0..n)
        .map(|k| {
            (0..suspend_blocks.len())
                .filter(|&j| always[k] || out.get(&suspend_blocks[j]).is_some_and(|o| o[k / 64] >> (k % 64) & 1 == 1))
                .collect()
        })
        .collect();
    let at_suspend = (0..n).map(|k| always[k] || !alive_at[k].is_empty()).collect();
    Lifetimes { always, clash, at_suspend, alive_at, touched: seen_in }
}

/// For an alloca whose address never escapes: can a store to it reach a read of it across a
/// suspend? (Per block: some suspend has a store before it, in its block or upstream, and a read
/// after it downstream that no store of the whole alloca comes between; ramp-only code after
/// coro.end excluded.)
pub fn memory_crosses(
    f: &Function,
    cfg: &Cfg,
    a: Value,
    shape: &Shape,
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
