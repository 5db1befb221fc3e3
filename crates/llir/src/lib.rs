//! llir: LLVM textual IR, read and written losslessly, for LLVM 14 to 22.
//!
//! Layers, each depending only on those above it:
//! - `lexer`: bytes to tokens; never fails.
//! - `parser`: `module` indexes top-level entities by span; `func` parses one body into the IR on demand.
//! - `ir`: the SSA IR of one function (`Value`, `Inst`, `Block` ids into arenas) and its mutation API.
//! - `analysis`: CFG, dominators, liveness and use lists over a function.
//! - `verify`: checks a function's structural invariants before anything is written.
//! - `metadata`: numbered metadata references in text, found and renumbered.
//! - `print`: entities that were not changed are copied from the source; changed ones are printed
//!   from the IR.
//! - `raw_bytes`: input that is not UTF-8 read as text and written back byte for byte.
//!
//! The lossless promise: printing a module with no edits returns its text unchanged, and a function
//! printed from its IR means the same as the source it came from. This crate knows nothing of
//! coroutines.

pub mod analysis;
pub mod error;
pub mod ir;
pub mod layout;
pub mod lexer;
pub mod metadata;
pub mod module;
pub mod parser;
pub mod print;
pub mod raw_bytes;
pub mod types;
pub mod verify;

pub use error::{Error, LineIndex, Result, Span};
pub use module::{Item, ItemKind, Module};
