//! The steps of a lowered compile: the source step writes the presplit IR, llcoro lowers it
//! in-process, the IR step compiles the lowered IR to the object; each step's failure, and what is
//! kept beside the object to run step 3 again (`Kept`). Commands that pass through run here too.

use super::classify::find_program;
use super::{Steps, emit};
use crate::diag::render;
use crate::pipeline::{Options, prepare};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus};

pub(super) fn prefixed(prefix: &str, value: &OsStr) -> OsString {
    let mut s = OsString::from(prefix);
    s.push(value);
    s
}

/// The compiler binary's size and modification time, so that a compiler cache that hashes the
/// command line sees an updated compiler; empty when the compiler cannot be found.
pub(super) fn stamp(compiler: &OsStr) -> String {
    let meta = find_program(compiler).and_then(|p| std::fs::metadata(p).ok());
    let Some(meta) = meta else { return String::new() };
    let mtime = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).unwrap_or_default();
    format!("{}-{}", meta.len(), mtime.as_nanos())
}

/// `cmd` as a shell line, for the verbose log and the messages.
pub(super) fn show(cmd: &[OsString]) -> String {
    String::from_utf8_lossy(&shell_line(cmd)).into_owned()
}

/// The kept IR's path for `output` (on a refusal, or with `LLCORO_KEEP_IR`).
fn kept_path(output: &OsStr, suffix: &str) -> PathBuf {
    let mut p = output.to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

pub(super) fn lower(steps: &Steps, verbose: bool) -> Result<(), ExitCode> {
    let fail = |msg: String| {
        say!("llcoro cc: {msg}");
        ExitCode::from(1)
    };
    let dir = tempfile::Builder::new()
        .prefix("llcoro-cc-")
        .tempdir()
        .map_err(|e| fail(format!("cannot create a temporary directory: {e}")))?;
    let stem = Path::new(&steps.source).file_stem().unwrap_or(OsStr::new("source"));
    let named = |suffix: &str| {
        let mut n = stem.to_owned();
        n.push(suffix);
        dir.path().join(n)
    };
    let (presplit, lowered) = (named(".ll"), named(".lowered.ll"));
    let keep = std::env::var_os("LLCORO_KEEP_IR").is_some_and(|v| !v.is_empty() && v != "0");
    let kept = Kept::beside(&steps.output);

    // A failure here is the user's compile error (or clang's own front-end crash): clang's messages
    // and status, as without llcoro.
    run_step(&steps.source_command(&presplit), verbose).map_err(|failed| {
        if let Failed::Start(_) = failed {
            let prog = steps.compiler.first().map(|p| p.to_string_lossy()).unwrap_or_default();
            say!("llcoro cc: error: step 1 of 3, the source to IR, failed: {}", failed.describe(&prog));
        }
        failed.code()
    })?;
    let bytes = std::fs::read(&presplit).map_err(|e| fail(format!("cannot read {}: {e}", presplit.display())))?;
    let (src, raw) = llir::raw_bytes::decode(bytes).map_err(|e| {
        fail(format!(
            "{}: byte {} is not UTF-8, and no private-use block is free to carry it",
            presplit.display(),
            e.first_invalid
        ))
    })?;
    lower_ir(steps, src, &raw, &presplit, &lowered, &kept, keep)?;
    // clang writes the object through a temporary file of its own and renames it, and deletes it on
    // failure; writing to the real path keeps the names clang derives from it (.dwo, .gcno, traces).
    if let Err(failed) = run_step(&steps.ir_command(&lowered), verbose) {
        return Err(compile_failed(steps, &failed, dir, &presplit, &lowered));
    }
    if keep {
        match kept.keep(steps, &presplit, &lowered) {
            Ok(()) => say!("llcoro cc: {}, the command of step 3 in {}", kept.describe(), kept.script.display()),
            Err(e) => say!("llcoro cc: cannot keep the IR beside {}: {e}", steps.output.to_string_lossy()),
        }
    } else {
        // Files kept by an earlier run (a refusal, a failed compile, or LLCORO_KEEP_IR) are stale now.
        Kept::remove(&[&kept.presplit, &kept.lowered, &kept.script]);
    }
    Ok(())
}

/// Step 2: lowers `src`, the presplit IR in the file `presplit`, into the file `lowered`. A refusal
/// (or a bug of llcoro's, a panic) shows its messages, keeps the presplit IR beside the object and
/// is status 1.
#[allow(clippy::too_many_arguments)]
fn lower_ir(
    steps: &Steps,
    src: String,
    raw: &llir::raw_bytes::RawBytes,
    presplit: &Path,
    lowered: &Path,
    kept: &Kept,
    keep: bool,
) -> Result<(), ExitCode> {
    let display = kept.presplit.to_string_lossy().into_owned();
    let keep_presplit = || -> String {
        Kept::remove(&[&kept.lowered, &kept.script]);
        match std::fs::copy(presplit, &kept.presplit) {
            Ok(_) => format!("the IR is kept at {display}"),
            Err(e) => format!("the IR could not be kept at {display}: {e}"),
        }
    };
    // The build runs compiles in parallel already: lowering on this thread alone saves the CPU time
    // of starting threads (about a fifth of the lowering of a 100-400 KB module).
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let prepared = prepare(src, Options { serial: true, ..Options::default() })?;
        if !prepared.warnings.is_empty() {
            for f in &prepared.warnings {
                emit(&raw.display(&render(&display, prepared.src(), &f.error, f.severity)));
            }
            if !keep {
                say!("llcoro cc: note: set LLCORO_KEEP_IR=1 to keep that IR at {display}");
            }
        }
        Ok::<_, crate::pipeline::Refusal>(write_file(lowered, &mut |w| raw.write_through(w, |w| prepared.write_to(w))))
    }));
    let source = steps.source.to_string_lossy();
    let fail = |msg: String| {
        say!("llcoro cc: {msg}");
        ExitCode::from(1)
    };
    match run {
        Ok(Ok(Ok(()))) => Ok(()),
        Ok(Ok(Err(e))) => {
            Err(fail(format!("error: step 2 of 3, the lowering, failed: cannot write {}: {e}", lowered.display())))
        }
        Ok(Err(refusal)) => {
            let note = keep_presplit();
            for f in &refusal.findings {
                emit(&raw.display(&render(&display, &refusal.src, &f.error, f.severity)));
            }
            Err(fail(format!("cannot lower the coroutines of {source}; {note}")))
        }
        // The panic's own message, printed first, says where.
        Err(_) => Err(fail(format!(
            "error[internal]: llcoro stopped on a bug of its own while lowering {source}; {}: please report it with that file",
            keep_presplit()
        ))),
    }
}

/// Step 3 failed, after the compiler's own messages: says which step failed, keeps the presplit and
/// lowered IR with a script that runs that step alone, says where and what it runs, and passes on the
/// compiler's status. The files go beside the object; where they cannot, the temporary directory
/// stays instead.
fn compile_failed(steps: &Steps, failed: &Failed, dir: tempfile::TempDir, presplit: &Path, lowered: &Path) -> ExitCode {
    let object = steps.output.to_string_lossy();
    let prog = steps.compiler.first().map(|p| p.to_string_lossy()).unwrap_or_default();
    say!("llcoro cc: error: step 3 of 3, compiling the lowered IR into {object}, failed: {}", failed.describe(&prog));
    let beside = Kept::beside(&steps.output);
    let kept = match beside.keep(steps, presplit, lowered) {
        Ok(()) => beside,
        Err(e) => {
            say!("llcoro cc: note: cannot keep the IR beside {object} ({e}); keeping the temporary directory");
            Kept::remove(&[&beside.presplit, &beside.lowered, &beside.script]);
            let within =
                Kept { presplit: presplit.into(), lowered: lowered.into(), script: dir.path().join("command.sh") };
            match within.write_script(steps) {
                Ok(()) => {
                    let _ = dir.keep();
                    within
                }
                Err(e) => {
                    say!("llcoro cc: note: cannot keep the IR in {} either: {e}", dir.path().display());
                    return failed.code();
                }
            }
        }
    };
    say!("llcoro cc: note: {}", kept.describe());
    say!("llcoro cc: note: `sh {}` runs the failing step again:", kept.script.display());
    say!("  {}", String::from_utf8_lossy(&kept.command_line(steps)));
    failed.code()
}

/// What `llcoro cc` keeps of a compile, named after the object and beside it (where clang's
/// `-save-temps=obj` puts its intermediate files): the presplit IR (a refusal's errors are located
/// in it), the lowered IR, and an `sh` script that runs step 3 on that lowered IR again.
pub(super) struct Kept {
    presplit: PathBuf,
    lowered: PathBuf,
    script: PathBuf,
}

impl Kept {
    pub(super) fn beside(output: &OsStr) -> Kept {
        Kept {
            presplit: kept_path(output, ".llcoro.ll"),
            lowered: kept_path(output, ".lowered.ll"),
            script: kept_path(output, ".llcoro.sh"),
        }
    }

    /// Copies the presplit and the lowered IR from the temporary files and writes the script.
    fn keep(&self, steps: &Steps, presplit: &Path, lowered: &Path) -> std::io::Result<()> {
        std::fs::copy(presplit, &self.presplit)?;
        std::fs::copy(lowered, &self.lowered)?;
        self.write_script(steps)
    }

    pub(super) fn describe(&self) -> String {
        format!("the presplit IR is kept at {}, the lowered IR at {}", self.presplit.display(), self.lowered.display())
    }

    /// `cd` to the working directory (the command's paths may be relative to it), then step 3 on the
    /// kept lowered IR, as one shell line.
    pub(super) fn command_line(&self, steps: &Steps) -> Vec<u8> {
        let mut line = Vec::new();
        if let Ok(cwd) = std::env::current_dir() {
            line.extend(b"cd ");
            line.extend(shell_word(cwd.as_os_str()));
            line.extend(b" && ");
        }
        line.extend(shell_line(&steps.ir_command(&self.lowered)));
        line
    }

    /// The script: executable (0777 less the umask), and runnable as `sh SCRIPT`.
    fn write_script(&self, steps: &Steps) -> std::io::Result<()> {
        let one_line = |s: &OsStr| s.to_string_lossy().replace(['\n', '\r'], " ");
        let mut text = format!(
            "#!/bin/sh\n# llcoro cc, step 3 of 3 of the compile of {}: the lowered IR into {} (docs/launcher.md)\n",
            one_line(&steps.source),
            one_line(&steps.output)
        )
        .into_bytes();
        text.extend(self.command_line(steps));
        text.push(b'\n');
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o777);
        std::io::Write::write_all(&mut options.open(&self.script)?, &text)
    }

    /// Removes files an earlier compile kept.
    fn remove(paths: &[&Path]) {
        for p in paths {
            if p.exists() {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// The bytes of `s` (on Unix, those that are not UTF-8 too).
fn os_bytes(s: &OsStr) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        std::os::unix::ffi::OsStrExt::as_bytes(s).into()
    }
    #[cfg(not(unix))]
    {
        s.to_string_lossy().into_owned().into_bytes().into()
    }
}

/// `w` as a word the shell reads back as it is: bare when every character is one the shell leaves
/// alone, else in single quotes.
pub(super) fn shell_word(w: &OsStr) -> Vec<u8> {
    let b = os_bytes(w);
    let bare = !b.is_empty() && b.iter().all(|c| c.is_ascii_alphanumeric() || b"-_./=+,:@%".contains(c));
    if bare { b.into_owned() } else { quoted(&b) }
}

/// `cmd` as words of a shell line.
fn shell_line(cmd: &[OsString]) -> Vec<u8> {
    let mut line = Vec::new();
    for (i, w) in cmd.iter().enumerate() {
        if i > 0 {
            line.push(b' ');
        }
        // A first word with `=` would be taken for a variable assignment.
        let first_with_eq = i == 0 && os_bytes(w).contains(&b'=');
        line.extend(if first_with_eq { quoted(&os_bytes(w)) } else { shell_word(w) });
    }
    line
}

fn quoted(b: &[u8]) -> Vec<u8> {
    let mut q = vec![b'\''];
    for &c in b {
        if c == b'\'' {
            q.extend(b"'\\''");
        } else {
            q.push(c);
        }
    }
    q.push(b'\'');
    q
}

fn write_file(
    path: &Path,
    emit: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    emit(&mut w)?;
    std::io::Write::flush(&mut w)
}

/// Why a compiler step failed.
pub(super) enum Failed {
    /// It ran, and failed with this status.
    Status(ExitStatus),
    /// It could not be started.
    Start(std::io::Error),
}

impl Failed {
    /// The status `llcoro cc` exits with: the compiler's, or the shell's 127 for a program that
    /// could not be run.
    pub(super) fn code(&self) -> ExitCode {
        match self {
            Failed::Status(s) => exit_code(*s),
            Failed::Start(_) => ExitCode::from(127),
        }
    }

    pub(super) fn describe(&self, prog: &str) -> String {
        match self {
            Failed::Start(e) => format!("cannot run {prog}: {e}"),
            Failed::Status(s) => match s.code() {
                Some(c) => format!("{prog} exited with status {c}"),
                // "signal: 11 (SIGSEGV) (core dumped)"
                None => format!("{prog} ended with {s}"),
            },
        }
    }
}

/// Runs one compiler step with the terminal's stdout and stderr.
fn run_step(cmd: &[OsString], verbose: bool) -> Result<(), Failed> {
    let Some((prog, args)) = cmd.split_first() else { return Err(Failed::Start(std::io::Error::other("no command"))) };
    if verbose {
        say!("llcoro cc: {}", show(cmd));
    }
    match Command::new(prog).args(args).status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(Failed::Status(s)),
        Err(e) => Err(Failed::Start(e)),
    }
}

/// The shell's convention: the status, or 128 plus the signal that ended the process.
pub(super) fn exit_code(s: ExitStatus) -> ExitCode {
    if let Some(c) = s.code() {
        return ExitCode::from(u8::try_from(c).unwrap_or(1));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return ExitCode::from(u8::try_from(128 + sig).unwrap_or(1));
        }
    }
    ExitCode::from(1)
}

/// Runs the command unchanged: on Unix the process becomes the compiler (stdin, signals and
/// status stay the compiler's).
pub(super) fn exec(argv: &[OsString]) -> ExitCode {
    let Some((prog, args)) = argv.split_first() else {
        say!("llcoro cc: no command given; usage: llcoro cc -- COMPILER ARGS...");
        return ExitCode::from(2);
    };
    let mut cmd = Command::new(prog);
    cmd.args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let e = cmd.exec();
        say!("llcoro cc: cannot run {}: {e}", prog.to_string_lossy());
        ExitCode::from(127)
    }
    #[cfg(not(unix))]
    match cmd.status() {
        Ok(s) => exit_code(s),
        Err(e) => {
            say!("llcoro cc: cannot run {}: {e}", prog.to_string_lossy());
            ExitCode::from(127)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launcher::testing::steps;

    #[test]
    fn shell_words_are_quoted_only_when_the_shell_would_change_them() {
        let word = |w: &str| String::from_utf8(shell_word(OsStr::new(w))).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(word("-std=c++20"), "-std=c++20");
        assert_eq!(word("CMakeFiles/app.dir/main.cpp.o"), "CMakeFiles/app.dir/main.cpp.o");
        assert_eq!(word("a b"), "'a b'");
        assert_eq!(word("it's"), "'it'\\''s'");
        assert_eq!(word(""), "''");
        assert_eq!(word("$HOME*"), "'$HOME*'");
        assert_eq!(word("~x"), "'~x'");
        // A first word with `=` is quoted: bare, the shell would take it for an assignment.
        let steps = steps("/opt/a=b/clang -O2 -c a.c -o x.o");
        let kept = Kept::beside(&steps.output);
        let line = String::from_utf8(kept.command_line(&steps)).unwrap_or_else(|e| panic!("{e}"));
        assert!(line.contains("&& '/opt/a=b/clang' -O2 -Wno-unused-command-line-argument -c -x ir"), "{line}");
    }

    #[test]
    fn a_failed_step_says_how_the_compiler_ended() {
        use std::os::unix::process::ExitStatusExt;
        let status = |raw| Failed::Status(ExitStatus::from_raw(raw));
        assert_eq!(status(1 << 8).describe("clang"), "clang exited with status 1");
        assert_eq!(status(11).describe("clang"), "clang ended with signal: 11 (SIGSEGV)");
        assert_eq!(exit_code(ExitStatus::from_raw(11)), ExitCode::from(139));
        let start = Failed::Start(std::io::Error::from(std::io::ErrorKind::NotFound));
        assert!(start.describe("clang").starts_with("cannot run clang: "));
        assert_eq!(start.code(), ExitCode::from(127));
    }
}
