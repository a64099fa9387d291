#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A process that exits mid-interval is reported in that interval with its
# final numbers (sent by its last context switch), not lost or late.
. "$(dirname "$0")/lib.sh"
need_root

name=clexit$RANDOM
out=$TEST_TMP/exit.csv
start_stat_csv "$out" --comm "$name" -i 2s
started=$(date +%s%N)
"$WORKLOAD" --name "$name" --busy-ms 300 --slice-ms 10 --sleep-ms 2 --report "$TEST_TMP/report" &
pid=$!
wait "$pid"
# Let the interval that saw the exit end, then one more.
sleep 4.2
stop_stat

rows=$(csv_rows "$out" pid "$pid")
check_eq "exactly one row for the exited process" "$rows" 1
first_interval=$(csv_values "$out" time_ns | sort -n | head -1)
row_time=$(csv_values "$out" time_ns pid "$pid")
check_eq "reported in the interval it exited in" "$row_time" "$first_interval"
check_ge "that interval ended after the process started" "$row_time" "$started"

self_oncpu=$(awk '$1 == "oncpu_ns" { print $2 }' "$TEST_TMP/report")
nvcsw=$(awk '$1 == "nvcsw" { print $2 }' "$TEST_TMP/report")
nivcsw=$(awk '$1 == "nivcsw" { print $2 }' "$TEST_TMP/report")
oncpu=$(csv_sum "$out" oncpu_ns pid "$pid")
check_within "final on-CPU time matches its own schedstat at exit" "$oncpu" "$self_oncpu" 3
vol=$(csv_sum "$out" vol_switches pid "$pid")
invol=$(csv_sum "$out" invol_switches pid "$pid")
# Its report was written just before exit: allow only the exit switch beyond it.
extra=$(( vol + invol - nvcsw - nivcsw ))
if [ "$vol" -ge "$nvcsw" ] && [ "$invol" -ge "$nivcsw" ] && [ "$extra" -ge 0 ] && [ "$extra" -le 1 ]; then
	ok "switches match getrusage plus the final exit switch (vol $vol/$nvcsw, invol $invol/$nivcsw)"
else
	not_ok "switches match getrusage plus the final exit switch" \
		"cpuledger vol $vol invol $invol; getrusage nvcsw $nvcsw nivcsw $nivcsw"
fi
check_eq "comm is the exited process's name" "$(csv_values "$out" comm pid "$pid")" "$name"

done_testing
