/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Shims for kernel struct changes, one per change, each citing it. CO-RE
 * relocations pick the right field at load time; no version checks.
 */
#ifndef CPULEDGER_CORE_FIXES_BPF_H
#define CPULEDGER_CORE_FIXES_BPF_H

#include <bpf/bpf_core_read.h>

/* Scheduler task states (include/linux/sched.h); macros, so not in BTF. */
#define CL_TASK_RUNNING	0x00000000
#define CL_TASK_DEAD	0x00000080
#define CL_PF_KTHREAD	0x00200000

/*
 * Kernel 5.14 (2f064a59a11f, "sched: Change task_struct::state") renamed
 * task_struct::state to __state and made it unsigned int.
 */
struct task_struct___pre_5_14 {
	long int state;
} __attribute__((preserve_access_index));

/*
 * Every program here gets task_struct as a BTF pointer (tp_btf arguments,
 * bpf_get_current_task_btf(), the task iterator), so fields are plain loads
 * the verifier turns into fault-safe ones: no bpf_probe_read_kernel() call on
 * the context-switch path.
 */
static __always_inline unsigned int get_task_state(struct task_struct *task)
{
	struct task_struct___pre_5_14 *old = (void *)task;

	if (bpf_core_field_exists(task->__state))
		return task->__state;
	return (unsigned int)old->state;
}

/*
 * Kernel 5.5 (67c0496e87d1, "kernfs: convert kernfs_node->id from union
 * kernfs_node_id to u64") made kn->id the 64-bit cgroup id that
 * bpf_get_current_cgroup_id() and name_to_handle_at() on cgroupfs report.
 * Older kernels are below cpuledger's floor (task storage, 5.11).
 */
static __always_inline __u64 get_task_cgroup_id(struct task_struct *task)
{
	return task->cgroups->dfl_cgrp->kn->id;
}

/*
 * sched_info (run_delay, pcount) exists only with CONFIG_SCHED_INFO; without
 * it the run-queue values read as 0 and userspace reports them unsupported.
 */
static __always_inline bool have_sched_info(void)
{
	return bpf_core_field_exists(((struct task_struct *)0)->sched_info);
}

#endif /* CPULEDGER_CORE_FIXES_BPF_H */
