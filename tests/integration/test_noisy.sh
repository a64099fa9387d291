#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Noisy-neighbour signals against the kernel: run-queue waits (schedstat
# field 2), preemption attribution between cgroups, pages allocated and time
# in reclaim for a writer squeezed by a memory cgroup.
. "$(dirname "$0")/lib.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs (one shared, one alone)"
[ -n "$(cgroup2_mount)" ] || skip_all "no cgroup2 hierarchy mounted"
[ -r /proc/self/schedstat ] || skip_all "kernel without CONFIG_SCHED_INFO"

# 1. Two spinners sharing cpu1, each in its own cgroup; a lone one on cpu0.
make_cgroup2 clnoisy-a.$$ && cga=$CGROUP
make_cgroup2 clnoisy-b.$$ && cgb=$CGROUP
make_cgroup2 clnoisy-c.$$ && cgc=$CGROUP
spin_in() { # CGROUP CPU: sets SPIN
	"$WORKLOAD" --pin "$2" --forever &
	SPIN=$!
	track $SPIN
	echo $SPIN >"$1/cgroup.procs"
}
spin_in "$cga" 1
a=$SPIN
spin_in "$cgb" 1
b=$SPIN
spin_in "$cgc" 0
c=$SPIN
sleep 0.3
base_a=$(schedstat_delay "$a")
base_runs_a=$(awk '{ print $3 }' /proc/$a/schedstat)
out=$TEST_TMP/noisy.csv
start_stat_csv "$out" -p "$a,$b,$c" -i 1s
sleep 3.2
kern_a=$(( $(schedstat_delay "$a") - base_a ))
kern_runs_a=$(( $(awk '{ print $3 }' /proc/$a/schedstat) - base_runs_a ))
stop_stat

# Per full interval: each sharer waits >= 35%, the lone spinner < 10%.
share() { # PID COLUMN: the smallest COLUMN / interval over full intervals
	awk -F, -v pid="$1" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		$(idx["pid"]) == pid && $(idx["interval_ns"]) > 9e8 {
			r = $(idx[col]) / $(idx["interval_ns"]); if (min == "" || r < min) min = r;
			if (r > max) max = r }
		END { printf "%.3f %.3f\n", min, max }' "$out"
}
read -r min_a _ <<<"$(share "$a" runq_wait_ns)"
read -r min_b _ <<<"$(share "$b" runq_wait_ns)"
read -r _ max_c <<<"$(share "$c" runq_wait_ns)"
check_ge "spinner A (sharing cpu1) waits >= 35% of every interval" "$min_a" 0.35
check_ge "spinner B (sharing cpu1) waits >= 35% of every interval" "$min_b" 0.35
if awk -v m="$max_c" 'BEGIN { exit !(m < 0.10) }'; then
	ok "the lone spinner on cpu0 waits < 10% ($max_c)"
else
	not_ok "the lone spinner on cpu0 waits < 10%" "max share $max_c"
fi
for p in "$a" "$b"; do
	invol=$(csv_sum "$out" invol_switches pid "$p")
	other=$(csv_sum "$out" preempted_by_other_cgroup pid "$p")
	check_ge "pid $p: involuntary switches seen" "$invol" 10
	check_ge "pid $p: most are preempted_by_other_cgroup ($other of $invol)" \
		"$(awk -v o="$other" -v i="$invol" 'BEGIN { printf "%.3f", o / i }')" 0.8
done
# The whole run (baseline to the end) against the kernel's run delay.
check_within "runq_wait_ns matches schedstat's run delay (field 2)" \
	"$(csv_sum "$out" runq_wait_ns pid "$a")" "$kern_a" 5
check_within "runq_waits matches schedstat's timeslices (field 3)" \
	"$(csv_sum "$out" runq_waits pid "$a")" "$kern_runs_a" 5
p99=$(csv_values "$out" runq_p99_ns pid "$a" | tail -1)
max=$(csv_values "$out" runq_max_ns pid "$a" | tail -1)
check_ge "runq_p99_ns is about a 4 ms turn (log2 bucket >= 2 ms)" "$p99" 2000000
check_ge "runq_max_ns >= runq_p99_ns" "$max" "$p99"

# The table's view of the same: --wide, --histogram and --preemptors.
"$CPULEDGER" stat -w --histogram --preemptors -p "$a,$b" -i 500ms -d 1s >"$TEST_TMP/t" 2>&1
check "--preemptors names both cgroups, each preempted by the other" bash -c \
	"grep -Eq '/clnoisy-a\.$$ +[0-9]+ +by .*/clnoisy-b\.$$ ' '$TEST_TMP/t' &&
	 grep -Eq '/clnoisy-b\.$$ +[0-9]+ +by .*/clnoisy-a\.$$ ' '$TEST_TMP/t'"
check "--histogram prints a distribution per process" grep -q "^pid $a (workload): run-queue waits" \
	"$TEST_TMP/t"
check "--wide shows the preemption columns" grep -q 'PROTHER' "$TEST_TMP/t"
kill "$a" "$b" "$c"

# 2. trace: each switch-out's prev_wait_ns adds up to the run delay too.
"$WORKLOAD" --pin 1 --forever &
track $!
start_waiting_workload --pin 1 --busy-ms 400 --slice-ms 3 --sleep-ms 1 --stop
pid=$WL_PID
base=$(schedstat_delay "$pid")
tout=$TEST_TMP/trace.csv
"$CPULEDGER" trace -f csv -p "$pid" >"$tout" 2>/dev/null &
tr=$!
track $tr
wait_until 10 file_has_lines "$tout" 1 && sleep 0.3
release_workload
wait_until 60 is_stopped "$pid" || not_ok "workload finished"
kern=$(( $(schedstat_delay "$pid") - base ))
sleep 0.3
kill -INT $tr
wait $tr
col=$(csv_col "$tout" prev_wait_ns)
waits=$(awk -F, -v pid="$pid" -v c="$col" '$3 == pid && $c != "" { s += $c } END { printf "%.0f", s }' "$tout")
check_within "trace: prev_wait_ns of its switch-outs adds up to schedstat's run delay" \
	"$waits" "$kern" 5

# 3. A writer of 128 MiB held in a 32 MiB memory cgroup.
memcg=$(memcg1_mount)
if [ -n "$memcg" ]; then
	mem=$memcg/clmem.$$
	mkdir "$mem" && on_cleanup "rmdir '$mem'"
	echo $((32 << 20)) >"$mem/memory.limit_in_bytes"
else
	root=$(cgroup2_mount)
	grep -qw memory "$root/cgroup.controllers" || skip_all "no memory controller"
	echo +memory >"$root/cgroup.subtree_control" 2>/dev/null
	make_cgroup2 clmem.$$ && mem=$CGROUP
	echo $((32 << 20)) >"$mem/memory.max"
fi
fifo=$TEST_TMP/go.mem
mkfifo "$fifo"
bash -c "echo \$\$ > '$mem/cgroup.procs'; read -r _ < '$fifo'; exec dd if=/dev/zero \
	of='$TEST_TMP/big' bs=1M count=128 status=none" &
writer=$!
track $writer
wait_until 5 test "$(cat /proc/$writer/comm 2>/dev/null)" = bash
mout=$TEST_TMP/mem.csv
start_stat_csv "$mout" -p "$writer" -i 500ms -e page-faults,page-allocs,reclaim-ns,reclaims
echo go >"$fifo"
wait $writer
sleep 0.6
stop_stat
pages=$(( (128 << 20) / $(getconf PAGESIZE) ))
allocs=$(csv_sum "$mout" page_allocs pid "$writer")
check_ge "page_allocs >= 90% of the pages written ($allocs of $pages)" "$allocs" $((pages * 9 / 10))
check_ge "reclaim_ns > 0, charged to the writer" "$(csv_sum "$mout" reclaim_ns pid "$writer")" 1
check_ge "reclaims counted" "$(csv_sum "$mout" reclaims pid "$writer")" 1
check_eq "charged to the writer's pid only" "$(csv_values "$mout" pid | sort -u)" "$writer"
check_eq "named dd" "$(csv_values "$mout" comm pid "$writer" | sort -u | tail -1)" dd

done_testing
