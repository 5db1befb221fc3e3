//! Heap elision without inlining: callers that destroy a coroutine on every path keep its frame on
//! their own stack (tests/elide/callers.ll). The oracle is LLVM's coro passes on the same file (no
//! inlining, so no elision there): the program must print the same, except for the count of heap
//! frames, which must drop from 6 to the one caller that lets the handle escape.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");
const TIMEOUT: Duration = Duration::from_secs(120);

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn run(cmd: &mut Command) -> common::Output {
    let out = common::run_with(cmd, None, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.success(), "{:?}: {}", cmd, out.describe());
    out
}

#[test]
fn frames_of_coroutines_destroyed_on_every_path_move_to_the_callers_stack() {
    let file = root().join("tests/elide/callers.ll");
    let j = run(Command::new(LLCORO).args(["frames", "--format", "json"]).arg(&file)).stdout;
    let v: serde_json::Value = serde_json::from_slice(&j).expect("valid JSON");
    assert_eq!(v[0]["coroutine"], "@gen");
    assert_eq!(v[0]["elided_in"], serde_json::json!(["@straight", "@looped"]), "not @kept: its handle escapes");

    let tools = ["opt-19", "lli-19", "clang-19", "valgrind"];
    if let Some(missing) = common::missing_tools(&tools) {
        assert!(std::env::var_os("CI").is_none(), "{}", common::missing_failure(&missing));
        eprintln!("{}", common::skip_notice("the runs", &missing));
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("elide");
    std::fs::create_dir_all(&tmp).expect("scratch dir");
    let ours = tmp.join("callers.llcoro.ll");
    let theirs = tmp.join("callers.opt.ll");
    run(Command::new(LLCORO).arg(&file).arg("-o").arg(&ours));
    let text = std::fs::read_to_string(&ours).expect("lowered");
    assert!(text.contains("alloca [") && text.contains("@gen.elided("), "the callers use the twin:\n{text}");
    run(Command::new("opt-19")
        .args(["-passes=coro-early,coro-split,coro-cleanup", "-S"])
        .arg(&file)
        .arg("-o")
        .arg(&theirs));
    let a = String::from_utf8_lossy(&run(Command::new("lli-19").arg(&ours)).stdout).into_owned();
    let b = String::from_utf8_lossy(&run(Command::new("lli-19").arg(&theirs)).stdout).into_owned();
    let body = |s: &str| s.lines().filter(|l| !l.starts_with("allocs")).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&a), body(&b), "same values printed either way");
    assert!(b.ends_with("allocs 6\n"), "LLVM's coro passes allocate every frame: {b}");
    assert!(a.ends_with("allocs 1\n"), "only @kept's frame is on the heap: {a}");

    // Frames on the stack must be used only while alive: compile and run under valgrind.
    let exe = tmp.join("callers");
    run(Command::new("clang-19").args(["-O0", "-w"]).arg(&ours).arg("-o").arg(&exe));
    let vg = run(Command::new("valgrind").args(["-q", "--error-exitcode=9", "--leak-check=no"]).arg(&exe));
    assert_eq!(String::from_utf8_lossy(&vg.stdout), a);
}
