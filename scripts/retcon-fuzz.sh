#!/usr/bin/env bash
# Differential fuzzing of llcoro's retcon/retcon.once and async lowerings with random programs
# (tests/retcon/gen/gen.py), checked against the generator's interpreter and LLVM 19 and 22's own
# lowering, on lli, clang -O2 and valgrind (crates/llcoro/tests/retcon_generated.rs says how).
#
#   scripts/retcon-fuzz.sh [COUNT] [START]     seeds START .. START+COUNT-1 of each ABI
#                                              (defaults 200 and 1)
#
# CI runs seeds 1..15 of each ABI through the same test.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200}
start=${2:-1}
LLCORO_RETCON_GEN_SEEDS="$start..$((start + count - 1))" \
    cargo test --release -p llcoro --test retcon_generated -- --nocapture
