#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# CPU hotplug for real: a CPU's perf events stay off after it goes offline
# and comes back, unless re-opened. cpuledger must keep counting on it, in
# stat, record and trace, also when it starts with the CPU offline, and 20
# rapid cycles must not leak descriptors or memory. The CPU is brought back
# online by the cleanup trap whatever happens.
. "$(dirname "$0")/lib.sh"
need_root

cpu=
for f in /sys/devices/system/cpu/cpu[1-9]*/online; do
	[ -w "$f" ] && [ "$(cat "$f")" = 1 ] && { cpu=${f%/online}; cpu=${cpu##*cpu}; break; }
done
[ -n "$cpu" ] || skip_all "no CPU besides cpu0 can be taken offline here"
online_file=/sys/devices/system/cpu/cpu$cpu/online
on_cleanup "echo 1 > $online_file"
offline() { echo 0 >"$online_file"; }
online() { echo 1 >"$online_file"; }
repin() { taskset -a -p -c "$cpu" "$1" >/dev/null; }

# per_cpu_rate FILE COLUMN CPU FROM TO: mean of COLUMN / interval over rows on CPU
# whose interval ended in [FROM, TO] (seconds since the first row).
per_cpu_rate() {
	awk -F, -v col="$2" -v cpu="$3" -v from="$4" -v to="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		!t0 { t0 = $(idx["time_ns"]) }
		{ t = ($(idx["time_ns"]) - t0) / 1e9 }
		$(idx["cpu"]) == cpu && t >= from && t <= to {
			s += $(idx[col]) / ($(idx["interval_ns"]) / 1e9); n++ }
		END { if (n) printf "%.0f\n", s / n }' "$1"
}

# 1. stat: page faults counted by perf on the CPU continue at the same rate
# after an offline/online cycle, and add up to the kernel's own count.
"$WORKLOAD" --pin "$cpu" --forever --pages 1000000000 &
spin=$!
track $spin
out=$TEST_TMP/stat.csv
start_stat_csv "$out" --per-cpu -p "$spin" -i 250ms -e page-faults,page-faults:perf,cpu-clock
sleep 1.6
offline
sleep 0.6
online
repin $spin
sleep 1.6
stop_stat
check "stat logs the CPU going offline" grep -q "cpu$cpu went offline" "$out.err"
check "stat logs the CPU coming back" grep -q "cpu$cpu came online: its counters are re-opened" \
	"$out.err"
before=$(per_cpu_rate "$out" page_faults_perf "$cpu" 0.3 1.5)
after=$(per_cpu_rate "$out" page_faults_perf "$cpu" 2.9 3.8)
check_ge "page faults counted on cpu$cpu before the cycle" "${before:-0}" 1000
check_within "page-fault rate on cpu$cpu after the cycle = before" "${after:-0}" "$before" 25
check_within "perf-counted faults add up to the kernel's count across the cycle" \
	"$(csv_sum "$out" page_faults_perf)" "$(csv_sum "$out" page_faults)" 2
check_within "cpu-clock on cpu$cpu after the cycle = on-CPU time there" \
	"$(per_cpu_rate "$out" cpu_clock "$cpu" 2.9 3.8)" "$(per_cpu_rate "$out" oncpu_ns "$cpu" 2.9 3.8)" 3
kill $spin

# 2. record: slices on the CPU continue at one per ms, counters in them too.
"$WORKLOAD" --pin "$cpu" --forever --pages 1000000000 &
spin=$!
track $spin
db=$TEST_TMP/rec.db
"$CPULEDGER" record -o "$db" -p "$spin" -e page-faults 2>"$TEST_TMP/rec.err" &
rec=$!
track $rec
wait_until 10 test -s "$db" && sleep 1
offline
sleep 0.6
online
repin $spin
sleep 1.5
kill -INT $rec
wait $rec
check_eq "record exits 0" "$?" 0
q() { sqlite3 -batch "$db" "$1"; }
t_on=$(q "SELECT time_ns FROM hotplug WHERE online = 1")
check_eq "hotplug table: offline and online" "$(q 'SELECT COUNT(*) FROM hotplug')" 2
n=$(q "SELECT COUNT(*) FROM slices WHERE cpu = $cpu AND start_ns > $t_on + 300000000
	AND start_ns < $t_on + 1300000000")
check_within "slices on cpu$cpu after the cycle: one per ms" "$n" 1000 10
check_ge "page faults in those slices" "$(q "SELECT SUM(page_faults) FROM slices WHERE cpu = $cpu
	AND start_ns > $t_on + 300000000")" 1000
check "record logs the tick re-opened" grep -q "cpu$cpu came online: its counters and tick are re-opened" \
	"$TEST_TMP/rec.err"
kill $spin

# 3. trace: switches on the CPU still carry counter deltas after a cycle.
"$WORKLOAD" --pin "$cpu" --forever --slice-ms 2 --sleep-ms 1 &
sleeper=$!
track $sleeper
out=$TEST_TMP/trace.csv
"$CPULEDGER" trace -f csv -p "$sleeper" -e cpu-clock >"$out" 2>"$TEST_TMP/tr.err" &
tr=$!
track $tr
sleep 1
offline
sleep 0.5
online
repin $sleeper
sleep 0.3
mark=$(wc -l <"$out")
sleep 1
kill -INT $tr
wait $tr
c=$(csv_col "$out" cpu_clock)
late=$(tail -n +"$((mark + 1))" "$out" | awk -F, -v cpu="$cpu" -v pid="$sleeper" -v c="$c" \
	'$2 == cpu && $3 == pid && $c != "" && $c > 0' | wc -l)
check_ge "trace: switch-outs on cpu$cpu after the cycle carry cpu-clock deltas" "$late" 100
kill $sleeper

# 4. Starting with the CPU offline: picked up when it comes online.
offline
"$WORKLOAD" --forever --pages 1000000000 &
spin=$!
track $spin
out=$TEST_TMP/late.csv
start_stat_csv "$out" --per-cpu -p "$spin" -i 250ms -e page-faults,page-faults:perf
db=$TEST_TMP/late.db
"$CPULEDGER" record -o "$db" -p "$spin" -e page-faults 2>/dev/null &
rec=$!
track $rec
sleep 0.8
online
repin $spin
sleep 1.6
stop_stat
kill -INT $rec
wait $rec
rate=$(per_cpu_rate "$out" page_faults_perf "$cpu" 1.3 2.3)
kern=$(per_cpu_rate "$out" page_faults "$cpu" 1.3 2.3)
check_ge "started offline: faults counted on cpu$cpu once it is online" "${rate:-0}" 1000
check_within "started offline: at the kernel's rate" "${rate:-0}" "$kern" 5
check_ge "started offline: record slices on cpu$cpu" \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM slices WHERE cpu = $cpu")" 1000
kill $spin

# 5. 20 rapid cycles: no descriptors or memory left behind. record selects
# no task, so its memory is the hotplug handling's, not SQLite's cache.
"$WORKLOAD" --forever --slice-ms 1 --sleep-ms 1 &
track $!
"$CPULEDGER" record -o "$TEST_TMP/cycles.db" --comm no-such-task -e page-faults,cpu-clock \
	2>/dev/null &
rec=$!
track $rec
"$CPULEDGER" stat -f csv -i 100ms -e page-faults:perf,cpu-clock >/dev/null 2>&1 &
st=$!
track $st
sleep 1
fds_rec=$(ls /proc/$rec/fd | wc -l)
fds_st=$(ls /proc/$st/fd | wc -l)
rss_rec=$(status_field $rec VmRSS)
rss_st=$(status_field $st VmRSS)
for i in $(seq 20); do
	offline
	sleep 0.05
	online
	sleep 0.05
done
sleep 1
check_eq "record: no descriptor left behind after 20 cycles" "$(ls /proc/$rec/fd | wc -l)" "$fds_rec"
check_eq "stat: no descriptor left behind after 20 cycles" "$(ls /proc/$st/fd | wc -l)" "$fds_st"
grow_rec=$(( $(status_field $rec VmRSS) - rss_rec ))
grow_st=$(( $(status_field $st VmRSS) - rss_st ))
if [ "$grow_rec" -lt 1024 ] && [ "$grow_st" -lt 1024 ]; then
	ok "no memory growth after 20 cycles (record +${grow_rec} kB, stat +${grow_st} kB)"
else
	not_ok "no memory growth after 20 cycles" "record +${grow_rec} kB, stat +${grow_st} kB"
fi
kill -INT $rec $st
wait $rec
check_eq "record still exits 0 after the cycles" "$?" 0
check_eq "record saw 40 hotplug events" \
	"$(sqlite3 "$TEST_TMP/cycles.db" "SELECT value FROM meta WHERE key = 'hotplug_events'")" 40

done_testing
