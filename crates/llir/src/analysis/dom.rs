//! Dominator tree (semi-NCA: Lengauer and Tarjan's semidominators, then each immediate dominator as
//! a nearest common ancestor), with pre/post numbers on the tree so that `dominates` is O(1), and
//! dominance frontiers.

use super::BlockLists;
use super::cfg::Cfg;
use crate::ir::{Block, Function};
use cranelift_entity::{EntityRef, SecondaryMap};
use smallvec::SmallVec;

/// The dominator tree of a function's reachable blocks.
pub struct DomTree {
    idom: SecondaryMap<Block, Option<Block>>,
    pre: SecondaryMap<Block, u32>,
    post: SecondaryMap<Block, u32>,
}

impl DomTree {
    /// The tree of `f`, from its graph `cfg`.
    pub fn compute(f: &Function, cfg: &Cfg) -> DomTree {
        let nblocks = f.blocks.len();
        let mut idom: SecondaryMap<Block, Option<Block>> = SecondaryMap::with_capacity(nblocks);
        idom.resize(nblocks);
        let Some(entry) = cfg.rpo.first().copied() else {
            return DomTree { idom, pre: SecondaryMap::new(), post: SecondaryMap::new() };
        };
        for (b, d) in cfg.preorder.iter().zip(semi_nca(cfg, nblocks)) {
            idom[*b] = cfg.preorder.get(d as usize).copied();
        }
        idom[entry] = Some(entry);
        // The tree's children, in reverse post-order; only the numbering needs them.
        let children = BlockLists::build(nblocks, || cfg.rpo.iter().skip(1).filter_map(|&b| idom[b].map(|d| (d, b))));
        // Pre/post numbering of the tree, iteratively.
        let mut pre = SecondaryMap::with_default(u32::MAX);
        pre.resize(nblocks);
        let mut post = SecondaryMap::with_default(0);
        post.resize(nblocks);
        let mut counter = 0u32;
        let mut stack = vec![(entry, 0usize)];
        pre[entry] = counter;
        counter += 1;
        while let Some(top) = stack.last_mut() {
            let (b, i) = *top;
            if let Some(&c) = children.of(b).get(i) {
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
        DomTree { idom, pre, post }
    }

    /// The immediate dominator; `None` for the entry and for unreachable blocks.
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom[b].filter(|&d| d != b)
    }

    /// True when `b` is in the tree (the entry reaches it).
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
            let preds = cfg.preds(b);
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

/// Immediate dominators by the semi-NCA algorithm over `cfg`'s depth-first search tree: for each
/// block of `cfg.preorder`, the pre-order position of its immediate dominator (the entry's is 0).
/// Near-linear: the iterative algorithm walks up the tree once per predecessor per pass, which costs
/// suspends × depth on a long chain of blocks that all branch to one cleanup block.
fn semi_nca(cfg: &Cfg, nblocks: usize) -> Vec<u32> {
    let n = cfg.preorder.len();
    let mut num = vec![u32::MAX; nblocks];
    for (i, b) in cfg.preorder.iter().enumerate() {
        if let Some(x) = num.get_mut(b.index()) {
            *x = i as u32;
        }
    }
    // `ancestor` starts as the tree parent and is compressed; `idom` keeps the parent.
    let mut ancestor: Vec<u32> = cfg.dfs_parent.clone();
    let mut idom: Vec<u32> = cfg.dfs_parent.clone();
    let mut semi: Vec<u32> = (0..n as u32).collect();
    let mut label: Vec<u32> = (0..n as u32).collect();
    let mut stack: Vec<u32> = Vec::new();
    for w in (1..n).rev() {
        let mut s = idom[w];
        for p in cfg.preds(cfg.preorder[w]) {
            let v = num.get(p.index()).copied().unwrap_or(u32::MAX);
            if v == u32::MAX {
                continue;
            }
            // Nodes numbered above `w` are linked into the forest; eval finds the smallest
            // semidominator on v's path to its forest root.
            let u = eval(v, w as u32 + 1, &mut ancestor, &mut label, &semi, &mut stack);
            s = s.min(semi[u as usize]);
        }
        semi[w] = s;
    }
    for w in 1..n {
        let sd = semi[w];
        let mut c = idom[w];
        while c > sd {
            c = idom[c as usize];
        }
        idom[w] = c;
    }
    idom
}

/// The label of smallest semidominator on the forest path from `v` up to (not including) its root,
/// compressing the path. A node is in the forest when its number is at least `linked`.
fn eval(v: u32, linked: u32, ancestor: &mut [u32], label: &mut [u32], semi: &[u32], stack: &mut Vec<u32>) -> u32 {
    if v < linked || ancestor[v as usize] < linked {
        return label[v as usize];
    }
    let mut x = v;
    while ancestor[x as usize] >= linked {
        stack.push(x);
        x = ancestor[x as usize];
    }
    // x is the last node whose ancestor is the root; compress from the top down.
    let mut p = x;
    while let Some(y) = stack.pop() {
        let (yu, pu) = (y as usize, p as usize);
        ancestor[yu] = ancestor[pu];
        if semi[label[pu] as usize] < semi[label[yu] as usize] {
            label[yu] = label[pu];
        }
        p = y;
    }
    label[v as usize]
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
