//! Debug info for split functions. Each part gets its own DISubprogram, a copy of the coroutine's,
//! together with copies of the metadata local to it (lexical blocks, locations, variables, labels),
//! so that the cloned instructions keep their locations and the verifier's "one subprogram per
//! function" rule holds.
//!
//! Metadata is indexed once per module: numbered nodes, and for each node the local nodes whose
//! `scope:` or `inlinedAt:` names it, so finding what belongs to a subprogram costs the size of
//! that set, not of the module.

use llir::ir::{Extra, Function, Piece, Text, ValueKind};
use llir::lexer::{Lexer, Tok};
use llir::{ItemKind, Module};
use rustc_hash::FxHashMap;

/// Numbered metadata of a module, with the local-scope tree.
pub struct MetaIndex {
    /// `!N` → item index.
    nodes: FxHashMap<u32, usize>,
    /// Node → local nodes that name it as `scope:` or `inlinedAt:`.
    children: FxHashMap<u32, Vec<u32>>,
    /// The first id above every node of the module.
    free: u32,
}

const LOCAL_KINDS: &[&str] =
    &["!DILexicalBlock(", "!DILexicalBlockFile(", "!DILocation(", "!DILocalVariable(", "!DILabel("];

fn field_ref(text: &str, field: &str) -> Option<u32> {
    let p = text.find(field)?;
    let rest = text[p + field.len()..].trim_start();
    let rest = rest.strip_prefix('!')?;
    let end = rest.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

impl MetaIndex {
    pub fn build(m: &Module) -> MetaIndex {
        let mut nodes = FxHashMap::default();
        let mut children: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        let mut max = 0u32;
        for (i, it) in m.items.iter().enumerate() {
            if it.kind != ItemKind::Metadata {
                continue;
            }
            let Some(id) = m.text(it.name).strip_prefix('!').and_then(|n| n.parse::<u32>().ok()) else { continue };
            max = max.max(id);
            nodes.insert(id, i);
            let text = m.item_text(i);
            if LOCAL_KINDS.iter().any(|k| text.contains(k)) {
                for field in ["scope:", "inlinedAt:"] {
                    if let Some(parent) = field_ref(text, field) {
                        children.entry(parent).or_default().push(id);
                    }
                }
            }
        }
        MetaIndex { nodes, children, free: max + 1 }
    }

    /// The first metadata id no node of the module uses; new nodes are numbered from here.
    pub fn first_free_id(&self) -> u32 {
        self.free
    }

    /// Copies subprogram `sp` and its local metadata for a new function named `linkage_name`.
    /// Returns the new subprogram's id, the id map, and the new node definitions.
    /// New ids are taken from `next_id`, which the caller owns (each worker has a range of its own).
    pub fn clone_subprogram(
        &self,
        m: &Module,
        sp: u32,
        linkage_name: &str,
        next_id: &mut u32,
    ) -> Option<(u32, FxHashMap<u32, u32>, Vec<String>)> {
        let sp_item = *self.nodes.get(&sp)?;
        if !m.item_text(sp_item).contains("!DISubprogram(") {
            return None;
        }
        let mut local = vec![sp];
        let mut in_local: rustc_hash::FxHashSet<u32> = rustc_hash::FxHashSet::default();
        in_local.insert(sp);
        let mut k = 0;
        while k < local.len() {
            if let Some(ch) = self.children.get(&local[k]) {
                for &c in ch {
                    if in_local.insert(c) {
                        local.push(c);
                    }
                }
            }
            k += 1;
        }
        let mut map = FxHashMap::default();
        for &id in &local {
            map.insert(id, *next_id);
            *next_id += 1;
        }
        let mut defs = Vec::with_capacity(local.len());
        for &id in &local {
            let Some(&item) = self.nodes.get(&id) else { continue };
            let text = m.item_text(item);
            let Some(eq) = text.find('=') else { continue };
            let mut body = remap_refs(&text[eq + 1..], &map);
            if id == sp {
                body = set_field(&body, "linkageName:", &format!("\"{linkage_name}\""));
                // The variables stay listed on the original; `declaration:` must stay for methods
                // (a definition scoped in an ODR type needs it).
                body = drop_field(&body, "retainedNodes:");
            }
            defs.push(format!("!{} ={}", map[&id], body));
        }
        Some((map[&sp], map, defs))
    }
}

impl MetaIndex {
    /// Also copies the nodes `g` refers to (such as `!llvm.loop` nodes holding locations) that
    /// depend on an already copied node, so the part refers only to its own subprogram's metadata.
    pub fn clone_dependents(
        &self,
        m: &Module,
        g: &Function,
        src: &str,
        map: &mut FxHashMap<u32, u32>,
        defs: &mut Vec<String>,
        next_id: &mut u32,
    ) {
        let mut roots = Vec::new();
        for (_, i) in g.inst_iter() {
            for p in &g.insts[i].tmpl {
                if let Piece::Text(t) = p {
                    roots.extend(refs_of(t.get(src)));
                }
            }
            if let Extra::Phi { tail } = &g.insts[i].extra {
                roots.extend(refs_of(tail.get(src)));
            }
        }
        let mut memo: FxHashMap<u32, bool> = FxHashMap::default();
        let mut order = Vec::new();
        for r in roots {
            self.depends(m, r, map, &mut memo, &mut order, 0);
        }
        let new: Vec<u32> =
            order.into_iter().filter(|id| memo.get(id) == Some(&true) && !map.contains_key(id)).collect();
        for &id in &new {
            map.insert(id, *next_id);
            *next_id += 1;
        }
        for id in new {
            let Some(&item) = self.nodes.get(&id) else { continue };
            let text = m.item_text(item);
            let Some(eq) = text.find('=') else { continue };
            defs.push(format!("!{} ={}", map[&id], remap_refs(&text[eq + 1..], map)));
        }
    }

    fn depends(
        &self,
        m: &Module,
        id: u32,
        map: &FxHashMap<u32, u32>,
        memo: &mut FxHashMap<u32, bool>,
        order: &mut Vec<u32>,
        depth: u32,
    ) -> bool {
        if map.contains_key(&id) {
            return true;
        }
        if let Some(&d) = memo.get(&id) {
            return d;
        }
        memo.insert(id, false);
        let Some(&item) = self.nodes.get(&id) else { return false };
        if depth > 64 {
            return false;
        }
        let text = m.item_text(item);
        let body = text.find('=').map_or(text, |e| &text[e + 1..]);
        let mut d = false;
        for r in refs_of(body) {
            if r != id && self.depends(m, r, map, memo, order, depth + 1) {
                d = true;
            }
        }
        memo.insert(id, d);
        order.push(id);
        d
    }
}

/// The numbered metadata references in `text`.
fn refs_of(text: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut lx = Lexer::new(text, 0, text.len());
    loop {
        let t = lx.next_token();
        if t.kind == Tok::Eof {
            break;
        }
        if t.kind == Tok::MetaName
            && let Ok(n) = text[t.start as usize + 1..t.end as usize].parse::<u32>()
        {
            out.push(n);
        }
    }
    out
}

/// Replaces `!N` references found in `map`, leaving strings and everything else as they are.
pub fn remap_refs(text: &str, map: &FxHashMap<u32, u32>) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut lx = Lexer::new(text, 0, text.len());
    let mut pos = 0usize;
    loop {
        let t = lx.next_token();
        if t.kind == Tok::Eof {
            break;
        }
        if t.kind == Tok::MetaName {
            let s = &text[t.start as usize..t.end as usize];
            if let Some(n) = s[1..].parse::<u32>().ok().and_then(|n| map.get(&n)) {
                out.push_str(&text[pos..t.start as usize]);
                out.push_str(&format!("!{n}"));
                pos = t.end as usize;
            }
        }
    }
    out.push_str(&text[pos..]);
    out
}

fn field_span(body: &str, field: &str) -> Option<(usize, usize)> {
    let p = body.find(field)?;
    // The value runs to the next top-level comma or the closing parenthesis.
    let b = body.as_bytes();
    let mut i = p + field.len();
    let mut depth = 0i32;
    let mut in_str = false;
    while i < b.len() {
        match b[i] {
            b'"' => in_str = !in_str,
            b'(' if !in_str => depth += 1,
            b')' if !in_str => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            b',' if !in_str && depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    Some((p, i))
}

fn set_field(body: &str, field: &str, value: &str) -> String {
    match field_span(body, field) {
        Some((a, e)) => format!("{}{field} {value}{}", &body[..a], &body[e..]),
        None => match body.rfind(')') {
            Some(close) => format!("{}, {field} {value}{}", &body[..close], &body[close..]),
            None => body.to_string(),
        },
    }
}

fn drop_field(body: &str, field: &str) -> String {
    match field_span(body, field) {
        Some((a, e)) => {
            // Remove the preceding ", " too.
            let start = body[..a].trim_end().strip_suffix(',').map_or(a, |s| s.len());
            format!("{}{}", &body[..start], &body[e..])
        }
        None => body.to_string(),
    }
}

/// The `!dbg !N` of a function header suffix.
pub fn header_subprogram(suffix: &str) -> Option<u32> {
    let p = suffix.find("!dbg !")?;
    let rest = &suffix[p + 6..];
    let end = rest.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Points every metadata reference of `g` through `map` and gives it subprogram `new_sp`.
pub fn remap_function(g: &mut Function, src: &str, map: &FxHashMap<u32, u32>, new_sp: u32) {
    let suffix = g.header.suffix.get(src).to_string();
    let base = match suffix.find("!dbg") {
        Some(p) => {
            let rest = &suffix[p + 4..];
            let rest = rest.trim_start();
            let skip = rest.find(char::is_whitespace).unwrap_or(rest.len());
            format!("{}{}", &suffix[..p], &rest[skip..])
        }
        None => suffix,
    };
    g.header.suffix = Text::own(format!("{} !dbg !{new_sp} ", base.trim_end()));
    let insts: Vec<_> = g.inst_iter().map(|(_, i)| i).collect();
    for i in insts {
        for p in g.insts[i].tmpl.iter_mut() {
            if let Piece::Text(t) = p {
                let s = t.get(src);
                if s.contains('!') {
                    *t = Text::own(remap_refs(s, map));
                }
            }
        }
        if let Extra::Phi { tail } = &mut g.insts[i].extra {
            let s = tail.get(src);
            if s.contains('!') {
                *tail = Text::own(remap_refs(s, map));
            }
        }
    }
}

/// Debug uses of values this function no longer defines become `poison`, so the records stay
/// valid (the variable shows as unavailable there).
pub fn poison_dead_debug_operands(g: &mut Function) {
    let insts: Vec<_> = g.inst_iter().map(|(_, i)| i).collect();
    for i in insts {
        if !g.insts[i].is_debug() {
            continue;
        }
        for k in 0..g.insts[i].args.len() {
            let v = g.insts[i].args[k];
            let dead = match g.values[v].kind {
                ValueKind::Inst(d) => g.insts[d].block.is_none(),
                ValueKind::Forward => true,
                _ => false,
            };
            if dead {
                let ty = g.values[v].ty;
                let p = g.const_value(ty, "poison");
                g.insts[i].args[k] = p;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaps_references_but_not_strings() {
        let mut map = FxHashMap::default();
        map.insert(12, 40);
        assert_eq!(remap_refs(", !dbg !12, !tbaa !3", &map), ", !dbg !40, !tbaa !3");
        assert_eq!(remap_refs("!{!\"!12\", !12}", &map), "!{!\"!12\", !40}");
    }

    #[test]
    fn edits_fields() {
        let b = " distinct !DISubprogram(name: \"f\", linkageName: \"_Z1fv\", unit: !0, retainedNodes: !7)";
        let b2 = set_field(b, "linkageName:", "\"_Z1fv.resume\"");
        assert!(b2.contains("linkageName: \"_Z1fv.resume\","), "{b2}");
        let b3 = drop_field(&b2, "retainedNodes:");
        assert!(b3.ends_with("unit: !0)"), "{b3}");
        assert_eq!(header_subprogram(" #0 personality ptr @p !dbg !12 "), Some(12));
    }
}
