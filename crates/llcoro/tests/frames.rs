//! `llcoro frames`: the report matches the frame the lowering builds, in every format; and the
//! frames it reports are right: the lowered programs run as LLVM's lowering of them does.

mod common;

use common::run_ok;
use std::path::Path;
use std::process::Command;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn frames(format: &str, file: &str) -> String {
    let out = Command::new(LLCORO).current_dir(ROOT).args(["frames", "--format", format, file]).output().expect("runs");
    assert!(out.status.success(), "llcoro frames failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The JSON report of `file`'s first coroutine, and a lookup of a field's offset by what it holds.
fn report(file: &str) -> (serde_json::Value, impl Fn(&str) -> serde_json::Value) {
    let j = frames("json", file);
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let fields = v["frames"][0]["fields"].as_array().expect("fields").clone();
    let off = move |name: &str| {
        fields.iter().find(|x| x["holds"] == name).unwrap_or_else(|| panic!("{name} in {j}"))["offset"].clone()
    };
    (v["frames"][0].clone(), off)
}

#[test]
fn print_loop_frame_is_reported_exactly() {
    // The Coroutines document's example: %inc (i32) lives across the one suspend.
    let j = frames("json", "tests/docs/coro_print_loop.ll");
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let f = &v["frames"][0];
    assert_eq!(f["coroutine"], "@f");
    assert_eq!(f["size"], 24);
    assert_eq!(f["align"], 8);
    let fields = f["fields"].as_array().expect("fields");
    let at = |k: &str| fields.iter().find(|x| x["kind"] == k).unwrap_or_else(|| panic!("no {k} field in {j}"));
    assert_eq!(at("resume function")["offset"], 0);
    assert_eq!(at("destroy function")["offset"], 8);
    // Fields go by decreasing alignment: the i32 before the i1 index.
    assert_eq!(at("suspend index")["offset"], 20);
    assert_eq!(at("suspend index")["type"], "i1");
    let spill = at("spill");
    assert_eq!(spill["offset"], 16);
    assert_eq!(spill["type"], "i32");
    assert_eq!(spill["holds"], "%inc");
    assert_eq!(spill["live_across"], serde_json::json!([0]));

    let t = frames("text", "tests/docs/coro_print_loop.ll");
    assert!(t.starts_with("@f\n  frame 24 bytes, align 8;"), "{t}");
    let s = frames("svg", "tests/docs/coro_print_loop.ll");
    assert!(s.starts_with("<svg") && s.contains("suspend 0") && s.contains("<title>spill: %inc, bytes 16..20"), "{s}");
}

#[test]
fn promise_sits_where_coro_promise_expects_it() {
    let j = frames("json", "tests/docs/coro_promise.ll");
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let fields = v["frames"][0]["fields"].as_array().expect("fields");
    let p = fields.iter().find(|x| x["kind"] == "promise").expect("a promise field");
    // An i32 promise: alignTo(2 * 8, 4) = 16.
    assert_eq!(p["offset"], 16);
    assert_eq!(p["size"], 4);
}

#[test]
fn allocas_with_disjoint_lifetimes_share_bytes_and_still_run() {
    let (v, off) = report("tests/frames/disjoint_lifetimes.ll");
    assert_eq!(off("%a"), off("%b"), "disjoint lifetimes share: {v}");
    assert_ne!(off("%a"), off("%c"), "%c escapes and overlaps both: {v}");
    assert_eq!(v["size"], 152);
    // The shared bytes must not change behaviour.
    if let Some(out) = run_both_ways("tests/frames/disjoint_lifetimes.ll") {
        assert_eq!(out, "1\n2\n");
    }
}

/// Lowers `file` with llcoro and with opt-19 (whose frame size, the `dereferenceable(N)` of its
/// `.resume`, comes back too), runs both with lli-19, and returns llcoro's stdout after checking
/// that the two agree. `None` when the tools are missing outside CI.
fn lower_both_ways(file: &str) -> Option<(String, u64)> {
    if !common::require(&["opt-19", "lli-19"], &format!("running {file}")) {
        return None;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let stem = Path::new(file).file_stem().and_then(|s| s.to_str()).unwrap_or("x").to_string();
    let ours = tmp.join(format!("{stem}.llcoro.ll"));
    let theirs = tmp.join(format!("{stem}.opt.ll"));
    run_ok(Command::new(LLCORO).current_dir(ROOT).arg(file).arg("-o").arg(&ours));
    run_ok(
        Command::new("opt-19")
            .current_dir(ROOT)
            .args(["-passes=coro-early,coro-split,coro-cleanup", "-S", file, "-o"])
            .arg(&theirs),
    );
    let text = std::fs::read_to_string(&theirs).expect("opt output");
    let line = text.lines().find(|l| l.starts_with("define") && l.contains(".resume(")).expect("a .resume function");
    let n = line.split("dereferenceable(").nth(1).and_then(|r| r.split(')').next()).expect("dereferenceable(N)");
    let run = |p: &Path| String::from_utf8_lossy(&run_ok(Command::new("lli-19").arg(p)).stdout).into_owned();
    let (a, b) = (run(&ours), run(&theirs));
    assert_eq!(a, b, "llcoro's lowering of {file} prints differently from LLVM's");
    Some((a, n.parse().expect("a number")))
}

fn run_both_ways(file: &str) -> Option<String> {
    lower_both_ways(file).map(|(out, _)| out)
}

#[test]
fn spilled_values_of_disjoint_regions_share_slots() {
    // Four regions of eight i64 values, each live across its own suspend only.
    let (v, off) = report("tests/frames/regions.ll");
    assert_eq!(off("%v0_3"), off("%v2_3"), "values of different regions share: {v}");
    assert_ne!(off("%v0_3"), off("%v0_4"), "values of one region do not: {v}");
    assert_eq!(v["size"], 88, "16 header bytes, eight shared i64 slots, the index: {v}");
    if let Some((out, llvm)) = lower_both_ways("tests/frames/regions.ll") {
        assert_eq!(out, "36\n100\n164\n228\n");
        assert_eq!(llvm, 280, "LLVM gives each of the 32 values its own slot");
    }
    let t = frames("text", "tests/frames/regions.ll");
    let row = t.lines().find(|l| l.contains(" %v0_0 ")).unwrap_or_else(|| panic!("a row for %v0_0: {t}"));
    let cells: Vec<&str> = row.split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
    assert_eq!(
        cells[cells.len() - 2..],
        ["0", "%v1_0, %v2_0, %v3_0"],
        "live across 0 only, sharing with the others: {row}"
    );
}

#[test]
fn allocas_reached_through_derived_or_escaped_pointers_live_in_the_frame() {
    let file = "tests/frames/hidden_allocas.ll";
    let j = frames("json", file);
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let fields = v["frames"][0]["fields"].as_array().expect("fields");
    for name in ["%a", "%b"] {
        let fl = fields.iter().find(|x| x["holds"] == name).unwrap_or_else(|| panic!("{name} in the frame: {j}"));
        assert_eq!(fl["kind"], "alloca");
        assert_eq!(fl["live_across"], serde_json::json!([0, 1]), "{name}: {j}");
    }
    // %x, the GEP into %a, is recomputed from the frame address rather than stored.
    assert_eq!(v["frames"][0]["recomputed"], serde_json::json!(["%x"]), "{j}");
    if let Some(out) = run_both_ways(file) {
        assert_eq!(out, "7\n9\n", "a dangling pointer into the ramp's stack reads what @scribble wrote");
    }
}

#[test]
fn cheap_values_are_recomputed_by_the_cost_rule() {
    let file = "tests/frames/remat.ll";
    let j = frames("json", file);
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    let f = &v["frames"][0];
    assert_eq!(f["recomputed"], serde_json::json!(["%m", "%p"]), "one load and one instruction each: {j}");
    let held: Vec<&str> = f["fields"].as_array().expect("fields").iter().filter_map(|x| x["holds"].as_str()).collect();
    assert!(held.contains(&"%n") && held.contains(&"%q"), "%q would need two loads, so it keeps a slot: {j}");
    assert_eq!(f["size"], 32);
    if let Some(out) = run_both_ways(file) {
        assert_eq!(out, "12\n21\n33\n7\n");
    }
}
