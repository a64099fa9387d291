# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Shared helpers for integration tests: TAP output, workloads, the kernel's
# own numbers (/proc), CSV columns, cleanup traps. Source it first thing.
# shellcheck shell=bash

set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
BUILD=${BUILD:-build}
CPULEDGER=$PWD/$BUILD/cpuledger
WORKLOAD=$PWD/$BUILD/workloads/workload
TEST_TMP=$(mktemp -d /tmp/cpuledger-test.XXXXXX)
test_count=0
test_failed=0
cleanup_pids=()
cleanup_cmds=()

ok() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $*"
}

not_ok() {
	test_count=$((test_count + 1))
	test_failed=$((test_failed + 1))
	echo "not ok $test_count - $1"
	shift
	[ $# -gt 0 ] && printf '#   %s\n' "$@"
	return 0
}

# check DESCRIPTION COMMAND...: ok if the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what" "failed: $*"; fi
}

# check_eq DESCRIPTION GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1 ($2)"; else not_ok "$1" "got '$2', want '$3'"; fi
}

# check_within DESCRIPTION GOT WANT PERCENT: |got - want| <= percent% of want
check_within() {
	if awk -v g="$2" -v w="$3" -v p="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w != "" && g != "" && d <= w * p / 100) }'; then
		ok "$1 (got $2, kernel $3, within $4%)"
	else
		not_ok "$1" "got '$2', kernel says '$3': not within $4%"
	fi
}

# check_ge DESCRIPTION GOT MIN
check_ge() {
	if awk -v g="$2" -v m="$3" 'BEGIN { exit !(g != "" && g + 0 >= m + 0) }'; then
		ok "$1 ($2 >= $3)"
	else
		not_ok "$1" "got '$2', want at least $3"
	fi
}

skip_all() {
	echo "# skip: $*"
	exit 77
}

need_root() {
	[ "$(id -u)" = 0 ] || skip_all "needs root to load BPF"
}

done_testing() {
	echo "1..$test_count"
	[ "$test_failed" = 0 ]
	exit $?
}

cleanup() {
	local pid i
	for pid in "${cleanup_pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null
		kill -CONT "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	# Last registered, first undone (a cgroup before its parent).
	for ((i = ${#cleanup_cmds[@]} - 1; i >= 0; i--)); do
		eval "${cleanup_cmds[i]}" 2>/dev/null
	done
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Remember a process to kill when the test ends, whatever happens.
track() {
	cleanup_pids+=("$@")
}

# Run a command at cleanup (e.g. bring a CPU back online).
on_cleanup() {
	cleanup_cmds+=("$1")
}

# wait_until TIMEOUT_S COMMAND...: poll every 20 ms.
wait_until() {
	local deadline=$((SECONDS + $1))
	shift
	while ! "$@"; do
		[ $SECONDS -ge $deadline ] && return 1
		sleep 0.02
	done
}

file_has_lines() {
	[ -s "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]
}

proc_state() {
	awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null
}

is_stopped() {
	[ "$(proc_state "$1")" = T ]
}

# Starts `cpuledger stat ARGS...` writing CSV to FILE; waits until it collects
# (the CSV header is written after the baseline pass). Sets CL_PID.
start_stat_csv() {
	local out=$1
	shift
	"$CPULEDGER" stat -f csv "$@" >"$out" 2>"$out.err" &
	CL_PID=$!
	track "$CL_PID"
	if ! wait_until 10 file_has_lines "$out" 1; then
		not_ok "cpuledger stat started" "$(cat "$out.err")"
		done_testing
	fi
}

# Stops cpuledger with SIGINT (it reports the partial interval) and waits.
stop_stat() {
	kill -INT "$CL_PID" 2>/dev/null
	wait "$CL_PID"
}

# Starts a workload that waits on a FIFO before doing anything. Sets WL_PID
# and WL_FIFO; release_workload lets it go.
start_waiting_workload() {
	WL_FIFO=$TEST_TMP/go.$RANDOM
	mkfifo "$WL_FIFO"
	"$WORKLOAD" --wait "$WL_FIFO" "$@" &
	WL_PID=$!
	track "$WL_PID"
	# Blocked in open() of the FIFO: past exec, and sleeping.
	wait_until 5 workload_waiting "$WL_PID"
}

workload_waiting() {
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$WORKLOAD" ] && [ "$(proc_state "$1")" = S ]
}

release_workload() {
	echo go >"$WL_FIFO"
}

# The kernel's own numbers for one thread.
schedstat_oncpu() { awk '{ print $1 }' "/proc/$1/schedstat"; }
schedstat_delay() { awk '{ print $2 }' "/proc/$1/schedstat"; }
status_field() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
# Process-wide faults (all threads, dead ones included), as getrusage counts.
stat_faults() { awk '{ sub(/^.*\) /, ""); print $8 + $10 }' "/proc/$1/stat"; }

# csv_sum FILE COLUMN [KEYCOL VALUE]: sum of COLUMN over rows (where KEYCOL == VALUE).
csv_sum() {
	awk -F, -v col="$2" -v key="${3:-}" -v val="${4:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		key == "" || $(idx[key]) == val { s += $(idx[col]) }
		END { printf "%.0f\n", s }' "$1"
}

# csv_values FILE COLUMN [KEYCOL VALUE]: the column's values, one per line.
csv_values() {
	awk -F, -v col="$2" -v key="${3:-}" -v val="${4:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		key == "" || $(idx[key]) == val { print $(idx[col]) }' "$1"
}

csv_rows() {
	awk -F, -v key="${2:-}" -v val="${3:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		key == "" || $(idx[key]) == val { n++ }
		END { print n + 0 }' "$1"
}

# Every thread of PID stopped (group stop complete)?
all_stopped() {
	local t
	for t in /proc/"$1"/task/*; do
		[ "$(proc_state "$1/task/${t##*/}")" = T ] || return 1
	done
}

# The cgroup2 mount, from mountinfo (never hard-coded): /sys/fs/cgroup on pure
# v2 hosts, /sys/fs/cgroup/unified on hybrid ones.
cgroup2_mount() {
	awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
		/proc/self/mountinfo | head -1
}

# The cgroup v1 memory controller's mount, if any.
memcg1_mount() {
	awk '{ for (i = 7; i < NF; i++) if ($i == "-") {
		if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)memory(,|$)/) print $5; break } }' \
		/proc/self/mountinfo | head -1
}

# make_cgroup2 NAME: a cgroup2 child of the root, removed at cleanup; sets CGROUP.
# (Not for $(...): cleanup registrations must happen in this shell.)
make_cgroup2() {
	CGROUP="$(cgroup2_mount)/$1"
	mkdir -p "$CGROUP" || return 1
	on_cleanup "rmdir '$CGROUP'"
}

# csv_col FILE NAME: the 1-based index of column NAME in FILE's header.
csv_col() {
	head -1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1
}

# jq -e, quietly: for check "..." jq_ok FILTER FILE.
jq_ok() {
	jq -e "$@" >/dev/null
}
