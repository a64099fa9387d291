/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_PREEMPTORS_H
#define CPULEDGER_PREEMPTORS_H

#include <stddef.h>
#include <stdint.h>

#include "cpuledger/abi.h"

/*
 * stat --preemptors: per interval, which cgroups took the CPU from which (the
 * kernel side counts involuntary switches per (victim cgroup, preemptor
 * cgroup) pair, cumulatively; this turns them into interval deltas and ranks
 * them). No I/O: fed through cl_preemptors_observe.
 */
#define CL_TOP_PREEMPTORS 3

struct cl_preemptor {
	uint64_t cgroup_id;
	uint64_t count;
};

struct cl_victim {
	uint64_t cgroup_id;
	uint64_t total;		/* involuntary switches to other cgroups, this interval */
	struct cl_preemptor top[CL_TOP_PREEMPTORS];
	size_t nr_top;
};

struct cl_preemptors;

struct cl_preemptors *cl_preemptors_new(void);
void cl_preemptors_free(struct cl_preemptors *p);
/* Starts an interval: the next observations are compared with the last ones. */
void cl_preemptors_begin(struct cl_preemptors *p);
/* One pair's cumulative count (a callback for cl_collector_preemptors). */
void cl_preemptors_observe(void *p, const struct cl_preempt_key *key, uint64_t count);
/*
 * Victims of the interval, most preempted first, each with its top
 * preemptors; valid until the next begin. Returns the number of victims.
 */
size_t cl_preemptors_rank(struct cl_preemptors *p, const struct cl_victim **victims);

#endif
