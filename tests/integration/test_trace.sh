#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# trace: the switch-outs of a controlled process are exactly its voluntary +
# involuntary switches (/proc/PID/status); filters in the kernel; losses
# counted in the text headers and at the end.
. "$(dirname "$0")/lib.sh"
need_root

cpu=$(( $(nproc) > 1 ? 1 : 0 ))
"$WORKLOAD" --pin "$cpu" --forever &
rival=$!
track $rival
start_waiting_workload --pin "$cpu" --busy-ms 500 --slice-ms 3 --sleep-ms 1 --stop
pid=$WL_PID
base_vol=$(status_field "$pid" voluntary_ctxt_switches)
base_invol=$(status_field "$pid" nonvoluntary_ctxt_switches)
base_oncpu=$(schedstat_oncpu "$pid")
out=$TEST_TMP/trace.csv
"$CPULEDGER" trace -f csv -p "$pid" -e page-faults,cpu-clock >"$out" 2>"$TEST_TMP/err" &
tr=$!
track $tr
wait_until 10 file_has_lines "$out" 1 && sleep 0.3
release_workload
wait_until 60 is_stopped "$pid" || not_ok "workload finished"
vol=$(( $(status_field "$pid" voluntary_ctxt_switches) - base_vol ))
invol=$(( $(status_field "$pid" nonvoluntary_ctxt_switches) - base_invol ))
oncpu=$(( $(schedstat_oncpu "$pid") - base_oncpu ))
sleep 0.3
kill -INT $tr
wait $tr
check_eq "trace exits 0 on SIGINT" "$?" 0
check_eq "csv header" "$(head -1 "$out")" \
	"time_ns,cpu,prev_pid,prev_tid,prev_comm,prev_state,next_pid,next_tid,next_comm,run_ns,prev_wait_ns,page_faults,cpu_clock"
outs=$(csv_rows "$out" prev_pid "$pid")
check_eq "switch-outs = voluntary + involuntary switches (/proc/PID/status)" "$outs" \
	"$((vol + invol))"
# Runnable when switched out (R+: preempted in the kernel; R: at a return to
# user space, as preempt=none kernels do) is what the kernel counts involuntary.
runnable=$(awk -F, -v pid="$pid" '$3 == pid && ($6 == "R+" || $6 == "R")' "$out" | wc -l)
check_eq "R/R+ switch-outs = involuntary switches" "$runnable" "$invol"
check_eq "switch-ins = switch-outs (it was stopped, not running)" \
	"$(csv_rows "$out" next_pid "$pid")" "$outs"
others=$(awk -F, -v pid="$pid" 'NR > 1 && $3 != pid && $7 != pid' "$out" | wc -l)
check_eq "-p: only switches in or out of the process" "$others" 0
# The run length of each switch-out, summed, is the process's on-CPU time.
runs=$(awk -F, -v pid="$pid" '$3 == pid { s += $10 } END { printf "%.0f", s }' "$out")
check_within "run_ns of its switch-outs adds up to schedstat" "$runs" "$oncpu" 3
c=$(csv_col "$out" cpu_clock)
cpuclk=$(awk -F, -v pid="$pid" -v c="$c" '$3 == pid && $c != "" { s += $c } END { printf "%.0f", s }' \
	"$out")
check_within "cpu-clock deltas at its switch-outs match run_ns" "$cpuclk" "$runs" 3
kill $rival

# --comm, in text: every line names the task on one side or the other.
name=cltr$RANDOM
"$WORKLOAD" --name "$name" --busy-ms 300 --slice-ms 1 --sleep-ms 1 &
wl=$!
track $wl
"$CPULEDGER" trace --comm "$name" -d 1s >"$TEST_TMP/t.txt" 2>"$TEST_TMP/err"
check_eq "trace -d 1s exits 0" "$?" 0
lines=$(grep -v -e '^TIME' -e '^#' "$TEST_TMP/t.txt")
check_ge "--comm: switches traced" "$(echo "$lines" | grep -c .)" 10
check_eq "--comm: every line involves it" "$(echo "$lines" | grep -vc "$name")" 0
check "text header says what was lost" grep -q '^TIME .*(lost 0)$' "$TEST_TMP/t.txt"
check "end report on stderr" grep -q 'switches written, 0 lost' "$TEST_TMP/err"

# JSON Lines.
"$CPULEDGER" trace -f json -d 300ms >"$TEST_TMP/t.jsonl" 2>/dev/null
check "json: objects with the documented keys" jq_ok -s 'length > 0 and all(.[]; has("time_ns")
	and has("cpu") and has("prev_pid") and has("prev_state") and has("next_comm")
	and has("run_ns"))' "$TEST_TMP/t.jsonl"

# A tiny ring buffer and a reader that stalls for a while (a full pipe):
# the kernel side drops, counts, and the text says so.
mkfifo "$TEST_TMP/slow"
(sleep 2; cat "$TEST_TMP/slow" >"$TEST_TMP/lossy.txt") &
reader=$!
"$CPULEDGER" trace --ring-size 4K --comm pingpong -o "$TEST_TMP/slow" 2>"$TEST_TMP/err" &
tr=$!
track $tr
sleep 0.5
"$WORKLOAD" --pingpong 30000 --name pingpong
sleep 2.5
# More switches after the storm: the headers that follow carry the losses.
"$WORKLOAD" --name pingpong --busy-ms 200 --slice-ms 1 --sleep-ms 1
sleep 0.5
kill -INT $tr
wait $tr
wait $reader
check "losses announced as they happen" grep -q '^# [0-9]* switch.* lost (ring buffer full)' \
	"$TEST_TMP/lossy.txt"
check "a later header carries the losses" grep -Eq '^TIME .*\(lost [1-9][0-9]*\)$' "$TEST_TMP/lossy.txt"
lost=$(grep -o 'written[^,]*, [0-9]* lost' "$TEST_TMP/err" | grep -o '[0-9]* lost' | cut -d' ' -f1)
check_ge "the end reports them" "$lost" 1
last=$(grep -o '[0-9]* so far' "$TEST_TMP/lossy.txt" | tail -1 | cut -d' ' -f1)
check_eq "the end agrees with the last announcement" "$lost" "$last"

done_testing
