//! Guarded direct calls: in `coroutine_handle<P>::resume()` and `destroy()`, when one coroutine of
//! the module has promise type `P`, llcoro calls its parts directly behind a test of the frame
//! header, so that -O2 can inline them (tests/elide/task_object.cpp, whose one coroutine is
//! `squares`), and fold the test where it sees the frame made (tests/devirt/loop_generator.cpp,
//! tests/devirt/iterator_generator.cpp).
//! The programs must print what clang's own build prints.

mod common;

use common::run_ok;
use std::path::{Path, PathBuf};
use std::process::Command;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

/// Lowers the C++ program `program` (under `tests/`; clang-22 -O2 presplit IR) with `args`, checks
/// that the lowered program prints what clang's own build prints, and returns the lowered file;
/// `None` when clang-22 is missing outside CI.
fn lower_and_run(program: &str, args: &[&str], scratch: &str) -> Option<PathBuf> {
    if !common::require(&["clang++-22"], "the test") {
        return None;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests").join(program);
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join(scratch);
    std::fs::create_dir_all(&tmp).expect("scratch dir");
    let (ll, low, exe, native) = (tmp.join("t.ll"), tmp.join("t.low.ll"), tmp.join("t"), tmp.join("t.native"));
    run_ok(
        Command::new("clang++-22")
            .args(["-std=c++20", "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"])
            .arg(&src)
            .arg("-o")
            .arg(&ll),
    );
    run_ok(Command::new(LLCORO).args(args).arg(&ll).arg("-o").arg(&low));
    run_ok(Command::new("clang++-22").args(["-O2", "-w"]).arg(&low).arg("-o").arg(&exe));
    run_ok(Command::new("clang++-22").args(["-std=c++20", "-O2", "-w"]).arg(&src).arg("-o").arg(&native));
    let (a, b) = (run_ok(&mut Command::new(&exe)).stdout, run_ok(&mut Command::new(&native)).stdout);
    assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
    Some(low)
}

/// `tests/elide/task_object.cpp` lowered with `args` (see `lower_and_run`), as text.
fn lower_task_object(args: &[&str], scratch: &str) -> Option<String> {
    let low = lower_and_run("elide/task_object.cpp", args, scratch)?;
    Some(std::fs::read_to_string(&low).expect("lowered"))
}

/// The body of the handle method `method` (`6resumeEv(` or `7destroyEv(`) of `gen`'s handle.
fn handle_method(text: &str, method: &str) -> String {
    handle_method_named(text, &format!("@_ZNKSt7__n486116coroutine_handleIN3gen12promise_typeEE{method}"))
}

/// The definition of the function whose `define` line names `name` (with its `(`).
fn handle_method_named(text: &str, name: &str) -> String {
    let start = text
        .match_indices("\ndefine ")
        .map(|(k, _)| k)
        .find(|&k| text[k + 1..].lines().next().is_some_and(|l| l.contains(name)))
        .unwrap_or_else(|| panic!("no definition of {name}"));
    text[start..start + text[start..].find("\n}\n").unwrap_or(0)].to_string()
}

/// The handles' `resume()` and `destroy()` test the frame's destroy slot with a load tagged
/// `!invariant.group`, and call `squares`' parts directly on branches weighted cold; the ramp and
/// the elided twin write the slot once with the same tag; the ramp through a laundered frame
/// pointer, the twin straight into the caller's memory (which SROA must see).
#[test]
fn handle_methods_call_the_one_coroutine_with_their_promise_type_directly() {
    let Some(text) = lower_task_object(&[], "devirt") else { return };
    let group = |body: &str| {
        let k = body.find(", !invariant.group !").unwrap_or_else(|| panic!("a tagged access:\n{body}"));
        body[k..].split_whitespace().nth(2).unwrap_or_default().to_string()
    };
    let resume = handle_method(&text, "6resumeEv(");
    let destroy = handle_method(&text, "7destroyEv(");
    let tag = group(&resume);
    assert_eq!(group(&destroy), tag);
    for body in [&resume, &destroy] {
        for part in ["@_Z7squaresl.destroy", "@_Z7squaresl.cleanup"] {
            assert!(body.contains(&format!(", {part}\n")), "a test of the destroy slot against {part}:\n{body}");
        }
        assert!(body.contains(", !prof !"), "weighted branches:\n{body}");
        assert!(body.contains("call fastcc void %"), "the header's function for other modules' frames:\n{body}");
    }
    assert_eq!(resume.matches("call fastcc void @_Z7squaresl.resume(ptr").count(), 1, "one direct call:\n{resume}");
    for part in ["@_Z7squaresl.destroy", "@_Z7squaresl.cleanup"] {
        assert!(destroy.contains(&format!("call fastcc void {part}(ptr")), "a direct call of {part}:\n{destroy}");
    }
    for (ramp, destroy_fn) in
        [("@_Z7squaresl(", "@_Z7squaresl.destroy"), ("@_Z7squaresl.elided(", "@_Z7squaresl.cleanup")]
    {
        let body = handle_method_named(&text, ramp);
        let laundered = body.contains("call ptr @llvm.launder.invariant.group.p0(ptr ");
        assert_eq!(laundered, !ramp.contains(".elided"), "a laundered frame in the ramp only:\n{body}");
        assert!(
            body.lines().any(|l| l.contains(&format!("store ptr {destroy_fn}, ptr %")) && l.ends_with(&tag)),
            "the destroy slot written with the tag {tag}:\n{body}"
        );
    }
}

/// `main` of `program` lowered with the default options (see `lower_and_run`), after clang-22 -O2.
fn optimised_main(program: &str, scratch: &str) -> Option<String> {
    let low = lower_and_run(program, &[], scratch)?;
    let opt = low.with_extension("opt.ll");
    run_ok(Command::new("clang++-22").args(["-O2", "-S", "-emit-llvm", "-w"]).arg(&low).arg("-o").arg(&opt));
    Some(handle_method_named(&std::fs::read_to_string(&opt).expect("optimised"), "@main("))
}

/// Where the frame is made (an elided frame on main's stack), -O2 sees the ramp's tagged store and
/// the handle's tagged load: the test folds, and nothing in main tests a header or calls a part
/// indirectly (with a test of the resume slot, -O2 kept both, and the frame in memory).
#[test]
fn the_header_test_folds_where_the_frame_is_made() {
    let Some(main) = optimised_main("devirt/loop_generator.cpp", "devirt-fold") else { return };
    for needle in ["icmp eq ptr %", "call fastcc void %", "invoke fastcc void %", "@_Z11odd_numbersl."] {
        assert!(!main.contains(needle), "`{needle}` left in main:\n{main}");
    }
}

/// A library-style generator whose first resume (in `begin()`) is outside the inner loop: with the
/// direct call's branch at 1%, -O2 inlines the coroutine's body there too, so `main` calls no part
/// of it. (At 1:2000 that call stayed cold inside the outer loop, and stayed a call.)
#[test]
fn a_first_resume_outside_the_inner_loop_is_inlined() {
    let Some(main) = optimised_main("devirt/iterator_generator.cpp", "devirt-begin") else { return };
    assert!(!main.contains("@_Z5mixedll.resume("), "a call of the coroutine's body left in main:\n{main}");
    assert!(!main.contains("call fastcc void %"), "an indirect call left in main:\n{main}");
}

/// `--closed-promises`: no other module makes `gen` coroutines, so the handle's `resume()` calls
/// `.resume` with no check of the header, and `destroy()` chooses between the only two destroy
/// functions a `squares` frame can have (`.destroy`, or `.cleanup` for a frame its elided twin
/// made) without an indirect call. The program still prints what clang's own build prints.
#[test]
fn with_closed_promises_handle_methods_make_no_indirect_call() {
    let Some(text) = lower_task_object(&["--closed-promises"], "devirt-closed") else { return };
    assert!(text.contains("define internal void @_Z7squaresl.elided("), "squares has an elided twin");
    let resume = handle_method(&text, "6resumeEv(");
    assert!(resume.contains("call fastcc void @_Z7squaresl.resume(ptr"), "a direct call:\n{resume}");
    assert!(!resume.contains("icmp eq ptr"), "no check of the header:\n{resume}");
    let destroy = handle_method(&text, "7destroyEv(");
    for part in ["@_Z7squaresl.destroy", "@_Z7squaresl.cleanup"] {
        assert!(destroy.contains(&format!("call fastcc void {part}(ptr")), "a direct call of {part}:\n{destroy}");
    }
    for body in [&resume, &destroy] {
        assert!(!body.contains("call fastcc void %"), "no indirect call:\n{body}");
    }
}

/// A generator whose `operator()` returns a `std::optional` copied out of the promise (an `sret`
/// result): its frame is elided into `main` (the `sret` object is not the generator), and on
/// `main`'s stack with no launder in the way, SROA takes it apart: no frame memory is left in
/// `main` after clang-22 -O2. (Not elided, it stayed on the heap; laundered, it stayed in memory
/// and the loop ran at 5x clang's time: `optional_call` of bench/parity.sh.)
#[test]
fn a_frame_elided_into_the_caller_lives_in_registers() {
    let Some(main) = optimised_main("devirt/optional_value.cpp", "devirt-sroa") else { return };
    for needle in ["alloca", "@_Znwm", "launder"] {
        assert!(!main.contains(needle), "`{needle}` left in main:\n{main}");
    }
}
