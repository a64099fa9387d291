// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cgroups.h"
#include "core/report.h"

static const struct {
	const char *name;
	const char *title;
	const char *num;
	const char *den;
} ratio_defs[] = {
	{ "ipc", "IPC", "instructions", "cycles" },
	{ "cache_miss_ratio", "CMISS/R", "cache-misses", "cache-references" },
	{ "llc_load_miss_ratio", "LLCM/LD", "LLC-load-misses", "LLC-loads" },
	{ "branch_miss_ratio", "BRM/BR", "branch-misses", "branch-instructions" },
};

static struct cl_column *add_col(struct cl_schema *schema, enum cl_col_kind kind,
				 const char *name, const char *title)
{
	struct cl_column *col = &schema->cols[schema->count++];

	memset(col, 0, sizeof(*col));
	col->kind = kind;
	col->name = name;
	col->title = title;
	return col;
}

int cl_row_level_parse(const char *name)
{
	static const char *const names[] = {
		[CL_BY_PROCESS] = "process", [CL_BY_THREAD] = "thread", [CL_BY_CGROUP] = "cgroup",
		[CL_BY_CONTAINER] = "container", [CL_BY_POD] = "pod",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i]))
			return (int)i;
	}
	return -1;
}

int cl_schema_build(struct cl_schema *schema, const struct cl_event_set *events, bool threads,
		    bool per_cpu)
{
	return cl_schema_build_by(schema, events, threads ? CL_BY_THREAD : CL_BY_PROCESS, per_cpu);
}

int cl_schema_build_by(struct cl_schema *schema, const struct cl_event_set *events,
		       enum cl_row_level level, bool per_cpu)
{
	bool tasks = level == CL_BY_PROCESS || level == CL_BY_THREAD;
	struct cl_column *col, *name = NULL;
	size_t i;

	memset(schema, 0, sizeof(*schema));
	schema->level = level;
	schema->threads = level == CL_BY_THREAD;
	schema->per_cpu = per_cpu;
	add_col(schema, CL_COL_TIME_NS, "time_ns", "TIME")->is_id = true;
	add_col(schema, CL_COL_INTERVAL_NS, "interval_ns", "INTERVAL")->is_time = true;
	if (tasks) {
		add_col(schema, CL_COL_PID, "pid", "PID")->is_id = true;
		if (level == CL_BY_THREAD)
			add_col(schema, CL_COL_TID, "tid", "TID")->is_id = true;
		name = add_col(schema, CL_COL_COMM, "comm", "COMM");
		name->is_id = true;
	}
	if (level != CL_BY_CONTAINER && level != CL_BY_POD)
		add_col(schema, CL_COL_CGROUP_ID, "cgroup_id", "CGROUP")->is_id = true;
	if (!tasks) {
		col = add_col(schema, CL_COL_CGROUP, "cgroup", "CGROUP");
		col->is_id = true;
		col->wide = level != CL_BY_CGROUP;
		if (level == CL_BY_CGROUP)
			name = col;
		col = add_col(schema, CL_COL_CONTAINER_ID, "container_id", "CONTAINER");
		col->is_id = true;
		col->wide = level != CL_BY_CONTAINER;
		if (level == CL_BY_CONTAINER)
			name = col;
		col = add_col(schema, CL_COL_CONTAINER_RUNTIME, "container_runtime", "RUNTIME");
		col->is_id = true;
		col->wide = level != CL_BY_CONTAINER;
		if (level == CL_BY_CONTAINER)
			name = col;
		col = add_col(schema, CL_COL_POD_UID, "pod_uid", "POD");
		col->is_id = true;
		col->wide = level != CL_BY_POD;
		if (level == CL_BY_POD)
			name = col;
	}
	name->shares_after = true;
	if (per_cpu)
		add_col(schema, CL_COL_CPU, "cpu", "CPU")->is_id = true;
	add_col(schema, CL_COL_ONCPU_NS, "oncpu_ns", "ONCPU")->is_time = true;
	add_col(schema, CL_COL_VOL_SWITCHES, "vol_switches", "VCSW");
	add_col(schema, CL_COL_INVOL_SWITCHES, "invol_switches", "IVCSW");
	for (i = 0; i < events->count; i++) {
		const struct cl_event *event = &events->events[i];

		col = add_col(schema, CL_COL_EVENT, event->column,
			      event->def->title ? event->def->title : event->name);
		col->event = event;
		col->is_time = event->def->is_time;
	}
	for (i = 0; i < sizeof(ratio_defs) / sizeof(ratio_defs[0]); i++) {
		const struct cl_event *num = NULL, *den = NULL;
		size_t j;

		for (j = 0; j < events->count; j++) {
			if (!strcmp(events->events[j].name, ratio_defs[i].num))
				num = &events->events[j];
			if (!strcmp(events->events[j].name, ratio_defs[i].den))
				den = &events->events[j];
		}
		if (!num || !den)
			continue;
		col = add_col(schema, CL_COL_RATIO, ratio_defs[i].name, ratio_defs[i].title);
		col->num = num;
		col->den = den;
	}
	/* Noisy-neighbour signals: what the task was denied, and by whom. */
	col = add_col(schema, CL_COL_VALUE, "runq_wait_ns", "RQWAIT");
	col->value = CL_V_RUN_DELAY_NS;
	col->is_time = col->wide = col->runq = true;
	col = add_col(schema, CL_COL_VALUE, "runq_waits", "RQWAITS");
	col->value = CL_V_RUN_COUNT;
	col->wide = col->runq = true;
	col = add_col(schema, CL_COL_RUNQ_MAX, "runq_max_ns", "RQMAX");
	col->is_time = col->wide = col->runq = true;
	col = add_col(schema, CL_COL_RUNQ_PCT, "runq_p50_ns", "RQP50");
	col->pct = 50;
	col->is_time = col->wide = col->runq = true;
	col = add_col(schema, CL_COL_RUNQ_PCT, "runq_p99_ns", "RQP99");
	col->pct = 99;
	col->is_time = col->wide = col->runq = true;
	col = add_col(schema, CL_COL_VALUE, "preempted_by_same_process", "PRSELF");
	col->value = CL_V_PREEMPT_SAME_PROCESS;
	col->wide = true;
	col = add_col(schema, CL_COL_VALUE, "preempted_by_same_cgroup", "PRCGRP");
	col->value = CL_V_PREEMPT_SAME_CGROUP;
	col->wide = true;
	col = add_col(schema, CL_COL_VALUE, "preempted_by_other_cgroup", "PROTHER");
	col->value = CL_V_PREEMPT_OTHER_CGROUP;
	col->wide = true;
	return 0;
}

bool cl_runq_percentile(const __u64 *hist, unsigned int pct, uint64_t *ns)
{
	uint64_t total = 0, seen = 0;
	double want;

	for (unsigned int b = 0; b < CL_RUNQ_HIST_BUCKETS; b++)
		total += hist[b];
	if (!total)
		return false;
	want = (double)total * pct / 100.0;
	for (unsigned int b = 0; b < CL_RUNQ_HIST_BUCKETS; b++) {
		double lo = b ? (double)(1ULL << b) : 0, hi = (double)(1ULL << (b + 1));

		if (!hist[b] || (double)(seen + hist[b]) < want) {
			seen += hist[b];
			continue;
		}
		/* Uniform within the bucket: the best a log2 histogram can say. */
		*ns = (uint64_t)(lo + (hi - lo) * ((want - (double)seen) / (double)hist[b]));
		return true;
	}
	*ns = 1ULL << (CL_RUNQ_HIST_BUCKETS - 1);
	return true;
}

int cl_schema_find(const struct cl_schema *schema, const char *name)
{
	for (size_t i = 0; i < schema->count; i++) {
		if (!strcmp(schema->cols[i].name, name))
			return (int)i;
	}
	return -1;
}

struct row_key {
	uint32_t id;
	int32_t cpu;
	uint64_t start_ns;
};

static bool row_eq(const struct cl_hnode *node, const void *key)
{
	const struct cl_row *row = (const struct cl_row *)node;
	const struct row_key *k = key;

	return row->start_ns == k->start_ns && row->cpu == k->cpu &&
	       (row->tid == k->id);
}

int cl_rows_init(struct cl_rows *rows, enum cl_row_level level, bool per_cpu, size_t max_rows)
{
	memset(rows, 0, sizeof(*rows));
	rows->level = level;
	rows->per_cpu = per_cpu;
	rows->max_rows = max_rows;
	return cl_htab_init(&rows->htab, 256);
}

void cl_rows_reset(struct cl_rows *rows)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&rows->htab, node, tmp, i) {
		cl_htab_remove(&rows->htab, node);
		free(node);
	}
	free(rows->sorted);
	rows->sorted = NULL;
	rows->nr_sorted = 0;
}

void cl_rows_free(struct cl_rows *rows)
{
	if (!rows->htab.buckets)
		return;
	cl_rows_reset(rows);
	cl_htab_free(&rows->htab);
}

/* cgroup/container/pod rows: the group @meta's thread belongs to, named. */
static uint64_t group_key(struct cl_rows *rows, const struct cl_task_meta *meta,
			  struct cl_row *fill)
{
	const struct cl_cgroup_ident *ident = NULL;
	const char *identity;
	char unknown[32];
	size_t len;

	if (rows->cgroups)
		ident = cl_cgroups_ident(rows->cgroups, meta->cgroup_id);
	if (!ident) {
		/* Gone before anyone named it: its id is all there is. */
		snprintf(unknown, sizeof(unknown), "cgroup#%llu",
			 (unsigned long long)meta->cgroup_id);
		snprintf(fill->cgroup, sizeof(fill->cgroup), "%s", unknown);
		fill->container_runtime = "";
		return cl_hash_u64(meta->cgroup_id);
	}
	snprintf(fill->cgroup, sizeof(fill->cgroup), "%s", ident->path);
	memcpy(fill->container_id, ident->container.id, sizeof(fill->container_id));
	memcpy(fill->pod_uid, ident->container.pod_uid, sizeof(fill->pod_uid));
	fill->container_runtime = ident->container.runtime;
	identity = ident->path;
	switch (rows->level) {
	case CL_BY_CONTAINER:
		if (ident->in_container)
			identity = ident->container.id;
		break;
	case CL_BY_POD:
		if (ident->container.pod_uid[0]) {
			identity = ident->container.pod_uid;
			/* A pod's row is the pod, not one of its containers. */
			len = ident->container.pod_path_len;
			if (len < sizeof(fill->cgroup))
				fill->cgroup[len] = '\0';
			fill->container_id[0] = '\0';
			fill->container_runtime = "";
		}
		break;
	default:
		return cl_hash_u64(meta->cgroup_id);
	}
	return cl_hash_u64(cl_hash_bytes(identity, strlen(identity)));
}

void cl_rows_add(void *ctx, const struct cl_task_meta *meta, int cpu,
		 const struct cl_values *delta)
{
	struct cl_rows *rows = ctx;
	bool by_thread = rows->level == CL_BY_THREAD;
	bool by_task = by_thread || rows->level == CL_BY_PROCESS;
	struct row_key key = {
		/* Process rows use the tgid as their tid: one id to compare. */
		.id = by_thread ? meta->tid : meta->tgid,
		.cpu = cpu,
		.start_ns = by_thread ? meta->start_ns : meta->leader_start_ns,
	};
	struct cl_row group = { 0 };
	uint64_t hash;
	struct cl_row *row;

	if (!by_task) {
		/* One 64-bit identity: the cgroup id, or a hash of the container's or pod's. */
		key.id = 0;
		key.start_ns = group_key(rows, meta, &group);
	}
	hash = cl_hash_combine(cl_hash_combine(cl_hash_u64(key.id), key.start_ns),
			       (uint64_t)(int64_t)cpu);
	row = (struct cl_row *)cl_htab_find(&rows->htab, hash, row_eq, &key);
	if (!row) {
		if (rows->htab.count >= rows->max_rows) {
			rows->overflow++;
			return;
		}
		row = calloc(1, sizeof(*row));
		if (!row) {
			rows->overflow++;
			return;
		}
		if (!by_task) {
			*row = group;
			row->cgroup_id = meta->cgroup_id;
		}
		row->pid = by_task ? meta->tgid : 0;
		row->tid = key.id;
		row->cpu = cpu;
		row->start_ns = key.start_ns;
		cl_htab_insert(&rows->htab, &row->node, hash);
	}
	if (by_task) {
		/* Names and cgroups can change: the latest wins. A process is where
		 * its leader is, as /proc/PID/cgroup says. */
		row->cgroup_id = by_thread ? meta->cgroup_id : meta->leader_cgroup_id;
		memcpy(row->comm, by_thread ? meta->comm : meta->leader_comm, CL_COMM_LEN);
	}
	cl_values_add(&row->v, delta);
}

static uint64_t event_value(const struct cl_event *event, const struct cl_row *row, bool *ok)
{
	*ok = event->status == CL_EVENT_SUPPORTED;
	if (!*ok)
		return 0;
	if (event->source == CL_SRC_TASK)
		return cl_task_field_value(event->def->task_field, &row->v);
	if (event->slot < 0 || event->slot >= CL_MAX_COUNTERS) {
		*ok = false;
		return 0;
	}
	return row->v.v[CL_V_COUNTER0 + event->slot];
}

void cl_cell_get(const struct cl_column *col, const struct cl_row *row,
		 const struct cl_interval *interval, struct cl_cell *cell)
{
	uint64_t num, den;
	bool ok_num, ok_den;

	cell->type = CL_CELL_U64;
	if (col->unsupported) {
		cell->type = CL_CELL_NULL;
		return;
	}
	switch (col->kind) {
	case CL_COL_TIME_NS:
		cell->u = interval->time_ns;
		break;
	case CL_COL_INTERVAL_NS:
		cell->u = interval->interval_ns;
		break;
	case CL_COL_PID:
		cell->u = row->pid;
		break;
	case CL_COL_TID:
		cell->u = row->tid;
		break;
	case CL_COL_COMM:
		cell->type = CL_CELL_STR;
		cell->s = row->comm;
		break;
	case CL_COL_CGROUP_ID:
		cell->u = row->cgroup_id;
		break;
	case CL_COL_CGROUP:
		cell->type = CL_CELL_STR;
		cell->s = row->cgroup;
		break;
	case CL_COL_CONTAINER_ID:
		cell->type = CL_CELL_STR;
		cell->s = row->container_id;
		break;
	case CL_COL_CONTAINER_RUNTIME:
		cell->type = CL_CELL_STR;
		cell->s = row->container_runtime ? row->container_runtime : "";
		break;
	case CL_COL_POD_UID:
		cell->type = CL_CELL_STR;
		cell->s = row->pod_uid;
		break;
	case CL_COL_CPU:
		cell->type = CL_CELL_I64;
		cell->i = row->cpu;
		break;
	case CL_COL_ONCPU_NS:
		cell->u = row->v.v[CL_V_ONCPU_NS];
		break;
	case CL_COL_VOL_SWITCHES:
		cell->u = row->v.v[CL_V_NVCSW];
		break;
	case CL_COL_INVOL_SWITCHES:
		cell->u = row->v.v[CL_V_NIVCSW];
		break;
	case CL_COL_EVENT:
		cell->u = event_value(col->event, row, &ok_num);
		if (!ok_num)
			cell->type = CL_CELL_NULL;
		break;
	case CL_COL_VALUE:
		cell->u = row->v.v[col->value];
		break;
	case CL_COL_RUNQ_MAX:
		cell->u = row->v.v[CL_V_RUNQ_MAX_NS];
		/* Per CPU, the kernel side keeps an all-time maximum: no interval's. */
		if (row->cpu >= 0)
			cell->type = CL_CELL_NULL;
		break;
	case CL_COL_RUNQ_PCT:
		if (!cl_runq_percentile(&row->v.v[CL_V_HIST0], col->pct, &cell->u))
			cell->type = CL_CELL_NULL;
		/* Interpolation within a bucket cannot go past the longest wait seen. */
		else if (row->cpu < 0 && row->v.v[CL_V_RUNQ_MAX_NS] &&
			 cell->u > row->v.v[CL_V_RUNQ_MAX_NS])
			cell->u = row->v.v[CL_V_RUNQ_MAX_NS];
		break;
	case CL_COL_RATIO:
		num = event_value(col->num, row, &ok_num);
		den = event_value(col->den, row, &ok_den);
		if (!ok_num || !ok_den || !den) {
			cell->type = CL_CELL_NULL;
			break;
		}
		cell->type = CL_CELL_F64;
		cell->f = (double)num / (double)den;
		break;
	}
}

/* qsort has no context argument; sorting happens on one thread. */
static const struct cl_column *sort_column;

static int compare_rows(const void *a, const void *b)
{
	const struct cl_row *ra = *(const struct cl_row *const *)a;
	const struct cl_row *rb = *(const struct cl_row *const *)b;
	struct cl_interval none = { 0 };
	struct cl_cell ca, cb;
	int order = 0;

	cl_cell_get(sort_column, ra, &none, &ca);
	cl_cell_get(sort_column, rb, &none, &cb);
	if (ca.type == CL_CELL_NULL || cb.type == CL_CELL_NULL) {
		order = (ca.type == CL_CELL_NULL) - (cb.type == CL_CELL_NULL);
	} else if (ca.type == CL_CELL_STR) {
		order = strcmp(ca.s, cb.s);
	} else if (ca.type == CL_CELL_F64) {
		order = (ca.f > cb.f) - (ca.f < cb.f);
	} else if (ca.type == CL_CELL_I64) {
		order = (ca.i > cb.i) - (ca.i < cb.i);
	} else {
		order = (ca.u > cb.u) - (ca.u < cb.u);
	}
	/* Metrics: biggest first. Identities: natural order. Nulls last. */
	if (ca.type != CL_CELL_NULL && cb.type != CL_CELL_NULL && !sort_column->is_id)
		order = -order;
	if (order)
		return order;
	if (ra->pid != rb->pid)
		return ra->pid < rb->pid ? -1 : 1;
	if (ra->tid != rb->tid)
		return ra->tid < rb->tid ? -1 : 1;
	return (ra->cpu > rb->cpu) - (ra->cpu < rb->cpu);
}

size_t cl_rows_sort(struct cl_rows *rows, const struct cl_schema *schema, int sort_col)
{
	struct cl_hnode *node, *tmp;
	size_t i, n = 0;

	free(rows->sorted);
	rows->sorted = calloc(rows->htab.count ? rows->htab.count : 1, sizeof(*rows->sorted));
	rows->nr_sorted = 0;
	if (!rows->sorted)
		return 0;
	cl_htab_for_each(&rows->htab, node, tmp, i) {
		struct cl_row *row = (struct cl_row *)node;

		if (!rows->keep_idle && cl_values_zero(&row->v))
			continue;
		rows->sorted[n++] = row;
	}
	sort_column = &schema->cols[sort_col];
	qsort(rows->sorted, n, sizeof(*rows->sorted), compare_rows);
	rows->nr_sorted = n;
	return n;
}
