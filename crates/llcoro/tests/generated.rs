//! Differential test over generated programs: the random C++20 coroutine programs of
//! `tests/gen/gen.py` (see tests/gen/README.md) must behave identically when their coroutines are
//! lowered by llcoro instead of LLVM's CoroSplit.
//!
//! For every seed in `SEEDS` and every configuration (clang++-19, clang++-22) x (-O0, -O2):
//!
//! 1. `python3 tests/gen/gen.py SEED` writes the program P;
//! 2. native: `clang++-N -std=c++20 -OX -w P -o P.native`;
//! 3. presplit: `clang++-N -std=c++20 -OX -w -Xclang -disable-llvm-passes -emit-llvm -S P -o P.ll`,
//!    which must contain a `presplitcoroutine` function;
//! 4. `llcoro P.ll -o P.low.ll` exits 0 without panicking;
//! 5. outside comments, P.low.ll contains no `llvm.coro.` and no `presplitcoroutine`, and
//!    `opt-N -passes=verify` accepts it;
//! 6. `clang++-N -OX -w P.low.ll -o P.lowered` succeeds;
//! 7. both binaries run (no stdin, `RUN_TIMEOUT` each): the native run must exit 0, and stdout and
//!    exit status of both must be identical.
//!
//! Every failure is reported with its seed and configuration, then a closing line
//! `N passed, M failed` over (seed, configuration) checks, and the test panics if any failed.
//! Files are kept under `$CARGO_TARGET_TMPDIR/generated/<config>/` for inspection; reproduce one
//! with `scripts/fuzz.sh 1 SEED` (`CONFIGS="19:O0"` etc.). `LLCORO_GEN_SEEDS=FIRST..LAST` (inclusive)
//! replaces the seed list.
//!
//! Tools: `python3`, and `clang++-N` and `opt-N` for N in 19 and 22. A missing tool skips its part,
//! unless the environment variable `CI` is set, in which case it is a failure.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Output, code_lines, excerpt, find_tool};

/// The seeds of the generated programs (inclusive): CI's sample. 64 seeds x 4 configurations took
/// 146 s of a 24.4-minute CI run on two idle cores (2026-11-27), too close to its 25-minute budget;
/// 40 take about 90 s. `scripts/fuzz.sh COUNT START` runs any number.
const SEEDS: (u64, u64) = (1, 40);

const CLANG_VERSIONS: [u32; 2] = [19, 22];
const OPT_LEVELS: [&str; 2] = ["O0", "O2"];

/// Worker threads.
const WORKERS: usize = 2;

/// Timeout for gen.py, compilers, opt and llcoro.
const TOOL_TIMEOUT: Duration = Duration::from_secs(180);
/// Timeout for one run of a program.
const RUN_TIMEOUT: Duration = Duration::from_secs(30);

const PRESPLIT: &str = "presplitcoroutine";

struct Failure {
    seed: String,
    config: String,
    step: String,
    detail: String,
}

struct Toolchain {
    version: u32,
    clangxx: PathBuf,
    opt: PathBuf,
}

struct Check<'a> {
    seed: u64,
    program: &'a Path,
    tc: &'a Toolchain,
    opt_level: &'static str,
}

impl Check<'_> {
    fn config(&self) -> String {
        format!("clang-{}-{}", self.tc.version, self.opt_level)
    }
}

/// Runs a tool that must succeed within the harness's timeout.
fn run_tool(cmd: &mut Command) -> Result<Output, String> {
    common::run_tool(cmd, TOOL_TIMEOUT)
}

fn seeds() -> Vec<u64> {
    common::seeds("LLCORO_GEN_SEEDS", &[SEEDS])
}

/// A failed step: (step, detail).
fn fail<T>(step: &str, detail: String) -> Result<T, (String, String)> {
    Err((step.to_string(), detail))
}

/// Runs one check; an `Err` is (step, detail).
fn run_check(check: &Check, root: &Path) -> Result<(), (String, String)> {
    let dir = root.join(check.config());
    fs::create_dir_all(&dir).map_err(|e| ("create directory".to_string(), format!("{}: {e}", dir.display())))?;
    let file = |ext: &str| dir.join(format!("gen{}.{ext}", check.seed));
    let opt_flag = format!("-{}", check.opt_level);
    let tc = check.tc;

    let native = file("native");
    let mut cmd = Command::new(&tc.clangxx);
    cmd.args(["-std=c++20", &opt_flag, "-w"]).arg(check.program).arg("-o").arg(&native);
    run_tool(&mut cmd).or_else(|e| fail("native build", e))?;

    let presplit = file("ll");
    let mut cmd = Command::new(&tc.clangxx);
    cmd.args(["-std=c++20", &opt_flag, "-w", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"])
        .arg(check.program)
        .arg("-o")
        .arg(&presplit);
    run_tool(&mut cmd).or_else(|e| fail("presplit IR", e))?;
    let text =
        fs::read_to_string(&presplit).or_else(|e| fail("presplit IR", format!("{}: {e}", presplit.display())))?;
    if !code_lines(&text).any(|(_, l)| l.contains(PRESPLIT)) {
        return fail("presplit IR", format!("{} has no {PRESPLIT} function", presplit.display()));
    }

    let lowered_ir = file("low.ll");
    let lowered_text = common::run_llcoro(&presplit, &lowered_ir, &[], TOOL_TIMEOUT).or_else(|e| fail("llcoro", e))?;
    if let Some(msg) = common::leftovers(&lowered_text, &lowered_ir).into_iter().next() {
        return fail("lowered everything", msg);
    }
    let mut cmd = Command::new(&tc.opt);
    cmd.args(["-passes=verify", "-disable-output"]).arg(&lowered_ir);
    run_tool(&mut cmd).or_else(|e| fail("opt -passes=verify", e))?;

    let lowered = file("lowered");
    let mut cmd = Command::new(&tc.clangxx);
    cmd.args([&opt_flag, "-w"]).arg(&lowered_ir).arg("-o").arg(&lowered);
    run_tool(&mut cmd).or_else(|e| fail("lowered build", e))?;

    let reference =
        common::run_with(&mut Command::new(&native), None, RUN_TIMEOUT).or_else(|e| fail("native run", e))?;
    if !reference.success() {
        return fail("native run", format!("{}: {}", native.display(), reference.describe()));
    }
    let actual =
        common::run_with(&mut Command::new(&lowered), None, RUN_TIMEOUT).or_else(|e| fail("lowered run", e))?;
    let problems = common::run_differences(&reference, &actual, ("native", "lowered"));
    if !problems.is_empty() {
        let err = excerpt(&actual.stderr);
        let err = if err.is_empty() { String::new() } else { format!("\n  stderr of the lowered run:\n{err}") };
        return fail("lowered run vs native run", format!("{}\n  {}{err}", lowered.display(), problems.join("\n  ")));
    }
    Ok(())
}

#[test]
fn generated() {
    let started = Instant::now();
    let mut failures: Vec<Failure> = Vec::new();
    let tool_failure = |what: &str, detail: String| Failure {
        seed: "-".to_string(),
        config: what.to_string(),
        step: "tool lookup".to_string(),
        detail,
    };
    let python = match common::tools(&["python3"], "generated programs") {
        Ok(true) => find_tool("python3").unwrap(),
        Ok(false) => return,
        Err(e) => panic!("{e}"),
    };
    let mut toolchains = Vec::new();
    for n in CLANG_VERSIONS {
        let (clangxx, opt) = (format!("clang++-{n}"), format!("opt-{n}"));
        match common::tools(&[&clangxx, &opt], &format!("LLVM {n}")) {
            Ok(true) => toolchains.push(Toolchain {
                version: n,
                clangxx: find_tool(&clangxx).unwrap(),
                opt: find_tool(&opt).unwrap(),
            }),
            Ok(false) => {}
            Err(e) => failures.push(tool_failure(&format!("LLVM {n}"), e)),
        }
    }

    // Held to the end: a second run waits for this one.
    let (root, _lock) = common::lock_scratch("generated");

    // Generate every program first (cheap), so that a generator failure is reported once per seed.
    let gen_py = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/gen/gen.py"));
    let seeds = seeds();
    let mut programs = Vec::new();
    for &seed in &seeds {
        let path = root.join(format!("gen{seed}.cpp"));
        let mut cmd = Command::new(&python);
        cmd.arg(gen_py).arg(seed.to_string());
        match run_tool(&mut cmd) {
            Ok(o) => {
                fs::write(&path, &o.stdout).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
                programs.push((seed, path));
            }
            Err(e) => failures.push(Failure {
                seed: seed.to_string(),
                config: "-".to_string(),
                step: "gen.py".to_string(),
                detail: e,
            }),
        }
    }

    let mut checks = Vec::new();
    for tc in &toolchains {
        for opt_level in OPT_LEVELS {
            for (seed, program) in &programs {
                checks.push(Check { seed: *seed, program, tc, opt_level });
            }
        }
    }
    let outcomes = common::parallel_map(&checks, WORKERS, |check| run_check(check, &root));
    let mut passed = 0;
    for (check, outcome) in checks.iter().zip(outcomes) {
        match outcome {
            Ok(()) => passed += 1,
            Err((step, detail)) => {
                failures.push(Failure { seed: check.seed.to_string(), config: check.config(), step, detail })
            }
        }
    }
    failures.sort_by(|a, b| (a.seed.parse::<u64>().ok(), &a.config).cmp(&(b.seed.parse::<u64>().ok(), &b.config)));
    for f in &failures {
        eprintln!("FAIL seed {} [{}] {}\n  {}\n", f.seed, f.config, f.step, f.detail);
    }
    if !failures.is_empty() {
        eprintln!(
            "generated: files are kept in {}; reproduce a seed with `scripts/fuzz.sh 1 SEED` (CONFIGS=\"VERSION:OPT\")",
            root.display()
        );
    }
    let failed = failures.len();
    println!(
        "generated: {} seeds x {} configurations in {:.1}s with {WORKERS} workers",
        programs.len(),
        toolchains.len() * OPT_LEVELS.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        panic!("generated: {failed} of {} checks failed", passed + failed);
    }
}
