#!/usr/bin/env bash
# Differential fuzzing of llcoro's kxs lowering with random suspend-function programs
# (tests/kxs/gen/gen.py).
#
#   scripts/kxs-fuzz.sh [COUNT] [START]
#
# For each seed START .. START+COUNT-1 (defaults 100 and 1) and each configuration in CONFIGS, the
# program `tests/kxs/gen/gen.py SEED` goes to presplit IR (clang++-N -std=c++20 -OX FLAGS
# -Xclang -disable-llvm-passes -emit-llvm -S), through llcoro (exit 0, no panic), `opt-N
# -passes=verify`, and clang++-N -OX FLAGS to a binary, which must exit 0 and print the same lines
# after `== kxs` as after `== plain` (its suspend functions against their plain C++ twins). A
# configuration ending in `:vg` also runs the binary under valgrind (no error, no definite or
# indirect leak, the same output). Every failing (seed, configuration) is reported and the run goes
# on; the program, its IR and the logs are saved under the failure directory printed at the start
# and the end. The last line is `N passed, M failed`; the exit status is 1 if any failed.
#
# Environment:
#   CONFIGS     space-separated VERSION:OPT[:FLAG,FLAG...][:vg] (default: what the cargo test runs,
#               "19:O0::vg 19:O2 22:O0 22:O2 22:O2:-mavx2"; 14:O2 adds typed pointers)
#   PLAIN_ONLY  1: validate the generator instead: build `gen.py --plain SEED` (no kxs, no llcoro)
#               with clang++-19/22 at -O0/-O2; the four runs must agree and exit 0; then no
#               uninitialized-use warning, the same output from a -fsanitize=undefined build, and a
#               clean valgrind run of the clang-19 -O0 build
#   JOBS        parallel seeds (default 2)
#   OUT         failure directory (default: a new /tmp/llcoro-kxs-fuzz.XXXXXX)
#   LLCORO      the llcoro binary (default: target/release/llcoro, built if missing)
#   TIMEOUT     seconds per program run (default 30; valgrind gets 10 times as long)
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
gen="$root/tests/kxs/gen/gen.py"
include="$root/cpp/include"

# --- one seed (run by the workers) -------------------------------------------------------------
if [ "${1:-}" = "--one" ]; then
  seed=$2
  work="$WORK/$seed"
  mkdir -p "$work"
  prog="$work/kxs$seed.cpp"
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
  run() { # timeout out-prefix command...
    local t=$1 p=$2
    shift 2
    timeout "$t" "$@" >"$p.out" 2>"$p.err"
    echo $? >"$p.status"
  }
  # The lines after `== plain` up to `== kxs`, and the lines after `== kxs`, must be the same.
  halves_agree() { # out-file
    sed -n '/^== plain$/,/^== kxs$/p' "$1" | sed '1d;$d' >"$1.plain"
    sed -n '/^== kxs$/,$p' "$1" | sed 1d >"$1.kxs"
    [ -s "$1.plain" ] && cmp -s "$1.plain" "$1.kxs"
  }
  if [ "${PLAIN_ONLY:-0}" = 1 ]; then
    if ! python3 "$WORK/gen.py" --plain "$seed" >"$prog" 2>"$work/gen.err"; then
      mkdir -p "$OUT/seed-$seed" && cp "$work/gen.err" "$OUT/seed-$seed/"
      echo "FAIL seed $seed [-] gen.py-error"
      exit 0
    fi
    ref=""
    for cfg in 19:O0 19:O2 22:O0 22:O2; do
      v=${cfg%%:*} o=${cfg##*:} c="clang-$v-$o"
      if ! "clang++-$v" -std=c++20 "-$o" -w "$prog" -o "$work/$c.bin" 2>"$work/$c.build.err"; then
        fail "$c" "plain-build" "$work/$c.build.err"; continue
      fi
      run "$TIMEOUT" "$work/$c" "$work/$c.bin"
      if [ "$(cat "$work/$c.status")" != 0 ] || ! grep -q '^== plain$' "$work/$c.out"; then
        fail "$c" "plain-run(status $(cat "$work/$c.status"))" "$work/$c.err"; continue
      fi
      if [ -z "$ref" ]; then ref="$work/$c.out"
      elif ! cmp -s "$ref" "$work/$c.out"; then
        diff "$ref" "$work/$c.out" >"$work/$c.diff"; fail "$c" "plain-output-differs" "$work/$c.diff"; continue
      fi
      results+="PASS $seed $c"$'\n'
    done
    c=ubsan-valgrind
    if [ -n "$ref" ]; then
      if ! clang++-22 -std=c++20 -fsyntax-only -Werror=uninitialized -Werror=sometimes-uninitialized "$prog" \
        2>"$work/$c.uninit.err"; then
        fail "$c" "uninitialized-use" "$work/$c.uninit.err"
      elif ! clang++-22 -std=c++20 -O1 -w -fsanitize=undefined -fsanitize-trap=undefined "$prog" -o "$work/$c.ubsan" \
        2>"$work/$c.build.err"; then
        fail "$c" "ubsan-build" "$work/$c.build.err"
      elif run "$TIMEOUT" "$work/$c.ubsan" "$work/$c.ubsan" && ! cmp -s "$ref" "$work/$c.ubsan.out"; then
        fail "$c" "ubsan-run(status $(cat "$work/$c.ubsan.status"))" "$work/$c.ubsan.err"
      elif ! { timeout $((TIMEOUT * 10)) valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$work/clang-19-O0.bin" >"$work/$c.vg.out" 2>"$work/$c.vg.err" &&
        cmp -s "$ref" "$work/$c.vg.out"; }; then
        fail "$c" "valgrind" "$work/$c.vg.err"
      else
        results+="PASS $seed $c"$'\n'
      fi
    fi
    printf '%s' "$results"
    rm -rf "$work"
    exit 0
  fi
  if ! python3 "$WORK/gen.py" "$seed" >"$prog" 2>"$work/gen.err"; then
    mkdir -p "$OUT/seed-$seed" && cp "$work/gen.err" "$OUT/seed-$seed/"
    echo "FAIL seed $seed [-] gen.py-error"
    exit 0
  fi
  for cfg in $CONFIGS; do
    IFS=: read -r v o flags vg <<<"$cfg"
    flags=${flags//,/ }
    c="clang-$v-$o${flags// /}${vg:+-vg}"
    cxx="clang++-$v"
    # shellcheck disable=SC2086 # flags is a list of options
    if ! "$cxx" -std=c++20 "-$o" $flags -w -I "$include" -Xclang -disable-llvm-passes -emit-llvm -S "$prog" \
      -o "$work/$c.ll" 2>"$work/$c.ll.err"; then
      fail "$c" "presplit-IR" "$work/$c.ll.err"; continue
    fi
    timeout 120 "$LLCORO" "$work/$c.ll" -o "$work/$c.low.ll" 2>"$work/$c.llcoro.err"
    st=$?
    if [ "$st" != 0 ] || [ ! -f "$work/$c.low.ll" ] || grep -q panicked "$work/$c.llcoro.err"; then
      fail "$c" "llcoro(status $st)" "$work/$c.llcoro.err"; continue
    fi
    if ! "opt-$v" -passes=verify -disable-output "$work/$c.low.ll" 2>"$work/$c.verify.err"; then
      fail "$c" "opt-verify" "$work/$c.verify.err"; continue
    fi
    # shellcheck disable=SC2086
    if ! "$cxx" "-$o" $flags -w "$work/$c.low.ll" -o "$work/$c.bin" 2>"$work/$c.build.err"; then
      fail "$c" "lowered-build" "$work/$c.build.err"; continue
    fi
    run "$TIMEOUT" "$work/$c" "$work/$c.bin"
    if [ "$(cat "$work/$c.status")" != 0 ]; then
      fail "$c" "run(status $(cat "$work/$c.status"))" "$work/$c.err"; continue
    fi
    if ! halves_agree "$work/$c.out"; then
      diff "$work/$c.out.plain" "$work/$c.out.kxs" >"$work/$c.diff"
      fail "$c" "kxs-differs-from-plain" "$work/$c.diff"; continue
    fi
    if [ -n "$vg" ]; then
      run $((TIMEOUT * 10)) "$work/$c.vg" valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$work/$c.bin"
      if [ "$(cat "$work/$c.vg.status")" != 0 ] || ! cmp -s "$work/$c.out" "$work/$c.vg.out"; then
        fail "$c" "valgrind(status $(cat "$work/$c.vg.status"))" "$work/$c.vg.err"; continue
      fi
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
export CONFIGS=${CONFIGS:-19:O0::vg 19:O2 22:O0 22:O2 22:O2:-mavx2}
export TIMEOUT=${TIMEOUT:-30}
export PLAIN_ONLY=${PLAIN_ONLY:-0}
JOBS=${JOBS:-2}
if [ -z "${LLCORO:-}" ]; then
  LLCORO="$root/target/release/llcoro"
  if [ ! -x "$LLCORO" ] && [ "$PLAIN_ONLY" != 1 ]; then
    (cd "$root" && cargo build --release -q) || exit 2
  fi
fi
export LLCORO
export OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/llcoro-kxs-fuzz.XXXXXX")}
mkdir -p "$OUT"
export WORK
WORK=$(mktemp -d "${TMPDIR:-/tmp}/llcoro-kxs-fuzz-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# A snapshot of the generator, so that editing gen.py during a run does not change its programs.
cp "$gen" "$WORK/gen.py"
if [ "$PLAIN_ONLY" = 1 ]; then what="generator validation (plain halves)"; else what="configs: $CONFIGS"; fi
echo "kxs-fuzz: seeds $START..$((START + COUNT - 1)), $what, $JOBS jobs; failures saved under $OUT"

. "$root/scripts/fuzz-seeds.sh"
run_seeds "kxs-fuzz"
