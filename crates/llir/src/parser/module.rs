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

/// Modules from this size up are indexed in two halves at once.
const INDEX_IN_HALVES: usize = 16 << 20;

pub fn index(src: &str, types: &mut TypeTable) -> Result<Index> {
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
    Ok((Index { items, typed: saw_star && !saw_ptr, globals }, met))
}

/// Where the second half's scan starts: the first line at or after the point that halves the work
/// that begins with `define ` or `!`. Function bodies are skipped line by line, while metadata (the
/// text after the last `define`, in LLVM's order) is an entity every 80 bytes or so, and costs about
/// four times as much per byte (84 MB module: 60 MB of functions took 22 ms, 6 MB of functions and
/// 18 MB of metadata 42 ms).
fn split_point(src: &str) -> Option<usize> {
    const SLOWER_AFTER_LAST_DEFINE: usize = 4;
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

/// Scans top-level entities into `out` until the text ends, or until the next token starts at or
/// past `limit` (then `Stop::Limit`, the parser on that token). Without `own_types` (the parser's
/// type table is a scratch one), a type definition stops the scan before it (`Stop::TypeDef`).
fn scan_items(p: &mut Parser<'_>, out: &mut Scan, limit: usize, own_types: bool) -> Result<Stop> {
    let src = p.src;
    let Scan { items, saw_star, saw_ptr } = out;
    loop {
        let t = p.tok;
        let start = t.start;
        if start as usize >= limit {
            return Ok(Stop::Limit);
        }
        let kind = match t.kind {
            Tok::Eof => return Ok(Stop::Limit),
            Tok::Ident => match p.text(t) {
                "define" => {
                    let (end, name) = scan_define(p, saw_star, saw_ptr)?;
                    items.push(Item { kind: ItemKind::Define, span: Span::new(start, end), name });
                    continue;
                }
                "declare" => ItemKind::Declare,
                "attributes" => ItemKind::AttrGroup,
                "source_filename" | "target" | "module" | "uselistorder" | "uselistorder_bb" => ItemKind::Other,
                _ => return Err(top_level_error(p)),
            },
            Tok::Global => ItemKind::Global,
            Tok::Local if !own_types => return Ok(Stop::TypeDef),
            Tok::Local => ItemKind::TypeDef,
            Tok::Comdat => ItemKind::Comdat,
            Tok::MetaName => ItemKind::Metadata,
            Tok::Summary => ItemKind::Other,
            _ => return Err(top_level_error(p)),
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
                Tok::Star => *saw_star = true,
                Tok::Global if kind == ItemKind::Declare && name == Span::default() => name = p.tok.span(),
                Tok::Ident if p.cur_text() == "ptr" => *saw_ptr = true,
                _ => {}
            }
            p.bump();
        }
        if depth > 0 {
            return Err(p.err_expected("a closing bracket"));
        }
        items.push(Item { kind, span: Span::new(start, p.prev_end), name });
    }
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
            let nl = match memchr::memchr(b'\n', src.get(pos..).unwrap_or(&[])) {
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
/// position to resume scanning from; `None` if the file ends inside a bracket or string, or a string
/// runs past its line. Jumps from one quote, semicolon or newline to the next (memchr), counting the
/// brackets in between a run at a time: metadata is most of a `-g` module's text.
fn skip_entity_bytes(b: &[u8], mut pos: usize) -> Option<(usize, usize)> {
    let mut depth = 0i32;
    let mut last = pos;
    loop {
        let rest = b.get(pos..)?;
        let k = memchr::memchr3(b'"', b';', b'\n', rest).map_or(b.len(), |o| pos + o);
        let run = b.get(pos..k)?;
        depth += bracket_balance(run);
        if let Some(j) = run.iter().rposition(|c| !matches!(c, b' ' | b'\t' | b'\r')) {
            last = pos + j + 1;
        }
        match b.get(k) {
            None => return if depth > 0 { None } else { Some((last, k)) },
            Some(b'"') => {
                let close = k + 1 + memchr::memchr2(b'"', b'\n', b.get(k + 1..)?)?;
                if b.get(close) != Some(&b'"') {
                    return None;
                }
                last = close + 1;
                pos = close + 1;
            }
            // A comment runs to the end of its line.
            Some(b';') => pos = memchr::memchr(b'\n', b.get(k..)?).map_or(b.len(), |o| k + o),
            Some(_) => {
                if depth <= 0 {
                    return Some((last, k));
                }
                pos = k + 1;
            }
        }
    }
}

/// Opening minus closing brackets in `run`, in a form the compiler vectorises.
fn bracket_balance(run: &[u8]) -> i32 {
    run.iter().fold(0i32, |d, &c| {
        d + i32::from(c == b'(' || c == b'[' || c == b'{') - i32::from(c == b')' || c == b']' || c == b'}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items (kind, span, name), whether the module has typed pointers, and how many globals; or the
    /// error's code and place.
    type Found = std::result::Result<(Vec<(ItemKind, Span, Span)>, bool, usize), (String, Span)>;

    /// The index of `src` scanned in halves (where `split_point` finds a line) and in one go.
    fn both(src: &str) -> [Found; 2] {
        [0, usize::MAX].map(|from| {
            index_with(src, &mut TypeTable::new(), from)
                .map(|(ix, _)| {
                    let items = ix.items.iter().map(|it| (it.kind, it.span, it.name)).collect();
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

    #[test]
    fn an_entity_ends_at_the_first_line_end_outside_brackets_strings_and_comments() {
        let end = |t: &str| skip_entity_bytes(t.as_bytes(), 0);
        // (end of the last non-blank byte, where scanning resumes)
        assert_eq!(end("!1 = !{!2}  \n!3"), Some((10, 12)));
        assert_eq!(end("@g = global [2 x i8] [\n  i8 1,\n  i8 2\n]\n"), Some((39, 39)));
        // Brackets inside a string or a comment do not count; a comment is not part of the text.
        assert_eq!(end("!0 = !{!\"(\"} ; (\n!1"), Some((12, 16)));
        assert_eq!(end("@g = global i32 0 ; trailing\n"), Some((17, 28)));
        // A string may not run past its line, and the file may not end inside one or in brackets.
        assert_eq!(end("!0 = !{!\"a\nb\"}\n"), None);
        assert_eq!(end("!0 = !{!\"a"), None);
        assert_eq!(end("!0 = !{!1,\n"), None);
        // The text may end right after the entity.
        assert_eq!(end("!0 = !{}"), Some((8, 8)));
    }
}
