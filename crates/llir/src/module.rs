//! A module: its text, the index of its top-level entities, and its named types. Function bodies are
//! parsed on request, so a module with nothing to rewrite costs one scan.

use crate::error::{Result, Span};
use crate::ir::Function;
use crate::parser;
use crate::types::TypeTable;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Define,
    Declare,
    Global,
    TypeDef,
    AttrGroup,
    Metadata,
    Comdat,
    Other,
}

/// A top-level entity and its span in the module text.
#[derive(Clone, Debug)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
    /// The entity's name token (`@f`, `%T`, `#0`, `!12`); empty if it has none.
    pub name: Span,
    /// Where a `define`'s body starts (its `{`): its header is the text before. The span's end for
    /// other entities.
    pub body: u32,
}

pub struct Module {
    pub src: String,
    pub items: Vec<Item>,
    pub types: TypeTable,
    /// The module uses typed pointers (LLVM 14 and older).
    pub typed: bool,
    /// Names of every global the module defines or declares.
    pub globals: rustc_hash::FxHashSet<Box<str>>,
}

impl Module {
    /// Indexes `src`. Only named struct bodies are parsed; function bodies wait for `parse_function`.
    /// On error the text is handed back so the caller can show it.
    pub fn parse(src: String) -> std::result::Result<Module, (crate::Error, String)> {
        let mut types = TypeTable::new();
        let idx = match parser::module::index(&src, &mut types) {
            Ok(i) => i,
            Err(e) => return Err((e, src)),
        };
        // Function bodies are read after the index: a `T*` among `ptr`s is `ptr` there.
        types.stars_are_ptr = idx.opaque;
        Ok(Module { src, items: idx.items, types, typed: idx.typed, globals: idx.globals })
    }

    pub fn text(&self, span: Span) -> &str {
        self.src.get(span.start as usize..span.end as usize).unwrap_or("")
    }

    pub fn item_text(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| self.text(it.span))
    }

    pub fn item_name(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| self.text(it.name))
    }

    /// A `define`'s header: its text up to its body's `{` (the whole text of other items).
    pub fn item_head(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| self.text(Span::new(it.span.start, it.body)))
    }

    /// A `define`'s body, from its `{` (empty for other items).
    pub fn item_body(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| self.text(Span::new(it.body, it.span.end)))
    }

    /// Indices of the `define` items, in order.
    pub fn definitions(&self) -> impl Iterator<Item = usize> + '_ {
        self.items.iter().enumerate().filter(|(_, it)| it.kind == ItemKind::Define).map(|(i, _)| i)
    }

    /// Parses the body of the `define` at item `i` with a type table of the caller's (a clone of
    /// `self.types`), so that several threads can parse functions of one module at once.
    pub fn parse_function_with(&self, i: usize, types: &mut TypeTable) -> Result<Function> {
        let span = self.items.get(i).map(|it| it.span).unwrap_or_default();
        parser::func::parse_function(
            &self.src,
            span.start as usize,
            span.end as usize,
            types,
            self.typed,
            Some(&self.globals),
        )
    }

    /// The signature of the module's function `name` (its `declare` or `define`), parsed with the
    /// caller's type table; None when the module has no such function or its header does not parse.
    pub fn signature_of(&self, name: &str, types: &mut TypeTable) -> Option<parser::func::Signature> {
        let want = parser::module::normalize_global(name);
        let it = self.items.iter().enumerate().find(|(i, it)| {
            matches!(it.kind, ItemKind::Declare | ItemKind::Define)
                && parser::module::normalize_global(self.item_name(*i)) == want
        })?;
        let span = it.1.span;
        parser::func::parse_signature(&self.src, span.start as usize, span.end as usize, types, self.typed).ok()
    }

    /// Parses the body of the `define` at item `i` into the SSA IR.
    pub fn parse_function(&mut self, i: usize) -> Result<Function> {
        let span = self.items.get(i).map(|it| it.span).unwrap_or_default();
        let (src, globals) = (&self.src, &self.globals);
        parser::func::parse_function(
            src,
            span.start as usize,
            span.end as usize,
            &mut self.types,
            self.typed,
            Some(globals),
        )
    }
}
