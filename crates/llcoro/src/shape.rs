//! The shape of a presplit switched-resume coroutine: its intrinsics, collected once, checked against
//! the canonical form, and its suspend points normalised so that what runs after each suspend starts
//! in a block of its own.
//!
//! Canonical form (see seeds 001/003): one `coro.id`, one `coro.begin`; every `coro.suspend` result
//! feeds exactly one `switch i8` whose default is the suspend path (to a block calling `coro.end`),
//! case 0 resumes and case 1 destroys.

use crate::diag::Finding;
use crate::intrinsics::{Intr, intr_of};
use codespan_reporting::diagnostic::Severity;
use llir::ir::{Block, Function, Inst, Opcode, Value};
use llir::types::{TypeData, TypeTable};
use llir::{Error, Span};

/// How an `await_suspend` result is used (LLVM 19+ `coro.await.suspend.*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AwaitKind {
    Void,
    Bool,
    /// Symmetric transfer: the returned handle is resumed when this coroutine suspends.
    Handle,
}

#[derive(Clone, Debug)]
pub struct Suspend {
    pub call: Inst,
    pub save: Option<Inst>,
    pub is_final: bool,
    /// The `switch` on the suspend result.
    pub switch: Inst,
    /// Set by `normalize`: the blocks entered on resume (case 0) and destroy (case 1), each with the
    /// suspend's block as single predecessor.
    pub resume_block: Option<Block>,
    pub destroy_block: Option<Block>,
    pub default_block: Block,
    /// Operand slots of the resume (case 0) and destroy (case 1) targets in the switch.
    pub slots: (usize, usize),
    /// The handle to resume at this suspend (symmetric transfer), once awaits are lowered.
    pub transfer: Option<Value>,
    /// Index stored in the frame; final suspends come last.
    pub index: u32,
}

#[derive(Clone, Debug)]
pub struct Shape {
    pub id: Inst,
    /// The alignment argument of `coro.id` (0 means two pointers).
    pub id_align: u64,
    pub promise: Option<Value>,
    pub begin: Inst,
    pub suspends: Vec<Suspend>,
    pub ends: Vec<Inst>,
    pub awaits: Vec<(Inst, AwaitKind)>,
    /// Every other coroutine intrinsic in the body (alloc, size, free, save, frame, param, ...).
    pub others: Vec<(Inst, Intr)>,
}

impl Shape {
    pub fn frame(&self, f: &Function) -> Value {
        f.insts[self.begin].result.expect("coro.begin has a result")
    }
}

fn block_label(f: &Function, b: Block) -> String {
    match &f.blocks[b].name {
        Some(n) if !llir::print::is_numbered(n) => format!("%{n}"),
        _ => format!("%{}", llir::print::Slots::compute(f).block(b)),
    }
}

fn finding(sev: Severity, code: &'static str, f: &Function, i: Option<Inst>, msg: String, help: &str) -> Finding {
    let span = i.map(|i| f.insts[i].span).unwrap_or(f.span);
    let place = match i.and_then(|i| f.insts[i].block) {
        Some(b) => format!("in {}, block {}: ", f.name, block_label(f, b)),
        None => format!("in {}: ", f.name),
    };
    Finding { severity: sev, error: Error::new(code, span, format!("{place}{msg}")).label("here").help(help) }
}

/// True if `f` is a presplit coroutine: it has the presplit attribute or calls `coro.id`.
pub fn is_presplit(f: &Function, src: &str, attr_groups_with_presplit: &[&str]) -> bool {
    has_presplit_attr(f.header.suffix.get(src), attr_groups_with_presplit)
        || f.inst_iter().any(|(_, i)| intr_of(f, i, src) == Some(Intr::Id))
}

/// Does a function header (its text up to the body) carry the presplit attribute, spelled out or
/// through one of `attr_groups_with_presplit`?
pub fn has_presplit_attr(header: &str, attr_groups_with_presplit: &[&str]) -> bool {
    header.contains("presplitcoroutine")
        || header.contains("\"coroutine.presplit\"")
        || header.split_whitespace().any(|w| attr_groups_with_presplit.contains(&w))
}

/// Collects and checks the coroutine structure. Errors make lowering refuse the function; warnings
/// are reported and lowering goes on.
pub fn analyze(f: &Function, src: &str, types: &TypeTable, has_attr: bool) -> (Option<Shape>, Vec<Finding>) {
    let mut out = Vec::new();
    let mut ids = Vec::new();
    let mut begins = Vec::new();
    let mut suspends = Vec::new();
    let mut ends = Vec::new();
    let mut awaits = Vec::new();
    let mut others = Vec::new();
    for (_, i) in f.inst_iter() {
        let Some(k) = intr_of(f, i, src) else { continue };
        match k {
            Intr::Id => ids.push(i),
            Intr::Begin => begins.push(i),
            Intr::Suspend => suspends.push(i),
            Intr::End => ends.push(i),
            Intr::AwaitSuspendVoid => awaits.push((i, AwaitKind::Void)),
            Intr::AwaitSuspendBool => awaits.push((i, AwaitKind::Bool)),
            Intr::AwaitSuspendHandle => awaits.push((i, AwaitKind::Handle)),
            Intr::IdOtherAbi | Intr::OtherAbi | Intr::EndResults => {
                let name = f.callee_name(i, src).unwrap_or("?").to_string();
                let what = if name.contains("async") { "async" } else { "returned-continuation (retcon)" };
                out.push(finding(
                    Severity::Error,
                    "coro-unsupported-abi",
                    f,
                    Some(i),
                    format!("{name} belongs to the {what} coroutine ABI, which llcoro does not support yet"),
                    "only switched-resume coroutines (llvm.coro.id) are lowered; use LLVM's coro passes for this function",
                ));
            }
            Intr::Unknown => out.push(finding(
                Severity::Error,
                "coro-unknown-intrinsic",
                f,
                Some(i),
                format!("unknown coroutine intrinsic {}", f.callee_name(i, src).unwrap_or("?")),
                "check the intrinsic name against the LLVM version that produced this file",
            )),
            other => others.push((i, other)),
        }
    }
    // WinEH funclets.
    if let Some((_, i)) = f
        .inst_iter()
        .find(|&(_, i)| matches!(f.insts[i].op, Opcode::CatchSwitch | Opcode::CatchPad | Opcode::CleanupPad))
    {
        out.push(finding(
            Severity::Error,
            "coro-unsupported-eh",
            f,
            Some(i),
            "Windows (funclet) exception handling in a coroutine is not supported yet".into(),
            "compile for a target that uses landingpad exceptions, or use LLVM's coro passes",
        ));
    }
    if ids.len() > 1 || begins.len() > 1 {
        let (what, list) = if ids.len() > 1 { ("coro.id", &ids) } else { ("coro.begin", &begins) };
        out.push(finding(
            Severity::Error,
            "coro-multiple-begin",
            f,
            list.get(1).copied(),
            format!("more than one {what} in one coroutine ({} of them)", list.len()),
            "a coroutine has exactly one coro.id and one coro.begin; merge the paths that lead to them",
        ));
    }
    let (Some(&id), Some(&begin)) = (ids.first(), begins.first()) else {
        let other_abi = out.iter().any(|x| x.error.code == "coro-unsupported-abi");
        if (!ids.is_empty() || has_attr) && !other_abi {
            out.push(finding(
                Severity::Error,
                "coro-missing-begin",
                f,
                ids.first().copied(),
                "coroutine has no coro.begin (or no coro.id)".into(),
                "a presplit coroutine needs coro.id followed by coro.begin before its first suspend",
            ));
        }
        return (None, out);
    };
    if !has_attr {
        out.push(finding(
            Severity::Error,
            "coro-missing-attribute",
            f,
            Some(id),
            "function uses llvm.coro.id but lacks the presplitcoroutine attribute".into(),
            "add `presplitcoroutine` to the function's attributes (LLVM 14: \"coroutine.presplit\"=\"0\")",
        ));
    }
    if ends.is_empty() {
        out.push(finding(
            Severity::Error,
            "coro-missing-end",
            f,
            Some(begin),
            "coroutine has no coro.end".into(),
            "the shared suspend block must call coro.end before returning (see the presplit structure in seed 001)",
        ));
    }
    let id_args = f.insts[id].call_args();
    let id_align = id_args.first().and_then(|&v| f.const_int(v, src)).unwrap_or(0).max(0) as u64;
    let promise = id_args.get(1).copied().filter(|&v| !f.is_const(v));
    let promise = promise.map(|p| strip_casts(f, p));

    // Who uses each suspend result, found in one pass.
    let mut suspend_users: rustc_hash::FxHashMap<Value, Vec<Inst>> = rustc_hash::FxHashMap::default();
    let results: rustc_hash::FxHashSet<Value> = suspends.iter().filter_map(|&s| f.insts[s].result).collect();
    for (_, u) in f.inst_iter() {
        if f.insts[u].is_debug() {
            continue;
        }
        for a in &f.insts[u].args {
            if results.contains(a) {
                suspend_users.entry(*a).or_default().push(u);
            }
        }
    }
    let mut sus = Vec::new();
    for &s in &suspends {
        let call = &f.insts[s];
        let is_final = call.call_args().get(1).and_then(|&v| f.const_int(v, src)).unwrap_or(0) != 0;
        let save = call.call_args().first().and_then(|&t| f.value_inst(t));
        let Some(r) = call.result else { continue };
        let b = call.block.expect("in a block");
        let mut uses: Vec<Inst> = suspend_users.get(&r).cloned().unwrap_or_default();
        uses.dedup();
        let sw = match uses.as_slice() {
            [u] if f.insts[*u].op == Opcode::Switch
                && f.insts[*u].block == Some(b)
                && f.insts[*u].args.first() == Some(&r) =>
            {
                *u
            }
            _ => {
                out.push(finding(
                    Severity::Error,
                    "coro-suspend-use",
                    f,
                    Some(s),
                    "the result of coro.suspend must feed exactly one switch in the same block".into(),
                    "write `switch i8 %s, label %suspend [ i8 0, label %resume  i8 1, label %cleanup ]` right after the suspend",
                ));
                continue;
            }
        };
        let d = &f.insts[sw];
        // In a switch, case value k sits at operand k and its target at block slot k.
        let mut resume_to = None;
        let mut destroy_to = None;
        for (k, &cv) in d.args.iter().enumerate().skip(1) {
            match f.const_int(cv, src) {
                Some(0) => resume_to = Some(k),
                Some(1) => destroy_to = Some(k),
                _ => {}
            }
        }
        let default_block = d.blocks[0];
        let (Some(rs), Some(ds)) = (resume_to, destroy_to) else {
            out.push(finding(
                Severity::Error,
                "coro-suspend-use",
                f,
                Some(sw),
                "the switch on coro.suspend needs a case 0 (resume) and a case 1 (destroy)".into(),
                "add `i8 0, label %resume` and `i8 1, label %cleanup` cases",
            ));
            continue;
        };
        sus.push(Suspend {
            call: s,
            save,
            is_final,
            switch: sw,
            resume_block: None,
            destroy_block: None,
            default_block,
            slots: (rs, ds),
            transfer: None,
            index: 0,
        });
    }
    // llgo's mistake: suspend paths that return without coro.end, or one return block per suspend.
    let end_blocks: Vec<Block> = ends.iter().filter_map(|&e| f.insts[e].block).collect();
    let mut defaults: Vec<Block> = sus.iter().map(|s| s.default_block).collect();
    defaults.sort_unstable();
    defaults.dedup();
    for s in &sus {
        if !reaches_end_before_return(f, s.default_block, &end_blocks) {
            out.push(finding(
                Severity::Error,
                "coro-suspend-without-end",
                f,
                Some(s.switch),
                format!(
                    "the suspend path (block {}) returns without calling coro.end",
                    block_label(f, s.default_block)
                ),
                "send every suspend's default edge to one shared block that calls coro.end and then returns",
            ));
        }
    }
    if defaults.len() > 1 && out.iter().all(|x| x.error.code != "coro-suspend-without-end") {
        out.push(finding(
            Severity::Warning,
            "coro-separate-suspend-blocks",
            f,
            sus.get(1).map(|s| s.switch),
            format!("the {} suspend points use {} different suspend blocks", sus.len(), defaults.len()),
            "canonical IR sends every suspend's default edge to one shared block with coro.end; this still lowers correctly",
        ));
    }
    // Indices: non-final suspends first, finals last.
    let mut k = 0;
    for s in sus.iter_mut().filter(|s| !s.is_final) {
        s.index = k;
        k += 1;
    }
    for s in sus.iter_mut().filter(|s| s.is_final) {
        s.index = k;
        k += 1;
    }
    let _ = types;
    let has_error = out.iter().any(|x| x.severity == Severity::Error);
    let shape = Shape { id, id_align, promise, begin, suspends: sus, ends, awaits, others };
    (if has_error { None } else { Some(shape) }, out)
}

/// Looks through pointer casts (typed-pointer `bitcast`s of the promise alloca).
fn strip_casts(f: &Function, mut v: Value) -> Value {
    for _ in 0..8 {
        match f.value_inst(v) {
            Some(i) if f.insts[i].op == Opcode::BitCast => v = f.insts[i].args[0],
            _ => break,
        }
    }
    v
}

/// Does every path from `b` reach a `coro.end` block before a `ret`? Checked by walking forward
/// from `b` without entering end blocks.
fn reaches_end_before_return(f: &Function, b: Block, end_blocks: &[Block]) -> bool {
    let mut seen = vec![b];
    let mut work = vec![b];
    while let Some(x) = work.pop() {
        if end_blocks.contains(&x) {
            continue;
        }
        let Some(t) = f.terminator(x) else { return false };
        if matches!(f.insts[t].op, Opcode::Ret) {
            return false;
        }
        for &s in f.successors(x) {
            if !seen.contains(&s) {
                seen.push(s);
                work.push(s);
            }
        }
        if seen.len() > 10_000 {
            break;
        }
    }
    true
}

/// Splits the resume and destroy edges of every suspend so each gets a block of its own, whose only
/// predecessor is the suspend's block. Values live into those blocks are exactly the values live
/// across the suspend.
pub fn normalize(f: &mut Function, types: &TypeTable, shape: &mut Shape) {
    let mut taken = f.block_names();
    for s in &mut shape.suspends {
        let Some(b) = f.insts[s.switch].block else { continue };
        let rname = llir::ir::edit::fresh_label(&mut taken, "coro.resume.point");
        s.resume_block = f.split_successor(types, b, s.slots.0, Some(&rname));
        let dname = llir::ir::edit::fresh_label(&mut taken, "coro.destroy.point");
        s.destroy_block = f.split_successor(types, b, s.slots.1, Some(&dname));
    }
}

/// Token values must not live across a suspend: they cannot be stored in a frame.
pub fn is_unspillable(types: &TypeTable, ty: llir::types::Type) -> bool {
    matches!(types.get(ty), TypeData::Token | TypeData::Label | TypeData::Metadata | TypeData::Void)
}

pub fn error_at(f: &Function, i: Option<Inst>, code: &'static str, msg: String, help: &str) -> Finding {
    finding(Severity::Error, code, f, i, msg, help)
}

pub fn span_of(f: &Function, i: Inst) -> Span {
    f.insts[i].span
}
