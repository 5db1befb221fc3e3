//! IR to text. Untouched entities are copied from the source byte for byte; a function printed from the
//! IR walks each instruction's template, substituting operand names, and renumbers unnamed values and
//! blocks in order so the result is valid however the body was edited.

use crate::ir::{Block, ConstPiece, DebugView, Extra, Function, Opcode, Piece, Value, ValueKind};
use crate::module::Module;
use crate::types::TypeTable;
use cranelift_entity::SecondaryMap;
use rustc_hash::{FxHashMap, FxHashSet};

/// Changes to apply while printing a module: replaced or removed items, and new text inserted after an
/// item or at the end.
#[derive(Default)]
pub struct Edits {
    /// Item index → the text printed in its place (a function printed from its edited IR, say).
    pub replace: FxHashMap<usize, String>,
    /// Items left out.
    pub remove: FxHashSet<usize>,
    /// Item index → texts printed after it, each on lines of its own.
    pub insert_after: FxHashMap<usize, Vec<String>>,
    /// Texts printed after the last item.
    pub append: Vec<String>,
    /// Text substitutions in the comments and blank lines just before an item (such as the
    /// `; Function Attrs:` line LLVM prints above a function).
    pub gap_replace: FxHashMap<usize, Vec<(String, String)>>,
}

impl Edits {
    /// No edit at all: printing gives the input back.
    pub fn is_empty(&self) -> bool {
        self.replace.is_empty()
            && self.remove.is_empty()
            && self.insert_after.is_empty()
            && self.append.is_empty()
            && self.gap_replace.is_empty()
    }
}

/// Prints the module with `edits` applied; everything else is copied verbatim, including comments and
/// whitespace between entities.
pub fn print_module(m: &Module, edits: &Edits) -> String {
    if edits.is_empty() {
        return m.src.clone();
    }
    let extra: usize = edits.replace.values().map(|s| s.len()).sum::<usize>()
        + edits.insert_after.values().flatten().map(|s| s.len() + 2).sum::<usize>()
        + edits.append.iter().map(|s| s.len() + 2).sum::<usize>();
    let mut out = String::with_capacity(m.src.len() + extra);
    let done: std::io::Result<()> = emit_module(m, edits, &mut |s| {
        out.push_str(s);
        Ok(())
    });
    // Appending to a string cannot fail.
    let _ = done;
    out
}

/// Like `print_module`, but writes the text to `w` piece by piece instead of building it in memory
/// (the printed module can be several times the size of the edits). Buffer `w`: the pieces are small.
pub fn write_module(m: &Module, edits: &Edits, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    if edits.is_empty() {
        return w.write_all(m.src.as_bytes());
    }
    emit_module(m, edits, &mut |s| w.write_all(s.as_bytes()))
}

/// The module's text with `edits` applied, as a sequence of pieces handed to `put`.
fn emit_module(m: &Module, edits: &Edits, put: &mut dyn FnMut(&str) -> std::io::Result<()>) -> std::io::Result<()> {
    // Whether the text so far ends in a newline (for `append`).
    let ends_nl = std::cell::Cell::new(false);
    let mut out = |s: &str| -> std::io::Result<()> {
        if let Some(&c) = s.as_bytes().last() {
            ends_nl.set(c == b'\n');
            put(s)?;
        }
        Ok(())
    };
    let mut pos = 0usize;
    for (i, it) in m.items.iter().enumerate() {
        let (s, e) = (it.span.start as usize, it.span.end as usize);
        if let Some(subs) = edits.gap_replace.get(&i) {
            let mut gap = m.src.get(pos..s).unwrap_or("").to_string();
            for (a, b) in subs {
                gap = gap.replace(a.as_str(), b);
            }
            out(&gap)?;
            pos = s;
        }
        if edits.remove.contains(&i) {
            out(m.src.get(pos..s).unwrap_or(""))?;
            // Drop the rest of the line too, so a removed declaration leaves no blank line.
            let bytes = m.src.as_bytes();
            let mut q = e;
            while q < bytes.len() && matches!(bytes[q], b' ' | b'\t' | b'\r') {
                q += 1;
            }
            if q < bytes.len() && bytes[q] == b'\n' {
                q += 1;
            }
            pos = q;
        } else {
            out(m.src.get(pos..s).unwrap_or(""))?;
            match edits.replace.get(&i) {
                Some(r) => out(r)?,
                None => out(m.src.get(s..e).unwrap_or(""))?,
            }
            pos = e;
        }
        if let Some(ins) = edits.insert_after.get(&i) {
            for t in ins {
                out("\n\n")?;
                out(t)?;
            }
        }
    }
    out(m.src.get(pos..).unwrap_or(""))?;
    for t in &edits.append {
        if !ends_nl.get() {
            out("\n")?;
        }
        out("\n")?;
        out(t)?;
        out("\n")?;
    }
    Ok(())
}

/// Appends the decimal digits of `n`, without the formatting machinery (slot numbers are printed for
/// most operands of clang's output).
pub(crate) fn push_u32(out: &mut String, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut k = buf.len();
    loop {
        k -= 1;
        buf[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[k..]).unwrap_or(""));
}

/// Is this spelling a slot number (`12`) rather than a name?
pub fn is_numbered(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// Slot numbers for unnamed values and blocks, in LLVM's order: parameters, then each block followed by
/// the results defined in it. Source numbers are kept when they still increase and either have no gaps
/// or came with gaps from the source (LLVM 19+ accepts gaps; LLVM 14 needs 0, 1, 2, ...). Keeping
/// them matters for `blockaddress(@f, %3)` references held outside the function.
pub struct Slots {
    values: SecondaryMap<Value, u32>,
    blocks: SecondaryMap<Block, u32>,
}

enum Slot {
    V(Value),
    B(Block),
}

impl Slots {
    /// The number a block is printed with, if it is unnamed.
    pub fn block(&self, b: Block) -> u32 {
        self.blocks[b]
    }

    /// The numbers `f`'s unnamed values and blocks print with.
    pub fn compute(f: &Function) -> Slots {
        let mut order: Vec<(Slot, Option<u32>)> = Vec::new();
        let num = |n: &Option<crate::ir::Name>| -> Option<Option<u32>> {
            match n {
                None => Some(None),
                Some(s) if is_numbered(s) => Some(s.parse().ok()),
                Some(_) => None,
            }
        };
        for &p in &f.params {
            if let Some(n) = num(&f.values[p].name) {
                order.push((Slot::V(p), n));
            }
        }
        for &b in &f.layout {
            if let Some(n) = num(&f.blocks[b].name) {
                order.push((Slot::B(b), n));
            }
            for &i in &f.blocks[b].insts {
                if let Some(r) = f.insts[i].result
                    && let Some(n) = num(&f.values[r].name)
                {
                    order.push((Slot::V(r), n));
                }
            }
        }
        let mut next = 0u32;
        let mut sequential = true;
        let mut keep = true;
        for (_, n) in &order {
            match *n {
                Some(n) if n >= next => {
                    sequential &= n == next;
                    next = n + 1;
                }
                _ => {
                    keep = false;
                    break;
                }
            }
        }
        keep &= sequential || f.numbering_gaps;
        let mut s = Slots { values: SecondaryMap::new(), blocks: SecondaryMap::new() };
        for (k, (slot, n)) in order.into_iter().enumerate() {
            let n = if keep { n.unwrap_or(k as u32) } else { k as u32 };
            match slot {
                Slot::V(v) => s.values[v] = n,
                Slot::B(b) => s.blocks[b] = n,
            }
        }
        s
    }
}

pub(crate) struct FunctionPrinter<'a> {
    pub f: &'a Function,
    pub types: &'a TypeTable,
    pub src: &'a str,
    slots: Slots,
}

impl<'a> FunctionPrinter<'a> {
    pub fn new(f: &'a Function, types: &'a TypeTable, src: &'a str) -> Self {
        FunctionPrinter { f, types, src, slots: Slots::compute(f) }
    }

    pub fn value_ref(&self, out: &mut String, v: Value) {
        let d = &self.f.values[v];
        match &d.kind {
            ValueKind::Const(t) => out.push_str(t.get(self.src)),
            ValueKind::BlockConst(pieces) => {
                for p in pieces.iter() {
                    match p {
                        ConstPiece::Text(t) => out.push_str(t.get(self.src)),
                        ConstPiece::Block(b) => self.block_ref(out, *b),
                        ConstPiece::Func => out.push_str(&self.f.name),
                    }
                }
            }
            _ => match &d.name {
                Some(n) if !is_numbered(n) => {
                    out.push('%');
                    out.push_str(n);
                }
                _ => {
                    out.push('%');
                    push_u32(out, self.slots.values[v]);
                }
            },
        }
    }

    pub fn block_ref(&self, out: &mut String, b: Block) {
        match &self.f.blocks[b].name {
            Some(n) if !is_numbered(n) => {
                out.push('%');
                out.push_str(n);
            }
            _ => {
                out.push('%');
                push_u32(out, self.slots.blocks[b]);
            }
        }
    }

    /// The printed size, about: each instruction's source line (its span, which clones keep), 48
    /// bytes for one a pass made, a label per block. Measured on clang's `-g` IR and the diamonds,
    /// the text came to 0.80 to 1.23 times this (median 0.95); an eighth more is reserved, so that
    /// a buffer rarely doubles, and what is reserved stays little more than what is used (the
    /// texts are kept until the module is written).
    fn estimate(&self) -> usize {
        let f = self.f;
        let mut n = 128usize;
        for &b in &f.layout {
            n += 12;
            for &i in &f.blocks[b].insts {
                let sp = f.insts[i].span;
                n += if sp.end > sp.start { (sp.end - sp.start) as usize + 3 } else { 48 };
            }
        }
        n
    }

    pub fn print(&self) -> String {
        let f = self.f;
        let est = self.estimate();
        let mut out = String::with_capacity(est + est / 8);
        let h = &f.header;
        out.push_str(h.prefix.get(self.src));
        self.types.write(&mut out, h.ret);
        out.push(' ');
        out.push_str(&f.name);
        out.push('(');
        for (i, (p, &v)) in h.params.iter().zip(&f.params).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.types.write(&mut out, p.ty);
            let attrs = p.attrs.get(self.src);
            if !attrs.is_empty() {
                out.push(' ');
                out.push_str(attrs);
            }
            out.push(' ');
            self.value_ref(&mut out, v);
        }
        if h.vararg {
            if !h.params.is_empty() {
                out.push_str(", ");
            }
            out.push_str("...");
        }
        out.push(')');
        let suffix = h.suffix.get(self.src);
        out.push_str(suffix);
        if !suffix.ends_with(' ') {
            out.push(' ');
        }
        out.push_str("{\n");
        for (bi, &b) in f.layout.iter().enumerate() {
            if bi > 0 {
                out.push('\n');
            }
            match &f.blocks[b].name {
                Some(n) if !is_numbered(n) => {
                    out.push_str(n);
                    out.push_str(":\n");
                }
                _ if bi > 0 => {
                    push_u32(&mut out, self.slots.blocks[b]);
                    out.push_str(":\n");
                }
                _ => {}
            }
            for &i in &f.blocks[b].insts {
                self.inst(&mut out, i);
            }
        }
        out.push('}');
        out
    }

    pub fn inst(&self, out: &mut String, i: crate::ir::Inst) {
        let d = &self.f.insts[i];
        if d.op == Opcode::DbgRecord {
            out.push_str("    ");
        } else {
            out.push_str("  ");
        }
        if let Some(r) = d.result {
            self.value_ref(out, r);
            out.push_str(" = ");
        }
        let is_phi = matches!(d.extra, Extra::Phi);
        let (head, tail) = match d.tmpl.split_last() {
            Some((last, rest)) if is_phi => (rest, Some(last)),
            _ => (&d.tmpl[..], None),
        };
        for p in head {
            match p {
                Piece::Text(t) => self.text(out, t.get(self.src)),
                Piece::Arg(k) => match d.args.get(*k as usize) {
                    Some(&v) => self.value_ref(out, v),
                    None => out.push_str("<bad operand>"),
                },
                Piece::Block(k) => match d.blocks.get(*k as usize) {
                    Some(&b) => self.block_ref(out, b),
                    None => out.push_str("<bad block>"),
                },
            }
        }
        if is_phi {
            if !head.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            for (k, (&v, &b)) in d.args.iter().zip(&d.blocks).enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str("[ ");
                self.value_ref(out, v);
                out.push_str(", ");
                self.block_ref(out, b);
                out.push_str(" ]");
            }
            if let Some(Piece::Text(t)) = tail {
                self.text(out, t.get(self.src));
            }
        }
        self.added_location(out, i);
        out.push('\n');
    }

    /// `, !dbg !N` for a location a pass gave instruction `i` (`Function::added_locations`).
    fn added_location(&self, out: &mut String, i: crate::ir::Inst) {
        let n = self.f.added_locations[i];
        let n = match &self.f.debug_view {
            _ if n == 0 => return,
            DebugView::WithoutLocations => return,
            DebugView::AsWritten => n,
            DebugView::Renumbered(map) => map.get(&n).copied().unwrap_or(n),
        };
        out.push_str(", !dbg !");
        push_u32(out, n);
    }

    /// Instruction text, its metadata references as the function's debug view says.
    fn text(&self, out: &mut String, t: &str) {
        match &self.f.debug_view {
            DebugView::AsWritten => out.push_str(t),
            DebugView::Renumbered(map) => crate::metadata::push_remapped(out, t, map),
            DebugView::WithoutLocations if t.contains("!dbg") => crate::metadata::push_without_dbg(out, t),
            DebugView::WithoutLocations => out.push_str(t),
        }
    }
}

/// Prints a function from its IR.
pub fn print_function(f: &Function, types: &TypeTable, src: &str) -> String {
    FunctionPrinter::new(f, types, src).print()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::Module;

    #[test]
    fn a_debug_view_renumbers_or_drops_locations_as_it_prints() {
        let src = "define void @f() !dbg !4 {\nentry:\n  call void @g(), !dbg !6, !tbaa !9\n  #dbg_value(i32 0, !7, !DIExpression(), !6)\n  ret void, !dbg !8\n}\ndeclare void @g()\n";
        let mut m = Module::parse(src.to_string()).map_err(|e| e.0).expect("parses");
        let mut f = m.parse_function(0).expect("function");
        let map: rustc_hash::FxHashMap<u32, u32> = [(6, 106), (7, 107), (8, 108)].into_iter().collect();
        f.debug_view = DebugView::Renumbered(std::sync::Arc::new(map));
        let out = print_function(&f, &m.types, &m.src);
        assert!(out.contains("call void @g(), !dbg !106, !tbaa !9\n"), "{out}");
        assert!(out.contains("#dbg_value(i32 0, !107, !DIExpression(), !106)\n"), "{out}");
        assert!(out.contains("ret void, !dbg !108\n"), "{out}");
        f.debug_view = DebugView::WithoutLocations;
        let out = print_function(&f, &m.types, &m.src);
        assert!(out.contains("call void @g(), !tbaa !9\n") && out.contains("ret void\n"), "{out}");
    }

    #[test]
    fn locations_a_pass_added_print_after_the_text_as_the_debug_view_says() {
        let src = "define void @f() !dbg !4 {\nentry:\n  call void @g(), !dbg !6\n  ret void\n}\ndeclare void @g()\n";
        let mut m = Module::parse(src.to_string()).map_err(|e| e.0).expect("parses");
        let mut f = m.parse_function(0).expect("function");
        let entry = f.entry().expect("entry");
        let ret = f.blocks[entry].insts[1];
        f.added_locations[ret] = 6;
        assert!(print_function(&f, &m.types, &m.src).contains("  ret void, !dbg !6\n"));
        let map: rustc_hash::FxHashMap<u32, u32> = [(6, 106)].into_iter().collect();
        f.debug_view = DebugView::Renumbered(std::sync::Arc::new(map));
        let out = print_function(&f, &m.types, &m.src);
        assert!(out.contains("  ret void, !dbg !106\n") && out.contains("@g(), !dbg !106\n"), "{out}");
        f.debug_view = DebugView::WithoutLocations;
        assert!(print_function(&f, &m.types, &m.src).contains("  ret void\n"));
    }
}
