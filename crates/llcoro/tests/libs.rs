//! Real-library coroutine programs (`tests/libs`, see its README), built natively and through
//! llcoro, by hand and through the launcher `llcoro cc`.
//!
//! The programs: four using Debian's asio 1.22 (libasio-dev, header-only; compiled with
//! `-DASIO_HAS_CO_AWAIT -DASIO_HAS_STD_COROUTINE -std=c++20 -pthread`), one using Boost.Asio of
//! Boost 1.81 (libboost1.81-dev, header-only as used), and two hand-written task libraries whose
//! promises' `get_return_object()` return a type other than the coroutine's, so that clang keeps the
//! return object in an alloca marked `!coro.outside.frame` (a trivially destructible handle in
//! task_lib, a `std::shared_ptr` in task_shared_gro). Each prints a deterministic trace, which must
//! equal `tests/libs/NAME.expected` (written from what the program means), and exits 0.
//! task_shared_gro is checked with clang-19 only: clang 22.1 miscompiles it natively
//! (llvm/llvm-project#193412), and the test says so when it runs.
//!
//! A configuration is a clang (19 or 22), a level (-O0 or -O2) and a route:
//!
//! - by hand (`clang-N-OX`), without debug info: `clang++-N -std=c++20 -OX [library flags] -pthread
//!   -Xclang -disable-llvm-passes -emit-llvm -S P.cpp -o P.ll`, which must contain a
//!   `presplitcoroutine` function (and, for the task libraries, an alloca marked
//!   `!coro.outside.frame`: otherwise the check would be vacuous); `llcoro P.ll -o P.low.ll` exits 0
//!   without panicking; P.low.ll has no `llvm.coro.` and no `presplitcoroutine` outside comments, and
//!   `opt-N -passes=verify -disable-output P.low.ll` succeeds with nothing on stderr;
//!   `clang++-N -OX P.low.ll -pthread -o P.lowered` succeeds;
//! - through the launcher with `-g` (`clang-N-OX-g-cc`), the way a real build with debug info
//!   builds: `LLCORO_KEEP_IR=1 llcoro cc -- clang++-N -std=c++20 -OX -g [library flags] -pthread -c
//!   P.cpp -o P.o`, whose kept presplit IR must show the same as above, and whose kept lowered IR
//!   must have nothing left to lower and pass `opt-N -O2` with nothing on stderr (its verifier also
//!   checks the debug info, before and after optimisation); then the link `llcoro cc -- clang++-N
//!   -OX -g P.o -pthread -o P.cc`.
//!
//! Either way the native build of the same configuration (`clang++-N -std=c++20 -OX [-g] [library
//! flags] -pthread P.cpp -o P.native`) runs (no stdin, 30 s timeout) and must exit 0 with the
//! expected stdout, and the lowered build must give the same stdout and exit status.
//!
//! The default run is what fits the test budget (see `in_default_run` for the figures): every
//! program by hand in every configuration except the asio programs with clang-19 -O2 and the two new
//! library programs (asio_experimental, boost_asio), which are checked through the launcher at -O0
//! -g and -O2 -g, each level once with each clang between them; the task libraries also go through
//! the launcher. Set `LLCORO_LIBS_ALL=1` (or `LLCORO_MATRIX=all`, the matrix's switch;
//! `scripts/matrix.sh` sets both) for every program in every configuration: 7 programs x 8
//! configurations, less task_shared_gro's 4 with clang-22.
//!
//! The test prints one line per check, then a closing line `N passed, M failed`, and panics if any
//! check failed, after reporting every failure (program, configuration, step, details).
//!
//! Tools: `clang++-N` and `opt-N` for N in 19 and 22, and the asio and Boost headers (a missing
//! piece skips its part with a notice; with the environment variable `CI` set it is a failure).
//! Files are kept under `$CARGO_TARGET_TMPDIR/libs/<config>/` for inspection, and reused while their
//! fingerprints hold (command, compiler version, source hash; for the launcher, the llcoro binary's
//! hash too; `LLCORO_LIBS_REBUILD=1` rebuilds everything); concurrent runs wait for each other (a
//! lock on `libs/.lock`). Set `LLCORO_LIBS_FILTER=substring` to test only the programs whose name
//! contains it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::cache::{Cache, hash_bytes};
use common::checks::{Toolchain, check_lowered, kept_ir, llcoro_identity, presplit_text, through_launcher, toolchains};
use common::{Failure, Output, Recorder, code_lines, command_text, excerpt, first_difference};

const CLANG_VERSIONS: [u32; 2] = [19, 22];
const OPT_LEVELS: [&str; 2] = ["O0", "O2"];

/// Timeout for compilers, opt and llcoro.
const TOOL_TIMEOUT: Duration = Duration::from_secs(300);
/// Timeout for one run of a program.
const RUN_TIMEOUT: Duration = Duration::from_secs(30);
/// Worker threads, each running one tool at a time.
const WORKERS: usize = 2;

const OUTSIDE_FRAME: &str = "!coro.outside.frame";

/// The library a program uses beyond the standard library.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lib {
    None,
    /// Debian's standalone asio (libasio-dev).
    Asio,
    /// Boost.Asio (libboost1.81-dev).
    Boost,
}

impl Lib {
    /// Compiler flags the library needs.
    fn flags(self) -> &'static [&'static str] {
        match self {
            Lib::Asio => &["-DASIO_HAS_CO_AWAIT", "-DASIO_HAS_STD_COROUTINE"],
            Lib::None | Lib::Boost => &[],
        }
    }

    /// A header that shows the library is installed, and what to install otherwise.
    fn probe(self) -> Option<(&'static str, &'static str)> {
        match self {
            Lib::None => None,
            Lib::Asio => Some(("asio/version.hpp", "asio headers (<asio/version.hpp>, Debian package libasio-dev)")),
            Lib::Boost => Some((
                "boost/asio/version.hpp",
                "Boost.Asio headers (<boost/asio/version.hpp>, Debian package libboost1.81-dev)",
            )),
        }
    }
}

/// What a program needs, and what its presplit IR must show.
struct Spec {
    name: &'static str,
    lib: Lib,
    /// Its presplit IR must contain an alloca marked `!coro.outside.frame`.
    outside_frame: bool,
    /// Clang versions whose native build of it is wrong, with the reason: no check is made for
    /// them (the test prints the reason instead).
    broken_natively: &'static [(u32, &'static str)],
}

/// Every program in `tests/libs`; a `.cpp` there that is not listed is a failure.
const SPECS: [Spec; 7] = [
    Spec { name: "asio_channels", lib: Lib::Asio, outside_frame: false, broken_natively: &[] },
    Spec { name: "asio_experimental", lib: Lib::Asio, outside_frame: false, broken_natively: &[] },
    Spec { name: "asio_operators", lib: Lib::Asio, outside_frame: false, broken_natively: &[] },
    Spec { name: "asio_timers", lib: Lib::Asio, outside_frame: false, broken_natively: &[] },
    Spec { name: "boost_asio", lib: Lib::Boost, outside_frame: false, broken_natively: &[] },
    Spec { name: "task_lib", lib: Lib::None, outside_frame: true, broken_natively: &[] },
    Spec {
        name: "task_shared_gro",
        lib: Lib::None,
        outside_frame: true,
        broken_natively: &[(
            22,
            "clang 22.1 destroys the converted return object on a fresh copy of its alloca in the resumed coroutine \
             (llvm/llvm-project#193412): the native build crashes",
        )],
    },
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    /// Presplit IR, llcoro and the lowered build by hand, without debug info.
    Hand,
    /// `llcoro cc` with `-g`.
    Launcher,
}

/// The programs checked only through the launcher by default, and there at these (clang, level):
/// each level once, each clang once per program.
const LAUNCHER_ONLY: [(&str, [(u32, &str); 2]); 2] =
    [("asio_experimental", [(19, "O2"), (22, "O0")]), ("boost_asio", [(22, "O2"), (19, "O0")])];

/// Whether the default run (CI) has this check; `LLCORO_LIBS_ALL` runs every check.
///
/// Figures behind the choice (2-core machine, CPU time, nothing reused): an asio program by hand
/// costs about 10 s at -O0 and 20 s at -O2 (a native -O2 build of asio_operators alone takes about
/// 8 s); boost_asio through the launcher with -g about 28 s at -O0 and 40 s at -O2 (the native -O2
/// -g build 17 s, the launcher's compile as much again, `opt -O2` on its 13 to 30 MB of lowered IR
/// 3 to 8 s). The default run (23 checks) took 392 s of CPU time (the test binary's build
/// included), so about 3.3 minutes on two otherwise idle cores; it took 19 minutes of wall time at a
/// load average of 10 to 13 (other people's builds, and the whole matrix running beside it).
fn in_default_run(spec: &Spec, version: u32, level: &str, route: Route) -> bool {
    if let Some((_, chosen)) = LAUNCHER_ONLY.iter().find(|(name, _)| *name == spec.name) {
        return route == Route::Launcher && chosen.contains(&(version, level));
    }
    match (route, spec.lib) {
        (Route::Hand, Lib::None) => true,
        (Route::Hand, _) => (version, level) != (19, "O2"),
        (Route::Launcher, Lib::None) => level == "O2" || version == 22,
        (Route::Launcher, _) => false,
    }
}

struct Program {
    spec: &'static Spec,
    source: PathBuf,
    expected: Vec<u8>,
    hash: u64,
}

struct Check<'a> {
    program: &'a Program,
    tc: &'a Toolchain,
    opt_level: &'static str,
    route: Route,
}

impl Check<'_> {
    fn config(&self) -> String {
        let route = if self.route == Route::Launcher { "-g-cc" } else { "" };
        format!("clang-{}-{}{route}", self.tc.version, self.opt_level)
    }

    /// Flags of every compile from source: standard, level, debug info, library.
    fn flags(&self) -> Vec<&'static str> {
        let mut flags = vec!["-std=c++20", if self.opt_level == "O0" { "-O0" } else { "-O2" }, "-pthread"];
        if self.route == Route::Launcher {
            flags.push("-g");
        }
        flags.extend(self.program.spec.lib.flags());
        flags
    }
}

/// State shared by all checks.
struct Context {
    root: PathBuf,
    cache: Cache,
    /// Stands for the llcoro binary in the launcher's fingerprints.
    llcoro_hash: String,
    /// The launcher's `TMPDIR`.
    tmp: PathBuf,
}

/// Requires `actual` to have stdout `stdout` and exit status `status` (described as `what`).
fn compare(rec: &mut Recorder, step: &str, actual: &Output, what: &str, stdout: &[u8], status: &str) -> bool {
    let mut problems = Vec::new();
    if actual.status_text() != status {
        problems.push(format!("exit status: {} vs {what} {status}", actual.status_text()));
    }
    if actual.stdout != stdout {
        problems.push(format!(
            "stdout differs from {what}, {}",
            first_difference(stdout, &actual.stdout, ("expected", "actual"))
        ));
    }
    if problems.is_empty() {
        return true;
    }
    let err = excerpt(&actual.stderr);
    let err = if err.is_empty() { String::new() } else { format!("\n  stderr:\n{err}") };
    rec.add(step, format!("{}{err}", problems.join("\n  ")));
    false
}

/// Whether `clang++` finds `header` (a preprocessor run of a one-line file).
fn header_available(clangxx: &Path, header: &str) -> bool {
    let mut cmd = Command::new(clangxx);
    cmd.args(["-std=c++20", "-E", "-x", "c++", "-", "-o", "/dev/null"]);
    let source = format!("#include <{header}>\n");
    common::run_with(&mut cmd, Some(source.as_bytes()), TOOL_TIMEOUT).is_ok_and(|o| o.success())
}

fn programs(failures: &mut Vec<Failure>) -> Vec<Program> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/libs"));
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let filter = std::env::var("LLCORO_LIBS_FILTER").ok();
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    for name in &names {
        if !SPECS.iter().any(|s| s.name == name) {
            failures.push(Failure {
                program: name.clone(),
                config: "-".to_string(),
                step: "program list".to_string(),
                detail: format!("tests/libs/{name}.cpp is not listed in SPECS of {}", file!()),
            });
        }
    }
    let mut programs = Vec::new();
    for spec in &SPECS {
        if filter.as_deref().is_some_and(|f| !spec.name.contains(f)) {
            continue;
        }
        let source = dir.join(format!("{}.cpp", spec.name));
        let expected_path = dir.join(format!("{}.expected", spec.name));
        let text = fs::read(&source).unwrap_or_else(|e| panic!("cannot read {}: {e}", source.display()));
        let expected =
            fs::read(&expected_path).unwrap_or_else(|e| panic!("cannot read {}: {e}", expected_path.display()));
        programs.push(Program { spec, source, expected, hash: hash_bytes(&text) });
    }
    programs
}

/// The libraries whose headers are installed; a missing one follows the missing-tool policy.
fn libraries(toolchains: &[Toolchain], failures: &mut Vec<Failure>) -> Vec<Lib> {
    let mut found = vec![Lib::None];
    let Some(tc) = toolchains.first() else { return found };
    for lib in [Lib::Asio, Lib::Boost] {
        let Some((header, what)) = lib.probe() else { continue };
        if header_available(&tc.clangxx, header) {
            found.push(lib);
        } else if std::env::var_os("CI").is_some() {
            let detail = common::missing_failure(what);
            failures.push(Failure { program: "-".into(), config: header.into(), step: "tool lookup".into(), detail });
        } else {
            println!("{}", common::skip_notice(&format!("the programs that use {header}"), what));
        }
    }
    found
}

fn env_on(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

#[test]
fn libs() {
    let started = Instant::now();
    let mut failures: Vec<Failure> = Vec::new();
    // Held to the end: a second run waits for this one.
    let (root, _lock) = common::lock_scratch("libs");
    let toolchains = toolchains(&CLANG_VERSIONS, &mut failures);
    let libs = libraries(&toolchains, &mut failures);
    let all = env_on("LLCORO_LIBS_ALL") || std::env::var("LLCORO_MATRIX").is_ok_and(|v| v == "all");
    if !all {
        println!("libs: the default checks (LLCORO_LIBS_ALL=1 for every program in every configuration)");
    }
    let programs = programs(&mut failures);
    let mut checks = Vec::new();
    for program in programs.iter().filter(|p| libs.contains(&p.spec.lib)) {
        for tc in &toolchains {
            if let Some((_, why)) = program.spec.broken_natively.iter().find(|(v, _)| *v == tc.version) {
                println!("libs: {} clang-{}: not checked: {why}", program.spec.name, tc.version);
                continue;
            }
            for opt_level in OPT_LEVELS {
                for route in [Route::Hand, Route::Launcher] {
                    if all || in_default_run(program.spec, tc.version, opt_level, route) {
                        checks.push(Check { program, tc, opt_level, route });
                    }
                }
            }
        }
    }
    // The library checks at -O2 take longest: queue them first so that the workers finish together.
    checks.sort_by_key(|c| (c.program.spec.lib == Lib::None, c.opt_level != "O2", c.route == Route::Hand));

    let tmp = root.join("tmp");
    fs::create_dir_all(&tmp).unwrap_or_else(|e| panic!("cannot create {}: {e}", tmp.display()));
    let rebuild = env_on("LLCORO_LIBS_REBUILD");
    let ctx = Context { root, cache: Cache::new(rebuild), llcoro_hash: llcoro_identity(), tmp };
    let mut results = common::parallel_map(&checks, WORKERS, |check| {
        let t = Instant::now();
        let mut rec = Recorder::new(check.program.spec.name, &check.config());
        run_check(check, &ctx, &mut rec);
        (rec, t.elapsed())
    });
    results.sort_by(|(a, _), (b, _)| (&a.program, &a.config).cmp(&(&b.program, &b.config)));
    let mut passed = 0;
    let mut failed = failures.len();
    for (Recorder { program, config, failures: check_failures }, took) in results {
        let verdict = match check_failures.first() {
            None => "ok".to_string(),
            Some(f) => format!("FAILED at {}", f.step),
        };
        println!("libs: {program:<18} {config:<16} {verdict} ({:.1}s)", took.as_secs_f64());
        if check_failures.is_empty() {
            passed += 1;
        } else {
            failed += 1;
        }
        failures.extend(check_failures);
    }
    for f in &failures {
        eprintln!("FAIL {} [{}] {}\n  {}\n", f.program, f.config, f.step, f.detail);
    }
    if !failures.is_empty() {
        eprintln!("libs: files are kept in {}", ctx.root.display());
    }
    println!(
        "libs: {} checks of {} programs in {:.1}s with {WORKERS} workers",
        checks.len(),
        programs.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        panic!("libs: {failed} of {} checks failed", passed + failed);
    }
}

fn run_check(check: &Check, ctx: &Context, rec: &mut Recorder) {
    let p = check.program;
    let dir = ctx.root.join(check.config());
    if let Err(e) = fs::create_dir_all(&dir) {
        return rec.add("create directory", format!("{}: {e}", dir.display()));
    }
    let file = |ext: &str| dir.join(format!("{}.{ext}", p.spec.name));

    // The native build, the reference.
    let native = file("native");
    let mut cmd = Command::new(&check.tc.clangxx);
    cmd.args(check.flags()).arg(&p.source).arg("-o").arg(&native);
    if rec
        .ok("native build", ctx.cache.make(&mut cmd, &check.tc.clangxx_version, p.hash, &native, TOOL_TIMEOUT))
        .is_none()
    {
        return;
    }
    let lowered = match check.route {
        Route::Hand => by_hand(check, ctx, &file, rec),
        Route::Launcher => by_launcher(check, ctx, &file, rec),
    };
    let Some(lowered) = lowered else { return };

    // Runs: native against the expected output, lowered against native and expected.
    let Some(reference) = rec.ok("native run", common::run_with(&mut Command::new(&native), None, RUN_TIMEOUT)) else {
        return;
    };
    let native_ok = compare(rec, "native run vs expected", &reference, "expected", &p.expected, "exit status 0");
    let Some(actual) = rec.ok("lowered run", common::run_with(&mut Command::new(&lowered), None, RUN_TIMEOUT)) else {
        return;
    };
    let same =
        compare(rec, "lowered run vs native run", &actual, "native", &reference.stdout, &reference.status_text());
    // When native itself misses the expected output and lowered differs from native, say whether
    // lowered has the expected output (otherwise the comparison with native says everything).
    if !native_ok && !same {
        compare(rec, "lowered run vs expected", &actual, "expected", &p.expected, "exit status 0");
    }
}

/// Checks that presplit IR shows what the program is there for (a coroutine, and for the task
/// libraries an alloca outside the frame).
fn presplit_shows(check: &Check, path: &Path, rec: &mut Recorder) -> bool {
    let Some(text) = presplit_text(path, rec) else { return false };
    if check.program.spec.outside_frame
        && !code_lines(&text).any(|(_, l)| l.contains(" alloca ") && l.contains(OUTSIDE_FRAME))
    {
        rec.add("presplit IR", format!("{} has no alloca marked {OUTSIDE_FRAME}", path.display()));
        return false;
    }
    true
}

/// Presplit IR, llcoro and the lowered build by hand; returns the lowered program.
fn by_hand(check: &Check, ctx: &Context, file: &dyn Fn(&str) -> PathBuf, rec: &mut Recorder) -> Option<PathBuf> {
    let (p, tc) = (check.program, check.tc);
    let presplit = file("ll");
    let mut cmd = Command::new(&tc.clangxx);
    cmd.args(check.flags()).args(["-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"]);
    cmd.arg(&p.source).arg("-o").arg(&presplit);
    rec.ok("presplit IR", ctx.cache.make(&mut cmd, &tc.clangxx_version, p.hash, &presplit, TOOL_TIMEOUT))?;
    if !presplit_shows(check, &presplit, rec) {
        return None;
    }
    let lowered_ir = file("low.ll");
    let text = rec.ok("llcoro", common::run_llcoro(&presplit, &lowered_ir, &[], TOOL_TIMEOUT))?;
    for msg in common::leftovers(&text, &lowered_ir) {
        rec.add("lowered everything", msg);
    }
    let mut cmd = Command::new(&tc.opt);
    cmd.args(["-passes=verify", "-disable-output"]).arg(&lowered_ir);
    let line = command_text(&cmd);
    let verified = rec.ok("opt -passes=verify", common::run_tool(&mut cmd, TOOL_TIMEOUT))?;
    if !verified.stderr.is_empty() {
        rec.add("opt -passes=verify", format!("{line}\n  warnings:\n{}", excerpt(&verified.stderr)));
        return None;
    }
    let lowered = file("lowered");
    let mut cmd = Command::new(&tc.clangxx);
    cmd.arg(format!("-{}", check.opt_level)).arg(&lowered_ir).arg("-pthread").arg("-o").arg(&lowered);
    let input = hash_bytes(text.as_bytes());
    rec.ok("lowered build", ctx.cache.make(&mut cmd, &tc.clangxx_version, input, &lowered, TOOL_TIMEOUT))?;
    Some(lowered)
}

/// The compile and link through `llcoro cc`, and the IR it kept; returns the linked program.
fn by_launcher(check: &Check, ctx: &Context, file: &dyn Fn(&str) -> PathBuf, rec: &mut Recorder) -> Option<PathBuf> {
    let (p, tc) = (check.program, check.tc);
    let object = file("o");
    let mut compile = Command::new(&tc.clangxx);
    compile.args(check.flags()).arg("-c").arg(&p.source).arg("-o").arg(&object);
    let version = format!("{}\n{}", tc.clangxx_version, ctx.llcoro_hash);
    let mut cmd = through_launcher(&compile, &ctx.tmp);
    rec.ok("llcoro cc compile", ctx.cache.make(&mut cmd, &version, p.hash, &object, TOOL_TIMEOUT))?;
    let (presplit, lowered_ir) = kept_ir(&object);
    if !presplit_shows(check, &presplit, rec) {
        return None;
    }
    let text = fs::read_to_string(&lowered_ir)
        .map_err(|e| rec.add("llcoro cc compile", format!("LLCORO_KEEP_IR=1 kept no {}: {e}", lowered_ir.display())))
        .ok()?;
    check_lowered(&ctx.cache, (&tc.opt, &tc.opt_version), &lowered_ir, &text, rec, TOOL_TIMEOUT);
    let exe = file("cc");
    let mut link = Command::new(&tc.clangxx);
    link.arg(format!("-{}", check.opt_level)).arg("-g").arg(&object).arg("-pthread").arg("-o").arg(&exe);
    let mut cmd = through_launcher(&link, &ctx.tmp);
    let input = hash_bytes(text.as_bytes());
    rec.ok("llcoro cc link", ctx.cache.make(&mut cmd, &version, input, &exe, TOOL_TIMEOUT))?;
    Some(exe)
}
