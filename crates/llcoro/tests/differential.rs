//! Differential test: the C++20 programs in `tests/diff` (see its README)
//! must behave identically when their coroutines are lowered by llcoro
//! instead of LLVM's CoroSplit.
//!
//! For every program P and every configuration (clang++-14, clang++-19,
//! clang++-22) x (-O0, -O2) (clang 14 writes typed pointers, so its
//! configurations check typed-pointer lowering of the same programs):
//!
//! 1. native: `clang++-N -std=c++20 -OX -w P -o P.native`;
//! 2. presplit: `clang++-N -std=c++20 -OX -w -Xclang -disable-llvm-passes
//!    -emit-llvm -S P -o P.ll` (which must contain a `presplitcoroutine`
//!    (LLVM 14: `"coroutine.presplit"`)
//!    function, otherwise the check would be vacuous);
//! 3. `llcoro P.ll -o P.low.ll` exits 0 (and does not panic);
//! 4. outside comments, P.low.ll contains no `llvm.coro.` and no
//!    `presplitcoroutine`, and `opt-N -passes=verify` accepts it;
//! 5. `clang++-N -OX -w P.low.ll -o P.lowered` succeeds;
//! 6. both binaries are run (no stdin, 60 s timeout each): the native run must
//!    exit normally, and stdout and exit status of both must be identical.
//!
//! In the clang-19 -O0 configuration the lowered binary is also run under
//! valgrind (memcheck with leak checking, 300 s timeout): it must report no
//! errors (valgrind exit status 99) and give the native stdout and exit
//! status. In addition, per clang version, the `-O0 -g` configuration
//! produces the presplit IR with `-g`, lowers it and requires the same as
//! steps 2 to 4 (no build or run).
//!
//! The clang-22 -O2 configuration is also run with `llcoro --dispatch=indirectbr`, and the
//! clang-19 -O2 one with `llcoro --closed-promises` (each program is one module, so the assumption
//! holds).
//!
//! The indirectbr and closed-promises configurations run on every second program (the first, the
//! third, ...: a fixed sample, to keep CI's time) unless `LLCORO_DIFF_ALL=1` is set
//! (`scripts/matrix.sh differential` sets it).
//!
//! A check is one (program, configuration) pair: 8 run configurations (the
//! clang-19 -O0 one including valgrind, the indirectbr one and the closed-promises one) and 3 `-g`
//! configurations, 550 checks for 50 programs with `LLCORO_DIFF_ALL=1`, 500 without. The test prints a summary, then a closing line
//! `N passed, M failed` over those checks, and panics if any check failed
//! after reporting every failure (program, configuration, step, details).
//!
//! Tools: `clang++-N` and `opt-N` for N in 14, 19 and 22, and `valgrind`
//! (install them with `scripts/install-test-tools.sh`). A missing tool skips
//! its part, unless the environment variable `CI` is set, in which case it is
//! a failure.
//!
//! Compiler outputs (native binaries, presplit `.ll` files and lowered
//! binaries, the latter keyed by the hash of llcoro's output) are cached under
//! `$CARGO_TARGET_TMPDIR/differential/<config>/` together with `.fingerprint`
//! files (command line, compiler version, input hash); set
//! `LLCORO_DIFF_REBUILD=1` to recompile everything. All files are kept there
//! for inspection; concurrent runs wait for each other (a lock on
//! `differential/.lock`). Set `LLCORO_DIFF_FILTER=substring` to only test
//! programs whose name contains the substring.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

mod common;
use common::cache::{Cache, hash_bytes};
use common::checks::{Toolchain, toolchains};
use common::diff::{Program, programs, reference_level};
use common::{Failure, Output, Recorder, code_lines, command_text, excerpt, find_tool};

/// The clang/LLVM major versions of the configurations.
const CLANG_VERSIONS: [u32; 3] = [14, 19, 22];

/// Optimization levels of the run configurations.
const OPT_LEVELS: [&str; 2] = ["O0", "O2"];

/// The run configuration whose lowered binaries also run under valgrind.
const VALGRIND_CONFIG: (u32, &str) = (19, "O0");
/// The configuration also lowered with `--dispatch=indirectbr` and compared.
const INDIRECTBR_CONFIG: (u32, &str) = (22, "O2");
/// The configuration also lowered with `--closed-promises` and compared.
const CLOSED_CONFIG: (u32, &str) = (19, "O2");

/// Timeout for compilers, opt and llcoro.
const TOOL_TIMEOUT: Duration = Duration::from_secs(180);

/// Timeout for one run of a test program.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);

/// Timeout for one run of a test program under valgrind.
const VALGRIND_TIMEOUT: Duration = Duration::from_secs(300);

/// Worker threads (also the number of parallel valgrind runs).
const WORKERS: usize = 2;

const VALGRIND_ARGS: [&str; 5] =
    ["--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "-q", "--"];

/// valgrind's exit status when it found errors (`--error-exitcode`).
const VALGRIND_ERROR_STATUS: i32 = 99;

const PRESPLIT: &str = "presplitcoroutine";
/// LLVM 14's spelling of the same attribute.
const PRESPLIT_14: &str = "\"coroutine.presplit\"";

// ---------------------------------------------------------------------------
// Process helpers
// ---------------------------------------------------------------------------

/// Runs a tool that must succeed within the harness's timeout.
fn run_tool(cmd: &mut Command) -> Result<Output, String> {
    common::run_tool(cmd, TOOL_TIMEOUT)
}

/// Runs a command without stdin, killing it after `timeout`.
fn run(cmd: &mut Command, timeout: Duration) -> Result<Output, String> {
    common::run_with(cmd, None, timeout)
}

/// Runs `f` over all items on the harness's workers.
fn parallel_for_each<T: Sync>(items: &[T], f: impl Fn(&T) + Sync) {
    common::parallel_map(items, WORKERS, f);
}

/// Checks that all named tools are on PATH. A missing tool is recorded as a
/// failure under CI and printed as a skip notice otherwise; returns whether
/// all tools were found.
fn check_tools(names: &[&str], what: &str, failures: &Mutex<Vec<Failure>>) -> bool {
    common::tools(names, what).unwrap_or_else(|detail| {
        failures.lock().unwrap().push(Failure {
            program: "-".to_string(),
            config: what.to_string(),
            step: "tool lookup".to_string(),
            detail,
        });
        false
    })
}

// ---------------------------------------------------------------------------
// Test description
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Build, lower, build the lowered IR and compare runs.
    Run,
    /// Build, lower, compare runs and run the lowered binary under valgrind.
    RunValgrind,
    /// Like `Run`, lowering with `--dispatch=indirectbr`.
    RunIndirectbr,
    /// Like `Run`, lowering with `--closed-promises`.
    RunClosed,
    /// Lower `-O0 -g` IR and verify it.
    Debug,
}

/// One (program, configuration) pair.
struct Check<'a> {
    program: &'a Program,
    tc: &'a Toolchain,
    opt_level: &'static str,
    kind: Kind,
}

impl Check<'_> {
    fn config(&self) -> String {
        let g = match self.kind {
            Kind::Debug => "-g",
            Kind::RunIndirectbr => "-indirectbr",
            Kind::RunClosed => "-closed",
            _ => "",
        };
        format!("clang-{}-{}{g}", self.tc.version, self.opt_level)
    }
}

/// State shared by all checks.
struct Context {
    root: PathBuf,
    cache: Cache,
    valgrind: Option<PathBuf>,
}

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

#[test]
fn differential() {
    let started = Instant::now();
    let rebuild = std::env::var_os("LLCORO_DIFF_REBUILD").is_some_and(|v| v != "0" && !v.is_empty());
    let failures: Mutex<Vec<Failure>> = Mutex::new(Vec::new());
    let filter = std::env::var("LLCORO_DIFF_FILTER").ok();
    let all_extra = std::env::var_os("LLCORO_DIFF_ALL").is_some_and(|v| v != "0" && !v.is_empty());
    let programs = programs(filter.as_deref());
    // Held to the end: a second run waits for this one.
    let (root, _lock) = common::lock_scratch("differential");

    let mut setup = Vec::new();
    let toolchains = toolchains(&CLANG_VERSIONS, &mut setup);
    failures.lock().unwrap().extend(setup);
    let valgrind_wanted = toolchains.iter().any(|t| t.version == VALGRIND_CONFIG.0);
    let valgrind =
        (valgrind_wanted && check_tools(&["valgrind"], "valgrind", &failures)).then(|| find_tool("valgrind").unwrap());

    // The valgrind checks take longest: queue them first so that the two
    // workers finish at about the same time.
    let mut checks: Vec<Check> = Vec::new();
    for tc in &toolchains {
        for opt_level in OPT_LEVELS {
            let kind = if valgrind.is_some() && (tc.version, opt_level) == VALGRIND_CONFIG {
                Kind::RunValgrind
            } else {
                Kind::Run
            };
            for (k, program) in programs.iter().enumerate() {
                checks.push(Check { program, tc, opt_level, kind });
                if !all_extra && k % 2 == 1 {
                    continue;
                }
                if (tc.version, opt_level) == INDIRECTBR_CONFIG {
                    checks.push(Check { program, tc, opt_level, kind: Kind::RunIndirectbr });
                }
                if (tc.version, opt_level) == CLOSED_CONFIG {
                    checks.push(Check { program, tc, opt_level, kind: Kind::RunClosed });
                }
            }
        }
        for program in &programs {
            checks.push(Check { program, tc, opt_level: "O0", kind: Kind::Debug });
        }
    }
    checks.sort_by_key(|c| match c.kind {
        Kind::RunValgrind => 0,
        Kind::Run | Kind::RunIndirectbr | Kind::RunClosed => 1,
        Kind::Debug => 2,
    });

    let ctx = Context { root, cache: Cache::new(rebuild), valgrind };
    let outcomes: Mutex<Vec<(Kind, bool)>> = Mutex::new(Vec::new());
    parallel_for_each(&checks, |check| {
        let config = check.config();
        let mut rec = Recorder::new(&check.program.name, &config);
        run_check(check, &ctx, &mut rec);
        outcomes.lock().unwrap().push((check.kind, rec.failures.is_empty()));
        failures.lock().unwrap().extend(rec.failures);
    });
    let outcomes = outcomes.into_inner().unwrap();

    // --- report --------------------------------------------------------------
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by(|a, b| (&a.program, &a.config).cmp(&(&b.program, &b.config)));
    let count = |pred: &dyn Fn(Kind) -> bool, passed: Option<bool>| {
        outcomes.iter().filter(|(k, ok)| pred(*k) && passed.is_none_or(|p| p == *ok)).count()
    };
    let is_run = |k: Kind| k != Kind::Debug;
    let is_valgrind = |k: Kind| k == Kind::RunValgrind;
    let is_debug = |k: Kind| k == Kind::Debug;
    let run_configs = toolchains.len() * OPT_LEVELS.len()
        + usize::from(toolchains.iter().any(|t| t.version == INDIRECTBR_CONFIG.0))
        + usize::from(toolchains.iter().any(|t| t.version == CLOSED_CONFIG.0));
    let mut report = String::new();
    for f in &failures {
        report.push_str(&format!("FAIL {} [{}] {}\n  {}\n\n", f.program, f.config, f.step, f.detail));
    }
    if !failures.is_empty() {
        eprintln!("{report}");
        eprintln!("differential: files are kept in {}", ctx.root.display());
    }
    println!(
        "differential: {} programs x {} configurations, {} runs, {} failures",
        programs.len(),
        run_configs,
        count(&is_run, None),
        count(&is_run, Some(false))
    );
    println!(
        "differential: valgrind: {} lowered binaries (clang-{} -{}), {} failures; -g: {} lowerings (-O0 -g), {} \
         failures",
        count(&is_valgrind, None),
        VALGRIND_CONFIG.0,
        VALGRIND_CONFIG.1,
        count(&is_valgrind, Some(false)),
        count(&is_debug, None),
        count(&is_debug, Some(false))
    );
    println!(
        "differential: {} compilations ({} cached) in {:.1}s with {} workers",
        ctx.cache.ran.load(Ordering::Relaxed) + ctx.cache.reused.load(Ordering::Relaxed),
        ctx.cache.reused.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64(),
        WORKERS
    );
    let passed = count(&|_| true, Some(true));
    // Failures that belong to no check (missing tools under CI) count too.
    let failed = count(&|_| true, Some(false)) + failures.iter().filter(|f| f.program == "-").count();
    println!("{passed} passed, {failed} failed");
    if !failures.is_empty() {
        panic!("differential: {failed} of {} checks failed ({} failures)", passed + failed, failures.len());
    }
}

/// Compiles with `clang++-N`, unless `out` is up to date according to its fingerprint.
fn compile(ctx: &Context, tc: &Toolchain, args: &[OsString], out: &Path, input_hash: u64) -> Result<(), String> {
    ctx.cache.make(Command::new(&tc.clangxx).args(args), &tc.clangxx_version, input_hash, out, TOOL_TIMEOUT)
}

fn os_args(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn run_check(check: &Check, ctx: &Context, rec: &mut Recorder) {
    let p = check.program;
    let tc = check.tc;
    let dir = ctx.root.join(check.config());
    if let Err(e) = fs::create_dir_all(&dir) {
        return rec.add("create directory", format!("{}: {e}", dir.display()));
    }
    let file = |ext: &str| dir.join(format!("{}.{ext}", p.name));
    let opt_flag = format!("-{}", check.opt_level);

    // 1. native build (at -O0 where the compiler's own lowering at this level is known broken)
    let native = file("native");
    if check.kind != Kind::Debug {
        let native_opt = format!("-{}", reference_level(&p.name, tc.version, check.opt_level));
        let mut args = os_args(&["-std=c++20", &native_opt, "-w"]);
        args.extend([p.path.clone().into(), "-o".into(), native.clone().into()]);
        if rec.ok("native build", compile(ctx, tc, &args, &native, p.hash)).is_none() {
            return;
        }
    }

    // 2. presplit IR
    let presplit = file("ll");
    let mut args = os_args(&["-std=c++20", &opt_flag]);
    if check.kind == Kind::Debug {
        args.push("-g".into());
    }
    args.extend(os_args(&["-w", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"]));
    args.extend([p.path.clone().into(), "-o".into(), presplit.clone().into()]);
    if rec.ok("presplit IR", compile(ctx, tc, &args, &presplit, p.hash)).is_none() {
        return;
    }
    match fs::read_to_string(&presplit) {
        Ok(text) if code_lines(&text).any(|(_, l)| l.contains(PRESPLIT) || l.contains(PRESPLIT_14)) => {}
        Ok(_) => return rec.add("presplit IR", format!("{} has no {PRESPLIT} function", presplit.display())),
        Err(e) => return rec.add("presplit IR", format!("reading {}: {e}", presplit.display())),
    }

    // 3. lowering
    let lowered_ir = file("low.ll");
    let extra: &[&str] = match check.kind {
        Kind::RunIndirectbr => &["--dispatch=indirectbr"],
        Kind::RunClosed => &["--closed-promises"],
        _ => &[],
    };
    let lowered_text = match common::run_llcoro(&presplit, &lowered_ir, extra, TOOL_TIMEOUT) {
        Ok(t) => t,
        Err(e) => return rec.add("llcoro", e),
    };

    // 4. nothing left to lower; the module verifies
    for msg in common::leftovers(&lowered_text, &lowered_ir) {
        rec.add("lowered everything", msg);
    }
    // Every program has a coroutine with a suspend to resume at: the option must have taken effect.
    if check.kind == Kind::RunIndirectbr && !code_lines(&lowered_text).any(|(_, l)| l.contains("indirectbr ptr ")) {
        rec.add("indirectbr dispatch", format!("{} has no indirectbr", lowered_ir.display()));
    }
    let mut cmd = Command::new(&tc.opt);
    cmd.args(["-passes=verify", "-disable-output"]).arg(&lowered_ir);
    if rec.ok("opt -passes=verify", run_tool(&mut cmd)).is_none() || check.kind == Kind::Debug {
        return;
    }

    // 5. build the lowered IR (cached by the hash of llcoro's output)
    let lowered = file("lowered");
    let mut args = os_args(&[&opt_flag, "-w"]);
    args.extend([lowered_ir.clone().into(), "-o".into(), lowered.clone().into()]);
    if rec.ok("lowered build", compile(ctx, tc, &args, &lowered, hash_bytes(lowered_text.as_bytes()))).is_none() {
        return;
    }

    // 6. compare runs
    let Some(reference) = rec.ok("native run", run(&mut Command::new(&native), RUN_TIMEOUT)) else { return };
    if reference.status.and_then(|s| s.code()).is_none() {
        return rec.add("native run", format!("{}: {}", native.display(), reference.describe()));
    }
    let Some(actual) = rec.ok("lowered run", run(&mut Command::new(&lowered), RUN_TIMEOUT)) else { return };
    if !compare_runs(rec, "lowered run vs native run", &reference, &actual, &native, &lowered)
        || check.kind != Kind::RunValgrind
    {
        return;
    }

    // 7. valgrind
    let mut cmd = Command::new(ctx.valgrind.as_ref().unwrap());
    cmd.args(VALGRIND_ARGS).arg(&lowered);
    let line = command_text(&cmd);
    let Some(vg) = rec.ok("valgrind", run(&mut cmd, VALGRIND_TIMEOUT)) else { return };
    if vg.status.and_then(|s| s.code()) == Some(VALGRIND_ERROR_STATUS) {
        return rec.add("valgrind", format!("{line}\n  valgrind reported errors:\n{}", excerpt(&vg.stderr)));
    }
    compare_runs(rec, "valgrind run vs native run", &reference, &vg, &native, Path::new(&line));
}

/// Requires identical stdout and exit status; returns whether they are.
fn compare_runs(rec: &mut Recorder, step: &str, reference: &Output, actual: &Output, r: &Path, a: &Path) -> bool {
    common::same_run(rec, step, reference, actual, &format!("{} vs {}", a.display(), r.display()))
}
