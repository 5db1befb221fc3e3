//! The shape of a returned-continuation coroutine (`llvm.coro.id.retcon`, `.retcon.once`): its
//! intrinsics, collected once, and the rules LLVM's `coro::Shape` enforces (with a fatal error
//! there) checked here as located errors: the prototype's signature against the coroutine's, each
//! suspend's yielded values and resume values against the prototype, the allocator and
//! deallocator's signatures.

use crate::coro::intrinsics::{Intr, intr_of};
use crate::diag::{Finding, error_at};
use llir::ir::{Block, Function, Inst, Opcode, Value};
use llir::parser::func::Signature;
use llir::types::{Type, TypeData, TypeTable};

/// Which returned-continuation ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abi {
    /// `coro.id.retcon`: suspends any number of times; every continuation has the prototype's type.
    Retcon,
    /// `coro.id.retcon.once`: suspends once; the continuation returns the prototype's result.
    Once,
}

impl Abi {
    pub fn name(self) -> &'static str {
        match self {
            Abi::Retcon => "retcon",
            Abi::Once => "retcon.once",
        }
    }
}

/// A function the coroutine names (prototype, allocator, deallocator): its name and signature.
#[derive(Clone, Debug)]
pub struct Callee {
    pub name: String,
    pub sig: Signature,
}

impl Callee {
    /// The calling convention its header spells (`swiftcc`, `cc 10`), or "".
    pub fn cc(&self, src: &str) -> String {
        calling_convention(self.sig.prefix.get(src))
    }
}

/// One suspend: the call, and (after `normalize`) the block execution continues in when its
/// continuation is called and the instruction standing for the continuation's arguments there.
#[derive(Clone, Debug)]
pub struct Suspend {
    pub call: Inst,
    pub resume: Option<Block>,
    pub values: Option<Inst>,
}

#[derive(Clone, Debug)]
pub struct Shape {
    pub abi: Abi,
    pub id: Inst,
    pub begin: Inst,
    /// The caller's buffer, its size and alignment (coro.id's first three operands).
    pub storage: Value,
    pub storage_size: u64,
    pub storage_align: u64,
    pub prototype: Callee,
    pub alloc: Callee,
    pub dealloc: Callee,
    /// The continuation pointer's type (the first of the ramp's results) and the yielded types.
    pub cont_ty: Type,
    pub yields: Vec<Type>,
    pub suspends: Vec<Suspend>,
    pub ends: Vec<Inst>,
    /// `coro.alloca.alloc` calls, whose `get`s and `free`s are among `others`.
    pub allocas: Vec<Inst>,
    /// Everything else: `coro.end.results`, `coro.size`, `coro.align`, `coro.alloca.get/free`.
    pub others: Vec<(Inst, Intr)>,
}

impl Shape {
    pub fn frame(&self, f: &Function) -> Option<Value> {
        f.insts[self.begin].result
    }
}

/// The returned-continuation ABI of `f`, if it calls `coro.id.retcon` or `coro.id.retcon.once`.
pub fn abi_of(f: &Function, src: &str) -> Option<Abi> {
    f.inst_iter().find_map(|(_, i)| match intr_of(f, i, src) {
        Some(Intr::IdRetcon) => Some(Abi::Retcon),
        Some(Intr::IdRetconOnce) => Some(Abi::Once),
        _ => None,
    })
}

/// The calling-convention words of a header's prefix (`define internal swiftcc ` → `swiftcc`).
pub fn calling_convention(prefix: &str) -> String {
    let words: Vec<&str> = prefix.split_whitespace().collect();
    let mut out = Vec::new();
    for (k, w) in words.iter().enumerate() {
        if *w == "cc" {
            out.push(format!("cc {}", words.get(k + 1).copied().unwrap_or("0")));
        } else if w.ends_with("cc") && !matches!(*w, "define" | "declare") {
            out.push((*w).to_string());
        }
    }
    out.join(" ")
}

/// The global a constant operand names (`@f`, or `bitcast (... @f to i8*)` with typed pointers).
pub fn named_global(text: &str) -> Option<String> {
    let at = text.find('@')?;
    let rest = &text[at..];
    let end = if rest.as_bytes().get(1) == Some(&b'"') {
        rest[2..].find('"').map(|k| k + 3)?
    } else {
        rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '@' | '.' | '_' | '$' | '-')))
            .unwrap_or(rest.len())
    };
    Some(rest[..end].to_string())
}

/// The elements of a result type: a struct's fields, nothing for void, else the type itself.
pub fn elements(types: &TypeTable, ty: Type) -> Vec<Type> {
    match types.get(types.resolve(ty)) {
        TypeData::Void => Vec::new(),
        TypeData::Struct { fields, .. } => fields.to_vec(),
        _ => vec![ty],
    }
}

fn is_pointer(types: &TypeTable, ty: Type) -> bool {
    types.is_pointer(ty)
}

/// Collects and checks the coroutine. `sig_of` finds a module function's signature by name.
pub fn analyze(
    f: &Function,
    src: &str,
    types: &mut TypeTable,
    sig_of: &dyn Fn(&str, &mut TypeTable) -> Option<Signature>,
) -> Result<Shape, Vec<Finding>> {
    let mut errors = Vec::new();
    let found = collect(f, src, &mut errors);
    check_structure(f, &found, &mut errors);
    let (Some(&id), Some(&begin)) = (found.ids.first(), found.begins.first()) else { return Err(errors) };
    if !errors.is_empty() {
        return Err(errors);
    }
    let Found { abi, suspends, ends, allocas, others, .. } = found;
    let op = id_operands(f, src, types, sig_of, id, abi)?;
    let mut shape = Shape {
        abi,
        id,
        begin,
        storage: op.storage,
        storage_size: op.storage_size,
        storage_align: op.storage_align.max(1),
        cont_ty: types.ptr,
        yields: Vec::new(),
        prototype: op.prototype,
        alloc: op.alloc,
        dealloc: op.dealloc,
        suspends,
        ends,
        allocas,
        others,
    };
    check_signatures(f, types, &mut shape)?;
    check_suspends(f, types, &shape)?;
    check_results(f, src, types, &shape)?;
    Ok(shape)
}

/// The coroutine's intrinsics by kind, as `collect` finds them.
struct Found {
    abi: Abi,
    ids: Vec<Inst>,
    begins: Vec<Inst>,
    suspends: Vec<Suspend>,
    ends: Vec<Inst>,
    allocas: Vec<Inst>,
    others: Vec<(Inst, Intr)>,
}

/// The coroutine's intrinsics; one that does not belong in a returned-continuation coroutine is an
/// error.
fn collect(f: &Function, src: &str, errors: &mut Vec<Finding>) -> Found {
    let (mut ids, mut begins, mut suspends, mut ends, mut allocas, mut others) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut abi = Abi::Retcon;
    for (_, i) in f.inst_iter() {
        let Some(k) = intr_of(f, i, src) else { continue };
        match k {
            Intr::IdRetcon | Intr::IdRetconOnce => {
                abi = if k == Intr::IdRetcon { Abi::Retcon } else { Abi::Once };
                ids.push(i);
            }
            Intr::Begin => begins.push(i),
            Intr::SuspendRetcon => suspends.push(Suspend { call: i, resume: None, values: None }),
            Intr::End => ends.push(i),
            Intr::AllocaAlloc => allocas.push(i),
            Intr::EndResults | Intr::Size | Intr::Align | Intr::AllocaGet | Intr::AllocaFree | Intr::Frame => {
                others.push((i, k))
            }
            Intr::PrepareRetcon | Intr::SafeElide => {}
            _ => errors.push(error_at(
                f,
                Some(i),
                "coro-retcon-intrinsic",
                format!(
                    "{} does not belong in a returned-continuation coroutine",
                    f.callee_name(i, src).unwrap_or("this intrinsic")
                ),
                "a coroutine made with coro.id.retcon uses coro.begin, coro.suspend.retcon, coro.end, \
                 coro.end.results, coro.alloca.* and coro.size/align only",
            )),
        }
    }
    Found { abi, ids, begins, suspends, ends, allocas, others }
}

/// One coro.id and one coro.begin, and suspends that are calls.
fn check_structure(f: &Function, found: &Found, errors: &mut Vec<Finding>) {
    let Found { ids, begins, suspends, .. } = found;
    if ids.len() != 1 || begins.len() != 1 {
        let (code, at, msg) = if ids.len() > 1 || begins.len() > 1 {
            ("coro-multiple-begin", ids.get(1).or(begins.get(1)).copied(), "more than one coro.id or coro.begin")
        } else {
            ("coro-missing-begin", ids.first().copied(), "a coro.id.retcon without its coro.begin")
        };
        errors.push(error_at(
            f,
            at,
            code,
            format!("{msg} in one returned-continuation coroutine"),
            "a coroutine has exactly one coro.id and one coro.begin of that id",
        ));
    }
    for s in suspends {
        if f.insts[s.call].op != Opcode::Call {
            errors.push(error_at(
                f,
                Some(s.call),
                "coro-retcon-suspend",
                "coro.suspend.retcon is invoked; it cannot throw".into(),
                "call coro.suspend.retcon with `call`",
            ));
        }
    }
}

/// What coro.id.retcon(.once) says: the caller's buffer (size, alignment, address) and the
/// prototype, allocator and deallocator.
struct IdOperands {
    storage_size: u64,
    storage_align: u64,
    storage: Value,
    prototype: Callee,
    alloc: Callee,
    dealloc: Callee,
}

/// The operands of `id`, checked: constants for the buffer's size and alignment, and functions the
/// module defines or declares.
fn id_operands(
    f: &Function,
    src: &str,
    types: &mut TypeTable,
    sig_of: &dyn Fn(&str, &mut TypeTable) -> Option<Signature>,
    id: Inst,
    abi: Abi,
) -> Result<IdOperands, Vec<Finding>> {
    let id_args = f.insts[id].call_args().to_vec();
    let constant = |k: usize| id_args.get(k).and_then(|&v| f.const_int(v, src)).and_then(|x| u64::try_from(x).ok());
    let name_of = |k: usize| id_args.get(k).and_then(|&v| f.const_text(v, src)).and_then(named_global);
    let bad_id = |what: &str| {
        error_at(
            f,
            Some(id),
            "coro-retcon-id",
            format!("the {what} operand of coro.id.{} is not what LLVM requires", abi.name()),
            "coro.id.retcon(i32 size, i32 align, ptr buffer, ptr @prototype, ptr @allocate, ptr @deallocate): \
             size and alignment constants, the three functions defined or declared in this module",
        )
    };
    let (Some(storage_size), Some(storage_align), Some(&storage)) = (constant(0), constant(1), id_args.get(2)) else {
        return Err(vec![bad_id("size, alignment or buffer")]);
    };
    let mut callee = |k: usize, what: &str| -> Result<Callee, Finding> {
        let name = name_of(k).ok_or_else(|| bad_id(what))?;
        let sig = sig_of(&name, types).ok_or_else(|| bad_id(what))?;
        Ok(Callee { name, sig })
    };
    match (callee(3, "prototype"), callee(4, "allocator"), callee(5, "deallocator")) {
        (Ok(prototype), Ok(alloc), Ok(dealloc)) => {
            Ok(IdOperands { storage_size, storage_align, storage, prototype, alloc, dealloc })
        }
        (p, a, d) => Err([p.err(), a.err(), d.err()].into_iter().flatten().take(1).collect()),
    }
}

/// The prototype's, the coroutine's, the allocator's and the deallocator's signatures, as LLVM's
/// `checkWFRetconPrototype` and `checkWFAlloc`/`checkWFDealloc` want them.
fn check_signatures(f: &Function, types: &TypeTable, shape: &mut Shape) -> Result<(), Vec<Finding>> {
    let err = |msg: String, help: &str| vec![error_at(f, Some(shape.id), "coro-retcon-prototype", msg, help)];
    let proto = &shape.prototype;
    let show = |t: Type| types.display(t);
    if !proto.sig.params.first().is_some_and(|p| is_pointer(types, p.ty)) {
        return Err(err(
            format!("the prototype {} does not take the buffer pointer as its first parameter", proto.name),
            "a continuation's first parameter is the caller's buffer: declare the prototype as `RET (ptr, ...)`",
        ));
    }
    // The ramp returns the first continuation and the first yield; with retcon every continuation
    // does too, so the prototype returns what the coroutine returns.
    let ramp = elements(types, f.header.ret);
    match ramp.first() {
        Some(&c) if is_pointer(types, c) => shape.cont_ty = c,
        _ => {
            return Err(err(
                format!("{} returns {}, not a continuation pointer first", f.name, show(f.header.ret)),
                "a returned-continuation coroutine returns `ptr` or `{ ptr, yielded values... }`",
            ));
        }
    }
    shape.yields = ramp.get(1..).unwrap_or(&[]).to_vec();
    if shape.abi == Abi::Retcon && proto.sig.ret != f.header.ret {
        return Err(err(
            format!(
                "the prototype {} returns {}, but the coroutine returns {}",
                proto.name,
                show(proto.sig.ret),
                show(f.header.ret)
            ),
            "with coro.id.retcon every continuation returns what the coroutine returns: give the prototype its return type",
        ));
    }
    if !is_pointer(types, shape.alloc.sig.ret)
        || !shape.alloc.sig.params.first().is_some_and(|p| matches!(types.get(p.ty), TypeData::Int(_)))
    {
        return Err(err(
            format!("the allocator {} is not `ptr (iN size)`", shape.alloc.name),
            "the allocator takes the frame size as an integer and returns the memory",
        ));
    }
    if !shape.dealloc.sig.params.first().is_some_and(|p| is_pointer(types, p.ty)) {
        return Err(err(
            format!("the deallocator {} does not take a pointer", shape.dealloc.name),
            "the deallocator takes the memory the allocator returned",
        ));
    }
    Ok(())
}

/// Each suspend yields the values the ramp's result holds after the continuation, and returns the
/// values the prototype takes after the buffer.
fn check_suspends(f: &Function, types: &TypeTable, shape: &Shape) -> Result<(), Vec<Finding>> {
    let resume: Vec<Type> = shape.prototype.sig.params.iter().skip(1).map(|p| p.ty).collect();
    let show = |ts: &[Type]| ts.iter().map(|&t| types.display(t)).collect::<Vec<_>>().join(", ");
    let mut errors = Vec::new();
    for s in &shape.suspends {
        let d = &f.insts[s.call];
        let given: Vec<Type> = d.call_args().iter().map(|&v| f.values[v].ty).collect();
        if given != shape.yields {
            errors.push(error_at(
                f,
                Some(s.call),
                "coro-retcon-suspend",
                format!("this suspend yields ({}), but the coroutine returns ({}) after the continuation", show(&given), show(&shape.yields)),
                "coro.suspend.retcon's operands are the values the ramp and each continuation return with the next continuation",
            ));
        }
        let got = elements(types, d.ty);
        if got != resume {
            errors.push(error_at(
                f,
                Some(s.call),
                "coro-retcon-suspend",
                format!(
                    "this suspend returns ({}), but the prototype {} takes ({}) after the buffer",
                    show(&got),
                    shape.prototype.name,
                    show(&resume)
                ),
                "coro.suspend.retcon returns the arguments its continuation is called with: one value, a struct of them, or void",
            ));
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// The results of the token operand of a `coro.end`, if it is a `coro.end.results` call.
pub fn end_results(f: &Function, src: &str, end: Inst) -> Option<Inst> {
    let tok = f.insts[end].call_args().get(2).and_then(|&t| f.value_inst(t))?;
    (intr_of(f, tok, src) == Some(Intr::EndResults)).then_some(tok)
}

/// A retcon.once continuation returns what the prototype returns, from `coro.end.results` (nothing
/// for void); a retcon coroutine's `coro.end` has no results.
fn check_results(f: &Function, src: &str, types: &TypeTable, shape: &Shape) -> Result<(), Vec<Finding>> {
    let want = elements(types, shape.prototype.sig.ret);
    let show = |ts: &[Type]| ts.iter().map(|&t| types.display(t)).collect::<Vec<_>>().join(", ");
    let mut errors = Vec::new();
    for &e in &shape.ends {
        let unwind = f.insts[e].call_args().get(1).and_then(|&v| f.const_int(v, src)).unwrap_or(0) != 0;
        let results = end_results(f, src, e);
        let given: Vec<Type> =
            results.map(|r| f.insts[r].call_args().iter().map(|&v| f.values[v].ty).collect()).unwrap_or_default();
        let (bad, help) = match shape.abi {
            Abi::Retcon => (
                results.is_some(),
                "only coro.id.retcon.once coroutines return results at coro.end; a retcon coroutine ends by returning a null continuation",
            ),
            // With no suspend there is no continuation, and the ramp returns no results.
            Abi::Once => (
                !unwind && given != want && !shape.suspends.is_empty(),
                "coro.end's coro.end.results give what the prototype returns (none for void)",
            ),
        };
        if bad {
            let msg = match shape.abi {
                Abi::Retcon => {
                    format!("this coro.end of a coro.id.retcon coroutine returns results ({})", show(&given))
                }
                Abi::Once => format!(
                    "this coro.end returns ({}), but the continuation returns ({}) (the prototype {})",
                    show(&given),
                    show(&want),
                    shape.prototype.name
                ),
            };
            errors.push(error_at(f, Some(e), "coro-retcon-end", msg, help));
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calling_conventions_from_a_header_prefix() {
        assert_eq!(calling_convention("define internal swiftcc "), "swiftcc");
        assert_eq!(calling_convention("declare cc 10 "), "cc 10");
        assert_eq!(calling_convention("define dso_local noundef "), "");
    }

    #[test]
    fn the_global_a_constant_names() {
        assert_eq!(named_global("@proto").as_deref(), Some("@proto"));
        assert_eq!(named_global("bitcast (void (i8*, i1)* @f.proto to i8*)").as_deref(), Some("@f.proto"));
        assert_eq!(named_global("@\"a b\"").as_deref(), Some("@\"a b\""));
        assert_eq!(named_global("null"), None);
    }

    #[test]
    fn result_elements() {
        let mut types = TypeTable::new();
        let (ptr, i32t, void) = (types.ptr, types.i32, types.void);
        let s = types.intern(TypeData::Struct { fields: vec![ptr, i32t].into(), packed: false });
        assert_eq!(elements(&types, s), vec![ptr, i32t]);
        assert_eq!(elements(&types, ptr), vec![ptr]);
        assert!(elements(&types, void).is_empty());
    }
}
