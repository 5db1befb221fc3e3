#!/usr/bin/env bash
# Heap frames against the native stack, in one run: fib(32) and 100 x ackermann(2, 2000), written
# with the gc.frame intrinsics (bench/stackless/heap.ll, lowered by llcoro, frames from a stack-like
# region) and as plain C recursion (bench/stackless/driver.c), built by clang-V -O2 into one program
# that checks both give the same results. Prints medians of N runs (default 7); writes
# bench/out/stackless.md.
# usage: bench/stackless.sh [-n N] [-v 19]
set -euo pipefail
cd "$(dirname "$0")/.."
N=7; V=19
while getopts "n:v:" o; do case $o in n) N=$OPTARG;; v) V=$OPTARG;; *) exit 2;; esac; done
cargo build --release --quiet
out=bench/out/stackless; mkdir -p "$out"
./target/release/llcoro bench/stackless/heap.ll -o "$out/heap.ll"
clang-"$V" -O2 -Wno-override-module "$out/heap.ll" bench/stackless/driver.c -o "$out/bench"
"$out/bench" "$N" | tee "$out/../stackless.txt"
{
    echo "| function | heap frames (ns, median of $N) | native, clang -O2 (ns) | heap / native | native, every call made (ns) | heap / every-call native |"
    echo "| --- | --- | --- | --- | --- | --- |"
    sed -n 's/^\([a-z_]*\) \(.*\) result=[0-9]* heap_ns=\([0-9]*\) native_ns=\([0-9]*\) ratio=\([0-9.]*\) every_call_ns=\([0-9]*\) ratio_every_call=\([0-9.]*\).*/| \1 \2 | \3 | \4 | \5 | \6 | \7 |/p' "$out/../stackless.txt"
} > "$out/../stackless.md"
cat "$out/../stackless.md"
