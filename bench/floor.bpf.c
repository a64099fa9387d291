// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The floor of the per-switch benchmark: an empty tp_btf/sched_switch
 * program. What it costs is what any BPF tool pays per context switch before
 * it does anything (the trampoline into the program and back).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("tp_btf/sched_switch")
int floor_switch(u64 *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
