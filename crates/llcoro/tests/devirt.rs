//! Guarded direct calls: in `coroutine_handle<P>::resume()` and `destroy()`, when one coroutine of
//! the module has promise type `P`, llcoro calls its `.resume` / `.destroy` directly behind a
//! check of the frame header, so that -O2 can inline them (tests/elide/task_object.cpp, whose one
//! coroutine is `squares`). The program must print what clang's own build prints.

mod common;

use common::run_ok;
use std::path::Path;
use std::process::Command;

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

/// Lowers `tests/elide/task_object.cpp` (clang-22 -O2 presplit IR) with `args`, checks that the
/// lowered program prints what clang's own build prints, and returns the lowered text; `None` when
/// clang-22 is missing outside CI.
fn lower_task_object(args: &[&str], scratch: &str) -> Option<String> {
    if !common::require(&["clang++-22"], "the test") {
        return None;
    }
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/elide/task_object.cpp"));
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join(scratch);
    std::fs::create_dir_all(&tmp).expect("scratch dir");
    let (ll, low, exe, native) = (tmp.join("t.ll"), tmp.join("t.low.ll"), tmp.join("t"), tmp.join("t.native"));
    run_ok(
        Command::new("clang++-22")
            .args(["-std=c++20", "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"])
            .arg(src)
            .arg("-o")
            .arg(&ll),
    );
    run_ok(Command::new(LLCORO).args(args).arg(&ll).arg("-o").arg(&low));
    run_ok(Command::new("clang++-22").args(["-O2", "-w"]).arg(&low).arg("-o").arg(&exe));
    run_ok(Command::new("clang++-22").args(["-std=c++20", "-O2", "-w"]).arg(src).arg("-o").arg(&native));
    let (a, b) = (run_ok(&mut Command::new(&exe)).stdout, run_ok(&mut Command::new(&native)).stdout);
    assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
    Some(std::fs::read_to_string(&low).expect("lowered"))
}

/// The body of the handle method `method` (`6resumeEv(` or `7destroyEv(`) of `gen`'s handle.
fn handle_method(text: &str, method: &str) -> String {
    let name = format!("@_ZNKSt7__n486116coroutine_handleIN3gen12promise_typeEE{method}");
    let start = text
        .match_indices("\ndefine ")
        .map(|(k, _)| k)
        .find(|&k| text[k + 1..].lines().next().is_some_and(|l| l.contains(&name)))
        .unwrap_or_else(|| panic!("no definition of the handle's {method}"));
    text[start..start + text[start..].find("\n}\n").unwrap_or(0)].to_string()
}

#[test]
fn handle_methods_call_the_one_coroutine_with_their_promise_type_directly() {
    let Some(text) = lower_task_object(&[], "devirt") else { return };
    for (method, part) in [("6resumeEv(", "@_Z7squaresl.resume"), ("7destroyEv(", "@_Z7squaresl.destroy")] {
        let body = handle_method(&text, method);
        assert!(body.contains("icmp eq ptr %") && body.contains(&format!(", {part}")), "{body}");
        assert!(body.contains(&format!("call fastcc void {part}(ptr")), "a direct call:\n{body}");
    }
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
