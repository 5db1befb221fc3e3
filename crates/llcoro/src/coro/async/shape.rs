//! The shape of an async coroutine (`llvm.coro.id.async`): its intrinsics, collected once, and
//! what LLVM's `coro::Shape` and CoroSplit assume of them (with a fatal error or an assertion
//! there) checked here as located errors: the context operands, the async function pointer, each
//! suspend's resume function, context projection and must-tail function, each `coro.end.async`'s
//! must-tail function.

use crate::coro::intrinsics::{Intr, intr_of};
use crate::coro::retcon::shape::{Callee, elements, named_global};
use crate::coro::retcon::{self, Suspend};
use crate::diag::{Finding, error_at};
use llir::ir::{Function, Inst, Opcode};
use llir::types::{TypeData, TypeTable};

/// What one `coro.suspend.async` names besides the suspend itself.
#[derive(Clone, Debug)]
pub struct AsyncSuspend {
    /// The `coro.async.resume` call whose result is this suspend's resume function.
    pub resume_fn: Inst,
    /// The continuation's parameter that holds the callee's context (`& 0xff` of operand 0).
    pub context_param: usize,
    /// `ptr (ptr)`: from the callee's context to this coroutine's.
    pub projection: Callee,
    /// The function called (and inlined when defined) in the suspend's place, with the operands
    /// after it.
    pub must_tail: Callee,
}

#[derive(Clone, Debug)]
pub struct Shape {
    pub id: Inst,
    pub begin: Inst,
    /// The context's header size and alignment, and the parameter that is the context.
    pub header_size: u64,
    pub context_align: u64,
    pub context_param: usize,
    /// The async function pointer (`<{ i32, i32 }>`), whose second field gets the context size.
    pub fn_pointer: String,
    pub suspends: Vec<Suspend>,
    pub details: Vec<AsyncSuspend>,
    /// `coro.end` and `coro.end.async`.
    pub ends: Vec<Inst>,
    /// The must-tail functions `coro.end.async`s name.
    pub end_must_tail: Vec<Callee>,
    /// `coro.async.resume` calls that feed no suspend (null, as CoroCleanup makes them).
    pub stray_resumes: Vec<Inst>,
    /// `coro.size`, `coro.align`, `coro.frame`.
    pub others: Vec<(Inst, Intr)>,
}

/// Does `f` call `coro.id.async`?
pub fn is_async(f: &Function, src: &str) -> bool {
    f.inst_iter().any(|(_, i)| intr_of(f, i, src) == Some(Intr::IdAsync))
}

/// What the checks read of the module.
pub struct Module<'a> {
    pub sig_of: &'a dyn Fn(&str, &mut TypeTable) -> Option<llir::parser::func::Signature>,
    /// The text of a global variable's definition.
    pub global_text: &'a dyn Fn(&str) -> Option<String>,
}

/// Collects and checks the coroutine.
pub fn analyze(f: &Function, src: &str, types: &mut TypeTable, m: &Module<'_>) -> Result<Shape, Vec<Finding>> {
    let mut errors = Vec::new();
    let (mut ids, mut begins, mut suspends, mut ends, mut resumes, mut others) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (_, i) in f.inst_iter() {
        let Some(k) = intr_of(f, i, src) else { continue };
        match k {
            Intr::IdAsync => ids.push(i),
            Intr::Begin => begins.push(i),
            Intr::SuspendAsync => suspends.push(Suspend { call: i, resume: None, values: None }),
            Intr::End | Intr::EndAsync => ends.push(i),
            Intr::AsyncResume => resumes.push(i),
            Intr::Size | Intr::Align | Intr::Frame => others.push((i, k)),
            // Context allocation stays a call, as LLVM leaves it (`super::context_alloc_kept`).
            Intr::PrepareAsync
            | Intr::AsyncSizeReplace
            | Intr::SafeElide
            | Intr::AsyncContextAlloc
            | Intr::AsyncContextDealloc => {}
            _ => errors.push(error_at(
                f,
                Some(i),
                "coro-async-intrinsic",
                format!("{} does not belong in an async coroutine", f.callee_name(i, src).unwrap_or("this intrinsic")),
                "a coroutine made with coro.id.async uses coro.begin, coro.async.resume, coro.suspend.async, \
                 coro.end or coro.end.async, and coro.size/align/frame only",
            )),
        }
    }
    if ids.len() != 1 || begins.len() != 1 {
        let (code, at, msg) = if ids.len() > 1 || begins.len() > 1 {
            ("coro-multiple-begin", ids.get(1).or(begins.get(1)).copied(), "more than one coro.id or coro.begin")
        } else {
            ("coro-missing-begin", ids.first().copied(), "a coro.id.async without its coro.begin")
        };
        errors.push(error_at(
            f,
            at,
            code,
            format!("{msg} in one async coroutine"),
            "a coroutine has exactly one coro.id and one coro.begin of that id",
        ));
    }
    let (Some(&id), Some(&begin)) = (ids.first(), begins.first()) else { return Err(errors) };
    if !errors.is_empty() {
        return Err(errors);
    }
    let (header_size, context_align, context_param, fn_pointer) = check_id(f, src, types, id, m)?;
    let details = suspends.iter().map(|s| check_suspend(f, src, types, s.call, m)).collect::<Vec<_>>();
    let mut errors: Vec<Finding> = details.iter().filter_map(|d| d.as_ref().err().cloned()).collect();
    let mut end_must_tail = Vec::new();
    for &e in &ends {
        match check_end(f, src, types, e, m) {
            Ok(n) => end_must_tail.extend(n),
            Err(x) => errors.push(x),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let details: Vec<AsyncSuspend> = details.into_iter().flatten().collect();
    let fed: Vec<Inst> = details.iter().map(|d| d.resume_fn).collect();
    let stray_resumes = resumes.into_iter().filter(|r| !fed.contains(r)).collect();
    Ok(Shape {
        id,
        begin,
        header_size,
        context_align,
        context_param,
        fn_pointer,
        suspends,
        details,
        ends,
        end_must_tail,
        stray_resumes,
        others,
    })
}

/// The global a call operand names, through pointer casts, constant or not (LLVM strips both:
/// LLVM 14's producers pass `bitcast` instructions of the functions).
pub(crate) fn global_operand(f: &Function, v: llir::ir::Value, src: &str) -> Option<String> {
    let mut v = v;
    loop {
        if let Some(t) = f.const_text(v, src) {
            return named_global(t);
        }
        let i = f.value_inst(v)?;
        if !matches!(f.insts[i].op, Opcode::BitCast | Opcode::AddrSpaceCast) {
            return None;
        }
        v = *f.insts[i].args.first()?;
    }
}

fn bad_id(f: &Function, id: Inst, what: &str) -> Vec<Finding> {
    vec![error_at(
        f,
        Some(id),
        "coro-async-id",
        format!("the {what} of coro.id.async is not what LLVM requires"),
        "coro.id.async(i32 context header size, i32 alignment (a power of two), i32 index of the context \
         parameter (a pointer), ptr @async_function_pointer (a global of this module initialised with \
         <{ i32, i32 }> <{ relative function address, initial context size }>)); the coroutine returns void",
    )]
}

/// The context header size, alignment and parameter, and the async function pointer.
fn check_id(
    f: &Function,
    src: &str,
    types: &TypeTable,
    id: Inst,
    m: &Module<'_>,
) -> Result<(u64, u64, usize, String), Vec<Finding>> {
    let args = f.insts[id].call_args().to_vec();
    let constant = |k: usize| args.get(k).and_then(|&v| f.const_int(v, src)).and_then(|x| u64::try_from(x).ok());
    let (Some(size), Some(align), Some(param)) = (constant(0), constant(1), constant(2)) else {
        return Err(bad_id(f, id, "size, alignment or context index"));
    };
    // LLVM reads an alignment of 0 as none.
    let align = align.max(1);
    if !align.is_power_of_two() {
        return Err(bad_id(f, id, "alignment"));
    }
    let param = usize::try_from(param).unwrap_or(usize::MAX);
    if !f.header.params.get(param).is_some_and(|p| types.is_pointer(p.ty)) || !types.is_void(f.header.ret) {
        return Err(bad_id(f, id, "context parameter (or the return type)"));
    }
    let fp = args.get(3).and_then(|&v| global_operand(f, v, src));
    let Some(fp) = fp.filter(|g| (m.global_text)(g).is_some_and(|t| context_size_span(&t).is_some())) else {
        return Err(bad_id(f, id, "async function pointer"));
    };
    Ok((size, align, param, fp))
}

fn bad_suspend(f: &Function, i: Inst, msg: String) -> Finding {
    error_at(
        f,
        Some(i),
        "coro-async-suspend",
        msg,
        "coro.suspend.async(i32 context parameter index, ptr %resume_fn from coro.async.resume, ptr @project \
         (ptr (ptr)), ptr @must_tail_fn (void, of this module), its arguments...) returns a struct of \
         the continuation's parameters",
    )
}

/// One suspend's operands, as CoroSplit uses them.
fn check_suspend(
    f: &Function,
    src: &str,
    types: &mut TypeTable,
    i: Inst,
    m: &Module<'_>,
) -> Result<AsyncSuspend, Finding> {
    let d = &f.insts[i];
    if d.op != Opcode::Call {
        return Err(bad_suspend(f, i, "coro.suspend.async is invoked; it cannot throw".into()));
    }
    let params = elements(types, d.ty);
    if !matches!(types.get(types.resolve(d.ty)), TypeData::Struct { .. }) {
        return Err(bad_suspend(f, i, "coro.suspend.async does not return a struct".into()));
    }
    let args = d.call_args().to_vec();
    let index = args.first().and_then(|&v| f.const_int(v, src)).and_then(|x| u64::try_from(x).ok());
    let context_param = index.map(|x| (x & 0xff) as usize);
    let Some(context_param) = context_param.filter(|&k| params.get(k).is_some_and(|&t| types.is_pointer(t))) else {
        return Err(bad_suspend(
            f,
            i,
            "the context index does not name a pointer among the continuation's parameters".into(),
        ));
    };
    let resume_fn =
        args.get(1).and_then(|&v| f.value_inst(v)).filter(|&r| intr_of(f, r, src) == Some(Intr::AsyncResume));
    let Some(resume_fn) = resume_fn else {
        return Err(bad_suspend(f, i, "the resume function operand is not a coro.async.resume call".into()));
    };
    let name_at = |k: usize| args.get(k).and_then(|&v| global_operand(f, v, src));
    let projection = name_at(2).and_then(|name| Some(Callee { sig: (m.sig_of)(&name, types)?, name }));
    let Some(projection) = projection.filter(|p| {
        types.is_pointer(p.sig.ret) && p.sig.params.len() == 1 && p.sig.params.iter().all(|x| types.is_pointer(x.ty))
    }) else {
        return Err(bad_suspend(
            f,
            i,
            "the context projection function is not a `ptr (ptr)` function of this module".into(),
        ));
    };
    let must_tail = must_tail_fn(f, src, types, &args, 3, m)
        .map_err(|msg| bad_suspend(f, i, format!("the must-tail function {msg}")))?;
    Ok(AsyncSuspend { resume_fn, context_param, projection, must_tail })
}

/// The function at operand `at`, which LLVM calls in the coroutine's place with the operands
/// after it (those beyond its parameters dropped) and inlines when the module defines it: it
/// returns void, and each parameter has its operand's type.
fn must_tail_fn(
    f: &Function,
    src: &str,
    types: &mut TypeTable,
    args: &[llir::ir::Value],
    at: usize,
    m: &Module<'_>,
) -> Result<Callee, String> {
    let name = args.get(at).and_then(|&v| global_operand(f, v, src)).ok_or("is not a function")?;
    let sig = (m.sig_of)(&name, types).ok_or_else(|| format!("{name} is not a function of this module"))?;
    let given: Vec<_> = args.iter().skip(at + 1).map(|&v| f.values[v].ty).collect();
    let fits = sig.params.len() <= given.len() && sig.params.iter().zip(&given).all(|(p, &t)| p.ty == t);
    if !types.is_void(sig.ret) || !fits || sig.vararg {
        return Err(format!("{name} does not return void or does not take the {} arguments given", given.len()));
    }
    Ok(Callee { name, sig })
}

/// A `coro.end.async` with a must-tail function: as at a suspend.
fn check_end(
    f: &Function,
    src: &str,
    types: &mut TypeTable,
    e: Inst,
    m: &Module<'_>,
) -> Result<Option<Callee>, Finding> {
    if intr_of(f, e, src) != Some(Intr::EndAsync) || f.insts[e].call_args().len() < 3 {
        return Ok(None);
    }
    let args = f.insts[e].call_args().to_vec();
    must_tail_fn(f, src, types, &args, 2, m).map(Some).map_err(|msg| {
        error_at(
            f,
            Some(e),
            "coro-async-end",
            format!("the must-tail function of this coro.end.async {msg}"),
            "coro.end.async(ptr %hdl, i1 false, ptr @must_tail_fn, its arguments...): a function of this module \
             that returns void and takes (the first of) those arguments; LLVM calls it, inlined when defined",
        )
    })
}

/// The span (in `text`, a global's definition) of the integer of an async function pointer's
/// second field: the last `i32 N` before the initializer's closing `}>`.
pub fn context_size_span(text: &str) -> Option<(usize, usize)> {
    use llir::lexer::{Lexer, Tok};
    let mut lx = Lexer::new(text, 0, text.len());
    let mut toks = Vec::new();
    loop {
        let t = lx.next_token();
        if matches!(t.kind, Tok::Eof | Tok::Error) {
            break;
        }
        toks.push(t);
    }
    let close = toks.windows(2).rposition(|w| w[0].kind == Tok::RBrace && w[1].kind == Tok::Greater)?;
    let int = toks.get(close.checked_sub(1)?)?;
    let ty = toks.get(close.checked_sub(2)?)?;
    let ty_text = text.get(ty.start as usize..ty.end as usize)?;
    (int.kind == Tok::Int && ty_text == "i32").then_some((int.start as usize, int.end as usize))
}

/// The context size an async function pointer's definition holds.
pub fn context_size(text: &str) -> Option<u64> {
    let (a, b) = context_size_span(text)?;
    text.get(a..b)?.parse().ok()
}

/// `retcon::split_after_suspends` for async suspends.
pub fn normalize(f: &mut Function, types: &mut TypeTable, shape: &mut Shape) {
    retcon::split_after_suspends(f, types, &mut shape.suspends);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_field_of_an_async_function_pointer() {
        let t = "@f_fp = constant <{ i32, i32 }>\n  <{ i32 trunc (i64 sub (i64 0, i64 1) to i32), ; rel\n     i32 128    ; size }> here\n}>, align 8";
        let (a, b) = context_size_span(t).unwrap_or((0, 0));
        assert_eq!(&t[a..b], "128");
        assert_eq!(context_size(t), Some(128));
        assert_eq!(context_size("@g = external global <{ i32, i32 }>"), None);
        assert_eq!(context_size("@g = constant <{ i32, i64 }> <{ i32 0, i64 8 }>"), None);
    }
}
