#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A pinned spinner that never yields is charged in every interval, not in
# one lump when it finally switches out: on-CPU time from the kernel, and a
# perf counter (cpu-clock) charged by the per-CPU flush at each interval end.
. "$(dirname "$0")/lib.sh"
need_root

cpu=$(( $(nproc) > 1 ? 1 : 0 ))
"$WORKLOAD" --pin "$cpu" --forever &
pid=$!
track "$pid"
sleep 0.2
out=$TEST_TMP/spin.csv
"$CPULEDGER" stat -f csv -p "$pid" -i 500ms -d 3s -e cpu-clock >"$out" 2>"$TEST_TMP/err"
check_eq "stat -d 3s exits 0" "$?" 0
rows=$(csv_rows "$out" pid "$pid")
check_eq "one row per interval" "$rows" 6
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
	$(idx["oncpu_ns"]) < 0.85 * $(idx["interval_ns"]) { n++ } END { print n + 0 }' "$out")
check_eq "every interval charges >= 85% of the interval" "$bad" 0
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
	{ d = $(idx["cpu_clock"]) - $(idx["oncpu_ns"]); if (d < 0) d = -d;
	  if (d > 0.03 * $(idx["oncpu_ns"])) n++ } END { print n + 0 }' "$out")
check_eq "cpu-clock counter within 3% of on-CPU time in every interval" "$bad" 0
check_eq "voluntary switches stay few (it never yields)" \
	"$(awk -v s="$(csv_sum "$out" vol_switches pid "$pid")" 'BEGIN { print (s < 5) ? "few" : s }')" few

done_testing
