//! Rematerialisation: which values live across a suspend are cheaper to compute again after each
//! resume than to keep in a frame slot.

use llir::analysis::liveness::Liveness;
use llir::ir::{Block, Function, Inst, Opcode, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// An instruction without side effects that costs about one machine instruction: what
/// rematerialisation may repeat.
pub fn is_cheap(f: &Function, i: Inst) -> bool {
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
pub fn rematerialisable(
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

/// For the report: each recomputed value's IR name, or its opcode when it has none.
pub fn names(f: &Function, remat: &[Value]) -> Vec<String> {
    remat
        .iter()
        .map(|&v| match f.values[v].name.as_deref().filter(|n| !llir::print::is_numbered(n)) {
            Some(n) => format!("%{n}"),
            None => f.value_inst(v).map_or_else(String::new, |i| format!("a {:?}", f.insts[i].op).to_lowercase()),
        })
        .collect()
}
