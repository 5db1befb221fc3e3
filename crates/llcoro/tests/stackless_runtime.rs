//! The C runtime for stackless heap frames (`runtime/stackless`): builds it with its C tests and
//! runs them.
//!
//! For clang-19 and clang-22 at -O0 and -O2: `runtime/stackless/src/*.c` with each of
//! `tests/test_sites.c`, `tests/test_section.c`, `tests/test_gc.c` and `tests/bench_pause.c`, with
//! `-std=c11 -Wall -Wextra -Wpedantic -Werror`, must build; each test must exit 0 and print
//! `NAME: ok`; bench_pause must run (its pause figures are printed, not checked). The clang-19 -O0
//! tests also run under valgrind (`--error-exitcode=99 --leak-check=full`; built with
//! `-gdwarf-4`, which valgrind 3.19 reads), and under clang-19 -O1 with UBSan in trap mode.
//!
//! Tools: clang-19, clang-22, valgrind (missing: a skip, a failure under CI).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const TESTS: [&str; 3] = ["test_sites", "test_section", "test_gc"];
const PROGRAMS: [&str; 4] = ["test_sites", "test_section", "test_gc", "bench_pause"];

struct Build {
    cc: &'static str,
    label: &'static str,
    flags: &'static [&'static str],
    valgrind: bool,
}

const BUILDS: [Build; 5] = [
    Build { cc: "clang-19", label: "clang-19-O0", flags: &["-O0", "-gdwarf-4"], valgrind: true },
    Build { cc: "clang-19", label: "clang-19-O2", flags: &["-O2"], valgrind: false },
    Build { cc: "clang-22", label: "clang-22-O0", flags: &["-O0", "-g"], valgrind: false },
    Build { cc: "clang-22", label: "clang-22-O2", flags: &["-O2"], valgrind: false },
    Build {
        cc: "clang-19",
        label: "clang-19-O1-ubsan",
        flags: &["-O1", "-fsanitize=undefined", "-fsanitize-trap=all"],
        valgrind: false,
    },
];

fn runtime_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runtime/stackless")
}

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("src"))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "c"));
    v.sort();
    v
}

/// Builds one program in one configuration, runs it (and, for the valgrind build, runs the tests
/// under valgrind); returns the failures and what the program printed.
fn check(build: &Build, program: &str, scratch: &Path, root: &Path, srcs: &[PathBuf]) -> (Vec<String>, String) {
    let mut failures = Vec::new();
    let exe = scratch.join(format!("{program}.{}", build.label));
    let _ = std::fs::remove_file(&exe);
    let mut cc = Command::new(build.cc);
    cc.args(["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"])
        .args(build.flags)
        .arg("-I")
        .arg(root.join("include"))
        .args(srcs)
        .arg(root.join("tests").join(format!("{program}.c")))
        .arg("-o")
        .arg(&exe);
    if let Err(e) = common::run_tool(&mut cc, Duration::from_secs(60)) {
        failures.push(format!("{program} [{}]: build\n  {e}", build.label));
        return (failures, String::new());
    }
    let is_test = TESTS.contains(&program);
    let mut printed = String::new();
    match common::run_tool(&mut Command::new(&exe), Duration::from_secs(60)) {
        Err(e) => failures.push(format!("{program} [{}]: run\n  {e}", build.label)),
        Ok(o) => {
            printed = String::from_utf8_lossy(&o.stdout).into_owned();
            if is_test && !printed.lines().any(|l| l == format!("{program}: ok")) {
                failures.push(format!("{program} [{}]: no `{program}: ok` line in\n{}", build.label, printed));
            }
        }
    }
    if build.valgrind && is_test {
        let mut vg = Command::new("valgrind");
        vg.args(["-q", "--error-exitcode=99", "--leak-check=full"]).arg(&exe);
        if let Err(e) = common::run_tool(&mut vg, Duration::from_secs(120)) {
            failures.push(format!("{program} [{} valgrind]: \n  {e}", build.label));
        }
    }
    (failures, printed)
}

#[test]
fn runtime_builds_and_its_tests_pass() {
    if !common::require(&["clang-19", "clang-22", "valgrind"], "the stackless runtime's C tests") {
        return;
    }
    let root = runtime_dir();
    let srcs = sources(&root);
    assert!(!srcs.is_empty(), "no {}/src/*.c", root.display());
    let (scratch, _lock) = common::lock_scratch("stackless_runtime");
    let jobs: Vec<(&Build, &str)> = BUILDS.iter().flat_map(|b| PROGRAMS.iter().map(move |p| (b, *p))).collect();
    let results = common::parallel_map(&jobs, 2, |(b, p)| check(b, p, &scratch, &root, &srcs));
    let mut failures = Vec::new();
    for ((b, p), (f, printed)) in jobs.iter().zip(results) {
        failures.extend(f);
        if *p == "bench_pause" && b.label.ends_with("O2") {
            for line in printed.lines() {
                eprintln!("[{}] {line}", b.label);
            }
        }
    }
    eprintln!("stackless runtime: {} builds, {} failures", jobs.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
