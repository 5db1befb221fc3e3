//! End-to-end tests of coroutine lowering: the result must run, and what
//! cannot be lowered must be refused with a located diagnostic.
//!
//! * `doc_examples`: every `tests/docs/coro_*.ll` (the LLVM Coroutines
//!   document's examples, opaque pointers, each with a
//!   `; EXPECT-OUTPUT: ...` line: its stdout lines joined by single spaces).
//!   `llcoro FILE -o OUT` must exit 0; outside comments OUT contains no
//!   `llvm.coro.` and no `presplitcoroutine`; `opt-19 -passes=verify` accepts
//!   OUT; OUT run with `lli-19` and with `lli-22` (the lowered module has no
//!   coroutine intrinsic left, so LLVM 22 reads it too) exits 0 and prints
//!   EXPECT-OUTPUT. `coro_param.ll`'s expectation assumes every
//!   `llvm.coro.param` is `true`, which is what llcoro makes of it.
//! * `interop`: `tests/interop/lib.cpp` and `tests/interop/main.cpp` pass
//!   coroutine handles across the boundary in both directions (resume,
//!   destroy, done, promise access, symmetric transfer). For clang++-19 and
//!   clang++-22 at -O0 and -O2: (a) both compiled natively give the reference
//!   stdout and exit status; (b) lib.cpp lowered by llcoro
//!   (`-Xclang -disable-llvm-passes -emit-llvm -S`, llcoro, `clang++ -c`)
//!   linked with main.cpp compiled natively, and (c) the reverse, must give
//!   the same. The lowered IR must also pass `opt-N -passes=verify` and keep
//!   no coroutine intrinsic.
//! * `diagnostics`: every `tests/coro-errors/*.ll` starts with one or more
//!   lines `; FINDING: <error|warning> <code> <LINE>:<COL>`. Run from the
//!   repository root with the repository-relative path,
//!   `llcoro check FILE` must exit 1 and report each expected finding as
//!   `<severity>[<code>]` located at `FILE:LINE:COL`, with the source line, a
//!   caret line and `= help:`; it must not report a finding with any other
//!   code (more findings with an expected code are tolerated). A `; MESSAGE: <text>` line after
//!   a FINDING line names words the finding's rendered text must contain (its message, with the
//!   function and block it is in); no finding may name a block llcoro made (`%stackless.ret.N`)
//!   or be placed at 1:1 unless a FINDING says so. Then plain
//!   `llcoro FILE -o OUT`: with an expected error it exits 1, reports the
//!   expected errors and does not create OUT; with warnings only it exits 0,
//!   reports them and OUT gets the `doc_examples` checks (run with the file's
//!   own `; EXPECT-OUTPUT:` when it has one; the intrinsics a `; KEEPS:` line
//!   names may be left, as LLVM's passes leave them). Neither run may panic. Every
//!   such file is valid IR that `opt-19 -passes=verify` accepts, unless it
//!   has a line `; LLVM-VERIFY-REJECTS: <why>`. Finally `llcoro check` on
//!   every `tests/docs/coro_*.ll` (correct coroutines) exits 0 with empty
//!   stderr.
//!
//! Tools: `opt-19`, `lli-19`, `lli-22`, `clang++-19`, `clang++-22`, `opt-22`
//! (install them with `scripts/install-test-tools.sh`). A missing tool skips
//! the checks that need it with a printed note, unless the environment
//! variable `CI` is set, in which case it is a failure.
//!
//! Each test collects all its failures and panics at the end with all of
//! them. Scratch files are kept under `$CARGO_TARGET_TMPDIR/lowering/`.

use std::fmt::Display;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

/// Upper bound for one run of llcoro, a compiler, an LLVM tool or a test program.
mod common;

const TIMEOUT: Duration = Duration::from_secs(180);
const INSTALL_SCRIPT: &str = "scripts/install-test-tools.sh";
const LLCORO: &str = env!("CARGO_BIN_EXE_llcoro");

/// Marker of an unlowered coroutine.
const PRESPLIT: &str = "presplitcoroutine";

fn repo_root() -> PathBuf {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    fs::canonicalize(&root).unwrap_or(root)
}

/// A fresh scratch directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lowering").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// The files of `dir` whose name starts with `prefix` and ends with `.ll`, sorted.
fn ll_files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            name.starts_with(prefix) && name.ends_with(".ll")
        })
        .collect();
    files.sort();
    files
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

// ---------------------------------------------------------------------------
// Failure collection

#[derive(Default)]
struct Report {
    failures: Mutex<Vec<String>>,
    notes: Mutex<Vec<String>>,
}

impl Report {
    fn fail(&self, what: impl Display, detail: impl Display) {
        let detail = detail.to_string();
        let msg = if detail.is_empty() { what.to_string() } else { format!("{what}:\n{}", indent(&detail)) };
        self.failures.lock().unwrap().push(msg);
    }

    fn note(&self, msg: impl Into<String>) {
        let msg = msg.into();
        println!("note: {msg}");
        self.notes.lock().unwrap().push(msg);
    }

    /// Prints a summary and panics with every failure when there were any.
    fn finish(self, test: &str, checks: usize) {
        let failures = self.failures.into_inner().unwrap();
        let notes = self.notes.into_inner().unwrap();
        println!("{test}: {checks} checks, {} failures, {} notes", failures.len(), notes.len());
        if !failures.is_empty() {
            let mut msg = format!("{test}: {} failure(s):\n", failures.len());
            for (i, f) in failures.iter().enumerate() {
                msg.push_str(&format!("\n--- failure {} ---\n{}\n", i + 1, f.trim_end()));
            }
            eprintln!("{msg}");
            panic!("{test}: {} failure(s), see above", failures.len());
        }
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
}

/// At most 25 lines of `text`, for failure messages.
fn excerpt(text: &str) -> String {
    excerpt_lines(text, 25)
}

/// At most `max` lines of `text` (`(empty)` for none), for failure messages.
fn excerpt_lines(text: &str, max: usize) -> String {
    if text.trim().is_empty() {
        return "(empty)".to_string();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut s = lines.iter().take(max).copied().collect::<Vec<_>>().join("\n");
    if lines.len() > max {
        s.push_str(&format!("\n... ({} more lines)", lines.len() - max));
    }
    s
}

// ---------------------------------------------------------------------------
// Processes

struct Output {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: String,
}

impl Output {
    fn success(&self) -> bool {
        self.status.success()
    }

    fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    fn status_text(&self) -> String {
        match self.status.code() {
            Some(c) => format!("exit status {c}"),
            None => format!("{}", self.status),
        }
    }

    /// Status and stderr, for failure messages.
    fn describe(&self) -> String {
        let mut s = self.status_text();
        if !self.stderr.trim().is_empty() {
            s.push('\n');
            s.push_str(&excerpt(&self.stderr));
        }
        s
    }

    fn panicked(&self) -> bool {
        self.stderr.contains("panicked")
    }
}

/// Runs `cmd` (stdin closed), capturing stdout and stderr, killing it after `TIMEOUT`.
fn run(cmd: &mut Command) -> Result<Output, String> {
    let shown = format!("{cmd:?}");
    let o = common::run_with(cmd, None, TIMEOUT).map_err(|e| format!("{e}: {shown}"))?;
    match o.status {
        Some(status) => {
            Ok(Output { status, stdout: o.stdout, stderr: String::from_utf8_lossy(&o.stderr).into_owned() })
        }
        None => Err(format!("timed out after {}s: {shown}", TIMEOUT.as_secs())),
    }
}

/// Runs a command that must succeed; records a failure and returns None otherwise.
fn run_ok(report: &Report, step: impl Display, cmd: &mut Command) -> Option<Output> {
    match run(cmd) {
        Err(e) => {
            report.fail(step, e);
            None
        }
        Ok(o) if !o.success() => {
            report.fail(step, o.describe());
            None
        }
        Ok(o) => Some(o),
    }
}

/// Runs llcoro; it must exit 0 without panicking.
fn run_llcoro_ok(report: &Report, step: impl Display, cmd: &mut Command) -> Option<Output> {
    let step = step.to_string();
    let o = run_ok(report, &step, cmd)?;
    if o.panicked() {
        report.fail(&step, format!("exit 0 but panicked:\n{}", excerpt(&o.stderr)));
        return None;
    }
    Some(o)
}

// ---------------------------------------------------------------------------
// Tools

fn find_tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

/// The tool, or None: a failure under CI, a printed skip otherwise.
fn tool(report: &Report, name: &str, needed_for: &str) -> Option<PathBuf> {
    let found = find_tool(name);
    if found.is_none() {
        let msg = format!("{name} not found on PATH: skipping {needed_for} (install it with {INSTALL_SCRIPT})");
        if in_ci() {
            report.fail(format!("missing tool {name}"), format!("{msg}; CI is set, so this is a failure"));
        } else {
            report.note(msg);
        }
    }
    found
}

/// `opt-19` and the `lli`s that check and run a lowered module.
struct Runners {
    opt19: Option<PathBuf>,
    llis: Vec<(String, PathBuf)>,
}

impl Runners {
    fn find(report: &Report, needed_for: &str) -> Self {
        let opt19 = tool(report, "opt-19", &format!("verifying {needed_for}"));
        let llis = ["lli-19", "lli-22"]
            .iter()
            .filter_map(|n| tool(report, n, &format!("running {needed_for} with {n}")).map(|p| (n.to_string(), p)))
            .collect();
        Runners { opt19, llis }
    }
}

// ---------------------------------------------------------------------------
// Text helpers

/// The text after `; KEY:` on the first line that has it.
fn header_value(text: &str, key: &str) -> Option<String> {
    let prefix = format!("; {key}:");
    text.lines().find_map(|l| l.trim_start().strip_prefix(&prefix).map(|v| v.trim().to_string()))
}

/// stdout lines joined by single spaces (the form of `; EXPECT-OUTPUT:`).
fn joined_lines(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    text.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

/// The part of an IR line before its comment (a `;` outside a string literal).
fn code_part(line: &str) -> &str {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            ';' if !in_string => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Lines of a lowered module that still mention a coroutine intrinsic (other than those named in
/// `keeps`, which LLVM's passes leave too) or the presplit attribute outside comments.
fn leftover_markers(text: &str, keeps: &[&str]) -> Vec<String> {
    let kept = |code: &str| {
        code.match_indices("llvm.coro.").all(|(i, _)| {
            let name: String =
                code[i..].chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_')).collect();
            keeps.contains(&name.as_str())
        })
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let code = code_part(l);
            !kept(code) || code.contains(PRESPLIT)
        })
        .map(|(i, l)| format!("{}: {}", i + 1, l.trim()))
        .collect()
}

/// Where two outputs first differ, line by line.
fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let exp = String::from_utf8_lossy(expected);
    let act = String::from_utf8_lossy(actual);
    let (mut e, mut a) = (exp.lines(), act.lines());
    let mut line = 1;
    loop {
        match (e.next(), a.next()) {
            (None, None) => return "outputs differ only in line endings".into(),
            (x, y) if x == y => line += 1,
            (x, y) => {
                return format!(
                    "first difference at line {line}:\n  expected: {}\n  actual:   {}",
                    x.unwrap_or("<end of output>"),
                    y.unwrap_or("<end of output>")
                );
            }
        }
    }
}

/// The checks every lowered module gets: no coroutine markers left (but the intrinsics `keeps`
/// names), `opt-19` verifies it, and when `expected` is given each `lli` runs it to exit 0 printing
/// `expected`.
fn check_lowered(
    report: &Report,
    name: &str,
    lowered: &Path,
    expected: Option<&str>,
    keeps: &[&str],
    runners: &Runners,
) {
    let text = match fs::read_to_string(lowered) {
        Ok(t) => t,
        Err(e) => return report.fail(format!("{name}: read llcoro's output {}", lowered.display()), e),
    };
    let left = leftover_markers(&text, keeps);
    if !left.is_empty() {
        report.fail(
            format!("{name}: lowered output still has coroutine intrinsics or `{PRESPLIT}` outside comments"),
            excerpt(&left.join("\n")),
        );
    }
    if let Some(opt) = &runners.opt19 {
        run_ok(
            report,
            format!("{name}: opt-19 -passes=verify on the lowered output"),
            Command::new(opt).args(["-passes=verify", "-disable-output"]).arg(lowered),
        );
    }
    let Some(expected) = expected else { return };
    for (lli_name, lli) in &runners.llis {
        let step = format!("{name}: {lli_name} {}", lowered.display());
        match run(Command::new(lli).arg(lowered)) {
            Err(e) => report.fail(step, e),
            Ok(o) => {
                let got = joined_lines(&o.stdout);
                if !o.success() || got != expected {
                    report.fail(
                        step,
                        format!(
                            "expected output: {expected}\nactual output:   {got}\nstatus: {}\nstderr:\n{}",
                            o.status_text(),
                            excerpt_lines(&o.stderr, 6)
                        ),
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 1. Documentation examples

#[test]
fn doc_examples() {
    let root = repo_root();
    let scratch = scratch_dir("docs");
    let report = Report::default();
    let runners = Runners::find(&report, "the lowered documentation examples");
    let files = ll_files(&root.join("tests/docs"), "coro_");
    assert!(!files.is_empty(), "no tests/docs/coro_*.ll files");
    for input in &files {
        let name = format!("tests/docs/{}", file_name(input));
        let text = fs::read_to_string(input).unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
        let Some(expected) = header_value(&text, "EXPECT-OUTPUT") else {
            report.fail(format!("{name}: no `; EXPECT-OUTPUT:` line"), "");
            continue;
        };
        let out = scratch.join(file_name(input));
        let _ = fs::remove_file(&out);
        // coro_param.ll's EXPECT-OUTPUT assumes every llvm.coro.param is true (frame copies are
        // made and destroyed), which is what llcoro replaces it with.
        if run_llcoro_ok(
            &report,
            format!("{name}: llcoro {name} -o {}", out.display()),
            Command::new(LLCORO).arg(input).arg("-o").arg(&out),
        )
        .is_some()
        {
            check_lowered(&report, &name, &out, Some(&expected), &[], &runners);
        }
    }
    report.finish("doc_examples", files.len());
}

// ---------------------------------------------------------------------------
// 2. Interop: handles crossing between llcoro-lowered and LLVM-lowered code

struct InteropConfig {
    version: u32,
    opt_level: &'static str,
    clang: PathBuf,
    opt: PathBuf,
}

#[test]
fn interop() {
    let root = repo_root();
    let scratch = scratch_dir("interop");
    let report = Report::default();
    let mut configs = Vec::new();
    for version in [19, 22] {
        let what = format!("the clang-{version} interop builds");
        let clang = tool(&report, &format!("clang++-{version}"), &what);
        let opt = tool(&report, &format!("opt-{version}"), &what);
        if let (Some(clang), Some(opt)) = (clang, opt) {
            for opt_level in ["0", "2"] {
                configs.push(InteropConfig { version, opt_level, clang: clang.clone(), opt: opt.clone() });
            }
        }
    }
    let src = root.join("tests/interop");
    thread::scope(|s| {
        for cfg in &configs {
            let (report, src, scratch) = (&report, &src, &scratch);
            s.spawn(move || interop_config(cfg, src, scratch, report));
        }
    });
    report.finish("interop", configs.len() * 3);
}

fn interop_config(cfg: &InteropConfig, src: &Path, scratch: &Path, report: &Report) {
    let label = format!("interop clang++-{} -O{}", cfg.version, cfg.opt_level);
    let dir = scratch.join(format!("clang{}-O{}", cfg.version, cfg.opt_level));
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let opt_flag = format!("-O{}", cfg.opt_level);
    let cxx = |args: &[&std::ffi::OsStr]| {
        let mut c = Command::new(&cfg.clang);
        c.args(["-std=c++20", opt_flag.as_str(), "-w"]).args(args);
        c
    };
    let object = |side: &str| dir.join(format!("{side}.native.o"));

    // (a) Native reference.
    for side in ["lib", "main"] {
        let source = src.join(format!("{side}.cpp"));
        let obj = object(side);
        run_ok(
            report,
            format!("{label}: compile {side}.cpp natively"),
            &mut cxx(&["-c".as_ref(), source.as_os_str(), "-o".as_ref(), obj.as_os_str()]),
        );
    }
    if !object("lib").is_file() || !object("main").is_file() {
        return;
    }
    let native = dir.join("native");
    let _ = fs::remove_file(&native);
    if run_ok(
        report,
        format!("{label}: link the native program"),
        Command::new(&cfg.clang).arg(object("lib")).arg(object("main")).arg("-o").arg(&native),
    )
    .is_none()
    {
        return;
    }
    let reference = match run(&mut Command::new(&native)) {
        Err(e) => return report.fail(format!("{label}: run the native program"), e),
        Ok(o) if o.status.code().is_none() || o.stdout.is_empty() => {
            return report.fail(format!("{label}: run the native program (the reference)"), o.describe());
        }
        Ok(o) => o,
    };

    // (b) lib lowered by llcoro + main native, (c) main lowered + lib native.
    for (side, other) in [("lib", "main"), ("main", "lib")] {
        let what = format!("{label} ({side}.cpp lowered by llcoro, {other}.cpp native)");
        let source = src.join(format!("{side}.cpp"));
        let presplit = dir.join(format!("{side}.presplit.ll"));
        let lowered = dir.join(format!("{side}.lowered.ll"));
        let lowered_obj = dir.join(format!("{side}.lowered.o"));
        let exe = dir.join(format!("mixed-{side}-lowered"));
        for p in [&presplit, &lowered, &lowered_obj, &exe] {
            let _ = fs::remove_file(p);
        }
        let emit = [
            "-Xclang".as_ref(),
            "-disable-llvm-passes".as_ref(),
            "-emit-llvm".as_ref(),
            "-S".as_ref(),
            source.as_os_str(),
            "-o".as_ref(),
            presplit.as_os_str(),
        ];
        if run_ok(report, format!("{what}: emit presplit IR"), &mut cxx(&emit)).is_none() {
            continue;
        }
        if !fs::read_to_string(&presplit).is_ok_and(|t| t.contains(PRESPLIT)) {
            report.fail(format!("{what}: {} has no `{PRESPLIT}` function", presplit.display()), "");
            continue;
        }
        if run_llcoro_ok(
            report,
            format!("{what}: llcoro {} -o {}", presplit.display(), lowered.display()),
            Command::new(LLCORO).arg(&presplit).arg("-o").arg(&lowered),
        )
        .is_none()
        {
            continue;
        }
        if let Ok(text) = fs::read_to_string(&lowered) {
            let left = leftover_markers(&text, &[]);
            if !left.is_empty() {
                report.fail(format!("{what}: lowered IR still has coroutine markers"), excerpt(&left.join("\n")));
            }
        }
        run_ok(
            report,
            format!("{what}: opt-{} -passes=verify {}", cfg.version, lowered.display()),
            Command::new(&cfg.opt).args(["-passes=verify", "-disable-output"]).arg(&lowered),
        );
        // IR input: no -std, only the optimization level.
        if run_ok(
            report,
            format!("{what}: compile the lowered IR"),
            Command::new(&cfg.clang).args([opt_flag.as_str(), "-c"]).arg(&lowered).arg("-o").arg(&lowered_obj),
        )
        .is_none()
        {
            continue;
        }
        if run_ok(
            report,
            format!("{what}: link"),
            Command::new(&cfg.clang).arg(&lowered_obj).arg(object(other)).arg("-o").arg(&exe),
        )
        .is_none()
        {
            continue;
        }
        match run(&mut Command::new(&exe)) {
            Err(e) => report.fail(format!("{what}: run"), e),
            Ok(o) => {
                if o.stdout != reference.stdout {
                    report.fail(
                        format!("{what}: stdout differs from the native build's"),
                        format!(
                            "{}\nstatus {} (native {})\nstderr:\n{}",
                            first_difference(&reference.stdout, &o.stdout),
                            o.status_text(),
                            reference.status_text(),
                            excerpt(&o.stderr)
                        ),
                    );
                } else if o.status.code() != reference.status.code() {
                    report.fail(
                        format!("{what}: exit status differs from the native build's"),
                        format!(
                            "{} (native {})\nstderr:\n{}",
                            o.status_text(),
                            reference.status_text(),
                            excerpt(&o.stderr)
                        ),
                    );
                }
            }
        }
    }
    println!(
        "{label}: reference {} with {} lines of output",
        reference.status_text(),
        reference.stdout_text().lines().count()
    );
}

// ---------------------------------------------------------------------------
// 3. Diagnostics

/// One finding: expected (from a `; FINDING:` line) or reported (parsed from stderr).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Finding {
    severity: String,
    code: String,
    line: u32,
    col: u32,
    /// Words the rendered finding must contain (`; MESSAGE:` lines).
    words: Vec<String>,
}

impl Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}[{}] at {}:{}", self.severity, self.code, self.line, self.col)
    }
}

/// The `; FINDING:` lines at the top of a file: the first line must be one.
fn expected_findings(text: &str) -> Result<Vec<Finding>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(words) = line.strip_prefix("; MESSAGE:") {
            let last: Option<&mut Finding> = out.last_mut();
            last.ok_or_else(|| format!("line {}: a MESSAGE line before any FINDING line", i + 1))?
                .words
                .push(words.trim().to_string());
            continue;
        }
        let Some(rest) = line.strip_prefix("; FINDING:") else {
            if i == 0 {
                return Err(format!("the first line is not `; FINDING: <severity> <code> <LINE>:<COL>`: {line:?}"));
            }
            break;
        };
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let bad = || format!("malformed FINDING line {}: {line:?}", i + 1);
        let [severity, code, at] = parts.as_slice() else { return Err(bad()) };
        if *severity != "error" && *severity != "warning" {
            return Err(bad());
        }
        let (l, c) = at.split_once(':').ok_or_else(bad)?;
        out.push(Finding {
            severity: severity.to_string(),
            code: code.to_string(),
            line: l.parse().map_err(|_| bad())?,
            col: c.parse().map_err(|_| bad())?,
            words: Vec::new(),
        });
    }
    Ok(out)
}

/// One rendered diagnostic in llcoro's stderr.
struct Rendered {
    severity: String,
    code: String,
    /// `path:line:col` from the `┌─` line.
    location: Option<(String, u32, u32)>,
    has_caret: bool,
    has_help: bool,
    text: String,
}

/// Splits stderr into rendered diagnostics (each starts with `error[` or `warning[`).
fn rendered_findings(stderr: &str) -> Vec<Rendered> {
    let mut out: Vec<Rendered> = Vec::new();
    for line in stderr.lines() {
        let head = ["error", "warning"].iter().find_map(|sev| {
            let rest = line.strip_prefix(sev)?.strip_prefix('[')?;
            let (code, _) = rest.split_once("]:")?;
            Some((sev.to_string(), code.to_string()))
        });
        if let Some((severity, code)) = head {
            out.push(Rendered {
                severity,
                code,
                location: None,
                has_caret: false,
                has_help: false,
                text: String::new(),
            });
        }
        let Some(cur) = out.last_mut() else { continue };
        cur.text.push_str(line);
        cur.text.push('\n');
        if let Some((_, loc)) = line.split_once("┌─ ")
            && cur.location.is_none()
        {
            let mut it = loc.trim().rsplitn(3, ':');
            if let (Some(c), Some(l), Some(path)) = (it.next(), it.next(), it.next())
                && let (Ok(l), Ok(c)) = (l.parse(), c.parse())
            {
                cur.location = Some((path.to_string(), l, c));
            }
        }
        if line.split_once('│').is_some_and(|(_, r)| r.trim_start().starts_with('^')) {
            cur.has_caret = true;
        }
        if line.trim_start().starts_with("= help:") {
            cur.has_help = true;
        }
    }
    out
}

/// Checks that `stderr` reports every finding of `wanted` at `rel` with its source line, caret and
/// help; returns the rendered diagnostics.
fn check_reported(report: &Report, step: &str, rel: &str, stderr: &str, wanted: &[&Finding]) -> Vec<Rendered> {
    let rendered = rendered_findings(stderr);
    for w in wanted {
        let tag = format!("{}[{}]", w.severity, w.code);
        let at = format!("{rel}:{}:{}", w.line, w.col);
        let hit = rendered.iter().find(|r| {
            r.severity == w.severity && r.code == w.code && r.location == Some((rel.to_string(), w.line, w.col))
        });
        match hit {
            None => {
                let same_code: Vec<String> = rendered
                    .iter()
                    .filter(|r| r.code == w.code)
                    .map(|r| match &r.location {
                        Some((p, l, c)) => format!("{}[{}] at {p}:{l}:{c}", r.severity, r.code),
                        None => format!("{}[{}] without a location", r.severity, r.code),
                    })
                    .collect();
                let why = if same_code.is_empty() {
                    format!("`{tag}` is not reported at all")
                } else {
                    format!("`{tag}` is reported, but not at {at}: {}", same_code.join(", "))
                };
                report
                    .fail(format!("{step}: expected `{tag}` at {at}"), format!("{why}\nstderr:\n{}", excerpt(stderr)));
            }
            Some(r) => {
                let mut missing = Vec::new();
                if !r.text.contains(&at) {
                    missing.push(format!("`{at}`"));
                }
                if !r.has_caret {
                    missing.push("a caret line".to_string());
                }
                if !r.has_help {
                    missing.push("`= help:`".to_string());
                }
                missing.extend(w.words.iter().filter(|x| !r.text.contains(x.as_str())).map(|x| format!("{x:?}")));
                if !missing.is_empty() {
                    report.fail(format!("{step}: `{tag}` at {at} is missing {}", missing.join(", ")), excerpt(&r.text));
                }
            }
        }
    }
    rendered
}

#[test]
fn diagnostics() {
    let root = repo_root();
    let scratch = scratch_dir("diagnostics");
    let report = Report::default();
    let runners = Runners::find(&report, "the diagnostics inputs");
    let files = ll_files(&root.join("tests/coro-errors"), "");
    assert!(!files.is_empty(), "no tests/coro-errors/*.ll files");
    let mut checks = 0;
    for input in &files {
        checks += 1;
        let rel = format!("tests/coro-errors/{}", file_name(input));
        let text = fs::read_to_string(input).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
        let expected = match expected_findings(&text) {
            Ok(f) => f,
            Err(e) => {
                report.fail(format!("{rel}: header"), e);
                continue;
            }
        };
        let errors: Vec<&Finding> = expected.iter().filter(|f| f.severity == "error").collect();
        let warnings: Vec<&Finding> = expected.iter().filter(|f| f.severity == "warning").collect();

        // The input is valid IR, just a wrong coroutine.
        if let Some(opt) = &runners.opt19 {
            let rejects = header_value(&text, "LLVM-VERIFY-REJECTS");
            match run(Command::new(opt).args(["-passes=verify", "-disable-output"]).arg(input)) {
                Err(e) => report.fail(format!("{rel}: opt-19 -passes=verify"), e),
                Ok(o) if rejects.is_none() && !o.success() => {
                    report.fail(format!("{rel}: opt-19 -passes=verify rejects the input"), o.describe())
                }
                Ok(o) if rejects.is_some() && o.success() => report.fail(
                    format!("{rel}: opt-19 -passes=verify accepts the input"),
                    "the file says `; LLVM-VERIFY-REJECTS:`",
                ),
                Ok(_) => {}
            }
        }

        // llcoro check FILE
        let step = format!("llcoro check {rel}");
        match run(Command::new(LLCORO).current_dir(&root).args(["check", rel.as_str()])) {
            Err(e) => report.fail(&step, e),
            Ok(o) => {
                if o.panicked() {
                    report.fail(format!("{step}: panicked"), excerpt(&o.stderr));
                }
                let want_status = if expected.is_empty() { 0 } else { 1 };
                if o.status.code() != Some(want_status) {
                    report.fail(
                        format!("{step}: expected exit status {want_status}, got {}", o.status_text()),
                        excerpt(&o.stderr),
                    );
                }
                let all: Vec<&Finding> = expected.iter().collect();
                let rendered = check_reported(&report, &step, &rel, &o.stderr, &all);
                let unexpected: Vec<String> = rendered
                    .iter()
                    .filter(|r| !expected.iter().any(|e| e.code == r.code && e.severity == r.severity))
                    .map(|r| excerpt(&r.text))
                    .collect();
                if !unexpected.is_empty() {
                    report.fail(format!("{step}: unexpected findings"), unexpected.join("\n"));
                }
                // Located in the input as the user wrote it: never at a block llcoro made, nor at
                // the start of the file for want of a place.
                let misplaced: Vec<String> = rendered
                    .iter()
                    .filter(|r| {
                        r.text.contains("%stackless.ret.")
                            || (r.location.as_ref().is_some_and(|(_, l, c)| (*l, *c) == (1, 1))
                                && !expected.iter().any(|e| (e.line, e.col) == (1, 1)))
                    })
                    .map(|r| excerpt(&r.text))
                    .collect();
                if !misplaced.is_empty() {
                    report.fail(format!("{step}: a finding not placed in the input's own terms"), misplaced.join("\n"));
                }
            }
        }

        // llcoro FILE -o OUT
        let out = scratch.join(file_name(input));
        let _ = fs::remove_file(&out);
        let step = format!("llcoro {rel} -o {}", out.display());
        let o = match run(Command::new(LLCORO).current_dir(&root).arg(&rel).arg("-o").arg(&out)) {
            Err(e) => {
                report.fail(&step, e);
                continue;
            }
            Ok(o) => o,
        };
        if o.panicked() {
            report.fail(format!("{step}: panicked"), excerpt(&o.stderr));
        }
        if !errors.is_empty() {
            if o.status.code() != Some(1) {
                report.fail(format!("{step}: expected exit status 1, got {}", o.status_text()), excerpt(&o.stderr));
            }
            if out.exists() {
                report.fail(format!("{step}: an error is expected, but {} was written", out.display()), "");
            }
            check_reported(&report, &step, &rel, &o.stderr, &errors);
        } else {
            if !o.success() {
                report.fail(format!("{step}: only warnings are expected, but it failed"), o.describe());
                continue;
            }
            check_reported(&report, &step, &rel, &o.stderr, &warnings);
            let expect_output = header_value(&text, "EXPECT-OUTPUT");
            let keeps = header_value(&text, "KEEPS").unwrap_or_default();
            let keeps: Vec<&str> = keeps.split_whitespace().collect();
            check_lowered(&report, &rel, &out, expect_output.as_deref(), &keeps, &runners);
        }
    }

    // Correct coroutines: no findings at all.
    for input in ll_files(&root.join("tests/docs"), "coro_") {
        checks += 1;
        let rel = format!("tests/docs/{}", file_name(&input));
        let step = format!("llcoro check {rel} (a correct coroutine)");
        match run(Command::new(LLCORO).current_dir(&root).args(["check", rel.as_str()])) {
            Err(e) => report.fail(&step, e),
            Ok(o) if !o.success() || !o.stderr.is_empty() => {
                report.fail(format!("{step}: expected exit 0 and empty stderr"), o.describe())
            }
            Ok(_) => {}
        }
    }
    report.finish("diagnostics", checks);
}
