// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/report.c: the output schema, rows summed per process, thread or
 * CPU, their order, and the cell values sinks print.
 */
#include <stdlib.h>

#include "core/report.h"
#include "unit.h"

#define END NULL
/* expect_row: do not look at the cgroup. */
#define ANY_CGROUP UINT64_MAX

/* Every schema ends with the noisy-neighbour columns. */
#define NOISY                                                                              \
	"runq_wait_ns", "runq_waits", "runq_max_ns", "runq_p50_ns", "runq_p99_ns",          \
		"preempted_by_same_process", "preempted_by_same_cgroup",                   \
		"preempted_by_other_cgroup"

static const struct {
	const char *events;
	bool threads, per_cpu;
	const char *columns[32];
} schema_cases[] = {
	{ CL_DEFAULT_EVENTS, false, false,
	  { "time_ns", "interval_ns", "pid", "comm", "cgroup_id", "oncpu_ns", "vol_switches",
	    "invol_switches", "cycles", "instructions", "cache_misses", "page_faults", "ipc",
	    NOISY, END } },
	{ CL_DEFAULT_EVENTS, true, false,
	  { "time_ns", "interval_ns", "pid", "tid", "comm", "cgroup_id", "oncpu_ns",
	    "vol_switches", "invol_switches", "cycles", "instructions", "cache_misses",
	    "page_faults", "ipc", NOISY, END } },
	{ CL_DEFAULT_EVENTS, false, true,
	  { "time_ns", "interval_ns", "pid", "comm", "cgroup_id", "cpu", "oncpu_ns",
	    "vol_switches", "invol_switches", "cycles", "instructions", "cache_misses",
	    "page_faults", "ipc", NOISY, END } },
	{ "page-faults", true, true,
	  { "time_ns", "interval_ns", "pid", "tid", "comm", "cgroup_id", "cpu", "oncpu_ns",
	    "vol_switches", "invol_switches", "page_faults", NOISY, END } },
	/* A ratio needs both of its inputs. */
	{ "instructions", false, false,
	  { "time_ns", "interval_ns", "pid", "comm", "cgroup_id", "oncpu_ns", "vol_switches",
	    "invol_switches", "instructions", NOISY, END } },
	{ "cycles,cache-misses", false, false,
	  { "time_ns", "interval_ns", "pid", "comm", "cgroup_id", "oncpu_ns", "vol_switches",
	    "invol_switches", "cycles", "cache_misses", NOISY, END } },
	/* Whatever order the events come in, ratios follow them in a fixed order. */
	{ "branch-misses,LLC-loads,cache-references,LLC-load-misses,branches,cache-misses,"
	  "cycles,instructions", false, false,
	  { "time_ns", "interval_ns", "pid", "comm", "cgroup_id", "oncpu_ns", "vol_switches",
	    "invol_switches", "branch_misses", "LLC_loads", "cache_references", "LLC_load_misses",
	    "branch_instructions", "cache_misses", "cycles", "instructions", "ipc",
	    "cache_miss_ratio", "llc_load_miss_ratio", "branch_miss_ratio", NOISY, END } },
	/* The forced perf twin is not the event a ratio is made of. */
	{ "instructions,page-faults:perf,task-clock", false, false,
	  { "time_ns", "interval_ns", "pid", "comm", "cgroup_id", "oncpu_ns", "vol_switches",
	    "invol_switches", "instructions", "page_faults_perf", "task_clock", NOISY, END } },
};

static bool check_schema(size_t n)
{
	struct cl_event_set events;
	struct cl_schema schema;
	const char *bad;
	size_t i;

	if (!expect_int(cl_events_parse(schema_cases[n].events, &events, &bad), 0) ||
	    !expect_int(cl_schema_build(&schema, &events, schema_cases[n].threads,
					schema_cases[n].per_cpu),
			0))
		goto fail;
	for (i = 0; schema_cases[n].columns[i]; i++) {
		if (!expect(i < schema.count) ||
		    !expect_str(schema.cols[i].name, schema_cases[n].columns[i]) ||
		    !expect_int(cl_schema_find(&schema, schema_cases[n].columns[i]), (int)i))
			goto fail;
	}
	if (!expect_u64(schema.count, i))
		goto fail;
	return true;
fail:
	unit_note("schema of \"%s\"%s%s", schema_cases[n].events,
		  schema_cases[n].threads ? ", threads" : "",
		  schema_cases[n].per_cpu ? ", per CPU" : "");
	return false;
}

static bool test_schema_columns(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(schema_cases); i++)
		ok &= check_schema(i);
	return ok;
}

static bool test_schema_details(void)
{
	struct cl_event_set events;
	struct cl_schema schema;
	const struct cl_column *col;
	const char *bad;
	int ipc;

	if (!expect_int(cl_events_parse("cycles,instructions,task-clock", &events, &bad), 0) ||
	    !expect_int(cl_schema_build(&schema, &events, false, false), 0))
		return false;
	ipc = cl_schema_find(&schema, "ipc");
	if (!expect(ipc >= 0))
		return false;
	col = &schema.cols[ipc];
	if (!expect_int(col->kind, CL_COL_RATIO) || !expect(col->num == &events.events[1]) ||
	    !expect(col->den == &events.events[0]) || !expect_str(col->title, "IPC"))
		return false;
	col = &schema.cols[cl_schema_find(&schema, "task_clock")];
	if (!expect_int(col->kind, CL_COL_EVENT) || !expect(col->event == &events.events[2]) ||
	    !expect(col->is_time) || !expect(!col->is_id) || !expect_str(col->title, "TASKCLK"))
		return false;
	col = &schema.cols[cl_schema_find(&schema, "cycles")];
	if (!expect(!col->is_time) || !expect_str(col->title, "CYCLES"))
		return false;
	return expect(schema.cols[cl_schema_find(&schema, "oncpu_ns")].is_time) &&
	       expect(schema.cols[cl_schema_find(&schema, "pid")].is_id) &&
	       expect(schema.cols[cl_schema_find(&schema, "comm")].is_id) &&
	       expect(!schema.cols[cl_schema_find(&schema, "vol_switches")].is_id) &&
	       expect_int(cl_schema_find(&schema, "no_such_column"), -1) &&
	       expect_int(cl_schema_find(&schema, "cache_misses"), -1) &&
	       expect_int(cl_schema_find(&schema, "task-clock"), -1);
}

/*
 * A thread of process @tgid (leader start @leader_start_ns, comm @leader_comm,
 * in cgroup @leader_cgroup_id), itself in cgroup @cgroup_id.
 */
static struct cl_task_meta thread(uint32_t tid, uint32_t tgid, uint64_t start_ns,
				  uint64_t leader_start_ns, const char *comm,
				  const char *leader_comm, uint64_t cgroup_id,
				  uint64_t leader_cgroup_id)
{
	struct cl_task_meta meta = {
		.tid = tid,
		.tgid = tgid,
		.start_ns = start_ns,
		.leader_start_ns = leader_start_ns,
		.cgroup_id = cgroup_id,
		.leader_cgroup_id = leader_cgroup_id,
	};

	snprintf(meta.comm, sizeof(meta.comm), "%s", comm);
	snprintf(meta.leader_comm, sizeof(meta.leader_comm), "%s", leader_comm);
	return meta;
}

static struct cl_values oncpu(uint64_t ns, uint64_t vol_switches)
{
	struct cl_values values = { 0 };

	values.v[CL_V_ONCPU_NS] = ns;
	values.v[CL_V_NVCSW] = vol_switches;
	return values;
}

/* The row of @pid/@tid/@cpu, or NULL. */
static const struct cl_row *find_row(struct cl_rows *rows, uint32_t pid, uint32_t tid, int cpu)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&rows->htab, node, tmp, i) {
		const struct cl_row *row = (const struct cl_row *)node;

		if (row->pid == pid && row->tid == tid && row->cpu == cpu)
			return row;
	}
	return NULL;
}

static bool expect_row(struct cl_rows *rows, uint32_t pid, uint32_t tid, int cpu,
		       const char *comm, uint64_t cgroup_id, uint64_t oncpu_ns, uint64_t switches)
{
	const struct cl_row *row = find_row(rows, pid, tid, cpu);

	if (expect(row != NULL) && expect_str(row->comm, comm) &&
	    (cgroup_id == ANY_CGROUP || expect_u64(row->cgroup_id, cgroup_id)) &&
	    expect_u64(row->v.v[CL_V_ONCPU_NS], oncpu_ns) &&
	    expect_u64(row->v.v[CL_V_NVCSW], switches))
		return true;
	unit_note("row pid %u tid %u cpu %d", pid, tid, cpu);
	return false;
}

/*
 * Process 100: leader "server" (cgroup 7) and worker thread 101 that moved to
 * cgroup 9 and is seen first. Process 200: one thread.
 */
static void add_two_processes(struct cl_rows *rows, int cpu_a, int cpu_b)
{
	struct cl_task_meta worker = thread(101, 100, 1500, 1000, "worker", "server", 9, 7);
	struct cl_task_meta leader = thread(100, 100, 1000, 1000, "server", "server", 7, 7);
	struct cl_task_meta single = thread(200, 200, 3000, 3000, "single", "single", 7, 7);
	struct cl_values v;

	v = oncpu(3000, 1);
	cl_rows_add(rows, &worker, cpu_a, &v);
	v = oncpu(1000, 2);
	cl_rows_add(rows, &leader, cpu_a, &v);
	v = oncpu(500, 0);
	cl_rows_add(rows, &worker, cpu_b, &v);
	v = oncpu(200, 3);
	cl_rows_add(rows, &single, cpu_b, &v);
}

static bool test_rows_by_process(void)
{
	struct cl_rows rows;
	bool ok;

	if (!expect_int(cl_rows_init(&rows, CL_BY_PROCESS, false, 100), 0))
		return false;
	add_two_processes(&rows, -1, -1);
	/* pid = tgid, comm = the leader's, cgroup = the leader's. */
	ok = expect_u64(rows.htab.count, 2) &&
	     expect_row(&rows, 100, 100, -1, "server", 7, 4500, 3) &&
	     expect_row(&rows, 200, 200, -1, "single", 7, 200, 3);
	cl_rows_free(&rows);
	return ok;
}

static bool test_rows_by_thread(void)
{
	struct cl_task_meta renamed = thread(101, 100, 1500, 1000, "worker-2", "server", 9, 7);
	struct cl_values v = oncpu(1, 0);
	struct cl_rows rows;
	bool ok;

	if (!expect_int(cl_rows_init(&rows, CL_BY_THREAD, false, 100), 0))
		return false;
	add_two_processes(&rows, -1, -1);
	ok = expect_u64(rows.htab.count, 3) &&
	     expect_row(&rows, 100, 100, -1, "server", 7, 1000, 2) &&
	     expect_row(&rows, 100, 101, -1, "worker", 9, 3500, 1) &&
	     expect_row(&rows, 200, 200, -1, "single", 7, 200, 3);
	/* A thread row shows the thread's latest name. */
	cl_rows_add(&rows, &renamed, -1, &v);
	ok = ok && expect_row(&rows, 100, 101, -1, "worker-2", 9, 3501, 1);
	cl_rows_free(&rows);
	return ok;
}

static bool test_rows_per_cpu(void)
{
	struct cl_rows rows;
	bool ok;

	if (!expect_int(cl_rows_init(&rows, CL_BY_PROCESS, true, 100), 0))
		return false;
	add_two_processes(&rows, 0, 1);
	/* (The cgroup of process rows per CPU has a test of its own, below.) */
	ok = expect_u64(rows.htab.count, 3) &&
	     expect_row(&rows, 100, 100, 0, "server", 7, 4000, 3) &&
	     expect_row(&rows, 100, 100, 1, "server", ANY_CGROUP, 500, 0) &&
	     expect_row(&rows, 200, 200, 1, "single", 7, 200, 3);
	cl_rows_free(&rows);
	if (!ok || !expect_int(cl_rows_init(&rows, CL_BY_THREAD, true, 100), 0))
		return false;
	add_two_processes(&rows, 0, 1);
	ok = expect_u64(rows.htab.count, 4) &&
	     expect_row(&rows, 100, 100, 0, "server", 7, 1000, 2) &&
	     expect_row(&rows, 100, 101, 0, "worker", 9, 3000, 1) &&
	     expect_row(&rows, 100, 101, 1, "worker", 9, 500, 0) &&
	     expect_row(&rows, 200, 200, 1, "single", 7, 200, 3);
	cl_rows_free(&rows);
	return ok;
}

/*
 * Per CPU, a process has one row per CPU but still one cgroup, its leader's
 * ("a process is where its leader is"), also on a CPU the leader did not run
 * on in the interval: process 100's worker ran alone on CPU 1.
 */
static bool test_rows_per_cpu_process_cgroup(void)
{
	struct cl_rows rows;
	bool ok;

	if (!expect_int(cl_rows_init(&rows, CL_BY_PROCESS, true, 100), 0))
		return false;
	add_two_processes(&rows, 0, 1);
	ok = expect_row(&rows, 100, 100, 0, "server", 7, 4000, 3) &&
	     expect_row(&rows, 100, 100, 1, "server", 7, 500, 0);
	cl_rows_free(&rows);
	return ok;
}

/* A recycled pid is another process; the table holds at most max_rows. */
static bool test_rows_identity_and_bound(void)
{
	struct cl_task_meta old = thread(300, 300, 1000, 1000, "old", "old", 1, 1);
	struct cl_task_meta reborn = thread(300, 300, 9000, 9000, "new", "new", 1, 1);
	struct cl_task_meta other = thread(400, 400, 1000, 1000, "other", "other", 1, 1);
	struct cl_values v = oncpu(10, 0);
	struct cl_rows rows;
	bool ok;

	if (!expect_int(cl_rows_init(&rows, CL_BY_PROCESS, false, 2), 0))
		return false;
	cl_rows_add(&rows, &old, -1, &v);
	cl_rows_add(&rows, &reborn, -1, &v);
	cl_rows_add(&rows, &reborn, -1, &v);
	cl_rows_add(&rows, &other, -1, &v);	/* third row: over the bound */
	cl_rows_add(&rows, &old, -1, &v);	/* an existing row still adds up */
	ok = expect_u64(rows.htab.count, 2) && expect_u64(rows.overflow, 1) &&
	     expect(find_row(&rows, 400, 400, -1) == NULL);
	cl_rows_reset(&rows);
	ok = ok && expect_u64(rows.htab.count, 0) && expect(rows.sorted == NULL);
	cl_rows_add(&rows, &other, -1, &v);
	ok = ok && expect_row(&rows, 400, 400, -1, "other", 1, 10, 0);
	cl_rows_free(&rows);
	cl_rows_free(&rows);	/* twice is fine */
	return ok;
}

/* The events the cell and sort tests use, with statuses set as after opening. */
struct fixture {
	struct cl_event_set events;
	struct cl_schema schema;
	struct cl_rows rows;
};

enum { EV_CYCLES, EV_INSTRUCTIONS, EV_CACHE_MISSES, EV_PAGE_FAULTS };

static bool fixture_init(struct fixture *f, bool cycles_supported, enum cl_row_level level)
{
	const char *bad;

	memset(f, 0, sizeof(*f));	/* cl_rows_free works on it whatever fails */
	if (!expect_int(cl_events_parse(CL_DEFAULT_EVENTS, &f->events, &bad), 0) ||
	    !expect_int(cl_rows_init(&f->rows, level, false, 100), 0))
		return false;
	f->events.events[EV_CYCLES].status =
		cycles_supported ? CL_EVENT_SUPPORTED : CL_EVENT_UNSUPPORTED;
	f->events.events[EV_CYCLES].slot = cycles_supported ? 0 : -1;
	f->events.events[EV_INSTRUCTIONS].status = CL_EVENT_SUPPORTED;
	f->events.events[EV_INSTRUCTIONS].slot = cycles_supported ? 1 : 0;
	f->events.events[EV_CACHE_MISSES].status = CL_EVENT_UNSUPPORTED;
	f->events.events[EV_CACHE_MISSES].open_errno = 2;
	return expect_int(cl_schema_build(&f->schema, &f->events, level == CL_BY_THREAD, false), 0);
}

static const struct cl_column *column(const struct fixture *f, const char *name)
{
	int i = cl_schema_find(&f->schema, name);

	return i >= 0 ? &f->schema.cols[i] : NULL;
}

static struct cl_row test_row(void)
{
	struct cl_row row = {
		.pid = 4242,
		.tid = 4243,
		.cpu = -1,
		.cgroup_id = 5555,
		.comm = "bench",
	};

	row.v.v[CL_V_ONCPU_NS] = 250000000;
	row.v.v[CL_V_NVCSW] = 12;
	row.v.v[CL_V_NIVCSW] = 3;
	row.v.v[CL_V_MIN_FLT] = 100;
	row.v.v[CL_V_MAJ_FLT] = 2;
	row.v.v[CL_V_COUNTER0] = 4000;		/* cycles when supported */
	row.v.v[CL_V_COUNTER0 + 1] = 10000;	/* instructions when cycles is */
	return row;
}

static bool expect_cell_u64(const struct fixture *f, const char *name, const struct cl_row *row,
			    const struct cl_interval *interval, uint64_t want)
{
	const struct cl_column *col = column(f, name);
	struct cl_cell cell = { .type = CL_CELL_NULL };

	if (col)
		cl_cell_get(col, row, interval, &cell);
	if (expect(col != NULL) && expect_int(cell.type, CL_CELL_U64) && expect_u64(cell.u, want))
		return true;
	unit_note("column %s", name);
	return false;
}

static bool expect_cell_null(const struct fixture *f, const char *name, const struct cl_row *row,
			     const struct cl_interval *interval)
{
	const struct cl_column *col = column(f, name);
	struct cl_cell cell = { .type = CL_CELL_U64 };

	if (col)
		cl_cell_get(col, row, interval, &cell);
	if (expect(col != NULL) && expect_int(cell.type, CL_CELL_NULL))
		return true;
	unit_note("column %s", name);
	return false;
}

static bool test_cells(void)
{
	struct cl_interval interval = {
		.time_ns = 1700000000123456789ULL,
		.interval_ns = 1000000000,
	};
	struct cl_row row = test_row();
	const struct cl_column *col;
	struct fixture f;
	struct cl_cell cell;
	bool ok = false;

	if (!fixture_init(&f, true, CL_BY_THREAD))
		goto out_rows;
	if (!expect_cell_u64(&f, "time_ns", &row, &interval, 1700000000123456789ULL) ||
	    !expect_cell_u64(&f, "interval_ns", &row, &interval, 1000000000) ||
	    !expect_cell_u64(&f, "pid", &row, &interval, 4242) ||
	    !expect_cell_u64(&f, "tid", &row, &interval, 4243) ||
	    !expect_cell_u64(&f, "cgroup_id", &row, &interval, 5555) ||
	    !expect_cell_u64(&f, "oncpu_ns", &row, &interval, 250000000) ||
	    !expect_cell_u64(&f, "vol_switches", &row, &interval, 12) ||
	    !expect_cell_u64(&f, "invol_switches", &row, &interval, 3) ||
	    !expect_cell_u64(&f, "cycles", &row, &interval, 4000) ||
	    !expect_cell_u64(&f, "instructions", &row, &interval, 10000) ||
	    !expect_cell_null(&f, "cache_misses", &row, &interval) ||
	    !expect_cell_u64(&f, "page_faults", &row, &interval, 102))
		goto out_rows;
	col = column(&f, "comm");
	cl_cell_get(col, &row, &interval, &cell);
	if (!expect_int(cell.type, CL_CELL_STR) || !expect_str(cell.s, "bench"))
		goto out_rows;
	col = column(&f, "ipc");
	cl_cell_get(col, &row, &interval, &cell);
	if (!expect_int(cell.type, CL_CELL_F64) || !expect(cell.f == 2.5))
		goto out_rows;
	/* No cycles counted: no IPC (not infinity, not 0). */
	row.v.v[CL_V_COUNTER0] = 0;
	if (!expect_cell_null(&f, "ipc", &row, &interval) ||
	    !expect_cell_u64(&f, "cycles", &row, &interval, 0))
		goto out_rows;
	/* Supported but given no slot: nothing to read. */
	f.events.events[EV_CYCLES].slot = -1;
	if (!expect_cell_null(&f, "cycles", &row, &interval))
		goto out_rows;
	f.events.events[EV_CYCLES].slot = CL_MAX_COUNTERS;
	if (!expect_cell_null(&f, "cycles", &row, &interval))
		goto out_rows;
	/* Not opened yet (status unknown): no number either. */
	f.events.events[EV_CYCLES].slot = 0;
	f.events.events[EV_CYCLES].status = CL_EVENT_UNKNOWN;
	ok = expect_cell_null(&f, "cycles", &row, &interval) &&
	     expect_cell_null(&f, "ipc", &row, &interval);
out_rows:
	cl_rows_free(&f.rows);
	return ok;
}

static bool test_cells_cycles_unsupported(void)
{
	struct cl_interval interval = { .interval_ns = 1000000000 };
	struct cl_row row = test_row();
	struct fixture f;
	bool ok = false;

	if (!fixture_init(&f, false, CL_BY_PROCESS))
		goto out_rows;
	/* instructions moved to slot 0 when cycles could not be opened */
	ok = expect_cell_null(&f, "cycles", &row, &interval) &&
	     expect_cell_u64(&f, "instructions", &row, &interval, 4000) &&
	     expect_cell_null(&f, "ipc", &row, &interval) &&
	     expect(column(&f, "tid") == NULL);
out_rows:
	cl_rows_free(&f.rows);
	return ok;
}

static bool test_cells_per_cpu(void)
{
	struct cl_interval interval = { 0 };
	struct cl_event_set events;
	struct cl_schema schema;
	struct cl_row row = test_row();
	struct cl_cell cell;
	const char *bad;

	row.cpu = 3;
	if (!expect_int(cl_events_parse("page-faults", &events, &bad), 0) ||
	    !expect_int(cl_schema_build(&schema, &events, false, true), 0))
		return false;
	cl_cell_get(&schema.cols[cl_schema_find(&schema, "cpu")], &row, &interval, &cell);
	return expect_int(cell.type, CL_CELL_I64) && expect_int(cell.i, 3);
}

/* Rows for sorting, in no particular order. */
static const struct {
	uint32_t pid;
	const char *comm;
	uint64_t oncpu_ns, cycles, instructions;
} sort_rows[] = {
	{ 30, "charlie", 500, 100, 300 },	/* ipc 3 */
	{ 10, "bravo", 900, 100, 100 },		/* ipc 1 */
	{ 20, "alpha", 500, 0, 0 },		/* ipc null */
	{ 40, "delta", 0, 0, 0 },		/* idle */
	{ 5, "echo", 100, 100, 200 },		/* ipc 2 */
	{ 50, "Zulu", 700, 0, 50 },		/* ipc null */
};

static bool fill_sort_rows(struct fixture *f)
{
	if (!fixture_init(f, true, CL_BY_PROCESS))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(sort_rows); i++) {
		struct cl_task_meta meta = thread(sort_rows[i].pid, sort_rows[i].pid, 1, 1,
						  sort_rows[i].comm, sort_rows[i].comm, 1, 1);
		struct cl_values v = oncpu(sort_rows[i].oncpu_ns, 0);

		v.v[CL_V_COUNTER0] = sort_rows[i].cycles;
		v.v[CL_V_COUNTER0 + 1] = sort_rows[i].instructions;
		cl_rows_add(&f->rows, &meta, -1, &v);
	}
	return true;
}

static const struct {
	const char *column;
	bool keep_idle;
	uint32_t pids[ARRAY_SIZE(sort_rows) + 1];	/* 0-terminated */
} sort_cases[] = {
	/* Metrics biggest first, ties by pid. */
	{ "oncpu_ns", false, { 10, 50, 20, 30, 5 } },
	{ "oncpu_ns", true, { 10, 50, 20, 30, 5, 40 } },
	{ "cycles", false, { 5, 10, 30, 20, 50 } },
	/* Nulls last, whichever way the rest goes. */
	{ "ipc", false, { 30, 5, 10, 20, 50 } },
	{ "ipc", true, { 30, 5, 10, 20, 40, 50 } },
	/* Unsupported: all null, pid order. */
	{ "cache_misses", false, { 5, 10, 20, 30, 50 } },
	/* Identities ascending. */
	{ "pid", false, { 5, 10, 20, 30, 50 } },
	{ "comm", false, { 50, 20, 10, 30, 5 } },
	{ "comm", true, { 50, 20, 10, 30, 40, 5 } },
};

static bool test_sort(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(sort_cases); i++) {
		struct fixture f;
		size_t n = 0, j = 0;
		bool case_ok;
		int col;

		case_ok = fill_sort_rows(&f);
		col = cl_schema_find(&f.schema, sort_cases[i].column);
		case_ok = case_ok && expect(col >= 0);
		if (case_ok) {
			while (sort_cases[i].pids[n])
				n++;
			f.rows.keep_idle = sort_cases[i].keep_idle;
			case_ok = expect_u64(cl_rows_sort(&f.rows, &f.schema, col), n) &&
				  expect_u64(f.rows.nr_sorted, n);
			for (j = 0; case_ok && j < n; j++)
				case_ok = expect_u64(f.rows.sorted[j]->pid, sort_cases[i].pids[j]);
		}
		if (!case_ok) {
			unit_note("sort by %s%s, row %zu", sort_cases[i].column,
				  sort_cases[i].keep_idle ? " keeping idle rows" : "", j);
			ok = false;
		}
		cl_rows_free(&f.rows);
	}
	return ok;
}

static bool test_sort_empty(void)
{
	struct fixture f;
	bool ok = false;

	if (!fixture_init(&f, true, CL_BY_PROCESS))
		goto out_rows;
	ok = expect_u64(cl_rows_sort(&f.rows, &f.schema, cl_schema_find(&f.schema, "pid")), 0) &&
	     expect_u64(f.rows.nr_sorted, 0);
out_rows:
	cl_rows_free(&f.rows);
	return ok;
}

int main(void)
{
	RUN_TEST(test_schema_columns);
	RUN_TEST(test_schema_details);
	RUN_TEST(test_rows_by_process);
	RUN_TEST(test_rows_by_thread);
	RUN_TEST(test_rows_per_cpu);
	RUN_TEST(test_rows_per_cpu_process_cgroup);
	RUN_TEST(test_rows_identity_and_bound);
	RUN_TEST(test_cells);
	RUN_TEST(test_cells_cycles_unsupported);
	RUN_TEST(test_cells_per_cpu);
	RUN_TEST(test_sort);
	RUN_TEST(test_sort_empty);
	return unit_done();
}
