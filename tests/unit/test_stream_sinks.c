// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/sinks: the stream sinks of record and trace. CSV, JSON and trace's
 * text render the same few synthetic records, compared byte for byte with
 * tests/unit/golden/{record,trace}.{csv,jsonl} and trace.text; the SQLite
 * sink writes a database that is read back with the sqlite3 API.
 *
 * After an intended change to an output format, regenerate the golden files
 * from the repository root with
 *
 *	UPDATE_GOLDEN=1 build/tests/test_stream_sinks
 *
 * then read the diff before committing it: the golden files are the spec.
 * GOLDEN_DIR overrides where they are (default: tests/unit/golden, relative
 * to the repository root, where tests/run.sh runs the tests).
 */
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sqlite3.h>

#include "sinks/stream.h"
#include "golden.h"

#define NR_CPUS		4
#define START_REAL_NS	1700000000123456789ULL	/* 2023-11-14 22:13:20.123 UTC */
#define START_MONO_NS	5000000000ULL
#define END_REAL_NS	1700000003000000000ULL
#define NR_COUNTERS	3

/* As after opening them: cache-misses had no PMU counter. */
enum { EV_CYCLES, EV_CACHE_MISSES, EV_PAGE_FAULTS, EV_TASK_CLOCK, EV_NR };

struct fixture {
	struct cl_event_set events;
	struct cl_stream_schema schema;
	uint64_t lost[NR_CPUS];
	uint64_t ticks[NR_CPUS];
	struct cl_stream_summary summary;
};

static bool fixture_init(struct fixture *f, enum cl_mode mode)
{
	const char *bad;

	memset(f, 0, sizeof(*f));
	if (!expect_int(cl_events_parse("cycles,cache-misses,page-faults,task-clock", &f->events,
					&bad), 0) ||
	    !expect_u64(f->events.count, EV_NR))
		return false;
	cl_events_use_perf(&f->events);
	f->events.events[EV_CYCLES].status = CL_EVENT_SUPPORTED;
	f->events.events[EV_CYCLES].slot = 0;
	f->events.events[EV_CACHE_MISSES].status = CL_EVENT_UNSUPPORTED;
	f->events.events[EV_CACHE_MISSES].open_errno = ENOENT;
	f->events.events[EV_PAGE_FAULTS].status = CL_EVENT_SUPPORTED;
	f->events.events[EV_PAGE_FAULTS].slot = 1;
	f->events.events[EV_TASK_CLOCK].status = CL_EVENT_SUPPORTED;
	f->events.events[EV_TASK_CLOCK].slot = 2;
	cl_stream_schema_build(&f->schema, mode, &f->events);
	f->schema.realtime_offset_ns = (int64_t)(START_REAL_NS - START_MONO_NS);
	f->summary = (struct cl_stream_summary){
		.version = "9.8.7-test",
		.host = "testhost",
		.kernel = "Linux 6.8.0-test x86_64",
		.start_real_ns = START_REAL_NS,
		.start_mono_ns = START_MONO_NS,
		.slice_ns = mode == CL_MODE_RECORD ? 1000000 : 0,
		.filter = "all tasks",
		.events = &f->events,
		.nr_cpus = NR_CPUS,
		.cpus_online = 3,
		.cpus_online_list = "0-1,3",
		.lost = f->lost,
		.ticks = f->ticks,
	};
	return true;
}

struct slice_data {
	uint32_t cpu;
	uint64_t start_ns, duration_ns;
	uint32_t pid, tid;
	const char *comm;
	uint64_t cgroup_id;
	uint32_t end;
	uint64_t counters[NR_COUNTERS];	/* cycles, page-faults, task-clock */
};

static const struct slice_data slices[] = {
	/* A name that needs quoting in CSV and JSON. */
	{ 0, 5001000000ULL, 1000000, 1234, 1240, "say \"hi\",ok", 4001, CL_SLICE_TICK,
	  { 1500000, 3, 1000000 } },
	/* A control character in a name; nothing counted. */
	{ 1, 5001200000ULL, 250000, 42, 42, "ctl\x01" "char", 1, CL_SLICE_SWITCH, { 0, 0, 0 } },
	/* A leading space; big numbers. */
	{ 3, 5001250000ULL, 999000000, 7, 7, " lead", 12345, CL_SLICE_TICK,
	  { 12345678901ULL, 123400, 999000000 } },
	/* After losses: the largest pid there is. */
	{ 1, 5002600000ULL, 812, 4194303, 4194303, "kworker/1:0H", 1, CL_SLICE_SWITCH,
	  { 812, 0, 812 } },
};

struct switch_data {
	uint32_t cpu;
	uint64_t time_ns;
	uint32_t prev_pid, prev_tid;
	const char *prev_comm;
	uint32_t prev_state;
	uint32_t next_pid, next_tid;
	const char *next_comm;
	uint64_t run_ns;
	uint64_t counters[NR_COUNTERS];
};

static const struct switch_data switches[] = {
	/* The first switch seen on CPU 0: no run length, no counter baseline. */
	{ 0, 5001000000ULL, 0, 0, "swapper/0", 0, 1234, 1240, "say \"hi\",ok", 0, { 111, 1, 1 } },
	{ 0, 5001612300ULL, 1234, 1240, "say \"hi\",ok", 1, 57, 57, "kworker/0:1", 612300,
	  { 1500000, 3, 612300 } },
	{ 1, 5002000007ULL, 60, 60, "kworker/1:0H", 0x402, 42, 42, "ctl\x01" "char",
	  1500000000, { 12345678901ULL, 0, 1500000000 } },
	/* After losses. */
	{ 1, 5003000000ULL, 42, 42, "ctl\x01" "char", 2, 4194303, 4194303, " lead", 999,
	  { 999, 123400, 999 } },
};

#define NR_RECORDS ARRAY_SIZE(slices)
_Static_assert(ARRAY_SIZE(slices) == ARRAY_SIZE(switches), "one table per mode, same length");

static struct cl_slice_record *slice_record(const struct slice_data *d)
{
	struct cl_slice_record *rec = calloc(1, sizeof(*rec) + NR_COUNTERS * sizeof(__u64));

	if (!rec)
		return NULL;
	rec->kind = CL_REC_SLICE;
	rec->cpu = d->cpu;
	rec->start_ns = d->start_ns;
	rec->duration_ns = d->duration_ns;
	rec->pid = d->pid;
	rec->tid = d->tid;
	rec->cgroup_id = d->cgroup_id;
	snprintf(rec->comm, sizeof(rec->comm), "%s", d->comm);
	rec->end = d->end;
	rec->nr_counters = NR_COUNTERS;
	memcpy(rec->counters, d->counters, sizeof(d->counters));
	return rec;
}

static struct cl_switch_record *switch_record(const struct switch_data *d)
{
	struct cl_switch_record *rec = calloc(1, sizeof(*rec) + NR_COUNTERS * sizeof(__u64));

	if (!rec)
		return NULL;
	rec->kind = CL_REC_SWITCH;
	rec->cpu = d->cpu;
	rec->time_ns = d->time_ns;
	rec->prev_pid = d->prev_pid;
	rec->prev_tid = d->prev_tid;
	rec->next_pid = d->next_pid;
	rec->next_tid = d->next_tid;
	snprintf(rec->prev_comm, sizeof(rec->prev_comm), "%s", d->prev_comm);
	snprintf(rec->next_comm, sizeof(rec->next_comm), "%s", d->next_comm);
	rec->prev_cgroup_id = 4001;
	rec->next_cgroup_id = 1;
	rec->run_ns = d->run_ns;
	rec->prev_state = d->prev_state;
	rec->nr_counters = NR_COUNTERS;
	memcpy(rec->counters, d->counters, sizeof(d->counters));
	return rec;
}

/* Record @i of the fixture's mode through the sink, as the ring buffer callback does. */
static int put_record(struct fixture *f, struct cl_stream_sink *sink, size_t i)
{
	void *rec;
	size_t size;
	int err;

	if (f->schema.mode == CL_MODE_RECORD) {
		rec = slice_record(&slices[i]);
		size = sizeof(struct cl_slice_record);
	} else {
		rec = switch_record(&switches[i]);
		size = sizeof(struct cl_switch_record);
	}
	if (!rec)
		return -ENOMEM;
	size += NR_COUNTERS * sizeof(__u64);
	err = -EINVAL;
	if (cl_stream_record_valid(&f->schema, rec, size))
		err = sink->ops->record(sink, rec);
	free(rec);
	return err;
}

static int flush(struct fixture *f, struct cl_stream_sink *sink)
{
	f->summary.records = sink->records;
	return sink->ops->flush(sink, &f->summary);
}

static int cpu_change(struct fixture *f, struct cl_stream_sink *sink, uint64_t mono_ns,
		      unsigned int cpu, bool online)
{
	f->summary.hotplug_events++;
	return sink->ops->cpu_change ? sink->ops->cpu_change(sink, mono_ns, cpu, online) : 0;
}

static int finish(struct fixture *f, struct cl_stream_sink *sink)
{
	f->summary.records = sink->records;
	f->summary.end_real_ns = END_REAL_NS;
	return sink->ops->finish(sink, &f->summary);
}

/*
 * The records through one sink, as record and trace do: a flush, CPU 2 goes,
 * switches are lost on CPUs 1 and 3, a flush, one more record, CPU 2 comes
 * back, one more loss, the end.
 */
static int render(struct fixture *f, struct cl_stream_sink *sink)
{
	int err;

	err = sink->ops->start(sink, &f->summary);
	for (size_t i = 0; !err && i < 3; i++)
		err = put_record(f, sink, i);
	if (!err)
		err = flush(f, sink);
	if (!err)
		err = cpu_change(f, sink, 5002500000ULL, 2, false);
	f->lost[1] = 2;
	f->lost[3] = 3;
	if (!err)
		err = flush(f, sink);
	if (!err)
		err = put_record(f, sink, 3);
	if (!err)
		err = cpu_change(f, sink, 5002700000ULL, 2, true);
	f->lost[1] = 3;
	if (!err)
		err = finish(f, sink);
	return err;
}

/* Renders the records through @ops into a malloc'ed string. */
static char *render_text(enum cl_mode mode, const struct cl_stream_sink_ops *ops, size_t *len)
{
	struct cl_stream_sink sink;
	struct fixture f;
	char *text = NULL;
	FILE *out;
	int err;

	if (!fixture_init(&f, mode))
		return NULL;
	out = open_memstream(&text, len);
	if (!expect(out != NULL))
		return NULL;
	memset(&sink, 0, sizeof(sink));
	sink.ops = ops;
	sink.schema = &f.schema;
	sink.out = out;
	err = render(&f, &sink);
	fclose(out);
	if (!expect_int(err, 0) || !expect_u64(sink.records, NR_RECORDS)) {
		free(text);
		text = NULL;
	}
	return text;
}

static bool check_golden(enum cl_mode mode, const struct cl_stream_sink_ops *ops,
			 const char *file)
{
	size_t len = 0;
	char *text;
	bool ok;

	/* The text format prints local times. */
	setenv("TZ", "UTC", 1);
	tzset();
	text = render_text(mode, ops, &len);
	if (!expect(text != NULL))
		return false;
	ok = unit_golden_check(file, text, len);
	free(text);
	return ok;
}

static bool test_golden_record_csv(void)
{
	return check_golden(CL_MODE_RECORD, &cl_stream_csv_ops, "record.csv");
}

static bool test_golden_record_jsonl(void)
{
	return check_golden(CL_MODE_RECORD, &cl_stream_jsonl_ops, "record.jsonl");
}

static bool test_golden_trace_csv(void)
{
	return check_golden(CL_MODE_TRACE, &cl_stream_csv_ops, "trace.csv");
}

static bool test_golden_trace_jsonl(void)
{
	return check_golden(CL_MODE_TRACE, &cl_stream_jsonl_ops, "trace.jsonl");
}

static bool test_golden_trace_text(void)
{
	return check_golden(CL_MODE_TRACE, &cl_trace_text_ops, "trace.text");
}

/*
 * trace's text: a header every 40 switches that carries the losses known so
 * far, and a line as soon as a flush learns of new ones. 85 switches, 7
 * lost after the 45th: H 40 H 5 # 35 H 5.
 */
static bool test_text_headers(void)
{
	static const uint64_t header_lost[] = { 0, 0, 7 };
	static const struct {
		char kind;	/* H header, r switch, # note */
		size_t count;
	} want_lines[] = {
		{ 'H', 1 }, { 'r', 40 }, { 'H', 1 }, { 'r', 5 }, { '#', 1 }, { 'r', 35 },
		{ 'H', 1 }, { 'r', 5 },
	};
	struct cl_stream_sink sink;
	char kinds[128], want[128];
	size_t len = 0, nr_kinds = 0, nr_headers = 0, used = 0;
	struct fixture f;
	char *text = NULL;
	bool ok = false;
	FILE *out;
	int err;

	setenv("TZ", "UTC", 1);
	tzset();
	if (!fixture_init(&f, CL_MODE_TRACE))
		return false;
	out = open_memstream(&text, &len);
	if (!expect(out != NULL))
		return false;
	memset(&sink, 0, sizeof(sink));
	sink.ops = &cl_trace_text_ops;
	sink.schema = &f.schema;
	sink.out = out;
	err = sink.ops->start(&sink, &f.summary);
	for (int i = 0; !err && i < 85; i++) {
		err = put_record(&f, &sink, 1 + i % 3);
		if (!err && i == 44) {
			f.lost[2] = 7;
			err = flush(&f, &sink);
		}
	}
	if (!err)
		err = finish(&f, &sink);
	fclose(out);
	if (!expect_int(err, 0) || !expect_u64(sink.records, 85))
		goto out_text;

	for (const char *line = text, *end; *line; line = end + 1) {
		unsigned long long lost;
		const char *mark;

		end = strchr(line, '\n');
		if (!expect(end != NULL, "(every line ends in a newline)") ||
		    !expect(nr_kinds < sizeof(kinds) - 1))
			goto out_text;
		if (!strncmp(line, "TIME ", 5)) {
			kinds[nr_kinds++] = 'H';
			mark = strstr(line, "   (lost ");
			if (!expect(mark != NULL && mark < end) ||
			    !expect(sscanf(mark, "   (lost %llu)", &lost) == 1) ||
			    !expect(nr_headers < ARRAY_SIZE(header_lost)) ||
			    !expect_u64(lost, header_lost[nr_headers]))
				goto out_lines;
			nr_headers++;
		} else if (line[0] == '#') {
			static const char note[] = "# 7 switches lost (ring buffer full), 7 so far";

			kinds[nr_kinds++] = '#';
			if (!expect_u64(end - line, strlen(note)) ||
			    !expect(!memcmp(line, note, strlen(note))))
				goto out_lines;
		} else {
			kinds[nr_kinds++] = 'r';
		}
	}
	kinds[nr_kinds] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(want_lines); i++) {
		memset(want + used, want_lines[i].kind, want_lines[i].count);
		used += want_lines[i].count;
	}
	want[used] = '\0';
	ok = expect_str(kinds, want) && expect_u64(nr_headers, ARRAY_SIZE(header_lost));
	goto out_text;
out_lines:
	unit_note("line %zu of the output", nr_kinds);
out_text:
	if (!ok && text)
		fprintf(stderr, "%s", text);
	free(text);
	return ok;
}

/* The reader went away (cpuledger trace | head): every text sink says -EPIPE. */
static bool check_epipe(enum cl_mode mode, const struct cl_stream_sink_ops *ops)
{
	struct cl_stream_sink sink;
	struct fixture f;
	int fds[2], err;
	bool ok = false;
	FILE *out;

	if (!fixture_init(&f, mode) || !expect(pipe(fds) == 0))
		goto out;
	close(fds[0]);
	out = fdopen(fds[1], "w");
	if (!expect(out != NULL)) {
		close(fds[1]);
		goto out;
	}
	memset(&sink, 0, sizeof(sink));
	sink.ops = ops;
	sink.schema = &f.schema;
	sink.out = out;
	/* A header may already fail here; that is the same answer, earlier. */
	err = ops->start(&sink, &f.summary);
	ok = expect(err == 0 || err == -EPIPE) && expect_int(put_record(&f, &sink, 1), 0) &&
	     expect_int(flush(&f, &sink), -EPIPE) && expect_int(put_record(&f, &sink, 2), 0) &&
	     expect_int(finish(&f, &sink), -EPIPE);
	fclose(out);
out:
	if (!ok)
		unit_note("%s sink", ops->name);
	return ok;
}

static bool test_epipe(void)
{
	bool ok;

	signal(SIGPIPE, SIG_IGN);
	ok = check_epipe(CL_MODE_RECORD, &cl_stream_csv_ops);
	ok &= check_epipe(CL_MODE_RECORD, &cl_stream_jsonl_ops);
	ok &= check_epipe(CL_MODE_TRACE, &cl_stream_csv_ops);
	ok &= check_epipe(CL_MODE_TRACE, &cl_trace_text_ops);
	signal(SIGPIPE, SIG_DFL);
	return ok;
}

/* SQLite: a directory of its own for each database. */

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void remove_tree(const char *root)
{
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* One value of a query that returns one row: an integer, text or NULL. */
struct value_want {
	int type;		/* SQLITE_INTEGER, SQLITE_TEXT or SQLITE_NULL */
	int64_t i;
	const char *s;
};

static bool check_value(sqlite3_stmt *stmt, int col, const struct value_want *want)
{
	int type = sqlite3_column_type(stmt, col);

	if (!expect_int(type, want->type))
		return false;
	if (type == SQLITE_INTEGER)
		return expect_int(sqlite3_column_int64(stmt, col), want->i);
	if (type == SQLITE_TEXT)
		return expect_str((const char *)sqlite3_column_text(stmt, col), want->s);
	return true;
}

/* Runs @sql (one row, one column expected) and compares. */
static bool query_one(sqlite3 *db, const char *sql, const struct value_want *want)
{
	sqlite3_stmt *stmt = NULL;
	bool ok;

	ok = expect_int(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK) &&
	     expect_int(sqlite3_step(stmt), SQLITE_ROW) &&
	     expect_int(sqlite3_column_count(stmt), 1) && check_value(stmt, 0, want) &&
	     expect_int(sqlite3_step(stmt), SQLITE_DONE);
	if (!ok)
		unit_note("%s: %s", sql, sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	return ok;
}

static bool query_int(sqlite3 *db, const char *sql, int64_t value)
{
	const struct value_want want = { SQLITE_INTEGER, value, NULL };

	return query_one(db, sql, &want);
}

static bool query_text(sqlite3 *db, const char *sql, const char *value)
{
	const struct value_want want = { SQLITE_TEXT, 0, value };

	return query_one(db, sql, &want);
}

static bool check_slices(sqlite3 *db, size_t count)
{
	static const char *const names[] = {
		"start_ns", "duration_ns", "cpu", "pid", "tid", "comm", "cgroup_id", "closed_by",
		"cycles", "cache_misses", "page_faults", "task_clock",
	};
	sqlite3_stmt *stmt = NULL;
	bool ok = false;
	size_t row = 0;
	int rc;

	if (!expect_int(sqlite3_prepare_v2(db, "SELECT * FROM slices ORDER BY rowid", -1, &stmt,
					   NULL), SQLITE_OK) ||
	    !expect_int(sqlite3_column_count(stmt), ARRAY_SIZE(names)))
		goto out_stmt;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!expect_str(sqlite3_column_name(stmt, (int)i), names[i]))
			goto out_stmt;
	}
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const struct slice_data *d = &slices[row];
		const struct value_want want[] = {
			{ SQLITE_INTEGER, (int64_t)d->start_ns },
			{ SQLITE_INTEGER, (int64_t)d->duration_ns },
			{ SQLITE_INTEGER, d->cpu },
			{ SQLITE_INTEGER, d->pid },
			{ SQLITE_INTEGER, d->tid },
			{ SQLITE_TEXT, 0, d->comm },
			{ SQLITE_INTEGER, (int64_t)d->cgroup_id },
			{ SQLITE_TEXT, 0, d->end == CL_SLICE_TICK ? "tick" : "switch" },
			{ SQLITE_INTEGER, (int64_t)d->counters[0] },
			{ SQLITE_NULL },	/* cache-misses: unsupported */
			{ SQLITE_INTEGER, (int64_t)d->counters[1] },
			{ SQLITE_INTEGER, (int64_t)d->counters[2] },
		};

		if (!expect(row < count))
			goto out_stmt;
		for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
			if (!check_value(stmt, (int)i, &want[i])) {
				unit_note("slice %zu, column %s", row, names[i]);
				goto out_stmt;
			}
		}
		row++;
	}
	ok = expect_int(rc, SQLITE_DONE) && expect_u64(row, count);
out_stmt:
	sqlite3_finalize(stmt);
	return ok;
}

static bool check_meta(sqlite3 *db)
{
	static const struct {
		const char *key;
		const char *value;
	} meta[] = {
		{ "cpuledger_version", "9.8.7-test" },
		{ "host", "testhost" },
		{ "kernel", "Linux 6.8.0-test x86_64" },
		{ "start_realtime_ns", "1700000000123456789" },
		{ "start_monotonic_ns", "5000000000" },
		{ "slice_ns", "1000000" },
		{ "events", "cycles:supported,cache-misses:unsupported,page-faults:supported,"
			    "task-clock:supported" },
		{ "filter", "all tasks" },
		{ "cpus_possible", "4" },
		{ "cpus_online", "0-1,3" },
		{ "lost_records", "6" },	/* 3 on CPU 1, 3 on CPU 3 */
		{ "slices", "4" },
		{ "hotplug_events", "2" },
		{ "end_realtime_ns", "1700000003000000000" },
	};
	sqlite3_stmt *stmt = NULL;
	bool ok = true;

	if (!expect_int(sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &stmt,
					   NULL), SQLITE_OK))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(meta); i++) {
		const struct value_want want = { SQLITE_TEXT, 0, meta[i].value };

		sqlite3_reset(stmt);
		sqlite3_bind_text(stmt, 1, meta[i].key, -1, SQLITE_STATIC);
		if (!expect_int(sqlite3_step(stmt), SQLITE_ROW) || !check_value(stmt, 0, &want)) {
			unit_note("meta %s", meta[i].key);
			ok = false;
		}
	}
	sqlite3_finalize(stmt);
	/* How to turn start_ns into wall time is written down with the data. */
	return query_int(db, "SELECT count(*) FROM meta WHERE key = 'time_base' AND "
			     "value LIKE '%start_monotonic_ns%start_realtime_ns%'", 1) && ok;
}

/* Rows of a query, each as text columns joined by '|', rows by ';'. */
static bool query_rows(sqlite3 *db, const char *sql, const char *want)
{
	sqlite3_stmt *stmt = NULL;
	char got[1024] = "";
	size_t used = 0;
	bool ok = false;
	int rc;

	if (!expect_int(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK))
		goto out_stmt;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW && used < sizeof(got)) {
		for (int i = 0; i < sqlite3_column_count(stmt) && used < sizeof(got); i++) {
			const unsigned char *text = sqlite3_column_text(stmt, i);

			used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%s",
						 i ? "|" : used ? ";" : "",
						 text ? (const char *)text : "NULL");
		}
	}
	ok = expect_int(rc, SQLITE_DONE) && expect_str(got, want);
out_stmt:
	if (!ok)
		unit_note("%s", sql);
	sqlite3_finalize(stmt);
	return ok;
}

static bool check_database(const char *path, const struct fixture *f)
{
	char reason[256];
	sqlite3 *db = NULL;
	bool ok;

	if (!expect_int(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK)) {
		sqlite3_close(db);
		return false;
	}
	snprintf(reason, sizeof(reason),
		 "cycles|cycles|1|NULL;cache-misses|cache_misses|0|%s;page-faults|page_faults|1|"
		 "NULL;task-clock|task_clock|1|NULL",
		 cl_event_open_reason(&f->events.events[EV_CACHE_MISSES]));
	ok = query_rows(db, "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index')"
			    " AND name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name",
			"index|slices_by_cpu;index|slices_by_pid;table|cpus;table|events;"
			"table|hotplug;table|meta;table|slices") &&
	     query_rows(db, "SELECT tbl_name FROM sqlite_master WHERE name = 'slices_by_pid' OR "
			    "name = 'slices_by_cpu'", "slices;slices") &&
	     query_text(db, "PRAGMA journal_mode", "wal") && check_slices(db, NR_RECORDS) &&
	     check_meta(db) &&
	     query_rows(db, "SELECT name, column_name, supported, reason FROM events "
			    "ORDER BY rowid", reason) &&
	     query_rows(db, "SELECT cpu, lost_records, ticks FROM cpus ORDER BY cpu",
			"0|0|10;1|3|20;2|0|0;3|3|40") &&
	     query_rows(db, "SELECT time_ns, cpu, online FROM hotplug ORDER BY rowid",
			"5002500000|2|0;5002700000|2|1");
	sqlite3_close(db);
	return ok;
}

/* How many slices a second connection sees now: what was committed. */
static bool reader_sees(const char *path, int64_t slice_rows, const char *meta_slices)
{
	sqlite3 *db = NULL;
	bool ok;

	if (!expect_int(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK)) {
		sqlite3_close(db);
		return false;
	}
	ok = query_int(db, "SELECT count(*) FROM slices", slice_rows) &&
	     query_text(db, "SELECT value FROM meta WHERE key = 'slices'", meta_slices);
	sqlite3_close(db);
	return ok;
}

/*
 * record's database: what goes in comes out, batches are committed at each
 * flush (a reader sees them while recording goes on), and the file stands
 * alone at the end.
 */
static bool test_sqlite(void)
{
	char dir[] = "/tmp/cpuledger-unit-XXXXXX";
	char path[sizeof(dir) + 32], wal[sizeof(path) + 8];
	struct cl_stream_sink sink;
	struct fixture f;
	struct stat st;
	bool ok = false;

	if (!fixture_init(&f, CL_MODE_RECORD) || !expect(mkdtemp(dir) != NULL))
		return false;
	snprintf(path, sizeof(path), "%s/record.db", dir);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	memset(&sink, 0, sizeof(sink));
	sink.ops = &cl_stream_sqlite_ops;
	sink.schema = &f.schema;
	sink.path = path;
	if (!expect_int(sink.ops->start(&sink, &f.summary), 0)) {
		unit_note("%s", cl_stream_sqlite_error(&sink));
		goto out_sink;
	}
	/* The schema and meta are committed at once. */
	if (!reader_sees(path, 0, "0"))
		goto out_sink;
	for (size_t i = 0; i < 3; i++) {
		if (!expect_int(put_record(&f, &sink, i), 0))
			goto out_sink;
	}
	/* Not yet committed: a batch ends at a flush. */
	if (!reader_sees(path, 0, "0"))
		goto out_sink;
	f.ticks[0] = 5;
	if (!expect_int(flush(&f, &sink), 0) || !reader_sees(path, 3, "3"))
		goto out_sink;

	f.summary.cpus_online = 2;
	if (!expect_int(cpu_change(&f, &sink, 5002500000ULL, 2, false), 0))
		goto out_sink;
	f.lost[1] = 2;
	f.lost[3] = 3;
	if (!expect_int(flush(&f, &sink), 0) || !expect_int(put_record(&f, &sink, 3), 0) ||
	    !reader_sees(path, 3, "3"))
		goto out_sink;
	f.summary.cpus_online = 3;
	if (!expect_int(cpu_change(&f, &sink, 5002700000ULL, 2, true), 0))
		goto out_sink;
	f.lost[1] = 3;
	f.ticks[0] = 10;
	f.ticks[1] = 20;
	f.ticks[3] = 40;
	if (!expect_int(finish(&f, &sink), 0)) {
		unit_note("%s", cl_stream_sqlite_error(&sink));
		goto out_dir;
	}
	ok = expect(sink.priv == NULL) && expect_u64(sink.records, NR_RECORDS) &&
	     expect(stat(wal, &st) != 0 || st.st_size == 0, "(the WAL folded back)") &&
	     check_database(path, &f);
	goto out_dir;
out_sink:
	sink.ops->finish(&sink, &f.summary);
out_dir:
	remove_tree(dir);
	return ok;
}

/* A database that cannot be created: an error, a message that names the file, no crash. */
static bool test_sqlite_open_error(void)
{
	char dir[] = "/tmp/cpuledger-unit-XXXXXX";
	char path[sizeof(dir) + 32], missing[sizeof(dir) + 16];
	struct cl_stream_sink sink;
	struct fixture f;
	const char *msg;
	bool ok = false;
	int err;

	if (!fixture_init(&f, CL_MODE_RECORD) || !expect(mkdtemp(dir) != NULL))
		return false;
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	snprintf(path, sizeof(path), "%s/record.db", missing);
	memset(&sink, 0, sizeof(sink));
	sink.ops = &cl_stream_sqlite_ops;
	sink.schema = &f.schema;
	sink.path = path;
	err = sink.ops->start(&sink, &f.summary);
	msg = cl_stream_sqlite_error(&sink);
	ok = expect(err < 0) && expect(msg != NULL) && expect(strstr(msg, path) != NULL);
	if (!ok)
		unit_note("start: %d, \"%s\"", err, msg ? msg : "(null)");
	/* The command finishes a sink whatever happened; that frees it. */
	sink.ops->finish(&sink, &f.summary);
	ok = expect(sink.priv == NULL) && expect(access(missing, F_OK) != 0) && ok;
	remove_tree(dir);
	return ok;
}

int main(void)
{
	RUN_TEST(test_golden_record_csv);
	RUN_TEST(test_golden_record_jsonl);
	RUN_TEST(test_golden_trace_csv);
	RUN_TEST(test_golden_trace_jsonl);
	RUN_TEST(test_golden_trace_text);
	RUN_TEST(test_text_headers);
	RUN_TEST(test_epipe);
	RUN_TEST(test_sqlite);
	RUN_TEST(test_sqlite_open_error);
	return unit_done();
}
