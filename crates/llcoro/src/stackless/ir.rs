//! What the stackless phases build alike: the address of a slot at an offset from a frame pointer,
//! the `i8*` casts typed IR needs, `{sp, v}` pairs, and the input's place given to what llcoro makes
//! instead of an intrinsic.

use llir::ir::build::Builder;
use llir::ir::{Function, Inst, InstData, Opcode, Value};
use llir::types::{Type, TypeTable};

/// `v` as an `i8*` in typed IR (a bitcast when it is another pointer type).
pub(super) fn as_i8(f: &mut Function, types: &mut TypeTable, v: Value, typed: bool) -> (Vec<Inst>, Value) {
    let ptr = types.ptr;
    if !typed || f.values[v].ty == ptr {
        return (Vec::new(), v);
    }
    let c = Builder::new(f, types).bitcast(v, ptr);
    let r = f.insts[c].result.unwrap_or(v);
    (vec![c], r)
}

/// Places `seq` right after `i`, in order.
pub(super) fn insert_after(f: &mut Function, i: Inst, seq: Vec<Inst>) {
    let Some(b) = f.insts[i].block else { return };
    let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == i) else { return };
    for (k, x) in seq.into_iter().enumerate() {
        f.insert_inst_at(b, pos + 1 + k, x);
    }
}

/// The address `off` bytes from frame pointer `sp`, typed for `ty`.
pub(super) fn slot_addr(
    f: &mut Function,
    types: &mut TypeTable,
    sp: Value,
    off: i64,
    ty: Type,
    typed: bool,
) -> (Vec<Inst>, Value) {
    let (mut seq, base) = as_i8(f, types, sp, typed);
    let mut b = Builder::new(f, types);
    let mut v = base;
    if off != 0 {
        let g = if off > 0 { b.gep_i8(base, off as u64) } else { b.gep_i8_neg(base, off.unsigned_abs()) };
        seq.push(g);
        v = b.result(g);
    }
    if typed {
        let pt = b.types.pointer_to(ty, 0, true);
        if b.types.ptr != pt {
            let c = b.bitcast(v, pt);
            seq.push(c);
            v = b.result(c);
        }
    }
    (seq, v)
}

/// What llcoro made in the place of an intrinsic gets its place in the input.
pub(super) fn stamp(f: &mut Function, made: &[Inst], span: llir::Span) {
    for &i in made {
        f.insts[i].span = span;
    }
}

/// `{first, second}` of type `ty` built by two `insertvalue`s (not yet placed), and its value.
pub(super) fn make_pair(
    f: &mut Function,
    types: &mut TypeTable,
    ty: Type,
    first: Value,
    second: Value,
) -> Option<(Vec<Inst>, Value)> {
    let (a, av) = insert_value(f, types, ty, None, first, 0)?;
    let (b, bv) = insert_value(f, types, ty, Some(av), second, 1)?;
    Some((vec![a, b], bv))
}

/// `{sp}` of type `ty` (not yet placed), and its value.
pub(super) fn wrap(f: &mut Function, types: &mut TypeTable, ty: Type, sp: Value) -> Option<(Vec<Inst>, Value)> {
    let (a, av) = insert_value(f, types, ty, None, sp, 0)?;
    Some((vec![a], av))
}

/// `insertvalue ty into, v, idx` (into `poison` when None), not yet placed.
fn insert_value(
    f: &mut Function,
    types: &mut TypeTable,
    ty: Type,
    into: Option<Value>,
    v: Value,
    idx: u32,
) -> Option<(Inst, Value)> {
    let text = types.display(ty);
    let v_ty = types.display(f.values[v].ty);
    let t = llir::ir::edit::t;
    let (mut tmpl, args) = match into {
        None => (vec![t(&format!("insertvalue {text} poison, {v_ty} ")), llir::ir::Piece::Arg(0)], vec![v]),
        Some(agg) => (
            vec![
                t(&format!("insertvalue {text} ")),
                llir::ir::Piece::Arg(0),
                t(&format!(", {v_ty} ")),
                llir::ir::Piece::Arg(1),
            ],
            vec![agg, v],
        ),
    };
    tmpl.push(t(&format!(", {idx}")));
    let mut d = InstData::new(Opcode::InsertValue, ty, tmpl);
    d.args.extend(args);
    let i = f.create_inst(types, d);
    Some((i, f.insts[i].result?))
}
