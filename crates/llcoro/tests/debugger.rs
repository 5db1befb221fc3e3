//! Debugger view: with -g, locals that live in the coroutine frame stay visible. gdb is stopped in
//! the resume function after each resume (tests/debugger/counter.cpp, the BREAK-HERE line) and
//! prints the loop counter and the running total, which must match what the program computes.

use std::path::Path;
use std::process::Command;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

#[test]
fn gdb_prints_frame_resident_locals_after_resume() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let src = root.join("tests/debugger/counter.cpp");
    let text = std::fs::read_to_string(&src).expect("test source");
    let line = text.lines().position(|l| l.trim_end().ends_with("// BREAK-HERE")).expect("a BREAK-HERE line") + 1;
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("debugger");
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let ci = std::env::var_os("CI").is_some();
    for v in ["19", "22"] {
        let clang = format!("clang++-{v}");
        if let Some(tool) = [clang.as_str(), "gdb"].into_iter().find(|t| !have(t)) {
            assert!(!ci, "{tool} is needed under CI; run scripts/install-test-tools.sh");
            eprintln!("skipping clang {v}: {tool} not found");
            continue;
        }
        let ll = scratch.join(format!("counter{v}.ll"));
        let low = scratch.join(format!("counter{v}.low.ll"));
        let exe = scratch.join(format!("counter{v}"));
        let ok = Command::new(&clang)
            .args(["-std=c++20", "-O0", "-g", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"])
            .arg(&src)
            .arg("-o")
            .arg(&ll)
            .status()
            .expect("clang runs");
        assert!(ok.success());
        assert!(Command::new(LLCORO).arg(&ll).arg("-o").arg(&low).status().expect("llcoro runs").success());
        assert!(
            Command::new(&clang).args(["-g", "-O0"]).arg(&low).arg("-o").arg(&exe).status().expect("clang").success()
        );
        let out = Command::new("gdb")
            .args(["-batch", "-nx", "-ex"])
            .arg(format!("break counter.cpp:{line}"))
            .args(["-ex", "run", "-ex", "print i", "-ex", "print total", "-ex", "print n"])
            .args(["-ex", "continue", "-ex", "print i", "-ex", "print total"])
            .arg(&exe)
            .output()
            .expect("gdb runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let values: Vec<&str> = stdout.lines().filter(|l| l.starts_with('$')).collect();
        assert_eq!(
            values,
            ["$1 = 0", "$2 = 100", "$3 = 3", "$4 = 1", "$5 = 101"],
            "clang {v}: gdb output:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
