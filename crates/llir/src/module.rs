//! A module: its text, the index of its top-level entities, and its named types. Function bodies are
//! parsed on request, so a module with nothing to rewrite costs one scan.

use crate::error::{Result, Span};
use crate::ir::Function;
use crate::parser;
use crate::types::TypeTable;

/// What a top-level entity is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// `define`: a function with a body.
    Define,
    /// `declare`: a function without one.
    Declare,
    /// `@g = ...`: a global variable, alias or ifunc.
    Global,
    /// `%T = type ...`.
    TypeDef,
    /// `attributes #N = { ... }`.
    AttrGroup,
    /// `!N = ...` or `!name = ...`.
    Metadata,
    /// `$c = comdat ...`.
    Comdat,
    /// Anything else: `source_filename`, `target datalayout`, `target triple`, `module asm`,
    /// `uselistorder` and summary entries.
    Other,
}

/// A top-level entity and its span in the module text.
#[derive(Clone, Debug)]
pub struct Item {
    /// What the entity is.
    pub kind: ItemKind,
    /// Its text, from its first token to its end (comments before it are not part of it).
    pub span: Span,
    /// The entity's name token (`@f`, `%T`, `#0`, `!12`); empty if it has none.
    pub name: Span,
    /// Where a `define`'s body starts (its `{`): its header is the text before. The span's end for
    /// other entities.
    pub body: u32,
}

/// A module: its text and the index of its top-level entities. Indexing reads every entity but the
/// bodies of functions, which are parsed only when asked for (lazy parsing: a module with nothing to
/// change costs one scan). Printing it with `print::print_module` and no edits gives `src` back byte
/// for byte; entities the edits leave alone are copied from `src` (the lossless guarantee).
pub struct Module {
    /// The module text. Spans of items, functions and errors are offsets into it.
    pub src: String,
    /// The top-level entities in source order; an item's index is how `print::Edits` names it.
    pub items: Vec<Item>,
    /// The module's types: named struct bodies, and what parsed bodies intern.
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

    /// The text of `span` (empty when it is not in the module).
    pub fn text(&self, span: Span) -> &str {
        self.src.get(span.start as usize..span.end as usize).unwrap_or("")
    }

    /// The text of item `i`.
    pub fn item_text(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| self.text(it.span))
    }

    /// The name token of item `i` (`@f`, `%T`, `#0`, `!12`); empty when it has none.
    pub fn item_name(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| self.text(it.name))
    }

    /// A `define`'s header: its text up to its body's `{` (the whole text of other items).
    pub fn item_head(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| self.text(Span::new(it.span.start, it.body)))
    }

    /// Whether item `i`'s linkage lets another module's definition run in its place (`weak`,
    /// `linkonce`, `common`, `extern_weak`; the `_odr` forms promise the same behaviour): what its
    /// body does cannot be relied on.
    pub fn definition_replaceable(&self, i: usize) -> bool {
        self.item_head(i).split_whitespace().any(|w| matches!(w, "weak" | "linkonce" | "common" | "extern_weak"))
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

    /// Parses the body of the `define` at item `i` into the SSA IR, interning its types into the
    /// module's table. Each call parses the text afresh: the module keeps no parsed bodies, so edits
    /// to the returned function reach the output only through `print::Edits`.
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
