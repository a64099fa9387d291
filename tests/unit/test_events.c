// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/events.c: the -e list, where each event's numbers come from, its
 * column name, and the perf attributes behind it.
 */
#include <errno.h>
#include <string.h>

#include "core/events.h"
#include "unit.h"

static const struct {
	const char *name;
	const char *column;
	enum cl_event_source source;
	enum cl_event_status status;
	uint32_t perf_type;
} default_events[] = {
	{ "cycles", "cycles", CL_SRC_PERF, CL_EVENT_UNKNOWN, PERF_TYPE_HARDWARE },
	{ "instructions", "instructions", CL_SRC_PERF, CL_EVENT_UNKNOWN, PERF_TYPE_HARDWARE },
	{ "cache-misses", "cache_misses", CL_SRC_PERF, CL_EVENT_UNKNOWN, PERF_TYPE_HARDWARE },
	{ "page-faults", "page_faults", CL_SRC_TASK, CL_EVENT_SUPPORTED, PERF_TYPE_SOFTWARE },
};

static bool test_default_events(void)
{
	struct cl_event_set set;
	const char *bad = "unset";
	bool ok = true;

	if (!expect_int(cl_events_parse(CL_DEFAULT_EVENTS, &set, &bad), 0) ||
	    !expect(bad == NULL) || !expect_u64(set.count, ARRAY_SIZE(default_events)))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(default_events); i++) {
		const struct cl_event *event = &set.events[i];

		if (!expect_str(event->name, default_events[i].name) ||
		    !expect_str(event->column, default_events[i].column) ||
		    !expect_int(event->source, default_events[i].source) ||
		    !expect_int(event->status, default_events[i].status) ||
		    !expect_int(event->def->perf_type, default_events[i].perf_type) ||
		    !expect_int(event->slot, -1) || !expect_int(event->open_errno, 0)) {
			unit_note("event %zu", i);
			ok = false;
		}
	}
	ok &= expect(cl_events_find(&set, "cache-misses") == &set.events[2]);
	ok &= expect(cl_events_find(&set, "cache_misses") == NULL);
	ok &= expect(cl_events_find(&set, "branches") == NULL);
	return ok;
}

/* Lists that parse, and what their first event becomes. */
static const struct {
	const char *list;
	size_t count;
	const char *name;
	const char *column;
	enum cl_event_source source;
} good_lists[] = {
	{ "faults", 1, "page-faults", "page_faults", CL_SRC_TASK },
	{ "cs", 1, "context-switches", "context_switches", CL_SRC_TASK },
	{ "branches", 1, "branch-instructions", "branch_instructions", CL_SRC_PERF },
	{ "cpu-cycles", 1, "cycles", "cycles", CL_SRC_PERF },
	{ "migrations", 1, "cpu-migrations", "cpu_migrations", CL_SRC_TASK },
	{ "task-clock", 1, "task-clock", "task_clock", CL_SRC_TASK },
	{ "cpu-clock", 1, "cpu-clock", "cpu_clock", CL_SRC_PERF },
	{ "LLC-load-misses", 1, "LLC-load-misses", "LLC_load_misses", CL_SRC_PERF },
	/* NAME:perf forces the perf counter: an event of its own. */
	{ "page-faults:perf", 1, "page-faults:perf", "page_faults_perf", CL_SRC_PERF },
	{ "page-faults:perf,page-faults", 2, "page-faults:perf", "page_faults_perf",
	  CL_SRC_PERF },
	{ "faults:perf", 1, "page-faults:perf", "page_faults_perf", CL_SRC_PERF },
	/* Perf-only events have nothing to force: the same event. */
	{ "cycles:perf", 1, "cycles", "cycles", CL_SRC_PERF },
	{ "r1a8", 1, "r1a8", "r1a8", CL_SRC_PERF },
	/* Eight perf counters is the limit, task events come on top. */
	{ "cycles,instructions,cache-references,cache-misses,branches,branch-misses,"
	  "bus-cycles,ref-cycles,page-faults,cs,migrations,minor-faults,major-faults",
	  13, "cycles", "cycles", CL_SRC_PERF },
};

static bool test_good_lists(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(good_lists); i++) {
		struct cl_event_set set;
		const char *bad = "unset";

		if (!expect_int(cl_events_parse(good_lists[i].list, &set, &bad), 0) ||
		    !expect(bad == NULL) || !expect_u64(set.count, good_lists[i].count) ||
		    !expect_str(set.events[0].name, good_lists[i].name) ||
		    !expect_str(set.events[0].column, good_lists[i].column) ||
		    !expect_int(set.events[0].source, good_lists[i].source)) {
			unit_note("cl_events_parse(\"%s\")", good_lists[i].list);
			ok = false;
		}
	}
	return ok;
}

static bool test_perf_and_task_twins(void)
{
	struct cl_event_set set;
	struct cl_event *task, *perf;
	const char *bad;

	if (!expect_int(cl_events_parse("page-faults,page-faults:perf", &set, &bad), 0))
		return false;
	task = cl_events_find(&set, "page-faults");
	perf = cl_events_find(&set, "page-faults:perf");
	return expect(task && perf && task != perf) && expect_int(task->source, CL_SRC_TASK) &&
	       expect_int(task->status, CL_EVENT_SUPPORTED) &&
	       expect_int(perf->source, CL_SRC_PERF) &&
	       expect_int(perf->status, CL_EVENT_UNKNOWN) && expect(task->def == perf->def) &&
	       expect_str(perf->column, "page_faults_perf");
}

static const struct {
	const char *list;
	int err;
	const char *bad;	/* NULL: not checked */
} bad_lists[] = {
	{ "cycles:u", -EINVAL, "cycles:u" },
	{ "cycles:", -EINVAL, "cycles:" },
	{ "page-faults:task", -EINVAL, "page-faults:task" },
	{ "cycles,instructions:k", -EINVAL, "instructions:k" },
	{ "cyclez", -ENOENT, "cyclez" },
	{ "cycles,no-such-event", -ENOENT, "no-such-event" },
	{ "no-such-event:perf", -ENOENT, NULL },
	{ "r", -ENOENT, "r" },
	{ "rxyz", -ENOENT, "rxyz" },
	{ "an-event-name-far-longer-than-any-perf-event", -ENOENT, NULL },
	{ "cycles,cycles", -EEXIST, "cycles" },
	{ "cycles,cpu-cycles", -EEXIST, "cpu-cycles" },
	{ "page-faults,faults", -EEXIST, "faults" },
	{ "page-faults:perf,faults:perf", -EEXIST, "faults:perf" },
	{ "cycles,cycles:perf", -EEXIST, "cycles:perf" },
	{ "r1a8,r1a8", -EEXIST, "r1a8" },
	{ "", -EINVAL, NULL },
	{ "cycles,,instructions", -EINVAL, NULL },
	{ "cycles,", -EINVAL, NULL },
	/* Nine perf counters: one too many. */
	{ "cycles,instructions,cache-references,cache-misses,branches,branch-misses,"
	  "bus-cycles,ref-cycles,LLC-loads", -E2BIG, NULL },
	{ "r1,r2,r3,r4,r5,r6,r7,r8,r9", -E2BIG, NULL },
	{ "page-faults:perf,cs:perf,migrations:perf,minor-faults:perf,major-faults:perf,"
	  "task-clock:perf,cycles,instructions,cache-misses", -E2BIG, NULL },
};

static bool test_bad_lists(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(bad_lists); i++) {
		struct cl_event_set set;
		const char *bad = NULL;

		if (!expect_int(cl_events_parse(bad_lists[i].list, &set, &bad), bad_lists[i].err) ||
		    (bad_lists[i].bad && !expect_str(bad, bad_lists[i].bad))) {
			unit_note("cl_events_parse(\"%s\")", bad_lists[i].list);
			ok = false;
		}
	}
	return ok;
}

/* More than CL_MAX_EVENTS items: the list is refused as a whole. */
static bool test_too_many_events(void)
{
	char list[2048] = "";
	struct cl_event_set set;
	const char *bad;
	size_t len = 0;

	for (int i = 0; i <= CL_MAX_EVENTS; i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%sr%x", i ? "," : "",
					i + 1);
	return expect(len < sizeof(list)) && expect_int(cl_events_parse(list, &set, &bad), -E2BIG);
}

#define CACHE_CONFIG(cache, op, result)                                          \
	(PERF_COUNT_HW_CACHE_##cache | (PERF_COUNT_HW_CACHE_OP_##op << 8) |      \
	 (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} attr_cases[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE, 0x10002 },
	{ "LLC-loads", PERF_TYPE_HW_CACHE, CACHE_CONFIG(LL, READ, ACCESS) },
	{ "LLC-store-misses", PERF_TYPE_HW_CACHE, CACHE_CONFIG(LL, WRITE, MISS) },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, CACHE_CONFIG(L1D, READ, MISS) },
	{ "L1-icache-load-misses", PERF_TYPE_HW_CACHE, CACHE_CONFIG(L1I, READ, MISS) },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE, CACHE_CONFIG(DTLB, READ, MISS) },
	{ "iTLB-load-misses", PERF_TYPE_HW_CACHE, CACHE_CONFIG(ITLB, READ, MISS) },
	{ "page-faults:perf", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "r1a8", PERF_TYPE_RAW, 0x1a8 },
	{ "rC0", PERF_TYPE_RAW, 0xc0 },
	{ "r0", PERF_TYPE_RAW, 0 },
	{ "rffffffffffffffff", PERF_TYPE_RAW, UINT64_MAX },
};

static bool test_perf_attr(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(attr_cases); i++) {
		struct perf_event_attr attr;
		struct cl_event_set set;
		const char *bad;

		if (!expect_int(cl_events_parse(attr_cases[i].name, &set, &bad), 0)) {
			unit_note("%s", attr_cases[i].name);
			ok = false;
			continue;
		}
		memset(&attr, 0xff, sizeof(attr));
		cl_event_attr(set.events[0].def, &attr);
		if (!expect_int(attr.type, attr_cases[i].type) ||
		    !expect_u64(attr.config, attr_cases[i].config) ||
		    !expect_int(attr.size, sizeof(attr)) || !expect_u64(attr.config1, 0) ||
		    !expect_int(attr.disabled, 0)) {
			unit_note("%s", attr_cases[i].name);
			ok = false;
		}
	}
	return ok;
}

/* A raw event's definition points into its own set, under the name as written. */
static bool test_raw_event_def(void)
{
	struct cl_event_set set;
	const char *bad;

	return expect_int(cl_events_parse("cycles,r1A8", &set, &bad), 0) &&
	       expect(set.events[1].def == &set.events[1].raw_def) &&
	       expect_str(set.events[1].def->name, "r1A8") &&
	       expect_str(set.events[1].column, "r1A8") &&
	       expect_int(set.events[1].def->task_field, CL_TF_NONE) &&
	       expect_u64(set.events[1].def->perf_config, 0x1a8) &&
	       expect(cl_event_lookup("r1a8") == NULL);
}

static bool test_lookup_table(void)
{
	const size_t name_size = sizeof(((struct cl_event *)NULL)->name);
	const struct cl_event_def *defs;
	size_t count;
	bool ok = true;

	defs = cl_event_defs(&count);
	if (!expect(count > 0))
		return false;
	for (size_t i = 0; i < count; i++) {
		/* Titles fit the table's 7-character columns; names fit cl_event.name. */
		if (!expect(defs[i].title && strlen(defs[i].title) <= 7) ||
		    !expect(strlen(defs[i].name) + strlen(":perf") < name_size) ||
		    !expect(cl_event_lookup(defs[i].name) == &defs[i]) ||
		    !expect(!defs[i].alias || cl_event_lookup(defs[i].alias) == &defs[i])) {
			unit_note("%s", defs[i].name);
			ok = false;
		}
	}
	return ok && expect(cl_event_lookup("nope") == NULL);
}

static const struct {
	enum cl_task_field field;
	uint64_t want;
} task_field_cases[] = {
	{ CL_TF_NONE, 0 },
	{ CL_TF_FAULTS, 40 + 5 },
	{ CL_TF_MIN_FLT, 40 },
	{ CL_TF_MAJ_FLT, 5 },
	{ CL_TF_SWITCHES, 7 + 3 },
	{ CL_TF_MIGRATIONS, 2 },
	{ CL_TF_ONCPU, 123456789 },
};

static bool test_task_field_value(void)
{
	struct cl_values values = { 0 };
	bool ok = true;

	values.v[CL_V_ONCPU_NS] = 123456789;
	values.v[CL_V_NVCSW] = 7;
	values.v[CL_V_NIVCSW] = 3;
	values.v[CL_V_MIN_FLT] = 40;
	values.v[CL_V_MAJ_FLT] = 5;
	values.v[CL_V_MIGRATIONS] = 2;
	values.v[CL_V_RUN_DELAY_NS] = 1000;
	values.v[CL_V_RUN_COUNT] = 11;
	values.v[CL_V_COUNTER0] = 999;
	for (size_t i = 0; i < ARRAY_SIZE(task_field_cases); i++) {
		if (!expect_u64(cl_task_field_value(task_field_cases[i].field, &values),
				task_field_cases[i].want)) {
			unit_note("field %d", task_field_cases[i].field);
			ok = false;
		}
	}
	return ok;
}

static const struct {
	const char *event;
	int open_errno;
	const char *needle;
} reason_cases[] = {
	{ "cycles", ENOENT, "PMU" },
	{ "LLC-load-misses", ENOENT, "PMU" },
	{ "r1a8", EOPNOTSUPP, "PMU" },
	{ "cpu-clock", ENOENT, "kernel" },
	{ "cycles", EACCES, "CAP_PERFMON" },
	{ "cycles", EPERM, "CAP_PERFMON" },
	{ "cycles", EMFILE, "file descriptors" },
	{ "cycles", EBUSY, "another program" },
	{ "cycles", 0, "no CPU online" },
};

static bool test_open_reason(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(reason_cases); i++) {
		struct cl_event_set set;
		const char *bad, *reason;

		if (!expect_int(cl_events_parse(reason_cases[i].event, &set, &bad), 0)) {
			ok = false;
			continue;
		}
		set.events[0].open_errno = reason_cases[i].open_errno;
		reason = cl_event_open_reason(&set.events[0]);
		if (!expect(reason && strstr(reason, reason_cases[i].needle))) {
			unit_note("%s, errno %d: \"%s\"", reason_cases[i].event,
				  reason_cases[i].open_errno, reason ? reason : "(null)");
			ok = false;
		}
	}
	return ok;
}

int main(void)
{
	RUN_TEST(test_default_events);
	RUN_TEST(test_good_lists);
	RUN_TEST(test_perf_and_task_twins);
	RUN_TEST(test_bad_lists);
	RUN_TEST(test_too_many_events);
	RUN_TEST(test_perf_attr);
	RUN_TEST(test_raw_event_def);
	RUN_TEST(test_lookup_table);
	RUN_TEST(test_task_field_value);
	RUN_TEST(test_open_reason);
	return unit_done();
}
