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

use crate::diag::render;
use crate::pipeline::{Options, prepare};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus};

/// `eprintln!` without its panic: a write to a closed or broken standard error is dropped, so that a
/// refusal still exits 1, and a failed step with the compiler's status, not with a panic's 101.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

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

/// Compiler wrappers that take the compiler as their first argument.
const WRAPPERS: [&str; 2] = ["ccache", "sccache"];

/// Options that stop the command from being a compile to an object, or that clang handles in ways
/// the two steps cannot reproduce (preprocessing, assembly or IR output, modules, offloading, help).
const ACTIONS: [&str; 27] = [
    "-E",
    "-S",
    "-M",
    "-MM",
    "-fsyntax-only",
    "-emit-llvm",
    "-emit-ast",
    "-emit-module",
    "-emit-module-interface",
    "-emit-header-unit",
    "-emit-interface-stubs",
    "-fmodule-header",
    "-fmodule-output",
    "--precompile",
    "-###",
    "--analyze",
    "-fdriver-only",
    "-cc1",
    "-cc1as",
    "--version",
    "-help",
    "--help",
    "--help-hidden",
    "-dumpversion",
    "-dumpmachine",
    "-fsycl",
    "-fcuda-is-device",
];

/// Prefixes of options in the same class as `ACTIONS`.
const ACTION_PREFIXES: [&str; 9] = [
    "-print-",
    "--print-",
    "-fmodule-output=",
    "-fmodule-header=",
    "-fopenmp-targets=",
    "--offload-arch=",
    "--cuda-",
    "--offload",
    "-fmodules-reduced-bmi",
];

/// Preprocessor options whose value is the next word: needed by the source step only.
const SOURCE_ONLY_SEPARATE: [&str; 21] = [
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-include-pch",
    "-isystem",
    "-isystem-after",
    "-iquote",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-iwithsysroot",
    "-iframework",
    "-cxx-isystem",
    "-ivfsoverlay",
    "-Xpreprocessor",
    "--include-directory",
    "--define-macro",
    "--undefine-macro",
];

/// Joined forms of source-only options (`-Ifoo`, `-DX=1`, `-Wp,...`, module files).
const SOURCE_ONLY_JOINED: [&str; 17] = [
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-Wp,",
    "--include-directory=",
    "--define-macro=",
    "--undefine-macro=",
    "-fmodule-file=",
    "-fprebuilt-module-path=",
    "-fmodule-map-file=",
    "-fmodules-cache-path=",
    "-fpch-",
];

/// Other options whose value is the next word: kept in both steps.
const BOTH_SEPARATE: [&str; 21] = [
    "-Xlinker",
    "-Xassembler",
    "-Xanalyzer",
    "-Xopenmp-target",
    "-Xcuda-ptxas",
    "-Xcuda-fatbinary",
    "-mllvm",
    "-arch",
    "-target",
    "-isysroot",
    "-resource-dir",
    "-gcc-toolchain",
    "--sysroot",
    "--param",
    "-serialize-diagnostics",
    "-L",
    "-l",
    "-framework",
    "-z",
    "-T",
    "-u",
];

/// cc1 options (after `-Xclang`) that include a file into the source: they and their value, given as
/// a second `-Xclang` pair, belong to the source step only (CMake's precompiled headers for clang).
const XCLANG_SOURCE_ONLY: [&str; 4] = ["-include-pch", "-include", "-imacros", "-include-pth"];

/// What one argument (with its value words) is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Input,
    /// `--`: every later word is an input.
    EndOfOptions,
    Output,
    CompileOnly,
    Lang,
    Dep(Dep),
    SourceOnly,
    Both,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dep {
    /// -MD or -MMD: write a dependency file while compiling.
    Write,
    /// -MT or -MQ.
    Target,
    /// -MF.
    File,
    /// -MP, -MG, -MV.
    Flag,
}

struct Arg {
    words: Vec<OsString>,
    role: Role,
    /// The option's value (or the input itself).
    value: OsString,
}

fn arg(words: &[OsString], role: Role, value: OsString) -> Arg {
    Arg { words: words.to_vec(), role, value }
}

/// Languages the lowering handles, by `-x` name.
fn lang_supported(lang: &str) -> bool {
    matches!(lang, "c" | "c++" | "cpp-output" | "c++-cpp-output")
}

/// The language clang gives a file by its extension; `None` for linker inputs and the like.
fn lang_of(path: &OsStr) -> Option<&'static str> {
    let ext = Path::new(path).extension()?.to_str()?;
    match ext {
        "c" => Some("c"),
        "i" => Some("cpp-output"),
        "ii" => Some("c++-cpp-output"),
        "C" | "cc" | "cp" | "cpp" | "CPP" | "cxx" | "CXX" | "c++" | "C++" | "CC" => Some("c++"),
        "m" | "mm" | "M" => Some("objective-c"),
        "h" | "hh" | "hpp" | "hxx" | "H" | "h++" => Some("header"),
        "cppm" | "ccm" | "cxxm" | "c++m" | "ixx" => Some("c++-module"),
        "s" | "S" | "sx" | "asm" => Some("assembler"),
        "ll" | "bc" => Some("ir"),
        "cu" | "hip" | "cl" | "f" | "f90" | "F90" => Some("other"),
        _ => None,
    }
}

/// Decides what to do with `argv` (compiler first, response files expanded). `is_clang` says
/// whether a compiler path is clang (a parameter so that tests need no compiler).
pub fn classify(argv: &[OsString], is_clang: &dyn Fn(&OsStr) -> bool) -> Plan {
    let pass = |why: &str| Plan::PassThrough(why.to_string());
    let Some(first) = argv.first() else { return pass("empty command") };
    let mut n_compiler = 1;
    if file_name(first).is_some_and(|n| WRAPPERS.contains(&n.as_str())) {
        match argv.get(1) {
            Some(c) if !c.to_string_lossy().starts_with('-') && !c.to_string_lossy().contains('=') => n_compiler = 2,
            _ => return pass("a compiler wrapper without a compiler"),
        }
    }
    let compiler = argv.get(..n_compiler).unwrap_or_default();
    let Some(cc) = compiler.last() else { return pass("empty command") };
    if file_name(cc).is_some_and(|n| n.contains("clang-cl")) {
        return pass("clang-cl (MSVC-style arguments)");
    }
    if !is_clang(cc) {
        return pass("the compiler is not clang");
    }
    let args = argv.get(n_compiler..).unwrap_or_default();
    let parsed = match parse(args) {
        Ok(p) => p,
        Err(why) => return Plan::PassThrough(why),
    };

    if !parsed.iter().any(|a| a.role == Role::CompileOnly) {
        return pass("no -c (a link, or another action)");
    }
    // The language of each input is the last -x before it, or its extension.
    let mut lang: Option<OsString> = None;
    let mut inputs = Vec::new();
    for a in &parsed {
        match a.role {
            Role::Lang => lang = (a.value != "none").then(|| a.value.clone()),
            Role::Input => inputs.push((a.value.clone(), lang.clone())),
            _ => {}
        }
    }
    let [(source, explicit_lang)] = inputs.as_slice() else {
        return Plan::PassThrough(format!("{} inputs instead of one source", inputs.len()));
    };
    if source == "-" {
        return pass("the source is standard input");
    }
    let source_lang = explicit_lang.as_ref().map(|l| l.to_string_lossy().into_owned());
    match source_lang.as_deref().or_else(|| lang_of(source)) {
        Some(l) if lang_supported(l) => {}
        Some(l) => return Plan::PassThrough(format!("the input's language is {l}, not C or C++")),
        None => return pass("the input is not a C or C++ source"),
    }
    if parsed.iter().filter(|a| a.words.first().is_some_and(|w| w == "-arch")).count() > 1 {
        return pass("several -arch");
    }
    let output = match parsed.iter().rev().find(|a| a.role == Role::Output) {
        Some(o) if o.value == "-" => return pass("the object goes to standard output"),
        Some(o) => o.value.clone(),
        // clang's default: the source's stem with .o, in the working directory.
        None => {
            let mut o = Path::new(source).file_stem().unwrap_or(source).to_owned();
            o.push(".o");
            o
        }
    };

    let mut source_args = Vec::new();
    let mut ir_args = Vec::new();
    for a in &parsed {
        match a.role {
            Role::Output | Role::CompileOnly | Role::Input | Role::EndOfOptions => {}
            Role::Lang | Role::Dep(_) | Role::SourceOnly => source_args.extend(a.words.iter().cloned()),
            Role::Both => {
                source_args.extend(a.words.iter().cloned());
                ir_args.extend(a.words.iter().cloned());
            }
        }
    }
    // clang names the dependency file and its target after the output, which for the source step is
    // the temporary IR file: name both after the real object, as clang would have.
    let has = |d: Dep| parsed.iter().any(|a| a.role == Role::Dep(d));
    if has(Dep::Write) {
        if !has(Dep::Target) {
            source_args.push("-MQ".into());
            source_args.push(output.clone());
        }
        if !has(Dep::File) {
            source_args.push("-MF".into());
            source_args.push(Path::new(&output).with_extension("d").into_os_string());
        }
    }
    Plan::Lower(Steps {
        compiler: compiler.to_vec(),
        source_args,
        source_lang: explicit_lang.clone(),
        ir_args,
        source: source.clone(),
        output,
    })
}

/// Splits the compiler's arguments into options with their values and inputs; `Err` says why the
/// command must pass through.
fn parse(args: &[OsString]) -> Result<Vec<Arg>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut options_ended = false;
    while let Some(w) = args.get(i) {
        let s = w.to_string_lossy();
        let next = args.get(i + 1);
        let take2 = |role: Role| -> Result<Arg, String> {
            match next {
                Some(v) => Ok(arg(&args[i..i + 2], role, v.clone())),
                None => Err(format!("{s} without its value")),
            }
        };
        let (a, used) = if options_ended || s == "-" || !s.starts_with('-') {
            (arg(&args[i..=i], Role::Input, w.clone()), 1)
        } else if s == "--" {
            // ccache writes `-- SOURCE` at the end of the commands it runs.
            options_ended = true;
            (arg(&args[i..=i], Role::EndOfOptions, OsString::new()), 1)
        } else if ACTIONS.contains(&s.as_ref())
            || ACTION_PREFIXES.iter().any(|p| s.starts_with(p))
            || s.strip_prefix("--driver-mode=").is_some_and(|m| !matches!(m, "gcc" | "g++" | "cpp"))
        {
            return Err(s.into_owned());
        } else {
            match s.as_ref() {
                "-c" => (arg(&args[i..=i], Role::CompileOnly, OsString::new()), 1),
                "-o" | "--output" => (take2(Role::Output)?, 2),
                "-x" | "--language" => (take2(Role::Lang)?, 2),
                "-MD" | "-MMD" | "--write-dependencies" | "--write-user-dependencies" => {
                    (arg(&args[i..=i], Role::Dep(Dep::Write), OsString::new()), 1)
                }
                "-MP" | "-MG" | "-MV" => (arg(&args[i..=i], Role::Dep(Dep::Flag), OsString::new()), 1),
                "-MT" | "-MQ" => (take2(Role::Dep(Dep::Target))?, 2),
                "-MF" => (take2(Role::Dep(Dep::File))?, 2),
                // Writes a compilation database entry: once is enough.
                "-MJ" => (take2(Role::SourceOnly)?, 2),
                "-Xclang" => {
                    let v = next.map(|v| v.to_string_lossy().into_owned()).unwrap_or_default();
                    if (v.starts_with("-emit-") && v != "-emit-obj") || v.starts_with("-ast-") || v == "-fsyntax-only" {
                        return Err(format!("-Xclang {v}"));
                    }
                    let pair = args.get(i + 2).is_some_and(|x| x == "-Xclang") && args.get(i + 3).is_some();
                    if XCLANG_SOURCE_ONLY.contains(&v.as_str()) && pair {
                        let value = args.get(i + 3).cloned().unwrap_or_default();
                        (arg(&args[i..i + 4], Role::SourceOnly, value), 4)
                    } else {
                        (take2(Role::Both)?, 2)
                    }
                }
                _ if SOURCE_ONLY_SEPARATE.contains(&s.as_ref()) => (take2(Role::SourceOnly)?, 2),
                _ if BOTH_SEPARATE.contains(&s.as_ref()) || s.starts_with("-Xarch_") => (take2(Role::Both)?, 2),
                _ => (joined(w, &s), 1),
            }
        };
        out.push(a);
        i += used;
    }
    Ok(out)
}

/// An option whose value, if any, is joined to it.
fn joined(w: &OsString, s: &str) -> Arg {
    let one = std::slice::from_ref(w);
    let rest = |p: &str| -> OsString { s.get(p.len()..).unwrap_or_default().into() };
    if let Some(p) = ["--output=", "-o"].into_iter().find(|p| s.starts_with(p)) {
        // -objcmt-* and -object are options of their own.
        if !s.starts_with("-obj") {
            return arg(one, Role::Output, output_value(w, p.len()));
        }
    }
    if let Some(p) = ["--language=", "-x"].into_iter().find(|p| s.starts_with(p)) {
        return arg(one, Role::Lang, rest(p));
    }
    if s.starts_with("-MT") || s.starts_with("-MQ") {
        return arg(one, Role::Dep(Dep::Target), rest("-MT"));
    }
    if s.starts_with("-MF") {
        return arg(one, Role::Dep(Dep::File), output_value(w, 3));
    }
    if s.starts_with("-MJ") || SOURCE_ONLY_JOINED.iter().any(|p| s.starts_with(p)) {
        return arg(one, Role::SourceOnly, OsString::new());
    }
    arg(one, Role::Both, OsString::new())
}

/// The value of a joined path option (`-ofile`), keeping bytes that are not UTF-8.
fn output_value(w: &OsStr, skip: usize) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(w.as_bytes().get(skip..).unwrap_or_default()).to_owned()
    }
    #[cfg(not(unix))]
    {
        w.to_string_lossy().get(skip..).unwrap_or_default().into()
    }
}

fn file_name(p: &OsStr) -> Option<String> {
    Path::new(p).file_name().map(|n| n.to_string_lossy().into_owned())
}

/// Whether `compiler` is clang: by its name, then by the name of the file it links to (`c++` is
/// often a link to clang or to g++), and for names that say nothing, by `--version`.
pub fn is_clang(compiler: &OsStr) -> bool {
    let says = |name: &str| -> Option<bool> {
        if name.contains("clang") {
            Some(true)
        } else if ["gcc", "g++", "icc", "icpc", "icx", "icpx", "nvcc", "xlc", "suncc", "tcc"]
            .iter()
            .any(|n| name.contains(n))
        {
            Some(false)
        } else {
            None
        }
    };
    if let Some(answer) = file_name(compiler).as_deref().and_then(says) {
        return answer;
    }
    let resolved = find_program(compiler).and_then(|p| std::fs::canonicalize(p).ok());
    if let Some(answer) = resolved.as_deref().and_then(|p| file_name(p.as_os_str())).as_deref().and_then(says) {
        return answer;
    }
    Command::new(compiler)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("clang version"))
}

/// A program's path: as given when it names a directory, else looked up on PATH.
fn find_program(name: &OsStr) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.components().count() > 1 {
        return Some(p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|c| c.is_file())
}

/// Expands `@file` response files as clang does on Unix (GNU quoting), up to a nesting depth; an
/// unreadable one stays as it is, as in clang.
pub fn expand_response_files(argv: &[OsString]) -> Vec<OsString> {
    fn go(argv: &[OsString], depth: usize, out: &mut Vec<OsString>) {
        for a in argv {
            let s = a.to_string_lossy();
            let file = s.strip_prefix('@').filter(|f| !f.is_empty() && depth < 16);
            match file.and_then(|f| std::fs::read_to_string(f).ok()) {
                Some(text) => go(&tokenize_gnu(&text), depth + 1, out),
                None => out.push(a.clone()),
            }
        }
    }
    let mut out = Vec::with_capacity(argv.len());
    go(argv, 0, &mut out);
    out
}

/// GNU response-file quoting: whitespace separates words, quotes group, backslash escapes.
fn tokenize_gnu(text: &str) -> Vec<OsString> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(OsString::from(std::mem::take(&mut cur)));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur.into());
    }
    words
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

fn prefixed(prefix: &str, value: &OsStr) -> OsString {
    let mut s = OsString::from(prefix);
    s.push(value);
    s
}

/// The compiler binary's size and modification time, so that a compiler cache that hashes the
/// command line sees an updated compiler; empty when the compiler cannot be found.
fn stamp(compiler: &OsStr) -> String {
    let meta = find_program(compiler).and_then(|p| std::fs::metadata(p).ok());
    let Some(meta) = meta else { return String::new() };
    let mtime = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).unwrap_or_default();
    format!("{}-{}", meta.len(), mtime.as_nanos())
}

/// `cmd` as a shell line, for the verbose log and the messages.
fn show(cmd: &[OsString]) -> String {
    String::from_utf8_lossy(&shell_line(cmd)).into_owned()
}

/// The kept IR's path for `output` (on a refusal, or with `LLCORO_KEEP_IR`).
fn kept_path(output: &OsStr, suffix: &str) -> PathBuf {
    let mut p = output.to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

fn lower(steps: &Steps, verbose: bool) -> Result<(), ExitCode> {
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
struct Kept {
    presplit: PathBuf,
    lowered: PathBuf,
    script: PathBuf,
}

impl Kept {
    fn beside(output: &OsStr) -> Kept {
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

    fn describe(&self) -> String {
        format!("the presplit IR is kept at {}, the lowered IR at {}", self.presplit.display(), self.lowered.display())
    }

    /// `cd` to the working directory (the command's paths may be relative to it), then step 3 on the
    /// kept lowered IR, as one shell line.
    fn command_line(&self, steps: &Steps) -> Vec<u8> {
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
fn shell_word(w: &OsStr) -> Vec<u8> {
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
enum Failed {
    /// It ran, and failed with this status.
    Status(ExitStatus),
    /// It could not be started.
    Start(std::io::Error),
}

impl Failed {
    /// The status `llcoro cc` exits with: the compiler's, or the shell's 127 for a program that
    /// could not be run.
    fn code(&self) -> ExitCode {
        match self {
            Failed::Status(s) => exit_code(*s),
            Failed::Start(_) => ExitCode::from(127),
        }
    }

    fn describe(&self, prog: &str) -> String {
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
fn exit_code(s: ExitStatus) -> ExitCode {
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
fn exec(argv: &[OsString]) -> ExitCode {
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
