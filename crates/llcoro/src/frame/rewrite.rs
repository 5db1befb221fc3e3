//! The rewrite that makes a body keep its frame: uses of moved allocas become frame addresses,
//! what was written to them before the frame existed is copied in, spilled values are stored once
//! after their definition, and every use that can run after a suspend reads a reload (or a
//! recomputation) in its own block.

use crate::frame::remat::is_cheap;
use crate::frame::{Field, FieldKind, Moved};
use llir::analysis::cfg::Cfg;
use llir::analysis::dom::DomTree;
use llir::analysis::liveness::Liveness;
use llir::ir::build::Builder;
use llir::ir::{Block, Extra, Function, Inst, Opcode, Value, ValueKind};
use llir::layout::DataLayout;
use llir::types::{Type, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};

/// The frame address `off` bytes in, typed for `ty` in the typed-pointer dialect.
pub fn frame_addr(
    f: &mut Function,
    types: &mut TypeTable,
    frame: Value,
    off: u64,
    ty: Type,
    typed: bool,
) -> (Vec<Inst>, Value) {
    let mut b = Builder::new(f, types);
    let mut seq = Vec::new();
    let mut v = frame;
    if off != 0 || typed {
        let g = b.gep_i8(frame, off);
        seq.push(g);
        v = b.result(g);
    }
    if typed {
        let pt = b.types.pointer_to(ty, 0, true);
        let c = b.bitcast(v, pt);
        seq.push(c);
        v = b.result(c);
    }
    (seq, v)
}

/// The address of moved alloca `m` in the frame at `frame`: its field's, or, when the field is
/// less aligned than the alloca (`Realign`), the field's rounded up at run time to the alloca's
/// alignment, as LLVM does in an async context.
pub fn alloca_addr(
    f: &mut Function,
    types: &mut TypeTable,
    frame: Value,
    m: &Moved,
    typed: bool,
) -> (Vec<Inst>, Value) {
    let Some(r) = m.realign else { return frame_addr(f, types, frame, m.offset, m.ty, typed) };
    let to = if typed { types.pointer_to(m.ty, 0, true) } else { f.values[frame].ty };
    let mut b = Builder::new(f, types);
    let mut seq = Vec::new();
    let mut field = frame;
    if m.offset != 0 {
        let g = b.gep_i8(frame, m.offset);
        seq.push(g);
        field = b.result(g);
    }
    let int = b.cast(Opcode::PtrToInt, "ptrtoint", field, r.int_ptr);
    let plus = b.f.const_value(r.int_ptr, &(r.align - 1).to_string());
    let up = b.binary(Opcode::Add, "add", b.result(int), plus);
    let mask = b.f.const_value(r.int_ptr, &format!("-{}", r.align));
    let down = b.binary(Opcode::And, "and", b.result(up), mask);
    let addr = b.cast(Opcode::IntToPtr, "inttoptr", b.result(down), to);
    seq.extend([int, up, down, addr]);
    (seq, b.result(addr))
}

/// The DWARF operations that find moved alloca `m` from the frame's address: `+ offset`, then,
/// realigned, `+ (align - 1)` and `& -align` (as LLVM describes such a variable). Empty at offset 0.
fn frame_ops(m: &Moved) -> String {
    let mut ops = Vec::new();
    if m.offset != 0 {
        ops.push(format!("DW_OP_plus_uconst, {}", m.offset));
    }
    if let Some(r) = m.realign {
        ops.push(format!("DW_OP_plus_uconst, {}, DW_OP_constu, {}, DW_OP_and", r.align - 1, r.align.wrapping_neg()));
    }
    ops.join(", ")
}

/// Rewrites operand `k` of debug record `u` from an alloca to `frame` + `ops` (DWARF operations put
/// first in its expression). False if the record has no inline `!DIExpression(`.
pub fn point_into_frame(f: &mut Function, u: Inst, k: usize, frame: Value, ops: &str, src: &str) -> bool {
    let tmpl = &f.insts[u].tmpl;
    let Some(at) = tmpl.iter().position(|p| matches!(p, llir::ir::Piece::Arg(x) if *x as usize == k)) else {
        return false;
    };
    let Some(pi) = (at + 1..tmpl.len())
        .find(|&i| matches!(&tmpl[i], llir::ir::Piece::Text(t) if di_expression_open(t.get(src)).is_some()))
    else {
        return false;
    };
    if !ops.is_empty() {
        let llir::ir::Piece::Text(t) = &tmpl[pi] else { return false };
        let text = t.get(src);
        let Some((open, empty)) = di_expression_open(text) else { return false };
        let new = format!("{}{ops}{}{}", &text[..open], if empty { "" } else { ", " }, &text[open..]);
        if let Some(slot) = f.insts[u].tmpl_mut().get_mut(pi) {
            *slot = llir::ir::Piece::Text(llir::ir::Text::own(new));
        }
    }
    f.insts[u].args[k] = frame;
    true
}

/// Where the operations of the first inline `!DIExpression(...)` in `text` start (just past its
/// `(`, space allowed before it), and whether it has none.
pub fn di_expression_open(text: &str) -> Option<(usize, bool)> {
    let k = text.find("!DIExpression")? + "!DIExpression".len();
    let open = k + text.get(k..)?.len() - text.get(k..)?.trim_start().len();
    if text.get(open..)?.starts_with('(') {
        Some((open + 1, text.get(open + 1..)?.trim_start().starts_with(')')))
    } else {
        None
    }
}

/// In a typed-pointer debug record, the type spelled before operand `k` (`metadata %T* %x`) becomes
/// `ty`, for the new operand it is given.
pub fn retype_metadata_operand(f: &mut Function, u: Inst, k: usize, ty: &str, src: &str) {
    let tmpl = &f.insts[u].tmpl;
    let Some(at) = tmpl.iter().position(|p| matches!(p, llir::ir::Piece::Arg(x) if *x as usize == k)) else {
        return;
    };
    let Some(llir::ir::Piece::Text(t)) = at.checked_sub(1).and_then(|i| tmpl.get(i)) else { return };
    let text = t.get(src);
    let Some(p) = text.rfind("metadata ") else { return };
    let new = format!("{}{ty} ", &text[..p + "metadata ".len()]);
    if let Some(slot) = f.insts[u].tmpl_mut().get_mut(at - 1) {
        *slot = llir::ir::Piece::Text(llir::ir::Text::own(new));
    }
}

/// The uses (instruction, operand) of every value the rewrite moves, reloads or recomputes, and of
/// the no-op casts of those, found in one pass with a dense mark per value instead of a hash per
/// operand.
pub fn frame_uses(f: &Function, fields: &[Field], remat: &[Value]) -> FxHashMap<Value, Vec<(Inst, usize)>> {
    let mut wanted: cranelift_entity::SecondaryMap<Value, bool> = cranelift_entity::SecondaryMap::new();
    for fl in fields {
        if let FieldKind::Promise(v) | FieldKind::Alloca(v) | FieldKind::Spill(v) | FieldKind::Saved(v) = fl.kind {
            wanted[v] = true;
        }
    }
    for &v in remat {
        wanted[v] = true;
    }
    for (_, i) in f.inst_iter() {
        let d = &f.insts[i];
        if matches!(d.op, Opcode::BitCast | Opcode::AddrSpaceCast)
            && d.args.first().is_some_and(|&a| wanted[a])
            && let Some(r) = d.result
        {
            wanted[r] = true;
        }
    }
    let mut uses: FxHashMap<Value, Vec<(Inst, usize)>> = FxHashMap::default();
    for (_, i) in f.inst_iter() {
        for (k, &a) in f.insts[i].args.iter().enumerate() {
            if wanted[a] {
                uses.entry(a).or_default().push((i, k));
            }
        }
    }
    uses
}

/// What `move_allocas` needs to know of the body.
pub struct MoveSites<'a> {
    pub frame: Value,
    pub typed: bool,
    pub src: &'a str,
    /// Uses that run before the frame exists: they keep the alloca, and what they wrote is copied
    /// in later (`copy_in`).
    pub before_frame: &'a dyn Fn(&Function, Inst) -> bool,
    /// Uses that name the alloca without accessing it (coro.id's promise operand): left alone.
    pub ignore_use: &'a dyn Fn(&Function, Inst) -> bool,
    /// Instructions the lowering removes later; a no-op cast made before the frame exists that only
    /// they use becomes null.
    pub removed_later: &'a dyn Fn(&Function, Inst) -> bool,
}

/// Makes every use of each moved alloca (alloca, offset, type) use its frame field instead, and
/// removes the alloca unless code before the frame still uses it. Returns the allocas written
/// before the frame exists, and the debug records now pointing into the frame.
pub fn move_allocas(
    f: &mut Function,
    types: &mut TypeTable,
    at: &MoveSites<'_>,
    moved: &[Moved],
    uses: &FxHashMap<Value, Vec<(Inst, usize)>>,
) -> (Vec<Moved>, Vec<Inst>) {
    let src = at.src;
    let frame_val = at.frame;
    let mut keep_before: Vec<Moved> = Vec::new();
    let mut declares = Vec::new();
    for m in moved {
        let a = m.value;
        for &(u, k) in uses.get(&a).map(|v| v.as_slice()).unwrap_or(&[]) {
            if f.insts[u].block.is_none() {
                continue;
            }
            if (at.ignore_use)(f, u) {
                continue;
            }
            let before = (at.before_frame)(f, u);
            if f.insts[u].is_debug() && !before {
                // The variable now lives in the frame: describe it as frame + offset, so debuggers
                // find it in every split function (the frame pointer is each part's parameter).
                if point_into_frame(f, u, k, frame_val, &frame_ops(m), src) {
                    if at.typed {
                        let fty = types.display(f.values[frame_val].ty);
                        retype_metadata_operand(f, u, k, &fty, src);
                    }
                    declares.push(u);
                    continue;
                }
            }
            if crate::frame::allocas::is_lifetime(f, u, src) || f.insts[u].is_debug() {
                // Lifetime markers must name an alloca; a debug record that cannot be pointed into
                // the frame is dropped rather than left pointing at a stack slot that is gone.
                f.remove_inst(u);
                continue;
            }
            if before && matches!(f.insts[u].op, Opcode::BitCast | Opcode::AddrSpaceCast) {
                // A no-op cast feeding only instructions removed later (clang 19 wraps the promise
                // this way for coro.id).
                if let Some(r) = f.insts[u].result
                    && uses.get(&r).is_none_or(|us| us.iter().all(|&(x, _)| (at.removed_later)(f, x)))
                {
                    let ty = f.values[r].ty;
                    let null = f.const_value(ty, "null");
                    f.replace_all_uses(r, null);
                    f.remove_inst(u);
                    continue;
                }
            }
            if before {
                // Before the frame exists the alloca stays for these uses, and what they wrote is
                // copied into the frame once it does (as LLVM does after coro.begin).
                keep_before.push(*m);
                continue;
            }
            let to = use_point(f, u, k);
            let (mut seq, mut addr) = alloca_addr(f, types, frame_val, m, at.typed);
            // An alloca in another address space: its users get the frame address cast to it.
            let want = f.values[a].ty;
            if f.values[addr].ty != want && !at.typed {
                let c = Builder::new(f, types).addrspacecast(addr, want);
                seq.push(c);
                addr = f.insts[c].result.unwrap_or(addr);
            }
            insert_all(f, to, seq);
            f.insts[u].args[k] = addr;
        }
        if keep_before.iter().any(|x| x.value == a) {
            continue;
        }
        if let Some(i) = f.value_inst(a) {
            f.remove_inst(i);
        }
    }
    (keep_before, declares)
}

/// Allocas written before the frame exists: after `ready` (where the frame pointer becomes
/// usable), their contents are copied into their frame fields.
#[allow(clippy::too_many_arguments)]
pub fn copy_in(
    f: &mut Function,
    types: &mut TypeTable,
    dl: &DataLayout,
    frame: Value,
    ready: Inst,
    mut written_before: Vec<Moved>,
    typed: bool,
) {
    let Some(ready_block) = f.insts[ready].block else { return };
    written_before.sort_by_key(|x| x.value);
    written_before.dedup_by_key(|x| x.value);
    for m in &written_before {
        let (a, ty) = (m.value, m.ty);
        let Some(pos) = f.blocks[ready_block].insts.iter().position(|&x| x == ready) else { continue };
        let Some(ai) = f.value_inst(a) else { continue };
        let al = match f.insts[ai].extra {
            Extra::Alloca { align: Some(x), .. } => x as u64,
            _ => dl.abi_align(types, ty),
        };
        let mut seq = Vec::new();
        let mut b = Builder::new(f, types);
        let ld = b.load(ty, a, al);
        let v = b.result(ld);
        seq.push(ld);
        let (mut addr_seq, addr) = alloca_addr(f, types, frame, m, typed);
        seq.append(&mut addr_seq);
        seq.push(Builder::new(f, types).store(v, addr, al));
        insert_all(f, (ready_block, pos + 1), seq);
    }
}

/// The frame pointer to use at one place: `frame`, or a fresh load of the slot holding it.
fn current_frame(f: &mut Function, types: &mut TypeTable, frame: Value, slot: Option<Value>) -> (Vec<Inst>, Value) {
    let Some(slot) = slot else { return (Vec::new(), frame) };
    let ty = f.values[frame].ty;
    let ld = Builder::new(f, types).load(ty, slot, 8);
    let v = f.insts[ld].result.unwrap_or(frame);
    (vec![ld], v)
}

/// What `spill_and_reload` needs to know of the body.
pub struct SpillSites<'a> {
    pub frame: Value,
    /// When the frame moves (a stackless frame the GC relocates), the alloca holding the current
    /// frame pointer: every access loads it first, and `frame` is not used.
    pub frame_slot: Option<Value>,
    pub typed: bool,
    /// Where the frame pointer becomes usable; values defined before it are stored right after it.
    pub ready: Inst,
    pub before_frame: &'a dyn Fn(&Function, Inst) -> bool,
    /// Uses that keep the SSA value (its definition dominates them there), and are never reloaded.
    pub keeps_value: &'a dyn Fn(&Function, Inst) -> bool,
    /// The blocks each suspend continues in.
    pub continues: Vec<Block>,
    /// Instructions a lowering put at the top of a block that reloads there must come after (a
    /// stackless call's new frame pointer), as (block, how many).
    pub head: Vec<(Block, usize)>,
    /// Each suspend as the instruction where execution leaves (the frame must hold every value
    /// live across it by then) and the blocks it continues in. Given, a spill is stored before the
    /// first suspends it crosses rather than after its definition, where every block that reloads
    /// it lies below such a store: a path that never suspends then stores nothing. Empty: stored
    /// after the definition (switched-resume coroutines, whose `coro.save` can resume the
    /// coroutine elsewhere before its suspend is reached).
    pub leaves: Vec<(Inst, Vec<Block>)>,
}

/// Stores every spilled value once after its definition, and makes every use that can run after a
/// suspend while the value is live read a reload or a recomputation in its own block.
pub fn spill_and_reload(
    f: &mut Function,
    types: &mut TypeTable,
    at: &SpillSites<'_>,
    live: &Liveness,
    fields: &[Field],
    remat: &[Value],
    uses: &FxHashMap<Value, Vec<(Inst, usize)>>,
) {
    let mut slot_of: FxHashMap<Value, (u64, Type, u64)> = FxHashMap::default();
    for fl in fields {
        if let FieldKind::Spill(v) | FieldKind::Saved(v) = fl.kind {
            slot_of.insert(v, (fl.offset, fl.ty, fl.align));
        }
    }
    // Decided before any store goes in: a store after an invoke may split an edge.
    let sunk = sunk_stores(f, at, live, fields);
    let mut order = store_spills(f, types, at, fields, &sunk);
    order.extend(remat.iter().copied());
    // A recomputed value is made from its operands as they are now, before reloads rewrite them: a
    // reload belongs to one block, and a recomputation may be needed in another. So is every cheap
    // operand recomputed along with it (which is no frame value itself).
    let remat_args = original_operands(f, remat, &slot_of);
    let mut reloads = Reloads {
        frame: at.frame,
        frame_slot: at.frame_slot,
        typed: at.typed,
        slot_of,
        remat_args,
        memo: FxHashMap::default(),
        top: at.head.iter().copied().collect(),
    };
    let mut flood = Flood { stamp: cranelift_entity::SecondaryMap::new(), no: 0 };
    for v in order {
        flood.fill(f, &at.continues, live, v);
        let my_uses: Vec<(Inst, usize)> = uses.get(&v).cloned().unwrap_or_default();
        for (u, k) in my_uses {
            let Some(ub) = f.insts[u].block else { continue };
            if (at.keeps_value)(f, u) {
                continue;
            }
            let phi = f.insts[u].op == Opcode::Phi;
            let target = if phi { f.insts[u].blocks[k] } else { ub };
            if !flood.contains(target) {
                continue;
            }
            let r = reloads.get(f, types, v, target, phi);
            f.insts[u].args[k] = r;
        }
    }
}

/// Where each spill's stores go when they are sunk to the suspends it crosses (`at.leaves`):
/// before which instructions. Empty when stores follow definitions.
fn sunk_stores(f: &Function, at: &SpillSites<'_>, live: &Liveness, fields: &[Field]) -> FxHashMap<Value, Vec<Inst>> {
    if at.leaves.is_empty() {
        return FxHashMap::default();
    }
    let dom = DomTree::compute(f, &Cfg::compute(f));
    fields
        .iter()
        .filter_map(|fl| match fl.kind {
            FieldKind::Spill(v) => Some((v, sink_points(f, &dom, at, live, v)?)),
            _ => None,
        })
        .collect()
}

/// Stores each spill in its field, after its definition or before the instructions `sunk` says;
/// returns the values to reload, in field order (those the front end saves itself among them).
fn store_spills(
    f: &mut Function,
    types: &mut TypeTable,
    at: &SpillSites<'_>,
    fields: &[Field],
    sunk: &FxHashMap<Value, Vec<Inst>>,
) -> Vec<Value> {
    let mut order: Vec<Value> = Vec::new();
    for fl in fields {
        if let FieldKind::Saved(v) = fl.kind {
            order.push(v);
        }
        let FieldKind::Spill(v) = fl.kind else { continue };
        // Each suspend found again as stores go in (no two are in one block: one would dominate
        // the other).
        let points: Vec<(Block, usize)> = match sunk.get(&v) {
            Some(before) => {
                before.iter().filter(|&&i| f.insts[i].block.is_some()).map(|&i| use_point(f, i, 0)).collect()
            }
            None => vec![store_point(f, types, v, at.ready, at.before_frame, &at.head)],
        };
        for to in points {
            let (mut seq, frame) = current_frame(f, types, at.frame, at.frame_slot);
            let (mut addr_seq, addr) = frame_addr(f, types, frame, fl.offset, fl.ty, at.typed);
            seq.append(&mut addr_seq);
            let st = Builder::new(f, types).store(v, addr, fl.align);
            seq.push(st);
            insert_all(f, to, seq);
        }
        order.push(v);
    }
    order
}

/// The blocks flooded from the suspend successors through blocks where one value is live. A stamp
/// per block (the value's number) marks the flooded ones without clearing anything between values.
struct Flood {
    stamp: cranelift_entity::SecondaryMap<Block, u32>,
    no: u32,
}

impl Flood {
    /// Floods from the blocks of `from` where `v` is live.
    fn fill(&mut self, f: &Function, from: &[Block], live: &Liveness, v: Value) {
        self.no += 1;
        let lives = |b: Block| live.live_in[b].contains(&v);
        let mut work: Vec<Block> = from.iter().copied().filter(|&b| lives(b)).collect();
        while let Some(b) = work.pop() {
            if self.stamp[b] == self.no {
                continue;
            }
            self.stamp[b] = self.no;
            for &s in f.successors(b) {
                if self.stamp[s] != self.no && lives(s) {
                    work.push(s);
                }
            }
        }
    }

    fn contains(&self, b: Block) -> bool {
        self.stamp[b] == self.no
    }
}

/// The operands of each value in `remat`, and of each cheap operand that recomputing one recomputes
/// in turn (down to frame values, which are reloaded), as they are before any reload replaces them.
fn original_operands(
    f: &Function,
    remat: &[Value],
    slot_of: &FxHashMap<Value, (u64, Type, u64)>,
) -> FxHashMap<Value, Vec<Value>> {
    let mut out: FxHashMap<Value, Vec<Value>> = FxHashMap::default();
    let mut work: Vec<Value> = remat.to_vec();
    while let Some(v) = work.pop() {
        if out.contains_key(&v) {
            continue;
        }
        // A value in `remat` is cheap (`rematerialisable` chose it so); so is what it recomputes.
        let Some(i) = f.value_inst(v).filter(|&i| is_cheap(f, i)) else { continue };
        let args = f.insts[i].args.to_vec();
        work.extend(args.iter().copied().filter(|a| !slot_of.contains_key(a) && !f.is_const(*a)));
        out.insert(v, args);
    }
    out
}

/// The suspends before which a spill of `v` is stored instead of after its definition: those it is
/// live across that no other such suspend comes before (dominates). `None` (store after the
/// definition) unless every block a reload of `v` can go to (reached from a continuation while `v`
/// is live) lies strictly below one of them, and the frame is ready before each.
fn sink_points(f: &Function, dom: &DomTree, at: &SpillSites<'_>, live: &Liveness, v: Value) -> Option<Vec<Inst>> {
    let lives = |b: Block| live.live_in[b].contains(&v);
    let crossed: Vec<(Inst, &[Block])> = at
        .leaves
        .iter()
        .filter(|(_, conts)| conts.iter().any(|&c| lives(c)))
        .map(|(i, conts)| (*i, conts.as_slice()))
        .collect();
    if crossed.is_empty() {
        return None;
    }
    let first: Vec<Inst> = crossed
        .iter()
        .map(|&(i, _)| i)
        .filter(|&i| !crossed.iter().any(|&(o, _)| o != i && inst_dominates(f, dom, o, i)))
        .collect();
    if !first.iter().all(|&i| inst_dominates(f, dom, at.ready, i)) {
        return None;
    }
    let blocks: Vec<Block> = first.iter().filter_map(|&i| f.insts[i].block).collect();
    let covered = |b: Block| blocks.iter().any(|&c| c != b && dom.dominates(c, b));
    let mut seen: FxHashSet<Block> = FxHashSet::default();
    let mut work: Vec<Block> =
        crossed.iter().flat_map(|&(_, conts)| conts.iter().copied()).filter(|&b| lives(b)).collect();
    while let Some(b) = work.pop() {
        if !seen.insert(b) {
            continue;
        }
        if !covered(b) {
            return None;
        }
        work.extend(f.successors(b).iter().copied().filter(|&s| lives(s)));
    }
    Some(first)
}

/// `a` comes before `b` on every path to `b` (or is `b`).
fn inst_dominates(f: &Function, dom: &DomTree, a: Inst, b: Inst) -> bool {
    let (Some(ba), Some(bb)) = (f.insts[a].block, f.insts[b].block) else { return false };
    if ba == bb {
        let pos = |x: Inst| f.blocks[ba].insts.iter().position(|&y| y == x);
        return pos(a) <= pos(b);
    }
    dom.dominates(ba, bb)
}

/// The value of a frame-resident value at the top (or, for phi operands, the end) of a block
/// reached from a suspend: a load from its slot, or its recomputation from such values.
struct Reloads {
    frame: Value,
    frame_slot: Option<Value>,
    typed: bool,
    slot_of: FxHashMap<Value, (u64, Type, u64)>,
    /// The operands of each recomputed value's instruction, before any reload replaced them.
    remat_args: FxHashMap<Value, Vec<Value>>,
    memo: FxHashMap<(Value, Block, bool), Value>,
    /// How many instructions this pass has put at the top of each block, so that later ones go
    /// after the operands they use.
    top: FxHashMap<Block, usize>,
}

impl Reloads {
    fn get(&mut self, f: &mut Function, types: &mut TypeTable, v: Value, b: Block, at_end: bool) -> Value {
        if v == self.frame || f.is_const(v) {
            return v;
        }
        if let Some(&r) = self.memo.get(&(v, b, at_end)) {
            return r;
        }
        let (seq, r) = if let Some(&(off, ty, align)) = self.slot_of.get(&v) {
            let (mut seq, frame) = current_frame(f, types, self.frame, self.frame_slot);
            let (mut addr_seq, addr) = frame_addr(f, types, frame, off, ty, self.typed);
            seq.append(&mut addr_seq);
            let mut bl = Builder::new(f, types);
            let l = bl.load(ty, addr, align);
            let r = bl.result(l);
            seq.push(l);
            (seq, r)
        } else if let Some(i) = f.value_inst(v).filter(|&i| is_cheap(f, i)) {
            // Rematerialised: the same instruction over the operands' values here.
            let mut data = f.insts[i].clone();
            if let Some(orig) = self.remat_args.get(&v) {
                data.args = orig.iter().copied().collect();
            }
            for k in 0..data.args.len() {
                data.args[k] = self.get(f, types, data.args[k], b, at_end);
            }
            let c = f.create_inst(types, data);
            let Some(r) = f.insts[c].result else { return v };
            (vec![c], r)
        } else {
            return v;
        };
        let at = if at_end {
            (b, f.blocks[b].insts.len().saturating_sub(1))
        } else {
            let n = self.top.entry(b).or_insert(0);
            let at = (b, f.first_insertion_point(b) + *n);
            *n += seq.len();
            at
        };
        insert_all(f, at, seq);
        self.memo.insert((v, b, at_end), r);
        r
    }
}

/// Where code that feeds operand `k` of `u` goes: right before `u`, or at the end of the incoming
/// block for a phi.
pub fn use_point(f: &Function, u: Inst, k: usize) -> (Block, usize) {
    let d = &f.insts[u];
    if d.op == Opcode::Phi {
        let inb = d.blocks[k];
        (inb, f.blocks[inb].insts.len().saturating_sub(1))
    } else {
        let b = d.block.expect("placed");
        (b, f.blocks[b].insts.iter().position(|&x| x == u).unwrap_or(0))
    }
}

/// Where a spill of `v` is stored: right after its definition, or right after `ready` (where the
/// frame pointer becomes usable) for values defined before the frame exists (`before_frame`). A
/// value defined in a block's head (a stackless call's result) is stored after the head, which
/// records where the frame is now: stored earlier, it would go to the frame before it moved.
fn store_point(
    f: &mut Function,
    types: &TypeTable,
    v: Value,
    ready: Inst,
    before_frame: &dyn Fn(&Function, Inst) -> bool,
    head: &[(Block, usize)],
) -> (Block, usize) {
    let after = |f: &Function, i: Inst| -> (Block, usize) {
        let b = f.insts[i].block.expect("placed");
        (b, f.blocks[b].insts.iter().position(|&x| x == i).map_or(0, |p| p + 1))
    };
    let def = match f.values[v].kind {
        ValueKind::Inst(i) => i,
        _ => return after(f, ready),
    };
    if before_frame(f, def) {
        return after(f, ready);
    }
    let b = f.insts[def].block.expect("placed");
    match f.insts[def].op {
        Opcode::Phi | Opcode::LandingPad => (b, f.first_insertion_point(b)),
        Opcode::Invoke => {
            // The result exists only on the normal edge; give that edge a block of its own.
            let normal = f.insts[def].blocks[0];
            let nb = if f.phis(normal).is_empty() && Cfg::compute(f).preds(normal).len() == 1 {
                normal
            } else {
                f.split_successor(types, b, 0, None).unwrap_or(normal)
            };
            (nb, f.first_insertion_point(nb))
        }
        _ => {
            let (db, pos) = after(f, def);
            match head.iter().find(|&&(hb, _)| hb == db) {
                Some(&(_, n)) if pos < n => (db, n),
                _ => (db, pos),
            }
        }
    }
}

pub fn insert_all(f: &mut Function, at: (Block, usize), seq: Vec<Inst>) {
    for (k, i) in seq.into_iter().enumerate() {
        f.insert_inst_at(at.0, at.1 + k, i);
    }
}
