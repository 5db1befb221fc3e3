//! `llcoro explain`: every diagnostic code the source can emit is explained, no explanation is of a
//! code the source no longer has, and every example, run through llcoro, reports its code.

mod common;

use common::run_with;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The calls whose arguments name a diagnostic code (`Error::new(code, ..)`, `error_at(f, i, code,
/// ..)`, `warning_at`, `finding_at` and its `finding` alias), and `let code = ...;` or `let (code,
/// ...) = ...;`, which feed one.
const CODE_SITES: [&str; 7] =
    ["Error::new(", "error_at(", "warning_at(", "finding(", "finding_at(", "let code =", "let (code,"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text from `start` to the parenthesis that closes the call opened there (or to the `;` of a
/// `let`), skipping string literals.
fn call_text(s: &str, start: usize, statement: bool) -> &str {
    let mut depth = 0i32;
    let mut in_str = false;
    let mut esc = false;
    for (k, c) in s[start..].char_indices() {
        if in_str {
            match c {
                _ if esc => esc = false,
                '\\' => esc = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '{' => depth += 1,
            ')' | '}' => {
                depth -= 1;
                if depth <= 0 && c == ')' && !statement {
                    return &s[start..start + k + 1];
                }
            }
            ';' if depth == 0 => return &s[start..start + k],
            _ => {}
        }
    }
    &s[start..]
}

/// String literals that look like codes: lower-case words joined by hyphens, no spaces.
fn code_literals(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|l| {
            !l.is_empty()
                && l.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && l.starts_with(|c: char| c.is_ascii_lowercase())
                && !l.ends_with('-')
        })
        .map(str::to_string)
        .collect()
}

fn codes_in_source() -> BTreeSet<String> {
    let mut files = Vec::new();
    for krate in ["llir", "llcoro"] {
        rust_files(&Path::new(ROOT).join("crates").join(krate).join("src"), &mut files);
    }
    let mut codes = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable source");
        for site in CODE_SITES {
            let mut from = 0;
            while let Some(k) = text[from..].find(site) {
                let at = from + k;
                from = at + site.len();
                // A whole identifier: `finding(` must not match inside `my_finding(`; definitions
                // (`fn error_at(`) take parameters, not codes.
                let before = text[..at].chars().next_back();
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') || text[..at].ends_with("fn ") {
                    continue;
                }
                let statement = site.starts_with("let");
                let start = if statement { at } else { at + site.len() - 1 };
                codes.extend(code_literals(call_text(&text, start, statement)));
            }
        }
    }
    codes
}

fn explained() -> BTreeSet<String> {
    llcoro::explain::EXPLANATIONS.iter().map(|e| e.code.to_string()).collect()
}

#[test]
fn the_source_scan_finds_codes_of_every_kind() {
    // If the scan broke, the checks below would pass on nothing.
    let found = codes_in_source();
    for code in [
        "parse-undefined",
        "parse-token",
        "verify",
        "internal",
        "coro-missing-end",
        "kxs-marker-id",
        "stackless-alloca",
    ] {
        assert!(found.contains(code), "the scan misses {code}: {found:?}");
    }
    assert!(found.len() >= 45, "{found:?}");
}

#[test]
fn every_code_the_source_can_emit_is_explained() {
    let found = codes_in_source();
    let have = explained();
    let missing: Vec<&String> = found.difference(&have).collect();
    assert!(missing.is_empty(), "codes without an explanation in crates/llcoro/src/explain.rs: {missing:?}");
    let stale: Vec<&String> = have.difference(&found).collect();
    assert!(stale.is_empty(), "explanations of codes the source no longer emits: {stale:?}");
}

#[test]
fn every_example_reports_its_code() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let mut failures = Vec::new();
    for e in llcoro::explain::EXPLANATIONS {
        if e.example.is_empty() {
            continue;
        }
        let file = dir.join(format!("{}.ll", e.code));
        std::fs::write(&file, e.example).expect("example written");
        // What `llcoro explain` tells the reader to run.
        let mut cmd = Command::new(LLCORO);
        if e.code.starts_with("parse-") {
            cmd.arg("--parse-all").arg(&file).arg("-o").arg(dir.join("out.ll"));
        } else {
            cmd.arg("check").arg(&file);
        }
        let out = run_with(&mut cmd, None, Duration::from_secs(60)).unwrap_or_else(|err| panic!("{err}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tag = format!("{}[{}]", e.severity, e.code);
        if !stderr.contains(&tag) {
            failures.push(format!("{}: no {tag} in:\n{stderr}", e.code));
        }
        if e.severity == "error" && out.success() {
            failures.push(format!("{}: an error, yet llcoro succeeded", e.code));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn explain_prints_one_code_or_lists_them_all() {
    let run = |args: &[&str]| {
        let out =
            run_with(Command::new(LLCORO).args(args), None, Duration::from_secs(60)).unwrap_or_else(|e| panic!("{e}"));
        (
            out.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, list, _) = run(&["explain"]);
    assert!(ok);
    for code in explained() {
        assert!(list.contains(&format!("  {code} ")), "{code} not listed:\n{list}");
    }
    let (ok, text, _) = run(&["explain", "coro-frame-after-end"]);
    assert!(ok);
    assert!(text.starts_with("warning[coro-frame-after-end]: "), "{text}");
    assert!(text.contains("Example (`llcoro check example.ll` reports it):"), "{text}");
    assert!(text.contains("    %r = load i32, ptr %count"), "the example, indented: {text}");
    assert!(text.contains("How to fix it:"), "{text}");
    let (ok, text, _) = run(&["explain", "internal"]);
    assert!(ok && text.contains("No example: no input should trigger it."), "{text}");
    let (ok, _, err) = run(&["explain", "no-such-code"]);
    assert!(!ok && err.contains("no diagnostic code `no-such-code`"), "{err}");
}
