#!/usr/bin/env bash
# kxs suspend/resume cost, three versions of one suspend function measured in one run
# (bench/kxs/README.md): 10,000,000 suspends with three ints and a std::string live across each.
#   auto:  kxs with plain locals, lowered by llcoro (automatic spilling into the spill frame)
#   hand:  the seed's style: `goto *_label` in C++, every live variable kept by hand in a field
#   cxx20: the equivalent C++20 coroutine, lowered by clang -O2 itself
# Runs the three interleaved N times (default 7) and prints the median ns per suspend/resume, the
# ratios against hand spilling, and the bytes of suspended state; writes bench/out/kxs.md.
# usage: bench/kxs.sh [-n N] [-v 19]
set -euo pipefail
cd "$(dirname "$0")/.."
N=7; V=19
while getopts "n:v:" o; do case $o in n) N=$OPTARG;; v) V=$OPTARG;; *) exit 2;; esac; done
cargo build --release --quiet
out=bench/out/kxs; mkdir -p "$out"
inc=cpp/include
cxx=(clang++-"$V" -std=c++20 -O2 -Wno-gnu-label-as-value -I "$inc")
"${cxx[@]}" -S -emit-llvm -Xclang -disable-llvm-passes bench/kxs/auto_spill.cpp -o "$out/auto.presplit.ll"
./target/release/llcoro "$out/auto.presplit.ll" -o "$out/auto.ll"
clang++-"$V" -O2 "$out/auto.ll" -o "$out/auto"
# The spill frame llcoro laid out for the suspend function (its request to malloc).
frame=$(./target/release/llcoro frames "$out/auto.presplit.ll" | sed -n 's/.*kxs spill frame \([0-9]*\) bytes.*/\1/p' | head -1)
"${cxx[@]}" bench/kxs/hand_spill.cpp -o "$out/hand"
"${cxx[@]}" bench/kxs/cxx20.cpp -o "$out/cxx20"
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
declare -A ns bytes
for v in auto hand cxx20; do : > "$out/$v.ns"; done
for _ in $(seq "$N"); do
    for v in auto hand cxx20; do
        line=$("$out/$v")
        case "$line" in *" ok "*) ;; *) echo "$v: $line" >&2; exit 1;; esac
        echo "$line" | field ns_per_suspend_resume >> "$out/$v.ns"
        bytes[$v]=$(echo "$line" | sed -n 's/.*state_bytes=//p')
    done
done
for v in auto hand cxx20; do ns[$v]=$(median < "$out/$v.ns"); done
ratio() { awk -v a="$1" -v b="${ns[hand]}" 'BEGIN { printf "%.2f", a / b }'; }
{
    echo "| version | ns per suspend/resume (median of $N) | vs hand-spilled | suspended state (bytes) |"
    echo "| --- | --- | --- | --- |"
    echo "| kxs, automatic spilling (llcoro) | ${ns[auto]} | $(ratio "${ns[auto]}") | ${bytes[auto]}; llcoro's spill frame: $frame |"
    echo "| kxs, hand-spilled (seed style) | ${ns[hand]} | 1.00 | ${bytes[hand]} |"
    echo "| C++20 coroutine (clang -O2) | ${ns[cxx20]} | $(ratio "${ns[cxx20]}") | ${bytes[cxx20]} |"
} | tee "$out/../kxs.md"
