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
#[derive(Default)]
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

/// Computes, per alloca, where it holds something needed and which suspends it is alive across,
/// and from that which allocas clash.
/// `exits` are the edges by which a suspend leaves the function (to its return path).
pub fn lifetimes(
    f: &Function,
    cfg: &Cfg,
    allocas: &[Value],
    src: &str,
    suspend_blocks: &[Block],
    exits: &FxHashSet<(Block, Block)>,
) -> Lifetimes {
    if allocas.is_empty() {
        return Lifetimes::default();
    }
    let grid = Grid::new(f, cfg, allocas.len());
    let index: FxHashMap<Value, usize> = allocas.iter().enumerate().map(|(k, &v)| (v, k)).collect();
    let (always, markers) = lifetime_markers(f, &grid, &index, src);
    let cut = without_exits(f, cfg, allocas.len(), exits, src);
    let (alive_out, mut seen_in) = maybe_alive(cut.as_ref().unwrap_or(&grid), &markers);
    let uses = BlockUses::scan(f, &grid, &index, src);
    let live_in = read_ahead(&grid, &uses);
    let escaped = escaped_bits(f, allocas, src, grid.words);
    trim_to_needed(&grid, &mut seen_in, &uses.used_in, &live_in, &escaped);
    let clash = clash_rows(&seen_in, grid.n, grid.words);
    let alive_at = alive_across(&grid, &always, &alive_out, suspend_blocks);
    let at_suspend = (0..grid.n).map(|k| always[k] || !alive_at[k].is_empty()).collect();
    let touched = touched_by_block(&grid, &seen_in);
    Lifetimes { always, clash, at_suspend, alive_at, touched }
}

/// The reachable blocks and the allocas as the rows and columns of bit matrices. Blocks are
/// numbered by their position in reverse post-order, and every per-block set is a row of a flat
/// bit matrix: hashing blocks and cloning a vector per block per pass was the cost.
struct Grid<'a> {
    cfg: &'a Cfg,
    /// Reachable blocks.
    nb: usize,
    /// Allocas.
    n: usize,
    /// Words in a row.
    words: usize,
    /// Predecessor and successor positions of every reachable block.
    preds: Vec<Vec<usize>>,
    succs: Vec<Vec<usize>>,
}

impl<'a> Grid<'a> {
    /// Numbers the reachable blocks of `f` and finds their neighbours, for `n` allocas.
    fn new(f: &Function, cfg: &'a Cfg, n: usize) -> Self {
        let nb = cfg.rpo.len();
        let mut grid = Grid {
            cfg,
            nb,
            n,
            words: n.div_ceil(64).max(1),
            preds: Vec::with_capacity(nb),
            succs: Vec::with_capacity(nb),
        };
        for &b in &cfg.rpo {
            let preds = cfg.preds(b).iter().filter_map(|&p| grid.pos(p)).collect();
            let succs = f.successors(b).iter().filter_map(|&s| grid.pos(s)).collect();
            grid.preds.push(preds);
            grid.succs.push(succs);
        }
        grid
    }

    /// A block's position in reverse post-order; none if it is unreachable.
    fn pos(&self, b: Block) -> Option<usize> {
        let p = self.cfg.rpo_index[b];
        (p != u32::MAX).then_some(p as usize)
    }

    /// The words of block position `p`'s row.
    fn row(&self, p: usize) -> std::ops::Range<usize> {
        p * self.words..(p + 1) * self.words
    }

    /// An all-clear matrix, one row per reachable block.
    fn matrix(&self) -> Vec<u64> {
        vec![0u64; self.nb * self.words]
    }
}

/// The grid without the edges by which a suspend leaves the function, when nothing those edges
/// lead to touches an alloca. The frame outlives such an edge, and what an alloca holds across the
/// suspend goes on along the suspend's continuations; followed to the return path that every
/// suspend shares, it made every alloca alive at one suspend clash there with every alloca alive at
/// another, so the awaiters and temporaries of successive `co_await`s never shared bytes (LLVM's
/// frame builder leaves those edges out too). None when there is nothing to cut, or when the return
/// path reads or writes an alloca (a return value kept in one): then its lifetime there counts.
fn without_exits<'a>(
    f: &Function,
    cfg: &'a Cfg,
    n: usize,
    exits: &FxHashSet<(Block, Block)>,
    src: &str,
) -> Option<Grid<'a>> {
    if exits.is_empty() {
        return None;
    }
    let roots: Vec<Block> = exits.iter().map(|&(_, to)| to).collect();
    let after = f.reachable_along(&roots, &|_| None);
    let touches_alloca = cfg.rpo.iter().filter(|&&b| after[b]).flat_map(|&b| f.blocks[b].insts.iter()).any(|&i| {
        !f.insts[i].is_debug()
            && !is_lifetime(f, i, src)
            && f.insts[i].args.iter().any(|&a| !pointer_bases(f, a).is_empty())
    });
    if touches_alloca {
        return None;
    }
    let mut cut = Grid::new(f, cfg, n);
    for (p, &b) in cfg.rpo.iter().enumerate() {
        let kept = cfg.preds(b).iter().filter(|&&q| !exits.contains(&(q, b))).filter_map(|&q| cut.pos(q)).collect();
        cut.preds[p] = kept;
    }
    Some(cut)
}

/// Sets or clears bit `k` of a row.
fn set_bit(m: &mut [u64], k: usize, on: bool) {
    if on {
        m[k / 64] |= 1 << (k % 64);
    } else {
        m[k / 64] &= !(1 << (k % 64));
    }
}

/// Bit `k` of a row.
fn bit(m: &[u64], k: usize) -> bool {
    m[k / 64] >> (k % 64) & 1 == 1
}

/// Lifetime markers on the allocas as (block position, alloca index, is_start), grouped by block.
struct Markers {
    list: Vec<(usize, usize, bool)>,
    /// Where each block position's markers start in `list` (one more entry, for the end).
    start: Vec<usize>,
}

impl Markers {
    /// The markers of block position `p`, in instruction order.
    fn in_block(&self, p: usize) -> &[(usize, usize, bool)] {
        &self.list[self.start[p]..self.start[p + 1]]
    }
}

/// Which allocas have no lifetime marker at all (alive everywhere), and the markers of the
/// reachable blocks; unreachable blocks only clear the first.
fn lifetime_markers(f: &Function, grid: &Grid<'_>, index: &FxHashMap<Value, usize>, src: &str) -> (Vec<bool>, Markers) {
    let mut always: Vec<bool> = vec![true; grid.n];
    let mut markers: Vec<(usize, usize, bool)> = Vec::new();
    for (b, i) in f.inst_iter() {
        let Some(name) = f.callee_name(i, src) else { continue };
        let start = name.starts_with("@llvm.lifetime.start");
        if !start && !name.starts_with("@llvm.lifetime.end") {
            continue;
        }
        for a in f.insts[i].call_args() {
            if let Some(&k) = index.get(a) {
                always[k] = false;
                if let Some(p) = grid.pos(b) {
                    markers.push((p, k, start));
                }
            }
        }
    }
    // Stable: each block's markers stay in instruction order.
    markers.sort_by_key(|m| m.0);
    let mut marker_start = vec![0usize; grid.nb + 1];
    for m in &markers {
        marker_start[m.0 + 1] += 1;
    }
    for k in 1..marker_start.len() {
        marker_start[k] += marker_start[k - 1];
    }
    (always, Markers { list: markers, start: marker_start })
}

/// Forward "maybe alive" dataflow: per block, the allocas alive at its end, and those alive at
/// some point of it (what comes in, plus what starts there).
fn maybe_alive(grid: &Grid<'_>, markers: &Markers) -> (Vec<u64>, Vec<u64>) {
    let words = grid.words;
    // To a fixed point, in reverse post-order. A block not yet visited counts as empty, so
    // starting from zeros reaches the same (least) fixed point.
    let mut out = grid.matrix();
    let mut seen_in = grid.matrix();
    let mut cur = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..grid.nb {
            cur.fill(0);
            for &q in &grid.preds[p] {
                for (c, x) in cur.iter_mut().zip(&out[grid.row(q)]) {
                    *c |= x;
                }
            }
            // Everything alive at some point of the block: what comes in, plus what starts here.
            let touched = &mut seen_in[grid.row(p)];
            touched.copy_from_slice(&cur);
            for &(_, k, start) in markers.in_block(p) {
                set_bit(&mut cur, k, start);
                if start {
                    set_bit(touched, k, true);
                }
            }
            let o = &mut out[grid.row(p)];
            if *o != *cur {
                o.copy_from_slice(&cur);
                changed = true;
            }
        }
    }
    (out, seen_in)
}

/// What each block does to each alloca, lifetime markers and debug records aside.
struct BlockUses {
    /// Used before any start in the block.
    uses_up: Vec<u64>,
    /// Started in the block.
    starts: Vec<u64>,
    /// Used anywhere in the block.
    used_in: Vec<u64>,
}

impl BlockUses {
    /// Scans every reachable block once.
    fn scan(f: &Function, grid: &Grid<'_>, index: &FxHashMap<Value, usize>, src: &str) -> Self {
        let mut uses_up = grid.matrix();
        let mut starts = grid.matrix();
        let mut used_in = grid.matrix();
        for (p, &b) in grid.cfg.rpo.iter().enumerate() {
            let r = grid.row(p);
            let (up, st, any) = (&mut uses_up[r.clone()], &mut starts[r.clone()], &mut used_in[r]);
            for &i in &f.blocks[b].insts {
                let name = f.callee_name(i, src).unwrap_or("");
                let is_start = name.starts_with("@llvm.lifetime.start");
                let is_marker = is_start || name.starts_with("@llvm.lifetime.end");
                for a in &f.insts[i].args {
                    let Some(&k) = index.get(a) else { continue };
                    if is_start {
                        set_bit(st, k, true);
                    } else if !is_marker && !f.insts[i].is_debug() {
                        set_bit(any, k, true);
                        if !bit(st, k) {
                            set_bit(up, k, true);
                        }
                    }
                }
            }
        }
        BlockUses { uses_up, starts, used_in }
    }
}

/// Backward dataflow: per block, the allocas a read can follow at its entry without a new
/// lifetime.start first.
fn read_ahead(grid: &Grid<'_>, uses: &BlockUses) -> Vec<u64> {
    // An alloca holds something worth keeping only where a read (any use but a lifetime marker)
    // can follow without a new lifetime.start first. Where neither is needed, two allocas may share
    // bytes even if both are "maybe alive", as on destroy paths.
    let words = grid.words;
    let mut live_in = grid.matrix();
    let mut out_b = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        for p in (0..grid.nb).rev() {
            out_b.fill(0);
            for &q in &grid.succs[p] {
                for (o, x) in out_b.iter_mut().zip(&live_in[grid.row(q)]) {
                    *o |= x;
                }
            }
            let r = grid.row(p);
            let (st, up) = (&uses.starts[r.clone()], &uses.uses_up[r.clone()]);
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
    live_in
}

/// The allocas whose address escapes, as one row of bits.
fn escaped_bits(f: &Function, allocas: &[Value], src: &str, words: usize) -> Vec<u64> {
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
            set_bit(&mut escaped_bits, k, true);
        }
    }
    escaped_bits
}

/// Keeps in `seen_in` only the allocas each block needs.
fn trim_to_needed(grid: &Grid<'_>, seen_in: &mut [u64], used_in: &[u64], live_in: &[u64], escaped_bits: &[u64]) {
    // Only after both fixed points: an alloca counts in b where it is maybe alive and needed (live
    // in, used in b, or live out of b).
    let mut needed = vec![0u64; grid.words];
    for (p, succs) in grid.succs.iter().enumerate() {
        let r = grid.row(p);
        needed.copy_from_slice(&used_in[r.clone()]);
        for (x, l) in needed.iter_mut().zip(&live_in[r.clone()]) {
            *x |= l;
        }
        for &q in succs {
            for (x, l) in needed.iter_mut().zip(&live_in[grid.row(q)]) {
                *x |= l;
            }
        }
        // Only allocas whose address never escapes may be trimmed to their direct uses: an escaped
        // address can be read through a copy anywhere in the lifetime.
        for (x, e) in needed.iter_mut().zip(escaped_bits) {
            *x |= e;
        }
        for (x, nd) in seen_in[r].iter_mut().zip(&needed) {
            *x &= nd;
        }
    }
}

/// Per alloca, the allocas needed in some block where it is needed too.
fn clash_rows(seen_in: &[u64], n: usize, words: usize) -> Vec<Vec<u64>> {
    let mut clash = vec![vec![0u64; words]; n];
    for touched in seen_in.chunks_exact(words) {
        for (i, row) in clash.iter_mut().enumerate() {
            if bit(touched, i) {
                for (c, t) in row.iter_mut().zip(touched) {
                    *c |= t;
                }
            }
        }
    }
    clash
}

/// Per alloca, the positions in `suspend_blocks` of the blocks it may be alive at the end of.
fn alive_across(grid: &Grid<'_>, always: &[bool], alive_out: &[u64], suspend_blocks: &[Block]) -> Vec<Vec<usize>> {
    (0..grid.n)
        .map(|k| {
            (0..suspend_blocks.len())
                .filter(|&j| always[k] || grid.pos(suspend_blocks[j]).is_some_and(|p| bit(&alive_out[grid.row(p)], k)))
                .collect()
        })
        .collect()
}

/// `seen_in` by block.
fn touched_by_block(grid: &Grid<'_>, seen_in: &[u64]) -> FxHashMap<Block, Vec<u64>> {
    let mut touched: FxHashMap<Block, Vec<u64>> = FxHashMap::default();
    touched.reserve(grid.nb);
    for (&b, t) in grid.cfg.rpo.iter().zip(seen_in.chunks_exact(grid.words)) {
        touched.insert(b, t.to_vec());
    }
    touched
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
                // A catch object's slot is written as its handler starts.
                Opcode::CatchPad => stores.push(u),
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
            work.extend(cfg.preds(b).iter().copied().filter(|p| !kill_blocks.contains(p)));
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
                // The catch object's slot (Windows EH): the runtime writes the exception there as the
                // handler starts, and nothing keeps the address past the handler.
                Opcode::CatchPad => {}
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
