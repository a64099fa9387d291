#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# SIGINT and SIGTERM print the partial interval and exit 0; a closed stdout
# ends cpuledger quietly.
. "$(dirname "$0")/lib.sh"
need_root

for sig in INT TERM; do
	out=$TEST_TMP/sig.csv
	start_stat_csv "$out" -i 10s
	sleep 1.5
	kill -"$sig" "$CL_PID"
	wait "$CL_PID"
	check_eq "SIG$sig: exit 0" "$?" 0
	check_ge "SIG$sig: the partial interval is printed" "$(csv_rows "$out")" 1
	len=$(csv_values "$out" interval_ns | head -1)
	if awk -v l="$len" 'BEGIN { exit !(l > 1.2e9 && l < 4e9) }'; then
		ok "SIG$sig: interval_ns is the partial length ($len)"
	else
		not_ok "SIG$sig: interval_ns is the partial length" "got $len"
	fi
done

"$CPULEDGER" stat -i 10s >"$TEST_TMP/table" 2>"$TEST_TMP/err" &
pid=$!
track $pid
wait_until 10 test -e "/proc/$pid" && sleep 1.5
kill -INT $pid
wait $pid
check_eq "table: exit 0 on SIGINT" "$?" 0
check "table: the partial interval is marked" grep -q '(partial)' "$TEST_TMP/table"
check "table: header line with CPUs online and losses" \
	grep -Eq '^--- [0-9:.]+  interval .*  cpus [0-9]+/[0-9]+ online  lost [0-9.KMG]+ ---$' "$TEST_TMP/table"

# A reader that goes away: cpuledger ends by itself, quietly, with status 0.
set -o pipefail
timeout 20 "$CPULEDGER" stat -f csv -i 100ms 2>"$TEST_TMP/err" | head -1 >/dev/null
rc=$?
check_eq "closed stdout: exit 0" "$rc" 0
check_eq "closed stdout: nothing on stderr" "$(grep -v 'not counted' "$TEST_TMP/err")" ""
timeout 20 "$CPULEDGER" stat -i 100ms 2>"$TEST_TMP/err" | head -3 >/dev/null
check_eq "closed stdout (table): exit 0" "$?" 0

done_testing
