#!/usr/bin/env bash
# Differential fuzzing of llcoro with random C++20 coroutine programs (tests/gen/gen.py).
#
#   scripts/fuzz.sh [COUNT] [START]
#
# For each seed START .. START+COUNT-1 (defaults 100 and 1) and each configuration in CONFIGS, the
# program `tests/gen/gen.py SEED` is built natively and through llcoro (presplit IR with
# -disable-llvm-passes, which must contain `presplitcoroutine` (LLVM 14: `"coroutine.presplit"`); `llcoro`; no `llvm.coro.` left
# outside comments; `opt-N -passes=verify`; clang++-N on the lowered IR) and both binaries are run:
# stdout and exit status must be identical, and the native run must exit 0 with a final checksum line.
# Every failing (seed, configuration) is reported and the run goes on; the program, its IR and the
# logs are saved under the failure directory printed at the start and the end. The last line is
# `N passed, M failed` over (seed, configuration) pairs; the exit status is 1 if any failed.
#
# Environment:
#   CONFIGS      space-separated VERSION:OPT pairs (default "22:O2"; e.g. "19:O0 19:O2 22:O0 22:O2")
#   NATIVE_ONLY  1: validate the generator instead: build natively with clang++-19/22 at -O0/-O2 and
#                require all four runs to agree (exit 0, same stdout ending in a checksum line); then
#                (check "ubsan-valgrind") no uninitialized-use warning, the same output from a
#                -fsanitize=undefined -fsanitize-trap=undefined build, and a clean valgrind run of
#                the clang-19 -O0 build
#   JOBS         parallel seeds (default 2)
#   OUT          failure directory (default: a new /tmp/llcoro-fuzz.XXXXXX)
#   LLCORO       the llcoro binary (default: target/release/llcoro, built if missing)
#   LLCORO_ARGS  extra llcoro options, e.g. "--dispatch=indirectbr"
#   TIMEOUT      seconds per program run (default 20)
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
gen="$root/tests/gen/gen.py"

# --- one seed (run by the workers) -------------------------------------------------------------
if [ "${1:-}" = "--one" ]; then
  seed=$2
  work="$WORK/$seed"
  mkdir -p "$work"
  prog="$work/gen$seed.cpp"
  results=""
  fail() { # config step detail-file
    local d="$OUT/seed-$seed"
    mkdir -p "$d"
    cp -f "$prog" "$d/" 2>/dev/null
    cp -f "$work/$1".* "$d/" 2>/dev/null
    printf 'FAIL seed %s [%s] %s\n' "$seed" "$1" "$2" >"$d/$1.failure"
    [ -n "${3:-}" ] && [ -f "$3" ] && head -c 3000 "$3" >>"$d/$1.failure"
    results+="FAIL seed $seed [$1] $2"$'\n'
  }
  if ! python3 "$WORK/gen.py" "$seed" >"$prog" 2>"$work/gen.err"; then
    mkdir -p "$OUT/seed-$seed" && cp "$work/gen.err" "$OUT/seed-$seed/"
    echo "FAIL seed $seed [-] gen.py-error"
    exit 0
  fi
  run() { # binary out-prefix
    timeout "$TIMEOUT" "$1" >"$2.out" 2>"$2.err"
    echo $? >"$2.status"
  }
  if [ "${NATIVE_ONLY:-0}" = 1 ]; then
    ref=""
    for cfg in 19:O0 19:O2 22:O0 22:O2; do
      v=${cfg%%:*} o=${cfg##*:} c="clang-$v-$o"
      if ! "clang++-$v" -std=c++20 "-$o" -w "$prog" -o "$work/$c.native" 2>"$work/$c.build.err"; then
        fail "$c" "native-build" "$work/$c.build.err"; continue
      fi
      run "$work/$c.native" "$work/$c.native"
      if [ "$(cat "$work/$c.native.status")" != 0 ] || ! tail -n1 "$work/$c.native.out" | grep -q '^checksum '; then
        fail "$c" "native-run(status $(cat "$work/$c.native.status"))" "$work/$c.native.err"; continue
      fi
      if [ -z "$ref" ]; then ref="$work/$c.native.out"
      elif ! cmp -s "$ref" "$work/$c.native.out"; then
        diff "$ref" "$work/$c.native.out" >"$work/$c.diff"; fail "$c" "native-output-differs" "$work/$c.diff"; continue
      fi
      results+="PASS $seed $c"$'\n'
    done
    # Undefined behaviour the four builds might agree on: a UBSan build (trapping, no runtime
    # needed) and valgrind on the clang-19 -O0 build; clang's uninitialized-use warnings as errors.
    c=ubsan-valgrind
    if [ -n "$ref" ]; then
      if ! clang++-22 -std=c++20 -fsyntax-only -Werror=uninitialized -Werror=sometimes-uninitialized "$prog" \
        2>"$work/$c.uninit.err"; then
        fail "$c" "uninitialized-use" "$work/$c.uninit.err"
      elif ! clang++-22 -std=c++20 -O1 -w -fsanitize=undefined -fsanitize-trap=undefined "$prog" -o "$work/$c.ubsan" \
        2>"$work/$c.build.err"; then
        fail "$c" "ubsan-build" "$work/$c.build.err"
      elif run "$work/$c.ubsan" "$work/$c.ubsan" && ! cmp -s "$ref" "$work/$c.ubsan.out"; then
        fail "$c" "ubsan-run(status $(cat "$work/$c.ubsan.status"))" "$work/$c.ubsan.err"
      elif [ -x "$work/clang-19-O0.native" ] && command -v valgrind >/dev/null &&
        ! { timeout 300 valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
          "$work/clang-19-O0.native" >"$work/$c.vg.out" 2>"$work/$c.vg.err" && cmp -s "$ref" "$work/$c.vg.out"; }; then
        fail "$c" "valgrind" "$work/$c.vg.err"
      else
        results+="PASS $seed $c"$'\n'
      fi
    fi
    printf '%s' "$results"
    rm -rf "$work"
    exit 0
  fi
  for cfg in $CONFIGS; do
    v=${cfg%%:*} o=${cfg##*:} c="clang-$v-$o"
    cxx="clang++-$v"
    if ! "$cxx" -std=c++20 "-$o" -w "$prog" -o "$work/$c.native" 2>"$work/$c.build.err"; then
      fail "$c" "native-build" "$work/$c.build.err"; continue
    fi
    if ! "$cxx" -std=c++20 "-$o" -w -Xclang -disable-llvm-passes -emit-llvm -S "$prog" -o "$work/$c.ll" \
      2>"$work/$c.ll.err"; then
      fail "$c" "presplit-IR" "$work/$c.ll.err"; continue
    fi
    # LLVM 14 spells the attribute "coroutine.presplit".
    if ! sed 's/;.*//' "$work/$c.ll" | grep -qE 'presplitcoroutine|"coroutine\.presplit"'; then
      fail "$c" "no-presplitcoroutine"; continue
    fi
    # shellcheck disable=SC2086 # LLCORO_ARGS is a list of options
    timeout 120 "$LLCORO" ${LLCORO_ARGS:-} "$work/$c.ll" -o "$work/$c.low.ll" 2>"$work/$c.llcoro.err"
    st=$?
    if [ "$st" != 0 ]; then
      fail "$c" "llcoro(status $st)" "$work/$c.llcoro.err"; continue
    fi
    if [ ! -f "$work/$c.low.ll" ]; then
      fail "$c" "llcoro-no-output"; continue
    fi
    if grep -q panicked "$work/$c.llcoro.err"; then
      fail "$c" "llcoro-panicked" "$work/$c.llcoro.err"; continue
    fi
    # Strip comments (a `;` outside quotes) before looking for leftovers.
    if sed -E ':a; s/^(([^";]|"[^"]*")*);.*$/\1/' "$work/$c.low.ll" | grep -qE 'llvm\.coro\.|presplitcoroutine|"coroutine\.presplit"'; then
      fail "$c" "coro-left-after-lowering"; continue
    fi
    if ! "opt-$v" -passes=verify -disable-output "$work/$c.low.ll" 2>"$work/$c.verify.err"; then
      fail "$c" "opt-verify" "$work/$c.verify.err"; continue
    fi
    if ! "$cxx" "-$o" -w "$work/$c.low.ll" -o "$work/$c.lowered" 2>"$work/$c.lbuild.err"; then
      fail "$c" "lowered-build" "$work/$c.lbuild.err"; continue
    fi
    run "$work/$c.native" "$work/$c.native"
    run "$work/$c.lowered" "$work/$c.lowered"
    if [ "$(cat "$work/$c.native.status")" != 0 ]; then
      fail "$c" "native-run(status $(cat "$work/$c.native.status"))" "$work/$c.native.err"; continue
    fi
    if [ "$(cat "$work/$c.lowered.status")" != 0 ]; then
      fail "$c" "lowered-run(status $(cat "$work/$c.lowered.status"))" "$work/$c.lowered.err"; continue
    fi
    if ! cmp -s "$work/$c.native.out" "$work/$c.lowered.out"; then
      diff "$work/$c.native.out" "$work/$c.lowered.out" >"$work/$c.diff"
      fail "$c" "stdout-differs" "$work/$c.diff"; continue
    fi
    results+="PASS $seed $c"$'\n'
  done
  printf '%s' "$results"
  rm -rf "$work"
  exit 0
fi

# --- driver ------------------------------------------------------------------------------------
COUNT=${1:-100}
START=${2:-1}
export CONFIGS=${CONFIGS:-22:O2}
export TIMEOUT=${TIMEOUT:-20}
export NATIVE_ONLY=${NATIVE_ONLY:-0}
JOBS=${JOBS:-2}
if [ -z "${LLCORO:-}" ]; then
  LLCORO="$root/target/release/llcoro"
  if [ ! -x "$LLCORO" ] && [ "$NATIVE_ONLY" != 1 ]; then
    (cd "$root" && cargo build --release -q) || exit 2
  fi
fi
export LLCORO LLCORO_ARGS=${LLCORO_ARGS:-}
export OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/llcoro-fuzz.XXXXXX")}
mkdir -p "$OUT"
export WORK
WORK=$(mktemp -d "${TMPDIR:-/tmp}/llcoro-fuzz-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# A snapshot of the generator, so that editing gen.py during a run does not change its programs.
cp "$gen" "$WORK/gen.py"
if [ "$NATIVE_ONLY" = 1 ]; then what="native validation (clang-19/22 x O0/O2)"; else what="configs: $CONFIGS"; fi
echo "fuzz: seeds $START..$((START + COUNT - 1)), $what, $JOBS jobs; failures saved under $OUT"

. "$root/scripts/fuzz-seeds.sh"
run_seeds "fuzz"
