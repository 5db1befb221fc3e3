#!/usr/bin/env python3
"""Heap frames: how many heap allocations remain, llcoro against LLVM, counted by valgrind.

For each program of the differential suite (tests/diff/*.cpp) and for tests/elide/callers.ll:
- native: `clang++-22 -O2` (LLVM's coro passes inside -O2: CoroElide after inlining);
- llcoro: `clang++-22 -O2 -Xclang -disable-llvm-passes -emit-llvm`, then llcoro, then `clang++-22 -O2`.
Both run under `valgrind` (memcheck), whose "total heap usage: N allocs" counts every malloc and
operator new. The programs do the same work either way, so the difference is the coroutine frames
one lowering keeps off the heap and the other does not. For tests/elide/callers.ll, LLVM's coro
passes without inlining are shown too.
Writes bench/out/elision.md.

usage: bench/elision.py [--filter SUBSTRING]
"""
import argparse
import glob
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "elision")
LLCORO = os.path.join(ROOT, "target", "release", "llcoro")
ALLOCS = re.compile(r"total heap usage: ([\d,]+) allocs")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def allocs(exe):
    p = subprocess.run(["valgrind", exe], capture_output=True, text=True)
    m = ALLOCS.search(p.stderr)
    return (int(m.group(1).replace(",", "")) if m else None), p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filter", default="")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    sh(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    rows = []
    inc = ["-I", os.path.join(ROOT, "tests", "diff", "support")]
    for src in sorted(glob.glob(os.path.join(ROOT, "tests", "diff", "*.cpp"))):
        name = os.path.basename(src)[:-4]
        if a.filter not in name:
            continue
        base = os.path.join(OUT, name)
        sh(["clang++-22", "-std=c++20", "-O2", "-w", *inc, src, "-o", base + ".native"])
        sh(["clang++-22", "-std=c++20", "-O2", "-w", *inc, "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S",
            src, "-o", base + ".ll"])
        sh([LLCORO, base + ".ll", "-o", base + ".low.ll"])
        sh(["clang++-22", "-O2", "-w", base + ".low.ll", "-o", base + ".llcoro"])
        n, out_n = allocs(base + ".native")
        l, out_l = allocs(base + ".llcoro")
        rows.append((name, n, l, out_n == out_l))
    lines = ["command: `bench/elision.py`", "",
             "| program | heap allocations, clang -O2 | heap allocations, llcoro then -O2 | llcoro - LLVM | same output |",
             "|---|---:|---:|---:|---|"]
    for name, n, l, same in rows:
        d = (l - n) if n is not None and l is not None else "?"
        lines.append(f"| {name} | {n} | {l} | {d} | {'yes' if same else 'NO'} |")
    tn = sum(r[1] or 0 for r in rows)
    tl = sum(r[2] or 0 for r in rows)
    more = sum(1 for r in rows if r[1] is not None and r[2] is not None and r[2] > r[1])
    lines += ["", f"Total over {len(rows)} programs: clang -O2 {tn}, llcoro {tl} "
              f"({tl - tn:+d}); llcoro allocates more on {more} programs."]
    # tests/elide/callers.ll: 6 coroutines created by 3 callers, one of which lets its handle escape.
    src = os.path.join(ROOT, "tests", "elide", "callers.ll")
    base = os.path.join(OUT, "callers")
    sh([LLCORO, src, "-o", base + ".low.ll"])
    sh(["clang-19", "-O2", "-w", base + ".low.ll", "-o", base + ".llcoro"])
    sh(["opt-19", "-passes=coro-early,coro-split,coro-cleanup", "-S", src, "-o", base + ".split.ll"])
    sh(["clang-19", "-O2", "-w", base + ".split.ll", "-o", base + ".split"])
    sh(["clang-19", "-O2", "-w", src, "-o", base + ".native"])
    counts = {k: allocs(base + "." + k)[0] for k in ["llcoro", "split", "native"]}
    lines += ["", "tests/elide/callers.ll (6 coroutines created by 3 callers; one lets its handle escape), heap "
              "allocations counted by valgrind:", "",
              f"- llcoro, then clang-19 -O2: {counts['llcoro']}",
              f"- LLVM's coro passes alone (opt-19 coro-early,coro-split,coro-cleanup), then -O2: {counts['split']}",
              f"- clang-19 -O2 on the presplit file (LLVM's full pipeline, CoroElide after inlining): {counts['native']}"]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(ROOT, "bench", "out", "elision.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
