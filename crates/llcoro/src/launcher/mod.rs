//! `llcoro cc -- COMPILER ARGS...`: a compiler launcher (CMake's `CMAKE_CXX_COMPILER_LAUNCHER`).
//!
//! A clang command that compiles one C or C++ source to an object is run in three steps: the same
//! command writes the presplit IR (`-emit-llvm -S -Xclang -disable-llvm-passes`) to a temporary
//! file, llcoro lowers it in-process, and the compiler turns the lowered IR into the object the
//! command asked for. Every other command (links, `-E`, `-M`, `-S`, several sources, other
//! compilers, ...) runs unchanged.
//!
//! The source step keeps every preprocessor and dependency flag, so the `.d` file is written there;
//! its target and path are made explicit because clang would otherwise derive both from the
//! temporary IR file. The IR step keeps only the flags that matter for code generation.
//!
//! A failure of the source step is the user's compile error, left to clang. A refusal keeps the
//! presplit IR beside the object; a failure after the lowering is named as llcoro's step 3 and keeps
//! beside the object what runs that step alone again (`Kept`).

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

/// `eprintln!` without its panic: a write to a closed or broken standard error is dropped, so that a
/// refusal still exits 1, and a failed step with the compiler's status, not with a panic's 101.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod classify;
mod depfile;
mod steps;

pub use classify::{classify, expand_response_files, is_clang};
use steps::{exec, lower, prefixed, show, stamp};

/// `eprint!` of a rendered diagnostic, without its panic (as `say!`).
fn emit(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// What `llcoro cc` does with a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Plan {
    /// Run the command unchanged, for the reason given.
    PassThrough(String),
    /// Compile through llcoro.
    Lower(Steps),
}

/// The two compiler runs of a lowered compile, without their temporary files.
#[derive(Debug, PartialEq, Eq)]
pub struct Steps {
    /// The words before the compiler's arguments: a wrapper such as ccache, if any, and the compiler.
    pub compiler: Vec<OsString>,
    /// The source step's options, without source, output and action.
    pub source_args: Vec<OsString>,
    /// The language an `-x` gave the source; `None` when its extension decides.
    pub source_lang: Option<OsString>,
    /// The IR step's arguments, without input, output and action.
    pub ir_args: Vec<OsString>,
    /// The source file, as written in the command.
    pub source: OsString,
    /// The object file the command asked for (clang's default name when there was no `-o`).
    pub output: OsString,
}

impl Steps {
    /// The command that writes the presplit IR of the source to `ir`.
    pub fn source_command(&self, ir: &Path) -> Vec<OsString> {
        let mut v = self.compiler.clone();
        v.extend(self.source_args.iter().cloned());
        v.extend(["-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes", "-o"].map(OsString::from));
        v.push(ir.as_os_str().to_owned());
        // The source goes last, so the options added above cannot be taken for inputs after a `--`;
        // an -x that applied to it comes along, and `--` keeps a name starting with `-` a file.
        if let Some(lang) = &self.source_lang {
            v.push("-x".into());
            v.push(lang.clone());
        }
        v.push("--".into());
        v.push(self.source.clone());
        v
    }

    /// The command that compiles the lowered IR in `ll` into the requested object.
    pub fn ir_command(&self, ll: &Path) -> Vec<OsString> {
        let mut v = self.compiler.clone();
        v.extend(self.ir_args.iter().cloned());
        // -I, -D and the like are dropped, but unknown source-only flags may remain: they must not
        // turn into errors under -Werror.
        v.extend(["-Wno-unused-command-line-argument", "-c", "-x", "ir"].map(OsString::from));
        v.push(ll.as_os_str().to_owned());
        v.push("-o".into());
        v.push(self.output.clone());
        v
    }
}

/// How `llcoro cc` was invoked, besides the command.
#[derive(Debug, Default)]
pub struct Invocation {
    /// `--wrapper=PROGRAM`: a compiler cache (ccache, sccache) to run each compile under. It cannot
    /// sit in front of `llcoro cc` itself: ccache would take the compiler's path that follows for a
    /// second source file and not cache at all. So llcoro runs `PROGRAM llcoro cc --compiler=...`,
    /// where ccache sees llcoro as the compiler (a new llcoro misses the cache) and the compiler's
    /// path and stamp as options (a different or updated compiler misses too).
    pub wrapper: Option<OsString>,
    /// `--compiler=PATH`: the compiler, when the command holds only its arguments.
    pub compiler: Option<OsString>,
}

/// `llcoro cc`: runs `argv` (compiler first, unless `--compiler` gave it) through llcoro when it
/// compiles one C or C++ source to an object, unchanged otherwise. The exit status is the failing
/// step's.
pub fn main(argv: Vec<OsString>, how: Invocation) -> ExitCode {
    let verbose = std::env::var_os("LLCORO_CC_VERBOSE").is_some_and(|v| !v.is_empty() && v != "0");
    let argv: Vec<OsString> = how.compiler.iter().cloned().chain(argv).collect();
    let expanded = expand_response_files(&argv);
    let plan = classify(&expanded, &is_clang);
    if let Some(wrapper) = how.wrapper {
        let (Some((compiler, args)), Ok(me)) = (argv.split_first(), std::env::current_exe()) else {
            say!("llcoro cc: no command given, or cannot find the llcoro binary to run under {wrapper:?}");
            return ExitCode::from(2);
        };
        let mut cmd = vec![wrapper];
        if let Plan::Lower(_) = plan {
            cmd.push(me.into_os_string());
            cmd.push("cc".into());
            cmd.push(prefixed("--compiler=", compiler));
            cmd.push(format!("--compiler-stamp={}", stamp(compiler)).into());
            cmd.push("--".into());
        } else {
            cmd.push(compiler.clone());
        }
        cmd.extend(args.iter().cloned());
        if verbose {
            say!("llcoro cc: {}", show(&cmd));
        }
        return exec(&cmd);
    }
    match plan {
        Plan::PassThrough(why) => {
            if verbose {
                say!("llcoro cc: running the command unchanged: {why}");
            }
            exec(&argv)
        }
        Plan::Lower(steps) => match lower(&steps, verbose) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        },
    }
}

/// Commands written as one string, for the launcher's unit tests.
#[cfg(test)]
mod testing {
    use super::classify::{classify, file_name};
    use super::{Plan, Steps};
    use std::ffi::OsString;

    pub(super) fn words(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    /// The plan for `cmd`, with any compiler named clang taken for clang.
    pub(super) fn plan(cmd: &str) -> Plan {
        classify(&words(cmd), &|c| file_name(c).is_some_and(|n| n.contains("clang")))
    }

    /// The steps of `cmd`, which must be lowered.
    pub(super) fn steps(cmd: &str) -> Steps {
        match plan(cmd) {
            Plan::Lower(s) => s,
            Plan::PassThrough(why) => panic!("{cmd}: passed through: {why}"),
        }
    }

    pub(super) fn joined_words(v: &[OsString]) -> String {
        v.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{joined_words, steps};
    use std::path::Path;

    #[test]
    fn cmake_ninja_compile_is_lowered_with_the_depfile_named_after_the_object() {
        let s = steps(
            "/usr/bin/clang++-19 -DN=1 -I/a/inc -isystem /sys -O2 -std=c++20 -MD -MT obj/x.cpp.o \
             -MF obj/x.cpp.o.d -o obj/x.cpp.o -c /src/x.cpp",
        );
        assert_eq!(s.output, "obj/x.cpp.o");
        assert_eq!(s.source, "/src/x.cpp");
        assert_eq!(
            joined_words(&s.source_command(Path::new("/t/x.ll"))),
            "/usr/bin/clang++-19 -DN=1 -I/a/inc -isystem /sys -O2 -std=c++20 -MD -MT obj/x.cpp.o -MF obj/x.cpp.o.d \
             -S -emit-llvm -Xclang -disable-llvm-passes -o /t/x.ll -- /src/x.cpp"
        );
        assert_eq!(
            joined_words(&s.ir_command(Path::new("/t/x.lowered.ll"))),
            "/usr/bin/clang++-19 -O2 -std=c++20 -Wno-unused-command-line-argument -c -x ir /t/x.lowered.ll -o obj/x.cpp.o"
        );
    }
}
