//! llcoro: lowers suspendable functions in LLVM textual IR into plain IR.
//!
//! The pipeline reads one way: text → `llir::Module` (indexed, bodies parsed on demand) → per-function
//! passes → `llir::print::Edits` → text. Every function printed from the IR is verified first, so a
//! bug in a pass becomes an error message, never invalid IR on disk.

pub mod coro;
pub mod diag;
pub mod explain;
pub mod frame;
pub mod kxs;
pub mod launcher;
pub mod locations;
pub mod lower;
pub mod pipeline;
pub mod report;
pub mod stackless;
