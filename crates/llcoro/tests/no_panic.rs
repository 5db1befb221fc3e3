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
                    refused += 1;
                }
                Err(_) => panic!("{name} mutation {k} panicked; input:\n{m}"),
            }
        }
    }
    println!("no-panic: {accepted} mutated inputs accepted, {refused} refused with an error");
    assert!(refused > 0 && accepted > 0);
}
