//! Numbered metadata references (`!12`) in instruction and node text: finding them, renumbering
//! them, and dropping `!dbg` attachments. A plain byte scan that skips strings and comments the way
//! the lexer does: it runs over every instruction of a printed copy, where the full lexer was the
//! cost.

use rustc_hash::FxHashMap;

/// Calls `each(start, end, n)` for every numbered metadata reference `!n` in `text` (`start..end` is
/// its span).
pub fn scan_refs(text: &str, mut each: impl FnMut(usize, usize, u32)) {
    let b = text.as_bytes();
    let mut i = 0;
    // Straight to the next byte that matters: most of the text is names, types and operands.
    while let Some(k) = b.get(i..).and_then(|rest| memchr::memchr3(b'"', b';', b'!', rest)) {
        i += k;
        let Some(&c) = b.get(i) else { break };
        match c {
            b'"' => {
                // To the closing quote; an unterminated string ends at the line's end.
                i += 1;
                while b.get(i).is_some_and(|&c| c != b'"' && c != b'\n') {
                    i += 1;
                }
                if b.get(i) == Some(&b'"') {
                    i += 1;
                }
            }
            b';' => {
                while b.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
            }
            b'!' => {
                let start = i;
                i += 1;
                // The lexer's metadata name: name characters and backslashes.
                while b
                    .get(i)
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_' | b'\\'))
                {
                    i += 1;
                }
                if let Some(n) = text.get(start + 1..i).and_then(parse_digits) {
                    each(start, i, n);
                }
            }
            _ => i += 1,
        }
    }
}

/// A non-empty run of decimal digits that fits in a u32.
fn parse_digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Appends `text` to `out` with each reference found in `map` renumbered.
pub(crate) fn push_remapped(out: &mut String, text: &str, map: &FxHashMap<u32, u32>) {
    // Most of an instruction's text is operand gaps with no metadata at all.
    if !text.contains('!') {
        out.push_str(text);
        return;
    }
    let mut pos = 0usize;
    scan_refs(text, |start, end, n| {
        if let Some(&to) = map.get(&n) {
            out.push_str(text.get(pos..start).unwrap_or(""));
            out.push('!');
            crate::print::push_u32(out, to);
            pos = end;
        }
    });
    out.push_str(text.get(pos..).unwrap_or(""));
}

/// `text` with each reference found in `map` renumbered.
pub fn remap_refs(text: &str, map: &FxHashMap<u32, u32>) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_remapped(&mut out, text, map);
    out
}

/// Appends `text` to `out` without its `, !dbg !N` (or inline `, !dbg !DILocation(...)`)
/// attachments.
pub fn push_without_dbg(out: &mut String, text: &str) {
    let mut from = 0;
    while let Some((comma, node)) = text.get(from..).and_then(|rest| find_attachment(rest, "!dbg")) {
        out.push_str(text.get(from..from + comma).unwrap_or(""));
        from += node.end;
    }
    out.push_str(text.get(from..).unwrap_or(""));
}

fn is_meta_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-' | b'$' | b'\\')
}

fn skip_space(b: &[u8], at: usize) -> usize {
    at + b.get(at..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_whitespace()).count())
}

/// The first metadata attachment `, !kind NODE` of `kind` (such as `!dbg`) in instruction text, any
/// space between its tokens: where its comma is, and its node's span (`!12`, or an inline
/// `!DILocation(...)`).
pub fn find_attachment(text: &str, kind: &str) -> Option<(usize, std::ops::Range<usize>)> {
    let b = text.as_bytes();
    // An instruction's text holds few `!`s: looking at each is cheaper than building a searcher.
    let k = kind.as_bytes();
    let mut at_kind = memchr::memchr_iter(k.first().copied().unwrap_or(b'!'), b).filter(|&at| b[at..].starts_with(k));
    at_kind.find_map(|at| {
        let comma = b.get(..at)?.iter().rposition(|c| !c.is_ascii_whitespace())?;
        if b.get(comma) != Some(&b',') || b.get(at + kind.len()).is_some_and(|&c| is_meta_name_char(c)) {
            return None;
        }
        let start = skip_space(b, at + kind.len());
        if b.get(start) != Some(&b'!') {
            return None;
        }
        let name_end = start + 1 + b.get(start + 1..)?.iter().take_while(|&&c| is_meta_name_char(c)).count();
        let paren = skip_space(b, name_end);
        if b.get(paren) != Some(&b'(') {
            return Some((comma, start..name_end));
        }
        let mut depth = 0;
        let mut end = paren;
        while let Some(&c) = b.get(end) {
            end += 1;
            if c == b'(' {
                depth += 1;
            } else if c == b')' {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
        }
        Some((comma, start..end))
    })
}

/// Where the metadata attachments of instruction text start: the first `,` followed (across any
/// space) by `!` and a kind name.
pub fn first_attachment(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    memchr::memchr_iter(b',', b).find(|&k| {
        let at = skip_space(b, k + 1);
        b.get(at) == Some(&b'!') && b.get(at + 1).is_some_and(u8::is_ascii_alphabetic)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaps_references_but_not_strings_or_comments() {
        let mut map = FxHashMap::default();
        map.insert(12, 40);
        assert_eq!(remap_refs(", !dbg !12, !tbaa !3", &map), ", !dbg !40, !tbaa !3");
        assert_eq!(remap_refs("!{!\"!12\", !12} ; !12", &map), "!{!\"!12\", !40} ; !12");
        assert_eq!(remap_refs("!123, !1.2, !12", &map), "!123, !1.2, !40");
    }

    #[test]
    fn drops_dbg_attachments_only() {
        let mut out = String::new();
        push_without_dbg(&mut out, "x, !dbg !12, !tbaa !3");
        assert_eq!(out, "x, !tbaa !3");
        out.clear();
        push_without_dbg(&mut out, "y, !dbg !DILocation(line: 1, scope: !2)");
        assert_eq!(out, "y");
        out.clear();
        push_without_dbg(&mut out, "ret void");
        assert_eq!(out, "ret void");
        // Any layout.
        out.clear();
        push_without_dbg(&mut out, "z\n  ,\t!dbg\n  !12 , !tbaa !3");
        assert_eq!(out, "z\n   , !tbaa !3");
        out.clear();
        push_without_dbg(&mut out, "w, !dbg !DILocation (line: 1), !dbg.x !4");
        assert_eq!(out, "w, !dbg.x !4");
        assert_eq!(first_attachment("call void @f(ptr %x, !12)\n  ,\n !tbaa !3"), Some(28));
        assert_eq!(find_attachment("x , !prof !2 ,!dbg\n!7", "!dbg"), Some((13, 19..21)));
    }
}
