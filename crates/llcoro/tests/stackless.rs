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
