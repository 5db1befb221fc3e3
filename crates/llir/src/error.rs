//! Located errors. A span is a byte range into the module text; line and column are resolved only when
//! an error is rendered, so the parser stays cheap on the happy path.

use std::fmt;

/// A byte range into the module text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// The bytes `start..end`.
    pub fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }
    /// An empty span at `pos`, for an error about a place rather than a text.
    pub fn at(pos: u32) -> Self {
        Span { start: pos, end: pos }
    }
}

/// What went wrong, where, and what the user can do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Stable kebab-case code such as `parse-expected` or `verify-dominance`.
    pub code: &'static str,
    /// What went wrong, in a sentence.
    pub message: String,
    /// The input text the error is about.
    pub span: Span,
    /// A short label for the caret line.
    pub label: String,
    /// Advice on how to fix the input.
    pub help: Option<String>,
}

impl Error {
    /// An error with no label or help yet.
    pub fn new(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Error { code, message: message.into(), span, label: String::new(), help: None }
    }
    /// Sets the label shown at the caret.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    /// Sets the advice on how to fix the input.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.span.start)
    }
}

impl std::error::Error for Error {}

/// A result whose error is located in the input.
pub type Result<T> = std::result::Result<T, Error>;

/// Maps byte offsets to 1-based line and column numbers.
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i as u32 + 1);
            }
        }
        LineIndex { starts }
    }

    /// 1-based (line, column); the column counts bytes.
    pub fn line_col(&self, pos: u32) -> (usize, usize) {
        let line = match self.starts.binary_search(&pos) {
            Ok(l) => l,
            Err(l) => l.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        (line + 1, (pos - start) as usize + 1)
    }

    /// The byte range of the 1-based line, without its line terminator.
    pub fn line_range(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts.get(line.saturating_sub(1)).copied().unwrap_or(0) as usize;
        let mut end = self.starts.get(line).map(|&s| s as usize).unwrap_or(text.len());
        let bytes = text.as_bytes();
        while end > start && matches!(bytes.get(end - 1), Some(b'\n' | b'\r')) {
            end -= 1;
        }
        (start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let idx = LineIndex::new("ab\ncd\r\nef");
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(4), (2, 2));
        assert_eq!(idx.line_col(7), (3, 1));
        assert_eq!(idx.line_range("ab\ncd\r\nef", 2), (3, 5));
    }
}
