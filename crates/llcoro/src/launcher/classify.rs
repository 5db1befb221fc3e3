//! Classifying a command: which clang commands compile one C or C++ source to an object (and are
//! lowered), and how their arguments divide between the source step and the IR step; response
//! files expanded; clang recognised.

use super::depfile::{self, Dep};
use super::{Plan, Steps};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;

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
pub(super) enum Role {
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

pub(super) struct Arg {
    pub(super) words: Vec<OsString>,
    pub(super) role: Role,
    /// The option's value (or the input itself).
    pub(super) value: OsString,
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
    let (compiler, args) = match compiler_words(argv, is_clang) {
        Ok(c) => c,
        Err(why) => return Plan::PassThrough(why),
    };
    let parsed = match parse(args) {
        Ok(p) => p,
        Err(why) => return Plan::PassThrough(why),
    };
    let (source, source_lang, output) = match compiled_source(&parsed) {
        Ok(s) => s,
        Err(why) => return Plan::PassThrough(why),
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
    depfile::name_after_object(&parsed, &output, &mut source_args);
    Plan::Lower(Steps { compiler: compiler.to_vec(), source_args, source_lang, ir_args, source, output })
}

/// The words that run the compiler (a wrapper such as ccache, and clang) and its arguments; `Err`
/// says why the command must pass through.
fn compiler_words<'a>(
    argv: &'a [OsString],
    is_clang: &dyn Fn(&OsStr) -> bool,
) -> Result<(&'a [OsString], &'a [OsString]), String> {
    let pass = |why: &str| Err(why.to_string());
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
    Ok((compiler, argv.get(n_compiler..).unwrap_or_default()))
}

/// The one C or C++ source the command compiles to an object, the language an `-x` gave it, and the
/// object; `Err` says why the command must pass through.
fn compiled_source(parsed: &[Arg]) -> Result<(OsString, Option<OsString>, OsString), String> {
    let pass = |why: &str| Err(why.to_string());
    if !parsed.iter().any(|a| a.role == Role::CompileOnly) {
        return pass("no -c (a link, or another action)");
    }
    // The language of each input is the last -x before it, or its extension.
    let mut lang: Option<OsString> = None;
    let mut inputs = Vec::new();
    for a in parsed {
        match a.role {
            Role::Lang => lang = (a.value != "none").then(|| a.value.clone()),
            Role::Input => inputs.push((a.value.clone(), lang.clone())),
            _ => {}
        }
    }
    let [(source, explicit_lang)] = inputs.as_slice() else {
        return Err(format!("{} inputs instead of one source", inputs.len()));
    };
    if source == "-" {
        return pass("the source is standard input");
    }
    let source_lang = explicit_lang.as_ref().map(|l| l.to_string_lossy().into_owned());
    match source_lang.as_deref().or_else(|| lang_of(source)) {
        Some(l) if lang_supported(l) => {}
        Some(l) => return Err(format!("the input's language is {l}, not C or C++")),
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
    Ok((source.clone(), explicit_lang.clone(), output))
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

pub(super) fn file_name(p: &OsStr) -> Option<String> {
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
pub(super) fn find_program(name: &OsStr) -> Option<PathBuf> {
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
pub(super) fn tokenize_gnu(text: &str) -> Vec<OsString> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launcher::testing::{joined_words, plan, steps, words};

    fn passes(cmd: &str) {
        assert!(matches!(plan(cmd), Plan::PassThrough(_)), "{cmd}: {:?}", plan(cmd));
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
    fn clang_is_recognised_by_name() {
        assert!(is_clang(OsStr::new("/usr/bin/clang++-19")));
        assert!(is_clang(OsStr::new("x86_64-linux-gnu-clang")));
        assert!(!is_clang(OsStr::new("g++-12")));
        assert!(!is_clang(OsStr::new("/usr/bin/x86_64-linux-gnu-gcc")));
    }
}
