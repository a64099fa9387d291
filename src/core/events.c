// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/parse.h"

#define HW(cfg)	PERF_TYPE_HARDWARE, PERF_COUNT_HW_##cfg
#define SW(cfg)	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##cfg
#define CACHE(cache, op, result)                                                     \
	PERF_TYPE_HW_CACHE, (PERF_COUNT_HW_CACHE_##cache | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
			     (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

static const struct cl_event_def event_defs[] = {
	{ "cycles", "cpu-cycles", "CYCLES", HW(CPU_CYCLES) },
	{ "instructions", NULL, "INSTR", HW(INSTRUCTIONS) },
	{ "cache-references", NULL, "CREF", HW(CACHE_REFERENCES) },
	{ "cache-misses", NULL, "CMISS", HW(CACHE_MISSES) },
	{ "branch-instructions", "branches", "BRANCH", HW(BRANCH_INSTRUCTIONS) },
	{ "branch-misses", NULL, "BRMISS", HW(BRANCH_MISSES) },
	{ "bus-cycles", NULL, "BUSCYC", HW(BUS_CYCLES) },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", "STALLFE",
	  HW(STALLED_CYCLES_FRONTEND) },
	{ "stalled-cycles-backend", "idle-cycles-backend", "STALLBE", HW(STALLED_CYCLES_BACKEND) },
	{ "ref-cycles", NULL, "REFCYC", HW(REF_CPU_CYCLES) },
	{ "L1-dcache-loads", NULL, "L1DLD", CACHE(L1D, READ, ACCESS) },
	{ "L1-dcache-load-misses", NULL, "L1DMISS", CACHE(L1D, READ, MISS) },
	{ "L1-icache-load-misses", NULL, "L1IMISS", CACHE(L1I, READ, MISS) },
	{ "LLC-loads", NULL, "LLCLD", CACHE(LL, READ, ACCESS) },
	{ "LLC-load-misses", NULL, "LLCMISS", CACHE(LL, READ, MISS) },
	{ "LLC-stores", NULL, "LLCST", CACHE(LL, WRITE, ACCESS) },
	{ "LLC-store-misses", NULL, "LLCSTMS", CACHE(LL, WRITE, MISS) },
	{ "dTLB-loads", NULL, "DTLBLD", CACHE(DTLB, READ, ACCESS) },
	{ "dTLB-load-misses", NULL, "DTLBMS", CACHE(DTLB, READ, MISS) },
	{ "iTLB-load-misses", NULL, "ITLBMS", CACHE(ITLB, READ, MISS) },
	{ "cpu-clock", NULL, "CPUCLK", SW(CPU_CLOCK), CL_TF_NONE, true },
	{ "task-clock", NULL, "TASKCLK", SW(TASK_CLOCK), CL_TF_ONCPU, true },
	{ "page-faults", "faults", "PGFLT", SW(PAGE_FAULTS), CL_TF_FAULTS },
	{ "minor-faults", NULL, "MINFLT", SW(PAGE_FAULTS_MIN), CL_TF_MIN_FLT },
	{ "major-faults", NULL, "MAJFLT", SW(PAGE_FAULTS_MAJ), CL_TF_MAJ_FLT },
	{ "context-switches", "cs", "CSW", SW(CONTEXT_SWITCHES), CL_TF_SWITCHES },
	{ "cpu-migrations", "migrations", "MIGR", SW(CPU_MIGRATIONS), CL_TF_MIGRATIONS },
	{ "alignment-faults", NULL, "ALIGNF", SW(ALIGNMENT_FAULTS) },
	{ "emulation-faults", NULL, "EMULF", SW(EMULATION_FAULTS) },
	/* Kernel tracepoints, counted per CPU and charged like counters. */
	{ "page-allocs", NULL, "PGALLOC", 0, 0, CL_TF_NONE, false, CL_SLOT_PAGE_ALLOCS,
	  "mm_page_alloc" },
	{ "reclaim-ns", NULL, "RECLAIM", 0, 0, CL_TF_NONE, true, CL_SLOT_RECLAIM_NS,
	  "mm_vmscan_direct_reclaim_begin,mm_vmscan_memcg_reclaim_begin" },
	{ "reclaims", NULL, "RECLMS", 0, 0, CL_TF_NONE, false, CL_SLOT_RECLAIMS,
	  "mm_vmscan_direct_reclaim_begin,mm_vmscan_memcg_reclaim_begin" },
};

#define N_EVENT_DEFS (sizeof(event_defs) / sizeof(event_defs[0]))

const struct cl_event_def *cl_event_defs(size_t *count)
{
	*count = N_EVENT_DEFS;
	return event_defs;
}

const struct cl_event_def *cl_event_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < N_EVENT_DEFS; i++) {
		if (!strcmp(name, event_defs[i].name) ||
		    (event_defs[i].alias && !strcmp(name, event_defs[i].alias)))
			return &event_defs[i];
	}
	return NULL;
}

/* "r1a8": a raw PMU event, config in hex, as perf spells it. */
static bool parse_raw_event(const char *name, struct cl_event_def *def)
{
	uint64_t config = 0;
	const char *p;

	if (name[0] != 'r' || !name[1] || strlen(name) > 17)
		return false;
	for (p = name + 1; *p; p++) {
		int digit;

		if (*p >= '0' && *p <= '9')
			digit = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			digit = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			digit = *p - 'A' + 10;
		else
			return false;
		config = config << 4 | (uint64_t)digit;
	}
	memset(def, 0, sizeof(*def));
	def->perf_type = PERF_TYPE_RAW;
	def->perf_config = config;
	def->task_field = CL_TF_NONE;
	return true;
}

struct cl_event *cl_events_find(struct cl_event_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->count; i++) {
		if (!strcmp(set->events[i].name, name))
			return &set->events[i];
	}
	return NULL;
}

int cl_events_parse(const char *list, struct cl_event_set *set, const char **bad)
{
	static char bad_item[64];
	size_t count = 0, i, nr_perf = 0;
	char **items = NULL;
	int err;

	memset(set, 0, sizeof(*set));
	*bad = NULL;
	err = cl_split_list(list, &items, &count);
	if (err) {
		*bad = list;
		return err;
	}
	if (count > CL_MAX_EVENTS) {
		err = -E2BIG;
		goto out;
	}
	for (i = 0; i < count; i++) {
		struct cl_event *event = &set->events[set->count];
		char *modifier = strchr(items[i], ':');
		bool force_perf = false;
		char *c;

		snprintf(bad_item, sizeof(bad_item), "%s", items[i]);
		*bad = bad_item;
		if (modifier) {
			*modifier++ = '\0';
			if (strcmp(modifier, "perf")) {
				err = -EINVAL;
				goto out;
			}
			force_perf = true;
		}
		if (strlen(items[i]) >= sizeof(event->name)) {
			err = -ENOENT;
			goto out;
		}
		event->def = cl_event_lookup(items[i]);
		if (!event->def && parse_raw_event(items[i], &event->raw_def))
			event->def = &event->raw_def;
		if (!event->def) {
			err = -ENOENT;
			goto out;
		}
		/* NAME:perf is an event of its own, next to NAME: column NAME_perf. */
		snprintf(event->name, sizeof(event->name), "%s%s",
			 event->def == &event->raw_def ? items[i] : event->def->name,
			 force_perf && event->def->task_field != CL_TF_NONE ? ":perf" : "");
		if (cl_events_find(set, event->name)) {
			err = -EEXIST;
			goto out;
		}
		if (event->def == &event->raw_def)
			event->raw_def.name = event->name;
		memcpy(event->column, event->name, sizeof(event->name));
		for (c = event->column; *c; c++) {
			if (*c == '-' || *c == ':')
				*c = '_';
		}
		if (event->def->soft != CL_SLOT_PERF)
			event->source = CL_SRC_SOFT;
		else if (event->def->task_field != CL_TF_NONE && !force_perf)
			event->source = CL_SRC_TASK;
		else
			event->source = CL_SRC_PERF;
		event->status = event->source == CL_SRC_TASK ? CL_EVENT_SUPPORTED
							     : CL_EVENT_UNKNOWN;
		event->slot = -1;
		/* Perf counters and kernel events share the counter slots. */
		if (event->source != CL_SRC_TASK && ++nr_perf > CL_MAX_COUNTERS) {
			err = -E2BIG;
			goto out;
		}
		set->count++;
	}
	*bad = NULL;
out:
	cl_free_list(items, count);
	return err;
}

void cl_event_attr(const struct cl_event_def *def, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = def->perf_type;
	attr->config = def->perf_config;
}

uint64_t cl_task_field_value(enum cl_task_field field, const struct cl_values *values)
{
	const __u64 *v = values->v;

	switch (field) {
	case CL_TF_FAULTS:
		return v[CL_V_MIN_FLT] + v[CL_V_MAJ_FLT];
	case CL_TF_MIN_FLT:
		return v[CL_V_MIN_FLT];
	case CL_TF_MAJ_FLT:
		return v[CL_V_MAJ_FLT];
	case CL_TF_SWITCHES:
		return v[CL_V_NVCSW] + v[CL_V_NIVCSW];
	case CL_TF_MIGRATIONS:
		return v[CL_V_MIGRATIONS];
	case CL_TF_ONCPU:
		return v[CL_V_ONCPU_NS];
	case CL_TF_NONE:
		break;
	}
	return 0;
}

const char *cl_event_open_reason(const struct cl_event *event)
{
	bool hardware;

	if (event->source == CL_SRC_SOFT)
		return "the kernel has no such tracepoint";
	hardware = event->def->perf_type == PERF_TYPE_HARDWARE ||
			event->def->perf_type == PERF_TYPE_HW_CACHE ||
			event->def->perf_type == PERF_TYPE_RAW;

	switch (event->open_errno) {
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return hardware ? "no hardware PMU counter for it on this machine (common in VMs)"
				: "not supported by this kernel";
	case EACCES:
	case EPERM:
		return "permission denied: needs root or CAP_PERFMON";
	case EINVAL:
		return "the kernel rejected it (not available on this CPU model)";
	case EMFILE:
	case ENFILE:
		return "out of file descriptors";
	case EBUSY:
		return "the counter is in exclusive use by another program";
	case 0:
		return "no CPU online to open it on";
	default:
		return strerror(event->open_errno);
	}
}
