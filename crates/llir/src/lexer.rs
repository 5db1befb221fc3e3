//! Bytes to tokens. The lexer never fails: bytes it does not understand become `Tok::Error` tokens, and
//! the parser turns them into located errors. Whitespace and `;` comments are skipped; every token
//! carries its byte span so the parser can cut the original text around value references.

use crate::error::Span;

/// A token's kind; its text is the input at its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `%name`, `%"quoted"`, `%12`.
    Local,
    /// `@name`, `@"quoted"`, `@12`.
    Global,
    /// `$name`, a comdat.
    Comdat,
    /// `#12`, an attribute group, or `#dbg_value` and friends.
    Hash,
    /// `!name` or `!12`.
    MetaName,
    /// A lone `!`, as in `!{` or `!"str"`.
    Bang,
    /// `^12`, a summary entry.
    Summary,
    /// `name:`, `12:` or `"quoted":`.
    Label,
    /// A bare word: keywords, types such as `i32`, and flags.
    Ident,
    /// A decimal integer, possibly negative.
    Int,
    /// A decimal float, or a hex float of any kind (`0x`, `0xH`, `0xK`, ...), or `s0x`/`u0x` integers.
    Float,
    /// `"..."`.
    Str,
    /// `c"..."`.
    CStr,
    /// `=`.
    Eq,
    /// `,`.
    Comma,
    /// `*`.
    Star,
    /// `(`.
    LParen,
    /// `)`.
    RParen,
    /// `[`.
    LBracket,
    /// `]`.
    RBracket,
    /// `{`.
    LBrace,
    /// `}`.
    RBrace,
    /// `<`.
    Less,
    /// `>`.
    Greater,
    /// `:`.
    Colon,
    /// `|`.
    Bar,
    /// `...`.
    Ellipsis,
    /// Bytes that start no token, or an unterminated string: the parser reports it.
    Error,
    /// The end of the range being lexed.
    Eof,
}

/// A token: its kind and its byte range in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: Tok,
    /// Byte offset of its first byte.
    pub start: u32,
    /// Byte offset just past its last byte.
    pub end: u32,
}

impl Token {
    /// The token's byte range.
    pub fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }
}

/// Tokens of a byte range of a text, one at a time (`next_token`).
pub struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    end: usize,
    /// How many comments have been skipped: text cut from between tokens holds one only when this
    /// changed meanwhile.
    comments: u32,
}

fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_')
}

impl<'a> Lexer<'a> {
    /// A lexer over `text[start..end]`; spans stay offsets into the whole `text`.
    pub fn new(text: &'a str, start: usize, end: usize) -> Self {
        Lexer { bytes: text.as_bytes(), pos: start, end: end.min(text.len()), comments: 0 }
    }

    /// Where the next token is looked for.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Where lexing stops.
    pub fn end(&self) -> usize {
        self.end
    }

    /// Continues lexing at byte `pos` (to skip text, or to back up to a token seen before).
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// How many comments were skipped so far.
    pub fn comments(&self) -> u32 {
        self.comments
    }

    fn peek_at(&self, i: usize) -> u8 {
        if i < self.end { self.bytes[i] } else { 0 }
    }

    /// Skips whitespace and comments; returns true if a newline was crossed.
    pub fn skip_trivia(&mut self) -> bool {
        let mut newline = false;
        while self.pos < self.end {
            match self.bytes[self.pos] {
                b'\n' => {
                    newline = true;
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b';' => {
                    self.comments = self.comments.wrapping_add(1);
                    while self.pos < self.end && self.bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        newline
    }

    fn scan_name_chars(&mut self) {
        while self.pos < self.end && is_name_char(self.bytes[self.pos]) {
            self.pos += 1;
        }
    }

    /// Scans a `"..."` string starting at the opening quote; false if unterminated.
    fn scan_string(&mut self) -> bool {
        self.pos += 1;
        while self.pos < self.end {
            match self.bytes[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return true;
                }
                b'\n' => return false,
                _ => self.pos += 1,
            }
        }
        false
    }

    fn sigiled(&mut self, kind: Tok) -> Tok {
        // At the sigil.
        self.pos += 1;
        let c = self.peek_at(self.pos);
        if c == b'"' {
            if self.scan_string() { kind } else { Tok::Error }
        } else if is_name_char(c) {
            self.scan_name_chars();
            kind
        } else {
            Tok::Error
        }
    }

    /// The next token after whitespace and comments; `Tok::Eof` at the end.
    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let start = self.pos;
        let kind = self.scan();
        Token { kind, start: start as u32, end: self.pos as u32 }
    }

    fn scan(&mut self) -> Tok {
        if self.pos >= self.end {
            return Tok::Eof;
        }
        let c = self.bytes[self.pos];
        match c {
            b'%' => self.sigiled(Tok::Local),
            b'@' => self.sigiled(Tok::Global),
            b'$' => {
                // `$name` is a comdat; a bare `$` cannot start anything else.
                self.sigiled(Tok::Comdat)
            }
            b'#' => {
                let start = self.pos;
                self.pos += 1;
                self.scan_name_chars();
                if self.pos == start + 1 { Tok::Error } else { Tok::Hash }
            }
            b'!' => {
                self.pos += 1;
                let c = self.peek_at(self.pos);
                if is_name_char(c) || c == b'\\' {
                    while self.pos < self.end && (is_name_char(self.bytes[self.pos]) || self.bytes[self.pos] == b'\\') {
                        self.pos += 1;
                    }
                    Tok::MetaName
                } else {
                    Tok::Bang
                }
            }
            b'^' => {
                self.pos += 1;
                self.scan_name_chars();
                Tok::Summary
            }
            b'"' => {
                if !self.scan_string() {
                    return Tok::Error;
                }
                if self.peek_at(self.pos) == b':' {
                    self.pos += 1;
                    Tok::Label
                } else {
                    Tok::Str
                }
            }
            b'=' => self.one(Tok::Eq),
            b',' => self.one(Tok::Comma),
            b'*' => self.one(Tok::Star),
            b'(' => self.one(Tok::LParen),
            b')' => self.one(Tok::RParen),
            b'[' => self.one(Tok::LBracket),
            b']' => self.one(Tok::RBracket),
            b'{' => self.one(Tok::LBrace),
            b'}' => self.one(Tok::RBrace),
            b'<' => self.one(Tok::Less),
            b'>' => self.one(Tok::Greater),
            b'|' => self.one(Tok::Bar),
            b':' => self.one(Tok::Colon),
            b'.' if self.peek_at(self.pos + 1) == b'.' && self.peek_at(self.pos + 2) == b'.' => {
                self.pos += 3;
                Tok::Ellipsis
            }
            b'0'..=b'9' | b'-' | b'+' => self.number_or_label(),
            _ if is_name_char(c) => self.word(),
            _ => {
                // Step over one whole UTF-8 character so spans stay on char boundaries.
                self.pos += 1;
                while self.pos < self.end && (self.bytes[self.pos] & 0xC0) == 0x80 {
                    self.pos += 1;
                }
                Tok::Error
            }
        }
    }

    fn one(&mut self, t: Tok) -> Tok {
        self.pos += 1;
        t
    }

    fn word(&mut self) -> Tok {
        let start = self.pos;
        // `c"..."` string constants.
        if self.bytes[start] == b'c' && self.peek_at(start + 1) == b'"' {
            self.pos += 1;
            return if self.scan_string() { Tok::CStr } else { Tok::Error };
        }
        // `s0x..` / `u0x..` hex integers.
        if matches!(self.bytes[start], b's' | b'u')
            && self.peek_at(start + 1) == b'0'
            && self.peek_at(start + 2) == b'x'
        {
            self.pos += 3;
            while self.pos < self.end && self.bytes[self.pos].is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Tok::Float;
        }
        self.scan_name_chars();
        if self.peek_at(self.pos) == b':' {
            self.pos += 1;
            return Tok::Label;
        }
        Tok::Ident
    }

    fn number_or_label(&mut self) -> Tok {
        let start = self.pos;
        let b = self.bytes;
        // Hex floats: 0x, 0xK, 0xL, 0xM, 0xH, 0xR.
        if b[start] == b'0' && self.peek_at(start + 1) == b'x' {
            self.pos += 2;
            if matches!(self.peek_at(self.pos), b'K' | b'L' | b'M' | b'H' | b'R') {
                self.pos += 1;
            }
            while self.pos < self.end && b[self.pos].is_ascii_hexdigit() {
                self.pos += 1;
            }
            // `0xh...` and friends: a kind letter LLVM does not know makes the whole word invalid.
            if self.pos < self.end && (b[self.pos].is_ascii_alphanumeric() || b[self.pos] == b'_') {
                while self.pos < self.end && (b[self.pos].is_ascii_alphanumeric() || b[self.pos] == b'_') {
                    self.pos += 1;
                }
                return Tok::Error;
            }
            return Tok::Float;
        }
        // A label made of name characters that begins with a digit, such as `12:` or `1abc:`.
        let mut p = start;
        while p < self.end && is_name_char(b[p]) {
            p += 1;
        }
        if p < self.end && b[p] == b':' && p > start {
            self.pos = p + 1;
            return Tok::Label;
        }
        self.pos += 1; // sign or first digit
        if !b[start].is_ascii_digit() && !self.peek_at(self.pos).is_ascii_digit() {
            return Tok::Error;
        }
        while self.pos < self.end && b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        let mut float = false;
        if self.peek_at(self.pos) == b'.' {
            float = true;
            self.pos += 1;
            while self.pos < self.end && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
        }
        if matches!(self.peek_at(self.pos), b'e' | b'E')
            && (self.peek_at(self.pos + 1).is_ascii_digit()
                || matches!(self.peek_at(self.pos + 1), b'+' | b'-') && self.peek_at(self.pos + 2).is_ascii_digit())
        {
            float = true;
            self.pos += 2;
            while self.pos < self.end && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
        }
        if float { Tok::Float } else { Tok::Int }
    }
}

/// `text` (whole tokens and the space between them) without its `;` comments, each line end kept:
/// text cut from the input to be written elsewhere (a header, an instruction's template) must not
/// carry a comment that would swallow what is written after it.
pub fn without_comments(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    if !b.contains(&b';') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => i += 1 + b.get(i + 1..).and_then(|r| r.iter().position(|&c| c == b'"' || c == b'\n')).unwrap_or(0),
            b';' => {
                let end = b.get(i..).and_then(|r| r.iter().position(|&c| c == b'\n')).map_or(b.len(), |k| i + k);
                out.push_str(text.get(from..i).unwrap_or("").trim_end_matches([' ', '\t']));
                from = end;
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(text.get(from..).unwrap_or(""));
    std::borrow::Cow::Owned(out)
}

/// Decodes LLVM's `\XX` and `\\` escapes in a quoted name or string body.
pub fn unescape(body: &str) -> Vec<u8> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            if let (Some(h), Some(l)) = (b.get(i + 1), b.get(i + 2))
                && let (Some(h), Some(l)) = ((*h as char).to_digit(16), (*l as char).to_digit(16))
            {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, &str)> {
        let mut lx = Lexer::new(s, 0, s.len());
        let mut v = Vec::new();
        loop {
            let t = lx.next_token();
            if t.kind == Tok::Eof {
                break;
            }
            v.push((t.kind, &s[t.start as usize..t.end as usize]));
        }
        v
    }

    #[test]
    fn sigils_and_quoted_names() {
        let v = kinds(r#"%x @"a b\22" %12 $c #3 !dbg !12 ^4"#);
        assert_eq!(
            v.iter().map(|t| t.0).collect::<Vec<_>>(),
            vec![
                Tok::Local,
                Tok::Global,
                Tok::Local,
                Tok::Comdat,
                Tok::Hash,
                Tok::MetaName,
                Tok::MetaName,
                Tok::Summary
            ]
        );
        assert_eq!(v[1].1, r#"@"a b\22""#);
        assert_eq!(unescape(r#"a b\22"#), b"a b\"");
    }

    #[test]
    fn numbers_labels_and_hex_floats() {
        let v = kinds(
            "entry: 12: -7 1.5e+10 0xH3C00 0xK3FFF8000000000000000 0xR3F80 0x3FF0 u0x1F 170141183460469231731687303715884105728",
        );
        let k: Vec<Tok> = v.iter().map(|t| t.0).collect();
        assert_eq!(
            k,
            vec![
                Tok::Label,
                Tok::Label,
                Tok::Int,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Int
            ]
        );
    }

    #[test]
    fn comments_strings_and_punctuation() {
        let v = kinds("!{!\"a } ; b {\"} ; trailing comment\r\n c\"hi\\00\" ...");
        let k: Vec<Tok> = v.iter().map(|t| t.0).collect();
        assert_eq!(k, vec![Tok::Bang, Tok::LBrace, Tok::Bang, Tok::Str, Tok::RBrace, Tok::CStr, Tok::Ellipsis]);
    }

    #[test]
    fn comments_are_removed_but_not_from_strings() {
        assert_eq!(without_comments("a ; x\n b \"; no\" c;\n"), "a\n b \"; no\" c\n");
        assert!(matches!(without_comments("no comment"), std::borrow::Cow::Borrowed(_)));
        let mut lx = Lexer::new("a ; x\n b", 0, 8);
        while lx.next_token().kind != Tok::Eof {}
        assert_eq!(lx.comments(), 1);
    }

    #[test]
    fn unterminated_string_is_an_error_token() {
        let v = kinds("\"abc\nx");
        assert_eq!(v[0].0, Tok::Error);
    }
}
