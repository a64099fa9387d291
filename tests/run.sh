#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Runs the test suite: unit tests (no root) and integration tests (root, real
# BPF). Every test prints TAP lines ("ok ..." / "not ok ..."); an integration
# script that exits 77 is skipped as a whole (the machine lacks the feature).
# Ends with "N passed, N failed, N skipped"; exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
mode=${1:---all}
passed=0 failed=0 skipped=0
failures=()

run_one() {
	local name=$1; shift
	local out rc
	out=$(mktemp)
	echo "# $name"
	"$@" >"$out" 2>&1
	rc=$?
	sed 's/^/    /' "$out"
	local ok nok sk plan
	ok=$(grep -c '^ok ' "$out")
	nok=$(grep -c '^not ok ' "$out")
	sk=$(grep -c '^ok .*# SKIP' "$out")
	ok=$((ok - sk))
	# A plan ("1..N") that the lines do not add up to hides a result: a failure.
	plan=$(grep -m1 -E '^1\.\.[0-9]+$' "$out" | cut -d. -f3)
	if [ -n "$plan" ] && [ "$rc" != 77 ] && [ $((ok + sk + nok)) != "$plan" ]; then
		echo "    (plan says $plan results, $((ok + sk + nok)) were printed)"
		nok=$((nok + 1))
	fi
	if [ "$rc" = 77 ]; then
		skipped=$((skipped + 1 + sk))
		echo "    (skipped: $(grep -m1 '^# skip' "$out" | sed 's/^# skip: //'))"
	else
		passed=$((passed + ok))
		skipped=$((skipped + sk))
		failed=$((failed + nok))
		if [ "$rc" != 0 ] && [ "$nok" = 0 ]; then
			# Crashed or exited early without saying what failed.
			failed=$((failed + 1))
			failures+=("$name (exit $rc)")
		fi
		[ "$nok" != 0 ] && failures+=("$name")
	fi
	rm -f "$out"
}

if [ "$mode" = --all ] || [ "$mode" = --unit ]; then
	run_one "lint/style" scripts/check-style.sh
	for t in "$BUILD"/tests/test_*; do
		[ -x "$t" ] || continue
		run_one "unit/$(basename "$t")" "$t"
	done
fi

if [ "$mode" = --all ] || [ "$mode" = --integration ]; then
	for t in tests/integration/test_*.sh; do
		[ -f "$t" ] || continue
		run_one "integration/$(basename "$t" .sh)" timeout 600 bash "$t"
	done
fi

echo
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
