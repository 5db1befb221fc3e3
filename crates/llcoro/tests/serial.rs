//! Lowering on one thread (`Options::serial`, what `llcoro cc` does) gives the same output, the same
//! warnings and the same refusals as lowering on a thread per chunk (what `llcoro` does): the
//! hand-written coroutine files under `tests/`, and clang's presplit IR of differential programs
//! with many coroutines (several chunks) and one whose coroutines hold their children's frames (later
//! rounds), when clang++-19 is installed.

mod common;

use llcoro::pipeline::{Options, Output, Refusal, run};
use std::path::PathBuf;
use std::process::Command;

fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The outcome of one run, as text that must match between the two modes.
fn outcome(r: Result<Output, Refusal>) -> String {
    match r {
        Ok(o) => {
            let warnings: Vec<String> = o.warnings.iter().map(|f| format!("{:?}", f.error)).collect();
            format!("output:\n{}\nwarnings: {warnings:?}", o.text)
        }
        Err(refusal) => {
            let findings: Vec<String> = refusal.findings.iter().map(|f| format!("{:?}", f.error)).collect();
            format!("refused: {findings:?}")
        }
    }
}

fn same_both_ways(name: &str, src: &str) -> Result<(), String> {
    let threads = outcome(run(src.to_string(), Options::default()));
    let serial = outcome(run(src.to_string(), Options { serial: true, ..Options::default() }));
    if threads == serial {
        Ok(())
    } else {
        let at = threads.bytes().zip(serial.bytes()).take_while(|(a, b)| a == b).count();
        Err(format!("{name}: serial lowering differs from threaded lowering at byte {at}"))
    }
}

#[test]
fn serial_lowering_matches_threaded_lowering_on_the_ir_files() {
    let mut failures = Vec::new();
    let mut n = 0;
    for dir in ["docs", "elide", "frames", "fuzz", "shapes", "coro-errors"] {
        let Ok(entries) = std::fs::read_dir(repo_root().join("tests").join(dir)) else { continue };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ll"))
            .collect();
        files.sort();
        for f in files {
            let src = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            n += 1;
            if let Err(e) = same_both_ways(&f.display().to_string(), &src) {
                failures.push(e);
            }
        }
    }
    assert!(n >= 40, "only {n} IR files found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn serial_lowering_matches_threaded_lowering_on_clang_output() {
    if !common::require(&["clang++-19"], "serial lowering of clang's presplit IR") {
        return;
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    // elide/awaited: coroutines that hold their children's frames are lowered in later rounds.
    for (program, opt) in [
        ("diff/29_many_awaits", "-O2"),
        ("diff/35_return_types", "-O0"),
        ("diff/42_state_machine_100", "-O2"),
        ("elide/awaited", "-O2"),
    ] {
        let src = repo_root().join("tests").join(format!("{program}.cpp"));
        let ll = dir.path().join(format!("{}{opt}.ll", program.replace('/', "-")));
        common::run_ok(
            Command::new("clang++-19")
                .args(["-std=c++20", opt, "-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes", "-o"])
                .arg(&ll)
                .arg(&src),
        );
        let text = std::fs::read_to_string(&ll).unwrap_or_else(|e| panic!("{}: {e}", ll.display()));
        assert!(text.contains("presplitcoroutine"), "{program}: no coroutine in clang's output");
        if let Err(e) = same_both_ways(&format!("{program} {opt}"), &text) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
