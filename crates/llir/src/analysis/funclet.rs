//! Windows EH funclets: which funclet each block runs in, and the `"funclet"` operand bundle that
//! every call in a funclet must name its pad with. Code generation (WinEHPrepare) turns a call whose
//! bundle does not match its funclet into `unreachable`, so a pass that makes or moves calls needs
//! both.

use crate::ir::edit::t;
use crate::ir::{Block, Function, Inst, Opcode, Piece, Text, Value};
use cranelift_entity::SecondaryMap;

/// The pad of the funclet each block runs in (`None`: the function's own body), found by walking
/// from the entry: a block that starts with a pad is that pad's funclet, `catchret` returns to the
/// funclet its catchswitch is in, and every other edge stays in its funclet. A block reached from
/// two funclets has both.
pub fn colors(f: &Function, entry: Block) -> SecondaryMap<Block, Vec<Option<Value>>> {
    let mut colors: SecondaryMap<Block, Vec<Option<Value>>> = SecondaryMap::new();
    let mut work = vec![(entry, None)];
    while let Some((b, c)) = work.pop() {
        if colors[b].contains(&c) {
            continue;
        }
        colors[b].push(c);
        let Some(t) = f.terminator(b) else { continue };
        let td = &f.insts[t];
        for &s in &td.blocks {
            let first = f.blocks[s].insts.iter().copied().find(|&x| f.insts[x].op != Opcode::Phi);
            let next = match first.map(|x| (x, f.insts[x].op)) {
                Some((x, Opcode::CleanupPad | Opcode::CatchPad)) => f.insts[x].result,
                // A catchswitch's block runs no code; its handlers are funclets of their own.
                Some((_, Opcode::CatchSwitch)) => c,
                _ if td.op == Opcode::CatchRet => catchret_parent(f, t),
                _ => c,
            };
            work.push((s, next));
        }
    }
    colors
}

/// The funclet a `catchret` returns to: that of its catchpad's catchswitch (its parent pad).
fn catchret_parent(f: &Function, catchret: Inst) -> Option<Value> {
    let pad = f.value_inst(*f.insts[catchret].args.first()?)?;
    let cs = f.value_inst(*f.insts[pad].args.first()?)?;
    (f.insts[cs].op == Opcode::CatchSwitch).then(|| f.insts[cs].args.first().copied()).flatten()
}

/// The pad a call's `"funclet"` operand bundle names, if it has one.
pub fn bundle(f: &Function, i: Inst, src: &str) -> Option<Value> {
    let tmpl = &f.insts[i].tmpl;
    let at = tmpl.iter().position(|p| matches!(p, Piece::Text(t) if t.get(src).contains("\"funclet\"")))?;
    tmpl.iter().skip(at + 1).find_map(|p| match p {
        Piece::Arg(k) => f.insts[i].args.get(*k as usize).copied(),
        _ => None,
    })
}

/// Calls exempt from the bundle rule, as in LLVM: `llvm.*` intrinsics and inline asm.
pub fn exempt(f: &Function, i: Inst, src: &str) -> bool {
    f.callee_name(i, src).is_some_and(|n| n.starts_with("@llvm."))
        || f.insts[i].tmpl.iter().any(|p| matches!(p, Piece::Text(t) if t.get(src).contains(" asm ")))
}

/// Gives call or invoke `i` a `"funclet"` bundle naming `pad`, after its argument list (its last
/// own `)` piece, where the builder's calls end their arguments).
pub fn add_bundle(f: &mut Function, i: Inst, pad: Value) {
    let d = &mut f.insts[i];
    let Some(at) = d.tmpl.iter().rposition(|p| matches!(p, Piece::Text(Text::Own(s)) if &***s == ")")) else { return };
    let k = d.args.len() as u16;
    d.args.push(pad);
    let mut v = d.tmpl.to_vec();
    v.splice(at + 1..at + 1, [t(" [ \"funclet\"(token "), Piece::Arg(k), t(") ]")]);
    d.tmpl = v.into();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Module;

    const SRC: &str = "declare void @g()\ndeclare i32 @__CxxFrameHandler3(...)\n\
        define void @f() personality ptr @__CxxFrameHandler3 {\n\
        entry:\n  invoke void @g()\n          to label %out unwind label %cs.block\n\
        cs.block:\n  %cs = catchswitch within none [label %h] unwind to caller\n\
        h:\n  %cp = catchpad within %cs [ptr null, i32 64, ptr null]\n  br label %in.h\n\
        in.h:\n  call void @g() [ \"funclet\"(token %cp) ]\n  catchret from %cp to label %out\n\
        out:\n  call void @g()\n  ret void\n}\n";

    fn function() -> (Module, Function) {
        let m = Module::parse(SRC.to_string()).unwrap_or_else(|(e, _)| panic!("{}", e.message));
        let i = m.definitions().find(|&i| m.item_name(i) == "@f").expect("@f");
        let mut types = m.types.clone();
        let f = m.parse_function_with(i, &mut types).expect("parses");
        (m, f)
    }

    fn block(f: &Function, name: &str) -> Block {
        *f.layout.iter().find(|&&b| f.blocks[b].name.as_deref() == Some(name)).expect("block")
    }

    #[test]
    fn blocks_take_the_funclet_of_the_pad_they_follow_and_catchret_leaves_it() {
        let (_m, f) = function();
        let entry = f.entry().expect("entry");
        let c = colors(&f, entry);
        let pad = f.insts.values().find(|d| d.op == Opcode::CatchPad).and_then(|d| d.result);
        assert_eq!(c[block(&f, "in.h")], vec![pad], "after the pad, still in its funclet");
        assert_eq!(c[block(&f, "out")], vec![None], "catchret returns to the function's body");
        assert_eq!(c[block(&f, "cs.block")], vec![None]);
    }

    #[test]
    fn a_bundle_is_read_and_added_after_the_arguments() {
        let (m, mut f) = function();
        let calls: Vec<Inst> = f.inst_iter().map(|(_, i)| i).filter(|&i| f.insts[i].op == Opcode::Call).collect();
        let pad = f.insts.values().find(|d| d.op == Opcode::CatchPad).and_then(|d| d.result);
        assert_eq!(bundle(&f, calls[0], &m.src), pad);
        assert_eq!(bundle(&f, calls[1], &m.src), None);
        let mut types = m.types.clone();
        let callee = f.const_value(types.ptr, "@g");
        let void = types.void;
        let made = crate::ir::build::Builder::new(&mut f, &mut types).call("", "", void, callee, &[]);
        add_bundle(&mut f, made, pad.expect("pad"));
        assert_eq!(bundle(&f, made, &m.src), pad);
    }
}
