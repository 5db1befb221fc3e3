#!/usr/bin/env bash
# Differential fuzzing of llcoro's stackless lowering with random programs (tests/stackless/gen).
#
#   scripts/stackless-fuzz.sh [COUNT] [START]
#
# For each seed START .. START+COUNT-1 (defaults 100 and 1), `gen.py SEED DIR` writes prog.ll (stackless
# functions) and main.c (a driver and the same computation in plain C). prog.ll must be valid to
# opt-19; llcoro lowers it (exit 0, no panic, no frame intrinsic left); opt-19 and opt-22 accept the
# output; then, for each configuration in CONFIGS, the lowered IR, main.c and the runtime are built
# and run: the program compares every result of the lowered code with plain C and exits 0 only when
# all agree. Every failing (seed, configuration) is reported and the run goes on; the program, its
# lowering and the logs are saved under the failure directory printed at the start and the end. The
# last line is `N passed, M failed` over (seed, configuration) pairs; the exit status is 1 if any failed.
#
# Configurations (CONFIGS, space-separated; default all six):
#   19:O0 19:O2 22:O0 22:O2   clang-N -OX
#   22:O2:avx2                clang-22 -O2 -mavx2
#   valgrind                  the clang-19 -O0 build under valgrind (`main quick`: the first two runs)
#
# Environment: CONFIGS, JOBS (parallel seeds, default 2), OUT (failure directory, default a new
# /tmp/llcoro-stackless-fuzz.XXXXXX), LLCORO (default target/release/llcoro, built if missing),
# TIMEOUT (seconds per run, default 60; valgrind gets ten times that).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)

# --- one seed (run by the workers) -------------------------------------------------------------
if [ "${1:-}" = "--one" ]; then
  seed=$2
  work="$WORK/$seed"
  mkdir -p "$work"
  results=""
  fail() { # config step detail-file
    local d="$OUT/seed-$seed"
    mkdir -p "$d"
    cp -f "$work"/prog.ll "$work"/main.c "$work"/low.ll "$d/" 2>/dev/null
    printf 'FAIL seed %s [%s] %s\n' "$seed" "$1" "$2" >"$d/$1.failure"
    [ -n "${3:-}" ] && [ -f "$3" ] && head -c 4000 "$3" >>"$d/$1.failure"
    results+="FAIL seed $seed [$1] $2"$'\n'
  }
  if ! python3 "$WORK/gen.py" "$seed" "$work" 2>"$work/gen.err"; then
    fail gen gen.py-error "$work/gen.err"; printf '%s' "$results"; exit 0
  fi
  if ! opt-19 -passes=verify -disable-output "$work/prog.ll" 2>"$work/in.err"; then
    fail input opt-19-rejects-the-input "$work/in.err"; printf '%s' "$results"; exit 0
  fi
  timeout 120 "$LLCORO" "$work/prog.ll" -o "$work/low.ll" 2>"$work/llcoro.err"
  st=$?
  if [ "$st" != 0 ] || grep -q panicked "$work/llcoro.err"; then
    fail llcoro "llcoro(status $st)" "$work/llcoro.err"; printf '%s' "$results"; exit 0
  fi
  if sed -E ':a; s/^(([^";]|"[^"]*")*);.*$/\1/' "$work/low.ll" | grep -qE '@llvm\.(gc\.)?frame\.'; then
    fail llcoro frame-intrinsic-left; printf '%s' "$results"; exit 0
  fi
  for v in 19 22; do
    if ! "opt-$v" -passes=verify -disable-output "$work/low.ll" 2>"$work/verify$v.err"; then
      fail llcoro "opt-$v-rejects-the-output" "$work/verify$v.err"; printf '%s' "$results"; exit 0
    fi
  done
  build() { # config cc opt extra...
    local c=$1 cc=$2 o=$3
    shift 3
    "$cc" "-$o" "$@" -w -ffp-contract=off -I "$root/runtime/stackless/include" "$work/low.ll" "$work/main.c" \
      "$WORK/rt.$cc.$o$*.a" -o "$work/$c.exe" 2>"$work/$c.build.err"
  }
  for c in $CONFIGS; do
    case $c in
      valgrind)
        if [ ! -x "$work/19-O0.exe" ] && ! build 19-O0 clang-19 O0; then
          fail "$c" build "$work/19-O0.build.err"; continue
        fi
        timeout $((TIMEOUT * 10)) valgrind -q --error-exitcode=99 --leak-check=full \
          "$work/19-O0.exe" quick >"$work/$c.out" 2>"$work/$c.err"
        ;;
      *)
        IFS=: read -r v o x <<<"$c"
        extra=()
        [ "${x:-}" = avx2 ] && extra=(-mavx2)
        if ! build "$v-$o${x:+-$x}" "clang-$v" "$o" "${extra[@]}"; then
          fail "$c" build "$work/$v-$o${x:+-$x}.build.err"; continue
        fi
        timeout "$TIMEOUT" "$work/$v-$o${x:+-$x}.exe" >"$work/$c.out" 2>"$work/$c.err"
        ;;
    esac
    st=$?
    if [ "$st" != 0 ]; then
      cat "$work/$c.out" >>"$work/$c.err"
      fail "$c" "run(status $st)" "$work/$c.err"; continue
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
export CONFIGS=${CONFIGS:-19:O0 19:O2 22:O0 22:O2 22:O2:avx2 valgrind}
export TIMEOUT=${TIMEOUT:-60}
JOBS=${JOBS:-2}
if [ -z "${LLCORO:-}" ]; then
  LLCORO="$root/target/release/llcoro"
  [ -x "$LLCORO" ] || (cd "$root" && cargo build --release -q) || exit 2
fi
export LLCORO
export OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/llcoro-stackless-fuzz.XXXXXX")}
mkdir -p "$OUT"
export WORK
WORK=$(mktemp -d "${TMPDIR:-/tmp}/llcoro-stackless-fuzz-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# A snapshot of the generator, so that editing gen.py during a run does not change its programs.
cp "$root/tests/stackless/gen/gen.py" "$WORK/gen.py"
# The runtime, once per compiler and options.
for c in $CONFIGS; do
  [ "$c" = valgrind ] && c=19:O0
  IFS=: read -r v o x <<<"$c"
  extra=""
  [ "${x:-}" = avx2 ] && extra=-mavx2
  lib="$WORK/rt.clang-$v.$o$extra.a"
  [ -f "$lib" ] && continue
  mkdir -p "$WORK/rt"
  for s in "$root"/runtime/stackless/src/*.c; do
    "clang-$v" "-$o" $extra -c -I "$root/runtime/stackless/include" "$s" -o "$WORK/rt/$(basename "$s" .c).o" || exit 2
  done
  ar rcs "$lib" "$WORK"/rt/*.o && rm -f "$WORK"/rt/*.o
done
echo "stackless fuzz: seeds $START..$((START + COUNT - 1)), configs: $CONFIGS, $JOBS jobs; failures saved under $OUT"

. "$root/scripts/fuzz-seeds.sh"
run_seeds "stackless fuzz"
