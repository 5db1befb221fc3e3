//! Arbitrary input never panics: every mutation of the hand-written IR files and of clang's presplit
//! coroutines and kxs suspend functions is either accepted (parsed, lowered, verified and printed) or refused with a located
//! error, both by `--parse-all` and by the lowering. Mutations are deterministic (a fixed xorshift
//! seed), so a failure reproduces.

use llcoro::pipeline::{Options, run};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SNIPPETS: &[&str] = &[
    "%", "@", "!", "\"", "{", "}", "(", ")", "[", "]", "<", ">", ",", "=", "*", "...", "0x", "-", ":", "\n", "#",
    "c\"", "i32", "ptr", "label", "\\",
];

/// A refusal of input llcoro was given blames the input: never llcoro's own verifier ("this is a bug
/// in llcoro").
fn assert_inputs_fault(e: &llir::Error, what: &str, input: &str) {
    let bug = e.help.as_deref().is_some_and(|h| h.contains("bug in llcoro"));
    assert!(
        !bug && !matches!(e.code, "verify" | "verify-module" | "internal"),
        "{what}: refused as llcoro's own fault ({}: {}); input:\n{input}",
        e.code,
        e.message
    );
}

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut b: Vec<u8> = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        if b.is_empty() {
            break;
        }
        let at = rng.below(b.len());
        match rng.below(4) {
            0 => b.truncate(at),
            1 => {
                let len = rng.below(12).min(b.len() - at);
                b.drain(at..at + len);
            }
            2 => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                b.splice(at..at, s.bytes());
            }
            _ => {
                // Duplicate a short run elsewhere.
                let len = rng.below(20).min(b.len() - at);
                let run: Vec<u8> = b[at..at + len].to_vec();
                let to = rng.below(b.len());
                b.splice(to..to, run);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_inputs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let mut inputs = Vec::new();
    for dir in [
        "edge",
        "typed",
        "docs",
        "coro-errors",
        "fuzz",
        "kxs/ir",
        "kxs/ir-typed",
        "stackless/opaque",
        "stackless/typed",
        "retcon",
        "retcon/typed",
        "retcon/native",
        "async",
    ] {
        let mut files: Vec<_> =
            std::fs::read_dir(root.join(dir)).expect("test dir").flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            if f.extension().is_some_and(|e| e == "ll") {
                inputs.push((f.display().to_string(), std::fs::read_to_string(&f).expect("readable")));
            }
        }
    }
    assert!(inputs.len() >= 20, "expected the hand-written IR files, found {}", inputs.len());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut refused, mut accepted) = (0, 0);
    for (name, src) in &inputs {
        for k in 0..60 {
            let m = mutate(src, &mut rng);
            // Alternate between the parser's round trip and the lowering.
            let parse_all = k % 2 == 0;
            let r = catch_unwind(AssertUnwindSafe(|| run(m.clone(), Options { parse_all, ..Options::default() })));
            match r {
                Ok(Ok(_)) => accepted += 1,
                Ok(Err(r)) => {
                    let e = r.error().cloned().expect("a refusal carries an error");
                    assert!(e.span.start as usize <= m.len(), "{name} mutation {k}: error span past the end");
                    assert!(!e.message.is_empty());
                    assert_inputs_fault(&e, &format!("{name} mutation {k}"), &m);
                    refused += 1;
                }
                Err(_) => panic!("{name} mutation {k} panicked; input:\n{m}"),
            }
        }
    }
    println!("no-panic: {accepted} mutated inputs accepted, {refused} refused with an error");
    assert!(refused > 0 && accepted > 0);
}

/// The function bodies' instruction lines of `src` (by line index) that define a value.
fn definitions(lines: &[&str]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut in_body = false;
    for (k, l) in lines.iter().enumerate() {
        if l.starts_with("define ") {
            in_body = true;
        } else if l.trim_end() == "}" {
            in_body = false;
        } else if in_body && l.trim_start().starts_with('%') && l.contains(" = ") && !l.contains(" phi ") {
            out.push(k);
        }
    }
    out
}

/// The two kinds of invalid input that once ended in "this is a bug in llcoro": a definition moved
/// below its uses (down to the line before its function's last line), and an attribute group with
/// a brace missing. Each mutated module is either accepted (the function is not one llcoro
/// changes) or refused as the input's fault.
#[test]
fn undominated_uses_and_broken_attribute_groups_are_the_inputs_fault() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let mut inputs = Vec::new();
    for dir in [
        "edge",
        "docs",
        "coro-errors",
        "fuzz",
        "shapes",
        "kxs/ir",
        "stackless/opaque",
        "retcon",
        "retcon/native",
        "async",
    ] {
        let mut files: Vec<_> =
            std::fs::read_dir(root.join(dir)).expect("test dir").flatten().map(|e| e.path()).collect();
        files.sort();
        inputs.extend(files.into_iter().filter(|f| f.extension().is_some_and(|e| e == "ll")));
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut refused, mut tried) = (0, 0);
    for f in &inputs {
        let src = std::fs::read_to_string(f).expect("readable");
        let lines: Vec<&str> = src.lines().collect();
        let defs = definitions(&lines);
        let mut mutants = Vec::new();
        for _ in 0..4 {
            let Some(&d) = defs.get(rng.below(defs.len())) else { break };
            // The end of d's function: move the definition just above its last line.
            let end = (d..lines.len()).find(|&k| lines[k].trim_end() == "}").unwrap_or(lines.len());
            let mut moved: Vec<&str> = lines.clone();
            let line = moved.remove(d);
            moved.insert(end.saturating_sub(2).max(d), line);
            mutants.push(moved.join("\n"));
        }
        for (k, l) in lines.iter().enumerate().filter(|(_, l)| l.starts_with("attributes #")) {
            for brace in ['{', '}'] {
                let mut broken = lines.clone();
                let fixed = l.replacen(brace, "", 1);
                broken[k] = &fixed;
                mutants.push(broken.join("\n"));
            }
        }
        for m in mutants {
            tried += 1;
            let name = f.display().to_string();
            let r = catch_unwind(AssertUnwindSafe(|| run(m.clone(), Options::default())));
            match r {
                Ok(Ok(_)) => {}
                Ok(Err(r)) => {
                    let e = r.error().cloned().expect("a refusal carries an error");
                    assert_inputs_fault(&e, &name, &m);
                    refused += 1;
                }
                Err(_) => panic!("{name} panicked; input:\n{m}"),
            }
        }
    }
    println!("invalid inputs: {tried} tried, {refused} refused as the input's fault");
    assert!(refused * 2 > tried, "most of these mutants are invalid: {refused} of {tried} refused");
}
