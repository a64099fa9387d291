#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# What each tool adds to a context switch: a pipe ping-pong pinned to one CPU
# (`perf bench sched pipe`, two context switches per round trip) with nothing,
# with an empty sched_switch BPF program (the floor), with cpuledger in each
# mode, and with bpftrace and libbpf-tools tools attached to sched_switch.
# Configurations alternate within each round (the baseline twice, half a round
# apart; the order rotates every round); a tool's cost is the median of its
# round-trip times minus the median of the baseline's, over 2. Medians, not
# per-round differences: one disturbed baseline run would shift every tool of
# its round. Budgets (reported, not asserted): cpuledger stat <= 3x the floor
# and <= 0.6x bpftrace.
#
#   bench/switch_cost.sh [CONFIG...]     (default: all of them)
# Environment: BENCH_ROUNDS (5), BENCH_OPS (round trips per run, 400000),
# BENCH_CPU (the CPU the ping-pong is pinned to, 0).
set -u
BENCH_NAME=switch_cost
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROUNDS=${BENCH_ROUNDS:-5}
OPS=${BENCH_OPS:-400000}
CPU=${BENCH_CPU:-0}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(nothing floor stat stat-percpu stat-perf record trace bpftrace
	runqlat cpudist)
[ "${configs[0]}" = nothing ] || configs=(nothing "${configs[@]}")
need_cpuledger
bpf_stats_check
bpf_others
command -v perf >/dev/null || say "perf not installed: timing $WORKLOAD --pingpong instead"

# The baseline runs twice a round, at the start and half-way.
order=("${configs[@]}")
order=("${order[@]:0:(${#order[@]} + 1) / 2}" nothing "${order[@]:(${#order[@]} + 1) / 2}")

declare -A op_us skipped
say "$ROUNDS rounds of ${#configs[@]} configurations, $OPS round trips each, pinned to CPU $CPU"
for ((round = 0; round < ROUNDS; round++)); do
	# Rotate the order each round: no configuration always follows the same one.
	n=${#order[@]}
	for ((k = 0; k < n; k++)); do
		config=${order[(k + round) % n]}
		[ -n "${skipped[$config]:-}" ] && continue
		if ! tool_start "$config"; then
			skipped[$config]=$TOOL_WHY
			say "skipping $config: $TOOL_WHY"
			continue
		fi
		us=$(pingpong_us "$CPU" "$OPS")
		if [ -n "$BG_PID" ]; then
			alive "$BG_PID" ||
				skipped[$config]="exited during the run: $(why "$config")"
			bench_stop "$BG_PID"
		fi
		[ -n "$us" ] || { say "the ping-pong failed"; exit 1; }
		op_us[$config]="${op_us[$config]:-} $us"
		nap 0.2
	done
	printf '%s: round %d/%d done\n' "$BENCH_NAME" $((round + 1)) "$ROUNDS" >&2
done

read -ra runs <<<"${op_us[nothing]:-}"
[ ${#runs[@]} -gt 0 ] || { say "no baseline run"; exit 1; }
base_us=$(median "${runs[@]}")

# Each run of CONFIG in ns per switch added: (its round trip - the baseline's) / 2.
added_ns() {
	local mine i out=()
	read -ra mine <<<"${op_us[$1]}"
	for ((i = 0; i < ${#mine[@]}; i++)); do
		out+=("$(calc "(${mine[i]} - $base_us) * 1000 / 2")")
	done
	echo "${out[@]}"
}

declare -A cost
printf '\nPer context switch: pipe ping-pong pinned to CPU %s, median of %d rounds\n' "$CPU" \
	"$ROUNDS"
printf '%-46s %9s %13s  %s\n' "attached to sched_switch" "us/op" "ns/switch +" \
	"each run (ns/switch + against the baseline median)"
for config in "${configs[@]}"; do
	if [ -n "${skipped[$config]:-}" ] || [ -z "${op_us[$config]:-}" ]; then
		printf '%-46s %9s %13s  skipped: %s\n' "$(tool_label "$config")" - - \
			"${skipped[$config]:-no runs}"
		result switch "ns/switch: $(tool_label "$config")" "skipped" "" "" ""
		continue
	fi
	read -ra runs <<<"${op_us[$config]}"
	op=$(median "${runs[@]}")
	read -ra per_run <<<"$(added_ns "$config")"
	if [ "$config" = nothing ]; then
		printf '%-46s %9.3f %13s  %s\n' "$(tool_label "$config")" "$op" 0 \
			"$(printf '%.0f ' "${per_run[@]}")"
		result switch "baseline round trip (2 switches)" \
			"$(printf '%.0f' "$(calc "$op * 1000")")" ns
		continue
	fi
	cost[$config]=$(median "${per_run[@]}")
	printf '%-46s %9.3f %13.1f  %s\n' "$(tool_label "$config")" "$op" "${cost[$config]}" \
		"$(printf '%.0f ' "${per_run[@]}")"
	result switch "ns/switch: $(tool_label "$config")" "$(printf '%.1f' "${cost[$config]}")" ns
done

# ratio A B: cost[A] / cost[B], or nothing when either is missing or B <= 0.
ratio() {
	[ -n "${cost[$1]:-}" ] && [ -n "${cost[$2]:-}" ] || return 1
	awk -v a="${cost[$1]}" -v b="${cost[$2]}" \
		'BEGIN { if (b <= 0) exit 1; printf "%.2f", a / b }'
}
echo
for pair in "floor 3 <=" "bpftrace 0.6 <="; do
	read -r -a budget_of <<<"$pair"
	set -- "${budget_of[@]}"
	if r=$(ratio stat "$1"); then
		verdict=$(budget "$r" "$3" "$2")
		printf 'cpuledger stat / %-10s %6sx   budget %s %sx: %s\n' "$1" "$r" "$3" "$2" \
			"$verdict"
		result switch "ratio: cpuledger stat / $1" "$r" x "$3 $2x" "$verdict"
	else
		printf 'cpuledger stat / %-10s %6s    budget %s %sx: not measured\n' "$1" - "$3" \
			"$2"
		result switch "ratio: cpuledger stat / $1" "n/a" x "$3 $2x" "n/a"
	fi
done
for other in runqlat cpudist; do
	r=$(ratio stat "$other") && {
		printf 'cpuledger stat / %-10s %6sx\n' "$other" "$r"
		result switch "ratio: cpuledger stat / $other" "$r" x
	}
done
exit 0
