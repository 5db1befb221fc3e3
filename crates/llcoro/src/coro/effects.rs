//! Code with no effect a program could see. `elide` asks two questions of it before it destroys an
//! elided frame: does the coroutine's `.cleanup` do nothing (its frame holds nothing to destroy at
//! any suspend), and does the method that destroys the frame do nothing else (a task's destructor
//! testing its handle and destroying it)? When both hold, the destroy goes, as LLVM's CoroElide
//! removes the destroy of an elided frame whose cleanup is empty; otherwise -O2 is left a switch on
//! the child's suspend index whose cases store and call, on every resume of the parent.

use crate::coro::intrinsics::{Intr, intr_of};
use llir::ir::{Block, Extra, Function, Inst, Opcode, Piece};
use rustc_hash::FxHashSet;

/// What one instruction does, for these questions.
enum Act<'s> {
    /// Nothing another function could see: arithmetic, reads, its own allocas, control flow,
    /// debug and lifetime intrinsics.
    Quiet,
    /// A direct call of `name`, a function that is no intrinsic.
    Calls(&'s str),
    /// `llvm.coro.destroy`.
    Destroys,
    /// Anything else: a store to memory others see, an unknown call, an `invoke`, atomics.
    Seen,
}

fn act<'s>(f: &'s Function, i: Inst, src: &'s str) -> Act<'s> {
    let d = &f.insts[i];
    let plain = || !spells(f, i, src, &["volatile", "atomic"]);
    let own_alloca =
        |k: usize| d.args.get(k).and_then(|&p| f.value_inst(p)).is_some_and(|a| f.insts[a].op == Opcode::Alloca);
    match d.op {
        _ if d.is_debug() => Act::Quiet,
        Opcode::Load if plain() => Act::Quiet,
        Opcode::Store if plain() && own_alloca(1) => Act::Quiet,
        Opcode::Alloca
        | Opcode::GetElementPtr
        | Opcode::ICmp
        | Opcode::Phi
        | Opcode::Select
        | Opcode::Freeze
        | Opcode::Br
        | Opcode::Switch
        | Opcode::Ret
        | Opcode::Unreachable
        | Opcode::ExtractValue
        | Opcode::InsertValue
        | Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Shl
        | Opcode::LShr
        | Opcode::AShr
        | Opcode::Trunc
        | Opcode::ZExt
        | Opcode::SExt
        | Opcode::PtrToInt
        | Opcode::IntToPtr
        | Opcode::BitCast
        | Opcode::AddrSpaceCast
        | Opcode::DbgRecord => Act::Quiet,
        Opcode::Call | Opcode::Invoke => match f.callee_name(i, src) {
            _ if intr_of(f, i, src) == Some(Intr::Destroy) => Act::Destroys,
            Some(n) if ["@llvm.dbg.", "@llvm.lifetime.", "@llvm.assume"].iter().any(|p| n.starts_with(p)) => Act::Quiet,
            Some(n) if !n.starts_with("@llvm.") => Act::Calls(n),
            _ => Act::Seen,
        },
        _ => Act::Seen,
    }
}

/// Whether the text of instruction `i` has one of `words` as a word (`load volatile`).
fn spells(f: &Function, i: Inst, src: &str, words: &[&str]) -> bool {
    f.insts[i].tmpl.iter().any(|p| match p {
        Piece::Text(t) => {
            t.get(src).split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| words.contains(&w))
        }
        _ => false,
    })
}

/// The blocks that can run from the entry, a branch on `icmp eq`/`ne` of two `null`s taking its
/// one successor (a `.cleanup` replaced `coro.free` by null, so its `if (mem) free(mem)` never
/// runs), and whether a path can come back to a block it passed (a loop). With `no_unwind`, an
/// `invoke` only goes to its normal destination.
fn running_blocks(f: &Function, src: &str, no_unwind: bool) -> (Vec<Block>, bool) {
    let Some(entry) = f.entry() else { return (Vec::new(), false) };
    let decided = |b: Block| -> Option<Block> {
        let t = f.terminator(b)?;
        let d = &f.insts[t];
        if no_unwind && d.op == Opcode::Invoke {
            return d.blocks.first().copied();
        }
        let (Opcode::Br, [c], [yes, no]) = (d.op, d.args.as_slice(), d.blocks.as_slice()) else { return None };
        let ci = f.value_inst(*c)?;
        let (Extra::Cmp { pred }, [x, y]) = (&f.insts[ci].extra, f.insts[ci].args.as_slice()) else { return None };
        let null = |v| f.const_text(v, src) == Some("null");
        if !(null(*x) && null(*y)) {
            return None;
        }
        match pred.as_str() {
            "eq" => Some(*yes),
            "ne" => Some(*no),
            _ => None,
        }
    };
    let succs = |b: Block| -> Vec<Block> { decided(b).map_or_else(|| f.successors(b).to_vec(), |s| vec![s]) };
    // Depth first, with the blocks on the current path: an edge to one of them closes a loop.
    let (mut seen, mut on_path) = (FxHashSet::default(), FxHashSet::default());
    let mut order = vec![entry];
    let mut stack = vec![(entry, succs(entry), 0usize)];
    seen.insert(entry);
    on_path.insert(entry);
    let mut cycle = false;
    while let Some((b, next, k)) = stack.last_mut() {
        let Some(&s) = next.get(*k) else {
            on_path.remove(b);
            stack.pop();
            continue;
        };
        *k += 1;
        cycle |= on_path.contains(&s);
        if seen.insert(s) {
            order.push(s);
            on_path.insert(s);
            stack.push((s, succs(s), 0));
        }
    }
    (order, cycle)
}

/// Does `part` do nothing a program could see, on any path it can take? A `.cleanup` whose frame
/// holds nothing to destroy at any suspend: a switch on the index into blocks that only return.
pub fn does_nothing(part: &Function, src: &str) -> bool {
    let (blocks, _) = running_blocks(part, src, false);
    blocks.iter().all(|&b| part.blocks[b].insts.iter().all(|&i| matches!(act(part, i, src), Act::Quiet)))
}

/// What function body `f` does when it does nothing a program could see but destroy coroutines and
/// call other functions: the functions it calls (once per call, whether or not a path runs it)
/// and how many `llvm.coro.destroy` calls it has. `None` when it does something else or has a
/// loop (a call in a loop runs any number of times).
///
/// For a caller that destroys a frame whose `.cleanup` does nothing: then no call here can throw
/// (each does nothing but call such functions and destroy), so an `invoke`'s unwind destination
/// (a `noexcept` destructor's terminate pad) never runs and is not looked at.
pub fn destroys_and_calls<'s>(f: &'s Function, src: &'s str) -> Option<(Vec<&'s str>, u32)> {
    let (blocks, cycle) = running_blocks(f, src, true);
    if cycle {
        return None;
    }
    let (mut calls, mut destroys) = (Vec::new(), 0);
    for &b in &blocks {
        for &i in &f.blocks[b].insts {
            match act(f, i, src) {
                Act::Quiet => {}
                Act::Calls(n) => calls.push(n),
                Act::Destroys => destroys += 1,
                Act::Seen => return None,
            }
        }
    }
    Some((calls, destroys))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_function(text: &str) -> (Function, String) {
        let m = llir::Module::parse(text.to_string()).map_err(|e| e.0).expect("parses");
        let mut types = m.types.clone();
        let i = m.definitions().next().expect("a definition");
        let f = m.parse_function_with(i, &mut types).expect("body parses");
        (f, m.src.clone())
    }

    const CLEANUP: &str = "define internal fastcc void @f.cleanup(ptr %hdl) {\nentry:\n  %a = alloca i32, align 4\n  \
        %p = getelementptr inbounds i8, ptr %hdl, i64 16\n  %i = load i2, ptr %p, align 1\n  \
        switch i2 %i, label %u [\n    i2 0, label %x\n    i2 1, label %y\n  ]\n\
        x:\n  br label %z\ny:\n  BODY\n  br label %z\n\
        z:\n  %c = icmp ne ptr null, null\n  br i1 %c, label %free, label %done\n\
        free:\n  call void @free(ptr null)\n  br label %done\n\
        done:\n  ret void\nu:\n  unreachable\n}\n\
        declare void @free(ptr)\ndeclare void @g(ptr)\ndeclare void @llvm.lifetime.end.p0(i64, ptr)\n";

    #[test]
    fn a_cleanup_with_nothing_to_destroy_does_nothing() {
        let (f, src) = first_function(&CLEANUP.replace("BODY", "call void @llvm.lifetime.end.p0(i64 4, ptr %a)"));
        assert!(does_nothing(&f, &src));
    }

    #[test]
    fn a_call_or_a_store_to_the_frame_is_seen() {
        let (f, src) = first_function(&CLEANUP.replace("BODY", "call void @g(ptr %hdl)"));
        assert!(!does_nothing(&f, &src));
        let (f, src) = first_function(&CLEANUP.replace("BODY", "store i32 0, ptr %hdl, align 4"));
        assert!(!does_nothing(&f, &src));
        // A store to its own alloca is not.
        let (f, src) = first_function(&CLEANUP.replace("BODY", "store i32 0, ptr %a, align 4"));
        assert!(does_nothing(&f, &src));
        // A free that can run is seen.
        let (f, src) = first_function(
            &CLEANUP.replace("BODY", "br label %free\nw:").replace("icmp ne ptr null, null", "icmp ne ptr %hdl, null"),
        );
        assert!(!does_nothing(&f, &src));
    }

    const DTOR: &str = "define linkonce_odr void @dtor(ptr %this) {\nentry:\n  %t = alloca ptr, align 8\n  \
        store ptr %this, ptr %t, align 8\n  %this1 = load ptr, ptr %t, align 8\n  %h = load ptr, ptr %this1, align 8\n  \
        %nz = icmp ne ptr %h, null\n  br i1 %nz, label %d, label %e\n\
        d:\n  BODY\n  br label %e\ne:\n  ret void\n}\n\
        declare void @llvm.coro.destroy(ptr)\ndeclare void @handle_destroy(ptr)\n";

    #[test]
    fn a_destructor_destroys_and_calls() {
        let (f, src) = first_function(&DTOR.replace("BODY", "call void @llvm.coro.destroy(ptr %h)"));
        assert_eq!(destroys_and_calls(&f, &src), Some((vec![], 1)));
        let (f, src) = first_function(&DTOR.replace("BODY", "call void @handle_destroy(ptr %h)"));
        assert_eq!(destroys_and_calls(&f, &src), Some((vec!["@handle_destroy"], 0)));
    }

    #[test]
    fn a_destructor_that_writes_its_object_or_loops_does_more() {
        let (f, src) = first_function(&DTOR.replace("BODY", "store ptr null, ptr %this1, align 8"));
        assert_eq!(destroys_and_calls(&f, &src), None);
        let (f, src) = first_function(
            &DTOR.replace("BODY", "call void @llvm.coro.destroy(ptr %h)\n  br i1 %nz, label %d, label %e\nq:"),
        );
        assert_eq!(destroys_and_calls(&f, &src), None);
    }
}
