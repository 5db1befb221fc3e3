//! The `llvm.coro.*` intrinsics, by name, and the lowering of those that *use* a coroutine from any
//! function (`coro.resume`, `coro.destroy`, `coro.done`, `coro.promise`, `coro.noop`,
//! `coro.subfn.addr`). They only touch the frame header, which is LLVM's ABI: resume function at
//! offset 0, destroy function at one pointer size, the promise at the aligned offset after them, and
//! done() as a null resume pointer.

use llir::ir::build::Builder;
use llir::ir::edit::t;
use llir::ir::{Extra, Function, Inst, Opcode, Piece, Value};
use llir::types::TypeTable;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intr {
    Id,
    /// `coro.id.retcon`: a returned-continuation coroutine that may suspend many times.
    IdRetcon,
    /// `coro.id.retcon.once`: a returned-continuation coroutine that suspends once.
    IdRetconOnce,
    /// `coro.id.async`: an async coroutine (`coro::async`).
    IdAsync,
    Alloc,
    Size,
    Align,
    Begin,
    Free,
    Frame,
    Save,
    Suspend,
    /// `coro.suspend.retcon.*`: a suspend of a returned-continuation coroutine.
    SuspendRetcon,
    /// `coro.prepare.retcon(ptr)`: a call-site barrier that is its operand once split.
    PrepareRetcon,
    /// `coro.alloca.alloc.*`, `coro.alloca.get`, `coro.alloca.free`: dynamic allocas of a
    /// returned-continuation coroutine.
    AllocaAlloc,
    AllocaGet,
    AllocaFree,
    /// `coro.suspend.async`: a suspend of an async coroutine.
    SuspendAsync,
    /// `coro.async.resume()`: the continuation function of the suspend it feeds.
    AsyncResume,
    /// `coro.async.context.alloc`/`dealloc`: left by LLVM for the producer's own lowering.
    AsyncContextAlloc,
    AsyncContextDealloc,
    /// `coro.async.size.replace(ptr target, ptr source)`: an async function pointer takes another's
    /// context size.
    AsyncSizeReplace,
    /// `coro.end.async(ptr, i1, [ptr musttail function, args...])`.
    EndAsync,
    /// `coro.prepare.async(ptr)`: a call-site barrier that is its operand once split.
    PrepareAsync,
    End,
    EndResults,
    IsInRamp,
    Promise,
    Done,
    Resume,
    Destroy,
    Noop,
    SubfnAddr,
    Param,
    AwaitSuspendVoid,
    AwaitSuspendBool,
    AwaitSuspendHandle,
    /// `coro.safe.elide(ptr)`: the front end says the coroutine its operand came from may live in
    /// the caller's frame (`elide::marked_safe`); it does nothing at run time.
    SafeElide,
    /// Anything else under `llvm.coro.`: refused with a clear message.
    Unknown,
}

/// Classifies a callee name such as `@llvm.coro.size.i64`.
pub fn classify(callee: &str) -> Option<Intr> {
    let n = callee.strip_prefix("@llvm.coro.")?;
    Some(match n {
        "id" => Intr::Id,
        "id.retcon" => Intr::IdRetcon,
        "id.retcon.once" => Intr::IdRetconOnce,
        "id.async" => Intr::IdAsync,
        _ if n.starts_with("suspend.async") => Intr::SuspendAsync,
        "async.resume" => Intr::AsyncResume,
        "async.context.alloc" => Intr::AsyncContextAlloc,
        "async.context.dealloc" => Intr::AsyncContextDealloc,
        "async.size.replace" => Intr::AsyncSizeReplace,
        "end.async" => Intr::EndAsync,
        "prepare.async" => Intr::PrepareAsync,
        "prepare.retcon" => Intr::PrepareRetcon,
        "alloca.get" => Intr::AllocaGet,
        "alloca.free" => Intr::AllocaFree,
        _ if n.starts_with("alloca.alloc.") => Intr::AllocaAlloc,
        _ if n.starts_with("suspend.retcon") => Intr::SuspendRetcon,
        "alloc" => Intr::Alloc,
        "size.i32" | "size.i64" => Intr::Size,
        "align.i32" | "align.i64" => Intr::Align,
        "begin" | "begin.custom.abi" => Intr::Begin,
        "free" => Intr::Free,
        "frame" => Intr::Frame,
        "save" => Intr::Save,
        "suspend" => Intr::Suspend,
        "end" => Intr::End,
        "end.results" => Intr::EndResults,
        "is_in_ramp" => Intr::IsInRamp,
        "promise" => Intr::Promise,
        "done" => Intr::Done,
        "resume" => Intr::Resume,
        "destroy" => Intr::Destroy,
        "noop" => Intr::Noop,
        "subfn.addr" => Intr::SubfnAddr,
        "param" => Intr::Param,
        "await.suspend.void" => Intr::AwaitSuspendVoid,
        "await.suspend.bool" => Intr::AwaitSuspendBool,
        "await.suspend.handle" => Intr::AwaitSuspendHandle,
        "safe.elide" => Intr::SafeElide,
        _ => Intr::Unknown,
    })
}

/// The coroutine intrinsic an instruction calls, if any.
pub fn intr_of(f: &Function, i: Inst, src: &str) -> Option<Intr> {
    let d = &f.insts[i];
    if !matches!(d.op, Opcode::Call | Opcode::Invoke) {
        return None;
    }
    classify(f.callee_name(i, src)?)
}

/// Byte offset of the promise from the frame start: after the two header pointers, aligned.
pub fn promise_offset(ptr_size: u64, align: u64) -> u64 {
    let a = align.max(1);
    (2 * ptr_size).div_ceil(a) * a
}

/// The parts of the one coroutine of a module with a given promise type.
#[derive(Clone, Debug)]
pub struct PromiseParts {
    pub resume: String,
    pub destroy: String,
    /// `.cleanup`, when the coroutine has a heap-elided twin: a frame the twin made has it as its
    /// destroy function.
    pub cleanup: Option<String>,
}

/// What the generic lowering needs from the module.
pub struct Ctx<'a> {
    pub src: &'a str,
    pub ptr_size: u64,
    /// Name of the no-op coroutine frame global, created on first use.
    pub noop_frame: &'a str,
    /// Coroutines of this module whose ramp returns the frame: ramp name → (resume, destroy).
    pub direct: &'a rustc_hash::FxHashMap<String, (String, String)>,
    /// Promise type (as `promise_type_name` spells it) → the parts of the one coroutine of this
    /// module with that promise type.
    pub by_promise: &'a rustc_hash::FxHashMap<String, PromiseParts>,
    /// No other module makes coroutines with these promise types (`--closed-promises`): handle
    /// methods call the parts without checking the frame header.
    pub closed_promises: bool,
    /// The module uses typed pointers (`types.ptr` is then `i8*`).
    pub typed: bool,
    /// The module's `!invariant.group` node for the destroy slot and its cold branch weights: with
    /// them, a handle method learns the coroutine from the destroy slot (`call_guarded_resume`).
    pub header_group: Option<HeaderGroup>,
}

/// The metadata a handle method's test of the frame header uses.
#[derive(Clone, Copy, Debug)]
pub struct HeaderGroup {
    /// `!N = !{}`: tags the destroy slot's store in ramps and its load in handle methods.
    pub group: u32,
    /// `!N = !{!"branch_weights", i32 1, i32 99}`: the direct call's branch at 1%. LLVM's inliner
    /// calls a call site cold below 2% of its function's entry (`ColdCallSiteRelFreq`), so the
    /// coroutine's body is not inlined into the handle method itself, which stays small enough
    /// to inline. Inlined into a loop, the call is no longer cold and the body can follow it.
    /// At 1:2000 a call in a loop (estimated 32 trips) was still cold, so a frame whose first
    /// resume sat there escaped to the call and kept its fields in memory.
    pub cold: u32,
}

/// The intrinsic a ramp passes its frame memory through when the header is tagged.
pub const LAUNDER: &str = "@llvm.launder.invariant.group.p0";

impl HeaderGroup {
    /// The nodes and the declaration the module needs once anything uses the group.
    pub fn definitions(self, declare_launder: bool) -> String {
        let decl = if declare_launder { format!("declare ptr {LAUNDER}(ptr)\n\n") } else { String::new() };
        format!("{decl}!{} = !{{}}\n!{} = !{{!\"branch_weights\", i32 1, i32 99}}", self.group, self.cold)
    }
}

/// The type of a resume or destroy function pointer: `void (ptr)*` spelled in the module's dialect.
pub fn part_fn_ptr(types: &mut TypeTable, typed: bool) -> llir::types::Type {
    let void = types.void;
    let ptr = types.ptr;
    let fty = types.intern(llir::types::TypeData::Func { ret: void, params: vec![ptr].into(), vararg: false });
    types.pointer_to(fty, 0, typed)
}

/// A function pointer held as `ptr`, made callable as a part (`void (ptr)`): itself with opaque
/// pointers, a bitcast with typed ones. Returns the instructions to place first.
pub fn callable(f: &mut Function, types: &mut TypeTable, fnp: Value, typed: bool) -> (Vec<Inst>, Value) {
    if !typed {
        return (Vec::new(), fnp);
    }
    let to = part_fn_ptr(types, true);
    let mut b = Builder::new(f, types);
    let c = b.bitcast(fnp, to);
    let v = b.result(c);
    (vec![c], v)
}

/// A part's name as a `ptr` constant: the global itself, or with typed pointers its bitcast to `i8*`.
pub fn part_as_ptr(name: &str, typed: bool) -> String {
    if typed { format!("bitcast (void (i8*)* {name} to i8*)") } else { name.to_string() }
}

/// A promise type's name from its IR spelling: `%"struct.gen<int>::promise_type"` →
/// `gen<int>::promise_type`, which is how a demangled template argument spells it.
pub fn promise_type_name(ir: &str) -> String {
    let s = ir.trim_start_matches('%').trim_matches('"');
    let s = ["struct.", "class.", "union."].iter().find_map(|p| s.strip_prefix(p)).unwrap_or(s);
    s.to_string()
}

/// For `std::coroutine_handle<P>::resume()` (or `operator()`, or `destroy()`): `P`, demangled.
pub fn handle_method_promise(fn_name: &str) -> Option<String> {
    let mangled = fn_name.trim_start_matches('@').trim_matches('"');
    if !mangled.contains("coroutine_handle") {
        return None;
    }
    let text = cpp_demangle::Symbol::new(mangled).ok()?.demangle().ok()?;
    let start = text.find("coroutine_handle<")? + "coroutine_handle<".len();
    let mut depth = 0usize;
    let end = text[start..].char_indices().find_map(|(k, c)| match c {
        '<' => {
            depth += 1;
            None
        }
        '>' if depth == 0 => Some(start + k),
        '>' => {
            depth -= 1;
            None
        }
        _ => None,
    })?;
    let rest = &text[end..];
    [">::resume(", ">::operator()(", ">::destroy("]
        .iter()
        .any(|m| rest.starts_with(m))
        .then(|| text[start..end].to_string())
}

/// The resume and destroy functions reached through `h`, when `h` is what a known ramp returned.
fn known_target(f: &Function, h: Value, cx: &Ctx<'_>, destroy: bool) -> Option<String> {
    let i = f.value_inst(h)?;
    let ramp = f.callee_name(i, cx.src)?;
    let (r, d) = cx.direct.get(ramp)?;
    Some(if destroy { d.clone() } else { r.clone() })
}

/// Loads the function pointer `off` bytes into frame `h` (resume at 0, destroy at one pointer),
/// inserting the code before `at`.
fn load_header_fn(f: &mut Function, types: &mut TypeTable, h: Value, off: u64, cx: &Ctx<'_>, at: Inst) -> Value {
    let ptr = types.ptr;
    let (mut seq, slot) = crate::frame::frame_addr(f, types, h, off, ptr, cx.typed);
    let mut b = Builder::new(f, types);
    let l = b.load(ptr, slot, cx.ptr_size);
    let v = b.result(l);
    seq.push(l);
    for n in seq {
        f.insert_inst_before(at, n);
    }
    v
}

/// Calls part pointer `fnp` (held as `ptr`) with `h`, before `at`.
fn call_part_before(f: &mut Function, types: &mut TypeTable, fnp: Value, h: Value, typed: bool, at: Inst) {
    let (seq, callee) = callable(f, types, fnp, typed);
    let void = types.void;
    let c = Builder::new(f, types).call("", "fastcc", void, callee, &[h]);
    for n in seq.into_iter().chain([c]) {
        f.insert_inst_before(at, n);
    }
}

/// The coroutine intrinsics `g` still calls after `lower_uses`: only those no pass lowers where
/// they are, such as a `coro.suspend` in a function that is not a coroutine (LLVM's CoroElide
/// tests have some), which LLVM's passes leave too. Their names, whose declarations must stay, and
/// a warning at the first (the async context allocation has a warning of its own,
/// `coro::async::context_alloc_kept`).
pub fn kept_calls(g: &Function, src: &str) -> (Vec<String>, Option<crate::diag::Finding>) {
    let kept: Vec<Inst> = g
        .inst_iter()
        .map(|(_, i)| i)
        .filter(|&i| {
            intr_of(g, i, src).is_some_and(|k| !matches!(k, Intr::AsyncContextAlloc | Intr::AsyncContextDealloc))
        })
        .collect();
    let mut names: Vec<String> = kept.iter().filter_map(|&i| g.callee_name(i, src)).map(str::to_string).collect();
    names.sort();
    names.dedup();
    let them = if names.len() == 1 { "it" } else { "them" };
    let message = format!(
        "{} kept in the output: this function is not a coroutine, so nothing lowers {them} (LLVM's coro passes \
         leave {them} too)",
        names.join(", ")
    );
    let warning = kept.first().map(|&first| {
        crate::diag::warning_at(
            g,
            Some(first),
            "coro-intrinsic-kept",
            message,
            "no backend compiles a coroutine intrinsic: move the code into the coroutine it belongs to (one with \
             coro.id and coro.begin), or remove the call",
        )
    });
    (names, warning)
}

/// Lowers every "using" intrinsic in `f`. Returns true if `coro.noop` was used (the module then
/// needs the no-op frame).
pub fn lower_uses(f: &mut Function, types: &mut TypeTable, cx: &Ctx<'_>) -> bool {
    let mut used_noop = false;
    // In `coroutine_handle<P>::resume()` and friends, when one coroutine of this module has
    // promise type P, its parts are the likely targets: call them directly behind a check of the
    // header, so that -O2 can inline them where it inlines the method.
    let speculate: Option<PromiseParts> = (!cx.by_promise.is_empty())
        .then(|| handle_method_promise(&f.name))
        .flatten()
        .and_then(|p| cx.by_promise.get(&p).cloned());
    let insts: Vec<(llir::ir::Block, Inst)> = f.inst_iter().collect();
    let mut subst: rustc_hash::FxHashMap<Value, Value> = rustc_hash::FxHashMap::default();
    for (_, i) in insts {
        let Some(k) = intr_of(f, i, cx.src) else { continue };
        let is_invoke = f.insts[i].op == Opcode::Invoke;
        // In a funclet (Windows EH), the calls made in its place carry its bundle.
        let pad = llir::analysis::funclet::bundle(f, i, cx.src);
        let first_new = f.insts.len();
        let args: Vec<Value> = f.insts[i].call_args().to_vec();
        if is_invoke
            && matches!(k, Intr::Resume | Intr::Destroy)
            && let [h] = args.as_slice()
        {
            invoke_part(f, types, i, k, *h, pad, cx);
            continue;
        }
        let result = f.insts[i].result;
        let Some(new) = lower_one(f, types, i, k, &args, speculate.as_ref(), cx, &mut used_noop) else { continue };
        if let (Some(old), Some(new)) = (result, new) {
            subst.insert(old, new);
        }
        remove_lowered(f, types, i, pad, first_new, is_invoke);
    }
    f.replace_uses_with_map(&resolve_chains(&subst));
    used_noop
}

/// An invoked resume or destroy stays an invoke (the coroutine may throw), of the part the
/// header of `h` holds.
fn invoke_part(f: &mut Function, types: &mut TypeTable, i: Inst, k: Intr, h: Value, pad: Option<Value>, cx: &Ctx<'_>) {
    let off = if k == Intr::Resume { 0 } else { cx.ptr_size };
    let fnp = load_header_fn(f, types, h, off, cx, i);
    let (casts, fnp) = callable(f, types, fnp, cx.typed);
    for n in casts {
        f.insert_inst_before(i, n);
    }
    let pt = types.display(types.ptr);
    let loc = dbg_location(f, i, cx.src);
    let d = &mut f.insts[i];
    d.args = [h, fnp].into_iter().collect();
    d.tmpl = [
        t("invoke fastcc void "),
        Piece::Arg(1),
        t(&format!("({pt} ")),
        Piece::Arg(0),
        t(")"),
        t("\n          to label "),
        Piece::Block(0),
        t(" unwind label "),
        Piece::Block(1),
    ]
    .into();
    // The invoke stays where the intrinsic was: it keeps its location.
    if let Some(loc) = loc {
        d.push_piece(t(&loc));
    }
    if let Extra::Call { fn_ty, .. } = d.extra {
        d.extra = Extra::Call { callee: 1, nargs: 1, fn_ty };
    }
    if let Some(pad) = pad {
        llir::analysis::funclet::add_bundle(f, i, pad);
    }
}

/// Emits, before intrinsic call `i` (kind `k`), what replaces it. Returns the value its result
/// becomes (None: it has none), or None when `i` is not lowered here.
#[allow(clippy::too_many_arguments)]
fn lower_one(
    f: &mut Function,
    types: &mut TypeTable,
    i: Inst,
    k: Intr,
    args: &[Value],
    speculate: Option<&PromiseParts>,
    cx: &Ctx<'_>,
    used_noop: &mut bool,
) -> Option<Option<Value>> {
    let result = f.insts[i].result;
    let ptr = types.ptr;
    Some(match (k, args) {
        (Intr::Resume | Intr::Destroy, [h]) => {
            call_part(f, types, i, k, *h, speculate, cx);
            None
        }
        (Intr::Done, [h]) => {
            let fnp = load_header_fn(f, types, *h, 0, cx, i);
            let mut b = Builder::new(f, types);
            let null = b.f.const_value(ptr, "null");
            let c = b.icmp("eq", fnp, null);
            let r = b.result(c);
            f.insert_inst_before(i, c);
            Some(r)
        }
        (Intr::Promise, [p, align, from]) => {
            let a = f.const_int(*align, cx.src).unwrap_or(0).max(1) as u64;
            let is_from = f.const_int(*from, cx.src).unwrap_or(0) != 0;
            let off = promise_offset(cx.ptr_size, a);
            let mut b = Builder::new(f, types);
            let g = if is_from { b.gep_i8_neg(*p, off) } else { b.gep_i8(*p, off) };
            let r = b.result(g);
            f.insert_inst_before(i, g);
            Some(r)
        }
        (Intr::Noop, []) => {
            *used_noop = true;
            let frame = if cx.typed {
                format!("bitcast ({{ i8*, i8* }}* {} to i8*)", cx.noop_frame)
            } else {
                cx.noop_frame.to_string()
            };
            Some(f.const_value(ptr, &frame))
        }
        (Intr::SubfnAddr, [h, idx]) => {
            let k = f.const_int(*idx, cx.src).unwrap_or(0).max(0) as u64;
            Some(load_header_fn(f, types, *h, k * cx.ptr_size, cx, i))
        }
        // What a function that is not split keeps (already-split IR, or nothing to split) goes
        // as LLVM's CoroCleanup removes it. A split coroutine has none of these left.
        (Intr::Id | Intr::Save, _) => result.map(|r| f.const_value(f.values[r].ty, "none")),
        (Intr::Begin, [_, mem]) => Some(*mem),
        (Intr::Free, [_, frame]) => Some(*frame),
        (Intr::Alloc | Intr::IsInRamp | Intr::Param, _) => result.map(|_| f.const_value(types.i1, "true")),
        (Intr::End, _) => result.map(|_| f.const_value(types.i1, "false")),
        // An annotation, read by heap elision before this.
        (Intr::SafeElide, _) => None,
        // The barrier that kept the coroutine from being inlined before it was split.
        (Intr::PrepareRetcon | Intr::PrepareAsync, [callee]) => Some(*callee),
        // The module's edit of the target's size is made from the whole module (`coro::async`).
        (Intr::AsyncSizeReplace, _) => None,
        _ => return None,
    })
}

/// Calls, before `i`, the resume or destroy part (`k`) of the coroutine whose handle is `h`:
/// directly when known, else through its header, speculating on `speculate`'s parts.
fn call_part(
    f: &mut Function,
    types: &mut TypeTable,
    i: Inst,
    k: Intr,
    h: Value,
    speculate: Option<&PromiseParts>,
    cx: &Ctx<'_>,
) {
    let ptr = types.ptr;
    if let Some(target) = known_target(f, h, cx, k == Intr::Destroy) {
        // The handle came straight from a ramp in this module: call its part directly.
        let callee = f.const_value(ptr, &target);
        let void = types.void;
        let c = Builder::new(f, types).call("", "fastcc", void, callee, &[h]);
        if let Some(loc) = dbg_location(f, i, cx.src) {
            f.insts[c].push_piece(t(&loc));
        }
        f.insert_inst_before(i, c);
        return;
    }
    let off = if k == Intr::Resume { 0 } else { cx.ptr_size };
    let known = speculate.map(|p| if k == Intr::Resume { &p.resume } else { &p.destroy });
    let cleanup = speculate.and_then(|p| p.cleanup.as_deref());
    // With closed promises the header can hold only this coroutine's parts: resume is
    // one function, destroy is `.destroy` or, for a frame its elided twin made,
    // `.cleanup`.
    match (known, cx.closed_promises, k, cleanup) {
        (None, ..) => {
            let fnp = load_header_fn(f, types, h, off, cx, i);
            call_part_before(f, types, fnp, h, cx.typed, i);
        }
        (Some(known), true, Intr::Destroy, Some(c)) => {
            let fnp = load_header_fn(f, types, h, off, cx, i);
            call_guarded(f, types, i, h, fnp, known, Some(c), cx.src);
        }
        (Some(known), true, ..) => {
            let kv = f.const_value(ptr, known);
            call_part_before(f, types, kv, h, cx.typed, i);
        }
        (Some(_), false, ..) if let (Some(_), Some(p)) = (cx.header_group, speculate) => {
            call_guarded_by_destroy_slot(f, types, i, h, k, p, cx);
        }
        (Some(known), false, ..) => {
            let fnp = load_header_fn(f, types, h, off, cx, i);
            call_guarded(f, types, i, h, fnp, known, None, cx.src);
        }
    }
}

/// Removes lowered intrinsic call `i`, giving the calls made in its place (from `first_new` on)
/// its funclet bundle; an invoke becomes a branch to its normal destination (these cannot throw).
fn remove_lowered(
    f: &mut Function,
    types: &mut TypeTable,
    i: Inst,
    pad: Option<Value>,
    first_new: usize,
    is_invoke: bool,
) {
    if let Some(pad) = pad {
        for c in (first_new..f.insts.len()).map(cranelift_entity::EntityRef::new) {
            if matches!(f.insts[c].op, Opcode::Call | Opcode::Invoke) {
                llir::analysis::funclet::add_bundle(f, c, pad);
            }
        }
    }
    if is_invoke {
        let blk = f.insts[i].block;
        let (normal, unwind) = (f.insts[i].blocks[0], f.insts[i].blocks[1]);
        f.remove_inst(i);
        if let Some(b) = blk {
            f.remove_phi_incoming(unwind, b);
            let br = f.create_br(types, normal);
            f.append_inst(b, br);
        }
        return;
    }
    f.remove_inst(i);
}

/// One sweep for all replacements (each one alone would scan the whole function). A replacement
/// may be another replaced result (`coro.free`'s frame operand is `coro.begin`'s result): each
/// follows the chain to a value that stays.
fn resolve_chains(subst: &rustc_hash::FxHashMap<Value, Value>) -> rustc_hash::FxHashMap<Value, Value> {
    subst
        .iter()
        .map(|(&old, &new)| {
            let mut v = new;
            for _ in 0..subst.len() {
                match subst.get(&v) {
                    Some(&n) if n != v => v = n,
                    _ => break,
                }
            }
            (old, v)
        })
        .collect()
}

/// The private no-op coroutine: a constant frame whose resume and destroy do nothing.
pub fn noop_definitions(frame: &str, func: &str, typed: bool) -> String {
    let (p, f) = if typed { ("i8*", part_as_ptr(func, true)) } else { ("ptr", func.to_string()) };
    format!(
        "define private fastcc void {func}({p} %0) {{\n  ret void\n}}\n\n{frame} = private constant {{ {p}, {p} }} {{ {p} {f}, {p} {f} }}\n"
    )
}

/// Replaces intrinsic call `i` by `fnp == known ? known(h) : fnp(h)`, as two calls in blocks of
/// their own: one the optimiser can inline, and the general one. With `otherwise`, the second call
/// is to that function: the only other one the header can hold.
#[allow(clippy::too_many_arguments)]
fn call_guarded(
    f: &mut Function,
    types: &mut TypeTable,
    i: Inst,
    h: Value,
    fnp: Value,
    known: &str,
    otherwise: Option<&str>,
    src: &str,
) {
    let Some(b) = f.insts[i].block else { return };
    let pos = f.blocks[b].insts.iter().position(|&x| x == i).unwrap_or(0);
    let ptr = types.ptr;
    let void = types.void;
    let kv = f.const_value(ptr, known);
    let join = f.split_block(types, b, pos, None);
    let direct = f.create_block(None);
    let indirect = f.create_block(None);
    f.insert_block_after(direct, b);
    f.insert_block_after(indirect, direct);
    let mut bl = Builder::new(f, types);
    let cmp = bl.icmp("eq", fnp, kv);
    let is = bl.result(cmp);
    let cbr = bl.cond_br(is, direct, indirect);
    let c1 = bl.call("", "fastcc", void, kv, &[h]);
    let j1 = bl.br(join);
    let other = match otherwise {
        Some(name) => bl.f.const_value(ptr, name),
        None => fnp,
    };
    let c2 = bl.call("", "fastcc", void, other, &[h]);
    let j2 = bl.br(join);
    // A call that may be inlined needs the location, in a function with debug info.
    if let Some(loc) = dbg_location(f, i, src) {
        for c in [c1, c2] {
            f.insts[c].push_piece(t(&loc));
        }
    }
    // The split left `br join` at the end of `b`: the test goes there instead.
    if let Some(t) = f.terminator(b) {
        f.remove_inst(t);
    }
    f.append_inst(b, cmp);
    f.append_inst(b, cbr);
    f.append_inst(direct, c1);
    f.append_inst(direct, j1);
    f.append_inst(indirect, c2);
    f.append_inst(indirect, j2);
}

/// Replaces `coro.resume(h)` or `coro.destroy(h)` in a handle method by a test of the destroy slot,
/// which holds one function for the frame's whole life. If it is this module's coroutine's
/// (`.destroy`, or `.cleanup` for a frame its elided twin made), the part is called directly:
/// `.resume`, or the destroy function found; else the header's function, as any handle needs. The
/// slot's load is tagged with the header group, like the ramp's store, so where -O2 sees both (the
/// method inlined where the frame is made) the test folds and the frame can live in registers. The
/// direct branches are weighted cold for the method itself (`HeaderGroup::cold`), so that it stays
/// small enough to be inlined there before the coroutine's body is inlined into it; inlined into a
/// loop, the call is no longer cold and the body follows it.
///
/// The tag lets the optimiser take two tagged loads of one pointer to read the same function. Our
/// ramps launder fresh frame memory, so that holds for their frames; it could mislead only for two
/// frames of this promise type made one after the other at one address by another module's ramps
/// that do not launder, once those ramps are inlined here (LTO with a fixed-address pool).
fn call_guarded_by_destroy_slot(
    f: &mut Function,
    types: &mut TypeTable,
    i: Inst,
    h: Value,
    k: Intr,
    parts: &PromiseParts,
    cx: &Ctx<'_>,
) {
    let (Some(b), Some(g)) = (f.insts[i].block, cx.header_group) else { return };
    let pos = f.blocks[b].insts.iter().position(|&x| x == i).unwrap_or(0);
    let ptr = types.ptr;
    let void = types.void;
    let join = f.split_block(types, b, pos, None);
    // The split left `br join` at the end of `b`: the tests go there instead.
    if let Some(t) = f.terminator(b) {
        f.remove_inst(t);
    }
    let (seq, slot) = crate::frame::frame_addr(f, types, h, cx.ptr_size, ptr, cx.typed);
    for n in seq {
        f.append_inst(b, n);
    }
    let ld = Builder::new(f, types).load(ptr, slot, cx.ptr_size);
    f.insts[ld].push_piece(t(&format!(", !invariant.group !{}", g.group)));
    f.append_inst(b, ld);
    let d = f.insts[ld].result.unwrap_or(h);
    // (destroy functions in the slot, part to call): `.resume` once for either destroy function,
    // so that its body is copied once where it is inlined.
    let slot_fns: Vec<&str> = std::iter::once(parts.destroy.as_str()).chain(parts.cleanup.as_deref()).collect();
    let cases: Vec<(Vec<&str>, &str)> = match k {
        Intr::Resume => vec![(slot_fns, parts.resume.as_str())],
        _ => slot_fns.into_iter().map(|x| (vec![x], x)).collect(),
    };
    let loc = dbg_location(f, i, cx.src);
    let mut at = b;
    for (slot_fns, part) in cases {
        let direct = f.create_block(None);
        let next = f.create_block(None);
        f.insert_block_after(direct, at);
        f.insert_block_after(next, direct);
        let pv = f.const_value(ptr, part);
        let mut test = Vec::new();
        let mut is: Option<Value> = None;
        for x in slot_fns {
            let sv = f.const_value(ptr, x);
            let yes = f.const_value(types.i1, "true");
            let mut bl = Builder::new(f, types);
            let cmp = bl.icmp("eq", d, sv);
            let r = bl.result(cmp);
            test.push(cmp);
            is = Some(match is {
                None => r,
                Some(prev) => {
                    let or = bl.select(prev, yes, r);
                    test.push(or);
                    bl.result(or)
                }
            });
        }
        for n in test {
            f.append_inst(at, n);
        }
        // Every case has at least the one destroy function.
        let Some(is) = is else { continue };
        let mut bl = Builder::new(f, types);
        let cbr = bl.cond_br(is, direct, next);
        let c = bl.call("", "fastcc", void, pv, &[h]);
        let j = bl.br(join);
        f.insts[cbr].push_piece(t(&format!(", !prof !{}", g.cold)));
        if let Some(loc) = &loc {
            f.insts[c].push_piece(t(loc));
        }
        f.append_inst(at, cbr);
        f.append_inst(direct, c);
        f.append_inst(direct, j);
        at = next;
    }
    // Another module's frame: the header's function.
    let fnp = match k {
        Intr::Resume => {
            let rl = Builder::new(f, types).load(ptr, h, cx.ptr_size);
            f.append_inst(at, rl);
            f.insts[rl].result.unwrap_or(h)
        }
        _ => d,
    };
    let mut bl = Builder::new(f, types);
    let c = bl.call("", "fastcc", void, fnp, &[h]);
    let j = bl.br(join);
    if let Some(loc) = &loc {
        f.insts[c].push_piece(t(loc));
    }
    f.append_inst(at, c);
    f.append_inst(at, j);
}

/// `, !dbg !N` of instruction `i`, if it has a location.
fn dbg_location(f: &Function, i: Inst, src: &str) -> Option<String> {
    f.insts[i].tmpl.iter().find_map(|p| match p {
        Piece::Text(tx) => {
            let s = tx.get(src);
            let (_, node) = llir::metadata::find_attachment(s, "!dbg")?;
            let n = s.get(node)?.strip_prefix('!')?;
            (!n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())).then(|| format!(", !dbg !{n}"))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_every_form() {
        assert_eq!(classify("@llvm.coro.size.i64"), Some(Intr::Size));
        assert_eq!(classify("@llvm.coro.await.suspend.handle"), Some(Intr::AwaitSuspendHandle));
        assert_eq!(classify("@llvm.coro.id.retcon.once"), Some(Intr::IdRetconOnce));
        assert_eq!(classify("@llvm.coro.suspend.retcon.i1"), Some(Intr::SuspendRetcon));
        assert_eq!(classify("@llvm.coro.suspend.retcon.sl_i32i32s"), Some(Intr::SuspendRetcon));
        assert_eq!(classify("@llvm.coro.alloca.alloc.i64"), Some(Intr::AllocaAlloc));
        assert_eq!(classify("@llvm.coro.suspend.async"), Some(Intr::SuspendAsync));
        assert_eq!(classify("@llvm.coro.end.async"), Some(Intr::EndAsync));
        assert_eq!(classify("@llvm.coro.suspend.other"), Some(Intr::Unknown));
        assert_eq!(classify("@llvm.coro.mystery"), Some(Intr::Unknown));
        assert_eq!(classify("@printf"), None);
    }

    #[test]
    fn promise_types_from_handle_methods_and_ir_names() {
        let resume = "@_ZNKSt7__n486116coroutine_handleIN3gen12promise_typeEE6resumeEv";
        assert_eq!(handle_method_promise(resume).as_deref(), Some("gen::promise_type"));
        let templ = "@_ZNKSt7__n486116coroutine_handleIN9generatorIiE12promise_typeEE7destroyEv";
        assert_eq!(handle_method_promise(templ).as_deref(), Some("generator<int>::promise_type"));
        let done = "@_ZNKSt7__n486116coroutine_handleIN3gen12promise_typeEE4doneEv";
        assert_eq!(handle_method_promise(done), None, "done() calls nothing");
        assert_eq!(handle_method_promise("@main"), None);
        assert_eq!(promise_type_name("%\"struct.generator<int>::promise_type\""), "generator<int>::promise_type");
        assert_eq!(promise_type_name("%struct.P"), "P");
    }

    #[test]
    fn promise_offsets_match_llvm() {
        assert_eq!(promise_offset(8, 4), 16);
        assert_eq!(promise_offset(8, 16), 16);
        assert_eq!(promise_offset(8, 32), 32);
        assert_eq!(promise_offset(8, 64), 64);
    }
}
