/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_STREAM_SINK_H
#define CPULEDGER_STREAM_SINK_H

#include <stdio.h>

#include "core/stream.h"

/*
 * Sinks for record/trace streams, twins behind one interface like the stat
 * sinks: start, one call per record, flush (a batch boundary: commit, fflush),
 * CPU changes, finish. Each returns 0 or -errno (-EPIPE: the reader is gone).
 */
struct cl_stream_sink;

/* What a stream knows about itself; the SQLite sink keeps it in `meta`. */
struct cl_stream_summary {
	const char *version;
	const char *host;
	const char *kernel;
	uint64_t start_real_ns;	/* CLOCK_REALTIME when recording began */
	uint64_t start_mono_ns;	/* CLOCK_MONOTONIC at the same moment */
	uint64_t end_real_ns;	/* 0 while recording */
	uint64_t slice_ns;
	const char *filter;	/* how tasks were selected, for people */
	const struct cl_event_set *events;
	unsigned int nr_cpus;	/* possible */
	unsigned int cpus_online;
	const char *cpus_online_list;
	const uint64_t *lost;	/* [nr_cpus] records lost per CPU */
	const uint64_t *ticks;	/* [nr_cpus] record: ticks per CPU */
	uint64_t records;	/* written so far */
	uint64_t hotplug_events;
};

struct cl_stream_sink_ops {
	const char *name;
	int (*start)(struct cl_stream_sink *sink, const struct cl_stream_summary *summary);
	int (*record)(struct cl_stream_sink *sink, const void *record);
	int (*flush)(struct cl_stream_sink *sink, const struct cl_stream_summary *summary);
	int (*cpu_change)(struct cl_stream_sink *sink, uint64_t mono_ns, unsigned int cpu,
			  bool online);
	int (*finish)(struct cl_stream_sink *sink, const struct cl_stream_summary *summary);
};

struct cl_stream_sink {
	const struct cl_stream_sink_ops *ops;
	const struct cl_stream_schema *schema;
	FILE *out;		/* text formats */
	const char *path;	/* SQLite: the database file */
	/* The caller's summary, kept current (losses): text headers read it. */
	const struct cl_stream_summary *summary;
	void *priv;
	uint64_t records;
	uint64_t lines_since_header;	/* text */
	uint64_t lost_shown;		/* text: losses already announced */
};

extern const struct cl_stream_sink_ops cl_stream_csv_ops;
extern const struct cl_stream_sink_ops cl_stream_jsonl_ops;
extern const struct cl_stream_sink_ops cl_stream_sqlite_ops;
extern const struct cl_stream_sink_ops cl_trace_text_ops;

/* The last SQLite error message, for the command layer to report. */
const char *cl_stream_sqlite_error(const struct cl_stream_sink *sink);

#endif
