//! The ramp and the continuations of a returned-continuation coroutine, each a copy of what its
//! entry reaches in the rewritten body: the ramp from the function's entry, continuation *k* from
//! the block after suspend *k*. A copy stops at every suspend, which returns the next
//! continuation with its yielded values; `coro.end` frees a frame that is not the caller's buffer
//! and returns (a null continuation, or retcon.once's results).

use super::shape::{Abi, Callee, Shape, Suspend, elements, end_results};
use super::{Env, is_unwind_end, suspend_blocks};
use crate::coro::intrinsics::Intr;
use crate::coro::split::{new_function_name, part_suffix};
use crate::frame::{Frame, frame_addr};
use cranelift_entity::SecondaryMap;
use llir::ir::build::Builder;
use llir::ir::edit::CloneMaps;
use llir::ir::{Block, Function, Header, Inst, Opcode, Param, Text, Value, ValueData, ValueKind};
use llir::types::{Type, TypeData, TypeTable};

pub struct Parts {
    pub ramp: Function,
    pub continuations: Vec<Function>,
}

/// What every copy needs to know.
struct Cx<'a, 'e> {
    f: &'a Function,
    shape: &'a Shape,
    frame: &'a Frame,
    env: &'a Env<'e>,
    inline: bool,
    /// The continuations' names, by suspend.
    names: Vec<String>,
    /// The continuations' function type.
    cont_fn: Type,
}

/// Which function a copy is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Ramp,
    Continuation(usize),
}

pub fn split(f: Function, types: &mut TypeTable, shape: &Shape, frame: &Frame, env: &Env<'_>, inline: bool) -> Parts {
    let names =
        (0..shape.suspends.len()).map(|k| new_function_name(&f.name, &format!("resume.{k}"), env.globals)).collect();
    let sig = &shape.prototype.sig;
    let cont_fn =
        types.intern(TypeData::Func { ret: sig.ret, params: sig.params.iter().map(|p| p.ty).collect(), vararg: false });
    let cx = Cx { f: &f, shape, frame, env, inline, names, cont_fn };
    let continuations = (0..shape.suspends.len()).map(|k| continuation(&cx, types, k)).collect();
    let ramp = ramp(&cx, types);
    Parts { ramp, continuations }
}

/// The ramp: the body from its entry up to the first suspends, with the frame in the caller's
/// buffer or in memory from the allocator, whose address the buffer then keeps.
fn ramp(cx: &Cx<'_, '_>, types: &mut TypeTable) -> Function {
    let f = cx.f;
    let src = cx.env.src;
    let (mut g, mut vmap) = crate::coro::split::empty_ramp(f);
    let Some(entry) = f.entry() else { return g };
    let stops = suspend_blocks(f, &cx.shape.suspends);
    let (maps, _) = g.clone_reachable_along(f, &mut vmap, &[entry], &|b| stops.get(&b).map(|_| Default::default()));
    let storage = mapped(f, &mut g, &vmap, cx.shape.storage, src);
    let mut frame = storage;
    if let Some(begin) = maps.insts[cx.shape.begin] {
        if !cx.inline {
            let mut seq = Vec::new();
            let size = g.const_value(types.i64, &cx.frame.size.to_string());
            frame = call_alloc(&mut g, types, &cx.shape.alloc, size, src, &mut seq);
            let (mut addr_seq, slot) = frame_addr(&mut g, types, storage, 0, types.ptr, cx.env.typed);
            seq.append(&mut addr_seq);
            seq.push(Builder::new(&mut g, types).store(frame, slot, cx.frame.ptr_size));
            for i in seq {
                g.insert_inst_before(begin, i);
            }
        }
        if let Some(r) = g.insts[begin].result {
            g.replace_all_uses(r, frame);
        }
        g.remove_inst(begin);
    }
    if let Some(id) = maps.insts[cx.shape.id] {
        g.remove_inst(id);
    }
    finish(cx, &mut g, types, &maps, Role::Ramp, frame);
    crate::coro::split::drop_presplit_attr(&mut g, src);
    g
}

/// `v` of the body in the copy `g`: its mapped value, or the same constant made again.
pub(crate) fn mapped(
    f: &Function,
    g: &mut Function,
    vmap: &SecondaryMap<Value, Option<Value>>,
    v: Value,
    src: &str,
) -> Value {
    match (vmap[v], f.const_text(v, src)) {
        (Some(m), _) => m,
        (None, Some(text)) => g.const_value(f.values[v].ty, text),
        (None, None) => g.const_value(f.values[v].ty, "poison"),
    }
}

/// Continuation `k`: the prototype's signature, the frame found from the buffer (its first
/// parameter), the resume values from the other parameters, then the body from the block after
/// suspend `k`.
fn continuation(cx: &Cx<'_, '_>, types: &mut TypeTable, k: usize) -> Function {
    let (f, shape) = (cx.f, cx.shape);
    let mut g = with_params(cx.names[k].clone(), continuation_header(cx));
    let entry = g.create_block(Some("entry"));
    g.layout.push(entry);
    let Some(&storage) = g.params.first() else { return g };
    let frame = if cx.inline {
        storage
    } else {
        let (mut seq, slot) = frame_addr(&mut g, types, storage, 0, types.ptr, cx.env.typed);
        let ptr = types.ptr;
        let ld = Builder::new(&mut g, types).load(ptr, slot, cx.frame.ptr_size);
        seq.push(ld);
        for i in seq {
            g.append_inst(entry, i);
        }
        g.insts[ld].result.unwrap_or(storage)
    };
    let args: Vec<Value> = g.params.iter().skip(1).copied().collect();
    let body = Body { f, frame: cx.frame, suspends: &shape.suspends, frame_val: shape.frame(f), src: cx.env.src };
    let Some(maps) = body.fill(&mut g, types, k, entry, frame, &args) else { return g };
    finish(cx, &mut g, types, &maps, Role::Continuation(k), frame);
    g
}

/// A function named `name` with `header` and its parameters' values, and no blocks yet.
pub(crate) fn with_params(name: String, header: Header) -> Function {
    let mut g = Function::new(name, header);
    let tys: Vec<Type> = g.header.params.iter().map(|p| p.ty).collect();
    for (n, ty) in tys.into_iter().enumerate() {
        let v = g.values.push(ValueData { ty, kind: ValueKind::Param(n as u32), name: None });
        g.params.push(v);
    }
    g
}

/// What a continuation copies of a coroutine without a frame header (retcon and async).
pub(crate) struct Body<'a> {
    pub f: &'a Function,
    pub frame: &'a Frame,
    pub suspends: &'a [Suspend],
    /// coro.begin's result: the frame pointer in the body.
    pub frame_val: Option<Value>,
    pub src: &'a str,
}

impl Body<'_> {
    /// Fills continuation `g` after its `entry` (which holds what found the `frame` pointer): the
    /// allocas no suspend crosses, suspend `k`'s result from `args`, and a copy of what the block
    /// after suspend `k` reaches (stopping at suspends), entered from `entry`. Returns the clone's
    /// maps (None when the suspend has no continuation block).
    pub fn fill(
        &self,
        g: &mut Function,
        types: &mut TypeTable,
        k: usize,
        entry: Block,
        frame: Value,
        args: &[Value],
    ) -> Option<CloneMaps> {
        let f = self.f;
        let mut vmap: SecondaryMap<Value, Option<Value>> = SecondaryMap::with_capacity(f.values.len());
        for &p in &f.params {
            vmap[p] = Some(g.const_value(f.values[p].ty, "poison"));
        }
        if let Some(fv) = self.frame_val {
            vmap[fv] = Some(frame);
        }
        // Allocas no suspend crosses: this function's own.
        let mut locals = Vec::new();
        for &a in &self.frame.local_allocas {
            let Some(ai) = f.value_inst(a) else { continue };
            let ni = g.create_inst(types, f.insts[ai].clone());
            g.append_inst(entry, ni);
            if let Some(r) = g.insts[ni].result {
                g.values[r].name = f.values[a].name.clone();
                vmap[a] = Some(r);
            }
            locals.push(ai);
        }
        let s = self.suspends.get(k)?;
        if let Some(v) = s.values.and_then(|i| f.insts[i].result) {
            vmap[v] = Some(resume_value(g, types, entry, f.values[v].ty, args));
        }
        let resume = s.resume?;
        let stops = suspend_blocks(f, self.suspends);
        let (maps, _) =
            g.clone_reachable_along(f, &mut vmap, &[resume], &|b| stops.get(&b).map(|_| Default::default()));
        for i in locals.into_iter().chain(s.values) {
            if let Some(c) = maps.insts[i] {
                g.remove_inst(c);
            }
        }
        self.declare_frame_variables(g, types, &maps, &vmap, frame, entry);
        if let Some(first) = maps.blocks[resume] {
            let br = g.create_br(types, first);
            g.append_inst(entry, br);
        }
        Some(maps)
    }

    /// Frame-resident variables declared in code this continuation does not contain are declared
    /// at its entry (the record's address operand is the frame), so that a debugger stopped
    /// anywhere in it finds them.
    fn declare_frame_variables(
        &self,
        g: &mut Function,
        types: &mut TypeTable,
        maps: &CloneMaps,
        vmap: &SecondaryMap<Value, Option<Value>>,
        frame: Value,
        entry: Block,
    ) {
        let f = self.f;
        for &d in &self.frame.declares {
            if maps.insts[d].is_some() || f.insts[d].block.is_none() {
                continue;
            }
            if let Some(ni) = crate::coro::split::copy_declare(f, g, types, d, vmap, frame, self.src) {
                g.append_inst(entry, ni);
            }
        }
    }
}

/// A continuation's header: internal, the prototype's calling convention, return type and
/// parameters (the buffer marked as LLVM marks it), the coroutine's function attributes.
fn continuation_header(cx: &Cx<'_, '_>) -> Header {
    let src = cx.env.src;
    let sig = &cx.shape.prototype.sig;
    let keep: Vec<&str> = sig.prefix.get(src).split_whitespace().filter(|w| !is_linkage_word(w)).collect();
    let prefix = format!("define internal {}", keep.iter().map(|w| format!("{w} ")).collect::<String>());
    let mut params: Vec<Param> = sig.params.clone();
    if let Some(first) = params.first_mut() {
        let given = first.attrs.get(src).to_string();
        let mut attrs: Vec<String> = given.split_whitespace().map(str::to_string).collect();
        let has = |w: &str| given.split_whitespace().any(|x| x == w || x.starts_with(&format!("{w}(")));
        for (w, text) in [
            ("noalias", "noalias".to_string()),
            ("noundef", "noundef".to_string()),
            ("nonnull", "nonnull".to_string()),
            ("align", format!("align {}", cx.shape.storage_align)),
            ("dereferenceable", format!("dereferenceable({})", cx.shape.storage_size)),
        ] {
            let empty = w == "dereferenceable" && cx.shape.storage_size == 0;
            if !has(w) && !empty {
                attrs.push(text);
            }
        }
        first.attrs = Text::own(attrs.join(" "));
    }
    Header {
        prefix: Text::own(prefix),
        ret: sig.ret,
        params,
        vararg: false,
        suffix: Text::own(part_suffix(cx.f.header.suffix.get(src))),
    }
}

pub(crate) fn is_linkage_word(w: &str) -> bool {
    matches!(
        w,
        "private"
            | "internal"
            | "available_externally"
            | "linkonce"
            | "weak"
            | "common"
            | "appending"
            | "extern_weak"
            | "linkonce_odr"
            | "weak_odr"
            | "external"
            | "default"
            | "hidden"
            | "protected"
            | "dllimport"
            | "dllexport"
            | "dso_local"
            | "dso_preemptable"
            | "unnamed_addr"
            | "local_unnamed_addr"
    )
}

/// The suspend's result in a continuation: its one argument after the buffer, or the aggregate of
/// them (built in `entry`).
fn resume_value(g: &mut Function, types: &mut TypeTable, entry: Block, ty: Type, args: &[Value]) -> Value {
    if let [one] = args
        && g.values[*one].ty == ty
    {
        return *one;
    }
    let mut agg = g.const_value(ty, "poison");
    for (n, &a) in args.iter().enumerate() {
        let i = Builder::new(g, types).insertvalue(agg, a, n as u32);
        g.append_inst(entry, i);
        agg = g.insts[i].result.unwrap_or(agg);
    }
    agg
}

/// The rest of a copy: suspends return, `coro.end` frees and returns, the size and alignment
/// intrinsics become constants; returns of the body in a retcon.once continuation (whose type
/// is the prototype's) are unreachable, as in LLVM.
fn finish(cx: &Cx<'_, '_>, g: &mut Function, types: &mut TypeTable, maps: &CloneMaps, role: Role, frame: Value) {
    let (shape, src) = (cx.shape, cx.env.src);
    let once_continuation = shape.abi == Abi::Once && role != Role::Ramp;
    if once_continuation {
        let rets: Vec<Inst> = g.inst_iter().map(|(_, i)| i).filter(|&i| g.insts[i].op == Opcode::Ret).collect();
        for r in rets {
            if let Some(b) = g.insts[r].block {
                g.remove_inst(r);
                let u = Builder::new(g, types).unreachable();
                g.append_inst(b, u);
            }
        }
    }
    for (j, s) in shape.suspends.iter().enumerate() {
        let Some(c) = maps.insts[s.call] else { continue };
        let yields: Vec<Value> = g.insts[c].call_args().to_vec();
        let tail = if once_continuation {
            // A yield-once coroutine resumed cannot suspend again.
            vec![Builder::new(g, types).unreachable()]
        } else {
            let cont = continuation_pointer(cx, g, types, Some(j));
            ret_with(g, types, cont, &yields)
        };
        replace_tail(g, c, tail);
    }
    for &e in &shape.ends {
        let Some(c) = maps.insts[e] else { continue };
        lower_end(
            cx,
            g,
            types,
            c,
            role,
            frame,
            is_unwind_end(cx.f, e, src),
            end_results(cx.f, src, e).and_then(|r| maps.insts[r]),
        );
    }
    let mut subst = rustc_hash::FxHashMap::default();
    for &(i, k) in &shape.others {
        let Some(c) = maps.insts[i].filter(|&c| g.insts[c].block.is_some()) else { continue };
        let result = g.insts[c].result;
        let new = match k {
            Intr::Size => Some(g.const_value(g.insts[c].ty, &cx.frame.size.to_string())),
            Intr::Align => Some(g.const_value(g.insts[c].ty, &cx.frame.align.to_string())),
            Intr::Frame => Some(frame),
            Intr::EndResults => result.map(|r| g.const_value(g.values[r].ty, "none")),
            _ => continue,
        };
        if let (Some(r), Some(n)) = (result, new) {
            subst.insert(r, n);
        }
        g.remove_inst(c);
    }
    g.replace_uses_with_map(&subst);
    g.remove_unreachable_blocks();
    super::swifterror::resolve(g, types, src, cx.env.dl.pointer_size(0));
}

/// `coro.end` in a copy: a frame that is not the caller's buffer is freed; a non-unwind one
/// returns (retcon: a null continuation; a retcon.once continuation: the results), an unwind one
/// answers whether this is a continuation and lets the exception go on.
#[allow(clippy::too_many_arguments)]
fn lower_end(
    cx: &Cx<'_, '_>,
    g: &mut Function,
    types: &mut TypeTable,
    c: Inst,
    role: Role,
    frame: Value,
    unwind: bool,
    results: Option<Inst>,
) {
    let src = cx.env.src;
    let mut seq = Vec::new();
    if !cx.inline {
        call_dealloc(g, types, &cx.shape.dealloc, frame, src, &mut seq);
    }
    if unwind {
        for i in seq {
            g.insert_inst_before(c, i);
        }
        if let Some(r) = g.insts[c].result {
            let v = g.const_value(types.i1, if role == Role::Ramp { "false" } else { "true" });
            g.replace_all_uses(r, v);
        }
        g.remove_inst(c);
        return;
    }
    for i in seq {
        g.insert_inst_before(c, i);
    }
    let tail = if cx.shape.abi == Abi::Once && role != Role::Ramp {
        let values: Vec<Value> = results.map(|r| g.insts[r].call_args().to_vec()).unwrap_or_default();
        let ret = g.header.ret;
        match values.as_slice() {
            [] if types.is_void(ret) => vec![Builder::new(g, types).ret_void()],
            [one] if g.values[*one].ty == ret => vec![Builder::new(g, types).ret(*one)],
            _ => {
                let agg = g.const_value(ret, "poison");
                build_ret(g, types, agg, &values, 0)
            }
        }
    } else {
        // The coroutine is done: no continuation (a retcon.once ramp that ends without suspending
        // says so the same way).
        let null = continuation_pointer(cx, g, types, None);
        ret_with(g, types, null, &[])
    };
    replace_tail(g, c, tail);
}

/// Replaces `c` and everything after it in its block with `tail`.
pub(crate) fn replace_tail(g: &mut Function, c: Inst, tail: Vec<Inst>) {
    let Some(b) = g.insts[c].block else { return };
    let pos = g.blocks[b].insts.iter().position(|&x| x == c).unwrap_or(0);
    cut_block(g, b, pos);
    for i in tail {
        g.append_inst(b, i);
    }
}

/// Removes the instructions of `b` from position `pos` on (their results' uses become poison);
/// its successors lose the edges from it.
pub(crate) fn cut_block(g: &mut Function, b: Block, pos: usize) {
    let old: Vec<Inst> = g.blocks[b].insts.get(pos..).unwrap_or(&[]).to_vec();
    for s in g.successors(b).to_vec() {
        g.remove_phi_incoming(s, b);
    }
    for x in old {
        if let Some(r) = g.insts[x].result {
            let p = g.const_value(g.values[r].ty, "poison");
            g.replace_all_uses(r, p);
        }
        g.remove_inst(x);
    }
}

/// Continuation `j` (or null) as the value the coroutine returns it as.
fn continuation_pointer(cx: &Cx<'_, '_>, g: &mut Function, types: &mut TypeTable, j: Option<usize>) -> Value {
    let ty = cx.shape.cont_ty;
    let Some(name) = j.and_then(|j| cx.names.get(j)) else { return g.const_value(ty, "null") };
    if !cx.env.typed {
        return g.const_value(ty, name);
    }
    let fp = types.pointer_to(cx.cont_fn, 0, true);
    let text = format!("bitcast ({} {name} to {})", types.display(fp), types.display(ty));
    g.const_value(ty, &text)
}

/// `ret` of the continuation `cont` and `yields`: the pointer alone, or the function's result
/// struct built from them.
fn ret_with(g: &mut Function, types: &mut TypeTable, cont: Value, yields: &[Value]) -> Vec<Inst> {
    let ret = g.header.ret;
    if elements(types, ret).len() == 1 && g.values[cont].ty == ret {
        return vec![Builder::new(g, types).ret(cont)];
    }
    let agg = g.const_value(ret, "poison");
    let mut all = vec![cont];
    all.extend_from_slice(yields);
    build_ret(g, types, agg, &all, 0)
}

/// `agg` with `values` inserted from field `first` on, returned.
fn build_ret(g: &mut Function, types: &mut TypeTable, mut agg: Value, values: &[Value], first: u32) -> Vec<Inst> {
    let mut seq = Vec::new();
    for (n, &v) in values.iter().enumerate() {
        let i = Builder::new(g, types).insertvalue(agg, v, first + n as u32);
        seq.push(i);
        agg = g.insts[i].result.unwrap_or(agg);
    }
    seq.push(Builder::new(g, types).ret(agg));
    seq
}

/// A call of the allocator for `size` bytes (converted to its parameter's type), the memory cast
/// to the frame's pointer type; the instructions go to `seq`. Returns the memory.
pub fn call_alloc(
    g: &mut Function,
    types: &mut TypeTable,
    alloc: &Callee,
    size: Value,
    src: &str,
    seq: &mut Vec<Inst>,
) -> Value {
    let want = alloc.sig.params.first().map_or(types.i64, |p| p.ty);
    let size = int_to(g, types, size, want, src, seq);
    let callee = g.const_value(types.ptr, &alloc.name);
    let c = Builder::new(g, types).call("", &alloc.cc(src), alloc.sig.ret, callee, &[size]);
    seq.push(c);
    let mem = g.insts[c].result.unwrap_or(size);
    pointer_to(g, types, mem, types.ptr, seq)
}

/// A call of the deallocator on `mem`; the instructions go to `seq`.
pub fn call_dealloc(
    g: &mut Function,
    types: &mut TypeTable,
    dealloc: &Callee,
    mem: Value,
    src: &str,
    seq: &mut Vec<Inst>,
) {
    let want = dealloc.sig.params.first().map_or(types.ptr, |p| p.ty);
    let arg = pointer_to(g, types, mem, want, seq);
    let callee = g.const_value(types.ptr, &dealloc.name);
    seq.push(Builder::new(g, types).call("", &dealloc.cc(src), dealloc.sig.ret, callee, &[arg]));
}

/// `v` as a pointer of type `ty` (a bitcast with typed pointers).
fn pointer_to(g: &mut Function, types: &mut TypeTable, v: Value, ty: Type, seq: &mut Vec<Inst>) -> Value {
    if g.values[v].ty == ty {
        return v;
    }
    let c = Builder::new(g, types).bitcast(v, ty);
    seq.push(c);
    g.insts[c].result.unwrap_or(v)
}

/// The integer `v` as type `ty`: the same constant spelled again, or a `zext`/`trunc`.
fn int_to(g: &mut Function, types: &mut TypeTable, v: Value, ty: Type, src: &str, seq: &mut Vec<Inst>) -> Value {
    let from = g.values[v].ty;
    if from == ty {
        return v;
    }
    if let Some(c) = g.const_int(v, src) {
        return g.const_value(ty, &c.to_string());
    }
    let width = |t: Type| match types.get(t) {
        TypeData::Int(w) => *w,
        _ => 64,
    };
    let (op, word) = if width(from) < width(ty) { (Opcode::ZExt, "zext") } else { (Opcode::Trunc, "trunc") };
    let c = Builder::new(g, types).cast(op, word, v, ty);
    seq.push(c);
    g.insts[c].result.unwrap_or(v)
}
