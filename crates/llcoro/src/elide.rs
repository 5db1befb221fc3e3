//! Heap elision without inlining, module-wide.
//!
//! LLVM elides a coroutine's heap frame only after inlining its ramp into the caller. llcoro does
//! it across the call instead: a ramp that returns its frame gets an elided twin (`split::
//! elided_ramp`) that takes the frame memory as an extra argument, and a caller that creates the
//! coroutine and destroys it on every path before it returns (or creates it again) passes an
//! alloca of its own instead of letting the ramp allocate.
//!
//! Why that is enough: the caller's destroy proves the frame is still alive there (a coroutine that
//! had freed itself could not be destroyed again), and after a destroy the frame is gone in the heap
//! version too, so a copy of the handle kept elsewhere dangles in both. The twin installs `.cleanup`
//! as its destroy function, so whoever destroys it, nothing frees the caller's stack.
//!
//! Like LLVM's CoroElide, the path check follows the CFG: a call that unwinds without an `invoke`
//! leaves the caller on no edge, so it is not a path out.
//!
//! This pass reads and rewrites one function (the caller); it only needs to know, for each ramp in
//! the module, the name, size and alignment of its twin.

use crate::intrinsics::{Intr, intr_of};
use llir::ItemKind;
use llir::Module;
use llir::ir::edit::t;
use llir::ir::{Block, Extra, Function, Inst, InstData, Opcode, Piece, Value};
use llir::types::{TypeData, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};

/// A ramp's elided twin: its name, and the frame's size and alignment.
pub type Twin = (String, u64, u64);

/// The presplit coroutines that some function which destroys coroutines calls for a pointer (a
/// cheap text scan, before anything is parsed): the ones worth an elided twin.
pub fn wanted(m: &Module, candidates: &[usize], groups: &[String]) -> FxHashSet<String> {
    let head = |i: usize| m.item_text(i).split('{').next().unwrap_or("");
    let presplit = |i: usize| {
        let h = head(i);
        h.contains("presplitcoroutine") || groups.iter().any(|g| h.split_whitespace().any(|w| w == g))
    };
    let ramps: FxHashSet<&str> = candidates
        .iter()
        .copied()
        .filter(|&i| m.items[i].kind == ItemKind::Define && presplit(i))
        .map(|i| m.item_name(i))
        .collect();
    let mut out = FxHashSet::default();
    if ramps.is_empty() {
        return out;
    }
    for &i in candidates {
        let text = m.item_text(i);
        if presplit(i) || !text.contains("@llvm.coro.destroy") {
            continue;
        }
        for line in text.lines().filter(|l| l.contains("call ") && l.contains("ptr @")) {
            let mut rest = line;
            while let Some(k) = rest.find("ptr @") {
                let name_start = k + 4;
                let len = rest[name_start..].find('(').unwrap_or(0);
                let name = &rest[name_start..name_start + len];
                if ramps.contains(name) {
                    out.insert(name.to_string());
                }
                rest = &rest[name_start + 1..];
            }
        }
    }
    out
}

/// Gives every call in `g` of a ramp in `twins` whose coroutine `g` destroys on every path the
/// frame as an alloca of `g`'s, through the ramp's elided twin. Returns the ramps elided, one per
/// call site.
pub fn elide_calls(g: &mut Function, types: &mut TypeTable, src: &str, twins: &FxHashMap<String, Twin>) -> Vec<String> {
    let mut done = Vec::new();
    if twins.is_empty() {
        return done;
    }
    let calls: Vec<(Inst, String)> = g
        .inst_iter()
        .filter(|&(_, i)| g.insts[i].op == Opcode::Call && g.insts[i].result.is_some())
        .filter_map(|(_, i)| g.callee_name(i, src).filter(|n| twins.contains_key(*n)).map(|n| (i, n.to_string())))
        .collect();
    for (c, ramp) in calls {
        let (Some(h), Some(entry), Some((twin, size, align))) = (g.insts[c].result, g.entry(), twins.get(&ramp)) else {
            continue;
        };
        if !destroyed_on_every_path(g, c, h, src) {
            continue;
        }
        let Extra::Call { callee, nargs, fn_ty } = g.insts[c].extra else { continue };
        // The frame: an alloca at the top of the entry block, live for the whole call of `g`.
        let ty = types.intern(TypeData::Array(*size, types.i8));
        let mut d = InstData::new(Opcode::Alloca, types.ptr, vec![t(&format!("alloca [{size} x i8], align {align}"))]);
        d.extra = Extra::Alloca { ty, align: Some(*align as u32) };
        let a = g.create_inst(types, d);
        let Some(mem) = g.insts[a].result else { continue };
        let name = g.unique_name("coro.elided.frame");
        g.values[mem].name = Some(name);
        g.insert_inst_at(entry, 0, a);
        // The call: the twin as callee, the alloca as one more argument after the others.
        let twin_v = g.const_value(types.ptr, twin);
        let n = nargs as usize;
        let d = &mut g.insts[c];
        let Some(at) = d.tmpl.iter().position(|p| match p {
            Piece::Arg(k) if n > 0 => *k as usize == n - 1,
            Piece::Arg(k) => *k == callee,
            _ => false,
        }) else {
            continue;
        };
        for p in d.tmpl.iter_mut() {
            if let Piece::Arg(k) = p
                && *k as usize >= n
            {
                *k += 1;
            }
        }
        d.args.insert(n, mem);
        if n > 0 {
            d.tmpl.splice(at + 1..at + 1, [t(", ptr "), Piece::Arg(n as u16)]);
        } else {
            // No arguments: the text after the callee opens the list, `(` or `()`.
            let Some(Piece::Text(after)) = d.tmpl.get(at + 1) else { continue };
            let after = after.get(src).to_string();
            let Some(open) = after.find('(') else { continue };
            d.tmpl.splice(at + 1..at + 2, [t(&after[..=open]), t("ptr "), Piece::Arg(0), t(&after[open + 1..])]);
        }
        let callee = callee + 1;
        d.args[callee as usize] = twin_v;
        let fn_ty = match types.get(fn_ty).clone() {
            TypeData::Func { ret, params, vararg } => {
                let mut ps = params.to_vec();
                ps.push(types.ptr);
                types.intern(TypeData::Func { ret, params: ps.into(), vararg })
            }
            _ => fn_ty,
        };
        g.insts[c].extra = Extra::Call { callee, nargs: nargs + 1, fn_ty };
        done.push(ramp);
    }
    done
}

/// Does every path from just after call `c` reach `coro.destroy(h)` before it returns, unwinds
/// out, or comes back to `c`? (A path that ends in `unreachable` never returns, so it counts.)
fn destroyed_on_every_path(g: &Function, c: Inst, h: Value, src: &str) -> bool {
    let Some(cb) = g.insts[c].block else { return false };
    let destroys = |i: Inst| intr_of(g, i, src) == Some(Intr::Destroy) && g.insts[i].call_args().first() == Some(&h);
    let start = g.blocks[cb].insts.iter().position(|&x| x == c).map_or(0, |p| p + 1);
    let mut seen: FxHashSet<Block> = FxHashSet::default();
    let mut work: Vec<(Block, usize)> = vec![(cb, start)];
    while let Some((b, from)) = work.pop() {
        let insts = &g.blocks[b].insts;
        let mut ended = false;
        for &i in insts.iter().skip(from) {
            if destroys(i) {
                ended = true;
                break;
            }
            if i == c {
                return false;
            }
            match g.insts[i].op {
                Opcode::Ret | Opcode::Resume | Opcode::CleanupRet | Opcode::CatchSwitch => return false,
                Opcode::Unreachable => {
                    ended = true;
                    break;
                }
                _ => {}
            }
        }
        if ended {
            continue;
        }
        for &s in g.successors(b) {
            if seen.insert(s) {
                work.push((s, 0));
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `body` as `@caller`, with `@gen` a ramp and `@use` an opaque function, and returns
    /// whether its first call of `@gen` is elided.
    fn elided(body: &str) -> bool {
        let src = format!(
            "declare ptr @gen()\ndeclare void @use(ptr)\ndeclare void @llvm.coro.destroy(ptr)\n\
             define void @caller(i1 %c) {{\n{body}}}\n"
        );
        let m = Module::parse(src).map_err(|e| e.0).expect("parses");
        let i = m.definitions().next().expect("a define");
        let mut types = m.types.clone();
        let mut g = m.parse_function_with(i, &mut types).expect("function");
        let twins: FxHashMap<String, Twin> =
            [("@gen".to_string(), ("@gen.elided".to_string(), 24, 8))].into_iter().collect();
        let src = m.src.clone();
        let out = elide_calls(&mut g, &mut types, &src, &twins);
        if !out.is_empty() {
            let text = llir::print::print_function(&g, &types, &src);
            assert!(text.contains("%coro.elided.frame = alloca [24 x i8], align 8"), "{text}");
            assert!(text.contains("call ptr @gen.elided(ptr %coro.elided.frame)"), "{text}");
            llir::verify::verify_function(&g).expect("verifies");
        }
        !out.is_empty()
    }

    #[test]
    fn destroyed_on_every_path() {
        let straight = "entry:\n  %h = call ptr @gen()\n  call void @use(ptr %h)\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\n";
        assert!(elided(straight));
        // Both arms destroy, and a path that ends in unreachable never returns.
        let arms = "entry:\n  %h = call ptr @gen()\n  br i1 %c, label %a, label %b\na:\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\nb:\n  unreachable\n";
        assert!(elided(arms));
    }

    #[test]
    fn a_path_without_destroy_keeps_the_heap() {
        let one_arm = "entry:\n  %h = call ptr @gen()\n  br i1 %c, label %a, label %b\na:\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\nb:\n  ret void\n";
        assert!(!elided(one_arm));
        // Created again in a loop before the last one is destroyed: one alloca cannot hold both.
        let loop_ = "entry:\n  br label %l\nl:\n  %h = call ptr @gen()\n  br i1 %c, label %l, label %x\nx:\n  call void @llvm.coro.destroy(ptr %h)\n  ret void\n";
        assert!(!elided(loop_));
    }
}
