//! Debug info for split functions. Each part gets its own DISubprogram, a copy of the coroutine's,
//! together with copies of the metadata local to it (lexical blocks, locations, variables, labels),
//! so that the cloned instructions keep their locations and the verifier's "one subprogram per
//! function" rule holds.
//!
//! Metadata is indexed once per module: numbered nodes, and for each node the local nodes whose
//! `scope:` or `inlinedAt:` names it, so finding what belongs to a subprogram costs the size of
//! that set, not of the module.

use llir::ir::{DebugView, Function, Piece, Text, ValueKind};
use llir::metadata::{remap_refs, scan_refs};
use llir::{ItemKind, Module};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// A subprogram and its local metadata (`MetaIndex::subprogram_tree`).
pub struct SubprogramTree {
    sp: u32,
    /// The subprogram, then its local nodes breadth first.
    order: Vec<u32>,
    members: FxHashSet<u32>,
}

/// Numbered metadata of a module, with the local-scope tree.
pub struct MetaIndex {
    /// `!N` → item index.
    nodes: FxHashMap<u32, usize>,
    /// Node → local nodes that name it as `scope:` or `inlinedAt:`.
    children: FxHashMap<u32, Vec<u32>>,
}

const LOCAL_KINDS: &[&str] = &["!DILexicalBlock", "!DILexicalBlockFile", "!DILocation", "!DILocalVariable", "!DILabel"];

/// The kind of a metadata definition `!N = [distinct] !DIKind(...)`, as `!DIKind`: the node's own,
/// not one spelled inside it.
fn node_kind(text: &str) -> Option<&str> {
    let rest = text.split_once('=')?.1.trim_start();
    let rest = rest.strip_prefix("distinct").map_or(rest, str::trim_start);
    if !rest.starts_with("!DI") {
        return None;
    }
    let name = 1 + rest.get(1..)?.bytes().take_while(u8::is_ascii_alphanumeric).count();
    rest.get(name..)?.trim_start().starts_with('(').then(|| &rest[..name])
}

/// The text of metadata item `i`, without the comments a free layout may put inside it (the field
/// edits below read strings and brackets, which a comment could hold).
fn node_text(m: &Module, i: usize) -> std::borrow::Cow<'_, str> {
    llir::lexer::without_comments(m.item_text(i))
}

fn field_ref(text: &str, field: &memchr::memmem::Finder<'_>) -> Option<u32> {
    let p = field.find(text.as_bytes())?;
    let rest = text.get(p + field.needle().len()..)?.trim_start();
    let rest = rest.strip_prefix('!')?;
    let end = rest.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

impl MetaIndex {
    pub fn build(m: &Module) -> MetaIndex {
        // The fields a local node names its parent by, searched for in every one (most of a `-g`
        // module's nodes are locations).
        let fields = [memchr::memmem::Finder::new("scope:"), memchr::memmem::Finder::new("inlinedAt:")];
        let count = m.items.iter().filter(|it| it.kind == ItemKind::Metadata).count();
        let mut nodes = FxHashMap::with_capacity_and_hasher(count, Default::default());
        let mut children: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for (i, it) in m.items.iter().enumerate() {
            if it.kind != ItemKind::Metadata {
                continue;
            }
            let Some(id) = m.text(it.name).strip_prefix('!').and_then(|n| n.parse::<u32>().ok()) else { continue };
            nodes.insert(id, i);
            let text = node_text(m, i);
            if node_kind(&text).is_some_and(|k| LOCAL_KINDS.contains(&k)) {
                for field in &fields {
                    if let Some(parent) = field_ref(&text, field) {
                        children.entry(parent).or_default().push(id);
                    }
                }
            }
        }
        MetaIndex { nodes, children }
    }

    /// The local metadata of subprogram `sp` (lexical blocks, locations, variables, labels under
    /// it), in a fixed order; `None` when `sp` is not a DISubprogram. Computed once per coroutine
    /// and shared by its parts.
    pub fn subprogram_tree(&self, m: &Module, sp: u32) -> Option<SubprogramTree> {
        let sp_item = *self.nodes.get(&sp)?;
        if node_kind(&node_text(m, sp_item)) != Some("!DISubprogram") {
            return None;
        }
        let mut order = vec![sp];
        let mut members: FxHashSet<u32> = FxHashSet::default();
        members.insert(sp);
        let mut k = 0;
        while let Some(&id) = order.get(k) {
            if let Some(ch) = self.children.get(&id) {
                for &c in ch {
                    if members.insert(c) {
                        order.push(c);
                    }
                }
            }
            k += 1;
        }
        Some(SubprogramTree { sp, order, members })
    }

    /// Copies the subprogram of `tree` for part `g`, named `linkage_name`, with the local nodes `g`
    /// refers to (and the local nodes those refer to: scopes, inlined-at locations), and the other
    /// nodes `g` refers to that depend on a copied one (such as `!llvm.loop` nodes holding
    /// locations). A part that runs only cleanups refers to few of the body's locations: copying
    /// them all made most of the new metadata. Returns the new subprogram's id, the id map, and the
    /// new node definitions; ids are taken from `next_id`, which the caller owns (each worker has a
    /// range of its own).
    pub fn clone_subprogram(
        &self,
        m: &Module,
        tree: &SubprogramTree,
        linkage_name: &str,
        g: &Function,
        src: &str,
        next_id: &mut u32,
    ) -> (u32, FxHashMap<u32, u32>, Vec<String>) {
        let mut roots = Vec::new();
        for (_, i) in g.inst_iter() {
            for p in g.insts[i].tmpl.iter() {
                if let Piece::Text(t) = p {
                    scan_refs(t.get(src), |_, _, n| roots.push(n));
                }
            }
        }
        let mut needed: FxHashSet<u32> = FxHashSet::default();
        needed.insert(tree.sp);
        let mut work: Vec<u32> = roots.iter().copied().filter(|r| tree.members.contains(r)).collect();
        while let Some(id) = work.pop() {
            if !needed.insert(id) {
                continue;
            }
            let Some(&item) = self.nodes.get(&id) else { continue };
            let text = node_text(m, item);
            let body = text.find('=').map_or(&*text, |e| &text[e + 1..]);
            scan_refs(body, |_, _, r| {
                if tree.members.contains(&r) && !needed.contains(&r) {
                    work.push(r);
                }
            });
        }
        let local: Vec<u32> = tree.order.iter().copied().filter(|id| needed.contains(id)).collect();
        let mut map = FxHashMap::default();
        for &id in &local {
            map.insert(id, *next_id);
            *next_id += 1;
        }
        let mut defs = Vec::with_capacity(local.len());
        for &id in &local {
            let Some(&item) = self.nodes.get(&id) else { continue };
            let text = node_text(m, item);
            let Some(eq) = text.find('=') else { continue };
            let mut body = remap_refs(&text[eq + 1..], &map);
            if id == tree.sp {
                body = set_field(&body, "linkageName:", &format!("\"{linkage_name}\""));
                // The variables stay listed on the original; `declaration:` must stay for methods
                // (a definition scoped in an ODR type needs it).
                body = drop_field(&body, "retainedNodes:");
            }
            defs.push(format!("!{} ={}", map[&id], body));
        }
        let new_sp = map.get(&tree.sp).copied().unwrap_or(tree.sp);
        self.clone_dependents(m, roots, &mut map, &mut defs, next_id);
        (new_sp, map, defs)
    }

    /// Copies the nodes among `roots` (and what they refer to) that depend on an already copied
    /// node, so the part refers only to its own subprogram's metadata.
    fn clone_dependents(
        &self,
        m: &Module,
        roots: Vec<u32>,
        map: &mut FxHashMap<u32, u32>,
        defs: &mut Vec<String>,
        next_id: &mut u32,
    ) {
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
            let text = node_text(m, item);
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
        let text = node_text(m, item);
        let body = text.find('=').map_or(&*text, |e| &text[e + 1..]);
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
    scan_refs(text, |_, _, n| out.push(n));
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
    let p = suffix.find("!dbg")?;
    let rest = suffix.get(p + 4..)?.trim_start().strip_prefix('!')?;
    let end = rest.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Points every metadata reference of `g` through `map` (as it is printed) and gives it subprogram
/// `new_sp`.
pub fn remap_function(g: &mut Function, src: &str, map: FxHashMap<u32, u32>, new_sp: u32) {
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
    g.debug_view = DebugView::Renumbered(Arc::new(map));
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
    use llir::Module;

    #[test]
    fn a_node_kind_is_its_own_not_one_spelled_inside_it() {
        assert_eq!(node_kind("!7 = !DILocation(line: 3, scope: !5)"), Some("!DILocation"));
        assert_eq!(node_kind("!5 = distinct !DILexicalBlock(scope: !4, line: 2)"), Some("!DILexicalBlock"));
        assert_eq!(node_kind("!9 = !{!\"!DILocation(\", !7}"), None);
        assert_eq!(node_kind("!4 = distinct !DISubprogram(name: \"f\", scope: !1)"), Some("!DISubprogram"));
        // Any layout.
        assert_eq!(node_kind("!4 =\n distinct\t!DISubprogram (name: \"f\")"), Some("!DISubprogram"));
    }

    #[test]
    fn a_part_gets_copies_of_the_local_nodes_it_refers_to_only() {
        let src = "define void @f() !dbg !4 {\nentry:\n  call void @g(), !dbg !6\n  br label %l, !llvm.loop !9\nl:\n  ret void, !dbg !7\n}\ndeclare void @g()\n!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1)\n!1 = !DIFile(filename: \"a.c\", directory: \"/\")\n!2 = !{}\n!4 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, unit: !0, retainedNodes: !2)\n!5 = distinct !DILexicalBlock(scope: !4, file: !1, line: 2)\n!6 = !DILocation(line: 3, scope: !5)\n!7 = !DILocation(line: 4, scope: !4)\n!8 = !DILocation(line: 5, scope: !4)\n!9 = distinct !{!9, !10}\n!10 = !DILocation(line: 6, scope: !4)\n";
        let mut m = Module::parse(src.to_string()).map_err(|e| e.0).expect("parses");
        let i = m.definitions().next().expect("a define");
        let f = m.parse_function(i).expect("function");
        let meta = MetaIndex::build(&m);
        let tree = meta.subprogram_tree(&m, 4).expect("a subprogram");
        let mut next = 100;
        let (sp, map, defs) = meta.clone_subprogram(&m, &tree, "f.resume", &f, &m.src, &mut next);
        // The subprogram, the block !6 is scoped in, the two locations used, and the loop node with
        // the location it holds; not !8, which nothing in the part names.
        let mut copied: Vec<u32> = map.keys().copied().collect();
        copied.sort_unstable();
        assert_eq!(copied, [4, 5, 6, 7, 9, 10]);
        assert_eq!(defs.len(), 6);
        assert_eq!(sp, map[&4]);
        let six = defs.iter().find(|d| d.starts_with(&format!("!{} =", map[&6]))).expect("!6 copied");
        assert!(six.contains(&format!("scope: !{}", map[&5])), "{six}");
        let top = defs.iter().find(|d| d.starts_with(&format!("!{sp} ="))).expect("subprogram copied");
        assert!(top.contains("linkageName: \"f.resume\"") && !top.contains("retainedNodes"), "{top}");
    }

    #[test]
    fn edits_fields() {
        let b = " distinct !DISubprogram(name: \"f\", linkageName: \"_Z1fv\", unit: !0, retainedNodes: !7)";
        let b2 = set_field(b, "linkageName:", "\"_Z1fv.resume\"");
        assert!(b2.contains("linkageName: \"_Z1fv.resume\","), "{b2}");
        let b3 = drop_field(&b2, "retainedNodes:");
        assert!(b3.ends_with("unit: !0)"), "{b3}");
        assert_eq!(header_subprogram(" #0 personality ptr @p !dbg !12 "), Some(12));
        assert_eq!(header_subprogram(" #0\n  !dbg\n\t!12 "), Some(12));
    }
}
