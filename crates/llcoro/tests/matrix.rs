//! The configuration matrix: the differential programs of `tests/diff` (see its README) built the
//! way real builds build them, at every optimisation level and debug-info setting, by hand and
//! through `llcoro cc`, against the native build of the same configuration.
//!
//! A cell is one configuration: clang 14, 19 or 22; -O0, -O1, -O2, -O3 or -Os; no debug info,
//! `-gline-tables-only` or `-g`; and one route:
//!
//! - by hand (`hand`): `clang++-N -std=c++20 -OX [debug] -w -Xclang -disable-llvm-passes -emit-llvm
//!   -S P.cpp -o P.ll`, then `llcoro P.ll -o P.low.ll`, then `clang++-N -OX [debug] -w P.low.ll -o
//!   P.hand`;
//! - through the launcher (`cc`): `LLCORO_KEEP_IR=1 llcoro cc -- clang++-N -std=c++20 -OX [debug] -w
//!   -c P.cpp -o P.o` (which keeps its presplit IR as `P.o.llcoro.ll` and its lowered IR as
//!   `P.o.lowered.ll`), then the link `llcoro cc -- clang++-N -OX [debug] P.o -o P.cc`, which the
//!   launcher runs unchanged.
//!
//! A check is one program in one cell. It passes when: the presplit IR has a presplit coroutine
//! (otherwise the check is vacuous); llcoro lowers it; the lowered IR has no `llvm.coro.` and no
//! presplit attribute outside comments; `opt-N -O2 -disable-output` on the lowered IR succeeds with
//! nothing on stderr (its verifier checks the input and the optimised result, debug info included:
//! opt warns and drops debug info it finds broken, so a warning fails too); the program builds; and
//! its run prints the same stdout and exits with the same status as the native build of the same
//! configuration (`clang++-N -std=c++20 -OX [debug] -w P.cpp -o P.native`, which must exit normally;
//! where clang's own lowering is known to miscompile a program, `common::diff::NATIVE_MISCOMPILED`,
//! the native build at -O0 with the same debug flag). A failed opt check does not stop the check: the
//! build and run are still tried, so that a report says everything that goes wrong in a cell.
//!
//! The whole matrix is 3 x 5 x 3 x 2 = 90 cells of 50 programs (4500 checks); it runs with
//! `LLCORO_MATRIX=all` (or `scripts/matrix.sh`). By default the test runs a fixed sample, `SAMPLE`:
//! cells that together cover every optimisation level, every debug-info setting, every clang version
//! and both routes, each cell on every second program (with offsets such that every program is in
//! four cells); see `SAMPLE` for its cost.
//!
//! The test prints a table of the cells (checks, failures, failing programs), the failures grouped by
//! step and gist (the tool's messages, or the function it crashed in; see `common::gist`), then every
//! failure (the first ones of each group with details), a closing line `N passed, M failed`, and
//! panics if a check failed. The details of all failures are also written to `failures.txt` in the
//! scratch directory.
//!
//! Environment: `LLCORO_MATRIX=all` (the whole matrix), `LLCORO_MATRIX_FILTER=substring` (programs
//! whose name contains it), `LLCORO_MATRIX_CELLS=substring` (cells whose name, such as
//! `clang-19-O2-g-cc`, contains it), `LLCORO_MATRIX_FIRST=N` (the first N programs in name order:
//! the whole matrix goes program by program, so a run stopped early has checked every cell on the
//! same first programs, and this gives its summary again from what it kept),
//! `LLCORO_MATRIX_REBUILD=1` (no reuse of earlier outputs).
//!
//! Tools: `clang++-N` and `opt-N` for N in 14, 19 and 22 (a missing one skips its cells with a
//! notice; with `CI` set it is a failure). Outputs are kept under
//! `$CARGO_TARGET_TMPDIR/matrix/clang-N-OX-DEBUG/` and reused while their fingerprints (command,
//! tool version, input hash; for the launcher, the llcoro binary's hash too) hold; concurrent runs
//! wait for each other (a lock on `matrix/.lock`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

mod common;
use common::cache::{Cache, hash_bytes};
use common::checks::{Toolchain, check_lowered, kept_ir, llcoro_identity, presplit_text, through_launcher, toolchains};
use common::diff::{Program, programs, reference_level};
use common::{Failure, Output, Recorder};

const VERSIONS: [u32; 3] = [14, 19, 22];
const LEVELS: [&str; 5] = ["O0", "O1", "O2", "O3", "Os"];

/// Timeout for compilers, opt and llcoro.
const TOOL_TIMEOUT: Duration = Duration::from_secs(180);
/// Timeout for one run of a program.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
/// Worker threads, each running one tool at a time.
const WORKERS: usize = 2;
/// How many failures of one group the report shows in full (the rest one line each).
const DETAILED_PER_GROUP: usize = 3;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Debug {
    None,
    Lines,
    Full,
}

impl Debug {
    const ALL: [Debug; 3] = [Debug::None, Debug::Lines, Debug::Full];

    fn flags(self) -> &'static [&'static str] {
        match self {
            Debug::None => &[],
            Debug::Lines => &["-gline-tables-only"],
            Debug::Full => &["-g"],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Debug::None => "nodebug",
            Debug::Lines => "gline",
            Debug::Full => "g",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Route {
    Hand,
    Launcher,
}

impl Route {
    const ALL: [Route; 2] = [Route::Hand, Route::Launcher];

    fn name(self) -> &'static str {
        match self {
            Route::Hand => "hand",
            Route::Launcher => "cc",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Cell {
    version: u32,
    level: &'static str,
    debug: Debug,
    route: Route,
}

impl Cell {
    /// The build configuration's name (the cell's directory): `clang-19-O2-g`.
    fn build(&self) -> String {
        format!("clang-{}-{}-{}", self.version, self.level, self.debug.name())
    }

    fn name(&self) -> String {
        format!("{}-{}", self.build(), self.route.name())
    }
}

/// The CI sample: (clang, level, debug, route, offset). A cell checks the programs whose index in
/// name order is `offset` modulo 2, so that each program is in four of the eight cells, which between
/// them have each clang and both routes. Every level and debug setting is in the sample.
/// Cost, nothing reused (706 tool runs): 280 s of CPU time, so about 2.3 minutes on two otherwise
/// idle cores; it took 312 s of wall time at a load average of 5 to 6 from other people's builds.
const SAMPLE: [(u32, &str, Debug, Route, usize); 8] = [
    (19, "O0", Debug::Full, Route::Hand, 0),
    (19, "O2", Debug::Full, Route::Launcher, 1),
    (22, "O2", Debug::Full, Route::Hand, 0),
    (22, "O3", Debug::Lines, Route::Launcher, 1),
    (22, "Os", Debug::Full, Route::Launcher, 0),
    (19, "O1", Debug::None, Route::Hand, 1),
    (14, "O2", Debug::Lines, Route::Hand, 1),
    (14, "O1", Debug::Full, Route::Launcher, 0),
];
const SAMPLE_STRIDE: usize = 2;

/// State shared by all checks.
struct Context {
    root: PathBuf,
    cache: Cache,
    /// Stands for the llcoro binary in the launcher's fingerprints (a new llcoro recompiles).
    llcoro_hash: String,
    /// The launcher's `TMPDIR`.
    tmp: PathBuf,
}

/// One program in one build configuration, by the routes of the cells that check it: the native
/// build and its run are shared by the routes.
struct Group<'a> {
    /// The program's place in name order.
    index: usize,
    program: &'a Program,
    tc: &'a Toolchain,
    level: &'static str,
    debug: Debug,
    routes: Vec<Route>,
}

impl Group<'_> {
    fn cell(&self, route: Route) -> Cell {
        Cell { version: self.tc.version, level: self.level, debug: self.debug, route }
    }
}

fn env_set(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The cells to check and, for each, the programs (indices into `programs`) it checks.
fn selected_cells(all: bool, programs: usize, cell_filter: Option<&str>) -> Vec<(Cell, Vec<usize>)> {
    let mut cells = Vec::new();
    if all {
        for version in VERSIONS {
            for level in LEVELS {
                for debug in Debug::ALL {
                    for route in Route::ALL {
                        cells.push((Cell { version, level, debug, route }, (0..programs).collect()));
                    }
                }
            }
        }
    } else {
        for (version, level, debug, route, offset) in SAMPLE {
            let chosen = (0..programs).filter(|i| i % SAMPLE_STRIDE == offset).collect();
            cells.push((Cell { version, level, debug, route }, chosen));
        }
    }
    cells.retain(|(c, _)| cell_filter.is_none_or(|f| c.name().contains(f)));
    cells
}

#[test]
fn matrix() {
    let started = Instant::now();
    let all = env_set("LLCORO_MATRIX").is_some_and(|v| v == "all");
    let rebuild = env_set("LLCORO_MATRIX_REBUILD").is_some_and(|v| v != "0");
    let filter = env_set("LLCORO_MATRIX_FILTER");
    let cell_filter = env_set("LLCORO_MATRIX_CELLS");
    let mut failures: Vec<Failure> = Vec::new();
    // Every program, so that the sample's choice does not depend on the filter.
    let programs = programs(None);
    // Held to the end: a second run waits for this one.
    let (root, _lock) = common::lock_scratch("matrix");
    let toolchains = toolchains(&VERSIONS, &mut failures);

    // The cells, and the groups that carry them out.
    let first = env_set("LLCORO_MATRIX_FIRST").and_then(|n| n.parse::<usize>().ok()).unwrap_or(usize::MAX);
    let wanted = |i: &usize| {
        *i < first && programs.get(*i).is_some_and(|p| filter.as_deref().is_none_or(|f| p.name.contains(f)))
    };
    let cells: Vec<(Cell, Vec<usize>)> = selected_cells(all, programs.len(), cell_filter.as_deref())
        .into_iter()
        .filter(|(c, _)| toolchains.iter().any(|t| t.version == c.version))
        .map(|(c, chosen)| (c, chosen.into_iter().filter(wanted).collect::<Vec<_>>()))
        .filter(|(_, chosen)| !chosen.is_empty())
        .collect();
    let mut by_build: BTreeMap<(u32, &'static str, Debug, usize), Vec<Route>> = BTreeMap::new();
    for (cell, chosen) in &cells {
        for &i in chosen {
            by_build.entry((cell.version, cell.level, cell.debug, i)).or_default().push(cell.route);
        }
    }
    let mut groups: Vec<Group> = by_build
        .into_iter()
        .filter_map(|((version, level, debug, i), routes)| {
            let tc = toolchains.iter().find(|t| t.version == version)?;
            Some(Group { index: i, program: programs.get(i)?, tc, level, debug, routes })
        })
        .collect();
    // Program by program: a whole-matrix run stopped early has then checked every cell on the same
    // first programs (and a second run reuses what the first made).
    groups.sort_by_key(|g| (g.index, g.level == "O0", std::cmp::Reverse(g.routes.len())));

    let llcoro_hash = llcoro_identity();
    let tmp = root.join("tmp");
    fs::create_dir_all(&tmp).unwrap_or_else(|e| panic!("cannot create {}: {e}", tmp.display()));
    let ctx = Context { root, cache: Cache::new(rebuild), llcoro_hash, tmp };
    println!(
        "matrix: {} ({} cells, {} programs, {} builds on {WORKERS} workers){}",
        if all { "the whole matrix" } else { "the CI sample (LLCORO_MATRIX=all for the whole matrix)" },
        cells.len(),
        cells.iter().flat_map(|(_, chosen)| chosen).collect::<std::collections::BTreeSet<_>>().len(),
        groups.len(),
        cell_filter.as_deref().map(|f| format!(", cells matching {f:?}")).unwrap_or_default()
    );

    let results: Vec<(Cell, Recorder)> =
        common::parallel_map(&groups, WORKERS, |g| run_group(g, &ctx)).into_iter().flatten().collect();
    report(&cells, results, failures, &ctx, started);
}

/// Prints the summary (cells, failure groups, failures), writes every failure to `failures.txt`, and
/// panics if anything failed.
fn report(
    cells: &[(Cell, Vec<usize>)],
    results: Vec<(Cell, Recorder)>,
    mut setup: Vec<Failure>,
    ctx: &Context,
    started: Instant,
) {
    // Per cell: checks and failing programs.
    let mut per_cell: BTreeMap<Cell, (usize, Vec<String>)> = cells.iter().map(|(c, _)| (*c, (0, Vec::new()))).collect();
    let mut failures: Vec<(Cell, Failure)> = Vec::new();
    let mut passed = 0;
    let mut failed = 0;
    for (cell, rec) in results {
        let entry = per_cell.entry(cell).or_default();
        entry.0 += 1;
        if rec.failures.is_empty() {
            passed += 1;
        } else {
            failed += 1;
            entry.1.push(rec.program.clone());
        }
        failures.extend(rec.failures.into_iter().map(|f| (cell, f)));
    }
    println!("matrix: {:<28} {:>6} {:>6}  failing programs", "cell", "checks", "failed");
    for (cell, (checks, failing)) in &per_cell {
        let mut failing = failing.clone();
        failing.sort();
        println!("matrix: {:<28} {checks:>6} {:>6}  {}", cell.name(), failing.len(), failing.join(" "));
    }

    // Groups: the same step failing for the same reason.
    failures.sort_by(|(ca, a), (cb, b)| {
        (&a.step, gist_of(&a.detail), ca, &a.program).cmp(&(&b.step, gist_of(&b.detail), cb, &b.program))
    });
    let mut groups: BTreeMap<(String, String), Vec<&(Cell, Failure)>> = BTreeMap::new();
    for f in &failures {
        groups.entry((f.1.step.clone(), gist_of(&f.1.detail))).or_default().push(f);
    }
    if !groups.is_empty() {
        println!("matrix: failures by step and gist:");
    }
    let mut details = String::new();
    for ((step, gist), members) in &groups {
        let mut cell_names: Vec<String> = members.iter().map(|(c, _)| c.name()).collect();
        cell_names.dedup();
        let programs: std::collections::BTreeSet<&str> = members.iter().map(|(_, f)| f.program.as_str()).collect();
        println!(
            "matrix:   [{step}] {gist}\n             {} failures, {} programs, cells: {}",
            members.len(),
            programs.len(),
            cell_names.join(" ")
        );
        for (i, (cell, f)) in members.iter().enumerate() {
            let line = format!("FAIL {} [{}] {}\n  {}\n\n", f.program, cell.name(), f.step, f.detail);
            if i < DETAILED_PER_GROUP {
                eprint!("{line}");
            } else {
                eprintln!("FAIL {} [{}] {} (details in failures.txt)", f.program, cell.name(), f.step);
            }
            details.push_str(&line);
        }
    }
    for f in &setup {
        eprintln!("FAIL {} [{}] {}\n  {}\n", f.program, f.config, f.step, f.detail);
    }
    let failures_file = ctx.root.join("failures.txt");
    if let Err(e) = fs::write(&failures_file, &details) {
        eprintln!("matrix: cannot write {}: {e}", failures_file.display());
    }
    if !failures.is_empty() {
        eprintln!("matrix: files are kept in {}; every failure is in {}", ctx.root.display(), failures_file.display());
    }
    println!(
        "matrix: {} tool runs ({} reused) in {:.1}s with {WORKERS} workers",
        ctx.cache.ran.load(Ordering::Relaxed) + ctx.cache.reused.load(Ordering::Relaxed),
        ctx.cache.reused.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    failed += setup.len();
    println!("{passed} passed, {failed} failed");
    setup.clear();
    if failed > 0 {
        panic!("matrix: {failed} of {} checks failed", passed + failed);
    }
}

/// A failure's reason for grouping: the tool's gist when it has one, else its first line of detail
/// after the command, up to a comma (run differences name the line they differ at after it).
fn gist_of(detail: &str) -> String {
    if let Some((_, gist)) = detail.rsplit_once("\n  gist: ") {
        return gist.lines().next().unwrap_or("").to_string();
    }
    let line = detail.lines().nth(1).unwrap_or(detail).trim();
    line.split(',').next().unwrap_or(line).to_string()
}

/// The native build and run of the group's configuration, then each route's check against it.
fn run_group(g: &Group, ctx: &Context) -> Vec<(Cell, Recorder)> {
    let mut recs: Vec<(Cell, Recorder)> =
        g.routes.iter().map(|&r| (g.cell(r), Recorder::new(&g.program.name, &g.cell(r).name()))).collect();
    let dir = ctx.root.join(g.cell(Route::Hand).build());
    let reference = fs::create_dir_all(&dir)
        .map_err(|e| format!("create {}: {e}", dir.display()))
        .and_then(|()| native_run(g, ctx, &dir));
    let reference = match reference {
        Ok(r) => r,
        Err(e) => {
            for (_, rec) in &mut recs {
                rec.add("native build and run", e.clone());
            }
            return recs;
        }
    };
    for (cell, rec) in &mut recs {
        match cell.route {
            Route::Hand => by_hand(g, ctx, &dir, &reference, rec),
            Route::Launcher => by_launcher(g, ctx, &dir, &reference, rec),
        }
    }
    recs
}

fn clang(g: &Group) -> Command {
    let mut cmd = Command::new(&g.tc.clangxx);
    cmd.arg(format!("-{}", g.level)).args(g.debug.flags()).arg("-w");
    cmd
}

/// Builds (or reuses) and runs the native program; its run must end with an exit status.
fn native_run(g: &Group, ctx: &Context, dir: &Path) -> Result<Output, String> {
    let p = g.program;
    let native = dir.join(format!("{}.native", p.name));
    let level = reference_level(&p.name, g.tc.version, g.level);
    let mut cmd = Command::new(&g.tc.clangxx);
    cmd.args(["-std=c++20", &format!("-{level}")]).args(g.debug.flags()).arg("-w").arg(&p.path).arg("-o").arg(&native);
    ctx.cache.make(&mut cmd, &g.tc.clangxx_version, p.hash, &native, TOOL_TIMEOUT)?;
    let out = common::run_with(&mut Command::new(&native), None, RUN_TIMEOUT)?;
    if out.status.and_then(|s| s.code()).is_none() {
        return Err(format!("{}: {}", native.display(), out.describe()));
    }
    Ok(out)
}

/// Runs a built program and compares it with the native run.
fn compare_run(exe: &Path, reference: &Output, rec: &mut Recorder) {
    if let Some(actual) = rec.ok("lowered run", common::run_with(&mut Command::new(exe), None, RUN_TIMEOUT)) {
        common::same_run(rec, "lowered run vs native run", reference, &actual, &exe.display().to_string());
    }
}

fn by_hand(g: &Group, ctx: &Context, dir: &Path, reference: &Output, rec: &mut Recorder) {
    let p = g.program;
    let file = |ext: &str| dir.join(format!("{}.{ext}", p.name));
    let presplit = file("ll");
    let mut cmd = clang(g);
    cmd.args(["-std=c++20", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"])
        .arg(&p.path)
        .arg("-o")
        .arg(&presplit);
    if rec.ok("presplit IR", ctx.cache.make(&mut cmd, &g.tc.clangxx_version, p.hash, &presplit, TOOL_TIMEOUT)).is_none()
        || presplit_text(&presplit, rec).is_none()
    {
        return;
    }
    let lowered_ir = file("low.ll");
    let Some(text) = rec.ok("llcoro", common::run_llcoro(&presplit, &lowered_ir, &[], TOOL_TIMEOUT)) else { return };
    check_lowered(&ctx.cache, (&g.tc.opt, &g.tc.opt_version), &lowered_ir, &text, rec, TOOL_TIMEOUT);
    let exe = file("hand");
    let mut cmd = clang(g);
    cmd.arg(&lowered_ir).arg("-o").arg(&exe);
    let built = ctx.cache.make(&mut cmd, &g.tc.clangxx_version, hash_bytes(text.as_bytes()), &exe, TOOL_TIMEOUT);
    if rec.ok("lowered build", built).is_some() {
        compare_run(&exe, reference, rec);
    }
}

fn by_launcher(g: &Group, ctx: &Context, dir: &Path, reference: &Output, rec: &mut Recorder) {
    let p = g.program;
    let object = dir.join(format!("{}.o", p.name));
    let launcher = |cmd: &mut Command| through_launcher(cmd, &ctx.tmp);
    let mut compile = clang(g);
    compile.args(["-std=c++20", "-c"]).arg(&p.path).arg("-o").arg(&object);
    let version = format!("{}\n{}", g.tc.clangxx_version, ctx.llcoro_hash);
    if rec
        .ok("llcoro cc compile", ctx.cache.make(&mut launcher(&mut compile), &version, p.hash, &object, TOOL_TIMEOUT))
        .is_none()
    {
        return;
    }
    // The IR the launcher kept: what clang wrote, and what llcoro made of it.
    let (presplit, lowered_ir) = kept_ir(&object);
    if presplit_text(&presplit, rec).is_none() {
        return;
    }
    let text = match fs::read_to_string(&lowered_ir) {
        Ok(t) => t,
        Err(e) => {
            return rec.add("llcoro cc compile", format!("LLCORO_KEEP_IR=1 kept no {}: {e}", lowered_ir.display()));
        }
    };
    check_lowered(&ctx.cache, (&g.tc.opt, &g.tc.opt_version), &lowered_ir, &text, rec, TOOL_TIMEOUT);
    let exe = dir.join(format!("{}.cc", p.name));
    let mut link = clang(g);
    link.arg(&object).arg("-o").arg(&exe);
    let linked = ctx.cache.make(&mut launcher(&mut link), &version, hash_bytes(text.as_bytes()), &exe, TOOL_TIMEOUT);
    if rec.ok("llcoro cc link", linked).is_some() {
        compare_run(&exe, reference, rec);
    }
}
