#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Whole-system mode: with a spinner pinned on every online CPU, the rows of an
# interval account for all of the machine's CPU time (CPUs x wall time), and
# each spinner is charged nearly a whole CPU.
. "$(dirname "$0")/lib.sh"
need_root

cpus=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online)
spinners=()
for cpu in $(seq 0 "$cpus"); do
	[ -e "/sys/devices/system/cpu/cpu$cpu/online" ] &&
		[ "$(cat "/sys/devices/system/cpu/cpu$cpu/online")" = 0 ] && continue
	"$WORKLOAD" --pin "$cpu" --forever &
	spinners+=($!)
	track $!
done
online=${#spinners[@]}
sleep 0.3
out=$TEST_TMP/system.csv
"$CPULEDGER" stat -f csv -i 1s -d 3s >"$out" 2>"$TEST_TMP/err"
check_eq "stat -d 3s exits 0" "$?" 0

# Per interval: sum of on-CPU time over all rows / (online CPUs x interval).
awk -F, -v cpus="$online" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
	{ t = $(idx["time_ns"]); sum[t] += $(idx["oncpu_ns"]); len[t] = $(idx["interval_ns"]) }
	END { for (t in sum) printf "%s %.4f\n", t, sum[t] / (cpus * len[t]) }' "$out" | sort >"$TEST_TMP/util"
check_eq "three intervals" "$(wc -l <"$TEST_TMP/util")" 3
while read -r t util; do
	if awk -v u="$util" 'BEGIN { exit !(u >= 0.95 && u <= 1.02) }'; then
		ok "interval $t accounts for $util of $online CPUs"
	else
		not_ok "interval $t accounts for all CPU time" "sum of oncpu_ns / (cpus x interval) = $util"
	fi
done <"$TEST_TMP/util"
for pid in "${spinners[@]}"; do
	low=$(awk -F, -v pid="$pid" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		$(idx["pid"]) == pid && $(idx["oncpu_ns"]) < 0.85 * $(idx["interval_ns"]) { n++ }
		END { print n + 0 }' "$out")
	check_eq "spinner $pid gets >= 85% of a CPU in every interval" "$low" 0
done
check_ge "other processes are reported too" "$(csv_values "$out" pid | sort -u | wc -l)" $((online + 2))

done_testing
