//! Structural checks on a function, run on every function before it is written. Checked:
//! - every block is non-empty and ends in exactly one terminator, with no terminator before the end;
//! - phis come first in their block, then pads; the entry block has no predecessors and no phis;
//! - every operand index in a template is in range, and no operand is an undefined value;
//! - each phi has one incoming entry per predecessor edge, and no entry from a non-predecessor;
//! - a returned value has the function's return type;
//! - every definition dominates its uses (a phi use counts at the end of its incoming block);
//!   uses in unreachable blocks are not checked, as in LLVM.

use crate::analysis::cfg::Cfg;
use crate::analysis::dom::DomTree;
use crate::error::{Error, Result};
use crate::ir::{Block, Function, Inst, Opcode, Piece, ValueKind};
use cranelift_entity::SecondaryMap;

fn fail(f: &Function, i: Option<Inst>, msg: String) -> Error {
    let span = i.map(|i| f.insts[i].span).unwrap_or(f.span);
    Error::new("verify", span, format!("invalid IR in {}: {msg}", f.name))
}

/// Checks `f`'s structure (the list at the top of this module); a failure is located at the
/// offending instruction. Run on every function a pass changed, before it is printed.
pub fn verify_function(f: &Function) -> Result<()> {
    let Some(entry) = f.entry() else {
        return Err(fail(f, None, "function has no blocks".into()));
    };
    let pos = check_blocks(f, entry)?;
    let cfg = Cfg::compute(f);
    if !cfg.preds(entry).is_empty() {
        return Err(fail(f, None, "the entry block has predecessors".into()));
    }
    let dom = DomTree::compute(f, &cfg);
    check_phis_and_dominance(f, &cfg, &dom, &pos)
}

/// Each block on its own: not empty, one terminator at its end, phis first (none in the entry),
/// and every instruction's block, return type, template pieces and operands in place. Returns each
/// instruction's position in its block.
fn check_blocks(f: &Function, entry: Block) -> Result<SecondaryMap<Inst, u32>> {
    let mut pos: SecondaryMap<Inst, u32> = SecondaryMap::with_capacity(f.insts.len());
    pos.resize(f.insts.len());
    for &b in &f.layout {
        let insts = &f.blocks[b].insts;
        if insts.is_empty() {
            return Err(fail(f, None, format!("block {b} is empty")));
        }
        let mut seen_non_phi = false;
        for (k, &i) in insts.iter().enumerate() {
            pos[i] = k as u32;
            let d = &f.insts[i];
            if d.block != Some(b) {
                return Err(fail(f, Some(i), format!("instruction {i} records the wrong block")));
            }
            let last = k + 1 == insts.len();
            if d.op.is_terminator() != last {
                let msg =
                    if last { "block does not end in a terminator" } else { "terminator in the middle of a block" };
                return Err(fail(f, Some(i), msg.into()));
            }
            if d.op == Opcode::Ret && d.args.first().is_some_and(|&v| f.values[v].ty != f.header.ret) {
                return Err(fail(f, Some(i), "a return's value does not have the function's return type".into()));
            }
            if d.op == Opcode::Phi {
                if seen_non_phi {
                    return Err(fail(f, Some(i), "phi after a non-phi instruction".into()));
                }
                if b == entry {
                    return Err(fail(f, Some(i), "phi in the entry block".into()));
                }
            } else if d.op != Opcode::DbgRecord {
                seen_non_phi = true;
            }
            for p in d.tmpl.iter() {
                let ok = match p {
                    Piece::Arg(k) => (*k as usize) < d.args.len(),
                    Piece::Block(k) => (*k as usize) < d.blocks.len(),
                    Piece::Text(_) => true,
                };
                if !ok {
                    return Err(fail(f, Some(i), "template refers to a missing operand".into()));
                }
            }
            for &v in &d.args {
                if f.values.get(v).is_none_or(|vd| vd.kind == ValueKind::Forward) {
                    return Err(fail(f, Some(i), format!("operand {v} is not defined")));
                }
            }
            for &t in &d.blocks {
                if f.blocks.get(t).is_none() {
                    return Err(fail(f, Some(i), format!("reference to missing block {t}")));
                }
            }
        }
    }
    Ok(pos)
}

/// Phis whose incoming blocks are their block's predecessors, and every use in reachable code
/// dominated by its definition (a phi's at the end of its incoming block).
fn check_phis_and_dominance(f: &Function, cfg: &Cfg, dom: &DomTree, pos: &SecondaryMap<Inst, u32>) -> Result<()> {
    // Buffers reused across blocks and phis.
    let mut preds: Vec<Block> = Vec::new();
    let mut inc: Vec<Block> = Vec::new();
    for &b in &f.layout {
        preds.clear();
        preds.extend_from_slice(cfg.preds(b));
        preds.sort_unstable();
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            if d.op == Opcode::Phi {
                inc.clear();
                inc.extend_from_slice(&d.blocks);
                inc.sort_unstable();
                if inc != preds {
                    return Err(fail(f, Some(i), format!("phi incoming blocks do not match the predecessors of {b}")));
                }
            }
            if !cfg.is_reachable(b) || d.is_debug() {
                continue;
            }
            for (k, &v) in d.args.iter().enumerate() {
                let def = match f.values[v].kind {
                    ValueKind::Inst(di) => di,
                    _ => continue,
                };
                let Some(db) = f.insts[def].block else {
                    return Err(fail(
                        f,
                        Some(i),
                        format!("operand {v} is defined by an instruction not in the function"),
                    ));
                };
                let ok = if d.op == Opcode::Phi {
                    let inb = d.blocks.get(k).copied().unwrap_or(b);
                    !cfg.is_reachable(inb) || dom.dominates(db, inb)
                } else if db == b {
                    pos[def] < pos[i]
                } else {
                    dom.dominates(db, b)
                };
                if !ok {
                    let what = match &f.values[v].name {
                        Some(n) => format!("%{n}"),
                        None => format!("operand {k}"),
                    };
                    return Err(fail(f, Some(i), format!("{what} is used where its definition does not dominate")));
                }
            }
        }
    }
    Ok(())
}

/// `verify_function` on a function as the input spells it, before anything is changed: a failure
/// is the input's fault (LLVM's verifier rejects it too), located at the instruction.
pub fn verify_input(f: &Function) -> Result<()> {
    verify_function(f).map_err(|e| {
        Error::new("input-invalid", e.span, e.message.replacen("invalid IR in", "invalid input IR in", 1)).help(
            "LLVM's verifier rejects this function too (`opt -passes=verify`); fix the IR or the compiler \
             that wrote it",
        )
    })
}

/// Windows EH (funclets): every call in a funclet names that funclet's pad in a `"funclet"` operand
/// bundle, and no call outside one has such a bundle. LLVM's verifier does not check this, but
/// code generation (WinEHPrepare) turns a call that breaks it into `unreachable`, so a pass that
/// moves or makes calls must keep it. Calls of `llvm.*` intrinsics and inline asm are exempt, as
/// there. A block reached from two funclets is left to the code generator (it copies such blocks).
pub fn verify_funclets(f: &Function, src: &str) -> Result<()> {
    let has_pads = f.inst_iter().any(|(_, i)| matches!(f.insts[i].op, Opcode::CleanupPad | Opcode::CatchPad));
    let Some(entry) = f.entry().filter(|_| has_pads) else { return Ok(()) };
    let colors = crate::analysis::funclet::colors(f, entry);
    for &b in &f.layout {
        let Some(&[color]) = colors.get(b).map(|c| c.as_slice()) else { continue };
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            if !matches!(d.op, Opcode::Call | Opcode::Invoke) || d.is_debug() {
                continue;
            }
            if crate::analysis::funclet::exempt(f, i, src) {
                continue;
            }
            let bundle = crate::analysis::funclet::bundle(f, i, src);
            if bundle != color {
                let msg = match (color, bundle) {
                    (Some(_), None) => "a call in a funclet lacks its \"funclet\" operand bundle",
                    (None, Some(_)) => "a call outside any funclet has a \"funclet\" operand bundle",
                    _ => "a call's \"funclet\" operand bundle names another funclet than the one it is in",
                };
                return Err(fail(f, Some(i), msg.into()));
            }
        }
    }
    Ok(())
}

/// Module-level checks on what an edit of `m` will write, before anything is written: every
/// attribute group that is written has at least one attribute (LLVM 14 to 22 reject `{ }`), no `#N`
/// the edited text refers to names a group the edit removed, and no added function takes a name the
/// module already has.
/// Does the attribute group `text` (`attributes #N = { ... }`, any layout) hold no attribute?
pub fn attr_group_is_empty(text: &str) -> bool {
    use crate::lexer::{Lexer, Tok};
    let mut lx = Lexer::new(text, 0, text.len());
    let mut tokens = std::iter::from_fn(|| Some(lx.next_token()).filter(|t| t.kind != Tok::Eof));
    tokens.by_ref().find(|t| t.kind == Tok::LBrace);
    tokens.next().is_none_or(|t| t.kind == Tok::RBrace)
}

/// Checks module-level effects of `edits` on `m`: no attribute group written empty, no reference to
/// one the edits removed, no added function with the name of one the module has.
pub fn verify_edits(m: &crate::Module, edits: &crate::print::Edits) -> Result<()> {
    use crate::ItemKind;
    use crate::lexer::{Lexer, Tok};
    let mut groups: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
    // Groups the input defines and the edit removes: references to them must be gone too. (A
    // reference the input already had to a group it never defined is LLVM's parser's business.)
    let mut removed: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
    for (i, it) in m.items.iter().enumerate() {
        if it.kind == ItemKind::AttrGroup && edits.remove.contains(&i) {
            removed.insert(m.item_name(i));
        }
        if it.kind != ItemKind::AttrGroup || edits.remove.contains(&i) {
            continue;
        }
        let text = edits.replace.get(&i).map_or_else(|| m.item_text(i), |s| s.as_str());
        if attr_group_is_empty(text) {
            return Err(Error::new(
                "verify-module",
                it.span,
                format!("attribute group {} would be written empty, which LLVM rejects", m.item_name(i)),
            )
            .help("this is a bug in llcoro; please report it with the input file"));
        }
        groups.insert(m.item_name(i));
    }
    let edited = edits
        .replace
        .iter()
        .map(|(&i, t)| (i, t.as_str()))
        .chain(edits.insert_after.iter().flat_map(|(&i, ts)| ts.iter().map(move |t| (i, t.as_str()))));
    // Only a removed group can be referred to in error; with none, the edited text (often larger
    // than the input) need not be lexed again.
    let edited = edited.filter(|_| !removed.is_empty());
    for (i, text) in edited {
        let span = m.items.get(i).map(|it| it.span).unwrap_or_default();
        if m.items.get(i).is_some_and(|it| it.kind == ItemKind::AttrGroup) {
            continue;
        }
        let mut lx = Lexer::new(text, 0, text.len());
        loop {
            let tk = lx.next_token();
            match tk.kind {
                Tok::Eof => break,
                Tok::Hash => {
                    // `#dbg_value(...)` and the like are debug records, not group references.
                    let name = &text[tk.start as usize..tk.end as usize];
                    let is_group_ref = name.len() > 1 && name[1..].bytes().all(|c| c.is_ascii_digit());
                    if is_group_ref && !groups.contains(name) && removed.contains(name) {
                        return Err(Error::new(
                            "verify-module",
                            span,
                            format!("the output refers to attribute group {name}, which it does not define"),
                        )
                        .help("this is a bug in llcoro; please report it with the input file"));
                    }
                }
                _ => {}
            }
        }
    }
    for texts in edits.insert_after.values() {
        for t in texts {
            let Some(at) = t.find('@').filter(|_| t.starts_with("define")) else { continue };
            let name: String = t[at..].chars().take_while(|c| !c.is_whitespace() && *c != '(').collect::<String>();
            if m.globals.contains(&crate::parser::module::normalize_global(&name)) {
                return Err(Error::new(
                    "verify-module",
                    Default::default(),
                    format!("a function llcoro adds, {name}, has the name of one the module already has"),
                )
                .help("rename the existing function, or report this to llcoro"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::verify_edits;
    use crate::Module;
    use crate::print::Edits;

    const SRC: &str = "define void @f() #0 {\n  call void @g() #1\n  #dbg_value(i32 0, !1, !DIExpression(), !2)\n  ret void\n}\n\ndeclare void @g()\n\nattributes #0 = { nounwind }\nattributes #1 = { presplitcoroutine }\n";

    fn module() -> Module {
        Module::parse(SRC.to_string()).unwrap_or_else(|(e, _)| panic!("{}", e.message))
    }

    #[test]
    fn an_empty_attribute_group_is_caught() {
        let m = module();
        let mut edits = Edits::default();
        assert!(verify_edits(&m, &edits).is_ok(), "the module as it is");
        let g1 = m.items.iter().position(|it| m.text(it.name) == "#1").expect("group #1");
        edits.replace.insert(g1, "attributes #1 = { }".into());
        let e = verify_edits(&m, &edits).expect_err("an empty group must be refused");
        assert!(e.message.contains("#1"), "{}", e.message);
    }

    #[test]
    fn a_reference_to_a_removed_group_is_caught_but_debug_records_are_not_groups() {
        let m = module();
        let mut edits = Edits::default();
        let g1 = m.items.iter().position(|it| m.text(it.name) == "#1").expect("group #1");
        let f = m.items.iter().position(|it| m.text(it.name) == "@f").expect("@f");
        edits.remove.insert(g1);
        edits.replace.insert(f, m.item_text(f).to_string());
        let e = verify_edits(&m, &edits).expect_err("#1 is referred to but gone");
        assert!(e.message.contains("#1"), "{}", e.message);
        edits.replace.insert(f, m.item_text(f).replace(" #1", ""));
        assert!(verify_edits(&m, &edits).is_ok(), "#dbg_value is a debug record, not a group reference");
    }
}
