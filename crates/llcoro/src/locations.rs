//! Debug locations for the instructions a lowering creates. In a function with debug info, a call
//! without a location is refused by LLVM's verifier once its callee is known to be inlinable, and
//! inlining one (say after -O2 devirtualises a resume through the frame) copies the callee's
//! locations without an `inlinedAt`, so that they point at the wrong subprogram (clang's optimised
//! builds then crash writing DWARF). So every instruction llcoro makes gets the location of the
//! code it stands for: the nearest located instruction before it in its block, else after it,
//! else the first one of the blocks it leads to, or any in the function; and
//! when the function has none at all, a new line-0 location in its own subprogram.

use llir::ir::{Block, DebugView, Function, Inst, Opcode, Piece};
use rustc_hash::FxHashSet;

/// The location of instruction `i` as its metadata number (`!dbg !N`), if it has one.
pub fn location_of(f: &Function, i: Inst, src: &str) -> Option<u32> {
    if f.added_locations[i] != 0 {
        return Some(f.added_locations[i]);
    }
    // Attachments follow the last operand: they are in the template's last text piece.
    f.insts[i]
        .tmpl
        .iter()
        .rev()
        .find_map(|p| match p {
            Piece::Text(t) => Some(t),
            _ => None,
        })
        .and_then(|t| attached_location(t.get(src)))
}

/// `N` of the `, !dbg !N` attachment in `text`, however it is spaced.
fn attached_location(text: &str) -> Option<u32> {
    let (_, node) = llir::metadata::find_attachment(text, "!dbg")?;
    text.get(node)?.strip_prefix('!')?.parse().ok()
}

/// Does this instruction take a `!dbg` attachment? Phis and debug records do not.
fn locatable(f: &Function, i: Inst) -> bool {
    let d = &f.insts[i];
    !d.is_debug() && d.op != Opcode::Phi
}

/// Is `i` an instruction the lowering made (it has no place in the source) that lacks a location?
fn unlocated(f: &Function, i: Inst, src: &str) -> bool {
    f.insts[i].span.end == 0 && locatable(f, i) && location_of(f, i, src).is_none()
}

/// For each instruction of `b` the lowering made without a location, the nearest location in the
/// block: the last one before it, else the first one after it (`None` when the block has none).
/// Each instruction's location is read at most once, so long blocks of spills cost their length.
fn within_block(f: &Function, b: Block, src: &str) -> Vec<(Inst, Option<u32>)> {
    let insts = &f.blocks[b].insts;
    let mut out: Vec<(Inst, Option<u32>)> = Vec::new();
    let (mut last, mut read_to) = (None, 0);
    for (k, &i) in insts.iter().enumerate() {
        if !unlocated(f, i, src) {
            continue;
        }
        // The nearest location since the last one read, looking back from here.
        if let Some(n) = insts.get(read_to..k).and_then(|run| run.iter().rev().find_map(|&x| location_of(f, x, src))) {
            last = Some(n);
        }
        read_to = k;
        out.push((i, last));
    }
    // Those before the block's first location take it.
    if let Some(&(i, None)) = out.iter().rev().find(|x| x.1.is_none()) {
        let pos = insts.iter().position(|&x| x == i).unwrap_or(0);
        let after = insts.get(pos + 1..).and_then(|run| run.iter().find_map(|&x| location_of(f, x, src)));
        for x in out.iter_mut().filter(|x| x.1.is_none()) {
            x.1 = after;
        }
    }
    out
}

/// The location nearest to block `b` when it has none of its own: the first one of the blocks it
/// leads to (breadth first: a part's dispatch leads to the code it resumes), else `anywhere`.
fn around_block(f: &Function, b: Block, src: &str, anywhere: &mut Option<Option<u32>>) -> Option<u32> {
    let first = |x: Block| f.blocks[x].insts.iter().find_map(|&i| location_of(f, i, src));
    let mut seen: FxHashSet<Block> = FxHashSet::default();
    let mut work = vec![b];
    seen.insert(b);
    while !work.is_empty() && seen.len() < 256 {
        let mut next = Vec::new();
        for x in work {
            for &s in f.successors(x) {
                if seen.insert(s) {
                    if let Some(n) = first(s) {
                        return Some(n);
                    }
                    next.push(s);
                }
            }
        }
        work = next;
    }
    *anywhere.get_or_insert_with(|| f.layout.iter().find_map(|&x| first(x)))
}

/// The subprogram of a function's header (`!dbg !N` in what follows its parameters).
fn subprogram(f: &Function, src: &str) -> Option<u32> {
    crate::coro::debug::header_subprogram(f.header.suffix.get(src))
}

/// Gives every instruction `f` has that the lowering made a location, in a function with debug
/// info. `next_meta` numbers a new location node when the function has none to borrow; its
/// definition is returned.
pub fn locate_created(f: &mut Function, src: &str, next_meta: &mut u32) -> Option<String> {
    if matches!(f.debug_view, DebugView::WithoutLocations) {
        return None;
    }
    let sp = subprogram(f, src)?;
    let mut anywhere = None;
    let mut new_node = None;
    let blocks = f.layout.clone();
    for b in blocks {
        let todo = within_block(f, b, src);
        let Some(&(_, first)) = todo.first() else { continue };
        // Within a block, either every instruction found a location or none did.
        let fallback = match first {
            Some(_) => None,
            None => around_block(f, b, src, &mut anywhere),
        };
        for (i, n) in todo {
            let n = n.or(fallback).unwrap_or_else(|| {
                *new_node.get_or_insert_with(|| {
                    let id = *next_meta;
                    *next_meta += 1;
                    id
                })
            });
            f.added_locations[i] = n;
        }
    }
    // A new node is numbered above the module's own, so a part's renumbering leaves it alone, and
    // its scope is the function's subprogram as printed.
    new_node.map(|id| format!("!{id} = !DILocation(line: 0, scope: !{sp})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use llir::Module;
    use llir::ir::build::Builder;

    fn parse(src: &str) -> (Module, Function) {
        let mut m = Module::parse(src.to_string()).map_err(|e| e.0).expect("parses");
        let i = m.definitions().next().expect("a define");
        let f = m.parse_function(i).expect("function");
        (m, f)
    }

    #[test]
    fn a_created_call_takes_the_location_before_it_else_after_it() {
        let src = "define void @f(ptr %p) !dbg !4 {\nentry:\n  call void @g(), !dbg !6\n  br label %l\nl:\n  store i32 1, ptr %p\n  call void @g(), !dbg !7\n  ret void\n}\ndeclare void @g()\n!4 = distinct !DISubprogram(name: \"f\")\n!6 = !DILocation(line: 3, scope: !4)\n!7 = !DILocation(line: 4, scope: !4)\n";
        let (mut m, mut f) = parse(src);
        let entry = f.entry().expect("entry");
        let l = f.layout[1];
        let g = f.const_value(m.types.ptr, "@g");
        let void = m.types.void;
        let c1 = Builder::new(&mut f, &mut m.types).call("", "", void, g, &[]);
        let c2 = Builder::new(&mut f, &mut m.types).call("", "", void, g, &[]);
        let first = f.blocks[entry].insts[0];
        let store = f.blocks[l].insts[0];
        f.insert_inst_before(f.blocks[entry].insts[1], c1);
        f.insert_inst_before(store, c2);
        let mut next = 100;
        assert_eq!(locate_created(&mut f, &m.src, &mut next), None);
        assert_eq!(location_of(&f, c1, &m.src), Some(6), "the call before it");
        assert_eq!(location_of(&f, c2, &m.src), Some(7), "nothing before it in its block: the next");
        assert_eq!(location_of(&f, store, &m.src), None, "the input's own instructions are left alone");
        assert_eq!(location_of(&f, first, &m.src), Some(6));
        assert_eq!(next, 100);
    }

    /// `src`'s function with a new call of `@g` as the first instruction of its entry block.
    fn with_new_call_at_entry(src: &str) -> (Module, Function, Inst) {
        let (mut m, mut f) = parse(src);
        let entry = f.entry().expect("entry");
        let g = f.const_value(m.types.ptr, "@g");
        let void = m.types.void;
        let c = Builder::new(&mut f, &mut m.types).call("", "", void, g, &[]);
        f.insert_inst_before(f.blocks[entry].insts[0], c);
        (m, f, c)
    }

    #[test]
    fn a_function_without_locations_gets_a_new_one_in_its_subprogram() {
        let src = "define void @f() !dbg !4 {\nentry:\n  ret void\n}\ndeclare void @g()\n!4 = distinct !DISubprogram(name: \"f\")\n";
        let (m, mut f, c) = with_new_call_at_entry(src);
        let mut next = 100;
        let def = locate_created(&mut f, &m.src, &mut next);
        assert_eq!(def.as_deref(), Some("!100 = !DILocation(line: 0, scope: !4)"));
        assert_eq!(location_of(&f, c, &m.src), Some(100));
        assert_eq!(next, 101);
    }

    #[test]
    fn functions_without_debug_info_are_left_alone() {
        let src = "define void @f() {\nentry:\n  ret void\n}\ndeclare void @g()\n";
        let (m, mut f, c) = with_new_call_at_entry(src);
        let mut next = 100;
        assert_eq!(locate_created(&mut f, &m.src, &mut next), None);
        assert_eq!(location_of(&f, c, &m.src), None);
    }
}
