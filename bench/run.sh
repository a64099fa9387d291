#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The overhead benchmarks, one after the other, then one summary table.
# Budgets are reported (PASS/FAIL), not asserted: the exit status is 0 unless
# a benchmark could not run at all. Root; takes 3-5 minutes. `make bench`
# runs it after building build/cpuledger and build/workloads/*.
#
#   bench/run.sh [switch] [launch] [footprint] [stream] [progs]
#                (default: switch launch footprint stream)
#
#   switch     ns added per context switch, against an empty BPF program,
#              bpftrace and libbpf-tools (switch_cost.sh)
#   launch     cpuledger stat's CPU per process launch (launch_cost.sh)
#   footprint  startup time and peak RSS, cpuledger stat and bpftrace
#              (footprint.sh)
#   stream     record and trace: records/s and losses (stream_throughput.sh)
#   progs      each BPF program's ns per run, with kernel.bpf_stats_enabled
#              on meanwhile (prog_cost.sh; not by default: a global sysctl)
#
# Environment: BUILD (build), BENCH_ROUNDS (5), BENCH_OPS (400000), and each
# script's own (see their headers).
set -u
BENCH_NAME=run.sh
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
export BUILD BENCH_RESULTS

[ "$(id -u)" = 0 ] || { echo "run.sh: the benchmarks load BPF programs: run as root" >&2; exit 1; }
[ -x "$BUILD/cpuledger" ] ||
	{ echo "run.sh: $BUILD/cpuledger missing: run make first" >&2; exit 1; }
[ -x "$BUILD/workloads/workload" ] ||
	echo "run.sh: $BUILD/workloads/workload missing (make tests); some churn is left out" >&2
for tool in perf bpftrace runqlat cpudist sqlite3 taskset; do
	PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null ||
		echo "run.sh: $tool not installed (scripts/deps.sh bench): its rows are skipped" >&2
done
if ! make -s -C bench BUILD="$(pwd)/$BUILD"; then
	echo "run.sh: building the floor (bench/floor.bpf.c) failed: its row is skipped" >&2
fi

bpf_others
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(switch launch footprint stream)
start=$SECONDS
status=0
for part in "${parts[@]}"; do
	case $part in
	switch) script=switch_cost.sh ;;
	launch) script=launch_cost.sh ;;
	footprint) script=footprint.sh ;;
	stream) script=stream_throughput.sh ;;
	progs) script=prog_cost.sh ;;
	*)
		echo "run.sh: unknown part '$part' (switch, launch, footprint, stream, progs)" >&2
		exit 2
		;;
	esac
	printf '\n=== %s ===\n' "$script"
	bench/"$script" || {
		echo "run.sh: bench/$script failed" >&2
		status=1
	}
done
bpf_others 2>&1

printf '\n=== Summary: %s, %s CPUs, Linux %s; %d s ===\n' \
	"$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" "$(nproc)" "$(uname -r)" \
	$((SECONDS - start))
printf '%s built %s from %s\n' "$BUILD/cpuledger" "$(date -r "$BUILD/cpuledger" '+%F %T')" \
	"$(git describe --always --dirty 2>/dev/null || echo 'an unknown tree')"
awk -F'\t' '
	BEGIN { printf "%-58s %14s  %-10s %s\n", "measure", "value", "budget", "verdict" }
	{
		value = $4 == "" ? $3 : $3 " " $4
		line = sprintf("%-58s %14s  %-10s %s", $2, value, $5, $6)
		sub(/ +$/, "", line)
		print line
		if ($6 == "PASS") pass++
		if ($6 == "FAIL") fail++
	}
	END { printf "\nbudgets: %d PASS, %d FAIL\n", pass, fail }' "$BENCH_RESULTS"
exit $status
