#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Per-CPU perf events die on CPU hotplug. This shows it with bpftrace's
# profile:hz:99 (a per-CPU cpu-clock sampling event, opened once at start)
# next to cpuledger record (its per-CPU tick, re-opened when the CPU returns):
# a spinner pinned to a hotpluggable CPU, samples per second on that CPU
# before and after one offline/online cycle. Root; restores the CPU whatever
# happens. Usage: bench/hotplug.sh [CPU]   (default: the first hotpluggable)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
CPULEDGER=$BUILD/cpuledger
WORKLOAD=$BUILD/workloads/workload

cpu=${1:-}
if [ -z "$cpu" ]; then
	for f in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -w "$f" ] && [ "$(cat "$f")" = 1 ] && { cpu=${f%/online}; cpu=${cpu##*cpu}; break; }
	done
fi
[ -n "$cpu" ] || { echo "hotplug.sh: no CPU besides cpu0 can be taken offline" >&2; exit 77; }
command -v bpftrace >/dev/null || { echo "hotplug.sh: bpftrace not installed (scripts/deps.sh bench)" >&2; exit 77; }
[ -x "$CPULEDGER" ] && [ -x "$WORKLOAD" ] || { echo "hotplug.sh: run make tests first" >&2; exit 1; }

online=/sys/devices/system/cpu/cpu$cpu/online
tmp=$(mktemp -d)
pids=()
cleanup() {
	echo 1 >"$online" 2>/dev/null
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$WORKLOAD" --pin "$cpu" --forever &
spin=$!
pids+=($spin)
# bpftrace: samples per CPU, printed every second with a timestamp.
bpftrace -e 'profile:hz:99 { @[cpu] = count(); }
	interval:s:1 { time("T %s\n"); print(@); clear(@); }' >"$tmp/bt.out" 2>"$tmp/bt.err" &
pids+=($!)
"$CPULEDGER" record -o "$tmp/cl.db" -p "$spin" --slice 10ms -e '' 2>"$tmp/cl.err" &
rec=$!
pids+=($rec)
sleep 3
echo 0 >"$online"
sleep 1
echo 1 >"$online"
taskset -p -c "$cpu" "$spin" >/dev/null
sleep 4
kill -INT $rec
wait $rec

# bpftrace: mean samples/s on the CPU in seconds fully before / after the cycle.
bt() {
	awk -v cpu="$cpu" -v from="$1" -v to="$2" '
		/^T / { t = $2; next }
		$1 == "@[" cpu "]:" && t >= from && t <= to { s += $2; n++ }
		END { printf "%.0f", n ? s / n : 0 }' "$tmp/bt.out"
}
# The T lines are wall-clock seconds (HH:MM:SS); number them instead.
awk '/^T / { n++; print "T " n; next } { print }' "$tmp/bt.out" >"$tmp/bt.num"
mv "$tmp/bt.num" "$tmp/bt.out"
bt_before=$(bt 2 3)
bt_after=$(bt 6 8)
q() { sqlite3 -batch "$tmp/cl.db" "$1"; }
on_ns=$(q "SELECT time_ns FROM hotplug WHERE online = 1")
start=$(q "SELECT MIN(start_ns) FROM slices")
cl_before=$(q "SELECT COUNT(*) / 2 FROM slices WHERE cpu = $cpu AND start_ns BETWEEN $start + 500000000 AND $start + 2500000000")
cl_after=$(q "SELECT COUNT(*) / 2 FROM slices WHERE cpu = $cpu AND start_ns BETWEEN $on_ns + 1000000000 AND $on_ns + 3000000000")

printf '\nSamples per second on cpu%s (a spinner pinned there), one offline/online cycle:\n\n' "$cpu"
printf '%-44s %8s %8s\n' "sampler" "before" "after"
printf '%-44s %8s %8s\n' "bpftrace profile:hz:99" "$bt_before" "$bt_after"
printf '%-44s %8s %8s\n' "cpuledger record --slice 10ms (100/s)" "$cl_before" "$cl_after"
echo
[ "$bt_after" -lt $((bt_before / 2)) ] && echo "bpftrace lost cpu$cpu: its perf event stayed off after the CPU came back."
[ "$cl_after" -ge $((cl_before * 9 / 10)) ] && echo "cpuledger kept cpu$cpu: it re-opened the tick ($(grep -c 'came online' "$tmp/cl.err") re-open logged)."
