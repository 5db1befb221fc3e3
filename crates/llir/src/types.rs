//! Interned LLVM types. A `Type` is a small handle into the module's `TypeTable`; equal types have equal
//! handles, so type checks are integer compares. Named structs are interned by name and their bodies are
//! kept beside the table, which is what lets a named struct refer to itself.

use rustc_hash::FxHashMap;
use std::fmt::Write;

/// A type: a handle into the [`TypeTable`] that made it, meaningless in another table (a clone of
/// the table keeps the handles it had).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Type(u32);

/// What a [`Type`] is. The unit variants are LLVM's types of that keyword (`X86Fp80` is
/// `x86_fp80`, `BFloat` is `bfloat`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeData {
    /// `void`.
    Void,
    /// `label`.
    Label,
    /// `token`.
    Token,
    /// `metadata`.
    Metadata,
    /// `x86_amx`.
    X86Amx,
    /// `x86_mmx` (LLVM 19 and older).
    X86Mmx,
    /// `half`.
    Half,
    /// `bfloat`.
    BFloat,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `x86_fp80`.
    X86Fp80,
    /// `fp128`.
    Fp128,
    /// `ppc_fp128`.
    PpcFp128,
    /// `iN`, with its width in bits.
    Int(u32),
    /// Opaque pointer `ptr` in an address space.
    Ptr(u32),
    /// Typed pointer `T*` (LLVM 14 and older), with its address space.
    TypedPtr(Type, u32),
    /// `<N x T>`, or `<vscale x N x T>` when scalable.
    Vector {
        /// `vscale x`: the length is a multiple of N known only at run time.
        scalable: bool,
        /// N.
        len: u64,
        /// T.
        elem: Type,
    },
    /// `[N x T]`.
    Array(u64, Type),
    /// A literal struct `{ T, ... }`, or `<{ T, ... }>` when packed.
    Struct {
        /// No padding between fields.
        packed: bool,
        /// The field types, in order.
        fields: Box<[Type]>,
    },
    /// A named struct, by its source spelling including the `%`.
    Named(Box<str>),
    /// A function type `R (P, ...)`.
    Func {
        /// The return type.
        ret: Type,
        /// The parameter types.
        params: Box<[Type]>,
        /// The parameter list ends with `...`.
        vararg: bool,
    },
    /// `target("name", T..., N...)`, kept as its source text.
    TargetExt(Box<str>),
}

/// The body of a named struct type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NamedBody {
    /// `%T = type opaque`: no body known.
    Opaque,
    /// A literal struct type (`Struct`), or any other type for `%T = type i32` style aliases.
    Body(Type),
}

/// The interning table of a module's types, and its named structs' bodies. The common types are
/// interned up front and kept in fields (`tt.i32`), so passes need not look them up.
#[derive(Clone)]
pub struct TypeTable {
    data: Vec<TypeData>,
    map: FxHashMap<TypeData, Type>,
    named: FxHashMap<Box<str>, NamedBody>,
    /// `void`.
    pub void: Type,
    /// `i1`.
    pub i1: Type,
    /// `i8`.
    pub i8: Type,
    /// `i32`.
    pub i32: Type,
    /// `i64`.
    pub i64: Type,
    /// `ptr` (address space 0).
    pub ptr: Type,
    /// `label`.
    pub label: Type,
    /// `token`.
    pub token: Type,
    /// `metadata`.
    pub metadata: Type,
    /// The module spells pointers `ptr`: a `T*` it also has means `ptr` too, as LLVM 17 and later
    /// read it.
    pub stars_are_ptr: bool,
}

impl Default for TypeTable {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeTable {
    /// A table holding the common types only.
    pub fn new() -> Self {
        let mut t = TypeTable {
            data: Vec::new(),
            map: FxHashMap::default(),
            named: FxHashMap::default(),
            void: Type(0),
            i1: Type(0),
            i8: Type(0),
            i32: Type(0),
            i64: Type(0),
            ptr: Type(0),
            label: Type(0),
            token: Type(0),
            metadata: Type(0),
            stars_are_ptr: false,
        };
        t.void = t.intern(TypeData::Void);
        t.i1 = t.intern(TypeData::Int(1));
        t.i8 = t.intern(TypeData::Int(8));
        t.i32 = t.intern(TypeData::Int(32));
        t.i64 = t.intern(TypeData::Int(64));
        t.ptr = t.intern(TypeData::Ptr(0));
        t.label = t.intern(TypeData::Label);
        t.token = t.intern(TypeData::Token);
        t.metadata = t.intern(TypeData::Metadata);
        t
    }

    /// The handle of `d`, made if the table does not have it yet.
    pub fn intern(&mut self, d: TypeData) -> Type {
        if let Some(&t) = self.map.get(&d) {
            return t;
        }
        let t = Type(self.data.len() as u32);
        self.data.push(d.clone());
        self.map.insert(d, t);
        t
    }

    /// What `t` is. `t` must come from this table (or the one it was cloned from).
    pub fn get(&self, t: Type) -> &TypeData {
        &self.data[t.0 as usize]
    }

    /// `iN` for N = `bits`.
    pub fn int(&mut self, bits: u32) -> Type {
        self.intern(TypeData::Int(bits))
    }

    /// A pointer to `pointee`: typed when `typed` is set (LLVM 14 dialect), else `ptr`.
    pub fn pointer_to(&mut self, pointee: Type, addrspace: u32, typed: bool) -> Type {
        if typed { self.intern(TypeData::TypedPtr(pointee, addrspace)) } else { self.intern(TypeData::Ptr(addrspace)) }
    }

    /// Sets the body of the named struct `name` (spelled with its `%`).
    pub fn set_named_body(&mut self, name: &str, body: NamedBody) {
        self.named.insert(name.into(), body);
    }

    /// The body of the named struct `name` (spelled with its `%`), if the module defines it.
    pub fn named_body(&self, name: &str) -> Option<&NamedBody> {
        self.named.get(name)
    }

    /// Looks through named structs to the literal body, if any.
    pub fn resolve(&self, t: Type) -> Type {
        let mut t = t;
        for _ in 0..64 {
            match self.get(t) {
                TypeData::Named(n) => match self.named.get(n) {
                    Some(NamedBody::Body(b)) => t = *b,
                    _ => return t,
                },
                _ => return t,
            }
        }
        t
    }

    /// True for `void`.
    pub fn is_void(&self, t: Type) -> bool {
        matches!(self.get(t), TypeData::Void)
    }

    /// True for `ptr` and typed pointers.
    pub fn is_pointer(&self, t: Type) -> bool {
        matches!(self.get(t), TypeData::Ptr(_) | TypeData::TypedPtr(..))
    }

    /// True for types a value can have (not `void`, `label`, `metadata` or a function type).
    pub fn is_first_class(&self, t: Type) -> bool {
        !matches!(self.get(t), TypeData::Void | TypeData::Func { .. } | TypeData::Label | TypeData::Metadata)
    }

    /// The pointee of a typed pointer.
    pub fn pointee(&self, t: Type) -> Option<Type> {
        match self.get(t) {
            TypeData::TypedPtr(p, _) => Some(*p),
            _ => None,
        }
    }

    /// The element type reached by one aggregate index (struct field or array/vector element).
    pub fn index_into(&self, agg: Type, idx: Option<u64>) -> Option<Type> {
        match self.get(self.resolve(agg)) {
            TypeData::Struct { fields, .. } => fields.get(idx? as usize).copied(),
            TypeData::Array(_, e) | TypeData::Vector { elem: e, .. } => Some(*e),
            _ => None,
        }
    }

    /// A vector's (scalable, length, element type).
    pub fn vector_info(&self, t: Type) -> Option<(bool, u64, Type)> {
        match self.get(t) {
            TypeData::Vector { scalable, len, elem } => Some((*scalable, *len, *elem)),
            _ => None,
        }
    }

    /// `t` spelled as LLVM IR spells it (`{ i32, ptr }`, `%struct.S`).
    pub fn display(&self, t: Type) -> String {
        let mut s = String::new();
        self.write(&mut s, t);
        s
    }

    /// Appends `t`'s spelling to `out`.
    pub fn write(&self, out: &mut String, t: Type) {
        match self.get(t) {
            TypeData::Void => out.push_str("void"),
            TypeData::Label => out.push_str("label"),
            TypeData::Token => out.push_str("token"),
            TypeData::Metadata => out.push_str("metadata"),
            TypeData::X86Amx => out.push_str("x86_amx"),
            TypeData::X86Mmx => out.push_str("x86_mmx"),
            TypeData::Half => out.push_str("half"),
            TypeData::BFloat => out.push_str("bfloat"),
            TypeData::Float => out.push_str("float"),
            TypeData::Double => out.push_str("double"),
            TypeData::X86Fp80 => out.push_str("x86_fp80"),
            TypeData::Fp128 => out.push_str("fp128"),
            TypeData::PpcFp128 => out.push_str("ppc_fp128"),
            TypeData::Int(n) => {
                let _ = write!(out, "i{n}");
            }
            TypeData::Ptr(0) => out.push_str("ptr"),
            TypeData::Ptr(a) => {
                let _ = write!(out, "ptr addrspace({a})");
            }
            TypeData::TypedPtr(p, a) => {
                self.write(out, *p);
                if *a != 0 {
                    let _ = write!(out, " addrspace({a})");
                }
                out.push('*');
            }
            TypeData::Vector { scalable, len, elem } => {
                out.push('<');
                if *scalable {
                    out.push_str("vscale x ");
                }
                let _ = write!(out, "{len} x ");
                self.write(out, *elem);
                out.push('>');
            }
            TypeData::Array(n, e) => {
                let _ = write!(out, "[{n} x ");
                self.write(out, *e);
                out.push(']');
            }
            TypeData::Struct { packed, fields } => {
                if *packed {
                    out.push('<');
                }
                if fields.is_empty() {
                    out.push_str("{}");
                } else {
                    out.push_str("{ ");
                    for (i, f) in fields.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write(out, *f);
                    }
                    out.push_str(" }");
                }
                if *packed {
                    out.push('>');
                }
            }
            TypeData::Named(n) => out.push_str(n),
            TypeData::Func { ret, params, vararg } => {
                self.write(out, *ret);
                out.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(out, *p);
                }
                if *vararg {
                    if !params.is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str("...");
                }
                out.push(')');
            }
            TypeData::TargetExt(s) => out.push_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_gives_equal_handles() {
        let mut t = TypeTable::new();
        let a = t.int(32);
        assert_eq!(a, t.i32);
        let s1 = t.intern(TypeData::Struct { packed: true, fields: vec![t.i8, t.i32].into() });
        let s2 = t.intern(TypeData::Struct { packed: true, fields: vec![t.i8, t.i32].into() });
        assert_eq!(s1, s2);
        assert_eq!(t.display(s1), "<{ i8, i32 }>");
        let p = t.pointer_to(s1, 0, true);
        assert_eq!(t.display(p), "<{ i8, i32 }>*");
    }

    #[test]
    fn named_struct_resolves_to_body() {
        let mut t = TypeTable::new();
        let n = t.intern(TypeData::Named("%struct.A".into()));
        let body = t.intern(TypeData::Struct { packed: false, fields: vec![t.i64, t.ptr].into() });
        t.set_named_body("%struct.A", NamedBody::Body(body));
        assert_eq!(t.index_into(n, Some(1)), Some(t.ptr));
        assert_eq!(t.display(n), "%struct.A");
    }
}
