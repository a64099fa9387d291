/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_STREAM_H
#define CPULEDGER_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/events.h"
#include "core/report.h"

/*
 * Columns of the streams (record's slices, trace's switches) and the cells of
 * one record, for the sinks (SQLite, CSV, JSON, text) to render the same way.
 */
enum cl_scol_kind {
	/* slices */
	CL_SCOL_START_NS,
	CL_SCOL_DURATION_NS,
	CL_SCOL_END,
	/* both */
	CL_SCOL_CPU,
	CL_SCOL_PID,
	CL_SCOL_TID,
	CL_SCOL_COMM,
	CL_SCOL_CGROUP_ID,
	/* switches */
	CL_SCOL_TIME_NS,
	CL_SCOL_PREV_PID,
	CL_SCOL_PREV_TID,
	CL_SCOL_PREV_COMM,
	CL_SCOL_PREV_STATE,
	CL_SCOL_NEXT_PID,
	CL_SCOL_NEXT_TID,
	CL_SCOL_NEXT_COMM,
	CL_SCOL_RUN_NS,
	CL_SCOL_PREV_WAIT_NS,
	CL_SCOL_EVENT,
};

struct cl_scolumn {
	enum cl_scol_kind kind;
	const char *name;
	const struct cl_event *event;	/* CL_SCOL_EVENT */
};

struct cl_stream_schema {
	enum cl_mode mode;
	struct cl_scolumn cols[24 + CL_MAX_EVENTS];
	size_t count;
	/* trace: CLOCK_REALTIME - CLOCK_MONOTONIC, to print Unix times */
	int64_t realtime_offset_ns;
};

void cl_stream_schema_build(struct cl_stream_schema *schema, enum cl_mode mode,
			    const struct cl_event_set *events);
/* The cell of @col in @record (a cl_slice_record or cl_switch_record). */
void cl_stream_cell(const struct cl_stream_schema *schema, const struct cl_scolumn *col,
		    const void *record, struct cl_cell *cell);
/* Is this a whole record of the schema's kind? */
bool cl_stream_record_valid(const struct cl_stream_schema *schema, const void *record,
			    size_t size);

/*
 * "R+" (preempted), "R", "S", "D", "T", "t", "X", "Z", "P", "I", as perf
 * shows the sched_switch tracepoint's prev_state.
 */
const char *cl_task_state_name(uint32_t state);

/* Every event read by a perf counter: streams have no per-task totals. */
void cl_events_use_perf(struct cl_event_set *events);

#endif
