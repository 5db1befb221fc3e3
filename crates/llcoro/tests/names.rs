//! Names llcoro invents cannot clash with the input's. Every runnable hand-written program of the
//! corpus (`tests/shapes`, checked against its `.expected` trace; `tests/kxs/ir` and
//! `tests/stackless/opaque`, against their `; EXPECT:` blocks) is rewritten so that its functions'
//! parameters, values and blocks take the names llcoro gives to what it adds (`%hdl`, `%frame.mem`,
//! `entry`, `coro.resume.0`, `kxs.dispatch`, `stackless.ret.0`, ...), in order, and numbered once
//! they run out (`%hdl1`, which is also what llcoro's own renaming would pick), and the module gains
//! unused functions and globals with the names llcoro gives to new ones (`@f.resume`, `@f.destroy`,
//! `@f.cleanup`, `@f.elided`, `@f.reenter`, `@llcoro.noop.frame`, `@llcoro.frames`, ...). The
//! renamed file must be valid (`opt-19 -passes=verify`, which checks the rewrite itself), llcoro
//! must lower it, `opt-19` must accept the output, and `lli-19` must print the same as the original.

mod common;

use common::{Recorder, expected_block, first_difference, require, run_llcoro, run_tool, run_with};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Local names llcoro gives to what it adds (values, parameters and blocks), in every lowering.
const LOCAL: &[&str] = &[
    "hdl",
    "frame.mem",
    "entry",
    "coro.resume.0",
    "coro.stack.frame",
    "coro.elided.frame",
    "frame.debug",
    "coro.unreachable",
    "coro.resume.point",
    "coro.destroy.point",
    "coro.suspend.landing",
    "frame",
    "result",
    "kxs.resume.0",
    "kxs.start",
    "kxs.entry",
    "kxs.alloc",
    "kxs.framed",
    "kxs.dispatch",
    "stackless.ret.0",
    "reenter.site",
    "reenter.next.0",
];

/// Suffixes of the functions llcoro makes from a function's name.
const FUNCTION_SUFFIXES: &[&str] = &["resume", "destroy", "cleanup", "elided", "reenter"];

/// Globals llcoro adds under fixed names.
const GLOBALS: &[&str] =
    &["llcoro.noop.frame", "llcoro.noop.resume", "llcoro.frames", "llcoro.frames.sites", "llcoro.frames.gc.0"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

fn is_ident(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// The `%name`s and `name:` labels of `body` (a function's text), in order of first appearance,
/// leaving out `types` and numbered names.
fn local_names(body: &str, types: &HashSet<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let mut push = |n: &str| {
        if !types.contains(n) && seen.insert(n.to_string()) {
            out.push(n.to_string());
        }
    };
    for line in body.lines() {
        let code = line.split(';').next().unwrap_or("");
        let b = code.as_bytes();
        let label_end = b.iter().position(|&c| !is_ident(c)).unwrap_or(b.len());
        if label_end > 0 && is_ident_start(b[0]) && b.get(label_end) == Some(&b':') {
            push(&code[..label_end]);
        }
        let mut k = 0;
        while k < b.len() {
            if b[k] == b'%' && b.get(k + 1).is_some_and(|&c| is_ident_start(c)) {
                let end = (k + 1..b.len()).find(|&j| !is_ident(b[j])).unwrap_or(b.len());
                push(&code[k + 1..end]);
                k = end;
            } else {
                k += 1;
            }
        }
    }
    out
}

/// `body` with every local name renamed by `map` (as `%name` and as a `name:` label).
fn rename(body: &str, map: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(body.len() + body.len() / 4);
    for line in body.split_inclusive('\n') {
        let b = line.as_bytes();
        let mut k = 0;
        let label_end = b.iter().position(|&c| !is_ident(c)).unwrap_or(b.len());
        if label_end > 0 && is_ident_start(b[0]) && b.get(label_end) == Some(&b':') {
            let n = &line[..label_end];
            out.push_str(map.get(n).map_or(n, |s| s.as_str()));
            k = label_end;
        }
        while k < b.len() {
            if b[k] == b'%' && b.get(k + 1).is_some_and(|&c| is_ident_start(c)) {
                let end = (k + 1..b.len()).find(|&j| !is_ident(b[j])).unwrap_or(b.len());
                let n = &line[k + 1..end];
                out.push('%');
                out.push_str(map.get(n).map_or(n, |s| s.as_str()));
                k = end;
            } else {
                let next = (k + 1..b.len()).find(|&j| b[j] == b'%').unwrap_or(b.len());
                out.push_str(&line[k..next]);
                k = next;
            }
        }
    }
    out
}

/// The module `text` with its functions' local names taken from `LOCAL` and the names llcoro gives
/// new globals taken by unused definitions.
fn with_llcoro_names(text: &str) -> String {
    let types: HashSet<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix('%'))
        .filter_map(|l| l.split_once(" = type").map(|(n, _)| n.to_string()))
        .collect();
    let mut out = String::new();
    let mut functions = Vec::new();
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if !line.starts_with("define ") {
            out.push_str(line);
            continue;
        }
        let mut body = line.to_string();
        if !line.trim_end().ends_with('}') {
            for l in lines.by_ref() {
                body.push_str(l);
                if l.trim_end() == "}" {
                    break;
                }
            }
        }
        if let Some(name) = body.split('@').nth(1).map(|r| r.split('(').next().unwrap_or("")) {
            functions.push(name.to_string());
        }
        let names = local_names(&body, &types);
        let map: HashMap<String, String> = names
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                let base = LOCAL[i % LOCAL.len()];
                let round = i / LOCAL.len();
                (n, if round == 0 { base.to_string() } else { format!("{base}{round}") })
            })
            .collect();
        out.push_str(&rename(&body, &map));
    }
    let defined: HashSet<&str> = functions.iter().map(|s| s.as_str()).collect();
    out.push('\n');
    for f in functions.iter().filter(|f| !f.starts_with('"')) {
        for s in FUNCTION_SUFFIXES {
            let n = format!("{f}.{s}");
            if !defined.contains(n.as_str()) && !text.contains(&format!("@{n} ")) {
                out.push_str(&format!("define void @{n}() {{\n  ret void\n}}\n"));
            }
        }
    }
    for g in GLOBALS {
        if !text.contains(&format!("@{g} ")) {
            out.push_str(&format!("@{g} = global i8 0\n"));
        }
    }
    out
}

/// (program, its expected output) of the runnable hand-written programs.
fn programs() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let ll_files = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> =
            fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
        v.retain(|p| p.extension().is_some_and(|e| e == "ll"));
        v.sort();
        v
    };
    for p in ll_files(&root().join("tests/shapes")) {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.ends_with(".v22.ll") {
            continue;
        }
        let stem = name.trim_end_matches(".ll").trim_end_matches(".v19");
        if let Ok(want) = fs::read_to_string(p.with_file_name(format!("{stem}.expected"))) {
            out.push((p, want));
        }
    }
    for dir in ["tests/kxs/ir", "tests/stackless/opaque"] {
        for p in ll_files(&root().join(dir)) {
            if let Some(want) = fs::read_to_string(&p).ok().and_then(|t| expected_block(&t, ";")) {
                out.push((p, want));
            }
        }
    }
    out
}

#[test]
fn inputs_that_use_llcoros_names_lower_and_run_the_same() {
    if !require(&["opt-19", "lli-19"], "the renamed corpus") {
        return;
    }
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("names");
    let _ = fs::create_dir_all(&scratch);
    let timeout = Duration::from_secs(120);
    let progs = programs();
    assert!(progs.len() >= 30, "too few programs found: {}", progs.len());
    let mut failures = Vec::new();
    let mut clashes = 0;
    for (path, want) in &progs {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let mut rec = Recorder::new(&name, "renamed");
        let text = fs::read_to_string(path).unwrap_or_default();
        let renamed = with_llcoro_names(&text);
        let input = scratch.join(format!("{name}.renamed.ll"));
        let output = scratch.join(format!("{name}.lowered.ll"));
        if fs::write(&input, &renamed).is_err() {
            failures.push(format!("{name}: cannot write {}", input.display()));
            continue;
        }
        let mut verify_in = Command::new("opt-19");
        verify_in.args(["-passes=verify", "-disable-output"]).arg(&input);
        if let Err(e) = run_tool(&mut verify_in, timeout) {
            rec.add("the renamed input is invalid (the test's rewrite is wrong)", e);
        } else if let Some(lowered) = rec.ok("llcoro", run_llcoro(&input, &output, &[], timeout)) {
            // Renaming must have mattered: some name llcoro adds is in the input.
            clashes += usize::from(LOCAL.iter().any(|n| lowered.contains(&format!("%{n}1"))));
            let mut verify_out = Command::new("opt-19");
            verify_out.args(["-passes=verify", "-disable-output"]).arg(&output);
            rec.ok("opt-19 -passes=verify on the output", run_tool(&mut verify_out, timeout));
            let mut lli = Command::new("lli-19");
            lli.arg(&output);
            match run_with(&mut lli, None, timeout) {
                Ok(o) if o.success() && String::from_utf8_lossy(&o.stdout) == *want => {}
                Ok(o) => rec.add(
                    "lli-19",
                    format!(
                        "{}\n{}",
                        o.status_text(),
                        first_difference(want.as_bytes(), &o.stdout, ("expected", "actual"))
                    ),
                ),
                Err(e) => rec.add("lli-19", e),
            }
        }
        failures.extend(rec.failures.iter().map(|f| format!("{name}: {}: {}", f.step, f.detail)));
    }
    eprintln!("renamed corpus: {} programs, {} failures", progs.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(clashes * 2 >= progs.len(), "the renaming made llcoro rename in only {clashes} of {} outputs", progs.len());
}

#[test]
fn the_renaming_renames_values_labels_and_parameters_but_not_types() {
    let text = "%T = type { i32 }\ndefine i32 @f(i32 %x) {\nstart:\n  %y = add i32 %x, 1\n  %p = alloca %T\n  br label %next\nnext:\n  ret i32 %y\n}\n";
    let out = with_llcoro_names(text);
    assert!(out.contains("define i32 @f(i32 %hdl) {\nframe.mem:\n  %entry = add i32 %hdl, 1\n"), "{out}");
    assert!(out.contains("%coro.resume.0 = alloca %T\n  br label %coro.stack.frame\ncoro.stack.frame:\n"), "{out}");
    assert!(out.contains("define void @f.resume()") && out.contains("@llcoro.noop.frame = global i8 0"), "{out}");
}
