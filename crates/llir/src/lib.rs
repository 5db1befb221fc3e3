//! llir: LLVM textual IR, read and written losslessly, for LLVM 14 to 22.
//!
//! # Guarantees
//!
//! - **Lossless.** Printing a [`Module`] with no edits returns its text byte for byte, and with edits
//!   every top-level entity the edits do not touch (globals, declarations, metadata, functions,
//!   comments and blank lines between them) is copied from the input byte for byte. A function printed
//!   from its IR keeps each instruction's flags, attributes and metadata attachments as written
//!   (instructions carry their source text as templates), and means what its source meant; the
//!   comments inside its body are not kept.
//! - **Lazy.** [`Module::parse`] indexes the module in one scan: every entity's kind and span, and the
//!   named struct bodies. A `define`'s body is parsed into the SSA IR only when asked for
//!   ([`Module::parse_function`]), so a tool that changes a few functions of a large module pays for
//!   those few.
//! - **Located errors.** Input that does not parse is an [`Error`] with a stable code, the span it is
//!   about, a label and help; [`LineIndex`] turns the span into a line and column. Nothing panics on
//!   bad input.
//!
//! # Parse, walk, edit, print
//!
//! ```
//! use llir::ir::{Opcode, build::Builder};
//! use llir::print::{Edits, print_function, print_module};
//! use llir::Module;
//!
//! let src = "\
//! define i32 @add(i32 %a, i32 %b) {
//! entry:
//!   %s = add nsw i32 %a, %b
//!   ret i32 %s
//! }
//!
//! ; Copied byte for byte: this comment and everything below.
//! define void @idle() {
//!   ret void
//! }
//!
//! declare void @log(i32)
//! ";
//! let mut m = Module::parse(src.to_string()).map_err(|(error, _src)| error)?;
//!
//! // Printing without edits gives the input back.
//! assert_eq!(print_module(&m, &Edits::default()), src);
//!
//! // Walk: the functions are known from the index; no body has been parsed yet.
//! let names: Vec<&str> = m.definitions().map(|i| m.item_name(i)).collect();
//! assert_eq!(names, ["@add", "@idle"]);
//!
//! // Parse one body, and walk its blocks and instructions in layout order.
//! let add = m.definitions().next().ok_or("no function")?;
//! let mut f = m.parse_function(add)?;
//! let ops: Vec<Opcode> = f.inst_iter().map(|(_block, i)| f.insts[i].op).collect();
//! assert_eq!(ops, [Opcode::Add, Opcode::Ret]);
//!
//! // Edit: rename `%s`, and log it before the return.
//! let (_, sum) = f.inst_iter().next().ok_or("empty body")?;
//! let s = f.insts[sum].result.ok_or("add has a result")?;
//! f.values[s].name = Some("sum".into());
//! let entry = f.entry().ok_or("no entry block")?;
//! let ret = f.terminator(entry).ok_or("no terminator")?;
//! let log = f.const_value(m.types.ptr, "@log");
//! let void = m.types.void;
//! let call = Builder::new(&mut f, &mut m.types).call("", "", void, log, &[s]);
//! f.insert_inst_before(ret, call);
//!
//! // Print: verify the function, print it from the IR in place of its source, copy the rest.
//! llir::verify::verify_function(&f)?;
//! let mut edits = Edits::default();
//! edits.replace.insert(add, print_function(&f, &m.types, &m.src));
//! let out = print_module(&m, &edits);
//! assert!(out.contains("  %sum = add nsw i32 %a, %b\n")); // `nsw` kept from the source's text
//! assert!(out.contains("  call void @log(i32 %sum)\n  ret i32 %sum\n"));
//! let untouched = src.find("; Copied").ok_or("comment")?;
//! assert!(out.ends_with(&src[untouched..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/func_sizes.rs` is a whole program: every function of a module with its numbers of blocks
//! and instructions.
//!
//! # Layers
//!
//! Each depends only on those above it:
//! - `error`: located errors ([`Error`], [`Span`], [`LineIndex`]).
//! - `lexer`: bytes to tokens; never fails.
//! - `types`: interned types ([`types::TypeTable`]); `layout`: their sizes and alignments from the
//!   module's `target datalayout`.
//! - `module`: [`Module`], the text and its index; the entry point.
//! - `parser`: `module` indexes top-level entities by span; `func` parses one body into the IR on demand.
//! - `ir`: the SSA IR of one function (`Value`, `Inst`, `Block` ids into arenas), its mutation API
//!   (`ir::edit`) and constructors for new instructions (`ir::build`).
//! - `analysis`: CFG, dominators, liveness and use lists over a function.
//! - `verify`: checks a function's structural invariants before anything is written.
//! - `metadata`: numbered metadata references in text, found and renumbered.
//! - `print`: entities that were not changed are copied from the source; changed ones are printed
//!   from the IR.
//! - `raw_bytes`: input that is not UTF-8 read as text and written back byte for byte.
//!
//! This crate knows nothing of coroutines; `llcoro` is built on it.

#![warn(missing_docs)]

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
