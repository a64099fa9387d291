/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_LEDGER_H
#define CPULEDGER_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuledger/abi.h"

/*
 * The ledger turns cumulative per-task totals (what the kernel side reports)
 * into per-interval deltas. It remembers each task's last totals, keyed by
 * (tid, start time) so a recycled tid is a new task, and hands every delta to
 * a callback. It does no I/O: the collector feeds it, so it is unit-tested
 * with synthetic records.
 */
struct cl_task_meta {
	uint32_t tid;
	uint32_t tgid;
	uint64_t start_ns;
	uint64_t leader_start_ns;
	uint64_t cgroup_id;
	uint64_t leader_cgroup_id;
	uint32_t flags;
	char comm[CL_COMM_LEN];
	char leader_comm[CL_COMM_LEN];
};

/* @cpu is -1 unless the ledger runs per CPU. */
typedef void (*cl_delta_fn)(void *ctx, const struct cl_task_meta *meta, int cpu,
			    const struct cl_values *delta);
/* Per-CPU mode: the ledger forgot a task; drop its kernel-side entry too. */
typedef void (*cl_forget_fn)(void *ctx, uint32_t tid, uint64_t start_ns);

struct cl_ledger_opts {
	size_t max_tasks;	/* tasks remembered; beyond it, counted as untracked */
	unsigned int nr_cpus;	/* per-CPU mode: possible CPUs */
	bool per_cpu;
	/*
	 * CLOCK_MONOTONIC ns when collection began. A task first seen later
	 * but born after this is counted from zero (everything it did was
	 * while we watched); one born before is counted from its first
	 * sighting.
	 */
	uint64_t start_ns;
	cl_delta_fn on_delta;
	void *delta_ctx;
	cl_forget_fn on_forget;	/* per-CPU mode; may be NULL */
	void *forget_ctx;
};

struct cl_ledger_stats {
	uint64_t tasks;		/* remembered now */
	uint64_t untracked;	/* observations dropped: max_tasks reached (cumulative) */
	uint64_t late;		/* first seen long after birth: counted from then */
	uint64_t exited;	/* exit records applied */
	uint64_t vanished;	/* forgotten without an exit record */
};

struct cl_ledger;

struct cl_ledger *cl_ledger_new(const struct cl_ledger_opts *opts);
void cl_ledger_free(struct cl_ledger *ledger);

/* The first pass only records baselines; later ones report deltas. */
void cl_ledger_begin_pass(struct cl_ledger *ledger);
/*
 * A task record (iterator or exit). In per-CPU mode only its identity is
 * used; the values come through cl_ledger_observe_percpu.
 */
void cl_ledger_observe(struct cl_ledger *ledger, const struct cl_task_record *rec);
/* Per-CPU mode: @per_cpu[nr_cpus] totals charged on each CPU since load. */
void cl_ledger_observe_percpu(struct cl_ledger *ledger, uint32_t tid, uint64_t start_ns,
			      const struct cl_values *per_cpu);
/* Forgets exited tasks and tasks unseen for two passes. */
void cl_ledger_end_pass(struct cl_ledger *ledger);

/* Does the ledger remember any task of process @tgid? */
bool cl_ledger_has_process(const struct cl_ledger *ledger, uint32_t tgid);

void cl_ledger_get_stats(const struct cl_ledger *ledger, struct cl_ledger_stats *stats);

/*
 * delta = cur - last per value; a value that went backwards contributes 0.
 * CL_V_RUNQ_MAX_NS is a gauge (the kernel side resets it when read): its
 * delta is its value, and adding keeps the maximum.
 */
void cl_values_delta(const struct cl_values *cur, const struct cl_values *last,
		     struct cl_values *delta);
bool cl_values_zero(const struct cl_values *values);
void cl_values_add(struct cl_values *sum, const struct cl_values *add);

#endif
