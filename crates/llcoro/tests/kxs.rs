//! kxs suspend functions, lowered by llcoro and run.
//!
//! * `tests/kxs/ir/*.ll`: hand-written IR (the seed's input pattern, spills, numbered values), for
//!   LLVM 19 and 22; `tests/kxs/ir-typed/*.ll`, their typed-pointer twins, for LLVM 14.
//!   `llcoro IN -o OUT` exits 0; `opt-N -passes=verify` accepts OUT; `lli-N OUT`
//!   exits 0 and prints the file's `; EXPECT:` block; lowering OUT again changes nothing; every
//!   function of IN without a marker is in OUT byte for byte; `llcoro frames` names the suspend
//!   points by the markers' ids.
//! * `tests/kxs/cpp/*.cpp`: C++ suspend functions written with `cpp/include`'s macros. For clang 14
//!   (typed pointers), 19 and 22 at -O0 and -O2: `clang++ -S -emit-llvm -Xclang -disable-llvm-passes`, `llcoro`, then
//!   `clang++` of the lowered IR; the program exits 0 and prints the file's `// EXPECT:` block.
//!   A file with a `// VALGRIND` line also runs under valgrind (clang 19, -O2) with no error and
//!   no leak. Linking the IR without the transform fails on the undefined marker, so an
//!   untransformed build can never pass for a working one.
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
        // Functions without markers pass through byte for byte.
        let after = definitions(lowered);
        for (n, body) in definitions(text).into_iter().filter(|(_, b)| !b.contains("@__kxs_suspend_point(")) {
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
            }
            Ok(Err(e)) => rec.add("frames", format!("not JSON: {e}")),
            Err(e) => rec.add("frames", e),
        }
    });
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
        build.args([*opt, "-Wno-unused-command-line-argument"]).arg(&low).arg("-o").arg(&bin);
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
