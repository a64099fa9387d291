// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/sinks: each output format renders the same three synthetic intervals,
 * compared byte for byte with tests/unit/golden/stat.{table,csv,jsonl}.
 *
 * After an intended change to an output format, regenerate the golden files
 * from the repository root with
 *
 *	UPDATE_GOLDEN=1 build/tests/test_sinks
 *
 * then read the diff before committing it: the golden files are the spec.
 * GOLDEN_DIR overrides where they are (default: tests/unit/golden, relative
 * to the repository root, where tests/run.sh runs the tests).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sinks/sink.h"
#include "golden.h"

#define NSEC_PER_SEC 1000000000ULL

enum { EV_CYCLES, EV_INSTRUCTIONS, EV_CACHE_MISSES, EV_PAGE_FAULTS };

struct fixture {
	struct cl_event_set events;
	struct cl_schema schema;
	struct cl_rows rows;
};

/* The default events as after opening them: cache-misses had no PMU counter. */
static bool fixture_init(struct fixture *f)
{
	const char *bad;

	memset(f, 0, sizeof(*f));
	if (!expect_int(cl_events_parse(CL_DEFAULT_EVENTS, &f->events, &bad), 0))
		return false;
	f->events.events[EV_CYCLES].status = CL_EVENT_SUPPORTED;
	f->events.events[EV_CYCLES].slot = 0;
	f->events.events[EV_INSTRUCTIONS].status = CL_EVENT_SUPPORTED;
	f->events.events[EV_INSTRUCTIONS].slot = 1;
	f->events.events[EV_CACHE_MISSES].status = CL_EVENT_UNSUPPORTED;
	f->events.events[EV_CACHE_MISSES].open_errno = ENOENT;
	return expect_int(cl_schema_build(&f->schema, &f->events, false, false), 0) &&
	       expect_int(cl_rows_init(&f->rows, CL_BY_PROCESS, false, 100), 0);
}

struct task_delta {
	uint32_t tid, tgid;
	const char *comm, *leader_comm;
	uint64_t cgroup_id;
	uint64_t oncpu_ns, vol, invol, min_flt, maj_flt, cycles, instructions;
};

static const struct task_delta first_interval[] = {
	/* Two threads of one process whose name needs quoting in CSV and JSON. */
	{ 1234, 1234, "say \"hi\",ok", "say \"hi\",ok", 4001, 612300000, 100, 5, 250, 2,
	  1500000000, 2250000000 },
	{ 1240, 1234, "worker", "say \"hi\",ok", 4001, 200000000, 20, 2, 50, 0, 500000000,
	  750000000 },
	/* A control character in a name; no cycles counted, so no IPC. */
	{ 42, 42, "ctl\x01" "char", "ctl\x01" "char", 1, 45200, 3, 0, 0, 0, 0, 0 },
	/* Big numbers shown with K/M/G in the table. */
	{ 7, 7, "plain", "plain", 1, 999000000, 123456, 99999, 123400, 56, 12345678901ULL,
	  20000000000ULL },
	/* A leading space, the largest pid there is. */
	{ 4194303, 4194303, " lead", " lead", 18446744073709551615ULL, 812, 1, 0, 0, 0, 0, 0 },
	/* Idle this interval: left out. */
	{ 555, 555, "idle", "idle", 1, 0, 0, 0, 0, 0, 0, 0 },
};

static const struct task_delta second_interval[] = {
	{ 7, 7, "plain", "plain", 1, 400000000, 10, 1, 0, 0, 1000000, 500000 },
};

static void add_deltas(struct cl_rows *rows, const struct task_delta *deltas, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		const struct task_delta *d = &deltas[i];
		struct cl_task_meta meta = {
			.tid = d->tid,
			.tgid = d->tgid,
			.start_ns = 1000 + d->tid,
			.leader_start_ns = 1000 + d->tgid,
			.cgroup_id = d->cgroup_id,
			/* Single-threaded processes: the thread is the leader. */
			.leader_cgroup_id = d->cgroup_id,
		};
		struct cl_values v = { 0 };

		snprintf(meta.comm, sizeof(meta.comm), "%s", d->comm);
		snprintf(meta.leader_comm, sizeof(meta.leader_comm), "%s", d->leader_comm);
		v.v[CL_V_ONCPU_NS] = d->oncpu_ns;
		v.v[CL_V_NVCSW] = d->vol;
		v.v[CL_V_NIVCSW] = d->invol;
		v.v[CL_V_MIN_FLT] = d->min_flt;
		v.v[CL_V_MAJ_FLT] = d->maj_flt;
		v.v[CL_V_COUNTER0] = d->cycles;
		v.v[CL_V_COUNTER0 + 1] = d->instructions;
		v.v[CL_V_RUN_DELAY_NS] = 777;	/* in no column */
		if (!d->oncpu_ns)
			memset(&v, 0, sizeof(v));
		cl_rows_add(rows, &meta, -1, &v);
	}
}

static const struct cl_interval intervals[] = {
	{
		.time_ns = 1700000000123456789ULL,	/* 2023-11-14 22:13:20.123 UTC */
		.interval_ns = NSEC_PER_SEC,
		.cpus_online = 2,
		.cpus_possible = 2,
	},
	{
		.time_ns = 1700000000623456789ULL,
		.interval_ns = NSEC_PER_SEC / 2,
		.cpus_online = 1,
		.cpus_possible = 2,
		.lost_exits = 3,
		.untracked = 5,
		.rows_cut = 2,
	},
	/* Cut short by a signal, with no rows at all. */
	{
		.time_ns = 1700000000873456789ULL,
		.interval_ns = NSEC_PER_SEC / 4,
		.cpus_online = 2,
		.cpus_possible = 2,
		.map_full = 1,
		.final = true,
	},
};

/* The intervals through one sink, as cpuledger stat does. */
static int render(struct fixture *f, const struct cl_sink_ops *ops, FILE *out)
{
	int sort_col = cl_schema_find(&f->schema, "oncpu_ns");
	struct cl_sink sink;
	int err;

	cl_sink_init(&sink, ops, &f->schema, out);
	err = cl_sink_start(&sink);
	if (err)
		return err;
	add_deltas(&f->rows, first_interval, ARRAY_SIZE(first_interval));
	cl_rows_sort(&f->rows, &f->schema, sort_col);
	err = cl_sink_write(&sink, &f->rows, &intervals[0]);
	cl_rows_reset(&f->rows);
	if (err)
		return err;
	add_deltas(&f->rows, second_interval, ARRAY_SIZE(second_interval));
	cl_rows_sort(&f->rows, &f->schema, sort_col);
	err = cl_sink_write(&sink, &f->rows, &intervals[1]);
	cl_rows_reset(&f->rows);
	if (err)
		return err;
	cl_rows_sort(&f->rows, &f->schema, sort_col);
	return cl_sink_write(&sink, &f->rows, &intervals[2]);
}

/* Renders with format @name into a malloc'ed string. */
static char *render_text(const char *name, size_t *len)
{
	const struct cl_sink_ops *ops = cl_sink_lookup(name);
	char *text = NULL;
	struct fixture f;
	FILE *out;
	int err;

	if (!expect(ops != NULL) || !fixture_init(&f))
		goto out_rows;
	out = open_memstream(&text, len);
	if (!expect(out != NULL))
		goto out_rows;
	err = render(&f, ops, out);
	fclose(out);
	if (!expect_int(err, 0)) {
		free(text);
		text = NULL;
	}
out_rows:
	cl_rows_free(&f.rows);
	return text;
}

static bool check_golden(const char *format, const char *file)
{
	size_t len = 0;
	char *text;
	bool ok;

	setenv("TZ", "UTC", 1);
	tzset();
	text = render_text(format, &len);
	if (!expect(text != NULL))
		return false;
	ok = unit_golden_check(file, text, len);
	free(text);
	return ok;
}

static bool test_golden_table(void)
{
	return check_golden("table", "stat.table");
}

static bool test_golden_csv(void)
{
	return check_golden("csv", "stat.csv");
}

static bool test_golden_jsonl(void)
{
	return check_golden("json", "stat.jsonl");
}

/*
 * Every line of @text at most 100 columns; rows as wide as the column header
 * (the banner, its "lost:" detail line and the footer are not rows).
 */
static bool table_lines_fit(const char *text)
{
	size_t header_len = 0;
	int line_no = 0;
	bool ok = true;

	for (const char *line = text, *end; *line; line = end + 1) {
		size_t width;

		end = strchr(line, '\n');
		if (!expect(end != NULL, "(every line ends in a newline)"))
			return false;
		width = (size_t)(end - line);
		line_no++;
		if (!expect(width <= 100)) {
			unit_note("line %d is %zu columns: %.*s", line_no, width, (int)width, line);
			ok = false;
		}
		if (!strncmp(line, "    PID", 7))
			header_len = width;
		else if (header_len && width && line[0] != '-' && line[0] != '(' &&
			 strncmp(line, "    lost:", 9) && !expect_u64(width, header_len)) {
			unit_note("line %d: %.*s", line_no, (int)width, line);
			ok = false;
		}
	}
	return ok && expect(header_len > 0);
}

/* The default table fits 100 columns and its columns line up. */
static bool test_table_width(void)
{
	size_t len;
	char *text;
	bool ok;

	setenv("TZ", "UTC", 1);
	tzset();
	text = render_text("table", &len);
	ok = expect(text != NULL) && table_lines_fit(text);
	free(text);
	return ok;
}

/*
 * Also when the interval's banner has the most to say: a busy machine that
 * hit --max-tasks, lost exit records and failed to create task storage (all
 * possible with the default events) in an interval cut short.
 */
static bool test_table_banner_width(void)
{
	const struct cl_interval busy = {
		.time_ns = 1700000000123456789ULL,
		.interval_ns = NSEC_PER_SEC / 2,
		.cpus_online = 64,
		.cpus_possible = 64,
		.lost_exits = 120,
		.untracked = 3400,
		.map_full = 7,
		.rows_cut = 12345,
		.final = true,
	};
	struct cl_sink sink;
	char *text = NULL;
	struct fixture f;
	size_t len = 0;
	bool ok = false;
	FILE *out;

	setenv("TZ", "UTC", 1);
	tzset();
	if (!fixture_init(&f))
		goto out_rows;
	out = open_memstream(&text, &len);
	if (!expect(out != NULL))
		goto out_rows;
	cl_sink_init(&sink, &cl_sink_table_ops, &f.schema, out);
	add_deltas(&f.rows, first_interval, ARRAY_SIZE(first_interval));
	cl_rows_sort(&f.rows, &f.schema, cl_schema_find(&f.schema, "oncpu_ns"));
	ok = expect_int(cl_sink_start(&sink), 0) &&
	     expect_int(cl_sink_write(&sink, &f.rows, &busy), 0);
	fclose(out);
	ok = ok && table_lines_fit(text);
out_rows:
	free(text);
	cl_rows_free(&f.rows);
	return ok;
}

static bool test_lookup(void)
{
	return expect(cl_sink_lookup("table") == &cl_sink_table_ops) &&
	       expect(cl_sink_lookup("csv") == &cl_sink_csv_ops) &&
	       expect(cl_sink_lookup("json") == &cl_sink_jsonl_ops) &&
	       expect(cl_sink_lookup("jsonl") == NULL) && expect(cl_sink_lookup("") == NULL) &&
	       expect(cl_sink_lookup("CSV") == NULL);
}

static bool test_json_utf8(void)
{
	/* "ab日本語の" and the first byte of "ス": 15 bytes. */
	static const char cut[] = "ab\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3";
	static const char *const comms[] = { cut, "caf\xe9", "\xff\xfe", "ok\xc3\xa9" };
	bool ok;

	/* The checker itself first. */
	ok = expect(unit_valid_utf8((const unsigned char *)cut, 14)) &&
	     expect(!unit_valid_utf8((const unsigned char *)cut, 15)) &&
	     expect(unit_valid_utf8((const unsigned char *)"\xf0\x9f\x98\x80", 4)) &&
	     expect(!unit_valid_utf8((const unsigned char *)"\xc0\xaf", 2)) &&
	     expect(!unit_valid_utf8((const unsigned char *)"\xed\xa0\x80", 3));
	for (size_t i = 0; i < ARRAY_SIZE(comms); i++) {
		const struct task_delta delta = { 9, 9, comms[i], comms[i], 1, 1000 };
		struct cl_sink sink;
		char *text = NULL;
		struct fixture f;
		size_t len = 0;
		FILE *out;
		bool case_ok = false;

		if (!fixture_init(&f))
			goto next;
		out = open_memstream(&text, &len);
		if (!expect(out != NULL))
			goto next;
		cl_sink_init(&sink, &cl_sink_jsonl_ops, &f.schema, out);
		add_deltas(&f.rows, &delta, 1);
		cl_rows_sort(&f.rows, &f.schema, cl_schema_find(&f.schema, "pid"));
		case_ok = expect_int(cl_sink_start(&sink), 0) &&
			  expect_int(cl_sink_write(&sink, &f.rows, &intervals[0]), 0);
		fclose(out);
		case_ok = case_ok && expect(unit_valid_utf8((const unsigned char *)text, len));
		if (case_ok && i == 0)
			case_ok = expect(strstr(text, "\"comm\":\"ab\xe6\x97\xa5\xe6\x9c\xac"
						      "\xe8\xaa\x9e\xe3\x81\xae") != NULL);
		if (case_ok && i == 3)
			case_ok = expect(strstr(text, "\"comm\":\"ok\xc3\xa9\"") != NULL);
next:
		if (!case_ok) {
			unit_note("comm %zu: %.*s", i, text ? (int)strcspn(text, "\n") : 11,
				  text ? text : "(no output)");
			ok = false;
		}
		free(text);
		cl_rows_free(&f.rows);
	}
	return ok;
}

/* The reader went away (cpuledger stat | head): every sink says -EPIPE. */
static bool check_epipe(const struct cl_sink_ops *ops)
{
	struct cl_sink sink;
	struct fixture f;
	int fds[2], err;
	bool ok = false;
	FILE *out;

	if (!fixture_init(&f))
		goto out_rows;
	if (!expect(pipe(fds) == 0))
		goto out_rows;
	close(fds[0]);
	out = fdopen(fds[1], "w");
	if (!expect(out != NULL)) {
		close(fds[1]);
		goto out_rows;
	}
	cl_sink_init(&sink, ops, &f.schema, out);
	add_deltas(&f.rows, first_interval, ARRAY_SIZE(first_interval));
	cl_rows_sort(&f.rows, &f.schema, cl_schema_find(&f.schema, "oncpu_ns"));
	/* A header may already fail here; that is the same answer, earlier. */
	err = cl_sink_start(&sink);
	ok = expect(err == 0 || err == -EPIPE) &&
	     expect_int(cl_sink_write(&sink, &f.rows, &intervals[0]), -EPIPE) &&
	     expect_int(cl_sink_write(&sink, &f.rows, &intervals[1]), -EPIPE);
	fclose(out);
out_rows:
	if (!ok)
		unit_note("%s sink", ops->name);
	cl_rows_free(&f.rows);
	return ok;
}

static bool test_epipe(void)
{
	bool ok;

	signal(SIGPIPE, SIG_IGN);
	ok = check_epipe(&cl_sink_table_ops);
	ok &= check_epipe(&cl_sink_csv_ops);
	ok &= check_epipe(&cl_sink_jsonl_ops);
	signal(SIGPIPE, SIG_DFL);
	return ok;
}

int main(void)
{
	RUN_TEST(test_golden_table);
	RUN_TEST(test_golden_csv);
	RUN_TEST(test_golden_jsonl);
	RUN_TEST(test_table_width);
	RUN_TEST(test_table_banner_width);
	RUN_TEST(test_lookup);
	RUN_TEST(test_json_utf8);
	RUN_TEST(test_epipe);
	return unit_done();
}
