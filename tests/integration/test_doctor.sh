#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# doctor reports the machine line by line and agrees with sysfs.
. "$(dirname "$0")/lib.sh"
need_root

"$CPULEDGER" doctor >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check_eq "doctor exits 0 here" "$?" 0
for what in kernel btf privileges tracepoint cpus cgroup bpf verdict; do
	check "doctor has a '$what' line" grep -q "^$what " "$TEST_TMP/out"
done
check "kernel line shows uname -r" grep -q "$(uname -r)" "$TEST_TMP/out"
check "online CPUs as sysfs says" grep -q "online $(cat /sys/devices/system/cpu/online) " "$TEST_TMP/out"
check "each default event has a line" bash -c \
	"for e in cycles instructions cache-misses page-faults; do grep -q \"^  \$e \\*\" '$TEST_TMP/out' || exit 1; done"
mnt=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -1)
if [ -n "$mnt" ]; then
	check "cgroup2 mount found where mountinfo says ($mnt)" grep -q "^cgroup *v2 at $mnt " "$TEST_TMP/out"
fi
check "verdict: can run" grep -q '^verdict *cpuledger can run here' "$TEST_TMP/out"

done_testing
