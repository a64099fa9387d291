// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>

#include "core/stream.h"

static void add(struct cl_stream_schema *schema, enum cl_scol_kind kind, const char *name)
{
	struct cl_scolumn *col = &schema->cols[schema->count++];

	col->kind = kind;
	col->name = name;
	col->event = NULL;
}

void cl_stream_schema_build(struct cl_stream_schema *schema, enum cl_mode mode,
			    const struct cl_event_set *events)
{
	memset(schema, 0, sizeof(*schema));
	schema->mode = mode;
	if (mode == CL_MODE_RECORD) {
		add(schema, CL_SCOL_START_NS, "start_ns");
		add(schema, CL_SCOL_DURATION_NS, "duration_ns");
		add(schema, CL_SCOL_CPU, "cpu");
		add(schema, CL_SCOL_PID, "pid");
		add(schema, CL_SCOL_TID, "tid");
		add(schema, CL_SCOL_COMM, "comm");
		add(schema, CL_SCOL_CGROUP_ID, "cgroup_id");
		add(schema, CL_SCOL_END, "closed_by");
	} else {
		add(schema, CL_SCOL_TIME_NS, "time_ns");
		add(schema, CL_SCOL_CPU, "cpu");
		add(schema, CL_SCOL_PREV_PID, "prev_pid");
		add(schema, CL_SCOL_PREV_TID, "prev_tid");
		add(schema, CL_SCOL_PREV_COMM, "prev_comm");
		add(schema, CL_SCOL_PREV_STATE, "prev_state");
		add(schema, CL_SCOL_NEXT_PID, "next_pid");
		add(schema, CL_SCOL_NEXT_TID, "next_tid");
		add(schema, CL_SCOL_NEXT_COMM, "next_comm");
		add(schema, CL_SCOL_RUN_NS, "run_ns");
		add(schema, CL_SCOL_PREV_WAIT_NS, "prev_wait_ns");
	}
	for (size_t i = 0; i < events->count; i++) {
		add(schema, CL_SCOL_EVENT, events->events[i].column);
		schema->cols[schema->count - 1].event = &events->events[i];
	}
}

bool cl_stream_record_valid(const struct cl_stream_schema *schema, const void *record,
			    size_t size)
{
	if (schema->mode == CL_MODE_RECORD) {
		const struct cl_slice_record *slice = record;

		return size >= sizeof(*slice) && slice->kind == CL_REC_SLICE &&
		       slice->nr_counters <= CL_MAX_COUNTERS &&
		       size >= sizeof(*slice) + slice->nr_counters * sizeof(__u64);
	}
	const struct cl_switch_record *sw = record;

	return size >= sizeof(*sw) && sw->kind == CL_REC_SWITCH &&
	       sw->nr_counters <= CL_MAX_COUNTERS &&
	       size >= sizeof(*sw) + sw->nr_counters * sizeof(__u64);
}

const char *cl_task_state_name(uint32_t state)
{
	/* TASK_REPORT bits R..P, as kernel/sched's __task_state_index() maps them. */
	static const char *const names[] = { "S", "D", "T", "t", "X", "Z", "P" };
	uint32_t report;
	int bit;

	if (state & CL_STATE_PREEMPTED)
		return "R+";
	if (state == 0x0402) /* TASK_IDLE = TASK_UNINTERRUPTIBLE | TASK_NOLOAD */
		return "I";
	report = state & 0x7f;
	/* TASK_RTLOCK_WAIT and TASK_FROZEN read as uninterruptible; TASK_DEAD as X. */
	if (state & (0x1000 | 0x8000))
		report |= 0x02;
	if (state & 0x80)
		report |= 0x10;
	if (!report)
		return state ? "?" : "R";
	bit = 31 - __builtin_clz(report); /* the highest bit, like fls() */
	return names[bit];
}

static void event_cell(const struct cl_event *event, uint32_t nr_counters, const __u64 *counters,
		       struct cl_cell *cell)
{
	if (event->status != CL_EVENT_SUPPORTED || event->slot < 0 ||
	    (uint32_t)event->slot >= nr_counters) {
		cell->type = CL_CELL_NULL;
		return;
	}
	cell->type = CL_CELL_U64;
	cell->u = counters[event->slot];
}

void cl_stream_cell(const struct cl_stream_schema *schema, const struct cl_scolumn *col,
		    const void *record, struct cl_cell *cell)
{
	const struct cl_slice_record *slice = record;
	const struct cl_switch_record *sw = record;
	bool is_slice = schema->mode == CL_MODE_RECORD;

	cell->type = CL_CELL_U64;
	switch (col->kind) {
	case CL_SCOL_START_NS:
		cell->u = slice->start_ns;
		break;
	case CL_SCOL_DURATION_NS:
		cell->u = slice->duration_ns;
		break;
	case CL_SCOL_END:
		cell->type = CL_CELL_STR;
		cell->s = slice->end == CL_SLICE_TICK ? "tick" : "switch";
		break;
	case CL_SCOL_CPU:
		cell->u = is_slice ? slice->cpu : sw->cpu;
		break;
	case CL_SCOL_PID:
		cell->u = slice->pid;
		break;
	case CL_SCOL_TID:
		cell->u = slice->tid;
		break;
	case CL_SCOL_COMM:
		cell->type = CL_CELL_STR;
		cell->s = slice->comm;
		break;
	case CL_SCOL_CGROUP_ID:
		cell->u = slice->cgroup_id;
		break;
	case CL_SCOL_TIME_NS:
		cell->u = sw->time_ns + (uint64_t)schema->realtime_offset_ns;
		break;
	case CL_SCOL_PREV_PID:
		cell->u = sw->prev_pid;
		break;
	case CL_SCOL_PREV_TID:
		cell->u = sw->prev_tid;
		break;
	case CL_SCOL_PREV_COMM:
		cell->type = CL_CELL_STR;
		cell->s = sw->prev_comm;
		break;
	case CL_SCOL_PREV_STATE:
		cell->type = CL_CELL_STR;
		cell->s = cl_task_state_name(sw->prev_state);
		break;
	case CL_SCOL_NEXT_PID:
		cell->u = sw->next_pid;
		break;
	case CL_SCOL_NEXT_TID:
		cell->u = sw->next_tid;
		break;
	case CL_SCOL_NEXT_COMM:
		cell->type = CL_CELL_STR;
		cell->s = sw->next_comm;
		break;
	case CL_SCOL_RUN_NS:
		cell->u = sw->run_ns;
		if (!sw->run_ns)
			cell->type = CL_CELL_NULL;
		break;
	case CL_SCOL_PREV_WAIT_NS:
		cell->u = sw->prev_wait_ns;
		if (sw->prev_wait_ns == ~0ULL)
			cell->type = CL_CELL_NULL;
		break;
	case CL_SCOL_EVENT:
		if (is_slice)
			event_cell(col->event, slice->nr_counters, slice->counters, cell);
		else if (!sw->run_ns)
			cell->type = CL_CELL_NULL; /* first switch seen here: no baseline */
		else
			event_cell(col->event, sw->nr_counters, sw->counters, cell);
		break;
	}
}

void cl_events_use_perf(struct cl_event_set *events)
{
	for (size_t i = 0; i < events->count; i++) {
		struct cl_event *event = &events->events[i];

		if (event->source == CL_SRC_TASK) {
			event->source = CL_SRC_PERF;
			event->status = CL_EVENT_UNKNOWN;
		}
	}
}
