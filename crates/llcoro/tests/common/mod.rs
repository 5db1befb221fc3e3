//! Helpers the end-to-end test harnesses share: running a tool with a timeout and capturing its
//! output, finding tools on PATH, and the policy for missing tools (a skip with a notice, a failure
//! under CI). Each harness uses only some of them.
#![allow(dead_code)]

pub mod cache;
pub mod checks;
pub mod diff;

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What a finished (or killed) process left behind.
pub struct Output {
    /// `None` when the process timed out and was killed.
    pub status: Option<ExitStatus>,
    pub timeout: Duration,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Output {
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    pub fn status_text(&self) -> String {
        match self.status {
            None => format!("timed out after {}s", self.timeout.as_secs()),
            Some(s) => match s.code() {
                Some(c) => format!("exit status {c}"),
                None => format!("{s}"),
            },
        }
    }

    /// A short description of a run: status plus stderr excerpt.
    pub fn describe(&self) -> String {
        let mut s = self.status_text();
        let err = excerpt(&self.stderr);
        if !err.is_empty() {
            s.push_str("\n  stderr:\n");
            s.push_str(&err);
        }
        s
    }
}

/// First lines / characters of some tool output, for failure reports.
pub fn excerpt(bytes: &[u8]) -> String {
    const MAX_LINES: usize = 15;
    const MAX_CHARS: usize = 1500;
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    for (lines, line) in text.lines().enumerate() {
        if lines == MAX_LINES || out.len() + line.len() > MAX_CHARS {
            out.push_str("    [...]\n");
            break;
        }
        out.push_str("    ");
        out.push_str(line);
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// Runs `cmd` with optional stdin bytes, capturing stdout and stderr, and kills it after `timeout`.
pub fn run_with(cmd: &mut Command, stdin: Option<&[u8]>, timeout: Duration) -> Result<Output, String> {
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let writer = match (stdin, child.stdin.take()) {
        (Some(bytes), Some(mut pipe)) => {
            let bytes = bytes.to_vec();
            // Write errors are ignored: the child may legitimately exit early.
            Some(thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let (Some(mut out_pipe), Some(mut err_pipe)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(format!("no output pipes for {:?}", cmd.get_program()));
    };
    let out_reader = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_reader = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for {:?}: {e}", cmd.get_program())),
        }
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    Ok(Output { status, timeout, stdout, stderr })
}

/// Looks a program up on PATH (or checks an explicit path).
pub fn find_tool(name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.components().count() > 1 {
        return is_executable(p).then(|| p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| is_executable(candidate))
}

pub fn is_executable(p: &Path) -> bool {
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

/// The tools in `names` that are not on PATH, comma-separated; `None` when all are there.
pub fn missing_tools(names: &[&str]) -> Option<String> {
    let missing: Vec<&str> = names.iter().copied().filter(|n| find_tool(n).is_none()).collect();
    (!missing.is_empty()).then(|| missing.join(", "))
}

/// The failure recorded under CI for missing tools.
pub fn missing_failure(list: &str) -> String {
    format!("required tool(s) not found: {list}; run scripts/install-test-tools.sh")
}

/// The notice printed outside CI when `what` is skipped for missing tools.
pub fn skip_notice(what: &str, list: &str) -> String {
    format!("skipping {what}: {list} not found (run scripts/install-test-tools.sh; with CI set this is a failure)")
}

/// The policy for missing tools, in one place: `Ok(true)` when every tool in `names` is on PATH;
/// otherwise, outside CI, a skip notice for `what` is printed and the answer is `Ok(false)`; under
/// CI (the environment variable `CI` set) the answer is `Err` with the failure to record.
pub fn tools(names: &[&str], what: &str) -> Result<bool, String> {
    let Some(list) = missing_tools(names) else { return Ok(true) };
    if std::env::var_os("CI").is_some() {
        return Err(missing_failure(&list));
    }
    println!("{}", skip_notice(what, &list));
    Ok(false)
}

/// `tools` for a test that cannot go on without them: false means skip; under CI it panics.
pub fn require(names: &[&str], what: &str) -> bool {
    tools(names, what).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `cmd` (with a two-minute timeout), which must succeed.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = run_with(cmd, None, Duration::from_secs(120)).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.success(), "{:?}: {}", cmd, out.describe());
    out
}

/// A command as one line of text, for failure reports.
pub fn command_text(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Runs a tool that must succeed within `timeout`; the error names the command and the result, and
/// ends with a line `gist: ...` (see `gist`) when the tool said something.
pub fn run_tool(cmd: &mut Command, timeout: Duration) -> Result<Output, String> {
    let line = command_text(cmd);
    match run_with(cmd, None, timeout) {
        Err(e) => Err(format!("{line}\n  {e}")),
        Ok(o) if !o.success() => {
            let gist = gist(&o.stderr);
            let gist = if gist.is_empty() { gist } else { format!("\n  gist: {gist}") };
            Err(format!("{line}\n  {}{gist}", o.describe()))
        }
        Ok(o) => Ok(o),
    }
}

/// What a tool's stderr says, in one line, for failure reports (an excerpt may stop before a later
/// message or a crash's stack): its distinct message lines before any stack dump (not the IR or
/// metadata the verifier quotes under a message), `; `-separated, and for a crash that is not a
/// reported fatal error (`LLVM ERROR: ...`) the function it happened in: the first frame of the stack
/// dump outside the signal handling.
pub fn gist(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let mut parts: Vec<String> = Vec::new();
    for line in text.lines().take_while(|l| !l.starts_with("PLEASE submit") && !l.starts_with("Stack dump:")) {
        // Values and metadata under a message: `ptr @f`, `void (i8*)* @f`, `  %5 = ...`, `!12 = ...`.
        let quoted = line.starts_with([' ', '\t', '#'])
            || line.contains(['@', '%'])
            || line.split_once(" = ").is_some_and(|(lhs, _)| lhs.starts_with('!') && !lhs.contains(' '))
            || line.trim().is_empty();
        let line: String = line.chars().take(200).collect();
        if !quoted && !parts.contains(&line) {
            parts.push(line);
        }
    }
    // Sorted, so that the same messages in another order (another program) read the same.
    parts.sort();
    if text.contains("Stack dump:") && !text.contains("LLVM ERROR:") {
        let frame = text.lines().map(str::trim).filter(|l| l.starts_with('#')).find_map(|l| {
            // `#4 0x00007f02de9f0420 llvm::DIE::getUnitDie() const (/lib/...)`
            let function = l.splitn(3, ' ').nth(2)?;
            let function = function.rsplit_once(" (").map_or(function, |(f, _)| f);
            let handler = function.starts_with("llvm::sys::") || function.starts_with('(') || !function.contains("::");
            (!handler).then(|| function.to_string())
        });
        parts.push(format!("crash in {}", frame.as_deref().unwrap_or("an unknown function")));
    }
    parts.join("; ")
}

/// The lines of an IR file with their comments removed (`;` outside of quotes; LLVM strings escape
/// `"` as `\22`), with their 0-based numbers.
pub fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(n, line)| {
        let mut quoted = false;
        for (i, b) in line.bytes().enumerate() {
            match b {
                b'"' => quoted = !quoted,
                b';' if !quoted => return (n, &line[..i]),
                _ => {}
            }
        }
        (n, line)
    })
}

/// Where two outputs first differ: the line number and both lines, labelled `names`.
pub fn first_difference(expected: &[u8], actual: &[u8], names: (&str, &str)) -> String {
    let exp = String::from_utf8_lossy(expected);
    let act = String::from_utf8_lossy(actual);
    let (mut e_lines, mut a_lines) = (exp.split_inclusive('\n'), act.split_inclusive('\n'));
    let show = |l: Option<&str>| match l {
        Some(l) => format!("{:?}", l.chars().take(200).collect::<String>()),
        None => "<end of output>".to_string(),
    };
    for line in 1.. {
        match (e_lines.next(), a_lines.next()) {
            (None, None) => break,
            (e, a) if e == a => {}
            (e, a) => {
                return format!(
                    "first at line {line} ({} {} bytes, {} {}):\n    {}: {}\n    {}: {}",
                    names.0,
                    expected.len(),
                    names.1,
                    actual.len(),
                    names.0,
                    show(e),
                    names.1,
                    show(a)
                );
            }
        }
    }
    format!("in bytes only (lengths {} vs {})", expected.len(), actual.len())
}

/// How run `actual` differs from run `reference` (exit status, then stdout), one line each; empty when
/// they agree. `names` label the two runs.
pub fn run_differences(reference: &Output, actual: &Output, names: (&str, &str)) -> Vec<String> {
    let mut problems = Vec::new();
    if actual.status != reference.status {
        problems.push(format!(
            "exit status differs: {} {} vs {} {}",
            names.1,
            actual.status_text(),
            names.0,
            reference.status_text()
        ));
    }
    if actual.stdout != reference.stdout {
        problems.push(format!("stdout differs, {}", first_difference(&reference.stdout, &actual.stdout, names)));
    }
    problems
}

/// Requires run `actual` (of `what`, a path or command) to give `reference`'s stdout and exit status;
/// otherwise records how they differ, with `actual`'s stderr, under `step`. Returns whether they agree.
pub fn same_run(rec: &mut Recorder, step: &str, reference: &Output, actual: &Output, what: &str) -> bool {
    let problems = run_differences(reference, actual, ("native", "lowered"));
    if problems.is_empty() {
        return true;
    }
    let err = excerpt(&actual.stderr);
    let err = if err.is_empty() { String::new() } else { format!("\n  stderr of {what}:\n{err}") };
    rec.add(step, format!("{what}\n  {}{err}", problems.join("\n  ")));
    false
}

/// Runs `f` on every item on at most `workers` threads; the results come back in item order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], workers: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<(usize, R)>> = std::sync::Mutex::new(Vec::with_capacity(items.len()));
    thread::scope(|s| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    done.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The harness's scratch directory `$CARGO_TARGET_TMPDIR/name`, created, and an exclusive lock on it
/// held as long as the returned file lives: concurrent runs (two `cargo test`s) would overwrite each
/// other's files, so a second run waits.
pub fn lock_scratch(name: &str) -> (PathBuf, fs::File) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    fs::create_dir_all(&root).unwrap_or_else(|e| panic!("cannot create {}: {e}", root.display()));
    let lock_path = root.join(".lock");
    let lock = fs::File::create(&lock_path).unwrap_or_else(|e| panic!("cannot create {}: {e}", lock_path.display()));
    if lock.try_lock().is_err() {
        println!("{name}: waiting for another run to release {}", lock_path.display());
        lock.lock().unwrap_or_else(|e| panic!("cannot lock {}: {e}", lock_path.display()));
    }
    (root, lock)
}

/// One failed step of one check: which program, in which configuration, and what went wrong.
#[derive(Debug)]
pub struct Failure {
    pub program: String,
    pub config: String,
    pub step: String,
    pub detail: String,
}

/// The failures of one check (a program in a configuration).
pub struct Recorder {
    pub program: String,
    pub config: String,
    pub failures: Vec<Failure>,
}

impl Recorder {
    pub fn new(program: &str, config: &str) -> Recorder {
        Recorder { program: program.to_string(), config: config.to_string(), failures: Vec::new() }
    }

    pub fn add(&mut self, step: impl Into<String>, detail: impl Into<String>) {
        self.failures.push(Failure {
            program: self.program.clone(),
            config: self.config.clone(),
            step: step.into(),
            detail: detail.into(),
        });
    }

    /// Records the error of `r`, if any; returns the success value.
    pub fn ok<T>(&mut self, step: &str, r: Result<T, String>) -> Option<T> {
        r.map_err(|e| self.add(step, e)).ok()
    }
}

/// What lowering must leave nowhere outside comments: coroutine intrinsics and the presplit attribute
/// (LLVM 14 spells it `"coroutine.presplit"`).
pub const LEFTOVERS: [&str; 3] = ["llvm.coro.", "presplitcoroutine", "\"coroutine.presplit\""];

/// Runs `llcoro INPUT -o OUTPUT EXTRA...` (the binary under test): it must succeed, not panic, and
/// write OUTPUT, whose text is returned.
pub fn run_llcoro(input: &Path, output: &Path, extra: &[&str], timeout: Duration) -> Result<String, String> {
    let _ = fs::remove_file(output);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    cmd.arg(input).arg("-o").arg(output).args(extra);
    let out = run_tool(&mut cmd, timeout)?;
    if String::from_utf8_lossy(&out.stderr).contains("panicked") {
        return Err(format!("{}\n  exit 0 but panicked:\n{}", command_text(&cmd), excerpt(&out.stderr)));
    }
    fs::read_to_string(output).map_err(|e| format!("no output {}: {e}", output.display()))
}

/// One message per marker of `LEFTOVERS` that the lowered `text` (written to `path`) still holds.
pub fn leftovers(text: &str, path: &Path) -> Vec<String> {
    LEFTOVERS
        .iter()
        .filter_map(|needle| {
            let (n, line) = code_lines(text).find(|(_, l)| l.contains(needle))?;
            let line: String = line.trim().chars().take(200).collect();
            Some(format!("{} still contains `{needle}`, first at line {}: {line:?}", path.display(), n + 1))
        })
        .collect()
}

/// The expected output a test input states in itself: the lines after `<comment> EXPECT:` that start
/// with `<comment> ` (or are just `<comment>`), each without that prefix.
pub fn expected_block(text: &str, comment: &str) -> Option<String> {
    let mut lines = text.lines().skip_while(|l| l.trim() != format!("{comment} EXPECT:"));
    lines.next()?;
    let mut out = String::new();
    for l in lines {
        if let Some(rest) = l.strip_prefix(&format!("{comment} ")) {
            out.push_str(rest);
        } else if l.trim_end() != comment {
            break;
        }
        out.push('\n');
    }
    Some(out)
}

/// Checks on one lowered IR program beyond the common ones: (input path, input text, lowered
/// text, where to record failures).
pub type IrCheck<'a> = dyn Fn(&Path, &str, &str, &mut Recorder) + Sync + 'a;

/// Hand-written IR programs, each stating its output in a `; EXPECT:` block: for every `*.ll` in
/// `dir` and every LLVM version in `versions`, `opt-N -passes=verify` accepts the input, llcoro lowers
/// it (and lowering the output again changes nothing), `opt-N` accepts the output with no
/// diagnostic, and `lli-N` runs it to exit 0 with the expected output; `extra` adds the caller's
/// checks. Panics with every failure at the end.
pub fn run_ir_programs(label: &str, dir: &Path, versions: &[&str], scratch: &Path, extra: &IrCheck<'_>) {
    let mut inputs: Vec<PathBuf> =
        fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    inputs.retain(|p| p.extension().is_some_and(|e| e == "ll"));
    inputs.sort();
    assert!(!inputs.is_empty(), "no {}/*.ll", dir.display());
    let tools: Vec<String> = versions.iter().flat_map(|v| [format!("opt-{v}"), format!("lli-{v}")]).collect();
    let tools: Vec<&str> = tools.iter().map(|s| s.as_str()).collect();
    if !require(&tools, label) {
        return;
    }
    let _ = fs::create_dir_all(scratch);
    let timeout = Duration::from_secs(120);
    let mut failures = Vec::new();
    let mut runs = 0;
    for input in &inputs {
        let name = input.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let text = fs::read_to_string(input).unwrap_or_default();
        let mut rec = Recorder::new(&name, "llcoro");
        let Some(want) = expected_block(&text, ";") else {
            failures.push(format!("{name}: no `; EXPECT:` block"));
            continue;
        };
        let out = scratch.join(format!("{name}.out.ll"));
        let again = scratch.join(format!("{name}.again.ll"));
        for &v in versions {
            let mut opt = Command::new(format!("opt-{v}"));
            opt.args(["-passes=verify", "-disable-output"]).arg(input);
            match run_tool(&mut opt, timeout) {
                Ok(_) => {}
                Err(e) => rec.add(format!("opt-{v} rejects the input"), e),
            }
        }
        if let Some(lowered) = rec.ok("llcoro", run_llcoro(input, &out, &[], timeout)) {
            extra(input, &text, &lowered, &mut rec);
            if rec.ok("llcoro again", run_llcoro(&out, &again, &[], timeout)).is_some()
                && fs::read(&again).ok() != fs::read(&out).ok()
            {
                rec.add("idempotence", "lowering the output again changed it");
            }
            for &v in versions {
                runs += 1;
                let mut opt = Command::new(format!("opt-{v}"));
                opt.args(["-passes=verify", "-disable-output"]).arg(&out);
                match run_tool(&mut opt, timeout) {
                    Ok(o) if o.stderr.is_empty() => {}
                    Ok(o) => rec.add(format!("opt-{v} verify"), o.describe()),
                    Err(e) => rec.add(format!("opt-{v} verify"), e),
                }
                let mut lli = Command::new(format!("lli-{v}"));
                lli.arg(&out);
                match run_with(&mut lli, None, timeout) {
                    Ok(o) if o.success() && String::from_utf8_lossy(&o.stdout) == want => {}
                    Ok(o) => rec.add(
                        format!("lli-{v}"),
                        format!(
                            "{} ({})\n{}",
                            command_text(&lli),
                            o.status_text(),
                            first_difference(want.as_bytes(), &o.stdout, ("expected", "actual"))
                        ),
                    ),
                    Err(e) => rec.add(format!("lli-{v}"), e),
                }
            }
        }
        failures.extend(rec.failures.iter().map(|f| format!("{name}: {}: {}", f.step, f.detail)));
    }
    eprintln!("{label}: {} programs, {runs} runs, {} failures", inputs.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The input in LLVM 22's spelling: `coro.end` returns void (and `coro.end.async`, whose result
/// the inputs never name). Err when a result is used.
pub fn llvm22_spelling(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut results = Vec::new();
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if let Some(rest) = trimmed.strip_prefix("declare i1 @llvm.coro.end(") {
            out.push_str(indent);
            out.push_str("declare void @llvm.coro.end(");
            out.push_str(rest);
        } else if let Some(rest) = trimmed.strip_prefix("declare i1 @llvm.coro.end.async(") {
            out.push_str(indent);
            out.push_str("declare void @llvm.coro.end.async(");
            out.push_str(rest);
        } else if let Some(rest) = trimmed.strip_prefix("call i1 (ptr, i1, ...) @llvm.coro.end.async(") {
            out.push_str(indent);
            out.push_str("call void (ptr, i1, ...) @llvm.coro.end.async(");
            out.push_str(rest);
        } else if let Some((lhs, rest)) = trimmed.split_once(" = call i1 @llvm.coro.end(") {
            results.push(lhs.trim().to_string());
            out.push_str(indent);
            out.push_str("call void @llvm.coro.end(");
            out.push_str(rest);
        } else {
            out.push_str(line);
        }
    }
    for r in &results {
        let used = code_lines(&out).any(|(_, l)| {
            l.match_indices(r.as_str()).any(|(i, _)| {
                let next = l.as_bytes().get(i + r.len()).copied();
                !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
            })
        });
        if used {
            return Err(format!(
                "the result {r} of an i1 llvm.coro.end is used; LLVM 22's coro.end returns void (name the file .v19.ll)"
            ));
        }
    }
    Ok(out)
}

/// The seeds a generator test runs: `var` (`FIRST..LAST`) when it is set, else the `default` ranges.
pub fn seeds(var: &str, default: &[(u64, u64)]) -> Vec<u64> {
    let ranges = match std::env::var(var) {
        Ok(s) => {
            let parsed = s.split_once("..").and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
            vec![parsed.unwrap_or_else(|| panic!("{var}={s:?}: expected FIRST..LAST"))]
        }
        Err(_) => default.to_vec(),
    };
    ranges.into_iter().flat_map(|(first, last)| first..=last).collect()
}
