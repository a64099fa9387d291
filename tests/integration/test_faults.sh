#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# page-faults against getrusage: both the kernel per-task counter (default)
# and the perf counter path (page-faults:perf, read at every switch).
. "$(dirname "$0")/lib.sh"
need_root

start_waiting_workload --busy-ms 400 --pages 30000 --report "$TEST_TMP/report" --stop
pid=$WL_PID
base=$(stat_faults "$pid")

out=$TEST_TMP/faults.csv
start_stat_csv "$out" -p "$pid" -i 200ms -e page-faults,minor-faults,major-faults,page-faults:perf
release_workload
wait_until 60 is_stopped "$pid" || not_ok "workload finished"
sleep 0.3
stop_stat

rusage=$(awk '$1 == "minflt" || $1 == "majflt" { s += $2 } END { print s }' "$TEST_TMP/report")
kern=$((rusage - base))
check_ge "the workload faulted" "$kern" 30000
check_within "page_faults matches getrusage" "$(csv_sum "$out" page_faults pid "$pid")" "$kern" 2
check_within "page_faults:perf (perf counter path) matches getrusage" \
	"$(csv_sum "$out" page_faults_perf pid "$pid")" "$kern" 2
minor=$(csv_sum "$out" minor_faults pid "$pid")
major=$(csv_sum "$out" major_faults pid "$pid")
check_eq "minor + major = page_faults" "$((minor + major))" "$(csv_sum "$out" page_faults pid "$pid")"

done_testing
