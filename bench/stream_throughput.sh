#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# How many records per second cpuledger record (SQLite) and trace (CSV to
# /dev/null) sustain, and how many they lose, under a pipe ping-pong that
# switches as fast as the machine can: unpinned (the two processes wake each
# other across CPUs) and pinned to one CPU (both on CPU BENCH_CPU; the tool's
# reader runs on another). switches/s is the ping-pong's (2 per round trip);
# records/s = rows written over the whole run / the ping-pong's duration: it
# also counts every other switch on the machine (to and from idle, when the
# ping-pong crosses CPUs) and the few hundred rows of the idle moments around.
# Losses are what the tool counted (ring buffer full), exactly. "reader" is
# the tool's CPU time during the ping-pong, in % of one CPU: at 100% the
# reader is the bottleneck.
#
# Environment: BENCH_STREAM_OPS_PINNED (1000000 round trips),
# BENCH_STREAM_OPS_UNPINNED (100000), BENCH_CPU (0).
set -u
BENCH_NAME=stream_throughput
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

CPU=${BENCH_CPU:-0}
need_cpuledger
bpf_others
have_sqlite=1
command -v sqlite3 >/dev/null || {
	have_sqlite=
	say "sqlite3 not installed: record's counts come from its stderr summary"
}

# counts TOOL: "ROWS LOST" from what the stopped tool left.
counts() {
	local rows lost
	if [ "$1" = record ] && [ -n "$have_sqlite" ]; then
		rows=$(sqlite3 -batch "$BENCH_TMP/record.db" \
			"SELECT value FROM meta WHERE key = 'slices'")
		lost=$(sqlite3 -batch "$BENCH_TMP/record.db" \
			"SELECT value FROM meta WHERE key = 'lost_records'")
	else
		# "cpuledger trace: N switches written to F, M lost (ring buffer full)"
		read -r rows lost < <(sed -nE \
			's/.* ([0-9]+) (switches|slices) written .*, ([0-9]+) lost.*/\1 \3/p' \
			"$BENCH_TMP/$1.err" | tail -1)
	fi
	[ -n "${rows:-}" ] && [ -n "${lost:-}" ] && echo "$rows $lost"
}

printf '\n%-32s %-9s %12s %12s %10s %8s %7s %9s\n' "stream" "ping-pong" "switches/s" \
	"records/s" "records" "lost" "reader" "peak RSS"
for tool in record trace; do
	for mode in unpinned pinned; do
		label="$(tool_label "$tool")"
		if [ "$mode" = pinned ]; then
			cpus=$CPU ops=${BENCH_STREAM_OPS_PINNED:-1000000}
		else
			cpus=all ops=${BENCH_STREAM_OPS_UNPINNED:-100000}
		fi
		if ! tool_start "$tool"; then
			say "skipping $tool: $TOOL_WHY"
			result stream "$tool, $mode ping-pong" "skipped" ""
			continue
		fi
		pid=$BG_PID
		cpu0=$(cpu_ns "$pid")
		t0=$(now_ns)
		us=$(pingpong_us "$cpus" "$ops") || say "the ping-pong failed"
		t1=$(now_ns)
		cpu1=$(cpu_ns "$pid")
		[ -n "$us" ] || { bench_stop "$pid"; exit 1; }
		nap 0.3
		hwm=$(awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null)
		alive "$pid" || say "$tool exited during the run: $(why "$tool")"
		# A deep backlog takes record a while to commit.
		kill -INT "$pid"
		bench_reap "$pid" 120
		if ! c=$(counts "$tool"); then
			say "$tool: no counts ($(why "$tool"))"
			result stream "$tool, $mode ping-pong" "failed" ""
			continue
		fi
		read -r rows lost <<<"$c"
		secs=$(calc "($t1 - $t0) / 1e9")
		rate=$(calc "$rows / $secs")
		offered=$(calc "2 * $ops / $secs")
		reader=$(calc "100 * ($cpu1 - $cpu0) / ($t1 - $t0)")
		printf '%-32s %-9s %12.0f %12.0f %10d %8d %6.0f%% %5s MiB\n' "$label" "$mode" \
			"$offered" "$rate" "$rows" "$lost" "$reader" "${hwm:--}"
		result stream "$tool, $mode ping-pong: records/s" "$(printf '%.0f' "$rate")" "/s"
		result stream "$tool, $mode ping-pong: lost / written" "$lost / $rows" ""
		result stream "$tool, $mode ping-pong: reader CPU" "$(printf '%.0f' "$reader")" "%"
		nap 0.3
	done
done
exit 0
