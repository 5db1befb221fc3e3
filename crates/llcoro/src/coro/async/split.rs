//! The ramp and the continuations of an async coroutine, each a copy of what its entry reaches in
//! the rewritten body: the ramp from the function's entry, continuation *k* from the block after
//! suspend *k* (`retcon::split::Body`). A copy stops at every suspend, whose must-tail function is
//! inlined in its place (its `ret void`s end the copy); `coro.end` returns, `coro.end.async` with
//! a must-tail function inlines that function. Each `coro.async.resume` becomes the continuation
//! of the suspend it feeds.

use super::shape::{Shape, global_operand};
use crate::coro::intrinsics::{Intr, intr_of};
use crate::coro::retcon::shape::Callee;
use crate::coro::retcon::split::{Body, cut_block, is_linkage_word, replace_tail, with_params};
use crate::coro::retcon::suspend_blocks;
use crate::coro::split::{derived_name, part_suffix, unused_global_name};
use crate::frame::{Frame, frame_addr};
use cranelift_entity::SecondaryMap;
use llir::ir::build::Builder;
use llir::ir::edit::CloneMaps;
use llir::ir::{Function, Header, Inst, Text, Value};
use llir::types::TypeTable;
use rustc_hash::{FxHashMap, FxHashSet};

pub struct Parts {
    pub ramp: Function,
    pub continuations: Vec<Function>,
}

/// What every copy needs to know.
pub struct Cx<'a> {
    pub f: &'a Function,
    pub shape: &'a Shape,
    pub frame: &'a Frame,
    pub src: &'a str,
    pub typed: bool,
    /// Where the frame starts in the context.
    pub frame_offset: u64,
    /// The must-tail functions' bodies, by name, their values and blocks unnamed.
    pub bodies: &'a FxHashMap<String, Function>,
    pub globals: &'a FxHashSet<Box<str>>,
    /// The alignment of a swifterror slot a part makes (`retcon::swifterror::resolve`).
    pub ptr_size: u64,
}

/// A continuation's name: LLVM's, `@f.resume.K`, or Swift's mangling (`@fTQK_`, `@fTYK_`) when the
/// context projection is one of Swift's runtime functions.
fn continuation_name(f: &Function, projection: &str, k: usize, globals: &FxHashSet<Box<str>>) -> String {
    let swift = match projection {
        "@__swift_async_resume_project_context" => Some("TQ"),
        "@__swift_async_resume_get_context" => Some("TY"),
        _ => None,
    };
    let base = match swift {
        Some(tag) => match f.name.strip_suffix('"') {
            Some(b) => format!("{b}{tag}{k}_\""),
            None => format!("{}{tag}{k}_", f.name),
        },
        None => derived_name(&f.name, &format!("resume.{k}")),
    };
    unused_global_name(base, globals)
}

pub fn split(types: &mut TypeTable, cx: &Cx<'_>) -> Parts {
    let names: Vec<String> = cx
        .shape
        .details
        .iter()
        .enumerate()
        .map(|(k, d)| continuation_name(cx.f, &d.projection.name, k, cx.globals))
        .collect();
    let continuations = (0..cx.shape.suspends.len()).map(|k| continuation(cx, types, &names, k)).collect();
    let ramp = ramp(cx, types, &names);
    Parts { ramp, continuations }
}

/// The ramp: the body from its entry up to the first suspends, the frame in the context
/// parameter at the frame offset.
fn ramp(cx: &Cx<'_>, types: &mut TypeTable, names: &[String]) -> Function {
    let f = cx.f;
    let (mut g, mut vmap) = crate::coro::split::empty_ramp(f);
    let Some(entry) = f.entry() else { return g };
    let stops = suspend_blocks(f, &cx.shape.suspends);
    let (maps, _) = g.clone_reachable_along(f, &mut vmap, &[entry], &|b| stops.get(&b).map(|_| Default::default()));
    let mut frame = g.const_value(types.ptr, "poison");
    if let (Some(begin), Some(&ctx)) = (maps.insts[cx.shape.begin], g.params.get(cx.shape.context_param)) {
        let (seq, addr) = byte_frame(&mut g, types, ctx, cx.frame_offset, cx.typed);
        for i in seq {
            g.insert_inst_before(begin, i);
        }
        frame = addr;
        if let Some(r) = g.insts[begin].result {
            g.replace_all_uses(r, frame);
        }
        g.remove_inst(begin);
    }
    if let Some(id) = maps.insts[cx.shape.id] {
        g.remove_inst(id);
    }
    finish(cx, &mut g, types, &maps, names, None, frame);
    crate::coro::split::drop_presplit_attr(&mut g, cx.src);
    g
}

/// Continuation `k`: `void` of the suspend's result fields; the frame found by the suspend's
/// context projection from the callee's context parameter, at the frame offset; then the body
/// from the block after suspend `k`.
fn continuation(cx: &Cx<'_>, types: &mut TypeTable, names: &[String], k: usize) -> Function {
    let (f, shape) = (cx.f, cx.shape);
    let Some(d) = shape.details.get(k) else {
        return Function::new(names.get(k).cloned().unwrap_or_default(), f.header.clone());
    };
    let mut g = with_params(names.get(k).cloned().unwrap_or_default(), continuation_header(cx, types, k));
    let entry = g.create_block(Some("entry"));
    g.layout.push(entry);
    let Some(&callee_ctx) = g.params.get(d.context_param) else { return g };
    let ptr = types.ptr;
    let proj = g.const_value(ptr, &d.projection.name);
    let call = Builder::new(&mut g, types).call("", &d.projection.cc(cx.src), ptr, proj, &[callee_ctx]);
    g.append_inst(entry, call);
    let caller_ctx = g.insts[call].result.unwrap_or(callee_ctx);
    let (seq, frame) = byte_frame(&mut g, types, caller_ctx, cx.frame_offset, cx.typed);
    for i in seq {
        g.append_inst(entry, i);
    }
    let args = g.params.clone();
    let frame_val = f.insts[shape.begin].result;
    let body = Body { f, frame: cx.frame, suspends: &shape.suspends, frame_val, src: cx.src };
    let Some(maps) = body.fill(&mut g, types, k, entry, frame, &args) else { return g };
    finish(cx, &mut g, types, &maps, names, Some(k), frame);
    g
}

/// A continuation's header: internal, the coroutine's calling convention, `void` of the suspend's
/// result fields; the context parameter is `swiftasync` when the coroutine's is, as in LLVM.
fn continuation_header(cx: &Cx<'_>, types: &TypeTable, k: usize) -> Header {
    let (f, src) = (cx.f, cx.src);
    let keep: Vec<&str> =
        f.header.prefix.get(src).split_whitespace().filter(|w| !is_linkage_word(w) && *w != "define").collect();
    let prefix = format!("define internal {}", keep.iter().map(|w| format!("{w} ")).collect::<String>());
    let swiftasync = f
        .header
        .params
        .get(cx.shape.context_param)
        .is_some_and(|p| p.attrs.get(src).split_whitespace().any(|w| w == "swiftasync"));
    let tys = cx.shape.suspends.get(k).map(|s| crate::coro::retcon::shape::elements(types, f.insts[s.call].ty));
    let context = cx.shape.details.get(k).map(|d| d.context_param);
    let params = tys
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(n, ty)| llir::ir::Param {
            ty,
            attrs: Text::own(if swiftasync && Some(n) == context { "swiftasync".to_string() } else { String::new() }),
        })
        .collect();
    Header {
        prefix: Text::own(prefix),
        ret: types.void,
        params,
        vararg: false,
        suffix: Text::own(part_suffix(f.header.suffix.get(src))),
    }
}

/// The rest of a copy: each suspend inlines its must-tail function; each `coro.async.resume`
/// becomes its suspend's continuation (null when it feeds none); `coro.end` returns, after the
/// inlined must-tail function of a `coro.end.async` that has one; size, alignment and frame
/// intrinsics become constants and the frame; swifterror placeholders use the copy's own slot.
fn finish(
    cx: &Cx<'_>,
    g: &mut Function,
    types: &mut TypeTable,
    maps: &CloneMaps,
    names: &[String],
    role: Option<usize>,
    frame: Value,
) {
    let (shape, src) = (cx.shape, cx.src);
    let ptr = types.ptr;
    for (j, (s, d)) in shape.suspends.iter().zip(&shape.details).enumerate() {
        if let Some(r) = maps.insts[d.resume_fn] {
            let cont = g.const_value(ptr, &continuation_ref(cx, types, j, names.get(j)));
            if let Some(v) = g.insts[r].result {
                g.replace_all_uses(v, cont);
            }
            g.remove_inst(r);
        }
        let Some(c) = maps.insts[s.call] else { continue };
        let args: Vec<Value> = g.insts[c].call_args().get(4..).unwrap_or(&[]).to_vec();
        inline_in_place(cx, g, types, c, &d.must_tail, &args);
    }
    for &r in &shape.stray_resumes {
        if let Some(c) = maps.insts[r] {
            let null = g.const_value(ptr, "null");
            if let Some(v) = g.insts[c].result {
                g.replace_all_uses(v, null);
            }
            g.remove_inst(c);
        }
    }
    for &e in &shape.ends {
        let Some(c) = maps.insts[e] else { continue };
        lower_end(cx, g, types, c, intr_of(cx.f, e, src) == Some(Intr::EndAsync), role.is_some());
    }
    let mut subst = FxHashMap::default();
    for &(i, k) in &shape.others {
        let Some(c) = maps.insts[i].filter(|&c| g.insts[c].block.is_some()) else { continue };
        let new = match k {
            Intr::Size => g.const_value(g.insts[c].ty, &cx.frame.size.to_string()),
            Intr::Align => g.const_value(g.insts[c].ty, &cx.frame.align.to_string()),
            _ => frame,
        };
        if let Some(r) = g.insts[c].result {
            subst.insert(r, new);
        }
        g.remove_inst(c);
    }
    g.replace_uses_with_map(&subst);
    g.remove_unreachable_blocks();
    crate::coro::retcon::swifterror::resolve(g, types, src, cx.ptr_size);
}

/// The frame, `off` bytes into the context `ctx`: a byte pointer in either dialect (`i8*` typed,
/// a context of another pointer type cast to it first).
fn byte_frame(g: &mut Function, types: &mut TypeTable, ctx: Value, off: u64, typed: bool) -> (Vec<Inst>, Value) {
    let mut seq = Vec::new();
    let mut base = ctx;
    let i8p = types.ptr;
    if typed && g.values[ctx].ty != i8p {
        let c = Builder::new(g, types).bitcast(ctx, i8p);
        seq.push(c);
        base = g.insts[c].result.unwrap_or(ctx);
    }
    let (rest, frame) = frame_addr(g, types, base, off, types.ptr, false);
    seq.extend(rest);
    (seq, frame)
}

/// Continuation `k` (named `name`) as a pointer constant: its name, or typed (`i8*`), a cast of it
/// from its function type.
fn continuation_ref(cx: &Cx<'_>, types: &TypeTable, k: usize, name: Option<&String>) -> String {
    let Some(name) = name else { return "null".into() };
    let Some(s) = cx.shape.suspends.get(k).filter(|_| cx.typed) else { return name.clone() };
    let params = crate::coro::retcon::shape::elements(types, cx.f.insts[s.call].ty);
    let params: Vec<String> = params.into_iter().map(|t| types.display(t)).collect();
    format!("bitcast (void ({})* {name} to i8*)", params.join(", "))
}

/// `coro.end` in a copy: an unwind one answers whether this is a continuation and lets the
/// exception go on; otherwise the copy returns there, through the must-tail function of a
/// `coro.end.async` that names one.
fn lower_end(cx: &Cx<'_>, g: &mut Function, types: &mut TypeTable, c: Inst, is_async: bool, in_resume: bool) {
    let src = cx.src;
    let args = g.insts[c].call_args().to_vec();
    let unwind = args.get(1).and_then(|&v| g.const_int(v, src)).unwrap_or(0) != 0;
    if unwind {
        if let Some(r) = g.insts[c].result {
            let v = g.const_value(types.i1, if in_resume { "true" } else { "false" });
            g.replace_all_uses(r, v);
        }
        g.remove_inst(c);
        return;
    }
    let name = (is_async && args.len() >= 3).then(|| args.get(2).and_then(|&v| global_operand(g, v, src))).flatten();
    match name.and_then(|n| cx.shape.end_must_tail.iter().find(|c| c.name == n)) {
        Some(callee) => {
            let rest = args.get(3..).unwrap_or(&[]).to_vec();
            inline_in_place(cx, g, types, c, callee, &rest);
        }
        None => {
            let ret = Builder::new(g, types).ret_void();
            replace_tail(g, c, vec![ret]);
        }
    }
}

/// Replaces `c` and the rest of its block with a call of `callee` with (the first of) `args`
/// and `ret void`, the callee's body inlined there when the module defines it, as LLVM does. A
/// call followed by `ret void` in a `void` function: each of the body's `ret void`s returns from
/// this function (and a `musttail` call in it stays in tail position).
fn inline_in_place(cx: &Cx<'_>, g: &mut Function, types: &mut TypeTable, c: Inst, callee: &Callee, args: &[Value]) {
    let Some(b) = g.insts[c].block else { return };
    let pos = g.blocks[b].insts.iter().position(|&x| x == c).unwrap_or(0);
    let args = args.get(..callee.sig.params.len()).unwrap_or(args).to_vec();
    // Arguments are read before the block is cut (their uses there go).
    cut_block(g, b, pos);
    let Some(body) = cx.bodies.get(&callee.name) else {
        // Only declared: called, in tail position when the prototypes allow a `musttail` call.
        let same = callee.sig.params.len() == g.params.len()
            && callee.sig.params.iter().zip(&g.params).all(|(p, &q)| p.ty == g.values[q].ty)
            && callee.cc(cx.src) == crate::coro::retcon::shape::calling_convention(g.header.prefix.get(cx.src));
        let fnv = g.const_value(types.ptr, &callee.name);
        let tail = if same { "musttail " } else { "" };
        let void = types.void;
        let call = Builder::new(g, types).call(tail, &callee.cc(cx.src), void, fnv, &args);
        g.append_inst(b, call);
        let ret = Builder::new(g, types).ret_void();
        g.append_inst(b, ret);
        return;
    };
    let mut vmap: SecondaryMap<Value, Option<Value>> = SecondaryMap::with_capacity(body.values.len());
    for (&p, &a) in body.params.iter().zip(&args) {
        vmap[p] = Some(a);
    }
    let maps = g.clone_body_from(body, &mut vmap);
    if let Some(first) = body.entry().and_then(|e| maps.blocks[e]) {
        let br = g.create_br(types, first);
        g.append_inst(b, br);
    }
}
