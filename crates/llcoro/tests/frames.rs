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

/// Escaped locals of successive awaits share bytes: each suspend's way back to whoever resumed is
/// no place where both are alive (the frame outlives it), and the escaped address is read back
/// after each resume.
#[test]
fn escaped_allocas_of_successive_awaits_share_bytes_and_still_run() {
    let (v, off) = report("tests/frames/successive_awaits.ll");
    assert_eq!(off("%a"), off("%b"), "alive across different suspends only: {v}");
    assert_eq!(v["size"], 88, "16 header bytes, one shared 64-byte slot, the index: {v}");
    if let Some(out) = run_both_ways("tests/frames/successive_awaits.ll") {
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

/// `src` (a path under the repository, so that debug info names it by that path) compiled by
/// clang++-19 into presplit IR with `flags`, in scratch directory `dir` (one per test: tests run at
/// once); the IR's path.
fn presplit_ir(dir: &str, src: &str, flags: &[&str]) -> std::path::PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&tmp).expect("scratch directory");
    let stem = Path::new(src).file_stem().and_then(|s| s.to_str()).unwrap_or("x");
    let ll = tmp.join(format!("{stem}{}.ll", flags.concat()));
    run_ok(
        Command::new("clang++-19")
            .current_dir(ROOT)
            .args(["-std=c++20", "-O0", "-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes"])
            .args(flags)
            .arg(src)
            .arg("-o")
            .arg(&ll),
    );
    ll
}

/// The expected reports in tests/frames/expected were written by hand, every number checked
/// against the IR clang++-19 gives (tests/frames/expected/README.md works the layouts out); they
/// are not output of llcoro pasted in.
#[test]
fn reports_match_the_hand_written_ones() {
    if !common::require(&["clang++-19"], "the hand-written frame reports") {
        return;
    }
    let cases: [(&str, &[&str], &str, &str); 6] = [
        ("tests/frames/report.cpp", &[], "text", "report.txt"),
        ("tests/frames/report.cpp", &["-g"], "text", "report.g.txt"),
        ("tests/frames/report.cpp", &["-g"], "json", "report.g.json"),
        ("tests/diff/11_await_suspend_void.cpp", &[], "text", "11_await_suspend_void.txt"),
        ("tests/diff/11_await_suspend_void.cpp", &[], "json", "11_await_suspend_void.json"),
        ("tests/diff/11_await_suspend_void.cpp", &["-g"], "text", "11_await_suspend_void.g.txt"),
    ];
    for (src, flags, format, expected) in cases {
        let ll = presplit_ir("frame-reports", src, flags);
        let got = frames(format, ll.to_str().expect("a UTF-8 path"));
        let want = std::fs::read_to_string(Path::new(ROOT).join("tests/frames/expected").join(expected))
            .expect("the expected report");
        // JSON is compared as values, printed the same way, so that key order and spacing do not
        // count and a difference shows as a line.
        let (got, want) = if format == "json" {
            let canon = |t: &str| {
                let v: serde_json::Value = serde_json::from_str(t).expect("JSON");
                serde_json::to_string_pretty(&v).expect("printable") + "\n"
            };
            (canon(&got), canon(&want))
        } else {
            (got, want)
        };
        if got != want {
            let line = got.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(0);
            panic!(
                "{expected} ({src} {flags:?}), first difference at line {}:\n  got:  {:?}\n  want: {:?}\nwhole report:\n{got}",
                line + 1,
                got.lines().nth(line).unwrap_or(""),
                want.lines().nth(line).unwrap_or("")
            );
        }
    }
}

/// Runs headless chromium on `page` with `args`; its stdout, and the console errors it logged.
fn chromium(page: &Path, profile: &Path, args: &[&str]) -> (String, Vec<String>) {
    let url = format!("file://{}", page.display());
    let out = common::run_with(
        Command::new("chromium")
            .args(["--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr", "--v=0", "--no-first-run"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(args)
            .arg(&url),
        None,
        std::time::Duration::from_secs(120),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.success(), "chromium on {url}: {}", out.describe());
    let errors = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), errors)
}

#[test]
fn html_report_loads_in_a_browser_without_errors() {
    if !common::require(&["clang++-19", "chromium"], "the HTML report in a browser") {
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("frame-reports-html");
    std::fs::create_dir_all(&tmp).expect("scratch directory");
    let ll = presplit_ir("frame-reports-html", "tests/frames/report.cpp", &["-g"]);
    let page = tmp.join("report.html");
    run_ok(Command::new(LLCORO).args(["frames", "--format", "html"]).arg(&ll).arg("-o").arg(&page));
    let html = std::fs::read_to_string(&page).expect("the page");
    for external in ["src=\"http", "href=\"http", "<link", "<script src", "@import", "url(http"] {
        assert!(!html.contains(external), "the page must need no other file: {external}");
    }

    // The console check can fail: a script error on a page is seen.
    let broken = tmp.join("broken.html");
    std::fs::write(&broken, "<!DOCTYPE html><html><body><script>noSuchFunction();</script></body></html>\n")
        .expect("broken page");
    let (_, errors) = chromium(&broken, &tmp.join("profile-broken"), &["--dump-dom"]);
    assert!(errors.iter().any(|e| e.contains("noSuchFunction")), "chromium's console errors are not seen: {errors:?}");

    let (dom, errors) = chromium(&page, &tmp.join("profile-dom"), &["--dump-dom"]);
    assert!(errors.is_empty(), "console errors: {errors:?}");
    assert!(dom.contains("data-llcoro-ready=\"1\""), "the page's script did not finish: {dom}");
    // The script sorted the table by frame size, largest first (the module order is count, twice,
    // phases).
    let order: Vec<&str> = dom.split("<td data-value=\"").skip(1).filter_map(|r| r.split('"').next()).collect();
    assert_eq!(order, ["phases()", "count(long)", "twice(int)"], "{dom}");
    assert!(dom.contains("<svg") && dom.contains("<title>"), "each frame has its picture with tooltips");

    let shot = tmp.join("report.png");
    let _ = std::fs::remove_file(&shot);
    let (_, errors) = chromium(
        &page,
        &tmp.join("profile-shot"),
        &[&format!("--screenshot={}", shot.display()), "--window-size=1200,1600"],
    );
    assert!(errors.is_empty(), "console errors: {errors:?}");
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    // IHDR: width and height, big-endian, at bytes 16..24.
    let dim = |k: usize| png.get(k..k + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    assert_eq!((dim(16), dim(20)), (Some(1200), Some(1600)), "the window's size");
    // A blank page compresses to a few hundred bytes; tables, text and bars do not.
    assert!(png.len() > 20_000, "a screenshot of {} bytes shows next to nothing", png.len());
}

/// "if no fields shared" is what LLVM's own lowering lays out (it shares nothing at -O0): the
/// `dereferenceable(N)` of each `.resume` opt-19 makes.
#[test]
fn size_without_sharing_is_the_size_llvm_gives() {
    if !common::require(&["clang++-19", "opt-19"], "the sizes LLVM gives") {
        return;
    }
    for src in ["tests/frames/report.cpp", "tests/diff/11_await_suspend_void.cpp"] {
        let ll = presplit_ir("frame-reports-llvm", src, &[]);
        let lowered = ll.with_extension("opt.ll");
        run_ok(
            Command::new("opt-19")
                .args(["-passes=coro-early,coro-split,coro-cleanup", "-S"])
                .arg(&ll)
                .arg("-o")
                .arg(&lowered),
        );
        let text = std::fs::read_to_string(&lowered).expect("opt's output");
        let v: serde_json::Value = serde_json::from_str(&frames("json", ll.to_str().expect("UTF-8"))).expect("JSON");
        let reported = v["frames"].as_array().expect("frames");
        assert!(!reported.is_empty(), "{src}: no frames");
        for f in reported {
            let name = f["coroutine"].as_str().expect("a name");
            let line = text
                .lines()
                .find(|l| l.starts_with("define") && l.contains(&format!("{name}.resume(")))
                .unwrap_or_else(|| panic!("{src}: no {name}.resume in opt's output"));
            let n: u64 = line
                .split("dereferenceable(")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("dereferenceable(N) in {line}"));
            assert_eq!(f["size_without_sharing"], n, "{src}: {name}");
        }
    }
}
