//! Heap elision without inlining: callers that destroy a coroutine on every path keep its frame on
//! their own stack (tests/elide/callers.ll). The oracle is LLVM's coro passes on the same file (no
//! inlining, so no elision there): the program must print the same, and valgrind must count 5 heap
//! allocations fewer (6 frames, of which only the one whose handle escapes stays on the heap).

mod common;

use common::run_ok as run;
use std::path::Path;
use std::process::Command;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `exe` under valgrind (which fails on any memory error): its stdout and how many heap
/// allocations it made.
fn grind(exe: &Path) -> (String, u64) {
    let o = run(Command::new("valgrind").args(["--error-exitcode=9", "--leak-check=no"]).arg(exe));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let allocs: u64 = err
        .split("total heap usage: ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no heap summary from valgrind:\n{err}"));
    (String::from_utf8_lossy(&o.stdout).into_owned(), allocs)
}

#[test]
fn frames_of_coroutines_destroyed_on_every_path_move_to_the_callers_stack() {
    let file = root().join("tests/elide/callers.ll");
    let j = run(Command::new(LLCORO).args(["frames", "--format", "json"]).arg(&file)).stdout;
    let v: serde_json::Value = serde_json::from_slice(&j).expect("valid JSON");
    assert_eq!(v["frames"][0]["coroutine"], "@gen");
    assert_eq!(
        v["frames"][0]["elided_in"],
        serde_json::json!(["@straight", "@looped"]),
        "not @kept: its handle escapes"
    );

    if !common::require(&["opt-19", "clang-19", "valgrind"], "the runs") {
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
    // Both compiled and run under valgrind, which counts heap allocations and checks that frames
    // on the stack are used only while alive.
    let (exe_ours, exe_theirs) = (tmp.join("callers.llcoro"), tmp.join("callers.opt"));
    run(Command::new("clang-19").args(["-O0", "-w"]).arg(&ours).arg("-o").arg(&exe_ours));
    run(Command::new("clang-19").args(["-O0", "-w"]).arg(&theirs).arg("-o").arg(&exe_theirs));
    let (a, na) = grind(&exe_ours);
    let (b, nb) = grind(&exe_theirs);
    assert_eq!(a, b, "same values printed either way");
    assert_eq!(a.lines().count(), 12);
    assert_eq!(nb, na + 5, "LLVM's coro passes allocate all 6 frames, llcoro only @kept's: {nb} against {na}");
}

/// `src` (under the repository) as presplit IR from clang++-22 -O2 in a scratch directory `dir`, and
/// what `llcoro frames --format json` says of it; `None` when the tools a test of it needs
/// (`fewer_allocations`) are missing outside CI.
fn presplit_cpp(src: &str, dir: &str) -> Option<(std::path::PathBuf, std::path::PathBuf, serde_json::Value)> {
    if !common::require(&["clang++-22", "opt-22", "valgrind"], "the test") {
        return None;
    }
    let src = root().join(src);
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&tmp).expect("scratch dir");
    let ll = tmp.join("in.ll");
    run(Command::new("clang++-22")
        .args(["-std=c++20", "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"])
        .arg(&src)
        .arg("-o")
        .arg(&ll));
    let j = run(Command::new(LLCORO).args(["frames", "--format", "json"]).arg(&ll)).stdout;
    let v: serde_json::Value = serde_json::from_slice(&j).expect("valid JSON");
    Some((src, ll, v))
}

/// `key` of the frame report of `coroutine` in `llcoro frames --format json` output `v` (null when
/// there is none).
fn report_field(v: &serde_json::Value, coroutine: &str, key: &str) -> serde_json::Value {
    v["frames"]
        .as_array()
        .and_then(|a| a.iter().find(|f| f["coroutine"] == coroutine))
        .map(|f| f[key].clone())
        .unwrap_or_default()
}

/// Lowers `ll` with llcoro and with LLVM's coro passes at llcoro's position, builds both at -O0 and
/// -O2, and checks that each prints what `src` built natively prints and that LLVM's makes `fewer`
/// more heap allocations than llcoro's. Returns the native output.
fn fewer_allocations(src: &Path, ll: &Path, fewer: u64) -> String {
    let tmp = ll.parent().expect("scratch dir");
    let (ours, theirs) = (tmp.join("llcoro.ll"), tmp.join("opt.ll"));
    run(Command::new(LLCORO).arg(ll).arg("-o").arg(&ours));
    run(Command::new("opt-22")
        .args(["-passes=coro-early,coro-split,coro-cleanup", "-S"])
        .arg(ll)
        .arg("-o")
        .arg(&theirs));
    let native = tmp.join("native");
    run(Command::new("clang++-22").args(["-std=c++20", "-O0", "-w"]).arg(src).arg("-o").arg(&native));
    let expected = String::from_utf8_lossy(&run(&mut Command::new(&native)).stdout).into_owned();
    for opt in ["-O0", "-O2"] {
        let grind = |ir: &Path, name: &str| {
            let exe = tmp.join(format!("{name}{opt}"));
            run(Command::new("clang++-22").args([opt, "-w"]).arg(ir).arg("-o").arg(&exe));
            grind(&exe)
        };
        let (a, na) = grind(&ours, "llcoro");
        let (b, nb) = grind(&theirs, "opt");
        assert_eq!(a, expected, "{opt}");
        assert_eq!(b, expected, "{opt}");
        assert_eq!(nb, na + fewer, "{opt}: {fewer} frames off the heap ({na} against {nb})");
    }
    expected
}

#[test]
fn frames_of_generators_kept_in_task_objects_move_to_the_callers_stack() {
    let Some((src, ll, v)) = presplit_cpp("tests/elide/task_object.cpp", "elide-task") else { return };
    assert_eq!(v["frames"][0]["elided_in"], serde_json::json!(["@main"]), "main's loop, not keep(): {v}");
    // The ten frames of main's loop are on its stack.
    fewer_allocations(&src, &ll, 10);
}

/// A child task awaited by a coroutine lives in the awaiting coroutine's frame; a generator bound
/// to a range-based `for`'s reference variable lives on main's stack; a task moved into a global
/// stays on the heap (tests/elide/awaited.cpp).
#[test]
fn frames_of_awaited_children_move_into_the_awaiting_frame() {
    let Some((src, ll, v)) = presplit_cpp("tests/elide/awaited.cpp", "elide-awaited") else { return };
    let elided_in = |name: &str| report_field(&v, name, "elided_in");
    // In the order of the module, though parent is lowered after child and numbers.
    let names: Vec<&str> =
        v["frames"].as_array().map(|a| a.iter().filter_map(|f| f["coroutine"].as_str()).collect()).unwrap_or_default();
    assert_eq!(names, ["@_Z5childl", "@_Z6parentl", "@_Z7numbersl"]);
    assert_eq!(elided_in("@_Z5childl"), serde_json::json!(["@_Z6parentl"]), "{v}");
    assert_eq!(elided_in("@_Z6parentl"), serde_json::json!(["@main"]), "{v}");
    assert_eq!(elided_in("@_Z7numbersl"), serde_json::json!(["@main"]), "{v}");
    // Ten children, parent(10) and the generator; `kept` stays on the heap in both.
    let out = fewer_allocations(&src, &ll, 12);
    assert_eq!(out, "parent 295\nnumbers 30\nkept 1\n");
}

/// The awaiting coroutine destroys each child it holds in its frame through the task object
/// (`~task` after the `co_await`); llcoro says again, before that destructor, which frame the
/// object holds and which `.cleanup` is in its destroy slot, so that at -O2 `parent`'s `.resume`
/// keeps no indirect call (`invoke` of the slot) for it, as clang's CoroElide removes it natively.
/// Only symmetric transfers (`musttail`) stay indirect. Since `child`'s `.cleanup` does nothing
/// and `~task` does nothing but destroy, llcoro drops those destructor calls altogether, as
/// CoroElide drops the destroy: none is left in `parent`'s parts.
#[test]
fn the_destroy_of_an_awaited_child_folds_at_o2() {
    let Some((_, ll, _)) = presplit_cpp("tests/elide/awaited.cpp", "elide-destroy-folds") else { return };
    let tmp = ll.parent().expect("scratch dir");
    let (ours, opt) = (tmp.join("llcoro.ll"), tmp.join("llcoro.O2.ll"));
    run(Command::new(LLCORO).arg(&ll).arg("-o").arg(&ours));
    let lowered = std::fs::read_to_string(&ours).expect("lowered");
    let parent_dtors = lowered
        .split("\ndefine ")
        .filter(|d| d.lines().next().is_some_and(|head| head.contains("@_Z6parentl.")))
        .map(|d| d.split("\n}\n").next().unwrap_or(d).matches("call void @_ZN4taskD2Ev(").count())
        .sum::<usize>();
    assert_eq!(parent_dtors, 0, "~task calls left in parent's parts:\n{lowered}");
    run(Command::new("clang++-22").args(["-O2", "-S", "-emit-llvm", "-w"]).arg(&ours).arg("-o").arg(&opt));
    let text = std::fs::read_to_string(&opt).expect("optimised");
    let body = text
        .split("\ndefine ")
        .find(|d| d.contains("@_Z6parentl.resume("))
        .and_then(|d| d.split("\n}\n").next())
        .unwrap_or_else(|| panic!("no parent.resume in:\n{text}"));
    let indirect: Vec<&str> = body
        .lines()
        .filter(|l| (l.contains("call ") || l.contains("invoke ")) && l.contains(" %") && !l.contains("musttail"))
        .filter(|l| l.split(['(', '@']).next().is_some_and(|head| head.contains(" %")))
        .collect();
    assert!(indirect.is_empty(), "indirect calls left in parent.resume: {indirect:#?}\n{body}");
    assert!(body.contains("musttail call"), "the transfers are still there:\n{body}");
}

/// Two children awaited one after the other (tests/elide/two_awaits.cpp): both frames move into
/// the parent's, and since elide marks each alive only from its ramp call to its destroy, they
/// share bytes there (main's binary before the markers gave them offsets 32 and 80 in a 160-byte
/// frame; now both 32 in 112). The program prints what it prints natively, at -O0 and -O2, with
/// every frame off the heap (LLVM's coro passes alone allocate 15).
#[test]
fn frames_of_children_never_alive_together_share_bytes() {
    let Some((src, ll, v)) = presplit_cpp("tests/elide/two_awaits.cpp", "elide-two-awaits") else { return };
    let fields = report_field(&v, "@_Z4pairl", "fields");
    let held: Vec<(u64, u64)> = fields
        .as_array()
        .expect("pair's fields")
        .iter()
        .filter(|f| f["value"].as_str().is_some_and(|n| n.starts_with("%coro.elided.frame")))
        .filter_map(|f| Some((f["offset"].as_u64()?, f["size"].as_u64()?)))
        .collect();
    assert_eq!(held.len(), 2, "both leaves in pair's frame: {fields}");
    assert_eq!(held[0], held[1], "the two leaves' frames share bytes: {fields}");
    assert_eq!(report_field(&v, "@_Z4pairl", "size"), 112);
    fewer_allocations(&src, &ll, 15);
}

/// Coroutines whose only awaits are always ready (`std::suspend_never`) have no suspend point once
/// llcoro folds their `await_ready` calls, and keep their frames on the ramp's stack; a lazy task
/// keeps its suspend points (tests/elide/never_suspends.cpp).
#[test]
fn coroutines_that_never_suspend_keep_their_frames_on_the_ramps_stack() {
    let Some((src, ll, v)) = presplit_cpp("tests/elide/never_suspends.cpp", "elide-never") else { return };
    let suspends = |name: &str| report_field(&v, name, "suspend_points").as_array().map(|a| a.len());
    assert_eq!(suspends("@_Z3addPii"), Some(0), "{v}");
    assert_eq!(suspends("@_Z5stepsPii"), Some(0), "{v}");
    assert_eq!(suspends("@_Z5laterPi"), Some(2), "{v}");
    assert_eq!(report_field(&v, "@_Z3addPii", "on_own_stack"), serde_json::json!(true), "{v}");
    assert_eq!(report_field(&v, "@_Z5laterPi", "on_own_stack"), serde_json::json!(false), "{v}");
    // Five calls of add, four of steps, and the lazy task main destroys.
    let out = fewer_allocations(&src, &ll, 10);
    assert_eq!(out, "add 10 steps 65 lazy 10 -> 110\n");
}

/// Two coroutines awaiting each other (tests/diff/10_recursive_task_depth.cpp: even_chain awaits
/// odd_chain, which awaits even_chain): the cycle is broken at the first, so the second holds the
/// first's frame in its own; a self-recursive coroutine never holds its own frame.
#[test]
fn a_cycle_of_awaiting_coroutines_still_holds_one_frame_in_the_other() {
    let Some((src, ll, v)) = presplit_cpp("tests/diff/10_recursive_task_depth.cpp", "elide-cycle") else { return };
    let elided_in = |name: &str| report_field(&v, name, "elided_in");
    assert_eq!(elided_in("@_Z10even_chaini"), serde_json::json!(["@_Z9odd_chaini", "@main"]), "{v}");
    assert_eq!(elided_in("@_Z9odd_chaini"), serde_json::json!([]), "{v}");
    assert_eq!(elided_in("@_Z8sum_downi"), serde_json::json!(["@main"]), "{v}");
    let size = |name: &str| report_field(&v, name, "size").as_u64().unwrap_or(0);
    assert!(size("@_Z9odd_chaini") >= 2 * size("@_Z10even_chaini"), "odd_chain holds even_chain's frame: {v}");
    // Half the chain's frames, and the two that main holds.
    let out = fewer_allocations(&src, &ll, 7502);
    assert!(out.starts_with("sum_down"), "{out}");
}

/// A lambda that makes a coroutine and returns it (tests/diff/14_destroy_each_suspend.cpp): the
/// lambda gets a twin that passes the frame's memory on to the ramp's, and main, which destroys
/// what the lambda returns on every path, holds the frame.
#[test]
fn frames_made_through_a_wrapper_move_to_its_callers_stack() {
    let Some((src, ll, v)) = presplit_cpp("tests/diff/14_destroy_each_suspend.cpp", "elide-wrapper") else { return };
    // Two lambdas in main, each called in one place.
    assert_eq!(report_field(&v, "@_Z4body5Noisyi", "elided_in"), serde_json::json!(["@main", "@main"]), "{v}");
    let out = fewer_allocations(&src, &ll, 10);
    assert!(out.contains("live after destroy=0"), "{out}");
}

/// A ramp whose path to its first suspend can reach a call that never returns (`std::terminate` in
/// `unhandled_exception`) still shows where it leaves its frame, so `run`, which destroys the
/// coroutine on every path, holds it (tests/diff/15_destroy_temporaries.cpp).
#[test]
fn a_ramp_that_may_terminate_still_gets_its_twin() {
    let Some((src, ll, v)) = presplit_cpp("tests/diff/15_destroy_temporaries.cpp", "elide-terminate") else { return };
    assert_eq!(report_field(&v, "@_Z4bodyiPi", "elided_in"), serde_json::json!(["@_Z3runii"]), "{v}");
    // One frame per call of run.
    let out = fewer_allocations(&src, &ll, 10);
    assert!(out.contains("run(flag=0, resumes=10)"), "{out}");
}

/// A task object that keeps the promise's `this`, and a caller that destroys the coroutine through
/// a handle rebuilt from it, behind a comparison with `&h.promise()`
/// (tests/diff/20_promise_access.cpp): the ramp returns its promise pointer, the interpreter
/// follows main from its entry, and main holds the frame.
#[test]
fn a_frame_destroyed_through_its_promise_pointer_moves_to_the_callers_stack() {
    let Some((src, ll, v)) = presplit_cpp("tests/diff/20_promise_access.cpp", "elide-promise") else { return };
    assert_eq!(report_field(&v, "@_Z12echo_doubleri", "elided_in"), serde_json::json!(["@main"]), "{v}");
    let out = fewer_allocations(&src, &ll, 1);
    assert!(out.contains("round 4: outbox=83 done=1"), "{out}");
}

/// Awaited tasks marked `[[clang::coro_await_elidable]]` (the `coro_elide_safe` call-site attribute,
/// clang 20+) whose promise counts the frames it allocates (tests/elide/elidable.cpp): no proof could
/// show that allocator unobservable, but the mark lets the child's frame live in the awaiting
/// coroutine's, as LLVM's CoroAnnotationElide does. Built at -O2, the lowered program computes what
/// clang's own build computes and leaves no more frames on the heap.
#[test]
fn calls_marked_safe_to_elide_keep_the_frame_in_the_callers_frame_whatever_the_allocator() {
    let Some((src, ll, v)) = presplit_cpp("tests/elide/elidable.cpp", "elide-marked") else { return };
    assert_eq!(report_field(&v, "@_Z4leafl", "elided_in"), serde_json::json!(["@_Z6middlel", "@_Z6middlel"]), "{v}");
    assert_eq!(report_field(&v, "@_Z6middlel", "elided_in"), serde_json::json!(["@_Z3topi"]), "{v}");
    let tmp = ll.parent().expect("scratch dir");
    let ours = tmp.join("llcoro.ll");
    run(Command::new(LLCORO).arg(&ll).arg("-o").arg(&ours));
    let (native, lowered) = (tmp.join("native"), tmp.join("lowered"));
    run(Command::new("clang++-22").args(["-std=c++20", "-O2", "-w"]).arg(&src).arg("-o").arg(&native));
    run(Command::new("clang++-22").args(["-O2", "-w"]).arg(&ours).arg("-o").arg(&lowered));
    let out = |exe: &Path| String::from_utf8_lossy(&run(&mut Command::new(exe)).stdout).into_owned();
    let heap = |s: &str| -> u64 {
        s.rsplit(' ').next().and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("no count in {s:?}"))
    };
    let (a, b) = (out(&native), out(&lowered));
    assert_eq!(a.split(',').next(), b.split(',').next(), "the same sum:\n{a}\n{b}");
    assert!(heap(&b) <= heap(&a), "no more frames on the heap than clang's -O2 build: {b} against {a}");
    assert_eq!(heap(&b), 1, "only main's frame is on the heap: {b}");
}

/// The `llvm.coro.safe.elide(ptr)` form of the mark (tests/elide/safe_elide.ll): @parent's child,
/// whose allocator counts, lives in @parent's frame, and the intrinsic is gone from the output.
/// LLVM 19 and 22 do not know the intrinsic; their lowering of the file without it is the oracle
/// for what the program prints, with one frame more on the heap.
#[test]
fn the_safe_elide_intrinsic_marks_the_call_it_names() {
    if !common::require(&["opt-19", "lli-19"], "the test") {
        return;
    }
    let file = root().join("tests/elide/safe_elide.ll");
    let j = run(Command::new(LLCORO).args(["frames", "--format", "json"]).arg(&file)).stdout;
    let v: serde_json::Value = serde_json::from_slice(&j).expect("valid JSON");
    assert_eq!(report_field(&v, "@child", "elided_in"), serde_json::json!(["@parent"]), "{v}");
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("elide-safe");
    std::fs::create_dir_all(&tmp).expect("scratch dir");
    let (ours, unmarked, theirs) = (tmp.join("llcoro.ll"), tmp.join("unmarked.ll"), tmp.join("opt.ll"));
    run(Command::new(LLCORO).arg(&file).arg("-o").arg(&ours));
    let lowered = std::fs::read_to_string(&ours).expect("lowered");
    assert!(!lowered.contains("@llvm.coro.safe.elide"), "the mark and its declaration are removed");
    let text = std::fs::read_to_string(&file).expect("input");
    let without: String =
        text.lines().filter(|l| !l.contains("llvm.coro.safe.elide")).map(|l| format!("{l}\n")).collect();
    std::fs::write(&unmarked, without).expect("write");
    run(Command::new("opt-19")
        .args(["-passes=coro-early,coro-split,coro-cleanup", "-S"])
        .arg(&unmarked)
        .arg("-o")
        .arg(&theirs));
    let printed = |ir: &Path| String::from_utf8_lossy(&run(Command::new("lli-19").arg(ir)).stdout).into_owned();
    let (a, b) = (printed(&ours), printed(&theirs));
    assert_eq!(a, "child 1\nchild 2\nparent 3\nheap frames 1\n");
    assert_eq!(b, "child 1\nchild 2\nparent 3\nheap frames 2\n");
}
