//! Debugger view: with -g, locals that live in the coroutine frame stay visible. Each case is a C++
//! program with one line marked `// BREAK-HERE` in a coroutine body after a suspend; gdb stops there
//! after successive resumes and prints frame-resident locals. Per clang version the program is built
//! twice, with its coroutines lowered by llcoro and by LLVM's own CoroSplit, and both gdb sessions
//! must print the values the program computes at those points. Comparing against fixed values as
//! well keeps the test from passing when both builds print the same wrong thing (`<optimized out>`).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::run_with;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

/// For compilers, llcoro and gdb (which runs the program to completion).
const TIMEOUT: Duration = Duration::from_secs(180);

/// One program and what gdb must print at each successive stop on its BREAK-HERE line.
struct Case {
    /// Relative to the repository root.
    src: &'static str,
    /// Per stop: `(variable, value)` in printing order.
    stops: &'static [&'static [(&'static str, &'static str)]],
}

#[test]
fn gdb_prints_frame_resident_locals_after_resume() {
    // counter(3): `total` starts at 100 and gains i before each yield, so the first resume sees i = 0,
    // total = 100 and the second i = 1, total = 101; the parameter n is in the frame too.
    check(&Case {
        src: "tests/debugger/counter.cpp",
        stops: &[&[("i", "0"), ("total", "100"), ("n", "3")], &[("i", "1"), ("total", "101")]],
    });
}

#[test]
fn gdb_prints_frame_resident_locals_in_differential_program() {
    // fib() yields a with (a, b) starting at (0, 1) and stepping to (b, a + b) after each resume, so the
    // first three resumes see (0, 1), (1, 1) and (1, 2). Only main's first fib() generator is resumed.
    check(&Case {
        src: "tests/diff/02_gen_infinite.cpp",
        stops: &[&[("a", "0"), ("b", "1")], &[("a", "1"), ("b", "1")], &[("a", "1"), ("b", "2")]],
    });
}

fn check(case: &Case) {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let src = root.join(case.src);
    let text = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    let marked: Vec<usize> =
        text.lines().enumerate().filter(|(_, l)| l.trim_end().ends_with("// BREAK-HERE")).map(|(i, _)| i + 1).collect();
    let [line] = marked[..] else { panic!("{}: want one BREAK-HERE line, found {marked:?}", case.src) };
    let file_name = src.file_name().expect("file name").to_string_lossy().into_owned();
    let stem = src.file_stem().expect("file stem").to_string_lossy().into_owned();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("debugger");
    std::fs::create_dir_all(&scratch).expect("scratch dir");

    let mut script = vec![format!("break {file_name}:{line}"), "run".to_string()];
    let mut expected = Vec::new();
    for (i, stop) in case.stops.iter().enumerate() {
        if i > 0 {
            script.push("continue".to_string());
        }
        for (var, value) in *stop {
            script.push(format!("print {var}"));
            expected.push(format!("${} = {value}", expected.len() + 1));
        }
    }

    for v in ["14", "19", "22"] {
        let clang = format!("clang++-{v}");
        if !common::require(&[clang.as_str(), "gdb"], &format!("{} with clang {v}", case.src)) {
            continue;
        }
        let ll = scratch.join(format!("{stem}{v}.ll"));
        let low = scratch.join(format!("{stem}{v}.low.ll"));
        let lowered = scratch.join(format!("{stem}{v}.llcoro"));
        let native = scratch.join(format!("{stem}{v}.native"));
        tool(
            Command::new(&clang)
                .args(["-std=c++20", "-O0", "-g", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"])
                .arg(&src)
                .arg("-o")
                .arg(&ll),
        );
        tool(Command::new(LLCORO).arg(&ll).arg("-o").arg(&low));
        tool(Command::new(&clang).args(["-g", "-O0"]).arg(&low).arg("-o").arg(&lowered));
        tool(Command::new(&clang).args(["-std=c++20", "-O0", "-g"]).arg(&src).arg("-o").arg(&native));

        for (build, exe) in [("llcoro", &lowered), ("native", &native)] {
            let (stops, values, transcript) = gdb(&script, exe);
            let context = format!("{} clang {v} {build} build; gdb output:\n{transcript}", case.src);
            assert_eq!(values, expected, "{context}");
            assert_eq!(stops.len(), case.stops.len(), "{context}");
            // The point is the view from the split-off resume function, not from the ramp. Only
            // llcoro's names are pinned: clang 19's own lowering labels its clone differently.
            if build == "llcoro" {
                assert!(stops.iter().all(|s| s.contains("[clone .resume]")), "{context}");
            }
        }
    }
}

/// Runs a tool that must succeed.
fn tool(cmd: &mut Command) {
    let out = run_with(cmd, None, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.success(), "{cmd:?}: {}", out.describe());
}

/// Runs `script` in gdb on `exe`; returns the breakpoint-stop lines, the `$N = value` lines, and the
/// whole transcript for failure messages.
fn gdb(script: &[String], exe: &Path) -> (Vec<String>, Vec<String>, String) {
    let mut cmd = Command::new("gdb");
    cmd.args(["-batch", "-nx"]);
    for s in script {
        cmd.arg("-ex").arg(s);
    }
    let out = run_with(cmd.arg(exe), None, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stops = stdout.lines().filter(|l| is_stop(l)).map(str::to_string).collect();
    let values = stdout.lines().filter(|l| l.starts_with('$')).map(str::to_string).collect();
    let transcript = format!("{stdout}\n{}\n{}", String::from_utf8_lossy(&out.stderr), out.status_text());
    (stops, values, transcript)
}

/// `Breakpoint 1, f () at ...` or `Breakpoint 1.2, ...`, but not `Breakpoint 1 at 0x...: file:line.`
fn is_stop(line: &str) -> bool {
    line.strip_prefix("Breakpoint 1")
        .map(|rest| rest.trim_start_matches(|c: char| c == '.' || c.is_ascii_digit()))
        .is_some_and(|rest| rest.starts_with(", "))
}
