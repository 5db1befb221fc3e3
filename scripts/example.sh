#!/usr/bin/env bash
# Builds llcoro and runs it on the bundled example: LLVM's own Coroutines-document example, a presplit
# coroutine that prints 4, 5, 6. Shows the module as llcoro prints it from its IR, and checks that
# the output is still valid IR for LLVM 19 when opt-19 is available.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp --suffix=.ll)
trap 'rm -f "$out"' EXIT
./target/release/llcoro --parse-all examples/print_loop.ll -o "$out"
cat "$out"
if command -v opt-19 >/dev/null 2>&1; then
    opt-19 -passes=verify -disable-output "$out" && echo "; opt-19 verifies the output"
fi
