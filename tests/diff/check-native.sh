#!/usr/bin/env bash
# Validate the differential test programs with the native toolchains.
#
# For every tests/diff/NN_*.cpp (or the files given as arguments):
#   * build with clang++-19 and clang++-22 at -O0 and -O2 (normal compilation,
#     -std=c++20 -Wall -Wextra; any compiler diagnostic is a failure),
#   * run the 4 binaries and require identical stdout and exit status,
#   * run the clang++-19 -O0 build under valgrind (memcheck, leak checking);
#     its stdout and exit status must match too (valgrind errors exit 99).
# Prints one PASS/FAIL line per program and a final "N passed, M failed".
#
# Environment: CXX19, CXX22 (compilers), JOBS (parallel jobs, default 2),
#              KEEP=1 keeps the build directory, VALGRIND=0 skips valgrind.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CXX19=${CXX19:-clang++-19}
CXX22=${CXX22:-clang++-22}
JOBS=${JOBS:-2}
VALGRIND=${VALGRIND:-1}
CXXFLAGS=(-std=c++20 -Wall -Wextra)
TIMEOUT=${TIMEOUT:-60}

work=$(mktemp -d "${TMPDIR:-/tmp}/llcoro-diff.XXXXXX")
KEEP=${KEEP:-0}
if [ "$KEEP" != 1 ]; then trap 'rm -rf "$work"' EXIT; else echo "build dir: $work"; fi

if [ $# -gt 0 ]; then
  srcs=("$@")
else
  srcs=("$here"/[0-9][0-9]_*.cpp)
fi

check_one() {
  local src=$1 name w cc opt bin rc ref_out ref_rc reason=""
  name=$(basename "$src" .cpp)
  w=$work/$name
  mkdir -p "$w"
  for cc in 19 22; do
    local cxx=$CXX19
    [ "$cc" = 22 ] && cxx=$CXX22
    for opt in O0 O2; do
      bin=$w/$cc-$opt
      if ! "$cxx" "${CXXFLAGS[@]}" "-$opt" "$src" -o "$bin" >"$bin.cc.log" 2>&1; then
        reason="compile error ($cc -$opt)"
        break 2
      fi
      if [ -s "$bin.cc.log" ]; then
        reason="compiler diagnostics ($cc -$opt)"
        break 2
      fi
      timeout "$TIMEOUT" "$bin" >"$bin.out" 2>"$bin.err"
      echo $? >"$bin.rc"
    done
  done
  if [ -z "$reason" ]; then
    ref_out=$w/19-O0.out
    ref_rc=$(cat "$w/19-O0.rc")
    if [ "$ref_rc" -ge 124 ]; then reason="crash/timeout (exit $ref_rc)"; fi
    for bin in "$w"/22-O0 "$w"/19-O2 "$w"/22-O2; do
      [ -n "$reason" ] && break
      if ! cmp -s "$ref_out" "$bin.out"; then
        reason="stdout differs: $(basename "$bin") vs 19-O0"
      elif [ "$(cat "$bin.rc")" != "$ref_rc" ]; then
        reason="exit status differs: $(basename "$bin")=$(cat "$bin.rc") vs 19-O0=$ref_rc"
      fi
    done
  fi
  if [ -z "$reason" ] && [ "$VALGRIND" = 1 ]; then
    timeout $((TIMEOUT * 10)) valgrind -q --error-exitcode=99 --leak-check=full \
      --errors-for-leak-kinds=definite,indirect "$w/19-O0" >"$w/vg.out" 2>"$w/vg.err"
    rc=$?
    if [ "$rc" = 99 ]; then
      reason="valgrind errors"
    elif [ "$rc" != "$ref_rc" ]; then
      reason="valgrind run exit status $rc (expected $ref_rc)"
    elif ! cmp -s "$ref_out" "$w/vg.out"; then
      reason="stdout under valgrind differs"
    fi
  fi
  if [ -z "$reason" ]; then
    echo "PASS $name (exit $ref_rc)" >"$w/result"
  else
    if [ "${KEEP:-0}" = 1 ]; then reason="$reason [$w]"; fi
    echo "FAIL $name: $reason" >"$w/result"
  fi
  cat "$w/result"
}
export -f check_one
export work CXX19 CXX22 VALGRIND TIMEOUT KEEP
export CXXFLAGS_STR="${CXXFLAGS[*]}"

start=$(date +%s.%N)
# Run jobs in parallel; each prints its result line as it completes.
printf '%s\0' "${srcs[@]}" |
  xargs -0 -P "$JOBS" -I{} bash -c 'CXXFLAGS=($CXXFLAGS_STR); check_one "$1"' _ {} >/dev/null

pass=0
fail=0
for src in "${srcs[@]}"; do
  name=$(basename "$src" .cpp)
  line=$(cat "$work/$name/result" 2>/dev/null || echo "FAIL $name: no result")
  echo "$line"
  case $line in PASS*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
done
end=$(date +%s.%N)
printf '%d passed, %d failed (%.1fs)\n' "$pass" "$fail" "$(echo "$end - $start" | bc)"
[ "$fail" = 0 ]
