//! The frame as a picture. Per frame: one row per suspend point (labelled with its kind and source
//! line), one column per byte, a bar where a field is live across that suspend, its name inside when
//! it fits and a tooltip (`<title>`) on everything; under the rows the layout itself, fields that
//! share bytes stacked in lanes with the shared bytes hatched; then a legend. `svg` stacks the
//! frames of a module in one picture; `html` makes one self-contained page with a table of the
//! frames, sortable by size, and each frame's picture and fields.

use super::{FieldReport, FrameReport, Report, callers};
use std::fmt::Write;

const LEFT: f64 = 230.0;
const WIDTH: f64 = 760.0;
const ROW: f64 = 22.0;
/// Width of one character of the 10px labels, generously, so a label drawn is a label that fits.
const CHAR_W: f64 = 6.2;
const PALETTE: [&str; 9] =
    ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"];
const HEADER_COLOR: &str = "#bab0ac";
/// The hatching drawn over shared bytes; `defs` defines it once per document.
const HATCH: &str = "llcoro-shared";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn defs() -> String {
    format!(
        "<defs><pattern id=\"{HATCH}\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"white\" fill-opacity=\"0.15\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"black\" stroke-width=\"2\" stroke-opacity=\"0.6\"/>\
         </pattern></defs>\n"
    )
}

fn color(f: &FieldReport, k: usize) -> &'static str {
    match f.kind.as_str() {
        "resume function" | "destroy function" | "suspend index" | "resume label" => HEADER_COLOR,
        _ => PALETTE[k % PALETTE.len()],
    }
}

/// A field's name where space is short: its source variable, else its IR value, else its kind.
fn short(f: &FieldReport) -> String {
    match (&f.variable, &f.value) {
        (Some(v), _) => v.clone(),
        (None, Some(v)) => v.clone(),
        _ => f.kind.clone(),
    }
}

fn tooltip(f: &FieldReport) -> String {
    let live = if f.live_across.is_empty() {
        "none".to_string()
    } else {
        f.live_across.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
    };
    format!(
        "{}: {}, bytes {}..{} ({} bytes, align {}), {}; live across suspend points: {live}",
        f.kind,
        f.holds,
        f.offset,
        f.offset + f.size,
        f.size,
        f.align,
        f.type_display
    )
}

/// Where a bar goes, in pixels.
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// A bar with its label inside when it fits, and its tooltip.
fn bar(out: &mut String, r: Rect, fill: &str, label: &str, title: &str) {
    let Rect { x, y, w, h } = r;
    let _ = write!(
        out,
        r#"<g><title>{}</title><rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" stroke="white"/>"#,
        esc(title)
    );
    if (label.chars().count() as f64) * CHAR_W + 4.0 <= w {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="black">{}</text>"#,
            x + w / 2.0,
            y + h / 2.0 + 3.5,
            esc(label)
        );
    }
    out.push_str("</g>\n");
}

/// One frame's picture, its top at `y`; returns the elements and the height used.
fn frame(r: &FrameReport, y: f64) -> (String, f64) {
    let mut out = String::new();
    let scale = if r.size > 0 { WIDTH / r.size as f64 } else { 1.0 };
    let _ = writeln!(
        out,
        r#"<text x="10" y="{:.1}" font-size="14" font-weight="bold"><title>{}</title>{} — {} bytes, align {}; {} without sharing, {} saved</text>"#,
        y + 16.0,
        esc(&r.coroutine),
        esc(&r.name),
        r.size,
        r.align,
        r.size_without_sharing,
        r.bytes_saved
    );
    let ruler = y + 34.0;
    byte_ruler(&mut out, r, ruler, scale);
    let ry = suspend_rows(&mut out, r, ruler + 10.0, scale);
    let ry = layout_lanes(&mut out, r, ry, scale);
    let ry = legend(&mut out, r, ry);
    (out, ry + 20.0 - y)
}

/// The byte ruler at `ruler`: a tick every power-of-two step that gives at most 16 ticks.
fn byte_ruler(out: &mut String, r: &FrameReport, ruler: f64, scale: f64) {
    let mut step = 1u64;
    while r.size / step > 16 {
        step *= 2;
    }
    let mut b = 0;
    while b <= r.size {
        let x = LEFT + b as f64 * scale;
        let _ = writeln!(
            out,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="gray"/><text x="{x:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="gray">{b}</text>"#,
            ruler + 2.0,
            ruler + 6.0,
            ruler
        );
        b += step;
    }
    let _ = writeln!(out, r#"<text x="10" y="{ruler:.1}" font-size="9" fill="gray">byte offset</text>"#);
}

/// A row per suspend point from `ry`, with the fields live across it; returns where the rows end.
fn suspend_rows(out: &mut String, r: &FrameReport, mut ry: f64, scale: f64) -> f64 {
    for p in &r.suspend_points {
        let kind =
            p.kind.map(str::to_string).or_else(|| p.marker_id.map(|m| format!("marker {m}"))).unwrap_or_default();
        let line = p.location.as_ref().map(|l| format!("line {}", l.line)).unwrap_or_default();
        let full = p.location.as_ref().map(|l| l.to_string()).unwrap_or_else(|| "no debug location".into());
        let _ = writeln!(
            out,
            r#"<g><title>suspend point {}: {} {}</title><text x="10" y="{:.1}" font-size="12">suspend {} {} {}</text><rect x="{LEFT}" y="{ry:.1}" width="{WIDTH}" height="{ROW}" fill="none" stroke="lightgray"/></g>"#,
            p.index,
            esc(&kind),
            esc(&full),
            ry + 15.0,
            p.index,
            esc(&kind),
            esc(&line)
        );
        for (k, f) in r.fields.iter().enumerate().filter(|(_, f)| f.live_across.contains(&p.index)) {
            let (x, w) = (LEFT + f.offset as f64 * scale, (f.size as f64 * scale).max(1.0));
            bar(out, Rect { x, y: ry + 2.0, w, h: ROW - 4.0 }, color(f, k), &short(f), &tooltip(f));
        }
        ry += ROW;
    }
    ry
}

/// The layout below `ry`: every field in the first lane where it overlaps no other, shared bytes
/// hatched; returns where it ends.
fn layout_lanes(out: &mut String, r: &FrameReport, mut ry: f64, scale: f64) -> f64 {
    ry += 8.0;
    let _ = writeln!(out, r#"<text x="10" y="{:.1}" font-size="12">layout (hatched: shared bytes)</text>"#, ry + 15.0);
    let mut lanes: Vec<Vec<(u64, u64)>> = Vec::new();
    for (k, f) in r.fields.iter().enumerate() {
        let (s, e) = (f.offset, f.offset + f.size.max(1));
        let lane = match lanes.iter().position(|l| l.iter().all(|&(a, b)| e <= a || b <= s)) {
            Some(n) => n,
            None => {
                lanes.push(Vec::new());
                lanes.len() - 1
            }
        };
        if let Some(l) = lanes.get_mut(lane) {
            l.push((s, e));
        }
        let (x, w, y) =
            (LEFT + f.offset as f64 * scale, (f.size as f64 * scale).max(1.0), ry + lane as f64 * ROW + 2.0);
        bar(out, Rect { x, y, w, h: ROW - 4.0 }, color(f, k), &short(f), &tooltip(f));
        for &j in &f.shares_with {
            let Some(g) = r.fields.get(j) else { continue };
            let (a, b) = (f.offset.max(g.offset), (f.offset + f.size).min(g.offset + g.size));
            if b > a {
                let _ = writeln!(
                    out,
                    r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="url(#{HATCH})"><title>bytes {a}..{b} shared by {} and {}</title></rect>"#,
                    LEFT + a as f64 * scale,
                    (b - a) as f64 * scale,
                    ROW - 4.0,
                    esc(&f.holds),
                    esc(&g.holds)
                );
            }
        }
    }
    ry += lanes.len().max(1) as f64 * ROW + 10.0;
    ry
}

/// The legend from `ry`: one line per field; returns where it ends.
fn legend(out: &mut String, r: &FrameReport, mut ry: f64) -> f64 {
    for (k, f) in r.fields.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<g><title>{}</title><rect x="10" y="{:.1}" width="12" height="12" fill="{}"/><text x="28" y="{:.1}" font-size="11">@{} +{}  {}  ({})</text></g>"#,
            esc(&tooltip(f)),
            ry,
            color(f, k),
            ry + 10.0,
            f.offset,
            f.size,
            esc(&f.holds),
            esc(&f.type_display)
        );
        ry += 16.0;
    }
    ry
}

fn svg_document(body: &str, height: f64) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\">\n{}<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n",
        LEFT + WIDTH + 20.0,
        defs()
    )
}

/// Every frame of the module in one picture, one under the other.
pub fn svg(report: &Report) -> String {
    let mut body = String::new();
    let mut y = 10.0;
    for r in &report.frames {
        let (s, h) = frame(r, y);
        body.push_str(&s);
        y += h;
    }
    svg_document(&body, y)
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}\
td.num,th.num{text-align:right}th[data-sort]{cursor:pointer;background:#eef}\
th[data-sort]:after{content:' \\2195';color:#888}section{margin-top:3em}code{font-size:0.95em}";

/// Sorts the frames table when a sortable header is clicked (numbers by value, text by text, each
/// click flipping the order), sorts it by frame size, largest first, once on load, and then marks
/// the page as loaded (`data-llcoro-ready`), which the browser test looks for.
const SCRIPT: &str = r#"(function () {
  var table = document.getElementById("frames");
  var body = table.tBodies[0];
  function sortBy(col, numeric, descending) {
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].getAttribute("data-value");
      var y = b.cells[col].getAttribute("data-value");
      var c = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return descending ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.setAttribute("data-sorted", col + (descending ? " descending" : " ascending"));
  }
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    if (!th.hasAttribute("data-sort")) return;
    th.addEventListener("click", function () {
      var descending = th.getAttribute("data-order") !== "descending";
      th.setAttribute("data-order", descending ? "descending" : "ascending");
      sortBy(col, th.getAttribute("data-sort") === "number", descending);
    });
  });
  sortBy(1, true, true);
  document.body.setAttribute("data-llcoro-ready", "1");
})();
"#;

/// One page for the whole module, with nothing to fetch: styles, pictures and script are inline.
pub fn html(report: &Report, title: &str) -> String {
    let mut h = String::new();
    let sm = &report.summary;
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>llcoro frames: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>Frames of {}</h1>\n",
        esc(title),
        esc(title)
    );
    let _ = writeln!(h, "<p>{}.</p>", esc(&super::summary_line(sm)));
    for e in &sm.elided {
        let mut places = Vec::new();
        if !e.on_stack_of.is_empty() {
            places.push(format!("on the stack of {}", esc(&callers(&e.on_stack_of))));
        }
        if !e.inside_frame_of.is_empty() {
            places.push(format!("inside the frame of {}", esc(&callers(&e.inside_frame_of))));
        }
        let _ = writeln!(h, "<p>Frame of <code>{}</code> off the heap: {}.</p>", esc(&e.name), places.join("; "));
    }
    h.push_str(
        "<table id=\"frames\">\n<thead><tr><th data-sort=\"text\">coroutine</th><th class=\"num\" data-sort=\"number\">frame bytes</th>\
         <th class=\"num\" data-sort=\"number\">without sharing</th><th class=\"num\" data-sort=\"number\">saved</th>\
         <th class=\"num\" data-sort=\"number\">suspend points</th><th class=\"num\" data-sort=\"number\">fields</th></tr></thead>\n<tbody>\n",
    );
    for (k, r) in report.frames.iter().enumerate() {
        let num = |n: u64| format!("<td class=\"num\" data-value=\"{n}\">{n}</td>");
        let _ = writeln!(
            h,
            "<tr><td data-value=\"{}\"><a href=\"#frame-{k}\">{}</a></td>{}{}{}{}{}</tr>",
            esc(&r.name),
            esc(&r.name),
            num(r.size),
            num(r.size_without_sharing),
            num(r.bytes_saved),
            num(r.suspend_points.len() as u64),
            num(r.fields.len() as u64)
        );
    }
    h.push_str("</tbody>\n</table>\n");
    h.push_str("<svg width=\"0\" height=\"0\" style=\"position:absolute\">");
    h.push_str(&defs());
    h.push_str("</svg>\n");
    for (k, r) in report.frames.iter().enumerate() {
        let _ = writeln!(
            h,
            "<section id=\"frame-{k}\">\n<h2>{}</h2>\n<p><code>{}</code>, {} lowering</p>",
            esc(&r.name),
            esc(&r.coroutine),
            esc(&r.lowering)
        );
        let (pic, height) = frame(r, 0.0);
        let _ = writeln!(
            h,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\">\n{pic}</svg>",
            LEFT + WIDTH + 20.0
        );
        h.push_str("<table>\n<thead><tr><th class=\"num\">offset</th><th class=\"num\">size</th><th class=\"num\">align</th><th>type</th><th>kind</th><th>holds</th><th>live across</th><th>shares bytes with</th></tr></thead>\n<tbody>\n");
        for f in &r.fields {
            let live = f.live_across.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
            let shared: Vec<String> =
                f.shares_with.iter().filter_map(|&j| r.fields.get(j)).map(|g| esc(&g.holds)).collect();
            let _ = writeln!(
                h,
                "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                f.offset,
                f.size,
                f.align,
                esc(&f.type_display),
                esc(&f.kind),
                esc(&f.holds),
                if live.is_empty() { "none".to_string() } else { live },
                shared.join(", ")
            );
        }
        h.push_str("</tbody>\n</table>\n");
        if !r.recomputed.is_empty() {
            let _ = writeln!(h, "<p>Recomputed after each resume (no field): {}</p>", esc(&r.recomputed.join(", ")));
        }
        h.push_str("</section>\n");
    }
    let _ = write!(h, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    h
}
