//! `llcoro frames`: the report matches the frame the lowering builds, in every format.

use std::process::Command;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

fn frames(format: &str, file: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new(LLCORO).current_dir(root).args(["frames", "--format", format, file]).output().expect("runs");
    assert!(out.status.success(), "llcoro frames failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn print_loop_frame_is_reported_exactly() {
    // The Coroutines document's example: %inc (i32) lives across the one suspend.
    let j = frames("json", "tests/docs/coro_print_loop.ll");
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let f = &v[0];
    assert_eq!(f["coroutine"], "@f");
    assert_eq!(f["size"], 24);
    assert_eq!(f["align"], 8);
    let fields = f["fields"].as_array().expect("fields");
    let at = |k: &str| fields.iter().find(|x| x["kind"] == k).unwrap_or_else(|| panic!("no {k} field in {j}"));
    assert_eq!(at("resume function")["offset"], 0);
    assert_eq!(at("destroy function")["offset"], 8);
    assert_eq!(at("suspend index")["offset"], 16);
    assert_eq!(at("suspend index")["type"], "i1");
    let spill = at("spill");
    assert_eq!(spill["offset"], 20);
    assert_eq!(spill["type"], "i32");
    assert_eq!(spill["holds"], "%inc");
    assert_eq!(spill["live_across"], serde_json::json!([0]));

    let t = frames("text", "tests/docs/coro_print_loop.ll");
    assert!(t.contains("@f: frame 24 bytes, align 8, 1 suspend points"), "{t}");
    let s = frames("svg", "tests/docs/coro_print_loop.ll");
    assert!(s.starts_with("<svg") && s.contains("suspend 0") && s.contains("spill @20"), "{s}");
}

#[test]
fn promise_sits_where_coro_promise_expects_it() {
    let j = frames("json", "tests/docs/coro_promise.ll");
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let fields = v[0]["fields"].as_array().expect("fields");
    let p = fields.iter().find(|x| x["kind"] == "promise").expect("a promise field");
    // An i32 promise: alignTo(2 * 8, 4) = 16.
    assert_eq!(p["offset"], 16);
    assert_eq!(p["size"], 4);
}

#[test]
fn allocas_with_disjoint_lifetimes_share_bytes_and_still_run() {
    let j = frames("json", "tests/frames/disjoint_lifetimes.ll");
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let fields = v[0]["fields"].as_array().expect("fields");
    let off = |name: &str| {
        fields.iter().find(|x| x["holds"] == name).unwrap_or_else(|| panic!("{name} in {j}"))["offset"].clone()
    };
    assert_eq!(off("%a"), off("%b"), "disjoint lifetimes share: {j}");
    assert_ne!(off("%a"), off("%c"), "%c escapes and overlaps both: {j}");
    assert_eq!(v[0]["size"], 152);

    // The shared bytes must not change behaviour: lower, then run with lli-19.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("disjoint_lifetimes.low.ll");
    let st = Command::new(LLCORO)
        .current_dir(root)
        .arg("tests/frames/disjoint_lifetimes.ll")
        .arg("-o")
        .arg(&out)
        .status()
        .expect("runs");
    assert!(st.success());
    match Command::new("lli-19").arg(&out).output() {
        Ok(o) => {
            assert_eq!(String::from_utf8_lossy(&o.stdout), "1\n2\n", "stderr: {}", String::from_utf8_lossy(&o.stderr))
        }
        Err(e) if std::env::var_os("CI").is_none() => eprintln!("skipping the run: lli-19 not found ({e})"),
        Err(e) => panic!("lli-19 is needed under CI (scripts/install-test-tools.sh): {e}"),
    }
}
