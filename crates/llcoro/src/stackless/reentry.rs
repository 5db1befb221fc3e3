//! The re-entry function of a stackless function (`@f.reenter`): given a captured frame and the
//! result its pending call would have returned, it continues `f` after that call site, with every
//! value reloaded from the frame.

use super::Returns;
use super::ir::{make_pair, slot_addr, wrap};
use super::statepoint::LoweredSite;
use crate::diag::block_name;
use cranelift_entity::SecondaryMap;
use llir::ir::build::Builder;
use llir::ir::{Block, Function, Inst, InstData, Opcode, Value};
use llir::types::{Type, TypeTable};

/// The re-entry function. A runtime calls it with a captured frame and a pointer to the result the
/// frame's pending call would have returned; it reads the key in the frame's return-address slot,
/// and continues after that call site with every value reloaded from the frame. It is `f`'s code
/// from the call sites on: what runs before the first call is not there.
pub(super) fn reentry(
    f: &Function,
    types: &mut TypeTable,
    sites: &[LoweredSite],
    slot: Value,
    typed: bool,
    src: &str,
) -> Option<Function> {
    let ra = sites.first()?.ra;
    if sites.iter().any(|s| s.ra != ra) {
        return None;
    }
    let (mut g, frame, result, entry) = shell(f, types, src);
    let mut vmap: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
    for &p in &f.params {
        let ty = f.values[p].ty;
        vmap[p] = Some(g.const_value(ty, "poison"));
    }
    vmap[slot] = Some(captured_frame_slot(f, &mut g, types, slot, frame, entry)?);
    let copied = reachable_from_sites(f, sites);
    // Per call site, what the call would have returned: {frame, *result} (or {frame}, or frame).
    let mut landing = Vec::new();
    for site in sites {
        let name = g.unique_block_name("reenter.site");
        let lb = g.create_block(Some(&name));
        let (made, agg) = landing_value(f, &mut g, types, site, (frame, result), typed)?;
        for i in made {
            g.append_inst(lb, i);
        }
        // A call that is not copied (nothing after a call site leads to it) is its landing value.
        if let Some(r) = f.insts[site.call].result
            && !f.insts[site.call].block.is_some_and(|b| copied[b])
        {
            vmap[r] = Some(agg);
        }
        landing.push((lb, agg));
    }
    let roots: Vec<Block> = sites.iter().map(|s| s.cont).collect();
    let maps = g.clone_reachable_from(f, &mut vmap, &roots);
    for (site, &(lb, agg)) in sites.iter().zip(&landing) {
        enter_continuation(&mut g, types, site, (lb, agg), &maps)?;
    }
    dispatch(f, &mut g, types, sites, &landing, (entry, frame, ra), typed)?;
    crate::coro::split::strip_debug(&mut g);
    Some(g)
}

/// `define internal {f's return type} @f.reenter(ptr %frame, ptr %result)` with an empty entry
/// block, and those three.
fn shell(f: &Function, types: &TypeTable, src: &str) -> (Function, Value, Value, Block) {
    let ptr = types.ptr;
    let header = llir::ir::Header {
        prefix: llir::ir::Text::own("define internal "),
        ret: f.header.ret,
        params: vec![
            llir::ir::Param { ty: ptr, attrs: llir::ir::Text::own("") },
            llir::ir::Param { ty: ptr, attrs: llir::ir::Text::own("") },
        ],
        vararg: false,
        suffix: llir::ir::Text::own(crate::coro::split::part_suffix(f.header.suffix.get(src))),
    };
    let mut g = Function::new(crate::coro::split::derived_name(&f.name, "reenter"), header);
    let frame =
        g.values.push(llir::ir::ValueData { ty: ptr, kind: llir::ir::ValueKind::Param(0), name: Some("frame".into()) });
    let result = g.values.push(llir::ir::ValueData {
        ty: ptr,
        kind: llir::ir::ValueKind::Param(1),
        name: Some("result".into()),
    });
    g.params.push(frame);
    g.params.push(result);
    let entry = g.create_block(Some("entry"));
    g.layout.push(entry);
    (g, frame, result, entry)
}

/// The frame-pointer slot (`f`'s `slot`), in `g`'s entry block, holding the captured frame.
fn captured_frame_slot(
    f: &Function,
    g: &mut Function,
    types: &mut TypeTable,
    slot: Value,
    frame: Value,
    entry: Block,
) -> Option<Value> {
    let ptr = types.ptr;
    let slot_ty = f.values[slot].ty;
    let mut d = InstData::new(
        Opcode::Alloca,
        slot_ty,
        vec![llir::ir::edit::t(&format!("alloca {}, align 8", types.display(ptr)))],
    );
    d.extra = llir::ir::Extra::Alloca { ty: ptr, align: Some(8) };
    let new_slot_inst = g.create_inst(types, d);
    let new_slot = g.insts[new_slot_inst].result?;
    g.append_inst(entry, new_slot_inst);
    let st = Builder::new(g, types).store(frame, new_slot, 8);
    g.append_inst(entry, st);
    Some(new_slot)
}

/// The blocks the copy will hold: those reachable from a call site's continuation.
fn reachable_from_sites(f: &Function, sites: &[LoweredSite]) -> SecondaryMap<Block, bool> {
    let mut copied: SecondaryMap<Block, bool> = SecondaryMap::new();
    let mut work: Vec<Block> = sites.iter().map(|s| s.cont).collect();
    while let Some(b) = work.pop() {
        if !copied[b] {
            copied[b] = true;
            work.extend(f.successors(b).iter().copied());
        }
    }
    copied
}

/// The landing block `lb` of `site` enters the copy of its continuation; where the call itself was
/// copied (another call site leads to it), the continuation takes the call's value from either
/// edge.
fn enter_continuation(
    g: &mut Function,
    types: &mut TypeTable,
    site: &LoweredSite,
    (lb, agg): (Block, Value),
    maps: &llir::ir::edit::CloneMaps,
) -> Option<()> {
    let cont = maps.blocks[site.cont]?;
    let br = g.create_br(types, cont);
    g.append_inst(lb, br);
    g.layout.push(lb);
    if let Some(call) = maps.insts[site.call]
        && let Some(cv) = g.insts[call].result
        && let Some(pred) = g.insts[call].block
    {
        let rty = g.values[cv].ty;
        let in_cont: Vec<Inst> = g.blocks[cont].insts.to_vec();
        let phi = Builder::new(g, types).phi(rty, &[(cv, pred), (agg, lb)]);
        let pv = g.insts[phi].result?;
        // The copy kept the landing value for the call's result: both edges meet in the phi.
        for u in in_cont {
            for a in g.insts[u].args.iter_mut() {
                if *a == agg {
                    *a = pv;
                }
            }
        }
        // Every use of the call's value comes after the continuation, which only the call's
        // block and the landing block enter: all of them read the phi (a callee returning the
        // frame pointer alone is used below the continuation as it is, with no extract there).
        for b in g.layout.clone() {
            for &u in &g.blocks[b].insts {
                for a in g.insts[u].args.iter_mut() {
                    if *a == cv {
                        *a = pv;
                    }
                }
            }
        }
        g.insert_inst_at(cont, 0, phi);
    }
    Some(())
}

/// The dispatch, from the entry block: the key in the frame's return-address slot (at `ra`) names
/// the call site whose landing block runs.
fn dispatch(
    f: &Function,
    g: &mut Function,
    types: &mut TypeTable,
    sites: &[LoweredSite],
    landing: &[(Block, Value)],
    (entry, frame, ra): (Block, Value, i64),
    typed: bool,
) -> Option<()> {
    let ptr = types.ptr;
    let (mut seq, addr) = slot_addr(g, types, frame, ra, ptr, typed);
    let key = Builder::new(g, types).load(ptr, addr, 8);
    let key_v = g.insts[key].result?;
    seq.push(key);
    for i in seq {
        g.append_inst(entry, i);
    }
    let fname = f.name.to_string();
    let mut at = entry;
    for (k, (site, &(lb, _))) in sites.iter().zip(landing).enumerate() {
        let ba = g.const_value(ptr, &format!("blockaddress({fname}, %{})", block_name(f, site.cont)));
        let eq = Builder::new(g, types).icmp("eq", key_v, ba);
        let eq_v = g.insts[eq].result?;
        g.append_inst(at, eq);
        let next_name = g.unique_block_name(&format!("reenter.next.{k}"));
        let next = g.create_block(Some(&next_name));
        let br = Builder::new(g, types).cond_br(eq_v, lb, next);
        g.append_inst(at, br);
        g.layout.push(next);
        at = next;
    }
    let u = Builder::new(g, types).unreachable();
    g.append_inst(at, u);
    Some(())
}

/// What call site `site`'s call would have returned, made in the re-entry function `g` from its
/// parameters `(frame, result)`: `{frame, *result}`, `{frame}` or `frame`, as the callee returns.
fn landing_value(
    f: &Function,
    g: &mut Function,
    types: &mut TypeTable,
    site: &LoweredSite,
    (frame, result): (Value, Value),
    typed: bool,
) -> Option<(Vec<Inst>, Value)> {
    let rty = f.values[f.insts[site.call].result?].ty;
    let mut made = Vec::new();
    let frame_v = if typed && g.values[frame].ty != sp_type(f, site) {
        let c = Builder::new(g, types).bitcast(frame, sp_type(f, site));
        made.push(c);
        g.insts[c].result?
    } else {
        frame
    };
    let res_ty = match site.returns {
        Returns::Pair(t) => t,
        Returns::Wrapped => {
            let (w, v) = wrap(g, types, rty, frame_v)?;
            made.extend(w);
            return Some((made, v));
        }
        Returns::Bare => return Some((made, frame_v)),
    };
    let mut loads = Vec::new();
    let mut from = result;
    if typed {
        let want = types.pointer_to(res_ty, 0, true);
        let c = Builder::new(g, types).bitcast(result, want);
        from = g.insts[c].result?;
        loads.push(c);
    }
    let load = Builder::new(g, types).load(res_ty, from, 1);
    let loaded = g.insts[load].result?;
    // In the order the re-entry function always had: the result's cast, the frame's, the load.
    loads.append(&mut made);
    loads.push(load);
    let (pair, agg) = make_pair(g, types, rty, frame_v, loaded)?;
    loads.extend(pair);
    Some((loads, agg))
}

/// The frame pointer type a call site's callee returns first.
fn sp_type(f: &Function, site: &LoweredSite) -> Type {
    f.values[site.frame].ty
}
