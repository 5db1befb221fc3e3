//! SSA liveness: live-in and live-out sets per block, by path exploration from each use back to the
//! definition. The cost is proportional to the total size of the sets, not to blocks × values.
//! Debug uses (`llvm.dbg.*`, `#dbg_*`) do not make a value live. Constants are never live.

use super::cfg::Cfg;
use crate::ir::{Block, Function, Opcode, Value, ValueKind};
use cranelift_entity::{EntityRef, SecondaryMap};
use smallvec::SmallVec;

/// A block's live values. Most blocks have a handful, kept inline: a function with many blocks
/// would otherwise make two allocations per block.
pub type LiveSet = SmallVec<[Value; 4]>;

/// Which values are live on entry to and exit from each block.
pub struct Liveness {
    /// Values live on entry to each block (phis' incoming values are live out of the predecessor,
    /// not into the phi's block).
    pub live_in: SecondaryMap<Block, LiveSet>,
    /// Values live on exit from each block.
    pub live_out: SecondaryMap<Block, LiveSet>,
}

impl Liveness {
    /// The live sets of `f`, whose graph is `cfg`.
    pub fn compute(f: &Function, cfg: &Cfg) -> Liveness {
        Self::compute_ignoring(f, cfg, |_| false)
    }

    /// Like `compute`, but uses by instructions for which `ignore` holds do not count (a pass that is
    /// about to remove or rewrite them says so).
    pub fn compute_ignoring(f: &Function, cfg: &Cfg, ignore: impl Fn(crate::ir::Inst) -> bool) -> Liveness {
        let nblocks = f.blocks.len();
        let mut live_in: SecondaryMap<Block, LiveSet> = SecondaryMap::with_capacity(nblocks);
        live_in.resize(nblocks);
        let mut live_out: SecondaryMap<Block, LiveSet> = SecondaryMap::with_capacity(nblocks);
        live_out.resize(nblocks);
        // Stamps avoid clearing per-value marks: a block is marked for value v when its stamp is v+1.
        let mut in_mark: SecondaryMap<Block, u32> = SecondaryMap::with_capacity(nblocks);
        in_mark.resize(nblocks);
        let mut out_mark: SecondaryMap<Block, u32> = SecondaryMap::with_capacity(nblocks);
        out_mark.resize(nblocks);
        let entry = f.entry();
        let def_block = |v: Value| -> Option<Block> {
            match f.values[v].kind {
                ValueKind::Param(_) => entry,
                ValueKind::Inst(i) => f.insts[i].block,
                _ => None,
            }
        };
        let (start, uses) = uses_by_value(f, cfg, &ignore);
        let mut work: Vec<Block> = Vec::new();
        for (k, w) in start.windows(2).enumerate() {
            let us = uses.get(w[0] as usize..w[1] as usize).unwrap_or(&[]);
            if us.is_empty() {
                continue;
            }
            let v = Value::new(k);
            let Some(db) = def_block(v) else { continue };
            let stamp = v.as_u32() + 1;
            for &(ub, at_end) in us {
                if at_end {
                    if out_mark[ub] != stamp {
                        out_mark[ub] = stamp;
                        live_out[ub].push(v);
                    }
                    if ub == db {
                        continue;
                    }
                }
                if ub == db || in_mark[ub] == stamp {
                    continue;
                }
                in_mark[ub] = stamp;
                live_in[ub].push(v);
                work.push(ub);
                while let Some(b) = work.pop() {
                    for &p in cfg.preds(b) {
                        if out_mark[p] != stamp {
                            out_mark[p] = stamp;
                            live_out[p].push(v);
                        }
                        if p != db && in_mark[p] != stamp {
                            in_mark[p] = stamp;
                            live_in[p].push(v);
                            work.push(p);
                        }
                    }
                }
            }
        }
        Liveness { live_in, live_out }
    }

    /// True when `v` is live on entry to `b`.
    pub fn is_live_in(&self, b: Block, v: Value) -> bool {
        self.live_in[b].contains(&v)
    }

    /// True when `v` is live on exit from `b`.
    pub fn is_live_out(&self, b: Block, v: Value) -> bool {
        self.live_out[b].contains(&v)
    }
}

/// Uses grouped by value (so each value is explored once with one stamp), in instruction order
/// within a value: counted in one walk over the instructions and placed in a second, into one flat
/// list, not a vector per value nor a list of all uses to sort. Value k's uses are
/// `uses[start[k]..start[k + 1]]`, each its block (a phi's: the incoming block) and whether it is
/// at the block's end (a phi's).
fn uses_by_value(f: &Function, cfg: &Cfg, ignore: &impl Fn(crate::ir::Inst) -> bool) -> (Vec<u32>, Vec<(Block, bool)>) {
    let each_use = |visit: &mut dyn FnMut(Value, Block, bool)| {
        for (b, i) in f.inst_iter() {
            let d = &f.insts[i];
            if d.is_debug() || !cfg.is_reachable(b) || ignore(i) {
                continue;
            }
            if d.op == Opcode::Phi {
                // A phi use is a use at the end of the incoming block.
                for (&v, &p) in d.args.iter().zip(&d.blocks) {
                    visit(v, p, true);
                }
            } else {
                for &v in &d.args {
                    visit(v, b, false);
                }
            }
        }
    };
    let nvalues = f.values.len();
    let mut start = vec![0u32; nvalues + 1];
    each_use(&mut |v, _, _| {
        if let Some(c) = start.get_mut(v.index() + 1) {
            *c += 1;
        }
    });
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let mut fill = start.clone();
    let total = start.last().copied().unwrap_or(0) as usize;
    let mut uses: Vec<(Block, bool)> = vec![(Block::new(0), false); total];
    each_use(&mut |v, b, at_end| {
        if let Some(slot) = fill.get_mut(v.index()) {
            if let Some(u) = uses.get_mut(*slot as usize) {
                *u = (b, at_end);
            }
            *slot += 1;
        }
    });
    (start, uses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::Module;

    #[test]
    fn loop_carried_and_phi_uses() {
        let src = "define i32 @f(i32 %n) {\nentry:\n  br label %loop\nloop:\n  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]\n  %i2 = add i32 %i, 1\n  %c = icmp slt i32 %i2, %n\n  br i1 %c, label %loop, label %exit\nexit:\n  ret i32 %i2\n}\n";
        let mut m = Module::parse(src.to_string()).map_err(|e| e.0).expect("parses");
        let f = m.parse_function(0).expect("function");
        let cfg = Cfg::compute(&f);
        let live = Liveness::compute(&f, &cfg);
        let [entry, lp, exit] = [f.layout[0], f.layout[1], f.layout[2]];
        let n = f.params[0];
        let i2 = f.blocks[lp].insts.get(1).and_then(|&i| f.insts[i].result).expect("i2");
        assert!(live.is_live_in(lp, n));
        assert!(live.is_live_out(entry, n));
        assert!(live.is_live_out(lp, i2), "used by the phi on the back edge and in exit");
        assert!(live.is_live_in(exit, i2));
        assert!(!live.is_live_in(lp, i2), "defined in the loop block itself");
        assert!(!live.is_live_in(exit, n));
    }
}
