#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# On-CPU time and context switches of a controlled process against the
# kernel's own numbers: /proc/PID/schedstat and /proc/PID/status. The
# workload sleeps (voluntary switches) and shares its CPU with a spinner
# (involuntary switches), then stops itself so nothing moves while we read.
. "$(dirname "$0")/lib.sh"
need_root

cpu=$(( $(nproc) > 1 ? 1 : 0 ))
"$WORKLOAD" --pin "$cpu" --forever &
track $!
start_waiting_workload --pin "$cpu" --busy-ms 700 --slice-ms 4 --sleep-ms 1 --stop
pid=$WL_PID
base_oncpu=$(schedstat_oncpu "$pid")
base_vol=$(status_field "$pid" voluntary_ctxt_switches)
base_invol=$(status_field "$pid" nonvoluntary_ctxt_switches)

out=$TEST_TMP/stat.csv
start_stat_csv "$out" -p "$pid" -i 200ms
release_workload
wait_until 60 is_stopped "$pid" || not_ok "workload finished"
kern_oncpu=$(( $(schedstat_oncpu "$pid") - base_oncpu ))
kern_vol=$(( $(status_field "$pid" voluntary_ctxt_switches) - base_vol ))
kern_invol=$(( $(status_field "$pid" nonvoluntary_ctxt_switches) - base_invol ))
sleep 0.3
stop_stat
check_eq "cpuledger exits 0 on SIGINT" "$?" 0

oncpu=$(csv_sum "$out" oncpu_ns pid "$pid")
vol=$(csv_sum "$out" vol_switches pid "$pid")
invol=$(csv_sum "$out" invol_switches pid "$pid")
check_within "on-CPU time matches /proc/PID/schedstat" "$oncpu" "$kern_oncpu" 3
check_eq "voluntary switches equal the kernel's ($kern_vol)" "$vol" "$kern_vol"
check_eq "involuntary switches equal the kernel's ($kern_invol)" "$invol" "$kern_invol"
check_ge "the workload was preempted (involuntary switches seen)" "$kern_invol" 1
check_ge "the workload slept (voluntary switches seen)" "$kern_vol" 50
check_ge "several intervals were reported" "$(csv_rows "$out" pid "$pid")" 3

done_testing
