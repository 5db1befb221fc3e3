//! Splitting a switched-resume coroutine into its ramp and its `.resume`, `.destroy` and `.cleanup`
//! functions.
//!
//! The frame header is LLVM's ABI, so handles cross freely between llcoro- and clang-lowered code:
//!
//! | offset | field |
//! | --- | --- |
//! | 0 | resume function, `fastcc void (ptr)`; null once the coroutine is at its final suspend |
//! | one pointer | destroy function (`.destroy`, which frees the frame; `.cleanup` when the frame is not on the heap) |
//! | `promise_offset(align)` | the promise |
//! | after it | the suspend index: suspend *k* of the non-final suspends is *k*; final suspends come last |
//!
//! Each split function is the rewritten body, cut to what it reaches, with a new entry that loads the
//! index and jumps to the resume (or destroy) block of that suspend. `.destroy`, `.cleanup` and the
//! ramp are copies of their parts of the body; `.resume`, most of it as a rule, is the body itself.
//! In the parts a suspend returns, and `coro.end` returns; in the ramp a suspend falls to its
//! suspend path and `coro.end` does nothing.

use crate::coro::frame::{self, Env};
use crate::coro::intrinsics::{Intr, intr_of};
use crate::coro::shape::{self, AwaitKind, Shape};
use crate::diag::Finding;
use crate::frame::{Frame, frame_addr};
use cranelift_entity::SecondaryMap;
use llir::analysis::executable::Executable;
use llir::ir::build::Builder;
use llir::ir::edit::{CloneMaps, t};
use llir::ir::{Block, Extra, Function, Header, Inst, Opcode, Param, Piece, Text, Value, ValueData, ValueKind};
use llir::types::TypeTable;
use rustc_hash::FxHashSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Resume,
    Destroy,
    Cleanup,
}

impl Part {
    pub fn suffix(self) -> &'static str {
        match self {
            Part::Resume => "resume",
            Part::Destroy => "destroy",
            Part::Cleanup => "cleanup",
        }
    }
}

/// The lowered coroutine: the ramp (in place of the original) and the three parts.
pub struct Split {
    pub ramp: Function,
    pub parts: Vec<Function>,
    pub frame: Frame,
    /// Every `ret` of the ramp returns the frame, so a caller holding the ramp's result knows which
    /// resume and destroy functions it will reach.
    pub returns_frame: bool,
    /// The ramp's heap-elided twin (`elide`), when asked for and the ramp returns its frame.
    pub elided: Option<Function>,
    /// The coroutine never suspends, and its frame is an alloca of the ramp.
    pub on_own_stack: bool,
}

/// `@f` + `.resume` → `@f.resume`, keeping quoted names quoted.
pub fn derived_name(name: &str, suffix: &str) -> String {
    match name.strip_suffix('"') {
        Some(base) => format!("{base}.{suffix}\""),
        None => format!("{name}.{suffix}"),
    }
}

/// The name of a function made from `name` (`@f` → `@f.resume`), followed by `.1`, `.2`, ... when the
/// module already has a global of that name. The module's own names are all it looks at, so every
/// worker picks the same names, and two names made from different functions cannot meet (`name`
/// differs before a suffix that holds no dot).
pub fn new_function_name(name: &str, suffix: &str, globals: &FxHashSet<Box<str>>) -> String {
    unused_global_name(derived_name(name, suffix), globals)
}

/// `base`, or `base.1`, `base.2`, ... when the module already has a global named `base`.
pub fn unused_global_name(base: String, globals: &FxHashSet<Box<str>>) -> String {
    let taken = |n: &str| globals.contains(&llir::parser::module::normalize_global(n));
    if !taken(&base) {
        return base;
    }
    (1..).map(|k: u32| derived_name(&base, &k.to_string())).find(|n| !taken(n)).unwrap_or(base)
}

/// Lowers one presplit coroutine. `f` is consumed; on success the ramp replaces it.
/// Splits `f`. With `want_elided`, also makes the ramp's heap-elided twin (see `elided_ramp`) when
/// the ramp returns its frame or `proven` (`provenance`) says where it leaves it.
pub fn split(
    mut f: Function,
    types: &mut TypeTable,
    mut shape: Shape,
    env: &Env<'_>,
    want_elided: bool,
    proven: bool,
) -> Result<Split, Vec<Finding>> {
    let src = env.src;
    crate::coro::funclets::prepare(&mut f, types);
    prepare(&mut f, types, &mut shape, src);
    shape::normalize(&mut f, types, &mut shape);
    let frame = frame::build(&mut f, types, &shape, env)?;
    let fr = shape.frame(&f);
    // With indirectbr dispatch, each resume block of `.resume` gets a name its address is taken by.
    let mut taken = if frame.label_off.is_some() { f.block_names() } else { Default::default() };
    let labels: Vec<Option<String>> = shape
        .suspends
        .iter()
        .map(|s| {
            (frame.label_off.is_some() && !s.is_final)
                .then(|| llir::ir::edit::fresh_label(&mut taken, &format!("coro.resume.{}", s.index)))
        })
        .collect();
    let resume_name = new_function_name(&f.name, Part::Resume.suffix(), env.globals);
    store_indices(&mut f, types, &shape, &frame, fr, env.typed, &labels, &resume_name);
    // `.destroy` and `.cleanup` copy what they reach, and the ramp (and its twin) what runs before
    // the first suspends; `.resume`, most of a body as a rule, is made of the body itself, last.
    let destroy = make_part(&f, types, &shape, &frame, Part::Destroy, env, &labels);
    let cleanup = make_part(&f, types, &shape, &frame, Part::Cleanup, env, &labels);
    // A coroutine that never suspends (after `simplify`) keeps its frame on the ramp's stack when
    // it asks whether to allocate (coro.alloc), as LLVM's split does; nobody can resume it.
    let on_stack = shape.suspends.is_empty()
        && !env.typed
        && shape.others.iter().any(|&(i, k)| k == Intr::Alloc && f.insts[i].block.is_some());
    let (mut ramp, ramp_shape) = ramp_body(&f, &shape, src);
    let twin = (want_elided && !on_stack).then(|| ramp_body(&f, &shape, src));
    let parts = vec![make_resume(f, types, &shape, &frame, env, &labels), destroy, cleanup];
    let stack = if on_stack { stack_frame(&mut ramp, types, &ramp_shape, &frame) } else { None };
    let (ramp, returns_frame) = finish_ramp(ramp, types, &ramp_shape, &frame, &parts, env, stack);
    // A frame on the ramp's stack is gone when the ramp returns: no caller may treat it as the handle.
    let returns_frame = returns_frame && stack.is_none();
    let elided = twin
        .filter(|_| returns_frame || proven)
        .map(|(g, twin_shape)| elided_ramp(g, types, &twin_shape, &frame, &parts, env));
    // The driver verifies every function once, after the last rewrite and before printing.
    Ok(Split { ramp, parts, frame, returns_frame, elided, on_own_stack: stack.is_some() })
}

/// The ramp's heap-elided twin, `@f.elided`: the same ramp with one more parameter, memory the
/// caller provides (at least the frame's size and alignment) and keeps until the coroutine is
/// destroyed. It never allocates, and it installs `.cleanup`, which destroys without freeing, as
/// the destroy function. `elide` calls it where a caller is seen to destroy the coroutine on every
/// path before returning.
fn elided_ramp(
    mut f: Function,
    types: &mut TypeTable,
    shape: &Shape,
    frame: &Frame,
    parts: &[Function],
    env: &Env<'_>,
) -> Function {
    let src = env.src;
    // Debug info goes after the ramp has dropped the body it does not keep.
    make_internal_header(&mut f, src, env.globals);
    let mem = push_frame_memory(&mut f, types, frame.align, frame.size);
    never_allocate(&mut f, types, shape);
    let (mut g, _) = finish_ramp(f, types, shape, frame, parts, env, Some(mem));
    strip_debug(&mut g);
    g
}

/// Appends the parameter of an `.elided` twin: the memory its caller gives for a frame of `size`
/// bytes aligned to `align`. Returns it.
pub(crate) fn push_frame_memory(f: &mut Function, types: &TypeTable, align: u64, size: u64) -> Value {
    f.header.params.push(Param {
        ty: types.ptr,
        attrs: Text::own(format!("noundef nonnull align {align} dereferenceable({size})")),
    });
    let name = f.unique_name("frame.mem");
    let n = f.params.len() as u32;
    let mem = f.values.push(ValueData { ty: types.ptr, kind: ValueKind::Param(n), name: Some(name) });
    f.params.push(mem);
    mem
}

/// Makes `f` its own `.elided` twin in name and header: internal, and without comdat or debug info,
/// since only this module's callers use it.
pub(crate) fn make_internal_twin(f: &mut Function, src: &str, globals: &FxHashSet<Box<str>>) {
    make_internal_header(f, src, globals);
    strip_debug(f);
}

/// `make_internal_twin` without removing the debug info from the body.
fn make_internal_header(f: &mut Function, src: &str, globals: &FxHashSet<Box<str>>) {
    f.name = new_function_name(&f.name, "elided", globals).into();
    // Internal, and without comdat or debug info: only this module's callers use it.
    let linkage = [
        "private",
        "internal",
        "available_externally",
        "linkonce",
        "weak",
        "common",
        "appending",
        "extern_weak",
        "linkonce_odr",
        "weak_odr",
        "external",
        "default",
        "hidden",
        "protected",
        "dllimport",
        "dllexport",
        "dso_local",
        "dso_preemptable",
        "unnamed_addr",
        "local_unnamed_addr",
    ];
    let prefix: Vec<&str> =
        f.header.prefix.get(src).split_whitespace().filter(|w| *w != "define" && !linkage.contains(w)).collect();
    f.header.prefix =
        Text::own(format!("define internal {}", prefix.iter().map(|w| format!("{w} ")).collect::<String>()));
    f.header.suffix = Text::own(part_suffix(f.header.suffix.get(src)));
}

/// Never allocate, never free: the frame's memory is not the heap's. coro.alloc is false and
/// coro.free gives null.
fn never_allocate(f: &mut Function, types: &mut TypeTable, shape: &Shape) {
    for &(i, k) in &shape.others {
        if f.insts[i].block.is_none() {
            continue;
        }
        let new = match k {
            Intr::Alloc => f.const_value(types.i1, "false"),
            Intr::Free => f.const_value(types.ptr, "null"),
            _ => continue,
        };
        if let Some(r) = f.insts[i].result {
            f.replace_all_uses(r, new);
        }
        f.remove_inst(i);
    }
}

/// The frame of a coroutine that never suspends: an alloca at the top of the ramp's entry block,
/// which the ramp uses instead of allocating.
fn stack_frame(f: &mut Function, types: &mut TypeTable, shape: &Shape, frame: &Frame) -> Option<Value> {
    let entry = f.entry()?;
    let ty = types.intern(llir::types::TypeData::Array(frame.size, types.i8));
    let text = format!("alloca [{} x i8], align {}", frame.size, frame.align);
    let mut d = llir::ir::InstData::new(Opcode::Alloca, types.ptr, vec![llir::ir::Piece::Text(Text::own(text))]);
    d.extra = llir::ir::Extra::Alloca { ty, align: Some(frame.align as u32) };
    let a = f.create_inst(types, d);
    let mem = f.insts[a].result?;
    f.values[mem].name = Some(f.unique_name("coro.stack.frame"));
    f.insert_inst_at(entry, 0, a);
    never_allocate(f, types, shape);
    Some(mem)
}

/// Steps that need no frame: give invoke results a normal edge of their own, turn
/// `coro.await.suspend.*` into calls of their wrappers, and replace `coro.frame` and `coro.param`.
fn prepare(f: &mut Function, types: &mut TypeTable, shape: &mut Shape, src: &str) {
    // Invoke results are defined on the normal edge; a dedicated block there is where a spill goes.
    let invokes: Vec<(Block, Inst)> =
        f.inst_iter().filter(|&(_, i)| f.insts[i].op == Opcode::Invoke && f.insts[i].result.is_some()).collect();
    let cfg = if invokes.is_empty() { None } else { Some(llir::analysis::cfg::Cfg::compute(f)) };
    for (b, i) in invokes {
        let Some(cfg) = &cfg else { break };
        let normal = f.insts[i].blocks[0];
        if cfg.preds(normal).len() > 1 || !f.phis(normal).is_empty() {
            f.split_successor(types, b, 0, None);
        }
    }
    let frame = shape.frame(f);
    for &(i, kind) in &shape.awaits.clone() {
        let args: Vec<Value> = f.insts[i].call_args().to_vec();
        let [awaiter, fr, wrapper] = args.as_slice() else { continue };
        let ret = match kind {
            AwaitKind::Void => types.void,
            AwaitKind::Bool => types.i1,
            AwaitKind::Handle => types.ptr,
        };
        let pt = types.display(f.values[*awaiter].ty);
        let ft = types.display(f.values[*fr].ty);
        let rt = types.display(ret);
        // Keep the call's metadata attachments (its !dbg location above all).
        let attach: String = f.insts[i]
            .tmpl
            .iter()
            .filter_map(|p| match p {
                Piece::Text(tx) => Some(tx.get(src)),
                _ => None,
            })
            .filter_map(|s| llir::metadata::first_attachment(s).map(|k| s[k..].to_string()))
            .next_back()
            .unwrap_or_default();
        let d = &mut f.insts[i];
        let is_invoke = d.op == Opcode::Invoke;
        d.args = [*awaiter, *fr, *wrapper].into_iter().collect();
        let mut tmpl = vec![
            t(&format!("{} {rt} ", if is_invoke { "invoke" } else { "call" })),
            Piece::Arg(2),
            t(&format!("({pt} ")),
            Piece::Arg(0),
            t(&format!(", {ft} ")),
            Piece::Arg(1),
            t(")"),
        ];
        if is_invoke {
            tmpl.extend([t("\n          to label "), Piece::Block(0), t(" unwind label "), Piece::Block(1)]);
        }
        if !attach.is_empty() {
            tmpl.push(t(&attach));
        }
        d.tmpl = tmpl.into();
        let fn_ty =
            types.intern(llir::types::TypeData::Func { ret, params: vec![types.ptr, types.ptr].into(), vararg: false });
        d.extra = Extra::Call { callee: 2, nargs: 2, fn_ty };
        d.ty = ret;
        if kind == AwaitKind::Handle && d.result.is_none() {
            let v = f.values.push(ValueData { ty: ret, kind: ValueKind::Inst(i), name: None });
            f.insts[i].result = Some(v);
        }
        if kind == AwaitKind::Handle {
            // The handle is resumed at the suspend this await belongs to: in the same block, or at
            // the start of the invoke's normal destination.
            let h = f.insts[i].result.expect("just set");
            let b = f.insts[i].block;
            let normal = if is_invoke { f.insts[i].blocks.first().copied() } else { None };
            if let Some(s) = shape.suspends.iter_mut().find(|s| {
                let sb = f.insts[s.call].block;
                sb == b
                    || sb == normal
                    || normal.is_some_and(|n| f.successors(n).len() == 1 && sb == Some(f.successors(n)[0]))
            }) {
                s.transfer = Some(h);
            } else {
                resume_after(f, types, i, h);
            }
        }
    }
    resume_before_suspend(f, shape, src);
    for &(i, k) in &shape.others.clone() {
        let Some(r) = f.insts[i].result else { continue };
        let new = match k {
            Intr::Frame => frame,
            _ => continue,
        };
        f.replace_all_uses(r, new);
        f.remove_inst(i);
    }
    shape.others.retain(|&(i, _)| f.insts[i].block.is_some());
}

/// Symmetric transfer before LLVM 19: `coro.resume(h)` right before a suspend (clang 14 to 18 emit it
/// after an `await_suspend` that returns a handle), or the `coro.subfn.addr` call it becomes. It becomes the suspend's transfer, so the parts
/// resume `h` by a tail call and the chain of resumptions does not grow the stack, as LLVM's parts
/// do. Only lifetime markers, debug records, casts and `coro.save` may stand between, and `h` is a
/// constant or made in the suspend's block, so every part that has the suspend has `h`.
/// Resumes handle `h`, which await call `i` returned, right after the call (at the start of an
/// invoke's own normal destination): what LLVM does when the await is not in its suspend's block,
/// so that no tail call can follow it there. A `coro.resume` call, lowered with the others.
fn resume_after(f: &mut Function, types: &mut TypeTable, i: Inst, h: Value) {
    let Some(b) = f.insts[i].block else { return };
    let void = types.void;
    let callee = f.const_value(types.ptr, "@llvm.coro.resume");
    let r = Builder::new(f, types).call("", "", void, callee, &[h]);
    if f.insts[i].op == Opcode::Invoke {
        let Some(normal) = f.split_successor(types, b, 0, None) else { return };
        f.insert_inst_at(normal, 0, r);
    } else {
        let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == i) else { return };
        f.insert_inst_at(b, pos + 1, r);
    }
}

fn resume_before_suspend(f: &mut Function, shape: &mut Shape, src: &str) {
    for s in shape.suspends.iter_mut().filter(|s| s.transfer.is_none()) {
        let Some(b) = f.insts[s.call].block else { continue };
        let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == s.call) else { continue };
        let prev = f.blocks[b].insts[..pos].iter().rev().copied().find(|&x| {
            let d = &f.insts[x];
            !(d.is_debug()
                || crate::frame::allocas::is_lifetime(f, x, src)
                || matches!(d.op, Opcode::BitCast | Opcode::AddrSpaceCast)
                || intr_of(f, x, src) == Some(Intr::Save))
        });
        let Some(r) = prev.filter(|&x| f.insts[x].op == Opcode::Call) else { continue };
        let Some(&h) = f.insts[r].call_args().first() else { continue };
        // `coro.resume(h)`, or what CoroEarly makes of it: a fastcc call of `coro.subfn.addr(h, 0)`.
        let resumes = match intr_of(f, r, src) {
            Some(Intr::Resume) => true,
            Some(_) => false,
            None => {
                let callee = f.insts[r].callee().and_then(|c| f.value_inst(c));
                let callee = callee.map(|c| match f.insts[c].op {
                    Opcode::BitCast => f.insts[c].args.first().and_then(|&v| f.value_inst(v)).unwrap_or(c),
                    _ => c,
                });
                f.insts[r].call_args().len() == 1
                    && callee.is_some_and(|c| {
                        intr_of(f, c, src) == Some(Intr::SubfnAddr)
                            && f.insts[c].call_args().first().is_some_and(|&x| {
                                // Constants are a value per use: compare their spelling.
                                x == h || (f.is_const(x) && f.const_text(x, src) == f.const_text(h, src))
                            })
                            && f.insts[c].call_args().get(1).and_then(|&k| f.const_int(k, src)) == Some(0)
                    })
                    && f.insts[r].tmpl.iter().any(|p| matches!(p, Piece::Text(t) if t.get(src).contains("fastcc")))
            }
        };
        let here = f.is_const(h) || f.value_inst(h).and_then(|d| f.insts[d].block) == Some(b);
        if !resumes || !here {
            continue;
        }
        f.remove_inst(r);
        s.transfer = Some(h);
    }
}

/// At each save point (the `coro.save`, or the suspend itself), record where to resume: the index
/// (and with indirectbr dispatch the resume block's address), and for a final suspend a null resume
/// function, which is what done() tests.
#[allow(clippy::too_many_arguments)]
fn store_indices(
    f: &mut Function,
    types: &mut TypeTable,
    shape: &Shape,
    frame: &Frame,
    fr: Value,
    typed: bool,
    labels: &[Option<String>],
    resume_name: &str,
) {
    for (s, label) in shape.suspends.iter().zip(labels) {
        let at = s.save.filter(|&sv| f.insts[sv].block.is_some()).unwrap_or(s.call);
        let mut seq = Vec::new();
        let idx = f.const_value(frame.index_ty, &s.index.to_string());
        let (mut a, addr) = frame_addr(f, types, fr, frame.index_off, frame.index_ty, typed);
        seq.append(&mut a);
        let al = frame.fields.iter().find(|x| x.offset == frame.index_off).map_or(1, |x| x.align);
        seq.push(Builder::new(f, types).store(idx, addr, al));
        if let (Some(label), Some(off)) = (label, frame.label_off) {
            let ba = f.const_value(types.ptr, &format!("blockaddress({resume_name}, %{label})"));
            let (mut a, addr) = frame_addr(f, types, fr, off, types.ptr, typed);
            seq.append(&mut a);
            seq.push(Builder::new(f, types).store(ba, addr, frame.ptr_size));
        }
        if s.is_final {
            seq.extend(null_resume(f, types, fr, frame, typed));
        }
        for i in seq {
            f.insert_inst_before(at, i);
        }
    }
}

fn null_resume(f: &mut Function, types: &mut TypeTable, fr: Value, frame: &Frame, typed: bool) -> Vec<Inst> {
    let ptr = types.ptr;
    let (mut seq, addr) = frame_addr(f, types, fr, 0, ptr, typed);
    let null = f.const_value(ptr, "null");
    seq.push(Builder::new(f, types).store(null, addr, frame.ptr_size));
    seq
}

/// Resumes the coroutine whose handle is `h` (symmetric transfer): its resume function is at
/// offset 0 of its frame. Returns the instructions, not yet placed.
fn resume_handle(b: &mut Builder<'_>, h: Value, ptr_size: u64, prefix: &str, typed: bool) -> Vec<Inst> {
    let ptr = b.types.ptr;
    let (mut seq, slot) = frame_addr(b.f, b.types, h, 0, ptr, typed);
    let ld = b.load(ptr, slot, ptr_size);
    let fnp = b.result(ld);
    seq.push(ld);
    let (casts, callee) = crate::coro::intrinsics::callable(b.f, b.types, fnp, typed);
    seq.extend(casts);
    let void = b.types.void;
    seq.push(b.call(prefix, "fastcc", void, callee, &[h]));
    seq
}

/// Drops `comdat`, `!dbg` and the presplit attribute from a header suffix, for a new function.
pub(crate) fn part_suffix(suffix: &str) -> String {
    use llir::lexer::{Lexer, Tok};
    let mut cut = crate::coro::shape::presplit_attr_spans(suffix);
    // `!dbg !N`, `comdat` and `comdat($c)`, by their tokens.
    let mut lx = Lexer::new(suffix, 0, suffix.len());
    let mut t = lx.next_token();
    while t.kind != Tok::Eof {
        let word = suffix.get(t.start as usize..t.end as usize).unwrap_or("");
        let mut next = lx.next_token();
        let end = match (t.kind, word) {
            (Tok::MetaName, "!dbg") => {
                let end = next.end;
                next = lx.next_token();
                Some(end)
            }
            (Tok::Ident, "comdat") if next.kind == Tok::LParen => {
                let mut end = next.end;
                while !matches!(next.kind, Tok::RParen | Tok::Eof) {
                    next = lx.next_token();
                    end = next.end;
                }
                next = lx.next_token();
                Some(end)
            }
            (Tok::Ident, "comdat") => Some(t.end),
            _ => None,
        };
        if let Some(end) = end {
            cut.push((t.start as usize, end as usize));
        }
        t = next;
    }
    cut.sort_unstable();
    let kept = crate::coro::shape::without_spans(suffix, &cut);
    format!(" {} ", kept.split_whitespace().collect::<Vec<_>>().join(" ")).replace("  ", " ")
}

/// A function with `f`'s name, header and parameters and no body yet, and the map from `f`'s
/// values to its own (the parameters so far): where a ramp's copy of the body starts.
pub fn empty_ramp(f: &Function) -> (Function, SecondaryMap<Value, Option<Value>>) {
    let mut g = Function::new(f.name.clone(), f.header.clone());
    g.numbering_gaps = f.numbering_gaps;
    g.span = f.span;
    let mut vmap: SecondaryMap<Value, Option<Value>> = SecondaryMap::with_capacity(f.values.len());
    for &p in &f.params {
        let np = g.values.push(f.values[p].clone());
        g.params.push(np);
        vmap[p] = Some(np);
    }
    (g, vmap)
}

/// A copy in `g` of `f`'s debug record `d` of a frame variable: its address operand mapped by
/// `vmap` (else `frame`), and for a call (`llvm.dbg.declare`, LLVM 18 and older; a record,
/// `#dbg_declare`, has the address as its one operand) the callee made again. None when another
/// operand is no constant.
pub fn copy_declare(
    f: &Function,
    g: &mut Function,
    types: &mut TypeTable,
    d: Inst,
    vmap: &SecondaryMap<Value, Option<Value>>,
    frame: Value,
    src: &str,
) -> Option<Inst> {
    let mut data = f.insts[d].clone();
    for (k, a) in data.args.iter_mut().enumerate() {
        *a = if k == 0 { vmap[*a].unwrap_or(frame) } else { g.const_value(f.values[*a].ty, f.const_text(*a, src)?) };
    }
    Some(g.create_inst(types, data))
}

/// The code the ramp runs, copied from the rewritten body `f`: what the entry reaches when each
/// suspend goes on along its suspend path (its resume and destroy edges lead to the copy's cut
/// block until `finish_ramp` removes them), and the shape in that copy. A copy of the whole body
/// when the shape does not carry over.
fn ramp_body(f: &Function, shape: &Shape, src: &str) -> (Function, Shape) {
    let mut stops: rustc_hash::FxHashMap<Block, Block> = rustc_hash::FxHashMap::default();
    for s in &shape.suspends {
        let (Some(b), Some(sw)) = (f.insts[s.call].block, s.switch) else { continue };
        if let (Some(sb), Some(&default)) = (f.insts[sw].block, f.insts[sw].blocks.first())
            && sb == b
        {
            stops.insert(b, default);
        }
    }
    let (mut g, mut vmap) = empty_ramp(f);
    let Some(entry) = f.entry() else { return (f.clone(), shape.clone()) };
    let (maps, _) =
        g.clone_reachable_along(f, &mut vmap, &[entry], &|b| stops.get(&b).map(|&d| smallvec::smallvec![d]));
    match shape.mapped(f, &mut g, src, &maps, &vmap) {
        Some(mapped) => (g, mapped),
        None => (f.clone(), shape.clone()),
    }
}

/// `.resume` made of the rewritten body `f` itself (the ramp and the other parts are copied from
/// it first): the steps of `make_part`, after the blocks `.resume` does not reach are dropped and
/// what they defined becomes poison, as a partial copy would leave them.
fn make_resume(
    mut f: Function,
    types: &mut TypeTable,
    shape: &Shape,
    frame: &Frame,
    env: &Env<'_>,
    labels: &[Option<String>],
) -> Function {
    let src = env.src;
    let roots: Vec<Block> = shape.suspends.iter().filter(|s| !s.is_final).filter_map(|s| s.resume_block).collect();
    let reach = f.reachable_along(&roots, &|_| None);
    let ptr = types.ptr;
    let hdl = f.values.push(ValueData { ty: ptr, kind: ValueKind::Param(0), name: Some("hdl".into()) });
    let local: rustc_hash::FxHashSet<Value> = frame.local_allocas.iter().copied().collect();
    let dead: Vec<Block> = f.layout.iter().copied().filter(|&b| !reach[b]).collect();
    // Parameters and what the dropped blocks define become poison (one per type); the frame is the
    // handle; allocas kept local move to the new entry.
    let mut subst: rustc_hash::FxHashMap<Value, Value> = rustc_hash::FxHashMap::default();
    let mut poison = smallvec::SmallVec::new();
    let defined = dead.iter().flat_map(|&b| f.blocks[b].insts.iter().filter_map(|&i| f.insts[i].result));
    let gone: Vec<Value> = f.params.iter().copied().chain(defined).filter(|v| !local.contains(v)).collect();
    for v in gone {
        let p = f.poison_once(f.values[v].ty, &mut poison);
        subst.insert(v, p);
    }
    subst.insert(shape.frame(&f), hdl);
    f.replace_uses_with_map(&subst);
    let mut maps = CloneMaps { blocks: SecondaryMap::new(), insts: SecondaryMap::new() };
    for &b in f.layout.iter().filter(|&&b| reach[b]) {
        maps.blocks[b] = Some(b);
        for &i in &f.blocks[b].insts {
            maps.insts[i] = Some(i);
        }
    }
    // Declares of frame variables in dropped code move to the entry, as `declare_frame_variables`
    // copies them.
    let moved: Vec<Inst> =
        frame.declares.iter().copied().filter(|&d| f.insts[d].block.is_some_and(|b| !reach[b])).collect();
    f.remove_blocks_except(&reach);
    f.name = new_function_name(&f.name, Part::Resume.suffix(), env.globals).into();
    f.header = part_header(f.header.suffix.get(src), types, frame);
    f.params = vec![hdl];
    f.numbering_gaps = false;
    f.span = llir::Span::default();
    let entry = f.create_block(Some("entry"));
    f.layout.insert(0, entry);
    for &a in &frame.local_allocas {
        let Some(ai) = f.value_inst(a) else { continue };
        f.remove_inst(ai);
        f.append_inst(entry, ai);
    }
    for d in moved {
        f.append_inst(entry, d);
    }
    let vmap: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
    let mut p = PartBuilder { f: None, types, shape, frame, part: Part::Resume, env, g: f, hdl, entry, vmap };
    for (&old, &new) in &subst {
        p.vmap[old] = Some(new);
    }
    p.dispatch(&maps, labels);
    p.lower_suspends(&maps);
    p.finish(&maps)
}

/// A part's header: internal fastcc, void, one parameter (the frame), the body's function attributes
/// (`suffix`) as a part keeps them.
fn part_header(suffix: &str, types: &TypeTable, frame: &Frame) -> Header {
    Header {
        prefix: Text::own("define internal fastcc "),
        ret: types.void,
        params: vec![Param {
            ty: types.ptr,
            attrs: Text::own(format!("noundef nonnull align {} dereferenceable({})", frame.align, frame.size)),
        }],
        vararg: false,
        suffix: Text::own(part_suffix(suffix)),
    }
}

/// Makes `.resume`, `.destroy` or `.cleanup` from the rewritten body `f`: a function of the frame
/// handle that dispatches to the part's blocks of each suspend and holds only what they reach.
fn make_part(
    f: &Function,
    types: &mut TypeTable,
    shape: &Shape,
    frame: &Frame,
    part: Part,
    env: &Env<'_>,
    labels: &[Option<String>],
) -> Function {
    let mut p = PartBuilder::new(f, types, shape, frame, part, env);
    p.copy_local_allocas();
    let maps = p.clone_reachable();
    p.declare_frame_variables(&maps);
    p.dispatch(&maps, labels);
    p.lower_suspends(&maps);
    p.finish(&maps)
}

/// A part under construction: what it is made from, and the new function with its frame handle
/// parameter, entry block and map from the body's values to its own.
struct PartBuilder<'a, 'e> {
    /// The body the part copies from; None when the part is made of the body itself (`make_resume`).
    f: Option<&'a Function>,
    types: &'a mut TypeTable,
    shape: &'a Shape,
    frame: &'a Frame,
    part: Part,
    env: &'a Env<'e>,
    g: Function,
    hdl: Value,
    entry: Block,
    vmap: SecondaryMap<Value, Option<Value>>,
}

impl<'a, 'e> PartBuilder<'a, 'e> {
    /// The empty part: its header, the handle parameter, the entry block, and a value map in which
    /// the body's parameters are poison and its frame is the handle.
    fn new(
        f: &'a Function,
        types: &'a mut TypeTable,
        shape: &'a Shape,
        frame: &'a Frame,
        part: Part,
        env: &'a Env<'e>,
    ) -> Self {
        let src = env.src;
        let fptr = types.ptr;
        let header = part_header(f.header.suffix.get(src), types, frame);
        let mut g = Function::new(new_function_name(&f.name, part.suffix(), env.globals), header);
        let hdl = g.values.push(ValueData { ty: fptr, kind: ValueKind::Param(0), name: Some("hdl".into()) });
        g.params.push(hdl);
        let mut vmap: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
        for &p in &f.params {
            let ty = f.values[p].ty;
            vmap[p] = Some(g.const_value(ty, "poison"));
        }
        vmap[shape.frame(f)] = Some(hdl);
        let entry = g.create_block(Some("entry"));
        g.layout.push(entry);
        PartBuilder { f: Some(f), types, shape, frame, part, env, g, hdl, entry, vmap }
    }

    /// Allocas that are never alive across a suspend live on this function's own stack.
    fn copy_local_allocas(&mut self) {
        let (Some(f), g) = (self.f, &mut self.g) else { return };
        for &a in &self.frame.local_allocas {
            let Some(ai) = f.value_inst(a) else { continue };
            // Only operand-free allocas are kept local, so the instruction copies as it is.
            let ni = g.create_inst(self.types, f.insts[ai].clone());
            g.append_inst(self.entry, ni);
            if let Some(r) = g.insts[ni].result {
                g.values[r].name = f.values[a].name.clone();
                self.vmap[a] = Some(r);
            }
        }
    }

    /// The block this part enters at suspend `s`: its resume block (none for a final suspend in
    /// `.resume`) or its destroy block.
    fn target(&self, s: &shape::Suspend) -> Option<Block> {
        match self.part {
            Part::Resume if s.is_final => None,
            Part::Resume => s.resume_block,
            Part::Destroy | Part::Cleanup => s.destroy_block,
        }
    }

    /// Clones only what the part can run: its resume (or destroy) blocks and what follows them,
    /// through known branches only. Entered on destroy edges, a cleanup destination decides the
    /// switches behind it, and the resume code they lead past (most of the body) is not copied.
    fn clone_reachable(&mut self) -> CloneMaps {
        let roots: Vec<Block> = self.shape.suspends.iter().filter_map(|s| self.target(s)).collect();
        let Some(f) = self.f else { return CloneMaps { blocks: SecondaryMap::new(), insts: SecondaryMap::new() } };
        let ex = Executable::compute(f, self.types, self.env.src, &roots);
        let (maps, _) = self.g.clone_reachable_along(f, &mut self.vmap, &roots, &|b| {
            ex.decided(b).map(|to| std::iter::once(to).collect())
        });
        for (b, to) in ex.decided_branches(f) {
            if let (Some(nb), Some(nt)) = (maps.blocks[b], maps.blocks[to]) {
                self.g.branch_only_to(self.types, nb, nt);
            }
        }
        maps
    }

    /// Frame-resident variables declared in code this part does not contain are declared at its
    /// entry, so a debugger stopped anywhere in it finds them in the frame.
    fn declare_frame_variables(&mut self, maps: &CloneMaps) {
        let (Some(f), g, src) = (self.f, &mut self.g, self.env.src) else { return };
        for &d in &self.frame.declares {
            if maps.insts[d].is_some() || f.insts[d].block.is_none() {
                continue;
            }
            let Some(ni) = copy_declare(f, g, self.types, d, &self.vmap, self.hdl, src) else { continue };
            let pos = g.blocks[self.entry].insts.len();
            g.insert_inst_at(self.entry, pos, ni);
        }
    }

    /// Ends the entry with the dispatch on the suspend index (a `switch` whose default is a new
    /// unreachable block), or on the stored block address in `.resume` with indirectbr dispatch.
    fn dispatch(&mut self, maps: &CloneMaps, labels: &[Option<String>]) {
        let (mut seq, idx) = self.load_index();
        let unreach = self.g.create_block(Some("coro.unreachable"));
        let cases = self.index_cases(maps);
        let targets = self.indirect_targets(maps, labels);
        let u = Builder::new(&mut self.g, self.types).unreachable();
        match self.frame.label_off {
            Some(off) if !targets.is_empty() => seq.extend(self.indirectbr(off, &targets)),
            _ => seq.push(Builder::new(&mut self.g, self.types).switch(idx, unreach, &cases)),
        }
        for i in seq {
            self.g.append_inst(self.entry, i);
        }
        self.g.append_inst(unreach, u);
        self.g.layout.push(unreach);
    }

    /// The load of the suspend index from the frame (with its address computation), not yet
    /// placed, and the loaded value.
    fn load_index(&mut self) -> (Vec<Inst>, Value) {
        let frame = self.frame;
        let (mut seq, addr) =
            frame_addr(&mut self.g, self.types, self.hdl, frame.index_off, frame.index_ty, self.env.typed);
        let al = frame.fields.iter().find(|x| x.offset == frame.index_off).map_or(1, |x| x.align);
        let mut b = Builder::new(&mut self.g, self.types);
        let l = b.load(frame.index_ty, addr, al);
        let idx = b.result(l);
        seq.push(l);
        (seq, idx)
    }

    /// The switch cases: each suspend's index and the clone of the block this part enters there.
    fn index_cases(&mut self, maps: &CloneMaps) -> Vec<(Value, Block)> {
        let mut cases = Vec::new();
        for s in &self.shape.suspends {
            if let Some(tb) = self.target(s).and_then(|b| maps.blocks[b]) {
                let c = self.g.const_value(self.frame.index_ty, &s.index.to_string());
                cases.push((c, tb));
            }
        }
        cases
    }

    /// `.resume` with indirectbr dispatch jumps to the address the suspend stored: the cloned
    /// resume blocks with the labels their addresses name. The index load is then dead, and -O2
    /// drops it.
    fn indirect_targets<'l>(&self, maps: &CloneMaps, labels: &'l [Option<String>]) -> Vec<(Block, &'l String)> {
        self.shape
            .suspends
            .iter()
            .zip(labels)
            .filter(|_| self.part == Part::Resume)
            .filter_map(|(s, l)| Some((s.resume_block.and_then(|b| maps.blocks[b])?, l.as_ref()?)))
            .collect()
    }

    /// The load of the stored resume address at `off` and the `indirectbr` over `targets`, which
    /// get their labels; not yet placed.
    fn indirectbr(&mut self, off: u64, targets: &[(Block, &String)]) -> Vec<Inst> {
        let (g, types) = (&mut self.g, &mut *self.types);
        let (mut seq, addr) = frame_addr(g, types, self.hdl, off, types.ptr, self.env.typed);
        let ptr = types.ptr;
        let l = Builder::new(g, types).load(ptr, addr, self.frame.ptr_size);
        let lv = g.insts[l].result.unwrap_or(self.hdl);
        seq.push(l);
        let mut tmpl = vec![t(&format!("indirectbr {} ", types.display(ptr))), Piece::Arg(0), t(", [")];
        for (k, &(tb, name)) in targets.iter().enumerate() {
            g.blocks[tb].name = Some(name.as_str().into());
            tmpl.push(t(if k == 0 { "label " } else { ", label " }));
            tmpl.push(Piece::Block(k as u16));
        }
        tmpl.push(t("]"));
        let mut d = llir::ir::InstData::new(Opcode::IndirectBr, types.void, tmpl);
        d.args.push(lv);
        d.blocks.extend(targets.iter().map(|&(tb, _)| tb));
        seq.push(g.create_inst(types, d));
        seq
    }

    /// A suspend takes its suspend path, as in the ramp: the result is -1 there, and the path's
    /// coro.end returns. A symmetric transfer returns at once, by a tail call to the awaited handle,
    /// so that chains of resumptions do not grow the stack.
    fn lower_suspends(&mut self, maps: &CloneMaps) {
        let shape = self.shape;
        for s in &shape.suspends {
            self.lower_suspend(s, maps);
        }
    }

    /// Replaces one cloned suspend and its switch by the branch to its suspend path, a return, or
    /// the symmetric transfer's tail call and return.
    fn lower_suspend(&mut self, s: &shape::Suspend, maps: &CloneMaps) {
        let src = self.env.src;
        let mi = |i: Inst| maps.insts[i];
        let (Some(call), Some(sw)) = (mi(s.call), s.switch.and_then(mi)) else { return };
        let g = &mut self.g;
        let Some(blk) = g.insts[call].block else { return };
        let transfer = s.transfer.and_then(|h| match self.f {
            Some(f) => match f.const_text(h, src) {
                Some(text) => Some(g.const_value(f.values[h].ty, text)),
                None => self.vmap[h],
            },
            None => Some(self.vmap[h].unwrap_or(h)),
        });
        let keep = if transfer.is_some() { None } else { g.insts[sw].blocks.first().copied() };
        g.detach_successors(blk, keep);
        g.remove_inst(sw);
        g.remove_inst(call);
        let mut b = Builder::new(g, self.types);
        let tail = match (transfer, keep) {
            (Some(h), _) => {
                let mut t = resume_handle(&mut b, h, self.frame.ptr_size, "musttail ", self.env.typed);
                t.push(b.ret_void());
                t
            }
            (None, Some(default)) => vec![b.br(default)],
            (None, None) => vec![b.ret_void()],
        };
        for i in tail {
            g.append_inst(blk, i);
        }
    }

    /// Lowers the part's intrinsics, removes what it cannot run, and points the debug info at the
    /// frame.
    fn finish(mut self, maps: &CloneMaps) -> Function {
        let (g, types, src) = (&mut self.g, &mut *self.types, self.env.src);
        rewrite_intrinsics(g, types, self.shape, self.frame, Some((self.part, self.hdl, &maps.insts)), self.env);
        unreachable_value_returns(g, types);
        fold_known_branches(g, types, src);
        g.remove_unreachable_blocks();
        debug_frame_slot(g, types, self.hdl, self.entry, self.frame, src);
        crate::coro::debug::poison_dead_debug_operands(g);
        self.g
    }
}

/// A return the ramp's type still has was reached without coro.end: a part cannot return that
/// value, and LLVM makes such a return unreachable too.
fn unreachable_value_returns(g: &mut Function, types: &mut TypeTable) {
    let rets: Vec<Inst> = g
        .inst_iter()
        .map(|(_, i)| i)
        .filter(|&i| g.insts[i].op == Opcode::Ret && !g.insts[i].args.is_empty())
        .collect();
    for r in rets {
        let Some(b) = g.insts[r].block else { continue };
        g.remove_inst(r);
        let u = Builder::new(g, types).unreachable();
        g.append_inst(b, u);
    }
}

/// Branches whose condition is known in this function go straight to their target: constants (what
/// `coro.end` and `coro.is_in_ramp` became here) and phis of one constant along the edges that run
/// (clang's cleanup destinations). Code only another part runs is then unreachable here and goes.
fn fold_known_branches(g: &mut Function, types: &TypeTable, src: &str) {
    let Some(entry) = g.entry() else { return };
    let ex = Executable::compute(g, types, src, &[entry]);
    for (b, to) in ex.decided_branches(g) {
        g.branch_only_to(types, b, to);
    }
}

/// Which part is being finished, its frame parameter, and where the original instructions went.
type PartCtx<'a> = (Part, Value, &'a SecondaryMap<Inst, Option<Inst>>);

/// Debug records that describe variables as frame + offset get the frame pointer from a stack slot
/// (`DW_OP_deref` first): a register argument is soon reused at -O0, a stack slot stays valid for
/// the whole function, which is what a debugger stopped anywhere in the part needs.
fn debug_frame_slot(g: &mut Function, types: &mut TypeTable, hdl: Value, entry: Block, frame: &Frame, src: &str) {
    let uses: Vec<Inst> = g
        .inst_iter()
        .map(|(_, i)| i)
        .filter(|&i| g.insts[i].is_debug() && g.insts[i].args.first() == Some(&hdl))
        .collect();
    if uses.is_empty() {
        return;
    }
    let ptr = types.ptr;
    let typed = !matches!(types.get(ptr), llir::types::TypeData::Ptr(_));
    let slot_ty = types.pointer_to(ptr, 0, typed);
    let text = format!("alloca {}, align {}", types.display(ptr), frame.ptr_size);
    let mut d = llir::ir::InstData::new(Opcode::Alloca, slot_ty, vec![t(&text)]);
    d.extra = Extra::Alloca { ty: ptr, align: Some(frame.ptr_size as u32) };
    let slot_inst = g.create_inst(types, d);
    let Some(slot) = g.insts[slot_inst].result else { return };
    g.values[slot].name = Some("frame.debug".into());
    let st = Builder::new(g, types).store(hdl, slot, frame.ptr_size);
    g.insert_inst_at(entry, 0, slot_inst);
    g.insert_inst_at(entry, 1, st);
    let slot_text = types.display(slot_ty);
    for u in uses {
        g.insts[u].args[0] = slot;
        if typed {
            crate::frame::retype_metadata_operand(g, u, 0, &slot_text, src);
        }
        // Only the first expression: the record's own.
        let mut done = false;
        g.insts[u].rewrite_texts(|tx| {
            let text = tx.get(src);
            let (open, empty) = crate::frame::rewrite::di_expression_open(text).filter(|_| !done)?;
            done = true;
            Some(Text::own(format!("{}DW_OP_deref{}{}", &text[..open], if empty { "" } else { ", " }, &text[open..])))
        });
    }
}

/// Replaces the structural intrinsics left in `g`: in a part (`part` is set) or in the ramp.
fn rewrite_intrinsics(
    g: &mut Function,
    types: &mut TypeTable,
    shape: &Shape,
    frame: &Frame,
    part: Option<PartCtx<'_>>,
    env: &Env<'_>,
) {
    let src = env.src;
    let map = |i: Inst| match part {
        Some((_, _, m)) => m[i],
        None => Some(i),
    };
    let final_index = shape.suspends.iter().find(|s| s.is_final).map(|s| s.index);
    let in_ramp = part.is_none();
    let fr = match part {
        Some((_, h, _)) => h,
        None => shape.frame(g),
    };
    let mut todo: Vec<(Inst, Intr)> = shape.others.iter().filter_map(|&(i, k)| map(i).map(|m| (m, k))).collect();
    todo.extend(shape.ends.iter().filter_map(|&i| map(i).map(|m| (m, Intr::End))));
    let mut subst: rustc_hash::FxHashMap<Value, Value> = rustc_hash::FxHashMap::default();
    for (i, k) in todo {
        if g.insts[i].block.is_none() {
            continue;
        }
        let result = g.insts[i].result;
        let args: Vec<Value> = g.insts[i].call_args().to_vec();
        let i1 = types.i1;
        let replacement: Option<Value> = match k {
            Intr::End => {
                let unwind = args.get(1).and_then(|&v| g.const_int(v, src)).unwrap_or(0) != 0;
                if in_ramp {
                    // In the ramp coro.end does nothing and reports "not in a resume part".
                    result.map(|_| g.const_value(i1, "false"))
                } else if unwind {
                    // Unwinding out of a resume part: the coroutine is done; let the exception go on.
                    let mut seq = null_resume(g, types, fr, frame, env.typed);
                    if let Some(fi) = final_index {
                        let c = g.const_value(frame.index_ty, &fi.to_string());
                        let (mut a, addr) = frame_addr(g, types, fr, frame.index_off, frame.index_ty, env.typed);
                        seq.append(&mut a);
                        let al = frame.fields.iter().find(|x| x.offset == frame.index_off).map_or(1, |x| x.align);
                        seq.push(Builder::new(g, types).store(c, addr, al));
                    }
                    for n in seq {
                        g.insert_inst_before(i, n);
                    }
                    result.map(|_| g.const_value(i1, "true"))
                } else {
                    // A resume part returns here; the rest of the block is the ramp's business.
                    let b = g.insts[i].block.expect("placed");
                    let pos = g.blocks[b].insts.iter().position(|&x| x == i).unwrap_or(0);
                    let tail: Vec<Inst> = g.blocks[b].insts[pos..].to_vec();
                    let succs: Vec<Block> = g.successors(b).to_vec();
                    for s in succs {
                        g.remove_phi_incoming(s, b);
                    }
                    for x in tail {
                        g.remove_inst(x);
                    }
                    let r = Builder::new(g, types).ret_void();
                    g.append_inst(b, r);
                    continue;
                }
            }
            Intr::IsInRamp => Some(g.const_value(i1, if in_ramp { "true" } else { "false" })),
            Intr::Free => match part {
                Some((Part::Cleanup, _, _)) => Some(g.const_value(types.ptr, "null")),
                _ => Some(fr),
            },
            Intr::Alloc => Some(g.const_value(i1, "true")),
            Intr::Size => Some(g.const_value(g.insts[i].ty, &frame.size.to_string())),
            Intr::Align => Some(g.const_value(g.insts[i].ty, &frame.align.to_string())),
            Intr::Save | Intr::Id | Intr::Begin => None,
            _ => continue,
        };
        if k == Intr::Begin || k == Intr::Id {
            continue;
        }
        if let (Some(r), Some(n)) = (result, replacement) {
            subst.insert(r, n);
        }
        g.remove_inst(i);
    }
    // One sweep for all replacements (each one alone would scan the whole function).
    g.replace_uses_with_map(&subst);
}

/// Removes all debug records from `g`, and its locations as it is printed: for a part of a
/// coroutine whose subprogram could not be copied, and for twins that do not get one.
pub fn strip_debug(g: &mut Function) {
    let records: Vec<Inst> = g.inst_iter().map(|(_, i)| i).filter(|&i| g.insts[i].is_debug()).collect();
    for i in records {
        g.remove_inst(i);
    }
    g.debug_view = llir::ir::DebugView::WithoutLocations;
}

/// The ramp: runs from entry to the first suspend, then returns what the suspend path returns.
fn finish_ramp(
    mut f: Function,
    types: &mut TypeTable,
    shape: &Shape,
    frame: &Frame,
    parts: &[Function],
    env: &Env<'_>,
    caller_mem: Option<Value>,
) -> (Function, bool) {
    let src = env.src;
    // Store the resume and destroy functions right after coro.begin (`.cleanup` as the destroy
    // function when the frame is the caller's memory).
    let fr = shape.frame(&f);
    let mut seq = Vec::new();
    let installed: Vec<&Function> = match caller_mem {
        Some(_) => parts.iter().step_by(2).collect(),
        None => parts.iter().take(2).collect(),
    };
    for (k, part) in installed.into_iter().enumerate() {
        let fnv = f.const_value(types.ptr, &crate::coro::intrinsics::part_as_ptr(&part.name, env.typed));
        let (mut a, addr) = frame_addr(&mut f, types, fr, k as u64 * frame.ptr_size, types.ptr, env.typed);
        seq.append(&mut a);
        let st = Builder::new(&mut f, types).store(fnv, addr, frame.ptr_size);
        // The destroy function stays for the frame's life: handle methods test it to learn the
        // coroutine (`intrinsics::call_guarded`), and -O2 may fold the test where it sees this store.
        if k == 1
            && let Some(g) = env.header_group
        {
            f.insts[st].push_piece(t(&format!(", !invariant.group !{g}")));
        }
        seq.push(st);
    }
    let bb = f.insts[shape.begin].block.expect("placed");
    let pos = f.blocks[bb].insts.iter().position(|&x| x == shape.begin).unwrap_or(0);
    for (k, i) in seq.into_iter().enumerate() {
        f.insert_inst_at(bb, pos + 1 + k, i);
    }
    // Suspends go to their suspend path, resuming the awaited handle first if there is one.
    for s in &shape.suspends {
        let (Some(blk), Some(sw)) = (f.insts[s.call].block, s.switch) else { continue };
        let default = f.insts[sw].blocks[0];
        f.detach_successors(blk, Some(default));
        f.remove_inst(sw);
        f.remove_inst(s.call);
        let mut b = Builder::new(&mut f, types);
        // The ramp returns something else than the resume function, so no tail call here.
        let mut tail = s.transfer.map(|h| resume_handle(&mut b, h, frame.ptr_size, "", env.typed)).unwrap_or_default();
        tail.push(b.br(default));
        for i in tail {
            f.append_inst(blk, i);
        }
    }
    rewrite_intrinsics(&mut f, types, shape, frame, None, env);
    fold_known_branches(&mut f, types, src);
    // coro.begin's frame is the memory it was given (or the caller's); coro.id goes. With a header
    // group, allocated memory goes through `launder.invariant.group` first: each frame is then a
    // pointer of its own to the optimiser, even in memory an earlier frame had (a pool), so the
    // destroy slot's tagged stores never disagree. The caller's memory (an elided twin) is not
    // laundered: it is an alloca of one call site, so every frame made there stores the same
    // `.cleanup`, and SROA of LLVM 20+ does not see through the launder, which would keep a frame
    // on the caller's stack in memory (`optional_call` of bench/parity.sh: 5x clang-22's time).
    let mem = caller_mem.or_else(|| f.insts[shape.begin].call_args().get(1).copied());
    let mem = match (mem, env.header_group) {
        (Some(m), Some(_)) if !env.typed && caller_mem.is_none() => {
            let callee = f.const_value(types.ptr, crate::coro::intrinsics::LAUNDER);
            let ptr = types.ptr;
            let c = Builder::new(&mut f, types).call("", "", ptr, callee, &[m]);
            f.insert_inst_before(shape.begin, c);
            f.insts[c].result.or(Some(m))
        }
        (m, _) => m,
    };
    if let (Some(mem), Some(r)) = (mem, f.insts[shape.begin].result) {
        f.replace_all_uses(r, mem);
    }
    f.remove_inst(shape.begin);
    f.remove_inst(shape.id);
    f.remove_unreachable_blocks();
    let returns_frame = mem.is_some_and(|mem| {
        f.inst_iter().filter(|&(_, i)| f.insts[i].op == Opcode::Ret).all(|(_, i)| f.insts[i].args.first() == Some(&mem))
    });
    // The suffix loses the presplit attribute.
    drop_presplit_attr(&mut f, src);
    (f, returns_frame)
}

/// Removes the presplit attribute (`presplitcoroutine`, LLVM 14's `"coroutine.presplit"`) spelled
/// out in `f`'s header.
pub fn drop_presplit_attr(f: &mut Function, src: &str) {
    let suffix = f.header.suffix.get(src);
    if !suffix.contains("presplitcoroutine") && !suffix.contains("\"coroutine.presplit\"") {
        return;
    }
    let cut = crate::coro::shape::presplit_attr_spans(suffix);
    f.header.suffix = Text::own(crate::coro::shape::without_spans(suffix, &cut));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `define` of `name` in `out`, up to its closing brace.
    fn define_of<'a>(out: &'a str, name: &str) -> &'a str {
        let start = out.find(&format!("@{name}(")).and_then(|k| out[..k].rfind("define ")).expect("defined");
        let end = out[start..].find("\n}\n").map_or(out.len(), |e| start + e);
        &out[start..end]
    }

    #[test]
    fn a_destroy_edge_copies_only_the_cleanups_its_destination_decides() {
        let src = include_str!("../../../../tests/shapes/cleanup_dest.ll");
        let out =
            crate::pipeline::run(src.to_string(), Default::default()).map_err(|_| "refused").expect("lowers").text;
        for part in ["co.destroy", "co.cleanup"] {
            let text = define_of(&out, part);
            // The cleanups (100, -1) are there; the loop body (%i) and the final print (200) only
            // run behind a resume edge.
            assert!(text.contains("@print(i32 100)") && text.contains("@print(i32 -1)"), "{text}");
            assert!(!text.contains("@print(i32 %i)") && !text.contains("@print(i32 200)"), "{text}");
            assert!(!text.contains("switch i32 %dest"), "decided switches go: {text}");
        }
        let resume = define_of(&out, "co.resume");
        assert!(resume.contains("@print(i32 %i)") && resume.contains("@print(i32 200)"), "{resume}");
    }

    #[test]
    fn names_and_suffixes() {
        assert_eq!(derived_name("@f", "resume"), "@f.resume");
        assert_eq!(derived_name("@\"a b\"", "destroy"), "@\"a b.destroy\"");
        assert_eq!(part_suffix(" #0 comdat personality ptr @p !dbg !12 "), " #0 personality ptr @p ");
        // Any layout: a comdat with its name after a space, `!dbg` and its node on lines of their own,
        // LLVM 14's presplit attribute spaced out.
        assert_eq!(part_suffix("\n  #0 comdat ($c)\n  \"coroutine.presplit\" =\n \"0\" !dbg\n  !12 "), " #0 ");
    }
}
