/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_REPORT_H
#define CPULEDGER_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/containers.h"
#include "core/events.h"
#include "core/htab.h"
#include "core/ledger.h"

/*
 * What an interval report is made of: a schema (the columns, fixed for the
 * run), rows (per-interval sums at the chosen level) and the interval itself.
 * Sinks render these; they never compute values themselves.
 */
enum cl_col_kind {
	CL_COL_TIME_NS,
	CL_COL_INTERVAL_NS,
	CL_COL_PID,
	CL_COL_TID,
	CL_COL_COMM,
	CL_COL_CGROUP_ID,
	CL_COL_CPU,
	CL_COL_ONCPU_NS,
	CL_COL_VOL_SWITCHES,
	CL_COL_INVOL_SWITCHES,
	CL_COL_EVENT,		/* one of the user's events */
	CL_COL_RATIO,		/* derived: num / den of two events */
	CL_COL_VALUE,		/* a value as it is: v[col->value] */
	CL_COL_RUNQ_MAX,	/* longest run-queue wait (not per CPU) */
	CL_COL_RUNQ_PCT,	/* run-queue wait percentile col->pct, from the histogram */
	CL_COL_CGROUP,		/* cgroup path, relative to the cgroup2 mount */
	CL_COL_CONTAINER_ID,
	CL_COL_CONTAINER_RUNTIME,
	CL_COL_POD_UID,
};

struct cl_column {
	enum cl_col_kind kind;
	const char *name;	/* CSV header and JSON key */
	const char *title;	/* table header */
	const struct cl_event *event;		/* CL_COL_EVENT */
	const struct cl_event *num, *den;	/* CL_COL_RATIO */
	bool is_time;		/* nanoseconds: the table shows ms/s */
	bool is_id;		/* identifies the row: sorts ascending */
	bool wide;		/* in the table only with --wide */
	bool shares_after;	/* the table prints %CPU and %RUNQ after this column */
	bool runq;		/* needs the kernel's sched_info */
	bool unsupported;	/* this kernel cannot say: empty cells */
	enum cl_value value;	/* CL_COL_VALUE */
	unsigned int pct;	/* CL_COL_RUNQ_PCT */
};

#define CL_MAX_COLUMNS (16 + CL_MAX_EVENTS)

enum cl_row_level {
	CL_BY_PROCESS,
	CL_BY_THREAD,
	CL_BY_CGROUP,
	CL_BY_CONTAINER,	/* falls back to the cgroup outside containers */
	CL_BY_POD,		/* falls back to the cgroup outside pods */
};

struct cl_schema {
	struct cl_column cols[CL_MAX_COLUMNS];
	size_t count;
	enum cl_row_level level;
	bool threads;
	bool per_cpu;
	bool wide;		/* the table shows every column */
};

int cl_schema_build(struct cl_schema *schema, const struct cl_event_set *events, bool threads,
		    bool per_cpu);
/* The same for any level: cgroup/container/pod rows have no pid or comm. */
int cl_schema_build_by(struct cl_schema *schema, const struct cl_event_set *events,
		       enum cl_row_level level, bool per_cpu);
/* "thread", "process", "cgroup", "container", "pod" -> level; -1 if unknown. */
int cl_row_level_parse(const char *name);
/* Index of the column named @name, or -1. */
int cl_schema_find(const struct cl_schema *schema, const char *name);

#define CL_CGROUP_PATH_MAX 256

struct cl_row {
	struct cl_hnode node;
	uint32_t pid;
	uint32_t tid;
	int32_t cpu;
	uint64_t start_ns;	/* identity: the thread's or the process leader's */
	uint64_t cgroup_id;
	char comm[CL_COMM_LEN];
	struct cl_values v;	/* deltas summed over the interval */
	/* cgroup/container/pod rows */
	char cgroup[CL_CGROUP_PATH_MAX];
	char container_id[CL_CONTAINER_ID_LEN + 1];
	const char *container_runtime;
	char pod_uid[CL_POD_UID_LEN + 1];
};

struct cl_interval {
	uint64_t time_ns;	/* CLOCK_REALTIME at the interval's end */
	uint64_t interval_ns;
	unsigned int cpus_online;
	unsigned int cpus_possible;
	uint64_t lost_exits;	/* exit records lost (ring buffer full) */
	uint64_t untracked;	/* tasks not tracked: --max-tasks reached */
	uint64_t map_full;	/* per-CPU mode: task map full */
	uint64_t rows_cut;	/* rows beyond --top */
	bool final;		/* cut short by a signal or the end of --duration */
	const char *note;	/* the table prints it under the banner; NULL: none */
};

struct cl_cgroups;

struct cl_rows {
	struct cl_htab htab;
	struct cl_cgroups *cgroups;	/* cgroup/container/pod levels: names */
	enum cl_row_level level;
	bool per_cpu;
	bool keep_idle;		/* rows with all-zero deltas too (explicit filters) */
	size_t max_rows;
	uint64_t overflow;	/* deltas dropped: max_rows reached (cumulative) */
	struct cl_row **sorted;
	size_t nr_sorted;
};

int cl_rows_init(struct cl_rows *rows, enum cl_row_level level, bool per_cpu, size_t max_rows);
void cl_rows_free(struct cl_rows *rows);
/* A cl_delta_fn: charges one task's delta to its row. */
void cl_rows_add(void *rows, const struct cl_task_meta *meta, int cpu,
		 const struct cl_values *delta);
/*
 * Sorts the interval's rows by column @sort_col into rows->sorted (idle rows
 * left out unless keep_idle). Returns the number of rows.
 */
size_t cl_rows_sort(struct cl_rows *rows, const struct cl_schema *schema, int sort_col);
/* Empties the rows for the next interval. */
void cl_rows_reset(struct cl_rows *rows);

enum cl_cell_type {
	CL_CELL_NULL,	/* unsupported or undefined: empty, null, "-" */
	CL_CELL_U64,
	CL_CELL_I64,
	CL_CELL_F64,
	CL_CELL_STR,
};

struct cl_cell {
	enum cl_cell_type type;
	union {
		uint64_t u;
		int64_t i;
		double f;
		const char *s;
	};
};

void cl_cell_get(const struct cl_column *col, const struct cl_row *row,
		 const struct cl_interval *interval, struct cl_cell *cell);

/*
 * The @pct percentile (0..100) of the run-queue waits in a log2 histogram
 * (CL_RUNQ_HIST_BUCKETS buckets), interpolated within its bucket; false when
 * the histogram is empty.
 */
bool cl_runq_percentile(const __u64 *hist, unsigned int pct, uint64_t *ns);

#endif
