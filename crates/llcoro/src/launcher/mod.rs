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

#[cfg(test)]
mod tests {
    use super::classify::{file_name, tokenize_gnu};
    use super::steps::{Failed, Kept, exit_code, shell_word};
    use super::*;
    use std::ffi::OsStr;
    use std::process::ExitStatus;

    fn words(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    fn plan(cmd: &str) -> Plan {
        classify(&words(cmd), &|c| file_name(c).is_some_and(|n| n.contains("clang")))
    }

    fn steps(cmd: &str) -> Steps {
        match plan(cmd) {
            Plan::Lower(s) => s,
            Plan::PassThrough(why) => panic!("{cmd}: passed through: {why}"),
        }
    }

    fn joined_words(v: &[OsString]) -> String {
        v.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ")
    }

    fn passes(cmd: &str) {
        assert!(matches!(plan(cmd), Plan::PassThrough(_)), "{cmd}: {:?}", plan(cmd));
    }

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

    #[test]
    fn default_dependency_target_and_file_follow_the_object() {
        let s = steps("clang++ -MMD -c dir/a.cc -o out/a.o");
        let src = joined_words(&s.source_args);
        assert!(src.ends_with("-MMD -MQ out/a.o -MF out/a.d"), "{src}");
        // No -o: clang's default object name, in the working directory.
        let s = steps("clang -MD -c dir/b.c");
        assert_eq!(s.output, "b.o");
        assert!(joined_words(&s.source_args).ends_with("-MQ b.o -MF b.d"));
        // Given ones are kept as they are.
        let s = steps("clang -MD -MFdeps.d -MQ$x -c b.c -ob.o");
        assert_eq!(s.output, "b.o");
        assert_eq!(joined_words(&s.source_args), "-MD -MFdeps.d -MQ$x");
    }

    #[test]
    fn preprocessor_and_pch_flags_stay_in_the_source_step() {
        let s = steps(
            "clang++ -x c++ -include pre.h -Xclang -include-pch -Xclang p.pch -Xclang -include -Xclang p.hxx \
             -Xclang -fno-pch-timestamp -Wp,-DX -DY -UZ -Iinc -iquote q -g -c weird.txt -o w.o",
        );
        let ir = joined_words(&s.ir_args);
        assert_eq!(ir, "-Xclang -fno-pch-timestamp -g");
        assert!(joined_words(&s.source_args).starts_with("-x c++ -include pre.h -Xclang -include-pch"));
    }

    #[test]
    fn language_comes_from_x_or_the_extension() {
        for ok in ["a.c", "a.cc", "a.cpp", "a.cxx", "a.C", "a.c++", "a.ii", "a.i"] {
            steps(&format!("clang -c {ok}"));
        }
        steps("clang -x c++ -c a.inl");
        steps("clang -xc++ -c a.inl");
        passes("clang -x c++-header -c a.hpp");
        passes("clang -x none -c a.inl");
        passes("clang -c a.s");
        passes("clang -c a.S");
        passes("clang -c a.ll");
        passes("clang -c a.m");
        passes("clang -c a.cppm");
        passes("clang -x c++ -c a.cpp -x assembler b.s");
    }

    #[test]
    fn other_commands_pass_through() {
        passes("clang++ a.o b.o -o app");
        passes("clang++ a.cpp -o app");
        passes("clang++ -E a.cpp");
        passes("clang++ -E -c a.cpp");
        passes("clang++ -M a.cpp");
        passes("clang++ -MM -c a.cpp");
        passes("clang++ -fsyntax-only -c a.cpp");
        passes("clang++ -S a.cpp");
        passes("clang++ -S -c a.cpp");
        passes("clang++ -emit-llvm -c a.cpp");
        passes("clang++ -c a.cpp b.cpp");
        passes("clang++ -c a.cpp b.o");
        passes("clang++ --version");
        passes("clang++ -print-resource-dir");
        passes("clang++ -c - -x c++");
        passes("clang++ -c a.cpp -o -");
        passes("clang++ -c a.cpp -o");
        passes("clang++ -Xclang -emit-pch -x c++-header -c p.hxx -o p.pch");
        passes("clang++ -Xclang -ast-dump -c a.cpp");
        passes("clang++ --precompile -c a.cppm");
        passes("clang++ -fmodule-output=a.pcm -c a.cpp");
        passes("clang++ --driver-mode=cl -c a.cpp");
        passes("clang++ -arch x86_64 -arch arm64 -c a.cpp");
        passes("");
    }

    #[test]
    fn after_end_of_options_every_word_is_an_input() {
        // ccache's form.
        let s = steps("clang++ -std=c++20 -c -o w.o -- a.cpp");
        assert_eq!((s.source.to_str(), s.output.to_str()), (Some("a.cpp"), Some("w.o")));
        let cmd = joined_words(&s.source_command(Path::new("t.ll")));
        assert_eq!(cmd, "clang++ -std=c++20 -S -emit-llvm -Xclang -disable-llvm-passes -o t.ll -- a.cpp");
        let s = steps("clang++ -x c++ -c -- -odd.inl");
        let cmd = joined_words(&s.source_command(Path::new("t.ll")));
        assert!(cmd.ends_with("-o t.ll -x c++ -- -odd.inl"), "{cmd}");
        passes("clang++ -c -- a.cpp b.cpp");
        // -x after the source does not apply to it.
        let s = steps("clang -c a.c -x c++");
        assert_eq!(s.source_lang, None);
    }

    #[test]
    fn non_clang_compilers_and_wrappers() {
        passes("g++ -c a.cpp");
        passes("/usr/bin/c++ -c a.cpp");
        passes("clang-cl /c a.cpp");
        passes("ccache g++ -c a.cpp");
        passes("ccache -s");
        let s = steps("ccache clang++-22 -c a.cpp -o a.o");
        assert_eq!(joined_words(&s.compiler), "ccache clang++-22");
        let s = steps("/usr/bin/sccache /opt/clang -c a.cpp");
        assert_eq!(s.compiler.len(), 2);
    }

    #[test]
    fn option_values_are_not_inputs() {
        let s = steps(
            "clang++ -Xlinker x.cpp -mllvm -foo -target x86_64-linux-gnu -MJ db.json -D N -include f.cpp -c a.cpp",
        );
        assert_eq!(s.source, "a.cpp");
        assert_eq!(joined_words(&s.ir_args), "-Xlinker x.cpp -mllvm -foo -target x86_64-linux-gnu");
        // -objcmt-* is not -o.
        let s = steps("clang -objcmt-migrate-literals -c a.c");
        assert_eq!(s.output, "a.o");
        assert_eq!(steps("clang -c a.c --output=x/y.o").output, "x/y.o");
    }

    #[test]
    fn response_files_use_gnu_quoting() {
        assert_eq!(
            tokenize_gnu("-I\"a b\" 'c d'  e\\ f\n-DX=\\\"s\\\"\n"),
            words("-Ia_b c_d e_f -DX=\"s\"")
                .into_iter()
                .map(|w| OsString::from(w.to_string_lossy().replace('_', " ")))
                .collect::<Vec<_>>()
        );
        assert!(tokenize_gnu("  \n").is_empty());
        assert_eq!(tokenize_gnu("''"), vec![OsString::new()]);
        // An unreadable response file stays an argument (and then is no source: pass-through).
        let argv = words("clang++ -c a.cpp @/nonexistent/llcoro.rsp");
        assert_eq!(expand_response_files(&argv), argv);
    }

    #[test]
    fn response_files_are_expanded() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let inner = dir.path().join("inner.rsp");
        let outer = dir.path().join("outer.rsp");
        std::fs::write(&inner, "-I'/x y' -c").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&outer, format!("-DA @{}", inner.display())).unwrap_or_else(|e| panic!("{e}"));
        let argv = vec!["clang++".into(), format!("@{}", outer.display()).into(), "a.cpp".into()];
        assert_eq!(joined_words(&expand_response_files(&argv)), "clang++ -DA -I/x y -c a.cpp");
    }

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

    #[test]
    fn clang_is_recognised_by_name() {
        assert!(is_clang(OsStr::new("/usr/bin/clang++-19")));
        assert!(is_clang(OsStr::new("x86_64-linux-gnu-clang")));
        assert!(!is_clang(OsStr::new("g++-12")));
        assert!(!is_clang(OsStr::new("/usr/bin/x86_64-linux-gnu-gcc")));
    }
}
