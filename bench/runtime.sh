#!/usr/bin/env bash
# Runtime of coroutine code built five ways, measured in one run (median of N runs, default 5):
#   native:      clang++-V -O2 (LLVM's own pipeline: coro split inside -O2, after inlining)
#   llcoro:      clang++-V -O2 -Xclang -disable-llvm-passes -emit-llvm | llcoro | clang++-V -O2
#   indirectbr:  the same with llcoro --dispatch=indirectbr (computed-goto resume dispatch)
#   closed:      the same with llcoro --closed-promises (each program is one module: handle methods
#                call the parts with no check of the frame header)
#   llvm-early:  the same, with opt-V -passes=coro-early,coro-split,coro-cleanup in llcoro's place
#                (the phase-ordering baseline: LLVM's passes at llcoro's position)
# Prints a Markdown table of median seconds and ratios against native; writes bench/out/runtime.md.
# usage: bench/runtime.sh [-n N] [-v 22]
set -euo pipefail
cd "$(dirname "$0")/.."
N=5; V=22
while getopts "n:v:" o; do case $o in n) N=$OPTARG;; v) V=$OPTARG;; *) exit 2;; esac; done
command -v bc >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bc; }
cargo build --release --quiet
out=bench/out/runtime; mkdir -p "$out"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
time_it() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
rows=()
for prog in generator task lib_generator lib_task eager_task; do
    src=bench/runtime/$prog.cpp
    clang++-$V -std=c++20 -O2 "$src" -o "$out/$prog.native"
    clang++-$V -std=c++20 -O2 -Xclang -disable-llvm-passes -emit-llvm -S "$src" -o "$out/$prog.presplit.ll"
    ./target/release/llcoro "$out/$prog.presplit.ll" -o "$out/$prog.llcoro.ll"
    clang++-$V -O2 "$out/$prog.llcoro.ll" -o "$out/$prog.llcoro"
    ./target/release/llcoro --dispatch=indirectbr "$out/$prog.presplit.ll" -o "$out/$prog.indirectbr.ll"
    clang++-$V -O2 "$out/$prog.indirectbr.ll" -o "$out/$prog.indirectbr"
    ./target/release/llcoro --closed-promises "$out/$prog.presplit.ll" -o "$out/$prog.closed.ll"
    clang++-$V -O2 "$out/$prog.closed.ll" -o "$out/$prog.closed"
    opt-$V -passes=coro-early,coro-split,coro-cleanup -S "$out/$prog.presplit.ll" -o "$out/$prog.early.ll"
    clang++-$V -O2 "$out/$prog.early.ll" -o "$out/$prog.early"
    ref=$("$out/$prog.native")
    for v in llcoro indirectbr closed early; do
        got=$("$out/$prog.$v")
        [ "$got" = "$ref" ] || { echo "$prog.$v prints $got, native prints $ref" >&2; exit 1; }
    done
    declare -A med
    for v in native llcoro indirectbr closed early; do
        med[$v]=$(for _ in $(seq "$N"); do time_it "$out/$prog.$v"; done | median)
    done
    ratio() { echo "$1 / ${med[native]}" | bc -l | xargs printf '%.2f'; }
    rows+=("| $prog | ${med[native]} | ${med[llcoro]} | $(ratio "${med[llcoro]}") | ${med[indirectbr]} | $(ratio "${med[indirectbr]}") | ${med[closed]} | $(ratio "${med[closed]}") | ${med[early]} | $(ratio "${med[early]}") |")
done
{
    echo "command: \`bench/runtime.sh -n $N -v $V\` ($(date -u '+%Y-%m-%d'), clang++-$V, medians of $N runs)"
    echo
    echo "| program | native s | llcoro then -O2 s | llcoro / native | llcoro --dispatch=indirectbr s | indirectbr / native | llcoro --closed-promises s | closed / native | LLVM coro passes then -O2 s | LLVM-early / native |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
} | tee "$out.md"
