//! Windows exception handling (funclets) in a coroutine: two rewrites of the CFG before the frame
//! is built, so that every spill and every reload has a place to go. A `catchswitch`'s block holds
//! nothing but its phis and the catchswitch, and an unwind edge cannot take a block of its own, so:
//!
//! - the phis of a catchswitch's block move into a cleanup funclet put in front of it
//!   (`cleanuppad`, then `cleanupret ... unwind label %catchswitch`), where a spill of them can go
//!   after the pad;
//! - a cleanup funclet with phis that a catchswitch unwinds to gets a dispatching pad: the
//!   predecessors unwind to a new block holding the cleanuppad and a switch on which one came, and a
//!   block per predecessor holds that predecessor's incoming values, so that their reloads go at the
//!   end of the dispatching block. (A catchswitch and the pads in it must all unwind to one block,
//!   so the edges themselves cannot be split.)
//!
//! LLVM's CoroFrame rewrites these two shapes the same way; everything else a funclet holds needs
//! nothing: reloads go after a block's pad, and a phi's operands are reloaded before the
//! predecessor's terminator (an `invoke` or a `cleanupret`).

use llir::ir::build::Builder;
use llir::ir::{Block, Function, Inst, Opcode, Value};
use llir::types::TypeTable;

/// Rewrites `f`'s funclets as the module doc says; nothing changes without a catchswitch.
pub fn prepare(f: &mut Function, types: &mut TypeTable) {
    let catchswitch_blocks: Vec<Block> = f
        .layout
        .iter()
        .copied()
        .filter(|&b| f.terminator(b).is_some_and(|t| f.insts[t].op == Opcode::CatchSwitch))
        .collect();
    if catchswitch_blocks.is_empty() {
        return;
    }
    for &b in &catchswitch_blocks {
        if !f.phis(b).is_empty() {
            phis_before_catchswitch(f, types, b);
        }
    }
    // Cleanup funclets with phis that some catchswitch unwinds to.
    let targets: Vec<Block> = f
        .layout
        .iter()
        .copied()
        .filter(|&b| f.terminator(b).is_some_and(|t| f.insts[t].op == Opcode::CatchSwitch))
        .filter_map(|cs| f.successors(cs).last().copied())
        .filter(|&u| !f.phis(u).is_empty() && pad_of(f, u).is_some_and(|p| f.insts[p].op == Opcode::CleanupPad))
        .collect();
    let mut done: Vec<Block> = Vec::new();
    for u in targets {
        if !done.contains(&u) {
            dispatch_cleanup(f, types, u);
            done.push(u);
        }
    }
}

/// The EH pad a block starts with (after its phis), if any.
fn pad_of(f: &Function, b: Block) -> Option<Inst> {
    f.blocks[b].insts.iter().copied().find(|&i| f.insts[i].op != Opcode::Phi).filter(|&i| f.insts[i].op.is_pad())
}

/// The catchswitch of block `b` moves to a block of its own; `b` keeps the phis and becomes a
/// cleanup funclet (with the catchswitch's parent) that unwinds to it.
fn phis_before_catchswitch(f: &mut Function, types: &mut TypeTable, b: Block) {
    let Some(cs) = f.terminator(b) else { return };
    let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == cs) else { return };
    // The parent pad: the catchswitch's token operand, if it has one (`within none` has none).
    let parent = f.insts[cs].args.first().copied();
    let rest = f.split_block(types, b, pos, None);
    if let Some(br) = f.terminator(b) {
        f.remove_inst(br);
    }
    let mut bl = Builder::new(f, types);
    let pad = bl.cleanuppad(parent);
    let pad_v = bl.result(pad);
    let ret = bl.cleanupret(pad_v, rest);
    f.append_inst(b, pad);
    f.append_inst(b, ret);
}

/// Cleanup funclet `u` with phis, which a catchswitch unwinds to: its pad moves to a dispatching
/// block every predecessor now unwinds to, which switches to a block per predecessor holding that
/// predecessor's incoming values, each of which goes on to `u`.
fn dispatch_cleanup(f: &mut Function, types: &mut TypeTable, u: Block) {
    let Some(pad) = pad_of(f, u) else { return };
    let mut preds: Vec<Block> = f.layout.iter().copied().filter(|&p| f.successors(p).contains(&u)).collect();
    preds.dedup();
    let phis = f.phis(u);
    let i8t = types.i8;
    let dispatch = f.create_block(None);
    let unreach = f.create_block(None);
    f.insert_block_after(dispatch, preds.last().copied().unwrap_or(u));
    f.insert_block_after(unreach, dispatch);
    let mut cases: Vec<(Value, Block)> = Vec::new();
    let mut which: Vec<(Value, Block)> = Vec::new();
    for (k, &p) in preds.iter().enumerate() {
        let case = f.create_block(None);
        f.insert_block_after(case, unreach);
        // This predecessor's incoming values, in a phi each of its own block.
        for &phi in &phis {
            let Some(slot) = f.insts[phi].blocks.iter().position(|&x| x == p) else { continue };
            let Some(&v) = f.insts[phi].args.get(slot) else { continue };
            let ty = f.insts[phi].ty;
            let own = Builder::new(f, types).phi(ty, &[(v, dispatch)]);
            f.append_inst(case, own);
            let ov = f.insts[own].result.unwrap_or(v);
            f.insts[phi].args[slot] = ov;
            f.insts[phi].blocks[slot] = case;
        }
        let br = f.create_br(types, u);
        f.append_inst(case, br);
        // The predecessor unwinds to the dispatching block instead.
        if let Some(t) = f.terminator(p) {
            for x in f.insts[t].blocks.iter_mut().filter(|x| **x == u) {
                *x = dispatch;
            }
        }
        let kv = f.const_value(i8t, &k.to_string());
        cases.push((kv, case));
        which.push((kv, p));
    }
    let Some(&(first, _)) = cases.first() else { return };
    let disc = Builder::new(f, types).phi(i8t, &which);
    f.append_inst(dispatch, disc);
    f.remove_inst(pad);
    f.append_inst(dispatch, pad);
    let dv = f.insts[disc].result.unwrap_or(first);
    let sw = Builder::new(f, types).switch(dv, unreach, &cases);
    f.append_inst(dispatch, sw);
    let un = Builder::new(f, types).unreachable();
    f.append_inst(unreach, un);
}

#[cfg(test)]
mod tests {
    use super::*;
    use llir::Module;

    /// `body` as `@f` (with Windows EH's personality), prepared, printed and verified.
    fn prepared(body: &str) -> String {
        let src = format!(
            "declare void @g(i32)\ndeclare i32 @__CxxFrameHandler3(...)\n\
             define void @f(i32 %n) personality ptr @__CxxFrameHandler3 {{\n{body}}}\n"
        );
        let m = Module::parse(src).map_err(|e| e.0).expect("parses");
        let i = m.definitions().find(|&i| m.item_name(i) == "@f").expect("@f");
        let mut types = m.types.clone();
        let mut f = m.parse_function_with(i, &mut types).expect("function");
        prepare(&mut f, &mut types);
        llir::verify::verify_function(&f).expect("verifies");
        llir::print::print_function(&f, &types, &m.src)
    }

    const UNWIND_TWICE: &str = "entry:\n  invoke void @g(i32 1)\n          to label %next unwind label %cs.block\n\
        next:\n  %m = add i32 %n, 1\n  invoke void @g(i32 2)\n          to label %out unwind label %cs.block\n";

    #[test]
    fn phis_of_a_catchswitch_block_move_to_a_cleanup_in_front_of_it() {
        let body = format!(
            "{UNWIND_TWICE}cs.block:\n  %v = phi i32 [ %n, %entry ], [ %m, %next ]\n  \
             %cs = catchswitch within none [label %h] unwind to caller\n\
             h:\n  %cp = catchpad within %cs [ptr null, i32 64, ptr null]\n  \
             call void @g(i32 %v) [ \"funclet\"(token %cp) ]\n  catchret from %cp to label %out\n\
             out:\n  ret void\n"
        );
        let text = prepared(&body);
        let phi_block = text.split("\n\n").find(|b| b.contains("%v = phi")).expect("the phi's block");
        assert!(phi_block.contains("cleanuppad within none []"), "{text}");
        assert!(phi_block.contains("cleanupret from"), "{text}");
        let cs_block = text.split("\n\n").find(|b| b.contains("= catchswitch")).expect("the catchswitch's block");
        assert!(!cs_block.contains("phi"), "the catchswitch's block keeps no phi:\n{text}");
    }

    #[test]
    fn a_cleanup_with_phis_a_catchswitch_unwinds_to_gets_a_dispatching_pad() {
        let body = format!(
            "{UNWIND_TWICE}cs.block:\n  %cs = catchswitch within none [label %h] unwind label %cl.block\n\
             h:\n  %cp = catchpad within %cs [ptr null, i32 64, ptr null]\n  catchret from %cp to label %out\n\
             cl.block:\n  %w = phi i32 [ %n, %cs.block ]\n  %cl = cleanuppad within none []\n  \
             call void @g(i32 %w) [ \"funclet\"(token %cl) ]\n  cleanupret from %cl unwind to caller\n\
             out:\n  ret void\n"
        );
        let text = prepared(&body);
        let dispatch = text.split("\n\n").find(|b| b.contains("%cl = cleanuppad")).expect("the pad's block");
        assert!(dispatch.contains("switch i8"), "the pad's block dispatches:\n{text}");
        let w = text.split("\n\n").find(|b| b.contains("%w = phi")).expect("the phi's block");
        assert!(!w.contains("cleanuppad"), "the phi's block is no longer the pad:\n{text}");
    }

    #[test]
    fn nothing_changes_without_a_catchswitch() {
        let body = "entry:\n  invoke void @g(i32 1)\n          to label %out unwind label %cl.block\n\
                    cl.block:\n  %cl = cleanuppad within none []\n  cleanupret from %cl unwind to caller\n\
                    out:\n  ret void\n";
        let text = prepared(body);
        let lines: Vec<&str> =
            text.lines().filter(|l| !l.is_empty() && !l.starts_with("define") && *l != "}").collect();
        assert_eq!(lines, body.lines().collect::<Vec<_>>(), "{text}");
    }
}
