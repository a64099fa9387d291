#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Where the per-switch time goes: each configuration's BPF programs, their
# runs and ns per run (the kernel's run_time_ns / run_cnt) during the pinned
# pipe ping-pong. Needs kernel.bpf_stats_enabled=1, a global switch that adds
# two clock reads to every BPF run on the machine (the empty floor program
# shows just that): it is turned on for this script only and restored at
# exit. Not part of the default bench/run.sh (run it as bench/run.sh progs).
#
#   bench/prog_cost.sh [CONFIG...]     (default: all but nothing)
# Environment: BENCH_OPS (300000 round trips), BENCH_CPU (0).
set -u
BENCH_NAME=prog_cost
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

OPS=${BENCH_OPS:-300000}
CPU=${BENCH_CPU:-0}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(floor stat stat-percpu stat-perf record trace bpftrace
	runqlat cpudist)
need_cpuledger
command -v bpftool >/dev/null || { say "bpftool not installed (scripts/deps.sh)"; exit 1; }

stats_before=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null) ||
	{ say "no kernel.bpf_stats_enabled on this kernel"; exit 1; }
trap 'sysctl -q kernel.bpf_stats_enabled="$stats_before"; bench_cleanup' EXIT
sysctl -q kernel.bpf_stats_enabled=1 || { say "cannot enable kernel.bpf_stats_enabled"; exit 1; }

# prog_ids PID: the ids of the BPF programs PID holds (fds of programs and links).
prog_ids() {
	awk '/^prog_id:/ { print $2 }' /proc/"$1"/fdinfo/* 2>/dev/null | sort -un
}

# prog_stats ID: "NAME RUN_TIME_NS RUN_CNT" from bpftool's plain output.
prog_stats() {
	bpftool prog show id "$1" 2>/dev/null | awk 'NR == 1 {
		for (i = 1; i < NF; i++) {
			if ($i == "name") name = $(i + 1)
			if ($i == "run_time_ns") t = $(i + 1)
			if ($i == "run_cnt") c = $(i + 1)
		}
		print name, t + 0, c + 0 }'
}

printf '\nBPF programs during a ping-pong pinned to CPU %s (%d round trips, %d switches)\n' \
	"$CPU" "$OPS" $((2 * OPS))
printf '%-46s %-28s %10s %10s\n' "configuration" "program" "runs" "ns/run"
for config in "${configs[@]}"; do
	if ! tool_start "$config" || [ -z "$BG_PID" ]; then
		printf '%-46s skipped: %s\n' "$(tool_label "$config")" \
			"${TOOL_WHY:-nothing to measure}"
		continue
	fi
	mapfile -t ids < <(prog_ids "$BG_PID")
	declare -A before=()
	for id in "${ids[@]}"; do
		before[$id]=$(prog_stats "$id")
	done
	pingpong_us "$CPU" "$OPS" >/dev/null || say "the ping-pong failed"
	for id in "${ids[@]}"; do
		read -r name t1 c1 <<<"$(prog_stats "$id")"
		read -r _ t0 c0 <<<"${before[$id]}"
		[ $((c1 - c0)) -gt 0 ] || continue
		printf '%-46s %-28s %10d %10d\n' "$(tool_label "$config")" "$name" $((c1 - c0)) \
			$(((t1 - t0) / (c1 - c0)))
		[[ $name == *switch* ]] &&
			result progs "BPF ns/run: $(tool_label "$config")" \
				$(((t1 - t0) / (c1 - c0))) ns
	done
	bench_stop "$BG_PID"
done
exit 0
