//! Runs the `llcoro` binary over the IR corpus under `tests/` at the
//! repository root and cross-checks its output with LLVM's own tools.
//!
//! * `tests/typed/*.ll`  typed-pointer (LLVM 14) modules, checked with
//!   `opt-14` and `llvm-diff-14`.
//! * `tests/docs/*.ll`   opaque-pointer versions of the Coroutines doc
//!   examples, checked with LLVM 19 and LLVM 22.
//! * `tests/edge/*.ll`   lexer/parser stress modules, LLVM 19 and LLVM 22.
//! * `tests/errors/*.ll` malformed inputs whose first line is
//!   `; ERROR-AT: LINE:COL` (1-based, columns count bytes): refused at that
//!   place with `--parse-all`, and also when lowered if the file has a
//!   coroutine, never as an internal error.
//!
//! For every valid file and every LLVM version that accepts the *input*:
//! `llcoro --parse-all IN -o OUT` must succeed, `opt-N -passes=verify`
//! must accept OUT and `llvm-diff-N IN OUT` must find no difference. A file
//! without a coroutine marker (`presplitcoroutine` or
//! `"coroutine.presplit"`) has nothing to lower, so plain `llcoro` must
//! write it back byte for byte (checked both file-to-file and
//! stdin-to-stdout). Files with coroutines only get the `--parse-all`
//! check for now.
//!
//! `llvm-diff` cannot judge some valid modules: `llvm-diff-14` reports phi
//! nodes with back-edge operands as different even when a file is compared
//! with itself. When `llvm-diff-N IN IN` itself reports a difference, the
//! comparison falls back to the canonical text `opt-N -S` prints for IN and
//! for OUT.
//!
//! Missing LLVM tools: when the environment variable `CI` is set, a missing
//! tool is a failure that names the tool and `scripts/install-test-tools.sh`;
//! otherwise the checks needing it are skipped with a printed note.
//!
//! Every test collects all its failures and reports them together.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::Mutex;

use std::time::Duration;

/// Upper bound for one run of llcoro or of an LLVM tool.
mod common;

const TIMEOUT: Duration = Duration::from_secs(120);
const INSTALL_SCRIPT: &str = "scripts/install-test-tools.sh";

fn repo_root() -> PathBuf {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    // Canonical only to keep messages short; the raw path works as well.
    fs::canonicalize(&root).unwrap_or(root)
}

fn llcoro() -> &'static str {
    env!("CARGO_BIN_EXE_llcoro")
}

/// A fresh scratch directory for one test function.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ir_files").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

// ---------------------------------------------------------------------------
// Failure collection

#[derive(Default)]
struct Report {
    failures: Vec<String>,
    notes: Vec<String>,
    checked: usize,
}

impl Report {
    fn fail(&mut self, msg: impl Into<String>) {
        self.failures.push(msg.into());
    }

    fn note(&mut self, msg: impl Into<String>) {
        let msg = msg.into();
        println!("note: {msg}");
        self.notes.push(msg);
    }

    /// Prints a summary and panics with every failure when there were any.
    fn finish(self, what: &str) {
        println!("{what}: {} checks, {} failures, {} notes", self.checked, self.failures.len(), self.notes.len());
        if !self.failures.is_empty() {
            let mut msg = format!("{what}: {} failure(s):\n", self.failures.len());
            for (i, f) in self.failures.iter().enumerate() {
                msg.push_str(&format!("\n--- failure {} ---\n{}\n", i + 1, f.trim_end()));
            }
            panic!("{msg}");
        }
    }
}

// ---------------------------------------------------------------------------
// Running processes (with a timeout, and stdin fed from a thread)

struct Run {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: String,
}

impl Run {
    fn ok(&self) -> bool {
        self.status.success()
    }
}

fn run(mut cmd: Command, stdin: Option<Vec<u8>>) -> Result<Run, String> {
    let shown = format!("{cmd:?}");
    let o = common::run_with(&mut cmd, stdin.as_deref(), TIMEOUT).map_err(|e| format!("{e}: {shown}"))?;
    match o.status {
        Some(status) => Ok(Run { status, stdout: o.stdout, stderr: String::from_utf8_lossy(&o.stderr).into_owned() }),
        None => Err(format!("timed out after {TIMEOUT:?}: {shown}")),
    }
}

fn cmd<I, S>(program: impl AsRef<OsStr>, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut c = Command::new(program);
    c.args(args);
    c
}

/// At most `max` lines of `text`, for failure messages.
fn excerpt(text: &str, max: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut s = lines.iter().take(max).copied().collect::<Vec<_>>().join("\n");
    if lines.len() > max {
        s.push_str(&format!("\n... ({} more lines)", lines.len() - max));
    }
    s
}

// ---------------------------------------------------------------------------
// LLVM tools

fn find_tool(name: &str, version: u32) -> Option<PathBuf> {
    let versioned = format!("{name}-{version}");
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(&versioned);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    let fallback = PathBuf::from(format!("/usr/lib/llvm-{version}/bin/{name}"));
    fallback.is_file().then_some(fallback)
}

/// `opt-N` and `llvm-diff-N` of one LLVM version.
struct Llvm {
    version: u32,
    opt: PathBuf,
    diff: PathBuf,
    /// Whether `llvm-diff-N FILE FILE` reports no difference, per input.
    self_diff_ok: Mutex<HashMap<PathBuf, bool>>,
}

impl Llvm {
    /// The tools of `version`, or `None` after recording a failure (in CI)
    /// or a note (elsewhere) for each missing tool.
    fn find(version: u32, report: &mut Report) -> Option<Llvm> {
        let mut missing = Vec::new();
        let opt = find_tool("opt", version);
        if opt.is_none() {
            missing.push(format!("opt-{version}"));
        }
        let diff = find_tool("llvm-diff", version);
        if diff.is_none() {
            missing.push(format!("llvm-diff-{version}"));
        }
        for tool in &missing {
            if in_ci() {
                report.fail(format!(
                    "required tool `{tool}` was not found on PATH (CI is set); \
                     install it with {INSTALL_SCRIPT}"
                ));
            } else {
                report.note(format!(
                    "`{tool}` not found on PATH: skipping the LLVM {version} checks \
                     (run {INSTALL_SCRIPT} to install it)"
                ));
            }
        }
        Some(Llvm { version, opt: opt?, diff: diff?, self_diff_ok: Mutex::new(HashMap::new()) })
    }

    /// `Ok(())` when opt-N verifies `file`, else opt's diagnostics.
    fn verify(&self, file: &Path) -> Result<(), String> {
        let r =
            run(cmd(&self.opt, [OsStr::new("-passes=verify"), OsStr::new("-disable-output"), file.as_os_str()]), None)?;
        if r.ok() { Ok(()) } else { Err(excerpt(&r.stderr, 15)) }
    }

    fn llvm_diff(&self, a: &Path, b: &Path) -> Result<Run, String> {
        run(cmd(&self.diff, [a.as_os_str(), b.as_os_str()]), None)
    }

    /// The module as `opt-N -S` prints it, read from stdin so that the
    /// module identifier does not depend on the file name.
    fn canonical(&self, file: &Path) -> Result<Vec<u8>, String> {
        let data = fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let r = run(cmd(&self.opt, ["-S", "-o", "-"]), Some(data))?;
        if r.ok() {
            Ok(r.stdout)
        } else {
            Err(format!("opt-{} -S failed on {}:\n{}", self.version, file.display(), excerpt(&r.stderr, 10)))
        }
    }

    fn can_self_diff(&self, input: &Path) -> Result<bool, String> {
        if let Some(&ok) = self.self_diff_ok.lock().unwrap().get(input) {
            return Ok(ok);
        }
        let ok = self.llvm_diff(input, input)?.ok();
        self.self_diff_ok.lock().unwrap().insert(input.to_path_buf(), ok);
        Ok(ok)
    }

    /// `Ok(None)` when `output` is equivalent to `input`; `Ok(Some(note))`
    /// when it is, but only by the canonical-text fallback; `Err` with the
    /// differences otherwise.
    fn equivalent(&self, input: &Path, output: &Path) -> Result<Option<String>, String> {
        let d = self.llvm_diff(input, output)?;
        if d.ok() {
            return Ok(None);
        }
        if self.can_self_diff(input)? {
            return Err(format!(
                "llvm-diff-{} {} {} reports differences:\n{}",
                self.version,
                input.display(),
                output.display(),
                excerpt(&d.stderr, 40)
            ));
        }
        // llvm-diff cannot even match the input against itself.
        let a = self.canonical(input)?;
        let b = self.canonical(output)?;
        if a == b {
            Ok(Some(format!(
                "llvm-diff-{} cannot compare {} with itself; the canonical `opt-{} -S` texts of input and output are equal",
                self.version,
                input.display(),
                self.version
            )))
        } else {
            Err(format!(
                "llvm-diff-{v} cannot compare {} with itself, and the canonical `opt-{v} -S` texts of input and output differ:\n{}",
                input.display(),
                first_difference(&a, &b),
                v = self.version
            ))
        }
    }
}

/// A short description of the first differing line of two texts.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let a = String::from_utf8_lossy(a);
    let b = String::from_utf8_lossy(b);
    let (al, bl): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    for i in 0..al.len().max(bl.len()) {
        let (x, y) = (al.get(i).copied(), bl.get(i).copied());
        if x != y {
            return format!(
                "first difference at line {}:\n  input:  {}\n  output: {}",
                i + 1,
                x.unwrap_or("<end of text>"),
                y.unwrap_or("<end of text>")
            );
        }
    }
    "texts differ only in line endings".to_string()
}

// ---------------------------------------------------------------------------
// The corpus

fn ll_files(dir: &str, report: &mut Report) -> Vec<PathBuf> {
    let path = repo_root().join("tests").join(dir);
    let mut files: Vec<PathBuf> = match fs::read_dir(&path) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ll"))
            .collect(),
        Err(e) => {
            report.fail(format!("cannot read {}: {e}", path.display()));
            return Vec::new();
        }
    };
    files.sort();
    if files.is_empty() {
        report.fail(format!("no .ll files in {}", path.display()));
    }
    files
}

fn has_coroutine(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    text.contains("presplitcoroutine") || text.contains("\"coroutine.presplit\"")
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn panicked(stderr: &str) -> bool {
    stderr.contains("panicked")
}

// ---------------------------------------------------------------------------
// Valid files

/// The checks for one valid file against one LLVM version.
fn check_valid_file(input: &Path, llvm: &Llvm, scratch: &Path, report: &mut Report) {
    let v = llvm.version;
    let name = input.display();
    match llvm.verify(input) {
        Ok(()) => {}
        Err(why) => {
            report.note(format!("skipping {name} for LLVM {v}: opt-{v} rejects the input:\n{}", excerpt(&why, 3)));
            return;
        }
    }
    report.checked += 1;
    let input_bytes = match fs::read(input) {
        Ok(b) => b,
        Err(e) => return report.fail(format!("cannot read {name}: {e}")),
    };

    // --parse-all: the module printed from the SSA IR must verify and be
    // equivalent to the input.
    let out = scratch.join(format!("{}.parse-all.{v}.ll", stem(input)));
    let _ = fs::remove_file(&out);
    let r = match run(
        cmd(llcoro(), [OsStr::new("--parse-all"), input.as_os_str(), OsStr::new("-o"), out.as_os_str()]),
        None,
    ) {
        Ok(r) => r,
        Err(e) => return report.fail(e),
    };
    if !r.ok() || panicked(&r.stderr) {
        report.fail(format!(
            "llcoro --parse-all {name} -o {} exited with {}:\n{}",
            out.display(),
            r.status,
            excerpt(&r.stderr, 20)
        ));
    } else if !out.is_file() {
        report.fail(format!("llcoro --parse-all {name} succeeded but did not create {}", out.display()));
    } else if let Err(why) = llvm.verify(&out) {
        report.fail(format!("opt-{v} rejects the output of llcoro --parse-all {name} ({}):\n{why}", out.display()));
    } else {
        match llvm.equivalent(input, &out) {
            Ok(None) => {}
            Ok(Some(note)) => report.note(note),
            Err(why) => report.fail(format!("llcoro --parse-all {name} changed the module:\n{why}")),
        }
    }

    // Plain mode. Only files with nothing to lower are checked for now.
    if has_coroutine(&input_bytes) {
        return;
    }
    let plain = scratch.join(format!("{}.plain.{v}.ll", stem(input)));
    let _ = fs::remove_file(&plain);
    match run(cmd(llcoro(), [input.as_os_str(), OsStr::new("-o"), plain.as_os_str()]), None) {
        Err(e) => report.fail(e),
        Ok(r) if !r.ok() || panicked(&r.stderr) => report.fail(format!(
            "llcoro {name} -o {} exited with {}:\n{}",
            plain.display(),
            r.status,
            excerpt(&r.stderr, 20)
        )),
        Ok(_) => match fs::read(&plain) {
            Ok(bytes) if bytes == input_bytes => {}
            Ok(bytes) => report.fail(format!(
                "llcoro {name} (nothing to lower) is not byte-identical to its input ({} vs {} bytes); {}",
                bytes.len(),
                input_bytes.len(),
                first_difference(&input_bytes, &bytes)
            )),
            Err(e) => report.fail(format!("llcoro {name} -o {}: cannot read output: {e}", plain.display())),
        },
    }
    // The same through stdin and stdout (`-` for the input, no -o).
    match run(cmd(llcoro(), ["-"]), Some(input_bytes.clone())) {
        Err(e) => report.fail(e),
        Ok(r) if !r.ok() || panicked(&r.stderr) => {
            report.fail(format!("llcoro - < {name} exited with {}:\n{}", r.status, excerpt(&r.stderr, 20)))
        }
        Ok(r) if r.stdout != input_bytes => report.fail(format!(
            "llcoro - < {name} (nothing to lower) does not write its input back byte for byte; {}",
            first_difference(&input_bytes, &r.stdout)
        )),
        Ok(_) => {}
    }
}

fn check_valid_dir(dir: &str, versions: &[u32]) {
    let mut report = Report::default();
    let files = ll_files(dir, &mut report);
    let scratch = scratch_dir(dir);
    let tools: Vec<Llvm> = versions.iter().filter_map(|&v| Llvm::find(v, &mut report)).collect();
    for llvm in &tools {
        for file in &files {
            check_valid_file(file, llvm, &scratch, &mut report);
        }
    }
    report.finish(&format!("tests/{dir}"));
}

#[test]
fn typed_pointer_files() {
    check_valid_dir("typed", &[14]);
}

#[test]
fn doc_example_files() {
    check_valid_dir("docs", &[19, 22]);
}

#[test]
fn edge_case_files() {
    check_valid_dir("edge", &[19, 22]);
}

// ---------------------------------------------------------------------------
// Error files

/// `(line, column)` from a first line `; ERROR-AT: LINE:COL`.
fn error_at(text: &[u8]) -> Option<(u32, u32)> {
    let text = String::from_utf8_lossy(text);
    let first = text.lines().next()?.trim_end_matches('\r');
    let spec = first.strip_prefix(';')?.trim().strip_prefix("ERROR-AT:")?.trim();
    let (line, col) = spec.split_once(':')?;
    Some((line.trim().parse().ok()?, col.trim().parse().ok()?))
}

/// Problems with one failing run of llcoro on an error file.
fn error_run_problems(r: &Run, arg: &str, line: u32, col: u32) -> Vec<String> {
    let mut problems = Vec::new();
    if r.status.code() != Some(1) {
        problems.push(format!("exit status is {} (expected 1)", r.status));
    }
    if panicked(&r.stderr) {
        problems.push("stderr contains `panicked`".to_string());
    }
    if !r.stderr.to_lowercase().contains("error") {
        problems.push("stderr does not contain `error`".to_string());
    }
    let location = format!("{arg}:{line}:{col}");
    if !r.stderr.contains(&location) {
        problems.push(format!("stderr does not contain `{location}`"));
    }
    if !r.stderr.lines().any(|l| l.contains('^')) {
        problems.push("stderr has no line with a caret `^`".to_string());
    }
    // Bad input is the input's error, never reported as one of llcoro's own.
    if r.stderr.contains("bug in llcoro") {
        problems.push("stderr calls the input's error a bug in llcoro".to_string());
    }
    problems
}

#[test]
fn error_files() {
    let mut report = Report::default();
    let root = repo_root();
    let files = ll_files("errors", &mut report);
    let scratch = scratch_dir("errors");
    for file in &files {
        let text = match fs::read(file) {
            Ok(t) => t,
            Err(e) => {
                report.fail(format!("cannot read {}: {e}", file.display()));
                continue;
            }
        };
        let Some((line, col)) = error_at(&text) else {
            report.fail(format!("{}: first line is not `; ERROR-AT: LINE:COL`", file.display()));
            continue;
        };
        report.checked += 1;
        // The path exactly as passed on the command line, relative to the
        // repository root (the child's working directory).
        let arg = format!("tests/errors/{}", file.file_name().unwrap().to_string_lossy());

        // 1. The output file must not be created.
        let out = scratch.join(format!("{}.out.ll", stem(file)));
        let _ = fs::remove_file(&out);
        let mut c = cmd(llcoro(), [OsStr::new("--parse-all"), OsStr::new(&arg), OsStr::new("-o"), out.as_os_str()]);
        c.current_dir(&root);
        match run(c, None) {
            Err(e) => report.fail(e),
            Ok(r) => {
                let mut problems = error_run_problems(&r, &arg, line, col);
                if out.exists() {
                    problems.push(format!("the output file {} was created", out.display()));
                }
                if !problems.is_empty() {
                    report.fail(format!(
                        "llcoro --parse-all {arg} -o OUT (error expected at {line}:{col}):\n  - {}\nstderr:\n{}",
                        problems.join("\n  - "),
                        excerpt(&r.stderr, 25)
                    ));
                }
            }
        }

        // 1b. A file with a coroutine is also lowered (not only parsed), with the same error.
        if String::from_utf8_lossy(&text).contains("presplitcoroutine") {
            let _ = fs::remove_file(&out);
            let mut c = cmd(llcoro(), [OsStr::new(&arg), OsStr::new("-o"), out.as_os_str()]);
            c.current_dir(&root);
            match run(c, None) {
                Err(e) => report.fail(e),
                Ok(r) => {
                    let mut problems = error_run_problems(&r, &arg, line, col);
                    if out.exists() {
                        problems.push(format!("the output file {} was created", out.display()));
                    }
                    if !problems.is_empty() {
                        report.fail(format!(
                            "llcoro {arg} -o OUT (error expected at {line}:{col}):\n  - {}\nstderr:\n{}",
                            problems.join("\n  - "),
                            excerpt(&r.stderr, 25)
                        ));
                    }
                }
            }
        }

        // 2. An existing output file must be left unchanged.
        let existing = scratch.join(format!("{}.existing.ll", stem(file)));
        let sentinel = format!("; sentinel for {arg}\nthis content must survive the failed run\n");
        if let Err(e) = fs::write(&existing, &sentinel) {
            report.fail(format!("cannot write {}: {e}", existing.display()));
            continue;
        }
        let mut c =
            cmd(llcoro(), [OsStr::new("--parse-all"), OsStr::new(&arg), OsStr::new("-o"), existing.as_os_str()]);
        c.current_dir(&root);
        match run(c, None) {
            Err(e) => report.fail(e),
            Ok(r) => {
                let mut problems = Vec::new();
                if r.status.code() != Some(1) {
                    problems.push(format!("exit status is {} (expected 1)", r.status));
                }
                if panicked(&r.stderr) {
                    problems.push("stderr contains `panicked`".to_string());
                }
                match fs::read_to_string(&existing) {
                    Ok(now) if now == sentinel => {}
                    Ok(now) => problems.push(format!(
                        "the existing output file was changed ({} bytes before, {} after)",
                        sentinel.len(),
                        now.len()
                    )),
                    Err(e) => problems.push(format!("the existing output file is gone or unreadable: {e}")),
                }
                if !problems.is_empty() {
                    report.fail(format!(
                        "llcoro --parse-all {arg} -o EXISTING:\n  - {}\nstderr:\n{}",
                        problems.join("\n  - "),
                        excerpt(&r.stderr, 25)
                    ));
                }
            }
        }
    }
    report.finish("tests/errors");
}

/// `-o` naming a pipe (or a device such as /dev/null) writes into it: renaming a temporary file over
/// it would replace the device or pipe with a regular file.
#[test]
fn output_to_a_pipe_writes_into_the_pipe() {
    let dir = scratch_dir("pipe");
    let fifo = dir.join("out.fifo");
    let _ = fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", fifo.display());
    let input = repo_root().join("tests/docs/coro_print_loop.ll");
    // The reader waits on the pipe; if llcoro replaced it, nothing ever arrives, hence the timeout.
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let fifo = fifo.clone();
        std::thread::spawn(move || tx.send(fs::read_to_string(&fifo)));
    }
    let status = Command::new(llcoro()).arg(&input).arg("-o").arg(&fifo).status();
    assert!(status.is_ok_and(|s| s.success()), "llcoro -o FIFO failed");
    let text = match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(Ok(t)) => t,
        other => panic!("nothing came through the pipe: {other:?}"),
    };
    assert!(
        text.contains("define internal fastcc void @f.resume("),
        "the lowered module came through the pipe: {text}"
    );
    let still_fifo = fs::symlink_metadata(&fifo).map(|m| std::os::unix::fs::FileTypeExt::is_fifo(&m.file_type()));
    assert_eq!(still_fifo.ok(), Some(true), "{} is no longer a pipe", fifo.display());
}
