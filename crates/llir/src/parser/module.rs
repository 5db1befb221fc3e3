//! The module index: one pass over the text that records every top-level entity's kind and span without
//! parsing function bodies. Named struct bodies are parsed here because instruction result types
//! (typed GEPs, `extractvalue`) depend on them.

use super::Parser;
use crate::error::{Error, Result, Span};
use crate::lexer::{Tok, Token};
use crate::module::{Item, ItemKind};
use crate::types::TypeTable;
use rustc_hash::FxHashSet;

pub(crate) struct Index {
    pub items: Vec<Item>,
    pub typed: bool,
    /// The module spells pointers `ptr` (whatever else it has).
    pub opaque: bool,
    /// Every global name the module defines or declares (functions, variables, aliases, ifuncs).
    pub globals: FxHashSet<Box<str>>,
}

/// Modules from this size up are indexed in two halves at once.
const INDEX_IN_HALVES: usize = 16 << 20;

pub(crate) fn index(src: &str, types: &mut TypeTable) -> Result<Index> {
    index_with(src, types, INDEX_IN_HALVES).map(|(ix, _)| ix)
}

/// What a scan of part of the module found.
#[derive(Default)]
struct Scan {
    items: Vec<Item>,
    saw_star: bool,
    saw_ptr: bool,
}

/// Why a scan stopped before the end of its text.
enum Stop {
    /// At the first token at or past the limit.
    Limit,
    /// At a type definition, which a scan without the module's type table cannot take.
    TypeDef,
}

/// `index`, with the second half of a module of at least `parallel_from` bytes scanned on another
/// thread, from the line `split_point` chooses. The halves meet only where the first half's own
/// scan arrives exactly at that line; otherwise (the line was inside an entity), or when the second
/// half holds a type definition, the first half's scan simply goes on to the end. Either way the
/// result, and the first error, are those of one scan from the start. Also says whether the halves
/// met.
fn index_with(src: &str, types: &mut TypeTable, parallel_from: usize) -> Result<(Index, bool)> {
    let mut p = Parser::new(src, 0, src.len(), types);
    let mut scan = Scan::default();
    let mut met = false;
    let split = (src.len() >= parallel_from).then(|| split_point(src)).flatten();
    if let Some(split) = split {
        let (first, second) = std::thread::scope(|s| {
            let second = s.spawn(move || {
                let mut scratch = TypeTable::new();
                let mut q = Parser::new(src, split, src.len(), &mut scratch);
                let mut rest = Scan::default();
                let stop = scan_items(&mut q, &mut rest, usize::MAX, false)?;
                Ok::<_, Error>((rest, stop))
            });
            let first = scan_items(&mut p, &mut scan, split, true);
            (first, second.join())
        });
        first?;
        if p.tok.start as usize == split
            && let Ok(second) = second
        {
            match second {
                Ok((rest, Stop::Limit)) => {
                    scan.items.extend(rest.items);
                    scan.saw_star |= rest.saw_star;
                    scan.saw_ptr |= rest.saw_ptr;
                    p.reset_to(src.len());
                    met = true;
                }
                Err(e) => return Err(e),
                Ok((_, Stop::TypeDef)) => {}
            }
        }
    }
    scan_items(&mut p, &mut scan, usize::MAX, true)?;
    let Scan { items, saw_star, saw_ptr } = scan;
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
    Ok((Index { items, typed: saw_star && !saw_ptr, opaque: saw_ptr, globals }, met))
}

/// Where the second half's scan starts: the first line at or after the point that halves the work
/// that begins with `define ` or `!`. Function bodies are skipped line by line, while metadata (the
/// text after the last `define`, in LLVM's order) is a node every 80 bytes or so, and costs about
/// twice as much per byte (84 MB module, one scan: 65 MB of functions and globals took 63 ms, 18 MB
/// of metadata 33 ms).
fn split_point(src: &str) -> Option<usize> {
    const SLOWER_AFTER_LAST_DEFINE: usize = 2;
    let b = src.as_bytes();
    let last_define = memchr::memmem::rfind(b, b"\ndefine ").unwrap_or(0);
    let slow = b.len() - last_define;
    let half = (last_define + SLOWER_AFTER_LAST_DEFINE * slow) / 2;
    let from = if half <= last_define { half } else { last_define + (half - last_define) / SLOWER_AFTER_LAST_DEFINE };
    let mut at = from;
    loop {
        let nl = at + memchr::memchr(b'\n', b.get(at..)?)?;
        let line = b.get(nl + 1..)?;
        if line.starts_with(b"define ") || line.starts_with(b"!") {
            return Some(nl + 1);
        }
        at = nl + 1;
    }
}

/// Scans top-level entities into `out` until the text ends, or until the next entity starts at or
/// past `limit` (then `Stop::Limit`, the parser on that entity's first token). Without `own_types`
/// (the parser's type table is a scratch one), a type definition stops the scan before it
/// (`Stop::TypeDef`).
///
/// LLVM's grammar is free-form: an entity ends where its grammar ends it, whatever the lines, and the
/// next one must start there. Function bodies and metadata nodes, most of a module's text, end at
/// their closing bracket and are skipped at byte level; the rest is read token by token.
fn scan_items(p: &mut Parser<'_>, out: &mut Scan, limit: usize, own_types: bool) -> Result<Stop> {
    let src = p.src;
    let Scan { items, saw_star, saw_ptr } = out;
    loop {
        let t = p.tok;
        let start = t.start;
        if t.kind == Tok::Eof {
            return Ok(Stop::Limit);
        }
        let Some(kind) = entity_start(p) else { return Err(top_level_error(p)) };
        if start as usize >= limit {
            return Ok(Stop::Limit);
        }
        let name = match kind {
            ItemKind::Define => {
                let (body, end, name) = scan_define(p, saw_star, saw_ptr)?;
                items.push(Item { kind, span: Span::new(start, end), name, body });
                continue;
            }
            ItemKind::TypeDef if !own_types => return Ok(Stop::TypeDef),
            ItemKind::TypeDef => {
                p.bump();
                p.expect(Tok::Eq, "'=' after a type name")?;
                p.parse_type_def(&src[t.start as usize..t.end as usize])?;
                t.span()
            }
            ItemKind::Declare => scan_declare(p, saw_star, saw_ptr)?,
            ItemKind::AttrGroup => scan_attr_group(p)?,
            ItemKind::Metadata => {
                p.bump();
                // Metadata is most of a `-g` module's text: in LLVM's layout its node is found at byte
                // level, without tokens.
                if let Some(end) = metadata_end_bytes(src.as_bytes(), p.prev_end as usize) {
                    items.push(Item { kind, span: Span::new(start, end as u32), name: t.span(), body: end as u32 });
                    p.reset_to(end);
                    continue;
                }
                p.expect(Tok::Eq, "'=' after a metadata name")?;
                p.eat_word("distinct");
                p.skip_metadata()?;
                t.span()
            }
            ItemKind::Global | ItemKind::Comdat | ItemKind::Other => {
                scan_by_grammar(p, kind)?;
                if kind == ItemKind::Other { Span::default() } else { t.span() }
            }
        };
        items.push(Item { kind, span: Span::new(start, p.prev_end), name, body: p.prev_end });
    }
}

/// The kind of the entity that starts at the parser's token, if one does: a keyword (`define`,
/// `declare`, `attributes`, `target`, ...) or a name followed by `=` (`@g =`, `%T =`, `$c =`, `!0 =`,
/// `^0 =`). No entity's insides hold either, outside a function body.
fn entity_start(p: &mut Parser<'_>) -> Option<ItemKind> {
    let kind = match p.tok.kind {
        Tok::Ident => {
            return match p.cur_text() {
                "define" => Some(ItemKind::Define),
                "declare" => Some(ItemKind::Declare),
                "attributes" => Some(ItemKind::AttrGroup),
                "source_filename" | "module" | "uselistorder" | "uselistorder_bb" => Some(ItemKind::Other),
                // `target("...")` is a type.
                "target" => (p.peek().kind != Tok::LParen).then_some(ItemKind::Other),
                _ => None,
            };
        }
        Tok::Global => ItemKind::Global,
        Tok::Local => ItemKind::TypeDef,
        Tok::Comdat => ItemKind::Comdat,
        Tok::MetaName => ItemKind::Metadata,
        Tok::Summary => ItemKind::Other,
        _ => return None,
    };
    (p.peek().kind == Tok::Eq).then_some(kind)
}

fn top_level_error(p: &Parser<'_>) -> Error {
    let t = p.tok;
    let code = if t.kind == Tok::Error { "parse-token" } else { "parse-expected" };
    Error::new(code, t.span(), format!("expected a top-level entity, found {}", p.describe(t)))
        .label("not a definition, declaration, global, type or metadata")
        .help("top-level entities start with define, declare, @global =, %type =, !metadata =, attributes, target or source_filename")
}

/// Scans a global, a comdat or a module-level directive by its grammar, from its first token to its
/// last.
fn scan_by_grammar(p: &mut Parser<'_>, kind: ItemKind) -> Result<()> {
    let first = p.bump();
    match kind {
        ItemKind::Global => scan_global(p),
        ItemKind::Comdat => {
            p.expect(Tok::Eq, "'=' after a comdat name")?;
            p.expect_word("comdat")?;
            p.expect(Tok::Ident, "a comdat selection kind such as 'any'")?;
            Ok(())
        }
        _ => match p.text(first) {
            "source_filename" => {
                p.expect(Tok::Eq, "'='")?;
                p.expect(Tok::Str, "the source file name")?;
                Ok(())
            }
            "target" => {
                if !(p.eat_word("datalayout") || p.eat_word("triple")) {
                    return Err(p.err_expected("'datalayout' or 'triple'"));
                }
                p.expect(Tok::Eq, "'='")?;
                p.expect(Tok::Str, "a string")?;
                Ok(())
            }
            "module" => {
                p.expect_word("asm")?;
                p.expect(Tok::Str, "the module's inline asm string")?;
                Ok(())
            }
            // `uselistorder TYPE VALUE, { 1, 0 }`, `uselistorder_bb @f, %bb, { 1, 0 }`.
            "uselistorder" | "uselistorder_bb" => {
                while !p.at(Tok::LBrace) {
                    if matches!(p.tok.kind, Tok::Eof | Tok::Error) {
                        return Err(p.err_expected("'{' starting the use-list order"));
                    }
                    p.bump();
                }
                p.skip_group()
            }
            // A summary entry, `^0 = module: (...)`: its insides are the summary parser's business.
            _ => skip_to_next_entity(p, |_, _| {}),
        },
    }
}

/// `@g = [linkage ...] (global | constant) TYPE [INITIALIZER] (, ATTRIBUTE)*`, or an alias or ifunc
/// `@a = [linkage ...] (alias | ifunc) TYPE, TYPE CONSTANT (, ATTRIBUTE)*`, from after the name.
fn scan_global(p: &mut Parser<'_>) -> Result<()> {
    p.expect(Tok::Eq, "'=' after a global's name")?;
    // Linkage, visibility, thread_local(...), unnamed_addr, addrspace(N), externally_initialized.
    let alias = loop {
        match p.tok.kind {
            Tok::Ident if matches!(p.cur_text(), "global" | "constant") => break false,
            Tok::Ident if matches!(p.cur_text(), "alias" | "ifunc") => break true,
            Tok::Ident => {
                p.bump();
                if p.at(Tok::LParen) {
                    p.skip_group()?;
                }
            }
            _ => return Err(p.err_expected("'global', 'constant', 'alias' or 'ifunc'")),
        }
    };
    p.bump();
    let ty = p.parse_type()?;
    if alias {
        p.expect(Tok::Comma, "',' after the alias's type")?;
        // A cast or address computation implies its type: `alias i8, getelementptr (...)`.
        let implied = ["bitcast", "getelementptr", "addrspacecast", "inttoptr"].iter().any(|w| p.at_word(w));
        let ty = if implied { ty } else { p.parse_type()? };
        p.parse_const(ty)?;
    } else if !(p.at(Tok::Comma) || p.at(Tok::Eof) || entity_start(p).is_some()) {
        // Only an external global has no initializer.
        p.parse_const(ty)?;
    }
    // `, section "s"`, `, comdat($c)`, `, align 8`, `, no_sanitize_address`, `, !dbg !0`, ...
    while p.eat(Tok::Comma) {
        match p.tok.kind {
            Tok::MetaName => {
                p.bump();
                p.skip_metadata()?;
            }
            Tok::Ident => {
                p.bump();
                if p.at(Tok::LParen) {
                    p.skip_group()?;
                } else if matches!(p.tok.kind, Tok::Str | Tok::Int) {
                    p.bump();
                }
            }
            _ => return Err(p.err_expected("a global's attribute or metadata attachment")),
        }
    }
    Ok(())
}

/// Skips tokens up to the next entity's start outside brackets (or the end of the text), calling
/// `each` on each token skipped.
fn skip_to_next_entity(p: &mut Parser<'_>, mut each: impl FnMut(&Parser<'_>, Token)) -> Result<()> {
    let mut depth = 0i32;
    loop {
        if depth <= 0 && entity_start(p).is_some() {
            break;
        }
        match p.tok.kind {
            Tok::Eof => break,
            Tok::Error => return Err(p.err_expected("a valid token")),
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
            _ => {}
        }
        each(p, p.tok);
        p.bump();
    }
    if depth > 0 {
        return Err(p.err_expected("a closing bracket"));
    }
    Ok(())
}

/// Skips a `declare` up to the next entity and returns the function name's span.
fn scan_declare(p: &mut Parser<'_>, saw_star: &mut bool, saw_ptr: &mut bool) -> Result<Span> {
    p.bump();
    let mut name = Span::default();
    skip_to_next_entity(p, |p, t| match t.kind {
        Tok::Star => *saw_star = true,
        Tok::Global if name == Span::default() => name = t.span(),
        Tok::Ident if p.text(t) == "ptr" => *saw_ptr = true,
        _ => {}
    })?;
    Ok(name)
}

/// `attributes #N = { ATTRIBUTE ... }`, strictly (a malformed group is the input's error, located
/// here, not something an edit could find later). Returns the group id's span.
fn scan_attr_group(p: &mut Parser<'_>) -> Result<Span> {
    let start = p.bump().start;
    let id = p.tok;
    if !(id.kind == Tok::Hash && p.text(id).len() > 1 && p.text(id)[1..].bytes().all(|b| b.is_ascii_digit())) {
        return Err(p.err_expected("an attribute group id such as #0"));
    }
    p.bump();
    p.expect(Tok::Eq, "'=' after the attribute group id")?;
    p.expect(Tok::LBrace, "'{' starting the attribute group")?;
    let mut any = false;
    loop {
        match p.tok.kind {
            Tok::RBrace => break,
            // `nounwind`, `memory(none)`, `uwtable(sync)`, `alignstack=16`.
            Tok::Ident => {
                p.bump();
                if p.at(Tok::LParen) {
                    p.skip_group()?;
                } else if p.eat(Tok::Eq) {
                    p.expect(Tok::Int, "a number")?;
                }
            }
            // `"key"` or `"key"="value"`.
            Tok::Str => {
                p.bump();
                if p.eat(Tok::Eq) {
                    p.expect(Tok::Str, "a string attribute's value")?;
                }
            }
            _ => return Err(p.err_expected("an attribute or '}' closing the attribute group")),
        }
        any = true;
    }
    if !any {
        return Err(Error::new("parse-expected", Span::new(start, p.tok.end), "attribute group has no attributes")
            .label("empty attribute group")
            .help("LLVM rejects an empty attribute group: remove it and its references, or give it an attribute"));
    }
    p.bump();
    Ok(id.span())
}

/// Skips a `define` and returns where its body starts (the `{`) and ends, and the function name span. A body whose `{`
/// ends its line is found line by line (`body_end_by_lines`) when it can be; otherwise braces are
/// matched token by token.
fn scan_define(p: &mut Parser<'_>, saw_star: &mut bool, saw_ptr: &mut bool) -> Result<(u32, u32, Span)> {
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
    if p.tok_on_new_line
        && let Some(close) = body_end_by_lines(src, brace.end as usize)
    {
        if !*saw_star && !*saw_ptr {
            // The body decides the dialect when the header could not.
            let body = src.get(brace.end as usize..close).unwrap_or(&[]);
            *saw_star |= body.windows(2).any(|w| w[1] == b'*' && w[0] != b'"');
        }
        p.reset_to(close);
        let end = p.tok.end;
        p.bump();
        return Ok((brace.start, end, name));
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
                    return Ok((brace.start, end, name));
                }
            }
            Tok::Star => *saw_star = true,
            _ => {}
        }
        p.bump();
    }
}

/// The closing `}` of a body whose `{` ends its line (`open` is just after the `{`): the first line
/// that starts with `}`, as LLVM prints bodies, when every line before it that holds a brace
/// balances its braces itself (strings and comments aside). Then that `}` closes the body whatever
/// the layout, and only lines with a brace were read. `None` when the text does not show it (a `}`
/// ending the last instruction's line, a type or constant split over lines, no such line).
fn body_end_by_lines(b: &[u8], open: usize) -> Option<usize> {
    let first = open + memchr::memchr(b'\n', b.get(open..)?)? + 1;
    let mut line = first;
    let close = loop {
        let indent = b.get(line..)?.iter().position(|c| !matches!(c, b' ' | b'\t'))?;
        if b.get(line + indent) == Some(&b'}') {
            break line + indent;
        }
        line += memchr::memchr(b'\n', b.get(line..)?)? + 1;
    };
    let mut at = first;
    while let Some(k) = memchr::memchr2(b'{', b'}', b.get(at..close)?) {
        let hit = at + k;
        let start = memchr::memrchr(b'\n', b.get(..hit)?).map_or(0, |n| n + 1);
        let end = hit + memchr::memchr(b'\n', b.get(hit..close)?).unwrap_or(close - hit);
        if !line_balances(b.get(start..end)?) {
            return None;
        }
        at = end;
    }
    Some(close)
}

/// Do the braces of `line` close as they open, none closing before it opens, outside its strings
/// and its comment? A string that does not close on the line does not.
fn line_balances(line: &[u8]) -> bool {
    // Most lines with a brace hold no string and no comment: then only the braces are read.
    let before_strings = match memchr::memchr2(b'"', b';', line) {
        None => line,
        Some(k) if line.get(k) == Some(&b';') => line.get(..k).unwrap_or(line),
        Some(_) => return strings_and_braces_balance(line),
    };
    let mut depth = 0i32;
    for k in memchr::memchr2_iter(b'{', b'}', before_strings) {
        depth += if before_strings.get(k) == Some(&b'{') { 1 } else { -1 };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// `line_balances` for a line with a string: byte by byte.
fn strings_and_braces_balance(line: &[u8]) -> bool {
    let mut depth = 0i32;
    let mut i = 0;
    while let Some(&c) = line.get(i) {
        match c {
            b'"' => match line.get(i + 1..).and_then(|rest| memchr::memchr(b'"', rest)) {
                Some(k) => i += k + 1,
                None => return false,
            },
            b';' => break,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    depth == 0
}

/// The globals a function body calls, by a scan of its text (no parse): each global name followed by
/// `(`, with space or comments between the two. Finds calls of `@f`, and of the few constant
/// expressions written with a name and `(` after it; a name in a comment or string may count.
pub fn called_globals(body: &str) -> impl Iterator<Item = &str> {
    let b = body.as_bytes();
    memchr::memchr_iter(b'@', b).filter_map(move |k| {
        let end = match b.get(k + 1) {
            Some(b'"') => k + 2 + memchr::memchr(b'"', b.get(k + 2..)?)? + 1,
            _ => k + 1 + b.get(k + 1..)?.iter().take_while(|&&c| is_name_byte(c)).count(),
        };
        let mut at = end;
        // Space and comments before the `(`: LLVM's layout has none.
        loop {
            match b.get(at)? {
                b'(' => return body.get(k..end),
                b' ' | b'\t' | b'\r' | b'\n' => at += 1,
                b';' => at += memchr::memchr(b'\n', b.get(at..)?)?,
                _ => return None,
            }
        }
    })
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

/// `@"name"` and `@name` are the same global when the quoted form needs no quoting.
pub fn normalize_global(text: &str) -> Box<str> {
    unquoted(text).map_or_else(|| text.into(), Into::into)
}

/// `%"name"` as `%name` (or `@`), when the name needs no quotes: LLVM takes both spellings for one
/// name (a named type spelled both ways, say). `None` when the text is not such a quoted name.
pub(crate) fn unquoted(text: &str) -> Option<String> {
    let (sigil, body) = text.split_at_checked(1)?;
    let inner = body.strip_prefix('"').and_then(|b| b.strip_suffix('"'))?;
    let plain = !inner.is_empty()
        && !inner.starts_with(|c: char| c.is_ascii_digit())
        && inner.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_'));
    plain.then(|| format!("{sigil}{inner}"))
}

/// After a metadata node's name, in LLVM's layout (` = !{`, ` = distinct !DIName(`): the end of the
/// node, just past the bracket that closes it. `None` for any other layout, or malformed text.
fn metadata_end_bytes(b: &[u8], pos: usize) -> Option<usize> {
    let blanks = |i: usize| i + b.get(i..).map_or(0, |r| r.iter().take_while(|&&c| c == b' ').count());
    let mut i = blanks(pos);
    if b.get(i) != Some(&b'=') {
        return None;
    }
    i = blanks(i + 1);
    if b.get(i..)?.starts_with(b"distinct ") {
        i = blanks(i + b"distinct ".len());
    }
    if b.get(i) != Some(&b'!') {
        return None;
    }
    let name = b.get(i + 1..)?.iter().take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_').count();
    i += 1 + name;
    match (name, b.get(i)) {
        (0, Some(b'{')) | (1.., Some(b'(')) => group_end_bytes(b, i),
        _ => None,
    }
}

/// Bytes that matter when skipping a bracket group: brackets, quotes and comments.
const GROUP_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let special = b"()[]{}\";";
    while k < special.len() {
        t[special[k] as usize] = true;
        k += 1;
    }
    t
};

/// The end of the bracket group that opens at `open`: just past its closing bracket, strings and
/// comments skipped. `None` if the text ends first or a string runs past its line.
fn group_end_bytes(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0u32;
    let mut i = open;
    loop {
        i += b.get(i..)?.iter().position(|&c| GROUP_BYTES[c as usize])?;
        match b.get(i)? {
            b'"' => {
                let close = i + 1 + memchr::memchr2(b'"', b'\n', b.get(i + 1..)?)?;
                if b.get(close) != Some(&b'"') {
                    return None;
                }
                i = close;
            }
            b';' => i += memchr::memchr(b'\n', b.get(i..)?)?,
            b'(' | b'[' | b'{' => depth += 1,
            _ => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items (kind, span, name), whether the module has typed pointers, and how many globals; or the
    /// error's code and place.
    type Found = std::result::Result<(Vec<(ItemKind, Span, Span, u32)>, bool, usize), (String, Span)>;

    /// The index of `src` scanned in halves (where `split_point` finds a line) and in one go.
    fn both(src: &str) -> [Found; 2] {
        [0, usize::MAX].map(|from| {
            index_with(src, &mut TypeTable::new(), from)
                .map(|(ix, _)| {
                    let items = ix.items.iter().map(|it| (it.kind, it.span, it.name, it.body)).collect();
                    (items, ix.typed, ix.globals.len())
                })
                .map_err(|e| (e.code.to_string(), e.span))
        })
    }

    fn functions(n: usize, from: usize) -> String {
        (from..from + n).map(|k| format!("define i32 @f{k}(ptr %p) {{\nentry:\n  ret i32 {k}\n}}\n\n")).collect()
    }

    #[test]
    fn indexing_in_halves_finds_what_one_scan_finds() {
        let src = format!(
            "%T = type {{ i32, ptr }}\n@g = global i32 0\n{}declare void @d(ptr)\n{}attributes #0 = {{ nounwind }}\n!0 = !{{}}\n",
            functions(20, 0),
            functions(20, 20)
        );
        let [halves, one] = both(&src);
        assert!(index_with(&src, &mut TypeTable::new(), 0).is_ok_and(|(_, met)| met));
        let (items, typed, globals) = one.clone().expect("valid module");
        assert_eq!(items.len(), 45);
        assert!(!typed);
        assert_eq!(globals, 42);
        assert_eq!(halves, one);
    }

    #[test]
    fn typed_pointers_are_found_whichever_half_decides() {
        // No pointer in any header: the first body with a `*` decides, here only in the second half.
        let plain: String = (0..20).map(|k| format!("define i32 @p{k}() {{\nentry:\n  ret i32 {k}\n}}\n\n")).collect();
        let typed: String = (0..20)
            .map(|k| format!("define i32 @t{k}() {{\nentry:\n  %a = alloca i8*\n  ret i32 {k}\n}}\n\n"))
            .collect();
        let src = format!("{plain}{typed}");
        assert!(index_with(&src, &mut TypeTable::new(), 0).is_ok_and(|(ix, met)| met && ix.typed));
        let [halves, one] = both(&src);
        assert_eq!(halves, one);
        // A `ptr` in the first half's headers makes the module opaque, whatever a later body holds.
        let src = format!("{}{typed}", functions(20, 0));
        assert!(index_with(&src, &mut TypeTable::new(), 0).is_ok_and(|(ix, met)| met && !ix.typed));
        let [halves, one] = both(&src);
        assert_eq!(halves, one);
    }

    #[test]
    fn a_type_defined_in_the_second_half_is_still_indexed() {
        let src = format!("{}%Late = type {{ i8 }}\n{}", functions(20, 0), functions(1, 20));
        let mut types = TypeTable::new();
        let (ix, met) = index_with(&src, &mut types, 0).expect("valid module");
        assert!(!met);
        assert!(ix.items.iter().any(|it| it.kind == ItemKind::TypeDef));
        assert!(types.named_body("%Late").is_some());
        let [halves, one] = both(&src);
        assert_eq!(halves, one);
    }

    #[test]
    fn the_first_error_is_reported_whichever_half_it_is_in() {
        // Only in the second half.
        let late = format!("{}{}bogus\n", functions(10, 0), functions(10, 10));
        let [halves, one] = both(&late);
        assert!(one.is_err());
        assert_eq!(halves, one);
        // In both: the first half's comes first.
        let early = format!("{}bogus\n{}bogus\n", functions(10, 0), functions(10, 10));
        let [halves, one] = both(&early);
        assert_eq!(one.as_ref().map_err(|e| e.1.start as usize), Err(early.find("bogus").unwrap_or(0)));
        assert_eq!(halves, one);
    }

    #[test]
    fn a_define_line_inside_an_entity_is_not_where_the_halves_meet() {
        // The first line past the middle that starts with `define` is inside a string that spans
        // lines.
        let src = format!("{}!0 = !{{!\"{}\ndefine y\"}}\n{}", functions(1, 0), "c".repeat(400), functions(1, 1));
        let split = split_point(&src).expect("a define line past the middle");
        assert!(src[..split].ends_with("cc\n"));
        let [halves, one] = both(&src);
        assert_eq!(halves, one);
    }

    /// The spans' texts of the items of `src` (scanned in halves and in one go, which must agree).
    fn item_texts(src: &str) -> Vec<&str> {
        let [halves, one] = both(src);
        assert_eq!(halves, one);
        let (items, _, _) = one.expect("valid module");
        items.iter().map(|(_, span, _, _)| &src[span.start as usize..span.end as usize]).collect()
    }

    #[test]
    fn an_entity_may_run_over_lines_and_share_a_line_with_the_next() {
        let src = "@a = global i32 0\n@g = internal constant [1 x ptr]\n  [ptr @a] ; c\n@h = global i32\n  ; why\n  7, align\n  4 @i = external global i32\n!0 =\n  distinct !{} !1 = !{!0}\n$c = comdat\n any\nattributes #0 = {\n  nounwind\n  \"a\" = \"b\" }\ndeclare\n  void @d(ptr) #0 declare void @e()\n%T = type\n  { i32 } source_filename = \"x\"\n";
        assert_eq!(
            item_texts(src),
            [
                "@a = global i32 0",
                "@g = internal constant [1 x ptr]\n  [ptr @a]",
                "@h = global i32\n  ; why\n  7, align\n  4",
                "@i = external global i32",
                "!0 =\n  distinct !{}",
                "!1 = !{!0}",
                "$c = comdat\n any",
                "attributes #0 = {\n  nounwind\n  \"a\" = \"b\" }",
                "declare\n  void @d(ptr) #0",
                "declare void @e()",
                "%T = type\n  { i32 }",
                "source_filename = \"x\"",
            ]
        );
    }

    #[test]
    fn a_body_ends_at_its_closing_brace_wherever_it_is() {
        // `}` ending the last instruction's line, with the next entity after it.
        let src = "define void @f() {\nentry:\n  ret void }\ndefine void @g() {\n  ret void\n} @z = global i32 0\n";
        assert_eq!(
            item_texts(src),
            ["define void @f() {\nentry:\n  ret void }", "define void @g() {\n  ret void\n}", "@z = global i32 0"]
        );
        // A line inside the body that starts with `}` (a type split over lines), and braces in
        // strings and comments.
        let src = "define void @f() { ; {\n  %s = insertvalue { i32,\n  i32\n} undef, i32 1, 0 ; }\n  call void asm \"}\", \"\"()\n  ret void\n}\n";
        assert_eq!(item_texts(src), [src.trim_end()]);
        // The header's and the body's parts.
        let (ix, _) = index_with(src, &mut TypeTable::new(), usize::MAX).expect("valid module");
        assert_eq!(&src[ix.items[0].body as usize..][..3], "{ ;");
    }

    #[test]
    fn lines_with_braces_decide_whether_a_line_starting_with_a_brace_ends_the_body() {
        let end = |t: &str| body_end_by_lines(t.as_bytes(), 1);
        assert_eq!(end("{\n  ret void\n}\n"), Some(13));
        assert_eq!(end("{\n  %x = extractvalue { i32 } %s, 0 ; {\n  call void asm \"{\", \"\"()\n}"), Some(66));
        // Not by lines: a brace left open or closed early on a line.
        assert_eq!(end("{\n  %s = insertvalue { i32,\n} undef, i32 1, 0\n  ret void\n}"), None);
        assert_eq!(end("{\n  ret void }\ndefine void @g() {\n}"), None);
        assert_eq!(end("{\n  ret void\n"), None);
    }

    #[test]
    fn what_follows_an_entity_must_start_another() {
        fn at<'s>(src: &'s str, what: &str) -> (String, &'s str) {
            match both(src) {
                [Err(a), Err(b)] if a == b => (a.0, &src[a.1.start as usize..]),
                r => panic!("{src}: {r:?} does not fail at {what}"),
            }
        }
        assert_eq!(at("@g = global i32 0\nhello world\n", "hello"), ("parse-expected".into(), "hello world\n"));
        assert_eq!(at("@g = global i32\n  hello\n", "hello").1, "hello\n");
        assert_eq!(at("!0 = !{} !{}\n", "!{}").1, "!{}\n");
        assert_eq!(at("define void @f() {\n  ret void\n} ret void\n", "ret").1, "ret void\n");
    }

    #[test]
    fn calls_are_found_whatever_the_space_before_their_arguments() {
        let body = "{\n  call void @f(i32 1)\n  call void @g\n  ; why\n  (i32 2)\n  call void @\"q r\" (ptr @h)\n  store ptr @k, ptr %p\n}";
        assert_eq!(called_globals(body).collect::<Vec<_>>(), ["@f", "@g", "@\"q r\""]);
    }

    #[test]
    fn attribute_groups_are_read_strictly() {
        let err = |src: &str| match both(src) {
            [Err(a), Err(b)] if a == b => (a.0.clone(), src[a.1.start as usize..a.1.end as usize].to_string()),
            r => panic!("{src}: {r:?}"),
        };
        assert_eq!(err("attributes #0 = nounwind }\n"), ("parse-expected".into(), "nounwind".into()));
        assert_eq!(err("attributes #0 = { }\n"), ("parse-expected".into(), "attributes #0 = { }".into()));
        assert_eq!(err("attributes #0 = { nounwind\n!0 = !{}\n").1, "!0");
        assert_eq!(err("attributes 0 = { nounwind }\n").1, "0");
        assert_eq!(err("attributes #0 = { align=x }\n").1, "x");
        assert!(both("attributes #0 = { nounwind memory(none) align=8 \"a\" \"b\"=\"c\" }\n")[0].is_ok());
    }

    #[test]
    fn a_metadata_node_ends_at_its_closing_bracket_outside_strings_and_comments() {
        let end = |t: &str| metadata_end_bytes(t.as_bytes(), 2);
        assert_eq!(end("!1 = !{!2}  \n!3"), Some(10));
        assert_eq!(end("!0 = distinct !DILocation(line: 1, scope: !{})\n"), Some(46));
        // Brackets inside a string or a comment do not count.
        assert_eq!(end("!0 = !{!\"(}\" ; }\n}\n"), Some(18));
        // Another entity on the same line is not the node's.
        assert_eq!(end("!0 = !{} !1 = !{}"), Some(8));
        // A string may not run past its line, and the file may not end inside one or in brackets.
        assert_eq!(end("!0 = !{!\"a\nb\"}\n"), None);
        assert_eq!(end("!0 = !{!\"a"), None);
        assert_eq!(end("!0 = !{!1,\n"), None);
        // Another layout is left to the tokens.
        assert_eq!(end("!0 =\n  !{}"), None);
        assert_eq!(end("!0 = ! {}"), None);
    }
}
