//! Differential test over generated returned-continuation and async coroutines:
//! `tests/retcon/gen/gen.py SEED DIR ABI` writes prog.ll and expected.txt, what the program must
//! print, worked out by the generator's own interpreter of the same choices. The coroutines' bodies
//! are random branches, counted loops, allocas, and i32, double and vector values live across
//! suspends.
//! - `retcon`: a few `coro.id.retcon` generators (some resumed with a value) and `coro.id.retcon.once`
//!   accessors, with buffers that the frame may or may not fit, and a `main` that drives each to its
//!   end or asks it to unwind;
//! - `async`: a few `coro.id.async` coroutines whose suspends show a value and queue the
//!   continuation on a first-in, first-out run queue, so that they interleave, and which return
//!   through their context's return function.
//!
//! For every seed in `SEEDS`, both ABIs, and LLVM N in 19 and 22 (the LLVM 22 input is the same
//! program in that version's spelling):
//! 1. LLVM's lowering (`opt-N -passes=coro-early,coro-split,coro-cleanup`) run by `lli-N` prints
//!    expected.txt (this checks the generator and its interpreter), but for the alignment probes of
//!    retcon allocas aligned beyond 16 (LLVM leaves them misaligned in frames from the allocator,
//!    llcoro realigns them);
//! 2. llcoro's lowering keeps no coroutine intrinsic, passes `opt-N -passes=verify`, and prints
//!    expected.txt run by `lli-N` and built by `clang-N -O2`;
//! 3. the clang-19 -O0 build of llcoro's output runs clean under valgrind: every buffer is a heap
//!    block of exactly the size `coro.id.retcon` gives, every async context one of the size its
//!    async function pointer gives, so a frame written beyond it is an error.
//!
//! `LLCORO_RETCON_GEN_SEEDS=FIRST..LAST` replaces the seed list (`scripts/retcon-fuzz.sh` runs more
//! seeds). Files are kept under `$CARGO_TARGET_TMPDIR/retcon_generated/`. A missing tool skips the
//! test, unless `CI` is set, in which case it is a failure.

mod common;

use common::{code_lines, excerpt, find_tool, llvm22_spelling};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// CI's sample, for each ABI: 40 retcon seeds x 7 checks took 119 s on two cores shared with three
/// other builds, so CI runs 15 of each (`scripts/retcon-fuzz.sh` runs any range).
const SEEDS: &[(u64, u64)] = &[(1, 15)];
const WORKERS: usize = 2;
const TOOL_TIMEOUT: Duration = Duration::from_secs(180);
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
const VERSIONS: [&str; 2] = ["19", "22"];

fn seeds() -> Vec<u64> {
    common::seeds("LLCORO_RETCON_GEN_SEEDS", SEEDS)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A failed check: (check, detail).
type Failed = (String, String);

/// Whether `printed` is `expected`, line by line, where an expected line `TAG *` matches any value
/// after that tag.
fn matches(printed: &str, expected: &str) -> bool {
    let same = |p: &str, e: &str| match e.strip_suffix(" *") {
        Some(tag) => p.split_once(' ').is_some_and(|(t, _)| t == tag),
        None => p == e,
    };
    printed.lines().count() == expected.lines().count()
        && printed.ends_with('\n') == expected.ends_with('\n')
        && printed.lines().zip(expected.lines()).all(|(p, e)| same(p, e))
}

/// What running `cmd` printed, or why it failed; `expected` is compared with its stdout (`matches`).
fn prints(cmd: &mut Command, expected: &str, what: &str) -> Result<(), Failed> {
    let out = common::run_with(cmd, None, RUN_TIMEOUT).map_err(|e| (what.to_string(), e))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.success() || !matches(&stdout, expected) {
        return Err((
            what.to_string(),
            format!("{}\n--- printed\n{stdout}--- expected\n{expected}{}", out.status_text(), excerpt(&out.stderr)),
        ));
    }
    Ok(())
}

/// Generates one seed and checks it with every version; returns the checks passed and the failures.
fn check_seed(abi: &str, seed: u64, root: &Path, python: &Path) -> (usize, Vec<Failed>) {
    let dir = root.join(format!("{abi}{seed}"));
    let _ = fs::remove_dir_all(&dir);
    let mut cmd = Command::new(python);
    cmd.arg(repo().join("tests/retcon/gen/gen.py")).arg(seed.to_string()).arg(&dir).arg(abi);
    if let Err(e) = common::run_tool(&mut cmd, TOOL_TIMEOUT) {
        return (0, vec![("gen.py".into(), e)]);
    }
    let read = |name: &str| fs::read_to_string(dir.join(name)).map_err(|e| (name.to_string(), e.to_string()));
    let (expected, expected_llvm) = match (read("expected.txt"), read("expected-llvm.txt")) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return (0, vec![e]),
    };
    let mut passed = 0;
    let mut failed = Vec::new();
    for v in VERSIONS {
        match check_version(v, &dir, &expected, &expected_llvm) {
            Ok(n) => passed += n,
            Err(f) => failed.push(f),
        }
    }
    let exe = dir.join("ours-19-O0");
    let mut cmd = Command::new("clang-19");
    cmd.args(["-O0", "-w"]).arg(dir.join("ours-19.ll")).arg("-o").arg(&exe);
    let valgrind =
        common::run_tool(&mut cmd, TOOL_TIMEOUT).map_err(|e| ("valgrind: build".to_string(), e)).and_then(|_| {
            let mut cmd = Command::new("valgrind");
            cmd.args(["-q", "--error-exitcode=99", "--leak-check=full"]).arg(&exe);
            prints(&mut cmd, &expected, "valgrind clang-19 -O0")
        });
    match valgrind {
        Ok(()) => passed += 1,
        Err(f) => failed.push(f),
    }
    (passed, failed)
}

/// The checks of one LLVM version (3 when all pass); stops at the first failure. LLVM's lowering
/// must print `expected_llvm`: `expected` with any value allowed for the alignment probes of retcon
/// slots aligned beyond 16, which LLVM does not realign in a frame from the allocator.
fn check_version(v: &str, dir: &Path, expected: &str, expected_llvm: &str) -> Result<usize, Failed> {
    let step = |what: &str| format!("LLVM {v}: {what}");
    let input = dir.join(format!("prog-{v}.ll"));
    let text = fs::read_to_string(dir.join("prog.ll")).map_err(|e| (step("read prog.ll"), e.to_string()))?;
    let text = if v == "22" { llvm22_spelling(&text).map_err(|e| (step("spelling"), e))? } else { text };
    fs::write(&input, text).map_err(|e| (step("write"), e.to_string()))?;

    let theirs = dir.join(format!("llvm-{v}.ll"));
    let mut cmd = Command::new(format!("opt-{v}"));
    cmd.args(["-passes=coro-early,coro-split,coro-cleanup", "-S"]).arg(&input).arg("-o").arg(&theirs);
    common::run_tool(&mut cmd, TOOL_TIMEOUT).map_err(|e| (step("LLVM's lowering"), e))?;
    prints(
        Command::new(format!("lli-{v}")).arg(&theirs),
        expected_llvm,
        &step("LLVM's lowering prints expected-llvm.txt"),
    )?;

    let ours = dir.join(format!("ours-{v}.ll"));
    let low = common::run_llcoro(&input, &ours, &[], TOOL_TIMEOUT).map_err(|e| (step("llcoro"), e))?;
    if let Some((n, l)) = code_lines(&low).find(|(_, l)| l.contains("@llvm.coro.")) {
        return Err((step("no coroutine intrinsic left"), format!("{}:{n}: {}", ours.display(), l.trim())));
    }
    let mut cmd = Command::new(format!("opt-{v}"));
    cmd.args(["-passes=verify", "-disable-output"]).arg(&ours);
    common::run_tool(&mut cmd, TOOL_TIMEOUT).map_err(|e| (step("opt verifies llcoro's output"), e))?;
    prints(Command::new(format!("lli-{v}")).arg(&ours), expected, &step("llcoro's lowering on lli"))?;

    let exe = dir.join(format!("ours-{v}-O2"));
    let mut cmd = Command::new(format!("clang-{v}"));
    cmd.args(["-O2", "-w"]).arg(&ours).arg("-o").arg(&exe);
    common::run_tool(&mut cmd, TOOL_TIMEOUT).map_err(|e| (step("clang -O2 build"), e))?;
    prints(&mut Command::new(&exe), expected, &step("llcoro's lowering, clang -O2"))?;
    Ok(3)
}

#[test]
fn generated_retcon_programs_match_their_interpreter_and_llvm() {
    run_generated("retcon");
}

#[test]
fn generated_async_programs_match_their_interpreter_and_llvm() {
    run_generated("async");
}

fn run_generated(abi: &str) {
    let started = Instant::now();
    let needed = ["python3", "clang-19", "clang-22", "opt-19", "opt-22", "lli-19", "lli-22", "valgrind"];
    match common::tools(&needed, &format!("generated {abi} programs")) {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => panic!("{e}"),
    }
    let Some(python) = find_tool("python3") else { panic!("python3 was found, then lost") };
    let (root, _lock) = common::lock_scratch("retcon_generated");
    let seeds = seeds();
    let outcomes = common::parallel_map(&seeds, WORKERS, |&seed| check_seed(abi, seed, &root, &python));
    let (mut passed, mut failed) = (0, 0);
    for (seed, (p, fails)) in seeds.iter().zip(outcomes) {
        passed += p;
        failed += fails.len();
        for (step, detail) in fails {
            eprintln!("FAIL {abi} seed {seed}: {step}\n  {detail}\n");
        }
    }
    if failed > 0 {
        eprintln!("retcon_generated: files are kept in {}", root.display());
    }
    println!(
        "retcon_generated ({abi}): {} seeds in {:.1}s with {WORKERS} workers; {passed} checks passed, {failed} failed",
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failed == 0 && passed == seeds.len() * 7, "retcon_generated ({abi}): {failed} failed, {passed} passed");
}
