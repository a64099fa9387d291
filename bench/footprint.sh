#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Startup time and peak memory of cpuledger stat, and of the bpftrace one-liner
# for comparison.
#   startup: from just before the fork to the moment the tool is collecting:
#     cpuledger stat -f csv writes (and flushes) its CSV header once its BPF
#     programs are attached and the baseline is read; bpftrace prints
#     "Attaching N probes...", then the first sched_switch it sees (an extra
#     probe that prints once). Both read through a FIFO, timestamps from
#     $EPOCHREALTIME. Median of BENCH_STARTUP_REPS. Budget: stat <= 0.5 s.
#   peak RSS: VmHWM of /proc/PID/status after BENCH_RSS_SECONDS of reports
#     with process churn (/bin/true launches, a multi-threaded workload).
#     Budget: stat <= 16 MiB.
set -u
BENCH_NAME=footprint
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

REPS=${BENCH_STARTUP_REPS:-5}
RSS_SECONDS=${BENCH_RSS_SECONDS:-4}
need_cpuledger

# startup NAME REGEX CMD...: STARTUP_MS, ms from the fork until CMD's stdout
# has a line matching REGEX, and ATTACH_MS, until a line starting with
# "Attaching" (bpftrace), if any.
startup() {
	local name=$1 regex=$2 fifo=$BENCH_TMP/startup.fifo t0 line fd
	shift 2
	STARTUP_MS='' ATTACH_MS=''
	rm -f "$fifo"
	mkfifo "$fifo"
	t0=$(now_ns)
	"$@" >"$fifo" 2>"$BENCH_TMP/$name.err" &
	BG_PID=$!
	BENCH_PIDS+=("$BG_PID")
	exec {fd}<"$fifo"
	while read -r -t 30 -u "$fd" line; do
		case $line in Attaching*) ATTACH_MS=$(calc "($(now_ns) - $t0) / 1e6") ;; esac
		if [[ $line =~ $regex ]]; then
			STARTUP_MS=$(calc "($(now_ns) - $t0) / 1e6")
			break
		fi
	done
	# The FIFO stays open until the tool is gone: its last words must not block.
	bench_stop "$BG_PID"
	exec {fd}<&-
	[ -n "$STARTUP_MS" ]
}

# The extra probe fires once, at the first switch after attaching.
bpftrace_prog="$BPFTRACE_ONELINER
tracepoint:sched:sched_switch /@fired == 0/ { @fired = 1; printf(\"fired\\n\"); }"
have_bpftrace=
if command -v bpftrace >/dev/null && ensure_tracefs; then
	have_bpftrace=1
else
	say "skipping bpftrace: not installed (scripts/deps.sh bench) or no tracefs"
fi

stat_ms=() bt_ms=() bt_attach_ms=()
for ((rep = 0; rep < REPS; rep++)); do
	if startup stat '^time_ns,' "$CPULEDGER" stat -f csv -i 1s; then
		stat_ms+=("$STARTUP_MS")
	else
		say "cpuledger stat wrote no CSV header: $(why stat)"
	fi
	nap 0.3
	[ -n "$have_bpftrace" ] || continue
	if startup bpftrace '^fired' bpftrace -B none -e "$bpftrace_prog"; then
		bt_ms+=("$STARTUP_MS")
		[ -n "$ATTACH_MS" ] && bt_attach_ms+=("$ATTACH_MS")
	else
		say "bpftrace did not fire: $(why bpftrace)"
	fi
	nap 0.3
done

# Peak RSS: both tools run through the same churn.
BENCH_OUT=/dev/null bench_start stat "$CPULEDGER" stat -i 1s
stat_pid=$BG_PID
bt_pid=
if [ -n "$have_bpftrace" ]; then
	BENCH_OUT=/dev/null bench_start bpftrace bpftrace -e "$BPFTRACE_ONELINER"
	bt_pid=$BG_PID
fi
nap 1.5
hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
stat_load_kib=$(hwm_kib "$stat_pid")
churn_until=$(($(now_ns) + RSS_SECONDS * 1000000000))
if [ -x "$WORKLOAD" ]; then
	# Threads that sleep and wake: thread rows, switches, exits at the end.
	"$WORKLOAD" --threads 16 --busy-ms 200 --slice-ms 1 --sleep-ms 1 >/dev/null 2>&1 &
	BENCH_PIDS+=($!)
fi
launched=0
while [ "$(now_ns)" -lt "$churn_until" ]; do
	/bin/true
	launched=$((launched + 1))
done
nap 1.2
stat_kib=$(alive "$stat_pid" && hwm_kib "$stat_pid")
stat_rss_kib=$(alive "$stat_pid" && rss_kib "$stat_pid")
bt_kib=
[ -n "$bt_pid" ] && alive "$bt_pid" && bt_kib=$(hwm_kib "$bt_pid")
say "churn: $launched /bin/true launches in $RSS_SECONDS s"
[ -n "$stat_kib" ] && say "cpuledger stat: VmHWM $stat_load_kib kB once loaded," \
	"$stat_kib kB after the churn; VmRSS $stat_rss_kib kB"

printf '\nStartup (fork to collecting, median of %d) and peak RSS (VmHWM after %d s of churn)\n' \
	"$REPS" "$RSS_SECONDS"
printf '%-46s %12s %12s\n' "" "startup" "peak RSS"
if [ ${#stat_ms[@]} -gt 0 ]; then
	s=$(median "${stat_ms[@]}")
	sv=$(budget "$s" "<=" 500)
	result footprint "startup: cpuledger stat (to CSV header)" "$(printf '%.0f' "$s")" ms \
		"<= 500 ms" "$sv"
else
	s='' sv="not measured"
	result footprint "startup: cpuledger stat (to CSV header)" "failed" "" "<= 500 ms" ""
fi
if [ -n "$stat_kib" ]; then
	r=$(calc "$stat_kib / 1024")
	rv=$(budget "$r" "<=" 16)
	result footprint "peak RSS: cpuledger stat" "$(printf '%.1f' "$r")" MiB "<= 16 MiB" "$rv"
	result footprint "RSS after the churn: cpuledger stat" \
		"$(printf '%.1f' "$(calc "$stat_rss_kib / 1024")")" MiB
else
	r='' rv="not measured"
	say "cpuledger stat exited during the churn: $(why stat)"
	result footprint "peak RSS: cpuledger stat" "failed" "" "<= 16 MiB" ""
fi
printf '%-46s %9s ms %8s MiB   budgets <= 500 ms: %s, <= 16 MiB: %s  (runs: %s ms)\n' \
	"cpuledger stat" "${s:+$(printf '%.0f' "$s")}" "${r:+$(printf '%.1f' "$r")}" "$sv" "$rv" \
	"${stat_ms[*]:-}"
if [ -n "$have_bpftrace" ]; then
	b='' a='' br=''
	[ ${#bt_ms[@]} -gt 0 ] && b=$(median "${bt_ms[@]}")
	[ ${#bt_attach_ms[@]} -gt 0 ] && a=$(median "${bt_attach_ms[@]}")
	[ -n "$bt_kib" ] && br=$(calc "$bt_kib / 1024")
	printf '%-46s %9s ms %8s MiB   (\"Attaching\" after %s ms; runs: %s ms)\n' \
		"bpftrace one-liner" "${b:+$(printf '%.0f' "$b")}" "${br:+$(printf '%.1f' "$br")}" \
		"${a:+$(printf '%.0f' "$a")}" "${bt_ms[*]:-}"
	result footprint "startup: bpftrace (to first probe hit)" "${b:+$(printf '%.0f' "$b")}" ms
	result footprint "peak RSS: bpftrace one-liner" "${br:+$(printf '%.1f' "$br")}" MiB
else
	result footprint "startup and RSS: bpftrace" "skipped" ""
fi
exit 0
