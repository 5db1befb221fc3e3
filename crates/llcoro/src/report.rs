//! Frame reports (`llcoro frames`): for each coroutine, its frame's size and alignment and every field
//! with its offset, size, type, what it holds (named by the source variable when debug info has it),
//! and the suspend points it is live across. Text for people, JSON for tools, SVG as a picture: one
//! row per suspend point, one column per byte, a box where a field is live.

use crate::frame::FieldKind;
use crate::lower::Lowered;
use llir::Module;
use serde::Serialize;
use std::fmt::Write;

#[derive(Serialize, Debug, Clone)]
pub struct FieldReport {
    pub offset: u64,
    pub size: u64,
    pub align: u64,
    #[serde(rename = "type")]
    pub ty: String,
    /// `resume function`, `destroy function`, `promise`, `suspend index`, `spill` or `alloca`.
    pub kind: String,
    /// The source variable, the IR value's name, or a description.
    pub holds: String,
    pub live_across: Vec<u32>,
    /// Offsets of other fields sharing these bytes.
    pub shares_with: Vec<u64>,
    /// The same fields, by position in the report's list.
    #[serde(skip)]
    pub shared: Vec<usize>,
}

#[derive(Serialize, Debug, Clone)]
pub struct FrameReport {
    pub coroutine: String,
    /// `kxs` for a kxs suspend function's spill frame (absent for coroutine frames).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lowering: Option<String>,
    pub size: u64,
    pub align: u64,
    pub suspend_points: u32,
    /// For kxs: the id each suspend point's marker gives (`__kxs_suspend_point(ID)`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marker_ids: Vec<i128>,
    pub fields: Vec<FieldReport>,
    /// Values live across a suspend that get no field: recomputed after each resume.
    pub recomputed: Vec<String>,
    /// Callers that keep this coroutine's frame on their stack (heap elision), one per call site.
    pub elided_in: Vec<String>,
}

/// The variable names of `!DILocalVariable` nodes, looked up in the module text.
fn variable_name(m: &Module, id: u32) -> Option<String> {
    let want = format!("!{id}");
    let i = m.items.iter().position(|it| it.kind == llir::ItemKind::Metadata && m.text(it.name) == want)?;
    let t = m.item_text(i);
    let p = t.find("name: \"")? + 7;
    let e = t[p..].find('"')?;
    Some(t[p..p + e].to_string())
}

pub fn build(m: &Module, lowered: &Lowered) -> Vec<FrameReport> {
    let mut out = Vec::new();
    for (name, summary) in &lowered.frames {
        let fr = &summary.frame;
        let mut fields = Vec::new();
        for (k, fl) in fr.fields.iter().enumerate() {
            let (kind, default) = match fl.kind {
                FieldKind::ResumeFn => ("resume function", "resume function pointer".to_string()),
                FieldKind::DestroyFn => ("destroy function", "destroy function pointer".to_string()),
                FieldKind::Promise(_) => ("promise", "the promise".to_string()),
                FieldKind::Index => ("suspend index", "which suspend point to resume at".to_string()),
                FieldKind::ResumeLabel => ("resume label", "the block .resume continues at".to_string()),
                FieldKind::Spill(_) => ("spill", "a value live across a suspend".to_string()),
                FieldKind::Alloca(_) => ("alloca", "a local whose address is used across a suspend".to_string()),
                FieldKind::Saved(_) => ("saved", "a value the front end saved in its frame".to_string()),
            };
            let holds = fl
                .var
                .and_then(|v| variable_name(m, v))
                .map(|n| format!("variable `{n}`"))
                .or_else(|| fl.ir_name.clone())
                .unwrap_or(default);
            fields.push(FieldReport {
                offset: fl.offset,
                size: fl.size,
                align: fl.align,
                ty: summary.field_types.get(k).cloned().unwrap_or_default(),
                kind: kind.to_string(),
                holds,
                live_across: fl.live_across.clone(),
                shares_with: Vec::new(),
                shared: Vec::new(),
            });
        }
        // Fields whose byte ranges overlap share storage (allocas whose lifetimes never meet).
        let ranges: Vec<(u64, u64)> = fields.iter().map(|f| (f.offset, f.offset + f.size)).collect();
        for (k, f) in fields.iter_mut().enumerate() {
            f.shared = (0..ranges.len())
                .filter(|&j| j != k && ranges[j].0 < ranges[k].1 && ranges[k].0 < ranges[j].1)
                .collect();
            f.shares_with = f.shared.iter().map(|&j| ranges[j].0).collect();
        }
        out.push(FrameReport {
            coroutine: name.clone(),
            lowering: summary.lowering.map(str::to_string),
            size: fr.size,
            align: fr.align,
            suspend_points: summary.suspend_points,
            marker_ids: summary.marker_ids.clone(),
            fields,
            recomputed: fr.remat_names.clone(),
            elided_in: summary.elided_in.clone(),
        });
    }
    out
}

pub fn text(reports: &[FrameReport]) -> String {
    let mut s = String::new();
    for r in reports {
        let what = match r.lowering.as_deref() {
            Some("kxs") => "kxs spill frame",
            Some("stackless") => "stackless spill area",
            _ => "frame",
        };
        let ids = if r.marker_ids.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = r.marker_ids.iter().map(|i| i.to_string()).collect();
            format!(" (marker ids {})", list.join(", "))
        };
        let _ = writeln!(
            s,
            "{}: {what} {} bytes, align {}, {} suspend points{ids}",
            r.coroutine, r.size, r.align, r.suspend_points
        );
        let _ =
            writeln!(s, "  {:>6} {:>5}  {:<22} {:<16} {:<36} live across", "offset", "size", "type", "kind", "holds");
        for f in &r.fields {
            let live = if f.live_across.len() as u32 == r.suspend_points && r.suspend_points > 0 {
                "all".to_string()
            } else {
                f.live_across.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
            };
            let ty: String = f.ty.chars().take(22).collect();
            let holds: String = f.holds.chars().take(36).collect();
            // Name the fields sharing these bytes by what they hold: offsets alone repeat.
            let others: Vec<&str> =
                f.shared.iter().filter_map(|&j| r.fields.get(j)).map(|g| g.holds.as_str()).collect();
            let shared = match others.len() {
                0 => String::new(),
                1..=3 => format!("  (shares bytes with {})", others.join(", ")),
                n => format!("  (shares bytes with {} and {} more)", others[..3].join(", "), n - 3),
            };
            let _ = writeln!(
                s,
                "  {:>6} {:>5}  {:<22} {:<16} {:<36} {}{shared}",
                f.offset, f.size, ty, f.kind, holds, live
            );
        }
        if !r.elided_in.is_empty() {
            // A caller that is itself a coroutine holds the frame in its own frame.
            let (in_frames, on_stacks): (Vec<&String>, Vec<&String>) =
                r.elided_in.iter().partition(|c| reports.iter().any(|o| &o.coroutine == *c));
            let list = |v: &[&String]| v.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", ");
            if !on_stacks.is_empty() {
                let _ = writeln!(s, "  frame on the caller's stack, not the heap, in: {}", list(&on_stacks));
            }
            if !in_frames.is_empty() {
                let _ = writeln!(
                    s,
                    "  frame inside the frame of the awaiting coroutine, not the heap: {}",
                    list(&in_frames)
                );
            }
        }
        if !r.recomputed.is_empty() {
            let _ = writeln!(s, "  recomputed after each resume (no field): {}", r.recomputed.join(", "));
        }
        s.push('\n');
    }
    s
}

pub fn json(reports: &[FrameReport]) -> String {
    serde_json::to_string_pretty(reports).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// One picture per coroutine, stacked: rows are suspend points, columns bytes; a field is a box
/// over its byte range in every row where it is live.
pub fn svg(reports: &[FrameReport]) -> String {
    let colors =
        ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
    let (left, top, row_h, width) = (150.0, 40.0, 22.0, 760.0);
    let mut body = String::new();
    let mut y = 10.0;
    for r in reports {
        let rows = r.suspend_points.max(1) as f64;
        let scale = if r.size > 0 { width / r.size as f64 } else { 1.0 };
        let _ = writeln!(
            body,
            r#"<text x="10" y="{:.1}" font-size="14" font-weight="bold">{} — {} bytes, align {}</text>"#,
            y + 16.0,
            esc(&r.coroutine),
            r.size,
            r.align
        );
        let y0 = y + top;
        for k in 0..r.suspend_points.max(1) {
            let ry = y0 + k as f64 * row_h;
            let _ = writeln!(body, r#"<text x="10" y="{:.1}" font-size="12">suspend {k}</text>"#, ry + 15.0);
            let _ = writeln!(
                body,
                r#"<rect x="{left}" y="{ry:.1}" width="{width}" height="{row_h}" fill="none" stroke="lightgray"/>"#
            );
        }
        for (n, f) in r.fields.iter().enumerate() {
            let x = left + f.offset as f64 * scale;
            let w = (f.size as f64 * scale).max(1.0);
            let c = colors[n % colors.len()];
            for &k in &f.live_across {
                let ry = y0 + k as f64 * row_h + 2.0;
                let _ = writeln!(
                    body,
                    r#"<rect x="{x:.1}" y="{ry:.1}" width="{w:.1}" height="{:.1}" fill="{c}" stroke="white"><title>{} @{} ({} bytes, {}): {}</title></rect>"#,
                    row_h - 4.0,
                    esc(&f.kind),
                    f.offset,
                    f.size,
                    esc(&f.ty),
                    esc(&f.holds)
                );
            }
            let ty = y0 + rows * row_h + 14.0 + (n % 3) as f64 * 12.0;
            let _ = writeln!(body, r#"<text x="{x:.1}" y="{ty:.1}" font-size="9" fill="{c}">{}</text>"#, f.offset);
        }
        y = y0 + rows * row_h + 60.0;
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n",
        left + width + 20.0,
        y
    )
}
