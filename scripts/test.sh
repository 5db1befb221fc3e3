#!/usr/bin/env bash
# Installs the test tools that are missing, then runs every check and test: formatting, clippy, and
# the whole test suite (unit tests, corpus round-trips, IR files, error files). With CI set, a missing
# LLVM tool fails the tests instead of skipping them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-tools.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
echo "== cargo test"
cargo test --workspace --release
