//! Windows (funclet) exception handling in coroutines: C++ programs under `tests/funclets`, built
//! for x86_64-pc-windows-msvc by clang 14, 19 and 22 at -O0 and -O2 -g, and hand-written modules: the
//! two shapes that need a rewrite (`catchswitch_phis.ll`), handle intrinsics called in funclets
//! (`handle_calls.ll`).
//!
//! No Windows runtime is installed, so nothing runs. The oracles are LLVM's own tools: the lowered
//! module verifies, `opt -O2` accepts it, `llc` makes an object of it, and the code generator's
//! funclet preparation (WinEHPrepare, which turns a call whose `"funclet"` bundle does not match the
//! funclet it is in into `unreachable`) removes no call from it once dead code is gone. The last
//! check is shown to fail on a module whose bundles were stripped. The parts must also keep every
//! handler: as many `catchswitch` and `catchpad` instructions in each as LLVM's passes leave.

mod common;

use common::{Recorder, parallel_map, run_llcoro, run_tool};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);
const TARGET: &str = "--target=x86_64-pc-windows-msvc";
const VERSIONS: [&str; 3] = ["14", "19", "22"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The code generator's name for WinEHPrepare in `llc-v`'s `-print-before`.
fn prepare_pass(v: &str) -> &'static str {
    if v == "14" { "winehprepare" } else { "win-eh-prepare" }
}

/// The name a `define` line (without `define `) defines, quoted or not.
fn defined_name(rest: &str) -> String {
    let name = rest.split_once('@').map_or("", |(_, n)| n);
    match name.strip_prefix('"') {
        Some(q) => q.split('"').next().unwrap_or_default().to_string(),
        None => name.split('(').next().unwrap_or_default().to_string(),
    }
}

/// Non-intrinsic calls and invokes per function in `text`, an IR dump or module.
fn calls_per_function(text: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut current = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("define ") {
            current = Some(defined_name(rest));
        }
        let t = line.trim_start();
        let is_call = t.contains("call ") || t.starts_with("invoke ") || t.contains("= invoke ");
        if is_call && t.contains('@') && !t.contains("@llvm.") && !t.starts_with(';') {
            *out.entry(current.clone().unwrap_or_default()).or_insert(0) += 1;
        }
    }
    out
}

/// `module` with its dead code removed (`sccp,simplifycfg`, with `optnone` dropped so that they
/// run), in a file beside it.
fn without_dead_code(v: &str, module: &Path) -> Result<PathBuf, String> {
    let text = fs::read_to_string(module).map_err(|e| format!("{}: {e}", module.display()))?;
    let clean_in = common::cache::with_suffix(module, ".nooptnone.ll");
    fs::write(&clean_in, text.replace(" optnone", "")).map_err(|e| e.to_string())?;
    let clean = common::cache::with_suffix(module, ".clean.ll");
    run_tool(
        Command::new(format!("opt-{v}")).args(["-passes=sccp,simplifycfg", "-S"]).arg(&clean_in).arg("-o").arg(&clean),
        TIMEOUT,
    )?;
    Ok(clean)
}

/// The functions of `module` from which WinEHPrepare removes a call, with the counts before and
/// after. Dead code is removed first, as WinEHPrepare folds it too.
fn calls_removed_by_eh_prepare(v: &str, module: &Path) -> Result<Vec<String>, String> {
    let clean = without_dead_code(v, module)?;
    let pass = prepare_pass(v);
    let out = run_tool(
        Command::new(format!("llc-{v}"))
            .args(["-O0", "-filetype=null", &format!("-print-before={pass}"), &format!("-print-after={pass}")])
            .arg(&clean),
        TIMEOUT,
    )?;
    let dump = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut removed = Vec::new();
    let mut before: Option<BTreeMap<String, usize>> = None;
    let mut dumps = 0;
    for chunk in dump.split("*** IR Dump ").skip(1) {
        let counts = calls_per_function(chunk);
        if chunk.starts_with("Before") {
            before = Some(counts);
            dumps += 1;
        } else if let Some(b) = before.take() {
            for (f, n) in b {
                let after = counts.get(&f).copied().unwrap_or(0);
                if after < n {
                    removed.push(format!("{f}: {n} calls before, {after} after"));
                }
            }
        }
    }
    if dumps == 0 {
        return Err(format!("llc-{v} printed no dump of {pass} for {}", clean.display()));
    }
    Ok(removed)
}

/// Per function: how many `catchswitch` and `catchpad` instructions it holds.
fn handlers_per_function(text: &str) -> BTreeMap<String, (usize, usize)> {
    let mut out = BTreeMap::new();
    let mut current = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("define ") {
            current = defined_name(rest);
        }
        let e = out.entry(current.clone()).or_insert((0, 0));
        e.0 += usize::from(line.contains("= catchswitch "));
        e.1 += usize::from(line.contains("= catchpad "));
    }
    out.retain(|_, v| *v != (0, 0));
    out
}

/// The checks of the module doc on `input` (presplit IR of LLVM `v`), recorded in `rec`; with
/// `exact`, every part has exactly the live handlers LLVM's has (else `.resume` does).
fn check(v: &str, input: &Path, exact: bool, rec: &mut Recorder) {
    let ours = common::cache::with_suffix(input, ".llcoro.ll");
    let Some(text) = rec.ok("llcoro lowers it", run_llcoro(input, &ours, &[], TIMEOUT)) else { return };
    for l in common::leftovers(&text, &ours) {
        rec.add("leftovers", l);
    }
    let opt = format!("opt-{v}");
    let verify: &[&str] =
        if v == "14" { &["-verify", "-disable-output"] } else { &["-passes=verify", "-disable-output"] };
    rec.ok("the lowered module verifies", run_tool(Command::new(&opt).args(verify).arg(&ours), TIMEOUT));
    let o2 = common::cache::with_suffix(input, ".llcoro.O2.ll");
    rec.ok(
        "opt -O2 accepts it",
        run_tool(Command::new(&opt).args(["-O2", "-S"]).arg(&ours).arg("-o").arg(&o2), TIMEOUT),
    );
    for (module, what) in [(&ours, "the lowered module"), (&o2, "its -O2 form")] {
        let obj = common::cache::with_suffix(module, ".obj");
        rec.ok(
            &format!("llc makes an object of {what}"),
            run_tool(Command::new(format!("llc-{v}")).args(["-filetype=obj"]).arg(module).arg("-o").arg(&obj), TIMEOUT),
        );
        if let Some(removed) = rec.ok("WinEHPrepare reads it", calls_removed_by_eh_prepare(v, module))
            && !removed.is_empty()
        {
            rec.add(format!("WinEHPrepare removes no call of {what}"), removed.join("; "));
        }
    }
    // LLVM's own lowering keeps every live handler in every part; so must ours.
    let theirs = common::cache::with_suffix(input, ".opt.ll");
    // LLVM 14's coro-split is a CGSCC pass, and its pipeline text says so.
    let passes = if v == "14" {
        ["-passes=function(coro-early),cgscc(coro-split),function(coro-cleanup)", "-S"]
    } else {
        ["-passes=coro-early,coro-split,coro-cleanup", "-S"]
    };
    let split = run_tool(Command::new(&opt).args(passes).arg(input).arg("-o").arg(&theirs), TIMEOUT);
    if rec.ok("LLVM's passes lower it", split).is_some()
        && let Some(a) = rec.ok("dead code removed from ours", without_dead_code(v, &ours))
        && let Some(b) = rec.ok("dead code removed from LLVM's", without_dead_code(v, &theirs))
    {
        let count = |p: &Path| handlers_per_function(&fs::read_to_string(p).unwrap_or_default());
        let (a, b) = (count(&a), count(&b));
        // From -O2 IR llcoro may know more dead code than LLVM (an `await_ready` that returns
        // false, read from its body, leaves nothing live after the ramp's initial suspend), so
        // there only `.resume`, which holds everything that runs after a resume, must match.
        let fewer_ok = |f: &str| !exact && !f.ends_with(".resume");
        let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for f in names {
            let (x, y) = (a.get(f).copied().unwrap_or_default(), b.get(f).copied().unwrap_or_default());
            if x != y && !(fewer_ok(f) && x.0 <= y.0 && x.1 <= y.1) {
                rec.add("as many live handlers in each part as LLVM's", format!("{f}: llcoro {x:?}, LLVM {y:?}"));
            }
        }
    }
}

fn report(failures: &[common::Failure]) {
    let lines: Vec<String> =
        failures.iter().map(|f| format!("{} [{}] {}:\n  {}", f.program, f.config, f.step, f.detail)).collect();
    assert!(lines.is_empty(), "{} failures:\n{}", lines.len(), lines.join("\n"));
}

#[test]
fn msvc_coroutines_lower_to_modules_llvm_prepares_without_losing_a_call() {
    let tools: Vec<String> =
        VERSIONS.iter().flat_map(|v| [format!("clang++-{v}"), format!("opt-{v}"), format!("llc-{v}")]).collect();
    let names: Vec<&str> = tools.iter().map(String::as_str).collect();
    if !common::require(&names, "the funclet tests") {
        return;
    }
    let (dir, _lock) = common::lock_scratch("funclets");
    let src = root().join("tests/funclets");
    let mut programs: Vec<String> = fs::read_dir(&src)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    programs.retain(|p| p.ends_with(".cpp"));
    programs.sort();
    assert!(programs.len() >= 2, "C++ programs under {}", src.display());
    let jobs: Vec<(String, &str, &str)> = programs
        .iter()
        .flat_map(|p| VERSIONS.iter().flat_map(move |&v| ["-O0", "-O2"].map(move |o| (p.clone(), v, o))))
        .collect();
    let failures = parallel_map(&jobs, 2, |(p, v, o)| {
        let mut rec = Recorder::new(p, &format!("clang-{v} {o}"));
        let ll = dir.join(format!("{p}.{v}{o}.ll"));
        let made = run_tool(
            Command::new(format!("clang++-{v}"))
                .args([TARGET, "-std=c++20", o, "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S", "-w"])
                // -O2 with debug info, as a release build with symbols makes it.
                .args(if *o == "-O2" { &["-g"][..] } else { &[] })
                .arg(src.join(p))
                .arg("-o")
                .arg(&ll),
            TIMEOUT,
        );
        if rec.ok("clang makes presplit IR", made).is_some() {
            let text = fs::read_to_string(&ll).unwrap_or_default();
            assert!(text.contains("catchswitch") && text.contains("cleanuppad"), "{p}: funclets in {}", ll.display());
            check(v, &ll, *o == "-O0", &mut rec);
        }
        rec.failures
    });
    report(&failures.into_iter().flatten().collect::<Vec<_>>());
}

/// The hand-written modules: `catchswitch_phis.ll` (both rewrites) and `handle_calls.ll` (handle
/// intrinsics called in funclets), with LLVM 19 and 22.
#[test]
fn hand_written_funclet_shapes_lower_to_modules_llvm_prepares() {
    if !common::require(&["opt-19", "llc-19", "opt-22", "llc-22"], "the funclet tests") {
        return;
    }
    let (dir, _lock) = common::lock_scratch("funclets-ir");
    let mut failures = Vec::new();
    for name in ["catchswitch_phis.ll", "handle_calls.ll"] {
        let text = fs::read_to_string(root().join("tests/funclets").join(name)).expect("test input");
        for v in ["19", "22"] {
            let mut rec = Recorder::new(name, &format!("LLVM {v}"));
            // LLVM 22's coro.end returns nothing.
            let text = if v == "22" { text.replace("i1 @llvm.coro.end", "void @llvm.coro.end") } else { text.clone() };
            let input = dir.join(format!("{name}.{v}.ll"));
            fs::write(&input, &text).expect("scratch file");
            check(v, &input, true, &mut rec);
            let ours = fs::read_to_string(common::cache::with_suffix(&input, ".llcoro.ll")).unwrap_or_default();
            let resume = ours.split("define ").find(|f| f.contains("@f.resume(")).unwrap_or_default();
            // Both rewrites happened: a cleanup funclet ends in front of the catchswitch, and the
            // pad it unwinds to switches on where it came from.
            if name == "catchswitch_phis.ll" && (!resume.contains("cleanupret from") || !resume.contains("switch i8")) {
                rec.add("the rewrites", format!("f.resume lacks a cleanupret or the dispatching switch:\n{resume}"));
            }
            // Each indirect call made for an intrinsic in a funclet names it.
            let bundled =
                ours.lines().filter(|l| l.contains("fastcc void %") && l.contains("[ \"funclet\"(token %")).count();
            if name == "handle_calls.ll" && bundled != 2 {
                rec.add("the bundles", format!("{bundled} indirect calls with a funclet bundle, not 2:\n{ours}"));
            }
            failures.extend(rec.failures);
        }
    }
    report(&failures);
}

/// The oracle can fail: a lowered module whose calls in funclets lost their bundles loses calls in
/// WinEHPrepare.
#[test]
fn the_eh_prepare_check_sees_calls_without_their_funclet_bundle() {
    if !common::require(&["clang++-22", "opt-22", "llc-22"], "the funclet tests") {
        return;
    }
    let (dir, _lock) = common::lock_scratch("funclets-oracle");
    let ll = dir.join("try_around_suspend.ll");
    common::run_ok(
        Command::new("clang++-22")
            .args([TARGET, "-std=c++20", "-O0", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S", "-w"])
            .arg(root().join("tests/funclets/try_around_suspend.cpp"))
            .arg("-o")
            .arg(&ll),
    );
    let ours = dir.join("lowered.ll");
    let text = run_llcoro(&ll, &ours, &[], TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(calls_removed_by_eh_prepare("22", &ours), Ok(Vec::new()));
    let stripped: String = text
        .lines()
        .map(|l| match l.find(" [ \"funclet\"(") {
            Some(at) => l[..at].to_string(),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let broken = dir.join("stripped.ll");
    fs::write(&broken, stripped).expect("scratch file");
    let removed = calls_removed_by_eh_prepare("22", &broken).unwrap_or_else(|e| panic!("{e}"));
    assert!(removed.len() >= 2, "calls lost in the ramp and in .resume: {removed:?}");
}
