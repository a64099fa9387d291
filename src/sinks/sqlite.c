// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * record's embedded store: an SQLite database in WAL mode, written in
 * batched transactions (one per flush), so that a SIGKILL leaves a database
 * that opens and holds every committed batch. See docs/record.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "sinks/stream.h"

struct sqlite_sink {
	sqlite3 *db;
	sqlite3_stmt *insert;
	sqlite3_stmt *meta;
	sqlite3_stmt *cpu;
	sqlite3_stmt *hotplug;
	bool in_batch;
	char errmsg[256];
};

static int db_error(struct sqlite_sink *s, const char *what)
{
	snprintf(s->errmsg, sizeof(s->errmsg), "%s: %s", what, sqlite3_errmsg(s->db));
	return -EIO;
}

static int exec(struct sqlite_sink *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(s->errmsg, sizeof(s->errmsg), "%s", msg ? msg : "error");
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

static int begin(struct sqlite_sink *s)
{
	int err;

	if (s->in_batch)
		return 0;
	err = exec(s, "BEGIN");
	s->in_batch = !err;
	return err;
}

static int commit(struct sqlite_sink *s)
{
	int err;

	if (!s->in_batch)
		return 0;
	err = exec(s, "COMMIT");
	s->in_batch = false;
	return err;
}

static int put_meta(struct sqlite_sink *s, const char *key, const char *value)
{
	sqlite3_reset(s->meta);
	sqlite3_bind_text(s->meta, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s->meta, 2, value, -1, SQLITE_TRANSIENT);
	return sqlite3_step(s->meta) == SQLITE_DONE ? 0 : db_error(s, "writing meta");
}

static int put_meta_u64(struct sqlite_sink *s, const char *key, uint64_t value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, value);
	return put_meta(s, key, buf);
}

/* Everything that changes while recording: losses and ticks per CPU, counts. */
static int put_progress(struct sqlite_sink *s, const struct cl_stream_summary *sum)
{
	uint64_t lost = 0;
	int err = 0;

	for (unsigned int cpu = 0; cpu < sum->nr_cpus && !err; cpu++) {
		lost += sum->lost ? sum->lost[cpu] : 0;
		sqlite3_reset(s->cpu);
		sqlite3_bind_int(s->cpu, 1, (int)cpu);
		sqlite3_bind_int64(s->cpu, 2, sum->lost ? (sqlite3_int64)sum->lost[cpu] : 0);
		sqlite3_bind_int64(s->cpu, 3, sum->ticks ? (sqlite3_int64)sum->ticks[cpu] : 0);
		if (sqlite3_step(s->cpu) != SQLITE_DONE)
			err = db_error(s, "writing cpus");
	}
	if (!err)
		err = put_meta_u64(s, "lost_records", lost);
	if (!err)
		err = put_meta_u64(s, "slices", sum->records);
	if (!err)
		err = put_meta_u64(s, "hotplug_events", sum->hotplug_events);
	if (!err && sum->end_real_ns)
		err = put_meta_u64(s, "end_realtime_ns", sum->end_real_ns);
	return err;
}

static int create(struct cl_stream_sink *sink, struct sqlite_sink *s)
{
	const struct cl_stream_schema *schema = sink->schema;
	char sql[4096], values[512];
	size_t used, vused;
	int err;

	err = exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
		      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
		      "CREATE TABLE events (name TEXT PRIMARY KEY, column_name TEXT NOT NULL,"
		      " supported INTEGER NOT NULL, reason TEXT);"
		      "CREATE TABLE cpus (cpu INTEGER PRIMARY KEY, lost_records INTEGER NOT NULL,"
		      " ticks INTEGER NOT NULL);"
		      "CREATE TABLE hotplug (time_ns INTEGER NOT NULL, cpu INTEGER NOT NULL,"
		      " online INTEGER NOT NULL);");
	if (err)
		return err;
	used = (size_t)snprintf(sql, sizeof(sql), "CREATE TABLE slices (");
	vused = 0;
	for (size_t i = 0; i < schema->count; i++) {
		const struct cl_scolumn *col = &schema->cols[i];
		bool text = col->kind == CL_SCOL_COMM || col->kind == CL_SCOL_END;

		used += (size_t)snprintf(sql + used, sizeof(sql) - used, "%s\"%s\" %s%s",
					 i ? ", " : "", col->name, text ? "TEXT" : "INTEGER",
					 col->kind == CL_SCOL_EVENT ? "" : " NOT NULL");
		vused += (size_t)snprintf(values + vused, sizeof(values) - vused, "%s?",
					  i ? "," : "");
	}
	snprintf(sql + used, sizeof(sql) - used,
		 ");"
		 "CREATE INDEX slices_by_pid ON slices(pid, start_ns);"
		 "CREATE INDEX slices_by_cpu ON slices(cpu, start_ns);");
	err = exec(s, sql);
	if (err)
		return err;
	snprintf(sql, sizeof(sql), "INSERT INTO slices VALUES (%s)", values);
	if (sqlite3_prepare_v2(s->db, sql, -1, &s->insert, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta VALUES (?, ?)", -1, &s->meta,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO cpus VALUES (?, ?, ?)", -1, &s->cpu,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "INSERT INTO hotplug VALUES (?, ?, ?)", -1, &s->hotplug,
			       NULL) != SQLITE_OK)
		return db_error(s, "preparing statements");
	return 0;
}

static int put_events(struct sqlite_sink *s, const struct cl_event_set *events)
{
	sqlite3_stmt *stmt;
	int err = 0;

	if (sqlite3_prepare_v2(s->db, "INSERT INTO events VALUES (?, ?, ?, ?)", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return db_error(s, "preparing statements");
	for (size_t i = 0; i < events->count && !err; i++) {
		const struct cl_event *e = &events->events[i];
		bool ok = e->status == CL_EVENT_SUPPORTED;

		sqlite3_reset(stmt);
		sqlite3_bind_text(stmt, 1, e->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 2, e->column, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 3, ok);
		if (ok)
			sqlite3_bind_null(stmt, 4);
		else
			sqlite3_bind_text(stmt, 4, cl_event_open_reason(e), -1, SQLITE_TRANSIENT);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			err = db_error(s, "writing events");
	}
	sqlite3_finalize(stmt);
	return err;
}

static int sqlite_start(struct cl_stream_sink *sink, const struct cl_stream_summary *sum)
{
	struct sqlite_sink *s = calloc(1, sizeof(*s));
	char list[2048] = "";
	size_t used = 0;
	int err;

	if (!s)
		return -ENOMEM;
	sink->priv = s;
	if (sqlite3_open_v2(sink->path, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		err = db_error(s, sink->path);
		return err;
	}
	err = create(sink, s);
	if (!err)
		err = begin(s);
	for (size_t i = 0; i < sum->events->count && used < sizeof(list); i++) {
		const struct cl_event *e = &sum->events->events[i];
		const char *status = e->status == CL_EVENT_SUPPORTED ? "supported" : "unsupported";

		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s:%s", i ? "," : "",
					 e->name, status);
	}
	if (!err)
		err = put_events(s, sum->events);
	if (!err)
		err = put_meta(s, "cpuledger_version", sum->version);
	if (!err)
		err = put_meta(s, "host", sum->host);
	if (!err)
		err = put_meta(s, "kernel", sum->kernel);
	if (!err)
		err = put_meta_u64(s, "start_realtime_ns", sum->start_real_ns);
	if (!err)
		err = put_meta_u64(s, "start_monotonic_ns", sum->start_mono_ns);
	if (!err)
		err = put_meta(s, "time_base",
			       "start_ns and time_ns are CLOCK_MONOTONIC ns: wall time = value - "
			       "start_monotonic_ns + start_realtime_ns");
	if (!err)
		err = put_meta_u64(s, "slice_ns", sum->slice_ns);
	if (!err)
		err = put_meta(s, "events", list);
	if (!err)
		err = put_meta(s, "filter", sum->filter);
	if (!err)
		err = put_meta_u64(s, "cpus_possible", sum->nr_cpus);
	if (!err)
		err = put_meta(s, "cpus_online", sum->cpus_online_list);
	if (!err)
		err = put_progress(s, sum);
	if (!err)
		err = commit(s);
	return err;
}

static int sqlite_record(struct cl_stream_sink *sink, const void *record)
{
	struct sqlite_sink *s = sink->priv;
	int err;

	err = begin(s);
	if (err)
		return err;
	sqlite3_reset(s->insert);
	for (size_t i = 0; i < sink->schema->count; i++) {
		struct cl_cell cell;
		int idx = (int)i + 1;

		cl_stream_cell(sink->schema, &sink->schema->cols[i], record, &cell);
		switch (cell.type) {
		case CL_CELL_NULL:
			sqlite3_bind_null(s->insert, idx);
			break;
		case CL_CELL_U64:
			sqlite3_bind_int64(s->insert, idx, (sqlite3_int64)cell.u);
			break;
		case CL_CELL_I64:
			sqlite3_bind_int64(s->insert, idx, cell.i);
			break;
		case CL_CELL_F64:
			sqlite3_bind_double(s->insert, idx, cell.f);
			break;
		case CL_CELL_STR:
			sqlite3_bind_text(s->insert, idx, cell.s, -1, SQLITE_TRANSIENT);
			break;
		}
	}
	if (sqlite3_step(s->insert) != SQLITE_DONE)
		return db_error(s, "inserting a slice");
	sink->records++;
	return 0;
}

/* A batch boundary: what is committed survives a SIGKILL. */
static int sqlite_flush(struct cl_stream_sink *sink, const struct cl_stream_summary *sum)
{
	struct sqlite_sink *s = sink->priv;
	int err;

	err = begin(s);
	if (!err)
		err = put_progress(s, sum);
	if (!err)
		err = commit(s);
	return err;
}

static int sqlite_cpu_change(struct cl_stream_sink *sink, uint64_t mono_ns, unsigned int cpu,
			     bool online)
{
	struct sqlite_sink *s = sink->priv;
	int err = begin(s);

	if (err)
		return err;
	sqlite3_reset(s->hotplug);
	sqlite3_bind_int64(s->hotplug, 1, (sqlite3_int64)mono_ns);
	sqlite3_bind_int(s->hotplug, 2, (int)cpu);
	sqlite3_bind_int(s->hotplug, 3, online);
	return sqlite3_step(s->hotplug) == SQLITE_DONE ? 0 : db_error(s, "writing hotplug");
}

static int sqlite_finish(struct cl_stream_sink *sink, const struct cl_stream_summary *sum)
{
	struct sqlite_sink *s = sink->priv;
	int err;

	if (!s)
		return 0;
	err = s->db ? sqlite_flush(sink, sum) : 0;
	sqlite3_finalize(s->insert);
	sqlite3_finalize(s->meta);
	sqlite3_finalize(s->cpu);
	sqlite3_finalize(s->hotplug);
	/* Fold the WAL back so the file stands alone. */
	if (!err && s->db)
		exec(s, "PRAGMA wal_checkpoint(TRUNCATE)");
	if (s->db && sqlite3_close(s->db) != SQLITE_OK && !err)
		err = -EIO;
	free(s);
	sink->priv = NULL;
	return err;
}

const char *cl_stream_sqlite_error(const struct cl_stream_sink *sink)
{
	const struct sqlite_sink *s = sink->priv;

	return s && s->errmsg[0] ? s->errmsg : "I/O error";
}

const struct cl_stream_sink_ops cl_stream_sqlite_ops = {
	.name = "sqlite",
	.start = sqlite_start,
	.record = sqlite_record,
	.flush = sqlite_flush,
	.cpu_change = sqlite_cpu_change,
	.finish = sqlite_finish,
};
