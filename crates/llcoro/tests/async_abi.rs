//! Async coroutines (`coro.id.async`) beyond the run checks of `shapes.rs` (which runs every
//! `tests/async/NAME.ll` on lli-19/22 against LLVM's own lowering): what `llcoro frames` reports of
//! the async context, and that the lowered module's async function pointers give that context
//! size, as the report says.

mod common;

use common::run_tool;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `llcoro INPUT -o OUT` (OUT named `name` in this test's scratch directory), which must succeed:
/// its run, OUT, and OUT's text.
fn lower(input: &Path, name: &str) -> (common::Output, PathBuf, String) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("async_abi");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let out = dir.join(name);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    cmd.arg(input).arg("-o").arg(&out);
    let o = run_tool(&mut cmd, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    (o, out, text)
}

/// `llcoro frames --format json` of the repository's file `rel`.
fn frames_json(rel: &str) -> serde_json::Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    cmd.args(["frames", "--format", "json"]).arg(root().join(rel));
    let out = run_tool(&mut cmd, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("frames JSON of {rel}: {e}"))
}

/// The context each async coroutine of `tests/async/call.ll` needs: a 32-byte header aligned to
/// 16, then the frame (`@callee` keeps one i64, `@caller` a pointer and two i64s).
#[test]
fn frames_report_the_context() {
    let json = frames_json("tests/async/call.ll");
    let frames = json["frames"].as_array().expect("frames array");
    let context = |name: &str| {
        let f = frames.iter().find(|f| f["coroutine"] == name).unwrap_or_else(|| panic!("no frame {name}"));
        let c = &f["context"];
        (
            f["lowering"].as_str().map(str::to_string),
            f["size"].as_u64(),
            [c["header_size"].as_u64(), c["frame_offset"].as_u64(), c["size"].as_u64(), c["align"].as_u64()],
        )
    };
    assert_eq!(context("@callee"), (Some("async".into()), Some(8), [Some(32), Some(32), Some(48), Some(16)]));
    assert_eq!(context("@caller"), (Some("async".into()), Some(24), [Some(32), Some(32), Some(64), Some(16)]));
    assert_eq!(json["summary"]["coroutines"], 2);
}

/// Allocas aligned to 64 and 128 in a context aligned to 16 (`tests/async/overaligned.ll`): each
/// field is larger by the alignment it lacks (32 + 48 and 8 + 112 bytes), so the context is 240
/// bytes, what LLVM 19 and 22 give it (`opt -passes='default<O0>'`). Refused before.
#[test]
fn overaligned_allocas_take_the_context_size_llvm_gives() {
    let json = frames_json("tests/async/overaligned.ll");
    let f = &json["frames"][0];
    assert_eq!(f["coroutine"], "@overaligned");
    assert_eq!(f["context"]["size"].as_u64(), Some(240), "{f}");
    assert_eq!(f["context"]["align"].as_u64(), Some(16), "{f}");
}

/// The second field of each async function pointer in the lowered module: the size the report
/// gives, and `coro.async.size.replace`'s target takes its source's.
#[test]
fn function_pointers_give_the_context_size() {
    let input = root().join("tests/async/call.ll");
    let (_, _, text) = lower(&input, "call.out.ll");
    let size = |global: &str| {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{global} = ")))
            .unwrap_or_else(|| panic!("no {global} in the output"));
        line.trim_end_matches(" }>").rsplit(' ').next().and_then(|n| n.parse::<u64>().ok())
    };
    assert_eq!(size("@callee_fp"), Some(48));
    assert_eq!(size("@caller_fp"), Some(64));
    assert_eq!(size("@callee_alias_fp"), Some(48), "coro.async.size.replace's target");
    assert!(!text.contains("llvm.coro."), "a coroutine intrinsic is left");
}

/// A suspend no path reaches gets no continuation, as in LLVM (which removes unreachable blocks
/// before splitting): `tests/async/yield.ll` with a copy of its second suspend in a block of its own
/// that nothing branches to.
#[test]
fn an_unreachable_suspend_gets_no_continuation() {
    let text = std::fs::read_to_string(root().join("tests/async/yield.ll")).expect("yield.ll");
    let dead = "  unreachable\n\ndead:\n  %rd = call ptr @llvm.coro.async.resume()\n  %resd = call { ptr } (i32, ptr, ptr, ...) \
                @llvm.coro.suspend.async(i32 0, ptr %rd, ptr @same.context, ptr @yield.apply, ptr %rd, ptr %ctx)\n  unreachable\n}\n\n\
                define void @finished(";
    let text = text.replacen("  unreachable\n}\n\ndefine void @finished(", dead, 1);
    assert!(text.contains("dead:"), "the unreachable block was not added");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("async_abi");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let (input, out) = (dir.join("dead.ll"), dir.join("dead.out.ll"));
    std::fs::write(&input, text).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    cmd.arg(&input).arg("-o").arg(&out);
    run_tool(&mut cmd, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let lowered = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let continuations: Vec<&str> =
        lowered.lines().filter(|l| l.starts_with("define internal void @counter.")).collect();
    assert_eq!(continuations.len(), 2, "{continuations:?}");
}

/// An async coroutine without the presplit attribute (as Swift-style producers write it) is
/// lowered as with it: LLVM's CoroEarly marks it and splits it all the same. Its functions come
/// out as they do from the marked input.
#[test]
fn without_the_presplit_attribute_it_is_lowered_all_the_same() {
    let text = std::fs::read_to_string(root().join("tests/async/yield.ll")).expect("yield.ll");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("async_abi");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let lower = |name: &str, text: &str| {
        let (input, out) = (dir.join(format!("{name}.ll")), dir.join(format!("{name}.out.ll")));
        std::fs::write(&input, text).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
        cmd.arg(&input).arg("-o").arg(&out);
        run_tool(&mut cmd, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
        std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()))
    };
    let counter_parts = |lowered: &str| -> String {
        let mut keep = false;
        let mut out = String::new();
        for l in lowered.lines() {
            keep = (keep || l.starts_with("define void @counter(") || l.starts_with("define internal void @counter."))
                && !l.is_empty();
            if keep {
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    };
    let marked = lower("marked", &text);
    let unmarked = lower("unmarked", &text.replace(" presplitcoroutine", ""));
    assert!(!unmarked.contains("llvm.coro."), "a coroutine intrinsic is left");
    assert!(counter_parts(&unmarked).contains("define internal void @counter.resume.1("));
    assert_eq!(counter_parts(&unmarked), counter_parts(&marked));
}

/// With debug info, the must-tail function's body inlined in the coroutine's parts takes their
/// locations (its own belong to its subprogram): the output verifies, and runs as without.
#[test]
fn inlined_must_tail_bodies_take_the_parts_locations() {
    if !common::require(&["opt-19", "lli-19"], "async debug info") {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("async_abi");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let out = dir.join("debug.out.ll");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    cmd.arg(root().join("tests/async/debug/yield.ll")).arg("-o").arg(&out);
    run_tool(&mut cmd, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let verify = run_tool(Command::new("opt-19").args(["-passes=verify", "-disable-output"]).arg(&out), TIMEOUT)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(verify.stderr.is_empty(), "opt-19: {}", String::from_utf8_lossy(&verify.stderr));
    let ran = run_tool(Command::new("lli-19").arg(&out), TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let want = std::fs::read_to_string(root().join("tests/async/yield.expected")).expect("yield.expected");
    assert_eq!(String::from_utf8_lossy(&ran.stdout), want);
}

/// A must-tail function is inlined into the continuations: when its body is invalid (here a use
/// above its definition), the refusal blames that function at the use, not llcoro's own verifier
/// in the continuation it was copied into.
#[test]
fn an_invalid_must_tail_body_is_the_inputs_fault() {
    let src = std::fs::read_to_string(root().join("tests/async/yield.ll")).expect("tests/async/yield.ll");
    let def = "  %slot = getelementptr inbounds i8, ptr %ctx, i64 8\n";
    let load = "  %r = load ptr, ptr %slot\n";
    assert!(src.contains(&format!("{def}{load}")), "yield.ll's @return.to.caller changed");
    let broken = src.replacen(&format!("{def}{load}"), &format!("{load}{def}"), 1);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("async_abi");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let input = dir.join("invalid_must_tail.ll");
    let out = dir.join("invalid_must_tail.out.ll");
    std::fs::write(&input, &broken).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
    let _ = std::fs::remove_file(&out);
    let r = Command::new(env!("CARGO_BIN_EXE_llcoro")).arg(&input).arg("-o").arg(&out).output().expect("llcoro runs");
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[input-invalid]") && stderr.contains("@return.to.caller"), "{stderr}");
    let line = broken.lines().position(|l| l == load.trim_end()).map(|k| k + 1).expect("the moved load");
    assert!(stderr.contains(&format!("invalid_must_tail.ll:{line}:3")), "not located at the use: {stderr}");
    assert!(!out.exists(), "no output is written for refused input");
}

/// LLVM's coro passes lower an async coroutine that allocates its callee's context with
/// `coro.async.context.alloc` and frees it with `.dealloc`, and leave both calls for the runtime's
/// own lowering; llcoro does the same, with a warning per function
/// (`tests/coro-errors/async_context_alloc.ll`: the context pointer stored in the frame before the
/// suspend, reloaded in the continuation that frees it, as LLVM 22 does). The output keeps the
/// calls and their declarations, no other coroutine intrinsic, and opt-19 and opt-22 verify it.
#[test]
fn context_allocation_is_kept_with_a_warning_as_llvm_keeps_it() {
    let input = root().join("tests/coro-errors/async_context_alloc.ll");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("async_abi");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let out = dir.join("context_alloc.out.ll");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    cmd.arg(&input).arg("-o").arg(&out);
    let o = run_tool(&mut cmd, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(stderr.matches("warning[coro-async-context-alloc]").count(), 2, "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let code = || common::code_lines(&text).map(|(_, l)| l);
    assert_eq!(code().filter(|l| l.contains("= call ptr @llvm.coro.async.context.alloc(")).count(), 2, "{text}");
    assert_eq!(code().filter(|l| l.contains("call void @llvm.coro.async.context.dealloc(")).count(), 2, "{text}");
    let others: Vec<&str> =
        code().filter(|l| l.contains("llvm.coro.") && !l.contains("llvm.coro.async.context.")).collect();
    assert!(others.is_empty(), "{others:?}");
    assert!(text.contains("declare ptr @llvm.coro.async.context.alloc(ptr, ptr)"), "{text}");
    assert!(text.contains("declare void @llvm.coro.async.context.dealloc(ptr)"), "{text}");
    // The continuation frees the context it reloads from the frame.
    let resume = text.split("define internal void @f.resume.0(").nth(1).and_then(|t| t.split("\n}").next());
    let resume = resume.unwrap_or_else(|| panic!("no @f.resume.0 in\n{text}"));
    let freed = resume.lines().find(|l| l.contains("context.dealloc(")).and_then(|l| l.split("(ptr ").nth(1));
    let freed = freed.and_then(|a| a.strip_suffix(')')).unwrap_or_else(|| panic!("no dealloc in\n{resume}"));
    assert!(resume.contains(&format!("{freed} = load ptr, ptr ")), "{freed} is not a reload:\n{resume}");
    for opt in ["opt-19", "opt-22"] {
        if common::require(&[opt], "verifying the lowered output") {
            let mut v = Command::new(opt);
            v.args(["-passes=verify", "-disable-output"]).arg(&out);
            run_tool(&mut v, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// A swifterror alloca in an async coroutine, passed to calls before and after a suspend
/// (`tests/async/abi/swifterror_alloca.ll`): it cannot move into the context (LLVM's verifier lets a
/// swifterror argument come only from a swifterror alloca or parameter), so each part has a
/// swifterror alloca of its own, as in LLVM's lowering. Main wrote the slot into the frame and an
/// output opt rejects.
#[test]
fn a_swifterror_alloca_stays_a_swifterror_alloca_in_every_part() {
    let input = root().join("tests/async/abi/swifterror_alloca.ll");
    let (_, out, text) = lower(&input, "swifterror_alloca.out.ll");
    for part in ["define void @f(", "define internal void @f.resume.0("] {
        let body = text.split(part).nth(1).and_then(|t| t.split("\n}").next());
        let body = body.unwrap_or_else(|| panic!("no {part} in\n{text}"));
        assert!(body.contains("= alloca swifterror ptr"), "{part} has no swifterror slot of its own:\n{body}");
        assert!(body.contains("call void @may_fail(ptr swifterror %"), "{body}");
    }
    if common::require(&["opt-19"], "verifying the lowered output") {
        let mut v = Command::new("opt-19");
        v.args(["-passes=verify", "-disable-output"]).arg(&out);
        run_tool(&mut v, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// `tests/async/overaligned.ll` in typed pointers (`tests/async/beyond14/overaligned.ll`): the
/// realigned addresses in that dialect (`inttoptr` to the alloca's pointer type). LLVM 14 stops
/// on this input ("The alignment requirment of frame variables cannot be higher than the alignment
/// of the async function context"; realignment came in a later LLVM), so there is no reference
/// lowering to compare with: llcoro's output must pass opt-14's verifier, keep typed pointers, and
/// print on lli-14 what the opaque program prints on lli-19/22.
#[test]
fn overaligned_allocas_in_typed_pointers_run_on_llvm_14() {
    if !common::require(&["opt-14", "lli-14"], "the typed-pointer overaligned program") {
        return;
    }
    let input = root().join("tests/async/beyond14/overaligned.ll");
    let (_, out, text) = lower(&input, "overaligned14.out.ll");
    assert!(!common::code_lines(&text).any(|(_, l)| l.contains("llvm.coro.") || l.contains(" ptr ")), "{text}");
    assert!(text.contains("inttoptr i64"), "no realigned address in\n{text}");
    let mut verify = Command::new("opt-14");
    verify.args(["-passes=verify", "-disable-output"]).arg(&out);
    run_tool(&mut verify, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let ran = run_tool(Command::new("lli-14").arg(&out), TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let expected = std::fs::read_to_string(root().join("tests/async/overaligned.expected")).expect("expected output");
    assert_eq!(String::from_utf8_lossy(&ran.stdout), expected);
}
