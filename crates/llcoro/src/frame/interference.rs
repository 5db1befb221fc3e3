//! Which frame fields may share bytes, and the packing that gives every field its offset.
//!
//! Two fields clash when both can hold something still needed at one moment:
//! - the suspend index clashes with everything (it is read on every resume and destroy);
//! - two allocas clash when their lifetimes meet in some block (`allocas::Lifetimes`);
//! - two spilled SSA values clash when one is live where the other is defined. A spill slot is
//!   written right after its value's definition and read only where the value is used, so the
//!   slot holds something needed only where the value is live: SSA interference, exact to the
//!   instruction. It holds in every split function too, since each runs a piece of a path of the
//!   unsplit function;
//! - a spill and an alloca clash when some block has both the value live and the alloca's bytes
//!   needed (block level: conservative).
//!
//! LLVM's frame builder lets only allocas share; sharing spills is where most of the gain is.

use crate::frame::allocas::Lifetimes;
use crate::frame::layout::Clashes;
use crate::frame::{Field, FieldKind};
use llir::analysis::liveness::Liveness;
use llir::ir::{Block, Function, Inst, Opcode, Value, ValueKind};
use rustc_hash::FxHashMap;

/// The clash relation over `fields` (the frame's index, allocas and spills). `lt` describes
/// `allocas` (bit k is `allocas[k]`; those without a field play no part); `live` is the liveness the
/// spills were chosen by, and `ignored` the instructions whose uses it does not count.
pub fn compute(
    f: &Function,
    live: &Liveness,
    fields: &[Field],
    allocas: &[Value],
    lt: &Lifetimes,
    ignored: &dyn Fn(Inst) -> bool,
) -> Clashes {
    let n = fields.len();
    let mut c = Clashes::new(n);
    if c.all() {
        return c;
    }
    let alloca_field: FxHashMap<Value, usize> = fields
        .iter()
        .enumerate()
        .filter_map(|(k, x)| match x.kind {
            FieldKind::Alloca(v) => Some((v, k)),
            _ => None,
        })
        .collect();
    // Field number of each alloca bit in `lt`.
    let bit_field: Vec<Option<usize>> = allocas.iter().map(|v| alloca_field.get(v).copied()).collect();
    let mut spill_of: FxHashMap<Value, usize> = FxHashMap::default();
    for (k, x) in fields.iter().enumerate() {
        match x.kind {
            FieldKind::Spill(v) => {
                spill_of.insert(v, k);
            }
            FieldKind::Alloca(_) => {}
            _ => c.set_all(k),
        }
    }
    allocas_against_allocas(&mut c, &bit_field, lt);
    if spill_of.is_empty() {
        return c;
    }
    spills_against_spills(&mut c, f, live, &spill_of, ignored);
    if !bit_field.is_empty() {
        spills_against_allocas(&mut c, f, live, lt, &bit_field, &spill_of);
    }
    c
}

/// Alloca against alloca: their lifetimes meet (`bit_field` is the field of each of `lt`'s bits).
fn allocas_against_allocas(c: &mut Clashes, bit_field: &[Option<usize>], lt: &Lifetimes) {
    for (bi, &fi) in bit_field.iter().enumerate() {
        let Some(fi) = fi else { continue };
        if lt.always.get(bi).copied().unwrap_or(true) {
            c.set_all(fi);
            continue;
        }
        for (bj, &fj) in bit_field.iter().enumerate().skip(bi + 1) {
            if let Some(fj) = fj
                && lt.clash(bi, bj)
            {
                c.set(fi, fj);
            }
        }
    }
}

/// Spill against spill (`spill_of` is the field of each spilled value): walk each block holding a
/// spill's definition backwards from its live-out set; at a definition, everything live just after
/// it clashes with it.
fn spills_against_spills(
    c: &mut Clashes,
    f: &Function,
    live: &Liveness,
    spill_of: &FxHashMap<Value, usize>,
    ignored: &dyn Fn(Inst) -> bool,
) {
    let def_block = |v: Value| match f.values[v].kind {
        ValueKind::Param(_) => f.entry(),
        ValueKind::Inst(i) => f.insts[i].block,
        _ => None,
    };
    let mut def_blocks: Vec<Block> = spill_of.keys().filter_map(|&v| def_block(v)).collect();
    def_blocks.sort_unstable();
    def_blocks.dedup();
    let mut cur: Vec<usize> = Vec::new();
    for &b in &def_blocks {
        cur.clear();
        cur.extend(live.live_out[b].iter().filter_map(|v| spill_of.get(v)));
        for &i in f.blocks[b].insts.iter().rev() {
            let d = &f.insts[i];
            if let Some(r) = d.result
                && let Some(&k) = spill_of.get(&r)
            {
                cur.retain(|&x| x != k);
                for &x in &cur {
                    c.set(k, x);
                }
            }
            if d.op != Opcode::Phi && !d.is_debug() && !ignored(i) {
                for a in &d.args {
                    if let Some(&k) = spill_of.get(a)
                        && !cur.contains(&k)
                    {
                        cur.push(k);
                    }
                }
            }
        }
        if Some(b) == f.entry() {
            // Parameters are defined together before the entry block.
            let params: Vec<usize> = f.params.iter().filter_map(|p| spill_of.get(p).copied()).collect();
            for &p in &params {
                for &x in params.iter().chain(&cur) {
                    c.set(p, x);
                }
            }
        }
    }
}

/// Spill against alloca, by block: a spill live in or defined in a block where the alloca's bytes
/// are touched.
fn spills_against_allocas(
    c: &mut Clashes,
    f: &Function,
    live: &Liveness,
    lt: &Lifetimes,
    bit_field: &[Option<usize>],
    spill_of: &FxHashMap<Value, usize>,
) {
    let mut present: Vec<usize> = Vec::new();
    for (b, touched) in &lt.touched {
        present.clear();
        present.extend(live.live_in[*b].iter().chain(&live.live_out[*b]).filter_map(|v| spill_of.get(v)));
        present.extend(f.blocks[*b].insts.iter().filter_map(|&i| f.insts[i].result.and_then(|r| spill_of.get(&r))));
        if present.is_empty() {
            continue;
        }
        for (bi, &fi) in bit_field.iter().enumerate() {
            let Some(fi) = fi else { continue };
            if touched.get(bi / 64).is_some_and(|w| (w >> (bi % 64)) & 1 == 1) {
                for &s in &present {
                    c.set(fi, s);
                }
            }
        }
    }
}
