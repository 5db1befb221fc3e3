//! Corpus round-trip test.
//!
//! Compiles every program in `tests/corpus/src` (C, C++, C++20 coroutines and
//! Rust) to textual LLVM IR with several compilers and configurations, then
//! checks for every produced `.ll` file that
//!
//! 1. `llcoro --parse-all IN -o OUT` succeeds, `opt-N -passes=verify` accepts
//!    OUT, and `llvm-diff-N IN OUT` reports no difference (for the few files
//!    where llvm-diff reports differences even between IN and itself, the
//!    `opt-N -S` printings of IN and OUT must be identical instead);
//! 2. plain `llcoro IN -o OUT` succeeds; when IN contains no
//!    `presplitcoroutine` function OUT is byte-identical to IN, otherwise OUT
//!    contains no `llvm.coro.` and no `presplitcoroutine`, and
//!    (the lowered module) must pass `opt-N -passes=verify`.
//!
//! N is the LLVM major version that produced IN (see the rustc part below
//! for Rust sources). In addition one file goes through stdin/stdout
//! (`llcoro < IN > OUT`, `llcoro - -o -`, `llcoro --parse-all - -o -`).
//!
//! All failures are collected and reported together at the end. llcoro's
//! outputs (`<name>.parse-all.ll`, `<name>.plain.ll`) are kept next to the
//! input only for files that failed.
//!
//! Tools: `clang-N`, `clang++-N`, `opt-N` and `llvm-diff-N` for N in 19 and
//! 22 (install them with `scripts/install-test-tools.sh`), and `rustc` (the
//! one on PATH, or `$RUSTC`). A missing tool skips that LLVM version's part,
//! unless the environment variable `CI` is set, in which case it is a failure.
//!
//! Compiled `.ll` files are cached under
//! `$CARGO_TARGET_TMPDIR/corpus/<tool>-<config>/<name>.ll` together with a
//! `.fingerprint` file (command line, compiler version, source hash); set
//! `LLCORO_CORPUS_REBUILD=1` to recompile everything.
//!
//! Set `LLCORO_CORPUS_FILTER=substring` to only test sources whose file name
//! contains the substring.

use std::collections::HashSet;
use std::collections::hash_map::DefaultHasher;
use std::ffi::OsString;
use std::fs;
use std::hash::{Hash, Hasher};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The clang/LLVM major versions the corpus is compiled with.
mod common;
use common::{Output, excerpt, find_tool};

const CLANG_VERSIONS: [u32; 2] = [19, 22];

/// Timeout for any single external process (compiler, opt, llvm-diff, llcoro).
const PROCESS_TIMEOUT: Duration = Duration::from_secs(180);

/// Marker of an unlowered coroutine in clang's output.
const PRESPLIT: &[u8] = b"presplitcoroutine";

const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

// ---------------------------------------------------------------------------
// Failure collection
// ---------------------------------------------------------------------------

#[derive(Debug)]
struct Failure {
    file: String,
    step: String,
    detail: String,
}

#[derive(Default)]
struct Failures(Mutex<Vec<Failure>>);

impl Failures {
    fn add(&self, file: impl Into<String>, step: impl Into<String>, detail: impl Into<String>) {
        self.0.lock().unwrap().push(Failure { file: file.into(), step: step.into(), detail: detail.into() });
    }
    fn any_for(&self, file: &str) -> bool {
        self.0.lock().unwrap().iter().any(|f| f.file == file)
    }
    fn take(self) -> Vec<Failure> {
        self.0.into_inner().unwrap()
    }
}

// ---------------------------------------------------------------------------
// Process helpers
// ---------------------------------------------------------------------------

/// Runs a command with optional stdin bytes, killing it after `PROCESS_TIMEOUT`.
fn run(cmd: &mut Command, stdin: Option<&[u8]>) -> Result<Output, String> {
    common::run_with(cmd, stdin, PROCESS_TIMEOUT)
}

fn command_line(program: &Path, args: &[OsString]) -> String {
    let mut s = program.display().to_string();
    for a in args {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// First line of `tool --version` (or `-vV` for rustc); used in fingerprints.
fn tool_version(tool: &Path, flag: &str) -> String {
    match run(Command::new(tool).arg(flag), None) {
        Ok(o) if o.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => String::new(),
    }
}

fn worker_count() -> usize {
    thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 4)
}

/// Runs `f` over all items on the harness's workers.
fn parallel_for_each<T: Sync>(items: &[T], f: impl Fn(&T) + Sync) {
    common::parallel_map(items, worker_count(), f);
}

// ---------------------------------------------------------------------------
// Corpus description
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lang {
    C,
    Cxx,
    Rust,
}

struct Source {
    path: PathBuf,
    stem: String,
    lang: Lang,
    hash: u64,
}

/// The LLVM toolchain used to verify and diff one group of files.
#[derive(Clone)]
struct Checker {
    opt: PathBuf,
    llvm_diff: PathBuf,
}

/// One compiler invocation producing one `.ll` file.
struct CompileJob {
    src_name: String,
    compiler: PathBuf,
    args: Vec<OsString>,
    out: PathBuf,
    fingerprint: String,
    checker: Checker,
}

/// One `.ll` file to check.
struct CheckItem {
    input: PathBuf,
    checker: Checker,
}

fn corpus_sources() -> Vec<Source> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/src");
    let filter = std::env::var("LLCORO_CORPUS_FILTER").ok();
    let mut sources = Vec::new();
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read corpus dir {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        let lang = match path.extension().and_then(|e| e.to_str()) {
            Some("c") => Lang::C,
            Some("cpp" | "cc" | "cxx") => Lang::Cxx,
            Some("rs") => Lang::Rust,
            _ => continue,
        };
        let file_name = path.file_name().unwrap().to_string_lossy().into_owned();
        if filter.as_deref().is_some_and(|f| !file_name.contains(f)) {
            continue;
        }
        let bytes = fs::read(&path).unwrap();
        let mut h = DefaultHasher::new();
        bytes.hash(&mut h);
        sources.push(Source {
            stem: path.file_stem().unwrap().to_string_lossy().into_owned(),
            path,
            lang,
            hash: h.finish(),
        });
    }
    sources.sort_by(|a, b| a.path.cmp(&b.path));
    let mut stems = HashSet::new();
    for s in &sources {
        assert!(stems.insert(s.stem.clone()), "duplicate corpus source name {}", s.stem);
    }
    assert!(!sources.is_empty() || filter.is_some(), "no corpus sources found in {}", dir.display());
    sources
}

/// Parses the LLVM major version out of `rustc -vV` output.
fn rustc_llvm_major(version_text: &str) -> Option<u32> {
    version_text
        .lines()
        .find_map(|l| l.strip_prefix("LLVM version:"))
        .and_then(|v| v.trim().split('.').next())
        .and_then(|m| m.parse().ok())
}

/// Checks that all named tools are on PATH. A missing tool is recorded as a
/// failure under CI and printed as a skip notice otherwise; returns whether
/// all tools were found.
fn check_tools(names: &[String], what: &str, failures: &Failures) -> bool {
    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    common::tools(&names, what).unwrap_or_else(|e| {
        failures.add(what, "tool lookup", e);
        false
    })
}

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

#[test]
fn corpus() {
    let started = Instant::now();
    let rebuild = std::env::var_os("LLCORO_CORPUS_REBUILD").is_some_and(|v| v != "0" && !v.is_empty());
    let failures = Failures::default();
    let sources = corpus_sources();
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus");
    fs::create_dir_all(&root).unwrap();

    let mut jobs: Vec<CompileJob> = Vec::new();

    // --- clang / clang++ ---------------------------------------------------
    // 2 optimization levels x (with/without -g) x (with/without
    // -disable-llvm-passes) = 8 configurations per compiler. The -g
    // configurations also keep value names (-fno-discard-value-names), so the
    // corpus contains both named and numbered values.
    let c_like: Vec<&Source> = sources.iter().filter(|s| s.lang != Lang::Rust).collect();
    for n in CLANG_VERSIONS {
        if c_like.is_empty() {
            break;
        }
        let names: Vec<String> = ["clang", "clang++", "opt", "llvm-diff"].iter().map(|t| format!("{t}-{n}")).collect();
        if !check_tools(&names, &format!("LLVM {n}"), &failures) {
            continue;
        }
        let clang = find_tool(&names[0]).unwrap();
        let clangxx = find_tool(&names[1]).unwrap();
        let checker = Checker { opt: find_tool(&names[2]).unwrap(), llvm_diff: find_tool(&names[3]).unwrap() };
        let version = tool_version(&clang, "--version");
        for opt_level in ["O0", "O2"] {
            for debug in [false, true] {
                for no_passes in [false, true] {
                    let mut config = format!("clang-{n}-{opt_level}");
                    if debug {
                        config.push_str("-g");
                    }
                    if no_passes {
                        config.push_str("-nopasses");
                    }
                    let dir = root.join(&config);
                    fs::create_dir_all(&dir).unwrap();
                    for src in &c_like {
                        let out = dir.join(format!("{}.ll", src.stem));
                        let mut args: Vec<OsString> = vec![
                            "-S".into(),
                            "-emit-llvm".into(),
                            format!("-{opt_level}").into(),
                            if src.lang == Lang::C { "-std=gnu17" } else { "-std=c++20" }.into(),
                        ];
                        if debug {
                            args.push("-g".into());
                            args.push("-fno-discard-value-names".into());
                        }
                        if no_passes {
                            args.push("-Xclang".into());
                            args.push("-disable-llvm-passes".into());
                        }
                        args.push("-o".into());
                        args.push(out.clone().into());
                        args.push(src.path.clone().into());
                        let compiler = if src.lang == Lang::C { &clang } else { &clangxx };
                        jobs.push(CompileJob {
                            src_name: src.path.file_name().unwrap().to_string_lossy().into_owned(),
                            fingerprint: format!(
                                "{}\n{version}\nsource hash {:016x}\n",
                                command_line(compiler, &args),
                                src.hash
                            ),
                            compiler: compiler.clone(),
                            args,
                            out,
                            checker: checker.clone(),
                        });
                    }
                }
            }
        }
    }

    // --- rustc ---------------------------------------------------------------
    // rustc's IR is checked with opt/llvm-diff of rustc's own LLVM major
    // version when `opt-<major>` is installed; otherwise we fall back to the
    // nearest of 19/22 that is >= it (newer LLVM readers accept older IR,
    // not the other way round). If rustc's LLVM is newer than 22 and no
    // matching opt exists, the Rust part is skipped (or fails under CI).
    let rust: Vec<&Source> = sources.iter().filter(|s| s.lang == Lang::Rust).collect();
    if !rust.is_empty() {
        let rustc_name = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
        if check_tools(std::slice::from_ref(&rustc_name), "Rust corpus", &failures) {
            let rustc = find_tool(&rustc_name).unwrap();
            let version = tool_version(&rustc, "-vV");
            match rustc_llvm_major(&version) {
                None => failures.add(
                    "rustc",
                    "rustc -vV",
                    format!("cannot find 'LLVM version:' in rustc -vV output:\n{version}"),
                ),
                Some(major) => {
                    let exact = [format!("opt-{major}"), format!("llvm-diff-{major}")];
                    let n = if exact.iter().all(|t| find_tool(t).is_some()) {
                        Some(major)
                    } else {
                        CLANG_VERSIONS.iter().copied().find(|&v| v >= major)
                    };
                    let names = match n {
                        Some(n) => vec![format!("opt-{n}"), format!("llvm-diff-{n}")],
                        None => exact.to_vec(),
                    };
                    let what = format!("Rust corpus (rustc LLVM {major})");
                    if check_tools(&names, &what, &failures) {
                        let checker =
                            Checker { opt: find_tool(&names[0]).unwrap(), llvm_diff: find_tool(&names[1]).unwrap() };
                        for opt_level in ["0", "2"] {
                            for debug in [false, true] {
                                let mut config = format!("rustc-O{opt_level}");
                                if debug {
                                    config.push_str("-g");
                                }
                                let dir = root.join(&config);
                                fs::create_dir_all(&dir).unwrap();
                                for src in &rust {
                                    let out = dir.join(format!("{}.ll", src.stem));
                                    let mut args: Vec<OsString> = vec![
                                        "--edition=2021".into(),
                                        "--crate-type=lib".into(),
                                        "--emit=llvm-ir".into(),
                                        "-C".into(),
                                        format!("opt-level={opt_level}").into(),
                                        // One CGU so that exactly one .ll is produced.
                                        "-C".into(),
                                        "codegen-units=1".into(),
                                    ];
                                    if debug {
                                        args.push("-g".into());
                                    }
                                    args.push("-o".into());
                                    args.push(out.clone().into());
                                    args.push(src.path.clone().into());
                                    jobs.push(CompileJob {
                                        src_name: src.path.file_name().unwrap().to_string_lossy().into_owned(),
                                        fingerprint: format!(
                                            "{}\n{version}\nsource hash {:016x}\n",
                                            command_line(&rustc, &args),
                                            src.hash
                                        ),
                                        compiler: rustc.clone(),
                                        args,
                                        out,
                                        checker: checker.clone(),
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // --- compile -------------------------------------------------------------
    let compile_start = Instant::now();
    let produced: Mutex<Vec<CheckItem>> = Mutex::new(Vec::new());
    let compiled = AtomicUsize::new(0);
    parallel_for_each(&jobs, |job| {
        let stamp = job.out.with_extension("fingerprint");
        let cached = !rebuild && job.out.is_file() && fs::read_to_string(&stamp).is_ok_and(|s| s == job.fingerprint);
        if !cached {
            let _ = fs::remove_file(&stamp);
            let step = format!("compile: {}", command_line(&job.compiler, &job.args));
            match run(Command::new(&job.compiler).args(&job.args), None) {
                Err(e) => {
                    failures.add(&job.src_name, step, e);
                    return;
                }
                Ok(o) if !o.success() || !job.out.is_file() => {
                    failures.add(&job.src_name, step, o.describe());
                    return;
                }
                Ok(_) => {
                    fs::write(&stamp, &job.fingerprint).unwrap();
                    compiled.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        produced.lock().unwrap().push(CheckItem { input: job.out.clone(), checker: job.checker.clone() });
    });
    let mut items = produced.into_inner().unwrap();
    items.sort_by(|a, b| a.input.cmp(&b.input));
    println!(
        "corpus: compiled {} of {} .ll files ({} cached) in {:.1}s with {} workers",
        compiled.load(Ordering::Relaxed),
        jobs.len(),
        items.len() - compiled.load(Ordering::Relaxed),
        compile_start.elapsed().as_secs_f64(),
        worker_count()
    );

    // --- check ---------------------------------------------------------------
    let check_start = Instant::now();
    if let Some(item) = items.iter().find(|i| fs::read(&i.input).is_ok_and(|b| !contains(&b, PRESPLIT))) {
        check_stdio(item, &failures);
    }
    parallel_for_each(&items, |item| {
        check_file(item, &failures);
        // Keep llcoro's outputs only for files that failed (for debugging).
        if !failures.any_for(&display_name(&item.input)) {
            let _ = fs::remove_file(item.input.with_extension("parse-all.ll"));
            let _ = fs::remove_file(item.input.with_extension("plain.ll"));
        }
    });
    println!("corpus: checked {} files in {:.1}s", items.len(), check_start.elapsed().as_secs_f64());

    // --- report --------------------------------------------------------------
    let mut failures = failures.take();
    failures.sort_by(|a, b| (&a.file, &a.step).cmp(&(&b.file, &b.step)));
    let mut report = String::new();
    for f in &failures {
        report.push_str(&format!("FAIL {} [{}]\n{}\n\n", f.file, f.step, f.detail));
    }
    let mut failed_files: Vec<&str> = failures.iter().map(|f| f.file.as_str()).collect();
    failed_files.dedup();
    let summary = format!(
        "corpus: {} files, {} failures ({} failing files/tools) in {:.1}s",
        items.len(),
        failures.len(),
        failed_files.len(),
        started.elapsed().as_secs_f64()
    );
    if !failures.is_empty() {
        eprintln!("{report}");
        eprintln!("{summary}");
        panic!("{summary}");
    }
    println!("{summary}");
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Checks one `.ll` file: --parse-all round trip and plain mode.
fn check_file(item: &CheckItem, failures: &Failures) {
    let input = &item.input;
    let name = display_name(input);
    let Ok(original) = fs::read(input) else {
        failures.add(&name, "read input", "cannot read compiled file");
        return;
    };
    let presplit = contains(&original, PRESPLIT);

    // (a) --parse-all: parse every function into SSA IR and print it back.
    let parsed = input.with_extension("parse-all.ll");
    let _ = fs::remove_file(&parsed);
    if run_llcoro(
        &name,
        "llcoro --parse-all",
        Command::new(LLCORO).arg("--parse-all").arg(input).arg("-o").arg(&parsed),
        failures,
    ) && run_ok(
        &name,
        "opt -passes=verify (--parse-all output)",
        Command::new(&item.checker.opt).args(["-passes=verify", "-disable-output"]).arg(&parsed),
        failures,
    ) {
        compare_modules(item, &name, &parsed, failures);
    }

    // (b) plain mode: byte-identical unless there is something to lower.
    let plain = input.with_extension("plain.ll");
    let _ = fs::remove_file(&plain);
    if run_llcoro(&name, "llcoro (plain)", Command::new(LLCORO).arg(input).arg("-o").arg(&plain), failures) {
        if presplit {
            run_ok(
                &name,
                "opt -passes=verify (lowered output)",
                Command::new(&item.checker.opt).args(["-passes=verify", "-disable-output"]).arg(&plain),
                failures,
            );
            // Lowered: no coroutine intrinsic and no presplit attribute may be left.
            match fs::read(&plain) {
                Ok(out) => {
                    for needle in [&b"llvm.coro."[..], PRESPLIT] {
                        if out.windows(needle.len()).any(|w| w == needle) {
                            failures.add(
                                &name,
                                "llcoro (plain) lowers everything",
                                format!("output still contains `{}`", String::from_utf8_lossy(needle)),
                            );
                        }
                    }
                }
                Err(e) => failures.add(&name, "llcoro (plain) lowers everything", format!("no output file: {e}")),
            }
        } else {
            match fs::read(&plain) {
                Ok(out) if out == original => {}
                Ok(out) => failures.add(&name, "llcoro (plain) byte-identical", first_difference(&original, &out)),
                Err(e) => failures.add(&name, "llcoro (plain) byte-identical", format!("no output file: {e}")),
            }
        }
    }
}

/// `llvm-diff-N IN OUT` must report no difference (exit 0, empty stderr).
///
/// llvm-diff has false positives: some modules differ from themselves, e.g.
/// functions whose block addresses are stored in tables
/// (llvm/llvm-project#60993). When `llvm-diff IN IN` is not clean either, we
/// instead require LLVM's own printing of both modules (`opt-N -S`, which
/// renumbers values, metadata and attribute groups canonically) to be
/// identical apart from the `; ModuleID` line.
fn compare_modules(item: &CheckItem, name: &str, output: &Path, failures: &Failures) {
    const STEP: &str = "llvm-diff IN --parse-all-OUT";
    let diff = |a: &Path, b: &Path| run(Command::new(&item.checker.llvm_diff).arg(a).arg(b), None);
    let clean = |o: &Output| o.success() && o.stderr.is_empty();
    let o = match diff(&item.input, output) {
        Err(e) => return failures.add(name, STEP, e),
        Ok(o) if clean(&o) => return,
        Ok(o) => o,
    };
    match diff(&item.input, &item.input) {
        Ok(self_diff) if !clean(&self_diff) => {}
        _ => return failures.add(name, STEP, o.describe()),
    }
    let step = "opt -S IN == opt -S --parse-all-OUT (llvm-diff is unreliable on this file)";
    let print = |p: &Path| -> Result<Vec<u8>, String> {
        let o = run(Command::new(&item.checker.opt).arg("-S").arg(p).args(["-o", "-"]), None)?;
        if !o.success() {
            return Err(format!("opt -S {}: {}", p.display(), o.describe()));
        }
        // Drop the "; ModuleID = '<file name>'" line.
        let text = o.stdout;
        Ok(match text.strip_prefix(b"; ModuleID") {
            Some(rest) => rest.iter().position(|&b| b == b'\n').map_or(Vec::new(), |i| rest[i + 1..].to_vec()),
            None => text,
        })
    };
    match (print(&item.input), print(output)) {
        (Err(e), _) | (_, Err(e)) => failures.add(name, step, e),
        (Ok(a), Ok(b)) if a != b => {
            failures.add(name, step, format!("{}\n  llvm-diff said:\n{}", first_difference(&a, &b), excerpt(&o.stderr)))
        }
        _ => {}
    }
}

/// stdin/stdout handling, checked on one file without coroutines.
fn check_stdio(item: &CheckItem, failures: &Failures) {
    let name = display_name(&item.input);
    let original = fs::read(&item.input).unwrap();
    let cases: [(&str, &[&str]); 2] = [("llcoro < IN > OUT", &[]), ("llcoro - -o -", &["-", "-o", "-"])];
    for (step, args) in cases {
        match run(Command::new(LLCORO).args(args), Some(&original)) {
            Err(e) => failures.add(&name, step, e),
            Ok(o) if !o.success() => failures.add(&name, step, o.describe()),
            Ok(o) if o.stdout != original => failures.add(&name, step, first_difference(&original, &o.stdout)),
            Ok(_) => {}
        }
    }
    // --parse-all reading stdin must print the same as when reading the file.
    let step = "llcoro --parse-all - -o - (vs. --parse-all IN -o -)";
    let from_file = match run(Command::new(LLCORO).arg("--parse-all").arg(&item.input).args(["-o", "-"]), None) {
        Ok(o) if o.success() => o.stdout,
        Ok(o) => return failures.add(&name, "llcoro --parse-all IN -o -", o.describe()),
        Err(e) => return failures.add(&name, "llcoro --parse-all IN -o -", e),
    };
    match run(Command::new(LLCORO).args(["--parse-all", "-", "-o", "-"]), Some(&original)) {
        Err(e) => failures.add(&name, step, e),
        Ok(o) if !o.success() => failures.add(&name, step, o.describe()),
        Ok(o) if o.stdout != from_file => failures.add(&name, step, first_difference(&from_file, &o.stdout)),
        Ok(_) => {}
    }
}

/// Runs llcoro; success = exit 0 and no panic message.
fn run_llcoro(name: &str, step: &str, cmd: &mut Command, failures: &Failures) -> bool {
    match run(cmd, None) {
        Err(e) => {
            failures.add(name, step, e);
            false
        }
        Ok(o) if !o.success() => {
            failures.add(name, step, o.describe());
            false
        }
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("panicked") => {
            failures.add(name, step, format!("exit 0 but panicked:\n{}", excerpt(&o.stderr)));
            false
        }
        Ok(_) => true,
    }
}

fn run_ok(name: &str, step: &str, cmd: &mut Command, failures: &Failures) -> bool {
    match run(cmd, None) {
        Err(e) => {
            failures.add(name, step, e);
            false
        }
        // opt only warns about broken debug info ("ignoring invalid debug info") and strips it;
        // for us that is a failure too, so any diagnostic output counts.
        Ok(o) if !o.success() || !o.stderr.is_empty() => {
            failures.add(name, step, o.describe());
            false
        }
        Ok(_) => true,
    }
}

/// `<config>/<name>.ll`, relative to the corpus output root.
fn display_name(p: &Path) -> String {
    let dir = p.parent().and_then(|d| d.file_name()).map(|d| d.to_string_lossy().into_owned());
    let file = p.file_name().unwrap().to_string_lossy();
    match dir {
        Some(d) => format!("{d}/{file}"),
        None => file.into_owned(),
    }
}

/// Describes where two byte strings first differ (line number and lines).
fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let exp = String::from_utf8_lossy(expected);
    let act = String::from_utf8_lossy(actual);
    let mut e_lines = exp.split_inclusive('\n');
    let mut a_lines = act.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (e_lines.next(), a_lines.next()) {
            (None, None) => {
                return format!(
                    "outputs differ in bytes but not lines (lengths {} vs {})",
                    expected.len(),
                    actual.len()
                );
            }
            (e, a) if e == a => line += 1,
            (e, a) => {
                let show = |l: Option<&str>| match l {
                    Some(l) => format!("{:?}", l.chars().take(200).collect::<String>()),
                    None => "<end of file>".to_string(),
                };
                return format!(
                    "first difference at line {line} (expected {} bytes, got {}):\n    expected: {}\n    actual:   {}",
                    expected.len(),
                    actual.len(),
                    show(e),
                    show(a)
                );
            }
        }
    }
}
