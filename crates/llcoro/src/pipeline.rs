//! What a run does to a module, independent of the command line.

use llir::print::{Edits, print_function, print_module};
use llir::verify::verify_function;
use llir::{Error, Module};

#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Parse every function into the IR and print it from there, even with nothing to lower.
    pub parse_all: bool,
}

/// Quick test on the raw text: can this module contain anything to lower? Lets pass-through skip
/// indexing entirely.
pub fn may_need_lowering(src: &str) -> bool {
    src.contains("llvm.coro.") || src.contains("presplitcoroutine") || src.contains("coroutine.presplit")
}

/// Runs llcoro over `src` and returns the output text.
pub fn run(src: String, opts: Options) -> Result<String, Error> {
    if !opts.parse_all && !may_need_lowering(&src) {
        return Ok(src);
    }
    let mut m = Module::parse(src)?;
    let mut edits = Edits::default();
    if opts.parse_all {
        let defs: Vec<usize> = m.definitions().collect();
        for i in defs {
            let f = m.parse_function(i)?;
            verify_function(&f).map_err(internal)?;
            edits.replace.insert(i, print_function(&f, &m.types, &m.src));
        }
    }
    Ok(print_module(&m, &edits))
}

/// A verifier failure on our own output is a bug in llcoro, not in the input.
fn internal(mut e: Error) -> Error {
    e.help = Some("this is a bug in llcoro; please report it with the input file".into());
    e
}
