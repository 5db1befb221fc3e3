//! The report for people: per frame, a heading with the demangled name, the sizes, the suspend points,
//! and a table of fields whose columns are as wide as their widest cell (nothing is cut).

use super::{FrameReport, Report, callers};
use std::fmt::Write;

/// The report as a table for people, as `llcoro frames` prints it by default.
pub fn text(report: &Report) -> String {
    let mut s = String::new();
    for r in &report.frames {
        frame(&mut s, r, report);
        s.push('\n');
    }
    let sm = &report.summary;
    if sm.frames == 0 {
        s.push_str("no frames: the module has no coroutine, kxs suspend function or stackless function\n");
        return s;
    }
    let _ = writeln!(s, "module: {}", super::summary_line(sm));
    s
}

/// One frame: its heading, suspend points, fields, where it was elided to, what is recomputed.
fn frame(s: &mut String, r: &FrameReport, report: &Report) {
    heading(s, r);
    suspend_points(s, r);
    fields(s, r);
    elision(s, r, report);
    if !r.recomputed.is_empty() {
        let _ = writeln!(s, "  recomputed after each resume (no field): {}", r.recomputed.join(", "));
    }
}

/// The frame's name, size and alignment, and the buffer or async context it lives in.
fn heading(s: &mut String, r: &FrameReport) {
    let what = match r.lowering.as_str() {
        "kxs" => "kxs spill frame",
        "stackless" => "stackless spill area",
        _ => "frame",
    };
    let plain = r.coroutine.trim_start_matches('@').trim_matches('"');
    if r.name == plain {
        let _ = writeln!(s, "{}", r.coroutine);
    } else {
        let _ = writeln!(s, "{}  {}", r.name, r.coroutine);
    }
    let _ = writeln!(
        s,
        "  {what} {} bytes, align {}; {} bytes if no fields shared; sharing saves {} bytes",
        r.size, r.align, r.size_without_sharing, r.bytes_saved
    );
    if let Some(b) = &r.buffer {
        let place = if b.frame_in_buffer {
            "the frame is in it".to_string()
        } else {
            format!("it holds the address of the frame, from the allocator ({} bytes do not fit)", r.size)
        };
        let _ = writeln!(s, "  caller's buffer {} bytes, align {}: {place}", b.size, b.align);
    }
    if let Some(c) = &r.context {
        let _ = writeln!(
            s,
            "  async context {} bytes, align {}: a {}-byte header, the frame at offset {}",
            c.size, c.align, c.header_size, c.frame_offset
        );
    }
}

/// The suspend points: index, kind and source location.
fn suspend_points(s: &mut String, r: &FrameReport) {
    if r.suspend_points.is_empty() {
        s.push_str("  no suspend points\n");
    } else {
        s.push_str("  suspend points:\n");
        let rows: Vec<[String; 3]> = r
            .suspend_points
            .iter()
            .map(|p| {
                let kind = match (p.kind, p.marker_id) {
                    (Some(k), _) => k.to_string(),
                    (None, Some(id)) => format!("marker {id}"),
                    (None, None) => "suspend".to_string(),
                };
                let loc = p.location.as_ref().map_or_else(|| "(no debug location)".to_string(), |l| l.to_string());
                [p.index.to_string(), kind, loc]
            })
            .collect();
        table(s, "    ", &[], &rows, &[true, false, false]);
    }
}

/// The fields' table: offset, size, alignment, type, what each holds and when, and sharing.
fn fields(s: &mut String, r: &FrameReport) {
    let all = r.suspend_points.len();
    let header = ["offset", "size", "align", "type", "kind", "holds", "live across", "shares bytes with"];
    let rows: Vec<[String; 8]> = r
        .fields
        .iter()
        .map(|f| {
            let live = if f.live_across.is_empty() {
                "none".to_string()
            } else if f.live_across.len() == all {
                "all".to_string()
            } else {
                f.live_across.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
            };
            let shared: Vec<&str> =
                f.shares_with.iter().filter_map(|&j| r.fields.get(j)).map(|g| g.holds.as_str()).collect();
            [
                f.offset.to_string(),
                f.size.to_string(),
                f.align.to_string(),
                f.type_display.clone(),
                f.kind.clone(),
                f.holds.clone(),
                live,
                shared.join(", "),
            ]
        })
        .collect();
    if rows.is_empty() {
        s.push_str("  no fields: nothing is live across a suspend point\n");
    } else {
        table(s, "  ", &header, &rows, &[true, true, true, false, false, false, false, false]);
    }
}

/// Where heap elision put the frame instead of the heap.
fn elision(s: &mut String, r: &FrameReport, report: &Report) {
    if let Some(e) = report.summary.elided.iter().find(|e| e.coroutine == r.coroutine) {
        if e.own_stack {
            s.push_str("  frame on its own stack, not the heap: the coroutine never suspends\n");
        }
        if !e.on_stack_of.is_empty() {
            let _ = writeln!(s, "  frame on the caller's stack, not the heap, in: {}", callers(&e.on_stack_of));
        }
        if !e.inside_frame_of.is_empty() {
            let _ = writeln!(
                s,
                "  frame inside the frame of the awaiting coroutine, not the heap: {}",
                callers(&e.inside_frame_of)
            );
        }
    }
}

/// Rows under an optional header, each column as wide as its widest cell, numbers right-aligned;
/// the last column is not padded, so no line ends in spaces.
fn table<const N: usize>(s: &mut String, indent: &str, header: &[&str], rows: &[[String; N]], right: &[bool; N]) {
    let mut width = [0usize; N];
    for (k, w) in width.iter_mut().enumerate() {
        let h = header.get(k).map_or(0, |h| h.chars().count());
        *w = rows.iter().map(|r| r[k].chars().count()).fold(h, usize::max);
    }
    let mut line = |cells: &[&str]| {
        let mut l = String::from(indent);
        for (k, c) in cells.iter().enumerate() {
            let pad = width[k].saturating_sub(c.chars().count());
            if k > 0 {
                l.push_str("  ");
            }
            if right[k] {
                l.push_str(&" ".repeat(pad));
                l.push_str(c);
            } else {
                l.push_str(c);
                if k + 1 < N {
                    l.push_str(&" ".repeat(pad));
                }
            }
        }
        s.push_str(l.trim_end());
        s.push('\n');
    };
    if !header.is_empty() {
        line(header);
    }
    for r in rows {
        let cells: Vec<&str> = r.iter().map(String::as_str).collect();
        line(&cells);
    }
}
