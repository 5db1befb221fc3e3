//! The shape of a presplit switched-resume coroutine: its intrinsics, collected once, checked against
//! the canonical form, and its suspend points normalised so that what runs after each suspend starts
//! in a block of its own.
//!
//! The suspend result is an ordinary `i8`: -1 on the suspend path (the ramp), 0 when resumed, 1 when
//! destroyed. Clang feeds it to one `switch i8` in the same block (the canonical form, seeds
//! 001/003); other producers widen it, compare it, switch on it twice or not at all. `normalize`
//! brings every suspend to the canonical form by LLVM's own device: the rest of the block moves to a
//! landing block whose phi gives the result its value on each of the three edges.

use crate::coro::intrinsics::{Intr, intr_of};
pub(crate) use crate::diag::{Finding, block_label, finding_at as finding, warning_at};
use codespan_reporting::diagnostic::Severity;
use llir::ir::{Block, Function, Inst, Opcode, Value};
use llir::types::{TypeData, TypeTable};

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
    /// The `switch` on the suspend result: the producer's when it is canonical, else the one
    /// `normalize` makes. Always set after `normalize`.
    pub switch: Option<Inst>,
    /// Set by `normalize`: the blocks entered on resume (case 0) and destroy (case 1), each with the
    /// suspend's block as single predecessor.
    pub resume_block: Option<Block>,
    pub destroy_block: Option<Block>,
    /// Where the ramp goes on: the switch's default. Set after `normalize`.
    pub default_block: Option<Block>,
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

    /// This shape in `g`, a partial copy of the body made with `maps` and `vmap`: what was not
    /// copied is left out (a suspend whose call was not copied is not in `g`). None when `g` lacks
    /// coro.id or coro.begin, or a copied suspend lost its switch or its transfer handle.
    pub fn mapped(
        &self,
        f: &Function,
        g: &mut Function,
        src: &str,
        maps: &llir::ir::edit::CloneMaps,
        vmap: &cranelift_entity::SecondaryMap<Value, Option<Value>>,
    ) -> Option<Shape> {
        let mi = |i: Inst| maps.insts[i];
        let mb = |b: Option<Block>| b.and_then(|b| maps.blocks[b]);
        let mut suspends = Vec::new();
        for s in &self.suspends {
            let Some(call) = mi(s.call) else { continue };
            let transfer = match s.transfer {
                None => None,
                Some(h) => match (vmap[h], f.const_text(h, src)) {
                    (Some(v), _) => Some(v),
                    (None, Some(text)) => Some(g.const_value(f.values[h].ty, text)),
                    (None, None) => return None,
                },
            };
            suspends.push(Suspend {
                call,
                save: s.save.and_then(mi),
                is_final: s.is_final,
                switch: Some(mi(s.switch?)?),
                resume_block: mb(s.resume_block),
                destroy_block: mb(s.destroy_block),
                default_block: mb(s.default_block),
                slots: s.slots,
                transfer,
                index: s.index,
            });
        }
        Some(Shape {
            id: mi(self.id)?,
            id_align: self.id_align,
            promise: self.promise.and_then(|p| vmap[p]),
            begin: mi(self.begin)?,
            suspends,
            ends: self.ends.iter().filter_map(|&i| mi(i)).collect(),
            awaits: self.awaits.iter().filter_map(|&(i, k)| Some((mi(i)?, k))).collect(),
            others: self.others.iter().filter_map(|&(i, k)| Some((mi(i)?, k))).collect(),
        })
    }
}

/// True if `f` is a presplit coroutine: it has the presplit attribute, or suspends and calls
/// `coro.id` with a null info operand (a split coroutine's points at its parts; without a suspend
/// there is nothing to split, and LLVM leaves such a function alone).
pub fn is_presplit(f: &Function, src: &str, attr_groups_with_presplit: &[&str]) -> bool {
    if has_presplit_attr(f.header.suffix.get(src), attr_groups_with_presplit) {
        return true;
    }
    let (mut id, mut suspend) = (false, false);
    for (_, i) in f.inst_iter() {
        match intr_of(f, i, src) {
            Some(Intr::Id) => id |= f.insts[i].call_args().get(3).is_none_or(|&v| f.const_text(v, src) == Some("null")),
            Some(Intr::Suspend) => suspend = true,
            _ => {}
        }
    }
    id && suspend
}

/// Does a function header (its text up to the body) carry the presplit attribute, spelled out or
/// through one of `attr_groups_with_presplit`?
pub fn has_presplit_attr(header: &str, attr_groups_with_presplit: &[&str]) -> bool {
    header.contains("presplitcoroutine")
        || header.contains("\"coroutine.presplit\"")
        || header.split_whitespace().any(|w| attr_groups_with_presplit.contains(&w))
}

/// Where attribute text (a header's suffix, an attribute group) spells the presplit attribute:
/// `presplitcoroutine`, or LLVM 14's `"coroutine.presplit"="0"`, whatever the spacing, each span
/// with the blanks before it.
pub fn presplit_attr_spans(text: &str) -> Vec<(usize, usize)> {
    use llir::lexer::{Lexer, Tok};
    let mut lx = Lexer::new(text, 0, text.len());
    let mut spans = Vec::new();
    let mut t = lx.next_token();
    while t.kind != Tok::Eof {
        let (start, mut end) = (t.start as usize, t.end as usize);
        let word = text.get(start..end).unwrap_or("");
        let mut next = lx.next_token();
        let found = match (t.kind, word) {
            (Tok::Ident, "presplitcoroutine") => true,
            (Tok::Str, "\"coroutine.presplit\"") => {
                if next.kind == Tok::Eq {
                    let value = lx.next_token();
                    if value.kind == Tok::Str {
                        end = value.end as usize;
                        next = lx.next_token();
                    }
                }
                true
            }
            _ => false,
        };
        if found {
            let blanks = text.get(..start).map_or(0, |b| b.len() - b.trim_end_matches([' ', '\t']).len());
            spans.push((start - blanks, end));
        }
        t = next;
    }
    spans
}

/// `text` without the spans `cut` (in order).
pub fn without_spans(text: &str, cut: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for &(a, b) in cut {
        out.push_str(text.get(at..a).unwrap_or(""));
        at = b;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

/// Collects and checks the coroutine structure. Errors make lowering refuse the function; warnings
/// are reported and lowering goes on.
pub fn analyze(f: &Function, src: &str, types: &TypeTable, has_attr: bool) -> (Option<Shape>, Vec<Finding>) {
    let mut out = Vec::new();
    let found = collect_intrinsics(f, src, &mut out);
    check_one_id_and_begin(f, &found, &mut out);
    let (Some(&id), Some(&begin)) = (found.ids.first(), found.begins.first()) else {
        report_missing_begin(f, &found, has_attr, &mut out);
        return (None, out);
    };
    if !has_attr {
        warn_missing_attribute(f, id, &mut out);
    }
    check_has_end(f, &found, begin, &mut out);
    let (id_align, promise) = id_operands(f, id, src);
    let mut sus = describe_suspends(f, src, &found.suspends);
    // With no coro.end at all, every path lacks one: the warning above says what that means.
    if !found.ends.is_empty() {
        check_suspend_paths(f, types, src, &sus, &found.ends, &mut out);
    }
    warn_separate_suspend_blocks(f, &sus, &mut out);
    number_suspends(&mut sus);
    let has_error = out.iter().any(|x| x.severity == Severity::Error);
    let Intrinsics { ends, awaits, others, .. } = found;
    let shape = Shape { id, id_align, promise, begin, suspends: sus, ends, awaits, others };
    (if has_error { None } else { Some(shape) }, out)
}

/// This coroutine's intrinsics by kind, in instruction order.
#[derive(Default)]
struct Intrinsics {
    ids: Vec<Inst>,
    begins: Vec<Inst>,
    suspends: Vec<Inst>,
    ends: Vec<Inst>,
    awaits: Vec<(Inst, AwaitKind)>,
    others: Vec<(Inst, Intr)>,
}

/// Sorts the body's coroutine intrinsics by kind; intrinsics of another ABI and unknown ones are errors.
fn collect_intrinsics(f: &Function, src: &str, out: &mut Vec<Finding>) -> Intrinsics {
    let mut found = Intrinsics::default();
    // A coro.id whose info operand is set belongs to a coroutine split already (its ramp inlined
    // here); it and its coro.begin are not this coroutine's, as in LLVM, and go as leftovers.
    let foreign_id = |i: Inst| {
        intr_of(f, i, src) == Some(Intr::Id)
            && f.insts[i].call_args().get(3).is_some_and(|&v| f.const_text(v, src) != Some("null"))
    };
    for (_, i) in f.inst_iter() {
        let Some(k) = intr_of(f, i, src) else { continue };
        match k {
            Intr::Id if foreign_id(i) => {}
            Intr::Begin if f.insts[i].call_args().first().and_then(|&t| f.value_inst(t)).is_some_and(foreign_id) => {}
            Intr::Id => found.ids.push(i),
            Intr::Begin => found.begins.push(i),
            Intr::Suspend => found.suspends.push(i),
            Intr::End => found.ends.push(i),
            Intr::AwaitSuspendVoid => found.awaits.push((i, AwaitKind::Void)),
            Intr::AwaitSuspendBool => found.awaits.push((i, AwaitKind::Bool)),
            Intr::AwaitSuspendHandle => found.awaits.push((i, AwaitKind::Handle)),
            Intr::IdAsync
            | Intr::SuspendAsync
            | Intr::AsyncResume
            | Intr::EndAsync
            | Intr::EndResults
            | Intr::IdRetcon
            | Intr::IdRetconOnce
            | Intr::SuspendRetcon
            | Intr::AllocaAlloc
            | Intr::AllocaGet
            | Intr::AllocaFree => {
                let name = f.callee_name(i, src).unwrap_or("?").to_string();
                let what = if name.contains("async") { "async" } else { "returned-continuation (retcon)" };
                out.push(finding(
                    Severity::Error,
                    "coro-mixed-abi",
                    f,
                    Some(i),
                    format!("{name} belongs to the {what} coroutine ABI, but this is a switched-resume coroutine (llvm.coro.id)"),
                    "a coroutine uses the intrinsics of one ABI: those of its coro.id",
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
            other => found.others.push((i, other)),
        }
    }
    found
}

/// Refuses a second coro.id or coro.begin (coro.id is reported first).
fn check_one_id_and_begin(f: &Function, found: &Intrinsics, out: &mut Vec<Finding>) {
    let (ids, begins) = (&found.ids, &found.begins);
    if ids.len() > 1 || begins.len() > 1 {
        let (what, list) = if ids.len() > 1 { ("coro.id", ids) } else { ("coro.begin", begins) };
        out.push(finding(
            Severity::Error,
            "coro-multiple-begin",
            f,
            list.get(1).copied(),
            format!("more than one {what} in one coroutine ({} of them)", list.len()),
            "a coroutine has exactly one coro.id and one coro.begin; merge the paths that lead to them",
        ));
    }
}

/// Without coro.id or coro.begin: an error if the function suspends, else a warning that it is
/// not split (nothing when another ABI was already reported).
fn report_missing_begin(f: &Function, found: &Intrinsics, has_attr: bool, out: &mut Vec<Finding>) {
    let other_abi = out.iter().any(|x| x.error.code == "coro-mixed-abi");
    if !found.suspends.is_empty() && !other_abi {
        out.push(finding(
            Severity::Error,
            "coro-missing-begin",
            f,
            found.suspends.first().copied(),
            "this coroutine suspends but has no coro.begin (or no coro.id)".into(),
            "a presplit coroutine needs coro.id followed by coro.begin before its first suspend",
        ));
    } else if (!found.ids.is_empty() || has_attr) && !other_abi {
        // Nothing to split, as LLVM sees it too: its coroutine intrinsics go, as CoroCleanup
        // removes them.
        out.push(finding(
            Severity::Warning,
            "coro-nothing-to-split",
            f,
            found.ids.first().or(found.begins.first()).copied(),
            "this function is marked as a coroutine but has no coro.begin (or no coro.id) and no suspend point; \
             it is not split, and its coroutine intrinsics are removed"
                .into(),
            "a coroutine needs coro.id, coro.begin and a suspend point; otherwise drop the presplit attribute",
        ));
    }
}

/// Warns that a coroutine without the presplit attribute is lowered although LLVM would not split it.
fn warn_missing_attribute(f: &Function, id: Inst, out: &mut Vec<Finding>) {
    // llcoro runs before any optimisation, so coro.id and coro.begin are enough to know this is a
    // presplit coroutine; LLVM needs the attribute to keep its optimiser off until it splits.
    out.push(finding(
        Severity::Warning,
        "coro-missing-attribute",
        f,
        Some(id),
        "function uses llvm.coro.id and llvm.coro.begin but lacks the presplitcoroutine attribute; llcoro \
         lowers it, LLVM's own passes would leave it unsplit"
            .into(),
        "add `presplitcoroutine` to the function's attributes (LLVM 14: \"coroutine.presplit\"=\"0\") so that \
         LLVM's pipeline treats it as a coroutine too",
    ));
}

/// Warns about a coroutine that suspends but has no coro.end. LLVM lowers it: the ramp keeps its
/// returns, and in the resume and destroy functions a return becomes `unreachable` (llcoro keeps a
/// `ret void` there, which only defines what LLVM leaves undefined).
fn check_has_end(f: &Function, found: &Intrinsics, begin: Inst, out: &mut Vec<Finding>) {
    // Without a suspend the split functions never run, and a missing coro.end harms nothing.
    if found.ends.is_empty() && !found.suspends.is_empty() {
        out.push(finding(
            Severity::Warning,
            "coro-missing-end",
            f,
            Some(begin),
            "coroutine has no coro.end: as in LLVM's lowering, its returns stay in the ramp, and in \
             .resume, .destroy and .cleanup a return of a value becomes `unreachable`, so a resumed or \
             destroyed coroutine that reaches one has undefined behaviour"
                .into(),
            "unless every path after a suspend ends the program or loops forever, call coro.end before each \
             return: send every suspend's default edge to one block that calls coro.end and then returns \
             (the presplit structure in seed 001)",
        ));
    }
}

/// The frame alignment (0: two pointers) and the promise alloca that `coro.id` names.
fn id_operands(f: &Function, id: Inst, src: &str) -> (u64, Option<Value>) {
    let id_args = f.insts[id].call_args();
    let id_align = id_args.first().and_then(|&v| f.const_int(v, src)).unwrap_or(0).max(0) as u64;
    let promise = id_args.get(1).copied().filter(|&v| !f.is_const(v));
    (id_align, promise.map(|p| strip_casts(f, src, p)))
}

/// One `Suspend` per suspend call with a result, its switch recorded when it is canonical.
fn describe_suspends(f: &Function, src: &str, suspends: &[Inst]) -> Vec<Suspend> {
    let suspend_users = suspend_users(f, suspends);
    let mut sus = Vec::new();
    for &s in suspends {
        let call = &f.insts[s];
        let is_final = call.call_args().get(1).and_then(|&v| f.const_int(v, src)).unwrap_or(0) != 0;
        let save = call.call_args().first().and_then(|&t| f.value_inst(t));
        let Some(r) = call.result else { continue };
        let b = call.block.expect("in a block");
        let mut uses: Vec<Inst> = suspend_users.get(&r).cloned().unwrap_or_default();
        uses.dedup();
        let canonical = canonical_switch(f, src, r, b, &uses);
        sus.push(Suspend {
            call: s,
            save,
            is_final,
            switch: canonical.map(|c| c.0),
            resume_block: None,
            destroy_block: None,
            default_block: canonical.map(|c| c.2),
            slots: canonical.map_or((1, 2), |c| c.1),
            transfer: None,
            index: 0,
        });
    }
    sus
}

/// Who uses each suspend result (debug records aside), found in one pass.
fn suspend_users(f: &Function, suspends: &[Inst]) -> rustc_hash::FxHashMap<Value, Vec<Inst>> {
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
    suspend_users
}

/// The switch, its (resume, destroy) operand slots and its default, when suspend result `r` of
/// block `b` has the canonical form.
fn canonical_switch(
    f: &Function,
    src: &str,
    r: Value,
    b: Block,
    uses: &[Inst],
) -> Option<(Inst, (usize, usize), Block)> {
    // Canonical: one switch right here with a resume case 0 and a destroy case 1. Anything else
    // gets a landing block in `normalize`.
    match uses {
        [u] if f.insts[*u].op == Opcode::Switch
            && f.insts[*u].block == Some(b)
            && f.insts[*u].args.first() == Some(&r) =>
        {
            let d = &f.insts[*u];
            // In a switch, case value k sits at operand k and its target at block slot k.
            let case = |want: i128| d.args.iter().skip(1).position(|&cv| f.const_int(cv, src) == Some(want));
            match (case(0), case(1)) {
                (Some(rs), Some(ds)) => Some((*u, (rs + 1, ds + 1), d.blocks[0])),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Refuses a suspend path that returns without coro.end.
fn check_suspend_paths(
    f: &Function,
    types: &TypeTable,
    src: &str,
    sus: &[Suspend],
    ends: &[Inst],
    out: &mut Vec<Finding>,
) {
    // llgo's mistake: suspend paths that return without coro.end, or one return block per suspend.
    let end_blocks: Vec<Block> = ends.iter().filter_map(|&e| f.insts[e].block).collect();
    let in_parts = run_in_parts(f, sus);
    // A suspend only the ramp runs (an initial suspend, say) may return without coro.end: the ramp
    // keeps its returns.
    for s in sus.iter().filter(|s| f.insts[s.call].block.is_some_and(|b| in_parts[b])) {
        let starts = suspend_path(f, types, s.call, &end_blocks, src);
        if let Some(&bad) = starts.iter().find(|&&b| !reaches_end_before_return(f, b, &end_blocks)) {
            out.push(finding(
                Severity::Error,
                "coro-suspend-without-end",
                f,
                Some(s.switch.unwrap_or(s.call)),
                format!("the suspend path (block {}) returns without calling coro.end", block_label(f, bad)),
                "send every suspend's default edge to one shared block that calls coro.end and then returns",
            ));
        }
    }
}

/// The blocks a split function can run: what a suspend's resume and destroy edges reach (every
/// edge out of a suspend that is not in the canonical form).
fn run_in_parts(f: &Function, sus: &[Suspend]) -> cranelift_entity::SecondaryMap<Block, bool> {
    let mut roots = Vec::new();
    for s in sus {
        match s.switch {
            // The default (slot 0) is the suspend path, which returns from the function it runs in.
            Some(sw) => roots.extend(f.insts[sw].blocks.iter().skip(1).copied()),
            None => {
                if let Some(b) = f.insts[s.call].block {
                    roots.extend(f.successors(b).iter().copied());
                }
            }
        }
    }
    f.reachable_along(&roots, &|_| None)
}

/// Warns when the suspends' default edges go to different blocks (unless a path lacks coro.end,
/// which is the error that explains it).
fn warn_separate_suspend_blocks(f: &Function, sus: &[Suspend], out: &mut Vec<Finding>) {
    let mut defaults: Vec<Block> = sus.iter().filter_map(|s| s.default_block).collect();
    defaults.sort_unstable();
    defaults.dedup();
    if defaults.len() > 1 && out.iter().all(|x| x.error.code != "coro-suspend-without-end") {
        out.push(finding(
            Severity::Warning,
            "coro-separate-suspend-blocks",
            f,
            sus.get(1).and_then(|s| s.switch),
            format!("the {} suspend points use {} different suspend blocks", sus.len(), defaults.len()),
            "canonical IR sends every suspend's default edge to one shared block with coro.end; this still lowers correctly",
        ));
    }
}

/// Indices: non-final suspends first, finals last.
fn number_suspends(sus: &mut [Suspend]) {
    let mut k = 0;
    for s in sus.iter_mut().filter(|s| !s.is_final) {
        s.index = k;
        k += 1;
    }
    for s in sus.iter_mut().filter(|s| s.is_final) {
        s.index = k;
        k += 1;
    }
}

/// Looks through pointer casts (typed-pointer `bitcast`s of the promise alloca).
fn strip_casts(f: &Function, src: &str, mut v: Value) -> Value {
    for _ in 0..8 {
        match f.value_inst(v) {
            Some(i) if f.insts[i].op == Opcode::BitCast => v = f.insts[i].args[0],
            // A GEP whose indices are all zero points where its base does (clang 14 passes the promise
            // to coro.id as such a GEP of the promise's first field).
            Some(i)
                if f.insts[i].op == Opcode::GetElementPtr
                    && f.insts[i].args.iter().skip(1).all(|&x| f.const_int(x, src) == Some(0)) =>
            {
                v = f.insts[i].args[0]
            }
            _ => break,
        }
    }
    v
}

/// Where the suspend path goes from suspend `call`, the path the ramp takes with the result -1: the
/// code after the suspend is evaluated as far as it depends only on that result and constants, up to
/// the first branch it cannot decide (then all of its successors) or a block that calls `coro.end`.
fn suspend_path(f: &Function, types: &TypeTable, call: Inst, end_blocks: &[Block], src: &str) -> Vec<Block> {
    let (Some(r), Some(mut b)) = (f.insts[call].result, f.insts[call].block) else { return Vec::new() };
    let width = |v: Value| match types.get(f.values[v].ty) {
        TypeData::Int(w) => Some(*w),
        _ => None,
    };
    let mask = |x: i128, w: u32| if w >= 128 { x } else { x & ((1i128 << w) - 1) };
    let signed = |x: i128, w: u32| if w >= 128 || w == 0 { x } else { (x << (128 - w)) >> (128 - w) };
    // Known values, kept masked to their width.
    let mut known: rustc_hash::FxHashMap<Value, i128> = rustc_hash::FxHashMap::default();
    known.insert(r, mask(-1, 8));
    let mut pos = f.blocks[b].insts.iter().position(|&x| x == call).map_or(0, |p| p + 1);
    let mut prev: Option<Block> = None;
    // Where an undecided path goes on: the successors, or the block itself when it returns.
    let undecided = |b: Block| if f.successors(b).is_empty() { vec![b] } else { f.successors(b).to_vec() };
    for _ in 0..64 {
        if end_blocks.contains(&b) {
            return vec![b];
        }
        let mut next = None;
        for &i in f.blocks[b].insts.get(pos..).unwrap_or(&[]) {
            let d = &f.insts[i];
            let val = |v: Value| -> Option<i128> {
                let w = width(v)?;
                known.get(&v).copied().or_else(|| f.const_int(v, src).map(|c| mask(c, w)))
            };
            let arg = |k: usize| d.args.get(k).copied().and_then(val);
            let res_w = d.result.and_then(width);
            let out: Option<i128> = match d.op {
                Opcode::Phi => prev
                    .and_then(|p| d.blocks.iter().position(|&x| x == p))
                    .and_then(|k| d.args.get(k).copied())
                    .and_then(val),
                Opcode::SExt => d.args.first().and_then(|&a| Some(signed(val(a)?, width(a)?))),
                Opcode::ZExt => arg(0),
                Opcode::Trunc => arg(0),
                Opcode::Select => match arg(0) {
                    Some(c) => arg(if c != 0 { 1 } else { 2 }),
                    None => None,
                },
                Opcode::ICmp => match (&d.extra, d.args.first().and_then(|&a| width(a)), arg(0), arg(1)) {
                    (llir::ir::Extra::Cmp { pred }, Some(w), Some(x), Some(y)) => {
                        let (sx, sy) = (signed(x, w), signed(y, w));
                        match pred.as_str() {
                            "eq" => Some(x == y),
                            "ne" => Some(x != y),
                            "ugt" => Some(x > y),
                            "uge" => Some(x >= y),
                            "ult" => Some(x < y),
                            "ule" => Some(x <= y),
                            "sgt" => Some(sx > sy),
                            "sge" => Some(sx >= sy),
                            "slt" => Some(sx < sy),
                            "sle" => Some(sx <= sy),
                            _ => None,
                        }
                        .map(i128::from)
                    }
                    _ => None,
                },
                Opcode::Br if d.args.is_empty() => {
                    next = d.blocks.first().copied();
                    break;
                }
                Opcode::Br => match arg(0) {
                    Some(c) => {
                        next = d.blocks.get(if c != 0 { 0 } else { 1 }).copied();
                        break;
                    }
                    None => return undecided(b),
                },
                Opcode::Switch => match arg(0) {
                    Some(c) => {
                        let k = (1..d.args.len()).find(|&k| arg(k) == Some(c)).unwrap_or(0);
                        next = d.blocks.get(k).copied();
                        break;
                    }
                    None => return undecided(b),
                },
                op if op.is_terminator() => return undecided(b),
                _ => None,
            };
            if let (Some(x), Some(res), Some(w)) = (out, d.result, res_w) {
                known.insert(res, mask(x, w));
            }
        }
        let Some(n) = next else { return undecided(b) };
        prev = Some(b);
        b = n;
        pos = 0;
    }
    vec![b]
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
pub fn normalize(f: &mut Function, types: &mut TypeTable, shape: &mut Shape) {
    let mut taken = f.block_names();
    for s in &mut shape.suspends {
        if s.switch.is_none() {
            land(f, types, s, &mut taken);
            continue;
        }
        let Some(b) = s.switch.and_then(|sw| f.insts[sw].block) else { continue };
        let rname = llir::ir::edit::fresh_label(&mut taken, "coro.resume.point");
        s.resume_block = f.split_successor(types, b, s.slots.0, Some(&rname));
        let dname = llir::ir::edit::fresh_label(&mut taken, "coro.destroy.point");
        s.destroy_block = f.split_successor(types, b, s.slots.1, Some(&dname));
    }
}

/// Gives a suspend whose result is not fed to one canonical switch the canonical form. The rest of
/// its block moves to a landing block, entered from three new blocks (resume, destroy, suspend path)
/// whose phi is the result the code after the suspend sees (0, 1, -1); the suspend itself feeds a
/// new switch to those blocks. Each split function then sees the result as the constant of its
/// own edge, as in LLVM.
fn land(f: &mut Function, types: &mut TypeTable, s: &mut Suspend, taken: &mut rustc_hash::FxHashSet<Box<str>>) {
    let (Some(r), Some(b)) = (f.insts[s.call].result, f.insts[s.call].block) else { return };
    let Some(pos) = f.blocks[b].insts.iter().position(|&x| x == s.call) else { return };
    let name = llir::ir::edit::fresh_label(taken, "coro.suspend.landing");
    let landing = f.split_block(types, b, pos + 1, Some(&name));
    // `split_block` ended `b` with a branch to the landing; the switch replaces it.
    if let Some(br) = f.terminator(b) {
        f.remove_inst(br);
    }
    let mut edge = |f: &mut Function, base: &str| {
        let n = llir::ir::edit::fresh_label(taken, base);
        let e = f.create_block(Some(&n));
        let br = f.create_br(types, landing);
        f.append_inst(e, br);
        f.insert_block_after(e, b);
        e
    };
    let suspend_path = edge(f, "coro.suspend.path");
    let destroy = edge(f, "coro.destroy.point");
    let resume = edge(f, "coro.resume.point");
    let ty = f.values[r].ty;
    let (minus, zero, one) = (f.const_value(ty, "-1"), f.const_value(ty, "0"), f.const_value(ty, "1"));
    let mut bld = llir::ir::build::Builder::new(f, types);
    let phi = bld.phi(ty, &[(minus, suspend_path), (zero, resume), (one, destroy)]);
    let pv = bld.result(phi);
    f.replace_all_uses(r, pv);
    f.insert_inst_at(landing, 0, phi);
    let sw = llir::ir::build::Builder::new(f, types).switch(r, suspend_path, &[(zero, resume), (one, destroy)]);
    f.append_inst(b, sw);
    s.switch = Some(sw);
    s.slots = (1, 2);
    s.default_block = Some(suspend_path);
    s.resume_block = Some(resume);
    s.destroy_block = Some(destroy);
}

#[cfg(test)]
mod tests {
    use super::*;
    use llir::Module;

    #[test]
    fn the_presplit_attribute_is_found_whatever_its_spacing() {
        let cut = |t: &str| without_spans(t, &presplit_attr_spans(t));
        assert_eq!(cut("attributes #0 = { presplitcoroutine nounwind }"), "attributes #0 = { nounwind }");
        assert_eq!(cut("attributes #0 = { nounwind\tpresplitcoroutine }"), "attributes #0 = { nounwind }");
        assert_eq!(cut("{ \"coroutine.presplit\"=\"0\" \"a\"=\"b\" }"), "{ \"a\"=\"b\" }");
        assert_eq!(cut("{ \"a\" \"coroutine.presplit\"\n =\n \"1\" }"), "{ \"a\" }");
        // Not in a string of another attribute.
        assert_eq!(cut("{ \"presplitcoroutine\" }"), "{ \"presplitcoroutine\" }");
    }

    const HEAD: &str = "define ptr @f() presplitcoroutine {\nentry:\n  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)\n  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)\n";
    const TAIL: &str = "declare token @llvm.coro.id(i32, ptr, ptr, ptr)\ndeclare ptr @llvm.coro.begin(token, ptr)\ndeclare i8 @llvm.coro.suspend(token, i1)\ndeclare i1 @llvm.coro.end(ptr, i1, token)\ndeclare void @use(i32)\n";

    fn analyzed(body: &str) -> (Module, Function, Option<Shape>, Vec<Finding>) {
        let src = format!("{HEAD}{body}}}\n\n{TAIL}");
        let mut m = Module::parse(src).unwrap_or_else(|(e, _)| panic!("{}", e.message));
        let i = m.definitions().next().expect("a define");
        let f = m.parse_function(i).unwrap_or_else(|e| panic!("{}", e.message));
        let (shape, findings) = analyze(&f, &m.src, &m.types, true);
        (m, f, shape, findings)
    }

    #[test]
    fn a_widened_suspend_result_gets_a_landing_block() {
        let body = "  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  %w = sext i8 %s to i32\n  switch i32 %w, label %susp [ i32 0, label %res\n i32 1, label %susp ]\nres:\n  call void @use(i32 %w)\n  br label %susp\nsusp:\n  %e = call i1 @llvm.coro.end(ptr null, i1 false, token none)\n  ret ptr %hdl\n";
        let (mut m, mut f, shape, findings) = analyzed(body);
        assert!(findings.iter().all(|x| x.severity != Severity::Error), "no refusal");
        let mut shape = shape.expect("a shape");
        assert!(shape.suspends[0].switch.is_none(), "not canonical: the result is widened first");
        normalize(&mut f, &mut m.types, &mut shape);
        let s = &shape.suspends[0];
        let sw = s.switch.expect("normalize made a switch");
        let d = &f.insts[sw];
        assert_eq!(d.args.first(), f.insts[s.call].result.as_ref(), "the new switch is on the suspend result");
        assert_eq!(d.blocks.len(), 3, "suspend path, resume and destroy");
        assert_eq!(Some(d.blocks[0]), s.default_block);
        assert_eq!((Some(d.blocks[1]), Some(d.blocks[2])), (s.resume_block, s.destroy_block));
        // The three edges meet in the landing block, whose phi is what the sext now reads.
        let landing = f.successors(d.blocks[1])[0];
        let phi = f.phis(landing)[0];
        let vals: Vec<i128> = f.insts[phi].args.iter().filter_map(|&v| f.const_int(v, &m.src)).collect();
        assert_eq!(vals, vec![-1, 0, 1]);
        let sext = f.inst_iter().map(|(_, i)| i).find(|&i| f.insts[i].op == Opcode::SExt).expect("the sext");
        assert_eq!(f.insts[sext].args[0], f.insts[phi].result.expect("phi value"));
    }

    #[test]
    fn the_suspend_path_is_followed_through_the_widened_result() {
        // -1 goes to %bad, which returns without coro.end, and a resume comes back to the suspend:
        // refused (LLVM makes that return unreachable in `.resume`).
        let body = "  br label %loop\nloop:\n  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  %w = sext i8 %s to i32\n  %neg = icmp slt i32 %w, 0\n  br i1 %neg, label %bad, label %ok\nbad:\n  ret ptr %hdl\nok:\n  %z = icmp eq i32 %w, 0\n  br i1 %z, label %loop, label %end\nend:\n  %e = call i1 @llvm.coro.end(ptr null, i1 false, token none)\n  ret ptr %hdl\n";
        let codes = |f: &[Finding]| f.iter().map(|x| x.error.code).collect::<Vec<_>>();
        let (_, _, shape, findings) = analyzed(body);
        assert!(shape.is_none());
        assert!(findings.iter().any(|x| x.error.code == "coro-suspend-without-end"), "{:?}", codes(&findings));
        // The same with the branches the other way round is fine: -1 reaches coro.end.
        let swapped = body.replace("label %bad, label %ok", "label %ok, label %bad");
        let (_, _, shape, findings) = analyzed(&swapped);
        assert!(shape.is_some(), "{:?}", codes(&findings));
        // A suspend only the ramp runs may return directly: the ramp keeps its returns.
        let once = body.replace("label %loop, label %end", "label %end, label %end");
        let (_, _, shape, findings) = analyzed(&once);
        assert!(shape.is_some(), "{:?}", codes(&findings));
    }
}
