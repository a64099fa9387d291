#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# What a process launch costs the cpuledger stat daemon: its CPU time (every
# thread's /proc/PID/task/TID/schedstat field 1, ns) over a window in which
# BENCH_LAUNCHES /bin/true processes are launched in a tight loop, minus its
# CPU time over an equally long idle window measured first. Both windows span
# the same whole number of report intervals (they start and end half-way
# between two of stat's wakeups), so the per-interval work cancels out
# exactly. The difference is divided by the difference in processes the
# system created in the two windows (/proc/stat "processes"): on a shared
# machine other people's processes land in either window, and are charged
# like ours. Median of BENCH_LAUNCH_REPS repetitions. Budget: <= 2 us/launch.
#
# Environment: BENCH_LAUNCHES (2000), BENCH_LAUNCH_REPS (5).
set -u
BENCH_NAME=launch_cost
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

LAUNCHES=${BENCH_LAUNCHES:-2000}
REPS=${BENCH_LAUNCH_REPS:-5}
BUDGET_US=2
need_cpuledger
bpf_others
[ -x /bin/true ] || { say "/bin/true missing"; exit 1; }

launch_loop() {
	local i
	for ((i = 0; i < LAUNCHES; i++)); do
		/bin/true
	done
}

# How long the loop takes decides the window: whole seconds (= intervals of
# -i 1s), plus one so that the interval after the last exit is inside.
t0=$(now_ns)
launch_loop
t1=$(now_ns)
window=$(((t1 - t0 + 999999999) / 1000000000 + 1))
say "$LAUNCHES launches take $(calc "($t1 - $t0) / 1e6") ms without cpuledger; windows of $window s"

if ! tool_start stat; then
	say "cpuledger stat did not start: $TOOL_WHY"
	result launch "daemon CPU per process launch" "skipped" "" "<= $BUDGET_US us" ""
	exit 0
fi
stat_pid=$BG_PID

# Half-way between two wakeups of the daemon: its pcount (schedstat field 3,
# times it ran) moves once per interval when nothing else wakes it.
align() {
	local runs _a _b now
	read -r _a _b runs <"/proc/$stat_pid/schedstat"
	for ((i = 0; i < 300; i++)); do
		read -r _a _b now <"/proc/$stat_pid/schedstat"
		[ "$now" != "$runs" ] && break
		nap 0.01
	done
	nap 0.5
}

# Processes created since boot.
forks() {
	local key value
	while read -r key value _; do
		[ "$key" = processes ] && { echo "$value"; return; }
	done </proc/stat
}

# measure_window [launch]: "CPU_NS FORKS", the daemon's CPU time over one window and
# the processes created system-wide in it.
measure_window() {
	local start cpu0 cpu1 end rest forks0 forks1
	align
	start=$(now_ns)
	forks0=$(forks)
	cpu0=$(cpu_ns "$stat_pid")
	[ "${1:-}" = launch ] && launch_loop
	end=$((start + window * 1000000000))
	rest=$((end - $(now_ns)))
	if [ $rest -lt 0 ]; then
		say "warning: the launches outlasted the ${window} s window"
	else
		nap "$(calc "$rest / 1e9")"
	fi
	cpu1=$(cpu_ns "$stat_pid")
	forks1=$(forks)
	echo $((cpu1 - cpu0)) $((forks1 - forks0))
}

per_launch=()
for ((rep = 0; rep < REPS; rep++)); do
	read -r idle idle_forks < <(measure_window)
	read -r busy busy_forks < <(measure_window launch)
	launched=$((busy_forks - idle_forks))
	if [ "$launched" -lt $((LAUNCHES / 2)) ]; then
		say "rep $((rep + 1)): only $launched more processes in the launch window than" \
			"in the idle one: discarded"
		continue
	fi
	us=$(calc "($busy - $idle) / $launched / 1000")
	per_launch+=("$us")
	say "rep $((rep + 1)): idle window $(calc "$idle / 1e6") ms CPU, $idle_forks processes;" \
		"launch window $(calc "$busy / 1e6") ms CPU, $busy_forks processes: $us us/launch"
done
alive "$stat_pid" || { say "cpuledger stat exited: $(why stat)"; exit 1; }
bench_stop "$stat_pid"
[ ${#per_launch[@]} -gt 0 ] || { say "no usable repetition"; exit 1; }

us=$(median "${per_launch[@]}")
verdict=$(budget "$us" "<=" "$BUDGET_US")
printf '\nDaemon CPU per process launch (cpuledger stat -i 1s, %d x /bin/true, median of %d)\n' \
	"$LAUNCHES" "$REPS"
printf '%-46s %8.2f us   budget <= %s us: %s   (per rep: %s)\n' "cpuledger stat" "$us" \
	"$BUDGET_US" "$verdict" "${per_launch[*]}"
result launch "daemon CPU per process launch" "$(printf '%.2f' "$us")" us "<= $BUDGET_US us" \
	"$verdict"
exit 0
