#!/usr/bin/env bash
# Pass-through / parse throughput benchmark for llcoro against opt-19.
#
# Usage: bench/passthrough.sh [-n RUNS] [-r] [-k]
#   -n RUNS  repetitions per command (default 5); the median is reported
#   -r       regenerate bench/out/big.ll and bench/out/big-nocoro.ll
#   -k       keep the per-command output files in bench/out/pt-*.ll
#
# Builds llcoro (release), generates the inputs with bench/gen_big_module.py
# if they are missing, sanity-checks the outputs, then times every command
# RUNS times and prints a Markdown table (also written to
# bench/out/passthrough.md).
#
# Wall time is measured with a nanosecond clock around `/usr/bin/time`
# (its own %e only has 10 ms resolution); peak RSS is /usr/bin/time's %M.
# MB = 10^6 bytes everywhere (input size and RSS: %M KiB * 1024 / 10^6).
set -euo pipefail

CMDLINE="$(printf '%q ' "$0" "$@")"
CMDLINE="${CMDLINE% }"

RUNS=5
REGEN=0
KEEP=0
while getopts "n:rkh" opt; do
  case "$opt" in
    n) RUNS="$OPTARG" ;;
    r) REGEN=1 ;;
    k) KEEP=1 ;;
    h) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-n RUNS] [-r] [-k]" >&2; exit 2 ;;
  esac
done
if ! [[ "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
  echo "error: -n needs a positive integer, got '$RUNS'" >&2
  exit 2
fi

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
OUT="$BENCH_DIR/out"
mkdir -p "$OUT"
[[ "$ROOT" != *[[:space:]]* ]] || { echo "FATAL: repository path must not contain whitespace" >&2; exit 1; }

die() { echo "FATAL: $*" >&2; exit 1; }

# --- tools -------------------------------------------------------------------
if [[ ! -x /usr/bin/time ]]; then
  echo "/usr/bin/time missing; installing GNU time" >&2
  apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
  [[ -x /usr/bin/time ]] || die "could not install GNU time"
fi
for t in opt-19 clang++-19 llvm-link-19 python3 cargo cmp; do
  command -v "$t" >/dev/null || die "$t not found"
done

echo "== building llcoro (release)" >&2
(cd "$ROOT" && cargo build --release --quiet) || die "cargo build failed"
LLCORO="$ROOT/target/release/llcoro"
[[ -x "$LLCORO" ]] || die "$LLCORO missing after build"

# --- inputs ------------------------------------------------------------------
BIG="$OUT/big.ll"
NOCORO="$OUT/big-nocoro.ll"
GEN_SECS=""
if [[ $REGEN -eq 1 ]]; then rm -f "$BIG" "$NOCORO"; fi
if [[ ! -s "$BIG" || ! -s "$NOCORO" ]]; then
  only=()
  if [[ -s "$BIG" ]]; then only=(--only nocoro); elif [[ -s "$NOCORO" ]]; then only=(--only coro); fi
  echo "== generating inputs" >&2
  g0=$(date +%s%N)
  python3 "$BENCH_DIR/gen_big_module.py" ${only[@]+"${only[@]}"} >&2 || die "input generation failed"
  g1=$(date +%s%N)
  GEN_SECS=$(awk -v a="$g0" -v b="$g1" 'BEGIN{printf "%.1f", (b-a)/1e9}')
fi
grep -q 'presplitcoroutine' "$BIG" || die "$BIG has no presplit coroutines"
if grep -q -e 'llvm\.coro\.' -e 'presplitcoroutine' "$NOCORO"; then
  die "$NOCORO mentions coroutines; it would not take the copy path"
fi

# --- sanity checks (also warm the page cache) --------------------------------
echo "== sanity checks" >&2
"$LLCORO" "$NOCORO" -o "$OUT/pt-nocoro.ll" || die "llcoro failed on $NOCORO"
cmp -s "$NOCORO" "$OUT/pt-nocoro.ll" || die "plain pass-through of big-nocoro.ll is NOT byte-identical"
"$LLCORO" "$BIG" -o "$OUT/pt-plain.ll" || die "llcoro failed on $BIG"
if cmp -s "$BIG" "$OUT/pt-plain.ll"; then
  BIG_PLAIN_NOTE="byte-identical to input"
else
  # Once lowering exists the output legitimately differs: then it must verify.
  opt-19 -passes=verify -disable-output "$OUT/pt-plain.ll" \
    || die "plain llcoro output of big.ll differs from input AND fails opt-19 verify"
  BIG_PLAIN_NOTE="differs from input (lowered); accepted by opt-19 verify"
fi
"$LLCORO" --parse-all "$BIG" -o "$OUT/pt-parse-all.ll" || die "llcoro --parse-all failed on $BIG"
opt-19 -passes=verify -disable-output "$OUT/pt-parse-all.ll" \
  || die "opt-19 -passes=verify REJECTS the llcoro --parse-all output ($OUT/pt-parse-all.ll)"
echo "   big-nocoro.ll pass-through: byte-identical" >&2
echo "   big.ll plain: $BIG_PLAIN_NOTE" >&2
echo "   big.ll --parse-all: accepted by opt-19 verify" >&2

# --- measurement -------------------------------------------------------------
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) printf "%.6f", a[(NR+1)/2]; else printf "%.6f", (a[NR/2]+a[NR/2+1])/2 }'; }
mb_of() { awk -v b="$(stat -c %s "$1")" 'BEGIN{printf "%.1f", b/1e6}'; }

NAMES=(); INPUTS=(); CMDS=()
add() { NAMES+=("$1"); INPUTS+=("$2"); CMDS+=("$3"); }
add "llcoro big-nocoro.ll (copy path)" "$NOCORO" "$LLCORO $NOCORO -o $OUT/pt-nocoro.ll"
add "llcoro big.ll (plain)" "$BIG" "$LLCORO $BIG -o $OUT/pt-plain.ll"
add "llcoro --parse-all big.ll" "$BIG" "$LLCORO --parse-all $BIG -o $OUT/pt-parse-all.ll"
add "opt-19 -passes=verify -S big.ll" "$BIG" "opt-19 -passes=verify -S $BIG -o $OUT/pt-verify.ll"
add "opt-19 coro-early,coro-split,coro-cleanup -S big.ll" "$BIG" \
  "opt-19 -passes=coro-early,coro-split,coro-cleanup -S $BIG -o $OUT/pt-coro.ll"
VERIFY_IDX=3

TIMEF="$OUT/.time.$$"
trap 'rm -f "$TIMEF"' EXIT
declare -a MED_S MED_RSS
for i in "${!CMDS[@]}"; do
  echo "== [$((i + 1))/${#CMDS[@]}] ${NAMES[$i]} x $RUNS" >&2
  walls=(); rsss=()
  for ((r = 1; r <= RUNS; r++)); do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086  # commands contain no spaces inside arguments
    /usr/bin/time -f '%e %M' -o "$TIMEF" ${CMDS[$i]} \
      || die "command failed: ${CMDS[$i]}"
    t1=$(date +%s%N)
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.6f", (b-a)/1e9}')
    rss_kb=$(awk 'END{print $2}' "$TIMEF")
    walls+=("$w"); rsss+=("$rss_kb")
    printf '   run %d: %.3f s, %s KiB\n' "$r" "$w" "$rss_kb" >&2
  done
  MED_S[$i]=$(printf '%s\n' "${walls[@]}" | median)
  MED_RSS[$i]=$(printf '%s\n' "${rsss[@]}" | median)
done

# --- report ------------------------------------------------------------------
REPORT="$OUT/passthrough.md"
{
  echo "# llcoro pass-through benchmark"
  echo
  echo "- command: \`$CMDLINE\`"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "- cpu: $(lscpu | grep 'Model name' | sed 's/^Model name:[[:space:]]*//') ($(nproc) cores)"
  echo "- opt: $(opt-19 --version | head -2 | tr '\n' ' ' | sed 's/[[:space:]]\+/ /g; s/ $//')"
  echo "- llcoro: $("$LLCORO" --version)"
  echo "- inputs: big.ll $(mb_of "$BIG") MB ($(grep -c '^define' "$BIG") definitions), big-nocoro.ll $(mb_of "$NOCORO") MB ($(grep -c '^define' "$NOCORO") definitions)"
  if [[ -n "$GEN_SECS" ]]; then echo "- input generation (this run): ${GEN_SECS} s"; fi
  echo "- runs per command: $RUNS (median reported; MB = 10^6 bytes; RSS from /usr/bin/time %M)"
  echo "- checks: big-nocoro.ll pass-through byte-identical; big.ll plain: $BIG_PLAIN_NOTE; --parse-all output accepted by opt-19 -passes=verify"
  echo
  echo "| command | input MB | median s | MB/s | median peak RSS MB | time vs opt-19 verify | RSS vs opt-19 verify |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  vs=${MED_S[$VERIFY_IDX]}
  vr=${MED_RSS[$VERIFY_IDX]}
  for i in "${!CMDS[@]}"; do
    awk -v name="${NAMES[$i]}" -v bytes="$(stat -c %s "${INPUTS[$i]}")" \
        -v s="${MED_S[$i]}" -v kb="${MED_RSS[$i]}" -v vs="$vs" -v vr="$vr" 'BEGIN{
      mb = bytes / 1e6; rss = kb * 1024 / 1e6
      printf "| `%s` | %.1f | %.3f | %.1f | %.1f | %.3fx | %.2fx |\n", name, mb, s, mb / s, rss, s / vs, kb / vr
    }'
  done
  echo
  echo "Exact commands:"
  echo
  for i in "${!CMDS[@]}"; do echo "    ${CMDS[$i]}"; done
} | tee "$REPORT"

if [[ $KEEP -eq 0 ]]; then
  rm -f "$OUT"/pt-nocoro.ll "$OUT"/pt-plain.ll "$OUT"/pt-parse-all.ll "$OUT"/pt-verify.ll "$OUT"/pt-coro.ll
fi
echo >&2
echo "report written to $REPORT" >&2
