#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# stat --self reports cpuledger's own cost; kernel-side diagnostics are a
# load-time level: at the default level none reaches userspace, even while
# the events they would describe happen; with -vv they do.
. "$(dirname "$0")/lib.sh"
need_root

"$WORKLOAD" --forever --slice-ms 1 --sleep-ms 1 &
track $!
# --max-tasks 1 with --per-cpu fills the kernel-side task map at once: a
# stat event (and, at -vv, a diagnostic) at nearly every switch.
"$CPULEDGER" stat --per-cpu --max-tasks 1 -e page-faults -f csv -i 500ms -d 1s --self \
	>/dev/null 2>"$TEST_TMP/default"
check_eq "exit 0" "$?" 0
check "the map-full losses are counted and shown" \
	grep -q 'counter charges lost this interval (kernel-side task map full)' "$TEST_TMP/default"
check_eq "default level: no diagnostic reached userspace in any interval" \
	"$(grep -o '[0-9]* diagnostics' "$TEST_TMP/default" | sort -u)" "0 diagnostics"
check "--self says what cpuledger's CPU cost" grep -Eq 'self: cpu [0-9.]+(ns|us|ms|s) \(' \
	"$TEST_TMP/default"
if [ "$(id -u)" = 0 ]; then
	check "--self measures the BPF programs' run time (root)" \
		grep -Eq 'bpf [0-9.]+(ns|us|ms|s) \([0-9.]+%\) in [0-9.KM]+ runs' "$TEST_TMP/default"
fi

"$CPULEDGER" stat --per-cpu --max-tasks 1 -e page-faults -f csv -i 500ms -d 1s --self -vv \
	>/dev/null 2>"$TEST_TMP/verbose"
n=$(grep -o '[0-9]* diagnostics' "$TEST_TMP/verbose" | awk '{ s += $1 } END { print s + 0 }')
check_ge "-vv: the same events arrive as diagnostics" "$n" 1
check "-vv: each is logged with its CPU and what happened" \
	grep -q 'bpf: cpu[0-9]* at [0-9]* ns: per-CPU task map full' "$TEST_TMP/verbose"

# The table shows the --self line under each banner.
"$CPULEDGER" stat --self -i 300ms -d 700ms >"$TEST_TMP/table" 2>/dev/null
check_eq "table: one self line per interval" "$(grep -c '^    self: cpu' "$TEST_TMP/table")" \
	"$(grep -c '^--- ' "$TEST_TMP/table")"

done_testing
