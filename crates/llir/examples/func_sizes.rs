//! Lists a module's functions with their sizes: `cargo run -p llir --example func_sizes -- FILE.ll`.
//!
//! Prints one line per `define`, in module order: its name, its number of blocks and its number of
//! instructions (debug records count as instructions), then a total. Only the bodies are parsed
//! here; the module's index alone would give the names. A file that does not parse gets a located
//! error and exit status 1.

use llir::{LineIndex, Module};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: func_sizes FILE.ll");
        return ExitCode::from(2);
    };
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::from(1);
        }
    };
    match sizes(src) {
        Ok(table) => {
            print!("{table}");
            ExitCode::SUCCESS
        }
        Err((e, src)) => {
            let (line, col) = LineIndex::new(&src).line_col(e.span.start);
            eprintln!("{path}:{line}:{col}: error[{}]: {}", e.code, e.message);
            ExitCode::from(1)
        }
    }
}

/// The table for the module `src`, or the first error and the text to locate it in.
fn sizes(src: String) -> Result<String, (llir::Error, String)> {
    let mut m = Module::parse(src)?;
    let defs: Vec<usize> = m.definitions().collect();
    let width = defs.iter().map(|&i| m.item_name(i).len()).max().unwrap_or(0).max("function".len());
    let mut out = format!("{:<width$}  {:>6}  {:>12}\n", "function", "blocks", "instructions");
    let (mut blocks, mut insts) = (0, 0);
    for i in defs {
        let f = match m.parse_function(i) {
            Ok(f) => f,
            Err(e) => return Err((e, m.src)),
        };
        out.push_str(&format!("{:<width$}  {:>6}  {:>12}\n", f.name, f.layout.len(), f.num_insts()));
        blocks += f.layout.len();
        insts += f.num_insts();
    }
    out.push_str(&format!("{:<width$}  {:>6}  {:>12}\n", "total", blocks, insts));
    Ok(out)
}
