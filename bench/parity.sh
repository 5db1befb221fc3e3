#!/usr/bin/env bash
# Runtime parity of llcoro-lowered coroutine code against clang, on generator and task shapes each
# written the way a different library or textbook writes them (bench/runtime/*.cpp, listed below).
# Each program is built, for each clang version and -O level, three ways:
#   native:     clang++-V -OL (LLVM's pipeline: coro split inside -OL, after inlining)
#   llcoro:     clang++-V -OL -Xclang -disable-llvm-passes -emit-llvm | llcoro | clang++-V -OL
#   llvm-early: the same with opt-V -passes=coro-early,coro-split,coro-cleanup in llcoro's place
# checks that the three print the same, runs them interleaved N times (default 5) and prints a
# Markdown table of median CPU seconds (perf stat task-clock) and ratios against native; writes
# bench/out/parity.md (the -d directory with .md).
# usage: bench/parity.sh [-n N] [-v "19 22"] [-O "2 3"] [-p "prog ..."] [-b path/to/llcoro] [-d out/dir]
# (-b and -d: to measure another build of llcoro, e.g. main's, into a directory of its own)
set -euo pipefail
cd "$(dirname "$0")/.."
N=5; VS="19 22"; OS="2 3"; BIN=./target/release/llcoro; out=bench/out/parity
PROGS="next_rethrow lib_generator optional_call nested_yield range_break baker_task lib_task eager_task optional_task"
while getopts "n:v:O:p:b:d:" o; do
    case $o in n) N=$OPTARG;; v) VS=$OPTARG;; O) OS=$OPTARG;; p) PROGS=$OPTARG;; b) BIN=$OPTARG;; d) out=$OPTARG;; *) exit 2;; esac
done
[ "$BIN" != ./target/release/llcoro ] || cargo build --release --quiet
mkdir -p "$out"
median() { sort -n | awk '{a[NR]=$1} END {printf "%.3f\n", (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# CPU time (perf's task-clock) rather than wall time: the machine is shared, and another job
# taking the core stretches wall time, not the program's own time.
cpu_seconds() { perf stat -x, -e task-clock "$1" 2>&1 >/dev/null | awk -F, '$3 == "task-clock" {print $1 / 1000}'; }
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
                    ts[$v]+="$(cpu_seconds "$b.$v") "
                done
            done
            declare -A med
            for v in native llcoro early; do
                med[$v]=$(printf '%s\n' ${ts[$v]} | median)
            done
            row="| $prog | clang-$V -O$L | ${med[native]} | ${med[llcoro]} | **$(ratio "${med[llcoro]}" "${med[native]}")** | ${med[early]} | $(ratio "${med[early]}" "${med[native]}") |"
            echo "$row" >&2
            rows+=("$row")
        done
    done
done
{
    echo "command: \`bench/parity.sh -n $N -v \"$VS\" -O \"$OS\"\` ($(date -u '+%Y-%m-%d %H:%M UTC'), median CPU time (task-clock) of $N interleaved runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
    echo
    echo "| program | compiler | native CPU s | llcoro then same -O CPU s | llcoro / native | LLVM coro passes then same -O CPU s | LLVM-early / native |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
} | tee "$out.md"
