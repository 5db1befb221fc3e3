//! `llcoro cc` and the CMake modules built on it (docs/launcher.md), end to end.
//!
//! Direct commands (clang++-19, g++): a compile is lowered and links into a program with the right
//! output; a link, `-E`, `-M`, `--version` and a g++ compile run unchanged (same output as the
//! command run directly); the dependency file names the real object; a refused IR exits 1 with a
//! located error in the kept IR; a compile error exits with clang's status and clang's messages,
//! unchanged; no temporary file is left. A compile of the lowered IR that fails (a backend-only
//! `-mllvm` flag) exits with clang's status, names step 3 in llcoro's error line, and keeps the
//! presplit and lowered IR and a script beside the object; the script and the printed command, run
//! from elsewhere, fail the same way (through a directory name with a space and a quote); a later
//! successful compile removes them; with no directory for the object, the temporary directory is
//! kept instead. Refusals (`llcoro cc`, `llcoro`, `check`, `frames`, `explain`) exit 1 with standard
//! error closed or a broken pipe; with standard output a broken pipe the lowering, `frames` and
//! `explain` say so and exit 1, and closed, it is /dev/null (status 0).
//!
//! CMake (`tests/launcher/project`, copied to a directory whose name has a space; its programs
//! come from `tests/diff` and print to stdout, one exits with status 42): built with
//! `llcoro_enable()` by clang++-19 (no build type) and clang++-22 (Release) with both Ninja and
//! Unix Makefiles, every program must give the stdout and exit status of the same project built
//! without llcoro; every target has exactly one object per source, each compiled through llcoro
//! (the IR it kept with `LLCORO_KEEP_IR=1`); a rebuild changes nothing; editing the shared header
//! rebuilds exactly its two objects and changes the output; a new llcoro binary rebuilds every
//! object; a kxs program (`tests/kxs/cpp/call_chain.cpp`, `kxs_add_executable`) runs to its end
//! with every frame freed. Also: through `add_subdirectory(<repository>)`, through `find_package(llcoro)` after
//! `cmake --install` to a prefix with a space, under ccache (a second build directory is served
//! entirely from the cache, a new llcoro misses it), `kxs_transform_ir()` and
//! `kxs_transform_ir.cmake`, and a configure with g++ fails with the clear message.
//!
//! Tools: cmake, ninja, make, clang++-19, clang++-22, g++, ccache (scripts/install-test-tools.sh).
//! A missing tool skips the test with a notice, or fails it when the environment variable `CI` is
//! set. Scratch files: `$CARGO_TARGET_TMPDIR/launcher-*`, rebuilt from scratch on each run.

mod common;

use common::{Output, excerpt, leftovers, lock_scratch, parallel_map, require, run_differences, run_with};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

const TOOL_TIMEOUT: Duration = Duration::from_secs(300);
const RUN_TIMEOUT: Duration = Duration::from_secs(60);

/// The project's programs, and how many objects each one's target has.
const PROGRAMS: [(&str, usize); 5] =
    [("gen_ints", 1), ("pingpong", 1), ("exit_status", 1), ("counter", 2), ("labels", 1)];

fn repo() -> PathBuf {
    let p = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    fs::canonicalize(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn llcoro() -> &'static str {
    env!("CARGO_BIN_EXE_llcoro")
}

/// A fresh scratch directory (everything but the lock removed) and its lock.
fn fresh_scratch(name: &str) -> (PathBuf, fs::File) {
    let (root, lock) = lock_scratch(name);
    for entry in fs::read_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display())).flatten() {
        let p = entry.path();
        if p.file_name().is_some_and(|n| n == ".lock") {
            continue;
        }
        let r = if p.is_dir() { fs::remove_dir_all(&p) } else { fs::remove_file(&p) };
        r.unwrap_or_else(|e| panic!("cannot remove {}: {e}", p.display()));
    }
    (root, lock)
}

fn mkdir(p: &Path) -> Result<(), String> {
    fs::create_dir_all(p).map_err(|e| format!("cannot create {}: {e}", p.display()))
}

/// A command with the environment the tests expect: no launcher or generator from the caller's.
fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = Command::new(program);
    for var in ["CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_C_COMPILER_LAUNCHER", "CMAKE_GENERATOR", "LLCORO_KEEP_IR"] {
        c.env_remove(var);
    }
    c.env_remove("LLCORO_CC_VERBOSE");
    c
}

/// Runs `cmd`, which must succeed.
fn ok(cmd: &mut Command) -> Result<Output, String> {
    common::run_tool(cmd, TOOL_TIMEOUT)
}

/// Runs `cmd`, whatever its status.
fn run(cmd: &mut Command) -> Result<Output, String> {
    run_with(cmd, None, TOOL_TIMEOUT)
}

fn stderr_text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    mkdir(to)?;
    for entry in fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?.flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            fs::copy(&src, &dst).map_err(|e| format!("cannot copy {}: {e}", src.display()))?;
        }
    }
    Ok(())
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = fs::read_dir(dir) else { return out };
    for entry in rd.flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(files_in(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

// ---------------------------------------------------------------------------------------------
// llcoro cc, directly
// ---------------------------------------------------------------------------------------------

fn cc_input(name: &str) -> PathBuf {
    repo().join("tests/launcher/cc").join(name)
}

/// `llcoro cc -- ARGS` in `dir`, verbose, with temporary files under `tmp`.
fn llcoro_cc(dir: &Path, tmp: &Path, args: &[&std::ffi::OsStr]) -> Result<Output, String> {
    let mut c = command(llcoro());
    c.current_dir(dir).env("TMPDIR", tmp).env("LLCORO_CC_VERBOSE", "1").arg("cc").arg("--").args(args);
    run(&mut c)
}

#[test]
fn cc_lowers_compiles_and_passes_other_commands_through() {
    if !require(&["clang++-19", "g++"], "the llcoro cc pass-through test") {
        return;
    }
    let (dir, _lock) = fresh_scratch("launcher-cc");
    let tmp = dir.join("tmp");
    mkdir(&tmp).unwrap_or_else(|e| panic!("{e}"));
    let (squares, main) = (cc_input("squares.cpp"), cc_input("main.cpp"));
    let mut problems = Vec::new();
    let mut check = |what: &str, r: Result<(), String>| {
        if let Err(e) = r {
            problems.push(format!("{what}: {e}"));
        }
    };

    // A compile is lowered: the verbose log shows both steps, with the dependency file named after
    // the object.
    check(
        "compile",
        (|| {
            let mut c = command(llcoro());
            c.current_dir(&dir).env("TMPDIR", &tmp).env("LLCORO_CC_VERBOSE", "1");
            c.args(["cc", "--", "clang++-19", "-std=c++20", "-O1", "-MD", "-c"]).arg(&squares).args(["-o", "sq.o"]);
            let out = ok(&mut c)?;
            let log = stderr_text(&out);
            if !log.contains("-emit-llvm") || !log.contains("-x ir") {
                return Err(format!("no lowering steps in the log:\n{}", excerpt(&out.stderr)));
            }
            let d = fs::read_to_string(dir.join("sq.d")).map_err(|e| format!("no sq.d: {e}"))?;
            if !d.starts_with("sq.o:") || !d.contains("squares.cpp") {
                return Err(format!("sq.d names the wrong target or source:\n{}", excerpt(d.as_bytes())));
            }
            // The clap form without `--`.
            let mut c = command(llcoro());
            c.current_dir(&dir).env("TMPDIR", &tmp);
            c.args(["cc", "clang++-19", "-std=c++20", "-c"]).arg(&main).args(["-o", "main.o"]);
            ok(&mut c).map(drop)
        })(),
    );
    // The link runs unchanged: the same program as the direct link, which prints the right sum.
    check(
        "link",
        (|| {
            let out = llcoro_cc(&dir, &tmp, &["clang++-19", "main.o", "sq.o", "-o", "app"].map(std::ffi::OsStr::new))?;
            if !out.success() || !stderr_text(&out).contains("unchanged") {
                return Err(format!("not passed through: {}", out.describe()));
            }
            ok(command("clang++-19").current_dir(&dir).args(["main.o", "sq.o", "-o", "app.direct"]))?;
            let (a, b) = (fs::read(dir.join("app")), fs::read(dir.join("app.direct")));
            if a.as_ref().ok() != b.as_ref().ok() {
                return Err("the launcher's link differs from the direct link".into());
            }
            let run = run_with(&mut command(dir.join("app")), None, RUN_TIMEOUT)?;
            if run.stdout != b"sum=385\n" {
                return Err(format!("app printed {:?}", String::from_utf8_lossy(&run.stdout)));
            }
            Ok(())
        })(),
    );
    // Preprocessing, dependency listing and --version: the same output as the command run directly.
    let src = squares.as_os_str();
    for args in [
        vec!["clang++-19".as_ref(), "-std=c++20".as_ref(), "-E".as_ref(), src],
        vec!["clang++-19".as_ref(), "-std=c++20".as_ref(), "-M".as_ref(), src],
        vec!["clang++-19".as_ref(), "--version".as_ref()],
    ] {
        let what: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        check(
            &what.join(" "),
            (|| {
                let via = llcoro_cc(&dir, &tmp, &args)?;
                let (first, rest) = args.split_first().ok_or("empty")?;
                let direct = run(command(first).current_dir(&dir).args(rest))?;
                if !via.success() || via.stdout != direct.stdout {
                    return Err(format!("output differs from the direct command ({})", via.describe()));
                }
                Ok(())
            })(),
        );
    }
    // g++ is not clang: its compile runs unchanged.
    check(
        "g++",
        (|| {
            let mut c = command(llcoro());
            c.current_dir(&dir).env("TMPDIR", &tmp).env("LLCORO_CC_VERBOSE", "1");
            c.args(["cc", "--", "g++", "-std=c++20", "-c"]).arg(&squares).args(["-o", "g.o"]);
            let out = ok(&mut c)?;
            if !stderr_text(&out).contains("not clang") || !dir.join("g.o").is_file() {
                return Err(format!("not passed through to g++: {}", out.describe()));
            }
            Ok(())
        })(),
    );
    let left = files_in(&tmp);
    check("temporary files", if left.is_empty() { Ok(()) } else { Err(format!("left behind: {left:?}")) });
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn cc_refusal_and_compile_error() {
    if !require(&["clang++-19"], "the llcoro cc error test") {
        return;
    }
    let (dir, _lock) = fresh_scratch("launcher-cc-errors");
    let tmp = dir.join("tmp");
    mkdir(&tmp).unwrap_or_else(|e| panic!("{e}"));

    // A coroutine llcoro refuses: exit 1, llcoro's error located in the IR kept beside the object.
    let mut c = command(llcoro());
    c.current_dir(&dir).env("TMPDIR", &tmp);
    c.args(["cc", "--", "clang++-19", "-std=c++20", "-c"]).arg(cc_input("refused.cpp")).args(["-o", "refused.o"]);
    let out = run(&mut c).unwrap_or_else(|e| panic!("{e}"));
    let err = stderr_text(&out);
    assert_eq!(out.status.and_then(|s| s.code()), Some(1), "refusal: {}", out.describe());
    assert!(err.contains("error[coro-"), "no llcoro error: {err}");
    let located = err.lines().any(|l| {
        l.trim_start().strip_prefix("┌─ refused.o.llcoro.ll:").is_some_and(|pos| {
            let mut parts = pos.split(':');
            parts.next().is_some_and(|n| n.parse::<u32>().is_ok())
                && parts.next().is_some_and(|n| n.parse::<u32>().is_ok())
        })
    });
    assert!(located, "the error is not located in refused.o.llcoro.ll:LINE:COLUMN: {err}");
    assert!(err.contains("kept at refused.o.llcoro.ll"), "the message does not name the kept IR: {err}");
    let kept = fs::read_to_string(dir.join("refused.o.llcoro.ll")).unwrap_or_default();
    assert!(kept.contains("llvm.coro.suspend"), "the kept IR is not the presplit IR");
    assert!(!dir.join("refused.o").exists(), "an object was written for a refused IR");

    // A compile error: clang's status and clang's message, no object.
    let src = cc_input("syntax_error.cpp");
    let direct = run(command("clang++-19").current_dir(&dir).arg("-c").arg(&src).args(["-o", "direct.o"]))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut c = command(llcoro());
    c.current_dir(&dir).env("TMPDIR", &tmp);
    c.args(["cc", "--", "clang++-19", "-c"]).arg(&src).args(["-o", "syntax.o"]);
    let out = run(&mut c).unwrap_or_else(|e| panic!("{e}"));
    assert!(!direct.success(), "syntax_error.cpp compiled");
    assert_eq!(out.status.and_then(|s| s.code()), direct.status.and_then(|s| s.code()), "{}", out.describe());
    assert!(stderr_text(&out).contains("undeclared_name"), "clang's error is not shown: {}", out.describe());
    assert_eq!(stderr_text(&out), stderr_text(&direct), "clang's messages are not passed on unchanged");
    assert!(!dir.join("syntax.o").exists(), "an object was written for a failed compile");
    assert!(files_in(&tmp).is_empty(), "temporary files left: {:?}", files_in(&tmp));
}

/// A flag that only step 3 fails on, with clang's own "fatal error: error in backend" (the crash
/// banner of a failing code generator): step 1 (`-disable-llvm-passes`) builds no code generator.
const BACKEND_ONLY_FAILURE: [&str; 2] = ["-mllvm", "-stop-after=no-such-pass"];

/// The line llcoro prints after "runs the failing step again:".
fn printed_command(err: &str) -> Option<String> {
    let mut lines = err.lines().skip_while(|l| !l.contains("runs the failing step again:"));
    lines.nth(1).map(|l| l.trim_start().to_string())
}

/// The failed-step test's object directory: a space and a quote, which the kept script must quote.
const OUT: &str = "it's out";

#[test]
fn cc_failed_compile_of_the_lowered_ir_keeps_what_reproduces_it() {
    if !require(&["clang++-19"], "the llcoro cc failed step test") {
        return;
    }
    let (dir, _lock) = fresh_scratch("launcher-cc-failed-step");
    let (tmp, elsewhere) = (dir.join("tmp"), dir.join("elsewhere"));
    for d in [&tmp, &elsewhere, &dir.join(OUT)] {
        mkdir(d).unwrap_or_else(|e| panic!("{e}"));
    }
    let src = cc_input("squares.cpp");
    let cc = |extra: &[&str], output: &str| {
        let mut c = command(llcoro());
        c.current_dir(&dir).env("TMPDIR", &tmp).args(["cc", "--", "clang++-19", "-std=c++20", "-O1"]).args(extra);
        c.arg("-c").arg(&src).args(["-o", output]);
        run(&mut c).unwrap_or_else(|e| panic!("{e}"))
    };
    let object = format!("{OUT}/sq.o");
    let kept = |suffix: &str| format!("{object}{suffix}");
    let backend_error = "\"no-such-pass\" pass is not registered";

    // The status is the compiler's: the same as compiling the source directly with that flag.
    let mut c = command("clang++-19");
    c.current_dir(&dir).args(["-std=c++20", "-O1"]).args(BACKEND_ONLY_FAILURE).arg("-c").arg(&src);
    let direct = run(c.args(["-o", "direct.o"])).unwrap_or_else(|e| panic!("{e}"));
    assert!(!direct.success() && stderr_text(&direct).contains(backend_error), "{}", direct.describe());
    let out = cc(&BACKEND_ONLY_FAILURE, &object);
    let err = stderr_text(&out);
    assert_eq!(out.status.and_then(|s| s.code()), direct.status.and_then(|s| s.code()), "{}", out.describe());
    assert!(err.contains(backend_error), "the compiler's own message is not shown: {err}");
    let step =
        format!("llcoro cc: error: step 3 of 3, compiling the lowered IR into {object}, failed: clang++-19 exited");
    assert!(err.contains(&step), "no error line naming the failed step: {err}");
    let (presplit, lowered, script) = (kept(".llcoro.ll"), kept(".lowered.ll"), kept(".llcoro.sh"));
    let said = format!("the presplit IR is kept at {presplit}, the lowered IR at {lowered}\n");
    assert!(err.contains(&said), "the message does not say where the IR is kept: {err}");
    assert!(err.contains(&format!("`sh {script}` runs the failing step again:")), "no script named: {err}");
    assert!(!dir.join(&object).exists(), "an object was written for a failed compile");
    let read = |p: &str| fs::read_to_string(dir.join(p)).unwrap_or_else(|e| panic!("{p} not kept: {e}"));
    assert!(read(&presplit).contains("@llvm.coro.suspend"), "the kept presplit IR is not presplit");
    let text = read(&lowered);
    let left = leftovers(&text, Path::new(&lowered));
    assert!(left.is_empty() && text.contains("define"), "the kept lowered IR is not lowered: {left:?}");

    // The kept script and the printed command each run step 3 alone, from any directory, and fail
    // the same way with the same status.
    let printed = printed_command(&err).unwrap_or_else(|| panic!("no command printed: {err}"));
    assert!(printed.contains("-x ir 'it'\\''s out/sq.o.lowered.ll' -o 'it'\\''s out/sq.o'"), "printed: {printed}");
    let mut by_script = command("sh");
    by_script.arg(dir.join(&script));
    let mut by_line = command("sh");
    by_line.arg("-c").arg(&printed);
    for (what, mut c) in [("the kept script", by_script), ("the printed command", by_line)] {
        let again = run(c.current_dir(&elsewhere)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            again.status.and_then(|s| s.code()),
            out.status.and_then(|s| s.code()),
            "{what}: {}",
            again.describe()
        );
        assert!(stderr_text(&again).contains(backend_error), "{what} fails otherwise: {}", again.describe());
        assert!(!dir.join(&object).exists(), "{what} wrote an object");
    }
    assert!(files_in(&tmp).is_empty(), "temporary files left: {:?}", files_in(&tmp));

    // A later successful compile removes what the failed one kept, now stale.
    let ok_again = cc(&[], &object);
    assert!(ok_again.success() && dir.join(&object).is_file(), "{}", ok_again.describe());
    for stale in [presplit, lowered, script] {
        assert!(!dir.join(&stale).exists(), "{stale} left after a successful compile");
    }

    // Where nothing can be written beside the object (here: its directory does not exist, so step 3
    // fails too), the temporary directory is kept instead, and said.
    let out = cc(&[], "missing/sq.o");
    let err = stderr_text(&out);
    assert!(!out.success() && err.contains("unable to open output file"), "{}", out.describe());
    assert!(err.contains("keeping the temporary directory"), "{err}");
    let kept: Vec<PathBuf> = files_in(&tmp);
    let script = kept.iter().find(|p| p.ends_with("command.sh")).unwrap_or_else(|| panic!("kept: {kept:?}"));
    assert_eq!(kept.len(), 3, "kept: {kept:?}");
    assert!(err.contains(&format!("`sh {}` runs the failing step again", script.display())), "{err}");
    let again = run(command("sh").arg(script).current_dir(&elsewhere)).unwrap_or_else(|e| panic!("{e}"));
    assert!(!again.success() && stderr_text(&again).contains("missing/sq.o"), "{}", again.describe());
}

/// A standard stream llcoro cannot write to.
#[derive(Clone, Copy, Debug)]
enum Unwritable {
    /// Closed (`2>&-`): Rust's runtime gives the process /dev/null in its place.
    Closed,
    /// A pipe whose reader is gone: every write fails with EPIPE.
    BrokenPipe,
}

/// Runs llcoro with `args` in `dir`, its standard output (`fd` 1) or error (2) unwritable; the other
/// stream is captured.
fn run_unwritable(dir: &Path, args: &[&std::ffi::OsStr], fd: u8, how: Unwritable) -> std::process::Output {
    let mut c = match how {
        Unwritable::Closed => {
            let mut c = command("sh");
            c.arg("-c").arg(format!("exec \"$0\" \"$@\" {fd}>&-")).arg(llcoro());
            c
        }
        Unwritable::BrokenPipe => command(llcoro()),
    };
    c.current_dir(dir).env("TMPDIR", dir).args(args).stdin(std::process::Stdio::null());
    if let Unwritable::BrokenPipe = how {
        let (reader, writer) = std::io::pipe().unwrap_or_else(|e| panic!("pipe: {e}"));
        drop(reader);
        if fd == 1 {
            c.stdout(writer);
        } else {
            c.stderr(writer);
        }
    }
    c.output().unwrap_or_else(|e| panic!("cannot run llcoro: {e}"))
}

#[test]
fn refusals_exit_1_with_stderr_or_stdout_unwritable() {
    if !require(&["clang++-19"], "the unwritable standard streams test") {
        return;
    }
    let (dir, _lock) = fresh_scratch("launcher-unwritable");
    for (name, ll) in [("refused.cpp", "refused.ll"), ("squares.cpp", "squares.ll")] {
        let mut c = command("clang++-19");
        c.current_dir(&dir).args(["-std=c++20", "-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes"]);
        ok(c.arg(cc_input(name)).args(["-o", ll])).unwrap_or_else(|e| panic!("{e}"));
    }
    let refused_src = cc_input("refused.cpp");
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    let compile = [os("cc"), os("--"), os("clang++-19"), os("-std=c++20"), os("-c"), refused_src.as_os_str()];
    let mut problems = Vec::new();
    let status = |o: &std::process::Output| o.status.code();
    for how in [Unwritable::Closed, Unwritable::BrokenPipe] {
        // Refusals with standard error unwritable: status 1, nothing written.
        for (what, args) in [
            ("llcoro cc refusing", [&compile[..], &[os("-o"), os("refused.o")]].concat()),
            ("llcoro refusing", vec![os("refused.ll"), os("-o"), os("refused.lowered.ll")]),
            ("llcoro check", vec![os("check"), os("refused.ll")]),
            ("llcoro frames", vec![os("frames"), os("refused.ll")]),
            ("llcoro explain of an unknown code", vec![os("explain"), os("no-such-code")]),
        ] {
            let o = run_unwritable(&dir, &args, 2, how);
            if status(&o) != Some(1) || !o.stdout.is_empty() {
                problems.push(format!("{what}, stderr {how:?}: {}, stdout {:?}", o.status, excerpt(&o.stdout)));
            }
        }
        for written in ["refused.o", "refused.lowered.ll"] {
            if dir.join(written).exists() {
                problems.push(format!("{written} written, stderr {how:?}"));
            }
        }
    }
    // Standard output a broken pipe (`llcoro IN.ll | head -c1` once head has exited): the write fails,
    // which is said, status 1, never a panic.
    for (what, args) in [
        ("llcoro", vec![os("squares.ll")]),
        ("llcoro frames", vec![os("frames"), os("squares.ll")]),
        ("llcoro explain", vec![os("explain")]),
    ] {
        let o = run_unwritable(&dir, &args, 1, Unwritable::BrokenPipe);
        let err = String::from_utf8_lossy(&o.stderr);
        if status(&o) != Some(1)
            || !err.starts_with("error: cannot write output: Broken pipe")
            || err.contains("panicked")
        {
            problems.push(format!("{what}, stdout a broken pipe: {}, stderr {}", o.status, excerpt(&o.stderr)));
        }
        // Closed: the runtime's /dev/null takes the output, as `>/dev/null` would.
        let o = run_unwritable(&dir, &args, 1, Unwritable::Closed);
        if !o.status.success() || !o.stderr.is_empty() {
            problems.push(format!("{what}, stdout closed: {}, stderr {}", o.status, excerpt(&o.stderr)));
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// CMake
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Job {
    /// llcoro_enable through include(Llcoro), with incremental rebuilds.
    Module(u32, &'static str),
    Subdirectory,
    Package,
    Ccache,
    Gcc,
    Script,
}

const NINJA: &str = "Ninja";
const MAKE: &str = "Unix Makefiles";

fn build_type(clang: u32) -> &'static str {
    if clang == 22 { "Release" } else { "" }
}

struct Env {
    root: PathBuf,
    repo: PathBuf,
}

impl Env {
    fn dir(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// A copy of the project in `<name> src` and a private copy of llcoro (which a check may touch).
    fn project(&self, name: &str) -> Result<(PathBuf, PathBuf), String> {
        let src = self.dir(&format!("{name} src"));
        copy_dir(&self.repo.join("tests/launcher/project"), &src)?;
        let bin = self.dir(&format!("{name} bin"));
        mkdir(&bin)?;
        let exe = bin.join("llcoro");
        fs::copy(llcoro(), &exe).map_err(|e| format!("cannot copy llcoro: {e}"))?;
        Ok((src, exe))
    }

    fn configure(
        &self,
        src: &Path,
        build: &Path,
        generator: &str,
        clang: &str,
        extra: &[String],
    ) -> Result<Output, String> {
        let mut c = command("cmake");
        c.arg("-S").arg(src).arg("-B").arg(build).args(["-G", generator]);
        c.arg(format!("-DCMAKE_CXX_COMPILER={clang}")).arg(format!("-DLLCORO_REPO={}", self.repo.display()));
        c.args(extra);
        ok(&mut c)
    }
}

/// `cmake --build` with temporary files in `tmp`, and the IR kept when `keep_ir`.
fn build(build: &Path, tmp: &Path, keep_ir: bool, extra_env: &[(&str, &Path)]) -> Result<Output, String> {
    mkdir(tmp)?;
    let mut c = command("cmake");
    c.arg("--build").arg(build).args(["-j", "1"]).env("TMPDIR", tmp);
    if keep_ir {
        c.env("LLCORO_KEEP_IR", "1");
    }
    for (k, v) in extra_env {
        c.env(k, v);
    }
    ok(&mut c)
}

/// The object files of each program's target, by path, with their modification times.
fn objects(build: &Path) -> BTreeMap<PathBuf, SystemTime> {
    let mut out = BTreeMap::new();
    for (program, _) in PROGRAMS {
        for f in files_in(&build.join(format!("CMakeFiles/{program}.dir"))) {
            if f.extension().is_some_and(|e| e == "o") {
                let t = fs::metadata(&f).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
                out.insert(f, t);
            }
        }
    }
    out
}

/// One object per source in every target, each compiled through llcoro (its IR kept beside it).
fn check_objects(build: &Path, problems: &mut Vec<String>) {
    let objs = objects(build);
    for (program, n) in PROGRAMS {
        let dir = build.join(format!("CMakeFiles/{program}.dir"));
        let mine: Vec<&PathBuf> = objs.keys().filter(|p| p.starts_with(&dir)).collect();
        if mine.len() != n {
            problems.push(format!("{program}: {} objects, expected {n}: {mine:?}", mine.len()));
        }
        for o in mine {
            let mut kept = o.clone().into_os_string();
            kept.push(".lowered.ll");
            let kept = PathBuf::from(kept);
            match fs::read_to_string(&kept) {
                Err(_) => {
                    problems.push(format!("{} was not compiled through llcoro (no {})", o.display(), kept.display()))
                }
                Ok(text) => problems.extend(leftovers(&text, &kept)),
            }
        }
    }
}

fn run_programs(build: &Path) -> Result<Vec<(String, Output)>, String> {
    PROGRAMS
        .iter()
        .map(|(p, _)| run_with(&mut command(build.join(p)), None, RUN_TIMEOUT).map(|o| (p.to_string(), o)))
        .collect()
}

fn compare(what: &str, reference: &[(String, Output)], actual: &[(String, Output)], problems: &mut Vec<String>) {
    for ((name, r), (_, a)) in reference.iter().zip(actual) {
        for d in run_differences(r, a, ("reference", "llcoro")) {
            problems.push(format!("{what}: {name}: {d}"));
        }
    }
}

/// The kxs programs (built only with llcoro): `kxs_call_chain` must finish with every frame freed;
/// with `all`, every program of `tests/kxs/cpp` must print the output its source states.
fn check_kxs(build: &Path, problems: &mut Vec<String>, all: bool) {
    let exe = build.join("kxs_call_chain");
    match run_with(&mut command(&exe), None, RUN_TIMEOUT) {
        Ok(o) if o.success() && String::from_utf8_lossy(&o.stdout).contains("result=309 live=0") => {}
        Ok(o) => problems.push(format!("kxs_call_chain: {}\n{}", o.describe(), excerpt(&o.stdout))),
        Err(e) => problems.push(format!("kxs_call_chain: {e}")),
    }
    if !all {
        return;
    }
    let programs = files_in(&repo().join("tests/kxs/cpp"));
    for src in programs.iter().filter(|p| p.extension().is_some_and(|e| e == "cpp")) {
        let stem = src.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(want) = fs::read_to_string(src).ok().and_then(|t| common::expected_block(&t, "//")) else {
            problems.push(format!("{}: no `// EXPECT:` block", src.display()));
            continue;
        };
        match run_with(&mut command(build.join(format!("kxs_{stem}"))), None, RUN_TIMEOUT) {
            Ok(o) if o.success() && String::from_utf8_lossy(&o.stdout) == want => {}
            Ok(o) => problems.push(format!(
                "kxs_{stem}: {}\n{}",
                o.status_text(),
                common::first_difference(want.as_bytes(), &o.stdout, ("expected", "actual"))
            )),
            Err(e) => problems.push(format!("kxs_{stem}: {e}")),
        }
    }
}

fn no_temporaries(tmp: &Path, problems: &mut Vec<String>) {
    let left = files_in(tmp);
    if !left.is_empty() {
        problems.push(format!("temporary files left: {left:?}"));
    }
}

fn touch(p: &Path) -> Result<(), String> {
    let f = fs::File::options().write(true).open(p).map_err(|e| format!("{}: {e}", p.display()))?;
    f.set_modified(SystemTime::now()).map_err(|e| format!("touch {}: {e}", p.display()))
}

fn output_of(build: &Path, program: &str) -> Result<String, String> {
    let o = run_with(&mut command(build.join(program)), None, RUN_TIMEOUT)?;
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// `include(Llcoro)` and llcoro_enable() with one compiler and generator: the build, its programs,
/// and incremental rebuilds.
fn module_job(env: &Env, clang: u32, generator: &str, reference: &[(String, Output)]) -> Result<Vec<String>, String> {
    let name = format!("module {clang} {}", if generator == NINJA { "ninja" } else { "make" });
    let (src, exe) = env.project(&name)?;
    let bdir = env.dir(&format!("{name} build"));
    let tmp = env.dir(&format!("{name} tmp"));
    let extra = [format!("-DCMAKE_BUILD_TYPE={}", build_type(clang)), format!("-DLLCORO_EXECUTABLE={}", exe.display())];
    env.configure(&src, &bdir, generator, &format!("clang++-{clang}"), &extra)?;
    build(&bdir, &tmp, true, &[])?;
    let mut problems = Vec::new();
    check_objects(&bdir, &mut problems);
    no_temporaries(&tmp, &mut problems);
    let lowered = bdir.join("print_loop.lowered.ll");
    match fs::read_to_string(&lowered) {
        Ok(text) => problems.extend(leftovers(&text, &lowered)),
        Err(e) => problems.push(format!("kxs_transform_ir(): no {}: {e}", lowered.display())),
    }
    compare("first build", reference, &run_programs(&bdir)?, &mut problems);
    check_kxs(&bdir, &mut problems, true);

    // Nothing to do: nothing rebuilt.
    let before = objects(&bdir);
    build(&bdir, &tmp, false, &[])?;
    if objects(&bdir) != before {
        problems.push("a rebuild with nothing changed recompiled objects".into());
    }
    // The shared header: exactly its two objects, and the new step in the output.
    let header = src.join("include dir/counter.hpp");
    let text = fs::read_to_string(&header).map_err(|e| format!("{}: {e}", header.display()))?;
    fs::write(&header, text.replace("kStep = 1;", "kStep = 3;")).map_err(|e| format!("{}: {e}", header.display()))?;
    build(&bdir, &tmp, false, &[])?;
    let after = objects(&bdir);
    let counter_dir = bdir.join("CMakeFiles/counter.dir");
    for (o, t) in &after {
        let rebuilt = before.get(o) != Some(t);
        if rebuilt != o.starts_with(&counter_dir) {
            let what = if rebuilt { "was rebuilt" } else { "was not rebuilt" };
            problems.push(format!("after editing counter.hpp, {} {what}", o.display()));
        }
    }
    let out = output_of(&bdir, "counter")?;
    if !out.contains("step=3 sum=63") {
        problems.push(format!("after editing counter.hpp, counter printed {out:?}"));
    }
    // A new llcoro: every object.
    touch(&exe)?;
    build(&bdir, &tmp, false, &[])?;
    let last = objects(&bdir);
    for (o, t) in &after {
        if last.get(o) == Some(t) {
            problems.push(format!("after a new llcoro binary, {} was not rebuilt", o.display()));
        }
    }
    if !output_of(&bdir, "counter")?.contains("step=3 sum=63") {
        problems.push("after a new llcoro binary, counter prints the wrong sum".into());
    }
    no_temporaries(&tmp, &mut problems);
    Ok(problems.into_iter().map(|p| format!("{name}: {p}")).collect())
}

fn subdirectory_job(env: &Env, reference: &[(String, Output)]) -> Result<Vec<String>, String> {
    let (src, exe) = env.project("subdirectory")?;
    let (bdir, tmp) = (env.dir("subdirectory build"), env.dir("subdirectory tmp"));
    let extra = [
        "-DDEMO_LLCORO=subdirectory".to_string(),
        format!("-DCMAKE_BUILD_TYPE={}", build_type(22)),
        format!("-DLLCORO_EXECUTABLE={}", exe.display()),
    ];
    env.configure(&src, &bdir, NINJA, "clang++-22", &extra)?;
    build(&bdir, &tmp, true, &[])?;
    let mut problems = Vec::new();
    check_objects(&bdir, &mut problems);
    compare("add_subdirectory", reference, &run_programs(&bdir)?, &mut problems);
    check_kxs(&bdir, &mut problems, false);
    Ok(problems.into_iter().map(|p| format!("add_subdirectory: {p}")).collect())
}

/// Installs the package (the repository's CMakeLists.txt) into `prefix`.
fn install_package(env: &Env, prefix: &Path) -> Result<(), String> {
    let bdir = env.dir("package install build");
    let mut c = command("cmake");
    c.arg("-S").arg(&env.repo).arg("-B").arg(&bdir).args(["-G", NINJA]);
    c.arg(format!("-DLLCORO_EXECUTABLE={}", llcoro())).arg(format!("-DCMAKE_INSTALL_PREFIX={}", prefix.display()));
    ok(&mut c)?;
    ok(command("cmake").arg("--install").arg(&bdir))?;
    for f in ["bin/llcoro", "lib/cmake/llcoro/llcoroConfig.cmake", "lib/cmake/llcoro/Llcoro.cmake"] {
        if !prefix.join(f).is_file() {
            return Err(format!("cmake --install did not install {f}"));
        }
    }
    Ok(())
}

fn package_job(env: &Env, reference: &[(String, Output)]) -> Result<Vec<String>, String> {
    let prefix = env.dir("package prefix");
    install_package(env, &prefix)?;
    let (src, _) = env.project("package")?;
    let (bdir, tmp) = (env.dir("package build"), env.dir("package tmp"));
    let extra = ["-DDEMO_LLCORO=package".to_string(), format!("-DCMAKE_PREFIX_PATH={}", prefix.display())];
    env.configure(&src, &bdir, MAKE, "clang++-19", &extra)?;
    let mut problems = Vec::new();
    let cache = fs::read_to_string(bdir.join("CMakeCache.txt")).unwrap_or_default();
    let want = format!("={}", prefix.join("bin/llcoro").display());
    if !cache.lines().any(|l| l.starts_with("LLCORO_EXECUTABLE:") && l.ends_with(&want)) {
        problems.push(format!("LLCORO_EXECUTABLE is not the package's binary {want}"));
    }
    build(&bdir, &tmp, true, &[])?;
    check_objects(&bdir, &mut problems);
    compare("find_package", reference, &run_programs(&bdir)?, &mut problems);
    check_kxs(&bdir, &mut problems, false);
    Ok(problems.into_iter().map(|p| format!("find_package: {p}")).collect())
}

/// ccache's counters from `ccache --print-stats`.
fn ccache_stats(dir: &Path) -> Result<BTreeMap<String, u64>, String> {
    let o = ok(command("ccache").env("CCACHE_DIR", dir).arg("--print-stats"))?;
    Ok(String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| {
            let (k, v) = l.split_once('\t')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect())
}

fn ccache_job(env: &Env, reference: &[(String, Output)]) -> Result<Vec<String>, String> {
    let (src, exe) = env.project("ccache")?;
    let cache = env.dir("ccache dir");
    let tmp = env.dir("ccache tmp");
    let extra = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache".to_string(), format!("-DLLCORO_EXECUTABLE={}", exe.display())];
    // The project's programs and, in module mode, every kxs program.
    let kxs_programs =
        files_in(&env.repo.join("tests/kxs/cpp")).iter().filter(|p| p.extension().is_some_and(|e| e == "cpp")).count();
    let sources: u64 = PROGRAMS.iter().map(|(_, n)| *n as u64).sum::<u64>() + kxs_programs as u64;
    let mut problems = Vec::new();
    let counters = |s: &BTreeMap<String, u64>| {
        let get = |k: &str| s.get(k).copied().unwrap_or(0);
        (get("direct_cache_hit") + get("preprocessed_cache_hit"), get("cache_miss"))
    };
    let env_vars: [(&str, &Path); 1] = [("CCACHE_DIR", &cache)];
    // A first build fills the cache; a second build directory is served from it.
    for (i, name) in ["ccache build 1", "ccache build 2"].iter().enumerate() {
        let bdir = env.dir(name);
        env.configure(&src, &bdir, NINJA, "clang++-19", &extra)?;
        ok(command("ccache").env("CCACHE_DIR", &cache).arg("--zero-stats"))?;
        build(&bdir, &tmp, i == 0, &env_vars)?;
        let (hits, misses) = counters(&ccache_stats(&cache)?);
        let want = if i == 0 { (0, sources) } else { (sources, 0) };
        if (hits, misses) != want {
            problems.push(format!("{name}: {hits} cache hits and {misses} misses, expected {want:?}"));
        }
        if i == 0 {
            check_objects(&bdir, &mut problems);
        }
        compare(name, reference, &run_programs(&bdir)?, &mut problems);
    }
    // A new llcoro is a new compiler to ccache: every object misses.
    touch(&exe)?;
    ok(command("ccache").env("CCACHE_DIR", &cache).arg("--zero-stats"))?;
    build(&env.dir("ccache build 2"), &tmp, false, &env_vars)?;
    let (hits, misses) = counters(&ccache_stats(&cache)?);
    if (hits, misses) != (0, sources) {
        problems.push(format!("after a new llcoro: {hits} cache hits and {misses} misses, expected 0 and {sources}"));
    }
    no_temporaries(&tmp, &mut problems);
    Ok(problems.into_iter().map(|p| format!("ccache: {p}")).collect())
}

fn gcc_job(env: &Env) -> Result<Vec<String>, String> {
    let (src, exe) = env.project("gcc")?;
    let mut c = command("cmake");
    c.arg("-S").arg(&src).arg("-B").arg(env.dir("gcc build")).args(["-G", NINJA, "-DCMAKE_CXX_COMPILER=g++"]);
    c.arg(format!("-DLLCORO_REPO={}", env.repo.display())).arg(format!("-DLLCORO_EXECUTABLE={}", exe.display()));
    let out = run(&mut c)?;
    let err = stderr_text(&out).split_whitespace().collect::<Vec<_>>().join(" ");
    if out.success() || !err.contains("llcoro needs clang as the C++ compiler") || !err.contains("(GNU") {
        return Ok(vec![format!("configure with g++: not the clear failure: {}", out.describe())]);
    }
    Ok(Vec::new())
}

fn script_job(env: &Env) -> Result<Vec<String>, String> {
    let script = env.repo.join("cmake/Modules/kxs_transform_ir.cmake");
    let dir = env.dir("script out");
    mkdir(&dir)?;
    let mut problems = Vec::new();
    let lowered = dir.join("print loop.ll");
    let mut c = command("cmake");
    c.arg(format!("-DINPUT={}", env.repo.join("examples/print_loop.ll").display()));
    c.arg(format!("-DOUTPUT={}", lowered.display()))
        .arg(format!("-DLLCORO_EXECUTABLE={}", llcoro()))
        .arg("-P")
        .arg(&script);
    ok(&mut c)?;
    match fs::read_to_string(&lowered) {
        Ok(text) => problems.extend(leftovers(&text, &lowered)),
        Err(e) => problems.push(format!("no output: {e}")),
    }
    let refused = dir.join("refused.ll");
    let mut c = command("cmake");
    c.arg(format!("-DINPUT={}", env.repo.join("tests/coro-errors/multiple_begin.ll").display()));
    c.arg(format!("-DOUTPUT={}", refused.display()))
        .arg(format!("-DLLCORO_EXECUTABLE={}", llcoro()))
        .arg("-P")
        .arg(&script);
    let out = run(&mut c)?;
    if out.success() || !stderr_text(&out).contains("error[coro-multiple-begin]") || refused.exists() {
        problems.push(format!("a refused input: {}", out.describe()));
    }
    Ok(problems.into_iter().map(|p| format!("kxs_transform_ir.cmake: {p}")).collect())
}

fn reference_job(env: &Env, clang: u32) -> Result<Vec<(String, Output)>, String> {
    let src = env.repo.join("tests/launcher/project");
    let bdir = env.dir(&format!("reference {clang}"));
    let extra = ["-DDEMO_LLCORO=none".to_string(), format!("-DCMAKE_BUILD_TYPE={}", build_type(clang))];
    env.configure(&src, &bdir, NINJA, &format!("clang++-{clang}"), &extra)?;
    build(&bdir, &env.dir(&format!("reference {clang} tmp")), false, &[])?;
    let runs = run_programs(&bdir)?;
    let status = runs.iter().find(|(n, _)| n == "exit_status").and_then(|(_, o)| o.status?.code());
    if status != Some(42) {
        return Err(format!("reference exit_status exited with {status:?}, not 42"));
    }
    Ok(runs)
}

#[test]
fn cmake_projects_build_through_llcoro() {
    let tools = ["cmake", "ninja", "make", "clang++-19", "clang++-22", "g++", "ccache"];
    if !require(&tools, "the CMake launcher test") {
        return;
    }
    let start = std::time::Instant::now();
    let (root, _lock) = fresh_scratch("launcher-cmake");
    let env = Env { root: root.join("work dir"), repo: repo() };

    // The references first: every llcoro build is compared with them.
    let refs = parallel_map(&[19u32, 22], 2, |&c| reference_job(&env, c));
    let mut reference = BTreeMap::new();
    for (clang, r) in [19u32, 22].into_iter().zip(refs) {
        reference.insert(clang, r.unwrap_or_else(|e| panic!("reference build with clang++-{clang}: {e}")));
    }
    let jobs = [
        Job::Module(19, NINJA),
        Job::Module(22, MAKE),
        Job::Module(19, MAKE),
        Job::Module(22, NINJA),
        Job::Package,
        Job::Subdirectory,
        Job::Ccache,
        Job::Gcc,
        Job::Script,
    ];
    let results = parallel_map(&jobs, 2, |job| {
        let reference = |clang: u32| reference.get(&clang).map(Vec::as_slice).unwrap_or_default();
        let r = match *job {
            Job::Module(c, g) => module_job(&env, c, g, reference(c)),
            Job::Subdirectory => subdirectory_job(&env, reference(22)),
            Job::Package => package_job(&env, reference(19)),
            Job::Ccache => ccache_job(&env, reference(19)),
            Job::Gcc => gcc_job(&env),
            Job::Script => script_job(&env),
        };
        r.unwrap_or_else(|e| vec![format!("{job:?}: {e}")])
    });
    let failed: Vec<String> = results.iter().flatten().cloned().collect();
    let n_failed = results.iter().filter(|r| !r.is_empty()).count();
    println!("CMake launcher checks in {:.0?}", start.elapsed());
    println!("{} passed, {} failed", jobs.len() - n_failed, n_failed);
    assert!(failed.is_empty(), "{} problem(s):\n{}", failed.len(), failed.join("\n"));
}
