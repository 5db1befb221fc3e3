//! The module index: one pass over the text that records every top-level entity's kind and span without
//! parsing function bodies. Named struct bodies are parsed here because instruction result types
//! (typed GEPs, `extractvalue`) depend on them.

use super::Parser;
use crate::error::{Error, Result, Span};
use crate::lexer::Tok;
use crate::module::{Item, ItemKind};
use crate::types::TypeTable;
use rustc_hash::FxHashSet;

pub struct Index {
    pub items: Vec<Item>,
    pub typed: bool,
    /// Every global name the module defines or declares (functions, variables, aliases, ifuncs).
    pub globals: FxHashSet<Box<str>>,
}

pub fn index(src: &str, types: &mut TypeTable) -> Result<Index> {
    let mut p = Parser::new(src, 0, src.len(), types);
    let mut items = Vec::new();
    let mut saw_star = false;
    let mut saw_ptr = false;
    loop {
        let t = p.tok;
        let start = t.start;
        let kind = match t.kind {
            Tok::Eof => break,
            Tok::Ident => match p.text(t) {
                "define" => {
                    let (end, name) = scan_define(&mut p, &mut saw_star, &mut saw_ptr)?;
                    items.push(Item { kind: ItemKind::Define, span: Span::new(start, end), name });
                    continue;
                }
                "declare" => ItemKind::Declare,
                "attributes" => ItemKind::AttrGroup,
                "source_filename" | "target" | "module" | "uselistorder" | "uselistorder_bb" => ItemKind::Other,
                _ => return Err(top_level_error(&p)),
            },
            Tok::Global => ItemKind::Global,
            Tok::Local => ItemKind::TypeDef,
            Tok::Comdat => ItemKind::Comdat,
            Tok::MetaName => ItemKind::Metadata,
            Tok::Summary => ItemKind::Other,
            _ => return Err(top_level_error(&p)),
        };
        // Name: the global, type, attribute group or metadata id; for declare, the function name.
        let mut name = Span::default();
        if matches!(kind, ItemKind::Global | ItemKind::TypeDef | ItemKind::Comdat | ItemKind::Metadata) {
            name = t.span();
        }
        p.bump();
        if kind == ItemKind::AttrGroup {
            name = p.tok.span();
        }
        if kind == ItemKind::TypeDef {
            p.expect(Tok::Eq, "'=' after a type name")?;
            let tname = &src[t.start as usize..t.end as usize];
            p.parse_type_def(tname)?;
            if !p.tok_on_new_line && !p.at(Tok::Eof) {
                return Err(p.err_expected("the end of the type definition"));
            }
            items.push(Item { kind, span: Span::new(start, p.prev_end), name });
            continue;
        }
        // Entities whose insides the index does not need are skipped at byte level: much faster
        // than tokens on debug-info-heavy modules, where metadata is most of the text.
        if matches!(
            kind,
            ItemKind::Metadata | ItemKind::AttrGroup | ItemKind::Global | ItemKind::Comdat | ItemKind::Other
        ) {
            let from = if kind == ItemKind::AttrGroup { p.tok.start } else { p.prev_end };
            // On malformed text, fall through to the token path, which locates the problem exactly.
            if let Some((end, resume)) = skip_entity_bytes(src.as_bytes(), from as usize) {
                items.push(Item { kind, span: Span::new(start, end as u32), name });
                p.reset_to(resume);
                continue;
            }
        }
        // Everything else runs to the end of its line, or further while brackets are open.
        let mut depth = 0i32;
        loop {
            // A new line at bracket depth zero starts the next entity.
            if p.tok_on_new_line && depth <= 0 {
                break;
            }
            match p.tok.kind {
                Tok::Eof => break,
                Tok::Error => return Err(p.err_expected("a valid token")),
                Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
                Tok::Star => saw_star = true,
                Tok::Global if kind == ItemKind::Declare && name == Span::default() => name = p.tok.span(),
                Tok::Ident if p.cur_text() == "ptr" => saw_ptr = true,
                _ => {}
            }
            p.bump();
        }
        if depth > 0 {
            return Err(p.err_expected("a closing bracket"));
        }
        items.push(Item { kind, span: Span::new(start, p.prev_end), name });
    }
    let mut globals: FxHashSet<Box<str>> = FxHashSet::default();
    for it in &items {
        if !matches!(it.kind, ItemKind::Define | ItemKind::Declare | ItemKind::Global) || it.name == Span::default() {
            continue;
        }
        let n = normalize_global(&src[it.name.start as usize..it.name.end as usize]);
        if !globals.insert(n.clone()) {
            return Err(Error::new("parse-redefinition", it.name, format!("'{n}' is defined more than once"))
                .label("second definition")
                .help("each global, function and alias needs a unique name; rename or remove one"));
        }
    }
    Ok(Index { items, typed: saw_star && !saw_ptr, globals })
}

fn top_level_error(p: &Parser<'_>) -> Error {
    let t = p.tok;
    let code = if t.kind == Tok::Error { "parse-token" } else { "parse-expected" };
    Error::new(code, t.span(), format!("expected a top-level entity, found {}", p.describe(t)))
        .label("not a definition, declaration, global, type or metadata")
        .help("top-level lines start with define, declare, @global, %type, !metadata, attributes, target or source_filename")
}

/// Skips a `define` and returns the end of its body and the function name span. The body ends at the
/// first line that starts with `}`: LLVM prints bodies that way, and no instruction line can start
/// with `}`. A body whose `{` has more tokens on the same line is matched brace by brace instead.
fn scan_define(p: &mut Parser<'_>, saw_star: &mut bool, saw_ptr: &mut bool) -> Result<(u32, Span)> {
    p.bump();
    let mut name = Span::default();
    let mut depth = 0i32;
    // The body's `{` comes after the parameter list; a struct return type has braces of its own.
    let mut after_params = false;
    while !(after_params && depth == 0 && p.at(Tok::LBrace)) {
        match p.tok.kind {
            Tok::Eof => return Err(p.err_expected("'{' starting the function body")),
            Tok::Error => return Err(p.err_expected("a valid token")),
            Tok::LParen | Tok::LBracket => depth += 1,
            Tok::RParen | Tok::RBracket => {
                depth -= 1;
                if depth == 0 && name != Span::default() {
                    after_params = true;
                }
            }
            Tok::Global if name == Span::default() => name = p.tok.span(),
            Tok::Star => *saw_star = true,
            Tok::Ident if p.cur_text() == "ptr" => *saw_ptr = true,
            _ => {}
        }
        p.bump();
    }
    let brace = p.tok;
    p.bump();
    let src = p.src.as_bytes();
    if p.tok_on_new_line || p.at(Tok::RBrace) {
        if p.at(Tok::RBrace) && !p.tok_on_new_line {
            let end = p.tok.end;
            p.bump();
            return Ok((end, name));
        }
        // Line scan from the line after `{`.
        let mut pos = brace.end as usize;
        while pos < src.len() {
            let nl = match src[pos..].iter().position(|&b| b == b'\n') {
                Some(o) => pos + o + 1,
                None => break,
            };
            let mut q = nl;
            while q < src.len() && matches!(src[q], b' ' | b'\t') {
                q += 1;
            }
            if q < src.len() && src[q] == b'}' {
                if !*saw_star && !*saw_ptr {
                    // The body decides the dialect when the header could not.
                    let body = &src[brace.end as usize..q];
                    *saw_star |= body.windows(2).any(|w| w[1] == b'*' && w[0] != b'"');
                }
                p.reset_to(q);
                let end = p.tok.end;
                p.bump();
                return Ok((end, name));
            }
            pos = nl;
        }
        p.reset_to(src.len());
        return Err(p.err_expected("'}' closing the function body"));
    }
    let mut depth = 1i32;
    loop {
        match p.tok.kind {
            Tok::Eof => return Err(p.err_expected("'}' closing the function body")),
            Tok::LBrace => depth += 1,
            Tok::RBrace => {
                depth -= 1;
                if depth == 0 {
                    let end = p.tok.end;
                    p.bump();
                    return Ok((end, name));
                }
            }
            _ => {}
        }
        p.bump();
    }
}

/// `@"name"` and `@name` are the same global when the quoted form needs no quoting.
pub fn normalize_global(text: &str) -> Box<str> {
    let body = &text[1..];
    if let Some(inner) = body.strip_prefix('"').and_then(|b| b.strip_suffix('"'))
        && !inner.is_empty()
        && !inner.contains('\\')
        && inner.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_'))
    {
        return format!("@{inner}").into();
    }
    text.into()
}

/// Skips one entity's text from `pos`: to the end of its line, or further while brackets are open;
/// strings and comments are respected. Returns the end of the entity's last non-blank byte and the
/// position to resume scanning from; `None` if the file ends inside a bracket or string.
fn skip_entity_bytes(b: &[u8], mut pos: usize) -> Option<(usize, usize)> {
    let mut depth = 0i32;
    let mut last = pos;
    while pos < b.len() {
        match b[pos] {
            b'"' => {
                pos += 1;
                while pos < b.len() && b[pos] != b'"' {
                    if b[pos] == b'\n' {
                        return None;
                    }
                    pos += 1;
                }
                if pos >= b.len() {
                    return None;
                }
                last = pos + 1;
            }
            b';' => {
                while pos < b.len() && b[pos] != b'\n' {
                    pos += 1;
                }
                continue;
            }
            b'\n' => {
                if depth <= 0 {
                    return Some((last, pos));
                }
            }
            b' ' | b'\t' | b'\r' => {}
            c => {
                match c {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    _ => {}
                }
                last = pos + 1;
            }
        }
        pos += 1;
    }
    if depth > 0 { None } else { Some((last, pos)) }
}
