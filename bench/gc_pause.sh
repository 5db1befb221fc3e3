#!/usr/bin/env bash
# Pause time of the stackless runtime's copying collector (runtime/stackless), per live-set size:
# a chain of heap frames, each holding a list of objects; min / median / max pause over repeated
# collections (runtime/stackless/tests/bench_pause.c). Writes bench/out/gc_pause.txt.
# usage: bench/gc_pause.sh [-n REPS] [-v 19]
set -euo pipefail
cd "$(dirname "$0")/.."
N=21; V=19
while getopts "n:v:" o; do case $o in n) N=$OPTARG;; v) V=$OPTARG;; *) exit 2;; esac; done
out=bench/out; mkdir -p "$out"
clang-"$V" -std=c11 -O2 -Iruntime/stackless/include runtime/stackless/src/*.c \
    runtime/stackless/tests/bench_pause.c -o "$out/bench_pause"
"$out/bench_pause" "$N" | tee "$out/gc_pause.txt"
