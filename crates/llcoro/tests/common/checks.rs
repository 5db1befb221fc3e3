//! What a harness checks on a build through llcoro, by hand or through `llcoro cc`: the presplit IR
//! has something to lower, the lowered IR has nothing left to lower and survives `opt -O2`, and the
//! launcher's commands with the IR it keeps.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::cache::{Cache, hash_bytes, with_suffix};
use super::{Recorder, code_lines};

/// The presplit attribute (LLVM 14: `"coroutine.presplit"`).
pub const PRESPLIT: [&str; 2] = ["presplitcoroutine", "\"coroutine.presplit\""];

/// Checks that the presplit IR at `path` has a presplit coroutine (otherwise a check of its lowering
/// is vacuous); returns its text.
pub fn presplit_text(path: &Path, rec: &mut Recorder) -> Option<String> {
    match fs::read_to_string(path) {
        Ok(text) if code_lines(&text).any(|(_, l)| PRESPLIT.iter().any(|p| l.contains(p))) => Some(text),
        Ok(_) => {
            rec.add("presplit IR", format!("{} has no presplit coroutine", path.display()));
            None
        }
        Err(e) => {
            rec.add("presplit IR", format!("reading {}: {e}", path.display()));
            None
        }
    }
}

/// What every build through llcoro checks on its lowered IR (at `path`, with `text`): nothing left
/// to lower, and `opt -O2 -disable-output` succeeds with nothing on stderr. Its verifier checks the
/// input and the optimised result, debug info included (opt warns and drops debug info it finds
/// broken, so a warning fails too). The opt run is skipped while its fingerprint holds.
pub fn check_lowered(
    cache: &Cache,
    opt: (&Path, &str),
    path: &Path,
    text: &str,
    rec: &mut Recorder,
    timeout: Duration,
) {
    for msg in super::leftovers(text, path) {
        rec.add("lowered everything", msg);
    }
    let mut cmd = Command::new(opt.0);
    cmd.args(["-O2", "-disable-output"]).arg(path);
    let stamp = with_suffix(path, ".opt-O2");
    if let Err(e) = cache.check(&mut cmd, opt.1, hash_bytes(text.as_bytes()), &stamp, timeout) {
        rec.add("opt -O2", e);
    }
}

/// `llcoro cc -- COMMAND` with the llcoro under test, its temporary files in `tmp`, keeping the IR
/// of a compile beside the object (see `kept_ir`).
pub fn through_launcher(cmd: &Command, tmp: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_llcoro"));
    c.env("TMPDIR", tmp).env("LLCORO_KEEP_IR", "1").env_remove("LLCORO_CC_VERBOSE").args(["cc", "--"]);
    c.arg(cmd.get_program()).args(cmd.get_args());
    c
}

/// The IR that `llcoro cc` keeps for `object` under `LLCORO_KEEP_IR=1`: (presplit, lowered).
pub fn kept_ir(object: &Path) -> (PathBuf, PathBuf) {
    (with_suffix(object, ".llcoro.ll"), with_suffix(object, ".lowered.ll"))
}

/// Stands for the llcoro binary in fingerprints of what the launcher makes (a new llcoro rebuilds).
pub fn llcoro_identity() -> String {
    let path = env!("CARGO_BIN_EXE_llcoro");
    match fs::read(path) {
        Ok(bytes) => format!("llcoro {:016x}", hash_bytes(&bytes)),
        Err(e) => panic!("cannot read {path}: {e}"),
    }
}

/// A clang version's `clang++-N` and `opt-N`, with their versions for fingerprints.
pub struct Toolchain {
    pub version: u32,
    pub clangxx: PathBuf,
    pub clangxx_version: String,
    pub opt: PathBuf,
    pub opt_version: String,
}

/// The toolchains of `versions` that are installed. A missing one follows the missing-tool policy:
/// a skip notice, or under CI a failure recorded in `failures`.
pub fn toolchains(versions: &[u32], failures: &mut Vec<super::Failure>) -> Vec<Toolchain> {
    let mut found = Vec::new();
    for &version in versions {
        let (clangxx, opt) = (format!("clang++-{version}"), format!("opt-{version}"));
        match super::tools(&[&clangxx, &opt], &format!("the clang-{version} configurations")) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(detail) => {
                let config = format!("clang-{version}");
                failures.push(super::Failure { program: "-".into(), config, step: "tool lookup".into(), detail });
                continue;
            }
        }
        let (Some(clangxx), Some(opt)) = (super::find_tool(&clangxx), super::find_tool(&opt)) else { continue };
        found.push(Toolchain {
            version,
            clangxx_version: super::cache::tool_version(&clangxx),
            opt_version: super::cache::tool_version(&opt),
            clangxx,
            opt,
        });
    }
    found
}
