//! Frame reports (`llcoro frames`): for each coroutine, its frame's size and alignment, what the
//! frame would take if no two fields shared bytes, its suspend points (kind and source line when the
//! input tells), and every field with its offset, size, type, what it holds and the suspend points it
//! is live across. Text for people (`text`), JSON for tools (the schema is docs/frames-json.md), and
//! a picture as SVG or as a whole HTML page (`picture`).

mod picture;
pub(crate) mod source;
mod text;

pub use picture::{html, svg};
pub use source::Location;
pub use text::text;

use crate::frame::{FieldKind, Frame};
use crate::lower::{FrameSummary, Lowered};
use llir::Module;
use llir::ir::Function;
use rustc_hash::FxHashMap;
use serde::Serialize;
use source::{Metadata, Role};

/// The version of the JSON report's shape; raised on any change a reader could notice.
pub const SCHEMA_VERSION: u32 = 1;

/// What `llcoro frames` reports of one module.
#[derive(Serialize, Debug, Clone)]
pub struct Report {
    /// `SCHEMA_VERSION`, for readers of the JSON.
    pub schema_version: u32,
    /// Totals over the module.
    pub summary: Summary,
    /// One per coroutine, kxs suspend function and stackless function lowered.
    pub frames: Vec<FrameReport>,
}

/// The module at a glance.
#[derive(Serialize, Debug, Clone, Default)]
pub struct Summary {
    /// Frames reported (coroutines, kxs suspend functions and stackless functions).
    pub frames: usize,
    /// Of those, switched-resume and returned-continuation coroutines.
    pub coroutines: usize,
    /// The sum of the frames' sizes.
    pub frame_bytes: u64,
    /// The sum of what each frame would take if no two fields shared bytes.
    pub bytes_without_sharing: u64,
    /// `bytes_without_sharing - frame_bytes`: what sharing bytes between fields saved.
    pub bytes_saved: u64,
    /// Coroutines whose frame is not on the heap, and where it is instead.
    pub elided: Vec<Elision>,
}

/// A coroutine whose frame some callers keep off the heap.
#[derive(Serialize, Debug, Clone)]
pub struct Elision {
    /// The coroutine's name in the IR (mangled).
    pub coroutine: String,
    /// The same, demangled.
    pub name: String,
    /// Callers that keep the frame on their stack.
    pub on_stack_of: Vec<String>,
    /// Awaiting coroutines that keep the frame inside their own frame.
    pub inside_frame_of: Vec<String>,
    /// The coroutine never suspends, so its frame is on its own stack.
    pub own_stack: bool,
}

/// A place where the function suspends.
#[derive(Serialize, Debug, Clone)]
pub struct SuspendPoint {
    /// The number the frame's suspend index stores (`live_across` refers to it).
    pub index: u32,
    /// `initial`, `co_await`, `co_yield` or `final`, when the input tells; null otherwise.
    pub kind: Option<&'static str>,
    /// From the suspend's `!dbg`; null without debug info.
    pub location: Option<Location>,
    /// kxs: the id the marker passes (`__kxs_suspend_point(ID)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marker_id: Option<i128>,
}

/// A field of a frame.
#[derive(Serialize, Debug, Clone)]
pub struct FieldReport {
    /// Byte offset from the frame's start.
    pub offset: u64,
    /// Bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// The type as the IR spells it.
    #[serde(rename = "type")]
    pub ty: String,
    /// The type as the text report shows it (`source::display_type`).
    pub type_display: String,
    /// `resume function`, `destroy function`, `promise`, `suspend index`, `resume label`, `spill`,
    /// `alloca` or `saved`.
    pub kind: String,
    /// The IR value the field holds (`%13`, `%inc`), when it holds one.
    pub value: Option<String>,
    /// The source variable, from debug info.
    pub variable: Option<String>,
    /// What the field holds, for people: never empty, never cut.
    pub holds: String,
    /// The suspend points (`SuspendPoint::index`) the field's contents must survive.
    pub live_across: Vec<u32>,
    /// Positions in `fields` of the other fields that use some of these bytes.
    pub shares_with: Vec<usize>,
}

/// One function's frame.
#[derive(Serialize, Debug, Clone)]
pub struct FrameReport {
    /// The function's name in the IR (mangled).
    pub coroutine: String,
    /// The same, demangled.
    pub name: String,
    /// `coroutine`, `kxs` (a suspend function's spill frame) or `stackless` (a spill area).
    pub lowering: String,
    /// The frame's size in bytes.
    pub size: u64,
    /// The frame's alignment in bytes.
    pub align: u64,
    /// The size if no two fields shared bytes (`unshared_size`).
    pub size_without_sharing: u64,
    /// `size_without_sharing - size`.
    pub bytes_saved: u64,
    /// In suspend index order.
    pub suspend_points: Vec<SuspendPoint>,
    /// Every field; `shares_with` and the picture refer to them by position here.
    pub fields: Vec<FieldReport>,
    /// Values live across a suspend that get no field: recomputed after each resume.
    pub recomputed: Vec<String>,
    /// Callers that keep this coroutine's frame on their stack or in their frame (heap elision).
    pub elided_in: Vec<String>,
    /// The coroutine never suspends (once always-ready awaits are folded): its frame is on its own
    /// stack.
    pub on_own_stack: bool,
    /// A returned-continuation coroutine's caller-provided buffer (absent for other lowerings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<BufferReport>,
    /// An async coroutine's context, whose tail the frame is (absent for other lowerings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextReport>,
}

/// An async coroutine's context (`coro.id.async`'s header size and alignment): where the frame
/// starts in it, and the size the async function pointer now gives.
#[derive(Serialize, Debug, Clone)]
pub struct ContextReport {
    /// Bytes of the context the front end lays out (`coro.id.async`'s size operand).
    pub header_size: u64,
    /// Where the frame starts: the header size rounded up to the frame's alignment.
    pub frame_offset: u64,
    /// The whole context's size, as written into the async function pointer.
    pub size: u64,
    /// The context's alignment (`coro.id.async`'s alignment operand, 0 read as 1).
    pub align: u64,
}

/// The buffer a returned-continuation coroutine's caller passes (`coro.id.retcon`'s size and
/// alignment), and whether the frame is in it or in memory from the allocator, whose address the
/// buffer then holds.
#[derive(Serialize, Debug, Clone)]
pub struct BufferReport {
    /// The buffer's size in bytes.
    pub size: u64,
    /// The buffer's alignment in bytes.
    pub align: u64,
    /// The frame fits and lives in the buffer.
    pub frame_in_buffer: bool,
}

pub(crate) fn build(m: &Module, lowered: &Lowered) -> Report {
    let md = Metadata::new(m);
    let index: FxHashMap<&str, usize> = m.definitions().map(|i| (m.item_name(i), i)).collect();
    let mut types = m.types.clone();
    let mut frames = Vec::new();
    for (name, summary) in &lowered.frames {
        // The input's own function: what its values are for, where its suspends are.
        let input = index.get(name.as_str()).and_then(|&i| m.parse_function_with(i, &mut types).ok());
        frames.push(frame_report(m, &md, &types, name, summary, input.as_ref()));
    }
    let reported: Vec<String> = frames.iter().map(|f| f.coroutine.clone()).collect();
    let mut s = Summary { frames: frames.len(), ..Summary::default() };
    for f in &frames {
        s.coroutines += usize::from(matches!(f.lowering.as_str(), "coroutine" | "retcon" | "retcon.once" | "async"));
        s.frame_bytes += f.size;
        s.bytes_without_sharing += f.size_without_sharing;
        s.bytes_saved += f.bytes_saved;
        if !f.elided_in.is_empty() || f.on_own_stack {
            let (inside, on_stack): (Vec<String>, Vec<String>) =
                f.elided_in.iter().cloned().partition(|c| reported.contains(c));
            s.elided.push(Elision {
                coroutine: f.coroutine.clone(),
                name: f.name.clone(),
                on_stack_of: on_stack,
                inside_frame_of: inside,
                own_stack: f.on_own_stack,
            });
        }
    }
    Report { schema_version: SCHEMA_VERSION, summary: s, frames }
}

fn frame_report(
    m: &Module,
    md: &Metadata<'_>,
    types: &llir::types::TypeTable,
    name: &str,
    summary: &FrameSummary,
    input: Option<&Function>,
) -> FrameReport {
    let src = m.src.as_str();
    let fr = &summary.frame;
    let lowering = summary.lowering.unwrap_or("coroutine");
    let roles = input.map(|f| source::roles(f, src)).unwrap_or_default();
    let mut fields: Vec<FieldReport> = fr
        .fields
        .iter()
        .enumerate()
        .map(|(k, fl)| {
            let ty = summary.field_types.get(k).cloned().unwrap_or_default();
            let value_of = |v: llir::ir::Value| {
                // The engine's value ids are the input's: lowering only appends values. A value the
                // lowering made has none in the input, so its own name (if any) is used.
                input
                    .and_then(|f| f.values.get(v))
                    .and_then(|d| d.name.as_deref())
                    .map(|n| format!("%{n}"))
                    .or_else(|| fl.ir_name.clone())
            };
            let (value, role) = match fl.kind {
                FieldKind::Spill(v) | FieldKind::Alloca(v) | FieldKind::Promise(v) | FieldKind::Saved(v) => {
                    (value_of(v), roles.get(&v).cloned())
                }
                _ => (None, None),
            };
            let var = fl.var.and_then(|v| md.variable(v));
            let holds = holds(&fl.kind, &ty, value.as_deref(), var.as_ref(), role.as_ref());
            FieldReport {
                offset: fl.offset,
                size: fl.size,
                align: fl.align,
                type_display: source::display_type(&ty),
                ty,
                kind: kind_name(&fl.kind).to_string(),
                value,
                variable: var.map(|v| v.name),
                holds,
                live_across: fl.live_across.clone(),
                shares_with: Vec::new(),
            }
        })
        .collect();
    // Fields whose byte ranges overlap share storage (they are never needed at the same time).
    let ranges: Vec<(u64, u64)> = fields.iter().map(|f| (f.offset, f.offset + f.size)).collect();
    for (k, f) in fields.iter_mut().enumerate() {
        let (s, e) = ranges[k];
        f.shares_with =
            ranges.iter().enumerate().filter(|&(j, r)| j != k && r.0 < e && s < r.1).map(|(j, _)| j).collect();
    }
    let size_without_sharing = unshared_size(fr, lowering).max(fr.size);
    FrameReport {
        coroutine: name.to_string(),
        name: source::demangle(name),
        lowering: lowering.to_string(),
        size: fr.size,
        align: fr.align,
        size_without_sharing,
        bytes_saved: size_without_sharing - fr.size,
        suspend_points: suspend_points(m, md, types, summary, input),
        fields,
        recomputed: fr.remat_names.clone(),
        elided_in: summary.elided_in.clone(),
        on_own_stack: summary.on_own_stack,
        buffer: summary.buffer.map(|(size, align, frame_in_buffer)| BufferReport { size, align, frame_in_buffer }),
        context: summary.context.map(|(header_size, frame_offset, size, align)| ContextReport {
            header_size,
            frame_offset,
            size,
            align,
        }),
    }
}

fn kind_name(k: &FieldKind) -> &'static str {
    match k {
        FieldKind::ResumeFn => "resume function",
        FieldKind::DestroyFn => "destroy function",
        FieldKind::Promise(_) => "promise",
        FieldKind::Index => "suspend index",
        FieldKind::ResumeLabel => "resume label",
        FieldKind::Spill(_) => "spill",
        FieldKind::Alloca(_) => "alloca",
        FieldKind::Saved(_) => "saved",
    }
}

/// What a field holds, in words: the header by its role; a value by its source variable, else what
/// the code around it says it is for, else its IR name, else its type and whether it is a local (an
/// alloca) or a temporary (a spilled SSA value). A numbered value's number follows in parentheses,
/// so that two rows of the same kind can be told apart and found in the IR.
fn holds(
    kind: &FieldKind,
    ty: &str,
    value: Option<&str>,
    var: Option<&source::Variable>,
    role: Option<&Role>,
) -> String {
    let what = match kind {
        FieldKind::ResumeFn => return "pointer to .resume (null when done)".into(),
        FieldKind::DestroyFn => return "pointer to .destroy or .cleanup".into(),
        FieldKind::Index => return "which suspend point to resume at".into(),
        FieldKind::ResumeLabel => return "the block .resume continues at".into(),
        FieldKind::Promise(_) => "the promise".to_string(),
        _ if var.is_some() => match var {
            Some(v) if v.parameter => format!("parameter `{}`", v.name),
            Some(v) => format!("variable `{}`", v.name),
            None => String::new(),
        },
        _ => match role {
            Some(Role::Awaiter) => format!("awaiter of {}", source::display_type(ty)),
            Some(Role::ExceptionSlot) => "exception slot".into(),
            Some(Role::SelectorSlot) => "exception selector slot".into(),
            Some(Role::ParamCopy(p)) => format!("copy of parameter {p}"),
            None => match value {
                Some(v) if v.starts_with("%coro.elided.frame") => "frame of an awaited coroutine".into(),
                Some(v) if !llir::print::is_numbered(v.trim_start_matches('%')) => return v.to_string(),
                _ => match kind {
                    FieldKind::Alloca(_) => format!("{} local", source::display_type(ty)),
                    FieldKind::Saved(_) => "value the front end saved".into(),
                    _ => format!("{} temporary", source::display_type(ty)),
                },
            },
        },
    };
    match value {
        Some(v) => format!("{what} ({v})"),
        None => what,
    }
}

/// The frame's size if every field had bytes of its own: the fields a coroutine's lowering places at
/// fixed offsets stay there (the resume and destroy pointers and the promise), the others are placed
/// as the frame's own layout places them (by decreasing alignment, then size, each at the lowest
/// offset free for it) but with no two sharing, and the end is rounded up to the frame's alignment.
/// What LLVM's layout, which shares nothing, would take. A stackless spill area is measured as its
/// size is: the engine's spills alone, from 0 (the front end's own slots are not part of it).
pub fn unshared_size(fr: &Frame, lowering: &str) -> u64 {
    let fixed_kind = |k: &FieldKind| matches!(k, FieldKind::ResumeFn | FieldKind::DestroyFn | FieldKind::Promise(_));
    let (fixed, rest): (Vec<&crate::frame::Field>, Vec<&crate::frame::Field>) = match lowering {
        "coroutine" => fr.fields.iter().partition(|x| fixed_kind(&x.kind)),
        _ => (Vec::new(), fr.fields.iter().filter(|x| !matches!(x.kind, FieldKind::Saved(_))).collect()),
    };
    // A stackless spill area's fields are at offsets from `sp`, from its start on (which is where
    // they end less the area's size): it is laid out again from there, and not rounded up.
    let base = match lowering {
        "coroutine" => 2 * fr.ptr_size,
        "stackless" => rest.iter().map(|x| x.offset + x.size).max().map_or(0, |e| e.saturating_sub(fr.size)),
        _ => 0,
    };
    let items: Vec<(u64, u64)> = rest.iter().map(|x| (x.size, x.align)).collect();
    let taken: Vec<(u64, u64)> = fixed.iter().map(|x| (x.offset, x.size)).collect();
    let mut clashes = crate::frame::layout::Clashes::new(items.len());
    for k in 0..items.len() {
        clashes.set_all(k);
    }
    let (_, end) = crate::frame::layout::pack(&items, &clashes, base, &taken);
    let end = taken.iter().map(|&(o, s)| o + s).fold(end, u64::max);
    if lowering == "stackless" {
        return end - base;
    }
    let align = fr.align.max(1);
    end.div_ceil(align) * align
}

/// `1 frame`, `2 frames`.
fn count(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// The module summary in one line, as the text report ends and the HTML page begins.
pub fn summary_line(sm: &Summary) -> String {
    format!(
        "{} ({}), {} bytes; {} bytes if no fields shared, {} saved; {} off the heap",
        count(sm.frames, "frame"),
        count(sm.coroutines, "coroutine"),
        sm.frame_bytes,
        sm.bytes_without_sharing,
        sm.bytes_saved,
        count(sm.elided.len(), "frame")
    )
}

/// Callers by name for people, each once: `main (2 call sites)`.
pub fn callers(names: &[String]) -> String {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for n in names {
        match seen.iter_mut().find(|(m, _)| *m == n.as_str()) {
            Some((_, c)) => *c += 1,
            None => seen.push((n.as_str(), 1)),
        }
    }
    let list: Vec<String> = seen
        .iter()
        .map(|&(n, c)| if c > 1 { format!("{} ({c} call sites)", source::demangle(n)) } else { source::demangle(n) })
        .collect();
    list.join(", ")
}

/// Each suspend point once, in index order, with what the input tells of it.
fn suspend_points(
    m: &Module,
    md: &Metadata<'_>,
    types: &llir::types::TypeTable,
    summary: &FrameSummary,
    input: Option<&Function>,
) -> Vec<SuspendPoint> {
    let src = m.src.as_str();
    let mut out: Vec<SuspendPoint> = (0..summary.suspend_points)
        .map(|k| SuspendPoint {
            index: k,
            kind: None,
            location: None,
            marker_id: summary.marker_ids.get(k as usize).copied(),
        })
        .collect();
    let Some(f) = input else { return out };
    let locate = |i: llir::ir::Inst| source::dbg_of(f, i, src).and_then(|d| md.location(d));
    match summary.lowering {
        None => {
            let (Some(shape), _) = crate::coro::shape::analyze(f, src, types, true) else { return out };
            let awaits: Vec<llir::ir::Inst> = shape.awaits.iter().map(|&(i, _)| i).collect();
            for s in &shape.suspends {
                if let Some(p) = out.get_mut(s.index as usize) {
                    p.kind = source::suspend_kind(f, src, s.call, s.is_final, &awaits);
                    p.location = locate(s.call);
                }
            }
        }
        Some("kxs") => {
            // The markers in instruction order are the suspend points in index order (`kxs::markers`).
            let markers: Vec<llir::ir::Inst> =
                f.inst_iter().map(|(_, i)| i).filter(|&i| f.callee_name(i, src) == Some(crate::kxs::MARKER)).collect();
            if markers.len() == out.len() {
                for (p, &i) in out.iter_mut().zip(&markers) {
                    p.location = locate(i);
                }
            }
        }
        Some(_) => {}
    }
    out
}

/// The report as JSON (docs/frames-json.md), as `llcoro frames --format=json` writes it.
pub fn json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Field;

    fn field(kind: FieldKind, offset: u64, size: u64, align: u64) -> Field {
        let mut f = Field::new(kind, llir::types::TypeTable::new().i32, size, align);
        f.offset = offset;
        f
    }

    fn frame(fields: Vec<Field>, size: u64, align: u64) -> Frame {
        Frame {
            fields,
            size,
            align,
            index_ty: llir::types::TypeTable::new().i1,
            index_off: 0,
            label_off: None,
            ptr_size: 8,
            local_allocas: Vec::new(),
            declares: Vec::new(),
            remat: Vec::new(),
            remat_names: Vec::new(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn unshared_size_gives_each_field_its_own_bytes() {
        let v = |n| llir::ir::Value::from_u32(n);
        // Header 0..16, an i32 promise at 16, two i32 allocas sharing 20..24, an i1 index at 24.
        let fields = vec![
            field(FieldKind::ResumeFn, 0, 8, 8),
            field(FieldKind::DestroyFn, 8, 8, 8),
            field(FieldKind::Promise(v(0)), 16, 4, 4),
            field(FieldKind::Alloca(v(1)), 20, 4, 4),
            field(FieldKind::Alloca(v(2)), 20, 4, 4),
            field(FieldKind::Index, 24, 1, 1),
        ];
        // Unshared: the allocas at 20 and 24, the index at 28: 29 bytes, rounded up to 32.
        assert_eq!(unshared_size(&frame(fields, 32, 8), "coroutine"), 32);
        // A kxs frame: two i64 spills sharing 0..8, an i8 at 8: unshared 0, 8, 16 and 17 → 24.
        let fields = vec![
            field(FieldKind::Spill(v(0)), 0, 8, 8),
            field(FieldKind::Spill(v(1)), 0, 8, 8),
            field(FieldKind::Spill(v(2)), 8, 1, 1),
        ];
        assert_eq!(unshared_size(&frame(fields, 16, 8), "kxs"), 24);
        // A stackless spill area at 16, after a front-end slot at 8: the spills alone, from 0.
        let fields = vec![
            field(FieldKind::Saved(v(0)), 8, 8, 8),
            field(FieldKind::Spill(v(1)), 16, 8, 4),
            field(FieldKind::Spill(v(2)), 16, 8, 4),
        ];
        assert_eq!(unshared_size(&frame(fields, 8, 1), "stackless"), 16);
        // A spill area at 40 holding a 16-aligned vector at 48 and an i64 in the padding at 40,
        // sharing nothing: 24 bytes from 40; apart they still fit there.
        let fields = vec![field(FieldKind::Spill(v(1)), 48, 16, 16), field(FieldKind::Spill(v(2)), 40, 8, 8)];
        assert_eq!(unshared_size(&frame(fields, 24, 16), "stackless"), 24);
        // Sharing 48..56: unshared, the i64 goes to the padding before the vector.
        let fields = vec![field(FieldKind::Spill(v(1)), 48, 16, 16), field(FieldKind::Spill(v(2)), 48, 8, 8)];
        assert_eq!(unshared_size(&frame(fields, 24, 16), "stackless"), 24);
    }

    #[test]
    fn holds_never_repeats_a_phrase_for_two_values() {
        let v = llir::ir::Value::from_u32(3);
        let a = holds(&FieldKind::Alloca(v), "i32", Some("%15"), None, None);
        let b = holds(&FieldKind::Alloca(v), "i32", Some("%16"), None, None);
        assert_eq!(a, "i32 local (%15)");
        assert_ne!(a, b);
        let t = holds(&FieldKind::Spill(v), "i64", Some("%24"), None, None);
        assert_eq!(t, "i64 temporary (%24)");
        let aw = holds(
            &FieldKind::Alloca(v),
            "%\"struct.std::__n4861::suspend_always\"",
            Some("%13"),
            None,
            Some(&Role::Awaiter),
        );
        assert_eq!(aw, "awaiter of std::suspend_always (%13)");
        let var = source::Variable { name: "lo".into(), parameter: true };
        assert_eq!(holds(&FieldKind::Alloca(v), "i32", Some("%9"), Some(&var), None), "parameter `lo` (%9)");
        assert_eq!(holds(&FieldKind::Spill(v), "i32", Some("%inc"), None, None), "%inc");
    }
}
