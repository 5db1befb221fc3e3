//! Returned-continuation coroutines (`coro.id.retcon`, `coro.id.retcon.once`) driven from C++.
//!
//! Each `tests/retcon/native/NAME.ll` (LLVM 19 spelling; the LLVM 22 one is derived, as in the
//! shapes test) has a driver `NAME.cpp` that allocates the buffers, calls the ramps and the
//! continuations (resume values, aborts, a C++ exception thrown through a continuation) and prints
//! what happens, and the expected stdout `NAME.expected`. For LLVM N in 19 and 22:
//!
//! 1. LLVM's lowering (`opt-N -passes=coro-early,coro-split,coro-cleanup`) linked with the driver
//!    by `clang++-N -O0` must exit 0 and print the expected output (this validates the input);
//! 2. llcoro's lowering must keep no coroutine intrinsic and pass `opt-N -passes=verify`;
//! 3. linked with the driver at -O0 and at -O2, it must exit and print as LLVM's did.
//!
//! A missing tool skips its version with a note, unless `CI` is set (then it is a failure).
//! Scratch files are kept under `$CARGO_TARGET_TMPDIR/retcon/`.

mod common;

use common::{Output, llvm22_spelling, run_tool, run_with};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(180);

struct Program {
    name: String,
    ll: PathBuf,
    driver: PathBuf,
    expected: PathBuf,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn programs(failures: &mut Vec<String>) -> Vec<Program> {
    let dir = root().join("tests/retcon/native");
    let mut lls: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    lls.sort();
    let mut out = Vec::new();
    for ll in lls {
        let (driver, expected) = (ll.with_extension("cpp"), ll.with_extension("expected"));
        let name = ll.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if !driver.is_file() || !expected.is_file() {
            failures.push(format!("{name}: needs {} and {}", driver.display(), expected.display()));
            continue;
        }
        out.push(Program { name, ll, driver, expected });
    }
    out
}

/// Runs the program `exe`: its output, or why it could not run.
fn run_program(exe: &Path) -> Result<Output, String> {
    run_with(&mut Command::new(exe), None, TIMEOUT).map_err(|e| format!("{}: {e}", exe.display()))
}

/// `clang++-N LEVEL DRIVER IR -o EXE`, then runs EXE.
fn build_and_run(version: u32, level: &str, driver: &Path, ir: &Path, exe: &Path) -> Result<Output, String> {
    let mut cc = Command::new(format!("clang++-{version}"));
    cc.arg(level).arg("-Wno-override-module").arg(driver).arg(ir).arg("-o").arg(exe);
    run_tool(&mut cc, TIMEOUT)?;
    run_program(exe)
}

fn check(p: &Program, version: u32, dir: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    let id = format!("{} [LLVM {version}]", p.name);
    let file = |ext: &str| dir.join(format!("{}.{version}.{ext}", p.name));
    let (Ok(source), Ok(expected)) = (fs::read_to_string(&p.ll), fs::read(&p.expected)) else {
        return vec![format!("{id}: cannot read {} or {}", p.ll.display(), p.expected.display())];
    };
    let text = if version == 22 {
        match llvm22_spelling(&source) {
            Ok(t) => t,
            Err(e) => return vec![format!("{id}: {e}")],
        }
    } else {
        source
    };
    let input = file("in.ll");
    if let Err(e) = fs::write(&input, &text) {
        return vec![format!("{id}: {}: {e}", input.display())];
    }

    // 1. LLVM's lowering, run: the reference.
    let reference_ir = file("ref.ll");
    let mut opt = Command::new(format!("opt-{version}"));
    opt.arg("-passes=coro-early,coro-split,coro-cleanup").arg(&input).arg("-S").arg("-o").arg(&reference_ir);
    let reference = match run_tool(&mut opt, TIMEOUT)
        .and_then(|_| build_and_run(version, "-O0", &p.driver, &reference_ir, &file("ref")))
    {
        Ok(o) => o,
        Err(e) => return vec![format!("{id}: LLVM's lowering: {e}")],
    };
    if !reference.success() || reference.stdout != expected {
        failures.push(format!(
            "{id}: LLVM's lowering {} and prints\n{}\n  expected\n{}",
            reference.describe(),
            String::from_utf8_lossy(&reference.stdout),
            String::from_utf8_lossy(&expected)
        ));
    }

    // 2. llcoro's lowering: complete and valid.
    let lowered = file("out.ll");
    let out_text = match common::run_llcoro(&input, &lowered, &[], TIMEOUT) {
        Ok(t) => t,
        Err(e) => return vec![format!("{id}: llcoro: {e}")],
    };
    failures.extend(common::leftovers(&out_text, &lowered).into_iter().map(|m| format!("{id}: {m}")));
    let mut verify = Command::new(format!("opt-{version}"));
    verify.args(["-passes=verify", "-disable-output"]).arg(&lowered);
    if let Err(e) = run_tool(&mut verify, TIMEOUT) {
        failures.push(format!("{id}: llcoro's output does not verify: {e}"));
        return failures;
    }

    // 3. llcoro's lowering, run: as LLVM's.
    for level in ["-O0", "-O2"] {
        match build_and_run(version, level, &p.driver, &lowered, &file(&format!("out{level}"))) {
            Err(e) => failures.push(format!("{id} {level}: {e}")),
            Ok(o) => {
                for d in common::run_differences(&reference, &o, ("LLVM's lowering", "llcoro's lowering")) {
                    failures.push(format!("{id} {level}: {d}"));
                }
            }
        }
    }
    failures
}

#[test]
fn native_programs_run_as_llvm_lowers_them() {
    let mut failures = Vec::new();
    let programs = programs(&mut failures);
    assert!(!programs.is_empty(), "no tests/retcon/native/*.ll");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("retcon");
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut ran = 0;
    for version in [19, 22] {
        let tools = [format!("opt-{version}"), format!("clang++-{version}")];
        match common::tools(&[&tools[0], &tools[1]], &format!("LLVM {version} retcon programs")) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                failures.push(e);
                continue;
            }
        }
        for p in &programs {
            failures.extend(check(p, version, &dir));
            ran += 1;
        }
    }
    println!("retcon: {ran} program checks; scratch files in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `llcoro frames` says which frames are in the caller's buffer and which come from the allocator.
#[test]
fn frames_report_the_buffer() {
    let input = root().join("tests/retcon/native/accessors.ll");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    cmd.args(["frames", "--format", "json"]).arg(&input);
    let out = run_tool(&mut cmd, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("frames JSON");
    let frames = json["frames"].as_array().expect("frames array");
    let buffer = |name: &str| {
        let f = frames.iter().find(|f| f["coroutine"] == name).unwrap_or_else(|| panic!("no frame {name}"));
        (
            f["lowering"].as_str().map(str::to_string),
            f["buffer"]["size"].as_u64(),
            f["buffer"]["frame_in_buffer"].as_bool(),
        )
    };
    assert_eq!(buffer("@count"), (Some("retcon".into()), Some(8), Some(false)));
    assert_eq!(buffer("@access_small"), (Some("retcon.once".into()), Some(8), Some(false)));
    assert_eq!(buffer("@access_big"), (Some("retcon.once".into()), Some(32), Some(true)));
    assert_eq!(json["summary"]["coroutines"], 3);
}

/// With debug info each continuation gets a subprogram of its own and declares the frame-resident
/// variables the ramp declared; the output verifies, and built with `-g` it runs as the program
/// without debug info does.
#[test]
fn debug_info() {
    let version = 19;
    if !common::require(&["opt-19", "clang++-19"], "retcon debug info") {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("retcon");
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let input = root().join("tests/retcon/debug/count.ll");
    let lowered = dir.join("debug.out.ll");
    let text = common::run_llcoro(&input, &lowered, &[], TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let mut verify = Command::new(format!("opt-{version}"));
    verify.args(["-passes=verify", "-disable-output"]).arg(&lowered);
    run_tool(&mut verify, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let body = |name: &str| {
        let start = text.find(&format!("@{name}(")).unwrap_or_else(|| panic!("no @{name} in {text}"));
        let line_start = text[..start].rfind('\n').map_or(0, |k| k + 1);
        let end = text[start..].find("\n}\n").map_or(text.len(), |k| start + k);
        text[line_start..end].to_string()
    };
    let ramp = body("count");
    let cont = body("count.resume.0");
    assert!(ramp.lines().next().is_some_and(|l| l.contains("!dbg !")), "{ramp}");
    assert!(cont.lines().next().is_some_and(|l| l.contains("!dbg !")), "{cont}");
    assert!(cont.contains("@llvm.dbg.declare(metadata ptr %"), "no declare of %total in:\n{cont}");
    let out =
        build_and_run(version, "-g", &root().join("tests/retcon/native/accessors.cpp"), &lowered, &dir.join("debug"))
            .unwrap_or_else(|e| panic!("{e}"));
    let expected = fs::read(root().join("tests/retcon/native/accessors.expected")).expect("accessors.expected");
    assert!(out.success() && out.stdout == expected, "{}\n{}", out.describe(), String::from_utf8_lossy(&out.stdout));
}
