#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Without privileges: a clear message naming what is needed, exit 1. With
# CAP_BPF + CAP_PERFMON only (no root): it works, as the message promises.
. "$(dirname "$0")/lib.sh"
need_root
command -v setpriv >/dev/null || skip_all "setpriv (util-linux) not installed"

nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
"${nobody[@]}" "$CPULEDGER" stat -d 1s >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check_eq "as nobody: exit 1" "$?" 1
check_eq "as nobody: one line on stderr" "$(wc -l <"$TEST_TMP/err")" 1
check "as nobody: the message says root or CAP_BPF and CAP_PERFMON" \
	grep -q 'run as root, or grant CAP_BPF and CAP_PERFMON' "$TEST_TMP/err"
check_eq "as nobody: nothing on stdout" "$(cat "$TEST_TMP/out")" ""
"${nobody[@]}" "$CPULEDGER" doctor >"$TEST_TMP/out" 2>&1
check_eq "doctor as nobody: exit 1" "$?" 1
check "doctor as nobody: says privileges are not enough" grep -q '^privileges *NOT enough' "$TEST_TMP/out"

capped=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+bpf,+perfmon
	--ambient-caps=+bpf,+perfmon)
if "${capped[@]}" true 2>/dev/null; then
	"${capped[@]}" "$CPULEDGER" stat -f csv -i 300ms -d 700ms -e page-faults,cpu-clock \
		>"$TEST_TMP/out" 2>"$TEST_TMP/err"
	check_eq "CAP_BPF+CAP_PERFMON without root: exit 0" "$?" 0
	check_ge "CAP_BPF+CAP_PERFMON without root: rows" "$(csv_rows "$TEST_TMP/out")" 1
else
	echo "# kernel or setpriv without CAP_BPF/CAP_PERFMON: capability-only run not tried"
fi

done_testing
