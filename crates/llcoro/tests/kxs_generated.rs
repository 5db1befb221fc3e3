//! Differential test over generated kxs programs: the random suspend-function programs of
//! `tests/kxs/gen/gen.py` (see tests/kxs/gen/README.md) must compute, once lowered by llcoro, what
//! their plain C++ twins compute.
//!
//! Each program has two halves made from the same random choices: suspend functions written with
//! the kxs DSL and runtime, and the same functions as ordinary C++ (each suspend replaced by the
//! value it resumes with). It prints the plain half's traces after `== plain` and the kxs half's
//! after `== kxs`. For every seed in `SEEDS` and every configuration of `CONFIGS`:
//!
//! 1. `python3 tests/kxs/gen/gen.py SEED` writes the program P (once per seed);
//! 2. `clang++-N -std=c++20 -OX FLAGS -w -I cpp/include -Xclang -disable-llvm-passes -emit-llvm -S P`;
//! 3. `llcoro` exits 0 without panicking, and `opt-N -passes=verify` accepts its output;
//! 4. `clang++-N -OX FLAGS -w` builds the lowered IR (an untransformed suspend function would not
//!    link: the markers are defined nowhere);
//! 5. the binary exits 0, and the lines after `== kxs` are those after `== plain`;
//! 6. in the valgrind configuration, the same binary under valgrind: no error, no definite or
//!    indirect leak, the same output.
//!
//! The configurations are clang 19 and 22 at -O0 and -O2, -O0 under valgrind, and -O2 with
//! -mavx2 (aligned AVX moves fault on a misaligned frame). Every failure is reported with its seed
//! and configuration, then `N passed, M failed`; files are kept under
//! `$CARGO_TARGET_TMPDIR/kxs_generated/`. `scripts/kxs-fuzz.sh COUNT START` runs the same checks
//! over more seeds; `LLCORO_KXS_GEN_SEEDS=FIRST..LAST` (inclusive) replaces the seed list here.
//!
//! Tools: `python3`, `clang++-19`, `clang++-22`, `opt-19`, `opt-22`, `valgrind`. A missing tool is
//! a failure under CI=true, else a skip with a notice.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::find_tool;

/// The seeds (inclusive). 12 seeds x 5 builds took 115 s with two workers on two shared cores; 10
/// keep the test well under two minutes.
const SEEDS: (u64, u64) = (1, 10);

/// One build: clang version, optimization level, extra flags, and whether valgrind also runs it.
struct Config {
    version: u32,
    opt: &'static str,
    flags: &'static [&'static str],
    valgrind: bool,
}

const CONFIGS: [Config; 5] = [
    Config { version: 19, opt: "-O0", flags: &[], valgrind: true },
    Config { version: 19, opt: "-O2", flags: &[], valgrind: false },
    Config { version: 22, opt: "-O0", flags: &[], valgrind: false },
    Config { version: 22, opt: "-O2", flags: &[], valgrind: false },
    Config { version: 22, opt: "-O2", flags: &["-mavx2"], valgrind: false },
];

impl Config {
    fn name(&self) -> String {
        let mut s = format!("clang-{}{}{}", self.version, self.opt, self.flags.concat());
        if self.valgrind {
            s.push_str("-valgrind");
        }
        s
    }
}

const WORKERS: usize = 2;
const TOOL_TIMEOUT: Duration = Duration::from_secs(180);
const RUN_TIMEOUT: Duration = Duration::from_secs(30);
const VALGRIND_TIMEOUT: Duration = Duration::from_secs(300);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn seeds() -> Vec<u64> {
    common::seeds("LLCORO_KXS_GEN_SEEDS", &[SEEDS])
}

fn fail<T>(step: &str, detail: String) -> Result<T, (String, String)> {
    Err((step.to_string(), detail))
}

/// The lines after `== plain` (up to `== kxs`) and those after `== kxs`.
fn halves(stdout: &[u8]) -> Option<(String, String)> {
    let text = String::from_utf8_lossy(stdout);
    let rest = text.split_once("== plain\n")?.1;
    let (plain, kxs) = rest.split_once("== kxs\n")?;
    Some((plain.to_string(), kxs.to_string()))
}

/// Checks that a run exited 0 and printed the same lines for both halves.
fn check_run(step: &str, bin: &Path, o: &common::Output) -> Result<(), (String, String)> {
    if !o.success() {
        return fail(step, format!("{}: {}", bin.display(), o.describe()));
    }
    match halves(&o.stdout) {
        Some((plain, kxs)) if plain == kxs && !plain.is_empty() => Ok(()),
        Some((plain, kxs)) => fail(
            step,
            format!(
                "{}: the kxs half differs from the plain half\n{}",
                bin.display(),
                common::first_difference(plain.as_bytes(), kxs.as_bytes(), ("plain", "kxs"))
            ),
        ),
        None => fail(step, format!("{}: no `== plain` and `== kxs` sections in its output", bin.display())),
    }
}

/// Runs one (seed, configuration) check; an `Err` is (step, detail).
fn run_check(program: &Path, seed: u64, cfg: &Config, dir: &Path) -> Result<(), (String, String)> {
    fs::create_dir_all(dir).map_err(|e| ("create directory".to_string(), format!("{}: {e}", dir.display())))?;
    let file = |ext: &str| dir.join(format!("kxs{seed}.{ext}"));
    let clang = format!("clang++-{}", cfg.version);
    let presplit = file("ll");
    let mut cmd = Command::new(&clang);
    cmd.args(["-std=c++20", cfg.opt])
        .args(cfg.flags)
        .args(["-w", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S", "-I"])
        .arg(root().join("cpp/include"))
        .arg(program)
        .arg("-o")
        .arg(&presplit);
    common::run_tool(&mut cmd, TOOL_TIMEOUT).or_else(|e| fail("presplit IR", e))?;
    let lowered_ir = file("low.ll");
    common::run_llcoro(&presplit, &lowered_ir, &[], TOOL_TIMEOUT).or_else(|e| fail("llcoro", e))?;
    let mut cmd = Command::new(format!("opt-{}", cfg.version));
    cmd.args(["-passes=verify", "-disable-output"]).arg(&lowered_ir);
    common::run_tool(&mut cmd, TOOL_TIMEOUT).or_else(|e| fail("opt -passes=verify", e))?;
    let bin = file("bin");
    let mut cmd = Command::new(&clang);
    cmd.arg(cfg.opt).args(cfg.flags).arg("-w").arg(&lowered_ir).arg("-o").arg(&bin);
    common::run_tool(&mut cmd, TOOL_TIMEOUT).or_else(|e| fail("lowered build", e))?;
    let out = common::run_with(&mut Command::new(&bin), None, RUN_TIMEOUT).or_else(|e| fail("run", e))?;
    check_run("run", &bin, &out)?;
    if cfg.valgrind {
        let mut vg = Command::new("valgrind");
        vg.args(["-q", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect"])
            .arg(&bin);
        let o = common::run_with(&mut vg, None, VALGRIND_TIMEOUT).or_else(|e| fail("valgrind", e))?;
        check_run("valgrind", &bin, &o)?;
        if o.stdout != out.stdout {
            return fail("valgrind", "the output under valgrind differs from the plain run's".to_string());
        }
    }
    Ok(())
}

#[test]
fn kxs_generated() {
    let started = Instant::now();
    let mut tools = vec!["python3", "valgrind"];
    let names: Vec<String> = [19, 22].iter().flat_map(|v| [format!("clang++-{v}"), format!("opt-{v}")]).collect();
    tools.extend(names.iter().map(|s| s.as_str()));
    match common::tools(&tools, "generated kxs programs") {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => panic!("{e}"),
    }
    let Some(python) = find_tool("python3") else { panic!("python3 not found") };
    let (scratch, _lock) = common::lock_scratch("kxs_generated");
    let gen_py = root().join("tests/kxs/gen/gen.py");
    let mut failures: Vec<String> = Vec::new();
    let mut programs = Vec::new();
    for seed in seeds() {
        let path = scratch.join(format!("kxs{seed}.cpp"));
        let mut cmd = Command::new(&python);
        cmd.arg(&gen_py).arg(seed.to_string());
        match common::run_tool(&mut cmd, TOOL_TIMEOUT) {
            Ok(o) => match fs::write(&path, &o.stdout) {
                Ok(()) => programs.push((seed, path)),
                Err(e) => failures.push(format!("seed {seed}: writing {}: {e}", path.display())),
            },
            Err(e) => failures.push(format!("seed {seed}: gen.py: {e}")),
        }
    }
    let checks: Vec<(&(u64, PathBuf), &Config)> =
        CONFIGS.iter().flat_map(|c| programs.iter().map(move |p| (p, c))).collect();
    let outcomes = common::parallel_map(&checks, WORKERS, |((seed, program), cfg)| {
        run_check(program, *seed, cfg, &scratch.join(cfg.name()))
    });
    let mut passed = 0;
    for (((seed, _), cfg), outcome) in checks.iter().zip(outcomes) {
        match outcome {
            Ok(()) => passed += 1,
            Err((step, detail)) => failures.push(format!("FAIL seed {seed} [{}] {step}\n  {detail}", cfg.name())),
        }
    }
    for f in &failures {
        eprintln!("{f}\n");
    }
    if !failures.is_empty() {
        eprintln!(
            "kxs_generated: files are kept in {}; reproduce a seed with `scripts/kxs-fuzz.sh 1 SEED`",
            scratch.display()
        );
    }
    println!(
        "kxs_generated: {} seeds x {} configurations in {:.1}s with {WORKERS} workers",
        programs.len(),
        CONFIGS.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {} failed", failures.len());
    assert!(failures.is_empty(), "kxs_generated: {} checks failed", failures.len());
}
