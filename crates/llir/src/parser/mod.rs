//! Text to IR. `module` indexes the top-level entities by span without parsing bodies; `func` parses one
//! function body into the SSA IR on demand. This file holds what both share: the token cursor, types,
//! constants, metadata operands, attribute skipping, and the *cut* that turns operand tokens into
//! template pieces.
//!
//! The parser checks syntax, value definitions and operand types as it goes; structural rules that need
//! the whole function (dominance, terminators, phi predecessors) belong to `verify`.

pub mod func;
pub mod module;

use crate::error::{Error, Result, Span};
use crate::ir::{Piece, Text};
use crate::lexer::{Lexer, Tok, Token};
use crate::types::{NamedBody, Type, TypeData, TypeTable};

/// Words that begin a constant rather than an attribute, where both may appear (call arguments).
const CONST_WORDS: &[&str] = &[
    "true",
    "false",
    "null",
    "none",
    "undef",
    "poison",
    "zeroinitializer",
    "blockaddress",
    "dso_local_equivalent",
    "no_cfi",
    "splat",
    "ptrauth",
    "asm",
    "getelementptr",
    "bitcast",
    "ptrtoint",
    "ptrtoaddr",
    "inttoptr",
    "addrspacecast",
    "trunc",
    "zext",
    "sext",
    "fptrunc",
    "fpext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "add",
    "sub",
    "mul",
    "shl",
    "lshr",
    "ashr",
    "and",
    "or",
    "xor",
    "udiv",
    "sdiv",
    "urem",
    "srem",
    "fneg",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "frem",
    "icmp",
    "fcmp",
    "select",
    "extractelement",
    "insertelement",
    "shufflevector",
    "extractvalue",
    "insertvalue",
];

/// Parses the type spelled in `src[start..end]` (the whole range), interning it into `types`; named
/// types must be in `types` already. For passes that need a type from a header's text.
pub fn parse_type_text(src: &str, start: usize, end: usize, types: &mut TypeTable) -> Option<Type> {
    let mut p = Parser::new(src, start, end, types);
    let t = p.parse_type().ok()?;
    (p.tok.kind == Tok::Eof).then_some(t)
}

/// A function's type as its `declare` or `define` header spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The return type.
    pub ret: Type,
    /// The parameter types.
    pub params: Vec<Type>,
    /// The parameter list ends with `...`.
    pub vararg: bool,
}

/// Parses the header of the `declare` or `define` starting at `src[start..]` (linkage, attributes,
/// the return type, the name and the parameter list; what follows is not read), interning its
/// types into `types`. For passes that check a call against the callee's declaration.
pub fn parse_signature(src: &str, start: usize, end: usize, types: &mut TypeTable) -> Option<Signature> {
    let mut p = Parser::new(src, start, end, types);
    if !matches!(p.cur_text(), "declare" | "define") {
        return None;
    }
    p.bump();
    p.skip_attributes().ok()?;
    let ret = p.parse_type().ok()?;
    p.expect(Tok::Global, "the function name").ok()?;
    p.expect(Tok::LParen, "'('").ok()?;
    let (mut params, mut vararg) = (Vec::new(), false);
    if !p.eat(Tok::RParen) {
        loop {
            if p.eat(Tok::Ellipsis) {
                vararg = true;
            } else {
                params.push(p.parse_type().ok()?);
                p.skip_attributes().ok()?;
                if p.at(Tok::Local) {
                    p.bump();
                }
            }
            if p.eat(Tok::RParen) {
                break;
            }
            p.expect(Tok::Comma, "','").ok()?;
        }
    }
    Some(Signature { ret, params, vararg })
}

pub(crate) struct Parser<'a> {
    pub src: &'a str,
    lx: Lexer<'a>,
    pub tok: Token,
    /// True when a newline separates the current token from the previous one.
    pub tok_on_new_line: bool,
    pub prev_end: u32,
    pub types: &'a mut TypeTable,
    /// The module uses typed pointers (`T*`, LLVM 14): allocas and GEPs yield typed pointers.
    pub typed: bool,
    /// The template being cut for the current instruction.
    cut: Cut,
    /// When set, references to globals outside this set are errors.
    pub globals: Option<&'a rustc_hash::FxHashSet<Box<str>>>,
    /// A token already lexed by `peek`, with its newline flag; the lexer stands after it.
    peeked: Option<(Token, bool)>,
}

/// Accumulates template pieces: the text since the last operand, then operand pieces.
#[derive(Default)]
pub(crate) struct Cut {
    pub active: bool,
    pub pos: u32,
    /// The lexer's comment count when the cut started.
    comments: u32,
    pub pieces: Vec<Piece>,
    /// The templates made so far, by the hash of their content. Most instructions spell the same text
    /// as others around different operands (`br label `, `load ptr, ptr `), so one copy serves them
    /// all: on generated code this is most of the parsed body's memory.
    seen: rustc_hash::FxHashMap<u64, crate::ir::Template>,
}

impl Cut {
    /// A hash of what the pieces print as: texts by content, operands by index.
    fn content_hash(pieces: &[Piece], src: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        for p in pieces {
            match p {
                Piece::Text(t) => {
                    0u8.hash(&mut h);
                    t.get(src).hash(&mut h);
                }
                Piece::Arg(i) => (1u8, *i).hash(&mut h),
                Piece::Block(i) => (2u8, *i).hash(&mut h),
            }
        }
        h.finish()
    }

    fn same_content(a: &[Piece], b: &[Piece], src: &str) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (x, y) {
                (Piece::Text(s), Piece::Text(t)) => s.get(src) == t.get(src),
                _ => x == y,
            })
    }
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str, start: usize, end: usize, types: &'a mut TypeTable) -> Self {
        let mut lx = Lexer::new(src, start, end);
        let nl = lx.skip_trivia();
        let tok = lx.next_token();
        Parser {
            src,
            lx,
            tok,
            tok_on_new_line: nl || start == 0,
            prev_end: start as u32,
            types,
            typed: false,
            cut: Cut::default(),
            globals: None,
            peeked: None,
        }
    }

    // ---- Token cursor. ----

    pub fn bump(&mut self) -> Token {
        let t = self.tok;
        self.prev_end = t.end;
        if let Some((next, nl)) = self.peeked.take() {
            self.tok = next;
            self.tok_on_new_line = nl;
        } else {
            self.tok_on_new_line = self.lx.skip_trivia();
            self.tok = self.lx.next_token();
        }
        t
    }

    /// The end of the text this parser reads.
    pub fn end_hint(&self) -> usize {
        self.lx.end()
    }

    /// Moves the cursor to byte `pos` (a line start) and lexes the token there.
    pub fn reset_to(&mut self, pos: usize) {
        self.peeked = None;
        self.lx.set_pos(pos);
        self.lx.skip_trivia();
        self.tok_on_new_line = true;
        self.tok = self.lx.next_token();
    }

    pub fn text(&self, t: Token) -> &'a str {
        self.src.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    pub fn cur_text(&self) -> &'a str {
        self.text(self.tok)
    }

    pub fn at(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    pub fn at_word(&self, w: &str) -> bool {
        self.tok.kind == Tok::Ident && self.cur_text() == w
    }

    pub fn eat(&mut self, k: Tok) -> bool {
        if self.at(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn eat_word(&mut self, w: &str) -> bool {
        if self.at_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Peeks at the token after the current one without consuming anything.
    pub fn peek(&mut self) -> Token {
        if let Some((t, _)) = self.peeked {
            return t;
        }
        let nl = self.lx.skip_trivia();
        let t = self.lx.next_token();
        self.peeked = Some((t, nl));
        t
    }

    pub fn describe(&self, t: Token) -> String {
        match t.kind {
            Tok::Eof => "end of file".to_string(),
            Tok::Error => format!("invalid token '{}'", self.text(t).chars().take(20).collect::<String>()),
            _ => format!("'{}'", self.text(t).chars().take(40).collect::<String>()),
        }
    }

    pub fn err_expected(&self, what: &str) -> Error {
        let t = self.tok;
        let (code, span) = match t.kind {
            Tok::Eof => ("parse-eof", Span::at(t.start)),
            Tok::Error => ("parse-token", t.span()),
            _ => ("parse-expected", t.span()),
        };
        let msg = if t.kind == Tok::Eof {
            format!("unexpected end of file: expected {what}")
        } else {
            format!("expected {what}, found {}", self.describe(t))
        };
        let mut e = Error::new(code, span, msg).label(format!("expected {what} here"));
        e = match t.kind {
            Tok::Eof => e.help("the file ends in the middle of an entity; it may be truncated"),
            Tok::Error => e.help("remove or fix the invalid characters; strings must close on the same line"),
            _ => e.help("check this line against the LLVM Language Reference"),
        };
        e
    }

    pub fn expect(&mut self, k: Tok, what: &str) -> Result<Token> {
        if self.at(k) { Ok(self.bump()) } else { Err(self.err_expected(what)) }
    }

    pub fn expect_word(&mut self, w: &str) -> Result<Token> {
        if self.at_word(w) { Ok(self.bump()) } else { Err(self.err_expected(&format!("'{w}'"))) }
    }

    pub fn expect_int(&mut self, what: &str) -> Result<u64> {
        if self.at(Tok::Int)
            && let Ok(v) = self.cur_text().parse::<u64>()
        {
            self.bump();
            return Ok(v);
        }
        Err(self.err_expected(what))
    }

    /// Consumes a balanced `( ... )`, `[ ... ]`, `{ ... }` or `< ... >` group starting at the current token.
    pub fn skip_group(&mut self) -> Result<()> {
        let open = self.tok.kind;
        let close = match open {
            Tok::LParen => Tok::RParen,
            Tok::LBracket => Tok::RBracket,
            Tok::LBrace => Tok::RBrace,
            Tok::Less => Tok::Greater,
            _ => return Err(self.err_expected("'('")),
        };
        let mut depth = 0usize;
        loop {
            match self.tok.kind {
                Tok::Eof => return Err(self.err_expected("a closing bracket")),
                Tok::Error => return Err(self.err_expected("a valid token")),
                k if k == open => depth += 1,
                k if k == close => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- Template cutting. ----

    pub fn start_cut(&mut self, pos: u32) {
        self.cut.active = true;
        self.cut.pos = pos;
        self.cut.comments = self.lx.comments();
        self.cut.pieces.clear();
    }

    /// How many comments the lexer has skipped so far (`lexer::Lexer::comments`).
    pub fn comments_seen(&self) -> u32 {
        self.lx.comments()
    }

    /// The source between `start` and `end` as text to keep: a span of the source, or, when a comment
    /// may be inside (the lexer skipped one since `comments`), the text without it.
    pub fn kept_text(&self, start: u32, end: u32, comments: u32) -> Text {
        if self.lx.comments() == comments {
            return Text::Src(start, end);
        }
        let text = self.src.get(start as usize..end as usize).unwrap_or("");
        match crate::lexer::without_comments(text) {
            std::borrow::Cow::Borrowed(_) => Text::Src(start, end),
            std::borrow::Cow::Owned(t) => Text::own(t),
        }
    }

    /// Ends the current template at `end` and returns its pieces.
    pub fn finish_cut(&mut self, end: u32) -> crate::ir::Template {
        if end > self.cut.pos {
            self.cut.pieces.push(Piece::Text(Text::Src(self.cut.pos, end)));
        }
        self.cut.active = false;
        if self.lx.comments() != self.cut.comments {
            // A comment between the instruction's tokens: its pieces are kept without it.
            let mut pieces = std::mem::take(&mut self.cut.pieces);
            for piece in pieces.iter_mut() {
                if let Piece::Text(Text::Src(a, b)) = *piece {
                    *piece = Piece::Text(self.kept_text(a, b, self.cut.comments));
                }
            }
            self.cut.pieces = pieces;
        }
        let key = Cut::content_hash(&self.cut.pieces, self.src);
        let out = match self.cut.seen.get(&key) {
            Some(t) if Cut::same_content(t, &self.cut.pieces, self.src) => t.clone(),
            hit => {
                // A copy of exactly the right size; the buffer stays for the next instruction.
                let t = crate::ir::Template::from(self.cut.pieces.as_slice());
                if hit.is_none() {
                    self.cut.seen.insert(key, t.clone());
                }
                t
            }
        };
        self.cut.pieces.clear();
        out
    }

    /// Replaces `span` of the source with `piece` in the template being cut.
    pub fn cut_at(&mut self, span: Span, piece: Piece) {
        if !self.cut.active {
            return;
        }
        if span.start > self.cut.pos {
            self.cut.pieces.push(Piece::Text(Text::Src(self.cut.pos, span.start)));
        }
        self.cut.pieces.push(piece);
        self.cut.pos = span.end;
    }

    // ---- Types. ----

    pub fn at_type_start(&self) -> bool {
        match self.tok.kind {
            Tok::Ident => is_type_word(self.cur_text()),
            Tok::Local | Tok::LBracket | Tok::LBrace | Tok::Less => true,
            _ => false,
        }
    }

    pub fn parse_type(&mut self) -> Result<Type> {
        let mut t = self.parse_base_type()?;
        loop {
            match self.tok.kind {
                Tok::Star => {
                    self.bump();
                    let d = if self.types.stars_are_ptr { TypeData::Ptr(0) } else { TypeData::TypedPtr(t, 0) };
                    t = self.types.intern(d);
                }
                Tok::Ident if self.cur_text() == "addrspace" => {
                    let a = self.parse_addrspace()?;
                    self.expect(Tok::Star, "'*' after addrspace")?;
                    let d = if self.types.stars_are_ptr { TypeData::Ptr(a) } else { TypeData::TypedPtr(t, a) };
                    t = self.types.intern(d);
                }
                Tok::LParen => {
                    // A function type: `ret (params)`.
                    self.bump();
                    let mut params = Vec::new();
                    let mut vararg = false;
                    if !self.eat(Tok::RParen) {
                        loop {
                            if self.eat(Tok::Ellipsis) {
                                vararg = true;
                            } else {
                                params.push(self.parse_type()?);
                                self.skip_attributes()?;
                            }
                            if self.eat(Tok::RParen) {
                                break;
                            }
                            self.expect(Tok::Comma, "',' or ')' in function type")?;
                        }
                    }
                    t = self.types.intern(TypeData::Func { ret: t, params: params.into(), vararg });
                }
                _ => return Ok(t),
            }
        }
    }

    fn parse_addrspace(&mut self) -> Result<u32> {
        self.expect_word("addrspace")?;
        self.expect(Tok::LParen, "'('")?;
        let a = if self.at(Tok::Str) {
            // Symbolic address spaces ("A", "G", "P") resolve through the datalayout; keep them distinct.
            self.bump();
            u32::MAX
        } else {
            self.expect_int("an address space number")? as u32
        };
        self.expect(Tok::RParen, "')'")?;
        Ok(a)
    }

    fn parse_base_type(&mut self) -> Result<Type> {
        let t = self.tok;
        match t.kind {
            Tok::Ident => {
                let w = self.text(t);
                let d = match w {
                    "void" => TypeData::Void,
                    "label" => TypeData::Label,
                    "token" => TypeData::Token,
                    "metadata" => TypeData::Metadata,
                    "x86_amx" => TypeData::X86Amx,
                    "x86_mmx" => TypeData::X86Mmx,
                    "half" => TypeData::Half,
                    "bfloat" => TypeData::BFloat,
                    "float" => TypeData::Float,
                    "double" => TypeData::Double,
                    "x86_fp80" => TypeData::X86Fp80,
                    "fp128" => TypeData::Fp128,
                    "ppc_fp128" => TypeData::PpcFp128,
                    "ptr" => {
                        self.bump();
                        let a = if self.at_word("addrspace") { self.parse_addrspace()? } else { 0 };
                        return Ok(self.types.intern(TypeData::Ptr(a)));
                    }
                    "target" => {
                        let start = t.start;
                        self.bump();
                        if !self.at(Tok::LParen) {
                            return Err(self.err_expected("'(' after 'target'"));
                        }
                        self.skip_group()?;
                        let text = self.src.get(start as usize..self.prev_end as usize).unwrap_or("");
                        return Ok(self.types.intern(TypeData::TargetExt(text.into())));
                    }
                    _ => match int_type_bits(w) {
                        Some(n) => TypeData::Int(n),
                        None => return Err(self.err_expected("a type")),
                    },
                };
                self.bump();
                Ok(self.types.intern(d))
            }
            Tok::Local => {
                self.bump();
                let spelled = self.text(t);
                let unquoted = crate::parser::module::unquoted(spelled);
                let name = unquoted.as_deref().unwrap_or(spelled);
                // A named non-struct type (`%stack_ty = type i64*`) is only another name for its body,
                // as in LLVM: values of the two types are interchangeable.
                if let Some(NamedBody::Body(b)) = self.types.named_body(name)
                    && !matches!(self.types.get(*b), TypeData::Struct { .. } | TypeData::Named(_))
                {
                    return Ok(*b);
                }
                Ok(self.types.intern(TypeData::Named(name.into())))
            }
            Tok::LBracket => {
                self.bump();
                let n = self.expect_int("an array length")?;
                self.expect_word("x")?;
                let e = self.parse_type()?;
                self.expect(Tok::RBracket, "']'")?;
                Ok(self.types.intern(TypeData::Array(n, e)))
            }
            Tok::LBrace => self.parse_struct_body(false),
            Tok::Less => {
                self.bump();
                if self.at(Tok::LBrace) {
                    let s = self.parse_struct_body(true)?;
                    self.expect(Tok::Greater, "'>' closing a packed struct")?;
                    return Ok(s);
                }
                let scalable = self.eat_word("vscale");
                if scalable {
                    self.expect_word("x")?;
                }
                let n = self.expect_int("a vector length")?;
                self.expect_word("x")?;
                let e = self.parse_type()?;
                self.expect(Tok::Greater, "'>' closing a vector type")?;
                Ok(self.types.intern(TypeData::Vector { scalable, len: n, elem: e }))
            }
            _ => Err(self.err_expected("a type")),
        }
    }

    fn parse_struct_body(&mut self, packed: bool) -> Result<Type> {
        self.expect(Tok::LBrace, "'{'")?;
        let mut fields = Vec::new();
        if !self.eat(Tok::RBrace) {
            loop {
                fields.push(self.parse_type()?);
                if self.eat(Tok::RBrace) {
                    break;
                }
                self.expect(Tok::Comma, "',' or '}' in struct type")?;
            }
        }
        Ok(self.types.intern(TypeData::Struct { packed, fields: fields.into() }))
    }

    /// Parses the right-hand side of `%T = type ...`.
    pub fn parse_type_def(&mut self, name: &str) -> Result<()> {
        let unquoted = crate::parser::module::unquoted(name);
        let name = unquoted.as_deref().unwrap_or(name);
        self.expect_word("type")?;
        if self.eat_word("opaque") {
            self.types.set_named_body(name, NamedBody::Opaque);
        } else {
            let t = self.parse_type()?;
            self.types.set_named_body(name, NamedBody::Body(t));
        }
        Ok(())
    }

    // ---- Attributes. ----

    /// Skips parameter/return attributes: words (with an optional parenthesised argument), `align N`,
    /// string attributes and `#N` groups. Stops at a type, a value, or punctuation. Unknown words are
    /// carried as they are, so newer LLVM attributes need no support here.
    pub fn skip_attributes(&mut self) -> Result<()> {
        loop {
            match self.tok.kind {
                Tok::Ident => {
                    let w = self.cur_text();
                    // `to` and `unwind` carry an invoke's (or callbr's) labels. A call's function
                    // attributes may be followed by the next instruction, on any line: no attribute is
                    // spelled like an instruction's first word.
                    if is_type_word(w)
                        || CONST_WORDS.contains(&w)
                        || matches!(w, "to" | "unwind")
                        || starts_instruction(w)
                    {
                        return Ok(());
                    }
                    self.bump();
                    if self.at(Tok::LParen) {
                        self.skip_group()?;
                    } else if matches!(w, "align" | "cc" | "alignstack" | "dereferenceable") && self.at(Tok::Int) {
                        self.bump();
                    }
                }
                Tok::Str => {
                    self.bump();
                    if self.eat(Tok::Eq) {
                        self.expect(Tok::Str, "a string attribute value")?;
                    }
                }
                // `#0`; `#dbg_value(...)` is the next debug record.
                Tok::Hash if !self.cur_text().starts_with("#dbg_") => {
                    self.bump();
                }
                _ => return Ok(()),
            }
        }
    }

    // ---- Constants. ----

    /// True if the current token can begin a value operand.
    pub fn at_value_start(&self) -> bool {
        match self.tok.kind {
            Tok::Local
            | Tok::Global
            | Tok::Int
            | Tok::Float
            | Tok::CStr
            | Tok::LBracket
            | Tok::LBrace
            | Tok::Less
            | Tok::Bang
            | Tok::MetaName => true,
            Tok::Ident => CONST_WORDS.contains(&self.cur_text()),
            _ => false,
        }
    }

    /// Parses a constant of type `ty` and returns its source span. `blockaddress` block references are
    /// resolved by the function parser, which knows the blocks.
    pub fn parse_const(&mut self, ty: Type) -> Result<Span> {
        let start = self.tok.start;
        self.const_expr(ty, 0)?;
        Ok(Span::new(start, self.prev_end))
    }

    fn const_expr(&mut self, ty: Type, depth: u32) -> Result<()> {
        if depth > 200 {
            return Err(Error::new("parse-depth", self.tok.span(), "constant nested too deeply"));
        }
        let t = self.tok;
        match t.kind {
            Tok::Global => {
                if let Some(g) = self.globals {
                    let name = module::normalize_global(self.text(t));
                    // LLVM declares intrinsics it is given without a declaration.
                    if !g.contains(&name) && !name.starts_with("@llvm.") {
                        return Err(Error::new(
                            "parse-undefined",
                            t.span(),
                            format!("use of undefined global '{name}'"),
                        )
                        .label("not defined or declared in this module")
                        .help("add a declaration or definition for it, or check the spelling"));
                    }
                }
                self.bump();
                Ok(())
            }
            Tok::Int | Tok::Float | Tok::CStr => {
                self.bump();
                Ok(())
            }
            Tok::LBracket | Tok::LBrace => {
                let close = if t.kind == Tok::LBracket { Tok::RBracket } else { Tok::RBrace };
                self.bump();
                self.const_elements(close, depth)
            }
            Tok::Less => {
                self.bump();
                if self.eat(Tok::LBrace) {
                    self.const_elements(Tok::RBrace, depth)?;
                    self.expect(Tok::Greater, "'>'")?;
                    Ok(())
                } else {
                    self.const_elements(Tok::Greater, depth)
                }
            }
            Tok::Ident => {
                let w = self.text(t);
                match w {
                    "true" | "false" | "null" | "none" | "undef" | "poison" | "zeroinitializer" => {
                        self.bump();
                        Ok(())
                    }
                    "blockaddress" => {
                        self.bump();
                        self.expect(Tok::LParen, "'('")?;
                        self.expect(Tok::Global, "a function name")?;
                        self.expect(Tok::Comma, "','")?;
                        self.expect(Tok::Local, "a block label")?;
                        self.expect(Tok::RParen, "')'")?;
                        Ok(())
                    }
                    "dso_local_equivalent" | "no_cfi" => {
                        self.bump();
                        self.expect(Tok::Global, "a global name")?;
                        Ok(())
                    }
                    "asm" => {
                        self.bump();
                        while self.at(Tok::Ident) {
                            self.bump();
                        }
                        self.expect(Tok::Str, "the inline asm string")?;
                        self.expect(Tok::Comma, "','")?;
                        self.expect(Tok::Str, "the inline asm constraints")?;
                        Ok(())
                    }
                    _ if CONST_WORDS.contains(&w) => {
                        // splat, ptrauth and constant expressions: flags and predicates, then a list.
                        self.bump();
                        while self.at(Tok::Ident) {
                            let flag = self.cur_text();
                            self.bump();
                            if flag == "inrange" && self.at(Tok::LParen) {
                                self.skip_group()?;
                            }
                        }
                        self.expect(Tok::LParen, "'(' in a constant expression")?;
                        self.const_elements(Tok::RParen, depth)
                    }
                    _ => Err(self.err_expected(&format!("a constant of type {}", self.types.display(ty)))),
                }
            }
            _ => Err(self.err_expected(&format!("a constant of type {}", self.types.display(ty)))),
        }
    }

    /// `elem, elem, ... close`, where an element is `TYPE CONST [to TYPE]`, a bare type, or an index.
    fn const_elements(&mut self, close: Tok, depth: u32) -> Result<()> {
        if self.eat(close) {
            return Ok(());
        }
        loop {
            if self.at(Tok::Int) {
                self.bump();
            } else {
                self.eat_word("inrange");
                let ety = self.parse_type()?;
                if !self.at(Tok::Comma) && !self.at(close) && !self.at_word("to") {
                    self.const_expr(ety, depth + 1)?;
                }
                if self.eat_word("to") {
                    self.parse_type()?;
                }
            }
            if self.eat(close) {
                return Ok(());
            }
            self.expect(Tok::Comma, "',' in constant")?;
        }
    }

    /// Skips a metadata node reference or literal: `!12`, `!name`, `!"s"`, `!{...}`, `!DIExpr(...)`.
    /// Used where metadata cannot hold local values (attachments, module level).
    pub fn skip_metadata(&mut self) -> Result<()> {
        match self.tok.kind {
            Tok::MetaName => {
                self.bump();
                if self.at(Tok::LParen) {
                    self.skip_group()?;
                }
                Ok(())
            }
            Tok::Bang => {
                self.bump();
                match self.tok.kind {
                    Tok::Str => {
                        self.bump();
                        Ok(())
                    }
                    Tok::LBrace => self.skip_group(),
                    _ => Err(self.err_expected("metadata after '!'")),
                }
            }
            _ => Err(self.err_expected("metadata")),
        }
    }
}

/// Can an instruction (or a directive in a body) start with the word `w`?
pub(crate) fn starts_instruction(w: &str) -> bool {
    crate::ir::Opcode::from_keyword(w).is_some()
        || matches!(w, "tail" | "musttail" | "notail" | "uselistorder" | "uselistorder_bb")
}

pub(crate) fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "void"
            | "label"
            | "token"
            | "metadata"
            | "x86_amx"
            | "x86_mmx"
            | "half"
            | "bfloat"
            | "float"
            | "double"
            | "x86_fp80"
            | "fp128"
            | "ppc_fp128"
            | "ptr"
            | "target"
    ) || int_type_bits(w).is_some()
}

/// `i32` → 32. LLVM allows widths from 1 to 2^23.
pub(crate) fn int_type_bits(w: &str) -> Option<u32> {
    let n = w.strip_prefix('i')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || n.len() > 8 {
        return None;
    }
    let v: u32 = n.parse().ok()?;
    (1..=(1 << 23)).contains(&v).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> String {
        let mut types = TypeTable::new();
        let mut p = Parser::new(s, 0, s.len(), &mut types);
        let t = p.parse_type().expect("type parses");
        assert!(p.at(Tok::Eof), "trailing tokens in {s}");
        p.types.display(t)
    }

    #[test]
    fn signatures_are_read_from_headers() {
        let mut types = TypeTable::new();
        let show = |types: &TypeTable, sig: Option<Signature>| {
            sig.map(|s| {
                let ps: Vec<String> = s.params.iter().map(|&t| types.display(t)).collect();
                format!("{} ({}{})", types.display(s.ret), ps.join(", "), if s.vararg { ", ..." } else { "" })
            })
        };
        let src = "declare noundef { ptr, i64 } @g(ptr nocapture noundef %sp, i64 signext, ...) #0";
        let sig = parse_signature(src, 0, src.len(), &mut types);
        assert_eq!(show(&types, sig).as_deref(), Some("{ ptr, i64 } (ptr, i64, ...)"));
        let src = "define internal fastcc ptr @h() {\nentry:\n  ret ptr null\n}";
        let sig = parse_signature(src, 0, src.len(), &mut types);
        assert_eq!(show(&types, sig).as_deref(), Some("ptr ()"));
        let src = "@g = global i32 0";
        assert_eq!(parse_signature(src, 0, src.len(), &mut types), None);
    }

    #[test]
    fn types_round_trip() {
        for s in [
            "i32",
            "i1234567",
            "ptr addrspace(3)",
            "[4 x <vscale x 2 x i64>]",
            "<{ i8, i32 }>",
            "{ i32, { ptr, half } }",
            "{}",
            "i8* (i32, ...)*",
            "void (i8*)**",
            "%struct.A*",
            "target(\"spirv.Image\", void, 1)",
            "x86_fp80",
            "<4 x ptr>",
        ] {
            assert_eq!(ty(s), s);
        }
    }

    #[test]
    fn invalid_widths_are_rejected() {
        assert_eq!(int_type_bits("i0"), None);
        assert_eq!(int_type_bits("i8388609"), None);
        assert_eq!(int_type_bits("i8388608"), Some(8388608));
    }
}
