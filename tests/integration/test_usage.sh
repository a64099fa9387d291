#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Every usage error exits 2 with one clear line on stderr; help and version
# go to stdout and exit 0; a missing PID exits 1. No root needed.
. "$(dirname "$0")/lib.sh"

[ -x "$CPULEDGER" ] || { not_ok "build/cpuledger exists"; done_testing; }

# expect_exit CODE DESCRIPTION ARGS...: exit code, and exactly one stderr line for errors.
expect_exit() {
	local want=$1 what=$2
	shift 2
	"$CPULEDGER" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	local rc=$? lines
	lines=$(wc -l <"$TEST_TMP/err")
	if [ "$rc" != "$want" ]; then
		not_ok "$what exits $want" "cpuledger $* exited $rc" "stderr: $(cat "$TEST_TMP/err")"
	elif [ "$want" != 0 ] && [ "$lines" != 1 ]; then
		not_ok "$what prints one line on stderr" "got $lines lines: $(cat "$TEST_TMP/err")"
	elif [ "$want" != 0 ] && [ -s "$TEST_TMP/out" ]; then
		not_ok "$what prints nothing on stdout" "stdout: $(cat "$TEST_TMP/out")"
	else
		ok "$what exits $want${lines:+: $(head -c 100 "$TEST_TMP/err")}"
	fi
}

expect_exit 2 "no command"
expect_exit 2 "unknown command" frobnicate
expect_exit 2 "unknown global flag" --frob
expect_exit 2 "unknown stat flag" stat --frob
expect_exit 2 "unknown short flag" stat -Z
expect_exit 2 "missing option value" stat -i
expect_exit 2 "bad duration" stat -i abc
expect_exit 2 "bad unit" stat -i 5parsecs
expect_exit 2 "zero interval" stat -i 0
expect_exit 2 "zero interval with unit" stat -i 0ms
expect_exit 2 "negative interval" stat -i -1s
expect_exit 2 "bad duration (-d)" stat -d soon
expect_exit 2 "zero duration" stat -d 0s
expect_exit 2 "unknown event" stat -e cycles,bogus-event
expect_exit 2 "bad event modifier" stat -e cycles:q
expect_exit 2 "empty event list item" stat -e cycles,,instructions
expect_exit 2 "duplicate event" stat -e cycles,cycles
expect_exit 2 "too many perf counters" stat -e cycles,instructions,cache-misses,cache-references,branch-misses,branches,bus-cycles,ref-cycles,LLC-loads
expect_exit 2 "unknown format" stat -f xml
expect_exit 2 "non-numeric pid" stat -p abc
expect_exit 2 "pid list with junk" stat -p 1,x
expect_exit 2 "zero pid" stat -p 0
expect_exit 2 "unknown sort column" stat --sort nosuchcol
expect_exit 2 "zero --top" stat --top 0
expect_exit 2 "stray argument" stat extra
expect_exit 2 "doctor flag" doctor --frob

expect_exit 0 "--help" --help
expect_exit 0 "stat --help" stat --help
expect_exit 0 "doctor --help" doctor --help
expect_exit 0 "--version" --version
expect_exit 0 "--list-events" stat --list-events

for args in "--help" "stat --help" "doctor --help"; do
	# shellcheck disable=SC2086
	if "$CPULEDGER" $args | grep -q '^EXAMPLES:'; then
		ok "'$args' has an EXAMPLES block"
	else
		not_ok "'$args' has an EXAMPLES block"
	fi
done
check "--version prints the version" bash -c "'$CPULEDGER' --version | grep -Eq '^cpuledger [0-9]+\.[0-9]+\.[0-9]+'"
check "stat --help fits 80 columns" bash -c "! '$CPULEDGER' stat --help | grep -q '.\{81\}'"

# A PID that does not exist is a runtime failure (1), not a usage error.
dead=$(bash -c 'echo $$')
while [ -e "/proc/$dead" ]; do dead=$((dead + 1)); done
expect_exit 1 "PID that does not exist" stat -p "$dead"
grep -q "no process with PID $dead" "$TEST_TMP/err" && ok "missing PID message names it" ||
	not_ok "missing PID message names it" "$(cat "$TEST_TMP/err")"

# A thread id is not a process: say which process it belongs to.
"$WORKLOAD" --threads 2 --forever --busy-ms 1 --sleep-ms 100 --slice-ms 1 &
wl=$!
track "$wl"
wait_until 5 test "$(ls /proc/$wl/task 2>/dev/null | wc -l)" -ge 2
tid=$(ls /proc/$wl/task | grep -vx "$wl" | head -1)
expect_exit 1 "thread id given as -p" stat -p "$tid"
grep -q "thread of process $wl" "$TEST_TMP/err" && ok "thread id message names the process" ||
	not_ok "thread id message names the process" "$(cat "$TEST_TMP/err")"

done_testing
