//! One `define` into a `Function`. Values are resolved by name as they are met; a use before the
//! definition creates a `Forward` value that the definition later fills in, after checking that the
//! types agree. Anything left `Forward` at the end is an undefined value.

use super::Parser;
use crate::error::{Error, Result, Span};
use crate::ir::{
    Block, BlockData, ConstPiece, Extra, Function, Header, Inst, InstData, Opcode, Param, Piece, Text, Value,
    ValueData, ValueKind,
};
use crate::lexer::{Tok, Token};
use crate::types::{Type, TypeData, TypeTable};
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Parses the function whose `define` starts at `start`; `end` bounds the text (after the closing `}`).
pub(crate) fn parse_function(
    src: &str,
    start: usize,
    end: usize,
    types: &mut TypeTable,
    typed: bool,
    globals: Option<&rustc_hash::FxHashSet<Box<str>>>,
) -> Result<Function> {
    let mut p = Parser::new(src, start, end, types);
    p.typed = typed;
    p.globals = globals;
    let mut fp = FuncParser {
        p,
        f: None,
        locals: FxHashMap::default(),
        consts: FxHashMap::default(),
        first_use: SecondaryMap::new(),
        block_names: FxHashMap::default(),
        block_defined: SecondaryMap::new(),
        block_first_use: SecondaryMap::new(),
        next_slot: 0,
        gaps: false,
        args: SmallVec::new(),
        blocks: SmallVec::new(),
    };
    fp.function()
}

/// A function's signature as its `declare` or `define` header spells it: what stands between the
/// keyword and the return type (linkage, calling convention, return attributes), the return type,
/// and the parameters with their attributes.
#[derive(Clone, Debug)]
pub struct Signature {
    /// From the keyword up to and including the space before the return type.
    pub prefix: Text,
    /// The return type.
    pub ret: Type,
    /// The parameters, with their attributes.
    pub params: Vec<Param>,
    /// The parameter list ends with `...`.
    pub vararg: bool,
}

/// Parses the header of the `declare` or `define` that starts at `start` (up to its parameter list's
/// closing parenthesis).
pub fn parse_signature(src: &str, start: usize, end: usize, types: &mut TypeTable, typed: bool) -> Result<Signature> {
    let mut p = Parser::new(src, start, end, types);
    p.typed = typed;
    let comments = p.comments_seen();
    if !p.eat_word("declare") {
        p.expect_word("define")?;
    }
    let prefix_start = p.tok.start;
    p.skip_attributes()?;
    let ret_start = p.tok.start;
    let prefix = if ret_start > prefix_start { p.kept_text(prefix_start, ret_start, comments) } else { Text::own("") };
    let ret = p.parse_type()?;
    p.expect(Tok::Global, "the function name")?;
    p.expect(Tok::LParen, "'(' starting the parameter list")?;
    let (mut params, mut vararg) = (Vec::new(), false);
    if !p.eat(Tok::RParen) {
        loop {
            if p.eat(Tok::Ellipsis) {
                vararg = true;
            } else {
                let ty = p.parse_type()?;
                let a0 = p.tok.start;
                p.skip_attributes()?;
                let attrs = if p.prev_end > a0 { p.kept_text(a0, p.prev_end, comments) } else { Text::own("") };
                if p.at(Tok::Local) {
                    p.bump();
                }
                params.push(Param { ty, attrs });
            }
            if p.eat(Tok::RParen) {
                break;
            }
            p.expect(Tok::Comma, "',' or ')' in the parameter list")?;
        }
    }
    Ok(Signature { prefix, ret, params, vararg })
}

/// How a local is looked up: by name, or by slot number for `%12`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key<'a> {
    Name(&'a str),
    Num(u32),
}

/// The lookup key of a local spelled `text` (without the sigil). `%"x"` and `%x` are the same name.
fn key_of(text: &str) -> Key<'_> {
    if is_numbered(text)
        && let Ok(n) = text.parse::<u32>()
    {
        return Key::Num(n);
    }
    if let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'))
        && !inner.is_empty()
        && !is_numbered(inner)
        && inner.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_'))
    {
        return Key::Name(inner);
    }
    Key::Name(text)
}

struct FuncParser<'a> {
    p: Parser<'a>,
    f: Option<Function>,
    locals: FxHashMap<Key<'a>, Value>,
    /// Constant operands by type and spelling: one value for every use of `i32 0` or `@f`.
    consts: FxHashMap<(Type, &'a str), Value>,
    first_use: SecondaryMap<Value, Span>,
    block_names: FxHashMap<Key<'a>, Block>,
    block_defined: SecondaryMap<Block, bool>,
    block_first_use: SecondaryMap<Block, Span>,
    /// The next slot number for an unnamed value or block; numbered definitions must not go below it.
    next_slot: u32,
    /// The source skips slot numbers (allowed from LLVM 19 on).
    gaps: bool,
    /// Operands of the instruction being parsed.
    args: SmallVec<[Value; 3]>,
    blocks: SmallVec<[Block; 2]>,
}

/// The body's lines, the lines that start in the first column with something that may be a label
/// (instructions are indented), and the lines that define a local (`%x = ...`): upper bounds, used
/// only to size tables.
fn count_lines(body: &[u8]) -> (usize, usize, usize) {
    let mut lines = 1usize;
    let mut labels = 0usize;
    let mut defs = 0usize;
    // Line by line (memchr finds the ends): only each line's start and its indentation are read.
    let mut rest = body;
    loop {
        match rest.first() {
            Some(b' ' | b'\t') => {
                let first = rest.iter().find(|&&c| !matches!(c, b' ' | b'\t'));
                defs += usize::from(first == Some(&b'%'));
            }
            Some(b'\n' | b'\r' | b';' | b'}') | None => {}
            Some(_) => labels += 1,
        }
        match memchr::memchr(b'\n', rest) {
            Some(k) => {
                lines += 1;
                rest = rest.get(k + 1..).unwrap_or(&[]);
            }
            None => break,
        }
    }
    (lines, labels, defs)
}

fn local_name(text: &str) -> &str {
    text.get(1..).unwrap_or("")
}

fn is_numbered(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

fn label_name(text: &str) -> &str {
    text.strip_suffix(':').unwrap_or(text)
}

impl<'a> FuncParser<'a> {
    fn func(&mut self) -> &mut Function {
        self.f.as_mut().expect("function header parsed first")
    }

    fn func_ref(&self) -> &Function {
        self.f.as_ref().expect("function header parsed first")
    }

    fn function(&mut self) -> Result<Function> {
        // The header's texts are kept without the comments among them.
        let comments = self.p.comments_seen();
        let define = self.p.expect_word("define")?;
        // Linkage, visibility, calling convention and return attributes, up to the return type.
        self.p.skip_attributes()?;
        let ret_start = self.p.tok.start;
        let ret = self.p.parse_type()?;
        let name_tok = self.p.expect(Tok::Global, "the function name")?;
        let fname = self.p.text(name_tok);
        self.p.expect(Tok::LParen, "'(' starting the parameter list")?;
        let mut params = Vec::new();
        let mut param_names: Vec<Option<Token>> = Vec::new();
        let mut vararg = false;
        self.comma_list(Tok::RParen, "',' or ')' in the parameter list", |s| {
            if s.p.eat(Tok::Ellipsis) {
                vararg = true;
            } else {
                let ty = s.p.parse_type()?;
                let a0 = s.p.tok.start;
                s.p.skip_attributes()?;
                let a1 = s.p.prev_end.max(a0);
                let attrs = if s.p.prev_end > a0 { s.p.kept_text(a0, a1, comments) } else { Text::own("") };
                let name = if s.p.at(Tok::Local) { Some(s.p.bump()) } else { None };
                params.push(Param { ty, attrs });
                param_names.push(name);
            }
            Ok(())
        })?;
        let suffix_start = self.p.prev_end;
        // Everything up to the body's `{`: unnamed_addr, attributes, section, comdat, gc, personality, !dbg.
        let mut depth = 0i32;
        while !(depth == 0 && self.p.at(Tok::LBrace)) {
            match self.p.tok.kind {
                Tok::Eof => return Err(self.p.err_expected("'{' starting the function body")),
                Tok::Error => return Err(self.p.err_expected("a valid token")),
                Tok::LParen | Tok::LBracket => depth += 1,
                Tok::RParen | Tok::RBracket => depth -= 1,
                _ => {}
            }
            self.p.bump();
        }
        let suffix_end = self.p.tok.start;
        self.p.bump(); // `{`
        let header = Header {
            prefix: self.p.kept_text(define.start, ret_start, comments),
            ret,
            params: params.clone(),
            vararg,
            suffix: self.p.kept_text(suffix_start, suffix_end, comments),
        };
        let mut f = Function::new(fname, header);
        f.span = Span::new(define.start, name_tok.end);
        // Sizes from the body's lines, so the arenas and name tables are allocated once instead of
        // regrown (each regrowth copies them and touches fresh pages).
        let body = self.p.src.as_bytes().get(self.p.prev_end as usize..self.p.end_hint()).unwrap_or(&[]);
        let (lines, labels, defs) = count_lines(body);
        // An instruction per line that is not a label; a value per result and per distinct constant
        // operand, which comes to the instructions and a quarter of the lines (measured: 0.75 to
        // 0.86 values per line on clang's and generated code). Each with headroom for the passes.
        let insts = lines.saturating_sub(labels);
        f.insts.reserve(crate::ir::with_headroom(insts));
        f.values.reserve(crate::ir::with_headroom(insts) + lines / 4);
        f.blocks.reserve(crate::ir::with_headroom(labels + 1));
        f.layout.reserve(labels + 1);
        self.locals.reserve(defs + params.len());
        self.block_names.reserve(labels + 1);
        self.block_defined.resize(labels + 1);
        self.f = Some(f);
        for (i, (prm, name)) in params.iter().zip(param_names).enumerate() {
            let v = self.func().values.push(ValueData { ty: prm.ty, kind: ValueKind::Param(i as u32), name: None });
            match name {
                Some(t) => {
                    let n = local_name(self.p.text(t));
                    let key = self.numbered_def(key_of(n), t.span())?;
                    if self.locals.insert(key, v).is_some() {
                        return Err(Error::new(
                            "parse-redefinition",
                            t.span(),
                            format!("parameter '%{n}' is defined twice"),
                        )
                        .label("second definition")
                        .help("give each parameter a distinct name"));
                    }
                    self.func().values[v].name = Some(n.into());
                }
                None => {
                    let n = self.next_slot;
                    self.next_slot += 1;
                    self.locals.insert(Key::Num(n), v);
                    self.func().values[v].name = Some(n.to_string().into());
                }
            }
            self.func().params.push(v);
        }
        self.body()?;
        self.finish()
    }

    fn body(&mut self) -> Result<()> {
        let mut cur: Option<Block> = None;
        loop {
            match self.p.tok.kind {
                Tok::RBrace => {
                    if cur.is_some() {
                        return Err(self.missing_terminator());
                    }
                    self.p.bump();
                    return Ok(());
                }
                Tok::Eof => return Err(self.p.err_expected("'}' closing the function body")),
                Tok::Label => {
                    if cur.is_some() {
                        return Err(self.missing_terminator());
                    }
                    let t = self.p.bump();
                    let name = label_name(self.p.text(t));
                    let key = self.numbered_def(key_of(name), t.span())?;
                    let b = self.block_ref_key(key, name, t.span());
                    if self.block_defined[b] {
                        return Err(Error::new(
                            "parse-redefinition",
                            t.span(),
                            format!("block '{name}' is defined twice"),
                        )
                        .label("second definition")
                        .help("rename one of the blocks"));
                    }
                    self.block_defined[b] = true;
                    self.func().layout.push(b);
                    cur = Some(b);
                }
                Tok::Ident if self.p.cur_text() == "uselistorder" || self.p.cur_text() == "uselistorder_bb" => {
                    // Use-list order directives only affect in-memory order; they are dropped.
                    self.skip_use_list_order()?;
                }
                _ => {
                    let b = match cur {
                        Some(b) => b,
                        None => {
                            // An unlabelled block takes the next slot number, which phis may name.
                            let n = self.next_slot;
                            self.next_slot += 1;
                            let b = self
                                .func()
                                .blocks
                                .push(BlockData { name: Some(n.to_string().into()), insts: SmallVec::new() });
                            self.block_names.insert(Key::Num(n), b);
                            self.block_defined[b] = true;
                            self.func().layout.push(b);
                            cur = Some(b);
                            b
                        }
                    };
                    let inst = self.instruction()?;
                    let f = self.func();
                    f.insts[inst].block = Some(b);
                    f.blocks[b].insts.push(inst);
                    if f.insts[inst].op.is_terminator() {
                        cur = None;
                    }
                }
            }
        }
    }

    /// `item, item, ... close`, possibly empty; the opening bracket is already consumed.
    fn comma_list(&mut self, close: Tok, what: &str, item: impl FnMut(&mut Self) -> Result<()>) -> Result<()> {
        if self.p.eat(close) {
            return Ok(());
        }
        self.nonempty_list(close, what, item)
    }

    /// `item, item, ... close` with at least one item.
    fn nonempty_list(&mut self, close: Tok, what: &str, mut item: impl FnMut(&mut Self) -> Result<()>) -> Result<()> {
        loop {
            item(self)?;
            if self.p.eat(close) {
                return Ok(());
            }
            self.p.expect(Tok::Comma, what)?;
        }
    }

    fn missing_terminator(&self) -> Error {
        Error::new("parse-no-terminator", self.p.tok.span(), "the block before this point does not end in a terminator")
            .label("a new block or the end of the function starts here")
            .help("end the previous block with br, ret, switch, unreachable or another terminator")
    }

    /// Checks a numbered definition (`%5 = ...`, `5:`) against the running slot count.
    fn numbered_def(&mut self, key: Key<'a>, span: Span) -> Result<Key<'a>> {
        if let Key::Num(n) = key {
            if n < self.next_slot {
                return Err(Error::new(
                    "parse-numbering",
                    span,
                    format!("numbered value %{n} is out of order: expected %{} or higher", self.next_slot),
                )
                .label("number too small")
                .help(
                    "numbered values and blocks must be defined in increasing order; renumber them or give them names",
                ));
            }
            if n > self.next_slot {
                self.gaps = true;
            }
            self.next_slot = n + 1;
        }
        Ok(key)
    }

    /// `uselistorder TYPE VALUE, { 1, 0 }` (or `uselistorder_bb`).
    fn skip_use_list_order(&mut self) -> Result<()> {
        self.p.bump();
        while !self.p.at(Tok::LBrace) {
            if matches!(self.p.tok.kind, Tok::Eof | Tok::Error | Tok::RBrace) {
                return Err(self.p.err_expected("'{' starting the use-list order"));
            }
            self.p.bump();
        }
        self.p.skip_group()
    }

    fn finish(&mut self) -> Result<Function> {
        let mut f = self.f.take().expect("function parsed");
        f.numbering_gaps = self.gaps;
        for (v, d) in f.values.iter() {
            if d.kind == ValueKind::Forward {
                let name = d.name.as_deref().unwrap_or("?");
                return Err(Error::new(
                    "parse-undefined",
                    self.first_use[v],
                    format!("use of undefined value '%{name}'"),
                )
                .label("not defined in this function")
                .help("define the value, or check the spelling of its name"));
            }
        }
        for (b, _) in f.blocks.iter() {
            if !self.block_defined[b] {
                return Err(Error::new("parse-undefined", self.block_first_use[b], "use of undefined block label")
                    .label("no block with this label")
                    .help("add the block, or check the spelling of the label"));
            }
        }
        // Numbered names stay: the printer keeps them while they are still in increasing order.
        if f.layout.is_empty() {
            return Err(Error::new("parse-empty", Span::at(self.p.prev_end), "function body has no blocks")
                .help("a defined function needs at least one block ending in a terminator"));
        }
        Ok(f)
    }

    // ---- Name resolution. ----

    fn block_ref_named(&mut self, name: &'a str, span: Span) -> Block {
        self.block_ref_key(key_of(name), name, span)
    }

    fn block_ref_key(&mut self, key: Key<'a>, name: &'a str, span: Span) -> Block {
        if let Some(&b) = self.block_names.get(&key) {
            return b;
        }
        let b = self.func().blocks.push(BlockData { name: Some(name.into()), insts: SmallVec::new() });
        self.block_names.insert(key, b);
        self.block_first_use[b] = span;
        b
    }

    /// `label %b` → the block, cut into the template as a block piece.
    fn label_operand(&mut self) -> Result<Block> {
        self.p.expect_word("label")?;
        self.block_operand()
    }

    fn block_operand(&mut self) -> Result<Block> {
        let t = self.p.expect(Tok::Local, "a block label")?;
        let name = local_name(self.p.text(t));
        let b = self.block_ref_named(name, t.span());
        let idx = self.blocks.len() as u16;
        self.blocks.push(b);
        self.p.cut_at(t.span(), Piece::Block(idx));
        Ok(b)
    }

    fn local_ref(&mut self, t: Token, ty: Type) -> Result<Value> {
        let name = local_name(self.p.text(t));
        if let Some(&v) = self.locals.get(&key_of(name)) {
            let have = self.func().values[v].ty;
            if have != ty {
                let (h, w) = (self.p.types.display(have), self.p.types.display(ty));
                return Err(Error::new(
                    "parse-type-mismatch",
                    t.span(),
                    format!("'%{name}' has type {h} but is used here as {w}"),
                )
                .label(format!("expected {w}"))
                .help(format!("use a value of type {w}, or convert '%{name}' with a cast")));
            }
            return Ok(v);
        }
        let v = self.func().values.push(ValueData { ty, kind: ValueKind::Forward, name: Some(name.into()) });
        self.first_use[v] = t.span();
        self.locals.insert(key_of(name), v);
        Ok(v)
    }

    fn define_result(&mut self, name_tok: Token, ty: Type, inst: Inst) -> Result<Value> {
        let name = local_name(self.p.text(name_tok));
        let key = self.numbered_def(key_of(name), name_tok.span())?;
        if let Some(&v) = self.locals.get(&key) {
            let d = &self.func_ref().values[v];
            if d.kind != ValueKind::Forward {
                return Err(Error::new("parse-redefinition", name_tok.span(), format!("'%{name}' is defined twice"))
                    .label("second definition")
                    .help("SSA values must have unique names; rename one of them"));
            }
            if d.ty != ty {
                let (h, w) = (self.p.types.display(ty), self.p.types.display(d.ty));
                let use_span = self.first_use[v];
                return Err(Error::new(
                    "parse-type-mismatch",
                    use_span,
                    format!("'%{name}' is used here as {w} but defined later with type {h}"),
                )
                .label(format!("used as {w}"))
                .help("make the use and the definition agree on the type"));
            }
            self.func().values[v].kind = ValueKind::Inst(inst);
            // The definition's spelling wins (`%"x"` used as `%x`).
            self.func().values[v].name = Some(name.into());
            return Ok(v);
        }
        let v = self.func().values.push(ValueData { ty, kind: ValueKind::Inst(inst), name: Some(name.into()) });
        self.locals.insert(key, v);
        Ok(v)
    }

    /// A value operand of type `ty`: a local, or a constant. Cut into the template as an argument.
    /// Returns `None` for metadata operands, which are no values of their own.
    fn value(&mut self, ty: Type) -> Result<Option<Value>> {
        let t = self.p.tok;
        // A metadata operand first: after `metadata`, `%T* %x` starts with a named type.
        let v = if matches!(self.p.types.get(ty), TypeData::Metadata) {
            self.metadata_operand()?;
            return Ok(None);
        } else if t.kind == Tok::Local {
            self.p.bump();
            self.local_ref(t, ty)?
        } else {
            if !self.p.at_value_start() {
                return Err(self.p.err_expected(&format!("a value of type {}", self.p.types.display(ty))));
            }
            let span = self.p.parse_const(ty)?;
            let src = self.p.src;
            let text = src.get(span.start as usize..span.end as usize).unwrap_or("");
            if let Some(&v) = self.consts.get(&(ty, text)) {
                v
            } else {
                let fname: Box<str> = self.func().name.clone();
                let kind = self.const_kind(span, &fname);
                // A constant naming this function's blocks stays one value per use: cloning a
                // function maps those blocks, and each use keeps its own pieces.
                let shared = matches!(kind, ValueKind::Const(_));
                let v = self.func().values.push(ValueData { ty, kind, name: None });
                if shared {
                    self.consts.insert((ty, text), v);
                }
                v
            }
        };
        let idx = self.args.len() as u16;
        self.args.push(v);
        self.p.cut_at(Span::new(t.start, self.p.prev_end), Piece::Arg(idx));
        Ok(Some(v))
    }

    /// A constant: its source text, or, when it has `blockaddress(@this, %bb)` references to blocks of
    /// this function, the text split around them so that renumbering and cloning can follow them.
    fn const_kind(&mut self, span: Span, fname: &str) -> ValueKind {
        let whole = ValueKind::Const(Text::Src(span.start, span.end));
        let text = self.p.src.get(span.start as usize..span.end as usize).unwrap_or("");
        if !text.contains("blockaddress") {
            return whole;
        }
        let mut out: Vec<ConstPiece> = Vec::new();
        let mut lx = crate::lexer::Lexer::new(self.p.src, span.start as usize, span.end as usize);
        let mut toks = Vec::new();
        loop {
            let t = lx.next_token();
            if t.kind == Tok::Eof {
                break;
            }
            toks.push(t);
        }
        let mut pos = span.start;
        for w in toks.windows(5) {
            let [ba, _, f, _, bt] = w else { continue };
            if self.p.text(*ba) == "blockaddress" && f.kind == Tok::Global && self.p.text(*f) == fname {
                let name = local_name(self.p.text(*bt));
                let b = self.block_ref_named(name, bt.span());
                if f.start > pos {
                    out.push(ConstPiece::Text(Text::Src(pos, f.start)));
                }
                out.push(ConstPiece::Func);
                out.push(ConstPiece::Text(Text::Src(f.end, bt.start)));
                out.push(ConstPiece::Block(b));
                pos = bt.end;
            }
        }
        if out.is_empty() {
            // `blockaddress` of another function's block: text alone.
            return whole;
        }
        if span.end > pos {
            out.push(ConstPiece::Text(Text::Src(pos, span.end)));
        }
        ValueKind::BlockConst(Box::new(out.into_boxed_slice()))
    }

    /// `TYPE value`.
    fn typed_value(&mut self) -> Result<(Type, Option<Value>)> {
        let ty = self.p.parse_type()?;
        let v = self.value(ty)?;
        Ok((ty, v))
    }

    /// A metadata operand (`metadata` call arguments, debug record operands). Local values inside
    /// (`i32 %x`, `!DIArgList(i32 %a)`) become template arguments; everything else stays text. Returns
    /// a placeholder-free result: metadata operands produce no value of their own.
    fn metadata_operand(&mut self) -> Result<()> {
        match self.p.tok.kind {
            Tok::MetaName => {
                let t = self.p.bump();
                if self.p.at(Tok::LParen) {
                    if self.p.text(t) == "!DIArgList" {
                        self.p.bump();
                        self.comma_list(Tok::RParen, "',' or ')'", |s| {
                            s.typed_value()?;
                            Ok(())
                        })?;
                    } else {
                        self.p.skip_group()?;
                    }
                }
            }
            Tok::Bang => {
                self.p.bump();
                match self.p.tok.kind {
                    Tok::Str => {
                        self.p.bump();
                    }
                    Tok::LBrace => {
                        self.p.bump();
                        self.comma_list(Tok::RBrace, "',' or '}'", |s| {
                            if matches!(s.p.tok.kind, Tok::MetaName | Tok::Bang) {
                                s.metadata_operand()?;
                            } else if s.p.at_word("null") {
                                s.p.bump();
                            } else {
                                s.typed_value()?;
                            }
                            Ok(())
                        })?;
                    }
                    _ => return Err(self.p.err_expected("metadata after '!'")),
                }
            }
            _ => {
                // ValueAsMetadata: `i32 %x`, `ptr undef`.
                self.typed_value()?;
            }
        }
        Ok(())
    }

    /// Trailing `, !name !node` attachments.
    fn attachments(&mut self) -> Result<()> {
        while self.p.at(Tok::Comma) && self.p.peek().kind == Tok::MetaName {
            self.p.bump();
            self.p.bump();
            self.p.skip_metadata()?;
        }
        Ok(())
    }

    /// `, align N` if present, then attachments.
    fn align_and_attachments(&mut self) -> Result<Option<u32>> {
        let mut align = None;
        while self.p.at(Tok::Comma) {
            let n = self.p.peek();
            if n.kind == Tok::Ident && self.p.text(n) == "align" {
                self.p.bump();
                self.p.bump();
                align = Some(self.p.expect_int("an alignment")? as u32);
            } else {
                break;
            }
        }
        self.attachments()?;
        Ok(align)
    }

    fn skip_flags(&mut self) -> Option<&'a str> {
        let mut last = None;
        while self.p.at(Tok::Ident) && !self.p.at_type_start() {
            last = Some(self.p.cur_text());
            self.p.bump();
        }
        last
    }

    /// `[syncscope("x")] [ordering [ordering]]`.
    fn syncscope_and_ordering(&mut self) -> Result<()> {
        if self.p.eat_word("syncscope") {
            self.p.skip_group()?;
        }
        while matches!(self.p.cur_text(), "unordered" | "monotonic" | "acquire" | "release" | "acq_rel" | "seq_cst")
            && self.p.at(Tok::Ident)
        {
            self.p.bump();
        }
        Ok(())
    }

    // ---- Instructions. ----

    fn instruction(&mut self) -> Result<Inst> {
        self.args.clear();
        self.blocks.clear();
        let start = self.p.tok.start;
        let mut result_tok = None;
        if self.p.at(Tok::Local) && self.p.peek().kind == Tok::Eq {
            result_tok = Some(self.p.bump());
            self.p.bump();
        }
        let op_tok = self.p.tok;
        self.p.start_cut(op_tok.start);
        let (op, ty, extra) = if op_tok.kind == Tok::Hash && self.p.text(op_tok).starts_with("#dbg_") {
            if result_tok.is_some() {
                return Err(self.p.err_expected("an instruction"));
            }
            self.p.bump();
            self.p.expect(Tok::LParen, "'('")?;
            self.nonempty_list(Tok::RParen, "',' or ')' in a debug record", |s| {
                s.metadata_operand()?;
                Ok(())
            })?;
            (Opcode::DbgRecord, self.p.types.void, Extra::Debug)
        } else {
            let word = if op_tok.kind == Tok::Ident { self.p.text(op_tok) } else { "" };
            let op = match word {
                "tail" | "musttail" | "notail" => Some(Opcode::Call),
                _ => Opcode::from_keyword(word),
            };
            let Some(op) = op else {
                let msg = if op_tok.kind == Tok::Ident {
                    format!("unknown instruction '{word}'")
                } else {
                    format!("expected an instruction, found {}", self.p.describe(op_tok))
                };
                let code = if op_tok.kind == Tok::Error { "parse-token" } else { "parse-expected" };
                let span = if op_tok.kind == Tok::Eof { Span::at(op_tok.start) } else { op_tok.span() };
                return Err(Error::new(code, span, msg)
                    .label("not an instruction")
                    .help("each line in a block must be an instruction, a label, or a debug record"));
            };
            if word != "call" && op == Opcode::Call {
                self.p.bump();
                if !self.p.at_word("call") {
                    return Err(self.p.err_expected("'call'"));
                }
            }
            self.p.bump();
            let (ty, extra) = self.operands(op)?;
            (op, ty, extra)
        };
        // The next instruction may follow on the same line: LLVM's grammar ends this one.
        let tmpl = self.p.finish_cut(self.p.prev_end);
        let has_result = !self.p.types.is_void(ty);
        let span = Span::new(start, self.p.prev_end);
        let args = std::mem::take(&mut self.args);
        let blocks = std::mem::take(&mut self.blocks);
        let inst =
            self.func().insts.push(InstData { op, ty, result: None, args, blocks, tmpl, extra, block: None, span });
        // Metadata operands push a marker value; drop those.
        self.func().insts[inst].args.retain(|v| v.as_u32() != u32::MAX);
        if let Some(rt) = result_tok {
            if !has_result {
                return Err(Error::new("parse-void-result", rt.span(), "this instruction produces no value to name")
                    .label("remove this name")
                    .help("only instructions with a non-void result can be assigned to a value"));
            }
            let v = self.define_result(rt, ty, inst)?;
            self.func().insts[inst].result = Some(v);
        } else if has_result {
            // An unnamed result takes the next slot number.
            let n = self.next_slot;
            self.next_slot += 1;
            let v = self.func().values.push(ValueData {
                ty,
                kind: ValueKind::Inst(inst),
                name: Some(n.to_string().into()),
            });
            self.locals.insert(Key::Num(n), v);
            self.func().insts[inst].result = Some(v);
        }
        Ok(inst)
    }

    /// Parses the operands after the opcode; returns the result type and opcode facts.
    // Long on purpose: one short arm per instruction, its operand grammar, is a table read by
    // opcode. Split by family, each part would dispatch on the opcode again and need an arm for
    // the opcodes it does not have.
    fn operands(&mut self, op: Opcode) -> Result<(Type, Extra)> {
        use Opcode::*;
        let void = self.p.types.void;
        let i1 = self.p.types.i1;
        let token = self.p.types.token;
        Ok(match op {
            Ret => {
                // `ret void`, but `ret void (i32)* @f` returns a function pointer (typed pointers).
                if self.p.at_word("void") && self.p.peek().kind != Tok::LParen {
                    self.p.bump();
                } else {
                    self.typed_value()?;
                }
                self.attachments()?;
                (void, Extra::None)
            }
            Br => {
                if self.p.at_word("label") {
                    self.label_operand()?;
                } else {
                    self.p.parse_type()?;
                    self.value(i1)?;
                    self.p.expect(Tok::Comma, "','")?;
                    self.label_operand()?;
                    self.p.expect(Tok::Comma, "','")?;
                    self.label_operand()?;
                }
                self.attachments()?;
                (void, Extra::None)
            }
            Switch => {
                let ty = self.p.parse_type()?;
                self.value(ty)?;
                self.p.expect(Tok::Comma, "','")?;
                self.label_operand()?;
                self.p.expect(Tok::LBracket, "'[' starting the switch cases")?;
                while !self.p.eat(Tok::RBracket) {
                    let cty = self.p.parse_type()?;
                    self.value(cty)?;
                    self.p.expect(Tok::Comma, "','")?;
                    self.label_operand()?;
                }
                self.attachments()?;
                (void, Extra::None)
            }
            IndirectBr => {
                self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.p.expect(Tok::LBracket, "'['")?;
                self.comma_list(Tok::RBracket, "',' or ']'", |s| {
                    s.label_operand()?;
                    Ok(())
                })?;
                self.attachments()?;
                (void, Extra::None)
            }
            Invoke | CallBr | Call => self.call_like(op)?,
            Resume => {
                self.typed_value()?;
                self.attachments()?;
                (void, Extra::None)
            }
            CatchSwitch => {
                self.p.expect_word("within")?;
                self.pad_parent()?;
                self.p.expect(Tok::LBracket, "'['")?;
                self.nonempty_list(Tok::RBracket, "',' or ']'", |s| {
                    s.label_operand()?;
                    Ok(())
                })?;
                self.p.expect_word("unwind")?;
                self.unwind_dest()?;
                self.attachments()?;
                (token, Extra::None)
            }
            CatchRet => {
                self.p.expect_word("from")?;
                self.value(token)?;
                self.p.expect_word("to")?;
                self.label_operand()?;
                self.attachments()?;
                (void, Extra::None)
            }
            CleanupRet => {
                self.p.expect_word("from")?;
                self.value(token)?;
                self.p.expect_word("unwind")?;
                self.unwind_dest()?;
                self.attachments()?;
                (void, Extra::None)
            }
            Unreachable => {
                self.attachments()?;
                (void, Extra::None)
            }
            FNeg => {
                self.skip_flags();
                let (ty, _) = self.typed_value()?;
                self.attachments()?;
                (ty, Extra::None)
            }
            _ if op.is_binary() => {
                self.skip_flags();
                let (ty, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.value(ty)?;
                self.attachments()?;
                (ty, Extra::None)
            }
            ExtractElement => {
                let (vt, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.typed_value()?;
                self.attachments()?;
                let elem = self.p.types.vector_info(vt).map(|v| v.2).ok_or_else(|| self.not_vector())?;
                (elem, Extra::None)
            }
            InsertElement => {
                let (vt, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.typed_value()?;
                self.attachments()?;
                (vt, Extra::None)
            }
            ShuffleVector => {
                let (vt, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.value_typed_as(vt)?;
                self.p.expect(Tok::Comma, "','")?;
                let (mt, _) = self.typed_value()?;
                self.attachments()?;
                let (scalable, _, elem) = self.p.types.vector_info(vt).ok_or_else(|| self.not_vector())?;
                let (_, len, _) = self.p.types.vector_info(mt).ok_or_else(|| self.not_vector())?;
                (self.p.types.intern(TypeData::Vector { scalable, len, elem }), Extra::None)
            }
            ExtractValue => {
                let (at, _) = self.typed_value()?;
                let mut t = at;
                while self.p.at(Tok::Comma) && self.p.peek().kind == Tok::Int {
                    self.p.bump();
                    let i = self.p.expect_int("an index")?;
                    t = self.p.types.index_into(t, Some(i)).ok_or_else(|| self.bad_index())?;
                }
                self.attachments()?;
                (t, Extra::None)
            }
            InsertValue => {
                let (at, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.typed_value()?;
                while self.p.at(Tok::Comma) && self.p.peek().kind == Tok::Int {
                    self.p.bump();
                    self.p.expect_int("an index")?;
                }
                self.attachments()?;
                (at, Extra::None)
            }
            Alloca => {
                while self.p.at_word("inalloca") || self.p.at_word("swifterror") {
                    self.p.bump();
                }
                let ty = self.p.parse_type()?;
                let mut align = None;
                let mut addrspace = 0;
                while self.p.at(Tok::Comma) {
                    let n = self.p.peek();
                    if n.kind == Tok::MetaName {
                        break;
                    }
                    self.p.bump();
                    if self.p.eat_word("align") {
                        align = Some(self.p.expect_int("an alignment")? as u32);
                    } else if self.p.at_word("addrspace") {
                        self.p.bump();
                        self.p.expect(Tok::LParen, "'('")?;
                        addrspace = self.p.expect_int("an address space")? as u32;
                        self.p.expect(Tok::RParen, "')'")?;
                    } else {
                        self.typed_value()?;
                    }
                }
                self.attachments()?;
                let typed = self.p.typed;
                (self.p.types.pointer_to(ty, addrspace, typed), Extra::Alloca { ty, align })
            }
            Load => {
                self.p.eat_word("atomic");
                self.p.eat_word("volatile");
                let ty = self.p.parse_type()?;
                self.p.expect(Tok::Comma, "','")?;
                self.typed_value()?;
                self.syncscope_and_ordering()?;
                let align = self.align_and_attachments()?;
                (ty, Extra::Access { align })
            }
            Store => {
                self.p.eat_word("atomic");
                self.p.eat_word("volatile");
                self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.typed_value()?;
                self.syncscope_and_ordering()?;
                let align = self.align_and_attachments()?;
                (void, Extra::Access { align })
            }
            Fence => {
                self.syncscope_and_ordering()?;
                self.attachments()?;
                (void, Extra::None)
            }
            CmpXchg => {
                self.p.eat_word("weak");
                self.p.eat_word("volatile");
                self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                let (ty, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.value_typed_as(ty)?;
                self.syncscope_and_ordering()?;
                let align = self.align_and_attachments()?;
                let st = self.p.types.intern(TypeData::Struct { packed: false, fields: vec![ty, i1].into() });
                (st, Extra::Access { align })
            }
            AtomicRmw => {
                self.p.eat_word("volatile");
                if !self.p.at(Tok::Ident) {
                    return Err(self.p.err_expected("an atomicrmw operation"));
                }
                self.p.bump();
                self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                let (ty, _) = self.typed_value()?;
                self.syncscope_and_ordering()?;
                let align = self.align_and_attachments()?;
                (ty, Extra::Access { align })
            }
            GetElementPtr => self.gep()?,
            _ if op.is_cast() => {
                self.skip_flags();
                self.typed_value()?;
                self.p.expect_word("to")?;
                let to = self.p.parse_type()?;
                self.attachments()?;
                (to, Extra::None)
            }
            ICmp | FCmp => {
                let pred = self.skip_flags().unwrap_or("");
                let (ty, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.value(ty)?;
                self.attachments()?;
                let rt = match self.p.types.vector_info(ty) {
                    Some((scalable, len, _)) => self.p.types.intern(TypeData::Vector { scalable, len, elem: i1 }),
                    None => i1,
                };
                (rt, Extra::Cmp { pred: crate::ir::Pred::from_word(pred) })
            }
            Phi => {
                self.skip_flags();
                let ty = self.p.parse_type()?;
                // The template keeps only the head; pairs are printed from args/blocks.
                let head_end = self.p.prev_end;
                self.p.cut.pieces.push(Piece::Text(Text::Src(self.p.cut.pos, head_end)));
                self.p.cut.active = false;
                loop {
                    self.p.expect(Tok::LBracket, "'[' starting a phi incoming pair")?;
                    self.value(ty)?;
                    self.p.expect(Tok::Comma, "','")?;
                    self.block_operand()?;
                    self.p.expect(Tok::RBracket, "']'")?;
                    if !(self.p.at(Tok::Comma) && self.p.peek().kind == Tok::LBracket) {
                        break;
                    }
                    self.p.bump();
                }
                let tail_start = self.p.prev_end;
                self.attachments()?;
                self.p.cut.pieces.push(Piece::Text(Text::Src(tail_start, self.p.prev_end)));
                self.p.cut.active = true;
                self.p.cut.pos = self.p.prev_end;
                (ty, Extra::Phi)
            }
            Select => {
                self.skip_flags();
                self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                let (ty, _) = self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                self.value_typed_as(ty)?;
                self.attachments()?;
                (ty, Extra::None)
            }
            Freeze => {
                let (ty, _) = self.typed_value()?;
                self.attachments()?;
                (ty, Extra::None)
            }
            VAArg => {
                self.typed_value()?;
                self.p.expect(Tok::Comma, "','")?;
                let ty = self.p.parse_type()?;
                self.attachments()?;
                (ty, Extra::None)
            }
            LandingPad => {
                let ty = self.p.parse_type()?;
                loop {
                    if self.p.eat_word("cleanup") {
                        continue;
                    }
                    if self.p.eat_word("catch") || self.p.eat_word("filter") {
                        self.typed_value()?;
                        continue;
                    }
                    break;
                }
                self.attachments()?;
                (ty, Extra::None)
            }
            CatchPad | CleanupPad => {
                self.p.expect_word("within")?;
                self.pad_parent()?;
                self.p.expect(Tok::LBracket, "'['")?;
                self.comma_list(Tok::RBracket, "',' or ']'", |s| {
                    s.typed_value()?;
                    Ok(())
                })?;
                self.attachments()?;
                (token, Extra::None)
            }
            DbgRecord | Add | Sub | Mul | UDiv | SDiv | URem | SRem | Shl | LShr | AShr | And | Or | Xor | FAdd
            | FSub | FMul | FDiv | FRem | Trunc | ZExt | SExt | FPTrunc | FPExt | FPToUI | FPToSI | UIToFP | SIToFP
            | PtrToInt | PtrToAddr | IntToPtr | BitCast | AddrSpaceCast => unreachable!("handled by the guards above"),
        })
    }

    /// A value that must have type `ty`, written with its type (`i32 %x`); the type is checked.
    fn value_typed_as(&mut self, ty: Type) -> Result<Option<Value>> {
        let tt = self.p.tok;
        let t = self.p.parse_type()?;
        if t != ty {
            let (h, w) = (self.p.types.display(t), self.p.types.display(ty));
            return Err(Error::new("parse-type-mismatch", tt.span(), format!("operand type {h} does not match {w}"))
                .label(format!("expected {w}"))
                .help("both operands must have the same type"));
        }
        self.value(ty)
    }

    fn not_vector(&self) -> Error {
        Error::new("parse-type-mismatch", Span::at(self.p.prev_end), "expected a vector operand")
            .help("this instruction works on vector types")
    }

    fn bad_index(&self) -> Error {
        Error::new("parse-type-mismatch", Span::at(self.p.prev_end), "index out of range for the aggregate type")
            .help("check the index against the aggregate's type")
    }

    fn pad_parent(&mut self) -> Result<()> {
        if !self.p.eat_word("none") {
            let t = self.p.types.token;
            self.value(t)?;
        }
        Ok(())
    }

    fn unwind_dest(&mut self) -> Result<()> {
        if self.p.eat_word("to") {
            self.p.expect_word("caller")?;
        } else {
            self.label_operand()?;
        }
        Ok(())
    }

    fn gep(&mut self) -> Result<(Type, Extra)> {
        // Flags: inbounds, nuw, nusw, inrange(...).
        while self.p.at(Tok::Ident) && !self.p.at_type_start() {
            let w = self.p.cur_text();
            self.p.bump();
            if w == "inrange" && self.p.at(Tok::LParen) {
                self.p.skip_group()?;
            }
        }
        let source = self.p.parse_type()?;
        self.p.expect(Tok::Comma, "','")?;
        let (pt, _) = self.typed_value()?;
        let mut vector_len = self.p.types.vector_info(pt).map(|(s, n, _)| (s, n));
        let mut cur = Some(source);
        let mut first = true;
        while self.p.at(Tok::Comma) && self.p.peek().kind != Tok::MetaName {
            self.p.bump();
            self.p.eat_word("inrange");
            let (it, iv) = self.typed_value()?;
            if let Some((s, n, _)) = self.p.types.vector_info(it) {
                vector_len = Some((s, n));
            }
            if first {
                first = false;
            } else if let Some(c) = cur {
                let idx =
                    iv.and_then(|iv| self.func_ref().const_int(iv, self.p.src)).and_then(|i| u64::try_from(i).ok());
                cur = self.p.types.index_into(c, idx);
            }
        }
        self.attachments()?;
        let scalar = self.p.types.vector_info(pt).map_or(pt, |v| v.2);
        let rt = match *self.p.types.get(scalar) {
            // Typed pointers: the result points to the indexed type, in the same address space.
            TypeData::TypedPtr(_, a) => {
                let target = cur.ok_or_else(|| self.bad_index())?;
                self.p.types.intern(TypeData::TypedPtr(target, a))
            }
            TypeData::Ptr(_) => scalar,
            _ => {
                return Err(Error::new(
                    "parse-type-mismatch",
                    Span::at(self.p.prev_end),
                    "getelementptr needs a pointer operand",
                )
                .help("the second operand of getelementptr must be a pointer"));
            }
        };
        let rt = match vector_len {
            Some((scalable, len)) => self.p.types.intern(TypeData::Vector { scalable, len, elem: rt }),
            None => rt,
        };
        Ok((rt, Extra::Gep { source }))
    }

    fn call_like(&mut self, op: Opcode) -> Result<(Type, Extra)> {
        // Fast-math flags, calling convention, return attributes, address space.
        self.p.skip_attributes()?;
        let ty = self.p.parse_type()?;
        let (ret, explicit_fn) = match self.p.types.get(ty) {
            TypeData::Func { ret, .. } => (*ret, Some(ty)),
            _ => (ty, None),
        };
        // The callee: a local, a global, inline asm or a constant expression.
        let callee_ty = self.p.types.ptr;
        let callee_start = self.p.tok.start;
        if self.p.at(Tok::Local) {
            let t = self.p.bump();
            // Typed-pointer callees have a pointer-to-function type; accept whatever type the value has.
            let name = local_name(self.p.text(t));
            let v = match self.locals.get(&key_of(name)) {
                Some(&v) => v,
                None => self.local_ref(t, callee_ty)?,
            };
            self.args.push(v);
            self.p.cut_at(t.span(), Piece::Arg((self.args.len() - 1) as u16));
        } else {
            self.value(callee_ty)?;
        }
        let callee_idx_tmp = self.args.len() - 1;
        // Arguments.
        self.p.expect(Tok::LParen, "'(' starting the call arguments")?;
        let mut arg_tys = Vec::new();
        self.comma_list(Tok::RParen, "',' or ')' in the call arguments", |s| {
            if s.p.eat(Tok::Ellipsis) {
                // `musttail` forwarding of varargs; the list closes right after it.
                return if s.p.at(Tok::RParen) { Ok(()) } else { Err(s.p.err_expected("')' after '...'")) };
            }
            let aty = s.p.parse_type()?;
            s.p.skip_attributes()?;
            s.value(aty)?;
            arg_tys.push(aty);
            Ok(())
        })?;
        // Function attributes, then operand bundles.
        self.p.skip_attributes()?;
        let bundle_start = self.args.len();
        if self.p.at(Tok::LBracket) {
            self.p.bump();
            self.nonempty_list(Tok::RBracket, "',' or ']'", |s| {
                s.p.expect(Tok::Str, "an operand bundle tag")?;
                s.p.expect(Tok::LParen, "'('")?;
                s.comma_list(Tok::RParen, "',' or ')'", |s| {
                    s.typed_value()?;
                    Ok(())
                })?;
                Ok(())
            })?;
        }
        match op {
            Opcode::Invoke => {
                self.p.expect_word("to")?;
                self.label_operand()?;
                self.p.expect_word("unwind")?;
                self.label_operand()?;
            }
            Opcode::CallBr => {
                self.p.expect_word("to")?;
                self.label_operand()?;
                self.p.expect(Tok::LBracket, "'['")?;
                self.comma_list(Tok::RBracket, "',' or ']'", |s| {
                    s.label_operand()?;
                    Ok(())
                })?;
            }
            _ => {}
        }
        self.attachments()?;
        let fn_ty = explicit_fn.unwrap_or_else(|| {
            self.p.types.intern(TypeData::Func { ret, params: arg_tys.clone().into(), vararg: false })
        });
        // Operands were pushed as [callee, argument values..., bundle values...]; store them as
        // [argument values..., callee, bundle values...] and renumber the template to match.
        let is_debug_call = self.p.src.get(callee_start as usize..).is_some_and(|s| s.starts_with("@llvm.dbg."));
        let n = self.args.len();
        let nb = n - bundle_start;
        let c = callee_idx_tmp;
        let nargs = (n - c - 1 - nb) as u16;
        let mut remap = vec![0u16; n];
        let mut order: SmallVec<[Value; 3]> = SmallVec::with_capacity(n);
        for i in (c + 1..n - nb).chain([c]).chain(n - nb..n).chain(0..c) {
            remap[i] = order.len() as u16;
            order.push(self.args[i]);
        }
        for p in self.p.cut.pieces.iter_mut() {
            if let Piece::Arg(i) = p {
                *i = remap[*i as usize];
            }
        }
        self.args = order;
        let callee = nargs;
        let extra = if is_debug_call { Extra::Debug } else { Extra::Call { callee, nargs, fn_ty } };
        Ok((ret, extra))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Function> {
        let mut t = TypeTable::new();
        parse_function(s, 0, s.len(), &mut t, false, None)
    }

    #[test]
    fn parses_a_declared_signature() {
        let s = "declare swiftcc { ptr, i32 } @proto(ptr noalias %buf, i1 zeroext, ...)";
        let mut t = TypeTable::new();
        let sig = parse_signature(s, 0, s.len(), &mut t, false).unwrap();
        assert_eq!(sig.prefix.get(s).trim(), "swiftcc");
        assert_eq!(t.display(sig.ret), "{ ptr, i32 }");
        assert_eq!(sig.params.len(), 2);
        assert_eq!(sig.params[0].attrs.get(s).trim(), "noalias");
        assert_eq!(sig.params[1].attrs.get(s).trim(), "zeroext");
        assert!(sig.vararg);
        assert!(parse_signature("declare i32", 0, 11, &mut t, false).is_err());
    }

    #[test]
    fn parses_blocks_and_values() {
        let f = parse(
            "define i32 @f(i32 %a) {\nentry:\n  %x = add nsw i32 %a, 1\n  br label %next\nnext:\n  ret i32 %x\n}",
        )
        .expect("parses");
        assert_eq!(f.layout.len(), 2);
        assert_eq!(f.num_insts(), 3);
        let (_, i) = f.inst_iter().next().expect("an instruction");
        assert_eq!(f.insts[i].op, Opcode::Add);
        assert_eq!(f.insts[i].args.len(), 2);
    }

    /// Constant operands of one type and spelling are one value; another type, another spelling,
    /// or a `blockaddress` of this function's blocks is a value of its own.
    #[test]
    fn constant_operands_are_shared_by_type_and_spelling() {
        let f = parse(
            "define i64 @f(i32 %a) {\nentry:\n  %x = add i32 %a, 0\n  %y = add i32 %x, 0\n  %z = sext i32 1 to i64\n  %w = add i64 %z, 0\n  %p = select i1 true, ptr blockaddress(@f, %next), ptr blockaddress(@f, %next)\n  br label %next\nnext:\n  ret i64 %w\n}",
        )
        .expect("parses");
        let op = |name: &str, k: usize| {
            let i = f
                .inst_iter()
                .map(|(_, i)| i)
                .find(|&i| f.insts[i].result.and_then(|r| f.values[r].name.clone()).as_deref() == Some(name))
                .expect("the instruction");
            f.insts[i].args[k]
        };
        assert_eq!(op("x", 1), op("y", 1), "`i32 0` twice");
        assert_ne!(op("x", 1), op("w", 1), "`i32 0` and `i64 0`");
        assert_ne!(op("x", 1), op("z", 0), "`i32 0` and `i32 1`");
        assert_ne!(op("p", 1), op("p", 2), "two uses of a block address");
    }

    #[test]
    fn forward_references_and_phis() {
        let f = parse(
            "define i32 @f(i1 %c) {\n  br label %1\n1:\n  %2 = phi i32 [ 0, %0 ], [ %3, %1 ]\n  %3 = add i32 %2, 1\n  br i1 %c, label %1, label %4\n4:\n  ret i32 %3\n}",
        );
        // `%0` is the unnamed entry block; a phi may name it, and `%3` before its definition.
        let f = f.expect("parses");
        let phi = f.inst_iter().map(|(_, i)| i).find(|&i| f.insts[i].op == Opcode::Phi).expect("a phi");
        assert_eq!(f.insts[phi].args.len(), 2);
        assert_eq!(f.insts[phi].blocks.len(), 2);
    }

    #[test]
    fn instructions_with_the_same_text_share_one_template() {
        let f = parse(
            "define void @f(ptr %p) {\n  %a = load i32, ptr %p\n  %b = load i32, ptr %p\n  %c = load i64, ptr %p\n  %d = load i32 , ptr %p\n  ret void\n}",
        )
        .expect("parses");
        let t: Vec<_> = f.inst_iter().map(|(_, i)| f.insts[i].tmpl.clone()).collect();
        assert!(std::sync::Arc::ptr_eq(&t[0], &t[1]), "two `load i32, ptr` lines");
        assert!(!std::sync::Arc::ptr_eq(&t[0], &t[2]), "another type");
        assert!(!std::sync::Arc::ptr_eq(&t[0], &t[3]), "another spacing");
    }

    #[test]
    fn counts_the_lines_that_define_a_local() {
        let body =
            b"\nentry:\n  %x = add i32 1, 2\n  call void @g()\n\t%y = load i32, ptr %p\n; %z = c\nnext:\n  ret void\n";
        assert_eq!(count_lines(body), (9, 2, 2));
    }

    #[test]
    fn a_phi_keeps_its_tail_as_the_last_piece() {
        let s = "define i32 @f(i1 %c) {\nentry:\n  br label %l\nl:\n  %p = phi i32 [ 0, %entry ], [ 1, %l ], !dbg !7\n  br i1 %c, label %l, label %e\ne:\n  ret i32 %p\n}";
        let mut types = TypeTable::new();
        let f = parse_function(s, 0, s.len(), &mut types, false, None).expect("parses");
        let phi = f.inst_iter().map(|(_, i)| i).find(|&i| f.insts[i].op == Opcode::Phi).expect("a phi");
        let last = f.insts[phi].tmpl.last().map(|p| match p {
            Piece::Text(t) => t.get(s),
            _ => "an operand",
        });
        assert_eq!(last, Some(", !dbg !7"));
        let out = crate::print::print_function(&f, &types, s);
        assert!(out.contains("%p = phi i32 [ 0, %entry ], [ 1, %l ], !dbg !7\n"), "{out}");
    }

    #[test]
    fn invoke_on_one_line() {
        let s = "define void @f() personality ptr null {
  invoke void @g() #0 to label %ok unwind label %lp
ok:
  ret void
lp:
  %x = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %x
}";
        let f = parse(s).expect("LLVM accepts `to label` on the invoke's own line");
        let (_, i) = f.inst_iter().next().expect("invoke");
        assert_eq!(f.insts[i].op, Opcode::Invoke);
        assert_eq!(f.insts[i].blocks.len(), 2);
    }

    #[test]
    fn undefined_value_is_located() {
        let s = "define i32 @f() {\n  ret i32 %nope\n}";
        let e = parse(s).expect_err("undefined");
        assert_eq!(e.code, "parse-undefined");
        assert_eq!(&s[e.span.start as usize..e.span.end as usize], "%nope");
    }

    #[test]
    fn type_mismatch_is_located() {
        let s = "define i32 @f() {\n  %a = add i64 0, 0\n  ret i32 %a\n}";
        let e = parse(s).expect_err("mismatch");
        assert_eq!(e.code, "parse-type-mismatch");
        assert_eq!(&s[e.span.start as usize..e.span.end as usize], "%a");
    }

    /// The printed lines of the body of the function `s` (one block, labelled), trimmed.
    fn printed(s: &str) -> Vec<String> {
        let mut types = TypeTable::new();
        let f = parse_function(s, 0, s.len(), &mut types, false, None).expect("parses");
        let out = crate::print::print_function(&f, &types, s);
        let body = out.lines().skip_while(|l| !l.ends_with(':')).skip(1);
        body.filter(|l| !l.is_empty() && *l != "}").map(|l| l.trim().to_string()).collect()
    }

    #[test]
    fn instructions_may_span_lines_and_share_them() {
        // Operands over lines, two instructions on a line, a call whose attributes are followed by
        // the next instruction, an attachment on the next line, an atomic ordering on the next line,
        // a label with a comment, and `}` at the end of the last instruction's line.
        let s = "define\n  i32 ; ret\n  @f(ptr\n noundef %p) ; c\n  #0 {\nentry: ; the entry\n  %a = add\n    i32 1,\n    2 %b = add i32 %a, 1\n  call void @g() #1 store i32 %b, ptr %p\n  %v = load atomic i32, ptr %p\n    seq_cst, align 4\n  call void @g()\n    , !dbg !3\n  ret i32 %v }";
        assert_eq!(
            printed(s),
            [
                "%a = add\n    i32 1,\n    2",
                "%b = add i32 %a, 1",
                "call void @g() #1",
                "store i32 %b, ptr %p",
                "%v = load atomic i32, ptr %p\n    seq_cst, align 4",
                "call void @g()\n    , !dbg !3",
                "ret i32 %v",
            ]
            .iter()
            .flat_map(|i| i.lines().map(str::trim))
            .collect::<Vec<_>>()
        );
    }

    #[test]
    fn comments_inside_a_header_or_an_instruction_are_not_kept() {
        // Text cut from the input is written elsewhere: a comment in it would swallow what follows.
        let s = "define void @f(ptr ; p\n %p) ; {\n  #0 {\n  call void ; x\n @g(ptr %p) ; y\n  ret void\n}";
        let mut types = TypeTable::new();
        let f = parse_function(s, 0, s.len(), &mut types, false, None).expect("parses");
        assert!(!f.header.suffix.get(s).contains(';'), "{:?}", f.header.suffix.get(s));
        let out = crate::print::print_function(&f, &types, s);
        assert!(!out.contains(';'), "{out}");
        assert!(out.contains("#0 {"), "{out}");
    }

    #[test]
    fn a_function_pointer_returning_void_is_returned() {
        let s = "define void (i32)* @f() {\n  ret void (i32)* @g\n}";
        let mut t = TypeTable::new();
        let f = parse_function(s, 0, s.len(), &mut t, true, None).expect("parses");
        let (_, i) = f.inst_iter().next().expect("ret");
        assert_eq!(f.insts[i].args.len(), 1);
    }

    #[test]
    fn a_named_type_quoted_or_not_is_one_type() {
        let src = "%handle = type { i8* }\ndefine void @f() {\n  %a = alloca %\"handle\"\n  %p = getelementptr inbounds %\"handle\", %handle* %a, i32 0, i32 0\n  store i8* null, i8** %p\n  ret void\n}\n";
        let mut m = crate::Module::parse(src.to_string()).map_err(|e| e.0).expect("indexes");
        let i = m.definitions().next().expect("a define");
        m.parse_function(i).expect("%\"handle\" and %handle are one type, with a field 0");
    }

    #[test]
    fn a_star_type_among_ptrs_is_ptr() {
        let src = "define void @f(ptr %p) {\n  %q = getelementptr inbounds {ptr, ptr}, {ptr, ptr}* %p, i32 0, i32 1\n  store ptr null, ptr %q\n  ret void\n}\n";
        let mut m = crate::Module::parse(src.to_string()).map_err(|e| e.0).expect("indexes");
        assert!(!m.typed);
        let i = m.definitions().next().expect("a define");
        m.parse_function(i).expect("{ptr, ptr}* is ptr in a module of ptrs (LLVM 17+)");
    }

    #[test]
    fn use_list_orders_in_a_body_may_span_lines() {
        let s = "define void @f(ptr %p) {\n  ret void\nuselistorder ptr %p,\n  { 1,\n 0 }\n}";
        let f = parse(s).expect("parses");
        assert_eq!(f.num_insts(), 1);
    }

    #[test]
    fn call_operands_are_ordered_args_then_callee() {
        let s = "define void @f(ptr %p) {\n  %r = call i32 (ptr, ...) @printf(ptr %p, i32 7) #1 [ \"x\"(i32 9) ]\n  ret void\n}";
        let f = parse(s).expect("parses");
        let (_, i) = f.inst_iter().next().expect("call");
        let d = &f.insts[i];
        assert_eq!(f.callee_name(i, s), Some("@printf"));
        assert_eq!(d.call_args().len(), 2);
        assert_eq!(f.const_int(d.call_args()[1], s), Some(7));
        assert_eq!(d.args.len(), 4);
    }
}
