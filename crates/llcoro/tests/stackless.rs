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

/// Programs linked with C (`tests/stackless/<dir>/*.ll` lowered, plus `main.c` and the runtime of
/// `runtime/stackless`, whose section map finds the call sites), for clang 19 and 22
/// at -O0 and -O2; the output must be the `/* EXPECT:` block of main.c (and with `valgrind`, the -O2
/// build of clang 19 runs under valgrind without an error or a leak).
/// - `table`: while @foo is suspended in a call, its C callee finds @foo's call site in the frame
///   descriptor table through the key in @foo's frame, and prints it;
/// - `reentry`: a C callee copies its caller's suspended frame; after the caller has returned, main
///   continues the copy twice through the re-entry function the table gives for its key;
/// - `gc`: a list builder allocating through statepoints under the runtime's moving collector;
/// - `twins`: two calls followed by the same code keep two keys at -O2;
/// - `deep`: a 300-level recursion in heap frames under a collection at every allocation;
/// - `green`: green threads continued through re-entry functions by a C scheduler, under the
///   collector;
/// - `align`: spills that need 16-byte alignment in a spill area at an 8-aligned offset;
/// - `docs`: docs/stackless.md's example of a GC pointer handed to a callee.
fn linked_with_c(dir: &str, valgrind: bool) {
    if !common::require(&["clang-19", "clang-22", "valgrind"], "the stackless programs linked with C") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/stackless").join(dir);
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stackless").join(dir);
    let _ = std::fs::create_dir_all(&scratch);
    let main_c = std::fs::read_to_string(root.join("main.c")).unwrap_or_default();
    let want: String = main_c
        .lines()
        .skip_while(|l| l.trim() != "/* EXPECT:")
        .skip(1)
        .take_while(|l| l.trim() != "*/")
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!want.is_empty(), "{dir}/main.c has no /* EXPECT: block");
    let timeout = std::time::Duration::from_secs(120);
    let mut lowered = Vec::new();
    let mut inputs: Vec<_> =
        std::fs::read_dir(&root).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    inputs.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "ll"));
    inputs.sort();
    for input in &inputs {
        let out = scratch.join(input.file_name().unwrap_or_default()).with_extension("lowered.ll");
        if let Err(e) = common::run_llcoro(input, &out, &[], timeout) {
            panic!("{e}");
        }
        lowered.push(out);
    }
    let mut failures = Vec::new();
    for cc in ["clang-19", "clang-22"] {
        for opt in ["-O0", "-O2"] {
            let exe = scratch.join(format!("{dir}.{cc}{opt}"));
            let mut build = std::process::Command::new(cc);
            let runtime = root.join("../../../runtime/stackless");
            let sources: Vec<_> = std::fs::read_dir(runtime.join("src"))
                .map(|d| {
                    d.filter_map(|e| e.ok())
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|x| x == "c"))
                        .collect()
                })
                .unwrap_or_default();
            build
                .args([opt, "-Wno-override-module"])
                .arg("-I")
                .arg(runtime.join("include"))
                .args(&lowered)
                .arg(root.join("main.c"))
                .args(&sources)
                .arg("-o")
                .arg(&exe);
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
            if valgrind && cc == "clang-19" && opt == "-O2" {
                let mut vg = std::process::Command::new("valgrind");
                vg.args(["-q", "--leak-check=full", "--error-exitcode=99"]).arg(&exe);
                match common::run_with(&mut vg, None, timeout) {
                    Ok(o) if o.success() => {}
                    Ok(o) => failures.push(format!("valgrind {cc} {opt}: {}", o.describe())),
                    Err(e) => failures.push(format!("valgrind {cc} {opt}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{dir}:\n{}", failures.join("\n\n"));
}

#[test]
fn descriptor_table_describes_the_suspended_frame() {
    // Its frames are never freed (the program is a probe), so no leak check.
    linked_with_c("table", false);
}

/// A list builder lowered by llcoro runs under the runtime's copying collector: frames and nodes
/// move at every collection, and the list is still whole.
#[test]
fn list_builder_runs_under_the_moving_collector() {
    linked_with_c("gc", true);
}

#[test]
fn reentry_continues_a_captured_frame_twice() {
    linked_with_c("reentry", true);
}

/// A recursion 300 levels deep whose frames and objects live in the collected heap, with the
/// collector in stress mode (a collection at every allocation): each level keeps its object only in
/// a GC slot and the parent object in it, and has plain values spilled by llcoro across the next
/// call. At the bottom a C callee walks the chain through the runtime and the table (300 frames,
/// each level's object) and collects again. On the way up each level checks its object and the
/// whole parent chain. The result matches a plain C computation; the stats show one collection per
/// allocation, the whole chain copied at the bottom, and every live byte copied at every collection.
#[test]
fn deep_recursion_moves_at_every_allocation() {
    linked_with_c("deep", true);
}

/// Green threads under the moving collector: each thread is two heap frames (@worker calling
/// @step), and @step yields through a C function that longjmps to a scheduler, so the native stack
/// is dropped. The scheduler continues threads round-robin through the re-entry functions of the
/// table, with resume values of its own, and trampolines each return into the caller's frame
/// through that frame's re-entry function. Suspended continuations are GC roots; collections
/// between rounds and inside slices (a small heap, then stress mode) move them. One suspended
/// chain is copied and continued twice. Every thread's result matches a plain C computation.
#[test]
fn green_threads_resume_through_reentry_under_the_moving_collector() {
    linked_with_c("green", true);
}

/// Two statepoints in the arms of an `if`, followed by the same code: at -O2 each call still stores
/// its own key, and the table has two sites with two keys (without the marker llcoro puts at the
/// top of each continuation, LLVM folds both continuations into the join and the keys are one).
#[test]
fn calls_followed_by_the_same_code_keep_their_own_keys() {
    linked_with_c("twins", true);
}

/// Spills that need 16-byte alignment (a <4 x i32>, an <8 x float>, an i128, an x86_fp80) live
/// across a call, in a spill area the front end puts at 40 (issue 24: stored `align 16` at sp+40,
/// the program crashed at -O0 and -O2): each is placed at a multiple of its alignment from the
/// frame pointer, after padding that `spillsz()` counts (88 bytes, checked from the table), and the
/// results match plain C. `llcoro frames` reports the spill area's real alignment.
#[test]
fn spills_are_aligned_from_the_frame_pointer() {
    linked_with_c("align", true);
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/stackless/align/align.ll");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_llcoro")).arg("frames").arg(&input).output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    assert!(text.contains("stackless spill area 88 bytes, align 16;"), "{text}");
    let fields: Vec<&str> = text.lines().filter(|l| l.contains(" spill ")).collect();
    let offsets: Vec<u64> =
        fields.iter().filter_map(|l| l.split_whitespace().next().and_then(|w| w.parse().ok())).collect();
    assert_eq!(offsets.len(), 4, "{text}");
    assert!(offsets.iter().all(|o| o % 16 == 0 && *o >= 48), "every spill 16-aligned from sp, after 40: {text}");
}

/// docs/stackless.md's example of a GC pointer handed to a callee that allocates its own frame (the
/// caller keeps it in a GC slot, the callee reads it through its caller's frame pointer as the
/// allocation returns it), which also calls and saves through accessor tokens: run under the
/// collector in stress mode, against plain C.
#[test]
fn the_documented_gc_argument_example_runs_under_the_moving_collector() {
    linked_with_c("docs", true);
}

/// Every code block of docs/stackless.md marked `<!-- tests/stackless/docs/FILE -->` is part of that
/// file, word for word: the document shows what the tests run.
#[test]
fn documented_examples_are_the_programs_the_tests_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/stackless.md")).unwrap_or_default();
    let mut checked = 0;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(file) = line.strip_prefix("<!-- ").and_then(|l| l.strip_suffix(" -->")) else { continue };
        assert_eq!(lines.next(), Some("```llvm"), "a code block follows the mark for {file}");
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(text.contains(&(block.join("\n") + "\n")), "docs/stackless.md's block for {file} is not in it");
        checked += 1;
    }
    assert!(checked >= 2, "docs/stackless.md marks {checked} example blocks");
}

/// Calls in code LLVM proves unreachable (found by the generator, seed 33): at -O2 their
/// continuations are deleted and their keys become one constant. The runtime leaves those sites out
/// instead of refusing the table for two sites with one key, so the program runs.
#[test]
fn calls_in_code_the_optimizer_deletes_leave_the_table_usable() {
    linked_with_c("dead", true);
}
