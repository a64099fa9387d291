/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_COLLECTOR_H
#define CPULEDGER_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpus.h"
#include "core/events.h"
#include "core/ledger.h"
#include "core/perf.h"

/*
 * The BPF session behind `stat`: loads the kernel side configured for the
 * user's filters and events, opens the perf counters, and once per interval
 * feeds a ledger with every task's totals (one iterator pass, the exit ring
 * buffer, and per-CPU totals in per-CPU mode). Library code: returns -errno
 * and leaves a message in errmsg; prints nothing.
 */
struct cl_collector_opts {
	const uint32_t *pids;	/* only these processes (tgids); NULL: all */
	size_t nr_pids;
	const char *comm;	/* only tasks (or processes) of this name; NULL: all */
	bool per_cpu;
	size_t max_tasks;	/* bound of the per-CPU task map */
	size_t exit_ring_bytes;	/* power of two, at least a page */
	struct cl_event_set *events;	/* perf events are probed and get slots */
	const char *sysfs_root;	/* "/sys" */
};

struct cl_collector_stats {
	uint64_t bpf[CL_STAT_NR];	/* cumulative, from the kernel side */
	uint64_t flush_errors;		/* CPUs that could not be flushed */
	uint64_t iter_bad_bytes;	/* trailing bytes of a torn record (never expected) */
};

struct cl_collector;

int cl_collector_open(struct cl_collector **out, const struct cl_collector_opts *opts,
		      char *errmsg, size_t errmsg_size);
void cl_collector_close(struct cl_collector *collector);

/* Charges running tasks, then feeds @ledger one whole pass. */
int cl_collector_pass(struct cl_collector *collector, struct cl_ledger *ledger);
/* A cl_forget_fn for the ledger in per-CPU mode. */
void cl_collector_forget(void *collector, uint32_t tid, uint64_t start_ns);

void cl_collector_get_stats(const struct cl_collector *collector,
			    struct cl_collector_stats *stats);
unsigned int cl_collector_nr_cpus(const struct cl_collector *collector);
/* CPUs online as of the last pass (re-read from sysfs each pass). */
const struct cl_cpumask *cl_collector_online(const struct cl_collector *collector);

#endif
