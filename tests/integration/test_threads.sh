#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# stat -t: one row per thread, each matching that thread's own
# /proc/PID/task/TID/schedstat and status; the process row is their sum.
. "$(dirname "$0")/lib.sh"
need_root

start_waiting_workload --threads 3 --busy-ms 400 --slice-ms 3 --sleep-ms 1 --stop
pid=$WL_PID
base_oncpu=$(schedstat_oncpu "$pid")
base_vol=$(status_field "$pid" voluntary_ctxt_switches)
base_invol=$(status_field "$pid" nonvoluntary_ctxt_switches)

out=$TEST_TMP/threads.csv
start_stat_csv "$out" -p "$pid" -t -i 250ms
release_workload
wait_until 60 all_stopped "$pid" || not_ok "workload finished"
sleep 0.3
stop_stat

check_eq "CSV has a tid column" "$(head -1 "$out" | cut -d, -f3,4)" "pid,tid"
tids=$(ls "/proc/$pid/task")
check_eq "three threads" "$(echo "$tids" | wc -l)" 3
total=0
for tid in $tids; do
	kern_oncpu=$(schedstat_oncpu "$pid/task/$tid")
	kern_vol=$(status_field "$pid/task/$tid" voluntary_ctxt_switches)
	kern_invol=$(status_field "$pid/task/$tid" nonvoluntary_ctxt_switches)
	if [ "$tid" = "$pid" ]; then
		# The main thread existed before cpuledger started: count from there.
		kern_oncpu=$((kern_oncpu - base_oncpu))
		kern_vol=$((kern_vol - base_vol))
		kern_invol=$((kern_invol - base_invol))
	fi
	check_within "thread $tid on-CPU time" "$(csv_sum "$out" oncpu_ns tid "$tid")" "$kern_oncpu" 3
	check_eq "thread $tid voluntary switches" "$(csv_sum "$out" vol_switches tid "$tid")" "$kern_vol"
	check_eq "thread $tid involuntary switches" "$(csv_sum "$out" invol_switches tid "$tid")" "$kern_invol"
	total=$((total + kern_oncpu))
	check_eq "thread $tid rows all belong to pid $pid" \
		"$(csv_values "$out" pid tid "$tid" | sort -u)" "$pid"
done

# Same workload without -t: one row per interval for the process, the sum.
start_waiting_workload --threads 3 --busy-ms 300 --stop
pid=$WL_PID
base=$(schedstat_oncpu "$pid")
out=$TEST_TMP/process.csv
start_stat_csv "$out" -p "$pid" -i 250ms
release_workload
wait_until 60 all_stopped "$pid" || not_ok "workload finished"
sleep 0.3
stop_stat
kern=$(( -base ))
for tid in $(ls "/proc/$pid/task"); do
	kern=$((kern + $(schedstat_oncpu "$pid/task/$tid")))
done
check_within "process row sums its threads" "$(csv_sum "$out" oncpu_ns pid "$pid")" "$kern" 3
check_eq "process rows: one per interval" "$(csv_values "$out" time_ns pid "$pid" | sort | uniq -d | wc -l)" 0

done_testing
