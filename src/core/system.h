/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_SYSTEM_H
#define CPULEDGER_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CL_BTF_PATH "/sys/kernel/btf/vmlinux"

/* Linux capability numbers (CAP_BPF and CAP_PERFMON are from 5.8). */
#define CL_CAP_SYS_ADMIN	21
#define CL_CAP_PERFMON		38
#define CL_CAP_BPF		39

bool cl_have_cap(int cap);
/*
 * Makes CAP_BPF and CAP_PERFMON effective when they are only permitted (a
 * binary with cap_bpf,cap_perfmon=p file capabilities): cpuledger then runs
 * and reports without needing them raised at exec.
 */
void cl_raise_bpf_caps(void);
/*
 * Can this process load tracing BPF and open per-CPU perf events? Root, or
 * CAP_BPF + CAP_PERFMON, or CAP_SYS_ADMIN (kernels before 5.8).
 */
bool cl_have_bpf_privileges(void);
bool cl_have_btf(void);

/* Does a process (thread group) with this PID exist? Sets *tgid to its tgid. */
int cl_process_exists(pid_t pid, pid_t *tgid);

/* Where the cgroup2 hierarchy is mounted, from /proc/self/mountinfo. */
int cl_cgroup2_mount(char *path, size_t size);
/* Is any cgroup v1 hierarchy mounted? */
bool cl_cgroup1_mounted(void);

#endif
