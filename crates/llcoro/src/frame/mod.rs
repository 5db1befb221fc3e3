//! The frame engine that every lowering shares: given a function and a description of its suspend
//! points, find what must survive each suspend, lay out a frame for it, and rewrite the body to
//! keep it there. It knows nothing of `llvm.coro.*` or of kxs markers: the lowerings (`coro`, `kxs`)
//! describe their suspends as `Site`s, say which uses do not count, and add their own header fields.
//!
//! The phases, in the order a lowering runs them:
//! 1. `crossing`: a value is live across a suspend exactly when it is live into a block execution
//!    continues in after it (the lowering gives each suspend such blocks of its own first);
//! 2. `classify`: crossing allocas move into the frame, every other crossing value is spilled;
//! 3. `Survey::hidden_allocas` and `Survey::local_allocas`: allocas reached only through a crossing
//!    or escaped pointer move too; those whose bytes are never needed across a suspend stay local;
//! 4. `remat::rematerialisable`: cheap values are recomputed after a resume instead of stored;
//! 5. `Survey::pack`: fields that are never needed at the same time share bytes
//!    (`interference`, then `layout`, which works on sizes and alignments alone);
//! 6. `Survey::describe`: what the report shows of each field;
//! 7. `rewrite`: allocas into the frame, spills after definitions, reloads after resumes.

pub mod allocas;
pub mod interference;
pub mod layout;
pub mod remat;
pub mod rewrite;

use crate::diag::{Finding, error_at, is_unspillable};
use allocas::{Lifetimes, derived, escapes, lifetimes, memory_crosses, pointer_bases};
use llir::analysis::cfg::Cfg;
use llir::analysis::dom::DomTree;
use llir::analysis::liveness::Liveness;
use llir::ir::{Block, Extra, Function, Inst, Opcode, Value};
use llir::layout::DataLayout;
use llir::types::{Type, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};

pub use rewrite::{frame_addr, retype_metadata_operand};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldKind {
    ResumeFn,
    DestroyFn,
    Promise(Value),
    Index,
    Spill(Value),
    Alloca(Value),
    /// The address of the block execution continues at after a resume (computed-goto dispatch).
    ResumeLabel,
    /// A value the front end itself saved at a fixed offset (a stackless frame's explicit slot):
    /// reloaded from there after a suspend, never stored by the engine.
    Saved(Value),
}

#[derive(Clone, Debug)]
pub struct Field {
    pub kind: FieldKind,
    pub ty: Type,
    pub offset: u64,
    pub size: u64,
    pub align: u64,
    /// Indices of the suspend points the field is live across (all of them for the header,
    /// promise and index).
    pub live_across: Vec<u32>,
    /// The source variable (`!DILocalVariable` id) held here, from the debug records, if any.
    pub var: Option<u32>,
    /// The value's name in the IR, if it has one.
    pub ir_name: Option<String>,
    /// An alloca aligned beyond what the frame can promise (`Realign`).
    pub realign: Option<Realign>,
}

impl Field {
    pub fn new(kind: FieldKind, ty: Type, size: u64, align: u64) -> Field {
        Field { kind, ty, offset: 0, size, align, live_across: Vec::new(), var: None, ir_name: None, realign: None }
    }

    /// Caps the field's alignment at `cap` (an async context's), as LLVM does. An alloca aligned
    /// beyond it gets a field `align - cap` bytes larger, in which its address is found at run
    /// time by rounding the field's up to its alignment (the frame's own base may be no more
    /// aligned than `cap`).
    pub fn cap_align(&mut self, cap: u64, int_ptr: Type) {
        if self.align <= cap {
            return;
        }
        if matches!(self.kind, FieldKind::Alloca(_)) {
            self.size += self.align - cap;
            self.realign = Some(Realign { align: self.align, int_ptr });
        }
        self.align = cap;
    }
}

/// How a moved alloca's address is found in a field less aligned than the alloca: the field's
/// address as an integer (`int_ptr`, the pointer-sized integer), plus `align - 1`, and `-align`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Realign {
    pub align: u64,
    pub int_ptr: Type,
}

/// An alloca moved into the frame: its field's offset and type, and its realignment if any.
#[derive(Clone, Copy, Debug)]
pub struct Moved {
    pub value: Value,
    pub offset: u64,
    pub ty: Type,
    pub realign: Option<Realign>,
}

impl Moved {
    /// The alloca (or promise) field `fl` holds, if it holds one.
    pub fn of(fl: &Field) -> Option<Moved> {
        match fl.kind {
            FieldKind::Alloca(value) | FieldKind::Promise(value) => {
                Some(Moved { value, offset: fl.offset, ty: fl.ty, realign: fl.realign })
            }
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Frame {
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    pub index_ty: Type,
    pub index_off: u64,
    /// Where the resume block address is, with computed-goto dispatch.
    pub label_off: Option<u64>,
    pub ptr_size: u64,
    /// Allocas used after a suspend but never alive across one: every split function has its own.
    pub local_allocas: Vec<Value>,
    /// Debug records now describing a variable as frame + offset; each split function declares
    /// them at its entry if its body does not already.
    pub declares: Vec<Inst>,
    /// Values live across a suspend that are recomputed after each resume instead of stored.
    pub remat: Vec<Value>,
    /// For the report: each rematerialised value's IR name, or its opcode when it has none.
    pub remat_names: Vec<String>,
    /// Lowerable but doubtful input found while building the frame.
    pub warnings: Vec<Finding>,
}

impl Frame {
    /// A frame without fields (nothing lives across a suspend): size 0, align 1.
    pub fn empty(index_ty: Type, ptr_size: u64) -> Frame {
        Frame {
            fields: Vec::new(),
            size: 0,
            align: 1,
            index_ty,
            index_off: 0,
            label_off: None,
            ptr_size,
            local_allocas: Vec::new(),
            declares: Vec::new(),
            remat: Vec::new(),
            remat_names: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The allocas that moved into the frame.
    pub fn moved_allocas(&self) -> Vec<Moved> {
        self.fields.iter().filter(|fl| matches!(fl.kind, FieldKind::Alloca(_))).filter_map(Moved::of).collect()
    }
}

/// One suspend point, as the engine needs it: its number, the instruction where execution leaves,
/// and the blocks it continues in afterwards (each entered only from this suspend).
#[derive(Clone, Debug)]
pub struct Site {
    pub index: u32,
    pub inst: Inst,
    pub continues: Vec<Block>,
}

/// Every value live into a block some suspend continues in, in value order; `skip` values are
/// never counted (the frame pointer itself, or values made again on every entry).
pub fn crossing(live: &Liveness, sites: &[Site], skip: &dyn Fn(Value) -> bool) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut seen: FxHashSet<Value> = FxHashSet::default();
    for s in sites {
        for &b in &s.continues {
            for &v in &live.live_in[b] {
                if !skip(v) && seen.insert(v) {
                    out.push(v);
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// Crossing values sorted by how they survive: allocas move into the frame, other values are
/// spilled, and allocas marked `!coro.outside.frame` stay out of it.
#[derive(Default)]
pub struct Candidates {
    pub allocas: Vec<Value>,
    pub spills: Vec<Value>,
    pub outside: Vec<Value>,
}

/// Sorts `crossing`; a value no memory can hold (a token) is an error.
pub fn classify(f: &Function, types: &TypeTable, crossing: &[Value], src: &str) -> Result<Candidates, Vec<Finding>> {
    let mut errors = Vec::new();
    let mut c = Candidates::default();
    let catch_objects = catch_objects(f);
    for &v in crossing {
        let def = f.value_inst(v);
        if is_unspillable(types, f.values[v].ty) {
            errors.push(error_at(
                f,
                def,
                "coro-token-across-suspend",
                format!("a {} value is live across a suspend point", types.display(f.values[v].ty)),
                "tokens cannot be saved in the coroutine frame; recreate the value after the suspend instead",
            ));
            continue;
        }
        match def {
            Some(i) if f.insts[i].op == Opcode::Alloca => {
                if has_attachment(f, i, src, "!coro.outside.frame") || catch_objects.contains(&v) {
                    // Never in the frame (as in LLVM): each split function has its own copy, which
                    // is right as long as nothing the ramp wrote there is read after a resume.
                    c.outside.push(v);
                    continue;
                }
                c.allocas.push(v);
            }
            _ => c.spills.push(v),
        }
    }
    if errors.is_empty() { Ok(c) } else { Err(errors) }
}

/// What the alloca phases share: use lists, dominators, every alloca's lifetime, and which blocks
/// run after some suspend. Computed once, after the lowering's own edits to the body.
pub struct Survey<'a> {
    pub src: &'a str,
    pub cfg: &'a Cfg,
    pub sites: &'a [Site],
    /// Uses of every value, when the function has an alloca (empty otherwise).
    pub use_map: FxHashMap<Value, Vec<Inst>>,
    pub dom: DomTree,
    /// Every alloca but the `pinned` ones (which have a fixed place of their own).
    pub all_allocas: Vec<Value>,
    pub lt: Lifetimes,
    pub lt_index: FxHashMap<Value, usize>,
    /// Blocks reachable from a block some suspend continues in.
    pub after_suspend: cranelift_entity::SecondaryMap<Block, bool>,
    /// The numbers of the suspends still in the body, in the order `lt` knows them.
    pub suspend_numbers: Vec<u32>,
    pub any_alloca: bool,
}

impl<'a> Survey<'a> {
    pub fn new(f: &Function, cfg: &'a Cfg, sites: &'a [Site], pinned: &[Value], src: &'a str) -> Survey<'a> {
        let suspend_blocks: Vec<Block> = sites.iter().filter_map(|s| f.insts[s.inst].block).collect();
        let suspend_numbers: Vec<u32> =
            sites.iter().filter(|s| f.insts[s.inst].block.is_some()).map(|s| s.index).collect();
        let any_alloca = f.inst_iter().any(|(_, i)| f.insts[i].op == Opcode::Alloca);
        let mut after_suspend: cranelift_entity::SecondaryMap<Block, bool> = cranelift_entity::SecondaryMap::new();
        let mut work: Vec<Block> = sites.iter().flat_map(|s| s.continues.iter().copied()).collect();
        while let Some(b) = work.pop() {
            if !after_suspend[b] {
                after_suspend[b] = true;
                work.extend(f.successors(b).iter().copied().filter(|&x| !after_suspend[x]));
            }
        }
        let mut use_map: FxHashMap<Value, Vec<Inst>> = FxHashMap::default();
        if any_alloca {
            for (_, u) in f.inst_iter() {
                for &x in &f.insts[u].args {
                    use_map.entry(x).or_default().push(u);
                }
            }
        }
        let dom = DomTree::compute(f, cfg);
        // Every alloca's lifetime, once: each alloca's answer does not depend on which others are asked.
        let all_allocas: Vec<Value> = f
            .inst_iter()
            .filter(|&(_, i)| f.insts[i].op == Opcode::Alloca)
            .filter_map(|(_, i)| f.insts[i].result)
            .filter(|a| !pinned.contains(a))
            .collect();
        // Where each suspend leaves: its block's successors it does not continue in.
        let mut exits: FxHashSet<(Block, Block)> = FxHashSet::default();
        for (s, b) in sites.iter().filter_map(|s| f.insts[s.inst].block.map(|b| (s, b))) {
            exits.extend(f.successors(b).iter().filter(|x| !s.continues.contains(x)).map(|&x| (b, x)));
        }
        let lt = lifetimes(f, cfg, &all_allocas, src, &suspend_blocks, &exits);
        let lt_index: FxHashMap<Value, usize> = all_allocas.iter().enumerate().map(|(k, &a)| (a, k)).collect();
        Survey { src, cfg, sites, use_map, dom, all_allocas, lt, lt_index, after_suspend, suspend_numbers, any_alloca }
    }

    /// May `a`'s bytes hold something needed at some suspend (by its lifetime markers)?
    pub fn at_suspend(&self, a: Value) -> bool {
        self.lt_index.get(&a).is_none_or(|&k| self.lt.at_suspend[k])
    }

    /// Allocas whose bytes are reached across a suspend though their own address is not live there:
    /// those a crossing pointer is derived from, and those whose address escapes (a copy may be read
    /// after the suspend) while they are alive at one. `stays(a)` keeps one out (the lowering's own
    /// reasons, such as being pinned or used where there is no frame yet).
    pub fn hidden_allocas(&self, f: &Function, c: &Candidates, stays: &dyn Fn(&Function, Value) -> bool) -> Vec<Value> {
        let mut hidden: Vec<Value> = c.spills.iter().flat_map(|&v| pointer_bases(f, v)).collect();
        hidden.extend(self.all_allocas.iter().copied().filter(|&a| {
            !c.allocas.contains(&a)
                && f.value_inst(a).is_some_and(|i| f.insts[i].args.is_empty())
                && self.at_suspend(a)
                && escapes(f, a, self.src, &self.use_map)
        }));
        hidden.sort_unstable();
        hidden.dedup();
        let mut out = Vec::new();
        for a in hidden {
            let Some(ai) = f.value_inst(a) else { continue };
            if c.allocas.contains(&a)
                || out.contains(&a)
                || has_attachment(f, ai, self.src, "!coro.outside.frame")
                || self.use_map.get(&a).is_some_and(|us| us.iter().any(|&u| f.insts[u].op == Opcode::CatchPad))
            {
                continue;
            }
            if !stays(f, a) {
                out.push(a);
            }
        }
        out
    }

    /// The frame allocas that need no frame slot after all: dead at every suspend by their lifetime
    /// markers, or (for an alloca only ever loaded and stored) no suspend with a store before it
    /// and a load after it. Each split function gets its own copy of them.
    pub fn local_allocas(&self, f: &Function, allocas: &[Value], ignored_reads: &FxHashSet<Inst>) -> Vec<Value> {
        allocas
            .iter()
            .copied()
            .filter(|&a| {
                let plain = f.value_inst(a).is_some_and(|i| f.insts[i].args.is_empty());
                plain
                    && (!self.at_suspend(a)
                        || (!escapes(f, a, self.src, &self.use_map)
                            && !memory_crosses(f, self.cfg, a, self.sites, ignored_reads, &self.use_map, self.src)))
            })
            .collect()
    }

    /// The pointers derived from `a` (itself included) and all their users.
    pub fn users_through_pointers(&self, f: &Function, a: Value) -> Vec<Inst> {
        derived(f, a, &self.use_map).iter().flat_map(|p| self.use_map.get(p).into_iter().flatten()).copied().collect()
    }

    /// Lays out `rest` (everything after the lowering's fixed header) by interference: fields never
    /// needed at the same time share bytes, the rest go by decreasing alignment, and gaps left by
    /// `fixed` fields are used too. Returns the end of the last byte used.
    pub fn pack(
        &self,
        f: &Function,
        live: &Liveness,
        rest: &mut [Field],
        fixed: &[Field],
        base: u64,
        ignored: &dyn Fn(Inst) -> bool,
    ) -> u64 {
        let clashes = interference::compute(f, live, rest, &self.all_allocas, &self.lt, ignored);
        let items: Vec<(u64, u64)> = rest.iter().map(|x| (x.size, x.align)).collect();
        let taken: Vec<(u64, u64)> = fixed.iter().map(|x| (x.offset, x.size)).collect();
        let (offsets, end) = layout::pack(&items, &clashes, base, &taken);
        for (fl, off) in rest.iter_mut().zip(offsets) {
            fl.offset = off;
        }
        end
    }

    /// The suspends across which an alloca's bytes hold something a later read needs (its lifetime
    /// markers trimmed as for sharing), when it has markers. Its address alone is live across
    /// nearly every suspend (the lifetime end is after them all), which would make fields that
    /// share bytes look alive at once.
    fn needed_across(&self, a: Value) -> Option<Vec<u32>> {
        let &k = self.lt_index.get(&a)?;
        if self.lt.always.get(k).copied().unwrap_or(true) {
            return None;
        }
        let held =
            |b: &Block| self.lt.touched.get(b).and_then(|t| t.get(k / 64)).is_some_and(|w| (w >> (k % 64)) & 1 == 1);
        Some(self.sites.iter().filter(|s| s.continues.iter().any(held)).map(|s| s.index).collect())
    }

    /// What the report shows of each field: the suspends it is live across (all of them for the
    /// header and for `always` fields such as a promise), its source variable and IR name.
    pub fn describe(&self, f: &Function, live: &Liveness, fields: &mut [Field], always: &dyn Fn(&FieldKind) -> bool) {
        let all: Vec<u32> = self.sites.iter().map(|s| s.index).collect();
        let mut var_of: FxHashMap<Value, u32> = FxHashMap::default();
        for (_, i) in f.inst_iter() {
            if f.insts[i].is_debug()
                && let Some(&v) = f.insts[i].args.first()
                && let Some(var) = debug_variable(f, i, self.src)
            {
                var_of.entry(v).or_insert(var);
            }
        }
        for fl in fields.iter_mut() {
            match fl.kind {
                FieldKind::Spill(v) | FieldKind::Alloca(v) | FieldKind::Promise(v) | FieldKind::Saved(v) => {
                    fl.live_across = self
                        .sites
                        .iter()
                        .filter(|s| s.continues.iter().any(|&b| live.live_in[b].contains(&v)))
                        .map(|s| s.index)
                        .collect();
                    let needed = match fl.kind {
                        FieldKind::Alloca(_) => self.needed_across(v),
                        _ => None,
                    };
                    if always(&fl.kind) {
                        fl.live_across = all.clone();
                    } else if let Some(needed) = needed {
                        fl.live_across = needed;
                    } else if fl.live_across.is_empty()
                        && let Some(&k) = self.lt_index.get(&v)
                    {
                        // Reached only through a derived or escaped pointer: where its lifetime spans.
                        fl.live_across =
                            self.lt.alive_at[k].iter().filter_map(|&j| self.suspend_numbers.get(j).copied()).collect();
                    }
                    fl.var = var_of.get(&v).copied();
                    fl.ir_name =
                        f.values[v].name.as_deref().filter(|n| !llir::print::is_numbered(n)).map(|n| format!("%{n}"));
                }
                _ => fl.live_across = all.clone(),
            }
        }
    }
}

/// An alloca's element type, size in bytes and alignment, if its size is a constant.
pub fn alloca_info(f: &Function, types: &TypeTable, dl: &DataLayout, v: Value, src: &str) -> Option<(Type, u64, u64)> {
    let i = f.value_inst(v)?;
    let Extra::Alloca { ty, align } = f.insts[i].extra else { return None };
    let count = match f.insts[i].args.first() {
        Some(&n) => u64::try_from(f.const_int(n, src)?).ok()?,
        None => 1,
    };
    let al = align.map_or_else(|| dl.abi_align(types, ty), |a| a as u64).max(1);
    Some((ty, dl.alloc_size(types, ty) * count, al))
}

/// Fields for the frame allocas and spills, in that order; an alloca of run-time size is an error.
pub fn value_fields(
    f: &Function,
    types: &TypeTable,
    dl: &DataLayout,
    allocas: &[Value],
    spills: &[Value],
    src: &str,
) -> (Vec<Field>, Vec<Finding>, Vec<Field>) {
    let mut errors = Vec::new();
    let mut alloca_fields = Vec::new();
    for &a in allocas {
        match alloca_info(f, types, dl, a, src) {
            Some((ty, size, align)) => alloca_fields.push(Field::new(FieldKind::Alloca(a), ty, size, align)),
            None => errors.push(error_at(
                f,
                f.value_inst(a),
                "coro-dynamic-alloca",
                "an alloca with a run-time size is live across a suspend point".into(),
                "give the alloca a constant size, or keep it between two suspends",
            )),
        }
    }
    let spill_fields = spills
        .iter()
        .map(|&v| {
            let ty = f.values[v].ty;
            Field::new(FieldKind::Spill(v), ty, dl.alloc_size(types, ty), dl.abi_align(types, ty))
        })
        .collect();
    (alloca_fields, errors, spill_fields)
}

/// The variable of a debug record or `llvm.dbg.*` call: the first `!N` after its value operand.
fn debug_variable(f: &Function, i: Inst, src: &str) -> Option<u32> {
    let mut after_value = false;
    for p in f.insts[i].tmpl.iter() {
        match p {
            llir::ir::Piece::Arg(0) => after_value = true,
            llir::ir::Piece::Text(t) if after_value => {
                let s = t.get(src);
                let k = s.find('!')?;
                let digits: String = s[k + 1..].chars().take_while(|c| c.is_ascii_digit()).collect();
                if let Ok(n) = digits.parse() {
                    return Some(n);
                }
            }
            _ => {}
        }
    }
    None
}

/// The slots of catch objects (operands of `catchpad`s, Windows EH). The runtime writes the
/// exception there as the handler starts, in the function that catches it, so such a slot is never
/// in the frame: each split function has its own, as LLVM keeps it on the stack.
pub fn catch_objects(f: &Function) -> Vec<Value> {
    let pads = f.insts.values().filter(|d| d.block.is_some() && d.op == Opcode::CatchPad);
    pads.flat_map(|d| d.args.iter().copied())
        .filter(|&a| f.value_inst(a).is_some_and(|i| f.insts[i].op == Opcode::Alloca))
        .collect()
}

/// Does instruction `i` carry metadata attachment `name` (such as `!coro.outside.frame`)?
pub fn has_attachment(f: &Function, i: Inst, src: &str, name: &str) -> bool {
    f.insts[i].tmpl.iter().any(|p| matches!(p, llir::ir::Piece::Text(t) if t.get(src).contains(name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_entity::EntityRef;

    #[test]
    fn an_alloca_aligned_beyond_the_cap_gets_the_bytes_it_lacks_and_a_realignment() {
        let types = TypeTable::new();
        let (i64t, v) = (types.i64, Value::new(0));
        let mut a = Field::new(FieldKind::Alloca(v), i64t, 32, 64);
        a.cap_align(16, i64t);
        assert_eq!((a.size, a.align), (32 + 48, 16));
        assert_eq!(a.realign, Some(Realign { align: 64, int_ptr: i64t }));
        // A spill is only stored less aligned, as LLVM does; an alloca within the cap is unchanged.
        let mut s = Field::new(FieldKind::Spill(v), i64t, 32, 64);
        s.cap_align(16, i64t);
        assert_eq!((s.size, s.align, s.realign), (32, 16, None));
        let mut b = Field::new(FieldKind::Alloca(v), i64t, 8, 16);
        b.cap_align(16, i64t);
        assert_eq!((b.size, b.align, b.realign), (8, 16, None));
    }
}
