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
 * The BPF session: loads the kernel side for one mode (stat, record, trace)
 * configured for the user's filters and events, opens the perf counters (and,
 * for record, the per-CPU ticks), and follows CPUs as they go offline and come
 * back, re-opening what the kernel turned off.
 *
 * stat: once per interval, cl_collector_pass() feeds a ledger with every
 * task's totals. record/trace: stream records arrive through the callback
 * whenever cl_collector_stream_consume() runs (its fd polls readable when the
 * kernel side has a batch).
 *
 * Library code: returns -errno and leaves a message in errmsg; prints nothing.
 */
typedef int (*cl_stream_fn)(void *ctx, const void *record, size_t size);

struct cl_collector_opts {
	enum cl_mode mode;
	const uint32_t *pids;	/* only these processes (tgids); NULL: all */
	size_t nr_pids;
	const char *comm;	/* only tasks (or processes) of this name; NULL: all */
	bool per_cpu;		/* stat --per-cpu */
	size_t max_preemptor_pairs;	/* stat --preemptors: bound of the pair map; 0: off */
	struct cl_cgroups *cgroups;	/* stat: name new cgroups into this; NULL: off */
	size_t max_tasks;	/* bound of the per-CPU task map */
	size_t exit_ring_bytes;	/* stat: power of two, at least a page */
	size_t stream_ring_bytes;	/* record/trace: power of two, at least a page */
	uint64_t slice_ns;	/* record: tick period */
	bool process_comm;	/* record: slices carry the process's name */
	struct cl_event_set *events;	/* perf events are probed and get slots */
	const char *sysfs_root;	/* "/sys" */
	cl_stream_fn on_record;	/* record/trace */
	void *record_ctx;
	unsigned int diag_level;	/* kernel-side diagnostics: 0 (none) or 1 */
	/* Receives each diagnostic (diag_level >= 1); NULL: counted only. */
	void (*on_diag)(void *ctx, const struct cl_diag_record *rec);
	void *diag_ctx;
};

struct cl_collector_stats {
	uint64_t bpf[CL_STAT_NR];	/* cumulative, from the kernel side */
	uint64_t flush_errors;		/* CPUs that could not be flushed */
	uint64_t iter_bad_bytes;	/* trailing bytes of a torn record (never expected) */
	uint64_t diag_records;		/* kernel-side diagnostics received */
};

/* What happened to a CPU; err is 0 or why re-opening its events failed. */
typedef void (*cl_cpu_change_fn)(void *ctx, unsigned int cpu, bool online, int err);

struct cl_collector;

int cl_collector_open(struct cl_collector **out, const struct cl_collector_opts *opts,
		      char *errmsg, size_t errmsg_size);
void cl_collector_close(struct cl_collector *collector);

/* stat: charges running tasks, then feeds @ledger one whole pass. */
int cl_collector_pass(struct cl_collector *collector, struct cl_ledger *ledger);
/* A cl_forget_fn for the ledger in per-CPU mode. */
void cl_collector_forget(void *collector, uint32_t tid, uint64_t start_ns);

/*
 * Re-reads which CPUs are online and follows every change: a CPU that went
 * offline has its counters and tick closed, one that came back has them
 * re-opened (the kernel leaves a CPU's perf events off for good once it goes
 * offline). Calls @fn for each change. Returns the number of changes.
 */
int cl_collector_sync_cpus(struct cl_collector *collector, cl_cpu_change_fn fn, void *ctx);

/*
 * stat: an fd that polls readable when exit records pile up (half the ring)
 * before the interval's end; cl_collector_drain_exits feeds them to @ledger.
 */
int cl_collector_exit_fd(const struct cl_collector *collector);
int cl_collector_drain_exits(struct cl_collector *collector, struct cl_ledger *ledger);

/* Takes in kernel-side diagnostics (each pass and stream consume do it too). */
void cl_collector_drain_diag(struct cl_collector *collector);

/* record/trace: an fd that polls readable when records wait; -1 otherwise. */
int cl_collector_stream_fd(const struct cl_collector *collector);
/* record/trace: hands every waiting record to the callback; count or -errno. */
int cl_collector_stream_consume(struct cl_collector *collector);
/* record/trace: stream records lost on each CPU so far ([nr_cpus]). */
int cl_collector_ring_drops(const struct cl_collector *collector, uint64_t *per_cpu);
/*
 * stat --preemptors: every (victim cgroup, preemptor cgroup) pair and its
 * cumulative count of involuntary switches, through @fn.
 */
int cl_collector_preemptors(struct cl_collector *collector,
			    void (*fn)(void *ctx, const struct cl_preempt_key *key, uint64_t count),
			    void *ctx);
/* A loaded BPF program's cost, as the kernel counts it (kernel.bpf_stats_enabled=1). */
struct cl_prog_stat {
	const char *name;
	uint64_t run_ns;
	uint64_t runs;
};

/* Fills up to @max programs' stats; returns how many. */
size_t cl_collector_prog_stats(const struct cl_collector *collector, struct cl_prog_stat *stats,
			       size_t max);
/* Is the kernel counting BPF run time (kernel.bpf_stats_enabled)? */
bool cl_bpf_stats_enabled(void);

/* record: ticks seen on each CPU so far ([nr_cpus]). */
int cl_collector_ticks(const struct cl_collector *collector, uint64_t *per_cpu);

void cl_collector_get_stats(const struct cl_collector *collector,
			    struct cl_collector_stats *stats);
unsigned int cl_collector_nr_cpus(const struct cl_collector *collector);
/* Does the kernel keep per-task run-queue delays (sched_info)? */
bool cl_collector_has_sched_info(const struct cl_collector *collector);
/* CPUs online as of the last sync. */
const struct cl_cpumask *cl_collector_online(const struct cl_collector *collector);

#endif
