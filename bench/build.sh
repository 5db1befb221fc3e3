#!/usr/bin/env bash
# Whole-build time through `llcoro cc` against the native clang build (issue 11, item 4).
#
# Usage: bench/build.sh [-n RUNS] [-v 19|22] [-j JOBS] [-t TUS] [-p gen|diff|all] [-s STRIDE]
#   -n RUNS    builds of each kind per project (default 5); medians are reported (0: no builds,
#              with -s the breakdown only)
#   -v V       clang version: clang++-V compiles and links (default 19)
#   -j JOBS    parallel compiles, the same for both builds (default 2)
#   -t TUS     translation units of the generated project (default 200)
#   -p WHICH   gen: the generated project; diff: the differential programs (tests/diff/*.cpp, one TU
#              and one program each); all: both (default)
#   -s STRIDE  also measure the per-step breakdown, sequentially, on every STRIDE-th TU of the
#              generated project (0: no breakdown; default 0)
#
# Each run builds each project twice from an empty build directory with ninja -j JOBS: natively
# (`clang++-V -std=c++20 -O2 -MD -c`, then the link) and with every compile run as
# `llcoro cc -- clang++-V ...` (the link is the same plain clang++-V command in both). The order of
# the two alternates between runs. Wall time is a nanosecond clock around ninja; CPU time is the
# user+system time of ninja and everything it ran (GNU time). Both builds' programs are run and
# must print the same output and exit with the same status, or the script fails.
#
# The breakdown (-s) runs, for each chosen TU, each step of the launcher by hand and records its
# CPU time (perf stat task-clock), along with the variants that isolate a cost:
#   native     clang++ -c SRC (the whole native compile)
#   step1      clang++ -S -emit-llvm -Xclang -disable-llvm-passes SRC -o p.ll (as llcoro cc runs it)
#   step1-bc   the same writing bitcode (-c -emit-llvm): step1 minus this is printing the IR as text
#   llcoro     llcoro --serial p.ll -o lowered.ll (a process of its own; llcoro cc lowers
#              in-process, on one thread)
#   llcoro-threads  llcoro p.ll (a thread per chunk of functions, the command's default)
#   step3      clang++ -O2 -c -x ir lowered.ll (as llcoro cc runs it)
#   step3-bc   the same from lowered.bc (llvm-as-V, not timed): step3 minus this is parsing the text
#   llvm-bc    clang++ -O2 -c -x ir p.bc: LLVM lowers the coroutines in its -O2 pipeline instead
#   empty-ir   clang++ -O2 -c -x ir on an empty module: a second compiler process's fixed cost
#   launcher   llcoro cc -- clang++ -c SRC (the whole launcher compile)
#
# Writes the report to bench/out/build.md (and prints it).
set -euo pipefail

CMDLINE="$(printf '%q ' "$0" "$@")"
CMDLINE="${CMDLINE% }"
RUNS=5
V=19
JOBS=2
TUS=200
WHICH=all
STRIDE=0
while getopts "n:v:j:t:p:s:h" opt; do
  case "$opt" in
    n) RUNS="$OPTARG" ;;
    v) V="$OPTARG" ;;
    j) JOBS="$OPTARG" ;;
    t) TUS="$OPTARG" ;;
    p) WHICH="$OPTARG" ;;
    s) STRIDE="$OPTARG" ;;
    h) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    *) echo "usage: $0 [-n RUNS] [-v 19|22] [-j JOBS] [-t TUS] [-p gen|diff|all] [-s STRIDE]" >&2; exit 2 ;;
  esac
done
for x in "$JOBS" "$TUS"; do
  [[ "$x" =~ ^[1-9][0-9]*$ ]] || { echo "error: -j and -t take positive integers" >&2; exit 2; }
done
[[ "$RUNS" =~ ^[0-9]+$ ]] || { echo "error: -n takes a number" >&2; exit 2; }
[[ "$STRIDE" =~ ^[0-9]+$ ]] || { echo "error: -s takes a number" >&2; exit 2; }
case "$WHICH" in gen | diff | all) ;; *) echo "error: -p takes gen, diff or all" >&2; exit 2 ;; esac

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
OUT="$BENCH_DIR/out/build"
mkdir -p "$OUT"
[[ "$ROOT" != *[[:space:]]* ]] || { echo "FATAL: repository path must not contain whitespace" >&2; exit 1; }
die() { echo "FATAL: $*" >&2; exit 1; }

CXX="clang++-$V"
for t in "$CXX" "llvm-as-$V" ninja python3 cargo perf; do
  command -v "$t" >/dev/null || die "$t not found"
done
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) not found"
CXX="$(command -v "$CXX")"

echo "== building llcoro (release)" >&2
(cd "$ROOT" && cargo build --release --quiet -p llcoro) || die "cargo build failed"
LLCORO="${CARGO_TARGET_DIR:-$ROOT/target}/release/llcoro"
[[ -x "$LLCORO" ]] || die "$LLCORO missing after build"

FLAGS="-std=c++20 -O2"
TIMEF="$OUT/.time.$$"
trap 'rm -f "$TIMEF"' EXIT

median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) printf "%.3f", a[(NR+1)/2]; else printf "%.3f", (a[NR/2]+a[NR/2+1])/2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", a / b}'; }

# write_ninja DIR LAUNCHER INCLUDE_FLAGS: writes DIR/build.ninja; the compile edges and link edges
# come from the arrays SRCS (sources), OBJS (objects) and the LINKS lines (`prog: objects...`).
write_ninja() {
  local dir=$1 launcher=$2 inc=$3
  {
    echo "rule cxx"
    echo "  command = $launcher $CXX $FLAGS $inc -MD -MF \$out.d -c \$in -o \$out"
    echo "  depfile = \$out.d"
    echo "  deps = gcc"
    echo "rule link"
    echo "  command = $CXX \$in -o \$out"
    local i
    for i in "${!SRCS[@]}"; do echo "build ${OBJS[$i]}: cxx ${SRCS[$i]}"; done
    local l
    for l in "${LINKS[@]}"; do echo "build ${l%%:*}: link${l#*:}"; done
  } >"$dir/build.ninja"
}

# busy_s: CPU seconds all processes of the machine have used since boot (/proc/stat: everything
# but idle and iowait).
HZ=$(getconf CLK_TCK)
busy_s() { awk -v hz="$HZ" '$1 == "cpu" {printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / hz}' /proc/stat; }

# build NAME KIND LAUNCHER INCLUDE_FLAGS: one clean build; appends "wall cpu other" to
# $OUT/NAME.KIND.times, where other is the CPU time the rest of the machine used meanwhile (the
# machine is shared: a busy neighbour makes the build's wall time meaningless).
build() {
  local name=$1 kind=$2 launcher=$3 inc=$4
  local dir="$OUT/$name.$kind"
  rm -rf "$dir"
  mkdir -p "$dir"
  write_ninja "$dir" "$launcher" "$inc"
  sync
  local t0 t1 b0 b1
  b0=$(busy_s)
  t0=$(date +%s%N)
  /usr/bin/time -f '%U %S' -o "$TIMEF" ninja -C "$dir" -j "$JOBS" >"$dir.log" 2>&1 \
    || { tail -30 "$dir.log" >&2; die "$name: the $kind build failed (log: $dir.log)"; }
  t1=$(date +%s%N)
  b1=$(busy_s)
  local wall cpu other
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')
  cpu=$(awk 'END{printf "%.3f", $1 + $2}' "$TIMEF")
  other=$(awk -v a="$b0" -v b="$b1" -v c="$cpu" 'BEGIN{o = b - a - c; printf "%.1f", o < 0 ? 0 : o}')
  echo "$wall $cpu $other" >>"$OUT/$name.$kind.times"
  printf '   %-5s %-7s wall %7.3f s  cpu %7.3f s  other processes %6.1f s\n' "$name" "$kind" "$wall" "$cpu" "$other" >&2
}

# check NAME: runs every program of both builds; stdout and exit status must match.
check() {
  local name=$1 l prog n=0
  for l in "${LINKS[@]}"; do
    prog=${l%%:*}
    local a b sa=0 sb=0
    a=$("$OUT/$name.native/$prog" </dev/null) || sa=$?
    b=$("$OUT/$name.llcoro/$prog" </dev/null) || sb=$?
    [[ "$a" == "$b" && "$sa" == "$sb" ]] || die "$name: $prog behaves differently (exit $sa natively, $sb through llcoro)"
    [[ -n "$a" ]] || die "$name: $prog printed nothing"
    n=$((n + 1))
  done
  echo "$n"
}

declare -A CHECKED MED_W MED_C MED_O PAIR
PROJECTS=()

# measure NAME INCLUDE_FLAGS: RUNS pairs of builds, then the output check.
measure() {
  local name=$1 inc=$2
  rm -f "$OUT/$name.native.times" "$OUT/$name.llcoro.times"
  local r
  for ((r = 1; r <= RUNS; r++)); do
    echo "== $name: run $r/$RUNS" >&2
    if ((r % 2)); then
      build "$name" native "" "$inc"
      build "$name" llcoro "$LLCORO cc --" "$inc"
    else
      build "$name" llcoro "$LLCORO cc --" "$inc"
      build "$name" native "" "$inc"
    fi
  done
  CHECKED[$name]=$(check "$name")
  local k
  for k in native llcoro; do
    MED_W[$name.$k]=$(awk '{print $1}' "$OUT/$name.$k.times" | median)
    MED_C[$name.$k]=$(awk '{print $2}' "$OUT/$name.$k.times" | median)
    MED_O[$name.$k]=$(awk '{print $3}' "$OUT/$name.$k.times" | median)
  done
  # The two builds of a run are adjacent in time: the median of their ratios is less sensitive to
  # a neighbour's load that comes and goes than the ratio of the medians.
  PAIR[$name]=$(paste "$OUT/$name.native.times" "$OUT/$name.llcoro.times" | awk '{print $4 / $1}' | median)
  PROJECTS+=("$name")
}

GEN="$OUT/project-$TUS"
if [[ "$WHICH" != diff ]]; then
  if [[ ! -f "$GEN/sources.txt" || "$BENCH_DIR/gen_build_project.py" -nt "$GEN/sources.txt" ]]; then
    echo "== generating the $TUS-TU project in $GEN" >&2
    rm -rf "$GEN"
    python3 "$BENCH_DIR/gen_build_project.py" -n "$TUS" "$GEN" || die "generation failed"
  fi
  SRCS=() OBJS=() LINKS=()
  while read -r s; do
    SRCS+=("$GEN/$s")
    OBJS+=("obj/$(basename "${s%.cpp}").o")
  done <"$GEN/sources.txt"
  LINKS=("app: ${OBJS[*]}")
  if ((RUNS > 0)); then measure gen "-I$GEN/include"; fi
fi
if [[ "$WHICH" != gen ]] && ((RUNS > 0)); then
  SRCS=() OBJS=() LINKS=()
  for s in "$ROOT"/tests/diff/[0-9]*.cpp; do
    b=$(basename "${s%.cpp}")
    SRCS+=("$s")
    OBJS+=("obj/$b.o")
    LINKS+=("bin/$b: obj/$b.o")
  done
  measure diff ""
fi

# --- per-step breakdown -------------------------------------------------------
STEP_NAMES=(native step1 step1-bc llcoro llcoro-threads step3 step3-bc llvm-bc empty-ir launcher)
declare -A STEP_SUM BD_TUS BD_IR BD_LOW
BD_PROJECTS=()
W="$OUT/steps"
# cpu_ms CMD...: runs CMD, prints its CPU time in ms (perf stat task-clock of the whole process tree).
cpu_ms() {
  perf stat -x, -e task-clock -o "$W/perf" -- "$@" >/dev/null 2>"$W/err" || { cat "$W/err" >&2; die "failed: $*"; }
  awk -F, '$3 == "task-clock" {print $1}' "$W/perf"
}
# breakdown NAME INCLUDE_FLAGS SOURCES...: every STRIDE-th source, each step timed one at a time.
breakdown() {
  local name=$1 inc=$2
  shift 2
  local all=("$@") i s src
  rm -rf "$W"
  mkdir -p "$W"
  printf '' >"$W/empty.ll"
  for s in "${STEP_NAMES[@]}"; do STEP_SUM[$name.$s]=0; done
  BD_TUS[$name]=0 BD_IR[$name]=0 BD_LOW[$name]=0
  echo "== $name: per-step breakdown on every ${STRIDE}th of ${#all[@]} sources" >&2
  local -A ms
  local incw=()
  [[ -z "$inc" ]] || incw=("$inc")
  for ((i = 0; i < ${#all[@]}; i += STRIDE)); do
    src="${all[$i]}"
    # shellcheck disable=SC2086  # FLAGS is a list of words
    {
      ms[native]=$(cpu_ms "$CXX" $FLAGS "${incw[@]}" -MD -MF "$W/n.d" -c "$src" -o "$W/n.o")
      ms[step1]=$(cpu_ms "$CXX" $FLAGS "${incw[@]}" -MD -MF "$W/p.d" -S -emit-llvm -Xclang -disable-llvm-passes -o "$W/p.ll" "$src")
      ms[step1-bc]=$(cpu_ms "$CXX" $FLAGS "${incw[@]}" -MD -MF "$W/b.d" -c -emit-llvm -Xclang -disable-llvm-passes -o "$W/p.bc" "$src")
      # The first llcoro run after a compiler finds the caches cold: alternate which goes first.
      if ((i / STRIDE % 2)); then
        ms[llcoro-threads]=$(cpu_ms "$LLCORO" "$W/p.ll" -o "$W/lowered-threads.ll")
        ms[llcoro]=$(cpu_ms "$LLCORO" --serial "$W/p.ll" -o "$W/lowered.ll")
      else
        ms[llcoro]=$(cpu_ms "$LLCORO" --serial "$W/p.ll" -o "$W/lowered.ll")
        ms[llcoro-threads]=$(cpu_ms "$LLCORO" "$W/p.ll" -o "$W/lowered-threads.ll")
      fi
      cmp -s "$W/lowered.ll" "$W/lowered-threads.ll" || die "$src: llcoro --serial and llcoro lower differently"
      ms[step3]=$(cpu_ms "$CXX" $FLAGS -Wno-unused-command-line-argument -c -x ir "$W/lowered.ll" -o "$W/l.o")
      "llvm-as-$V" "$W/lowered.ll" -o "$W/lowered.bc"
      ms[step3-bc]=$(cpu_ms "$CXX" $FLAGS -Wno-unused-command-line-argument -c -x ir "$W/lowered.bc" -o "$W/lb.o")
      ms[llvm-bc]=$(cpu_ms "$CXX" $FLAGS -Wno-unused-command-line-argument -c -x ir "$W/p.bc" -o "$W/pb.o")
      ms[empty-ir]=$(cpu_ms "$CXX" $FLAGS -Wno-unused-command-line-argument -c -x ir "$W/empty.ll" -o "$W/e.o")
      ms[launcher]=$(cpu_ms "$LLCORO" cc -- "$CXX" $FLAGS "${incw[@]}" -MD -MF "$W/c.d" -c "$src" -o "$W/c.o")
    }
    for s in "${STEP_NAMES[@]}"; do
      STEP_SUM[$name.$s]=$(awk -v a="${STEP_SUM[$name.$s]}" -v b="${ms[$s]}" 'BEGIN{printf "%.3f", a + b}')
    done
    BD_IR[$name]=$((BD_IR[$name] + $(stat -c %s "$W/p.ll")))
    BD_LOW[$name]=$((BD_LOW[$name] + $(stat -c %s "$W/lowered.ll")))
    BD_TUS[$name]=$((BD_TUS[$name] + 1))
    printf '   %s: native %s ms, launcher %s ms\n' "$(basename "$src")" "${ms[native]}" "${ms[launcher]}" >&2
  done
  BD_PROJECTS+=("$name")
}
if ((STRIDE > 0)); then
  if [[ "$WHICH" != diff ]]; then
    mapfile -t rel <"$GEN/sources.txt"
    breakdown gen "-I$GEN/include" "${rel[@]/#/$GEN/}"
  fi
  if [[ "$WHICH" != gen ]]; then
    breakdown diff "" "$ROOT"/tests/diff/[0-9]*.cpp
  fi
fi

# --- report -----------------------------------------------------------------------
describe() { if [[ $1 == gen ]]; then echo "generated ($TUS TUs + main)"; else echo "tests/diff programs"; fi; }
REPORT="$BENCH_DIR/out/build.md"
{
  echo "# Build time through the launcher"
  echo
  echo "- command: \`$CMDLINE\`"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- cpu: $(lscpu | grep 'Model name' | sed 's/^Model name:[[:space:]]*//') ($(nproc) cores)"
  echo "- compiler: $("$CXX" --version | head -1); flags: \`$FLAGS -MD -c\`; ninja -j $JOBS; $RUNS clean builds of each kind, medians"
  echo "- llcoro: $("$LLCORO" --version)"
  if ((${#PROJECTS[@]} > 0)); then
    echo
    echo "| project | TUs | programs checked | native wall s | llcoro cc wall s | wall ratio | per-run wall ratio | native CPU s | llcoro cc CPU s | CPU ratio | other processes' CPU s (native, llcoro builds) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  fi
  for p in "${PROJECTS[@]}"; do
    if [[ $p == gen ]]; then n=$((TUS + 1)); else n=$(find "$ROOT/tests/diff" -maxdepth 1 -name '[0-9]*.cpp' | wc -l); fi
    printf '| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s, %s |\n' "$(describe "$p")" "$n" "${CHECKED[$p]}" \
      "${MED_W[$p.native]}" "${MED_W[$p.llcoro]}" "$(ratio "${MED_W[$p.llcoro]}" "${MED_W[$p.native]}")" "${PAIR[$p]}" \
      "${MED_C[$p.native]}" "${MED_C[$p.llcoro]}" "$(ratio "${MED_C[$p.llcoro]}" "${MED_C[$p.native]}")" \
      "${MED_O[$p.native]}" "${MED_O[$p.llcoro]}"
  done
  if ((${#BD_PROJECTS[@]} > 0)); then
    sum() { awk -v a="$1" -v b="$2" -v c="${3:-0}" 'BEGIN{printf "%.3f", a + b + c}'; }
    sub_() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", a - b}'; }
    echo
    echo "Per-step CPU time (perf stat task-clock), summed over every ${STRIDE}th TU, one command at a time:"
    echo
    head="| command"
    rule="|---"
    for p in "${BD_PROJECTS[@]}"; do
      head+=" | $(describe "$p"), ${BD_TUS[$p]} TUs: CPU s | vs native"
      rule+="|---:|---:"
    done
    echo "$head |"
    echo "$rule|"
    cell() { awk -v v="$1" -v n="$2" -v f="$3" 'BEGIN{printf " | %.3f | " f, v / 1000, v / n}'; }
    for s in "${STEP_NAMES[@]}"; do
      line="| $s"
      for p in "${BD_PROJECTS[@]}"; do line+=$(cell "${STEP_SUM[$p.$s]}" "${STEP_SUM[$p.native]}" "%.3f"); done
      echo "$line |"
    done
    echo
    echo "Where the launcher's extra time goes (CPU s, and as a fraction of the native compiles):"
    echo
    head="| part"
    rule="|---"
    for p in "${BD_PROJECTS[@]}"; do
      head+=" | $(describe "$p"): CPU s | of native"
      rule+="|---:|---:"
    done
    echo "$head |"
    echo "$rule|"
    part() {
      local label=$1 line p v
      shift
      line="| $label"
      for p in "${BD_PROJECTS[@]}"; do
        local -n S=STEP_SUM
        case "$1" in
          total) v=$(sub_ "${S[$p.launcher]}" "${S[$p.native]}") ;;
          split) v=$(sub_ "$(sum "${S[$p.step1]}" "${S[$p.step3]}")" "${S[$p.native]}") ;;
          process) v=${S[$p.empty-ir]} ;;
          print) v=$(sub_ "${S[$p.step1]}" "${S[$p.step1-bc]}") ;;
          parse) v=$(sub_ "${S[$p.step3]}" "${S[$p.step3-bc]}") ;;
          o2) v=$(sub_ "${S[$p.step3-bc]}" "${S[$p.llvm-bc]}") ;;
          llcoro) v=${S[$p.llcoro]} ;;
          threads) v=${S[$p.llcoro-threads]} ;;
          rest) v=$(sub_ "${S[$p.launcher]}" "$(sum "${S[$p.step1]}" "${S[$p.llcoro]}" "${S[$p.step3]}")") ;;
        esac
        line+=$(cell "$v" "${S[$p.native]}" "%+.3f")
      done
      echo "$line |"
    }
    part "whole launcher compile minus native compile" total
    part "step 1 + step 3 minus native (front end and back end in two processes)" split
    part "- of which the second compiler process (empty-ir)" process
    part "- of which printing the IR as text (step1 - step1-bc)" print
    part "- of which parsing the IR text (step3 - step3-bc)" parse
    part "- of which -O2 on llcoro's output instead of LLVM's lowering (step3-bc - llvm-bc)" o2
    part "step 2, llcoro (on one thread, as in llcoro cc)" llcoro
    part "- the same with a thread per chunk of functions (llcoro's default)" threads
    part "launcher minus its three steps (temporary files, process spawns)" rest
    echo
    for p in "${BD_PROJECTS[@]}"; do
      echo "- $(describe "$p"): presplit IR $((BD_IR[$p] / 1000)) KB, lowered IR $((BD_LOW[$p] / 1000)) KB in total"
    done
  fi
} | tee "$REPORT"
echo >&2
echo "report written to $REPORT" >&2
