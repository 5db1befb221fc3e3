//! The differential programs of `tests/diff` (see its README), which `differential.rs` and
//! `matrix.rs` build natively and through llcoro, and what both must know about them.

use std::fs;
use std::path::{Path, PathBuf};

use super::cache::hash_bytes;

/// (program, clang version, level) whose native build is wrong because of the compiler's own
/// coroutine lowering: the reference run is then the native build at -O0 (with the same other flags).
/// clang-14 turns `29_many_awaits` into a program that segfaults at every optimising level, with or
/// without debug info (its lowering through llcoro, built at the same level by the same clang, runs
/// correctly).
pub const NATIVE_MISCOMPILED: [(&str, u32, &str); 4] = [
    ("29_many_awaits", 14, "O1"),
    ("29_many_awaits", 14, "O2"),
    ("29_many_awaits", 14, "O3"),
    ("29_many_awaits", 14, "Os"),
];

/// The optimisation level of the reference build of `program` by clang `version` at `level`.
pub fn reference_level(program: &str, version: u32, level: &'static str) -> &'static str {
    if NATIVE_MISCOMPILED.contains(&(program, version, level)) { "O0" } else { level }
}

pub struct Program {
    pub path: PathBuf,
    pub name: String,
    /// Hash of the source and of the shared headers under `support/`.
    pub hash: u64,
}

/// Every `tests/diff/*.cpp` whose name contains `filter` (all without one), sorted by name.
pub fn programs(filter: Option<&str>) -> Vec<Program> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/diff"));
    let dir = &dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    // The shared headers under support/ are part of every program's fingerprint, so editing one
    // rebuilds everything that may include it.
    let mut support: Vec<PathBuf> =
        fs::read_dir(dir.join("support")).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    support.sort();
    let mut support_bytes = Vec::new();
    for p in &support {
        support_bytes.extend(fs::read(p).unwrap_or_default());
    }
    let mut programs = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("cpp") {
            continue;
        }
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let mut bytes = fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        bytes.extend_from_slice(&support_bytes);
        let hash = hash_bytes(&bytes);
        programs.push(Program { path, name, hash });
    }
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(!programs.is_empty() || filter.is_some(), "no test programs found in {}", dir.display());
    programs
}
