//! What a run does to a module, independent of the command line: the library's entry points, which
//! the `llcoro` command is built on.

pub use crate::coro::frame::Dispatch;
use crate::diag::Finding;
use crate::lower;
pub use crate::lower::Scope;
use codespan_reporting::diagnostic::Severity;
use llir::print::{Edits, print_function, print_module, write_module};
use llir::{Error, Module};

/// How a run lowers; `Options::default()` is the `llcoro` command without flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Parse every function into the IR and print it from there, lowering nothing: the parser's
    /// round trip.
    pub parse_all: bool,
    /// How `.resume` finds where to continue (`--dispatch`).
    pub dispatch: crate::coro::frame::Dispatch,
    /// What to lower: everything, or kxs suspend functions only (`llcoro kxs`).
    pub scope: lower::Scope,
    /// Lower on the calling thread only (the output is the same). `llcoro cc` runs inside a parallel
    /// build, where threads of its own would only cost CPU time.
    pub serial: bool,
    /// No other module makes coroutines with this module's promise types: handle methods call the
    /// parts directly (`--closed-promises`).
    pub closed_promises: bool,
}

/// Quick test on the raw text: can this module contain anything to lower? Lets pass-through skip
/// indexing entirely.
pub fn may_need_lowering(src: &str) -> bool {
    src.contains("llvm.coro.")
        || src.contains("presplitcoroutine")
        || src.contains("coroutine.presplit")
        || src.contains(crate::kxs::PREFIX)
        || crate::stackless::may_contain(src)
}

/// A refused input: the findings (at least one error), and the input text to show them against.
/// Nothing was lowered: llcoro never returns a partly lowered module.
#[derive(Debug)]
pub struct Refusal {
    /// Every error found (and warnings found with them), in the order the run met them.
    pub findings: Vec<Finding>,
    /// The input, handed back so the findings' spans can be shown against it.
    pub src: String,
}

impl Refusal {
    fn one(error: Error, src: String) -> Self {
        Refusal { findings: vec![Finding { severity: Severity::Error, error }], src }
    }

    /// The first error (for callers that only need one).
    pub fn error(&self) -> Option<&Error> {
        self.findings.iter().find(|f| f.severity == Severity::Error).map(|f| &f.error)
    }

    /// Every finding rendered as the command line shows it, the input named `path`.
    pub fn render(&self, path: &str) -> String {
        self.findings.iter().map(|f| f.render(path, &self.src)).collect()
    }
}

/// The output text, and warnings to show against the input.
#[derive(Debug)]
pub struct Output {
    /// The lowered module; the input itself when there was nothing to lower.
    pub text: String,
    /// Findings that did not stop the run (each `Severity::Warning`).
    pub warnings: Vec<Finding>,
    /// The input, kept only when there are warnings to render.
    pub src: Option<String>,
}

/// A run's result before it is printed: the module and the edits to print it with, so the output can
/// be streamed to a file instead of built in memory first.
pub struct Prepared {
    body: Body,
    /// Findings that did not stop the run (each `Severity::Warning`).
    pub warnings: Vec<Finding>,
}

enum Body {
    /// Nothing to lower: the input as it is.
    Same(String),
    Edited(Box<Module>, Edits),
}

impl Prepared {
    /// The input text, to render warnings against.
    pub fn src(&self) -> &str {
        match &self.body {
            Body::Same(s) => s,
            Body::Edited(m, _) => &m.src,
        }
    }

    /// Writes the output text to `w` (buffer it).
    pub fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        match &self.body {
            Body::Same(s) => w.write_all(s.as_bytes()),
            Body::Edited(m, edits) => write_module(m, edits, w),
        }
    }

    /// The output as one string.
    pub fn into_output(self) -> Output {
        let Prepared { body, warnings } = self;
        match body {
            Body::Same(text) => Output { text, warnings, src: None },
            Body::Edited(m, edits) => {
                let text = print_module(&m, &edits);
                let src = if warnings.is_empty() { None } else { Some(m.src) };
                Output { text, warnings, src }
            }
        }
    }
}

/// Lowers the module `src` (LLVM 14 to 22 textual IR) and returns the lowered text and its warnings,
/// or the findings that refused it. What the `llcoro` command does to a file, in memory; exported as
/// `llcoro::lower` (the crate's documentation has an example).
pub fn run(src: String, opts: Options) -> Result<Output, Refusal> {
    prepare(src, opts).map(Prepared::into_output)
}

/// Runs llcoro over `src` up to, not including, printing the output: [`Prepared::write_to`] then
/// streams it to a writer without building the whole text in memory (how the command writes a
/// file), or [`Prepared::into_output`] gives what [`run`] returns.
pub fn prepare(src: String, opts: Options) -> Result<Prepared, Refusal> {
    if !opts.parse_all && !may_need_lowering(&src) {
        return Ok(Prepared { body: Body::Same(src), warnings: Vec::new() });
    }
    let mut m = match Module::parse(src) {
        Ok(m) => m,
        Err((error, src)) => return Err(Refusal::one(error, src)),
    };
    if opts.parse_all {
        // The parser's round trip: every function through the IR and back, nothing lowered.
        let mut edits = Edits::default();
        match print_all_from_ir(&m, &edits) {
            Ok(printed) => edits.replace.extend(printed),
            Err(error) => return Err(Refusal::one(error, m.src)),
        }
        return Ok(Prepared { body: Body::Edited(Box::new(m), edits), warnings: Vec::new() });
    }
    let lowered =
        match lower::lower_module_with(&mut m, false, opts.dispatch, opts.scope, opts.serial, opts.closed_promises) {
            Ok(l) => l,
            Err(findings) => return Err(Refusal { findings, src: m.src }),
        };
    if let Err(error) = llir::verify::verify_edits(&m, &lowered.edits) {
        return Err(Refusal::one(error, m.src));
    }
    Ok(Prepared { body: Body::Edited(Box::new(m), lowered.edits), warnings: lowered.warnings })
}

/// `llcoro check`: every finding about the presplit coroutines, without rewriting anything, and the
/// input to show them against.
pub fn check(src: String) -> (Vec<Finding>, String) {
    let mut m = match Module::parse(src) {
        Ok(m) => m,
        Err((error, src)) => return (vec![Finding { severity: Severity::Error, error }], src),
    };
    match lower::lower_module(&mut m, true) {
        Ok(l) => (l.warnings, m.src),
        Err(mut findings) => {
            // Errors first, then the warnings that came with them are not returned by the driver.
            findings.sort_by_key(|f| f.error.span.start);
            (findings, m.src)
        }
    }
}

/// Parses, verifies and prints every defined function, on all cores: functions are independent, and
/// each thread interns types into its own copy of the module's table. The first error in module
/// order wins, so the message does not depend on scheduling.
fn print_all_from_ir(m: &Module, done: &Edits) -> Result<Vec<(usize, String)>, Error> {
    let defs: Vec<usize> = m.definitions().filter(|i| !done.replace.contains_key(i)).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    // Contiguous chunks of about equal text size.
    let total: usize = defs.iter().map(|&i| m.items[i].span.end as usize - m.items[i].span.start as usize).sum();
    let mut chunks: Vec<Vec<usize>> = vec![Vec::new()];
    let mut acc = 0usize;
    for &i in &defs {
        if acc > total / threads * chunks.len() && chunks.len() < threads {
            chunks.push(Vec::new());
        }
        acc += m.items[i].span.end as usize - m.items[i].span.start as usize;
        if let Some(c) = chunks.last_mut() {
            c.push(i);
        }
    }
    let work = |chunk: &[usize]| -> Result<Vec<(usize, String)>, Error> {
        let mut types = m.types.clone();
        let mut out = Vec::with_capacity(chunk.len());
        for &i in chunk {
            let f = m.parse_function_with(i, &mut types)?;
            llir::verify::verify_input(&f)?;
            out.push((i, print_function(&f, &types, &m.src)));
        }
        Ok(out)
    };
    let results: Vec<Result<Vec<(usize, String)>, Error>> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks.iter().map(|c| s.spawn(move || work(c))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(crate::diag::worker_panicked()))).collect()
    });
    let mut all = Vec::with_capacity(defs.len());
    for r in results {
        all.extend(r?);
    }
    Ok(all)
}

/// `llcoro frames`: the frame of every coroutine, without writing the lowered module; the report, the
/// warnings, and the input to show them against.
pub fn frames(src: String) -> Result<(crate::report::Report, Vec<Finding>, String), Refusal> {
    let mut m = match Module::parse(src) {
        Ok(m) => m,
        Err((error, src)) => return Err(Refusal::one(error, src)),
    };
    match lower::lower_module(&mut m, false) {
        Ok(l) => {
            let r = crate::report::build(&m, &l);
            Ok((r, l.warnings, m.src))
        }
        Err(findings) => Err(Refusal { findings, src: m.src }),
    }
}
