//! Renders located errors for people: `error[code]: message`, then `file:line:column`, the offending
//! line with a caret under the problem, and what to do about it.

/// How grave a [`Finding`] is: `Error` refuses the run, `Warning` does not (`Bug`, `Note` and `Help`
/// are not used by llcoro).
pub use codespan_reporting::diagnostic::Severity;
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};
use llir::Error;
use llir::ir::{Block, Function, Inst};
use llir::types::{TypeData, TypeTable};

/// A finding about the input: an error that stops the run, or a warning that does not.
#[derive(Clone, Debug)]
pub struct Finding {
    /// `Severity::Error` or `Severity::Warning`.
    pub severity: Severity,
    /// What was found: a stable code (`llcoro explain CODE`), the message, the span in the input it
    /// is about, and help.
    pub error: Error,
}

impl Finding {
    /// 1-based line and column (in bytes) of the finding's start in `src`, the input it was found in.
    pub fn line_col(&self, src: &str) -> (usize, usize) {
        llir::LineIndex::new(src).line_col(self.error.span.start)
    }

    /// The finding as the command line shows it: `error[code]: message`, `path:line:column`, the line
    /// of `src` with a caret under the problem, and help.
    pub fn render(&self, path: &str, src: &str) -> String {
        render(path, src, &self.error, self.severity)
    }
}

/// The error for a worker thread that panicked: a bug in llcoro, which refuses the run.
pub(crate) fn worker_panicked() -> Error {
    Error::new("internal", llir::Span::default(), "internal error: a worker thread panicked")
        .help("this is a bug in llcoro; please report it with the input file")
}

/// A verifier failure on llcoro's own output is a bug in llcoro, not in the input.
pub(crate) fn internal(mut e: Error) -> Error {
    e.help = Some("this is a bug in llcoro; please report it with the input file".into());
    e
}

/// Renders `e` against `src`, naming the file `path`.
pub fn render(path: &str, src: &str, e: &Error, severity: Severity) -> String {
    let file = SimpleFile::new(path, src);
    let len = src.len();
    let start = (e.span.start as usize).min(len);
    let mut end = (e.span.end as usize).clamp(start, len);
    // Keep the caret on the first line of a multi-line span.
    if let Some(nl) = src.get(start..end).and_then(|s| s.find('\n')) {
        end = start + nl;
    }
    let mut start = start;
    while !src.is_char_boundary(start) && start > 0 {
        start -= 1;
    }
    while !src.is_char_boundary(end) && end < len {
        end += 1;
    }
    let mut d = Diagnostic::new(severity)
        .with_code(e.code)
        .with_message(&e.message)
        .with_labels(vec![Label::primary((), start..end).with_message(&e.label)]);
    if let Some(h) = &e.help {
        d = d.with_notes(vec![format!("help: {h}")]);
    }
    let config = Config::default();
    match term::emit_into_string(&config, &file, &d) {
        Ok(s) => s,
        Err(_) => format!("{path}: {}: {}\n", e.code, e.message),
    }
}

/// A finding located at instruction `i` of `f` (or at `f` itself), its message prefixed with the
/// function and block.
pub(crate) fn finding_at(
    sev: Severity,
    code: &'static str,
    f: &Function,
    i: Option<Inst>,
    msg: String,
    help: &str,
) -> Finding {
    let span = i.map(|i| f.insts[i].span).unwrap_or(f.span);
    let place = match i.and_then(|i| f.insts[i].block) {
        Some(b) => format!("in {}, block {}: ", f.name, block_label(f, b)),
        None => format!("in {}: ", f.name),
    };
    Finding { severity: sev, error: Error::new(code, span, format!("{place}{msg}")).label("here").help(help) }
}

/// A block's label as a diagnostic names it: `%name`, or `%N` for a numbered block.
pub(crate) fn block_label(f: &Function, b: Block) -> String {
    match &f.blocks[b].name {
        Some(n) if !llir::print::is_numbered(n) => format!("%{n}"),
        _ => format!("%{}", llir::print::Slots::compute(f).block(b)),
    }
}

/// A block's name as the printed IR spells it, without `%` (its number when it has no name).
pub(crate) fn block_name(f: &Function, b: Block) -> String {
    match &f.blocks[b].name {
        Some(n) => n.to_string(),
        None => llir::print::Slots::compute(f).block(b).to_string(),
    }
}

pub(crate) fn error_at(f: &Function, i: Option<Inst>, code: &'static str, msg: String, help: &str) -> Finding {
    finding_at(Severity::Error, code, f, i, msg, help)
}

pub(crate) fn warning_at(f: &Function, i: Option<Inst>, code: &'static str, msg: String, help: &str) -> Finding {
    finding_at(Severity::Warning, code, f, i, msg, help)
}

/// Types no memory can hold across a suspend (tokens), or that are not values at all.
pub(crate) fn is_unspillable(types: &TypeTable, ty: llir::types::Type) -> bool {
    matches!(types.get(ty), TypeData::Token | TypeData::Label | TypeData::Metadata | TypeData::Void)
}

#[cfg(test)]
mod tests {
    use super::*;
    use llir::Span;

    #[test]
    fn renders_location_line_and_caret() {
        let src = "define void @f() {\n  ret i32 %x\n}\n";
        let e = Error::new("parse-undefined", Span::new(29, 31), "use of undefined value '%x'").help("define it");
        let out = render("t.ll", src, &e, Severity::Error);
        assert!(out.contains("error[parse-undefined]: use of undefined value '%x'"), "{out}");
        assert!(out.contains("t.ll:2:11"), "{out}");
        assert!(out.contains("ret i32 %x"), "{out}");
        assert!(out.contains("^^"), "{out}");
        assert!(out.contains("help: define it"), "{out}");
    }
}
