#!/usr/bin/env python3
"""Random C++20 coroutine program generator for llcoro's differential tests.

    gen.py SEED        print the program for SEED (an integer) on stdout

The program is a deterministic function of SEED (and of this file). Every
program is self-contained (standard headers only), free of undefined
behaviour, deterministic, prints a trace with printf, and ends with the line
`checksum XXXXXXXXXXXXXXXX` and exit status 0. See README.md in this
directory for what is covered and how programs stay well defined.
"""

import random
import sys

# ---------------------------------------------------------------------------
# The prelude: helpers and coroutine types, parts chosen per program
# ---------------------------------------------------------------------------

HEADERS = """\
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <utility>
"""

CORE = """\
static unsigned long long g_ck = 14695981039346656037ull;
static void mixck(unsigned long long v) { g_ck = (g_ck ^ v) * 1099511628211ull; }
static void note(const char* tag, long long v) {
  std::printf("%s %lld\\n", tag, v);
  for (const char* p = tag; *p; ++p) mixck((unsigned char)*p);
  mixck((unsigned long long)v);
}
template <class... A>
static long long mixv(A... a) {
  unsigned long long h = 7;
  ((h = h * 1000003ull + (unsigned long long)(long long)a), ...);
  return (long long)(h % 1000000007ull);
}
struct Boom {
  int code;
};
struct Pod {
  int a;
  char b;
  double c;
  short d;
};
static int g_live = 0;
struct Tracked {
  int id;
  long long v;
  Tracked(int i, long long x) : id(i), v(x) {
    ++g_live;
    note("T+", id);
  }
  Tracked(Tracked&& o) noexcept : id(o.id + 100), v(o.v) {
    ++g_live;
    note("Tm", id);
  }
  Tracked(const Tracked&) = delete;
  ~Tracked() {
    --g_live;
    note("T-", id * 100000 + v % 100000);
  }
};
static long long pv(const Pod& p) { return p.a + p.d + (p.b - 'A'); }
template <class T>
static int mis(const T* p, int a) {
  return (int)(reinterpret_cast<std::uintptr_t>(p) % (std::uintptr_t)a);
}
"""

SCHED = """\
static std::coroutine_handle<> g_q[256];
static unsigned g_qh = 0, g_qt = 0;
static void push(std::coroutine_handle<> h) {
  if (g_qt - g_qh >= 256) {
    std::puts("queue overflow");
    std::exit(3);
  }
  g_q[g_qt++ % 256] = h;
}
static std::coroutine_handle<> pop() { return g_q[g_qh++ % 256]; }
static void run_all() {
  while (g_qh != g_qt) pop().resume();
}
// Resumes at most n queued coroutines; what is left is dropped (its owner destroys it).
static void run_some(int n) {
  for (int i = 0; i < n && g_qh != g_qt; ++i) pop().resume();
}
"""

# Awaiters, by name: (text, usable in generators, suspends to the scheduler)
AWAITERS = {
    "Yield": """\
struct Yield {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const { push(h); }
  void await_resume() const noexcept {}
};
""",
    "MaybeSusp": """\
struct MaybeSusp {
  bool s;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<> h) const {
    if (s) push(h);
    return s;
  }
  int await_resume() const noexcept { return s ? 1 : 2; }
};
""",
    "Ready": """\
struct Ready {
  bool r;
  int v;
  bool await_ready() const noexcept { return r; }
  void await_suspend(std::coroutine_handle<> h) const { push(h); }
  int await_resume() const noexcept { return v; }
};
""",
    "Transfer": """\
struct Transfer {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) const {
    push(h);
    return pop();
  }
  void await_resume() const noexcept {}
};
""",
    "ToNoop": """\
struct ToNoop {
  int v;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) const {
    push(h);
    return std::noop_coroutine();
  }
  int await_resume() const noexcept { return v; }
};
""",
    "SelfXfer": """\
struct SelfXfer {
  int v;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) const noexcept { return h; }
  int await_resume() const noexcept { return v; }
};
""",
    "NoSusp": """\
struct NoSusp {
  int v;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<>) const noexcept { return false; }
  int await_resume() const noexcept { return v; }
};
""",
    "ThrowSusp": """\
struct ThrowSusp {
  bool t;
  int code;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<>) const {
    if (t) throw Boom{code};
    return false;
  }
  void await_resume() const noexcept {}
};
""",
    "ThrowResume": """\
struct ThrowResume {
  bool t;
  int code;
  bool await_ready() const noexcept { return t; }
  void await_suspend(std::coroutine_handle<> h) const { push(h); }
  int await_resume() const {
    if (t) throw Boom{code};
    return code % 7;
  }
};
""",
    "Park": """\
struct Park {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};
""",
}

ALLOC_PLAIN = """\
static int g_new = 0, g_del = 0, g_badsize = 0, g_attempt = 0;
static void* counted_new(std::size_t sz) {
  ++g_new;
  unsigned char* p = (unsigned char*)std::malloc(sz + 16);
  if (!p) std::abort();
  std::memcpy(p, &sz, sizeof sz);
  return p + 16;
}
static void counted_delete(void* q, std::size_t sz) {
  ++g_del;
  unsigned char* p = (unsigned char*)q - 16;
  std::size_t s0;
  std::memcpy(&s0, p, sizeof s0);
  if (s0 != sz) ++g_badsize;
  std::free(p);
}
"""

# 64-byte aligned frames, for programs with alignas(32/64) locals (clang does not
# re-align a frame from a 16-byte aligned operator new).
ALLOC_ALIGNED = """\
static int g_new = 0, g_del = 0, g_badsize = 0, g_attempt = 0;
static void* counted_new(std::size_t sz) {
  ++g_new;
  std::size_t total = (sz + 64 + 63) / 64 * 64;
  unsigned char* p = (unsigned char*)std::aligned_alloc(64, total);
  if (!p) std::abort();
  std::memcpy(p, &sz, sizeof sz);
  return p + 64;
}
static void counted_delete(void* q, std::size_t sz) {
  ++g_del;
  unsigned char* p = (unsigned char*)q - 64;
  std::size_t s0;
  std::memcpy(&s0, p, sizeof s0);
  if (s0 != sz) ++g_badsize;
  std::free(p);
}
"""


def promise_alloc(cls, mode, fail_every):
    """Members of a promise type for its allocation mode."""
    if mode == "global":
        return ""
    if mode == "counted":
        return """\
    static void* operator new(std::size_t sz) { return counted_new(sz); }
    static void operator delete(void* p, std::size_t sz) noexcept { counted_delete(p, sz); }
"""
    # "failing": get_return_object_on_allocation_failure
    return f"""\
    static void* operator new(std::size_t sz) noexcept {{
      if (++g_attempt % {fail_every} == 0) {{
        note("allocfail", g_attempt);
        return nullptr;
      }}
      return counted_new(sz);
    }}
    static void operator delete(void* p, std::size_t sz) noexcept {{ counted_delete(p, sz); }}
    static {cls} get_return_object_on_allocation_failure() noexcept {{ return {cls}{{}}; }}
"""


def task_text(alloc, fail_every, final):
    if final == "xfer":
        final_aw = """\
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().cont;
        return c ? c : std::noop_coroutine();
      }
"""
    else:
        # Resumes the continuation inside await_suspend; the continuation may
        # destroy this coroutine before await_suspend returns (allowed: the
        # coroutine is suspended, and nothing touches the awaiter afterwards).
        final_aw = """\
      void await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().cont;
        if (c) c.resume();
      }
"""
    return f"""\
template <class T>
struct task {{
  struct promise_type {{
    T value{{}};
    std::exception_ptr exc;
    std::coroutine_handle<> cont;
{promise_alloc("task", alloc, fail_every)}\
    task get_return_object() {{ return task(std::coroutine_handle<promise_type>::from_promise(*this)); }}
    std::suspend_always initial_suspend() noexcept {{ return {{}}; }}
    struct final_aw {{
      bool await_ready() noexcept {{ return false; }}
{final_aw}\
      void await_resume() noexcept {{}}
    }};
    final_aw final_suspend() noexcept {{ return {{}}; }}
    void return_value(T v) {{ value = v; }}
    void unhandled_exception() {{ exc = std::current_exception(); }}
  }};
  std::coroutine_handle<promise_type> h;
  task() = default;
  explicit task(std::coroutine_handle<promise_type> c) : h(c) {{}}
  task(task&& o) noexcept : h(std::exchange(o.h, {{}})) {{}}
  ~task() {{
    if (h) h.destroy();
  }}
  bool valid() const {{ return (bool)h; }}
  bool done() const {{ return h.done(); }}
  void start() {{ h.resume(); }}
  T get() {{
    if (h.promise().exc) std::rethrow_exception(h.promise().exc);
    return h.promise().value;
  }}
  struct aw {{
    std::coroutine_handle<promise_type> ch;
    bool await_ready() const noexcept {{ return !ch; }}
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> p) noexcept {{
      ch.promise().cont = p;
      return ch;
    }}
    T await_resume() {{
      if (!ch) return T{{}};
      if (ch.promise().exc) std::rethrow_exception(ch.promise().exc);
      return ch.promise().value;
    }}
  }};
  aw operator co_await() && {{ return aw{{h}}; }}
}};
"""


def etask_text(alloc):
    return f"""\
template <class T>
struct etask {{
  struct promise_type {{
    T value{{}};
    std::exception_ptr exc;
    std::coroutine_handle<> cont;
{promise_alloc("etask", alloc, 0)}\
    etask get_return_object() {{ return etask(std::coroutine_handle<promise_type>::from_promise(*this)); }}
    std::suspend_never initial_suspend() noexcept {{ return {{}}; }}
    struct final_aw {{
      bool await_ready() noexcept {{ return false; }}
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {{
        auto c = h.promise().cont;
        return c ? c : std::noop_coroutine();
      }}
      void await_resume() noexcept {{}}
    }};
    final_aw final_suspend() noexcept {{ return {{}}; }}
    void return_value(T v) {{ value = v; }}
    void unhandled_exception() {{ exc = std::current_exception(); }}
  }};
  std::coroutine_handle<promise_type> h;
  etask() = default;
  explicit etask(std::coroutine_handle<promise_type> c) : h(c) {{}}
  etask(etask&& o) noexcept : h(std::exchange(o.h, {{}})) {{}}
  ~etask() {{
    if (h) h.destroy();
  }}
  bool valid() const {{ return (bool)h; }}
  bool done() const {{ return h.done(); }}
  T get() {{
    if (h.promise().exc) std::rethrow_exception(h.promise().exc);
    return h.promise().value;
  }}
  struct aw {{
    std::coroutine_handle<promise_type> ch;
    bool await_ready() const noexcept {{ return !ch || ch.done(); }}
    void await_suspend(std::coroutine_handle<> p) noexcept {{ ch.promise().cont = p; }}
    T await_resume() {{
      if (!ch) return T{{}};
      if (ch.promise().exc) std::rethrow_exception(ch.promise().exc);
      return ch.promise().value;
    }}
  }};
  aw operator co_await() && {{ return aw{{h}}; }}
}};
"""


def gen_text(alloc, yield_kind):
    if yield_kind == "always":
        yv = "    std::suspend_always yield_value(T v) noexcept {\n      cur = v;\n      return {};\n    }\n"
    else:
        yv = """\
    struct yield_aw {
      bool await_ready() const noexcept { return false; }
      bool await_suspend(std::coroutine_handle<>) const noexcept { return true; }
      void await_resume() const noexcept {}
    };
    yield_aw yield_value(T v) noexcept {
      cur = v;
      return {};
    }
"""
    return f"""\
template <class T>
struct gen {{
  struct promise_type {{
    T cur{{}};
    std::exception_ptr exc;
{promise_alloc("gen", alloc, 0)}\
    gen get_return_object() {{ return gen(std::coroutine_handle<promise_type>::from_promise(*this)); }}
    std::suspend_always initial_suspend() noexcept {{ return {{}}; }}
    std::suspend_always final_suspend() noexcept {{ return {{}}; }}
{yv}\
    void return_void() noexcept {{}}
    void unhandled_exception() {{ exc = std::current_exception(); }}
  }};
  std::coroutine_handle<promise_type> h;
  gen() = default;
  explicit gen(std::coroutine_handle<promise_type> c) : h(c) {{}}
  gen(gen&& o) noexcept : h(std::exchange(o.h, {{}})) {{}}
  ~gen() {{
    if (h) h.destroy();
  }}
  bool next() {{
    if (!h || h.done()) return false;
    h.resume();
    if (h.promise().exc) {{
      std::exception_ptr e = h.promise().exc;
      h.promise().exc = nullptr;
      std::rethrow_exception(e);
    }}
    return !h.done();
  }}
  T value() const {{ return h.promise().cur; }}
}};
"""


# ---------------------------------------------------------------------------
# Variables
# ---------------------------------------------------------------------------


class Var:
    def __init__(self, name, kind, extra=None, ro=False):
        self.name = name
        self.kind = kind
        self.extra = extra
        self.ro = ro  # loop counters: read only

    def readable(self):
        return self.kind not in ("gen", "ltask")

    def read(self):
        """A non-negative long long expression for the value (bounded, < 2^31)."""
        n, k = self.name, self.kind
        if k == "char":
            return f"(long long)({n} - 'a')"
        if k in ("short", "int", "bool"):
            return f"(long long){n}"
        if k == "i64":
            return n
        if k == "u64":
            return f"(long long)({n} % 1000003ull)"
        if k in ("double", "float"):
            return f"(long long)({n} * 4)"
        if k == "pod":
            return f"pv({n})"
        if k == "arr":
            _, elem, cnt = self.extra
            if elem == "double":
                return f"(long long)({n}[0] * 4 + {n}[{cnt - 1}] * 4)"
            return f"(long long)({n}[0] + {n}[{cnt - 1}])"
        if k == "tracked":
            return f"{n}.v"
        if k == "ptr":
            return f"(long long)*{n}"
        if k == "ref":
            return f"(long long){n}"
        raise AssertionError(k)

    def mutate(self, e):
        """Statements giving the variable a new value from the expression `e`
        (non-negative long long), keeping the read() invariants."""
        n, k = self.name, self.kind
        if k == "char":
            return [f"{n} = (char)('a' + ({n} - 'a' + {e}) % 26);"]
        if k == "short":
            return [f"{n} = (short)(({n} * 3 + {e}) % 1000);"]
        if k == "int":
            return [f"{n} = (int)(({n} * 7ll + {e}) % 100003);"]
        if k == "bool":
            return [f"{n} = ({e}) % 2 == 1;"]
        if k == "i64":
            return [f"{n} = ({n} * 31 + {e}) % 1000000007;"]
        if k == "u64":
            return [f"{n} = {n} * 6364136223846793005ull + (unsigned long long)({e});"]
        if k == "double":
            return [f"{n} = {n} * 0.5 + (double)(({e}) % 64);"]
        if k == "float":
            return [f"{n} = {n} * 0.5f + (float)(({e}) % 32);"]
        if k == "pod":
            return [
                f"{n}.a = (int)(({n}.a + {e}) % 1000);",
                f"{n}.b = (char)('A' + {n}.a % 26);",
                f"{n}.c = {n}.c * 0.5 + 1.0;",
                f"{n}.d = (short)(({n}.d + 3) % 100);",
            ]
        if k == "arr":
            _, elem, cnt = self.extra
            i = f"[({e}) % {cnt}]"
            if elem == "double":
                return [f"{n}{i} = {n}{i} * 0.5 + (double)(({e}) % 64);"]
            if elem == "unsigned char":
                return [f"{n}{i} = (unsigned char)(({n}{i} + {e}) % 251);"]
            return [f"{n}{i} = (int)(({n}{i} * 3ll + {e}) % 10007);"]
        if k == "tracked":
            return [f"{n}.v = ({n}.v * 5 + {e}) % 9973;"]
        if k == "ptr":
            return [f"*{n} = (int)((*{n} * 7ll + {e}) % 100003);"]
        if k == "ref":
            return [f"{n} = (int)(({n} * 7ll + {e}) % 100003);"]
        raise AssertionError(k)


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------


class Fn:
    def __init__(self, idx, kind, ty, params, style):
        self.idx = idx
        self.name = f"f{idx}"
        self.kind = kind  # "gen", "task", "etask"
        self.ty = ty  # value type: "long long", "int" or "double"
        self.params = params  # [(kind, name)]
        self.style = style  # "free", "lambda", "member", "recursive"
        self.cost = 1
        self.lines = []

    def ret_type(self):
        return f"{self.kind}<{self.ty}>"


class Program:
    def __init__(self, seed):
        self.seed = seed
        r = self.r = random.Random(seed)
        self.uid = 0
        self.tid = 0
        self.exceptions = r.random() < 0.75
        self.use_etask = r.random() < 0.5
        self.use_gen = r.random() < 0.8
        self.overaligned = r.random() < 0.3
        self.task_final = r.choice(["xfer", "xfer", "resume"])
        self.gen_yield = r.choice(["always", "always", "bool"])
        self.fail_every = r.randint(3, 7)
        if self.overaligned:
            # Every frame comes from a 64-byte aligned counting operator new.
            self.alloc = {t: "counted" for t in ("task", "etask", "gen")}
            if r.random() < 0.3:
                self.alloc["task"] = "failing"
        else:
            self.alloc = {}
            for t in ("task", "etask", "gen"):
                x = r.random()
                self.alloc[t] = "global" if x < 0.6 else "counted" if x < 0.85 or t != "task" else "failing"
        self.counting = any(a != "global" for a in self.alloc.values())
        self.awaiters_used = set()
        self.fns = []
        self.budget = 1200  # rough bound on trace lines of the whole program

    def fresh(self, base):
        self.uid += 1
        return f"{base}{self.uid}"

    def track_id(self):
        self.tid += 1
        return self.tid

    # -- program ----------------------------------------------------------

    def generate(self):
        r = self.r
        nfn = r.randint(3, 6)
        kinds = []
        for i in range(nfn):
            choices = ["task"] * 4
            if self.use_etask:
                choices += ["etask"] * 2
            if self.use_gen:
                choices += ["gen"] * 3
            kinds.append(r.choice(choices))
        for i, kind in enumerate(kinds):
            if kind == "gen":
                ty = r.choice(["long long", "int", "double"])
            else:
                ty = r.choice(["long long", "long long", "int"])
            params = []
            for _ in range(r.randint(0, 3)):
                pk = r.choice(["int", "int", "i64", "double", "pod", "tracked"])
                params.append((pk, f"p{len(params)}"))
            style = "free"
            x = r.random()
            if kind == "task" and x < 0.15:
                style = "recursive"
                params.insert(0, ("int", "depth"))
            elif x < 0.3 and self.alloc[kind] == "global":
                style = "lambda"
            elif x < 0.45:
                style = "member"
            fn = Fn(i, kind, ty, params, style)
            self.gen_body(fn)
            self.fns.append(fn)
        return self.emit()

    def param_decl(self, pk, name):
        return {
            "int": f"int {name}",
            "i64": f"long long {name}",
            "double": f"double {name}",
            "pod": f"Pod {name}",
            "tracked": f"Tracked {name}",
        }[pk]

    def signature(self, fn):
        ps = ", ".join(self.param_decl(k, n) for k, n in fn.params)
        attr = "[[gnu::noinline]] " if self.alloc[fn.kind] != "global" else ""
        if fn.style == "lambda":
            return f"static auto {fn.name} = []({ps}) -> {fn.ret_type()}"
        if fn.style == "member":
            return f"{attr}{fn.ret_type()} Obj{fn.idx}::run({ps})"
        return f"{attr}static {fn.ret_type()} {fn.name}({ps})"

    def call(self, fn, env, depth_expr=None):
        """The call expression for fn with arguments from env."""
        args = []
        for k, n in fn.params:
            if n == "depth":
                args.append(depth_expr if depth_expr is not None else str(self.r.randint(0, 3)))
                continue
            e = self.expr(env)
            if k == "int":
                args.append(f"(int)({e} % 1000)")
            elif k == "i64":
                args.append(f"({e} % 100000)")
            elif k == "double":
                args.append(f"(double)({e} % 100) * 0.25")
            elif k == "pod":
                args.append(f"Pod{{(int)({e} % 1000), 'C', 0.5, (short)({e} % 100)}}")
            elif k == "tracked":
                args.append(f"Tracked({self.track_id()}, {e} % 1000)")
        a = ", ".join(args)
        if fn.style == "member":
            return f"Obj{fn.idx}{{{self.r.randint(1, 50)}}}.run({a})" if False else f"g_obj{fn.idx}.run({a})"
        return f"{fn.name}({a})"

    # -- expressions --------------------------------------------------------

    def readable(self, env):
        return [v for scope in env.scopes for v in scope if v.readable()]

    def expr(self, env, allow_await=False):
        r = self.r
        vs = self.readable(env)
        x = r.random()
        if vs and x < 0.6:
            return r.choice(vs).read()
        if allow_await and x < 0.8:
            return self.await_expr(env)
        return f"{r.randint(0, 99)}ll"

    def cond(self, env):
        r = self.r
        vs = self.readable(env)
        x = r.random()
        if not vs or x < 0.1:
            return r.choice(["true", "false"])
        v = r.choice(vs)
        m = r.randint(2, 4)
        return f"{v.read()} % {m} == {r.randint(0, m - 1)}"

    def use_aw(self, name):
        self.awaiters_used.add(name)
        return name

    def await_expr(self, env):
        """A co_await expression of type int that does not leave the coroutine
        suspended forever (usable anywhere a suspend is allowed)."""
        r = self.r
        if env.fn.kind == "gen":
            options = ["SelfXfer", "NoSusp", "ReadyT"]
        else:
            options = ["SelfXfer", "NoSusp", "Ready", "MaybeSusp", "ToNoop"]
        a = r.choice(options)
        if a == "ReadyT":
            return f"(long long)co_await {self.use_aw('Ready')}{{true, {r.randint(0, 9)}}}"
        if a == "Ready":
            return f"(long long)co_await {self.use_aw('Ready')}{{{self.cond(env)}, {r.randint(0, 9)}}}"
        if a == "MaybeSusp":
            return f"(long long)co_await {self.use_aw('MaybeSusp')}{{{self.cond(env)}}}"
        return f"(long long)co_await {self.use_aw(a)}{{{r.randint(0, 9)}}}"

    # -- bodies ---------------------------------------------------------------

    def gen_body(self, fn):
        env = Env(fn)
        for k, n in fn.params:
            env.scopes[0].append(Var(n, k, ro=(n == "depth")))
        lines = []
        if self.r.random() < 0.5:
            first = self.readable(env)
            env.cost += 1
            lines.append(f'note("{fn.name}.enter", {first[0].read() if first else 0});')
        if fn.style == "member":
            env.scopes[0].append(Var("base", "int"))
        if fn.style == "recursive":
            lines.append(f'note("{fn.name}.depth", depth);')
            lines.append("if (depth > 0) {")
            lines.append(f"  long long sub = co_await {fn.name}(depth - 1"
                         + "".join(", " + self.call_arg_for(k, env) for k, _ in fn.params[1:]) + ");")
            lines.append(f'  note("{fn.name}.sub", sub);')
            lines.append("  depth = (int)(sub % 2);")
            lines.append("}")
        nstmts = self.r.randint(3, 7)
        lines += self.block(env, nstmts, depth=0)
        lines += self.epilogue(env)
        fn.lines = lines
        fn.cost = env.cost * (4 if fn.style == "recursive" else 1)

    def call_arg_for(self, k, env):
        e = self.expr(env)
        return {
            "int": f"(int)({e} % 1000)",
            "i64": f"({e} % 100000)",
            "double": f"(double)({e} % 100) * 0.25",
            "pod": f"Pod{{(int)({e} % 1000), 'R', 0.25, (short)({e} % 100)}}",
            "tracked": f"Tracked({self.track_id()}, {e} % 1000)",
        }[k]

    def epilogue(self, env):
        fn = env.fn
        if fn.kind == "gen":
            n = self.fresh("y")
            return [f"for (int {n} = 0; {n} < {self.r.randint(1, 3)}; ++{n}) {self.yield_stmt(env, n)}"]
        return [f"co_return {self.ret_expr(env)};"]

    def ret_expr(self, env):
        vs = [v.read() for v in self.readable(env)]
        self.r.shuffle(vs)
        vs = vs[:5] or ["1"]
        e = f"mixv({', '.join(vs)})"
        if env.fn.ty == "int":
            e = f"(int)({e} % 1000000)"
        return e

    def yield_stmt(self, env, extra=None):
        fn = env.fn
        e = self.expr(env)
        if extra:
            e = f"({e} + {extra})"
        env.cost += env.mult
        if fn.ty == "double":
            return f"co_yield (double)({e} % 1000) * 0.25;"
        if fn.ty == "int":
            return f"co_yield (int)({e} % 1000000);"
        return f"co_yield {e};"

    def block(self, env, n, depth):
        env.scopes.append([])
        out = []
        for _ in range(n):
            out += self.stmt(env, depth)
        # await lazy-task locals declared in this scope
        for v in env.scopes[-1]:
            if v.kind == "ltask":
                r = self.fresh("r")
                out.append(f"long long {r} = co_await std::move({v.name});")
                out.append(f'note("{env.fn.name}.{r}", {r});')
        env.scopes.pop()
        return out

    def can_suspend(self, env):
        return not env.in_catch

    def stmt(self, env, depth):
        r = self.r
        fn = env.fn
        choices = [("decl", 5), ("mutate", 4), ("note", 2)]
        if self.can_suspend(env):
            choices += [("suspend", 6), ("await_expr", 2)]
            if fn.kind != "gen":
                choices += [("call", 3 if env.cost < 150 else 0)]
            if fn.kind != "gen" and self.use_gen:
                choices += [("consume", 1 if env.cost < 150 else 0)]
            if depth < 3:
                choices += [("if", 2), ("for", 2), ("switch", 1), ("ternary", 1), ("temp", 1)]
                if self.exceptions:
                    choices += [("try", 2)]
        elif depth < 3:
            choices += [("if", 1)]
        if self.exceptions:
            choices += [("throw", 1)]
        if env.loops:
            choices += [("break", 1)]
        if depth > 0 and not env.in_catch:
            choices += [("return", 1)]
        kinds = [c for c, w in choices for _ in range(w)]
        what = r.choice(kinds)
        return getattr(self, "s_" + what)(env, depth)

    def s_decl(self, env, depth):
        r = self.r
        fn = env.fn
        kinds = ["char", "short", "int", "int", "i64", "u64", "double", "float", "bool", "pod", "arr", "arr",
                 "tracked", "tracked", "ptr"]
        if fn.kind != "gen" and not env.in_catch:
            kinds += ["ltask", "gen"]
        elif not env.in_catch:
            kinds += ["gen"]
        k = r.choice(kinds)
        k_val = r.randint(0, 50)
        name = self.fresh({"tracked": "t", "arr": "a", "ptr": "pt", "gen": "g", "ltask": "lt"}.get(k, "v"))
        out = []
        if k == "char":
            out.append(f"char {name} = 'a' + {k_val % 26};")
        elif k == "short":
            out.append(f"short {name} = {k_val};")
        elif k == "int":
            out.append(f"int {name} = {k_val};")
        elif k == "bool":
            out.append(f"bool {name} = {str(k_val % 2 == 1).lower()};")
        elif k == "i64":
            out.append(f"std::int64_t {name} = {k_val * 1000003}ll;")
        elif k == "u64":
            out.append(f"std::uint64_t {name} = {k_val * 0x9E3779B9}ull;")
        elif k == "double":
            out.append(f"double {name} = {k_val}.5;")
        elif k == "float":
            out.append(f"float {name} = {k_val % 32}.25f;")
        elif k == "pod":
            out.append(f"Pod {name}{{{k_val}, 'B', {k_val}.0, (short){k_val % 7}}};")
        elif k == "arr":
            aligns = [0, 8, 16, 16] + ([32, 64, 64] if self.overaligned else [])
            al = r.choice(aligns)
            elem = r.choice(["int", "double", "unsigned char"])
            cnt = r.choice([1, 3, 4, 8, 16, 40])
            a = f"alignas({al}) " if al else ""
            out.append(f"{a}{elem} {name}[{cnt}];")
            i = self.fresh("i")
            if elem == "double":
                init = f"{i} * 0.5"
            elif elem == "unsigned char":
                init = f"(unsigned char)({i} * 7 + {k_val})"
            else:
                init = f"{i} * {k_val} % 1000"
            out.append(f"for (int {i} = 0; {i} < {cnt}; ++{i}) {name}[{i}] = {init};")
            v = Var(name, k, (al, elem, cnt))
            env.scopes[-1].append(v)
            if al > 16 or (al and r.random() < 0.5):
                env.checks.append((name, al))
                out.append(f'note("{fn.name}.al", mis({name}, {max(al, 1)}));')
                env.cost += env.mult
            return out
        elif k == "tracked":
            out.append(f"Tracked {name}({self.track_id()}, {k_val});")
            env.cost += env.mult * 2
        elif k == "ptr":
            targets = [v for s in env.scopes for v in s if v.kind == "int" and not v.ro]
            if not targets:
                out.append(f"int {name} = {k_val};")
                k = "int"
            else:
                t = r.choice(targets)
                if r.random() < 0.5:
                    out.append(f"int* {name} = &{t.name};")
                else:
                    k = "ref"
                    out.append(f"int& {name} = {t.name};")
        elif k == "gen":
            gens = [f for f in self.fns if f.kind == "gen"]
            if not gens:
                return self.s_mutate(env, depth)
            g = r.choice(gens)
            if env.cost + env.mult * g.cost > self.budget // 4:
                return self.s_note(env, depth)
            env.cost += env.mult * g.cost
            out.append(f"auto {name} = {self.call(g, env)};")
            env.scopes[-1].append(Var(name, "gen", g))
            return out
        elif k == "ltask":
            tasks = [f for f in self.fns if f.kind == "task"]
            if not tasks:
                return self.s_mutate(env, depth)
            t = r.choice(tasks)
            if env.cost + env.mult * t.cost > self.budget // 4:
                return self.s_note(env, depth)
            env.cost += env.mult * (t.cost + 1)
            out.append(f"auto {name} = {self.call(t, env)};")
            env.scopes[-1].append(Var(name, "ltask", t))
            return out
        env.scopes[-1].append(Var(name, k))
        return out

    def mutable(self, env):
        return [v for s in env.scopes for v in s if v.readable() and not v.ro]

    def s_mutate(self, env, depth):
        r = self.r
        gens = [v for s in env.scopes for v in s if v.kind == "gen"]
        if gens and r.random() < 0.4 and not env.in_catch:
            g = r.choice(gens)
            fn_g = g.extra
            val = f"{g.name}.value()"
            val = f"(long long)({val} * 4)" if fn_g.ty == "double" else f"(long long){val}"
            env.cost += env.mult
            return [
                f"if ({g.name}.next()) note(\"{env.fn.name}.{g.name}\", {val});",
                f"else note(\"{env.fn.name}.{g.name}.end\", 0);",
            ]
        vs = self.mutable(env)
        if not vs:
            return self.s_decl(env, depth)
        v = r.choice(vs)
        return v.mutate(self.expr(env, allow_await=self.can_suspend(env) and r.random() < 0.3))

    def s_note(self, env, depth):
        vs = self.readable(env)
        env.cost += env.mult
        if not vs:
            return [f'note("{env.fn.name}.n", {self.r.randint(0, 9)});']
        v = self.r.choice(vs)
        return [f'note("{env.fn.name}.{v.name}", {v.read()});']

    def s_suspend(self, env, depth):
        out = self.suspend1(env, depth)
        if self.r.random() < 0.3:
            out += self.s_note(env, depth)
        return out

    def s_temp(self, env, depth):
        """A temporary with a destructor that lives across a suspend (to the end of the full-expression)."""
        n = self.fresh("z")
        env.cost += env.mult * 2
        out = [f"std::int64_t {n} = Tracked({self.track_id()}, {self.r.randint(0, 99)}).v + {self.await_expr(env)};"]
        env.scopes[-1].append(Var(n, "i64"))
        return out

    def suspend1(self, env, depth):
        r = self.r
        fn = env.fn
        if fn.kind == "gen":
            if r.random() < 0.7:
                return [self.yield_stmt(env)]
            a = r.choice(["SelfXfer", "NoSusp", "ReadyT", "never"] + (["ThrowSusp"] if self.exceptions else []))
        else:
            a = r.choice(["Yield", "Yield", "MaybeSusp", "Ready", "Transfer", "ToNoop", "SelfXfer", "NoSusp",
                          "never", "always_park"] + (["ThrowSusp", "ThrowResume"] if self.exceptions else []))
        if a == "never":
            return ["co_await std::suspend_never{};"]
        if a == "always_park":
            env.cost += env.mult
            return [f"if ({self.cond(env)} && {self.cond(env)}) {{",
                    f'  note("{fn.name}.park", 0);', f"  co_await {self.use_aw('Park')}{{}};", "}"]
        if a in ("Yield", "Transfer"):
            return [f"co_await {self.use_aw(a)}{{}};"]
        if a in ("ThrowSusp", "ThrowResume"):
            return [f"co_await {self.use_aw(a)}{{{self.cond(env)}, {r.randint(1, 99)}}};"]
        if a == "ReadyT":
            return [f"co_await {self.use_aw('Ready')}{{true, 1}};"]
        if a == "Ready":
            return [f"co_await {self.use_aw('Ready')}{{{self.cond(env)}, 1}};"]
        if a == "MaybeSusp":
            return [f"co_await {self.use_aw('MaybeSusp')}{{{self.cond(env)}}};"]
        return [f"co_await {self.use_aw(a)}{{{r.randint(0, 9)}}};"]

    def s_await_expr(self, env, depth):
        vs = self.mutable(env)
        if not vs:
            n = self.fresh("w")
            out = [f"std::int64_t {n} = {self.await_expr(env)};"]
            env.scopes[-1].append(Var(n, "i64"))
            return out
        return self.r.choice(vs).mutate(self.await_expr(env))

    def s_call(self, env, depth):
        r = self.r
        fn = env.fn
        callees = [f for f in self.fns if f.kind in ("task", "etask")]
        callees = [f for f in callees if env.cost + env.mult * f.cost <= self.budget // 3]
        if not callees:
            return self.s_suspend(env, depth)
        c = r.choice(callees)
        env.cost += env.mult * (c.cost + 1)
        res = self.fresh("c")
        out = [f"long long {res} = co_await {self.call(c, env)};"]
        out.append(f'note("{fn.name}.{res}", {res});')
        vs = self.mutable(env)
        if vs and r.random() < 0.6:
            out += r.choice(vs).mutate(f"({res} % 1000)")
        return out

    def s_consume(self, env, depth):
        r = self.r
        gens = [f for f in self.fns if f.kind == "gen"]
        gens = [g for g in gens if env.cost + env.mult * g.cost <= self.budget // 4]
        if not gens:
            return self.s_note(env, depth)
        g = r.choice(gens)
        env.cost += env.mult * (g.cost + 4)
        gn, cnt = self.fresh("g"), self.fresh("k")
        val = f"{gn}.value()"
        val = f"(long long)({val} * 4)" if g.ty == "double" else f"(long long){val}"
        lim = r.randint(1, 6)
        out = [f"{{", f"  auto {gn} = {self.call(g, env)};", f"  int {cnt} = 0;",
               f"  while ({cnt} < {lim} && {gn}.next()) {{", f'    note("{env.fn.name}.{gn}", {val});']
        if r.random() < 0.5 and fn_can_sched(env):
            out.append(f"    co_await {self.use_aw(r.choice(['Yield', 'Transfer']))}{{}};")
        out += [f"    ++{cnt};", "  }", "}"]
        return out

    def sub(self, env, depth, n=None):
        return ["  " + l for l in self.block(env, n if n is not None else self.r.randint(1, 3), depth + 1)]

    def s_if(self, env, depth):
        r = self.r
        c = self.cond(env)
        if self.can_suspend(env) and r.random() < 0.2:
            c = f"{self.await_expr(env)} % 2 == 0"
        out = [f"if ({c}) {{"] + self.sub(env, depth)
        if r.random() < 0.5:
            out += ["} else {"] + self.sub(env, depth)
        return out + ["}"]

    def s_for(self, env, depth):
        r = self.r
        i = self.fresh("i")
        cnt = r.randint(1, 4)
        form = r.choice(["for", "for", "while", "do"])
        env.loops += 1
        env.mult *= cnt
        env.scopes.append([Var(i, "int", ro=True)])
        body = self.sub(env, depth)
        env.scopes.pop()
        env.mult //= cnt
        env.loops -= 1
        # The counter is stepped where `continue` cannot skip it.
        if form == "for":
            return [f"for (int {i} = 0; {i} < {cnt}; ++{i}) {{"] + body + ["}"]
        if form == "while":
            c = f"{i}++ < {cnt - 1}"
            if self.can_suspend(env) and r.random() < 0.5:
                c += f" && {self.await_expr(env)} >= 0"
            return ["{", f"  int {i} = -1;", f"  while ({c}) {{"] + ["  " + l for l in body] + ["  }", "}"]
        return ["{", f"  int {i} = 0;", "  do {"] + ["  " + l for l in body] + [f"  }} while (++{i} < {cnt});", "}"]

    def s_switch(self, env, depth):
        r = self.r
        sel = self.expr(env, allow_await=r.random() < 0.3)
        out = [f"switch ({sel} % 3) {{"]
        for case in ["case 0:", "case 1:", "default:"]:
            out.append(f"  {case} {{")
            out += ["  " + l for l in self.sub(env, depth, r.randint(0, 3))]
            end = "break;" if case == "default:" or r.random() < 0.7 else "[[fallthrough]];"
            out.append(f"  }} {end}")
        return out + ["}"]

    def s_ternary(self, env, depth):
        n = self.fresh("q")
        out = [f"std::int64_t {n} = ({self.cond(env)}) ? {self.await_expr(env)} : {self.await_expr(env)};"]
        env.scopes[-1].append(Var(n, "i64"))
        return out

    def s_try(self, env, depth):
        r = self.r
        out = ["try {"] + self.sub(env, depth)
        if r.random() < 0.5:
            out.append(f"  if ({self.cond(env)}) throw Boom{{{r.randint(100, 199)}}};")
        out.append("} catch (Boom& b) {")
        env.cost += env.mult
        out.append(f'  note("{env.fn.name}.caught", b.code);')
        env.in_catch += 1
        out += self.sub(env, depth, r.randint(0, 2))
        env.in_catch -= 1
        out.append("}")
        return out

    def s_throw(self, env, depth):
        env.cost += env.mult
        return [f"if ({self.cond(env)} && {self.cond(env)}) {{", f'  note("{env.fn.name}.throw", 0);',
                f"  throw Boom{{{self.r.randint(1, 99)}}};", "}"]

    def s_break(self, env, depth):
        return [f"if ({self.cond(env)}) {self.r.choice(['break', 'continue'])};"]

    def s_return(self, env, depth):
        if env.fn.kind == "gen":
            return [f"if ({self.cond(env)}) co_return;"]
        return [f"if ({self.cond(env)}) co_return {self.ret_expr(env)};"]

    # -- output ---------------------------------------------------------------

    def emit(self):
        r = self.r
        out = [f"// Generated by tests/gen/gen.py {self.seed}: random C++20 coroutines (llcoro differential test).",
               HEADERS, CORE]
        if self.counting:
            out.append(ALLOC_ALIGNED if self.overaligned else ALLOC_PLAIN)
        out.append(SCHED)
        for name in sorted(self.awaiters_used):
            out.append(AWAITERS[name])
        kinds = {f.kind for f in self.fns}
        if "task" in kinds:
            out.append(task_text(self.alloc["task"], self.fail_every, self.task_final))
        if "etask" in kinds:
            out.append(etask_text(self.alloc["etask"]))
        if "gen" in kinds:
            out.append(gen_text(self.alloc["gen"], self.gen_yield))
        for fn in self.fns:
            if fn.style == "member":
                ps = ", ".join(self.param_decl(k, n) for k, n in fn.params)
                out.append(f"struct Obj{fn.idx} {{\n  int base;\n  {fn.ret_type()} run({ps});\n}};\n"
                           f"static Obj{fn.idx} g_obj{fn.idx}{{{r.randint(1, 50)}}};")
            body = "\n".join("  " + l for l in fn.lines)
            end = "};" if fn.style == "lambda" else "}"
            out.append(f"{self.signature(fn)} {{\n{body}\n{end}\n")
        out.append(self.emit_main())
        return "\n".join(out)

    def emit_main(self):
        r = self.r
        lines = ["int main() {"]
        env = Env(Fn(-1, "main", "long long", [], "free"))
        # Every function is a root at least once if nothing calls it; a few more at random.
        roots = list(self.fns)
        r.shuffle(roots)
        roots = roots[: max(2, len(roots) * 2 // 3)]
        for i, fn in enumerate(roots):
            call = self.call(fn, env)
            lines.append("  try {")
            if fn.kind == "gen":
                lim = r.randint(1, 8)
                val = "(long long)(g.value() * 4)" if fn.ty == "double" else "(long long)g.value()"
                lines += [f"    auto g = {call};", "    int n = 0;", f"    while (n < {lim} && g.next()) {{",
                          f'      note("main.{fn.name}", {val});', "      ++n;", "    }",
                          f'    note("main.{fn.name}.count", n);']
            else:
                lines.append(f"    auto t = {call};")
                lines.append(f'    if (!t.valid()) note("main.{fn.name}.null", 0);')
                lines.append("    else {")
                if fn.kind == "task":
                    lines.append("      t.start();")
                # Sometimes stop early: the chain is destroyed while suspended wherever it is.
                run = "run_all();" if r.random() < 0.6 else f"run_some({r.randint(0, 6)});"
                lines += [f"      {run}",
                          f'      if (t.done()) note("main.{fn.name}", (long long)t.get());',
                          f'      else note("main.{fn.name}.parked", 0);', "    }"]
            lines += ["  } catch (Boom& b) {", f'    note("main.{fn.name}.caught", b.code);', "  }"]
            if fn.kind != "gen":
                lines.append("  g_qh = g_qt;  // nothing queued survives its destroyed owner")
        lines.append('  note("live", g_live);')
        if self.counting:
            lines += ['  note("new", g_new);', '  note("delete", g_del);', '  note("badsize", g_badsize);']
        lines += ['  std::printf("checksum %016llx\\n", g_ck);', "  return 0;", "}"]
        return "\n".join(lines) + "\n"


def fn_can_sched(env):
    return env.fn.kind != "gen"


class Env:
    def __init__(self, fn):
        self.fn = fn
        self.scopes = [[]]
        self.loops = 0
        self.mult = 1
        self.cost = 1
        self.in_catch = 0
        self.checks = []


def main(argv):
    if len(argv) != 2:
        print("usage: gen.py SEED", file=sys.stderr)
        return 2
    try:
        seed = int(argv[1], 0)
    except ValueError:
        print(f"gen.py: not an integer seed: {argv[1]!r}", file=sys.stderr)
        return 2
    sys.stdout.write(Program(seed).generate())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
