//! Stackless heap frames (`gc.frame.*` / `frame.*` intrinsics), lowered by llcoro and run.
//!
//! `tests/stackless/opaque/*.ll` with LLVM 19 and 22, `tests/stackless/typed/*.ll` (typed pointers)
//! with LLVM 14. Each file states its output in a `; EXPECT:` block. For each: `opt-N` accepts the
//! input; `llcoro IN -o OUT` exits 0 and leaves no frame intrinsic; lowering OUT again changes
//! nothing; `opt-N` accepts OUT; `lli-N OUT` exits 0 with the expected output.

mod common;

use std::path::Path;

fn programs(from: &str, versions: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stackless").join(from.replace('/', "_"));
    common::run_ir_programs("stackless IR", &root.join(from), versions, &scratch, &|_, _, lowered, rec| {
        if let Some((n, line)) =
            common::code_lines(lowered).find(|(_, l)| l.contains("@llvm.gc.frame.") || l.contains("@llvm.frame."))
        {
            rec.add("leftovers", format!("line {n} still uses a frame intrinsic: {}", line.trim()));
        }
    });
}

#[test]
fn opaque_programs_lower_and_run() {
    programs("tests/stackless/opaque", &["19", "22"]);
}

#[test]
fn typed_programs_lower_and_run() {
    programs("tests/stackless/typed", &["14"]);
}

/// The frame descriptor table: `tests/stackless/table/foo.ll` lowered and linked with `main.c`
/// (clang 19 and 22, -O0 and -O2), whose stackless `bar` finds @foo's call site in the table
/// through the key in @foo's suspended frame and prints it; the output must be the `/* EXPECT:`
/// block of main.c.
#[test]
fn descriptor_table_describes_the_suspended_frame() {
    if !common::require(&["clang-19", "clang-22"], "the frame descriptor table test") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/stackless/table");
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stackless").join("table");
    let _ = std::fs::create_dir_all(&scratch);
    let main_c = std::fs::read_to_string(root.join("main.c")).unwrap_or_default();
    let want: String = main_c
        .lines()
        .skip_while(|l| l.trim() != "/* EXPECT:")
        .skip(1)
        .take_while(|l| l.trim() != "*/")
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!want.is_empty(), "main.c has no /* EXPECT: block");
    let lowered = scratch.join("foo.lowered.ll");
    let timeout = std::time::Duration::from_secs(120);
    if let Err(e) = common::run_llcoro(&root.join("foo.ll"), &lowered, &[], timeout) {
        panic!("{e}");
    }
    let mut failures = Vec::new();
    for cc in ["clang-19", "clang-22"] {
        for opt in ["-O0", "-O2"] {
            let exe = scratch.join(format!("table.{cc}{opt}"));
            let mut build = std::process::Command::new(cc);
            build.args([opt, "-Wno-override-module"]).arg(&lowered).arg(root.join("main.c")).arg("-o").arg(&exe);
            if let Err(e) = common::run_tool(&mut build, timeout) {
                failures.push(format!("{cc} {opt}: {e}"));
                continue;
            }
            match common::run_with(&mut std::process::Command::new(&exe), None, timeout) {
                Ok(o) if o.success() && String::from_utf8_lossy(&o.stdout) == want => {}
                Ok(o) => failures.push(format!(
                    "{cc} {opt}: {}\n{}",
                    o.status_text(),
                    common::first_difference(want.as_bytes(), &o.stdout, ("expected", "actual"))
                )),
                Err(e) => failures.push(format!("{cc} {opt}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
