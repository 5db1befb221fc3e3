//! LLVM's switched-resume coroutines: the `llvm.coro.*` intrinsics, split into a ramp and
//! `.resume`, `.destroy` and `.cleanup` functions around a heap frame that the shared frame engine
//! (`crate::frame`) lays out.

pub mod r#async;
pub mod debug;
pub mod effects;
pub mod elide;
pub mod frame;
pub mod funclets;
pub mod intrinsics;
pub mod provenance;
pub mod retcon;
pub mod shape;
pub mod simplify;
pub mod split;
