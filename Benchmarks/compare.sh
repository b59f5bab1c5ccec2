#!/usr/bin/env bash
# Compares the evaluator rows of the benchmark between an earlier revision and the working tree
# (uncommitted changes included), on a machine whose speed varies from run to run: both builds
# run in turn, round after round, the first side alternating, and each row reports per side the
# fastest and the median of its runs. A run is one process, whose figure is already the
# benchmark's median of several timed runs. The change compares the fastest runs: positive means
# the working tree is slower.
#
#   Benchmarks/compare.sh BASE [ROUNDS]        times, ROUNDS rounds (default 5)
#   Benchmarks/compare.sh --instructions BASE  instructions executed (needs valgrind)
#
# Rows: (a) 1 000 entries, sorted and shuffled (time per evaluation, from the entries per
# second, which the benchmark prints with more digits); (b) the 500-entry document read and
# evaluated; (c) the three batch loops. A median of an even number of runs is the lower of the
# middle two. Two release builds come first; a round then takes one to two minutes per side.
#
# --instructions counts, with callgrind, what `Evaluator.evaluate(_:)` executes, callees
# included, in each loop of the quick batch rows (`--quick --only batch`: a warm-up and 3 runs of
# 20 000 evaluations): not the building of the histories, nor the freeing of the results, nor
# cache misses. Hashing is made deterministic, so the counts repeat exactly.
#
# BASE is any revision git knows whose benchmark has these rows, `--only` and `BENCH_N`; a row
# BASE does not print stops the comparison, named. BASE is checked out and built in a temporary
# worktree, removed at the end.
set -euo pipefail
unset BENCH_BATCH BENCH_ORDER BENCH_REPEATS BENCH_POOL BENCH_N

usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2; }
fail() { echo "compare.sh: $*" >&2; exit 2; }

instructions=false
if [[ "${1:-}" == "--instructions" ]]; then
  instructions=true
  shift
  [[ $# -eq 1 ]] || usage
fi
[[ $# -ge 1 && $# -le 2 && "${1:-}" != -* ]] || usage
base_revision=$1
rounds=${2:-5}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || fail "ROUNDS must be a number, 1 or more, not '$rounds'"
if $instructions; then
  command -v valgrind >/dev/null || fail "--instructions needs valgrind"
fi

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
base_commit=$(git -C "$root" rev-parse --verify --quiet "$base_revision^{commit}") ||
  fail "git knows no revision '$base_revision'"
worktree=$(mktemp -d "${TMPDIR:-/tmp}/entitlements-compare.XXXXXX")
samples=$(mktemp)
cleanup() {
  git -C "$root" worktree remove --force "$worktree" 2>/dev/null || rm -rf "$worktree"
  rm -f "$samples"
}
trap cleanup EXIT
git -C "$root" worktree add --detach --quiet "$worktree" "$base_commit"

for tree in "$worktree" "$root"; do
  echo "building $tree" >&2
  (cd "$tree" && swift build -c release --product entitlements-bench 2>&1 | tail -1) >&2
done
tree_of() { [[ $1 == base ]] && echo "$worktree" || echo "$root"; }
name_of() { [[ $1 == base ]] && echo "BASE ($base_revision)" || echo "the working tree"; }

if $instructions; then
  # `Evaluator.evaluate(_:)`, as the compiler names it.
  evaluate='$s12Entitlements9EvaluatorV8evaluateyAA10EvaluationVAA15PurchaseHistoryVF'
  printf '%-10s %16s %16s %8s\n' "batch loop" "base" "working tree" "change"
  for loop in pool generated read; do
    counts=()
    for side in base head; do
      out=$(BENCH_BATCH=$loop SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null --toggle-collect="$evaluate" \
        "$(tree_of $side)/.build/release/entitlements-bench" --quick --only batch 2>&1 >/dev/null)
      count=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out")
      [[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "$(name_of $side) evaluated nothing in the $loop loop"
      counts+=("$count")
    done
    awk -v l="$loop" -v a="${counts[0]}" -v b="${counts[1]}" \
      'BEGIN { printf "%-10s %16.0f %16.0f %+7.1f%%\n", l, a, b, (b / a - 1) * 100 }'
  done
  exit 0
fi

rows=(
  "1000 entries sorted (us)" "1000 entries shuffled (us)"
  "500-entry document, read + evaluate (ms)"
  "batch, pool (s)" "batch, built in the loop (s)" "batch, read from documents (s)"
)
# Appends one line per row a side prints: side, row, figure.
run() {
  local side=$1 tree
  tree=$(tree_of "$side")
  {
    BENCH_N=1000 "$tree/.build/release/entitlements-bench" --only core | awk -v s="$side" '
      $1 == 1000 && ($2 == "sorted" || $2 == "shuffled") {
        rate = $5 * ($6 == "M" ? 1e6 : $6 == "k" ? 1e3 : 1)
        printf "%s\t1000 entries %s (us)\t%.2f\n", s, $2, 1000 / rate * 1e6 }'
    "$tree/.build/release/entitlements-bench" --only end | awk -v s="$side" '
      /read\+eval/ { printf "%s\t500-entry document, read + evaluate (ms)\t%s\n", s, $3 }'
    "$tree/.build/release/entitlements-bench" --only batch | awk -v s="$side" '
      /^ +[0-9.]+ s +\(/ { printf "%s\tbatch, pool (s)\t%s\n", s, $1 }
      /^ +[0-9.]+ s .*built in the loop/ { printf "%s\tbatch, built in the loop (s)\t%s\n", s, $1 }
      /^ +[0-9.]+ s .*read from documents/ { printf "%s\tbatch, read from documents (s)\t%s\n", s, $1 }'
  } >"$samples.round"
  for row in "${rows[@]}"; do
    grep -qF "	$row	" "$samples.round" || fail "$(name_of "$side") printed no figure for '$row'"
  done
  cat "$samples.round" >>"$samples"
  rm -f "$samples.round"
}
for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds" >&2
  if ((round % 2)); then run base; run head; else run head; run base; fi
done

echo
echo "fastest and median of $rounds runs per side; the change is the fastest's (+: slower now)"
printf '%-42s %8s %8s %8s %8s %8s\n' row base median "w. tree" median change
awk -F '\t' '
  { if (!($2 in seen)) { seen[$2] = 1; order[++rows] = $2 }
    values[$1, $2] = values[$1, $2] " " $3 }
  function stats(list, result,   n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    result["min"] = v[1]; result["median"] = v[int((n + 1) / 2)]
  }
  END {
    for (r = 1; r <= rows; r++) {
      key = order[r]; stats(values["base", key], b); stats(values["head", key], h)
      printf "%-42s %8s %8s %8s %8s %+7.1f%%\n", key, b["min"], b["median"], h["min"], h["median"],
        (h["min"] / b["min"] - 1) * 100
    }
  }' "$samples"
