#!/usr/bin/env python3
"""Random returned-continuation and async coroutine programs, with their expected output.

Usage: gen.py SEED DIR [ABI]     ABI: retcon (the default) or async

Writes DIR/prog.ll (LLVM 19 spelling, opaque pointers), DIR/expected.txt and DIR/expected-llvm.txt
(what LLVM's lowering must print: the same, with `*` for the alignment probes LLVM may fail, see
`main`). The coroutines'
bodies are random structured code: arithmetic, branches, counted loops, allocas, and i32, double
and vector values made before a suspend and used after it.
- retcon: a few `coro.id.retcon` generators and `coro.id.retcon.once` accessors, and a `main` that
  drives each one: it prints every yielded value, resumes with a value computed from it (when the
  prototype takes one) and asks the coroutine to unwind after a chosen number of yields.
- async: a few `coro.id.async` coroutines started by `main`; each suspend shows a value and queues
  the continuation on a first-in, first-out run queue, so the coroutines interleave.
expected.txt is what the program must print, worked out by interpreting the same choices here in
Python (64-bit wrapping arithmetic), independently of any lowering: LLVM's and llcoro's lowered
programs must both print it.
"""

import random
import sys
from pathlib import Path

MASK = (1 << 64) - 1


def s64(x):
    x &= MASK
    return x - (1 << 64) if x >> 63 else x


def sext32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


class Unwind(Exception):
    pass


# Binary operations on i64: (IR opcode, Python function). Shifts and divisions take a constant.
OPS = [
    ("add", lambda a, b: a + b),
    ("sub", lambda a, b: a - b),
    ("mul", lambda a, b: a * b),
    ("xor", lambda a, b: a ^ b),
    ("and", lambda a, b: a & b),
    ("or", lambda a, b: a | b),
]
CONST_OPS = [
    ("shl", lambda a, c: a << c, (0, 63)),
    ("lshr", lambda a, c: (a & MASK) >> c, (0, 63)),
    ("ashr", lambda a, c: s64(a) >> c, (0, 63)),
    ("udiv", lambda a, c: (a & MASK) // c, (1, 1000)),
    ("urem", lambda a, c: (a & MASK) % c, (1, 1000)),
]
PREDS = [
    ("slt", lambda a, b: s64(a) < s64(b)),
    ("sgt", lambda a, b: s64(a) > s64(b)),
    ("ult", lambda a, b: (a & MASK) < (b & MASK)),
    ("eq", lambda a, b: (a & MASK) == (b & MASK)),
    ("ne", lambda a, b: (a & MASK) != (b & MASK)),
]


class Coroutine:
    """One coroutine: its choices, its IR, and an interpreter of the same choices."""

    def __init__(self, rng, index, once, asynchronous=False):
        self.rng = rng
        self.index = index
        self.once = once
        self.asynchronous = asynchronous
        self.name = f"@{'acc' if once else 'task' if asynchronous else 'gen'}{index}"
        self.resume_value = (not once) and (not asynchronous) and rng.random() < 0.5
        self.buffer = rng.choice([8, 16, 32, 64, 256])
        self.buffer_align = rng.choice([8, 16])
        # Async contexts are 16-aligned and retcon frames count on 16: a slot aligned beyond that
        # is realigned at run time.
        self.slot_align = rng.choice([8, 16, 32, 64, 128] if asynchronous else [8, 16, 16, 32, 64])
        self.counter = 0
        self.lines = []
        self.block = "%entry"
        # The yields left to place: a once coroutine suspends exactly once on every path.
        self.body = self.statements(depth=0, budget=rng.randint(4, 14), yields=1 if once else None)

    # ---- choices -------------------------------------------------------------------------

    def fresh(self, stem):
        self.counter += 1
        return f"%{stem}{self.counter}"

    def statements(self, depth, budget, yields):
        """A list of statements. `yields` is None (any number of suspends) or the exact number on
        every path through the list (0 or 1)."""
        out = []
        placed = 0
        for k in range(budget):
            roll = self.rng.random()
            last = k == budget - 1
            if yields is not None and yields - placed > 0 and (last or roll < 0.2):
                out.append(["yield"])
                placed += 1
            elif yields is None and roll < 0.22:
                out.append(["yield"])
            elif roll < 0.32 and depth < 2:
                need = None if yields is None else (yields - placed if self.rng.random() < 0.5 else 0)
                if need is not None:
                    placed += need
                out.append(
                    [
                        "if",
                        self.rng.choice(PREDS),
                        self.statements(depth + 1, self.rng.randint(1, 4), need),
                        self.statements(depth + 1, self.rng.randint(1, 4), need),
                    ]
                )
            elif roll < 0.40 and depth < 2 and yields is None:
                out.append(["loop", self.rng.randint(0, 3), self.statements(depth + 1, self.rng.randint(1, 4), None)])
            elif roll < 0.47:
                out.append(["store"])
            elif roll < 0.55:
                out.append(["narrow", self.rng.randint(1, 3)])
            elif roll < 0.62:
                out.append(["emit"])
            elif roll < 0.66:
                out.append(["probe"])
            else:
                if self.rng.random() < 0.3:
                    op = self.rng.choice(CONST_OPS)
                    out.append(["constop", op, self.rng.randint(*op[2])])
                else:
                    out.append(["op", self.rng.choice(OPS), self.rng.randint(-50, 50)])
        if yields is not None and placed < yields:
            out.append(["yield"])
        return out

    # ---- IR ------------------------------------------------------------------------------

    def emit(self, text):
        self.lines.append("  " + text)

    def value(self, stem, text):
        """Emits `%NAME = text` with a fresh name made from `stem`; returns the name."""
        name = self.fresh(stem)
        self.emit(f"{name} = {text}")
        return name

    def label(self, name):
        self.lines.append(f"{name[1:]}:")
        self.block = name

    def ty(self):
        return "{ ptr, i64 }"

    def proto(self):
        if self.once:
            return f"@proto.acc{self.index}"
        return f"@proto.gen{self.index}"

    def proto_decl(self):
        if self.once:
            return f"declare void {self.proto()}(ptr, i1 zeroext)"
        extra = "i64, " if self.resume_value else ""
        return f"declare {self.ty()} {self.proto()}(ptr, {extra}i1 zeroext)"

    def ir(self):
        if self.asynchronous:
            return self.ir_async()
        intrinsic = "llvm.coro.id.retcon.once" if self.once else "llvm.coro.id.retcon"
        head = [
            f"define {self.ty()} {self.name}(ptr %buffer, i64 %a, i64 %b) {{",
            "entry:",
            f"  %id = call token @{intrinsic}(i32 {self.buffer}, i32 {self.buffer_align}, ptr %buffer, "
            f"ptr {self.proto()}, ptr @allocate, ptr @deallocate)",
            "  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)",
            f"  %slot = alloca i64, align {self.slot_align}",
            f"  store i64 %b, ptr %slot, align {self.slot_align}",
            "  %last = alloca i64, align 8",
            "  store i64 -1, ptr %last, align 8",
        ]
        self.ir_body(head)
        self.emit("br label %end")
        self.label("%cleanup")
        self.emit("%l = load i64, ptr %last, align 8")
        self.emit(f"call void @show(i64 {-1000 - self.index}, i64 %l)")
        self.emit("br label %end")
        self.label("%end")
        self.emit("%unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)")
        self.emit("unreachable")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def ir_body(self, head):
        """The function's lines so far, `head` (its entry block's start), then the body, then
        showing the value `run` shows at the end (`final`)."""
        self.lines = head
        self.block = "%entry"
        values = ["%a", "%b"]
        self.ir_statements(self.body, values)
        self.final = self.rng.choice(values)
        self.emit(f"call void @show(i64 {1000 + self.index}, i64 {self.final})")

    def ir_async(self):
        """An async coroutine: its arguments at +16 and +24 of its context (after the caller's
        context and the function to return to), each suspend a trip through `main`'s run queue,
        the end a must-tail return through the context's +8."""
        fp = f"{self.name}.fp"
        head = [
            f"{fp} = constant <{{ i32, i32 }}> <{{ i32 0, i32 32 }}>",
            "",
            f"define void {self.name}(ptr %ctx) presplitcoroutine {{",
            "entry:",
            f"  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr {fp})",
            "  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)",
            "  %pa = getelementptr inbounds i8, ptr %ctx, i64 16",
            "  %a = load i64, ptr %pa, align 8",
            "  %pb = getelementptr inbounds i8, ptr %ctx, i64 24",
            "  %b = load i64, ptr %pb, align 8",
            f"  %slot = alloca i64, align {self.slot_align}",
            f"  store i64 %b, ptr %slot, align {self.slot_align}",
            "  %last = alloca i64, align 8",
            "  store i64 -1, ptr %last, align 8",
        ]
        self.ir_body(head)
        self.emit("call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false, ptr @return.to.caller, ptr %ctx)")
        self.emit("unreachable")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def ir_statements(self, stmts, values):
        """Emits `stmts`; `values` are the i64 values in scope (the list grows as they are made)."""
        rng = self.rng
        for s in stmts:
            kind = s[0]
            if kind == "op":
                (name, _), c = s[1], s[2]
                a = rng.choice(values)
                b = rng.choice(values + [str(c)])
                s_out = self.value("v", f"{name} i64 {a}, {b}")
                values.append(s_out)
                s[3:] = [(a, b, s_out)]
            elif kind == "constop":
                (name, _, _), c = s[1], s[2]
                a = rng.choice(values)
                s_out = self.value("v", f"{name} i64 {a}, {c}")
                values.append(s_out)
                s[3:] = [(a, s_out)]
            elif kind == "store":
                a = rng.choice(values)
                r = self.value("m", f"load i64, ptr %slot, align {self.slot_align}")
                x = self.value("v", f"add i64 {r}, {a}")
                self.emit(f"store i64 {x}, ptr %slot, align {self.slot_align}")
                values.append(r)
                values.append(x)
                s[1:] = [(a, r, x)]
            elif kind == "probe":
                # The slot's address modulo its alignment: 0 wherever the frame puts it.
                p, m = self.fresh("pi"), self.fresh("mis")
                self.emit(f"{p} = ptrtoint ptr %slot to i64")
                self.emit(f"{m} = and i64 {p}, {self.slot_align - 1}")
                self.emit(f"call void @show(i64 {7000 + self.index}, i64 {m})")
            elif kind == "emit":
                a = rng.choice(values)
                self.emit(f"call void @show(i64 {self.index}, i64 {a})")
                s[1:] = [a]
            elif kind == "narrow":
                self.ir_narrow(s, values)
            elif kind == "yield":
                self.ir_yield(s, values)
            elif kind == "if":
                self.ir_if(s, values)
            elif kind == "loop":
                self.ir_loop(s, values)

    def ir_narrow(self, s, values):
        """An i32, a double and a <2 x i64> made from in-scope values, `s[1]` suspends (none in a
        yield-once coroutine), then each turned back into an i64: so they live across suspends."""
        rng = self.rng
        a, b = rng.choice(values), rng.choice(values)
        t = self.value("t", f"trunc i64 {a} to i32")
        m = self.value("v", f"and i64 {b}, 1099511627775")
        d0 = self.value("d", f"sitofp i64 {m} to double")
        d = self.value("d", f"fmul double {d0}, 3.000000e+00")
        v0 = self.value("w", f"insertelement <2 x i64> poison, i64 {a}, i32 0")
        v = self.value("w", f"insertelement <2 x i64> {v0}, i64 {b}, i32 1")
        # Suspends between making and using them, so that they live across them.
        inner = [["yield"] for _ in range(s[1])] if not self.once else []
        self.ir_statements(inner, values)
        x = self.value("v", f"sext i32 {t} to i64")
        y = self.value("v", f"fptosi double {d} to i64")
        e0 = self.value("v", f"extractelement <2 x i64> {v}, i32 0")
        e1 = self.value("v", f"extractelement <2 x i64> {v}, i32 1")
        z = self.value("v", f"sub i64 {e1}, {e0}")
        values.extend([x, y, z])
        s[1:] = [(a, b, inner, x, y, z)]

    def ir_yield(self, s, values):
        a = self.rng.choice(values)
        self.emit(f"store i64 {a}, ptr %last, align 8")
        if self.asynchronous:
            r = self.value("r", "call ptr @llvm.coro.async.resume()")
            self.value(
                "res",
                f"call {{ ptr }} (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr {r}, "
                f"ptr @same.context, ptr @yield.apply, ptr {r}, ptr %ctx, i64 {100 + self.index}, i64 {a})",
            )
            s[1:] = [(a, None)]
            return
        if self.resume_value:
            r = self.value("r", f"call {{ i64, i1 }} (...) @llvm.coro.suspend.retcon.sl_i64i1s(i64 {a})")
            got = self.value("v", f"extractvalue {{ i64, i1 }} {r}, 0")
            u = self.value("u", f"extractvalue {{ i64, i1 }} {r}, 1")
        else:
            got = None
            u = self.value("u", f"call i1 (...) @llvm.coro.suspend.retcon.i1(i64 {a})")
        go = self.fresh("go")
        self.emit(f"br i1 {u}, label %cleanup, label {go}")
        self.label(go)
        if got is not None:
            values.append(got)
        s[1:] = [(a, got)]

    def ir_if(self, s, values):
        rng = self.rng
        (pred, _), then, other = s[1], s[2], s[3]
        a, b = rng.choice(values), rng.choice(values)
        c = self.value("c", f"icmp {pred} i64 {a}, {b}")
        lt, le, lj = self.fresh("then"), self.fresh("else"), self.fresh("join")
        self.emit(f"br i1 {c}, label {lt}, label {le}")
        self.label(lt)
        tv = list(values)
        self.ir_statements(then, tv)
        t_res, t_end = rng.choice(tv), self.block
        self.emit(f"br label {lj}")
        self.label(le)
        ev = list(values)
        self.ir_statements(other, ev)
        e_res, e_end = rng.choice(ev), self.block
        self.emit(f"br label {lj}")
        self.label(lj)
        p = self.value("p", f"phi i64 [ {t_res}, {t_end} ], [ {e_res}, {e_end} ]")
        values.append(p)
        s[4:] = [(a, b, t_res, e_res, p)]

    def ir_loop(self, s, values):
        rng = self.rng
        n, body = s[1], s[2]
        init = rng.choice(values)
        pre = self.block
        h, bd, ex = self.fresh("head"), self.fresh("body"), self.fresh("exit")
        k, acc, k1, acc1 = self.fresh("k"), self.fresh("acc"), self.fresh("k"), self.fresh("acc")
        self.emit(f"br label {h}")
        self.label(h)
        # The latch block is known only after the body: patched below.
        at = len(self.lines)
        self.lines.append(None)
        self.lines.append(None)
        lc = self.value("c", f"icmp slt i64 {k}, {n}")
        self.emit(f"br i1 {lc}, label {bd}, label {ex}")
        self.label(bd)
        bv = values + [k, acc]
        self.ir_statements(body, bv)
        res = rng.choice(bv)
        self.emit(f"{acc1} = add i64 {acc}, {res}")
        self.emit(f"{k1} = add i64 {k}, 1")
        latch = self.block
        self.emit(f"br label {h}")
        self.lines[at] = f"  {k} = phi i64 [ 0, {pre} ], [ {k1}, {latch} ]"
        self.lines[at + 1] = f"  {acc} = phi i64 [ {init}, {pre} ], [ {acc1}, {latch} ]"
        self.label(ex)
        values.append(acc)
        s[3:] = [(init, k, acc, res)]

    # ---- interpretation ------------------------------------------------------------------

    def run(self, a, b, out):
        """A Python generator doing what the coroutine does: yields each suspend's value and is
        sent what the caller resumes it with: (value, unwind)."""
        env = {"%a": a, "%b": b}
        state = {"slot": b, "last": -1}
        try:
            yield from self.run_statements(self.body, env, state, out)
        except Unwind:
            out.append(f"{-1000 - self.index} {s64(state['last'])}")
            return
        out.append(f"{1000 + self.index} {s64(env[self.final])}")

    def run_statements(self, stmts, env, state, out):
        for s in stmts:
            kind = s[0]
            if kind == "op":
                (_, f), (a, b, r) = s[1], s[3]
                env[r] = s64(f(env[a], env[b] if b in env else int(b)))
            elif kind == "constop":
                (_, f, _), c, (a, r) = s[1], s[2], s[3]
                env[r] = s64(f(env[a], c))
            elif kind == "store":
                a, r, x = s[1]
                env[r] = state["slot"]
                env[x] = s64(env[r] + env[a])
                state["slot"] = env[x]
            elif kind == "emit":
                out.append(f"{self.index} {s64(env[s[1]])}")
            elif kind == "probe":
                out.append(f"{7000 + self.index} 0")
            elif kind == "narrow":
                a, b, inner, x, y, z = s[1]
                t = sext32(env[a])
                d = float(env[b] & 1099511627775) * 3.0
                va, vb = env[a], env[b]
                yield from self.run_statements(inner, env, state, out)
                env[x] = t
                env[y] = int(d)
                env[z] = s64(vb - va)
            elif kind == "yield":
                a, got = s[1]
                state["last"] = env[a]
                value, unwind = yield env[a]
                if unwind:
                    raise Unwind
                if got is not None:
                    env[got] = s64(value)
            elif kind == "if":
                (_, p), then, other = s[1], s[2], s[3]
                a, b, t_res, e_res, r = s[4]
                if p(env[a], env[b]):
                    yield from self.run_statements(then, env, state, out)
                    env[r] = env[t_res]
                else:
                    yield from self.run_statements(other, env, state, out)
                    env[r] = env[e_res]
            elif kind == "loop":
                n, body = s[1], s[2]
                init, k, acc, res = s[3]
                env[k], env[acc] = 0, env[init]
                while env[k] < n:
                    yield from self.run_statements(body, env, state, out)
                    env[acc] = s64(env[acc] + env[res])
                    env[k] += 1


def main():
    seed, out_dir = int(sys.argv[1]), Path(sys.argv[2])
    abi = sys.argv[3] if len(sys.argv) > 3 else "retcon"
    rng = random.Random(seed)
    if abi == "async":
        lines, expected, coros = async_program(rng)
    elif abi == "retcon":
        lines, expected, coros = retcon_program(rng)
    else:
        sys.exit(f"gen.py: unknown ABI {abi!r} (retcon or async)")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "prog.ll").write_text("\n".join(lines))
    (out_dir / "expected.txt").write_text("\n".join(expected) + "\n")
    # LLVM gives a retcon frame from the allocator no more alignment than the allocator's, so a
    # slot aligned beyond 16 may be misaligned there: in what LLVM's lowering must print, those
    # coroutines' alignment probes may show any value (`*`).
    misaligned = {f"{7000 + c.index}" for c in coros if not c.asynchronous and c.slot_align > 16}
    llvm = [f"{line.split(' ')[0]} *" if line.split(" ")[0] in misaligned else line for line in expected]
    (out_dir / "expected-llvm.txt").write_text("\n".join(llvm) + "\n")


def retcon_program(rng):
    """Generators and yield-once accessors, each driven to its end (or unwound) by `main` in turn."""
    coros = [Coroutine(rng, k, once=rng.random() < 0.35) for k in range(rng.randint(2, 5))]
    bodies = []
    for c in coros:
        bodies.append(c.ir())
    calls = []
    for c in coros:
        for _ in range(rng.randint(1, 2)):
            calls.append((c, rng.randint(-99, 99), rng.randint(-99, 99), rng.randint(1, 8)))

    expected = []
    for c, a, b, stop in calls:
        g = c.run(a, b, expected)
        count = 0
        try:
            v = next(g)
            while True:
                expected.append(f"{100 + c.index} {s64(v)}")
                count += 1
                if c.once:
                    v = g.send((0, count == stop % 2))
                else:
                    v = g.send((s64(v * 3 + count), count == stop))
        except StopIteration:
            pass
    expected.append("allocations 0")

    lines = ["; Generated by tests/retcon/gen/gen.py: returned-continuation coroutines driven by main."]
    lines += PRELUDE
    lines += [
        '@fmt.alloc = private constant [16 x i8] c"allocations %ld\\00"',
        '@nl = private constant [2 x i8] c"\\0A\\00"',
        "",
        "define ptr @allocate(i32 %size) {",
        "  %n = zext i32 %size to i64",
        "  %p = call ptr @malloc(i64 %n)",
        "  %l = load i64, ptr @live",
        "  %l1 = add i64 %l, 1",
        "  store i64 %l1, ptr @live",
        "  ret ptr %p",
        "}",
        "",
        "define void @deallocate(ptr %p) {",
        "  %l = load i64, ptr @live",
        "  %l1 = sub i64 %l, 1",
        "  store i64 %l1, ptr @live",
        "  call void @free(ptr %p)",
        "  ret void",
        "}",
        "",
    ]
    lines += [c.proto_decl() for c in coros]
    lines.append("")
    lines += bodies
    lines += main_ir(coros, calls)
    lines += [
        "declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)",
        "declare token @llvm.coro.id.retcon.once(i32, i32, ptr, ptr, ptr, ptr)",
        "declare ptr @llvm.coro.begin(token, ptr)",
        "declare i1 @llvm.coro.suspend.retcon.i1(...)",
        "declare { i64, i1 } @llvm.coro.suspend.retcon.sl_i64i1s(...)",
        "declare i1 @llvm.coro.end(ptr, i1, token)",
        "",
    ]
    return lines, expected, coros


# What every program starts with: printing, and an allocator that counts the blocks it has out.
PRELUDE = [
    '@fmt = private constant [9 x i8] c"%ld %ld\\0A\\00"',
    "@live = internal global i64 0",
    "declare i32 @printf(ptr, ...)",
    "declare ptr @malloc(i64)",
    "declare void @free(ptr)",
    "",
    "define void @show(i64 %tag, i64 %v) {",
    "  call i32 (ptr, ...) @printf(ptr @fmt, i64 %tag, i64 %v)",
    "  ret void",
    "}",
    "",
]

# The async programs' executor: a ring of (function, context) pairs run in order by `@run`; a
# suspend's must-tail function shows the yielded value and queues the continuation.
ASYNC_RUNTIME = [
    "@queue.fn = internal global [64 x ptr] zeroinitializer",
    "@queue.ctx = internal global [64 x ptr] zeroinitializer",
    "@queue.head = internal global i64 0",
    "@queue.tail = internal global i64 0",
    "@finished = internal global i64 0",
    "",
    "define void @schedule(ptr %fn, ptr %ctx) {",
    "  %t = load i64, ptr @queue.tail",
    "  %i = and i64 %t, 63",
    "  %f = getelementptr [64 x ptr], ptr @queue.fn, i64 0, i64 %i",
    "  store ptr %fn, ptr %f",
    "  %c = getelementptr [64 x ptr], ptr @queue.ctx, i64 0, i64 %i",
    "  store ptr %ctx, ptr %c",
    "  %t1 = add i64 %t, 1",
    "  store i64 %t1, ptr @queue.tail",
    "  ret void",
    "}",
    "",
    "define void @run() {",
    "entry:",
    "  br label %loop",
    "loop:",
    "  %h = load i64, ptr @queue.head",
    "  %t = load i64, ptr @queue.tail",
    "  %more = icmp ult i64 %h, %t",
    "  br i1 %more, label %body, label %out",
    "body:",
    "  %i = and i64 %h, 63",
    "  %f = getelementptr [64 x ptr], ptr @queue.fn, i64 0, i64 %i",
    "  %fn = load ptr, ptr %f",
    "  %c = getelementptr [64 x ptr], ptr @queue.ctx, i64 0, i64 %i",
    "  %ctx = load ptr, ptr %c",
    "  %h1 = add i64 %h, 1",
    "  store i64 %h1, ptr @queue.head",
    "  call void %fn(ptr %ctx)",
    "  br label %loop",
    "out:",
    "  ret void",
    "}",
    "",
    "define void @yield.apply(ptr %resume, ptr %ctx, i64 %tag, i64 %v) {",
    "  call void @show(i64 %tag, i64 %v)",
    "  call void @schedule(ptr %resume, ptr %ctx)",
    "  ret void",
    "}",
    "",
    "define ptr @same.context(ptr %ctx) {",
    "  ret ptr %ctx",
    "}",
    "",
    "define void @return.to.caller(ptr %ctx) {",
    "  %slot = getelementptr inbounds i8, ptr %ctx, i64 8",
    "  %r = load ptr, ptr %slot",
    "  musttail call void %r(ptr %ctx)",
    "  ret void",
    "}",
    "",
    "define void @done(ptr %ctx) {",
    "  %n = load i64, ptr @finished",
    "  %n1 = add i64 %n, 1",
    "  store i64 %n1, ptr @finished",
    "  ret void",
    "}",
    "",
]


def async_program(rng):
    """Async coroutines, each called from `main` (which runs it to its first suspend) and then
    continued from the run queue in first-in, first-out order, interleaved."""
    coros = [Coroutine(rng, k, once=False, asynchronous=True) for k in range(rng.randint(2, 4))]
    bodies = [c.ir() for c in coros]
    calls = [(c, rng.randint(-99, 99), rng.randint(-99, 99)) for c in coros for _ in range(rng.randint(1, 2))]
    rng.shuffle(calls)

    expected = []
    queue = []

    def step(g, c, first):
        try:
            v = next(g) if first else g.send((0, False))
            expected.append(f"{100 + c.index} {s64(v)}")
            queue.append((g, c))
        except StopIteration:
            pass

    for c, a, b in calls:
        step(c.run(a, b, expected), c, True)
    while queue:
        g, c = queue.pop(0)
        step(g, c, False)
    expected.append(f"finished {len(calls)}")

    lines = ["; Generated by tests/retcon/gen/gen.py (async): async coroutines run by a FIFO queue."]
    lines += PRELUDE + ASYNC_RUNTIME
    lines.append('@fmt.done = private constant [14 x i8] c"finished %ld\\0A\\00"')
    lines.append("")
    lines += bodies
    out = ["define i32 @main() {"]
    for k, (c, a, b) in enumerate(calls):
        fp = f"{c.name}.fp"
        out += [
            f"  %szp{k} = getelementptr inbounds <{{ i32, i32 }}>, ptr {fp}, i32 0, i32 1",
            f"  %sz32.{k} = load i32, ptr %szp{k}",
            f"  %sz{k} = zext i32 %sz32.{k} to i64",
            # Exactly the size the async function pointer gives, on the heap: valgrind sees any
            # write beyond it.
            f"  %ctx{k} = call ptr @malloc(i64 %sz{k})",
            f"  %ret{k} = getelementptr inbounds i8, ptr %ctx{k}, i64 8",
            f"  store ptr @done, ptr %ret{k}",
            f"  %pa{k} = getelementptr inbounds i8, ptr %ctx{k}, i64 16",
            f"  store i64 {a}, ptr %pa{k}",
            f"  %pb{k} = getelementptr inbounds i8, ptr %ctx{k}, i64 24",
            f"  store i64 {b}, ptr %pb{k}",
            f"  call void {c.name}(ptr %ctx{k})",
        ]
    out.append("  call void @run()")
    out += [f"  call void @free(ptr %ctx{k})" for k in range(len(calls))]
    out += [
        "  %n = load i64, ptr @finished",
        "  call i32 (ptr, ...) @printf(ptr @fmt.done, i64 %n)",
        "  ret i32 0",
        "}",
        "",
        "declare token @llvm.coro.id.async(i32, i32, i32, ptr)",
        "declare ptr @llvm.coro.begin(token, ptr)",
        "declare ptr @llvm.coro.async.resume()",
        "declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)",
        "declare i1 @llvm.coro.end.async(ptr, i1, ...)",
        "",
    ]
    return lines + out, expected, coros


def main_ir(coros, calls):
    """`main`: each call drives its coroutine to the end, as `main` in Python does above."""
    out = ["define i32 @main() {", "entry:"]
    # Each buffer is exactly as large as its coroutine says, on the heap (malloc's alignment of
    # 16 covers every buffer's): so valgrind sees any write beyond it.
    for k, (c, _, _, _) in enumerate(calls):
        out.append(f"  %buf{k} = call ptr @malloc(i64 {c.buffer})")
    prev = "entry"
    for k, (c, a, b, stop) in enumerate(calls):
        ty = c.ty()
        out.append(f"  %r{k}.0 = call {ty} {c.name}(ptr %buf{k}, i64 {a}, i64 {b})")
        out += [
            f"  br label %drive{k}",
            f"drive{k}:",
            f"  %r{k} = phi {ty} [ %r{k}.0, %{prev} ], [ %r{k}.n, %step{k} ]",
            f"  %n{k} = phi i64 [ 0, %{prev} ], [ %n{k}.1, %step{k} ]",
            f"  %cont{k} = extractvalue {ty} %r{k}, 0",
            f"  %end{k} = icmp eq ptr %cont{k}, null",
            f"  br i1 %end{k}, label %done{k}, label %step{k}",
            f"step{k}:",
            f"  %v{k} = extractvalue {ty} %r{k}, 1",
            f"  call void @show(i64 {100 + c.index}, i64 %v{k})",
            f"  %n{k}.1 = add i64 %n{k}, 1",
        ]
        if c.once:
            out.append(f"  %ab{k} = icmp eq i64 %n{k}.1, {stop % 2}")
            out.append(f"  call void %cont{k}(ptr %buf{k}, i1 zeroext %ab{k})")
            out.append(f"  %r{k}.n = insertvalue {ty} zeroinitializer, ptr null, 0")
        else:
            out.append(f"  %ab{k} = icmp eq i64 %n{k}.1, {stop}")
            if c.resume_value:
                out.append(f"  %m{k} = mul i64 %v{k}, 3")
                out.append(f"  %rv{k} = add i64 %m{k}, %n{k}.1")
                out.append(f"  %r{k}.n = call {ty} %cont{k}(ptr %buf{k}, i64 %rv{k}, i1 zeroext %ab{k})")
            else:
                out.append(f"  %r{k}.n = call {ty} %cont{k}(ptr %buf{k}, i1 zeroext %ab{k})")
        out.append(f"  br label %drive{k}")
        out.append(f"done{k}:")
        prev = f"done{k}"
    for k in range(len(calls)):
        out.append(f"  call void @free(ptr %buf{k})")
    out.append("  %live = load i64, ptr @live")
    out.append("  call i32 (ptr, ...) @printf(ptr @fmt.alloc, i64 %live)")
    out.append("  call i32 (ptr, ...) @printf(ptr @nl)")
    out.append("  ret i32 0")
    out.append("}")
    out.append("")
    return out


if __name__ == "__main__":
    main()
