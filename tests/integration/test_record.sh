#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# record: slices against the kernel's schedstat, one slice per tick for a
# spinner that never yields, the database after SIGINT and SIGKILL, and
# losses counted when the ring buffer is too small.
. "$(dirname "$0")/lib.sh"
need_root
command -v sqlite3 >/dev/null || skip_all "sqlite3 (the CLI) not installed"

cpu=$(( $(nproc) > 1 ? 1 : 0 ))
q() { sqlite3 -batch "$1" "$2"; }

# 1. Sum of a process's slices = its on-CPU time (schedstat), within 3%.
"$WORKLOAD" --pin "$cpu" --forever &
rival=$!
track $rival
start_waiting_workload --pin "$cpu" --busy-ms 600 --slice-ms 4 --sleep-ms 1 --stop
pid=$WL_PID
base=$(schedstat_oncpu "$pid")
db=$TEST_TMP/slices.db
"$CPULEDGER" record -o "$db" -p "$pid" -e page-faults,cpu-clock 2>"$TEST_TMP/err" &
rec=$!
track $rec
wait_until 10 test -s "$db" && sleep 0.3
release_workload
wait_until 60 is_stopped "$pid" || not_ok "workload finished"
kern=$(( $(schedstat_oncpu "$pid") - base ))
sleep 0.3
kill -INT $rec
wait $rec
check_eq "record exits 0 on SIGINT" "$?" 0
check_eq "database is intact after SIGINT" "$(q "$db" 'PRAGMA integrity_check')" ok
check_within "sum of slice durations matches schedstat" \
	"$(q "$db" "SELECT SUM(duration_ns) FROM slices WHERE pid = $pid")" "$kern" 3
check_eq "only the selected process" "$(q "$db" 'SELECT DISTINCT pid FROM slices')" "$pid"
check_eq "slices on the pinned CPU only" "$(q "$db" "SELECT DISTINCT cpu FROM slices")" "$cpu"
check_within "cpu-clock deltas add up to the slices' durations" \
	"$(q "$db" "SELECT SUM(cpu_clock) FROM slices")" \
	"$(q "$db" "SELECT SUM(duration_ns) FROM slices")" 3
check_ge "slices closed by switches (it slept and was preempted)" \
	"$(q "$db" "SELECT COUNT(*) FROM slices WHERE closed_by = 'switch'")" 100

# The database answers the questions it is for.
for key in cpuledger_version host kernel start_realtime_ns start_monotonic_ns slice_ns events \
	cpus_possible cpus_online lost_records slices end_realtime_ns; do
	check "meta has $key" test -n "$(q "$db" "SELECT value FROM meta WHERE key = '$key'")"
done
check_eq "meta slices = rows" "$(q "$db" "SELECT value FROM meta WHERE key = 'slices'")" \
	"$(q "$db" 'SELECT COUNT(*) FROM slices')"
check_eq "events table: page-faults supported" \
	"$(q "$db" "SELECT supported FROM events WHERE name = 'page-faults'")" 1
check_eq "cpus table: a row per possible CPU" "$(q "$db" 'SELECT COUNT(*) FROM cpus')" \
	"$(q "$db" "SELECT value FROM meta WHERE key = 'cpus_possible'")"
check "per-process queries use an index" bash -c \
	"sqlite3 '$db' 'EXPLAIN QUERY PLAN SELECT SUM(duration_ns) FROM slices WHERE pid = 1' | grep -q slices_by_pid"
check "per-CPU time-range queries use an index" bash -c \
	"sqlite3 '$db' 'EXPLAIN QUERY PLAN SELECT * FROM slices WHERE cpu = 0 AND start_ns > 5' | grep -q slices_by_cpu"
check "wall time from meta: slices start after start_realtime_ns" test \
	"$(q "$db" "SELECT COUNT(*) FROM slices, meta a, meta b WHERE a.key = 'start_monotonic_ns'
		AND b.key = 'start_realtime_ns' AND start_ns - a.value + b.value < b.value")" = 0

kill $rival

# 2. A pinned spinner that never yields: about one slice per 1 ms tick.
"$WORKLOAD" --pin "$cpu" --forever &
spin=$!
track $spin
db2=$TEST_TMP/spin.db
before=$(schedstat_oncpu "$spin")
"$CPULEDGER" record -o "$db2" -p "$spin" -d 2s 2>/dev/null
check_eq "record -d 2s exits 0" "$?" 0
ran_ms=$(( ($(schedstat_oncpu "$spin") - before) / 1000000 ))
kill $spin
# One slice per ms it ran (whatever else the machine was doing).
n=$(q "$db2" "SELECT COUNT(*) FROM slices")
check_within "a spinner gets one slice per ms it runs (2 s)" "$n" "$ran_ms" 10
check_within "the ticks close 1 ms slices" \
	"$(q "$db2" "SELECT AVG(duration_ns) FROM slices WHERE closed_by = 'tick'")" 1000000 10
check_eq "named after its process" "$(q "$db2" 'SELECT DISTINCT comm FROM slices')" workload

# --slice 250us: four times as many.
"$WORKLOAD" --pin "$cpu" --forever &
spin=$!
track $spin
before=$(schedstat_oncpu "$spin")
"$CPULEDGER" record -o "$TEST_TMP/q.db" -p "$spin" -d 1s --slice 250us 2>/dev/null
ran_us=$(( ($(schedstat_oncpu "$spin") - before) / 1000 ))
kill $spin
check_within "--slice 250us: one slice per 250 us it runs" \
	"$(q "$TEST_TMP/q.db" "SELECT COUNT(*) FROM slices")" $((ran_us / 250)) 10
check_eq "meta slice_ns" "$(q "$TEST_TMP/q.db" "SELECT value FROM meta WHERE key = 'slice_ns'")" 250000

# 3. SIGKILL: the database opens and holds every committed batch.
db3=$TEST_TMP/killed.db
"$WORKLOAD" --forever --slice-ms 1 --sleep-ms 1 &
track $!
"$CPULEDGER" record -o "$db3" 2>/dev/null &
rec=$!
sleep 1.5
kill -KILL $rec
wait $rec 2>/dev/null
check_eq "after SIGKILL: integrity ok" "$(q "$db3" 'PRAGMA integrity_check')" ok
check_ge "after SIGKILL: committed slices are there" "$(q "$db3" 'SELECT COUNT(*) FROM slices')" 100
check_ge "after SIGKILL: meta is there" "$(q "$db3" 'SELECT COUNT(*) FROM meta')" 10
# An existing database is kept aside, not overwritten.
"$CPULEDGER" record -o "$db3" -d 200ms 2>"$TEST_TMP/err"
check "an existing database is kept as .old" test -s "$db3.old"
check "and the new one is complete" test "$(q "$db3" 'PRAGMA integrity_check')" = ok

# 4. A tiny ring buffer under a storm of switches: losses counted, per CPU.
db4=$TEST_TMP/lossy.db
"$CPULEDGER" record -o "$db4" --ring-size 4K --comm pingpong -e cpu-clock 2>"$TEST_TMP/err" &
rec=$!
track $rec
wait_until 10 test -s "$db4" && sleep 0.3
(exec -a pingpong "$WORKLOAD" --pingpong 30000 --name pingpong)
kill -INT $rec
wait $rec
lost=$(q "$db4" "SELECT value FROM meta WHERE key = 'lost_records'")
check_ge "tiny ring buffer: losses counted" "$lost" 1
check_eq "meta lost_records = sum over CPUs" "$lost" "$(q "$db4" 'SELECT SUM(lost_records) FROM cpus')"
check "the end says how many were lost" grep -q "slices written to .*, $lost lost" "$TEST_TMP/err"
check_ge "still, slices were written" "$(q "$db4" 'SELECT COUNT(*) FROM slices')" 1

# 5. -f csv: the same rows, on stdout.
"$WORKLOAD" --pin "$cpu" --forever &
spin=$!
track $spin
before=$(schedstat_oncpu "$spin")
"$CPULEDGER" record -f csv -p "$spin" -d 500ms -e page-faults >"$TEST_TMP/s.csv" 2>/dev/null
ran_ms=$(( ($(schedstat_oncpu "$spin") - before) / 1000000 ))
kill $spin
check_eq "csv header" "$(head -1 "$TEST_TMP/s.csv")" \
	"start_ns,duration_ns,cpu,pid,tid,comm,cgroup_id,closed_by,page_faults"
check_within "csv: one slice per ms it runs" "$(csv_rows "$TEST_TMP/s.csv")" "$ran_ms" 10

done_testing
