//! Tool outputs kept between runs: a file made by a command is reused while its `.fingerprint`
//! beside it (the command line, the tool's version, a hash of the inputs) is unchanged, so that a
//! second run of a harness compiles only what changed.

use std::collections::hash_map::DefaultHasher;
use std::ffi::OsString;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{Output, command_text, run_tool, run_with};

pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// `path` with `suffix` appended to its file name.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s: OsString = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// First line of `tool --version`; used in fingerprints.
pub fn tool_version(tool: &Path) -> String {
    match run_with(Command::new(tool).arg("--version"), None, Duration::from_secs(60)) {
        Ok(o) if o.success() => String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").trim().to_string(),
        _ => String::new(),
    }
}

/// Whether to reuse outputs, and how many commands ran and how many were reused.
pub struct Cache {
    /// Run every command again (the harness's `..._REBUILD` variable).
    pub rebuild: bool,
    pub ran: AtomicUsize,
    pub reused: AtomicUsize,
}

impl Cache {
    pub fn new(rebuild: bool) -> Cache {
        Cache { rebuild, ran: AtomicUsize::new(0), reused: AtomicUsize::new(0) }
    }

    /// Runs `cmd` (a tool that must succeed within `timeout`) to make `out`, unless `out` exists and
    /// its fingerprint says the same command, tool version `version` and input hash `input_hash`
    /// made it.
    pub fn make(
        &self,
        cmd: &mut Command,
        version: &str,
        input_hash: u64,
        out: &Path,
        timeout: Duration,
    ) -> Result<(), String> {
        let fingerprint = format!("{}\n{version}\ninput hash {input_hash:016x}\n", command_text(cmd));
        let stamp = with_suffix(out, ".fingerprint");
        if !self.rebuild && out.is_file() && fs::read_to_string(&stamp).is_ok_and(|s| s == fingerprint) {
            self.reused.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let _ = fs::remove_file(&stamp);
        let _ = fs::remove_file(out);
        run_tool(cmd, timeout)?;
        if !out.is_file() {
            return Err(format!("{}\n  produced no output file", command_text(cmd)));
        }
        fs::write(&stamp, fingerprint).map_err(|e| format!("writing {}: {e}", stamp.display()))?;
        self.ran.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Runs `cmd`, a check that makes no file, unless the fingerprint `stamp` says it passed with the
    /// same command, tool version and input hash. It passes when it succeeds with nothing on stderr
    /// (a tool that finds a problem and goes on, like opt dropping invalid debug info, warns there).
    pub fn check(
        &self,
        cmd: &mut Command,
        version: &str,
        input_hash: u64,
        stamp: &Path,
        timeout: Duration,
    ) -> Result<(), String> {
        let fingerprint = format!("{}\n{version}\ninput hash {input_hash:016x}\n", command_text(cmd));
        if !self.rebuild && fs::read_to_string(stamp).is_ok_and(|s| s == fingerprint) {
            self.reused.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let _ = fs::remove_file(stamp);
        let line = command_text(cmd);
        let out: Output = run_tool(cmd, timeout)?;
        self.ran.fetch_add(1, Ordering::Relaxed);
        if !out.stderr.is_empty() {
            return Err(format!("{line}\n  exit status 0 with messages:\n{}", super::excerpt(&out.stderr)));
        }
        fs::write(stamp, fingerprint).map_err(|e| format!("writing {}: {e}", stamp.display()))
    }
}
