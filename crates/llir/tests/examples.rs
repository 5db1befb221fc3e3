//! The programs in `examples/` run as documented, so that they cannot rot: each is run through
//! `cargo run --example` (built in the profile of this test) on a module written here.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `cargo run --example NAME -- ARGS` from this crate.
fn run_example(name: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args(["run", "--quiet", "--example", name]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    cmd.arg("--").args(args);
    match cmd.output() {
        Ok(out) => out,
        Err(e) => panic!("cannot run cargo: {e}"),
    }
}

/// Writes `text` to a file of this test's own under cargo's temporary directory.
fn input(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    if let Err(e) = std::fs::write(&path, text) {
        panic!("cannot write {}: {e}", path.display());
    }
    path
}

#[test]
fn func_sizes_lists_each_function_with_its_blocks_and_instructions() {
    let path = input(
        "func_sizes_ok.ll",
        "@g = global i32 0\n\n\
         define i32 @max(i32 %a, i32 %b) {\n\
         entry:\n  %c = icmp sgt i32 %a, %b\n  br i1 %c, label %x, label %y\n\
         x:\n  ret i32 %a\n\
         y:\n  ret i32 %b\n}\n\n\
         declare void @ext()\n\n\
         define void @\"a long name\"() {\n  call void @ext()\n  ret void\n}\n",
    );
    let out = run_example("func_sizes", &[path.to_str().unwrap_or_default()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        stdout,
        // The name column is as wide as the longest name (14), then two spaces and the numbers.
        "function        blocks  instructions\n\
         @max                 3             4\n\
         @\"a long name\"       1             2\n\
         total                4             6\n"
    );
}

#[test]
fn func_sizes_reports_a_body_that_does_not_parse_at_its_place() {
    let path = input("func_sizes_bad.ll", "define void @f() {\nentry:\n  ret i32 %x\n}\n");
    let out = run_example("func_sizes", &[path.to_str().unwrap_or_default()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("func_sizes_bad.ll:3:11: error[parse-undefined]"), "{stderr}");
    assert!(out.stdout.is_empty());
}
