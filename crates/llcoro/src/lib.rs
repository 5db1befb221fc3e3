//! llcoro: lowers suspendable functions in LLVM textual IR into plain IR, without linking LLVM.
//!
//! Three kinds of suspendable function are lowered: LLVM's switched-resume and returned-continuation
//! coroutines (what clang emits for C++20 coroutines, before `CoroSplit`), Kotlin/Native-style
//! suspend functions marked by `__kxs_suspend_point`, and stackless frames a front end lays out
//! (`gc.frame.*` / `frame.*`). Everything else in the module is copied through byte for byte.
//!
//! # Using it from Rust
//!
//! A front end that writes textual IR lowers it in memory with [`lower`]: text in, and either the
//! lowered text and its warnings ([`Output`]) or the reasons the input was refused ([`Refusal`]).
//! Findings ([`Finding`]) are values: a severity, a stable code (`llcoro explain CODE` says what it
//! means), a message, and a byte span into the input, which [`Finding::render`] turns into the
//! command line's `file:line:column` report with the line and a caret.
//!
//! ```
//! // A switched-resume coroutine as clang emits it before CoroSplit: it prints `n`, suspends,
//! // and prints `n + 1` when resumed.
//! let src = r#"
//! define ptr @f(i32 %n) presplitcoroutine {
//! entry:
//!   %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
//!   %size = call i32 @llvm.coro.size.i32()
//!   %mem = call ptr @malloc(i32 %size)
//!   %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %mem)
//!   call void @print(i32 %n)
//!   %s = call i8 @llvm.coro.suspend(token none, i1 false)
//!   switch i8 %s, label %suspend [i8 0, label %resume
//!                                 i8 1, label %cleanup]
//! resume:
//!   %inc = add i32 %n, 1
//!   call void @print(i32 %inc)
//!   br label %cleanup
//! cleanup:
//!   %free = call ptr @llvm.coro.free(token %id, ptr %hdl)
//!   call void @free(ptr %free)
//!   br label %suspend
//! suspend:
//!   call void @llvm.coro.end(ptr %hdl, i1 false, token none)
//!   ret ptr %hdl
//! }
//!
//! declare void @print(i32)
//! declare ptr @malloc(i32)
//! declare void @free(ptr)
//! declare token @llvm.coro.id(i32, ptr, ptr, ptr)
//! declare i32 @llvm.coro.size.i32()
//! declare ptr @llvm.coro.begin(token, ptr)
//! declare i8 @llvm.coro.suspend(token, i1)
//! declare ptr @llvm.coro.free(token, ptr)
//! declare void @llvm.coro.end(ptr, i1, token)
//! "#;
//! let out = match llcoro::lower(src.to_string(), llcoro::Options::default()) {
//!     Ok(out) => out,
//!     Err(refusal) => panic!("refused:\n{}", refusal.render("f.ll")),
//! };
//! // The ramp, and the resume and destroy functions the frame's header points to.
//! assert!(out.text.contains("define ptr @f(i32 %n)"));
//! assert!(out.text.contains("@f.resume("));
//! assert!(out.text.contains("@f.destroy("));
//! assert!(!out.text.contains("call i8 @llvm.coro.suspend"));
//! assert!(out.warnings.is_empty());
//!
//! // Input llcoro cannot lower is refused with located findings, never lowered half-way.
//! let begin = "%hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %mem)";
//! let bad = src.replace(begin, &format!("{begin}\n  %hdl2 = call ptr @llvm.coro.begin(token %id, ptr %mem)"));
//! let refusal = llcoro::lower(bad, llcoro::Options::default()).err().expect("two coro.begin");
//! let first = refusal.findings.first().expect("at least one finding");
//! assert_eq!(first.severity, llcoro::Severity::Error);
//! assert_eq!(first.error.code, "coro-multiple-begin");
//! assert_eq!(first.line_col(&refusal.src), (8, 3));
//! let shown = first.render("f.ll", &refusal.src);
//! assert!(shown.contains("error[coro-multiple-begin]"));
//! assert!(shown.contains("f.ll:8:3"));
//! ```
//!
//! [`prepare`] is the same run stopped before printing, so that a large output can be streamed to a
//! writer (the `llcoro` command does that); [`check`] is `llcoro check`, and [`frames`] gives
//! `llcoro frames`'s [`report::Report`], which [`report`] renders as text, JSON, SVG or HTML. Input
//! that is not UTF-8 (LLVM allows raw bytes in comments, strings and quoted names) is decoded with
//! `llir::raw_bytes::decode` first, and the output encoded back with its `RawBytes`, as the command
//! does.
//!
//! # Inside
//!
//! The pipeline reads one way: text → `llir::Module` (indexed, bodies parsed on demand) → per-function
//! passes → `llir::print::Edits` → text. Every function printed from the IR is verified first, so a
//! bug in a pass becomes an error message, never invalid IR on disk. The passes are private to the
//! crate; ARCHITECTURE.md describes them.

#![warn(missing_docs)]

pub(crate) mod coro;
pub mod diag;
pub mod explain;
pub(crate) mod frame;
pub(crate) mod kxs;
#[doc(hidden)] // `llcoro cc`, public for main.rs only.
pub mod launcher;
pub(crate) mod locations;
pub(crate) mod lower;
pub mod pipeline;
pub mod report;
pub(crate) mod stackless;

pub use diag::{Finding, Severity};
pub use pipeline::{Dispatch, Options, Output, Prepared, Refusal, Scope, check, frames, prepare, run as lower};
