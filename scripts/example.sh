#!/usr/bin/env bash
# Builds llcoro and runs it on the bundled example: LLVM's own Coroutines-document example, a presplit
# coroutine that prints 4, 5, 6. Shows the lowered module (ramp, .resume, .destroy, .cleanup), and runs
# it with lli-19 when available.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp --suffix=.ll)
trap 'rm -f "$out"' EXIT
./target/release/llcoro examples/print_loop.ll -o "$out"
cat "$out"
if command -v lli-19 >/dev/null 2>&1; then
    echo "; running it with lli-19:"
    lli-19 "$out"
fi
