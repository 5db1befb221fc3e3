#!/usr/bin/env bash
# Runs the whole configuration matrix (crates/llcoro/tests/matrix.rs: the tests/diff programs with
# clang 14/19/22, -O0/-O1/-O2/-O3/-Os, without debug info, with -gline-tables-only and with -g, by
# hand and through `llcoro cc`: 90 cells, 4500 checks) and then every real-library program in every
# configuration (crates/llcoro/tests/libs.rs), and the differential test's indirectbr and
# closed-promises configurations on every program (crates/llcoro/tests/differential.rs), instead of
# the fixed samples that CI runs.
#
# Takes hours of CPU time on a 2-core machine when nothing is reused; outputs are kept under
# target/tmp/{matrix,libs}/ and reused by the next run while their fingerprints hold, and every
# matrix failure is written to target/tmp/matrix/failures.txt.
#
#   scripts/matrix.sh                     # all three
#   scripts/matrix.sh matrix              # only the matrix
#   scripts/matrix.sh libs                # only the library programs
#   scripts/matrix.sh differential        # only the differential test, every program everywhere
#   LLCORO_MATRIX_CELLS=clang-19 scripts/matrix.sh matrix    # cells whose name contains clang-19
#
# Other knobs are passed through: LLCORO_MATRIX_FILTER, LLCORO_MATRIX_FIRST, LLCORO_MATRIX_REBUILD,
# LLCORO_LIBS_FILTER, LLCORO_LIBS_REBUILD (see the top of each test file).
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
status=0
if [[ $which == all || $which == matrix ]]; then
    LLCORO_MATRIX=all nice -n 10 cargo test --release -p llcoro --test matrix -- --nocapture || status=1
fi
if [[ $which == all || $which == libs ]]; then
    LLCORO_LIBS_ALL=1 nice -n 10 cargo test --release -p llcoro --test libs -- --nocapture || status=1
fi
if [[ $which == all || $which == differential ]]; then
    LLCORO_DIFF_ALL=1 nice -n 10 cargo test --release -p llcoro --test differential -- --nocapture || status=1
fi
exit $status
