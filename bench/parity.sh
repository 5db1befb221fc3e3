#!/usr/bin/env bash
# Runtime parity of llcoro-lowered coroutine code against clang, on generator and task shapes each
# written the way a different library or textbook writes them (bench/runtime/*.cpp, listed below).
# Each program is built, for each clang version and -O level, three ways:
#   native:     clang++-V -OL (LLVM's pipeline: coro split inside -OL, after inlining)
#   llcoro:     clang++-V -OL -Xclang -disable-llvm-passes -emit-llvm | llcoro | clang++-V -OL
#   llvm-early: the same with opt-V -passes=coro-early,coro-split,coro-cleanup in llcoro's place
# checks that the three print the same, runs them interleaved N times (default 5) and prints a
# Markdown table of medians and ratios against native; writes bench/out/parity.md.
# usage: bench/parity.sh [-n N] [-v "19 22"] [-O "2 3"] [-p "prog ..."] [-b path/to/llcoro]
set -euo pipefail
cd "$(dirname "$0")/.."
N=5; VS="19 22"; OS="2 3"; BIN=./target/release/llcoro
PROGS="next_rethrow lib_generator optional_call nested_yield range_break baker_task lib_task eager_task optional_task"
while getopts "n:v:O:p:b:" o; do
    case $o in n) N=$OPTARG;; v) VS=$OPTARG;; O) OS=$OPTARG;; p) PROGS=$OPTARG;; b) BIN=$OPTARG;; *) exit 2;; esac
done
[ "$BIN" != ./target/release/llcoro ] || cargo build --release --quiet
out=bench/out/parity; mkdir -p "$out"
median() { sort -n | awk '{a[NR]=$1} END {printf "%.3f\n", (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
rows=()
for prog in $PROGS; do
    src=bench/runtime/$prog.cpp
    for V in $VS; do
        for L in $OS; do
            b=$out/$prog.$V.O$L
            clang++-$V -std=c++20 -O"$L" "$src" -o "$b.native"
            clang++-$V -std=c++20 -O"$L" -Xclang -disable-llvm-passes -emit-llvm -S "$src" -o "$b.presplit.ll"
            "$BIN" "$b.presplit.ll" -o "$b.llcoro.ll"
            clang++-$V -O"$L" "$b.llcoro.ll" -o "$b.llcoro"
            opt-$V -passes=coro-early,coro-split,coro-cleanup -S "$b.presplit.ll" -o "$b.early.ll"
            clang++-$V -O"$L" "$b.early.ll" -o "$b.early"
            ref=$("$b.native")
            for v in llcoro early; do
                got=$("$b.$v")
                [ "$got" = "$ref" ] || { echo "$b.$v prints $got, native prints $ref" >&2; exit 1; }
            done
            declare -A ts=([native]="" [llcoro]="" [early]="")
            for _ in $(seq "$N"); do
                for v in native llcoro early; do
                    t0=$(now); "$b.$v" > /dev/null; t1=$(now)
                    ts[$v]+="$(( (t1 - t0) / 1000 )) "
                done
            done
            declare -A med
            for v in native llcoro early; do
                med[$v]=$(printf '%s\n' ${ts[$v]} | awk '{print $1 / 1e6}' | median)
            done
            row="| $prog | clang-$V -O$L | ${med[native]} | ${med[llcoro]} | **$(ratio "${med[llcoro]}" "${med[native]}")** | ${med[early]} | $(ratio "${med[early]}" "${med[native]}") |"
            echo "$row" >&2
            rows+=("$row")
        done
    done
done
{
    echo "command: \`bench/parity.sh -n $N -v \"$VS\" -O \"$OS\"\` ($(date -u '+%Y-%m-%d %H:%M UTC'), medians of $N interleaved runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
    echo
    echo "| program | compiler | native s | llcoro then same -O s | llcoro / native | LLVM coro passes then same -O s | LLVM-early / native |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
} | tee "$out.md"
