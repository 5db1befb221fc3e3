//! Predecessors, successors and reverse post-order.

use super::BlockLists;
use crate::ir::{Block, Function};
use cranelift_entity::{EntityRef, SecondaryMap};

/// A function's control-flow graph: predecessors of each block, and the blocks the entry reaches
/// in reverse post-order.
pub struct Cfg {
    /// Predecessor blocks, one entry per edge (a block reached twice from one switch appears twice).
    preds: BlockLists,
    /// Reachable blocks in reverse post-order from the entry.
    pub rpo: Vec<Block>,
    /// Position in `rpo`, or `u32::MAX` for unreachable blocks.
    pub rpo_index: SecondaryMap<Block, u32>,
    /// Reachable blocks in the depth-first search's pre-order (the order `rpo` was found in).
    pub(crate) preorder: Vec<Block>,
    /// For each block of `preorder`, the position in `preorder` of its parent in the search tree (the
    /// entry's is 0).
    pub(crate) dfs_parent: Vec<u32>,
}

/// Successor lists of every laid-out block, read once: each read goes through the block's last
/// instruction, which is a cache miss, and the passes over the CFG below need them several times.
struct Succs {
    /// Per block index: start and end in `list`, or `None` when the block is not laid out.
    range: Vec<Option<(u32, u32)>>,
    list: Vec<Block>,
}

impl Succs {
    fn gather(f: &Function) -> Succs {
        let mut range = vec![None; f.blocks.len()];
        let mut list = Vec::with_capacity(f.layout.len() * 2);
        for &b in &f.layout {
            let start = list.len() as u32;
            list.extend_from_slice(f.successors(b));
            if let Some(r) = range.get_mut(b.index()) {
                *r = Some((start, list.len() as u32));
            }
        }
        Succs { range, list }
    }

    /// The successors of `b`; a block outside the layout (a search may still reach one) is read from
    /// the function.
    fn of<'a>(&'a self, f: &'a Function, b: Block) -> &'a [Block] {
        match self.range.get(b.index()).copied().flatten() {
            Some((s, e)) => self.list.get(s as usize..e as usize).unwrap_or(&[]),
            None => f.successors(b),
        }
    }
}

impl Cfg {
    /// The predecessors of `b`, one per edge, in layout order; none for a block made after the CFG
    /// was computed.
    pub fn preds(&self, b: Block) -> &[Block] {
        self.preds.of(b)
    }

    /// The graph of `f` as it is now; recompute after editing branches.
    pub fn compute(f: &Function) -> Cfg {
        let n = f.blocks.len();
        let succs = Succs::gather(f);
        // Predecessors in layout order.
        let preds = BlockLists::build(n, || f.layout.iter().flat_map(|&b| succs.of(f, b).iter().map(move |&s| (s, b))));
        let mut rpo_index = SecondaryMap::with_default(u32::MAX);
        rpo_index.resize(n);
        let mut post = Vec::with_capacity(f.layout.len());
        let mut preorder = Vec::with_capacity(f.layout.len());
        let mut dfs_parent = Vec::with_capacity(f.layout.len());
        if let Some(entry) = f.entry() {
            // Iterative DFS; `visited` doubles as the on-stack marker. The stack keeps each block's
            // pre-order position so that children can name their parent.
            let mut visited: SecondaryMap<Block, bool> = SecondaryMap::with_capacity(n);
            visited.resize(n);
            let mut stack: Vec<(Block, u32, u32)> = vec![(entry, 0, 0)];
            visited[entry] = true;
            preorder.push(entry);
            dfs_parent.push(0);
            while let Some(top) = stack.last_mut() {
                let (b, i, me) = *top;
                if let Some(&s) = succs.of(f, b).get(i as usize) {
                    top.1 += 1;
                    if !visited[s] {
                        visited[s] = true;
                        let pos = preorder.len() as u32;
                        preorder.push(s);
                        dfs_parent.push(me);
                        stack.push((s, 0, pos));
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
        Cfg { preds, rpo: post, rpo_index, preorder, dfs_parent }
    }

    /// True when a path from the entry reaches `b`.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_index[b] != u32::MAX
    }
}
