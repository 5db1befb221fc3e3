//! Type sizes and alignments from the module's `target datalayout`, following LangRef's rules and
//! defaults. Frame layout needs these: a frame field's offset and the frame's size are exactly what
//! LLVM would compute for the same types.

use crate::types::{Type, TypeData, TypeTable};
use rustc_hash::FxHashMap;

/// A module's `target datalayout`: the sizes and alignments of its types. The default is LangRef's
/// layout for a string that says nothing.
#[derive(Clone, Debug)]
pub struct DataLayout {
    big_endian: bool,
    /// (bit width, abi align bytes) for integers, sorted by width.
    ints: Vec<(u32, u64)>,
    floats: FxHashMap<u32, u64>,
    vectors: FxHashMap<u32, u64>,
    /// address space → (size bytes, abi align bytes).
    pointers: FxHashMap<u32, (u64, u64)>,
    aggregate_align: u64,
}

impl Default for DataLayout {
    fn default() -> Self {
        let mut floats = FxHashMap::default();
        floats.insert(16, 2);
        floats.insert(32, 4);
        floats.insert(64, 8);
        floats.insert(128, 16);
        let mut vectors = FxHashMap::default();
        vectors.insert(64, 8);
        vectors.insert(128, 16);
        let mut pointers = FxHashMap::default();
        pointers.insert(0, (8, 8));
        DataLayout {
            big_endian: false,
            ints: vec![(1, 1), (8, 1), (16, 2), (32, 4), (64, 4)],
            floats,
            vectors,
            pointers,
            aggregate_align: 1,
        }
    }
}

fn bits_to_bytes(b: &str) -> Option<u64> {
    b.parse::<u64>().ok().map(|v| v / 8)
}

impl DataLayout {
    /// Parses a datalayout string; unknown or malformed components keep LangRef's defaults.
    pub fn parse(s: &str) -> DataLayout {
        let mut dl = DataLayout::default();
        for spec in s.split('-').filter(|x| !x.is_empty()) {
            let (head, rest) = spec.split_at(1);
            let parts: Vec<&str> = rest.split(':').collect();
            match head {
                "e" => dl.big_endian = false,
                "E" => dl.big_endian = true,
                "p" => {
                    // p[n]:size:abi[:pref[:idx]]
                    let aspace = parts.first().and_then(|a| if a.is_empty() { Some(0) } else { a.parse().ok() });
                    if let (Some(a), Some(sz), Some(al)) = (
                        aspace,
                        parts.get(1).and_then(|x| bits_to_bytes(x)),
                        parts.get(2).and_then(|x| bits_to_bytes(x)),
                    ) {
                        dl.pointers.insert(a, (sz, al.max(1)));
                    }
                }
                "i" => {
                    if let (Some(w), Some(al)) =
                        (parts.first().and_then(|x| x.parse::<u32>().ok()), parts.get(1).and_then(|x| bits_to_bytes(x)))
                    {
                        dl.ints.retain(|(bw, _)| *bw != w);
                        dl.ints.push((w, al.max(1)));
                        dl.ints.sort_unstable();
                    }
                }
                "f" => {
                    if let (Some(w), Some(al)) =
                        (parts.first().and_then(|x| x.parse::<u32>().ok()), parts.get(1).and_then(|x| bits_to_bytes(x)))
                    {
                        dl.floats.insert(w, al.max(1));
                    }
                }
                "v" => {
                    if let (Some(w), Some(al)) =
                        (parts.first().and_then(|x| x.parse::<u32>().ok()), parts.get(1).and_then(|x| bits_to_bytes(x)))
                    {
                        dl.vectors.insert(w, al.max(1));
                    }
                }
                "a" => {
                    if let Some(al) = parts.get(1).and_then(|x| bits_to_bytes(x)) {
                        dl.aggregate_align = al.max(1);
                    }
                }
                _ => {}
            }
        }
        dl
    }

    /// Reads `target datalayout = "..."` out of module text (its tokens may be apart, on other
    /// lines and with comments between, as the parser accepts them).
    pub fn from_module_text(src: &str) -> DataLayout {
        let mut at = 0;
        for line in src.split_inclusive('\n') {
            let l = line.trim_start();
            if l.starts_with("target")
                && let Some(s) = src.get(at + line.len() - l.len()..).and_then(layout_string)
            {
                return DataLayout::parse(s);
            }
            if l.starts_with("define") {
                break;
            }
            at += line.len();
        }
        DataLayout::default()
    }

    /// The layout says `E`.
    pub fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// The size in bytes of a pointer in address space `aspace` (of address space 0 when the layout
    /// does not name it).
    pub fn pointer_size(&self, aspace: u32) -> u64 {
        self.pointers.get(&aspace).or_else(|| self.pointers.get(&0)).map_or(8, |p| p.0)
    }

    fn int_align(&self, bits: u32) -> u64 {
        // The first specified width at least as wide, else the widest.
        self.ints.iter().find(|(w, _)| *w >= bits).or(self.ints.last()).map_or(1, |x| x.1)
    }

    /// Bytes a value of `t` occupies in memory, including tail padding (LLVM's alloc size).
    pub fn alloc_size(&self, types: &TypeTable, t: Type) -> u64 {
        let s = self.store_size(types, t);
        let a = self.abi_align(types, t);
        s.div_ceil(a) * a
    }

    /// Bytes written by a store of `t` (LLVM's store size).
    pub fn store_size(&self, types: &TypeTable, t: Type) -> u64 {
        match types.get(types.resolve(t)) {
            TypeData::Int(n) => (*n as u64).div_ceil(8),
            TypeData::Half | TypeData::BFloat => 2,
            TypeData::Float => 4,
            TypeData::Double | TypeData::X86Mmx => 8,
            TypeData::X86Fp80 => 10,
            TypeData::Fp128 | TypeData::PpcFp128 => 16,
            TypeData::X86Amx => 1024,
            TypeData::Ptr(a) | TypeData::TypedPtr(_, a) => self.pointer_size(*a),
            TypeData::Vector { len, elem, .. } => {
                let eb = self.bit_size(types, *elem);
                (eb * len).div_ceil(8)
            }
            TypeData::Array(n, e) => n * self.alloc_size(types, *e),
            TypeData::Struct { packed, fields } => {
                let off = self.walk_fields(types, *packed, fields, |_, _| {});
                if *packed {
                    off
                } else {
                    let max_align = fields.iter().map(|&f| self.abi_align(types, f)).max().unwrap_or(1);
                    off.div_ceil(max_align) * max_align
                }
            }
            _ => 0,
        }
    }

    /// Lays out a struct's fields in order: `at(k, offset)` for the start of each, then the end of
    /// the last one (before tail padding).
    fn walk_fields(&self, types: &TypeTable, packed: bool, fields: &[Type], mut at: impl FnMut(usize, u64)) -> u64 {
        let mut off = 0u64;
        for (k, &f) in fields.iter().enumerate() {
            let a = if packed { 1 } else { self.abi_align(types, f) };
            off = off.div_ceil(a) * a;
            at(k, off);
            off += self.alloc_size(types, f);
        }
        off
    }

    /// The byte offset of field `idx` of struct type `t`.
    pub fn field_offset(&self, types: &TypeTable, t: Type, idx: usize) -> Option<u64> {
        let TypeData::Struct { packed, fields } = types.get(types.resolve(t)) else { return None };
        let mut found = None;
        self.walk_fields(types, *packed, fields, |k, off| {
            if k == idx {
                found = Some(off);
            }
        });
        found
    }

    /// The byte offset `getelementptr source, ptr %p, idx...` adds to `%p`, for constant indices
    /// into structs and arrays; `None` for anything else (vectors, overflow).
    pub fn gep_offset(&self, types: &TypeTable, source: Type, idx: &[i64]) -> Option<i64> {
        let mut off = 0i64;
        let mut ty = source;
        for (k, &x) in idx.iter().enumerate() {
            let step = if k == 0 {
                x.checked_mul(i64::try_from(self.alloc_size(types, ty)).ok()?)?
            } else {
                match types.get(types.resolve(ty)) {
                    TypeData::Struct { fields, .. } => {
                        let i = usize::try_from(x).ok()?;
                        let field = *fields.get(i)?;
                        let o = i64::try_from(self.field_offset(types, ty, i)?).ok()?;
                        ty = field;
                        o
                    }
                    TypeData::Array(_, e) => {
                        let e = *e;
                        ty = e;
                        x.checked_mul(i64::try_from(self.alloc_size(types, e)).ok()?)?
                    }
                    _ => return None,
                }
            };
            off = off.checked_add(step)?;
        }
        Some(off)
    }

    fn bit_size(&self, types: &TypeTable, t: Type) -> u64 {
        match types.get(types.resolve(t)) {
            TypeData::Int(n) => *n as u64,
            TypeData::X86Fp80 => 80,
            _ => self.store_size(types, t) * 8,
        }
    }

    /// The ABI alignment in bytes of `t`: where `alloca`, a struct field or an array element of type
    /// `t` is placed.
    pub fn abi_align(&self, types: &TypeTable, t: Type) -> u64 {
        match types.get(types.resolve(t)) {
            TypeData::Int(n) => self.int_align(*n),
            TypeData::Half | TypeData::BFloat => *self.floats.get(&16).unwrap_or(&2),
            TypeData::Float => *self.floats.get(&32).unwrap_or(&4),
            TypeData::Double => *self.floats.get(&64).unwrap_or(&8),
            TypeData::X86Fp80 => *self.floats.get(&80).unwrap_or(&16),
            TypeData::Fp128 | TypeData::PpcFp128 => *self.floats.get(&128).unwrap_or(&16),
            TypeData::X86Mmx => 8,
            TypeData::X86Amx => 64,
            TypeData::Ptr(a) | TypeData::TypedPtr(_, a) => {
                self.pointers.get(a).or_else(|| self.pointers.get(&0)).map_or(8, |p| p.1)
            }
            TypeData::Vector { len, elem, .. } => {
                let bits = (self.bit_size(types, *elem) * len) as u32;
                match self.vectors.get(&bits) {
                    Some(&a) => a,
                    // Natural alignment: the size rounded up to a power of two.
                    None => (bits as u64).div_ceil(8).next_power_of_two().max(1),
                }
            }
            TypeData::Array(_, e) => self.abi_align(types, *e),
            TypeData::Struct { packed, fields } => {
                if *packed {
                    1
                } else {
                    fields.iter().map(|&f| self.abi_align(types, f)).max().unwrap_or(1).max(self.aggregate_align)
                }
            }
            _ => 1,
        }
    }
}

/// The string of a `target datalayout = "..."` that `text` starts with.
fn layout_string(text: &str) -> Option<&str> {
    let rest = skip_blank(text.strip_prefix("target")?).strip_prefix("datalayout")?;
    let rest = skip_blank(skip_blank(rest).strip_prefix('=')?).strip_prefix('"')?;
    rest.find('"').and_then(|q| rest.get(..q))
}

/// `s` after its leading white space and comments.
fn skip_blank(mut s: &str) -> &str {
    loop {
        s = s.trim_start();
        match s.strip_prefix(';') {
            Some(c) => s = c.find('\n').and_then(|n| c.get(n..)).unwrap_or(""),
            None => return s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X86_64: &str = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";

    /// The parser accepts the directive's tokens apart (a reflowed module, tests/reflow): read so,
    /// the layout is the same. It used to be the default one, where an i128 is 4-aligned.
    #[test]
    fn the_datalayout_directive_is_read_across_lines_and_comments() {
        let mut t = TypeTable::new();
        let i128 = t.int(128);
        let spread = format!(
            "source_filename = \"x\"\ntarget\tdatalayout\t= ; a comment\n  \"{X86_64}\"\ndefine void @f() {{\n"
        );
        let one = format!("target datalayout = \"{X86_64}\"\n");
        for src in [spread.as_str(), one.as_str()] {
            assert_eq!(DataLayout::from_module_text(src).abi_align(&t, i128), 16, "{src}");
        }
        let after = format!("define void @f() {{\n}}\ntarget datalayout = \"{X86_64}\"\n");
        assert_eq!(DataLayout::from_module_text(&after).abi_align(&t, i128), DataLayout::default().abi_align(&t, i128));
        assert_eq!(DataLayout::from_module_text("target triple = \"x\"\ntarget").abi_align(&t, i128), 4);
    }

    #[test]
    fn x86_64_scalars() {
        let dl = DataLayout::parse(X86_64);
        let mut t = TypeTable::new();
        let i128 = t.int(128);
        let i37 = t.int(37);
        let f80 = t.intern(TypeData::X86Fp80);
        assert_eq!((dl.alloc_size(&t, t.i64), dl.abi_align(&t, t.i64)), (8, 8));
        assert_eq!((dl.alloc_size(&t, i128), dl.abi_align(&t, i128)), (16, 16));
        assert_eq!((dl.alloc_size(&t, i37), dl.abi_align(&t, i37)), (8, 8));
        assert_eq!((dl.alloc_size(&t, f80), dl.abi_align(&t, f80)), (16, 16));
        assert_eq!(dl.alloc_size(&t, t.ptr), 8);
    }

    #[test]
    fn structs_pad_and_packed_do_not() {
        let dl = DataLayout::parse(X86_64);
        let mut t = TypeTable::new();
        let s = t.intern(TypeData::Struct { packed: false, fields: vec![t.i8, t.i32, t.i8].into() });
        let p = t.intern(TypeData::Struct { packed: true, fields: vec![t.i8, t.i32, t.i8].into() });
        let a = t.intern(TypeData::Array(3, s));
        let v = t.intern(TypeData::Vector { scalable: false, len: 3, elem: t.i32 });
        assert_eq!((dl.alloc_size(&t, s), dl.abi_align(&t, s)), (12, 4));
        assert_eq!((dl.alloc_size(&t, p), dl.abi_align(&t, p)), (6, 1));
        assert_eq!(dl.alloc_size(&t, a), 36);
        assert_eq!((dl.store_size(&t, v), dl.abi_align(&t, v)), (12, 16));
        assert_eq!(dl.field_offset(&t, s, 1), Some(4));
        assert_eq!(dl.field_offset(&t, p, 2), Some(5));
        assert_eq!(dl.field_offset(&t, s, 3), None);
        // The third element's second field: 2 * 12 + 4.
        assert_eq!(dl.gep_offset(&t, a, &[0, 2, 1]), Some(28));
        assert_eq!(dl.gep_offset(&t, s, &[1, 2]), Some(20));
        assert_eq!(dl.gep_offset(&t, v, &[0, 1]), None, "vector elements are not bytes apart in general");
    }
}
