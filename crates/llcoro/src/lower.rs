//! Module-level driver of the switched-resume lowering: which functions to split, which to lower the
//! using intrinsics in, and the module edits that follow (new functions after their coroutine, the
//! `llvm.coro.*` declarations and the presplit attribute removed, the no-op coroutine added).
//! Passes read one function at a time; only this driver touches the module.

use crate::diag::Finding;
use crate::frame::Env;
use crate::intrinsics::{self, Ctx};
use crate::shape;
use crate::split;
use codespan_reporting::diagnostic::Severity;
use llir::ir::Function;
use llir::layout::DataLayout;
use llir::print::{Edits, print_function};
use llir::{ItemKind, Module};
use rustc_hash::FxHashMap;

/// What lowering produced: the edits, and warnings about non-canonical but lowerable input.
pub struct Lowered {
    pub edits: Edits,
    pub warnings: Vec<Finding>,
    /// Per split coroutine: its name and frame, for reports.
    pub frames: Vec<(String, FrameSummary)>,
}

/// What is kept of a split coroutine once its functions are printed.
pub struct FrameSummary {
    pub frame: crate::frame::Frame,
    pub returns_frame: bool,
    pub resume: String,
    pub destroy: String,
    pub suspend_points: u32,
}

const NOOP_FRAME: &str = "@llcoro.noop.frame";
const NOOP_FN: &str = "@llcoro.noop.resume";

fn presplit_groups(m: &Module) -> Vec<(usize, String)> {
    m.items
        .iter()
        .enumerate()
        .filter(|(_, it)| it.kind == ItemKind::AttrGroup)
        .filter(|(i, _)| {
            let t = m.item_text(*i);
            t.contains("presplitcoroutine") || t.contains("\"coroutine.presplit\"")
        })
        .map(|(i, _)| (i, m.item_name(i).to_string()))
        .collect()
}

/// Lowers the using intrinsics of `out` (the functions replacing item `i`), verifies and prints them.
fn finish(
    i: usize,
    mut out: Vec<Function>,
    types: &mut llir::types::TypeTable,
    cx: &Ctx<'_>,
    edits: &mut Edits,
    errors: &mut Vec<Finding>,
    used_noop: &mut bool,
) {
    for g in out.iter_mut() {
        *used_noop |= intrinsics::lower_uses(g, types, cx);
        if let Err(mut e) = llir::verify::verify_function(g) {
            e.help = Some("this is a bug in llcoro; please report it with the input file".into());
            errors.push(Finding { severity: Severity::Error, error: e });
        }
    }
    let mut texts = out.iter().map(|g| print_function(g, types, cx.src));
    if let Some(first) = texts.next() {
        edits.replace.insert(i, first);
    }
    let rest: Vec<String> = texts.collect();
    if !rest.is_empty() {
        edits.insert_after.insert(i, rest);
    }
}

/// Lowers every coroutine and coroutine intrinsic in `m`. With `check_only`, nothing is rewritten:
/// all findings come back as errors or warnings.
pub fn lower_module(m: &mut Module, check_only: bool) -> Result<Lowered, Vec<Finding>> {
    let dl = DataLayout::from_module_text(&m.src);
    let groups = presplit_groups(m);
    let group_names: Vec<&str> = groups.iter().map(|(_, n)| n.as_str()).collect();
    let group_names: Vec<String> = group_names.iter().map(|s| s.to_string()).collect();
    let group_refs: Vec<&str> = group_names.iter().map(|s| s.as_str()).collect();
    let mut edits = Edits::default();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut frames = Vec::new();
    let mut used_noop = false;
    let mut types = m.types.clone();
    let mut meta: Option<crate::debug::MetaIndex> = None;
    let mut new_meta: Vec<String> = Vec::new();
    let mut pending: Vec<(usize, Vec<Function>)> = Vec::new();
    let defs: Vec<usize> = m.definitions().collect();
    for i in defs {
        let text = m.item_text(i);
        let refs_group =
            group_refs.iter().any(|g| text.split('{').next().unwrap_or("").split_whitespace().any(|w| w == *g));
        if !text.contains("@llvm.coro.") && !text.contains("presplitcoroutine") && !refs_group {
            continue;
        }
        let f = match m.parse_function_with(i, &mut types) {
            Ok(f) => f,
            Err(e) => return Err(vec![Finding { severity: Severity::Error, error: e }]),
        };
        let src = m.src.as_str();
        let suffix = f.header.suffix.get(src);
        let has_attr = suffix.contains("presplitcoroutine")
            || suffix.contains("\"coroutine.presplit\"")
            || suffix.split_whitespace().any(|w| group_refs.contains(&w));
        let mut out: Vec<Function> = Vec::new();
        if m.typed {
            // Typed pointers need typed frame accesses and function-pointer casts throughout.
            let at = f.inst_iter().map(|(_, i)| i).find(|&i| crate::intrinsics::intr_of(&f, i, src).is_some());
            errors.push(shape::error_at(
                &f,
                at,
                "coro-typed-pointers",
                "lowering coroutines in typed-pointer (LLVM 14) IR is not supported yet".into(),
                "use IR with opaque pointers (LLVM 15 or newer, or -opaque-pointers with LLVM 14), or LLVM 14's coro passes",
            ));
            continue;
        }
        if shape::is_presplit(&f, src, &group_refs) {
            let (sh, findings) = shape::analyze(&f, src, &types, has_attr);
            for x in findings {
                if x.severity == Severity::Error { errors.push(x) } else { warnings.push(x) }
            }
            let Some(sh) = sh else { continue };
            let env = Env { src, dl: &dl, typed: m.typed };
            if check_only {
                // Building the frame finds the remaining problems; nothing is written.
                if let Err(es) = split::split(f, &mut types, sh, &env) {
                    errors.extend(es);
                }
                continue;
            }
            let sp = crate::debug::header_subprogram(suffix);
            let nsusp = sh.suspends.len() as u32;
            match split::split(f, &mut types, sh, &env) {
                Ok(s) => {
                    let summary = FrameSummary {
                        frame: s.frame,
                        returns_frame: s.returns_frame,
                        resume: s.parts.first().map(|p| p.name.to_string()).unwrap_or_default(),
                        destroy: s.parts.get(1).map(|p| p.name.to_string()).unwrap_or_default(),
                        suspend_points: nsusp,
                    };
                    frames.push((s.ramp.name.to_string(), summary));
                    out.push(s.ramp);
                    for mut part in s.parts {
                        // Each part gets its own copy of the subprogram, or no debug info at all.
                        let linkage = part.name.trim_start_matches('@').trim_matches('"').to_string();
                        let cloned = sp.and_then(|sp| {
                            meta.get_or_insert_with(|| crate::debug::MetaIndex::build(m))
                                .clone_subprogram(m, sp, &linkage)
                        });
                        match cloned {
                            Some((new_sp, mut map, mut defs)) => {
                                if let Some(mi) = meta.as_mut() {
                                    mi.clone_dependents(m, &part, src, &mut map, &mut defs);
                                }
                                crate::debug::remap_function(&mut part, src, &map, new_sp);
                                new_meta.extend(defs);
                            }
                            None => split::strip_debug(&mut part, src),
                        }
                        out.push(part);
                    }
                }
                Err(es) => {
                    errors.extend(es);
                    continue;
                }
            }
        } else {
            out.push(f);
        }
        if check_only {
            continue;
        }
        if has_attr {
            edits.gap_replace.insert(i, vec![(" presplitcoroutine".into(), String::new())]);
        }
        // A function that resumes or destroys a handle some call returned may call that ramp's
        // parts directly, once every coroutine is known; the rest are finished and printed now,
        // so that the module's functions are never all in memory at once.
        let waits = out.iter().any(|g| {
            g.inst_iter().any(|(_, x)| {
                matches!(
                    intrinsics::intr_of(g, x, src),
                    Some(crate::intrinsics::Intr::Resume | crate::intrinsics::Intr::Destroy)
                ) && g.insts[x]
                    .call_args()
                    .first()
                    .and_then(|&h| g.value_inst(h))
                    .is_some_and(|d| matches!(g.insts[d].op, llir::ir::Opcode::Call | llir::ir::Opcode::Invoke))
            })
        });
        if waits {
            pending.push((i, out));
        } else {
            let direct = FxHashMap::default();
            let cx = Ctx { src, ptr_size: dl.pointer_size(0), noop_frame: NOOP_FRAME, direct: &direct };
            finish(i, out, &mut types, &cx, &mut edits, &mut errors, &mut used_noop);
        }
    }
    // The using intrinsics last, once every coroutine's resume and destroy functions are known.
    let src = m.src.as_str();
    let direct: FxHashMap<String, (String, String)> = frames
        .iter()
        .filter(|(_, s)| s.returns_frame && !s.resume.is_empty())
        .map(|(n, s)| (n.clone(), (s.resume.clone(), s.destroy.clone())))
        .collect();
    let cx = Ctx { src, ptr_size: dl.pointer_size(0), noop_frame: NOOP_FRAME, direct: &direct };
    for (i, out) in pending {
        finish(i, out, &mut types, &cx, &mut edits, &mut errors, &mut used_noop);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if check_only {
        return Ok(Lowered { edits, warnings, frames });
    }
    // Declarations of coroutine intrinsics go; no use is left.
    for (i, it) in m.items.iter().enumerate() {
        if it.kind == ItemKind::Declare && m.text(it.name).starts_with("@llvm.coro.") {
            edits.remove.insert(i);
        }
    }
    for (i, _) in &groups {
        let t = m.item_text(*i);
        let cleaned = t
            .replace(" presplitcoroutine", "")
            .replace("presplitcoroutine ", "")
            .replace(" \"coroutine.presplit\"=\"0\"", "")
            .replace(" \"coroutine.presplit\"=\"1\"", "");
        edits.replace.insert(*i, cleaned);
    }
    if used_noop {
        edits.append.push(intrinsics::noop_definitions(NOOP_FRAME, NOOP_FN));
    }
    if !new_meta.is_empty() {
        edits.append.push(new_meta.join("\n"));
    }
    m.types = types;
    Ok(Lowered { edits, warnings, frames })
}
