#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Filters and views: --comm, -p LIST, --per-cpu, --top, --sort, json.
. "$(dirname "$0")/lib.sh"
need_root

a=clfa$RANDOM
b=clfb$RANDOM
"$WORKLOAD" --name "$a" --forever --slice-ms 2 --sleep-ms 3 &
pa=$!
"$WORKLOAD" --name "$b" --forever --slice-ms 2 --sleep-ms 3 &
pb=$!
"$WORKLOAD" --forever --slice-ms 1 --sleep-ms 20 &
pc=$!
track $pa $pb $pc
sleep 0.3

out=$TEST_TMP/comm.csv
"$CPULEDGER" stat -f csv --comm "$a" -i 300ms -d 1s >"$out" 2>/dev/null
check_eq "--comm: only that name" "$(csv_values "$out" comm | sort -u)" "$a"
check_eq "--comm: its pid" "$(csv_values "$out" pid | sort -u)" "$pa"

out=$TEST_TMP/pids.csv
"$CPULEDGER" stat -f csv -p "$pa,$pc" -i 300ms -d 1s >"$out" 2>/dev/null
check_eq "-p LIST: exactly those processes" "$(csv_values "$out" pid | sort -u | tr '\n' ' ')" \
	"$(printf '%s\n' "$pa" "$pc" | sort | tr '\n' ' ')"
check_eq "-p LIST: a row for each, every interval (0.3+0.3+0.3+0.1 s)" "$(csv_rows "$out")" 8

out=$TEST_TMP/top.csv
"$CPULEDGER" stat -f csv --top 2 -i 300ms -d 1s >"$out" 2>/dev/null
check_eq "--top 2: at most 2 rows per interval" \
	"$(csv_values "$out" time_ns | sort | uniq -c | awk '$1 > 2' | wc -l)" 0
check_ge "--top 2: rows were printed" "$(csv_rows "$out")" 3

out=$TEST_TMP/sort.csv
"$CPULEDGER" stat -f csv --sort pid -i 300ms -d 700ms >"$out" 2>/dev/null
first=$(csv_values "$out" time_ns | head -1)
check_eq "--sort pid: ascending" "$(csv_values "$out" pid time_ns "$first" | sort -n -c 2>&1 && echo sorted)" sorted
out=$TEST_TMP/sortv.csv
"$CPULEDGER" stat -f csv --sort vol_switches -i 300ms -d 700ms >"$out" 2>/dev/null
first=$(csv_values "$out" time_ns | head -1)
check_eq "--sort vol_switches: descending" \
	"$(csv_values "$out" vol_switches time_ns "$first" | sort -n -r -c 2>&1 && echo sorted)" sorted

# --per-cpu: a process pinned to one CPU is charged on that CPU only, and its
# per-CPU rows add up to the kernel's on-CPU time.
cpu=$(( $(nproc) > 1 ? 1 : 0 ))
start_waiting_workload --pin "$cpu" --busy-ms 500 --slice-ms 3 --sleep-ms 1 --stop
pid=$WL_PID
base=$(schedstat_oncpu "$pid")
base_vol=$(status_field "$pid" voluntary_ctxt_switches)
out=$TEST_TMP/percpu.csv
start_stat_csv "$out" --per-cpu -p "$pid" -i 200ms
release_workload
wait_until 60 is_stopped "$pid" || not_ok "workload finished"
kern=$(( $(schedstat_oncpu "$pid") - base ))
kern_vol=$(( $(status_field "$pid" voluntary_ctxt_switches) - base_vol ))
sleep 0.3
stop_stat
check_eq "--per-cpu: a cpu column" "$(head -1 "$out" | cut -d, -f6)" cpu
check_eq "--per-cpu: pinned to CPU $cpu, charged there only" "$(csv_values "$out" cpu pid "$pid" | sort -u)" "$cpu"
check_within "--per-cpu: rows add up to schedstat" "$(csv_sum "$out" oncpu_ns pid "$pid")" "$kern" 3
check_eq "--per-cpu: voluntary switches add up" "$(csv_sum "$out" vol_switches pid "$pid")" "$kern_vol"

# An unpinned process that sleeps a lot moves between CPUs: rows on each add up.
if [ "$(nproc)" -gt 1 ]; then
	start_waiting_workload --busy-ms 600 --slice-ms 1 --sleep-ms 1 --stop
	pid=$WL_PID
	base=$(schedstat_oncpu "$pid")
	"$WORKLOAD" --pin 0 --busy-ms 1500 &
	track $!
	out=$TEST_TMP/percpu2.csv
	start_stat_csv "$out" --per-cpu -p "$pid" -i 200ms
	release_workload
	wait_until 60 is_stopped "$pid" || not_ok "workload finished"
	kern=$(( $(schedstat_oncpu "$pid") - base ))
	sleep 0.3
	stop_stat
	check_within "--per-cpu, migrating: rows add up to schedstat" \
		"$(csv_sum "$out" oncpu_ns pid "$pid")" "$kern" 3
fi

out=$TEST_TMP/out.jsonl
"$CPULEDGER" stat -f json -i 300ms -d 700ms >"$out" 2>/dev/null
check_ge "json: rows" "$(wc -l <"$out")" 2
check "json: every line is an object with the documented keys" \
	jq_ok -s 'all(.[]; has("time_ns") and has("interval_ns") and has("pid") and has("comm")
		and has("cgroup_id") and has("oncpu_ns") and has("vol_switches") and has("invol_switches")
		and has("page_faults") and has("ipc"))' "$out"

done_testing
