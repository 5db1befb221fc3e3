#!/usr/bin/env bash
# Installs the test tools that are missing, then runs every check and test: formatting, clippy,
# documentation, and the whole test suite (unit tests, doctests, corpus round-trips, IR files, error
# files). With CI set, a missing LLVM tool fails the tests instead of skipping them.
set -euo pipefail
cd "$(dirname "$0")/.."
# Some sandboxes ship /dev/null as a regular file. Whatever is written to it is then read back by
# every process that reads /dev/null, such as cargo's `rustc -` probe, which fails on the junk.
# Put the character device back (root only; otherwise say so and go on).
if [ ! -c /dev/null ]; then
    if mknod -m 666 /dev/null.llcoro c 1 3 && mv -f /dev/null.llcoro /dev/null; then
        echo "== /dev/null was a regular file; recreated it as the null device"
    else
        echo "warning: /dev/null is a regular file and could not be recreated; cargo may fail" >&2
    fi
fi
scripts/install-test-tools.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
echo "== cargo doc"
# Every public item documented (both crates warn on missing docs), no broken links.
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
echo "== cargo test"
# Includes the doctests (the crate-level examples of llir and llcoro) and runs examples/ programs.
cargo test --workspace --release
