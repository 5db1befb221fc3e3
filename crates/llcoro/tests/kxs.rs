//! kxs suspend functions, lowered by llcoro and run.
//!
//! * `tests/kxs/ir/*.ll`: hand-written IR (the seed's input pattern, spills, numbered values), for
//!   LLVM 19 and 22; `tests/kxs/ir-typed/*.ll`, their typed-pointer twins, for LLVM 14.
//!   `llcoro IN -o OUT` exits 0; `opt-N -passes=verify` accepts OUT; `lli-N OUT`
//!   exits 0 and prints the file's `; EXPECT:` block; lowering OUT again changes nothing; every
//!   function of IN without a marker is in OUT byte for byte; `llcoro frames` names the suspend
//!   points by the markers' ids, and each frame it reports is allocated with its alignment
//!   (`aligned_alloc` beyond 16 bytes, else `malloc`).
//! * `tests/kxs/cpp/*.cpp`: C++ suspend functions written with `cpp/include`'s macros. For clang 14
//!   (typed pointers), 19 and 22 at -O0 and -O2: `clang++ -S -emit-llvm -Xclang -disable-llvm-passes`, `llcoro`, then
//!   `clang++` of the lowered IR; the program exits 0 and prints the file's `// EXPECT:` block.
//!   A file with a `// VALGRIND` line also runs under valgrind (clang 19, -O2) with no error and
//!   no leak; a `// CXXFLAGS: ...` line adds target options to both compiler steps. Linking the IR
//!   without the transform fails on the undefined marker, so an untransformed build can never pass
//!   for a working one.
//!
//! Tools: clang++-14/19/22, opt-14/19/22, lli-14/19/22, valgrind. A missing tool is a failure under CI=true.

mod common;

use common::{Recorder, run_llcoro};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(root().join(dir))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == ext));
    v.sort();
    v
}

/// `define ... @name(...) ... { ... }` texts by function name.
fn definitions(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for l in text.lines() {
        if let Some((n, body)) = cur.as_mut() {
            body.push_str(l);
            body.push('\n');
            if l == "}" {
                out.push((std::mem::take(n), std::mem::take(body)));
                cur = None;
            }
        } else if l.starts_with("define ") {
            let name = l.split('@').nth(1).and_then(|r| r.split('(').next()).unwrap_or("").to_string();
            cur = Some((name, format!("{l}\n")));
        }
    }
    out
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kxs").join(name);
    let _ = fs::create_dir_all(&d);
    d
}

fn stem(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn run(cmd: &mut Command) -> Result<common::Output, String> {
    common::run_tool(cmd, TIMEOUT)
}

#[test]
fn ir_inputs_lower_verify_and_run() {
    ir_inputs("tests/kxs/ir", &["19", "22"]);
}

#[test]
fn typed_ir_inputs_lower_verify_and_run() {
    ir_inputs("tests/kxs/ir-typed", &["14"]);
}

fn ir_inputs(from: &str, versions: &[&str]) {
    let dir = scratch(&from.replace('/', "_"));
    common::run_ir_programs("kxs IR", &root().join(from), versions, &dir, &|input, text, lowered, rec| {
        if lowered.contains("call void @__kxs_suspend_point") {
            rec.add("markers", "a marker call is left in the output");
        }
        // Functions without markers (or a begin call, which goes) pass through byte for byte.
        let after = definitions(lowered);
        for (n, body) in definitions(text)
            .into_iter()
            .filter(|(_, b)| !b.contains("@__kxs_suspend_point(") && !b.contains("@__kxs_begin("))
        {
            if !after.iter().any(|(m, b)| *m == n && *b == body) {
                rec.add("pass-through", format!("@{n} has no marker but changed"));
            }
        }
        // The frame report names each suspend point by its marker's constant id, read from the
        // operand (the seed's transform read the `32` of `i32`).
        let ids: Vec<i64> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with(';'))
            .filter_map(|l| l.split("@__kxs_suspend_point(i32 ").nth(1))
            .filter_map(|r| r.split(')').next()?.trim().parse().ok())
            .collect();
        let mut frames = Command::new(env!("CARGO_BIN_EXE_llcoro"));
        frames.args(["frames", "--format", "json"]).arg(input);
        match run(&mut frames).map(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout)) {
            Ok(Ok(json)) => {
                let reported: Vec<i64> = json["frames"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|r| r["lowering"] == "kxs")
                    .flat_map(|r| r["suspend_points"].as_array().cloned().unwrap_or_default())
                    .filter_map(|p| p["marker_id"].as_i64())
                    .collect();
                if reported != ids {
                    rec.add("frames", format!("marker ids {reported:?}, the input has {ids:?}"));
                }
                check_allocation(&json, lowered, rec);
            }
            Ok(Err(e)) => rec.add("frames", format!("not JSON: {e}")),
            Err(e) => rec.add("frames", e),
        }
    });
}

/// Each reported kxs frame is allocated as the report says: a frame aligned beyond malloc's 16
/// bytes by `aligned_alloc(ALIGN, SIZE)`, any other by `malloc(SIZE)` (the report's size, at
/// least one byte). A frame's alignment the allocation does not give is a misaligned frame.
fn check_allocation(json: &serde_json::Value, lowered: &str, rec: &mut Recorder) {
    let frames = json["frames"].as_array().into_iter().flatten().filter(|r| r["lowering"] == "kxs");
    for r in frames.filter(|r| r["fields"].as_array().is_some_and(|f| !f.is_empty())) {
        let (Some(size), Some(align)) = (r["size"].as_u64(), r["align"].as_u64()) else {
            rec.add("frames", format!("a kxs frame without size or align: {r}"));
            continue;
        };
        let (want, other) = if align > 16 {
            (format!("@aligned_alloc(i64 {align}, i64 {})", size.max(align)), "@malloc(")
        } else {
            (format!("@malloc(i64 {})", size.max(1)), "@aligned_alloc(")
        };
        if !lowered.contains(&want) {
            rec.add(
                "allocation",
                format!("{}: reported align {align}, size {size}, but no `{want}` call", r["coroutine"]),
            );
        }
        if lowered.lines().any(|l| l.contains("call") && l.contains(other)) {
            rec.add("allocation", format!("{}: align {align}, but the output calls {other}", r["coroutine"]));
        }
    }
}

#[test]
fn cpp_programs_lower_build_and_run() {
    let inputs = files("tests/kxs/cpp", "cpp");
    assert!(!inputs.is_empty(), "no tests/kxs/cpp/*.cpp");
    if !common::require(&["clang++-14", "clang++-19", "clang++-22", "valgrind"], "the kxs C++ tests") {
        return;
    }
    let include = root().join("cpp/include");
    let dir = scratch("cpp");
    let mut jobs = Vec::new();
    for input in &inputs {
        for cc in ["clang++-14", "clang++-19", "clang++-22"] {
            for opt in ["-O0", "-O2"] {
                jobs.push((input.clone(), cc, opt));
            }
        }
    }
    let results = common::parallel_map(&jobs, 2, |(input, cc, opt)| {
        let name = stem(input);
        let tag = format!("{name}.{cc}{opt}");
        let text = fs::read_to_string(input).unwrap_or_default();
        let mut rec = Recorder::new(&name, &format!("{cc} {opt}"));
        let Some(want) = common::expected_block(&text, "//") else {
            rec.add("header", "no `// EXPECT:` block");
            return rec;
        };
        // `// CXXFLAGS: ...`: target options for both compiler steps (e.g. -mavx2).
        let flags: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("// CXXFLAGS:"))
            .flat_map(|f| f.split_whitespace())
            .collect();
        let ir = dir.join(format!("{tag}.ll"));
        let low = dir.join(format!("{tag}.kxs.ll"));
        let bin = dir.join(&tag);
        let mut emit = Command::new(cc);
        emit.args([
            "-std=c++20",
            opt,
            "-S",
            "-emit-llvm",
            "-Xclang",
            "-disable-llvm-passes",
            "-Wno-gnu-label-as-value",
        ])
        .args(&flags)
        .arg("-I")
        .arg(&include)
        .arg(input)
        .arg("-o")
        .arg(&ir);
        match run(&mut emit) {
            Ok(o) if o.success() => {}
            Ok(o) => {
                rec.add("emit IR", o.describe());
                return rec;
            }
            Err(e) => {
                rec.add("emit IR", e);
                return rec;
            }
        }
        if *opt == "-O2" && *cc == "clang++-19" {
            // Without the transform the program does not link: the marker is undefined.
            let plain = dir.join(format!("{tag}.plain"));
            let mut link = Command::new(cc);
            link.args([*opt, "-Wno-unused-command-line-argument"]).arg(&ir).arg("-o").arg(&plain);
            match common::run_with(&mut link, None, TIMEOUT) {
                Ok(o) if !o.success() && String::from_utf8_lossy(&o.stderr).contains("__kxs_") => {}
                Ok(o) => {
                    rec.add("untransformed link", format!("expected an undefined __kxs_ marker: {}", o.describe()))
                }
                Err(e) => rec.add("untransformed link", e),
            }
        }
        if rec.ok("llcoro", run_llcoro(&ir, &low, &[], TIMEOUT)).is_none() {
            return rec;
        }
        let mut build = Command::new(cc);
        build.args([*opt, "-Wno-unused-command-line-argument"]).args(&flags).arg(&low).arg("-o").arg(&bin);
        match run(&mut build) {
            Ok(o) if o.success() => {}
            Ok(o) => {
                rec.add("build", o.describe());
                return rec;
            }
            Err(e) => {
                rec.add("build", e);
                return rec;
            }
        }
        let mut prog = Command::new(&bin);
        match run(&mut prog) {
            Ok(o) if o.success() && String::from_utf8_lossy(&o.stdout) == want => {}
            Ok(o) => rec.add(
                "run",
                format!(
                    "{}\n{}",
                    o.status_text(),
                    common::first_difference(want.as_bytes(), &o.stdout, ("expected", "actual"))
                ),
            ),
            Err(e) => rec.add("run", e),
        }
        if text.lines().any(|l| l.trim() == "// VALGRIND") && *cc == "clang++-19" && *opt == "-O2" {
            let mut vg = Command::new("valgrind");
            vg.args(["-q", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "--error-exitcode=99"])
                .arg(&bin);
            match common::run_tool(&mut vg, Duration::from_secs(600)) {
                Ok(o) if o.success() && String::from_utf8_lossy(&o.stdout) == want => {}
                Ok(o) => rec.add("valgrind", o.describe()),
                Err(e) => rec.add("valgrind", e),
            }
        }
        rec
    });
    let failures: Vec<String> = results
        .iter()
        .flat_map(|r| r.failures.iter().map(move |f| format!("{} [{}]: {}: {}", r.program, r.config, f.step, f.detail)))
        .collect();
    eprintln!("kxs C++: {} builds, {} failures", jobs.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The diagnostic llcoro printed: `error[CODE]`, then ` ┌─ PATH:LINE:COL`, the source line, a
/// caret and `= help:`. Returns (message line, location) of the first one with `code`.
fn located(stderr: &str, code: &str) -> Option<(String, String)> {
    let mut lines = stderr.lines().skip_while(|l| !l.starts_with(&format!("error[{code}]:")));
    let message = lines.next()?.to_string();
    let rest: Vec<&str> = lines.take_while(|l| !l.starts_with("error[")).collect();
    let at = rest.iter().find_map(|l| l.split_once("┌─ ").map(|(_, r)| r.trim().to_string()))?;
    let caret = rest.iter().any(|l| l.split_once('│').is_some_and(|(_, r)| r.trim_start().starts_with('^')));
    let help = rest.iter().any(|l| l.trim_start().starts_with("= help:"));
    (caret && help).then_some((message, at))
}

/// What a refusal of a suspend point in exception-handling code must say.
const IN_HANDLER: &str = "this suspend point runs while an exception is being handled";

/// A suspend point in a catch handler is refused, located at its marker, whatever the number of
/// landing pads before the handler's dispatch:
/// * `tests/coro-errors/kxs_marker_in_*.ll` (hand-written IR): `llcoro check` exits 1 with
///   `error[kxs-marker-in-unwind]` at the `; FINDING:` position, saying [`IN_HANDLER`];
/// * `tests/kxs/refused/catch_two_pads.cpp` through clang 14, 19 and 22 at -O0 and -O2: `llcoro`
///   exits 1, writes no output, and reports exactly one such error, at the line of the IR that
///   calls the marker with id 0 (the suspend in the handler), column 3; the suspend after the
///   handler (id 1) is not refused.
#[test]
fn suspend_in_a_handler_is_refused_at_its_marker() {
    let mut failures = Vec::new();
    for input in files("tests/coro-errors", "ll").into_iter().filter(|p| stem(p).starts_with("kxs_marker_in_")) {
        let text = fs::read_to_string(&input).unwrap_or_default();
        let Some(at) = text.lines().next().and_then(|l| l.strip_prefix("; FINDING: error kxs-marker-in-unwind "))
        else {
            failures.push(format!("{}: no `; FINDING: error kxs-marker-in-unwind L:C` line", input.display()));
            continue;
        };
        let mut check = Command::new(env!("CARGO_BIN_EXE_llcoro"));
        check.arg("check").arg(&input);
        match common::run_with(&mut check, None, TIMEOUT) {
            Ok(o) if o.status.and_then(|s| s.code()) == Some(1) => {
                let err = String::from_utf8_lossy(&o.stderr);
                match located(&err, "kxs-marker-in-unwind") {
                    Some((msg, loc)) if msg.contains(IN_HANDLER) && loc.ends_with(&format!(":{}", at.trim())) => {}
                    _ => failures.push(format!(
                        "{}: expected the refusal at {at}, saying {IN_HANDLER:?}:\n{err}",
                        input.display()
                    )),
                }
            }
            Ok(o) => failures.push(format!("{}: expected exit status 1: {}", input.display(), o.describe())),
            Err(e) => failures.push(format!("{}: {e}", input.display())),
        }
    }
    if common::require(&["clang++-14", "clang++-19", "clang++-22"], "the kxs refusal of C++ handlers") {
        let input = root().join("tests/kxs/refused/catch_two_pads.cpp");
        let dir = scratch("refused");
        for cc in ["clang++-14", "clang++-19", "clang++-22"] {
            for opt in ["-O0", "-O2"] {
                if let Err(e) = refused_cpp(&input, &dir, cc, opt) {
                    failures.push(format!("catch_two_pads.cpp [{cc} {opt}]: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// One build of `catch_two_pads.cpp`: emit IR, lower it, check the refusal.
fn refused_cpp(input: &Path, dir: &Path, cc: &str, opt: &str) -> Result<(), String> {
    let ir = dir.join(format!("catch_two_pads.{cc}{opt}.ll"));
    let low = dir.join(format!("catch_two_pads.{cc}{opt}.kxs.ll"));
    let _ = fs::remove_file(&low);
    let mut emit = Command::new(cc);
    emit.args(["-std=c++20", opt, "-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes", "-Wno-gnu-label-as-value"])
        .arg("-I")
        .arg(root().join("cpp/include"))
        .arg(input)
        .arg("-o")
        .arg(&ir);
    run(&mut emit).map_err(|e| format!("emit IR: {e}"))?;
    let text = fs::read_to_string(&ir).map_err(|e| format!("{}: {e}", ir.display()))?;
    let marker_line = |id: &str| {
        text.lines().position(|l| {
            l.trim_start().starts_with("call void @__kxs_suspend_point(")
                && l.split('(').nth(1).and_then(|a| a.split(')').next()).is_some_and(|a| a.ends_with(&format!(" {id}")))
        })
    };
    let (Some(line), Some(_)) = (marker_line("0"), marker_line("1")) else {
        return Err(format!("{}: no marker calls with ids 0 and 1", ir.display()));
    };
    let mut lower = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    lower.arg(&ir).arg("-o").arg(&low);
    let o = common::run_with(&mut lower, None, TIMEOUT)?;
    let err = String::from_utf8_lossy(&o.stderr);
    if o.status.and_then(|s| s.code()) != Some(1) || low.exists() {
        return Err(format!("expected exit status 1 and no output file: {}", o.describe()));
    }
    let want = format!("{}:{}:3", ir.display(), line + 1);
    match located(&err, "kxs-marker-in-unwind") {
        Some((msg, at)) if msg.contains(IN_HANDLER) && at == want => {}
        _ => return Err(format!("expected the refusal at {want}, saying {IN_HANDLER:?}:\n{err}")),
    }
    if err.matches("error[").count() != 1 {
        return Err(format!("expected one error (the suspend after the handler is fine):\n{err}"));
    }
    Ok(())
}

/// The fenced blocks of a markdown text that follow a `<!-- test: NAME -->` line: (NAME, text).
fn doc_blocks(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = md.lines();
    while let Some(l) = lines.next() {
        let Some(name) = l.trim().strip_prefix("<!-- test: ").and_then(|r| r.strip_suffix("-->")) else { continue };
        let Some(_fence) = lines.next().filter(|f| f.starts_with("```")) else { continue };
        let body: Vec<&str> = lines.by_ref().take_while(|b| !b.starts_with("```")).collect();
        out.push((name.trim().to_string(), body.join("\n") + "\n"));
    }
    out
}

/// The build examples of docs/kxs.md, as a user would run them, with clang 19 and 22:
/// * the files of each `<!-- test: NAME -->` block are written to a scratch directory, with
///   `<checkout>` replaced by this repository;
/// * each `NAME.sh` runs under `bash -e` there, with `clang++` (clang++-N) and `llcoro` (this
///   build) first on PATH; it must exit 0, and print the `NAME.out` block if there is one
///   (else `walker.out`, the program they all build);
/// * `valgrind.sh`'s valgrind must read the debug information without a complaint (no
///   `unhandled dwarf2` or `Serious error` line): what `-gdwarf-4` is for;
/// * `shared.sh` builds a library with `-fvisibility=hidden` whose suspend function runs on the
///   program's event loop, returning through one COROUTINE_SUSPENDED address.
#[test]
fn docs_build_examples_run() {
    let md = fs::read_to_string(root().join("docs/kxs.md")).unwrap_or_default();
    let blocks = doc_blocks(&md);
    let scripts: Vec<&(String, String)> = blocks.iter().filter(|(n, _)| n.ends_with(".sh")).collect();
    for want in ["launcher.sh", "by-hand.sh", "valgrind.sh", "shared.sh"] {
        assert!(scripts.iter().any(|(n, _)| n == want), "docs/kxs.md has no `<!-- test: {want} -->` block");
    }
    if !common::require(&["clang++-19", "clang++-22", "valgrind"], "the docs/kxs.md build examples") {
        return;
    }
    let checkout = fs::canonicalize(root()).unwrap_or_else(|_| root());
    let jobs: Vec<(&str, &(String, String))> =
        ["clang++-19", "clang++-22"].into_iter().flat_map(|cc| scripts.iter().map(move |&s| (cc, s))).collect();
    let failures: Vec<String> = common::parallel_map(&jobs, 2, |&(cc, (name, _))| {
        let dir = scratch(&format!("docs/{cc}/{}", name.trim_end_matches(".sh")));
        doc_example(&dir, cc, &checkout, &blocks, name).err().map(|e| format!("docs/kxs.md {name} [{cc}]: {e}"))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs one script of docs/kxs.md in `dir` with `cc` as `clang++`.
fn doc_example(dir: &Path, cc: &str, checkout: &Path, blocks: &[(String, String)], name: &str) -> Result<(), String> {
    let here = checkout.to_string_lossy();
    for (file, text) in blocks.iter().filter(|(n, _)| !n.ends_with(".out")) {
        fs::write(dir.join(file), text.replace("<checkout>", &here)).map_err(|e| format!("writing {file}: {e}"))?;
    }
    // The commands as the docs spell them: `clang++` and `llcoro` first on PATH (valgrind is there).
    let bin = dir.join("bin");
    let _ = fs::remove_dir_all(&bin);
    fs::create_dir_all(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let tools = [("clang++", common::find_tool(cc)), ("llcoro", Some(PathBuf::from(env!("CARGO_BIN_EXE_llcoro"))))];
    for (link, target) in tools {
        let target = target.ok_or_else(|| format!("{link}: not found"))?;
        std::os::unix::fs::symlink(&target, bin.join(link)).map_err(|e| format!("linking {link}: {e}"))?;
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut sh = Command::new("bash");
    sh.arg("-e").arg(dir.join(name)).current_dir(dir).env("PATH", path);
    let o = common::run_with(&mut sh, None, Duration::from_secs(300))?;
    if !o.success() {
        return Err(o.describe());
    }
    let out_name = name.replace(".sh", ".out");
    let want = blocks
        .iter()
        .find(|(n, _)| *n == out_name)
        .or_else(|| blocks.iter().find(|(n, _)| n == "walker.out"))
        .map(|(_, t)| t.as_str())
        .unwrap_or_default();
    if o.stdout != want.as_bytes() {
        return Err(common::first_difference(want.as_bytes(), &o.stdout, ("docs", "actual")));
    }
    let err = String::from_utf8_lossy(&o.stderr);
    if name == "valgrind.sh" && (err.contains("unhandled dwarf2") || err.contains("Serious error")) {
        return Err(format!("valgrind could not read the debug information:\n{}", common::excerpt(&o.stderr)));
    }
    Ok(())
}
