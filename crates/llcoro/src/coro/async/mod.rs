//! Async coroutines (`llvm.coro.id.async`), on the shared frame engine (`crate::frame`), as
//! LLVM's CoroSplit lowers them.
//!
//! Such a coroutine's frame is the tail of its *async context*, a parameter its caller allocates
//! with the size the coroutine's *async function pointer* global (`<{ i32, i32 }>`) gives in its
//! second field: the context's header (`coro.id.async`'s size), then the frame at that size
//! aligned to the frame's alignment. The lowering writes the final context size into that field.
//! Each `coro.suspend.async` calls its must-tail function (inlined, as LLVM does) with the
//! continuation function its `coro.async.resume` stands for, and returns; the continuation, of
//! type `void` of the suspend's result fields, finds its coroutine's context by the suspend's
//! context projection function from the callee's context parameter.
//!
//! The steps, in order: `shape::analyze` (intrinsics and what LLVM assumes of them) → `normalize`
//! (each suspend's continuation starts in a block of its own) → `retcon::swifterror::eliminate`
//! (swifterror slots as ordinary variables, each part's own slot resolved after the split) → `retcon::build_frame` (the
//! engine's phases, a frame with no header, no field aligned beyond the context: a more-aligned
//! alloca is realigned at run time inside a larger field, as LLVM does) → `split` (the
//! ramp and the continuations). The async function pointers' sizes, and `coro.async.size.replace`,
//! are module edits (`context_size_edits`).

pub mod shape;
pub mod split;

use crate::coro::intrinsics::{Intr, intr_of};
use crate::coro::retcon::{self, FrameSpec};
use crate::diag::Finding;
use crate::frame::Frame;
use llir::ir::{Function, Inst};
use llir::types::TypeTable;
use rustc_hash::FxHashMap;
pub use shape::{Shape, context_size, context_size_span, is_async};

/// What the module needs and the report shows of a lowered async coroutine.
pub struct Lowered {
    pub ramp: Function,
    pub continuations: Vec<Function>,
    pub frame: Frame,
    /// The async function pointer and the context size it now gives.
    pub fn_pointer: String,
    pub context_size: u64,
    pub header_size: u64,
    pub frame_offset: u64,
    pub context_align: u64,
}

/// A module function's body, parsed with the caller's type table (None: only declared).
pub type BodyOf<'a> = dyn Fn(&str, &mut TypeTable) -> Option<Result<Function, llir::Error>> + 'a;

/// What the lowering reads of the module besides the function.
pub struct Env<'a> {
    pub base: &'a retcon::Env<'a>,
    pub module: shape::Module<'a>,
    pub body_of: &'a BodyOf<'a>,
}

/// Lowers the async coroutine `f`.
pub fn lower(mut f: Function, types: &mut TypeTable, env: &Env<'_>) -> Result<Lowered, Vec<Finding>> {
    let src = env.base.src;
    // A suspend no path reaches gets no continuation, as in LLVM.
    f.remove_unreachable_blocks();
    let mut shape = shape::analyze(&f, src, types, &env.module)?;
    shape::normalize(&mut f, types, &mut shape);
    let stops = retcon::swifterror::Stops { suspends: &shape.suspends, ends: &shape.ends };
    retcon::swifterror::eliminate(&mut f, types, &stops, src, env.base.dl.pointer_size(0));
    let structural = |f: &Function, i: Inst| is_structural(f, i, src);
    let spec = FrameSpec {
        begin: shape.begin,
        suspends: &shape.suspends,
        structural: &structural,
        max_align: Some(shape.context_align),
    };
    let frame = retcon::build_frame(&mut f, types, &spec, env.base)?;
    let frame_offset = shape.header_size.div_ceil(frame.align) * frame.align;
    let context_size = (frame_offset + frame.size).div_ceil(shape.context_align) * shape.context_align;
    let bodies = must_tail_bodies(&shape, types, env)?;
    let cx = split::Cx {
        f: &f,
        shape: &shape,
        frame: &frame,
        src,
        typed: env.base.typed,
        frame_offset,
        bodies: &bodies,
        globals: env.base.globals,
        ptr_size: env.base.dl.pointer_size(0),
    };
    let parts = split::split(types, &cx);
    Ok(Lowered {
        ramp: parts.ramp,
        continuations: parts.continuations,
        fn_pointer: shape.fn_pointer.clone(),
        context_size,
        header_size: shape.header_size,
        frame_offset,
        context_align: shape.context_align,
        frame,
    })
}

/// Intrinsics whose operands are no real uses (the frame's own bookkeeping).
fn is_structural(f: &Function, i: Inst, src: &str) -> bool {
    matches!(intr_of(f, i, src), Some(Intr::IdAsync | Intr::Begin | Intr::Size | Intr::Align | Intr::Frame))
}

/// The must-tail functions' bodies (of those the module defines), parsed once each, as they are
/// inlined: their values and blocks unnamed (numbered where they land, so that no name meets one
/// of the coroutine's), without debug records or `!dbg` locations (they belong to the callee's
/// subprogram; the coroutine's parts get locations of their own, `crate::locations`). A body
/// LLVM's verifier rejects is the input's error, at its fault, before it is copied into the parts.
fn must_tail_bodies(
    shape: &Shape,
    types: &mut TypeTable,
    env: &Env<'_>,
) -> Result<FxHashMap<String, Function>, Vec<Finding>> {
    let names = shape.details.iter().map(|d| d.must_tail.name.clone());
    let mut out = FxHashMap::default();
    for name in names.chain(shape.end_must_tail.iter().map(|c| c.name.clone())) {
        if out.contains_key(&name) {
            continue;
        }
        let Some(body) = (env.body_of)(&name, types) else { continue };
        let mut g = body
            .and_then(|g| llir::verify::verify_input(&g).map(|()| g))
            .map_err(|error| vec![Finding { severity: crate::diag::Severity::Error, error }])?;
        as_inlined(&mut g, env.base.src);
        out.insert(name, g);
    }
    Ok(out)
}

fn as_inlined(g: &mut Function, src: &str) {
    use llir::ir::{Piece, Text, ValueKind};
    for (_, v) in g.values.iter_mut() {
        if matches!(v.kind, ValueKind::Param(_) | ValueKind::Inst(_)) {
            v.name = None;
        }
    }
    for (_, b) in g.blocks.iter_mut() {
        b.name = None;
    }
    let records: Vec<Inst> = g.inst_iter().map(|(_, i)| i).filter(|&i| g.insts[i].is_debug()).collect();
    for i in records {
        g.remove_inst(i);
    }
    // Made by the lowering where they land (`crate::locations` gives them the coroutine's
    // locations), not code of the coroutine's source.
    let all: Vec<Inst> = g.inst_iter().map(|(_, i)| i).collect();
    for &i in &all {
        g.insts[i].span = llir::Span::default();
    }
    let located: Vec<Inst> = g
        .inst_iter()
        .map(|(_, i)| i)
        .filter(|&i| g.insts[i].tmpl.iter().any(|p| matches!(p, Piece::Text(t) if t.get(src).contains("!dbg"))))
        .collect();
    for i in located {
        let pieces: Vec<Piece> = g.insts[i]
            .tmpl
            .iter()
            .map(|p| match p {
                Piece::Text(t) => {
                    let mut out = String::new();
                    llir::metadata::push_without_dbg(&mut out, t.get(src));
                    Piece::Text(Text::own(out))
                }
                other => other.clone(),
            })
            .collect();
        g.insts[i].tmpl = pieces.into();
    }
}

/// A warning, at the first of them, when `g` calls `coro.async.context.alloc` or `.dealloc`. LLVM's
/// coro passes lower the coroutine around them and leave the calls in place, the result an
/// ordinary value (spilled when it crosses a suspend): a producer's own pipeline (Swift's) lowers
/// them later, and no backend selects them. llcoro does the same, and says so: output that keeps a
/// coroutine intrinsic is never written silently.
pub fn context_alloc_kept(g: &Function, src: &str) -> Option<Finding> {
    let calls: Vec<Inst> = g
        .inst_iter()
        .map(|(_, i)| i)
        .filter(|&i| matches!(intr_of(g, i, src), Some(Intr::AsyncContextAlloc | Intr::AsyncContextDealloc)))
        .collect();
    let &first = calls.first()?;
    let calls = match calls.len() {
        1 => "1 call of llvm.coro.async.context.alloc/dealloc is".to_string(),
        n => format!("{n} calls of llvm.coro.async.context.alloc/dealloc are"),
    };
    Some(crate::diag::warning_at(
        g,
        Some(first),
        "coro-async-context-alloc",
        format!("{calls} kept in the output, for the runtime's own lowering (LLVM's coro passes leave them too)"),
        "no backend compiles these intrinsics: run the producer's pass that lowers them (Swift's) on the output, \
         as after LLVM's own coro passes, or allocate the callee's context with the runtime's allocator, sized \
         from the second field of its async function pointer",
    ))
}

/// The `coro.async.size.replace(target, source)` calls of `g`: the async function pointer each
/// target names takes the context size of its source.
pub fn size_replacements(g: &Function, src: &str) -> Vec<(String, String)> {
    let name = |i: Inst, k: usize| {
        g.insts[i].call_args().get(k).and_then(|&v| g.const_text(v, src)).and_then(retcon::shape::named_global)
    };
    g.inst_iter()
        .filter(|&(_, i)| intr_of(g, i, src) == Some(Intr::AsyncSizeReplace))
        .filter_map(|(_, i)| Some((name(i, 0)?, name(i, 1)?)))
        .collect()
}

/// The module's edits of async function pointers: each lowered coroutine's context size into its
/// pointer's second field, then each `coro.async.size.replace` target given its source's size
/// (as LLVM's CoroCleanup does, after every coroutine is split).
pub fn context_size_edits(
    m: &llir::module::Module,
    edits: &mut llir::print::Edits,
    sizes: &[(String, u64)],
    replace: &[(String, String)],
) {
    use llir::module::ItemKind;
    use llir::parser::module::normalize_global;
    if sizes.is_empty() && replace.is_empty() {
        return;
    }
    let index: FxHashMap<String, usize> = (0..m.items.len())
        .filter(|&i| m.items.get(i).is_some_and(|it| it.kind == ItemKind::Global))
        .map(|i| (normalize_global(m.item_name(i)).to_string(), i))
        .collect();
    let at = |name: &str| index.get(normalize_global(name).as_ref() as &str).copied();
    let mut new: FxHashMap<usize, u64> = sizes.iter().filter_map(|(n, s)| Some((at(n)?, *s))).collect();
    for (target, source) in replace {
        let Some(s) = at(source) else { continue };
        let size = new.get(&s).copied().or_else(|| context_size(m.item_text(s)));
        if let (Some(t), Some(size)) = (at(target), size) {
            new.insert(t, size);
        }
    }
    for (i, size) in new {
        let text = m.item_text(i);
        if let Some((a, b)) = context_size_span(text) {
            edits.replace.insert(i, format!("{}{size}{}", &text[..a], &text[b..]));
        }
    }
}
