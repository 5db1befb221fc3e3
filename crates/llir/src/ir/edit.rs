//! The mutation API: creating blocks, instructions and constants; replacing uses; splitting blocks and
//! edges; cloning a body through a value map; deleting unreachable blocks. Every operation keeps phis
//! consistent with the CFG it leaves behind.

use super::{Block, BlockData, ConstPiece, Function, Inst, InstData, Opcode, Piece, Text, Value, ValueData, ValueKind};
use crate::types::{Type, TypeTable};
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A label based on `base` not in `taken`, which it then joins.
pub fn fresh_label(taken: &mut rustc_hash::FxHashSet<Box<str>>, base: &str) -> String {
    let name = if taken.contains(base) {
        (1..).map(|k| format!("{base}{k}")).find(|n| !taken.contains(n.as_str())).unwrap_or_default()
    } else {
        base.to_string()
    };
    taken.insert(name.as_str().into());
    name
}

/// `base` with `n` appended, inside the quotes of a quoted name (`x` → `x1`, `"a b"` → `"a b1"`).
fn numbered_name(base: &str, n: u32) -> super::Name {
    match base.strip_prefix('"').and_then(|b| b.strip_suffix('"')) {
        Some(inner) => format!("\"{inner}{n}\"").into(),
        None => format!("{base}{n}").into(),
    }
}

/// Where each block and instruction of a cloned body went.
pub struct CloneMaps {
    /// Each original block's copy; `None` for a block not copied.
    pub blocks: SecondaryMap<Block, Option<Block>>,
    /// Each original instruction's copy; `None` for one not copied.
    pub insts: SecondaryMap<Inst, Option<Inst>>,
}

/// Builds a template from text and operand markers: `t("br label ")`, `Piece::Block(0)`.
pub fn t(s: &str) -> Piece {
    Piece::Text(Text::own(s))
}

impl Function {
    // ---- Values. ----

    /// A constant operand spelled `text` (`0`, `null`, `@f`, `true`).
    pub fn const_value(&mut self, ty: Type, text: &str) -> Value {
        self.values.push(ValueData { ty, kind: ValueKind::Const(Text::own(text)), name: None })
    }

    /// `blockaddress(@this, %b)`: a constant that follows `b` through renaming, renumbering and
    /// cloning, and names whatever function it is printed in.
    pub fn block_address(&mut self, ty: Type, b: Block) -> Value {
        let pieces = vec![
            ConstPiece::Text(Text::own("blockaddress(")),
            ConstPiece::Func,
            ConstPiece::Text(Text::own(", ")),
            ConstPiece::Block(b),
            ConstPiece::Text(Text::own(")")),
        ];
        self.values.push(ValueData { ty, kind: ValueKind::BlockConst(Box::new(pieces.into_boxed_slice())), name: None })
    }

    /// A name based on `base` that no value or block in this function has yet.
    pub fn unique_name(&self, base: &str) -> super::Name {
        let taken = |n: &str| self.name_in_use(n);
        if !taken(base) {
            return base.into();
        }
        (1..).map(|k| format!("{base}{k}")).find(|n| !taken(n)).unwrap_or_default().into()
    }

    // ---- Blocks. ----

    /// Creates a block, not yet in the layout.
    pub fn create_block(&mut self, name: Option<&str>) -> Block {
        self.blocks.push(BlockData { name: name.map(Into::into), insts: SmallVec::new() })
    }

    /// Places `b` in the layout right after `after` (or at the end when `after` is not laid out).
    pub fn insert_block_after(&mut self, b: Block, after: Block) {
        match self.layout.iter().position(|&x| x == after) {
            Some(p) => self.layout.insert(p + 1, b),
            None => self.layout.push(b),
        }
    }

    // ---- Instructions. ----

    /// Adds `data` as a new instruction (with a result value if its type is not void), not yet in any
    /// block. Build `data` with `InstData::new` and set its operands.
    pub fn create_inst(&mut self, types: &TypeTable, mut data: InstData) -> Inst {
        data.block = None;
        data.result = None;
        let ty = data.ty;
        let i = self.insts.push(data);
        if !types.is_void(ty) {
            let v = self.values.push(ValueData { ty, kind: ValueKind::Inst(i), name: None });
            self.insts[i].result = Some(v);
        }
        i
    }

    /// Appends `i` (made by `create_inst` or the builder, in no block) to the end of `b`.
    pub fn append_inst(&mut self, b: Block, i: Inst) {
        self.insts[i].block = Some(b);
        self.blocks[b].insts.push(i);
    }

    /// Inserts `i` into `b` at position `pos`.
    pub fn insert_inst_at(&mut self, b: Block, pos: usize, i: Inst) {
        self.insts[i].block = Some(b);
        let v = &mut self.blocks[b].insts;
        v.insert(pos.min(v.len()), i);
    }

    /// Inserts `i` just before `before`, in its block; does nothing when `before` is in no block.
    pub fn insert_inst_before(&mut self, before: Inst, i: Inst) {
        if let Some(b) = self.insts[before].block {
            let pos = self.blocks[b].insts.iter().position(|&x| x == before).unwrap_or(0);
            self.insert_inst_at(b, pos, i);
        }
    }

    /// The first position in `b` after its phis and debug records (and pads), where code may go.
    pub fn first_insertion_point(&self, b: Block) -> usize {
        let insts = &self.blocks[b].insts;
        insts.iter().position(|&i| !matches!(self.insts[i].op, Opcode::Phi) && !self.insts[i].op.is_pad()).map_or(
            insts.len(),
            |p| {
                if self.insts[insts[p]].op.is_pad() { p + 1 } else { p }
            },
        )
    }

    /// Removes `i` from its block. Its result must have no remaining uses.
    pub fn remove_inst(&mut self, i: Inst) {
        if let Some(b) = self.insts[i].block.take() {
            self.blocks[b].insts.retain(|x| *x != i);
        }
    }

    // ---- Uses. ----

    /// Replaces every use of `old` with `new`, in instructions and nowhere else.
    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        for b in self.layout.clone() {
            for &i in &self.blocks[b].insts {
                for a in self.insts[i].args.iter_mut() {
                    if *a == old {
                        *a = new;
                    }
                }
            }
        }
    }

    /// Applies a whole substitution in one sweep, which keeps many replacements linear.
    pub fn replace_uses_with_map(&mut self, map: &FxHashMap<Value, Value>) {
        if map.is_empty() {
            return;
        }
        for b in self.layout.clone() {
            for &i in &self.blocks[b].insts {
                for a in self.insts[i].args.iter_mut() {
                    if let Some(&n) = map.get(a) {
                        *a = n;
                    }
                }
            }
        }
    }

    // ---- Phis. ----

    /// Phi instructions at the head of `b`.
    pub fn phis(&self, b: Block) -> Vec<Inst> {
        self.blocks[b]
            .insts
            .iter()
            .copied()
            .take_while(|&i| matches!(self.insts[i].op, Opcode::Phi | Opcode::DbgRecord))
            .filter(|&i| self.insts[i].op == Opcode::Phi)
            .collect()
    }

    /// Removes one incoming entry for `pred` from every phi in `b`.
    pub fn remove_phi_incoming(&mut self, b: Block, pred: Block) {
        for p in self.phis(b) {
            let d = &mut self.insts[p];
            if let Some(k) = d.blocks.iter().position(|&x| x == pred) {
                d.blocks.remove(k);
                d.args.remove(k);
            }
        }
    }

    /// Renames incoming block `old` to `new` in every phi of `b`.
    pub fn replace_phi_incoming_block(&mut self, b: Block, old: Block, new: Block) {
        for p in self.phis(b) {
            for x in self.insts[p].blocks.iter_mut() {
                if *x == old {
                    *x = new;
                }
            }
        }
    }

    // ---- Control flow. ----

    /// Replaces `b`'s terminator by `br label %to`, `to` being one of its successors: the other
    /// successors' phis lose their entries for `b`, and `to`'s keep one (a switch may reach it by
    /// several cases, each with an entry).
    pub fn branch_only_to(&mut self, types: &TypeTable, b: Block, to: Block) {
        let Some(t) = self.terminator(b) else { return };
        self.detach_successors(b, Some(to));
        self.remove_inst(t);
        let br = self.create_br(types, to);
        self.append_inst(b, br);
    }

    /// Before `b`'s terminator is replaced by one that only goes to `keep` (or nowhere): the phis
    /// of its other successors lose their entries for `b`, and `keep`'s keep one.
    pub fn detach_successors(&mut self, b: Block, keep: Option<Block>) {
        let mut succs: SmallVec<[Block; 4]> = self.successors(b).iter().copied().collect();
        succs.sort_unstable();
        succs.dedup();
        for s in succs {
            let kept = usize::from(Some(s) == keep);
            for p in self.phis(s) {
                let d = &mut self.insts[p];
                let mut seen = 0;
                let mut k = 0;
                while let Some(&x) = d.blocks.get(k) {
                    if x == b {
                        seen += 1;
                        if seen > kept {
                            d.blocks.remove(k);
                            d.args.remove(k);
                            continue;
                        }
                    }
                    k += 1;
                }
            }
        }
    }

    /// Creates `br label %to`.
    pub fn create_br(&mut self, types: &TypeTable, to: Block) -> Inst {
        let mut d = InstData::new(Opcode::Br, types.void, vec![t("br label "), Piece::Block(0)]);
        d.blocks.push(to);
        self.create_inst(types, d)
    }

    /// Splits `b` before the instruction at position `at`: the tail moves to a new block placed after
    /// `b`, and `b` ends in a branch to it. Phis in the tail's successors are updated.
    pub fn split_block(&mut self, types: &TypeTable, b: Block, at: usize, name: Option<&str>) -> Block {
        let nb = self.create_block(name);
        let tail: SmallVec<[Inst; 4]> = {
            let v = &mut self.blocks[b].insts;
            let at = at.min(v.len());
            v.drain(at..).collect()
        };
        for &i in &tail {
            self.insts[i].block = Some(nb);
        }
        self.blocks[nb].insts = tail;
        for s in self.successors(nb).to_vec() {
            self.replace_phi_incoming_block(s, b, nb);
        }
        let br = self.create_br(types, nb);
        self.append_inst(b, br);
        self.insert_block_after(nb, b);
        nb
    }

    /// Puts a new block on every edge from `from` to `to` and returns it. Duplicate edges (a switch
    /// with several cases to `to`) all go through the new block, so `to`'s phis keep one entry for it.
    pub fn split_edge(&mut self, types: &TypeTable, from: Block, to: Block) -> Block {
        let nb = self.create_block(None);
        let br = self.create_br(types, to);
        self.append_inst(nb, br);
        if let Some(term) = self.terminator(from) {
            for x in self.insts[term].blocks.iter_mut() {
                if *x == to {
                    *x = nb;
                }
            }
        }
        // One entry for the new edge; extra entries for the duplicate edges go.
        for p in self.phis(to) {
            let d = &mut self.insts[p];
            let mut first = true;
            let mut k = 0;
            while k < d.blocks.len() {
                if d.blocks[k] == from {
                    if first {
                        d.blocks[k] = nb;
                        first = false;
                        k += 1;
                    } else {
                        d.blocks.remove(k);
                        d.args.remove(k);
                    }
                } else {
                    k += 1;
                }
            }
        }
        self.insert_block_after(nb, from);
        nb
    }

    /// Puts a new block on the single edge `from.terminator.blocks[slot]` and returns it; other edges
    /// from `from` to the same target keep going directly, and the target's phis get an entry for the
    /// new block (a copy of `from`'s entry when `from` still reaches the target another way).
    pub fn split_successor(
        &mut self,
        types: &TypeTable,
        from: Block,
        slot: usize,
        name: Option<&str>,
    ) -> Option<Block> {
        let term = self.terminator(from)?;
        let to = *self.insts[term].blocks.get(slot)?;
        let nb = self.create_block(name);
        let br = self.create_br(types, to);
        self.append_inst(nb, br);
        self.insts[term].blocks[slot] = nb;
        let still = self.insts[term].blocks.contains(&to);
        for p in self.phis(to) {
            let d = &mut self.insts[p];
            if let Some(k) = d.blocks.iter().position(|&x| x == from) {
                if still {
                    let v = d.args[k];
                    d.args.push(v);
                    d.blocks.push(nb);
                } else {
                    d.blocks[k] = nb;
                }
            }
        }
        self.insert_block_after(nb, from);
        Some(nb)
    }

    /// Renames values and blocks so that no two that are printed share a name (values and block
    /// labels are one namespace in LLVM's text), when one of the names `given` (those a pass gives
    /// without asking `unique_name`) is used twice. Passes name what they add after what the input
    /// already uses, so of two with one name, a value keeps it before a block and the older (lower
    /// id) before the newer: the name a pass invented gives way. Returns how many were renamed.
    pub fn make_names_unique(&mut self, given: &[&str]) -> usize {
        let named = |n: &Option<super::Name>| n.as_deref().is_some_and(|s| !crate::print::is_numbered(s));
        // Cheap first: without a name of `given` used twice, nothing can clash.
        let mut uses = vec![0u32; given.len()];
        let mut count = |n: &Option<super::Name>| {
            if let Some(k) = n.as_deref().and_then(|s| given.iter().position(|g| *g == s)) {
                uses[k] += 1;
            }
        };
        for &p in &self.params {
            count(&self.values[p].name);
        }
        for &b in &self.layout {
            count(&self.blocks[b].name);
            for &i in &self.blocks[b].insts {
                if let Some(r) = self.insts[i].result {
                    count(&self.values[r].name);
                }
            }
        }
        if uses.iter().all(|&n| n < 2) {
            return 0;
        }
        // (is a block, id) of everything printed with a name of its own, values first.
        let mut order: Vec<(bool, u32)> = Vec::new();
        for &p in &self.params {
            if named(&self.values[p].name) {
                order.push((false, p.as_u32()));
            }
        }
        for &b in &self.layout {
            if named(&self.blocks[b].name) {
                order.push((true, b.as_u32()));
            }
            for &i in &self.blocks[b].insts {
                if let Some(r) = self.insts[i].result
                    && named(&self.values[r].name)
                {
                    order.push((false, r.as_u32()));
                }
            }
        }
        let name_of = |f: &Function, (is_block, k): (bool, u32)| -> super::Name {
            let n = if is_block { &f.blocks[Block::from_u32(k)].name } else { &f.values[Value::from_u32(k)].name };
            n.clone().unwrap_or_default()
        };
        let mut taken: rustc_hash::FxHashSet<super::Name> = rustc_hash::FxHashSet::default();
        taken.reserve(order.len());
        let mut clashes = Vec::new();
        for &e in &order {
            if !taken.insert(name_of(self, e)) {
                clashes.push(e);
            }
        }
        if clashes.is_empty() {
            return 0;
        }
        // The older of each pair keeps the name: values first, then by id.
        order.sort_unstable();
        taken.clear();
        clashes.clear();
        for &e in &order {
            if !taken.insert(name_of(self, e)) {
                clashes.push(e);
            }
        }
        for &(is_block, k) in &clashes {
            let base = name_of(self, (is_block, k));
            let fresh: super::Name =
                (1..).map(|n| numbered_name(&base, n)).find(|c| !taken.contains(c)).unwrap_or_default();
            taken.insert(fresh.clone());
            if is_block {
                self.blocks[Block::from_u32(k)].name = Some(fresh);
            } else {
                self.values[Value::from_u32(k)].name = Some(fresh);
            }
        }
        clashes.len()
    }

    /// Every local name in use, of blocks and values alike (LLVM's text gives them one namespace),
    /// for generating many fresh labels cheaply (`fresh_label`).
    pub fn block_names(&self) -> rustc_hash::FxHashSet<Box<str>> {
        let blocks = self.blocks.values().filter_map(|d| d.name.as_deref());
        blocks.chain(self.values.values().filter_map(|d| d.name.as_deref())).map(Box::from).collect()
    }

    /// Does a block or a value of this function have the name `n`?
    fn name_in_use(&self, n: &str) -> bool {
        self.blocks.values().any(|d| d.name.as_deref() == Some(n))
            || self.values.values().any(|d| d.name.as_deref() == Some(n))
    }

    /// A block label based on `base` that no block or value in this function has yet.
    pub fn unique_block_name(&self, base: &str) -> String {
        let taken = |n: &str| self.name_in_use(n);
        if !taken(base) {
            return base.to_string();
        }
        (1..).map(|k| format!("{base}{k}")).find(|n| !taken(n)).unwrap_or_default()
    }

    /// Splits every critical edge (from a block with several successors to one with several
    /// predecessors); returns the new blocks.
    pub fn split_critical_edges(&mut self, types: &TypeTable) -> Vec<Block> {
        let cfg = crate::analysis::cfg::Cfg::compute(self);
        let mut out = Vec::new();
        for b in self.layout.clone() {
            let mut succs: SmallVec<[Block; 4]> = self.successors(b).iter().copied().collect();
            if succs.len() < 2 {
                continue;
            }
            succs.sort_unstable();
            succs.dedup();
            for s in succs {
                if cfg.preds(s).len() > 1 {
                    out.push(self.split_edge(types, b, s));
                }
            }
        }
        out
    }

    /// Deletes blocks not reachable from the entry, removing their phi entries in reachable blocks.
    /// Returns how many blocks were removed.
    pub fn remove_unreachable_blocks(&mut self) -> usize {
        let Some(entry) = self.entry() else { return 0 };
        let keep = self.reachable_along(&[entry], &|_| None);
        self.remove_blocks_except(&keep)
    }

    /// The blocks reachable from `roots`, walking from a block `b` only to the successors `along(b)`
    /// lists when it lists any.
    pub fn reachable_along(
        &self,
        roots: &[Block],
        along: &dyn Fn(Block) -> Option<SmallVec<[Block; 2]>>,
    ) -> SecondaryMap<Block, bool> {
        let mut keep: SecondaryMap<Block, bool> = SecondaryMap::with_capacity(self.blocks.len());
        keep.resize(self.blocks.len());
        let mut work: Vec<Block> = roots.to_vec();
        while let Some(b) = work.pop() {
            if keep[b] {
                continue;
            }
            keep[b] = true;
            match along(b) {
                Some(next) => work.extend(next.into_iter().filter(|&s| !keep[s])),
                None => work.extend(self.successors(b).iter().copied().filter(|&s| !keep[s])),
            }
        }
        keep
    }

    /// Deletes the laid-out blocks `keep` leaves out, removing their phi entries in the blocks it
    /// keeps. Returns how many blocks were removed.
    pub fn remove_blocks_except(&mut self, keep: &SecondaryMap<Block, bool>) -> usize {
        let dead: Vec<Block> = self.layout.iter().copied().filter(|&b| !keep[b]).collect();
        for &b in &dead {
            let mut succs: SmallVec<[Block; 4]> = self.successors(b).iter().copied().filter(|&s| keep[s]).collect();
            succs.sort_unstable();
            succs.dedup();
            for s in succs {
                while self.phis(s).iter().any(|&p| self.insts[p].blocks.contains(&b)) {
                    self.remove_phi_incoming(s, b);
                }
            }
            for i in std::mem::take(&mut self.blocks[b].insts) {
                self.insts[i].block = None;
            }
        }
        self.layout.retain(|&b| keep[b]);
        dead.len()
    }

    /// Copies every block of `src` into `self` (appended to the layout), mapping values through
    /// `vmap`: values already in `vmap` (parameters, say) are used as given; the rest are created.
    /// Returns the block map.
    pub fn clone_body_from(&mut self, src: &Function, vmap: &mut SecondaryMap<Value, Option<Value>>) -> CloneMaps {
        let layout = src.layout.clone();
        self.clone_blocks(src, vmap, &layout, None)
    }

    /// A `poison` of type `ty`, made once per type (`made`): a part may leave out most of a large
    /// body, whose values all become poison.
    pub fn poison_once(
        &mut self,
        ty: crate::types::Type,
        made: &mut SmallVec<[(crate::types::Type, Value); 4]>,
    ) -> Value {
        if let Some(&(_, p)) = made.iter().find(|(t, _)| *t == ty) {
            return p;
        }
        let p = self.const_value(ty, "poison");
        made.push((ty, p));
        p
    }

    /// Like `clone_body_from`, but copies only the blocks reachable from `roots` (in `src`'s layout
    /// order). An operand defined in a block that is not copied becomes `poison`: only debug uses
    /// can legitimately refer to such values, and the caller's verifier catches any other.
    pub fn clone_reachable_from(
        &mut self,
        src: &Function,
        vmap: &mut SecondaryMap<Value, Option<Value>>,
        roots: &[Block],
    ) -> CloneMaps {
        self.clone_reachable_along(src, vmap, roots, &|_| None).0
    }

    /// `clone_reachable_from`, walking from a block `b` only to the successors `along(b)` lists when
    /// it lists any. A copied edge to a block left out leads to the returned block, new, empty and
    /// not in the layout: the caller removes such edges (a ramp leaves its suspends' resume edges).
    pub fn clone_reachable_along(
        &mut self,
        src: &Function,
        vmap: &mut SecondaryMap<Value, Option<Value>>,
        roots: &[Block],
        along: &dyn Fn(Block) -> Option<SmallVec<[Block; 2]>>,
    ) -> (CloneMaps, Option<Block>) {
        let keep = src.reachable_along(roots, along);
        let mut poison = SmallVec::new();
        for (_, i) in src.inst_iter() {
            let Some(b) = src.insts[i].block else { continue };
            if keep[b] {
                continue;
            }
            if let Some(r) = src.insts[i].result
                && vmap[r].is_none()
            {
                vmap[r] = Some(self.poison_once(src.values[r].ty, &mut poison));
            }
        }
        let layout: Vec<Block> = src.layout.iter().copied().filter(|&b| keep[b]).collect();
        let cut_edges = layout.iter().any(|&b| src.successors(b).iter().any(|&s| !keep[s]));
        let cut = cut_edges.then(|| self.create_block(None));
        (self.clone_blocks(src, vmap, &layout, cut), cut)
    }

    fn clone_blocks(
        &mut self,
        src: &Function,
        vmap: &mut SecondaryMap<Value, Option<Value>>,
        layout: &[Block],
        cut: Option<Block>,
    ) -> CloneMaps {
        // Everything is sized up front: regrowing the arenas of a large body copies them repeatedly.
        let ninsts: usize = layout.iter().map(|&b| src.blocks[b].insts.len()).sum();
        self.insts.reserve(super::with_headroom(ninsts));
        // Results and constants come to about 1.15 values per instruction.
        self.values.reserve((ninsts + ninsts / 4 + 16).min(src.values.len()));
        self.blocks.reserve(super::with_headroom(layout.len()));
        self.layout.reserve(layout.len());
        vmap.resize(src.values.len());
        let mut bmap: SecondaryMap<Block, Option<Block>> = SecondaryMap::with_capacity(src.blocks.len());
        bmap.resize(src.blocks.len());
        let mut imap: SecondaryMap<Inst, Option<Inst>> = SecondaryMap::with_capacity(src.insts.len());
        imap.resize(src.insts.len());
        for &b in layout {
            let nb = self.create_block(src.blocks[b].name.as_deref());
            bmap[b] = Some(nb);
            self.layout.push(nb);
        }
        // Results first, so forward references (phis, loops) resolve. A result the caller mapped
        // already (to a parameter, say) is not redefined: its clone produces no value.
        let mut fresh: SecondaryMap<Value, bool> = SecondaryMap::with_capacity(src.values.len());
        fresh.resize(src.values.len());
        for i in layout.iter().flat_map(|&b| src.blocks[b].insts.iter().copied()) {
            if let Some(r) = src.insts[i].result
                && vmap[r].is_none()
            {
                let d = &src.values[r];
                let nv = self.values.push(ValueData { ty: d.ty, kind: ValueKind::Forward, name: d.name.clone() });
                vmap[r] = Some(nv);
                fresh[r] = true;
            }
        }
        for &b in layout {
            let Some(nb) = bmap[b] else { continue };
            for &i in &src.blocks[b].insts {
                let d = &src.insts[i];
                let mut args: SmallVec<[Value; 3]> = SmallVec::with_capacity(d.args.len());
                for &a in &d.args {
                    let m = match vmap[a] {
                        Some(m) => m,
                        None => {
                            let nv = self.copy_operand(src, a, &bmap);
                            vmap[a] = Some(nv);
                            nv
                        }
                    };
                    args.push(m);
                }
                let mut blocks: SmallVec<[Block; 2]> = d.blocks.iter().map(|&x| bmap[x].or(cut).unwrap_or(x)).collect();
                if d.op == Opcode::Phi {
                    drop_uncopied_edges(&d.blocks, &bmap, &mut args, &mut blocks);
                }
                let ni = self.insts.push(InstData {
                    op: d.op,
                    ty: d.ty,
                    result: d.result.filter(|&r| fresh[r]).and_then(|r| vmap[r]),
                    args,
                    blocks,
                    tmpl: d.tmpl.clone(),
                    extra: d.extra.clone(),
                    block: Some(nb),
                    span: d.span,
                });
                if let Some(r) = self.insts[ni].result {
                    self.values[r].kind = ValueKind::Inst(ni);
                }
                self.blocks[nb].insts.push(ni);
                imap[i] = Some(ni);
            }
        }
        CloneMaps { blocks: bmap, insts: imap }
    }

    /// A copy of `src`'s operand `a` that nothing mapped (a constant, or a block address whose
    /// blocks now are their copies).
    fn copy_operand(&mut self, src: &Function, a: Value, bmap: &SecondaryMap<Block, Option<Block>>) -> Value {
        let vd = &src.values[a];
        let kind = match &vd.kind {
            ValueKind::BlockConst(p) => ValueKind::BlockConst(Box::new(
                p.iter()
                    .map(|x| match x {
                        ConstPiece::Block(cb) => ConstPiece::Block(bmap[*cb].unwrap_or(*cb)),
                        other => other.clone(),
                    })
                    .collect(),
            )),
            other => other.clone(),
        };
        self.values.push(ValueData { ty: vd.ty, kind, name: vd.name.clone() })
    }
}

/// A phi in a partial clone has no edge from the blocks it did not copy (`from` are its incoming
/// blocks in the source): those pairs leave its operands.
fn drop_uncopied_edges(
    from: &[Block],
    bmap: &SecondaryMap<Block, Option<Block>>,
    args: &mut SmallVec<[Value; 3]>,
    blocks: &mut SmallVec<[Block; 2]>,
) {
    let keep: Vec<bool> = from.iter().map(|&x| bmap[x].is_some()).collect();
    if keep.iter().any(|k| !k) {
        let mut k = 0;
        args.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        let mut k = 0;
        blocks.retain(|_| {
            k += 1;
            keep[k - 1]
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::Module;
    use crate::print::print_function;
    use crate::verify::verify_function;

    fn parse(src: &str) -> (Module, Function) {
        let mut m = Module::parse(src.to_string()).map_err(|e| e.0).expect("module parses");
        let i = m.definitions().next().expect("a define");
        let f = m.parse_function(i).expect("function parses");
        (m, f)
    }

    /// An empty function `@g` with `f`'s header and parameters, and the map of one's to the other's.
    fn with_params_of(f: &Function) -> (Function, SecondaryMap<Value, Option<Value>>) {
        let mut g = Function::new("@g", f.header.clone());
        let mut vmap = SecondaryMap::new();
        for &p in &f.params {
            let np = g.values.push(f.values[p].clone());
            g.params.push(np);
            vmap[p] = Some(np);
        }
        (g, vmap)
    }

    const DIAMOND: &str = "define i32 @f(i1 %c, i32 %a) {\nentry:\n  br i1 %c, label %l, label %r\nl:\n  %x = add i32 %a, 1\n  br label %j\nr:\n  br label %j\nj:\n  %p = phi i32 [ %x, %l ], [ %a, %r ]\n  ret i32 %p\n}\n";

    #[test]
    fn names_a_pass_adds_give_way_to_the_inputs() {
        let (m, mut f) = parse(DIAMOND);
        assert_eq!(f.make_names_unique(&["x", "j", "\"a b\""]), 0, "the input's names are unique");
        // A new parameter named like a value, and a new block named like a value and a block.
        let ty = f.values[f.params[0]].ty;
        let p = f.values.push(ValueData { ty, kind: ValueKind::Param(2), name: Some("x".into()) });
        f.params.push(p);
        let b = f.create_block(Some("j"));
        let entry = f.entry().expect("entry");
        f.insert_block_after(b, entry);
        let un = f.create_inst(&m.types, InstData::new(Opcode::Unreachable, m.types.void, vec![t("unreachable")]));
        f.append_inst(b, un);
        let q = f.values.push(ValueData { ty, kind: ValueKind::Param(3), name: Some("\"a b\"".into()) });
        let q2 = f.values.push(ValueData { ty, kind: ValueKind::Param(4), name: Some("\"a b\"".into()) });
        f.params.extend([q, q2]);
        assert_eq!(f.make_names_unique(&["x", "j", "\"a b\""]), 3);
        let name = |v: Value| f.values[v].name.as_deref().unwrap_or("").to_string();
        assert_eq!(name(p), "x1", "the input's %x keeps its name");
        assert_eq!(f.blocks[b].name.as_deref(), Some("j1"), "the input's block %j keeps its name");
        assert_eq!((name(q), name(q2)), ("\"a b\"".to_string(), "\"a b1\"".to_string()), "quoted names stay quoted");
        let x =
            f.inst_iter().find_map(|(_, i)| f.insts[i].result.filter(|&r| f.values[r].name.as_deref() == Some("x")));
        assert!(x.is_some(), "the instruction's %x is untouched");
        assert_eq!(f.make_names_unique(&["x", "j", "\"a b\""]), 0, "nothing left to rename");
        assert_eq!(f.make_names_unique(&["y"]), 0, "no name of the list is used twice");
    }

    #[test]
    fn split_block_keeps_phis_and_verifies() {
        let (m, mut f) = parse(DIAMOND);
        let l = f.layout[1];
        let nb = f.split_block(&m.types, l, 1, Some("l.tail"));
        verify_function(&f).expect("valid after split");
        let text = print_function(&f, &m.types, &m.src);
        assert!(text.contains("[ %x, %l.tail ]"), "{text}");
        assert_eq!(f.successors(l), &[nb]);
    }

    #[test]
    fn split_critical_edge_on_duplicate_switch_cases() {
        let src = "define i32 @f(i32 %v) {\nentry:\n  switch i32 %v, label %d [\n    i32 0, label %j\n    i32 1, label %j\n  ]\nd:\n  br label %j\nj:\n  %p = phi i32 [ 1, %entry ], [ 1, %entry ], [ 2, %d ]\n  ret i32 %p\n}\n";
        let (m, mut f) = parse(src);
        verify_function(&f).expect("input valid");
        let new = f.split_critical_edges(&m.types);
        assert_eq!(new.len(), 1);
        verify_function(&f).expect("valid after splitting");
        let j = f.layout.iter().copied().find(|&b| f.blocks[b].name.as_deref() == Some("j")).expect("j");
        assert_eq!(f.insts[f.phis(j)[0]].args.len(), 2);
    }

    #[test]
    fn branching_only_to_one_successor_keeps_one_phi_entry_there() {
        // Two cases reach j (two entries for the entry block), the default reaches d.
        let src = "define i32 @f(i32 %v) {\nentry:\n  switch i32 %v, label %d [\n    i32 0, label %j\n    i32 1, label %j\n  ]\nd:\n  br label %j\nj:\n  %p = phi i32 [ 1, %entry ], [ 1, %entry ], [ 2, %d ]\n  ret i32 %p\n}\n";
        let (m, mut f) = parse(src);
        let (entry, j) = (f.layout[0], f.layout[2]);
        f.branch_only_to(&m.types, entry, j);
        assert_eq!(f.successors(entry), &[j]);
        assert_eq!(f.insts[f.phis(j)[0]].blocks.len(), 2, "one entry for the entry block, one for d");
        assert_eq!(f.remove_unreachable_blocks(), 1);
        verify_function(&f).expect("valid");
        let text = print_function(&f, &m.types, &m.src);
        assert!(text.contains("br label %j") && text.contains("phi i32 [ 1, %entry ]\n"), "{text}");
    }

    #[test]
    fn remove_unreachable_drops_phi_entries() {
        let src = "define i32 @f(i32 %a) {\nentry:\n  br label %j\ndead:\n  br label %j\nj:\n  %p = phi i32 [ %a, %entry ], [ 0, %dead ]\n  ret i32 %p\n}\n";
        let (_m, mut f) = parse(src);
        assert_eq!(f.remove_unreachable_blocks(), 1);
        verify_function(&f).expect("valid");
        assert_eq!(f.layout.len(), 2);
    }

    #[test]
    fn replace_all_uses_and_renumbering() {
        let src = "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  %3 = mul i32 %2, %2\n  ret i32 %3\n}\n";
        let (m, mut f) = parse(src);
        let (_, add) = f.inst_iter().next().expect("add");
        let r = f.insts[add].result.expect("result");
        let seven = f.const_value(m.types.i32, "7");
        f.replace_all_uses(r, seven);
        f.remove_inst(add);
        verify_function(&f).expect("valid");
        let text = print_function(&f, &m.types, &m.src);
        assert!(text.contains("%2 = mul i32 7, 7"), "{text}");
        assert!(text.contains("ret i32 %2"), "{text}");
    }

    #[test]
    fn clone_body_maps_values_and_blocks() {
        let (m, f) = parse(DIAMOND);
        let mut g = Function::new("@g", f.header.clone());
        let mut vmap: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
        for &p in &f.params {
            let d = f.values[p].clone();
            let np = g.values.push(d);
            g.params.push(np);
            vmap[p] = Some(np);
        }
        g.clone_body_from(&f, &mut vmap);
        verify_function(&g).expect("clone valid");
        let a = print_function(&f, &m.types, &m.src);
        let b = print_function(&g, &m.types, &m.src);
        assert_eq!(a.replacen("@f", "@g", 1), b);
    }

    #[test]
    fn partial_clone_drops_edges_from_uncopied_blocks() {
        let (m, f) = parse(DIAMOND);
        let r = f.layout[2];
        let (mut g, mut vmap) = with_params_of(&f);
        let maps = g.clone_reachable_from(&f, &mut vmap, &[r]);
        // r and j are copied; the phi in j keeps only the edge from r.
        assert_eq!(g.layout.len(), 2);
        let j = maps.blocks[f.layout[3]].expect("join copied");
        let phi = g.phis(j)[0];
        assert_eq!(g.insts[phi].blocks.len(), 1);
        verify_function(&g).expect("valid");
        let text = print_function(&g, &m.types, &m.src);
        assert!(text.contains("phi i32 [ %a, %r ]"), "{text}");
    }

    #[test]
    fn a_clone_along_chosen_edges_cuts_the_others() {
        let (_m, f) = parse(DIAMOND);
        let (entry, l) = (f.layout[0], f.layout[1]);
        let (mut g, mut vmap) = with_params_of(&f);
        // From the entry only to l: r is left out, and the entry's edge to it leads to the cut block.
        let (maps, cut) =
            g.clone_reachable_along(&f, &mut vmap, &[entry], &|b| (b == entry).then(|| smallvec::smallvec![l]));
        let cut = cut.expect("an edge was cut");
        assert_eq!(g.layout.len(), 3);
        assert!(maps.blocks[f.layout[2]].is_none());
        let ge = maps.blocks[entry].expect("entry copied");
        assert!(g.successors(ge).contains(&cut));
        let j = maps.blocks[f.layout[3]].expect("join copied");
        assert_eq!(g.insts[g.phis(j)[0]].blocks.len(), 1);
        // Without a choice nothing is cut.
        let (mut h, mut vmap) = with_params_of(&f);
        assert!(h.clone_reachable_along(&f, &mut vmap, &[entry], &|_| None).1.is_none());
    }

    #[test]
    fn unique_names_do_not_collide() {
        let (_m, f) = parse(DIAMOND);
        assert_eq!(&*f.unique_name("x"), "x1");
        assert_eq!(&*f.unique_name("y"), "y");
    }
}
