#!/usr/bin/env python3
"""Random kxs suspend-function programs for llcoro's differential tests.

    gen.py SEED            print the program for SEED (an integer) on stdout
    gen.py --plain SEED    print only its plain half (no kxs header, no markers): a program that
                           builds without llcoro, for checking the generator itself

A program has two halves generated from the same random choices: `namespace kx` holds suspend
functions written with the kxs DSL and runtime (`kotlinx/coroutines/dsl/Suspend.hpp`), and
`namespace pl` the same functions as ordinary C++ (each suspending call replaced by the value it
resumes with, each failure by a `throw`). `main` runs the plain roots, prints `== plain` and
their traces, then runs the kxs roots on an event loop (interleaved) and prints `== kxs` and
their traces. A correct lowering prints the same lines after both headings. The program is a
deterministic function of SEED and of this file, free of undefined behaviour, and exits 0.
See README.md in this directory.
"""

import random
import sys

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------

# Scalars: kind -> C++ type.
SCALARS = {
    "bool": "bool",
    "i8": "signed char",
    "u8": "unsigned char",
    "i16": "short",
    "u16": "unsigned short",
    "i32": "int",
    "u32": "unsigned",
    "i64": "long long",
    "u64": "unsigned long long",
    "i128": "__int128",
    "u128": "unsigned __int128",
    "f32": "float",
    "f64": "double",
    "f80": "long double",
}
FLOATS = {"f32": ("float", "0.5f"), "f64": ("double", "0.5"), "f80": ("long double", "0.5L")}

# Vector element kinds: (C++ type, size in bytes, float?).
VEC_ELEMS = {
    "u8": ("unsigned char", 1, False),
    "u16": ("unsigned short", 2, False),
    "u32": ("unsigned", 4, False),
    "u64": ("unsigned long long", 8, False),
    "f32": ("float", 4, True),
    "f64": ("double", 8, True),
}
LANES = [2, 4, 8, 16]
MAX_VEC_BYTES = 64

STRUCT_ALIGNS = [16, 32, 64]


class Ty:
    """A value type: a scalar kind, ("vec", elem, lanes) or ("struct", align)."""

    def __init__(self, kind, elem=None, lanes=0, align=0):
        self.kind = kind
        self.elem = elem
        self.lanes = lanes
        self.align = align

    @property
    def name(self):
        if self.kind == "vec":
            return f"v{self.elem}x{self.lanes}"
        if self.kind == "struct":
            return f"S{self.align}"
        return SCALARS[self.kind]

    def is_float(self):
        return self.kind in FLOATS

    def conv(self, e):
        """A value of this type made from the unsigned long long expression `e`."""
        k = self.kind
        if k == "bool":
            return f"((({e}) & 1u) != 0)"
        if k in FLOATS:
            t, _ = FLOATS[k]
            return f"({t})(({e}) % 64u)"
        if k == "vec":
            return f"splat<{self.name}>({e})"
        if k == "struct":
            return f"mk{self.name}({e})"
        return f"({self.name})({e})"

    def read(self, v):
        """An unsigned long long expression for the value of variable `v` (well defined)."""
        k = self.kind
        if k in FLOATS:
            return f"(unsigned long long)({v} * 4)"
        if k == "vec":
            last = self.lanes - 1
            if VEC_ELEMS[self.elem][2]:
                return f"((unsigned long long)({v}[0] * 4) + (unsigned long long)({v}[{last}] * 4))"
            return f"((unsigned long long){v}[0] + (unsigned long long){v}[{last}])"
        if k == "struct":
            return f"({v}.a + (unsigned long long)({v}.b * 4) + {v}.c[0])"
        return f"(unsigned long long)({v})"

    def update(self, v, e):
        """An expression statement giving `v` a new value from itself and `e` (evaluated after
        the old value of `v` is read, so that value is a temporary live across anything `e` does)."""
        k = self.kind
        if k == "bool":
            return f"{v} = {v} != ((({e}) & 1u) != 0);"
        if k in FLOATS:
            t, half = FLOATS[k]
            return f"{v} = {v} * {half} + ({t})(({e}) % 64u);"
        if k in ("i128", "u128"):
            return f"{v} = ({self.name})((unsigned __int128){v} * 0x9E3779B97F4A7C15ull + ({e}));"
        if k == "vec":
            et, _, is_float = VEC_ELEMS[self.elem]
            if is_float:
                half = "0.5f" if et == "float" else "0.5"
                return f"{v} = {v} * {half} + ({et})(({e}) % 64u);"
            return f"{v} = {v} * ({et})3 + ({et})({e});"
        if k == "struct":
            return f"{v} = upd{self.name}({v}, {e});"
        return f"{v} = ({self.name})((unsigned long long){v} * 40503u + ({e}));"

    def lane_update(self, v, e):
        """A statement changing one lane (vectors) or field (structs) in place."""
        if self.kind == "vec":
            et, _, is_float = VEC_ELEMS[self.elem]
            if is_float:
                return f"{v}[({e}) % {self.lanes}u] = {v}[({e}) % {self.lanes}u] * 0.5f + 1;"
            return f"{v}[({e}) % {self.lanes}u] += ({et})({e});"
        if self.kind == "struct":
            return f"{v}.c[({e}) % 8u] = (unsigned char)({v}.c[({e}) % 8u] + ({e}));"
        return self.update(v, e)

    def hash(self, v):
        """The exact bits of `v`, hashed (an unsigned long long expression)."""
        if self.kind == "vec":
            return f"hvec({v})"
        return f"hv({v})"


def vec_typedefs(used):
    out = []
    for elem, lanes in sorted(used):
        et, size, _ = VEC_ELEMS[elem]
        out.append(f"typedef {et} v{elem}x{lanes} __attribute__((vector_size({size * lanes})));")
    return "\n".join(out) + "\n" if out else ""


def struct_defs(aligns):
    out = []
    for a in sorted(aligns):
        out.append(f"""\
struct alignas({a}) S{a} {{
  unsigned long long a;
  double b;
  unsigned char c[8];
}};
static S{a} mkS{a}(unsigned long long e) {{
  S{a} s;
  s.a = e % 1000u;
  s.b = (double)(e % 64u);
  for (int i = 0; i < 8; ++i) s.c[i] = (unsigned char)(e + i);
  return s;
}}
static NOINLINE S{a} updS{a}(S{a} s, unsigned long long e) {{
  s.a = s.a * 3u + e % 1000u;
  s.b = s.b * 0.5 + (double)(e % 64u);
  s.c[e % 8u] = (unsigned char)(s.c[e % 8u] + e);
  return s;
}}
static unsigned long long hv(const S{a}& s) {{
  unsigned long long h = s.a * 31u + hv(s.b);
  for (int i = 0; i < 8; ++i) h = h * 131u + s.c[i];
  return h * 7u + mis(&s, {a});
}}
""")
    return "".join(out)


# ---------------------------------------------------------------------------
# The prelude both halves share
# ---------------------------------------------------------------------------

PRELUDE = """\
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#define NOINLINE __attribute__((noinline))

// One root's trace: every mixt() call, in order, and a hash of them.
struct Tr {
  unsigned long long h = 14695981039346656037ull;
  int live = 0;
  std::vector<std::pair<int, unsigned long long>> log;
};
static void mixt(Tr* t, int tag, unsigned long long v) {
  t->h = ((t->h ^ v) * 1099511628211ull) ^ (unsigned long long)tag;
  if (t->log.size() < 3000) t->log.push_back({tag, v});
}
struct Err {
  int code;
};
// Constructed and destroyed in order, counted per root.
struct Tracked {
  Tr* tr;
  int id;
  Tracked(Tr* t, int i) : tr(t), id(i) {
    ++tr->live;
    mixt(tr, 9001, (unsigned long long)id);
  }
  Tracked(const Tracked&) = delete;
  ~Tracked() {
    --tr->live;
    mixt(tr, 9002, (unsigned long long)id);
  }
};
template <class T>
static unsigned long long mis(const T* p, unsigned a) {
  return (unsigned long long)(reinterpret_cast<std::uintptr_t>(p) % a);
}
template <class T>
static unsigned long long hv(T x) {
  return (unsigned long long)x;
}
static unsigned long long hv(unsigned __int128 x) {
  return (unsigned long long)x * 31u ^ (unsigned long long)(x >> 64);
}
static unsigned long long hv(__int128 x) { return hv((unsigned __int128)x); }
static unsigned long long hv(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
static unsigned long long hv(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
// x86 long double: 10 bytes of value, the rest padding.
static unsigned long long hv(long double x) {
  unsigned char b[sizeof x];
  std::memcpy(b, &x, sizeof x);
  unsigned long long h = 0;
  for (int i = 0; i < 10; ++i) h = h * 257u + b[i];
  return h;
}
template <class V>
static unsigned long long hvec(const V& v) {
  unsigned long long h = mis(&v, alignof(V));
  for (unsigned i = 0; i < sizeof(V) / sizeof(v[0]); ++i) h = h * 1000003u + hv(v[i]);
  return h;
}
template <class V>
static V splat(unsigned long long e) {
  V v;
  for (unsigned i = 0; i < sizeof(V) / sizeof(v[0]); ++i) {
    if constexpr (std::is_floating_point_v<std::remove_cvref_t<decltype(v[0])>>) v[i] = (e + i) % 64u;
    else v[i] = e + i * 3u;
  }
  return v;
}
// A call the optimizer cannot see through: values cross it in registers and memory.
template <class T>
static NOINLINE T id_(T x) {
  asm volatile("" : : "r"(&x) : "memory");
  return x;
}
"""

KX_PRELUDE = """\
namespace kx {
using namespace kotlinx::coroutines;
// A suspending call that suspends (and resumes with v from the event loop) or returns v at once.
static void* maybe_value(Continuation* c, bool s, void* v) { return s ? yield_value(c, v) : v; }
// Suspends; the event loop then writes v into *out (a local of the suspended function, so it must
// keep its address in the spill frame) and resumes c.
template <class T>
struct Writer final : Continuation {
  Continuation* c;
  T* out;
  T v;
  Writer(Continuation* k, T* o, T x) : c(k), out(o), v(x) {}
  void resume_with(Result<void*>) override {
    *out = v;
    Continuation* k = c;
    delete this;
    k->resume_with(Result<void*>::success(nullptr));
  }
};
template <class T>
static void* write_later(Continuation* c, T* out, T v) {
  EventLoop::current().dispatch(new Writer<T>(c, out, v), Result<void*>::success(nullptr));
  return COROUTINE_SUSPENDED;
}
"""

MAIN = """\
static void report(int r, bool ok, long long value, int code, const Tr& t) {
  if (ok) std::printf("root %d value %lld\\n", r, value);
  else std::printf("root %d failed %d\\n", r, code);
  std::printf("root %d trace %zu %016llx live %d\\n", r, t.log.size(), t.h, t.live);
  for (const auto& e : t.log) std::printf("  %d %llu\\n", e.first, e.second);
}
"""


# ---------------------------------------------------------------------------
# Code in two renderings
# ---------------------------------------------------------------------------


class X:
    """Text in its kxs and plain renderings (equal unless it suspends or calls)."""

    def __init__(self, k, p=None):
        self.k = k
        self.p = k if p is None else p

    def fmt(self, template):
        """`template` with `{}` replaced by this text, in both renderings."""
        return X(template.replace("{}", self.k), template.replace("{}", self.p))


def cat(*parts):
    """Concatenates strings and X's."""
    k, p = [], []
    for x in parts:
        if isinstance(x, X):
            k.append(x.k)
            p.append(x.p)
        else:
            k.append(x)
            p.append(x)
    return X("".join(k), "".join(p))


class Var:
    def __init__(self, name, ty, ro=False):
        self.name = name
        self.ty = ty
        self.ro = ro  # loop counters and the recursion depth: read only


class Func:
    def __init__(self, index, params, recursive):
        self.index = index
        self.params = params  # [(name, Ty)]
        self.recursive = recursive
        self.may_throw = False
        self.name = f"f{index}"


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.vecs = set()
        self.structs = set()
        self.tag = 0
        self.funcs = []
        self.names = 0

    # -- choices ------------------------------------------------------------

    def pick_type(self, allow_struct=True):
        r = self.rng.random()
        if r < 0.5:
            return Ty(self.rng.choice(list(SCALARS)))
        if r < 0.85 or not allow_struct:
            elem = self.rng.choice(list(VEC_ELEMS))
            size = VEC_ELEMS[elem][1]
            lanes = self.rng.choice([n for n in LANES if n * size <= MAX_VEC_BYTES])
            self.vecs.add((elem, lanes))
            return Ty("vec", elem, lanes)
        a = self.rng.choice(STRUCT_ALIGNS)
        self.structs.add(a)
        return Ty("struct", align=a)

    def fresh(self, prefix):
        self.names += 1
        return f"{prefix}{self.names}"

    def next_tag(self):
        self.tag += 1
        return self.tag

    # -- expressions ----------------------------------------------------------

    def operand(self, scope):
        """An unsigned long long expression reading one or two variables of `scope`."""
        a = self.rng.choice(scope)
        e = a.ty.read(a.name)
        if self.rng.random() < 0.3:
            e = f"{a.ty.read(f'id_({a.name})')}"
        if len(scope) > 1 and self.rng.random() < 0.5:
            b = self.rng.choice(scope)
            e = f"({e} * {self.rng.randint(2, 9)}u + {b.ty.read(b.name)})"
        return f"({e} + {self.rng.randint(0, 99)}u)"

    def suspend_value(self, scope, depth_left, fn):
        """An X of type unsigned long long that suspends (or calls a suspend function)."""
        e = self.operand(scope)
        r = self.rng.random()
        callees = [g for g in self.funcs if g.index < fn.index]
        if r < 0.35:
            return X(
                f"(unsigned long long)unbox_int(coroutine_await(this, yield_value(this, box_int((std::intptr_t)({e} % 1000u)))))",
                f"(unsigned long long)(std::intptr_t)({e} % 1000u)",
            )
        if r < 0.6:
            s = "true" if self.rng.random() < 0.6 else f"({e} % 2u == 0)"
            return X(
                f"(unsigned long long)unbox_int(coroutine_await(this, maybe_value(this, {s}, box_int((std::intptr_t)({e} % 1000u)))))",
                f"(unsigned long long)(std::intptr_t)({e} % 1000u)",
            )
        if (callees or fn.recursive) and depth_left > 0:
            if fn.recursive and (not callees or self.rng.random() < 0.4):
                g = fn
                args = ["d - 1"] + [t.conv(self.operand(scope)) for _, t in g.params]
                call = self.call(g, args)
                return call.fmt("(d > 0 ? {} : 7u)")
            g = self.rng.choice(callees)
            args = [str(self.rng.randint(0, 3))] if g.recursive else []
            args += [t.conv(self.operand(scope)) for _, t in g.params]
            if g.may_throw:
                fn.may_throw = True
            return self.call(g, args)
        return X(
            f"(unsigned long long)unbox_int(coroutine_await(this, yield_value(this, box_int(7))))",
            "(unsigned long long)7",
        )

    def call(self, g, args):
        a = ", ".join(["tr"] + args)
        return X(
            f"(unsigned long long)unbox_int(coroutine_await(this, call_suspend<K{g.index}>(this, {a})))",
            f"(unsigned long long){g.name}({a})",
        )

    # -- statements -----------------------------------------------------------

    def block(self, scope, n, depth, fn, in_loop, in_try):
        """`n` statements (a list of X lines, indented later)."""
        lines = []
        local = list(scope)
        for _ in range(n):
            lines += self.statement(local, depth, fn, in_loop, in_try)
        return lines

    def mutable(self, scope):
        return self.rng.choice([v for v in scope if not v.ro])

    def statement(self, scope, depth, fn, in_loop, in_try):
        rng = self.rng
        r = rng.random()
        nest = depth < 3
        if r < 0.12:
            # A new local, live across what follows in this block.
            v = Var(self.fresh("x"), self.pick_type())
            decl = f"{v.ty.name} {v.name} = {v.ty.conv(self.operand(scope))};"
            scope.append(v)
            return [X(decl)]
        if r < 0.3:
            v = self.mutable(scope)
            value = self.suspend_value(scope, 2, fn)
            if rng.random() < 0.2:
                # A suspend in one arm of a conditional.
                value = value.fmt(f"({self.operand(scope)} % 2u == 1 ? {{}} : {self.operand(scope)})")
            out = [value.fmt(v.ty.update(v.name, "{}"))]
            if rng.random() < 0.5:
                out.append(X(f"mixt(tr, {self.next_tag()}, {v.ty.hash(v.name)});"))
            return out
        if r < 0.4:
            return [X("coroutine_yield(this, yield_now(this));", ";")]
        if r < 0.52:
            v = self.mutable(scope)
            if rng.random() < 0.5:
                return [X(v.ty.lane_update(v.name, self.operand(scope)))]
            return [X(v.ty.update(v.name, self.operand(scope)))]
        if r < 0.56:
            v = rng.choice(scope)
            return [X(f"mixt(tr, {self.next_tag()}, {v.ty.hash(v.name)});")]
        if r < 0.59:
            v = rng.choice(scope)
            return [X(f"mixt(tr, {self.next_tag()}, mis(&{v.name}, alignof({v.ty.name})));")]
        if r < 0.64 and nest:
            # The event loop writes a local of any type while the function is suspended.
            v = Var(self.fresh("c"), self.pick_type())
            fresh = v.ty.conv(self.operand(scope))
            init = v.ty.conv(self.operand(scope))
            scope.append(v)
            return [
                X(f"{v.ty.name} {v.name} = {init};"),
                X(
                    f"coroutine_yield(this, write_later<{v.ty.name}>(this, &{v.name}, {fresh}));",
                    f"{v.name} = {fresh};",
                ),
                X(f"mixt(tr, {self.next_tag()}, {v.ty.hash(v.name)});"),
            ]
        if r < 0.67 and nest:
            # A pointer to a local, used after a suspend: the local must keep its address.
            v = self.mutable(scope)
            q = self.fresh("q")
            return [
                X("{"),
                X(f"  {v.ty.name}* {q} = &{v.name};"),
                X("  coroutine_yield(this, yield_now(this));", "  ;"),
                X(f"  {v.ty.update(f'(*{q})', self.operand(scope))}"),
                X(f"  mixt(tr, {self.next_tag()}, {v.ty.hash(f'(*{q})')});"),
                X("}"),
            ]
        if r < 0.71 and nest:
            t = self.fresh("t")
            body = self.block(scope, rng.randint(1, 3), depth + 1, fn, in_loop, in_try)
            return [X("{"), X(f"  Tracked {t}(tr, {self.next_tag()});")] + indent(body) + [X("}")]
        if r < 0.76:
            # A throw: caught by an enclosing try, else it leaves the function.
            code = rng.randint(1, 99)
            if not in_try:
                fn.may_throw = True
            cond = f"{self.operand(scope)} % 5u == 0"
            if rng.random() < 0.5:
                return [X(f"if ({cond}) throw Err{{{code}}};")]
            # Thrown at a suspend point: the function is resumed with a failure.
            return [
                X(f"if ({cond}) {{"),
                X(
                    f"  coroutine_yield(this, yield_failure(this, std::make_exception_ptr(Err{{{code}}})));",
                    f"  throw Err{{{code}}};",
                ),
                X("}"),
            ]
        if r < 0.79 and in_loop:
            kw = rng.choice(["break", "continue"])
            return [X(f"if ({self.operand(scope)} % 4u == 1) {kw};")]
        if r < 0.82 and depth > 0:
            ret = self.ret_value(scope)
            return [
                X(f"if ({self.operand(scope)} % 6u == 2)"),
                X(f"  coroutine_return(this, box_int((std::intptr_t){ret}));", f"  return (long long){ret};"),
            ]
        if not nest:
            v = self.mutable(scope)
            return [self.suspend_value(scope, 1, fn).fmt(v.ty.update(v.name, "{}"))]
        r = rng.random()
        if r < 0.25:
            cond = X(f"{self.operand(scope)} % 3u != 0")
            c = rng.random()
            if c < 0.25:
                # The condition itself suspends.
                cond = self.suspend_value(scope, 1, fn).fmt("{} % 3u != 0")
            elif c < 0.4:
                # Only evaluated when the left side is true.
                cond = self.suspend_value(scope, 1, fn).fmt(f"{self.operand(scope)} % 2u == 0 && {{}} % 3u != 0")
            then = self.block(scope, rng.randint(1, 3), depth + 1, fn, in_loop, in_try)
            out = [cond.fmt("if ({}) {")] + indent(then) + [X("}")]
            if rng.random() < 0.6:
                other = self.block(scope, rng.randint(1, 3), depth + 1, fn, in_loop, in_try)
                out[-1] = X("} else {")
                out += indent(other) + [X("}")]
            return out
            then = self.block(scope, rng.randint(1, 3), depth + 1, fn, in_loop, in_try)
            out = [X(f"if ({cond}) {{")] + indent(then) + [X("}")]
            if rng.random() < 0.6:
                other = self.block(scope, rng.randint(1, 3), depth + 1, fn, in_loop, in_try)
                out[-1] = X("} else {")
                out += indent(other) + [X("}")]
            return out
        if r < 0.45:
            i = self.fresh("i")
            scope2 = scope + [Var(i, Ty("i32"), ro=True)]
            body = self.block(scope2, rng.randint(1, 4), depth + 1, fn, True, in_try)
            return [X(f"for (int {i} = 0; {i} < {rng.randint(1, 4)}; ++{i}) {{")] + indent(body) + [X("}")]
        if r < 0.55:
            w = self.fresh("w")
            scope2 = scope + [Var(w, Ty("i32"), ro=True)]
            cond = X(f"{w} < {rng.randint(1, 3)}")
            if rng.random() < 0.4:
                # A suspend in the loop condition, evaluated before each iteration.
                cond = self.suspend_value(scope, 1, fn).fmt(f"{cond.k} && {{}} % 7u != 3")
            body = self.block(scope2, rng.randint(1, 3), depth + 1, fn, True, in_try)
            return (
                [X("{"), X(f"  int {w} = 0;"), cond.fmt("  while ({}) {"), X(f"    ++{w};")]
                + indent(indent(body))
                + [X("  }"), X("}")]
            )
        if r < 0.72:
            out = [X(f"switch ((int)({self.operand(scope)} % 4u)) {{")]
            for case in ["case 0:", "case 1:", "case 2:", "default:"]:
                body = self.block(scope, rng.randint(0, 2), depth + 1, fn, in_loop, in_try)
                end = "[[fallthrough]];" if case != "default:" and rng.random() < 0.3 else "break;"
                out += [X(f"  {case} {{")] + indent(indent(body)) + [X(f"    {end}"), X("  }")]
            return out + [X("}")]
        # try/catch: suspends and throws inside, none in the handler, maybe one after it.
        e = self.fresh("e")
        body = self.block(scope, rng.randint(1, 4), depth + 1, fn, in_loop, True)
        r = rng.random()
        code = rng.randint(100, 199)
        if r < 0.35:
            body.append(
                X(f"coroutine_yield(this, yield_failure(this, std::make_exception_ptr(Err{{{code}}})));", f"throw Err{{{code}}};")
            )
        elif r < 0.5:
            # Only the handler leads past the try: code after it is reached through a landing pad.
            body.append(X(f"throw Err{{{code}}};"))
        v = self.mutable(scope)
        handler = [
            X(f"  mixt(tr, {self.next_tag()}, (unsigned long long){e}.code);"),
            X(f"  {v.ty.update(v.name, f'(unsigned long long){e}.code')}"),
        ]
        out = [X("try {")] + indent(body) + [X(f"}} catch (const Err& {e}) {{")] + handler + [X("}")]
        if rng.random() < 0.5:
            out.append(X("coroutine_yield(this, yield_now(this));", ";"))
        return out

    def ret_value(self, scope):
        return f"({self.operand(scope)} % 1000003u)"

    # -- functions -------------------------------------------------------------

    def function(self, index):
        rng = self.rng
        recursive = rng.random() < 0.2
        params = [(f"p{k}", self.pick_type(allow_struct=rng.random() < 0.3)) for k in range(rng.randint(1, 3))]
        fn = Func(index, params, recursive)
        scope = [Var(n, t) for n, t in params]
        if recursive:
            scope.append(Var("d", Ty("i32"), ro=True))
        top = []
        for _ in range(rng.randint(2, 5)):
            v = Var(self.fresh("v"), self.pick_type())
            top.append(X(f"{v.ty.name} {v.name} = {v.ty.conv(self.operand(scope))};"))
            scope.append(v)
        # Top-level statements declare into `scope` itself: those locals are hashed at the end, so
        # they are live across every later suspend.
        body = []
        for _ in range(rng.randint(5, 14)):
            body += self.statement(scope, 0, fn, False, False)
        tag = self.next_tag()
        end = [X("unsigned long long h = 0;")]
        end += [X(f"h = h * 1000003u + {v.ty.hash(v.name)};") for v in scope]
        end.append(X(f"mixt(tr, {tag}, h);"))
        fn.body = top + body + end
        self.funcs.append(fn)
        return fn

    def render_kx(self, fn):
        members = [("Tr*", "tr")] + ([("int", "d")] if fn.recursive else []) + [(t.name, n) for n, t in fn.params]
        out = [f"class K{fn.index} : public ContinuationImpl {{", " public:"]
        out += [f"  {t} {n};" for t, n in members]
        ctor_params = ", ".join(f"{t} {n}_" for t, n in members)
        inits = ", ".join(f"{n}({n}_)" for _, n in members)
        out.append(f"  K{fn.index}(Continuation* c, {ctor_params}) : ContinuationImpl(c), {inits} {{}}")
        out.append("  void* invoke_suspend(Result<void*> result) override {")
        out.append("    coroutine_begin(this);")
        out += ["    " + x.k for x in fn.body]
        out.append("    coroutine_return(this, box_int((std::intptr_t)(h % 1000003u)));")
        out.append("  }")
        out.append("};")
        return "\n".join(out) + "\n"

    def render_pl(self, fn):
        params = ["Tr* tr"] + (["int d"] if fn.recursive else []) + [f"{t.name} {n}" for n, t in fn.params]
        out = [f"static NOINLINE long long {fn.name}({', '.join(params)}) {{"]
        out += ["  " + x.p for x in fn.body]
        out.append("  return (long long)(h % 1000003u);")
        out.append("}")
        return "\n".join(out) + "\n"

    # -- deep mutual recursion -------------------------------------------------

    def mutual_pair(self):
        """Two suspend functions that call each other, `d` levels deep (a root gives 50 to 300):
        each suspends, keeps a value of a random type live across the call of the other (so
        every level's frame holds one), and traces it. Returns the two, rendered below."""
        n = len(self.funcs)
        pair = [Func(n + k, [("x", Ty("u64"))], True) for k in (0, 1)]
        for k, fn in enumerate(pair):
            other = pair[1 - k]
            t = self.pick_type()
            c1, c2 = self.rng.randint(1, 99), self.rng.randint(2, 9)
            s = X(
                f"(unsigned long long)unbox_int(coroutine_await(this, yield_value(this, box_int((std::intptr_t)((x + {c1}u) % 1000u)))))",
                f"(unsigned long long)(std::intptr_t)((x + {c1}u) % 1000u)",
            )
            call = X(
                f"(unsigned long long)unbox_int(coroutine_await(this, call_suspend<K{other.index}>(this, tr, d - 1, r)))",
                f"(unsigned long long){other.name}(tr, d - 1, r)",
            )
            fn.body = [
                X(f"{t.name} v = {t.conv('x')};"),
                s.fmt("unsigned long long s = {};"),
                X(t.update("v", "s")),
                X("if (d > 0) {"),
                X(f"  unsigned long long r = s * {c2}u + {t.read('v')};"),
                call.fmt("  r = {};"),
                X("  " + t.update("v", "r")),
                X("}"),
                X(f"mixt(tr, {self.next_tag()}, {t.hash('v')});"),
                X(f"unsigned long long h = {t.hash('v')} * 1000003u + s;"),
            ]
        return pair

    def render_pair_pl(self, pair):
        """The plain pair: declared first, as each calls the other."""
        heads = [f"static NOINLINE long long {fn.name}(Tr* tr, int d, unsigned long long x)" for fn in pair]
        out = [h + ";" for h in heads]
        for h, fn in zip(heads, pair):
            out += [h + " {"] + ["  " + x.p for x in fn.body] + ["  return (long long)(h % 1000003u);", "}"]
        return "\n".join(out) + "\n"

    def render_pair_kx(self, pair):
        """The kxs pair: both classes declared, then their bodies (each names the other)."""
        out = [f"class K{fn.index};" for fn in pair]
        for fn in pair:
            out += [
                f"class K{fn.index} : public ContinuationImpl {{",
                " public:",
                "  Tr* tr;",
                "  int d;",
                "  unsigned long long x;",
                f"  K{fn.index}(Continuation* c, Tr* t, int d_, unsigned long long x_) : ContinuationImpl(c), tr(t), d(d_), x(x_) {{}}",
                "  void* invoke_suspend(Result<void*> result) override;",
                "};",
            ]
        for fn in pair:
            out += [f"void* K{fn.index}::invoke_suspend(Result<void*> result) {{", "  coroutine_begin(this);"]
            out += ["  " + x.k for x in fn.body]
            out += ["  coroutine_return(this, box_int((std::intptr_t)(h % 1000003u)));", "}"]
        return "\n".join(out) + "\n"

    def program(self, plain_only):
        rng = self.rng
        n = rng.randint(2, 5)
        for k in range(n):
            self.function(k)
        roots = []
        for r in range(rng.randint(2, 4)):
            g = rng.choice(self.funcs[n // 2 :] if rng.random() < 0.7 else self.funcs)
            args = [str(rng.randint(1, 4))] if g.recursive else []
            args += [t.conv(f"{rng.randint(0, 999)}u") for _, t in g.params]
            roots.append((g, args))
        pair = self.mutual_pair() if rng.random() < 0.5 else []
        if pair:
            roots.append((pair[0], [str(rng.randint(50, 300)), f"{rng.randint(0, 999)}ull"]))
        text = []
        if not plain_only:
            text.append('#include "kotlinx/coroutines/dsl/Suspend.hpp"\n')
        text.append(PRELUDE)
        text.append(vec_typedefs(self.vecs))
        text.append(struct_defs(self.structs))
        text.append("namespace pl {\n")
        text += [self.render_pl(f) for f in self.funcs]
        if pair:
            text.append(self.render_pair_pl(pair))
        text.append("}  // namespace pl\n")
        if not plain_only:
            text.append(KX_PRELUDE)
            text += [self.render_kx(f) for f in self.funcs]
            if pair:
                text.append(self.render_pair_kx(pair))
            text.append("}  // namespace kx\n")
        text.append(MAIN)
        text.append(run_plain(roots))
        if not plain_only:
            text.append(run_kx(roots))
        text.append("int main() {\n  run_plain();\n")
        if not plain_only:
            text.append("  run_kx();\n")
        text.append("  return 0;\n}\n")
        return "".join(text)


def indent(lines):
    return [X("  " + x.k, "  " + x.p) for x in lines]


def run_plain(roots):
    out = ["static void run_plain() {", f"  static Tr tr[{len(roots)}];", '  std::printf("== plain\\n");']
    for r, (g, args) in enumerate(roots):
        a = ", ".join([f"&tr[{r}]"] + args)
        out += [
            "  {",
            "    long long v = 0;",
            "    int code = 0;",
            "    bool ok = true;",
            "    try {",
            f"      v = pl::{g.name}({a});",
            "    } catch (const Err& e) {",
            "      ok = false;",
            "      code = e.code;",
            "    }",
            f"    report({r}, ok, v, code, tr[{r}]);",
            "  }",
        ]
    out.append("}")
    return "\n".join(out) + "\n"


def run_kx(roots):
    out = [
        "static void run_kx() {",
        "  using namespace kotlinx::coroutines;",
        f"  static Tr tr[{len(roots)}];",
        "  EventLoop loop;",
        f"  ResultHolder done[{len(roots)}];",
    ]
    for r, (g, args) in enumerate(roots):
        a = ", ".join([f"&tr[{r}]"] + args)
        out.append(f"  loop.launch<kx::K{g.index}>(&done[{r}], {a});")
    out += [
        '  std::fprintf(stderr, "resumptions %zu\\n", loop.run());',
        '  std::printf("== kxs\\n");',
        f"  for (int r = 0; r < {len(roots)}; ++r) {{",
        "    long long v = 0;",
        "    int code = 0;",
        "    bool ok = true;",
        "    if (!done[r].done()) {",
        '      std::printf("root %d not completed\\n", r);',
        "      continue;",
        "    }",
        "    try {",
        "      v = (long long)unbox_int(done[r].result().get_or_throw());",
        "    } catch (const Err& e) {",
        "      ok = false;",
        "      code = e.code;",
        "    }",
        "    report(r, ok, v, code, tr[r]);",
        "  }",
        "}",
    ]
    return "\n".join(out) + "\n"


def main(argv):
    args = argv[1:]
    plain_only = False
    if args and args[0] == "--plain":
        plain_only = True
        args = args[1:]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    try:
        seed = int(args[0])
    except ValueError:
        sys.stderr.write(f"gen.py: the seed must be an integer, not {args[0]!r}\n")
        return 2
    sys.stdout.write(Gen(seed).program(plain_only))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
