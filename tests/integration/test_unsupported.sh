#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A counter the machine cannot open is announced once on stderr and its
# column stays: empty in CSV, null in JSON, '-' in the table. Never 0. On
# a machine with a PMU, the same counters must count instead.
. "$(dirname "$0")/lib.sh"
need_root

"$WORKLOAD" --forever --slice-ms 5 --sleep-ms 5 --pages 1000000000 &
track $!
out=$TEST_TMP/u.csv
"$CPULEDGER" stat -f csv -i 300ms -d 1s >"$out" 2>"$TEST_TMP/err"
check_eq "default events: exit 0" "$?" 0
check_eq "CSV header keeps every default event and ipc" "$(head -1 "$out")" \
	"time_ns,interval_ns,pid,comm,cgroup_id,oncpu_ns,vol_switches,invol_switches,cycles,instructions,cache_misses,page_faults,ipc,runq_wait_ns,runq_waits,runq_max_ns,runq_p50_ns,runq_p99_ns,preempted_by_same_process,preempted_by_same_cgroup,preempted_by_other_cgroup"

if grep -q 'cycles.*not counted' "$TEST_TMP/err"; then
	check_eq "announced once, one line" "$(grep -c 'not counted' "$TEST_TMP/err")" 1
	check "the message names the events and says why" \
		grep -q 'cycles, instructions, cache-misses: not counted, no hardware PMU' "$TEST_TMP/err"
	check_eq "cycles column empty in every row" "$(csv_values "$out" cycles | sort -u)" ""
	check_eq "ipc column empty in every row" "$(csv_values "$out" ipc | sort -u)" ""
	check_ge "page_faults still counted" "$(csv_sum "$out" page_faults)" 1
	"$CPULEDGER" stat -f json -i 300ms -d 700ms >"$TEST_TMP/u.jsonl" 2>/dev/null
	check "json: cycles and ipc are null, page_faults a number" \
		jq_ok -s 'all(.[]; .cycles == null and .ipc == null and (.page_faults | type) == "number")' \
		"$TEST_TMP/u.jsonl"
	"$CPULEDGER" stat -i 300ms -d 700ms >"$TEST_TMP/u.table" 2>/dev/null
	check "table: '-' in the cycles column" \
		awk '/^---/ || /^ *PID/ || NF == 0 { next }
			{ if ($(NF-4) != "-" || $(NF-3) != "-" || $NF != "-") bad = 1; n++ }
			END { exit !(n > 0 && !bad) }' \
		"$TEST_TMP/u.table"
	check "table: at most 100 columns" bash -c "! grep -q '.\{101\}' '$TEST_TMP/u.table'"
else
	check_ge "this machine has a PMU: cycles counted" "$(csv_sum "$out" cycles)" 1
	check_ge "instructions counted" "$(csv_sum "$out" instructions)" 1
fi

done_testing
