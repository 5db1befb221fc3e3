//! Frame layout from data alone: given each field's size and alignment, which fields may share
//! bytes, and the byte ranges already taken, place every field. Knows nothing of IR, so every
//! lowering (switched-resume, kxs, stackless) lays out its frame with the same code, and the rules
//! are tested here on plain numbers.

/// Beyond this many fields the symmetric bit matrix (n² bits) is not worth it: nothing shares.
const MAX_SHARING_FIELDS: usize = 8192;

/// A symmetric clash relation over the fields of one frame.
pub struct Clashes {
    n: usize,
    words: usize,
    bits: Vec<u64>,
    /// Every pair clashes (too many fields to track).
    all: bool,
}

impl Clashes {
    pub fn new(n: usize) -> Clashes {
        if n > MAX_SHARING_FIELDS {
            return Clashes { n, words: 0, bits: Vec::new(), all: true };
        }
        let words = n.div_ceil(64);
        Clashes { n, words, bits: vec![0; n * words], all: false }
    }

    pub fn set(&mut self, i: usize, j: usize) {
        if self.all || i >= self.n || j >= self.n || i == j {
            return;
        }
        self.bits[i * self.words + j / 64] |= 1 << (j % 64);
        self.bits[j * self.words + i / 64] |= 1 << (i % 64);
    }

    pub fn set_all(&mut self, i: usize) {
        for j in 0..self.n {
            self.set(i, j);
        }
    }

    /// Does every pair clash (too many fields to track)?
    pub fn all(&self) -> bool {
        self.all
    }

    pub fn get(&self, i: usize, j: usize) -> bool {
        self.all || (i != j && self.bits.get(i * self.words + j / 64).is_some_and(|w| (w >> (j % 64)) & 1 == 1))
    }
}

/// Gives every item (size, align) the lowest offset at or after `base`, aligned, whose bytes no
/// clashing item and no `fixed` range (offset, size) uses. Items are placed by decreasing
/// alignment, then size, which leaves no padding between items that cannot share. Returns the
/// offsets, in the items' order, and the end of the last byte used.
pub fn pack(items: &[(u64, u64)], clashes: &Clashes, base: u64, fixed: &[(u64, u64)]) -> (Vec<u64>, u64) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| items[b].1.cmp(&items[a].1).then(items[b].0.cmp(&items[a].0)).then(a.cmp(&b)));
    let mut offsets = vec![0u64; items.len()];
    let mut placed: Vec<usize> = Vec::new();
    let mut end = base;
    let mut busy: Vec<(u64, u64)> = Vec::new();
    for k in order {
        busy.clear();
        busy.extend(fixed.iter().map(|&(o, s)| (o, o + s)));
        busy.extend(placed.iter().filter(|&&j| clashes.get(k, j)).map(|&j| (offsets[j], offsets[j] + items[j].0)));
        busy.sort_unstable();
        let (size, align) = (items[k].0, items[k].1.max(1));
        let mut off = base.div_ceil(align) * align;
        for &(o, e) in &busy {
            if o >= off + size.max(1) {
                break;
            }
            if e > off {
                off = e.div_ceil(align) * align;
            }
        }
        offsets[k] = off;
        end = end.max(off + size);
        placed.push(k);
    }
    (offsets, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_shares_only_between_fields_that_do_not_clash() {
        let items = [(8, 8), (8, 8), (8, 8), (1, 1)];
        let mut c = Clashes::new(4);
        c.set(0, 1);
        c.set_all(3);
        let (offs, end) = pack(&items, &c, 16, &[(0, 16)]);
        assert_eq!(offs[0], 16);
        assert_eq!(offs[1], 24, "clashes with field 0");
        assert_eq!(offs[2], 16, "free to share with field 0");
        assert_eq!(offs[3], 32, "the index shares with nothing");
        assert_eq!(end, 33);
    }

    #[test]
    fn packing_fills_the_gap_before_a_fixed_range() {
        // A 32-aligned promise at 32 leaves 16..32 free for small fields.
        let items = [(8, 8), (4, 4), (16, 16)];
        let mut c = Clashes::new(3);
        for i in 0..3 {
            c.set_all(i);
        }
        let (offs, end) = pack(&items, &c, 16, &[(0, 16), (32, 64)]);
        assert_eq!(offs[2], 16);
        assert_eq!(offs[0], 96);
        assert_eq!(offs[1], 104);
        assert_eq!(end, 108);
    }

    #[test]
    fn too_many_fields_share_nothing() {
        let n = 9000;
        let c = Clashes::new(n);
        assert!(c.get(0, 1) && c.get(17, 8999));
        let items = vec![(4u64, 4u64); 3];
        let (offs, end) = pack(&items, &Clashes::new(3), 0, &[]);
        assert_eq!(offs, vec![0, 0, 0], "no clashes: all share");
        assert_eq!(end, 4);
    }

    #[test]
    fn smaller_items_fill_the_gap_an_over_aligned_one_leaves() {
        let items = [(1, 1), (32, 32), (2, 2)];
        let mut c = Clashes::new(3);
        c.set_all(0);
        c.set_all(1);
        let (offs, end) = pack(&items, &c, 8, &[]);
        assert_eq!(offs[1], 32, "aligned up from the base");
        assert_eq!(offs[2], 8, "in the gap below it");
        assert_eq!(offs[0], 10, "after the other small one, which it clashes with");
        assert_eq!(end, 64);
    }
}
