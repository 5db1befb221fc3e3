#!/usr/bin/env python3
"""Generate large LLVM 19 textual-IR modules for benchmarking llcoro.

Outputs (under bench/out/ by default):

  big.ll         C++20 code with coroutines *and* ordinary functions, compiled by
                 clang++-19 at -O0 -g with LLVM passes disabled, so every
                 coroutine is still a `presplitcoroutine` function full of
                 `llvm.coro.*` intrinsics (what llcoro has to lower).
  big-nocoro.ll  The same kind of ordinary code, with NO coroutines at all (and
                 without <coroutine>), at a larger scale so that it has a
                 similar size.  The text contains neither `llvm.coro.` nor
                 `presplitcoroutine`, so llcoro passes it through via its
                 byte-copy fast path.

What the coroutine module contains
----------------------------------
A shared prelude (identical in every translation unit, so the linkonce_odr
definitions are merged by llvm-link) defines:
  * bench::Generator<T>  - a lazy generator (co_yield), suspend_always
                           initial/final suspend, exception capture;
  * bench::Task<T>       - a lazy task whose operator co_await does symmetric
                           transfer (await_suspend returns the callee handle)
                           and whose final awaiter transfers to the
                           continuation (or std::noop_coroutine());
  * bench::Hop / bench::MaybeSuspend - awaiters returning coroutine_handle<>
                           (symmetric transfer to self) and bool;
  * bench::Guard         - an RAII type with a std::string member and a
                           non-trivial destructor (cleanups across suspends);
  * bench::Shape         - an abstract base with virtual functions.
Each "unit" k (namespace u<k>) then adds
  coroutines (~14.4 per unit; the default 140 units give 2,016 presplit
  coroutines among 14,054 function definitions, 84 MB):
    - gen<T>(T, int)          generator template: loop with 2 co_yields per
                              iteration (one conditional), RAII local,
                              trailing co_yield;
    - leaf<T>(T)              trivial Task<T> (co_return);
    - work<T>(T)              Task<T>: co_await of a Task (symmetric
                              transfer in and out), co_await Hop (symmetric
                              transfer to self), try/catch with an RAII local
                              around a co_await followed by a throw, and a
                              switch on a bool-await_suspend awaiter; RAII
                              local live across all suspends;
    - countdown(int)          Generator<int>, loop with co_yield;
    - add(int, int)           Task<int> with three co_awaits, one inside an
                              expression;
    - words(std::string, int) Generator<std::string> with string locals;
    - concat(std::string)     Task<std::string> looping over words() and
                              awaiting Hop;
    - drive()                 Task<long> awaiting add, work<T> and concat;
    gen<T>, leaf<T> and work<T> are instantiated for three element types per
    unit, rotating through {int, long, double, float, unsigned};
  ordinary functions (~85 definitions per unit including the clang-emitted
  __await_suspend_wrapper clones, constructors, destructors, vtable
  functions and library template instantiations):
    - struct Rect (final) / Circle deriving Shape (virtual area/name/scale,
      virtual destructor called through delete), a POD struct Point with
      member functions,
    - loop_sum (nested for/while loops over std::vector<int>, continue),
      classify (dense 12-case switch -> jump table), sparse_switch (sparse
      switch returning string literals), render (std::string building with
      to_string / append / find / substr / insert), poly (virtual calls
      through Shape&), and ordinary_run() / coro_run() which call everything
      (coro_run drives the generators and tasks synchronously).
big-nocoro.ll contains only the ordinary part (default 920 units, 17,640
function definitions, 85 MB) and never includes <coroutine>.

The units are split over several .cpp files that are compiled separately (in
parallel) and merged with `llvm-link-19 -S`, whose output is still LLVM 19
textual IR.

If the result is smaller than --min-mb (default 50 MB) the script scales up
proportionally and regenerates, so the default always yields >= 50 MB.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))

CLANG = "clang++-19"
LINK = "llvm-link-19"
CFLAGS = ["-std=c++20", "-O0", "-g", "-Xclang", "-disable-llvm-passes", "-S", "-emit-llvm"]

# Units per translation unit (keeps each clang invocation short).
UNITS_PER_TU = 60
# Calibrated on LLVM 19: units at --scale 1.0.
CORO_UNITS = 140
NOCORO_UNITS = 920

TYPES = ["int", "long", "double", "float", "unsigned"]

COMMON_INCLUDES = """\
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
"""

COMMON_PRELUDE = r"""
namespace bench {
extern volatile long sink;
inline void consume(long v) { sink = sink + v; }

struct Guard {
  std::string name;
  int depth;
  explicit Guard(const char *n, int d = 0) : name(n), depth(d) { consume(d); }
  Guard(const Guard &) = delete;
  ~Guard() { consume(static_cast<long>(name.size()) + depth); }
};

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual std::string name() const { return "shape"; }
  virtual void scale(double f) = 0;
};
} // namespace bench
"""

CORO_PRELUDE = r"""
namespace bench {
template <typename T> struct Generator {
  struct promise_type {
    T current{};
    std::exception_ptr exc;
    Generator get_return_object() {
      return Generator{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) {
      current = std::move(v);
      return {};
    }
    void return_void() {}
    void unhandled_exception() { exc = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Generator(std::coroutine_handle<promise_type> hh) : h(hh) {}
  Generator(Generator &&o) noexcept : h(std::exchange(o.h, {})) {}
  Generator(const Generator &) = delete;
  ~Generator() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    if (h.promise().exc)
      std::rethrow_exception(h.promise().exc);
    return !h.done();
  }
  T &value() { return h.promise().current; }
};

template <typename T> struct Task {
  struct promise_type {
    T value{};
    std::exception_ptr exc;
    std::coroutine_handle<> continuation = std::noop_coroutine();
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> me) noexcept {
        return me.promise().continuation; // symmetric transfer
      }
      void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void return_value(T v) { value = std::move(v); }
    void unhandled_exception() { exc = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> hh) : h(hh) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, {})) {}
  Task(const Task &) = delete;
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
    h.promise().continuation = caller;
    return h; // symmetric transfer into the callee
  }
  T await_resume() {
    if (h.promise().exc)
      std::rethrow_exception(h.promise().exc);
    return std::move(h.promise().value);
  }
  T run() {
    h.resume();
    return await_resume();
  }
};

struct Hop {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> me) noexcept { return me; }
  void await_resume() const noexcept {}
};

struct MaybeSuspend {
  bool really;
  bool await_ready() const noexcept { return !really; }
  bool await_suspend(std::coroutine_handle<>) noexcept { return false; }
  int await_resume() const noexcept { return really ? 1 : 0; }
};
} // namespace bench
"""


def ordinary_unit(k: int) -> str:
    """Ordinary (non-coroutine) code for unit k."""
    m = k % 7 + 2
    cases = "\n".join(
        f"  case {c}: r = x * {c + m} + {k % 13}; break;" for c in range(12)
    )
    sparse = "\n".join(
        f"  case {c * 37 + k % 11}: return \"s{c}_{k}\";" for c in range(8)
    )
    return f"""
namespace u{k} {{
using namespace bench;
struct Point {{
  int x, y;
  double w;
  Point operator+(const Point &o) const {{ return {{x + o.x, y + o.y, w + o.w}}; }}
  long dot(const Point &o) const {{ return long(x) * o.x + long(y) * o.y; }}
}};

struct Rect final : Shape {{
  double wd, ht;
  Rect(double a, double b) : wd(a), ht(b) {{}}
  double area() const override {{ return wd * ht + {k}; }}
  std::string name() const override {{ return "rect{k}"; }}
  void scale(double f) override {{ wd *= f; ht *= f; }}
}};

struct Circle : Shape {{
  double r;
  explicit Circle(double rr) : r(rr) {{}}
  double area() const override {{ return 3.14159 * r * r; }}
  void scale(double f) override {{ r *= f * {m}; }}
}};

long loop_sum(const std::vector<int> &v, int reps) {{
  long acc = 0;
  for (int r = 0; r < reps; ++r) {{
    for (size_t i = 0; i < v.size(); ++i) {{
      if (v[i] % {m} == 0)
        continue;
      acc += v[i] * (r + {k % 5 + 1});
      if (acc > {1000 + k})
        acc -= {k % 97 + 3};
    }}
    int j = 0;
    while (j < reps && acc % 3 != 0) {{ acc += j++; }}
  }}
  return acc;
}}

int classify(int x) {{
  int r = 0;
  switch (x % 12) {{
{cases}
  default: r = -x; break;
  }}
  return r;
}}

const char *sparse_switch(int x) {{
  switch (x) {{
{sparse}
  default: return "none";
  }}
}}

std::string render(const std::string &prefix, int n) {{
  std::string out = prefix;
  for (int i = 0; i < n; ++i) {{
    out += std::to_string(i * {m});
    out.append(sparse_switch(i));
    if (out.size() > 64)
      out = out.substr(out.size() / 2);
  }}
  auto pos = out.find("s1");
  if (pos != std::string::npos)
    out.insert(pos, "<{k}>");
  return out;
}}

double poly(Shape &s, int times) {{
  double t = 0;
  for (int i = 0; i < times; ++i) {{
    t += s.area();
    s.scale(1.01);
    t += static_cast<double>(s.name().size());
  }}
  return t;
}}

long ordinary_run() {{
  std::vector<int> v;
  for (int i = 0; i < {8 + k % 9}; ++i)
    v.push_back(i * {m} + classify(i));
  long acc = loop_sum(v, 3);
  Shape *a = new Rect(1.5, {k % 10 + 1}.0);
  Circle c({k % 4 + 1}.0);
  acc += static_cast<long>(poly(*a, 3) + poly(c, 2));
  delete a;
  Point p{{1, {k % 9}, 0.5}}, q{{{m}, 2, 1.5}};
  acc += (p + q).dot(q);
  acc += static_cast<long>(render("u{k}", 5).size());
  return acc;
}}
}} // namespace u{k}
"""


def unit_types(k: int):
    """The three element types unit k instantiates its templates for."""
    return [TYPES[(k + i) % len(TYPES)] for i in range(3)]


def coro_unit(k: int) -> str:
    """Coroutine code for unit k (requires the coroutine prelude)."""
    m = k % 5 + 2
    types = unit_types(k)
    inst_gen = "\n".join(
        f"  for (auto g = gen<{t}>({t}({m}), {k % 4 + 2}); g.next();) acc += static_cast<long>(g.value());"
        for t in types
    )
    awaits = "\n".join(
        f"  acc += static_cast<long>(co_await work<{t}>({t}({i + 1})));"
        for i, t in enumerate(types)
    )
    return f"""
namespace u{k} {{
template <typename T> Generator<T> gen(T start, int n) {{
  Guard g("gen{k}", n);
  T cur = start;
  for (int i = 0; i < n; ++i) {{
    co_yield cur;
    cur = cur + T({m});
    if (i % 2 == 0)
      co_yield cur * T(2);
  }}
  co_yield start;
}}

template <typename T> Task<T> leaf(T x) {{ co_return x + T({k % 11}); }}

template <typename T> Task<T> work(T x) {{
  Guard outer("work{k}");
  T a = co_await leaf<T>(x);
  co_await Hop{{}};
  try {{
    Guard inner("try{k}", 1);
    T b = co_await leaf<T>(a);
    if (b > T({100 + k}))
      throw std::runtime_error("too big {k}");
    a = a + b;
  }} catch (const std::exception &e) {{
    a = a - T(1);
  }}
  switch (co_await MaybeSuspend{{x > T(0)}}) {{
  case 0: a = a + T(2); break;
  default: a = a + T({m}); break;
  }}
  co_return a;
}}

Generator<int> countdown(int n) {{
  while (n > 0) {{
    co_yield n;
    n -= {m};
  }}
  co_yield 0;
}}

Task<int> add(int a, int b) {{
  int x = co_await leaf<int>(a);
  co_await Hop{{}};
  co_return x + co_await leaf<int>(b);
}}

Generator<std::string> words(std::string base, int n) {{
  Guard g("words{k}");
  for (int i = 0; i < n; ++i) {{
    std::string w = base + std::to_string(i);
    co_yield w;
    if (w.size() > {4 + k % 3})
      co_yield w.substr(1);
  }}
}}

Task<std::string> concat(std::string base) {{
  std::string out;
  for (auto g = words(base, {m}); g.next();) {{
    out += g.value();
    co_await Hop{{}};
  }}
  co_return out;
}}

Task<long> drive() {{
  Guard g("drive{k}");
  long acc = co_await add({k % 7}, {m});
{awaits}
  std::string s = co_await concat("w{k}");
  acc += static_cast<long>(s.size());
  co_return acc;
}}

long coro_run() {{
  long acc = 0;
{inst_gen}
  for (auto c = countdown({k % 9 + 3}); c.next();) acc += c.value();
  acc += drive().run();
  return acc;
}}
}} // namespace u{k}
"""


def make_tu(first: int, count: int, coro: bool) -> str:
    parts = []
    if coro:
        parts.append("#include <coroutine>\n")
    parts.append(COMMON_INCLUDES)
    parts.append(COMMON_PRELUDE)
    if coro:
        parts.append(CORO_PRELUDE)
    parts.append("using namespace bench;\n")
    for k in range(first, first + count):
        parts.append(ordinary_unit(k))
        if coro:
            parts.append(coro_unit(k))
    tu_index = first // UNITS_PER_TU
    calls = []
    for k in range(first, first + count):
        calls.append(f"  acc += u{k}::ordinary_run();")
        if coro:
            calls.append(f"  acc += u{k}::coro_run();")
    parts.append(f"\nlong tu_run_{tu_index}() {{\n  long acc = 0;\n" + "\n".join(calls) + "\n  return acc;\n}\n")
    if first == 0:
        parts.append("namespace bench { volatile long sink = 0; }\n")
    return "".join(parts)


def ir_stats(path: str):
    """(number of function definitions, number of presplit coroutines)."""
    import re
    with open(path, "rb") as fh:
        data = fh.read()
    groups = set(re.findall(rb"^attributes (#\d+) = \{[^\n]*\bpresplitcoroutine\b", data, re.M))
    defs = coros = 0
    for line in re.finditer(rb"^define [^\n]*", data, re.M):
        defs += 1
        attrs = set(re.findall(rb"\) (?:[^\n]* )?(#\d+) ", line.group(0)))
        if attrs & groups or b" presplitcoroutine " in line.group(0):
            coros += 1
    return defs, coros


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(f"command failed: {' '.join(cmd)}\n{r.stderr[-4000:]}\n")
        raise SystemExit(1)
    return r


def build(out_path: str, units: int, coro: bool, jobs: int) -> float:
    """Generate, compile and link; returns the output size in MB."""
    workdir = tempfile.mkdtemp(prefix="gen-", dir=os.path.dirname(out_path))
    try:
        chunks = [(f, min(UNITS_PER_TU, units - f)) for f in range(0, units, UNITS_PER_TU)]
        lls = []
        for i, (f, c) in enumerate(chunks):
            src = os.path.join(workdir, f"tu{i:03d}.cpp")
            with open(src, "w") as fh:
                fh.write(make_tu(f, c, coro))
            lls.append((src, os.path.join(workdir, f"tu{i:03d}.ll")))

        def compile_one(pair):
            src, ll = pair
            run([CLANG, *CFLAGS, src, "-o", ll])
            return ll

        t0 = time.time()
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            outs = list(ex.map(compile_one, lls))
        t1 = time.time()
        tmp_out = out_path + ".tmp"
        run([LINK, "-S", *outs, "-o", tmp_out])
        os.replace(tmp_out, out_path)
        t2 = time.time()
        mb = os.path.getsize(out_path) / 1e6
        defs, coros = ir_stats(out_path)
        print(f"  {os.path.basename(out_path)}: {units} units in {len(chunks)} TUs, "
              f"compile {t1 - t0:.1f}s, link {t2 - t1:.1f}s, {mb:.1f} MB, "
              f"{defs} function definitions of which {coros} presplit coroutines", flush=True)
        return mb
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def build_at_least(out_path, units, coro, jobs, min_mb):
    mb = build(out_path, units, coro, jobs)
    tries = 0
    while mb < min_mb and tries < 3:
        units = int(math.ceil(units * min_mb / mb * 1.03)) + 1
        print(f"  {mb:.1f} MB < {min_mb} MB: rescaling to {units} units", flush=True)
        mb = build(out_path, units, coro, jobs)
        tries += 1
    if mb < min_mb:
        sys.exit(f"could not reach {min_mb} MB for {out_path}")
    return mb


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0,
                    help="size multiplier (1.0 gives >= 50 MB per module)")
    ap.add_argument("--min-mb", type=float, default=None,
                    help="rescale until each module is at least this many MB "
                         "(default 50 when --scale >= 1, else 0 = no check)")
    ap.add_argument("--out-dir", default=os.path.join(HERE, "out"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--only", choices=["coro", "nocoro"], help="build only one module")
    ap.add_argument("--emit-sources", metavar="DIR",
                    help="only write the .cpp files of a tiny (2-unit) sample to DIR")
    args = ap.parse_args()

    if args.emit_sources:
        os.makedirs(args.emit_sources, exist_ok=True)
        for name, coro in (("coro.cpp", True), ("nocoro.cpp", False)):
            with open(os.path.join(args.emit_sources, name), "w") as fh:
                fh.write(make_tu(0, 2, coro))
        return

    for tool in (CLANG, LINK):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} not found")
    os.makedirs(args.out_dir, exist_ok=True)
    min_mb = args.min_mb if args.min_mb is not None else (50.0 if args.scale >= 1.0 else 0.0)

    t0 = time.time()
    if args.only in (None, "coro"):
        units = max(1, int(round(CORO_UNITS * args.scale)))
        build_at_least(os.path.join(args.out_dir, "big.ll"), units, True, args.jobs, min_mb)
    if args.only in (None, "nocoro"):
        units = max(1, int(round(NOCORO_UNITS * args.scale)))
        path = os.path.join(args.out_dir, "big-nocoro.ll")
        build_at_least(path, units, False, args.jobs, min_mb)
        with open(path, "rb") as fh:
            data = fh.read()
        if b"llvm.coro." in data or b"presplitcoroutine" in data:
            sys.exit("big-nocoro.ll unexpectedly mentions coroutines")
    print(f"generation took {time.time() - t0:.1f}s", flush=True)


if __name__ == "__main__":
    main()
