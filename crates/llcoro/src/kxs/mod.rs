//! kxs: Kotlin/Native-style suspend functions (seed `000`), lowered on the shared frame engine.
//!
//! A suspend function marks where it suspends with `call void @__kxs_suspend_point(i32 ID)`, and
//! names its label slot (and spill-frame slot) with `call void @__kxs_begin(ptr LABEL, ptr FRAME)`
//! (without that call, the first parameter is the label slot's address). The transform, in order:
//! 1. `markers`: find the markers and the begin call, and check them (constant ids, not in
//!    exception-handling code);
//! 2. `slots`: find the label slot from the code (the begin call's operand, or the address the
//!    C++ macro stores `&&label` into), rooted at a parameter, never on the stack or null;
//! 3. split each marker's block after it: the new block is where the function resumes;
//! 4. the frame engine finds what crosses a suspend (values made before the begin call are made
//!    again on every entry and never cross), lays out the spill frame and rewrites the body;
//! 5. at the begin call: the spill frame is allocated on first entry, and a dispatch jumps to the
//!    stored resume address (`indirectbr` over `blockaddress`es), or starts when it is null;
//! 6. each marker becomes a store of its resume block's address and `ret` of COROUTINE_SUSPENDED
//!    (`@__kxs_coroutine_suspended`); every other `ret` (completion) frees the frame and clears
//!    both slots.

mod unwind;

use crate::diag::{Finding, error_at};
use crate::frame::rewrite::{MoveSites, SpillSites, copy_in, frame_uses, move_allocas, spill_and_reload};
use crate::frame::{Candidates, FieldKind, Frame, Site, Survey, classify, crossing, remat, value_fields};
use llir::analysis::cfg::Cfg;
use llir::analysis::dom::DomTree;
use llir::analysis::liveness::Liveness;
use llir::ir::build::Builder;
use llir::ir::edit::t;
use llir::ir::{Block, Extra, Function, Inst, InstData, Opcode, Piece, Value, ValueKind};
use llir::layout::DataLayout;
use llir::types::{TypeData, TypeTable};
use rustc_hash::FxHashSet;

pub const MARKER: &str = "@__kxs_suspend_point";
pub const BEGIN: &str = "@__kxs_begin";
/// What a suspended function returns: the address of this object.
pub const SUSPENDED: &str = "@__kxs_coroutine_suspended";

/// What every name of the kxs contract starts with: a module without it has no suspend function.
pub const PREFIX: &str = "@__kxs_";

/// Is `f` a suspend function: does it call the suspend marker or `__kxs_begin`? (One that calls
/// `__kxs_begin` but never suspends, such as a DSL function without a suspending call, only loses
/// the begin call.)
pub fn is_suspend_function(f: &Function, src: &str) -> bool {
    f.inst_iter().any(|(_, i)| matches!(f.callee_name(i, src), Some(MARKER | BEGIN)))
}

/// What the module must declare for a lowered suspend function.
#[derive(Default, Clone, Copy)]
pub struct Needs {
    pub malloc: bool,
    /// A spill frame is aligned beyond what `malloc` guarantees: it comes from `aligned_alloc`.
    pub aligned_alloc: bool,
    pub free: bool,
    pub suspended: bool,
}

/// The alignment every `malloc` guarantees: two pointers (16 bytes on 64-bit targets, as glibc, musl
/// and macOS give; 8 on 32-bit ones, the least of them). A frame aligned beyond it comes from
/// `aligned_alloc`, which `free` releases too (`ContinuationImpl`'s destructor frees the frame).
pub fn malloc_align(dl: &DataLayout) -> u64 {
    2 * dl.pointer_size(0)
}

pub struct Lowered {
    pub frame: Frame,
    pub suspend_points: u32,
    /// Each suspend point's marker id, in suspend-point order (the frame's `live_across` numbers).
    pub marker_ids: Vec<i128>,
    pub needs: Needs,
}

/// What the frame phase reads of the module.
#[derive(Clone, Copy)]
struct Env<'a> {
    dl: &'a DataLayout,
    src: &'a str,
    typed: bool,
}

struct Marker {
    inst: Inst,
    id: i128,
}

struct Begin {
    inst: Inst,
    label: Value,
    frame: Value,
}

/// Lowers the suspend function `f` in place.
/// Lowers the suspend function `f` in place. `typed`: the module uses typed pointers (LLVM 14), and
/// `types.ptr` is `i8*`.
pub fn lower(
    f: &mut Function,
    types: &mut TypeTable,
    dl: &DataLayout,
    src: &str,
    typed: bool,
) -> Result<Lowered, Vec<Finding>> {
    // clang puts a placeholder `indirectbr` over address-taken labels in a block nothing reaches.
    f.remove_unreachable_blocks();
    calls_for_invoked_markers(f, types, src);
    let markers = markers(f, src)?;
    let begin = begin(f, src)?;
    if markers.is_empty() {
        // Nothing suspends: no frame, no dispatch; the begin call goes.
        if let Some(b) = begin {
            f.remove_inst(b.inst);
        }
        return Ok(never_suspends(types, dl));
    }
    let env = Env { dl, src, typed };
    let mut pending = Vec::new();
    let label = label_slot(f, types, &env, begin.as_ref(), &markers, &mut pending)?;
    let suspended_ret = match types.get(f.header.ret) {
        TypeData::Void => None,
        TypeData::Ptr(_) => Some(f.const_value(f.header.ret, SUSPENDED)),
        // Typed pointers: `i8*`, the type of the object's address.
        TypeData::TypedPtr(..) if f.header.ret == types.ptr => Some(f.const_value(f.header.ret, SUSPENDED)),
        _ => {
            return Err(vec![error_at(
                f,
                markers.first().map(|m| m.inst),
                "kxs-return-type",
                format!(
                    "a suspend function must return ptr (COROUTINE_SUSPENDED) or void, not {}",
                    types.display(f.header.ret)
                ),
                "declare the function to return `void*` (the macros return COROUTINE_SUSPENDED from it)",
            )]);
        }
    };
    let sites = split_at_markers(f, types, &markers);
    let (frame, frame_val) = build_frame(f, types, &env, begin.as_ref(), &sites, &markers)?;
    let aligned = frame.align > malloc_align(dl);
    let needs = Needs {
        suspended: suspended_ret.is_some(),
        malloc: frame_val.is_some() && !aligned,
        aligned_alloc: frame_val.is_some() && aligned,
        free: frame_val.is_some(),
    };
    let (entry, start) = entry_point(f, types, begin.as_ref(), pending);
    let mut at = entry;
    let mut frame_and_slot = frame_val.zip(begin.as_ref().map(|b| b.frame));
    if let Some((loaded, slot)) = frame_and_slot {
        let size = frame.size.max(frame.align);
        let (have, fv) = allocate_frame(f, types, entry, (loaded, slot), size, aligned.then_some(frame.align));
        at = have;
        frame_and_slot = Some((fv, slot));
    }
    dispatch(f, types, at, start, label, &sites);
    complete(f, types, at, label, frame_and_slot);
    suspend_returns(f, types, &sites, label, suspended_ret);
    if let Some(b) = begin {
        f.remove_inst(b.inst);
    }
    let marker_ids = markers.iter().map(|m| m.id).collect();
    Ok(Lowered { frame, suspend_points: sites.len() as u32, marker_ids, needs })
}

/// What `lower` returns for a suspend function without a suspend point.
fn never_suspends(types: &TypeTable, dl: &DataLayout) -> Lowered {
    let frame = Frame::empty(types.i1, dl.pointer_size(0));
    Lowered { frame, suspend_points: 0, marker_ids: Vec::new(), needs: Needs::default() }
}

/// A marker or begin call made with `invoke` (declared without `noexcept`) cannot throw: it becomes
/// a call and a branch to the normal destination.
fn calls_for_invoked_markers(f: &mut Function, types: &mut TypeTable, src: &str) {
    let invoked: Vec<(Block, Inst, &'static str)> = f
        .inst_iter()
        .filter(|&(_, i)| f.insts[i].op == Opcode::Invoke)
        .filter_map(|(b, i)| match f.callee_name(i, src) {
            Some(MARKER) => Some((b, i, MARKER)),
            Some(BEGIN) => Some((b, i, BEGIN)),
            _ => None,
        })
        .collect();
    for (b, i, name) in invoked {
        let (Some(&normal), Some(&unwind)) = (f.insts[i].blocks.first(), f.insts[i].blocks.get(1)) else { continue };
        let args = f.insts[i].call_args().to_vec();
        let callee = f.const_value(types.ptr, name);
        let void = types.void;
        let call = Builder::new(f, types).call("", "", void, callee, &args);
        let br = f.create_br(types, normal);
        let pos = f.blocks[b].insts.iter().position(|&x| x == i).unwrap_or(0);
        f.remove_inst(i);
        f.insert_inst_at(b, pos, call);
        f.insert_inst_at(b, pos + 1, br);
        if !f.successors(b).contains(&unwind) {
            f.remove_phi_incoming(unwind, b);
        }
    }
}

/// The markers, in block order; each id must be a constant, and no marker may run while an
/// exception is being handled (`unwind`).
fn markers(f: &Function, src: &str) -> Result<Vec<Marker>, Vec<Finding>> {
    let in_handlers = unwind::markers_in_handlers(f, src, &|i| f.callee_name(i, src) == Some(MARKER));
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (_, i) in f.inst_iter() {
        if f.callee_name(i, src) != Some(MARKER) {
            continue;
        }
        let Some(id) = f.insts[i].call_args().first().and_then(|&v| f.const_int(v, src)) else {
            errors.push(error_at(
                f,
                Some(i),
                "kxs-marker-id",
                "the suspend marker's id is not a constant".into(),
                "pass a constant: `__kxs_suspend_point(N)` with N an integer literal (the macros use __COUNTER__)",
            ));
            continue;
        };
        if in_handlers.contains(&i) {
            errors.push(error_at(
                f,
                Some(i),
                "kxs-marker-in-unwind",
                "this suspend point runs while an exception is being handled (in a catch handler, or in a cleanup \
                 on an invoke's unwind path)"
                    .into(),
                "a suspend function cannot suspend while an exception is being handled: move the suspending call \
                 out of the catch handler or cleanup (for example, catch, remember the error, and suspend after the \
                 handler)",
            ));
            continue;
        }
        out.push(Marker { inst: i, id });
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

/// The `__kxs_begin(label_slot, frame_slot)` call, if any (at most one).
fn begin(f: &Function, src: &str) -> Result<Option<Begin>, Vec<Finding>> {
    let calls: Vec<Inst> = f.inst_iter().map(|(_, i)| i).filter(|&i| f.callee_name(i, src) == Some(BEGIN)).collect();
    if let Some(&second) = calls.get(1) {
        return Err(vec![error_at(
            f,
            Some(second),
            "kxs-begin-twice",
            "a second __kxs_begin call: a suspend function has one start".into(),
            "use `coroutine_begin` once, at the top of invoke_suspend",
        )]);
    }
    let Some(&i) = calls.first() else { return Ok(None) };
    match f.insts[i].call_args() {
        [label, frame] => Ok(Some(Begin { inst: i, label: *label, frame: *frame })),
        _ => Err(vec![error_at(
            f,
            Some(i),
            "kxs-begin-operands",
            "__kxs_begin takes two operands: the label slot and the frame slot".into(),
            "call `__kxs_begin(&c->_label, &c->_kxs_frame)` (the `coroutine_begin` macro does)",
        )]),
    }
}

/// Where an address comes from: a parameter plus a constant offset, the stack, null, or unknown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Root {
    Param(u32, i64),
    Stack,
    Null,
    Unknown,
}

/// Follows `v` back through constant GEPs, casts and loads of single-store allocas (how -O0 code
/// keeps `this`) to its root.
fn root(f: &Function, types: &TypeTable, dl: &DataLayout, v: Value, src: &str) -> Root {
    let mut v = v;
    let mut off: i64 = 0;
    for _ in 0..64 {
        if f.const_text(v, src) == Some("null") {
            return Root::Null;
        }
        if let ValueKind::Param(k) = f.values[v].kind {
            return Root::Param(k, off);
        }
        let Some(i) = f.value_inst(v) else { return Root::Unknown };
        let d = &f.insts[i];
        match d.op {
            Opcode::Alloca => return Root::Stack,
            Opcode::BitCast | Opcode::AddrSpaceCast => match d.args.first() {
                Some(&a) => v = a,
                None => return Root::Unknown,
            },
            Opcode::GetElementPtr => {
                let Extra::Gep { source } = d.extra else { return Root::Unknown };
                let (Some(&base), Some(rest)) = (d.args.first(), d.args.get(1..)) else { return Root::Unknown };
                let idx: Option<Vec<i64>> =
                    rest.iter().map(|&x| f.const_int(x, src).and_then(|c| i64::try_from(c).ok())).collect();
                let Some(o) = idx.and_then(|idx| dl.gep_offset(types, source, &idx)) else { return Root::Unknown };
                off = off.saturating_add(o);
                v = base;
            }
            Opcode::Load => {
                // `this` at -O0: stored once into an alloca, loaded where needed.
                let Some(&p) = d.args.first() else { return Root::Unknown };
                if f.value_inst(p).is_none_or(|a| f.insts[a].op != Opcode::Alloca) {
                    return Root::Unknown;
                }
                let stores: Vec<Inst> = f
                    .inst_iter()
                    .map(|(_, u)| u)
                    .filter(|&u| f.insts[u].op == Opcode::Store && f.insts[u].args.get(1) == Some(&p))
                    .collect();
                let [st] = stores.as_slice() else { return Root::Unknown };
                let Some(&stored) = f.insts[*st].args.first() else { return Root::Unknown };
                v = stored;
            }
            _ => return Root::Unknown,
        }
    }
    Root::Unknown
}

/// The label slot: the begin call's operand, or the first parameter. It must be rooted at a
/// parameter (the continuation object); a `&&label` stored before a marker (the C++ macro) must go to
/// the same place, and is removed (the transform stores its own).
fn label_slot(
    f: &mut Function,
    types: &mut TypeTable,
    env: &Env<'_>,
    begin: Option<&Begin>,
    markers: &[Marker],
    pending: &mut Vec<Inst>,
) -> Result<Value, Vec<Finding>> {
    let (slot, at, known) = named_slot(f, types, env, begin, markers, pending)?;
    // The slot made here from a parameter is known; any other is traced back.
    let key = known.unwrap_or_else(|| root(f, types, env.dl, slot, env.src));
    if let Some((what, help)) = refused_root(key) {
        return Err(slot_error(f, markers, what, help, at));
    }
    for st in macro_label_stores(f, types, env, markers, key)? {
        f.remove_inst(st);
    }
    Ok(slot)
}

/// Where the function names its label slot: the slot, the instruction that names it (the begin
/// call or the macro's store), and its root when it is made here from a parameter.
fn named_slot(
    f: &mut Function,
    types: &mut TypeTable,
    env: &Env<'_>,
    begin: Option<&Begin>,
    markers: &[Marker],
    pending: &mut Vec<Inst>,
) -> Result<(Value, Option<Inst>, Option<Root>), Vec<Finding>> {
    let Env { dl, src, typed } = *env;
    Ok(match begin {
        Some(b) => (b.label, Some(b.inst), None),
        None => match macro_store(f, markers) {
            // No begin call, but the macro's `_label = &&resume` says where the label lives.
            Some(st) => match f.insts[st].args.get(1).map(|&a| root(f, types, dl, a, src)) {
                Some(Root::Param(k, off)) => {
                    let slot = slot_at_entry(f, types, k, off, typed, pending);
                    (slot, Some(st), Some(Root::Param(k, off)))
                }
                // Not a field of a parameter: refused by the caller, at the store.
                _ => {
                    let null = f.const_value(types.ptr, "null");
                    (f.insts[st].args.get(1).copied().unwrap_or(null), Some(st), None)
                }
            },
            None => match f.params.first() {
                Some(&p) if matches!(types.get(f.values[p].ty), TypeData::Ptr(_) | TypeData::TypedPtr(..)) => {
                    (p, None, None)
                }
                _ => {
                    return Err(vec![error_at(
                        f,
                        markers.first().map(|m| m.inst),
                        "kxs-no-label-slot",
                        "this function suspends but names no label slot".into(),
                        "call `__kxs_begin(label_slot, frame_slot)` before the first suspend point, or pass the \
                         label slot's address as the first parameter",
                    )]);
                }
            },
        },
    })
}

/// Why a label slot rooted at `key` cannot be used (what, and the help), or None for a field of a
/// parameter.
fn refused_root(key: Root) -> Option<(&'static str, &'static str)> {
    match key {
        Root::Param(..) => None,
        Root::Stack => Some((
            "the label slot is a stack slot: a resume address stored there is gone when the function returns",
            "keep the label in the continuation object (a field such as `void* _label`), and pass its address",
        )),
        Root::Null => Some(("the label slot is null", "pass the address of the continuation's label field")),
        Root::Unknown => Some((
            "cannot tell where the label slot is: its address is not a parameter plus a constant offset",
            "pass `&c->_label` with c the continuation object (a parameter, or `this`)",
        )),
    }
}

/// The macro's own `_label = &&resume` stores, right before each marker, checked: each stores to
/// the label slot (rooted at `key`), a label of its own, and the code right after its marker.
fn macro_label_stores(
    f: &Function,
    types: &TypeTable,
    env: &Env<'_>,
    markers: &[Marker],
    key: Root,
) -> Result<Vec<Inst>, Vec<Finding>> {
    let mut targets: FxHashSet<Block> = FxHashSet::default();
    let mut stores = Vec::new();
    for m in markers {
        let Some(b) = f.insts[m.inst].block else { continue };
        let pos = f.blocks[b].insts.iter().position(|&x| x == m.inst).unwrap_or(0);
        let Some((st, target)) = f.blocks[b].insts[..pos].iter().rev().find_map(|&x| {
            let d = &f.insts[x];
            if d.op != Opcode::Store {
                return None;
            }
            Some((x, local_block_address(f, *d.args.first()?)?))
        }) else {
            continue;
        };
        let Some(&addr) = f.insts[st].args.get(1) else { continue };
        let refuse = |what: &str, help: &str| Err(slot_error(f, markers, what, help, Some(st)));
        if root(f, types, env.dl, addr, env.src) != key {
            return refuse(
                "the resume address is stored to a different place than the label slot the function names",
                "store `&&label` into the same field that `coroutine_begin` names (`c->_label`)",
            );
        }
        if !targets.insert(target) {
            return refuse(
                "two suspend points store the same resume address",
                "give every suspend point its own label (the macros use __COUNTER__, not __LINE__)",
            );
        }
        // The stored label must be where the function continues after the marker.
        let next = f.terminator(b).and_then(|t| {
            let d = &f.insts[t];
            (d.op == Opcode::Br && d.blocks.len() == 1 && f.blocks[b].insts.get(pos + 1) == Some(&t))
                .then(|| d.blocks[0])
        });
        if next != Some(target) {
            return refuse(
                "the resume address stored before this suspend point is not the code right after it",
                "put the label right after the marker: `_label = &&L; __kxs_suspend_point(N); L:`",
            );
        }
        stores.push(st);
    }
    Ok(stores)
}

/// A `kxs-label-slot` error at `i`, or at the first marker.
fn slot_error(f: &Function, markers: &[Marker], what: &str, help: &str, i: Option<Inst>) -> Vec<Finding> {
    vec![error_at(f, i.or(markers.first().map(|m| m.inst)), "kxs-label-slot", what.to_string(), help)]
}

/// The first `store blockaddress(...)` right before a marker (in the marker's block): where the C++
/// macro keeps the resume label.
fn macro_store(f: &Function, markers: &[Marker]) -> Option<Inst> {
    markers.iter().find_map(|m| {
        let b = f.insts[m.inst].block?;
        let pos = f.blocks[b].insts.iter().position(|&x| x == m.inst)?;
        f.blocks[b].insts[..pos].iter().rev().copied().find(|&x| {
            f.insts[x].op == Opcode::Store
                && f.insts[x].args.first().is_some_and(|&v| local_block_address(f, v).is_some())
        })
    })
}

/// The address `off` bytes into parameter `k`, made by instructions that the entry block will
/// start with (`pending`), so that the dispatch can read the slot before anything else runs.
fn slot_at_entry(
    f: &mut Function,
    types: &mut TypeTable,
    k: u32,
    off: i64,
    typed: bool,
    pending: &mut Vec<Inst>,
) -> Value {
    let Some(&p) = f.params.get(k as usize) else { return f.const_value(types.ptr, "null") };
    if off == 0 && (!typed || f.values[p].ty == types.pointer_to(types.ptr, 0, true)) {
        return p;
    }
    let mut base = p;
    if typed && f.values[p].ty != types.ptr {
        let ptr = types.ptr;
        let c = Builder::new(f, types).bitcast(p, ptr);
        pending.push(c);
        base = f.insts[c].result.unwrap_or(p);
    }
    let ptr = types.ptr;
    let (seq, addr) = crate::frame::frame_addr(f, types, base, off.max(0) as u64, ptr, typed);
    pending.extend(seq);
    addr
}

/// The block of a `blockaddress` of this function's own block.
fn local_block_address(f: &Function, v: Value) -> Option<Block> {
    match &f.values[v].kind {
        ValueKind::BlockConst(pieces) => pieces.iter().find_map(|p| match p {
            llir::ir::ConstPiece::Block(b) => Some(*b),
            llir::ir::ConstPiece::Text(_) | llir::ir::ConstPiece::Func => None,
        }),
        _ => None,
    }
}

/// Splits each marker's block right after the marker; the new block (`kxs.resume.K`) is where the
/// function continues when resumed, entered only from the marker's block.
fn split_at_markers(f: &mut Function, types: &TypeTable, markers: &[Marker]) -> Vec<Site> {
    let mut sites = Vec::new();
    for (k, m) in markers.iter().enumerate() {
        let Some(b) = f.insts[m.inst].block else { continue };
        let pos = f.blocks[b].insts.iter().position(|&x| x == m.inst).unwrap_or(0);
        let name = f.unique_block_name(&format!("kxs.resume.{k}"));
        let r = f.split_block(types, b, pos + 1, Some(&name));
        sites.push(Site { index: k as u32, inst: m.inst, continues: vec![r] });
    }
    sites
}

/// Does an instruction run before the begin call (made again on every entry)?
type BeforeBegin<'a> = &'a dyn Fn(&Function, Inst) -> bool;

/// Runs the frame engine. Values made before the begin call (parameters, `this` reloaded) are
/// made again on every entry and never cross; allocas written only there are local. Returns the
/// frame, and the frame pointer value (a placeholder the entry code defines) if it has any field.
fn build_frame(
    f: &mut Function,
    types: &mut TypeTable,
    env: &Env<'_>,
    begin: Option<&Begin>,
    sites: &[Site],
    markers: &[Marker],
) -> Result<(Frame, Option<Value>), Vec<Finding>> {
    let src = env.src;
    let cfg = Cfg::compute(f);
    let live = Liveness::compute_ignoring(f, &cfg, |i| f.callee_name(i, src) == Some(MARKER));
    let dom = DomTree::compute(f, &cfg);
    let begin_at = begin.and_then(|b| Some((f.insts[b.inst].block?, b.inst)));
    let before_begin = |f: &Function, i: Inst| -> bool {
        let (Some((bb, bi)), Some(b)) = (begin_at, f.insts[i].block) else { return false };
        if b == bb {
            let pos = |x: Inst| f.blocks[b].insts.iter().position(|&y| y == x).unwrap_or(0);
            pos(i) < pos(bi)
        } else {
            !dom.dominates(bb, b)
        }
    };
    let frame = lay_out(f, types, env, (&cfg, &live), sites, &before_begin)?;
    if frame.fields.is_empty() && frame.remat.is_empty() {
        return Ok((frame, None));
    }
    let Some(b) = begin else {
        return Err(no_slot(f, &frame, markers, "the function names no frame slot"));
    };
    match root(f, types, env.dl, b.frame, src) {
        Root::Param(..) => {}
        Root::Stack => {
            return Err(no_slot(f, &frame, markers, "its frame slot is on the stack, which is gone after a suspend"));
        }
        Root::Null => return Err(no_slot(f, &frame, markers, "its frame slot is null")),
        Root::Unknown => {
            return Err(no_slot(
                f,
                &frame,
                markers,
                "its frame slot's address is not a parameter plus a constant offset",
            ));
        }
    }
    Ok(place_in_frame(f, types, env, b, frame, sites, (&live, &before_begin)))
}

/// The frame's fields: what crosses a suspend point (`sites`) and is not made again on every
/// entry (`before_begin`), placed, with the local allocas and what is recomputed.
fn lay_out(
    f: &mut Function,
    types: &mut TypeTable,
    env: &Env<'_>,
    (cfg, live): (&Cfg, &Liveness),
    sites: &[Site],
    before_begin: BeforeBegin<'_>,
) -> Result<Frame, Vec<Finding>> {
    let Env { dl, src, .. } = *env;
    let ignored = |f: &Function, i: Inst| f.callee_name(i, src) == Some(MARKER);
    let remade = |v: Value| match f.values[v].kind {
        ValueKind::Param(_) => true,
        ValueKind::Inst(i) => f.insts[i].op != Opcode::Alloca && before_begin(f, i),
        _ => false,
    };
    let crossing = crossing(live, sites, &remade);
    let Candidates { mut allocas, mut spills, .. } = classify(f, types, &crossing, src)?;
    let survey = Survey::new(f, cfg, sites, &[], src);
    let hidden = survey.hidden_allocas(
        f,
        &Candidates { allocas: allocas.clone(), spills: spills.clone(), outside: Vec::new() },
        &|_, _| false,
    );
    allocas.extend(hidden);
    let none = FxHashSet::default();
    let mut local = survey.local_allocas(f, &allocas, &none);
    // An alloca only stored before the begin call (and only loaded after it) is written again on
    // every entry: `this.addr` and the like.
    local.extend(allocas.iter().copied().filter(|&a| written_each_entry(f, &survey, a, before_begin)));
    allocas.retain(|a| !local.contains(a));
    let frame_val = f.const_value(types.ptr, "null");
    let free: FxHashSet<Value> = allocas.iter().copied().collect();
    let remat = remat::rematerialisable(f, &spills, &free, live, frame_val);
    spills.retain(|v| !remat.contains(v));
    let (mut rest, errors, spill_fields) = value_fields(f, types, dl, &allocas, &spills, src);
    if !errors.is_empty() {
        return Err(errors);
    }
    rest.extend(spill_fields);
    let end = survey.pack(f, live, &mut rest, &[], 0, &|i| ignored(f, i));
    survey.describe(f, live, &mut rest, &|_| false);
    rest.sort_by(|a, b| a.offset.cmp(&b.offset).then(b.size.cmp(&a.size)));
    let align = rest.iter().map(|x| x.align).max().unwrap_or(1);
    let size = end.div_ceil(align) * align;
    Ok(Frame {
        fields: rest,
        size,
        align,
        index_ty: types.i1,
        index_off: 0,
        label_off: None,
        ptr_size: dl.pointer_size(0),
        local_allocas: local,
        declares: Vec::new(),
        remat_names: crate::frame::remat::names(f, &remat),
        remat,
        warnings: Vec::new(),
    })
}

/// A frame needs a slot in the continuation object to live in: the refusal when it has none that
/// lasts (`what` says why), at the first value in the frame.
fn no_slot(f: &Function, frame: &Frame, markers: &[Marker], what: &str) -> Vec<Finding> {
    let first = frame.fields.first().and_then(|fl| match fl.kind {
        FieldKind::Alloca(v) | FieldKind::Spill(v) => f.value_inst(v),
        _ => None,
    });
    vec![error_at(
        f,
        first.or(markers.first().map(|m| m.inst)),
        "kxs-no-frame-slot",
        format!("this value is live across a suspend point, so it needs a spill frame, but {what}"),
        "call `__kxs_begin(label_slot, frame_slot)` at the start of the function (the `coroutine_begin` macro \
         does), with frame_slot the address of a `void*` field of the continuation object",
    )]
}

/// The frame pointer loaded from the frame slot before the begin call `b` (the entry code gives it
/// its final value), allocas moved into the frame, spills stored and reloaded around the suspend
/// points. Returns the frame, and the frame pointer.
fn place_in_frame(
    f: &mut Function,
    types: &mut TypeTable,
    env: &Env<'_>,
    b: &Begin,
    mut frame: Frame,
    sites: &[Site],
    (live, before_begin): (&Liveness, BeforeBegin<'_>),
) -> (Frame, Option<Value>) {
    let Env { dl, src, typed } = *env;
    let ptr = types.ptr;
    let fp = Builder::new(f, types).load(ptr, b.frame, frame.ptr_size);
    let Some(fv) = f.insts[fp].result else { return (frame, None) };
    f.insert_inst_before(b.inst, fp);
    let uses = frame_uses(f, &frame.fields, &frame.remat);
    let moved = frame.moved_allocas();
    let move_at = MoveSites {
        frame: fv,
        typed,
        src,
        before_frame: before_begin,
        ignore_use: &|_, _| false,
        removed_later: &|_, _| false,
    };
    let (written_before, declares) = move_allocas(f, types, &move_at, &moved, &uses);
    frame.declares = declares;
    copy_in(f, types, dl, fv, b.inst, written_before, typed);
    let spill_at = SpillSites {
        frame: fv,
        frame_slot: None,
        typed,
        ready: b.inst,
        before_frame: before_begin,
        keeps_value: &|f, u| f.callee_name(u, src) == Some(MARKER),
        continues: sites.iter().flat_map(|s| s.continues.iter().copied()).collect(),
        head: Vec::new(),
        leaves: sites.iter().map(|s| (s.inst, s.continues.clone())).collect(),
    };
    spill_and_reload(f, types, &spill_at, live, &frame.fields, &frame.remat, &uses);
    (frame, Some(fv))
}

/// Is every store to `a` before the begin call, with `a` never escaping (so each entry writes it
/// again before anything after the begin call reads it)?
fn written_each_entry(f: &Function, survey: &Survey<'_>, a: Value, before: &dyn Fn(&Function, Inst) -> bool) -> bool {
    let Some(users) = survey.use_map.get(&a) else { return false };
    let mut stored = false;
    for &u in users {
        let d = &f.insts[u];
        match d.op {
            Opcode::Store if d.args.get(1) == Some(&a) && d.args.first() != Some(&a) => {
                if !before(f, u) {
                    return false;
                }
                stored = true;
            }
            Opcode::Load => {}
            _ if d.is_debug() || crate::frame::allocas::is_lifetime(f, u, survey.src) => {}
            _ => return false,
        }
    }
    stored
}

/// Where the entry code goes: the begin call's position (its block is split there), or a new
/// entry block. Returns (block the entry code is appended to, block execution starts in).
fn entry_point(f: &mut Function, types: &mut TypeTable, begin: Option<&Begin>, pending: Vec<Inst>) -> (Block, Block) {
    match begin.and_then(|b| Some((f.insts[b.inst].block?, b.inst))) {
        Some((bb, bi)) => {
            let pos = f.blocks[bb].insts.iter().position(|&x| x == bi).unwrap_or(0);
            let name = f.unique_block_name("kxs.start");
            let start = f.split_block(types, bb, pos + 1, Some(&name));
            // The split left `br kxs.start` at the end of the begin block: the entry code replaces it.
            if let Some(br) = f.terminator(bb) {
                f.remove_inst(br);
            }
            (bb, start)
        }
        None => {
            let old = f.entry().unwrap_or_else(|| f.create_block(None));
            let entry_name = f.unique_block_name("kxs.entry");
            let e = f.create_block(Some(&entry_name));
            f.layout.insert(0, e);
            // Static allocas stay in the entry block, which every call runs.
            let allocas: Vec<Inst> =
                f.blocks[old].insts.iter().copied().filter(|&i| f.insts[i].op == Opcode::Alloca).collect();
            for i in allocas {
                f.blocks[old].insts.retain(|x| *x != i);
                f.append_inst(e, i);
            }
            // Then the label slot's address, when it is a field of a parameter.
            for i in pending {
                f.append_inst(e, i);
            }
            if f.blocks[old].name.is_none() {
                let n = f.unique_block_name("kxs.start");
                f.blocks[old].name = Some(n.as_str().into());
            }
            (e, old)
        }
    }
}

/// On first entry (a null frame slot) the spill frame is allocated and kept in the slot; the frame
/// pointer becomes a phi of the two. `loaded` is the slot's value on entry. A frame aligned beyond
/// `malloc`'s guarantee (`over_aligned`) comes from `aligned_alloc(align, size)`, `size` being a
/// multiple of the alignment (the frame's size is rounded up to it). Returns the block the entry
/// code continues in, and the phi.
fn allocate_frame(
    f: &mut Function,
    types: &mut TypeTable,
    at: Block,
    (loaded, slot): (Value, Value),
    size: u64,
    over_aligned: Option<u64>,
) -> (Block, Value) {
    let ptr = types.ptr;
    let i64t = types.int(64);
    let alloc_name = f.unique_block_name("kxs.alloc");
    let alloc = f.create_block(Some(&alloc_name));
    let have_name = f.unique_block_name("kxs.framed");
    let have = f.create_block(Some(&have_name));
    let null = f.const_value(ptr, "null");
    let is_null = Builder::new(f, types).icmp("eq", loaded, null);
    let is_null_v = f.insts[is_null].result.unwrap_or(null);
    let br = Builder::new(f, types).cond_br(is_null_v, alloc, have);
    let size_v = f.const_value(i64t, &size.max(1).to_string());
    let call = match over_aligned {
        None => {
            let malloc = f.const_value(ptr, "@malloc");
            Builder::new(f, types).call("", "", ptr, malloc, &[size_v])
        }
        Some(align) => {
            let align_v = f.const_value(i64t, &align.to_string());
            let aligned_alloc = f.const_value(ptr, "@aligned_alloc");
            Builder::new(f, types).call("", "", ptr, aligned_alloc, &[align_v, size_v])
        }
    };
    let new = f.insts[call].result.unwrap_or(null);
    let st = Builder::new(f, types).store(new, slot, 8);
    let br2 = f.create_br(types, have);
    let phi = Builder::new(f, types).phi(ptr, &[(loaded, at), (new, alloc)]);
    let pv = f.insts[phi].result.unwrap_or(null);
    // Every frame access reads the phi; the load feeds only the null test and the phi.
    f.replace_all_uses(loaded, pv);
    for i in [is_null, phi] {
        if let Some(a) = f.insts[i].args.first_mut() {
            *a = loaded;
        }
    }
    f.append_inst(at, is_null);
    f.append_inst(at, br);
    f.append_inst(alloc, call);
    f.append_inst(alloc, st);
    f.append_inst(alloc, br2);
    f.append_inst(have, phi);
    let pos_at = f.layout.iter().position(|&b| b == at).unwrap_or(0);
    f.layout.insert(pos_at + 1, alloc);
    f.layout.insert(pos_at + 2, have);
    (have, pv)
}

/// The entry dispatch: a null label starts the function, anything else is a resume address.
fn dispatch(f: &mut Function, types: &mut TypeTable, at: Block, start: Block, label: Value, sites: &[Site]) {
    let ptr = types.ptr;
    let ld = Builder::new(f, types).load(ptr, label, 8);
    let saved = f.insts[ld].result.unwrap_or(label);
    f.append_inst(at, ld);
    let null = f.const_value(ptr, "null");
    let first = Builder::new(f, types).icmp("eq", saved, null);
    let first_v = f.insts[first].result.unwrap_or(null);
    f.append_inst(at, first);
    let dname = f.unique_block_name("kxs.dispatch");
    let d = f.create_block(Some(&dname));
    let br = Builder::new(f, types).cond_br(first_v, start, d);
    f.append_inst(at, br);
    let targets: Vec<Block> = sites.iter().flat_map(|s| s.continues.first().copied()).collect();
    let mut tmpl = vec![t(&format!("indirectbr {} ", types.display(ptr))), Piece::Arg(0), t(", [")];
    for k in 0..targets.len() {
        tmpl.push(t(if k == 0 { "label " } else { ", label " }));
        tmpl.push(Piece::Block(k as u16));
    }
    tmpl.push(t("]"));
    let mut data = InstData::new(Opcode::IndirectBr, types.void, tmpl);
    data.args.push(saved);
    data.blocks.extend(targets.iter().copied());
    let ib = f.create_inst(types, data);
    f.append_inst(d, ib);
    let pos = f.layout.iter().position(|&b| b == at).unwrap_or(0);
    f.layout.insert(pos + 1, d);
}

/// Each marker's block now ends by storing its resume block's address in the label slot and
/// returning COROUTINE_SUSPENDED; the marker goes.
fn suspend_returns(f: &mut Function, types: &mut TypeTable, sites: &[Site], label: Value, ret: Option<Value>) {
    for s in sites {
        let (Some(b), Some(&r)) = (f.insts[s.inst].block, s.continues.first()) else { continue };
        if let Some(br) = f.terminator(b) {
            f.remove_inst(br);
        }
        f.remove_inst(s.inst);
        let ba = f.block_address(types.ptr, r);
        let st = Builder::new(f, types).store(ba, label, 8);
        f.append_inst(b, st);
        let rt = match ret {
            Some(v) => Builder::new(f, types).ret(v),
            None => Builder::new(f, types).ret_void(),
        };
        f.append_inst(b, rt);
    }
}

/// Every return after the entry code completes the function (the suspend returns are made after
/// this): the frame is freed and both slots cleared, so the continuation could start again.
fn complete(f: &mut Function, types: &mut TypeTable, entry: Block, label: Value, frame: Option<(Value, Value)>) {
    let cfg = Cfg::compute(f);
    let dom = DomTree::compute(f, &cfg);
    let ptr = types.ptr;
    let rets: Vec<(Block, Inst)> =
        f.inst_iter().filter(|&(b, i)| f.insts[i].op == Opcode::Ret && dom.dominates(entry, b)).collect();
    for (b, r) in rets {
        let null = f.const_value(ptr, "null");
        let mut seq = Vec::new();
        if let Some((fv, slot)) = frame {
            let free = f.const_value(ptr, "@free");
            let void = types.void;
            seq.push(Builder::new(f, types).call("", "", void, free, &[fv]));
            seq.push(Builder::new(f, types).store(null, slot, 8));
        }
        seq.push(Builder::new(f, types).store(null, label, 8));
        let pos = f.blocks[b].insts.iter().position(|&x| x == r).unwrap_or(0);
        for (k, i) in seq.into_iter().enumerate() {
            f.insert_inst_at(b, pos + k, i);
        }
    }
}
