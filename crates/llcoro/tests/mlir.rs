//! MLIR's async dialect as a second producer of coroutine IR: the programs in `tests/mlir` (see its
//! README) must print what their `.expected` file says both when LLVM lowers their coroutines and
//! when llcoro does.
//!
//! For every program P and MLIR version N in 14, 19, 22 (P's `P.14.mlir` for 14, `P.mlir` for
//! 19 and 22; a program without a `.14.mlir` must say why on a `// not on MLIR 14:` line):
//!
//! 1. `mlir-opt-N` with the async pipeline of version N, then `mlir-translate-N --mlir-to-llvmir`,
//!    give `P.ll`, which must contain `llvm.coro.id` and `llvm.coro.suspend` outside comments
//!    (otherwise the test would be vacuous); with `// llcoro-mlir: entry-coroutine` its `@entry`
//!    must be a coroutine returning a token (`define i8* @entry(`);
//! 2. for -O0 and -O2, two checks:
//!    - `llvm`: `clang-N -OX P.ll` (LLVM's coroutine passes), linked with MLIR N's async runtime
//!      (and `support/*.c` for 14), runs with exit status 0 and prints `P.expected`;
//!    - `llcoro`: `llcoro P.ll -o P.low.ll` exits 0 without panicking, `P.low.ll` has no
//!      `llvm.coro.`, `presplitcoroutine` or `coroutine.presplit` outside comments,
//!      `opt-N -passes=verify` accepts it without a word on stderr, and built the same way it runs
//!      with exit status 0, prints `P.expected`, and gives the same stdout and exit status as the
//!      `llvm` binary.
//!
//! The test prints every failure, then a closing line `N passed, M failed` over those checks, and
//! panics if any failed. Tools: `mlir-opt-N`, `mlir-translate-N`, `clang-N`, `opt-N`, and the
//! runtime libraries `libmlir_async_runtime.so` and `libmlir_c_runner_utils.so` of each version
//! under `/opt/llcoro-mlir/N/usr/lib/llvm-N/lib` (or `$LLCORO_MLIR_DIR/N/...`), unpacked there by
//! `scripts/install-mlir-runtimes.sh`. A missing tool or library skips its version with a notice,
//! unless the environment variable `CI` is set, in which case it is a failure.
//!
//! Files are written to `$CARGO_TARGET_TMPDIR/mlir/N/` and kept for inspection; nothing is
//! cached. `LLCORO_MLIR_FILTER=substring` tests only the programs whose name contains it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::{Output, code_lines, command_text, excerpt, find_tool, first_difference};

const VERSIONS: [u32; 3] = [14, 19, 22];
const OPT_LEVELS: [&str; 2] = ["O0", "O2"];

/// Timeout for mlir-opt, mlir-translate, clang, opt and llcoro.
const TOOL_TIMEOUT: Duration = Duration::from_secs(180);
/// Timeout for one run of a test program.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
/// Worker threads.
const WORKERS: usize = 2;

/// The directive of MLIR 14 programs whose entry point `@entry` is made a coroutine.
const ENTRY_COROUTINE: &str = "// llcoro-mlir: entry-coroutine";
/// How a program without a `.14.mlir` says why.
const NOT_ON_14: &str = "// not on MLIR 14:";

/// MLIR 14's pipeline; `{async}` is `-async-to-async-runtime` with its options.
const PIPELINE_14: &[&str] = &[
    "-async-parallel-for",
    "{async}",
    "-async-runtime-ref-counting",
    "-async-runtime-ref-counting-opt",
    "-arith-expand",
    "-convert-async-to-llvm",
    "-convert-scf-to-std",
    "-convert-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-std-to-llvm",
    "-reconcile-unrealized-casts",
];

/// The pipeline of MLIR 19 and 22.
const PIPELINE: &[&str] = &[
    "-async-parallel-for",
    "-async-func-to-async-runtime",
    "{async}",
    "-async-runtime-ref-counting",
    "-async-runtime-ref-counting-opt",
    "-arith-expand",
    "-convert-async-to-llvm",
    "-convert-scf-to-cf",
    "-finalize-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-func-to-llvm",
    "-convert-cf-to-llvm",
    "-reconcile-unrealized-casts",
];

// ---------------------------------------------------------------------------
// Failures
// ---------------------------------------------------------------------------

struct Failure {
    check: String,
    step: String,
    detail: String,
}

/// The failures of one check.
struct Recorder {
    check: String,
    failures: Vec<Failure>,
}

impl Recorder {
    fn new(check: String) -> Self {
        Recorder { check, failures: Vec::new() }
    }
    fn add(&mut self, step: &str, detail: impl Into<String>) {
        self.failures.push(Failure { check: self.check.clone(), step: step.to_string(), detail: detail.into() });
    }
    fn ok<T>(&mut self, step: &str, r: Result<T, String>) -> Option<T> {
        r.map_err(|e| self.add(step, e)).ok()
    }
}

/// Outcomes of all checks: (check name, passed), and their failures.
#[derive(Default)]
struct Results {
    outcomes: Vec<(String, bool)>,
    failures: Vec<Failure>,
}

impl Results {
    fn record(&mut self, rec: Recorder) {
        self.outcomes.push((rec.check.clone(), rec.failures.is_empty()));
        self.failures.extend(rec.failures);
    }
    /// A failure outside any check (a missing tool or library under CI) counts as a failed check.
    fn setup_failure(&mut self, what: &str, detail: String) {
        let mut rec = Recorder::new(what.to_string());
        rec.add("setup", detail);
        self.record(rec);
    }
}

// ---------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------

/// Runs a tool that must succeed within the harness's timeout.
fn run_tool(cmd: &mut Command) -> Result<Output, String> {
    common::run_tool(cmd, TOOL_TIMEOUT)
}

// ---------------------------------------------------------------------------
// Programs and versions
// ---------------------------------------------------------------------------

struct Program {
    name: String,
    /// The source for MLIR 19 and 22.
    source: PathBuf,
    /// The source for MLIR 14, or why there is none.
    source_14: Result<PathBuf, String>,
    expected: Result<Vec<u8>, String>,
}

fn programs(dir: &Path) -> Vec<Program> {
    let filter = std::env::var("LLCORO_MLIR_FILTER").ok();
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut programs = Vec::new();
    for entry in entries {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(name) = file.strip_suffix(".mlir") else { continue };
        if name.ends_with(".14") || filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let source_14 = dir.join(format!("{name}.14.mlir"));
        let source_14 = if source_14.is_file() {
            Ok(source_14)
        } else {
            let text = fs::read_to_string(&path).unwrap_or_default();
            match text.lines().find_map(|l| l.strip_prefix(NOT_ON_14)) {
                Some(why) => Err(why.trim().to_string()),
                None => Err(String::new()),
            }
        };
        let expected_path = dir.join(format!("{name}.expected"));
        let expected = fs::read(&expected_path).map_err(|e| format!("cannot read {}: {e}", expected_path.display()));
        programs.push(Program { name: name.to_string(), source: path, source_14, expected });
    }
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(!programs.is_empty() || filter.is_some(), "no programs in {}", dir.display());
    programs
}

struct Toolchain {
    version: u32,
    mlir_opt: PathBuf,
    mlir_translate: PathBuf,
    clang: PathBuf,
    opt: PathBuf,
    /// The runtime libraries to link, and their directory (the rpath).
    libs: Vec<PathBuf>,
    lib_dir: PathBuf,
    /// Objects of `support/*.c` (MLIR 14 only): the runtime shim, and main for entry coroutines.
    shim: Option<PathBuf>,
    main14: Option<PathBuf>,
}

/// The runtime library of `lib_dir` whose name starts with `stem` (`libmlir_async_runtime.so`).
fn find_lib(lib_dir: &Path, stem: &str) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(lib_dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|f| f.to_string_lossy().starts_with(stem)))
        .collect();
    found.sort();
    found.into_iter().next()
}

/// The toolchain of MLIR `n`, or `None` when something is missing (a skip notice outside CI, a
/// failure under CI).
fn toolchain(n: u32, support: &Path, work: &Path, results: &mut Results) -> Option<Toolchain> {
    let what = format!("MLIR {n}");
    let names = [format!("mlir-opt-{n}"), format!("mlir-translate-{n}"), format!("clang-{n}"), format!("opt-{n}")];
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    match common::tools(&refs, &what) {
        Ok(true) => {}
        Ok(false) => return None,
        Err(e) => {
            results.setup_failure(&what, e);
            return None;
        }
    }
    let root = std::env::var_os("LLCORO_MLIR_DIR").map_or_else(|| PathBuf::from("/opt/llcoro-mlir"), PathBuf::from);
    let lib_dir = root.join(n.to_string()).join(format!("usr/lib/llvm-{n}/lib"));
    let libs: Vec<Option<PathBuf>> =
        ["libmlir_async_runtime.so", "libmlir_c_runner_utils.so"].iter().map(|s| find_lib(&lib_dir, s)).collect();
    if libs.iter().any(Option::is_none) {
        let list = format!(
            "libmlir_async_runtime.so or libmlir_c_runner_utils.so in {} (run scripts/install-mlir-runtimes.sh)",
            lib_dir.display()
        );
        if std::env::var_os("CI").is_some() {
            results.setup_failure(&what, format!("required runtime library not found: {list}"));
        } else {
            println!("skipping {what}: {list} not found (with CI set this is a failure)");
        }
        return None;
    }
    let clang = find_tool(&names[2]).unwrap();
    let (mut shim, mut main14) = (None, None);
    if n == 14 {
        let dir = work.join("14");
        let _ = fs::create_dir_all(&dir);
        for (src, slot) in [("async_runtime14.c", &mut shim), ("main14.c", &mut main14)] {
            let obj = dir.join(src.replace(".c", ".o"));
            let mut cmd = Command::new(&clang);
            cmd.args(["-O2", "-Wall", "-Werror", "-c"]).arg(support.join(src)).arg("-o").arg(&obj);
            match run_tool(&mut cmd) {
                Ok(_) => *slot = Some(obj),
                Err(e) => {
                    results.setup_failure(&what, format!("building support/{src}: {e}"));
                    return None;
                }
            }
        }
    }
    Some(Toolchain {
        version: n,
        mlir_opt: find_tool(&names[0]).unwrap(),
        mlir_translate: find_tool(&names[1]).unwrap(),
        clang,
        opt: find_tool(&names[3]).unwrap(),
        libs: libs.into_iter().flatten().collect(),
        lib_dir,
        shim,
        main14,
    })
}

// ---------------------------------------------------------------------------
// One program with one version
// ---------------------------------------------------------------------------

/// Lowers the MLIR source to `P.ll`; returns its path and whether it needs `main14.c`.
fn translate(tc: &Toolchain, source: &Path, dir: &Path, name: &str) -> Result<(PathBuf, bool), String> {
    let text = fs::read_to_string(source).map_err(|e| format!("cannot read {}: {e}", source.display()))?;
    let entry = text.lines().any(|l| l.trim() == ENTRY_COROUTINE);
    if entry && tc.version != 14 {
        return Err(format!("{}: `{ENTRY_COROUTINE}` is for MLIR 14 programs only", source.display()));
    }
    let async_pass =
        if entry { "-async-to-async-runtime=eliminate-blocking-await-ops" } else { "-async-to-async-runtime" };
    let pipeline = if tc.version == 14 { PIPELINE_14 } else { PIPELINE };
    let lowered = dir.join(format!("{name}.llvm.mlir"));
    let mut cmd = Command::new(&tc.mlir_opt);
    cmd.arg(source);
    cmd.args(pipeline.iter().map(|p| if *p == "{async}" { async_pass } else { p }));
    cmd.arg("-o").arg(&lowered);
    run_tool(&mut cmd)?;
    let ll = dir.join(format!("{name}.ll"));
    run_tool(Command::new(&tc.mlir_translate).arg("--mlir-to-llvmir").arg(&lowered).arg("-o").arg(&ll))?;
    let ir = fs::read_to_string(&ll).map_err(|e| format!("cannot read {}: {e}", ll.display()))?;
    for needle in ["llvm.coro.id", "llvm.coro.suspend"] {
        if !code_lines(&ir).any(|(_, l)| l.contains(needle)) {
            return Err(format!("{} has no {needle}: the program has no coroutine to lower", ll.display()));
        }
    }
    if entry && !code_lines(&ir).any(|(_, l)| l.starts_with("define i8* @entry(")) {
        return Err(format!("{} has no `define i8* @entry(`: @entry did not become a coroutine", ll.display()));
    }
    Ok((ll, entry))
}

/// Builds `ll` into `exe` with clang-N at `opt_level`, linked with the runtime.
fn build(tc: &Toolchain, ll: &Path, entry: bool, opt_level: &str, exe: &Path) -> Result<(), String> {
    let _ = fs::remove_file(exe);
    let mut cmd = Command::new(&tc.clang);
    cmd.arg(format!("-{opt_level}")).arg("-w").arg(ll);
    cmd.args(tc.shim.iter());
    if entry {
        cmd.args(tc.main14.iter());
    }
    cmd.args(&tc.libs);
    cmd.arg(format!("-Wl,-rpath,{}", tc.lib_dir.display()));
    cmd.arg("-o").arg(exe);
    run_tool(&mut cmd)?;
    if !exe.is_file() {
        return Err(format!("{}\n  produced no {}", command_text(&cmd), exe.display()));
    }
    Ok(())
}

/// Runs `exe`; it must exit with status 0 and print `expected`.
fn run_expect(rec: &mut Recorder, exe: &Path, expected: &[u8]) -> Option<Output> {
    let out = rec.ok("run", common::run_with(&mut Command::new(exe), None, RUN_TIMEOUT))?;
    let mut problems = Vec::new();
    if out.status.and_then(|s| s.code()) != Some(0) {
        problems.push(format!("{} (expected exit status 0)", out.status_text()));
    }
    if out.stdout != expected {
        problems.push(format!(
            "stdout is not the expected output, {}",
            first_difference(expected, &out.stdout, ("expected", "actual"))
        ));
    }
    if !problems.is_empty() {
        let err = excerpt(&out.stderr);
        let err = if err.is_empty() { String::new() } else { format!("\n  stderr:\n{err}") };
        rec.add("run", format!("{}\n  {}{err}", exe.display(), problems.join("\n  ")));
    }
    Some(out)
}

/// The `llcoro` check's steps up to the lowered IR: lowering, nothing left, verification.
fn lower(tc: &Toolchain, ll: &Path, low: &Path, rec: &mut Recorder) -> bool {
    let text = match common::run_llcoro(ll, low, &[], TOOL_TIMEOUT) {
        Ok(t) => t,
        Err(e) => {
            rec.add("llcoro", e);
            return false;
        }
    };
    let mut ok = true;
    for msg in common::leftovers(&text, low) {
        rec.add("lowered everything", msg);
        ok = false;
    }
    let mut cmd = Command::new(&tc.opt);
    cmd.args(["-passes=verify", "-disable-output"]).arg(low);
    match run_tool(&mut cmd) {
        Err(e) => {
            rec.add("opt -passes=verify", e);
            ok = false;
        }
        Ok(o) if !o.stderr.is_empty() => {
            rec.add("opt -passes=verify", format!("{}\n  warnings:\n{}", command_text(&cmd), excerpt(&o.stderr)));
            ok = false;
        }
        Ok(_) => {}
    }
    ok
}

/// All checks of one program with one version: 2 per optimization level.
fn run_job(p: &Program, tc: &Toolchain, work: &Path) -> Vec<Recorder> {
    let n = tc.version;
    let mut recs: Vec<Recorder> = OPT_LEVELS
        .iter()
        .flat_map(|o| ["llvm", "llcoro"].map(|path| Recorder::new(format!("{} [mlir-{n} -{o} {path}]", p.name))))
        .collect();
    let fail_all = |recs: &mut Vec<Recorder>, step: &str, e: &str| {
        for r in recs.iter_mut() {
            r.add(step, e);
        }
    };
    let source = if n == 14 { p.source_14.clone() } else { Ok(p.source.clone()) };
    let source = match source {
        Ok(s) => s,
        Err(why) if !why.is_empty() => {
            println!("mlir: {}: not on MLIR 14 ({why})", p.name);
            return Vec::new();
        }
        Err(_) => {
            fail_all(&mut recs, "source", &format!("no {}.14.mlir and no `{NOT_ON_14}` line", p.name));
            return recs;
        }
    };
    let expected = match &p.expected {
        Ok(e) => e.clone(),
        Err(e) => {
            fail_all(&mut recs, "expected output", e);
            return recs;
        }
    };
    let dir = work.join(n.to_string());
    if let Err(e) = fs::create_dir_all(&dir) {
        fail_all(&mut recs, "create directory", &format!("{}: {e}", dir.display()));
        return recs;
    }
    let (ll, entry) = match translate(tc, &source, &dir, &p.name) {
        Ok(x) => x,
        Err(e) => {
            fail_all(&mut recs, "mlir-opt/mlir-translate", &e);
            return recs;
        }
    };
    let low = dir.join(format!("{}.low.ll", p.name));
    let mut lowered = None;
    for (i, o) in OPT_LEVELS.iter().enumerate() {
        let (left, right) = recs.split_at_mut(2 * i + 1);
        let (rec_llvm, rec_llcoro) = (&mut left[2 * i], &mut right[0]);
        // (a) LLVM's lowering.
        let exe = dir.join(format!("{}.{o}.llvm", p.name));
        let reference = match rec_llvm.ok("clang build", build(tc, &ll, entry, o, &exe)) {
            Some(()) => run_expect(rec_llvm, &exe, &expected),
            None => None,
        };
        // (b) llcoro's, lowered once for both levels.
        let (ok, lower_failures) = lowered.get_or_insert_with(|| {
            let mut r = Recorder::new(String::new());
            let ok = lower(tc, &ll, &low, &mut r);
            (ok, r.failures)
        });
        for f in lower_failures {
            rec_llcoro.add(&f.step, f.detail.clone());
        }
        if !*ok {
            continue;
        }
        let exe_low = dir.join(format!("{}.{o}.llcoro", p.name));
        if rec_llcoro.ok("clang build of llcoro's output", build(tc, &low, entry, o, &exe_low)).is_none() {
            continue;
        }
        let Some(actual) = run_expect(rec_llcoro, &exe_low, &expected) else { continue };
        if let Some(reference) = reference {
            let problems = common::run_differences(&reference, &actual, ("LLVM's", "llcoro's"));
            if !problems.is_empty() {
                rec_llcoro.add(
                    "llcoro run vs LLVM run",
                    format!("{} vs {}\n  {}", exe_low.display(), exe.display(), problems.join("\n  ")),
                );
            }
        }
    }
    recs
}

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

#[test]
fn mlir_async() {
    let started = Instant::now();
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/mlir"));
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let programs = programs(&dir);
    // Held to the end: a second run waits for this one.
    let (work, _lock) = common::lock_scratch("mlir");

    let mut results = Results::default();
    let toolchains: Vec<Toolchain> =
        VERSIONS.iter().filter_map(|&n| toolchain(n, &dir.join("support"), &work, &mut results)).collect();
    let jobs: Vec<(&Program, &Toolchain)> =
        toolchains.iter().flat_map(|tc| programs.iter().map(move |p| (p, tc))).collect();

    let mut done: Vec<Recorder> =
        common::parallel_map(&jobs, WORKERS, |(p, tc)| run_job(p, tc, &work)).into_iter().flatten().collect();
    done.sort_by(|a, b| a.check.cmp(&b.check));
    for rec in done {
        results.record(rec);
    }

    for f in &results.failures {
        eprintln!("FAIL {} {}\n  {}\n", f.check, f.step, f.detail);
    }
    if !results.failures.is_empty() {
        eprintln!("mlir: files are kept in {}", work.display());
    }
    let passed = results.outcomes.iter().filter(|(_, ok)| *ok).count();
    let failed = results.outcomes.len() - passed;
    for path in ["llvm", "llcoro"] {
        let mine: Vec<bool> =
            results.outcomes.iter().filter(|(c, _)| c.ends_with(&format!(" {path}]"))).map(|(_, ok)| *ok).collect();
        println!("mlir: {path}: {} of {} checks passed", mine.iter().filter(|ok| **ok).count(), mine.len());
    }
    println!(
        "mlir: {} programs x {} MLIR versions x {} optimization levels in {:.1}s",
        programs.len(),
        toolchains.len(),
        OPT_LEVELS.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        panic!("mlir: {failed} of {} checks failed", passed + failed);
    }
}
