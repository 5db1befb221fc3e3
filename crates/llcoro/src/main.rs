//! The `llcoro` command: the library's entry points (`llcoro::prepare`, `check`, `frames`) behind a
//! command line, with reading the input, writing the output whole, and rendering findings.

use clap::Parser;
use llcoro::{Finding, Options, Scope, prepare};
use llir::raw_bytes::RawBytes;
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

// Parsing allocates many small objects from two threads; mimalloc is markedly faster than glibc's
// allocator at that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its position in `mi_option_e`, mimalloc.h, versions 2 and 3).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc 3 keeps freed memory for a second (`purge_delay` 1000 ms) before giving it back, about
/// as long as a whole run, so the tables a parse frees stay in the peak. 10 ms: on the 16k diamonds
/// 47 against 52 MiB at 50 ms, on the 84 MB module 258 against 263 MiB, at no measured cost in time
/// (medians of 9 runs, 1.74 against 1.73 s). While mimalloc asked for huge pages, 10 ms cost a
/// quarter more time there; 5 ms costs 2 to 4% now, 0 ms a tenth. `MIMALLOC_PURGE_DELAY` still
/// wins.
fn tune_allocator() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one integer option; mimalloc reads options atomically, from any thread.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
    }
}

/// Lowers suspendable functions in LLVM textual IR (LLVM 14 to 22) into plain IR.
///
/// With nothing to lower, the input is written back byte for byte.
#[derive(Parser, Debug)]
#[command(name = "llcoro", version, about, long_about = None, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
    /// Input .ll file; `-` or absent reads standard input.
    input: Option<String>,
    /// Output file; `-` or absent writes standard output. Written via a temporary file and a rename,
    /// so it is never left partial.
    #[arg(short = 'o', value_name = "OUTPUT")]
    output: Option<String>,
    /// Parse every function body into the SSA IR and print the whole module from the IR, lowering
    /// nothing (the parser's round trip).
    #[arg(long)]
    parse_all: bool,
    /// How each `.resume` function finds where to continue: a `switch` on the suspend index
    /// (LLVM's way), or an `indirectbr` on a block address stored at each suspend (Kotlin/Native's
    /// computed goto; one more pointer in the frame).
    #[arg(long, value_enum, default_value_t)]
    dispatch: llcoro::Dispatch,
    /// Lower on this thread only, instead of on a thread per chunk of functions; the output is the
    /// same. For builds that run several llcoro at once, where more threads only cost CPU time
    /// (`llcoro cc` always lowers this way).
    #[arg(long)]
    serial: bool,
    /// Assume no other module makes coroutines with this module's promise types (one module for the
    /// whole program, or promise types private to it). `coroutine_handle<P>::resume()` and
    /// `destroy()` then call the parts of the module's coroutine with promise type P directly,
    /// without first checking the frame's header, so that -O2 can keep a frame on the caller's
    /// stack in registers. Not interoperable: a handle to another module's coroutine with the same
    /// promise type would run this module's code
    #[arg(long)]
    closed_promises: bool,
}

#[derive(clap::Subcommand, Debug)]
enum Cmd {
    /// Lower only the kxs suspend functions (those calling `__kxs_suspend_point`); C++20 coroutines
    /// are left as they are. The default command lowers both.
    Kxs {
        /// Input .ll file; `-` or absent reads standard input.
        input: Option<String>,
        /// Output file; `-` or absent writes standard output.
        #[arg(short = 'o', value_name = "OUTPUT")]
        output: Option<String>,
    },
    /// Report structural problems in presplit coroutines without rewriting anything. Exit status 0
    /// when there are no findings, 1 when there are any.
    Check {
        /// Input .ll file; `-` reads standard input.
        input: String,
    },
    /// Report the frame of every coroutine: size, alignment, every field with its offset, size,
    /// type, what it holds and the suspend points it is live across.
    Frames {
        /// Input .ll file; `-` reads standard input.
        input: String,
        /// text (default); json (docs/frames-json.md); svg (one row per suspend point, one column per
        /// byte); html (one self-contained page: the frames in a sortable table, each with its picture).
        #[arg(long, default_value = "text", value_parser = ["text", "json", "svg", "html"])]
        format: String,
        /// Output file; `-` or absent writes standard output.
        #[arg(short = 'o', value_name = "OUTPUT")]
        output: Option<String>,
    },
    /// Explain a diagnostic code (`error[CODE]`, `warning[CODE]`): what it means, an input that
    /// triggers it, and how to fix it. Without a code, list them all.
    Explain {
        /// The code, such as `coro-missing-end`.
        code: Option<String>,
    },
    /// Compiler launcher: run a clang command that compiles one C or C++ source to an object with
    /// llcoro lowering its IR in between; run any other command unchanged (docs/launcher.md).
    Cc {
        /// Run each compile under this compiler cache (ccache, sccache): `--wrapper=ccache`.
        #[arg(long, value_name = "PROGRAM")]
        wrapper: Option<std::ffi::OsString>,
        /// The compiler, when the command holds only its arguments (how `--wrapper` calls llcoro).
        #[arg(long, value_name = "PATH")]
        compiler: Option<std::ffi::OsString>,
        /// Ignored; identifies the compiler's binary to a compiler cache that hashes the command line.
        #[arg(long, hide = true)]
        compiler_stamp: Option<String>,
        /// The compiler and its arguments, e.g. `-- clang++ -O2 -c a.cpp -o a.o`.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "COMPILER ARGS")]
        command: Vec<std::ffi::OsString>,
    },
}

/// `eprintln!` without its panic: a write to a closed or broken standard error is dropped, so that a
/// refusal still exits 1, not with a panic's 101.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// The input as text, and how to write its raw bytes back (`llir::raw_bytes`: LLVM reads bytes that
/// are not UTF-8 in comments, strings and quoted names, and so does llcoro).
fn read_text(input: &str) -> Result<(String, RawBytes), ExitCode> {
    let display = if input == "-" { "<stdin>" } else { input };
    let bytes = read_input(input).map_err(|e| {
        say!("error: cannot read {display}: {e}");
        ExitCode::from(1)
    })?;
    llir::raw_bytes::decode(bytes).map_err(|e| {
        say!(
            "error: {display}: byte {} is not UTF-8, and the file holds a character of every Unicode private-use \
             block, which llcoro needs one of to carry such bytes; escape the byte as \\XX",
            e.first_invalid
        );
        ExitCode::from(1)
    })
}

/// Runs `f`; a panic, which is a bug in llcoro, becomes an internal error and exit status 1, with
/// nothing written (the panic's own message, printed first, says where).
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, ExitCode> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|_| {
        say!(
            "error[internal]: llcoro stopped on a bug of its own; nothing was written\n  = help: please report it with the input file"
        );
        ExitCode::from(1)
    })
}

fn report(display: &str, src: &str, raw: RawBytes, findings: &[Finding]) {
    for f in findings {
        let _ = std::io::stderr().write_all(raw.display(&f.render(display, src)).as_bytes());
    }
}

fn main() -> ExitCode {
    tune_allocator();
    let cli = Cli::parse();
    if let Some(Cmd::Cc { wrapper, compiler, command, .. }) = cli.cmd {
        return llcoro::launcher::main(command, llcoro::launcher::Invocation { wrapper, compiler });
    }
    match &cli.cmd {
        Some(Cmd::Explain { code }) => explain(code.as_deref()),
        Some(Cmd::Check { input }) => check(input),
        Some(Cmd::Frames { input, format, output }) => frames(input, format, output.as_deref()),
        Some(Cmd::Kxs { input, output }) => lower(&cli, input.as_deref(), output.as_deref(), Scope::Kxs),
        _ => lower(&cli, cli.input.as_deref(), cli.output.as_deref(), Scope::All),
    }
}

/// How diagnostics name the input.
fn display_name(input: &str) -> &str {
    if input == "-" { "<stdin>" } else { input }
}

/// The exit status once the output has been written (or could not be).
fn exit_status(written: std::io::Result<()>) -> ExitCode {
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("error: cannot write output: {e}");
            ExitCode::from(1)
        }
    }
}

/// `llcoro explain [CODE]`.
fn explain(code: Option<&str>) -> ExitCode {
    let text = match code.map(|c| (c, llcoro::explain::find(c))) {
        None => llcoro::explain::list(),
        Some((_, Some(e))) => llcoro::explain::render(e),
        Some((c, None)) => {
            say!("error: no diagnostic code `{c}`; `llcoro explain` lists them");
            return ExitCode::from(1);
        }
    };
    exit_status(write_output("-", "-", &mut |w| w.write_all(text.as_bytes())))
}

/// `llcoro check INPUT`.
fn check(input: &str) -> ExitCode {
    let display = display_name(input);
    let (src, raw) = match read_text(input) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let (findings, src) = match guarded(|| llcoro::check(src)) {
        Ok(x) => x,
        Err(code) => return code,
    };
    report(display, &src, raw, &findings);
    if findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// `llcoro frames INPUT --format FORMAT -o OUTPUT`.
fn frames(input: &str, format: &str, output: Option<&str>) -> ExitCode {
    let display = display_name(input);
    let (src, raw) = match read_text(input) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let (reports, warnings, src) = match guarded(|| llcoro::frames(src)) {
        Err(code) => return code,
        Ok(Ok(x)) => x,
        Ok(Err(r)) => {
            report(display, &r.src, raw, &r.findings);
            return ExitCode::from(1);
        }
    };
    report(display, &src, raw, &warnings);
    let text = match format {
        "json" => llcoro::report::json(&reports),
        "svg" => llcoro::report::svg(&reports),
        "html" => llcoro::report::html(&reports, display),
        _ => llcoro::report::text(&reports),
    };
    // A report is text for people and programs: a raw byte in a name shows as U+FFFD.
    let text = raw.display(&text);
    exit_status(write_output(output.unwrap_or("-"), input, &mut |w| w.write_all(text.as_bytes())))
}

/// Lowering (`llcoro INPUT`, `llcoro kxs INPUT`): `scope` says what.
fn lower(cli: &Cli, input: Option<&str>, output: Option<&str>, scope: Scope) -> ExitCode {
    let input = input.unwrap_or("-");
    let display = display_name(input);
    let (src, raw) = match read_text(input) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let opts = Options {
        parse_all: cli.parse_all,
        dispatch: cli.dispatch,
        scope,
        serial: cli.serial,
        closed_promises: cli.closed_promises,
    };
    let out = match guarded(|| prepare(src, opts)) {
        Err(code) => return code,
        Ok(Ok(o)) => o,
        Ok(Err(r)) => {
            report(display, &r.src, raw, &r.findings);
            return ExitCode::from(1);
        }
    };
    report(display, out.src(), raw, &out.warnings);
    let written = write_output(output.unwrap_or("-"), input, &mut |w| raw.write_through(w, |w| out.write_to(w)));
    // The input, the parsed module and the printed functions are hundreds of thousands of
    // allocations on a large module; the process's exit gives them back at once, faster than
    // freeing them one by one (clang's `-disable-free` does the same).
    std::mem::forget(out);
    exit_status(written)
}

fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        Ok(v)
    } else {
        read_file(path)
    }
}

/// Files from this size up are read in two halves at once.
const READ_IN_HALVES: u64 = 8 << 20;

/// The bytes of the file at `path`. A large regular file is read by two threads, each half into its
/// place: most of a read's time is the kernel copying and the fresh buffer's page faults, and both
/// halves proceed side by side (84 MB: 60 to 80 ms on one thread, about half on two). A file that
/// changes size meanwhile is read again in one go.
fn read_file(path: &str) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let len = match usize::try_from(meta.len()) {
        Ok(n) if meta.is_file() && meta.len() >= READ_IN_HALVES => n,
        _ => return std::fs::read(path),
    };
    let mut buf = vec![0u8; len];
    let mid = len / 2;
    let (low, high) = buf.split_at_mut(mid);
    let (a, b) = std::thread::scope(|s| {
        let reader = s.spawn(|| file.read_exact_at(high, mid as u64));
        let a = file.read_exact_at(low, 0);
        (a, reader.join().unwrap_or_else(|_| Err(std::io::Error::other("reader thread failed"))))
    });
    // A byte past the end means the file grew; a short read fails above.
    let mut past = [0u8; 1];
    if a.is_err() || b.is_err() || file.read_at(&mut past, len as u64)? != 0 {
        return std::fs::read(path);
    }
    Ok(buf)
}

/// Writes the output through `emit`, buffered. A file is written as a temporary file next to it and
/// renamed into place, so it is never left partial; on any error the temporary file is deleted.
/// `input` is the input's path (`-` for standard input).
///
/// The previous output file never has the new one renamed over it: then ext4 writes out the new
/// file's pages, and frees the old file's, before the rename returns (84 MB module: 195 ms of a
/// 2 to 3 s run; freeing a 146 MB file alone takes 25 to 170 ms). It is moved aside to a free name
/// instead, and deleted on another thread while the new file is written. If it is the input itself
/// (`-o` the input's own name), it stays until the new file has taken its place, and comes back if
/// that fails.
fn write_output(
    path: &str,
    input: &str,
    emit: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    const BUF: usize = 1 << 20;
    if path == "-" {
        let mut out = std::io::BufWriter::with_capacity(BUF, std::io::stdout().lock());
        emit(&mut out)?;
        return out.flush();
    }
    let p = Path::new(path);
    // A device or a pipe (`-o /dev/null`) is written in place: renaming a file over it would replace
    // the device, and there is no partial file to avoid.
    if std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut out = std::io::BufWriter::with_capacity(BUF, std::fs::OpenOptions::new().write(true).open(p)?);
        emit(&mut out)?;
        return out.flush();
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Created as any file a compiler writes (0666 less the umask), not tempfile's owner-only 0600.
    let tmp =
        tempfile::Builder::new().permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666)).tempfile_in(dir)?;
    let is_input = std::fs::symlink_metadata(p).is_ok_and(|old| {
        input != "-" && std::fs::metadata(input).is_ok_and(|i| i.dev() == old.dev() && i.ino() == old.ino())
    });
    let _deleting = Deleting(if is_input { None } else { move_aside(p, dir).map(Deleting::start) });
    let mut w = std::io::BufWriter::with_capacity(BUF, tmp);
    emit(&mut w)?;
    // Dropping the temporary file (on an error above or here) deletes it.
    let tmp = w.into_inner().map_err(|e| e.into_error())?;
    let kept = if is_input { move_aside(p, dir) } else { None };
    match tmp.persist(p) {
        Ok(_) => {
            if let Some(a) = kept {
                let _ = std::fs::remove_file(a);
            }
            Ok(())
        }
        Err(e) => {
            if let Some(a) = kept {
                let _ = std::fs::rename(a, p);
            }
            Err(e.error)
        }
    }
}

/// Renames the regular file at `p` to a free name in `dir`, and returns that name; `None` when
/// there is no such file (a symbolic link, say, is left for the rename to replace) or no free name.
fn move_aside(p: &Path, dir: &Path) -> Option<std::path::PathBuf> {
    if !std::fs::symlink_metadata(p).ok()?.is_file() {
        return None;
    }
    let name = p.file_name()?.to_string_lossy();
    let aside = dir.join(format!(".{name}.llcoro-old-{}", std::process::id()));
    if std::fs::symlink_metadata(&aside).is_ok() {
        return None;
    }
    std::fs::rename(p, &aside).ok()?;
    Some(aside)
}

/// A file being deleted on a thread of its own; dropping this waits for it, so that the deletion
/// is done when the command returns.
struct Deleting(Option<std::thread::JoinHandle<()>>);

impl Deleting {
    fn start(path: std::path::PathBuf) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || {
            let _ = std::fs::remove_file(path);
        })
    }
}

impl Drop for Deleting {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_an_internal_error_not_a_crash() {
        assert!(matches!(guarded(|| 7), Ok(7)));
        // (The test prints the panic's message.)
        assert!(guarded(|| -> u8 { panic!("a bug") }).is_err());
    }

    #[test]
    fn an_output_file_is_replaced_whole_and_nothing_is_left_beside_it() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let files = || std::fs::read_dir(dir.path()).expect("list").filter_map(|e| e.ok()).count();
        let path = dir.path().join("out.ll");
        let out = path.to_str().expect("utf-8 path");
        let input = dir.path().join("in.ll");
        let input = input.to_str().expect("utf-8 path");
        std::fs::write(input, "input").expect("write");
        std::fs::write(&path, "old text").expect("write");
        write_output(out, input, &mut |w| w.write_all(b"new text")).expect("written");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new text");
        // With the permissions of any file the user creates (here: `std::fs::write`'s).
        let mode =
            |p: &Path| std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(p).expect("metadata").permissions());
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").expect("write");
        assert_eq!(mode(&path), mode(&plain));
        std::fs::remove_file(&plain).expect("remove");
        assert_eq!(files(), 2, "the old output or a temporary file was left behind");
        // Written over its own input, and failing: the input stays as it was.
        let failed = write_output(input, input, &mut |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(input).expect("read"), "input");
        // Written over its own input, succeeding.
        write_output(input, input, &mut |w| w.write_all(b"lowered")).expect("written");
        assert_eq!(std::fs::read_to_string(input).expect("read"), "lowered");
        assert_eq!(files(), 2);
        // A failed write never leaves a partial file under the output's name.
        let failed = write_output(out, input, &mut |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert!(std::fs::read_to_string(&path).map_or(true, |t| t != "half"));
        assert_eq!(files(), 1);
    }

    #[test]
    fn a_large_file_read_in_halves_is_its_bytes_in_order() {
        // Over the threshold, odd-sized, and a multi-byte character across the middle.
        let len = READ_IN_HALVES as usize + 3;
        let mut bytes: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
        bytes.splice(len / 2 - 1..len / 2 + 1, "é".bytes());
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("big.ll");
        std::fs::write(&path, &bytes).expect("write");
        let read = read_file(path.to_str().expect("utf-8 path")).expect("read");
        assert_eq!(read.len(), bytes.len());
        assert!(read == bytes);
        // A small file takes the one-thread path.
        std::fs::write(&path, b"x").expect("write");
        assert_eq!(read_file(path.to_str().expect("utf-8 path")).expect("read"), b"x");
    }
}
