//! What the report says about the source: demangled names, C++ types spelled as people write them,
//! debug-info names and locations, and what an unnamed alloca is for (an awaiter, an exception slot,
//! a parameter copy), read from the input module, never from the lowered one.

use crate::coro::intrinsics::{Intr, intr_of, promise_type_name};
use llir::Module;
use llir::ir::{Function, Inst, Opcode, Piece, Value, ValueKind};
use rustc_hash::FxHashMap;

/// The module's metadata definitions by number (`!12`), found once.
pub struct Metadata<'m> {
    m: &'m Module,
    by_name: FxHashMap<&'m str, usize>,
}

/// A source position from a `!DILocation`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// The file's name as the debug info gives it (`DIFile`'s filename).
    pub file: String,
    /// 1-based line.
    pub line: u64,
    /// 1-based column; 0 when the location gives none.
    pub column: u64,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.column > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// A source variable from a `!DILocalVariable`: its name, and whether it is a parameter (`arg:`).
pub struct Variable {
    pub name: String,
    pub parameter: bool,
}

impl<'m> Metadata<'m> {
    pub fn new(m: &'m Module) -> Metadata<'m> {
        let by_name = m
            .items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.kind == llir::ItemKind::Metadata)
            .map(|(k, it)| (m.text(it.name), k))
            .collect();
        Metadata { m, by_name }
    }

    /// The text of `!N = ...` after the `=`.
    fn node(&self, id: &str) -> Option<&'m str> {
        let t = self.m.item_text(*self.by_name.get(id)?);
        Some(t.split_once('=')?.1.trim())
    }

    pub fn variable(&self, id: u32) -> Option<Variable> {
        let t = self.node(&format!("!{id}"))?;
        let name = field(t, "name")?;
        Some(Variable { name: unquote(name), parameter: field(t, "arg").is_some() })
    }

    /// The location a `!dbg` attachment names: line and column of the `!DILocation`, the file of
    /// its scope (a subprogram or lexical block).
    pub fn location(&self, dbg: &str) -> Option<Location> {
        let loc = if dbg.starts_with("!DILocation(") { dbg } else { self.node(dbg)? };
        let line = field(loc, "line")?.parse().ok()?;
        let column = field(loc, "column").and_then(|c| c.parse().ok()).unwrap_or(0);
        let scope = self.node(field(loc, "scope")?)?;
        let file = self.node(field(scope, "file")?)?;
        Some(Location { file: unquote(field(file, "filename")?), line, column })
    }
}

/// The value of `key: value` in a specialised metadata node's text (`!DIFile(filename: "a.cpp", ...)`),
/// as spelled: a quoted string keeps its quotes; a nested node is not followed.
fn field<'t>(node: &'t str, key: &str) -> Option<&'t str> {
    let pat = format!("{key}: ");
    let mut from = 0;
    while let Some(k) = node.get(from..)?.find(&pat) {
        let at = from + k;
        // `line:` must not match inside `scopeLine:`.
        if at > 0 && matches!(node.as_bytes().get(at - 1), Some(b'(' | b' ')) {
            let rest = node.get(at + pat.len()..)?;
            let end = if rest.starts_with('"') {
                let mut esc = false;
                rest.char_indices()
                    .skip(1)
                    .find(|&(_, c)| {
                        let done = c == '"' && !esc;
                        esc = c == '\\' && !esc;
                        done
                    })
                    .map_or(rest.len(), |(e, _)| e + 1)
            } else {
                rest.find([',', ')']).unwrap_or(rest.len())
            };
            return rest.get(..end).map(str::trim);
        }
        from = at + pat.len();
    }
    None
}

/// A metadata string without its quotes, its `\XX` escapes decoded.
fn unquote(s: &str) -> String {
    let s = s.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(s);
    let mut bytes = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        let hex =
            b.get(k + 1..k + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[k], hex) {
            (b'\\', Some(x)) => {
                bytes.push(x);
                k += 3;
            }
            (c, _) => {
                bytes.push(c);
                k += 1;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The `!dbg` attachment of instruction `i`: `!N`, or an inline `!DILocation(...)`.
pub fn dbg_of<'s>(f: &'s Function, i: Inst, src: &'s str) -> Option<&'s str> {
    f.insts[i].tmpl.iter().rev().find_map(|p| match p {
        Piece::Text(t) => {
            let s = t.get(src);
            let (_, node) = llir::metadata::find_attachment(s, "!dbg")?;
            s.get(node)
        }
        _ => None,
    })
}

/// A function's name for people: `@_Z5rangeiii` is `range(int, int, int)`; a name that is not an
/// Itanium mangling is shown without its `@` and quotes.
pub fn demangle(ir_name: &str) -> String {
    let raw = ir_name.trim_start_matches('@').trim_matches('"');
    // Only `_Z` names are manglings: the demangler would read `f` as the type `float`.
    raw.starts_with("_Z")
        .then(|| cpp_demangle::Symbol::new(raw).ok()?.demangle().ok())
        .flatten()
        .unwrap_or_else(|| raw.to_string())
}

/// An IR type as the text report shows it: each named struct by its C++ name (`%"struct.std::__n4861::
/// suspend_always"` is `std::suspend_always`): the `struct.`/`class.`/`union.` prefix and quotes go,
/// and so does a namespace whose name starts with `__` right after `std::` (the standard library's
/// inline namespaces: `__n4861`, `__1`, `__cxx11`). Everything else is shown as the IR spells it.
pub fn display_type(ir: &str) -> String {
    let mut out = String::with_capacity(ir.len());
    let mut rest = ir;
    while let Some(k) = rest.find('%') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        let len = if let Some(quoted) = after.strip_prefix('"') {
            quoted.find('"').map_or(after.len(), |e| e + 2)
        } else {
            after.find(|c: char| !(c.is_ascii_alphanumeric() || "._$-".contains(c))).unwrap_or(after.len())
        };
        let name = &after[..len];
        let cxx = promise_type_name(name);
        if cxx.len() + 2 < name.len() || !name.starts_with('"') && cxx.len() < name.len() {
            out.push_str(&drop_inline_namespaces(&cxx));
        } else {
            out.push('%');
            out.push_str(name);
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

fn drop_inline_namespaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find("std::__") {
        out.push_str(&rest[..k + 5]);
        let ns = &rest[k + 5..];
        match ns.find("::") {
            Some(e) if ns[..e].chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => rest = &ns[e + 2..],
            _ => rest = ns,
        }
    }
    out.push_str(rest);
    out
}

/// What an alloca of the input is for, when the code around it says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Passed as `this` to `await_ready`/`await_suspend`/`await_resume`, or to `coro.await.suspend.*`.
    Awaiter,
    /// Stores the exception pointer a landing pad returns.
    ExceptionSlot,
    /// Stores the selector a landing pad returns.
    SelectorSlot,
    /// Holds a copy of parameter `%N` (stored directly, or loaded from the alloca it was stored in).
    ParamCopy(String),
}

/// The roles of the allocas of `f`, from one pass over its instructions.
pub fn roles(f: &Function, src: &str) -> FxHashMap<Value, Role> {
    let is_alloca = |v: Value| f.value_inst(v).is_some_and(|i| f.insts[i].op == Opcode::Alloca);
    let mut out = FxHashMap::default();
    // Allocas a parameter is stored into, and allocas stored from a load of another alloca.
    let mut param_in: FxHashMap<Value, Value> = FxHashMap::default();
    let mut copied_from: Vec<(Value, Value)> = Vec::new();
    for (_, i) in f.inst_iter() {
        let d = &f.insts[i];
        match d.op {
            Opcode::Call | Opcode::Invoke => {
                let awaits = matches!(
                    intr_of(f, i, src),
                    Some(Intr::AwaitSuspendVoid | Intr::AwaitSuspendBool | Intr::AwaitSuspendHandle)
                ) || f
                    .callee_name(i, src)
                    .is_some_and(|n| ["await_ready", "await_suspend", "await_resume"].iter().any(|m| n.contains(m)));
                if awaits && let Some(&a) = d.call_args().first().filter(|&&a| is_alloca(a)) {
                    out.insert(a, Role::Awaiter);
                }
            }
            Opcode::Store => {
                let (Some(&val), Some(&ptr)) = (d.args.first(), d.args.get(1)) else { continue };
                if !is_alloca(ptr) {
                    continue;
                }
                match f.values[val].kind {
                    ValueKind::Param(_) => {
                        param_in.entry(ptr).or_insert(val);
                    }
                    ValueKind::Inst(vi) => match f.insts[vi].op {
                        Opcode::ExtractValue
                            if f.insts[vi]
                                .args
                                .first()
                                .and_then(|&agg| f.value_inst(agg))
                                .is_some_and(|li| f.insts[li].op == Opcode::LandingPad) =>
                        {
                            out.entry(ptr).or_insert(landing_pad_role(f, vi, src));
                        }
                        Opcode::Load => {
                            if let Some(&from) = f.insts[vi].args.first().filter(|&&p| is_alloca(p)) {
                                copied_from.push((ptr, from));
                            }
                        }
                        _ => {}
                    },
                    _ => {}
                }
            }
            _ => {}
        }
    }
    let param_name = |p: Value| f.values[p].name.as_deref().map(|n| format!("%{n}"));
    for (&a, &p) in &param_in {
        if let Some(n) = param_name(p) {
            out.entry(a).or_insert(Role::ParamCopy(n));
        }
    }
    for (to, from) in copied_from {
        if let Some(n) = param_in.get(&from).and_then(|&p| param_name(p)) {
            out.entry(to).or_insert(Role::ParamCopy(n));
        }
    }
    out
}

/// Which half of a landing pad's `{ ptr, i32 }` an `extractvalue` takes: its last index.
fn landing_pad_role(f: &Function, ev: Inst, src: &str) -> Role {
    let text = f.insts[ev]
        .tmpl
        .iter()
        .filter_map(|p| match p {
            Piece::Text(t) => Some(t.get(src)),
            _ => None,
        })
        .collect::<String>();
    let text = llir::metadata::first_attachment(&text).map_or(text.as_str(), |k| &text[..k]);
    match text.rsplit(',').next().map(str::trim) {
        Some("0") => Role::ExceptionSlot,
        _ => Role::SelectorSlot,
    }
}

/// What a suspend point is, in C++ terms, when the IR tells: `initial`, `co_await`, `co_yield` or
/// `final`. Clang 19 and later name the await wrapper by the kind (`__await_suspend_wrapper__init`);
/// for older output, the promise call the awaiter came from (`initial_suspend`, `yield_value`,
/// `final_suspend`) between the previous suspend and this one, else `co_await` when an awaiter's
/// `await_ready` or `await_suspend` is called there. IR that is not C++ gets no kind.
pub fn suspend_kind(f: &Function, src: &str, call: Inst, is_final: bool, awaits: &[Inst]) -> Option<&'static str> {
    let block = f.insts[call].block?;
    let wrapper = awaits
        .iter()
        .filter(|&&a| f.insts[a].block == Some(block))
        .filter_map(|&a| f.insts[a].call_args().get(2).and_then(|&w| f.const_text(w, src)))
        .next();
    // The kind follows the marker; a number after it tells apart two wrappers of one kind (`yield2`).
    let kind = wrapper
        .and_then(|w| w.trim_matches('"').rsplit_once("__await_suspend_wrapper__"))
        .map(|(_, k)| k.trim_end_matches(|c: char| c.is_ascii_digit()));
    match kind {
        Some("init") => return Some("initial"),
        Some("await") => return Some("co_await"),
        Some("yield") => return Some("co_yield"),
        Some("final") => return Some("final"),
        _ => {}
    }
    if is_final {
        return Some("final");
    }
    // Back through the instructions in layout order, up to the previous suspend.
    let order: Vec<Inst> = f.inst_iter().map(|(_, i)| i).collect();
    let at = order.iter().position(|&i| i == call)?;
    let mut awaited = false;
    for &i in order[..at].iter().rev() {
        if intr_of(f, i, src) == Some(Intr::Suspend) {
            break;
        }
        let Some(n) = f.callee_name(i, src) else { continue };
        for (m, kind) in [("initial_suspend", "initial"), ("yield_value", "co_yield"), ("final_suspend", "final")] {
            if n.contains(m) {
                return Some(kind);
            }
        }
        awaited |= n.contains("await_ready") || n.contains("await_suspend");
    }
    awaited.then_some("co_await")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_lose_struct_prefixes_and_inline_namespaces() {
        assert_eq!(display_type("%\"struct.std::__n4861::suspend_always\""), "std::suspend_always");
        assert_eq!(display_type("%\"struct.generator<int>::promise_type\""), "generator<int>::promise_type");
        assert_eq!(display_type("%class.Task"), "Task");
        assert_eq!(display_type("[2 x %\"class.std::__cxx11::basic_string\"]"), "[2 x std::basic_string]");
        assert_eq!(
            display_type("%\"struct.std::__n4861::coroutine_handle<std::__n4861::noop_coroutine_promise>\""),
            "std::coroutine_handle<std::noop_coroutine_promise>"
        );
        assert_eq!(display_type("{ i32, ptr }"), "{ i32, ptr }");
        assert_eq!(display_type("%T"), "%T");
        assert_eq!(display_type("i64"), "i64");
    }

    #[test]
    fn names_are_demangled_when_mangled() {
        assert_eq!(demangle("@_Z5rangeiii"), "range(int, int, int)");
        assert_eq!(demangle("@\"_Z4leafl\""), "leaf(long)");
        assert_eq!(demangle("@f"), "f");
    }

    #[test]
    fn metadata_fields_are_read_whole() {
        let n = "!DISubprogram(name: \"f\", scopeLine: 9, line: 7, file: !3)";
        assert_eq!(field(n, "line"), Some("7"));
        assert_eq!(field(n, "file"), Some("!3"));
        assert_eq!(field(n, "name"), Some("\"f\""));
        assert_eq!(field("!DIFile(filename: \"a, b.cpp\", directory: \"/x\")", "filename"), Some("\"a, b.cpp\""));
        assert_eq!(unquote("\"a\\22b\""), "a\"b");
        assert_eq!(field(n, "column"), None);
    }

    /// The first function of `src`, parsed.
    fn function(src: &str) -> (Module, Function) {
        let m = Module::parse(src.to_string()).unwrap_or_else(|(e, _)| panic!("{e}"));
        let i = m.definitions().next().expect("a definition");
        let mut types = m.types.clone();
        let f = m.parse_function_with(i, &mut types).unwrap_or_else(|e| panic!("{e}"));
        (m, f)
    }

    fn value(f: &Function, name: &str) -> Value {
        f.values.keys().find(|&v| f.values[v].name.as_deref() == Some(name)).expect("the value")
    }

    #[test]
    fn allocas_are_named_by_what_the_code_does_with_them() {
        let src = "define void @f(i32 %0) personality ptr @p {\n\
            %2 = alloca i32\n  %3 = alloca i32\n  %4 = alloca i8\n  %5 = alloca ptr\n  %6 = alloca i32\n  %7 = alloca i32\n\
            store i32 %0, ptr %2\n  %8 = load i32, ptr %2\n  store i32 %8, ptr %3\n\
            %9 = call i1 @_ZNKSt14suspend_always11await_readyEv(ptr %4)\n\
            invoke void @g() to label %10 unwind label %11\n\
            10:\n  ret void\n\
            11:\n  %12 = landingpad { ptr, i32 } cleanup\n  %13 = extractvalue { ptr, i32 } %12, 0\n  store ptr %13, ptr %5\n\
            %14 = extractvalue { ptr, i32 } %12, 1\n  store i32 %14, ptr %6\n  resume { ptr, i32 } %12\n}\n\
            declare i1 @_ZNKSt14suspend_always11await_readyEv(ptr)\ndeclare void @g()\ndeclare i32 @p(...)\n";
        let (m, f) = function(src);
        let r = roles(&f, &m.src);
        assert_eq!(r.get(&value(&f, "2")), Some(&Role::ParamCopy("%0".into())));
        assert_eq!(r.get(&value(&f, "3")), Some(&Role::ParamCopy("%0".into())), "copied through %2");
        assert_eq!(r.get(&value(&f, "4")), Some(&Role::Awaiter));
        assert_eq!(r.get(&value(&f, "5")), Some(&Role::ExceptionSlot));
        assert_eq!(r.get(&value(&f, "6")), Some(&Role::SelectorSlot));
        assert_eq!(r.get(&value(&f, "7")), None, "nothing says what it is for");
    }

    #[test]
    fn suspend_kinds_without_await_wrappers_come_from_the_promise_calls() {
        // As clang 14 to 18 write it: no `__await_suspend_wrapper__*`, the promise's calls before
        // each suspend.
        let src = "define void @f() {\nentry:\n  %a = alloca i8\n\
            call void @_ZN1P15initial_suspendEv()\n  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)\n\
            call i1 @_ZNK1A11await_readyEv(ptr %a)\n  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)\n\
            call void @_ZN1P11yield_valueEi(i32 1)\n  call i1 @_ZNK1A11await_readyEv(ptr %a)\n\
            %s2 = call i8 @llvm.coro.suspend(token none, i1 false)\n\
            call void @h()\n  %s3 = call i8 @llvm.coro.suspend(token none, i1 false)\n\
            %s4 = call i8 @llvm.coro.suspend(token none, i1 true)\n  ret void\n}\n\
            declare i8 @llvm.coro.suspend(token, i1)\ndeclare void @_ZN1P15initial_suspendEv()\n\
            declare i1 @_ZNK1A11await_readyEv(ptr)\ndeclare void @_ZN1P11yield_valueEi(i32)\ndeclare void @h()\n";
        let (m, f) = function(src);
        let kind = |name: &str, fin: bool| {
            let i = f.value_inst(value(&f, name)).expect("a call");
            suspend_kind(&f, &m.src, i, fin, &[])
        };
        assert_eq!(kind("s0", false), Some("initial"));
        assert_eq!(kind("s1", false), Some("co_await"));
        assert_eq!(kind("s2", false), Some("co_yield"));
        assert_eq!(kind("s3", false), None, "no awaiter called: not C++");
        assert_eq!(kind("s4", true), Some("final"));
    }
}
