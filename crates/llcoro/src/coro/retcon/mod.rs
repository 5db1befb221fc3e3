//! Returned-continuation coroutines (`llvm.coro.id.retcon`, `llvm.coro.id.retcon.once`), on the
//! shared frame engine (`crate::frame`).
//!
//! Such a coroutine keeps no resume or destroy pointer: the ramp, and each continuation, return
//! the next continuation function with the values the suspend yields (`{ ptr, T... }`), and the
//! caller calls it with its buffer and the resume values (the prototype's signature). The frame
//! is the caller's buffer when it fits (size and alignment from `coro.id.retcon`), else memory
//! from the allocator the coroutine names, whose address the buffer then holds. A continuation
//! exists per suspend; `coro.end` frees a frame that did not fit and returns a null continuation
//! (retcon) or the `coro.end.results` (retcon.once).
//!
//! The steps, in order: `shape::analyze` (intrinsics and LLVM's signature rules) → `normalize`
//! (each suspend's continuation starts in a block of its own, where an instruction stands for the
//! resume values; code after a non-unwind `coro.end` goes) → `lower_allocas` (`coro.alloca.*`) →
//! `build_frame` (the engine's phases, a frame with no header) → `split` (the ramp and the
//! continuations).

pub mod shape;
pub mod split;
pub mod swifterror;

use crate::coro::intrinsics::{Intr, intr_of};
use crate::diag::Finding;
use crate::frame::rewrite::{MoveSites, SpillSites, copy_in, frame_uses, move_allocas, spill_and_reload};
use crate::frame::{Candidates, Frame, Site, Survey, classify, crossing, remat, value_fields};
use llir::analysis::cfg::Cfg;
use llir::analysis::liveness::Liveness;
use llir::ir::build::Builder;
use llir::ir::{Block, Extra, Function, Inst, InstData, Opcode, Value};
use llir::layout::DataLayout;
use llir::parser::func::Signature;
use llir::types::TypeTable;
use rustc_hash::{FxHashMap, FxHashSet};
pub use shape::{Abi, Shape, Suspend};

/// The callee of the instruction that stands for a continuation's arguments until the split
/// replaces it; never printed.
pub(crate) const RESUME_VALUES: &str = "@llcoro.resume.values";

/// What the module needs and the report shows of a lowered returned-continuation coroutine.
pub struct Lowered {
    pub ramp: Function,
    pub continuations: Vec<Function>,
    pub frame: Frame,
    pub abi: Abi,
    /// The frame is the caller's buffer (else memory from the allocator).
    pub inline: bool,
    pub storage_size: u64,
    pub storage_align: u64,
    /// `llvm.stacksave`/`llvm.stackrestore` are called (a `coro.alloca` that no suspend crosses).
    pub uses_stack_save: bool,
}

/// What the lowering reads of the module besides the function.
pub struct Env<'a> {
    pub src: &'a str,
    pub dl: &'a DataLayout,
    pub typed: bool,
    pub globals: &'a FxHashSet<Box<str>>,
    pub sig_of: &'a dyn Fn(&str, &mut TypeTable) -> Option<Signature>,
}

/// The alignment a frame can count on, whether it lands in the caller's buffer or comes from the
/// allocator. `coro.id.retcon` gives the buffer's alignment but says nothing of the allocator's,
/// and LLVM assumes the frame's own (so a field aligned beyond what the allocator gives is
/// misaligned in an allocated frame). llcoro assumes what malloc gives on 64-bit targets (and
/// Swift's task allocator): allocas aligned beyond it are realigned at run time, as in async
/// contexts (`Field::cap_align`), and a frame aligned to it fits a buffer at least that aligned.
const ALLOCATOR_ALIGN: u64 = 16;

/// Lowers the returned-continuation coroutine `f`.
pub fn lower(mut f: Function, types: &mut TypeTable, env: &Env<'_>) -> Result<Lowered, Vec<Finding>> {
    let src = env.src;
    let mut shape = shape::analyze(&f, src, types, env.sig_of)?;
    normalize(&mut f, types, &mut shape, src);
    let stops = swifterror::Stops { suspends: &shape.suspends, ends: &shape.ends };
    swifterror::eliminate(&mut f, types, &stops, src, env.dl.pointer_size(0));
    let uses_stack_save = lower_allocas(&mut f, types, &shape, env)?;
    let structural = |f: &Function, i: Inst| is_structural(f, i, src);
    let spec = FrameSpec {
        begin: shape.begin,
        suspends: &shape.suspends,
        structural: &structural,
        max_align: Some(ALLOCATOR_ALIGN),
    };
    let frame = build_frame(&mut f, types, &spec, env)?;
    let inline = frame.size <= shape.storage_size && frame.align <= shape.storage_align;
    let parts = split::split(f, types, &shape, &frame, env, inline);
    Ok(Lowered {
        ramp: parts.ramp,
        continuations: parts.continuations,
        frame,
        abi: shape.abi,
        inline,
        storage_size: shape.storage_size,
        storage_align: shape.storage_align,
        uses_stack_save,
    })
}

/// Is `i` an intrinsic whose operands are no real uses (the frame's own bookkeeping)?
fn is_structural(f: &Function, i: Inst, src: &str) -> bool {
    matches!(
        intr_of(f, i, src),
        Some(Intr::IdRetcon | Intr::IdRetconOnce | Intr::Begin | Intr::Size | Intr::Align | Intr::Frame)
    )
}

fn is_unwind_end(f: &Function, e: Inst, src: &str) -> bool {
    f.insts[e].call_args().get(1).and_then(|&v| f.const_int(v, src)).unwrap_or(0) != 0
}

/// Code after a non-unwind `coro.end` never runs (every function returns there), so it goes; then
/// each suspend's continuation gets a block of its own (`split_after_suspends`).
fn normalize(f: &mut Function, types: &mut TypeTable, shape: &mut Shape, src: &str) {
    for &e in &shape.ends {
        let Some(b) = f.insts[e].block else { continue };
        if is_unwind_end(f, e, src) {
            continue;
        }
        let pos = f.blocks[b].insts.iter().position(|&x| x == e).unwrap_or(0);
        split::cut_block(f, b, pos + 1);
        let u = Builder::new(f, types).unreachable();
        f.append_inst(b, u);
    }
    f.remove_unreachable_blocks();
    let placed = |f: &Function, i: Inst| f.insts[i].block.is_some();
    shape.suspends.retain(|s| placed(f, s.call));
    shape.ends.retain(|&e| placed(f, e));
    shape.allocas.retain(|&a| placed(f, a));
    shape.others.retain(|&(i, _)| placed(f, i));
    split_after_suspends(f, types, &mut shape.suspends);
}

/// Each suspend's block is split right after it; the continuation's block starts with an
/// instruction that stands for the resume values (the suspend's result), so that what is live into
/// that block is exactly what lives across the suspend. (Shared with `coro::async`.)
pub(crate) fn split_after_suspends(f: &mut Function, types: &mut TypeTable, suspends: &mut [Suspend]) {
    let mut taken = f.block_names();
    for (k, s) in suspends.iter_mut().enumerate() {
        let Some(b) = f.insts[s.call].block else { continue };
        let pos = f.blocks[b].insts.iter().position(|&x| x == s.call).unwrap_or(0);
        let name = llir::ir::edit::fresh_label(&mut taken, &format!("coro.resume.{k}"));
        let r = f.split_block(types, b, pos + 1, Some(&name));
        s.resume = Some(r);
        if let Some(res) = f.insts[s.call].result {
            let ty = f.values[res].ty;
            let callee = f.const_value(types.ptr, RESUME_VALUES);
            let c = Builder::new(f, types).call("", "", ty, callee, &[]);
            f.insert_inst_at(r, 0, c);
            if let Some(v) = f.insts[c].result {
                f.replace_all_uses(res, v);
            }
            s.values = Some(c);
        }
    }
}

/// `coro.alloca.alloc` and its `get`s and `free`s. Memory no suspend crosses is a dynamic alloca
/// (between `llvm.stacksave` and `llvm.stackrestore` when it is freed); memory a suspend crosses
/// comes from the coroutine's allocator and goes to its deallocator, and its address is an
/// ordinary value that the frame keeps. Returns whether the stack intrinsics are used.
fn lower_allocas(f: &mut Function, types: &mut TypeTable, shape: &Shape, env: &Env<'_>) -> Result<bool, Vec<Finding>> {
    if shape.allocas.is_empty() {
        return Ok(false);
    }
    let src = env.src;
    let cfg = Cfg::compute(f);
    let live = Liveness::compute_ignoring(f, &cfg, |i| is_structural(f, i, src));
    let sites = sites(&shape.suspends);
    let crossing: FxHashSet<Value> = crossing(&live, &sites, &|_| false).into_iter().collect();
    let mut uses_stack = false;
    for &a in &shape.allocas {
        let Some(token) = f.insts[a].result else { continue };
        let users = |k: Intr| -> Vec<Inst> {
            shape
                .others
                .iter()
                .filter(|&&(i, ik)| ik == k && f.insts[i].call_args().first() == Some(&token))
                .map(|&(i, _)| i)
                .collect()
        };
        let (gets, frees) = (users(Intr::AllocaGet), users(Intr::AllocaFree));
        let crosses =
            crossing.contains(&token) || gets.iter().any(|&g| f.insts[g].result.is_some_and(|r| crossing.contains(&r)));
        let args = f.insts[a].call_args().to_vec();
        let (Some(&size), align) = (args.first(), args.get(1).and_then(|&v| f.const_int(v, src)).unwrap_or(1).max(1))
        else {
            continue;
        };
        let ptr = types.ptr;
        let (mem, sp) = if crosses {
            let mut seq = Vec::new();
            let m = split::call_alloc(f, types, &shape.alloc, size, src, &mut seq);
            for i in seq {
                f.insert_inst_before(a, i);
            }
            (m, None)
        } else {
            uses_stack = true;
            let sp = (!frees.is_empty()).then(|| {
                let callee = f.const_value(ptr, "@llvm.stacksave");
                let c = Builder::new(f, types).call("", "", ptr, callee, &[]);
                f.insert_inst_before(a, c);
                f.insts[c].result
            });
            let text = format!("alloca i8, {} ", types.display(f.values[size].ty));
            let mut d = InstData::new(
                Opcode::Alloca,
                ptr,
                vec![llir::ir::edit::t(&text), llir::ir::Piece::Arg(0), llir::ir::edit::t(&format!(", align {align}"))],
            );
            d.args.push(size);
            d.extra = Extra::Alloca { ty: types.i8, align: Some(align as u32) };
            let ai = f.create_inst(types, d);
            f.insert_inst_before(a, ai);
            (f.insts[ai].result.unwrap_or(size), sp.flatten())
        };
        for g in gets {
            if let Some(r) = f.insts[g].result {
                f.replace_all_uses(r, mem);
            }
            f.remove_inst(g);
        }
        for fr in frees {
            let mut seq = Vec::new();
            match sp {
                _ if crosses => split::call_dealloc(f, types, &shape.dealloc, mem, src, &mut seq),
                Some(sp) => {
                    let callee = f.const_value(ptr, "@llvm.stackrestore");
                    let void = types.void;
                    seq.push(Builder::new(f, types).call("", "", void, callee, &[sp]));
                }
                None => {}
            }
            for i in seq {
                f.insert_inst_before(fr, i);
            }
            f.remove_inst(fr);
        }
        f.remove_inst(a);
    }
    Ok(uses_stack)
}

/// Each suspend as the engine sees it: it continues in its continuation's block.
fn sites(suspends: &[Suspend]) -> Vec<Site> {
    suspends
        .iter()
        .enumerate()
        .map(|(k, s)| Site { index: k as u32, inst: s.call, continues: s.resume.into_iter().collect() })
        .collect()
}

/// What `build_frame` needs of a coroutine without a frame header (retcon and async).
pub(crate) struct FrameSpec<'s> {
    /// `coro.begin`: its result is the frame pointer until the split says where the frame is.
    pub begin: Inst,
    pub suspends: &'s [Suspend],
    /// Intrinsics whose operands are no real uses.
    pub structural: &'s dyn Fn(&Function, Inst) -> bool,
    /// No field is aligned beyond this (async: the context's alignment, as in LLVM; `Field::cap_align`).
    pub max_align: Option<u64>,
}

/// The frame (no header: spills and allocas from offset 0, packed by interference) and the body
/// rewritten to keep it. The frame pointer is coro.begin's result until the split says where it is.
pub(crate) fn build_frame(
    f: &mut Function,
    types: &mut TypeTable,
    spec: &FrameSpec<'_>,
    env: &Env<'_>,
) -> Result<Frame, Vec<Finding>> {
    let src = env.src;
    let begin = spec.begin;
    let Some(frame_val) = f.insts[begin].result else { return Err(Vec::new()) };
    let Some(begin_block) = f.insts[begin].block else { return Err(Vec::new()) };
    let cfg = Cfg::compute(f);
    let structural = spec.structural;
    let live = Liveness::compute_ignoring(f, &cfg, |i| structural(f, i));
    let sites = sites(spec.suspends);
    let crossing = crossing(&live, &sites, &|v| v == frame_val);
    let Candidates { mut allocas, mut spills, outside } = classify(f, types, &crossing, src)?;
    let survey = Survey::new(f, &cfg, &sites, &[], src);
    let before_begin = |f: &Function, i: Inst| -> bool {
        let Some(b) = f.insts[i].block else { return false };
        if b == begin_block {
            let pos = |x: Inst| f.blocks[b].insts.iter().position(|&y| y == x).unwrap_or(0);
            pos(i) < pos(begin)
        } else {
            !survey.dom.dominates(begin_block, b)
        }
    };
    // An alloca code before coro.begin uses stays on the ramp's stack, as in LLVM.
    let stays = |f: &Function, a: Value| survey.users_through_pointers(f, a).iter().any(|&u| before_begin(f, u));
    let hidden = survey.hidden_allocas(
        f,
        &Candidates { allocas: allocas.clone(), spills: spills.clone(), outside: Vec::new() },
        &stays,
    );
    allocas.extend(hidden);
    let mut local_allocas = survey.local_allocas(f, &allocas, &FxHashSet::default());
    allocas.retain(|a| !local_allocas.contains(a));
    local_allocas
        .extend(outside.iter().copied().filter(|&a| f.value_inst(a).is_some_and(|i| f.insts[i].args.is_empty())));
    let free: FxHashSet<Value> = allocas.iter().copied().collect();
    let remat = remat::rematerialisable(f, &spills, &free, &live, frame_val);
    spills.retain(|v| !remat.contains(v));
    let (alloca_fields, errors, spill_fields) = value_fields(f, types, env.dl, &allocas, &spills, src);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut fields = alloca_fields;
    fields.extend(spill_fields);
    if let Some(cap) = spec.max_align {
        let int_ptr = types.int((env.dl.pointer_size(0) * 8) as u32);
        for fl in &mut fields {
            fl.cap_align(cap, int_ptr);
        }
    }
    let end = survey.pack(f, &live, &mut fields, &[], 0, &|i| structural(f, i));
    fields.sort_by(|a, b| a.offset.cmp(&b.offset).then(b.size.cmp(&a.size)));
    survey.describe(f, &live, &mut fields, &|_| false);
    let align = fields.iter().map(|x| x.align).max().unwrap_or(1);
    let mut frame = Frame {
        fields,
        size: end.div_ceil(align) * align,
        align,
        index_ty: types.i8,
        index_off: 0,
        label_off: None,
        ptr_size: env.dl.pointer_size(0),
        local_allocas,
        declares: Vec::new(),
        remat_names: remat::names(f, &remat),
        remat,
        warnings: Vec::new(),
    };
    let uses = frame_uses(f, &frame.fields, &frame.remat);
    let moved = frame.moved_allocas();
    let move_at = MoveSites {
        frame: frame_val,
        typed: env.typed,
        src,
        before_frame: &before_begin,
        ignore_use: &|_, _| false,
        removed_later: structural,
    };
    let (written_before, declares) = move_allocas(f, types, &move_at, &moved, &uses);
    frame.declares = declares;
    copy_in(f, types, env.dl, frame_val, begin, written_before, env.typed);
    let spill_at = SpillSites {
        frame: frame_val,
        frame_slot: None,
        typed: env.typed,
        ready: begin,
        before_frame: &before_begin,
        keeps_value: structural,
        continues: sites.iter().flat_map(|s| s.continues.iter().copied()).collect(),
        head: Vec::new(),
        leaves: Vec::new(),
    };
    spill_and_reload(f, types, &spill_at, &live, &frame.fields, &frame.remat, &uses);
    Ok(frame)
}

/// The blocks each suspend is in (a copy stops there: the suspend returns).
pub(crate) fn suspend_blocks(f: &Function, suspends: &[Suspend]) -> FxHashMap<Block, usize> {
    suspends.iter().enumerate().filter_map(|(k, s)| Some((f.insts[s.call].block?, k))).collect()
}
