#!/usr/bin/env bash
# Compares the evaluator rows of the benchmark, (a) to (c), between an earlier revision and the
# working tree, on a machine whose speed varies from run to run: both builds run in turn, round
# after round, and each row reports the fastest and the median run of each side.
#
#   Benchmarks/compare.sh BASE [ROUNDS]                 times, ROUNDS rounds (default 5)
#   Benchmarks/compare.sh --instructions BASE           instructions executed (valgrind)
#
# A median of an even number of runs is the lower of the middle two.
#
# BASE is any revision git knows. It is checked out and built in a temporary worktree, removed
# at the end. Instructions are exact and do not depend on what else the machine runs; they
# count what `Evaluator.evaluate(_:)` executes in each loop of the quick batch rows
# (`--quick --only batch`, one loop at a time): not the building of the histories, nor the
# freeing of the results.
set -euo pipefail

instructions=false
if [[ "${1:-}" == "--instructions" ]]; then
  instructions=true
  shift
fi
if [[ $# -lt 1 ]]; then
  sed -n '2,15s/^# \{0,1\}//p' "$0" >&2
  exit 2
fi
base_revision=$1
rounds=${2:-5}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: ROUNDS must be a number, 1 or more" >&2; exit 2; }

root=$(git rev-parse --show-toplevel)
base_commit=$(git -C "$root" rev-parse --verify --quiet "$base_revision^{commit}") ||
  { echo "compare.sh: git knows no revision $base_revision" >&2; exit 2; }
worktree=${TMPDIR:-/tmp}/entitlements-compare-${base_commit:0:12}
cleanup() { git -C "$root" worktree remove --force "$worktree" 2>/dev/null || true; }
trap cleanup EXIT
cleanup
git -C "$root" worktree add --detach --quiet "$worktree" "$base_commit"

for tree in "$worktree" "$root"; do
  echo "building $tree" >&2
  (cd "$tree" && swift build -c release --product entitlements-bench 2>&1 | tail -1) >&2
done
bench() { "$1/.build/release/entitlements-bench" "${@:2}"; }

if $instructions; then
  command -v valgrind >/dev/null || { echo "compare.sh: --instructions needs valgrind" >&2; exit 2; }
  # `Evaluator.evaluate(_:)`, as the compiler names it.
  evaluate='$s12Entitlements9EvaluatorV8evaluateyAA10EvaluationVAA15PurchaseHistoryVF'
  printf '%-10s %16s %16s %8s\n' "batch loop" "base" "working tree" "change"
  for loop in pool generated read; do
    counts=()
    for tree in "$worktree" "$root"; do
      out=$(BENCH_BATCH=$loop valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect="$evaluate" \
        "$tree/.build/release/entitlements-bench" --quick --only batch 2>&1 >/dev/null)
      counts+=("$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out")")
    done
    awk -v l="$loop" -v a="${counts[0]}" -v b="${counts[1]}" \
      'BEGIN { printf "%-10s %16.0f %16.0f %+7.1f%%\n", l, a, b, (b / a - 1) * 100 }'
  done
  exit 0
fi

# One line per row and run: side, row, seconds (or milliseconds, as the benchmark prints them).
samples=$(mktemp)
for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds" >&2
  for side in base head; do
    tree=$([[ $side == base ]] && echo "$worktree" || echo "$root")
    BENCH_N=1000 bench "$tree" --only core | awk -v s=$side '$1 == 1000 { print s, "1000 entries " $2 " (ms)", $3 }'
    bench "$tree" --only end | awk -v s=$side '/read\+eval/ { print s, "500-entry document, read + evaluate (ms)", $3 }'
    bench "$tree" --only batch | awk -v s=$side '
      /^ +[0-9.]+ s / { n++; print s, (n == 1 ? "batch, pool" : n == 2 ? "batch, built in the loop" : "batch, read from documents") " (s)", $1 }'
  done >>"$samples"
done

echo
echo "fastest and median of $rounds runs per side; the change is the fastest's"
printf '%-42s %8s %8s %8s %8s %8s\n' row base median "w. tree" median change
awk '
  { key = $0; sub(/^[a-z]+ /, "", key); sub(/ [^ ]+$/, "", key)
    if (!(key in seen)) { seen[key] = 1; order[++rows] = key }
    values[$1, key] = values[$1, key] " " $NF }
  function stats(list, result,   n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    result["min"] = v[1]; result["median"] = v[int((n + 1) / 2)]
  }
  END {
    for (r = 1; r <= rows; r++) {
      key = order[r]; stats(values["base", key], b); stats(values["head", key], h)
      printf "%-42s %8s %8s %8s %8s %+7.1f%%\n", key, b["min"], b["median"], h["min"], h["median"], (h["min"] / b["min"] - 1) * 100
    }
  }' "$samples"
rm -f "$samples"
