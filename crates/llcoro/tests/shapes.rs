//! Hand-written coroutine shapes (`tests/shapes`, see its README) and the
//! Coroutines document's examples (`tests/seeds`), lowered by llcoro and
//! compared with LLVM's own lowering and with the expected output.
//!
//! A check is one (file, LLVM version) pair:
//!
//! * `tests/shapes/NAME.ll` with LLVM 19 and 22 (`NAME.v19.ll` only 19,
//!   `NAME.v22.ll` only 22), expected stdout in `tests/shapes/NAME.expected`
//!   (`NAME` including any `.v19`/`.v22`);
//! * `tests/seeds/typed/NAME.ll` (typed pointers) with LLVM 14, and its twin
//!   `tests/seeds/opaque/NAME.ll` with LLVM 19 and 22; both expect
//!   `tests/seeds/NAME.expected`, so twins must print the same. Every typed
//!   seed must have its twin;
//! * the returned-continuation and async ABIs: `tests/retcon/NAME.ll` and
//!   `tests/async/NAME.ll` with LLVM 19 and 22, expected stdout in
//!   `NAME.expected` beside them; typed-pointer programs in `typed/NAME.ll` under
//!   either, with LLVM 14, expecting `NAME.expected` there too (an opaque
//!   twin's output when there is one).
//!
//! The files are written in the LLVM 19 spelling (`coro.end` returns `i1`).
//! LLVM 22's `coro.end` returns `void`, so for LLVM 22 every
//! `%x = call i1 @llvm.coro.end(` becomes `call void @llvm.coro.end(` and its
//! declaration follows; that `%x` must have no other use (a file that uses the
//! result is LLVM-19-only and named `.v19.ll`). The derived input is what both
//! LLVM and llcoro get.
//!
//! For each check:
//!
//! 1. LLVM's lowering: `opt-N -passes='default<O0>' IN -S -o REF.ll` (which
//!    runs CoroEarly, CoroSplit and CoroCleanup). If a call of
//!    `llvm.coro.suspend` is left and IN has no presplit attribute (LLVM 14:
//!    `"coroutine.presplit"`, later: `presplitcoroutine`), LLVM has left the
//!    coroutine unsplit, as it does with functions that lack the attribute;
//!    a copy of IN with the attribute added to every function that calls
//!    `llvm.coro.id` is lowered instead. REF.ll must keep no call of
//!    `llvm.coro.suspend`, and `lli-N REF.ll` must exit 0 and print the
//!    expected output (this validates the input and the expectation).
//! 2. `llcoro IN -o OUT.ll` exits 0 without panicking.
//! 3. Outside comments OUT.ll contains no `llvm.coro.` and no
//!    `presplitcoroutine`; for LLVM 14 (typed input) it must also be
//!    typed-pointer IR: no `ptr` type token.
//! 4. `opt-N -passes=verify -disable-output OUT.ll` succeeds with empty stderr.
//! 5. `lli-N OUT.ll` gives the stdout and exit status of `lli-N REF.ll`, and
//!    the expected output with exit status 0.
//!
//! The test prints every failure, then a closing line `N passed, M failed`
//! over the checks, and panics if any failed. Tools: `opt-N`, `lli-N` for N
//! in 14, 19, 22; a missing tool skips its version with a note, unless `CI`
//! is set, in which case it is a failure. Every process has a timeout.
//! Scratch files are kept under `$CARGO_TARGET_TMPDIR/shapes/`. Set
//! `LLCORO_SHAPES_FILTER=substring` to check only files whose path contains
//! it.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Output, code_lines, command_text, llvm22_spelling};

const TOOL_TIMEOUT: Duration = Duration::from_secs(60);
const RUN_TIMEOUT: Duration = Duration::from_secs(20);
const WORKERS: usize = 2;
const PRESPLIT: &str = "presplitcoroutine";
const PRESPLIT_14: &str = "\"coroutine.presplit\"";

fn repo_root() -> PathBuf {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    fs::canonicalize(&root).unwrap_or(root)
}

/// One input file and the LLVM versions it is checked with.
struct Case {
    /// Path relative to the repository root, for messages.
    name: String,
    path: PathBuf,
    expected: PathBuf,
    versions: Vec<u32>,
}

struct Failure {
    check: String,
    step: String,
    detail: String,
}

fn ll_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    v.sort();
    v
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The cases, and failures of the layout itself (a typed seed without twin, a missing expectation).
fn cases(root: &Path, problems: &mut Vec<Failure>) -> Vec<Case> {
    let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let mut cases = Vec::new();
    let shapes = root.join("tests/shapes");
    for path in ll_files(&shapes) {
        let name = stem(&path);
        let versions = if name.ends_with(".v19") {
            vec![19]
        } else if name.ends_with(".v22") {
            vec![22]
        } else {
            vec![19, 22]
        };
        let expected = shapes.join(format!("{name}.expected"));
        cases.push(Case { name: rel(&path), path, expected, versions });
    }
    let seeds = root.join("tests/seeds");
    let typed = ll_files(&seeds.join("typed"));
    let opaque = ll_files(&seeds.join("opaque"));
    for path in &typed {
        let name = stem(path);
        if !opaque.iter().any(|o| stem(o) == name) {
            problems.push(Failure {
                check: rel(path),
                step: "opaque twin".into(),
                detail: format!("no tests/seeds/opaque/{name}.ll"),
            });
        }
        let expected = seeds.join(format!("{name}.expected"));
        cases.push(Case { name: rel(path), path: path.clone(), expected, versions: vec![14] });
    }
    for path in &opaque {
        let expected = seeds.join(format!("{}.expected", stem(path)));
        cases.push(Case { name: rel(path), path: path.clone(), expected, versions: vec![19, 22] });
    }
    // The other ABIs: opaque programs on LLVM 19 and 22, typed twins (sharing the expectation) on 14.
    for abi in ["retcon", "async"] {
        let dir = root.join("tests").join(abi);
        if !dir.is_dir() {
            continue;
        }
        for path in ll_files(&dir) {
            let expected = dir.join(format!("{}.expected", stem(&path)));
            cases.push(Case { name: rel(&path), path, expected, versions: vec![19, 22] });
        }
        let typed = dir.join("typed");
        if typed.is_dir() {
            for path in ll_files(&typed) {
                let expected = dir.join(format!("{}.expected", stem(&path)));
                cases.push(Case { name: rel(&path), path, expected, versions: vec![14] });
            }
        }
    }
    for c in &cases {
        if !c.expected.is_file() {
            problems.push(Failure {
                check: c.name.clone(),
                step: "expected output".into(),
                detail: format!("no {}", rel(&c.expected)),
            });
        }
    }
    cases
}

/// `line` with quoted strings blanked out.
fn unquoted(line: &str) -> String {
    let mut quoted = false;
    line.chars()
        .map(|c| {
            if c == '"' {
                quoted = !quoted;
                ' '
            } else if quoted {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Whether a code line has the `ptr` type keyword (not part of a name such as `%ptr`).
fn has_ptr_token(line: &str) -> bool {
    let text = unquoted(line);
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-' | b'%' | b'@' | b'#' | b'!');
    text.match_indices("ptr").any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| b[j]);
        let after = b.get(i + 3).copied();
        !before.is_some_and(ident) && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
    })
}

/// `text` with the presplit attribute of `version` added to every function that calls `llvm.coro.id`.
fn with_presplit_attr(text: &str, version: u32) -> String {
    let attr = if version == 14 { "\"coroutine.presplit\"=\"0\"" } else { PRESPLIT };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len() + 64);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("define ") {
            let end = (i..lines.len()).find(|&j| lines[j].starts_with('}')).unwrap_or(lines.len() - 1);
            let is_coroutine = lines[i..=end].iter().any(|l| l.contains("@llvm.coro.id("));
            if is_coroutine && let Some(close) = param_list_end(line) {
                out.push_str(&line[..=close]);
                out.push(' ');
                out.push_str(attr);
                out.push_str(&line[close + 1..]);
                i += 1;
                continue;
            }
        }
        out.push_str(line);
        i += 1;
    }
    out
}

/// Byte index of the `)` closing the parameter list of a `define` line.
fn param_list_end(line: &str) -> Option<usize> {
    let at = line.find('@')?;
    let open = at + line[at..].find('(')?;
    let mut depth = 0usize;
    for (i, c) in line[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Runs a tool that must succeed within the harness's timeout.
fn run_tool(cmd: &mut Command) -> Result<Output, String> {
    common::run_tool(cmd, TOOL_TIMEOUT)
}

fn run_program(lli: &str, file: &Path) -> Result<Output, String> {
    let mut cmd = Command::new(lli);
    cmd.arg(file);
    common::run_with(&mut cmd, None, RUN_TIMEOUT).map_err(|e| format!("{}\n  {e}", command_text(&cmd)))
}

fn one_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).lines().collect::<Vec<_>>().join(" ")
}

/// Checks one (case, version) pair; returns its failures.
fn check(case: &Case, version: u32, dir: &Path) -> Vec<Failure> {
    let id = format!("{} [LLVM {version}]", case.name);
    let mut failures = Vec::new();
    let mut fail = |step: &str, detail: String| {
        failures.push(Failure { check: id.clone(), step: step.to_string(), detail });
    };
    let base = format!("{}.{version}", stem(&case.path));
    let file = |ext: &str| dir.join(format!("{base}.{ext}"));
    let opt = format!("opt-{version}");
    let lli = format!("lli-{version}");
    let expected = match fs::read(&case.expected) {
        Ok(e) => e,
        Err(e) => {
            fail("expected output", format!("{}: {e}", case.expected.display()));
            return failures;
        }
    };

    // The input in this version's spelling.
    let source = match fs::read_to_string(&case.path) {
        Ok(s) => s,
        Err(e) => {
            fail("input", format!("{}: {e}", case.path.display()));
            return failures;
        }
    };
    let text = if version == 22 {
        match llvm22_spelling(&source) {
            Ok(t) => t,
            Err(e) => {
                fail("LLVM 22 spelling", e);
                return failures;
            }
        }
    } else {
        source
    };
    let input = file("in.ll");
    if let Err(e) = fs::write(&input, &text) {
        fail("input", format!("{}: {e}", input.display()));
        return failures;
    }

    // 1. LLVM's lowering, validated against the expected output.
    let is_split = |p: &Path| {
        fs::read_to_string(p)
            .is_ok_and(|t| !code_lines(&t).any(|(_, l)| l.contains("call") && l.contains("@llvm.coro.suspend")))
    };
    let reference_ir = file("ref.ll");
    let llvm_lower = |src: &Path| {
        let _ = fs::remove_file(&reference_ir);
        run_tool(Command::new(&opt).arg("-passes=default<O0>").arg(src).arg("-S").arg("-o").arg(&reference_ir))
    };
    let mut reference = None;
    match llvm_lower(&input) {
        Err(e) => fail("LLVM lowering", e),
        Ok(_) => {
            let marked = code_lines(&text).any(|(_, l)| l.contains(PRESPLIT) || l.contains(PRESPLIT_14));
            let mut ok = is_split(&reference_ir);
            if !ok && !marked {
                let with_attr = file("in.attr.ll");
                match fs::write(&with_attr, with_presplit_attr(&text, version)) {
                    Err(e) => fail("LLVM lowering", format!("{}: {e}", with_attr.display())),
                    Ok(()) => match llvm_lower(&with_attr) {
                        Err(e) => fail("LLVM lowering (presplit attribute added)", e),
                        Ok(_) => ok = is_split(&reference_ir),
                    },
                }
            }
            if !ok {
                fail("LLVM lowering", format!("{} still calls llvm.coro.suspend", reference_ir.display()));
            } else {
                match run_program(&lli, &reference_ir) {
                    Err(e) => fail("LLVM lowering run", e),
                    Ok(o) => {
                        if !o.success() || o.stdout != expected {
                            fail(
                                "LLVM lowering run vs expected",
                                format!(
                                    "{lli} {}: {}\n  stdout:   {}\n  expected: {}",
                                    reference_ir.display(),
                                    o.describe(),
                                    one_line(&o.stdout),
                                    one_line(&expected)
                                ),
                            );
                        }
                        reference = Some(o);
                    }
                }
            }
        }
    }

    // 2. llcoro
    let lowered = file("out.ll");
    let out_text = match common::run_llcoro(&input, &lowered, &[], TOOL_TIMEOUT) {
        Ok(t) => t,
        Err(e) => {
            fail("llcoro", e);
            return failures;
        }
    };

    // 3. nothing left to lower; typed stays typed
    for msg in common::leftovers(&out_text, &lowered) {
        fail("lowered everything", msg);
    }
    if version == 14
        && let Some((n, line)) = code_lines(&out_text).find(|(_, l)| has_ptr_token(l))
    {
        fail(
            "typed-pointer output",
            format!("{} has the opaque `ptr` type, first at line {}: {}", lowered.display(), n + 1, line.trim()),
        );
    }

    // 4. verify, with no warnings
    match run_tool(Command::new(&opt).args(["-passes=verify", "-disable-output"]).arg(&lowered)) {
        Err(e) => {
            fail("opt -passes=verify", e);
            return failures;
        }
        Ok(o) if !o.stderr.is_empty() => {
            fail("opt -passes=verify", format!("{}: warnings:\n{}", lowered.display(), common::excerpt(&o.stderr)));
        }
        Ok(_) => {}
    }

    // 5. run
    match run_program(&lli, &lowered) {
        Err(e) => fail("run", e),
        Ok(o) => {
            if !o.success() || o.stdout != expected {
                fail(
                    "run vs expected",
                    format!(
                        "{lli} {}: {}\n  stdout:   {}\n  expected: {}",
                        lowered.display(),
                        o.describe(),
                        one_line(&o.stdout),
                        one_line(&expected)
                    ),
                );
            }
            if let Some(r) = &reference
                && (r.status != o.status || r.stdout != o.stdout)
            {
                fail(
                    "run vs LLVM lowering run",
                    format!(
                        "{lli}: llcoro's {} vs LLVM's {}\n  stdout: {}\n  LLVM's: {}",
                        o.status_text(),
                        r.status_text(),
                        one_line(&o.stdout),
                        one_line(&r.stdout)
                    ),
                );
            }
        }
    }
    failures
}

#[test]
fn shapes_and_seeds() {
    let started = Instant::now();
    let root = repo_root();
    let mut problems = Vec::new();
    let filter = std::env::var("LLCORO_SHAPES_FILTER").ok();
    let cases: Vec<Case> = cases(&root, &mut problems)
        .into_iter()
        .filter(|c| filter.as_deref().is_none_or(|f| c.name.contains(f)))
        .collect();

    let mut available = Vec::new();
    for v in [14, 19, 22] {
        match common::tools(&[&format!("opt-{v}"), &format!("lli-{v}")], &format!("LLVM {v} checks")) {
            Ok(true) => available.push(v),
            Ok(false) => {}
            Err(detail) => problems.push(Failure { check: "-".into(), step: "tool lookup".into(), detail }),
        }
    }

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shapes");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let checks: Vec<(&Case, u32, PathBuf)> = cases
        .iter()
        .flat_map(|c| {
            let sub = if c.name.contains("seeds/typed") {
                "typed"
            } else if c.name.contains("seeds/opaque") {
                "opaque"
            } else if c.name.contains("tests/retcon") {
                "retcon"
            } else if c.name.contains("tests/async") {
                "async"
            } else {
                "shapes"
            };
            let dir = dir.join(sub);
            c.versions.iter().filter(|v| available.contains(v)).map(move |&v| (c, v, dir.clone()))
        })
        .collect();
    for sub in ["typed", "opaque", "shapes", "retcon", "async"] {
        fs::create_dir_all(dir.join(sub)).unwrap();
    }

    let mut results = common::parallel_map(&checks, WORKERS, |(case, v, d)| {
        (format!("{} [LLVM {v}]", case.name), check(case, *v, d))
    });
    results.sort_by(|a, b| a.0.cmp(&b.0));

    let mut report = String::new();
    for (name, f) in &results {
        let verdict = if f.is_empty() { "ok  " } else { "FAIL" };
        report.push_str(&format!("{verdict} {name}\n"));
    }
    let all: Vec<&Failure> = problems.iter().chain(results.iter().flat_map(|(_, f)| f)).collect();
    for f in &all {
        report.push_str(&format!("\nFAIL {}: {}\n  {}\n", f.check, f.step, f.detail));
    }
    println!("{report}");
    println!("shapes: scratch files in {}; {:.1}s", dir.display(), started.elapsed().as_secs_f64());
    let passed = results.iter().filter(|(_, f)| f.is_empty()).count();
    let failed = results.len() - passed + problems.len();
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        panic!("shapes: {failed} of {} checks failed", passed + failed);
    }
}

#[test]
fn harness_helpers() {
    assert!(has_ptr_token("  %p = load ptr, ptr %x"));
    assert!(has_ptr_token("declare void @f(ptr)"));
    assert!(!has_ptr_token("  %ptr = load i8*, i8** %x.ptr"));
    assert!(!has_ptr_token("  call void @ptr(i8* @\"ptr\")"));
    assert!(!has_ptr_token("  %a = getelementptr i8, i8* %b, i64 1"));

    let t = "  %u = call i1 @llvm.coro.end(ptr %h, i1 false, token none)\n  ret ptr %h\n\
             declare i1 @llvm.coro.end(ptr, i1, token)\n";
    let v22 = llvm22_spelling(t).unwrap();
    assert!(v22.contains("  call void @llvm.coro.end(ptr %h") && v22.contains("declare void @llvm.coro.end("));
    let used = "  %u = call i1 @llvm.coro.end(ptr null, i1 true, token none)\n  br i1 %u, label %a, label %b\n";
    assert!(llvm22_spelling(used).is_err());
    let not_used = "  %u = call i1 @llvm.coro.end(ptr null, i1 true, token none)\n  br i1 %u2, label %a, label %b\n";
    assert!(llvm22_spelling(not_used).is_ok());

    let f = "define i8* @f(void (i8*)* %cb) {\nentry:\n  %id = call token @llvm.coro.id(i32 0)\n}\n\
             define i32 @main() {\nentry:\n  ret i32 0\n}\n";
    let marked = with_presplit_attr(f, 14);
    assert!(marked.starts_with("define i8* @f(void (i8*)* %cb) \"coroutine.presplit\"=\"0\" {\n"));
    assert!(marked.contains("define i32 @main() {"));
    assert!(with_presplit_attr(f, 19).starts_with("define i8* @f(void (i8*)* %cb) presplitcoroutine {"));
}
