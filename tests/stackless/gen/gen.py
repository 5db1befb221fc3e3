#!/usr/bin/env python3
"""Random stackless program generator for llcoro's differential tests (README.md here).

    gen.py SEED OUTDIR    writes OUTDIR/prog.ll and OUTDIR/main.c

prog.ll is written as a front end would write it by hand: stackless functions @f0..@fN in heap
frames from the runtime's collector (`llcoro_gc_alloc_frame`), laid out with the
`llvm.gc.frame.*` intrinsics, calling each other through statepoints (deep and mutual recursion,
direct and indirect), allocating objects that live only in GC slots, and keeping values of many
types live across those calls: i1 to i128 (odd widths too), float, double, x86_fp80, vectors of 2
to 16 lanes, aggregates whose alignment exceeds 16, in loops, branches and switches. main.c runs
@f0 under the collector in stress mode (a collection at every allocation, the old semispace
poisoned) and compares each result with a plain C version of the same computation that this
generator writes from the same choices. It prints one line per run and exits 1 on a difference.

The program is a deterministic function of SEED (and of this file), free of undefined behaviour in
both versions: no division by zero, no shift by the width or more, float values bounded so that
no infinity or NaN arises, no float-to-int conversion.
"""

import random
import sys
from pathlib import Path

# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------


class Ty:
    """kind: 'i' (bits), 'float', 'double', 'fp80', 'vec' (elem, n), 'agg' (fields, array)."""

    def __init__(self, kind, bits=0, elem=None, n=0, fields=None, array=False):
        self.kind, self.bits, self.elem, self.n = kind, bits, elem, n
        self.fields = fields or []
        self.array = array

    def ir(self):
        if self.kind == "i":
            return f"i{self.bits}"
        if self.kind == "fp80":
            return "x86_fp80"
        if self.kind in ("float", "double"):
            return self.kind
        if self.kind == "vec":
            return f"<{self.n} x {self.elem.ir()}>"
        if self.array:
            return f"[{len(self.fields)} x {self.fields[0].ir()}]"
        return "{ " + ", ".join(f.ir() for f in self.fields) + " }"

    def is_float(self):
        return self.kind in ("float", "double", "fp80")

    def c_scalar(self):
        if self.kind == "i":
            return "unsigned __int128" if self.bits > 64 else "uint64_t"
        return {"float": "float", "double": "double", "fp80": "long double"}[self.kind]

    def mag_limit(self):
        """Largest binary exponent a value may reach (far below the type's overflow)."""
        return {"float": 100, "double": 900, "fp80": 15000}[self.kind]

    def __eq__(self, o):
        return isinstance(o, Ty) and self.ir() == o.ir()

    def __hash__(self):
        return hash(self.ir())


I1, I64 = Ty("i", 1), Ty("i", 64)
INT_BITS = [1, 7, 8, 16, 24, 32, 33, 48, 63, 64, 128]
VEC_INT_BITS = [8, 16, 32, 64]
LANES = [2, 3, 4, 5, 8, 16]


def mask(bits):
    return (1 << bits) - 1


class Val:
    """A value in both versions: its IR name and its C spelling (a C array for a vector, the
    fields' values for an aggregate). `mag` bounds a float's binary exponent."""

    def __init__(self, ty, ir, c=None, mag=0, fields=None):
        self.ty, self.ir, self.c, self.mag, self.fields = ty, ir, c, mag, fields


# ---------------------------------------------------------------------------------------------
# One function's text, in both versions
# ---------------------------------------------------------------------------------------------


class Fn:
    def __init__(self, g, index):
        self.g, self.index = g, index
        self.name = f"f{index}"
        self.ir, self.c = [], []
        self.n = 0
        self.block = "entry"
        self.slots = 0
        self.indent = 1
        self.spine_used = False
        self.loops = 0

    def fresh(self, base="v"):
        self.n += 1
        return f"{base}{self.n}"

    def i(self, line):
        self.ir.append("  " + line)

    def label(self, name):
        self.ir.append(f"{name}:")
        self.block = name

    def cl(self, line):
        self.c.append("    " * self.indent + line)

    def slot(self):
        off = 16 + 8 * self.slots
        self.slots += 1
        return off


class Frame:
    """The frame token in force, the frame pointer it names, and whether it is an accessor (a
    `gc.frame.load` may read through it)."""

    def __init__(self, tok, ptr, accessor):
        self.tok, self.ptr, self.accessor = tok, ptr, accessor


class Scope:
    def __init__(self, pool, acc, frame, objs, saved, in_loop, depth):
        self.pool, self.acc, self.frame = pool, acc, frame
        self.objs, self.saved = objs, saved
        self.in_loop, self.depth = in_loop, depth

    def child(self, in_loop=None):
        return Scope(list(self.pool), self.acc, self.frame, list(self.objs), list(self.saved),
                     self.in_loop if in_loop is None else in_loop, self.depth + 1)


# ---------------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------------


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.nfuncs = self.r.randint(2, 4)
        self.decls = set()
        self.funcs = []

    # ---- types -------------------------------------------------------------------------------

    def scalar_ty(self):
        k = self.r.random()
        if k < 0.55:
            return Ty("i", self.r.choice(INT_BITS))
        return Ty(self.r.choice(["float", "double", "fp80"]))

    def vec_ty(self):
        n = self.r.choice(LANES)
        if self.r.random() < 0.6:
            return Ty("vec", elem=Ty("i", self.r.choice(VEC_INT_BITS)), n=n)
        return Ty("vec", elem=Ty(self.r.choice(["float", "double"])), n=n)

    def agg_ty(self):
        if self.r.random() < 0.25:
            return Ty("agg", fields=[self.scalar_ty()] * self.r.randint(2, 4), array=True)
        fields = [self.r.choice([self.scalar_ty, self.vec_ty])() for _ in range(self.r.randint(2, 3))]
        if self.r.random() < 0.5:
            # Over-aligned: a 32- or 64-byte vector (ABI alignment 32 or 64, above the frame's 16).
            big = Ty("vec", elem=Ty("float"), n=8) if self.r.random() < 0.5 else Ty("vec", elem=Ty("i", 32), n=16)
            fields.insert(self.r.randint(0, len(fields)), big)
        return Ty("agg", fields=fields)

    def any_ty(self):
        k = self.r.random()
        if k < 0.45:
            return self.scalar_ty()
        if k < 0.8:
            return self.vec_ty()
        return self.agg_ty()

    # ---- making values -----------------------------------------------------------------------

    def src(self, f, s):
        """An i64 value to make others from."""
        cands = [v for v in s.pool if v.ty == I64]
        return self.r.choice(cands) if cands else s.acc

    def make(self, f, s, ty):
        """A new value of type `ty` made from i64 values of the scope."""
        if ty.kind == "i":
            return self.make_int(f, self.src(f, s), ty.bits)
        if ty.is_float():
            return self.make_float(f, self.src(f, s), ty)
        if ty.kind == "vec":
            return self.make_vec(f, self.src(f, s), ty)
        return self.make_agg(f, s, ty)

    def make_int(self, f, src, bits):
        v = f.fresh()
        k = self.r.randrange(1, 1 << 62) | 1
        if bits < 64:
            t = f.fresh()
            f.i(f"%{t} = mul i64 %{src.ir}, {k}")
            f.i(f"%{v} = trunc i64 %{t} to i{bits}")
            f.cl(f"uint64_t {v} = ({src.c} * {k}ull) & {mask(bits)}ull;")
        elif bits == 64:
            f.i(f"%{v} = xor i64 %{src.ir}, {k}")
            f.cl(f"uint64_t {v} = {src.c} ^ {k}ull;")
        else:
            t, u = f.fresh(), f.fresh()
            f.i(f"%{t} = zext i64 %{src.ir} to i128")
            f.i(f"%{u} = shl i128 %{t}, 61")
            f.i(f"%{v} = mul i128 %{u}, {k}")
            f.cl(f"unsigned __int128 {v} = ((unsigned __int128){src.c} << 61) * {k}ull;")
        return Val(Ty("i", bits), v, v)

    def make_float(self, f, src, ty):
        a, b, v = f.fresh(), f.fresh(), f.fresh()
        f.i(f"%{a} = and i64 %{src.ir}, 65535")
        f.i(f"%{b} = sub i64 %{a}, 32768")
        f.i(f"%{v} = sitofp i64 %{b} to {ty.ir()}")
        f.cl(f"{ty.c_scalar()} {v} = ({ty.c_scalar()})(int64_t)(({src.c} & 65535) - 32768);")
        return Val(ty, v, v, mag=16)

    def lane_consts(self, ty, k):
        e = ty.elem
        return ", ".join(f"{e.ir()} {(l * k) & mask(e.bits)}" for l in range(ty.n))

    def make_vec(self, f, src, ty):
        e, n = ty.elem, ty.n
        v = f.fresh()
        if e.kind == "i":
            s, ins, sp = f.fresh(), f.fresh(), f.fresh()
            if e.bits < 64:
                f.i(f"%{s} = trunc i64 %{src.ir} to {e.ir()}")
            else:
                f.i(f"%{s} = or i64 %{src.ir}, 0")
            f.i(f"%{ins} = insertelement {ty.ir()} poison, {e.ir()} %{s}, i64 0")
            f.i(f"%{sp} = shufflevector {ty.ir()} %{ins}, {ty.ir()} poison, <{n} x i32> zeroinitializer")
            k = self.r.randrange(1, 1 << 40)
            f.i(f"%{v} = add {ty.ir()} %{sp}, <{self.lane_consts(ty, k)}>")
            f.cl(f"uint64_t {v}[{n}];")
            f.cl(f"for (int l = 0; l < {n}; l++) {v}[l] = ({src.c} + (uint64_t)l * {k}ull) & {mask(e.bits)}ull;")
            return Val(ty, v, v)
        it = Ty("vec", elem=Ty("i", 32), n=n)
        s, a, ins, sp, iv = f.fresh(), f.fresh(), f.fresh(), f.fresh(), f.fresh()
        f.i(f"%{s} = trunc i64 %{src.ir} to i32")
        f.i(f"%{a} = and i32 %{s}, 65535")
        f.i(f"%{ins} = insertelement {it.ir()} poison, i32 %{a}, i64 0")
        f.i(f"%{sp} = shufflevector {it.ir()} %{ins}, {it.ir()} poison, <{n} x i32> zeroinitializer")
        consts = ", ".join(f"i32 {l * 7 - 32768}" for l in range(n))
        f.i(f"%{iv} = add {it.ir()} %{sp}, <{consts}>")
        f.i(f"%{v} = sitofp {it.ir()} %{iv} to {ty.ir()}")
        ct = e.c_scalar()
        f.cl(f"{ct} {v}[{n}];")
        f.cl(f"for (int l = 0; l < {n}; l++) {v}[l] = ({ct})((int64_t)({src.c} & 65535) + l * 7 - 32768);")
        return Val(ty, v, v, mag=17)

    def make_agg(self, f, s, ty):
        fields = [self.make(f, s, ft) for ft in ty.fields]
        return self.build_agg(f, ty, fields)

    def build_agg(self, f, ty, fields):
        cur = "poison"
        for k, fv in enumerate(fields):
            v = f.fresh()
            f.i(f"%{v} = insertvalue {ty.ir()} {cur}, {fv.ty.ir()} %{fv.ir}, {k}")
            cur = f"%{v}"
        return Val(ty, cur[1:], fields=fields)

    # ---- operations --------------------------------------------------------------------------

    INT_OPS = ["add", "sub", "mul", "xor", "and", "or", "shl", "lshr", "ashr", "udiv", "urem"]

    def op(self, f, s, a):
        """A new value from `a` (and another of its type)."""
        ty = a.ty
        if ty.kind == "agg":
            return self.op_agg(f, s, a)
        b = self.r.choice([v for v in s.pool if v.ty == ty] or [a])
        if ty.kind == "i":
            return self.op_int(f, a, b)
        if ty.is_float():
            return self.op_float(f, a, b)
        if self.r.random() < 0.2:
            return self.reverse(f, a)
        return self.op_vec(f, a, b)

    def op_int(self, f, a, b):
        bits = a.ty.bits
        ops = ["and", "or", "xor"] if bits == 1 else self.INT_OPS
        o = self.r.choice(ops)
        v = f.fresh()
        t = a.ty.ir()
        ct = a.ty.c_scalar()
        m = "" if bits in (64, 128) else f" & {mask(bits)}ull"
        if o in ("shl", "lshr", "ashr"):
            k = self.r.randrange(0, bits)
            f.i(f"%{v} = {o} {t} %{a.ir}, {k}")
            if o == "shl":
                f.cl(f"{ct} {v} = ({ct})({a.c} << {k}){m};")
            elif o == "lshr":
                f.cl(f"{ct} {v} = {a.c} >> {k};")
            elif bits == 128:
                f.cl(f"{ct} {v} = ({ct})((__int128){a.c} >> {k});")
            else:
                f.cl(f"{ct} {v} = (uint64_t)(sx({a.c}, {bits}) >> {k}){m};")
        elif o in ("udiv", "urem"):
            d = f.fresh()
            f.i(f"%{d} = or {t} %{b.ir}, 1")
            f.i(f"%{v} = {o} {t} %{a.ir}, %{d}")
            f.cl(f"{ct} {v} = {a.c} {'/' if o == 'udiv' else '%'} ({b.c} | 1);")
        else:
            f.i(f"%{v} = {o} {t} %{a.ir}, %{b.ir}")
            sym = {"add": "+", "sub": "-", "mul": "*", "xor": "^", "and": "&", "or": "|"}[o]
            f.cl(f"{ct} {v} = ({ct})({a.c} {sym} {b.c}){m};")
        return Val(a.ty, v, v)

    def op_float(self, f, a, b):
        lim = a.ty.mag_limit()
        choices = ["fadd", "fsub", "fneg"] + (["fmul"] if a.mag + b.mag < lim else [])
        o = self.r.choice(choices)
        v = f.fresh()
        t, ct = a.ty.ir(), a.ty.c_scalar()
        if o == "fneg":
            f.i(f"%{v} = fneg {t} %{a.ir}")
            f.cl(f"{ct} {v} = -{a.c};")
            return Val(a.ty, v, v, mag=a.mag)
        f.i(f"%{v} = {o} {t} %{a.ir}, %{b.ir}")
        sym = {"fadd": "+", "fsub": "-", "fmul": "*"}[o]
        f.cl(f"{ct} {v} = {a.c} {sym} {b.c};")
        mag = a.mag + b.mag if o == "fmul" else max(a.mag, b.mag) + 1
        return Val(a.ty, v, v, mag=mag)

    def op_vec(self, f, a, b):
        e, n = a.ty.elem, a.ty.n
        v = f.fresh()
        t = a.ty.ir()
        if e.kind == "i":
            o = self.r.choice(["add", "sub", "mul", "xor", "and", "or"])
            f.i(f"%{v} = {o} {t} %{a.ir}, %{b.ir}")
            sym = {"add": "+", "sub": "-", "mul": "*", "xor": "^", "and": "&", "or": "|"}[o]
            f.cl(f"uint64_t {v}[{n}];")
            f.cl(f"for (int l = 0; l < {n}; l++) {v}[l] = ({a.c}[l] {sym} {b.c}[l]) & {mask(e.bits)}ull;")
            return Val(a.ty, v, v)
        lim = e.mag_limit()
        o = self.r.choice(["fadd", "fsub"] + (["fmul"] if a.mag + b.mag < lim else []))
        f.i(f"%{v} = {o} {t} %{a.ir}, %{b.ir}")
        sym = {"fadd": "+", "fsub": "-", "fmul": "*"}[o]
        ct = e.c_scalar()
        f.cl(f"{ct} {v}[{n}];")
        f.cl(f"for (int l = 0; l < {n}; l++) {v}[l] = {a.c}[l] {sym} {b.c}[l];")
        mag = a.mag + b.mag if o == "fmul" else max(a.mag, b.mag) + 1
        return Val(a.ty, v, v, mag=mag)

    def reverse(self, f, a):
        n = a.ty.n
        v = f.fresh()
        idx = ", ".join(f"i32 {n - 1 - l}" for l in range(n))
        f.i(f"%{v} = shufflevector {a.ty.ir()} %{a.ir}, {a.ty.ir()} poison, <{n} x i32> <{idx}>")
        ct = "uint64_t" if a.ty.elem.kind == "i" else a.ty.elem.c_scalar()
        f.cl(f"{ct} {v}[{n}];")
        f.cl(f"for (int l = 0; l < {n}; l++) {v}[l] = {a.c}[{n - 1} - l];")
        return Val(a.ty, v, v, mag=a.mag)

    def op_agg(self, f, s, a):
        """One field replaced by an operation on it."""
        k = self.r.randrange(len(a.fields))
        ft = a.ty.fields[k]
        x = f.fresh()
        f.i(f"%{x} = extractvalue {a.ty.ir()} %{a.ir}, {k}")
        old = a.fields[k]
        field = Val(ft, x, old.c, mag=old.mag, fields=old.fields)
        if ft.kind == "agg":
            new = self.op_agg(f, s, field)
        elif ft.kind == "vec" and self.r.random() < 0.3:
            new = self.reverse(f, field)
        elif ft.kind == "vec":
            new = self.op_vec(f, field, field)
        elif ft.kind == "i":
            new = self.op_int(f, field, field)
        else:
            new = self.op_float(f, field, field)
        v = f.fresh()
        f.i(f"%{v} = insertvalue {a.ty.ir()} %{a.ir}, {ft.ir()} %{new.ir}, {k}")
        fields = list(a.fields)
        fields[k] = new
        return Val(a.ty, v, fields=fields)

    # ---- folding into an i64 -----------------------------------------------------------------

    def fold(self, f, a):
        """An i64 made from every bit of `a` (every lane, every field)."""
        ty = a.ty
        v = f.fresh()
        if ty.kind == "i":
            if ty.bits < 64:
                f.i(f"%{v} = zext {ty.ir()} %{a.ir} to i64")
                f.cl(f"uint64_t {v} = {a.c};")
            elif ty.bits == 64:
                f.i(f"%{v} = or i64 %{a.ir}, 0")
                f.cl(f"uint64_t {v} = {a.c};")
            else:
                lo, sh, hi = f.fresh(), f.fresh(), f.fresh()
                f.i(f"%{lo} = trunc i128 %{a.ir} to i64")
                f.i(f"%{sh} = lshr i128 %{a.ir}, 64")
                f.i(f"%{hi} = trunc i128 %{sh} to i64")
                f.i(f"%{v} = xor i64 %{lo}, %{hi}")
                f.cl(f"uint64_t {v} = (uint64_t){a.c} ^ (uint64_t)({a.c} >> 64);")
            return Val(I64, v, v)
        if ty.kind == "float":
            b = f.fresh()
            f.i(f"%{b} = bitcast float %{a.ir} to i32")
            f.i(f"%{v} = zext i32 %{b} to i64")
            f.cl(f"uint64_t {v} = bits_f32({a.c});")
            return Val(I64, v, v)
        if ty.kind == "double":
            f.i(f"%{v} = bitcast double %{a.ir} to i64")
            f.cl(f"uint64_t {v} = bits_f64({a.c});")
            return Val(I64, v, v)
        if ty.kind == "fp80":
            b, lo, sh, hi = f.fresh(), f.fresh(), f.fresh(), f.fresh()
            f.i(f"%{b} = bitcast x86_fp80 %{a.ir} to i80")
            f.i(f"%{lo} = trunc i80 %{b} to i64")
            f.i(f"%{sh} = lshr i80 %{b}, 64")
            f.i(f"%{hi} = trunc i80 %{sh} to i64")
            f.i(f"%{v} = xor i64 %{lo}, %{hi}")
            f.cl(f"uint64_t {v} = bits_f80({a.c});")
            return Val(I64, v, v)
        if ty.kind == "vec":
            return self.fold_vec(f, a, v)
        parts = []
        for k, ft in enumerate(ty.fields):
            x = f.fresh()
            f.i(f"%{x} = extractvalue {ty.ir()} %{a.ir}, {k}")
            old = a.fields[k]
            parts.append(self.fold(f, Val(ft, x, old.c, mag=old.mag, fields=old.fields)))
        return self.combine_all(f, parts)

    def fold_vec(self, f, a, v):
        e, n = a.ty.elem, a.ty.n
        if e.kind == "i" and self.r.random() < 0.5:
            # A reduction intrinsic: the lanes' sum, wrapped to the element's width.
            name = f"llvm.vector.reduce.add.v{n}i{e.bits}"
            self.decls.add(f"declare {e.ir()} @{name}({a.ty.ir()})")
            r = f.fresh()
            f.i(f"%{r} = call {e.ir()} @{name}({a.ty.ir()} %{a.ir})")
            if e.bits < 64:
                f.i(f"%{v} = zext {e.ir()} %{r} to i64")
            else:
                f.i(f"%{v} = or i64 %{r}, 0")
            f.cl(f"uint64_t {v} = 0;")
            f.cl(f"for (int l = 0; l < {n}; l++) {v} = ({v} + {a.c}[l]) & {mask(e.bits)}ull;")
            return Val(I64, v, v)
        parts = []
        for l in range(n):
            x = f.fresh()
            f.i(f"%{x} = extractelement {a.ty.ir()} %{a.ir}, i64 {l}")
            parts.append(self.fold(f, Val(e, x, f"{a.c}[{l}]", mag=a.mag)))
        return self.combine_all(f, parts)

    def combine_all(self, f, parts):
        acc = parts[0]
        for p in parts[1:]:
            acc = self.combine(f, acc, p)
        return acc

    def combine(self, f, acc, x):
        m, v = f.fresh(), f.fresh()
        f.i(f"%{m} = mul i64 %{acc.ir}, 1000003")
        f.i(f"%{v} = xor i64 %{m}, %{x.ir}")
        f.cl(f"uint64_t {v} = ({acc.c} * 1000003ull) ^ {x.c};")
        return Val(I64, v, v)

    def absorb(self, f, s, a):
        """Folds `a` into the scope's accumulator (so that it is live up to here)."""
        s.acc = self.combine(f, s.acc, self.fold(f, a))

    # ---- calls -------------------------------------------------------------------------------

    def statepoint(self, f, s, callee, args, result_ty):
        """A statepoint in the current frame; returns its result token's name."""
        t = f.fresh("t")
        argtext = "".join(f"{ty} {v}, " for ty, v in args)
        f.i(f"%{t} = call token (...) @llvm.gc.frame.statepoint(ptr {callee}, {argtext}token %{s.frame.tok})")
        r = None
        if result_ty is not None:
            r = f.fresh()
            suffix = {"i64": "i64", "ptr addrspace(1)": "p1", "ptr": "p0"}[result_ty]
            f.i(f"%{r} = call {result_ty} @llvm.gc.frame.result.{suffix}(token %{t})")
        a, p = f.fresh("a"), f.fresh("fp")
        f.i(f"%{a} = call token @llvm.gc.frame.accessor(token %{t})")
        f.i(f"%{p} = call ptr @llvm.frame.sp(token %{a})")
        s.frame = Frame(a, p, True)
        return r

    def depth_arg(self, f, s):
        """The callee's depth: d - 1 for the function's one spine call (outside loops), else at
        most 1, so that the work stays linear in d."""
        dm = f.fresh()
        f.i(f"%{dm} = sub i64 %d, 1")
        f.cl(f"int64_t {dm} = d - 1;")
        if not f.spine_used and not s.in_loop and self.r.random() < 0.7:
            f.spine_used = True
            return dm
        c, dn = f.fresh(), f.fresh()
        cap = self.r.choice([0, 1])
        f.i(f"%{c} = icmp slt i64 %{dm}, {cap}")
        f.i(f"%{dn} = select i1 %{c}, i64 %{dm}, i64 {cap}")
        f.cl(f"int64_t {dn} = {dm} < {cap} ? {dm} : {cap};")
        return dn

    def call_fn(self, f, s):
        dn = self.depth_arg(f, s)
        x = self.fold(f, self.r.choice(s.pool)) if s.pool else s.acc
        j = self.r.randrange(self.nfuncs)
        if self.r.random() < 0.25:
            # Indirect: a callee chosen at run time; its type is what gc.frame.result reads.
            k = self.r.randrange(self.nfuncs)
            c, fp, sel = f.fresh(), f.fresh(), f.fresh()
            f.i(f"%{c} = trunc i64 %{x.ir} to i1")
            f.i(f"%{fp} = select i1 %{c}, ptr @f{j}, ptr @f{k}")
            r = self.statepoint(f, s, f"%{fp}", [("i64", f"%{dn}"), ("i64", f"%{x.ir}")], "i64")
            f.cl(f"uint64_t {r} = (uint64_t)(({x.c} & 1) ? c_f{j} : c_f{k})({dn}, (int64_t){x.c});")
        else:
            r = self.statepoint(f, s, f"@f{j}", [("i64", f"%{dn}"), ("i64", f"%{x.ir}")], "i64")
            f.cl(f"uint64_t {r} = (uint64_t)c_f{j}({dn}, (int64_t){x.c});")
        v = Val(I64, r, r)
        s.pool.append(v)
        if self.r.random() < 0.5:
            self.absorb(f, s, v)

    def call_other(self, f, s):
        """A C callee, a callee returning only the frame pointer, or an explicit collection."""
        k = self.r.random()
        x = self.src(f, s)
        if k < 0.35:
            y = self.src(f, s)
            r = self.statepoint(f, s, "@mix", [("i64", f"%{x.ir}"), ("i64", f"%{y.ir}")], "i64")
            f.cl(f"uint64_t {r} = mix({x.c}, {y.c});")
            s.pool.append(Val(I64, r, r))
        elif k < 0.75:
            callee = self.r.choice(["@tick", "@tick_wrapped"])
            self.statepoint(f, s, callee, [("i64", f"%{x.ir}")], None)
            f.cl(f"c_ticks += {x.c};")
            t = f.fresh()
            f.i(f"%{t} = load i64, ptr @ticks")
            f.cl(f"uint64_t {t} = c_ticks;")
            self.absorb(f, s, Val(I64, t, t))
        else:
            self.statepoint(f, s, "@llcoro_gc_collect", [], None)

    # ---- objects and explicit slots ----------------------------------------------------------

    def alloc(self, f, s):
        """An object {ptr addrspace(1) link, i64 value, i64 check} from the collector; the link
        is an earlier object (read from its slot after this allocation moved it) or null. Kept only
        in a slot of its own."""
        val = self.src(f, s)
        o = self.statepoint(f, s, "@llcoro_gc_alloc", [("i64", "24"), ("i32", "1")], "ptr addrspace(1)")
        link = self.r.choice(s.objs) if s.objs and self.r.random() < 0.7 else None
        lp = "null"
        if link is not None:
            lp = "%" + self.obj_ptr(f, s, link, direct=False)
        f.i(f"store ptr addrspace(1) {lp}, ptr addrspace(1) %{o}")
        g1, g2 = f.fresh(), f.fresh()
        f.i(f"%{g1} = getelementptr inbounds i8, ptr addrspace(1) %{o}, i64 8")
        f.i(f"store i64 %{val.ir}, ptr addrspace(1) %{g1}")
        chk = f.fresh()
        f.i(f"%{chk} = xor i64 %{val.ir}, -6148914691236517206")
        f.i(f"%{g2} = getelementptr inbounds i8, ptr addrspace(1) %{o}, i64 16")
        f.i(f"store i64 %{chk}, ptr addrspace(1) %{g2}")
        off = f.slot()
        f.i(f"call void (token, ...) @llvm.gc.frame.save(token %{s.frame.tok}, ptr addrspace(1) %{o}, i32 {off})")
        s.objs.append({"slot": off, "ir": o, "c": val.c, "link": link})

    def obj_ptr(self, f, s, obj, direct=True):
        """The object's current address: its SSA value (llcoro reloads it from its slot), a
        `gc.frame.load` through the accessor, or a load through the current frame pointer."""
        k = self.r.random()
        if direct and k < 0.35:
            return obj["ir"]
        p = f.fresh()
        if s.frame.accessor and k < 0.7:
            f.i(f"%{p} = call ptr addrspace(1) @llvm.gc.frame.load.p1(token %{s.frame.tok}, i32 {obj['slot']})")
        else:
            g = f.fresh()
            f.i(f"%{g} = getelementptr inbounds i8, ptr %{s.frame.ptr}, i64 {obj['slot']}")
            f.i(f"%{p} = load ptr addrspace(1), ptr %{g}")
        return p

    def read_obj(self, f, s):
        obj = self.r.choice(s.objs)
        p = self.obj_ptr(f, s, obj)
        self.absorb_field(f, s, p, obj)
        if obj["link"] is not None:
            lp = f.fresh()
            f.i(f"%{lp} = load ptr addrspace(1), ptr addrspace(1) %{p}")
            self.absorb_field(f, s, lp, obj["link"])

    def absorb_field(self, f, s, p, obj):
        """Folds the object's value, and its check word against it, into the accumulator."""
        g, v, g2, c, x = f.fresh(), f.fresh(), f.fresh(), f.fresh(), f.fresh()
        f.i(f"%{g} = getelementptr inbounds i8, ptr addrspace(1) %{p}, i64 8")
        f.i(f"%{v} = load i64, ptr addrspace(1) %{g}")
        f.i(f"%{g2} = getelementptr inbounds i8, ptr addrspace(1) %{p}, i64 16")
        f.i(f"%{c} = load i64, ptr addrspace(1) %{g2}")
        f.i(f"%{x} = xor i64 %{v}, %{c}")
        f.cl(f"uint64_t {x} = 0xaaaaaaaaaaaaaaaaull;")
        self.absorb(f, s, Val(I64, v, obj["c"]))
        self.absorb(f, s, Val(I64, x, x))

    def save_plain(self, f, s):
        v = self.src(f, s)
        off = f.slot()
        f.i(f"call void (token, ...) @llvm.gc.frame.save(token %{s.frame.tok}, i64 %{v.ir}, i32 {off})")
        s.saved.append((off, v))

    def read_saved(self, f, s):
        off, v = self.r.choice(s.saved)
        if self.r.random() < 0.3:
            # The SSA value itself, used after calls: llcoro reloads it from its slot.
            self.absorb(f, s, v)
            return
        r = f.fresh()
        if s.frame.accessor:
            f.i(f"%{r} = call i64 @llvm.gc.frame.load.i64(token %{s.frame.tok}, i32 {off})")
        else:
            g = f.fresh()
            f.i(f"%{g} = getelementptr inbounds i8, ptr %{s.frame.ptr}, i64 {off}")
            f.i(f"%{r} = load i64, ptr %{g}")
        self.absorb(f, s, Val(I64, r, v.c))

    # ---- control flow ------------------------------------------------------------------------

    def relayout(self, f, s, ptr):
        lay = f.fresh("lay")
        f.i(f"%{lay} = call token @llvm.gc.frame.layout(ptr %{ptr}, i32 8, i32 SPILL)")
        s.frame = Frame(lay, ptr, False)

    def loop(self, f, s):
        f.loops += 1
        src = self.src(f, s)
        k = f.fresh()
        f.i(f"%{k}.m = and i64 %{src.ir}, 3")
        f.i(f"%{k} = add i64 %{k}.m, 1")
        f.cl(f"int64_t {k} = (int64_t)({src.c} & 3) + 1;")
        carried = None
        cands = [v for v in s.pool if v.ty.kind in ("i", "float", "double", "fp80", "vec")]
        if cands and self.r.random() < 0.7:
            carried = self.r.choice(cands)
        pre = f.block
        h, x = f.fresh("loop"), f.fresh("exit")
        f.i(f"br label %{h}")
        f.label(h)
        fp, i, acc = f.fresh("fp"), f.fresh("i"), f.fresh("acc")
        f.i(f"%{fp} = phi ptr [ %{s.frame.ptr}, %{pre} ], [ LATCHFP_{h}, LATCH_{h} ]")
        f.i(f"%{i} = phi i64 [ 0, %{pre} ], [ %{i}.next, LATCH_{h} ]")
        f.i(f"%{acc} = phi i64 [ %{s.acc.ir}, %{pre} ], [ LATCHACC_{h}, LATCH_{h} ]")
        f.cl(f"uint64_t {acc} = {s.acc.c};")
        cv = None
        if carried is not None:
            cv = f.fresh("cv")
            f.i(f"%{cv} = phi {carried.ty.ir()} [ %{carried.ir}, %{pre} ], [ LATCHCV_{h}, LATCH_{h} ]")
            self.c_copy(f, carried, cv, declare=True)
        f.cl(f"int64_t {i} = 0;")
        f.cl("do {")
        f.indent += 1
        body = s.child(in_loop=True)
        body.acc = Val(I64, acc, acc)
        self.relayout(f, body, fp)
        body.pool.append(Val(I64, i, f"(uint64_t){i}"))
        cvv = None
        if cv is not None:
            cvv = Val(carried.ty, cv, cv, mag=carried.mag + 8)
            body.pool.append(cvv)
        self.stmts(f, body, self.r.randint(2, 5))
        cv_end = None
        if cv is not None:
            cv_end = self.op(f, body, cvv) if carried.ty.kind != "vec" or self.r.random() < 0.8 else cvv
            if cv_end.mag > cvv.mag:
                # Kept bounded across iterations: the carried float never grows past its start.
                cv_end = cvv
        latch = f.block
        f.i(f"%{i}.next = add i64 %{i}, 1")
        f.i(f"%{i}.more = icmp slt i64 %{i}.next, %{k}")
        f.i(f"br i1 %{i}.more, label %{h}, label %{x}")
        f.cl(f"{acc} = {body.acc.c};")
        if cv is not None:
            self.c_copy(f, cv_end, cv, declare=False)
        f.cl(f"{i} = {i} + 1;")
        f.indent -= 1
        f.cl(f"}} while ({i} < {k});")
        self.patch(f, f"LATCHFP_{h}", f"%{body.frame.ptr}")
        self.patch(f, f"LATCH_{h}", f"%{latch}")
        self.patch(f, f"LATCHACC_{h}", f"%{body.acc.ir}")
        if cv is not None:
            self.patch(f, f"LATCHCV_{h}", f"%{cv_end.ir}")
        f.label(x)
        s.frame = body.frame
        s.acc = Val(I64, body.acc.ir, acc)
        if cv is not None:
            s.pool.append(Val(carried.ty, cv_end.ir, cv, mag=cvv.mag))

    def c_copy(self, f, a, name, declare):
        if a.ty.kind == "vec":
            ct = "uint64_t" if a.ty.elem.kind == "i" else a.ty.elem.c_scalar()
            if declare:
                f.cl(f"{ct} {name}[{a.ty.n}];")
            f.cl(f"memcpy({name}, {a.c}, sizeof {name});")
        else:
            f.cl(f"{a.ty.c_scalar() + ' ' if declare else ''}{name} = {a.c};")

    def patch(self, f, key, text):
        f.ir = [line.replace(key, text) for line in f.ir]

    def branch(self, f, s, arms):
        """An if/else (two arms) or a switch (more), joined by phis of the frame pointer, the
        accumulator and a value of one type each arm makes."""
        src = self.src(f, s)
        ty = self.any_ty() if self.r.random() < 0.6 else None
        if ty is not None and ty.kind == "agg":
            ty = self.vec_ty()
        names = [f.fresh("arm") for _ in range(arms)]
        join = f.fresh("join")
        sel = f.fresh()
        if arms == 2:
            f.i(f"%{sel} = trunc i64 %{src.ir} to i1")
            f.i(f"br i1 %{sel}, label %{names[0]}, label %{names[1]}")
            f.cl(f"uint64_t {sel} = {src.c} & 1;")
        else:
            f.i(f"%{sel} = urem i64 %{src.ir}, {arms}")
            cases = " ".join(f"i64 {k}, label %{names[k]}" for k in range(1, arms))
            f.i(f"switch i64 %{sel}, label %{names[0]} [ {cases} ]")
            f.cl(f"uint64_t {sel} = {src.c} % {arms};")
        acc = f.fresh("acc")
        f.cl(f"uint64_t {acc};")
        merged = None
        if ty is not None:
            merged = f.fresh("m")
            if ty.kind == "vec":
                ct = "uint64_t" if ty.elem.kind == "i" else ty.elem.c_scalar()
                f.cl(f"{ct} {merged}[{ty.n}];")
            else:
                f.cl(f"{ty.c_scalar()} {merged};")
        ends = []
        mag = 0
        for k, name in enumerate(names):
            f.label(name)
            if arms == 2:
                f.cl(("if" if k == 0 else "} else") + (f" ({sel}) {{" if k == 0 else " {"))
            else:
                f.cl(("switch (" + sel + ") {") if k == 0 else "break; }")
                f.cl("default: {" if k == 0 else f"case {k}: {{")
            f.indent += 1
            arm = s.child()
            self.stmts(f, arm, self.r.randint(1, 4))
            mv = None
            if ty is not None:
                mv = self.make(f, arm, ty)
                mag = max(mag, mv.mag)
                if ty.kind == "vec":
                    f.cl(f"memcpy({merged}, {mv.c}, sizeof {merged});")
                else:
                    f.cl(f"{merged} = {mv.c};")
            f.cl(f"{acc} = {arm.acc.c};")
            f.indent -= 1
            ends.append((f.block, arm, mv))
            f.i(f"br label %{join}")
        f.cl("}" if arms == 2 else "break; } }")
        f.label(join)
        fp = f.fresh("fp")
        f.i(f"%{fp} = phi ptr " + ", ".join(f"[ %{a.frame.ptr}, %{b} ]" for b, a, _ in ends))
        f.i(f"%{acc} = phi i64 " + ", ".join(f"[ %{a.acc.ir}, %{b} ]" for b, a, _ in ends))
        if ty is not None:
            f.i(f"%{merged} = phi {ty.ir()} " + ", ".join(f"[ %{mv.ir}, %{b} ]" for b, _, mv in ends))
            s.pool.append(Val(ty, merged, merged, mag=mag))
        s.acc = Val(I64, acc, acc)
        self.relayout(f, s, fp)

    # ---- statements --------------------------------------------------------------------------

    def stmts(self, f, s, n):
        for _ in range(n):
            self.stmt(f, s)

    def stmt(self, f, s):
        r = self.r.random()
        nested = s.depth < 2 and len(f.ir) < 1500
        if r < 0.22:
            s.pool.append(self.make(f, s, self.any_ty()))
        elif r < 0.36 and s.pool:
            s.pool.append(self.op(f, s, self.r.choice(s.pool)))
        elif r < 0.44 and s.pool:
            self.absorb(f, s, self.r.choice(s.pool))
        elif r < 0.60:
            self.call_fn(f, s)
        elif r < 0.67:
            self.call_other(f, s)
        elif r < 0.74:
            self.alloc(f, s)
        elif r < 0.80 and s.objs:
            self.read_obj(f, s)
        elif r < 0.84:
            self.save_plain(f, s)
        elif r < 0.88 and s.saved:
            self.read_saved(f, s)
        elif r < 0.93 and nested and f.loops < 3:
            self.loop(f, s)
        elif r < 0.97 and nested:
            self.branch(f, s, 2)
        elif nested:
            self.branch(f, s, self.r.randint(3, 4))
        else:
            s.pool.append(self.make(f, s, self.any_ty()))

    # ---- functions ---------------------------------------------------------------------------

    def function(self, index):
        f = Fn(self, index)
        f.i("%spill = call i32 @llvm.gc.frame.spillsz()")
        f.i("%fsz32 = add i32 %spill, SPILL")
        f.i("%fsz = zext i32 %fsz32 to i64")
        f.i("%fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %fsz)")
        f.i("%caller = extractvalue { ptr, ptr } %fa, 0")
        f.i("%sp0 = extractvalue { ptr, ptr } %fa, 1")
        f.i("%lay0 = call token @llvm.gc.frame.layout(ptr %sp0, i32 8, i32 SPILL)")
        f.i("call void (token, ...) @llvm.gc.frame.save(token %lay0, ptr %caller, i32 0)")
        x = Val(I64, "x", "(uint64_t)x")
        top = Scope([x], x, Frame("lay0", "sp0", False), [], [], False, 0)
        f.i("%leaf = icmp sle i64 %d, 0")
        f.i("br i1 %leaf, label %base, label %body")
        f.cl("if (d <= 0) {")
        f.indent += 1
        f.label("base")
        base = top.child()
        base.depth = 2
        for _ in range(self.r.randint(0, 2)):
            self.r.choice([self.alloc, self.call_other, lambda f, s: s.pool.append(self.make(f, s, self.any_ty()))])(
                f, base
            )
        if base.objs:
            self.read_obj(f, base)
        self.finish(f, base)
        f.indent -= 1
        f.cl("}")
        f.label("body")
        body = top.child()
        body.depth = 0
        self.stmts(f, body, self.r.randint(5, 12))
        if not f.spine_used:
            self.call_fn(f, body)
        self.finish(f, body)
        pad = self.r.choice([0, 0, 0, 8, 1, 3, 5, 24])
        spill = 16 + 8 * f.slots + pad
        f.ir = [line.replace("SPILL", str(spill)) for line in f.ir]
        head = f"define {{ ptr, i64 }} @{f.name}(ptr %sp_arg, i64 %d, i64 %x) {{"
        ir = [head, "entry:"] + f.ir + ["}"]
        c = [f"static int64_t c_{f.name}(int64_t d, int64_t x) {{"] + f.c + ["}"]
        return "\n".join(ir), "\n".join(c), spill

    def finish(self, f, s):
        """Folds everything still in scope, then returns through the caller's frame pointer."""
        for v in s.pool:
            if self.r.random() < 0.8:
                self.absorb(f, s, v)
        for obj in s.objs:
            if self.r.random() < 0.5:
                p = self.obj_ptr(f, s, obj)
                self.absorb_field(f, s, p, obj)
        back = f.fresh("back")
        if s.frame.accessor and self.r.random() < 0.5:
            f.i(f"%{back} = call ptr @llvm.gc.frame.load.p0(token %{s.frame.tok}, i32 0)")
        else:
            f.i(f"%{back} = load ptr, ptr %{s.frame.ptr}")
        rl, ret = f.fresh("rl"), f.fresh("ret")
        f.i(f"%{rl} = call token @llvm.frame.layout(ptr %{back}, i32 8)")
        f.i(f"%{ret} = call {{ ptr, i64 }} @llvm.frame.return.i64(token %{rl}, i64 %{s.acc.ir})")
        f.i(f"ret {{ ptr, i64 }} %{ret}")
        f.cl(f"return (int64_t){s.acc.c};")

    # ---- the program -------------------------------------------------------------------------

    def program(self):
        irs, cs = [], []
        for k in range(self.nfuncs):
            ir, c, _ = self.function(k)
            irs.append(ir)
            cs.append(c)
        runs = []
        for k in range(self.r.randint(3, 4)):
            d = [self.r.randint(0, 3), self.r.randint(4, 12), self.r.randint(20, 60), self.r.randint(1, 8)][k]
            runs.append((d, self.r.randrange(1 << 64) - (1 << 63)))
        return self.ll(irs), self.main_c(cs, runs)

    def ll(self, irs):
        head = f"""; Generated by tests/stackless/gen/gen.py {self.seed}: stackless functions in heap frames from the
; runtime's collector. Frames: 0 the caller's frame pointer, 8 the return-address key, 16.. the
; front end's slots (objects, plain values), then llcoro's spill area.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ticks = external global i64

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare ptr addrspace(1) @llvm.gc.frame.load.p1(token, i32)
declare i64 @llvm.gc.frame.load.i64(token, i32)
declare i64 @llvm.gc.frame.result.i64(token)
declare ptr addrspace(1) @llvm.gc.frame.result.p1(token)
declare {{ ptr, i64 }} @llvm.frame.return.i64(token, i64)
declare ptr @llvm.frame.return.p0(token)
declare {{ ptr }} @llvm.frame.return.sp(token)
declare {{ ptr, ptr addrspace(1) }} @llcoro_gc_alloc(ptr, i64, i32)
declare {{ ptr, ptr }} @llcoro_gc_alloc_frame(ptr, i64)
declare {{ ptr, ptr }} @llcoro_gc_collect(ptr)
declare {{ ptr, i64 }} @mix(ptr, i64, i64)

; Callees that return only their caller's frame pointer.
define ptr @tick(ptr %sp, i64 %v) {{
entry:
  %t = load i64, ptr @ticks
  %t1 = add i64 %t, %v
  store i64 %t1, ptr @ticks
  %rl = call token @llvm.frame.layout(ptr %sp, i32 8)
  %r = call ptr @llvm.frame.return.p0(token %rl)
  ret ptr %r
}}

define {{ ptr }} @tick_wrapped(ptr %sp, i64 %v) {{
entry:
  %t = load i64, ptr @ticks
  %t1 = add i64 %t, %v
  store i64 %t1, ptr @ticks
  %rl = call token @llvm.frame.layout(ptr %sp, i32 8)
  %r = call {{ ptr }} @llvm.frame.return.sp(token %rl)
  ret {{ ptr }} %r
}}
"""
        return head + "\n" + "\n\n".join(irs) + "\n\n" + "\n".join(sorted(self.decls)) + "\n"

    def main_c(self, cs, runs):
        protos = "\n".join(f"static int64_t c_f{k}(int64_t d, int64_t x);" for k in range(self.nfuncs))
        calls = "\n".join(f"    {{{d}, {x}ll}}," for d, x in runs)
        return f"""/* Generated by tests/stackless/gen/gen.py {self.seed}: runs prog.ll's @f0 under the runtime's
 * collector in stress mode (every allocation collects, the old semispace is poisoned) and compares
 * each result with c_f0, the same computation in plain C. `main quick` runs the first two only. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "llcoro/stackless.h"

struct ret {{
    void *sp;
    int64_t value;
}};
struct ret f0(void *sp, int64_t d, int64_t x);

int64_t ticks;
static uint64_t c_ticks;

struct ret mix(void *sp, int64_t a, int64_t b) {{
    return (struct ret){{sp, (int64_t)(((uint64_t)a * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)b >> 7))}};
}}
static uint64_t mix_c(uint64_t a, uint64_t b) {{ return (a * 0x9e3779b97f4a7c15ull) ^ (b >> 7); }}
#define mix(a, b) mix_c(a, b)

static int64_t sx(uint64_t v, int bits) {{ return (int64_t)(v << (64 - bits)) >> (64 - bits); }}
static uint64_t bits_f32(float f) {{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}}
static uint64_t bits_f64(double f) {{
    uint64_t b;
    memcpy(&b, &f, 8);
    return b;
}}
static uint64_t bits_f80(long double f) {{
    uint64_t lo = 0;
    uint16_t hi = 0;
    memcpy(&lo, &f, 8);
    memcpy(&hi, (char *)&f + 8, 2);
    return lo ^ hi;
}}

{protos}

{chr(10).join(cs)}

static const struct {{
    int64_t d, x;
}} runs[] = {{
{calls}
}};

int main(int argc, char **argv) {{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    struct llcoro_heap_config cfg = {{1 << 20, NULL, LLCORO_FRAME_CONV_DEFAULT, !quick, 1}};
    struct llcoro_heap *heap = llcoro_heap_create(&cfg);
    if (!heap || llcoro_sites_default_status() != LLCORO_OK) {{
        printf("no heap or a bad frame table\\n");
        return 2;
    }}
    llcoro_set_current_heap(heap);
    static void *root[4];
    int bad = 0;
    size_t n = quick ? 2 : sizeof runs / sizeof runs[0];
    for (size_t k = 0; k < n; k++) {{
        ticks = 0;
        c_ticks = 0;
        struct ret r = f0(root, runs[k].d, runs[k].x);
        int64_t want = c_f0(runs[k].d, runs[k].x);
        int same = r.value == want && (uint64_t)ticks == c_ticks && r.sp == (void *)root;
        bad |= !same;
        printf("f0(%" PRId64 ", %" PRId64 ") = %" PRId64 ", C %" PRId64 ", ticks %" PRId64 "/%" PRIu64 ": %s\\n",
               runs[k].d, runs[k].x, r.value, want, ticks, c_ticks, same ? "same" : "DIFFERENT");
    }}
    struct llcoro_gc_stats st;
    llcoro_heap_stats(heap, &st);
    printf("allocations %" PRIu64 ", collections %" PRIu64 "\\n", st.allocations, st.collections);
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(heap);
    return bad;
}}
"""


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: gen.py SEED OUTDIR\n")
        return 2
    seed = int(sys.argv[1])
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    ll, c = Gen(seed).program()
    (out / "prog.ll").write_text(ll)
    (out / "main.c").write_text(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
