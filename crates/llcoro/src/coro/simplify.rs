//! Pre-split simplification (seed 002: simplify a coroutine before splitting it). A call of a
//! function whose body only returns a constant, such as `await_ready` of `std::suspend_always` and
//! `std::suspend_never` or an empty `await_resume`, is replaced by that constant; the branches it
//! decided go straight to their target, and the blocks no longer reached are removed. A suspend
//! point behind an awaiter that is always ready then never exists, and a coroutine left without
//! one keeps its frame on the ramp's stack (`split`), as LLVM does after its own simplification.
//!
//! Folding needs the callee's body, so only functions defined in the module count, and only those
//! whose definition cannot be replaced at link time by a different one and that the producer did not
//! mark `noinline` or `optnone`. Coroutines marked `optnone` (clang -O0) are not simplified: LLVM's
//! -O0 pipeline keeps every call too.

use llir::ir::{Block, Function, Opcode};
use llir::types::TypeTable;
use llir::{ItemKind, Module};
use rustc_hash::FxHashMap;

/// A function whose every call can be replaced by its result: the result type as printed and the
/// constant (`None` for `void`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trivial {
    pub ret: String,
    pub value: Option<String>,
}

/// Bodies longer than this are never a lone `ret` of a constant with its parameters spilled.
const MAX_TRIVIAL_BYTES: usize = 1024;

/// The module's functions that only return a constant, by name (with `@`).
pub fn trivial_functions(m: &Module, types: &mut TypeTable) -> FxHashMap<String, Trivial> {
    // A function the producer asked to keep as a call (`noinline`, `optnone`) stays one.
    let kept: Vec<&str> = m
        .items
        .iter()
        .enumerate()
        .filter(|(i, it)| {
            it.kind == ItemKind::AttrGroup && {
                let t = m.item_text(*i);
                t.contains("noinline") || t.contains("optnone")
            }
        })
        .map(|(i, _)| m.item_name(i))
        .collect();
    let mut out = FxHashMap::default();
    for i in m.definitions() {
        let text = m.item_text(i);
        if text.len() > MAX_TRIVIAL_BYTES || m.definition_replaceable(i) || !looks_trivial(m.item_body(i)) {
            continue;
        }
        let head = m.item_head(i);
        if head.split_whitespace().any(|w| w == "noinline" || w == "optnone" || kept.contains(&w)) {
            continue;
        }
        let Ok(f) = m.parse_function_with(i, types) else { continue };
        if let Some(t) = trivial(&f, types, &m.src) {
            out.insert(f.name.to_string(), t);
        }
    }
    out
}

/// A cheap look at the body before parsing: one `ret`, no branch, no call but debug and lifetime
/// intrinsics.
fn looks_trivial(body: &str) -> bool {
    use llir::lexer::{Lexer, Tok};
    // The body's words, whatever its layout (it is short).
    let mut lx = Lexer::new(body, 0, body.len());
    let (mut rets, mut in_call) = (0, false);
    loop {
        let t = lx.next_token();
        let text = body.get(t.start as usize..t.end as usize).unwrap_or("");
        match (t.kind, text) {
            (Tok::Eof, _) => return rets == 1,
            (Tok::Ident, "ret") => rets += 1,
            (Tok::Ident, "br" | "invoke" | "volatile" | "atomic") => return false,
            (Tok::Ident, "call") => in_call = true,
            // The callee: the call's first global.
            (Tok::Global, name) if in_call => {
                if !(name.starts_with("@llvm.dbg.") || name.starts_with("@llvm.lifetime.")) {
                    return false;
                }
                in_call = false;
            }
            _ => {}
        }
    }
}

/// `f` as a `Trivial` when its one block only spills parameters to allocas of its own (and reads
/// them back), describes them to the debugger, and returns a constant or nothing.
fn trivial(f: &Function, types: &TypeTable, src: &str) -> Option<Trivial> {
    let [b] = f.layout.as_slice() else { return None };
    let is_local = |v| f.value_inst(v).is_some_and(|i| f.insts[i].op == Opcode::Alloca);
    let mut value = None;
    for &i in &f.blocks[*b].insts {
        let d = &f.insts[i];
        let ok = match d.op {
            Opcode::Alloca => d.args.iter().all(|&a| f.is_const(a)),
            Opcode::Store => d.args.get(1).is_some_and(|&p| is_local(p)),
            Opcode::Load => d.args.first().is_some_and(|&p| is_local(p)),
            Opcode::Call if d.is_debug() => true,
            Opcode::Call => {
                f.callee_name(i, src).is_some_and(|n| n.starts_with("@llvm.lifetime."))
                    && d.call_args().iter().all(|&a| f.is_const(a) || is_local(a))
            }
            Opcode::Ret => match d.args.as_slice() {
                [] => true,
                [v] => {
                    let t = f.const_text(*v, src)?;
                    let literal = t == "true" || t == "false" || t.parse::<i128>().is_ok();
                    value = Some(t.to_string());
                    literal
                }
                _ => false,
            },
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    Some(Trivial { ret: types.display(f.header.ret), value })
}

/// Folds `f`'s calls of `trivial` functions, then its branches on constants, then drops what is no
/// longer reached. True when anything changed.
pub fn fold(f: &mut Function, types: &mut TypeTable, src: &str, trivial: &FxHashMap<String, Trivial>) -> bool {
    if trivial.is_empty() {
        return false;
    }
    let calls: Vec<(llir::ir::Inst, Trivial)> = f
        .inst_iter()
        .filter(|&(_, i)| f.insts[i].op == Opcode::Call && !f.insts[i].is_debug())
        .filter_map(|(_, i)| Some((i, trivial.get(f.callee_name(i, src)?)?.clone())))
        .collect();
    let mut changed = false;
    for (i, t) in calls {
        // A call whose type disagrees with the definition is left to LLVM's rules for it.
        if types.display(f.insts[i].ty) != t.ret {
            continue;
        }
        if let Some(r) = f.insts[i].result {
            let Some(text) = &t.value else { continue };
            let ty = f.values[r].ty;
            let c = f.const_value(ty, text);
            f.replace_all_uses(r, c);
        }
        f.remove_inst(i);
        changed = true;
    }
    if changed {
        fold_branches(f, types, src);
        f.remove_unreachable_blocks();
    }
    changed
}

/// `br i1 true|false, ...` becomes a branch to the block it takes.
fn fold_branches(f: &mut Function, types: &TypeTable, src: &str) {
    let terms: Vec<(Block, llir::ir::Inst)> = f.layout.iter().filter_map(|&b| Some((b, f.terminator(b)?))).collect();
    for (b, t) in terms {
        let d = &f.insts[t];
        let (Opcode::Br, [c], [yes, no]) = (d.op, d.args.as_slice(), d.blocks.as_slice()) else { continue };
        let (taken, other) = match f.const_text(*c, src) {
            Some("true") => (*yes, *no),
            Some("false") => (*no, *yes),
            _ => continue,
        };
        if taken != other {
            f.remove_phi_incoming(other, b);
        }
        f.remove_inst(t);
        let br = f.create_br(types, taken);
        f.append_inst(b, br);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(body: &str) -> Module {
        Module::parse(body.to_string()).unwrap_or_else(|e| panic!("{}", e.0.message))
    }

    #[test]
    fn a_trivial_body_is_seen_whatever_its_layout() {
        let m = module(
            "define i32 @seven() {\n  ret\n    i32 7 }\n\
             define i32 @calls() {\n  call void\n    @g() ret i32 7\n}\n\
             define i32 @branches() {\n  br\n label %a\na:\n  ret i32 7\n}\n\
             declare void @g()\n",
        );
        let found = trivial_functions(&m, &mut m.types.clone());
        assert!(found.contains_key("@seven"));
        assert!(!found.contains_key("@calls") && !found.contains_key("@branches"));
    }

    #[test]
    fn finds_functions_that_only_return_a_constant() {
        let m = module(
            "define linkonce_odr zeroext i1 @ready(ptr %0) {\n  %2 = alloca ptr, align 8\n  store ptr %0, ptr %2, align 8\n  %3 = load ptr, ptr %2, align 8\n  ret i1 true\n}\n\
             define void @resume(ptr %0) {\n  ret void\n}\n\
             define i32 @seven() {\n  ret i32 7\n}\n\
             define linkonce i1 @replaceable() {\n  ret i1 true\n}\n\
             define i1 @writes(ptr %p) {\n  store i8 1, ptr %p\n  ret i1 true\n}\n\
             define i1 @calls() {\n  call void @g()\n  ret i1 false\n}\n\
             define i32 @param(i32 %x) {\n  ret i32 %x\n}\n\
             define i32 @kept() noinline {\n  ret i32 1\n}\n\
             define i32 @kept_by_group() #0 {\n  ret i32 1\n}\n\
             attributes #0 = { noinline optnone }\n\
             declare void @g()\n",
        );
        let mut types = m.types.clone();
        let t = trivial_functions(&m, &mut types);
        let mut names: Vec<&str> = t.keys().map(|s| s.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["@ready", "@resume", "@seven"]);
        assert_eq!(t.get("@ready"), Some(&Trivial { ret: "i1".into(), value: Some("true".into()) }));
        assert_eq!(t.get("@resume"), Some(&Trivial { ret: "void".into(), value: None }));
    }

    #[test]
    fn folds_calls_and_the_branches_they_decide() {
        let src = "define i1 @ready() {\n  ret i1 true\n}\n\
                   define void @done() {\n  ret void\n}\n\
                   define i32 @f() {\nentry:\n  %r = call i1 @ready()\n  call void @done()\n  br i1 %r, label %a, label %b\n\
                   a:\n  br label %j\nb:\n  call void @g()\n  br label %j\nj:\n  %v = phi i32 [ 1, %a ], [ 2, %b ]\n  ret i32 %v\n}\n\
                   declare void @g()\n";
        let mut m = module(src);
        let mut types = m.types.clone();
        let t = trivial_functions(&m, &mut types);
        let i = m.definitions().nth(2).unwrap_or_else(|| panic!("no @f"));
        let mut f = m.parse_function(i).unwrap_or_else(|e| panic!("{}", e.message));
        assert!(fold(&mut f, &mut types, &m.src, &t));
        let out = llir::print::print_function(&f, &types, &m.src);
        assert!(!out.contains("@ready") && !out.contains("@done") && !out.contains("@g"), "{out}");
        assert!(out.contains("phi i32 [ 1, %a ]\n"), "{out}");
        llir::verify::verify_function(&f).unwrap_or_else(|e| panic!("{}: {out}", e.message));
    }
}
