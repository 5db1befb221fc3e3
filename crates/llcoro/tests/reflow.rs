//! Layout and bytes are not meaning: LLVM's IR grammar is free-form (newlines, spaces and `;`
//! comments may stand between any two tokens), and its parser keeps raw bytes that are not UTF-8 in
//! comments, strings and quoted names. This property test reflows real inputs and checks that llcoro
//! lowers every reflow as it lowers the input.
//!
//! Inputs: the hand-written IR under `tests/` (`edge`, `shapes`, `seeds`, `typed`, `docs`, `kxs/ir`,
//! `kxs/ir-typed`, `stackless`), and the presplit IR that clang makes of `tests/diff` programs. For
//! each input whose first accepting `opt` (19, then 22, then 14) verifies it and that llcoro lowers:
//!
//! * **reflow**: a deterministic, seeded rewrite of the spacing between tokens (never inside a token,
//!   a string or a comment): lines split and joined, spaces and tabs, `; comments` inserted. The same
//!   `opt` must accept it, llcoro must lower it (exit 0), and `opt -S` of both lowerings must be the
//!   same text.
//! * **raw bytes**: a reflow with bytes that are not UTF-8 in comments, in a `c"..."` constant, in a
//!   metadata string and in the quoted name of a function (a coroutine's where there is one, so the
//!   bytes go through a rewritten function). It must be accepted and lowered, its lowering must be
//!   the lowering of the same module spelling those bytes as `\XX` escapes (after `opt -S`), and the
//!   raw bytes must be in llcoro's output as they were.
//!
//! By default a fixed sample runs (one seed per hand-written file, three clang configurations of two
//! `tests/diff` programs), in well under a minute on two cores. `LLCORO_REFLOW_ALL=1` runs three seeds
//! per file and every `tests/diff` program in every configuration; `LLCORO_REFLOW_ONLY=TEXT` keeps
//! the inputs whose name holds TEXT.

mod common;

use common::{Recorder, command_text, find_tool, parallel_map, run_tool, run_with};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);
/// The hand-written IR directories, searched recursively.
const IR_DIRS: [&str; 8] = ["edge", "shapes", "seeds", "typed", "docs", "kxs/ir", "kxs/ir-typed", "stackless"];
/// `opt` versions: the first of 22 and 19 that verifies an input with opaque pointers judges its
/// reflows; 14 judges typed pointers. 22 comes first because opt-19 prints a forward `blockaddress`
/// of a numbered block differently from one run to the next (tests/edge/blockaddress_indirectbr.ll:
/// two outputs in ten runs), which no retry makes a stable comparison.
const OPTS: [&str; 3] = ["22", "19", "14"];
/// Clang configurations for the presplit IR of `tests/diff` programs: (version, flags).
const CLANG: [(&str, &[&str]); 3] = [("19", &["-O0", "-g"]), ("22", &["-O2", "-g"]), ("14", &["-O0"])];
/// The `tests/diff` programs of the default sample.
const DIFF_SAMPLE: [&str; 2] = ["06_task_lazy.cpp", "04_gen_strings.cpp"];

fn all() -> bool {
    std::env::var_os("LLCORO_REFLOW_ALL").is_some_and(|v| !v.is_empty() && v != "0")
}

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

// ---------------------------------------------------------------------------------------------
// Tokens, as LLVM's lexer cuts them (where this test may put space): comments, strings (with a
// sigil or `c` before them, or a `:` after them) and words are never split.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Comment,
    Token,
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-' | b'+' | b'\\' | b'@' | b'%' | b'#' | b'^')
}

/// The tokens and comments of `text`, as (start, end, kind).
fn tokens(text: &[u8]) -> Vec<(usize, usize, Kind)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        let start = i;
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
            continue;
        }
        if c == b';' {
            while i < text.len() && text[i] != b'\n' {
                i += 1;
            }
            out.push((start, i, Kind::Comment));
            continue;
        }
        // A word, possibly running into a string (`c"..."`, `@"..."`, `!"..."`), possibly a label.
        loop {
            while i < text.len() && is_word(text[i]) {
                i += 1;
            }
            if i < text.len() && text[i] == b'!' && i == start {
                i += 1;
                continue;
            }
            let glued = i == start || matches!(&text[start..i], b"c" | b"@" | b"%" | b"!" | b"$");
            if i < text.len() && text[i] == b'"' && glued {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += 1;
                }
                i = (i + 1).min(text.len());
            }
            break;
        }
        if i < text.len() && text[i] == b':' && i > start {
            i += 1;
        }
        if i == start {
            // Punctuation: one character each.
            i += 1;
        }
        out.push((start, i, Kind::Token));
    }
    out
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Raw bytes the raw variant writes: none of them UTF-8 on its own.
const RAW: &[u8] = b"\xff\xfe\x80\xc3";

/// `text` with the space between its tokens rewritten at random (seeded); with `raw`, some inserted
/// comments hold bytes that are not UTF-8. Space next to a comment stays as it is.
fn reflow(text: &[u8], seed: u64, raw: bool) -> Vec<u8> {
    let toks = tokens(text);
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(text.len() * 2);
    let mut prev = 0;
    let mut prev_kind = Kind::Comment;
    for (n, &(start, end, kind)) in toks.iter().enumerate() {
        let gap = &text[prev..start];
        if n == 0 || kind == Kind::Comment || prev_kind == Kind::Comment {
            out.extend_from_slice(gap);
        } else {
            match rng.below(20) {
                0..=9 => out.extend_from_slice(gap),
                10 | 11 => out.push(b' '),
                12 => out.push(b'\t'),
                13 | 14 => out.extend_from_slice(b"\n"),
                15 => out.extend_from_slice(b"\n\t  "),
                16 | 17 => {
                    out.extend_from_slice(format!(" ; reflow {n}").as_bytes());
                    // Drawn either way: the raw variant and its escaped twin have the same layout.
                    if rng.below(2) == 0 && raw {
                        out.extend_from_slice(b" ");
                        out.extend_from_slice(RAW);
                    }
                    out.extend_from_slice(b"\n  ");
                }
                18 => out.extend_from_slice(b" \t "),
                _ => out.extend_from_slice(b"\n; reflow \"; { }\n  "),
            }
        }
        out.extend_from_slice(&text[start..end]);
        prev = end;
        prev_kind = kind;
    }
    out.extend_from_slice(&text[prev..]);
    out
}

/// The raw-bytes variant of `text` (reflowed with `seed`), spelling the bytes raw or, with
/// `escaped`, as LLVM's `\XX` escapes (and without them in comments): a function renamed to a quoted
/// name holding them, a constant and a metadata string holding them. Also returns the raw byte runs
/// the lowering must keep.
fn with_bytes(text: &[u8], seed: u64, escaped: bool) -> (Vec<u8>, Vec<Vec<u8>>) {
    let bytes = |b: &[u8]| -> Vec<u8> {
        if escaped { b.iter().flat_map(|c| format!("\\{c:02X}").into_bytes()).collect() } else { b.to_vec() }
    };
    let mut out = b"; raw bytes: ".to_vec();
    out.extend_from_slice(if escaped { b"none" } else { RAW });
    out.push(b'\n');
    let mut keep = vec![[&b"; raw bytes: "[..], RAW].concat()];
    let mut body = reflow(text, seed, !escaped);
    if let Some(name) = function_to_rename(text) {
        let quoted = [b"@\"" as &[u8], &name[1..], &bytes(&RAW[..2]), b"\""].concat();
        keep.push([&name[1..], &RAW[..2]].concat());
        body = rename(&body, &name, &quoted);
    }
    out.extend_from_slice(&body);
    let meta = next_metadata_id(text);
    out.extend_from_slice(b"\n@\"reflow.bytes");
    out.extend_from_slice(&bytes(&RAW[3..]));
    out.extend_from_slice(b"\" = constant [3 x i8] c\"");
    out.extend_from_slice(&bytes(&RAW[..3]));
    out.extend_from_slice(format!("\"\n!reflow.raw = !{{!{meta}}}\n!{meta} = !{{!\"").as_bytes());
    out.extend_from_slice(&bytes(&RAW[1..]));
    out.extend_from_slice(b"\"}\n");
    keep.push([b"c\"", &RAW[..3], b"\""].concat());
    keep.push([b"!\"", &RAW[1..], b"\""].concat());
    (out, keep)
}

/// The function whose name the raw variant quotes: the first that calls `llvm.coro.begin` (a
/// coroutine, rewritten), else the first defined, of those named plainly outside LLVM's and the
/// runtime's namespaces.
fn function_to_rename(text: &[u8]) -> Option<Vec<u8>> {
    let toks = tokens(text);
    let mut current: Option<&[u8]> = None;
    let mut first = None;
    let mut depth = 0;
    for (k, &(s, e, kind)) in toks.iter().enumerate() {
        let t = &text[s..e];
        if kind == Kind::Comment {
            continue;
        }
        if t == b"define" && depth == 0 {
            current = toks[k + 1..].iter().map(|&(s, e, _)| &text[s..e]).find(|t| t.starts_with(b"@"));
            let plain = current.filter(|n| {
                n.len() > 1
                    && n[1..].iter().all(|&c| is_word(c) && c != b'"')
                    && !n.starts_with(b"@llvm.")
                    && !n.starts_with(b"@__")
                    && *n != &b"@main"[..]
            });
            if plain.is_none() {
                current = None;
            }
            first = first.or(current);
        }
        match t {
            b"{" => depth += 1,
            b"}" => depth -= 1,
            b"@llvm.coro.begin" if current.is_some() => return current.map(<[u8]>::to_vec),
            _ => {}
        }
    }
    first.map(<[u8]>::to_vec)
}

/// `text` with every token `from` replaced by `to`.
fn rename(text: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut prev = 0;
    for (s, e, kind) in tokens(text) {
        if kind == Kind::Token && &text[s..e] == from {
            out.extend_from_slice(&text[prev..s]);
            out.extend_from_slice(to);
            prev = e;
        }
    }
    out.extend_from_slice(&text[prev..]);
    out
}

/// A metadata id above every numbered node of `text`.
fn next_metadata_id(text: &[u8]) -> u64 {
    tokens(text)
        .iter()
        .filter_map(|&(s, e, _)| std::str::from_utf8(text[s..e].strip_prefix(b"!")?).ok()?.parse::<u64>().ok())
        .max()
        .map_or(900_000, |n| n + 900_000)
}

// ---------------------------------------------------------------------------------------------
// Running the tools.

fn opt_verifies(v: &str, path: &Path) -> Result<(), String> {
    let mut c = Command::new(format!("opt-{v}"));
    c.args(["-passes=verify", "-disable-output"]).arg(path);
    run_tool(&mut c, TIMEOUT).map(|_| ())
}

/// `opt-N -S` of the file: the canonical text of the module it holds (read from standard input, so
/// the module's name is the same for every file).
fn canonical(v: &str, path: &Path) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut c = Command::new(format!("opt-{v}"));
    c.args(["-passes=verify", "-S", "-"]);
    let line = format!("{} < {}", command_text(&c), path.display());
    match run_with(&mut c, Some(&bytes), TIMEOUT) {
        Err(e) => Err(format!("{line}\n  {e}")),
        Ok(o) if !o.success() => Err(format!("{line}\n  {}", o.describe())),
        Ok(o) => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
    }
}

/// Runs llcoro; its output file's bytes.
fn lower(input: &Path, output: &Path) -> Result<Vec<u8>, String> {
    let _ = fs::remove_file(output);
    let mut c = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    c.arg(input).arg("-o").arg(output);
    let o = run_tool(&mut c, TIMEOUT)?;
    if String::from_utf8_lossy(&o.stderr).contains("panicked") {
        return Err(format!("{}: panicked:\n{}", command_text(&c), common::excerpt(&o.stderr)));
    }
    fs::read(output).map_err(|e| format!("no output {}: {e}", output.display()))
}

/// One input: its name, its text, and the scratch directory for its files.
struct Input {
    name: String,
    text: Vec<u8>,
}

/// Checks the reflows of one input; returns whether it was checked (an input no `opt` accepts, or
/// that llcoro refuses, is not one of this test's).
fn check(input: &Input, seeds: &[u64], dir: &Path, rec: &mut Recorder) -> bool {
    let stem = input.name.replace(['/', '.'], "_");
    let file = |what: &str| dir.join(format!("{stem}.{what}.ll"));
    let original = file("in");
    if let Err(e) = fs::write(&original, &input.text) {
        rec.add("write", e.to_string());
        return false;
    }
    // Typed pointers (no `ptr` anywhere) are LLVM 14's dialect, which LLVM 19 would read as opaque.
    let opaque = tokens(&input.text).iter().any(|&(s, e, _)| &input.text[s..e] == b"ptr");
    let versions: &[&str] = if opaque { &OPTS[..2] } else { &OPTS[2..] };
    let Some(v) = versions.iter().copied().find(|v| opt_verifies(v, &original).is_ok()) else { return false };
    let Ok(lowered) = lower(&original, &file("in.low")) else { return false };
    drop(lowered);
    let Some(expected) = rec.ok("opt -S of the input's lowering", canonical(v, &file("in.low"))) else { return true };
    for &seed in seeds {
        let step = |what: &str| format!("{what} (seed {seed}, opt-{v})");
        // Layout.
        let path = file(&format!("reflow{seed}"));
        let _ = fs::write(&path, reflow(&input.text, seed, false));
        if rec.ok(&step("the reflow is valid IR"), opt_verifies(v, &path)).is_none() {
            continue;
        }
        let low = file(&format!("reflow{seed}.low"));
        if rec.ok(&step("llcoro lowers the reflow"), lower(&path, &low)).is_some()
            && let Some(got) = rec.ok(&step("opt -S of the reflow's lowering"), canonical(v, &low))
            && got != expected
        {
            // LLVM's own reading of a forward `blockaddress` of a numbered block depends on the
            // layout (tests/edge/blockaddress_indirectbr.ll): then the inputs differ to it already.
            if let (Ok(a), Ok(b)) = (canonical(v, &original), canonical(v, &path))
                && a != b
            {
                println!("note: opt-{v} reads {} and its reflow differently; not compared", input.name);
            } else if canonical(v, &file("in.low")).ok().as_ref() != Some(&expected) {
                println!("note: opt-{v} reads {} differently from run to run; not compared", input.name);
            } else {
                let diff = common::first_difference(expected.as_bytes(), got.as_bytes(), ("input", "reflow"));
                rec.add(step("the reflow lowers as the input does"), format!("{}: {diff}", path.display()));
            }
        }
        // Bytes.
        let (raw_text, keep) = with_bytes(&input.text, seed, false);
        let (escaped_text, _) = with_bytes(&input.text, seed, true);
        let (raw, escaped) = (file(&format!("raw{seed}")), file(&format!("escaped{seed}")));
        let _ = fs::write(&raw, &raw_text);
        let _ = fs::write(&escaped, &escaped_text);
        if rec.ok(&step("the raw-bytes variant is valid IR"), opt_verifies(v, &raw)).is_none() {
            continue;
        }
        let (raw_low, escaped_low) = (file(&format!("raw{seed}.low")), file(&format!("escaped{seed}.low")));
        let Some(out) = rec.ok(&step("llcoro lowers the raw-bytes variant"), lower(&raw, &raw_low)) else { continue };
        for k in &keep {
            if !out.windows(k.len()).any(|w| w == k.as_slice()) {
                rec.add(
                    step("raw bytes kept"),
                    format!("{} lacks {:?}", raw_low.display(), String::from_utf8_lossy(k)),
                );
            }
        }
        let Some(reference) = rec.ok(&step("llcoro lowers the escaped variant"), lower(&escaped, &escaped_low)) else {
            continue;
        };
        drop(reference);
        if let (Some(a), Some(b)) = (
            rec.ok(&step("opt -S of the escaped variant's lowering"), canonical(v, &escaped_low)),
            rec.ok(&step("opt -S of the raw variant's lowering"), canonical(v, &raw_low)),
        ) && a != b
        {
            if let (Ok(a), Ok(b)) = (canonical(v, &escaped), canonical(v, &raw))
                && a != b
            {
                println!("note: opt-{v} reads the raw and escaped variants of {} differently", input.name);
            } else if canonical(v, &escaped_low).ok().as_ref() != Some(&a) {
                // opt-19 resolves a forward `blockaddress` of a numbered block differently from one
                // run to the next (tests/edge/blockaddress_indirectbr.ll): nothing to compare.
                println!("note: opt-{v} reads {} differently from run to run; not compared", input.name);
            } else {
                let diff = common::first_difference(a.as_bytes(), b.as_bytes(), ("escaped", "raw"));
                rec.add(step("raw bytes lower as their escapes do"), format!("{}: {diff}", raw.display()));
            }
        }
    }
    true
}

fn ll_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            ll_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ll") {
            out.push(p);
        }
    }
}

/// The presplit IR clang makes of `tests/diff` programs (the sample, or all with `all`).
fn diff_inputs(dir: &Path, rec: &mut Recorder) -> Vec<Input> {
    let mut programs: Vec<String> = fs::read_dir(root().join("tests/diff"))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    programs.retain(|p| p.ends_with(".cpp") && (all() || DIFF_SAMPLE.contains(&p.as_str())));
    programs.sort();
    let jobs: Vec<(String, &str, &[&str])> =
        programs.iter().flat_map(|p| CLANG.iter().map(move |&(v, flags)| (p.clone(), v, flags))).collect();
    let made = parallel_map(&jobs, 2, |(p, v, flags)| {
        let out = dir.join(format!("{p}.clang{v}{}.ll", flags.join("")));
        let mut c = Command::new(format!("clang++-{v}"));
        c.args(["-std=c++20", "-w", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"]).args(*flags);
        c.arg(root().join("tests/diff").join(p)).arg("-o").arg(&out);
        run_tool(&mut c, TIMEOUT)?;
        let text = fs::read(&out).map_err(|e| e.to_string())?;
        Ok::<_, String>(Input { name: format!("diff/{p} clang-{v} {}", flags.join(" ")), text })
    });
    made.into_iter().filter_map(|r| rec.ok("presplit IR of a tests/diff program", r)).collect()
}

#[test]
fn reflowed_inputs_lower_as_the_inputs_do() {
    let mut tools: Vec<String> = OPTS.iter().map(|v| format!("opt-{v}")).collect();
    tools.extend(CLANG.iter().map(|(v, _)| format!("clang++-{v}")));
    let tools: Vec<&str> = tools.iter().map(String::as_str).collect();
    if !common::require(&tools, "the reflow property test") {
        return;
    }
    assert!(find_tool("opt-19").is_some());
    let (dir, _lock) = common::lock_scratch("reflow");
    let mut rec = Recorder::new("reflow", "");
    let mut files = Vec::new();
    for d in IR_DIRS {
        ll_files(&root().join("tests").join(d), &mut files);
    }
    files.sort();
    let mut inputs: Vec<Input> = files
        .iter()
        .filter_map(|p| {
            let name = p.strip_prefix(root()).unwrap_or(p).to_string_lossy().into_owned();
            fs::read(p).ok().map(|text| Input { name, text })
        })
        .collect();
    inputs.extend(diff_inputs(&dir, &mut rec));
    // `LLCORO_REFLOW_ONLY=TEXT`: only the inputs whose name holds TEXT (to look into one).
    let only = std::env::var("LLCORO_REFLOW_ONLY").unwrap_or_default();
    inputs.retain(|i| i.name.contains(&only));
    let seeds: &[u64] = if all() { &[1, 2, 3] } else { &[1] };
    let results = parallel_map(&inputs, 2, |input| {
        let mut r = Recorder::new(&input.name, "");
        // Each input its own seeds, so that the sample covers more spacings.
        let salt = input.name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        let seeds: Vec<u64> = seeds.iter().map(|s| s.wrapping_add(salt)).collect();
        let checked = check(input, &seeds, &dir, &mut r);
        (checked, r.failures)
    });
    let checked = results.iter().filter(|(c, _)| *c).count();
    let mut failures = rec.failures;
    failures.extend(results.into_iter().flat_map(|(_, f)| f));
    println!("reflow: {checked} of {} inputs checked", inputs.len());
    // Most inputs are valid IR that llcoro lowers: a change that refused them all would check nothing.
    assert!(checked * 4 >= inputs.len() * 3, "only {checked} of {} inputs were valid and lowered", inputs.len());
    assert!(checked > 0 || !only.is_empty(), "no input checked");
    let report: Vec<String> =
        failures.iter().map(|f| format!("{} — {}:\n  {}", f.program, f.step, f.detail.replace('\n', "\n  "))).collect();
    assert!(report.is_empty(), "{} failures:\n{}", report.len(), report.join("\n"));
}

#[cfg(test)]
mod reflow_self_tests {
    use super::*;

    #[test]
    fn tokens_keep_strings_comments_and_labels_whole() {
        let text = b"@s = constant [2 x i8] c\"; {\" ; a \"comment\nentry: %x = call @\"q n\"(!\"m\") !12 \"l\":";
        let toks: Vec<&[u8]> = tokens(text).iter().map(|&(s, e, _)| &text[s..e]).collect();
        let want: Vec<&[u8]> = vec![
            b"@s",
            b"=",
            b"constant",
            b"[",
            b"2",
            b"x",
            b"i8",
            b"]",
            b"c\"; {\"",
            b"; a \"comment",
            b"entry:",
            b"%x",
            b"=",
            b"call",
            b"@\"q n\"",
            b"(",
            b"!\"m\"",
            b")",
            b"!12",
            b"\"l\":",
        ];
        assert_eq!(toks, want);
    }

    #[test]
    fn a_reflow_changes_only_the_space_between_tokens() {
        let text = b"define void @f() { ; c\nentry:\n  ret void\n}\n";
        let r = reflow(text, 7, false);
        let strip = |t: &[u8]| -> Vec<Vec<u8>> {
            tokens(t).iter().filter(|k| k.2 == Kind::Token).map(|&(s, e, _)| t[s..e].to_vec()).collect()
        };
        assert_eq!(strip(&r), strip(text));
        assert_ne!(r, text.to_vec(), "seed 7 changes something");
    }
}
