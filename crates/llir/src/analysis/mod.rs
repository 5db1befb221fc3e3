//! Analyses over one function. Each is computed from a borrowed `Function` and is invalid once the
//! function's CFG changes; recompute rather than patch.

pub mod cfg;
pub mod dom;
pub mod executable;
pub mod liveness;
pub mod uses;
