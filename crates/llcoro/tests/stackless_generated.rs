//! Differential test over generated stackless programs: `tests/stackless/gen/gen.py SEED DIR` writes
//! prog.ll, stackless functions as a front end writes them (heap frames from the runtime's
//! collector, statepoints with deep and mutual recursion, objects kept only in GC slots, values of
//! every type and alignment live across calls in loops, branches and switches), and main.c, which
//! runs them under the collector in stress mode (a collection at every allocation, the old
//! semispace poisoned) and compares every result with the same computation in plain C, written by
//! the generator from the same choices (tests/stackless/gen/README.md).
//!
//! For every seed in `SEEDS` (24 of them): `opt-19` accepts prog.ll; `llcoro` lowers it without panicking and
//! leaves no frame intrinsic; `opt-19` and `opt-22` accept the output. Then in each configuration
//! (clang 19 and 22 at -O0 and -O2, clang 22 -O2 -mavx2, and the clang-19 -O0 build under valgrind
//! with its first two runs) the lowered IR, main.c and the runtime are built and run: the program
//! must exit 0 with every run reported `same` (and valgrind must find no error).
//!
//! Every failure is reported with its seed and configuration, then `N passed, M failed` over (seed,
//! configuration) checks. Files are kept under `$CARGO_TARGET_TMPDIR/stackless_generated/`;
//! `scripts/stackless-fuzz.sh COUNT START` runs more seeds. `LLCORO_STACKLESS_GEN_SEEDS=FIRST..LAST`
//! replaces the seed list.
//!
//! Tools: `python3`, `clang-19`, `clang-22`, `opt-19`, `opt-22`, `valgrind`. A missing tool skips the
//! test, unless `CI` is set, in which case it is a failure.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{code_lines, excerpt, find_tool};

/// The seeds: a run of the first ones, and those that found a failure the first run did not (seed
/// 61: a loop around a call peeled at -O2 copied the call's continuation, whose key the table
/// lacked). 24 seeds x 6 configurations (144 checks) took 45 to 66 s on two cores shared with
/// other jobs, and 106 s under heavier load: the -O2 builds and the valgrind run dominate. Each fix the
/// generator led to fails some of seeds 1..24 without it: 18 for the operands of recomputed values
/// (seed 2 first), 7 for the results of callees returning only the frame pointer (seed 5 first).
const SEEDS: &[(u64, u64)] = &[(1, 23), (61, 61)];

const WORKERS: usize = 2;
const TOOL_TIMEOUT: Duration = Duration::from_secs(180);
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
const VALGRIND_TIMEOUT: Duration = Duration::from_secs(600);

/// A build of the lowered program: compiler, optimisation, extra flags; `valgrind` runs the build
/// of the same compiler and flags under valgrind.
struct Config {
    name: &'static str,
    cc: &'static str,
    opt: &'static str,
    extra: &'static [&'static str],
    valgrind: bool,
}

const CONFIGS: [Config; 6] = [
    Config { name: "clang-19 -O0", cc: "clang-19", opt: "-O0", extra: &[], valgrind: false },
    Config { name: "clang-19 -O2", cc: "clang-19", opt: "-O2", extra: &[], valgrind: false },
    Config { name: "clang-22 -O0", cc: "clang-22", opt: "-O0", extra: &[], valgrind: false },
    Config { name: "clang-22 -O2", cc: "clang-22", opt: "-O2", extra: &[], valgrind: false },
    Config { name: "clang-22 -O2 -mavx2", cc: "clang-22", opt: "-O2", extra: &["-mavx2"], valgrind: false },
    Config { name: "valgrind clang-19 -O0", cc: "clang-19", opt: "-O0", extra: &[], valgrind: true },
];

impl Config {
    /// The build's directory name (the valgrind configuration runs the -O0 build).
    fn build_name(&self) -> String {
        format!("{}{}{}", self.cc, self.opt, self.extra.join(""))
    }
}

fn seeds() -> Vec<u64> {
    common::seeds("LLCORO_STACKLESS_GEN_SEEDS", SEEDS)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The runtime's sources compiled once per build (compiler, optimisation, flags).
fn runtime_objects(root: &Path, c: &Config) -> Result<Vec<PathBuf>, String> {
    let dir = root.join("runtime").join(c.build_name());
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = repo().join("runtime/stackless/src");
    let mut sources: Vec<PathBuf> = fs::read_dir(&src)
        .map_err(|e| format!("{}: {e}", src.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    let mut out = Vec::new();
    for s in sources {
        let o = dir.join(s.file_name().unwrap_or_default()).with_extension("o");
        let mut cmd = Command::new(c.cc);
        cmd.args([c.opt, "-c"]).args(c.extra).arg("-I").arg(repo().join("runtime/stackless/include")).arg(&s);
        cmd.arg("-o").arg(&o);
        common::run_tool(&mut cmd, TOOL_TIMEOUT)?;
        out.push(o);
    }
    Ok(out)
}

/// A failed step: (configuration, step, detail).
type Failed = (String, String, String);

/// Generates, lowers and checks one seed, then builds and runs it in every configuration; returns the
/// configurations that passed and the failures.
fn check_seed(seed: u64, root: &Path, python: &Path, runtimes: &[Vec<PathBuf>]) -> (usize, Vec<Failed>) {
    let dir = root.join(format!("seed{seed}"));
    let _ = fs::remove_dir_all(&dir);
    let all = |step: &str, detail: String| (0, vec![("-".to_string(), step.to_string(), detail)]);
    let gen_py = repo().join("tests/stackless/gen/gen.py");
    let mut cmd = Command::new(python);
    cmd.arg(&gen_py).arg(seed.to_string()).arg(&dir);
    if let Err(e) = common::run_tool(&mut cmd, TOOL_TIMEOUT) {
        return all("gen.py", e);
    }
    let (prog, low) = (dir.join("prog.ll"), dir.join("low.ll"));
    let mut cmd = Command::new("opt-19");
    cmd.args(["-passes=verify", "-disable-output"]).arg(&prog);
    if let Err(e) = common::run_tool(&mut cmd, TOOL_TIMEOUT) {
        return all("opt-19 accepts the generated input", e);
    }
    let text = match common::run_llcoro(&prog, &low, &[], TOOL_TIMEOUT) {
        Ok(t) => t,
        Err(e) => return all("llcoro", e),
    };
    if let Some((n, l)) = code_lines(&text).find(|(_, l)| l.contains("@llvm.gc.frame.") || l.contains("@llvm.frame.")) {
        return all("no frame intrinsic left", format!("{}:{n}: {}", low.display(), l.trim()));
    }
    for opt in ["opt-19", "opt-22"] {
        let mut cmd = Command::new(opt);
        cmd.args(["-passes=verify", "-disable-output"]).arg(&low);
        if let Err(e) = common::run_tool(&mut cmd, TOOL_TIMEOUT) {
            return all(&format!("{opt} accepts the output"), e);
        }
    }
    let mut passed = 0;
    let mut failed = Vec::new();
    for (c, rt) in CONFIGS.iter().zip(runtimes) {
        match run_config(c, &dir, rt) {
            Ok(()) => passed += 1,
            Err((step, detail)) => failed.push((c.name.to_string(), step, detail)),
        }
    }
    (passed, failed)
}

fn run_config(c: &Config, dir: &Path, runtime: &[PathBuf]) -> Result<(), (String, String)> {
    let exe = dir.join(c.build_name());
    if !exe.exists() {
        let mut cmd = Command::new(c.cc);
        cmd.args([c.opt, "-w", "-ffp-contract=off"]).args(c.extra);
        cmd.arg("-I").arg(repo().join("runtime/stackless/include"));
        cmd.arg(dir.join("low.ll")).arg(dir.join("main.c")).args(runtime).arg("-o").arg(&exe);
        common::run_tool(&mut cmd, TOOL_TIMEOUT).map_err(|e| ("build".to_string(), e))?;
    }
    let (mut cmd, timeout, runs) = if c.valgrind {
        let mut v = Command::new("valgrind");
        v.args(["-q", "--error-exitcode=99", "--leak-check=full"]).arg(&exe).arg("quick");
        (v, VALGRIND_TIMEOUT, 2)
    } else {
        (Command::new(&exe), RUN_TIMEOUT, 0)
    };
    let out = common::run_with(&mut cmd, None, timeout).map_err(|e| ("run".to_string(), e))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("f0(")).collect();
    let all_same = !lines.is_empty() && lines.iter().all(|l| l.ends_with(": same"));
    if !out.success() || !all_same || (runs > 0 && lines.len() != runs) {
        return Err((
            "run: every result the same as plain C's".to_string(),
            format!("{}: {}\n{stdout}{}", exe.display(), out.status_text(), excerpt(&out.stderr)),
        ));
    }
    Ok(())
}

#[test]
fn generated_stackless_programs_match_plain_c() {
    let started = Instant::now();
    let needed = ["python3", "clang-19", "clang-22", "opt-19", "opt-22", "valgrind"];
    match common::tools(&needed, "generated stackless programs") {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => panic!("{e}"),
    }
    let Some(python) = find_tool("python3") else { panic!("python3 was found, then lost") };
    // Held to the end: a second run waits for this one.
    let (root, _lock) = common::lock_scratch("stackless_generated");
    let runtimes: Vec<Vec<PathBuf>> = CONFIGS
        .iter()
        .map(|c| runtime_objects(&root, c).unwrap_or_else(|e| panic!("the runtime for {}: {e}", c.name)))
        .collect();
    let seeds = seeds();
    let outcomes = common::parallel_map(&seeds, WORKERS, |&seed| check_seed(seed, &root, &python, &runtimes));
    let mut passed = 0;
    let mut failed = 0;
    for (seed, (p, fails)) in seeds.iter().zip(outcomes) {
        passed += p;
        // A failure before the builds fails every configuration of the seed.
        failed += if fails.iter().any(|f| f.0 == "-") { CONFIGS.len() } else { fails.len() };
        for (config, step, detail) in fails {
            eprintln!("FAIL seed {seed} [{config}] {step}\n  {detail}\n");
        }
    }
    if failed > 0 {
        eprintln!(
            "stackless_generated: files are kept in {}; reproduce a seed with `scripts/stackless-fuzz.sh 1 SEED`",
            root.display()
        );
    }
    println!(
        "stackless_generated: {} seeds x {} configurations in {:.1}s with {WORKERS} workers",
        seeds.len(),
        CONFIGS.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0, "stackless_generated: {failed} of {} checks failed", passed + failed);
}
