//! Predecessors, successors and reverse post-order.

use crate::ir::{Block, Function};
use cranelift_entity::SecondaryMap;
use smallvec::SmallVec;

pub struct Cfg {
    /// Predecessor blocks, one entry per edge (a block reached twice from one switch appears twice).
    pub preds: SecondaryMap<Block, SmallVec<[Block; 2]>>,
    /// Reachable blocks in reverse post-order from the entry.
    pub rpo: Vec<Block>,
    /// Position in `rpo`, or `u32::MAX` for unreachable blocks.
    pub rpo_index: SecondaryMap<Block, u32>,
}

impl Cfg {
    pub fn compute(f: &Function) -> Cfg {
        let mut preds: SecondaryMap<Block, SmallVec<[Block; 2]>> = SecondaryMap::new();
        for &b in &f.layout {
            for &s in f.successors(b) {
                preds[s].push(b);
            }
        }
        let mut rpo_index = SecondaryMap::with_default(u32::MAX);
        let mut post = Vec::with_capacity(f.layout.len());
        if let Some(entry) = f.entry() {
            // Iterative DFS; `visited` doubles as the on-stack marker.
            let mut visited: SecondaryMap<Block, bool> = SecondaryMap::new();
            let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
            visited[entry] = true;
            while let Some(top) = stack.last_mut() {
                let (b, i) = *top;
                let succs = f.successors(b);
                if let Some(&s) = succs.get(i) {
                    top.1 += 1;
                    if !visited[s] {
                        visited[s] = true;
                        stack.push((s, 0));
                    }
                } else {
                    post.push(b);
                    stack.pop();
                }
            }
        }
        post.reverse();
        for (i, &b) in post.iter().enumerate() {
            rpo_index[b] = i as u32;
        }
        Cfg { preds, rpo: post, rpo_index }
    }

    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_index[b] != u32::MAX
    }
}
