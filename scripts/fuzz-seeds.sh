# Sourced by the fuzz scripts (fuzz.sh, kxs-fuzz.sh, stackless-fuzz.sh): runs seeds START.. of the
# calling script, each as `SCRIPT --one SEED` on $JOBS workers, records PASS/FAIL lines in
# $OUT/results.txt, prints the tally under the script's name and fails if any check failed.
run_seeds() {
  local name=$1 log="$OUT/results.txt" started passed failed
  : >"$log"
  started=$(date +%s)
  seq "$START" $((START + COUNT - 1)) | xargs -P "$JOBS" -n 1 "$0" --one | tee -a "$log" | grep '^FAIL' || true
  passed=$(grep -c '^PASS' "$log")
  failed=$(grep -c '^FAIL' "$log")
  echo "$name: $((passed + failed)) checks in $(($(date +%s) - started))s; failures (if any) under $OUT"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
