//! Analyses over one function. Each is computed from a borrowed `Function` and is invalid once the
//! function's CFG changes; recompute rather than patch.

pub mod cfg;
pub mod dom;
pub mod executable;
pub mod funclet;
pub mod liveness;
pub mod uses;

use crate::ir::Block;
use cranelift_entity::EntityRef;

/// A list of blocks for every block, all in one array: list `b` is
/// `items[start[b]..start[b + 1]]`. A `SmallVec` per block took 24 bytes a block.
pub(crate) struct BlockLists {
    start: Vec<u32>,
    items: Vec<Block>,
}

impl BlockLists {
    /// Lists for blocks `0..n` from `(block, item)` pairs, each list in the pairs' order. `pairs` is
    /// walked twice: once to count, once to place.
    pub(crate) fn build<I: Iterator<Item = (Block, Block)>>(n: usize, pairs: impl Fn() -> I) -> BlockLists {
        let mut start = vec![0u32; n + 1];
        for (b, _) in pairs() {
            if let Some(c) = start.get_mut(b.index() + 1) {
                *c += 1;
            }
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut fill = start.clone();
        let mut items = vec![Block::new(0); start.last().copied().unwrap_or(0) as usize];
        for (b, x) in pairs() {
            if let Some(at) = fill.get_mut(b.index()) {
                if let Some(slot) = items.get_mut(*at as usize) {
                    *slot = x;
                }
                *at += 1;
            }
        }
        BlockLists { start, items }
    }

    /// The list of `b`; empty for a block past those it was built for.
    pub(crate) fn of(&self, b: Block) -> &[Block] {
        let i = b.index();
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&e)) => self.items.get(a as usize..e as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_lists_keep_each_list_in_the_order_of_the_pairs() {
        let b = Block::new;
        let pairs = [(b(2), b(7)), (b(0), b(1)), (b(2), b(5)), (b(2), b(7))];
        let lists = BlockLists::build(4, || pairs.iter().copied());
        assert_eq!(lists.of(b(0)), &[b(1)]);
        assert!(lists.of(b(1)).is_empty());
        // Repeats stay: an edge taken twice is two predecessors.
        assert_eq!(lists.of(b(2)), &[b(7), b(5), b(7)]);
        assert!(lists.of(b(3)).is_empty());
        // A block made after the lists were built has none.
        assert!(lists.of(b(9)).is_empty());
    }
}
