//! Dominator tree (Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order), with
//! pre/post numbers on the tree so that `dominates` is O(1), and dominance frontiers.

use super::cfg::Cfg;
use crate::ir::{Block, Function};
use cranelift_entity::SecondaryMap;
use smallvec::SmallVec;

pub struct DomTree {
    idom: SecondaryMap<Block, Option<Block>>,
    pre: SecondaryMap<Block, u32>,
    post: SecondaryMap<Block, u32>,
    pub children: SecondaryMap<Block, SmallVec<[Block; 2]>>,
}

impl DomTree {
    pub fn compute(f: &Function, cfg: &Cfg) -> DomTree {
        let mut idom: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
        let Some(entry) = cfg.rpo.first().copied() else {
            return DomTree {
                idom,
                pre: SecondaryMap::new(),
                post: SecondaryMap::new(),
                children: SecondaryMap::new(),
            };
        };
        idom[entry] = Some(entry);
        let intersect = |idom: &SecondaryMap<Block, Option<Block>>, mut a: Block, mut b: Block| -> Block {
            while a != b {
                while cfg.rpo_index[a] > cfg.rpo_index[b] {
                    a = idom[a].unwrap_or(entry);
                }
                while cfg.rpo_index[b] > cfg.rpo_index[a] {
                    b = idom[b].unwrap_or(entry);
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in cfg.rpo.iter().skip(1) {
                let mut new: Option<Block> = None;
                for &p in &cfg.preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(n) => intersect(&idom, p, n),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        let mut children: SecondaryMap<Block, SmallVec<[Block; 2]>> = SecondaryMap::new();
        for &b in cfg.rpo.iter().skip(1) {
            if let Some(d) = idom[b] {
                children[d].push(b);
            }
        }
        // Pre/post numbering of the tree, iteratively.
        let mut pre = SecondaryMap::with_default(u32::MAX);
        let mut post = SecondaryMap::with_default(0);
        let mut counter = 0u32;
        let mut stack = vec![(entry, 0usize)];
        pre[entry] = counter;
        counter += 1;
        while let Some(top) = stack.last_mut() {
            let (b, i) = *top;
            if let Some(&c) = children[b].get(i) {
                top.1 += 1;
                pre[c] = counter;
                counter += 1;
                stack.push((c, 0));
            } else {
                post[b] = counter;
                counter += 1;
                stack.pop();
            }
        }
        let _ = f;
        DomTree { idom, pre, post, children }
    }

    /// The immediate dominator; `None` for the entry and for unreachable blocks.
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom[b].filter(|&d| d != b)
    }

    pub fn is_reachable(&self, b: Block) -> bool {
        self.pre[b] != u32::MAX
    }

    /// Does `a` dominate `b`? Every block dominates itself; unreachable blocks dominate nothing and
    /// are dominated by everything.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if !self.is_reachable(b) {
            return true;
        }
        if !self.is_reachable(a) {
            return false;
        }
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }

    /// Dominance frontiers of every reachable block.
    pub fn frontiers(&self, cfg: &Cfg) -> SecondaryMap<Block, SmallVec<[Block; 2]>> {
        let mut df: SecondaryMap<Block, SmallVec<[Block; 2]>> = SecondaryMap::new();
        for &b in &cfg.rpo {
            let preds = &cfg.preds[b];
            if preds.len() < 2 {
                continue;
            }
            let Some(stop) = self.idom(b) else { continue };
            for &p in preds {
                if !self.is_reachable(p) {
                    continue;
                }
                let mut runner = p;
                while runner != stop {
                    if df[runner].last() != Some(&b) {
                        df[runner].push(b);
                    }
                    match self.idom(runner) {
                        Some(d) => runner = d,
                        None => break,
                    }
                }
            }
        }
        df
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::Module;

    #[test]
    fn diamond_dominance_and_frontiers() {
        let src = "define void @f(i1 %c) {\na:\n  br i1 %c, label %b, label %c\nb:\n  br label %d\nc:\n  br label %d\nd:\n  ret void\n}\n";
        let mut m = Module::parse(src.to_string()).map_err(|e| e.0).expect("parses");
        let f = m.parse_function(0).expect("function");
        let cfg = Cfg::compute(&f);
        let dom = DomTree::compute(&f, &cfg);
        let [a, b, c, d] = [f.layout[0], f.layout[1], f.layout[2], f.layout[3]];
        assert!(dom.dominates(a, d));
        assert!(!dom.dominates(b, d));
        assert_eq!(dom.idom(d), Some(a));
        let df = dom.frontiers(&cfg);
        assert_eq!(df[b].as_slice(), &[d]);
        assert_eq!(df[c].as_slice(), &[d]);
        assert!(df[a].is_empty());
    }
}
