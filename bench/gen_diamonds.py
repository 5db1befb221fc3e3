#!/usr/bin/env python3
"""Writes the diamond coroutine benchmark as LLVM 19 textual IR (opaque pointers).

One presplit coroutine @diamonds with N if/else diamonds. Diamond i calls @cond on the previous
diamond's value, calls @ext on either side, and joins the two results in a phi; every 1,000 diamonds
the coroutine suspends. Three values computed in the entry block are used only after the final
suspend, so they stay live across every suspend. This is the shape that makes LLVM's
suspend-crossing analysis (block x block bit matrices) quadratic.

usage: gen_diamonds.py N > diamonds.ll
"""
import sys


def main() -> None:
    n = int(sys.argv[1])
    every = 1000
    out = []
    w = out.append
    w('target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"')
    w('target triple = "x86_64-pc-linux-gnu"')
    w("")
    w("declare i1 @cond(i32)")
    w("declare i32 @ext(i32)")
    w("declare void @sink(i32)")
    w("declare ptr @malloc(i64)")
    w("declare void @free(ptr)")
    w("declare token @llvm.coro.id(i32, ptr, ptr, ptr)")
    w("declare i64 @llvm.coro.size.i64()")
    w("declare ptr @llvm.coro.begin(token, ptr)")
    w("declare i8 @llvm.coro.suspend(token, i1)")
    w("declare ptr @llvm.coro.free(token, ptr)")
    w("declare i1 @llvm.coro.end(ptr, i1, token)")
    w("")
    w("define ptr @diamonds(i32 %seed) presplitcoroutine {")
    w("entry:")
    w("  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)")
    w("  %size = call i64 @llvm.coro.size.i64()")
    w("  %mem = call ptr @malloc(i64 %size)")
    w("  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)")
    w("  %e0 = add i32 %seed, 1")
    w("  %e1 = mul i32 %seed, 3")
    w("  %e2 = xor i32 %seed, 7")
    w("  br label %d0")
    prev = "%seed"
    for i in range(n):
        w(f"d{i}:")
        w(f"  %c{i} = call i1 @cond(i32 {prev})")
        w(f"  br i1 %c{i}, label %t{i}, label %f{i}")
        w(f"t{i}:")
        w(f"  %a{i} = call i32 @ext(i32 {i})")
        w(f"  br label %j{i}")
        w(f"f{i}:")
        w(f"  %b{i} = call i32 @ext(i32 -{i})")
        w(f"  br label %j{i}")
        w(f"j{i}:")
        w(f"  %v{i} = phi i32 [ %a{i}, %t{i} ], [ %b{i}, %f{i} ]")
        nxt = f"d{i + 1}" if i + 1 < n else "final"
        if (i + 1) % every == 0:
            w(f"  %s{i} = call i8 @llvm.coro.suspend(token none, i1 false)")
            w(f"  switch i8 %s{i}, label %suspend [ i8 0, label %{nxt}  i8 1, label %cleanup ]")
        else:
            w(f"  br label %{nxt}")
        prev = f"%v{i}"
    w("final:")
    w(f"  call void @sink(i32 {prev})")
    w("  call void @sink(i32 %e0)")
    w("  call void @sink(i32 %e1)")
    w("  call void @sink(i32 %e2)")
    w("  %fs = call i8 @llvm.coro.suspend(token none, i1 true)")
    w("  switch i8 %fs, label %suspend [ i8 0, label %trap  i8 1, label %cleanup ]")
    w("trap:")
    w("  unreachable")
    w("cleanup:")
    w("  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)")
    w("  call void @free(ptr %fm)")
    w("  br label %suspend")
    w("suspend:")
    w("  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)")
    w("  ret ptr %hdl")
    w("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
