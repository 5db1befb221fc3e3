#!/usr/bin/env python3
"""Frame bytes: llcoro against LLVM 22 on the differential suite (tests/diff/*.cpp).

Each program is compiled with `clang++-22 -std=c++20 -O2 -Xclang -disable-llvm-passes -emit-llvm -S`.
llcoro's frame sizes come from `llcoro frames --format json`; LLVM's from the `dereferenceable(N)` of
each `.resume` function that `opt-22 -passes=coro-early,coro-split,coro-cleanup` writes for the same
file. A frame that holds a child coroutine's frame (heap elision across co_await) is counted without
the bytes only child frames use: the child's bytes are the child's frame, counted on its own row. Writes bench/out/frame_bytes.md.

usage: bench/frame_bytes.py [--opt O2|O0]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "frame_bytes")
LLCORO = os.path.join(ROOT, "target", "release", "llcoro")
RESUME = re.compile(r"^define internal fastcc void @(\"?)(.+?)\.resume\1?\(ptr [^)]*dereferenceable\((\d+)\)", re.M)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", default="O2")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    rows = []
    for src in sorted(glob.glob(os.path.join(ROOT, "tests", "diff", "*.cpp"))):
        name = os.path.basename(src)[:-4]
        ll = os.path.join(OUT, name + ".ll")
        subprocess.run(["clang++-22", "-std=c++20", f"-{a.opt}", "-w", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S", src, "-o", ll], check=True)
        ours = json.loads(subprocess.run([LLCORO, "frames", "--format", "json", ll], capture_output=True, text=True, check=True).stdout)
        opt = subprocess.run(["opt-22", "-passes=coro-early,coro-split,coro-cleanup", "-S", ll], capture_output=True, text=True, check=True).stdout
        theirs = {m.group(2): int(m.group(3)) for m in RESUME.finditer(opt)}
        for fr in ours["frames"]:
            key = fr["coroutine"].lstrip("@").strip('"')
            # A child coroutine's frame held inside this one (heap elision across co_await) is the
            # child's, which LLVM allocates separately: count this coroutine's own bytes.
            # Without them: the frame less the bytes only child frames use (children never alive
            # together share bytes, and other fields may share theirs), rounded up to its own
            # fields' alignment (a child frame may raise the alignment, and with it the padding).
            held_fields = [f for f in fr["fields"] if (f["value"] or "").startswith("%coro.elided.frame")]
            size = fr["size"]
            if held_fields:
                own = [f for f in fr["fields"] if f not in held_fields]
                covered = lambda fs: set(b for f in fs for b in range(f["offset"], f["offset"] + f["size"]))
                only_held = covered(held_fields) - covered(own)
                end = max(f["offset"] + f["size"] for f in own)
                end -= sum(1 for b in only_held if b < end)
                align = max(f["align"] for f in own)
                size = -(-end // align) * align
            if key in theirs:
                rows.append((name, key, size, theirs[key]))
            else:
                print(f"warning: no LLVM frame for {key} in {name}", file=sys.stderr)
    total_ours = sum(r[2] for r in rows)
    total_llvm = sum(r[3] for r in rows)
    smaller = sum(1 for r in rows if r[2] < r[3])
    equal = sum(1 for r in rows if r[2] == r[3])
    larger = [r for r in rows if r[2] > r[3]]
    lines = [f"command: `bench/frame_bytes.py --opt {a.opt}`", "",
             f"{len(rows)} coroutines in {len(set(r[0] for r in rows))} programs; total frame bytes llcoro {total_ours}, "
             f"LLVM 22 {total_llvm} (ratio {total_ours / max(total_llvm, 1):.3f}); llcoro smaller on {smaller}, "
             f"equal on {equal}, larger on {len(larger)}.", "",
             "| program | coroutine | llcoro bytes | LLVM 22 bytes |", "|---|---|---:|---:|"]
    for p, c, o, l in rows:
        lines.append(f"| {p} | `{c[:60]}` | {o} | {l} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(ROOT, "bench", "out", f"frame_bytes_{a.opt}.md"), "w") as f:
        f.write(text)
    print("\n".join(lines[:3]))


if __name__ == "__main__":
    main()
