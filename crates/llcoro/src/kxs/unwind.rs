//! Which suspend markers run while an exception is being handled (`kxs-marker-in-unwind`).
//!
//! A suspend there would return with the exception still caught (Itanium C++ keeps it on the
//! thread's caught-exceptions stack until `__cxa_end_catch`), so the next coroutine the thread runs
//! sees it as its own. Handling starts at a pad (`landingpad`, `catchpad`, `cleanuppad`) and ends
//! where its handler does: a call of `__cxa_end_catch`, a `catchret` or `cleanupret`, or a `resume`
//! (the exception leaves the function). Handlers nest: a pad reached while handling (a call in a
//! `catch` block that throws) needs its own end before the outer handler's.
//!
//! A marker is refused when it is reached from a pad before the handler ends, and no path from the
//! entry reaches its block without passing through a pad. A `catch` handler's dispatch block may
//! have any number of landing pads before it (one per throwing call of the `try`), so no single
//! pad dominates the handler: the walk goes forward from every pad instead. Code after a handler
//! ended may suspend, even where only a pad leads to it (a `try` whose body always throws).

use llir::ir::{Block, Function, Inst, Opcode};
use rustc_hash::FxHashSet;

/// The C++ runtime call that ends a `catch` handler.
const END_CATCH: &str = "@__cxa_end_catch";

/// Nesting deeper than this counts as this deep (a bound for the walk on odd input; ending a
/// handler then may leave the walk believing one is still open, which only refuses more).
const MAX_DEPTH: u8 = 8;

fn is_pad(op: Opcode) -> bool {
    matches!(op, Opcode::LandingPad | Opcode::CatchPad | Opcode::CleanupPad | Opcode::CatchSwitch)
}

/// Does `b` start with a pad (after its phis)?
fn starts_with_pad(f: &Function, b: Block) -> bool {
    f.blocks[b].insts.iter().map(|&i| f.insts[i].op).find(|&op| op != Opcode::Phi).is_some_and(is_pad)
}

/// The instructions `is_marker` picks that run while an exception is being handled, in no order.
pub fn markers_in_handlers(f: &Function, src: &str, is_marker: &dyn Fn(Inst) -> bool) -> FxHashSet<Inst> {
    let pads: Vec<Block> = f.layout.iter().copied().filter(|&b| starts_with_pad(f, b)).collect();
    let mut flagged = FxHashSet::default();
    if pads.is_empty() {
        return flagged;
    }
    let normal = reached_without_pads(f);
    let mut seen: FxHashSet<(Block, u8)> = FxHashSet::default();
    let mut work: Vec<(Block, u8)> = pads.iter().map(|&p| (p, 0)).collect();
    while let Some((b, depth)) = work.pop() {
        if !seen.insert((b, depth)) {
            continue;
        }
        let Some(out) = walk_block(f, src, b, depth, is_marker, &mut |i| {
            if !normal.contains(&b) {
                flagged.insert(i);
            }
        }) else {
            continue;
        };
        work.extend(f.successors(b).iter().map(|&s| (s, out)));
    }
    flagged
}

/// Goes through `b` entered with `depth` handlers open, reporting each marker met while one is
/// open. Returns the depth its successors are entered with, or `None` when no handler is open
/// there (or the exception left the function).
fn walk_block(
    f: &Function,
    src: &str,
    b: Block,
    mut depth: u8,
    is_marker: &dyn Fn(Inst) -> bool,
    report: &mut dyn FnMut(Inst),
) -> Option<u8> {
    for &i in &f.blocks[b].insts {
        let op = f.insts[i].op;
        match op {
            Opcode::LandingPad | Opcode::CatchPad | Opcode::CleanupPad => depth = (depth + 1).min(MAX_DEPTH),
            Opcode::CatchRet | Opcode::CleanupRet => depth = depth.saturating_sub(1),
            Opcode::Resume => return None,
            Opcode::Call | Opcode::Invoke if f.callee_name(i, src) == Some(END_CATCH) => {
                depth = depth.saturating_sub(1);
            }
            _ if depth > 0 && is_marker(i) => report(i),
            _ => {}
        }
        if depth == 0 && op != Opcode::CatchSwitch && op != Opcode::Phi {
            return None;
        }
    }
    (depth > 0).then_some(depth)
}

/// The blocks some path from the entry reaches without entering a block that starts with a pad.
fn reached_without_pads(f: &Function) -> FxHashSet<Block> {
    let mut seen = FxHashSet::default();
    let mut work: Vec<Block> = f.entry().into_iter().collect();
    while let Some(b) = work.pop() {
        if starts_with_pad(f, b) || !seen.insert(b) {
            continue;
        }
        work.extend(f.successors(b).iter().copied());
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::markers_in_handlers;
    use llir::Module;
    use llir::types::TypeTable;

    const HEAD: &str = "declare void @__kxs_suspend_point(i32)\ndeclare void @g()\ndeclare ptr @__cxa_begin_catch(ptr)\n\
                        declare void @__cxa_end_catch()\ndeclare i32 @__gxx_personality_v0(...)\n";

    /// The ids of the markers of `body` (the only function) found in handlers, sorted.
    fn flagged(body: &str) -> Vec<i128> {
        let text = format!("{HEAD}define void @f(i1 %c) personality ptr @__gxx_personality_v0 {{\n{body}}}\n");
        let m = Module::parse(text).map_err(|e| e.0).expect("parses");
        let mut types: TypeTable = m.types.clone();
        let i = m.definitions().next().expect("a define");
        let f = m.parse_function_with(i, &mut types).expect("function");
        let src = m.src.clone();
        let is_marker = |i| f.callee_name(i, &src) == Some("@__kxs_suspend_point");
        let mut ids: Vec<i128> = markers_in_handlers(&f, &src, &is_marker)
            .into_iter()
            .filter_map(|i| f.insts[i].call_args().first().and_then(|&v| f.const_int(v, &src)))
            .collect();
        ids.sort();
        ids
    }

    /// A `try` with two throwing calls: the handler's dispatch has two landing pads before it,
    /// neither of which dominates it. The marker in the handler is found; the one after it (the
    /// handler ended) and the one in the `try` are not.
    #[test]
    fn a_handler_after_two_landing_pads() {
        let body = "entry:\n  invoke void @g() to label %next unwind label %lp1\n\
                    next:\n  call void @__kxs_suspend_point(i32 1)\n  invoke void @g() to label %done unwind label %lp2\n\
                    lp1:\n  %a = landingpad { ptr, i32 } catch ptr null\n  br label %dispatch\n\
                    lp2:\n  %b = landingpad { ptr, i32 } catch ptr null\n  br label %dispatch\n\
                    dispatch:\n  %e = phi { ptr, i32 } [ %a, %lp1 ], [ %b, %lp2 ]\n  %x = extractvalue { ptr, i32 } %e, 0\n  \
                    %o = call ptr @__cxa_begin_catch(ptr %x)\n  call void @__kxs_suspend_point(i32 2)\n  \
                    call void @__cxa_end_catch()\n  call void @__kxs_suspend_point(i32 3)\n  br label %done\n\
                    done:\n  call void @__kxs_suspend_point(i32 4)\n  ret void\n";
        assert_eq!(flagged(body), vec![2]);
    }

    /// Code after a handler that only a landing pad leads to (the `try` always throws) may suspend;
    /// a marker in the cleanup that leaves by `resume` may not.
    #[test]
    fn after_the_handler_and_in_a_cleanup() {
        let body = "entry:\n  invoke void @g() to label %never unwind label %lp\n\
                    never:\n  unreachable\n\
                    lp:\n  %a = landingpad { ptr, i32 } cleanup catch ptr null\n  br i1 %c, label %catch, label %clean\n\
                    catch:\n  %x = extractvalue { ptr, i32 } %a, 0\n  %o = call ptr @__cxa_begin_catch(ptr %x)\n  \
                    call void @__cxa_end_catch()\n  br label %after\n\
                    after:\n  call void @__kxs_suspend_point(i32 1)\n  ret void\n\
                    clean:\n  call void @__kxs_suspend_point(i32 2)\n  resume { ptr, i32 } %a\n";
        assert_eq!(flagged(body), vec![2]);
    }

    /// A `try`/`catch` inside a handler: the inner handler's end leaves the outer one open.
    #[test]
    fn nested_handlers() {
        let body = "entry:\n  invoke void @g() to label %done unwind label %lp\n\
                    lp:\n  %a = landingpad { ptr, i32 } catch ptr null\n  %x = extractvalue { ptr, i32 } %a, 0\n  \
                    %o = call ptr @__cxa_begin_catch(ptr %x)\n  invoke void @g() to label %inner.done unwind label %lp2\n\
                    lp2:\n  %b = landingpad { ptr, i32 } catch ptr null\n  %y = extractvalue { ptr, i32 } %b, 0\n  \
                    %p = call ptr @__cxa_begin_catch(ptr %y)\n  call void @__cxa_end_catch()\n  br label %inner.done\n\
                    inner.done:\n  call void @__kxs_suspend_point(i32 1)\n  call void @__cxa_end_catch()\n  br label %done\n\
                    done:\n  call void @__kxs_suspend_point(i32 2)\n  ret void\n";
        assert_eq!(flagged(body), vec![1]);
    }
}
