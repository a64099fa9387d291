/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_EVENTS_H
#define CPULEDGER_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "cpuledger/abi.h"

/* Where an event's numbers come from. */
enum cl_event_source {
	CL_SRC_PERF,	/* a per-CPU perf counter read at each context switch */
	CL_SRC_TASK,	/* the kernel's own per-task accounting: exact and free */
	CL_SRC_SOFT,	/* a kernel tracepoint counted per CPU, read like a counter */
};

/* Which kernel per-task field(s) a task-sourced event is. */
enum cl_task_field {
	CL_TF_NONE,
	CL_TF_FAULTS,		/* min_flt + maj_flt */
	CL_TF_MIN_FLT,
	CL_TF_MAJ_FLT,
	CL_TF_SWITCHES,		/* nvcsw + nivcsw */
	CL_TF_MIGRATIONS,
	CL_TF_ONCPU,		/* sum_exec_runtime */
};

struct cl_event_def {
	const char *name;	/* perf's name */
	const char *alias;	/* perf's other name, or NULL */
	const char *title;	/* table header, at most 7 characters */
	uint32_t perf_type;
	uint64_t perf_config;
	enum cl_task_field task_field;	/* CL_TF_NONE: perf only */
	bool is_time;		/* counts nanoseconds */
	enum cl_slot_kind soft;	/* CL_SLOT_PERF unless a kernel tracepoint event */
	const char *tracepoints; /* soft: the tracepoints it needs, comma-separated */
};

enum cl_event_status {
	CL_EVENT_UNKNOWN,
	CL_EVENT_SUPPORTED,
	CL_EVENT_UNSUPPORTED,
};

/* One event the user asked for. */
struct cl_event {
	const struct cl_event_def *def;
	struct cl_event_def raw_def;	/* storage for rNNNN raw events */
	char name[32];			/* as the user wrote it, without modifiers */
	char column[40];		/* CSV/JSON name: '-' becomes '_' */
	enum cl_event_source source;
	enum cl_event_status status;
	int slot;			/* perf counter slot, -1 if none */
	int open_errno;			/* why it could not be opened */
};

#define CL_MAX_EVENTS 32

struct cl_event_set {
	struct cl_event events[CL_MAX_EVENTS];
	size_t count;
};

#define CL_DEFAULT_EVENTS "cycles,instructions,cache-misses,page-faults"

/*
 * Parses a comma-separated list of perf event names. NAME:perf forces the
 * perf counter path for events the kernel also counts per task. Returns 0,
 * -ENOENT for an unknown event (*bad names it), -EINVAL for a malformed
 * list or modifier, -E2BIG for too many events or counters, -EEXIST for a
 * duplicate.
 */
int cl_events_parse(const char *list, struct cl_event_set *set, const char **bad);

const struct cl_event_def *cl_event_lookup(const char *name);
/* The table of known events, for --list-events and doctor. */
const struct cl_event_def *cl_event_defs(size_t *count);

struct cl_event *cl_events_find(struct cl_event_set *set, const char *name);

/* Fills a perf_event_attr for counting @def on one CPU. */
void cl_event_attr(const struct cl_event_def *def, struct perf_event_attr *attr);

/* The value of a task-sourced event from the kernel's per-task values. */
uint64_t cl_task_field_value(enum cl_task_field field, const struct cl_values *values);

/* Human reason an event could not be opened, from its errno. */
const char *cl_event_open_reason(const struct cl_event *event);

#endif
