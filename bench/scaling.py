#!/usr/bin/env python3
"""Scaling curve of coroutine lowering on the diamond benchmark (bench/gen_diamonds.py).

For N = 2k, 4k, 8k, 16k, 32k, 64k diamonds: llcoro (median of --runs runs) and
`opt-19 -passes=coro-early,coro-split,coro-cleanup -S` (one run, capped by --opt-timeout seconds and
--opt-mem-gb of address space), wall time and peak RSS from GNU time, in one run of this script.
Writes bench/out/scaling.md (table) and bench/out/scaling.svg (log-log plot).

usage: bench/scaling.py [--runs 3] [--opt-timeout 600] [--opt-mem-gb 20] [--sizes 2000,4000,...]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
LLCORO = os.path.join(ROOT, "target", "release", "llcoro")


def timed(cmd, timeout=None, mem_gb=None):
    """Runs cmd under /usr/bin/time; returns (seconds, peak_rss_mb, ok). MB = 10^6 bytes, as for the input."""
    pre = f"ulimit -v {int(mem_gb * 1024 * 1024)}; " if mem_gb else ""
    shell = pre + "exec /usr/bin/time -f '%M' " + " ".join(cmd)
    t0 = time.monotonic()
    try:
        p = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return (time.monotonic() - t0, None, False)
    dt = time.monotonic() - t0
    rss = None
    for line in reversed(p.stderr.strip().splitlines()):
        if line.strip().isdigit():
            rss = int(line.strip()) * 1024 / 1e6
            break
    return (dt, rss, p.returncode == 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--opt-timeout", type=float, default=600)
    ap.add_argument("--opt-mem-gb", type=float, default=20)
    ap.add_argument("--sizes", default="2000,4000,8000,16000,32000,64000")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    rows = []
    for n in [int(x) for x in a.sizes.split(",")]:
        src = os.path.join(OUT, f"diamonds-{n}.ll")
        with open(src, "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_diamonds.py"), str(n)], stdout=f, check=True)
        low = os.path.join(OUT, f"diamonds-{n}.low.ll")
        ll = [timed([LLCORO, src, "-o", low]) for _ in range(a.runs)]
        if not all(ok for _, _, ok in ll):
            sys.exit(f"llcoro failed on N={n}")
        verify = subprocess.run(["opt-19", "-passes=verify", "-disable-output", low], capture_output=True, text=True)
        if verify.returncode != 0 or verify.stderr.strip():
            sys.exit(f"opt-19 rejects llcoro's output for N={n}: {verify.stderr[:300]}")
        lt = statistics.median(t for t, _, _ in ll)
        lm = statistics.median(m for _, m, _ in ll)
        opt_out = os.path.join(OUT, f"diamonds-{n}.opt.ll")
        ot, om, ok = timed(["opt-19", "-passes=coro-early,coro-split,coro-cleanup", "-S", src, "-o", opt_out],
                           timeout=a.opt_timeout, mem_gb=a.opt_mem_gb)
        for p in (low, opt_out):
            if os.path.exists(p):
                os.remove(p)
        rows.append((n, os.path.getsize(src) / 1e6, lt, lm, ot if ok else None, om if ok else None, ok, ot))
        print(f"N={n}: llcoro {lt:.3f} s {lm:.0f} MB; opt-19 " + (f"{ot:.3f} s {om:.0f} MB" if ok else f"failed after {ot:.1f} s"), flush=True)
    lines = ["| N diamonds | input MB | llcoro s (median) | llcoro peak MB | llcoro peak / input | opt-19 s | opt-19 peak MB | time ratio opt/llcoro |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n, mb, lt, lm, ot, om, ok, raw in rows:
        o_t = f"{ot:.3f}" if ok else f"failed ({raw:.0f} s; limit {a.opt_mem_gb:.0f} GB / {a.opt_timeout:.0f} s)"
        o_m = f"{om:.0f}" if ok else "-"
        ratio = f"{ot / lt:.1f}x" if ok else "-"
        lines.append(f"| {n} | {mb:.1f} | {lt:.3f} | {lm:.0f} | {lm / mb:.1f} | {o_t} | {o_m} | {ratio} |")
    table = "\n".join(lines)
    cmd = "bench/scaling.py " + " ".join(sys.argv[1:])
    with open(os.path.join(OUT, "scaling.md"), "w") as f:
        f.write(f"command: `{cmd.strip()}`\n\n{table}\n")
    print(table)
    write_svg(rows, os.path.join(OUT, "scaling.svg"))


def write_svg(rows, path):
    import math
    w, h, m = 640, 420, 60
    xs = [r[0] for r in rows]
    ys = [r[2] for r in rows] + [r[4] for r in rows if r[4]]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y0, y1 = math.log10(min(ys)) - 0.2, math.log10(max(ys)) + 0.2

    def px(x):
        return m + (math.log10(x) - x0) / (x1 - x0 or 1) * (w - 2 * m)

    def py(y):
        return h - m - (math.log10(y) - y0) / (y1 - y0 or 1) * (h - 2 * m)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
           f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
           f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle">diamonds N (log scale)</text>',
           f'<text x="15" y="{h / 2}" transform="rotate(-90 15 {h / 2})" text-anchor="middle">seconds (log scale)</text>',
           f'<text x="{w / 2}" y="25" text-anchor="middle" font-size="14">Coroutine lowering time: llcoro vs opt-19 coro passes</text>']
    for x in xs:
        out.append(f'<text x="{px(x):.1f}" y="{h - m + 18}" text-anchor="middle">{x // 1000}k</text>')
    for e in range(math.floor(y0), math.ceil(y1) + 1):
        y = 10 ** e
        if y0 <= e <= y1:
            out.append(f'<line x1="{m - 4}" y1="{py(y):.1f}" x2="{w - m}" y2="{py(y):.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{m - 8}" y="{py(y) + 4:.1f}" text-anchor="end">{y:g}</text>')
    for col, idx, label in (("#1f77b4", 2, "llcoro"), ("#d62728", 4, "opt-19")):
        pts = [(r[0], r[idx]) for r in rows if r[idx]]
        if pts:
            out.append(f'<polyline fill="none" stroke="{col}" stroke-width="2" points="' + " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts) + '"/>')
            for x, y in pts:
                out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{col}"/>')
        ly = 50 + (0 if idx == 2 else 18)
        out.append(f'<rect x="{m + 10}" y="{ly - 9}" width="12" height="3" fill="{col}"/><text x="{m + 28}" y="{ly - 4}">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
