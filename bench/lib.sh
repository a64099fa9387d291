# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Helpers shared by the bench/*.sh scripts (sourced, not run). Each script
# gets a private temporary directory, a list of the processes it started
# (killed by the EXIT trap whatever happens) and a results file that
# bench/run.sh turns into its summary table.
#
# Environment: BUILD (default build), BENCH_RESULTS (TSV results file; default
# a temporary one), BENCH_SETTLE (seconds to let a tool settle after it is
# attached, default 0.3), BENCH_STAT_ARGS (more options for each cpuledger
# stat run of tool_start, e.g. "-f csv" or "--top 20": the table's rows are
# most of stat's work per process launch).

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$BENCH_ROOT" || exit 1
BUILD=${BUILD:-build}
CPULEDGER=$BUILD/cpuledger
WORKLOAD=$BUILD/workloads/workload
FLOOR=$BUILD/bench/floor
BENCH_SETTLE=${BENCH_SETTLE:-0.3}
BENCH_NAME=${BENCH_NAME:-$(basename "$0" .sh)}
PATH=$PATH:/usr/sbin:/sbin

BENCH_TMP=$(mktemp -d /tmp/cpuledger-bench.XXXXXX)
BENCH_RESULTS=${BENCH_RESULTS:-$BENCH_TMP/results.tsv}
BENCH_PIDS=()
BENCH_MOUNTED_TRACEFS=

bench_cleanup() {
	local pid
	for pid in "${BENCH_PIDS[@]}"; do
		kill -INT "$pid" 2>/dev/null
	done
	for pid in "${BENCH_PIDS[@]}"; do
		bench_reap "$pid" 3
	done
	[ -n "$BENCH_MOUNTED_TRACEFS" ] && umount "$BENCH_MOUNTED_TRACEFS" 2>/dev/null
	rm -rf "$BENCH_TMP"
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }

# A sleep that forks nothing (a read that times out on a FIFO nobody writes),
# so that waiting loops do not disturb what is measured.
mkfifo "$BENCH_TMP/nap"
exec {BENCH_NAP_FD}<>"$BENCH_TMP/nap"
nap() { read -r -t "$1" -u "$BENCH_NAP_FD"; true; }

# Wall clock in ns (microsecond resolution), without forking date.
now_ns() { local t=${EPOCHREALTIME/./}; echo $((10#$t * 1000)); }

# The median of the arguments (numbers).
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END {
			if (!NR)
				exit 1
			print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# calc EXPR: floating-point arithmetic with awk.
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }

# result SECTION KEY VALUE UNIT [BUDGET VERDICT]: one summary row.
result() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" "${6:-}" >>"$BENCH_RESULTS"
}

# budget VALUE OP LIMIT: PASS or FAIL (OP is <= or >=).
budget() {
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		ok = op == "<=" ? v + 0 <= l + 0 : v + 0 >= l + 0
		print ok ? "PASS" : "FAIL" }'
}

# alive PID: running, not a zombie waiting to be reaped.
alive() {
	local state
	kill -0 "$1" 2>/dev/null || return 1
	state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ]
}

# bench_reap PID [TIMEOUT]: wait for PID to exit (SIGKILL after TIMEOUT
# seconds), reap it and forget it. Returns its exit status.
bench_reap() {
	local pid=$1 timeout=${2:-10} i rc
	for ((i = 0; i < timeout * 100; i++)); do
		alive "$pid" || break
		nap 0.01
	done
	alive "$pid" && kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	local kept=()
	for i in "${BENCH_PIDS[@]}"; do
		[ "$i" = "$pid" ] || kept+=("$i")
	done
	BENCH_PIDS=("${kept[@]}")
	return $rc
}

# bench_stop PID [SIGNAL]: ask it to stop (SIGINT: every tool here prints
# its summary and cleans up on it) and reap it.
bench_stop() {
	kill "-${2:-INT}" "$1" 2>/dev/null
	bench_reap "$1" 10
}

# bench_start NAME CMD...: run CMD in the background, stdout into
# $BENCH_TMP/NAME.out (or into $BENCH_OUT when set, e.g. /dev/null), stderr
# into $BENCH_TMP/NAME.err; its PID in BG_PID.
bench_start() {
	local name=$1
	shift
	"$@" >"${BENCH_OUT:-$BENCH_TMP/$name.out}" 2>"$BENCH_TMP/$name.err" &
	BG_PID=$!
	BENCH_PIDS+=("$BG_PID")
}

# wait_line PID REGEX FILE...: until one of the FILEs has a line matching
# REGEX. Fails if PID exits first or after WAIT_TIMEOUT seconds (default 30).
wait_line() {
	local pid=$1 regex=$2 i
	shift 2
	for ((i = 0; i < ${WAIT_TIMEOUT:-30} * 200; i++)); do
		grep -Eqs -- "$regex" "$@" && return 0
		alive "$pid" || return 1
		nap 0.005
	done
	return 1
}

# wait_fd PID KIND: until PID holds an fd of KIND (what /proc/PID/fd/N links
# to, e.g. anon_inode:bpf_link or anon_inode:[timerfd]). Fails if PID exits
# first or after WAIT_TIMEOUT seconds (default 30).
wait_fd() {
	local pid=$1 kind=$2 i
	kind=${kind//[/\\[}
	kind=${kind//]/\\]}
	for ((i = 0; i < ${WAIT_TIMEOUT:-30} * 100; i++)); do
		[ -n "$(find "/proc/$pid/fd" -lname "$kind" -print -quit 2>/dev/null)" ] && return 0
		alive "$pid" || return 1
		nap 0.01
	done
	return 1
}

# bpf_others: warn about processes (not ours) holding BPF programs: what they
# run at each context switch is in every number here, the baseline's too.
bpf_others() {
	local pid others=
	for pid in $(find /proc/[0-9]*/fd -lname 'anon_inode:bpf-prog' 2>/dev/null |
		cut -d/ -f3 | sort -un); do
		[[ " ${BENCH_PIDS[*]} $$ " == *" $pid "* ]] && continue
		others+=" $pid ($(cat "/proc/$pid/comm" 2>/dev/null))"
	done
	[ -z "$others" ] && return 0
	say "warning: other processes hold BPF programs:$others; if they trace the scheduler," \
		"every number here includes their cost and varies with it"
	return 1
}

# why NAME: the first lines of a failed tool's stderr, for the note.
why() { head -c 300 "$BENCH_TMP/$1.err" 2>/dev/null | tr '\n' ' '; }

# ensure_tracefs: bpftrace's tracepoint: probes need tracefs; mount it (and
# unmount it at exit) when nobody did.
ensure_tracefs() {
	[ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ] && return 0
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || return 1
	BENCH_MOUNTED_TRACEFS=/sys/kernel/tracing
	say "mounted tracefs on /sys/kernel/tracing for bpftrace (unmounted at exit)"
}

# pingpong_us CPUS OPS: µs per pipe round trip (2 context switches) between
# two processes restricted to CPUS ("0": both on one CPU; "all": anywhere).
# perf bench sched pipe, or the test workload when perf is missing.
pingpong_us() {
	local cpus=$1 ops=$2 pin=() t0 t1
	[ "$cpus" = all ] || pin=(taskset -c "$cpus")
	if command -v perf >/dev/null; then
		"${pin[@]}" perf bench sched pipe -l "$ops" 2>/dev/null |
			awk '/usecs\/op/ { print $1; found = 1 } END { exit !found }'
	else
		t0=$(now_ns)
		"${pin[@]}" "$WORKLOAD" --pingpong "$ops" || return 1
		t1=$(now_ns)
		calc "($t1 - $t0) / 1000 / $ops"
	fi
}

# cpu_ns PID: CPU time of every thread of PID so far (schedstat field 1, ns).
cpu_ns() {
	local total=0 f line
	for f in /proc/"$1"/task/*/schedstat; do
		read -r line _ <"$f" 2>/dev/null || continue
		total=$((total + line))
	done
	echo "$total"
}

need_cpuledger() {
	[ -x "$CPULEDGER" ] && return 0
	say "$CPULEDGER missing: run make first"
	exit 1
}

machine() {
	printf '%s, %s CPUs, Linux %s\n' \
		"$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
		"$(nproc)" "$(uname -r)"
}

bpf_stats_check() {
	[ "$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null)" = 1 ] &&
		say "warning: kernel.bpf_stats_enabled=1 adds clock reads to every BPF run;" \
			"every BPF number is inflated"
	true
}

BPFTRACE_ONELINER='tracepoint:sched:sched_switch { @[comm] = count(); }'

# tool_label CONFIG: what a configuration runs, for tables.
tool_label() {
	case $1 in
	nothing) echo "nothing (baseline)" ;;
	floor) echo "empty tp_btf/sched_switch (floor)" ;;
	stat) echo "cpuledger stat" ;;
	stat-percpu) echo "cpuledger stat --per-cpu" ;;
	stat-perf) echo "cpuledger stat -e page-faults:perf,cpu-clock" ;;
	record) echo "cpuledger record (1 ms slices)" ;;
	trace) echo "cpuledger trace -f csv" ;;
	bpftrace) echo "bpftrace sched_switch @[comm]=count()" ;;
	runqlat) echo "libbpf-tools runqlat" ;;
	cpudist) echo "libbpf-tools cpudist" ;;
	*) echo "$1" ;;
	esac
}

# tool_start CONFIG: start one configuration in the background and return
# once it is attached and has settled (BG_PID is its PID, "" for nothing).
# On failure: a one-line reason in TOOL_WHY, non-zero.
# shellcheck disable=SC2034 # TOOL_WHY is for the caller
tool_start() {
	local config=$1 ready='' bin
	BG_PID='' TOOL_WHY=''
	case $config in
	nothing) return 0 ;;
	floor)
		[ -x "$FLOOR" ] || { TOOL_WHY="$FLOOR missing (make -C bench)"; return 1; }
		bench_start "$config" "$FLOOR"
		ready="line attached" ;;
	stat | stat-percpu | stat-perf)
		local extra=()
		[ "$config" = stat-percpu ] && extra=(--per-cpu)
		# shellcheck disable=SC2054 # one -e argument, a comma-separated list
		[ "$config" = stat-perf ] && extra=(-e page-faults:perf,cpu-clock)
		# shellcheck disable=SC2206 # options, split on purpose
		extra+=(${BENCH_STAT_ARGS:-})
		BENCH_OUT=/dev/null bench_start "$config" "$CPULEDGER" stat -i 1s "${extra[@]}"
		ready="fd anon_inode:[timerfd]" ;;
	record)
		rm -f "$BENCH_TMP/record.db"*
		bench_start "$config" "$CPULEDGER" record -o "$BENCH_TMP/record.db"
		ready="fd anon_inode:[timerfd]" ;;
	trace)
		bench_start "$config" "$CPULEDGER" trace -f csv -o /dev/null
		ready="fd anon_inode:[timerfd]" ;;
	bpftrace)
		command -v bpftrace >/dev/null ||
			{ TOOL_WHY="bpftrace not installed (scripts/deps.sh bench)"; return 1; }
		ensure_tracefs ||
			{ TOOL_WHY="tracefs not mounted and cannot be mounted"; return 1; }
		BENCH_OUT=$BENCH_TMP/bpftrace.all \
			bench_start "$config" bpftrace -e "$BPFTRACE_ONELINER"
		ready="line Attaching" ;;
	runqlat | cpudist)
		bin=$(command -v "$config") || {
			TOOL_WHY="$config (libbpf-tools) not installed (scripts/deps.sh bench)"
			return 1
		}
		bench_start "$config" "$bin"
		ready="fd anon_inode:bpf_link" ;;
	*) TOOL_WHY="unknown configuration $config"; return 1 ;;
	esac
	case $ready in
	"line attached") wait_line "$BG_PID" '^attached' "$BENCH_TMP/$config.out" ;;
	"line Attaching")
		# bpftrace 0.17 prints it on stdout, later versions on stderr.
		wait_line "$BG_PID" '^Attaching' "$BENCH_TMP/bpftrace.all" \
			"$BENCH_TMP/bpftrace.err" ;;
	fd*) wait_fd "$BG_PID" "${ready#fd }" ;;
	esac || {
		TOOL_WHY="did not attach: $(why "$config")"
		bench_stop "$BG_PID" KILL
		BG_PID=
		return 1
	}
	# "Attaching" comes before bpftrace attaches; the others are attached.
	if [ "$config" = bpftrace ]; then nap 1; fi
	nap "$BENCH_SETTLE"
}
