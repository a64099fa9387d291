/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_SINK_H
#define CPULEDGER_SINK_H

#include <stdio.h>

#include "core/report.h"

/*
 * Output formats are twins behind one interface: begin an interval, one
 * call per row, end the interval, close. Each returns 0 or -errno (-EPIPE
 * when the reader went away).
 */
struct cl_sink;

struct cl_sink_ops {
	const char *name;
	/* Once, when collection has begun (CSV writes its header here). */
	int (*start)(struct cl_sink *sink);
	int (*begin)(struct cl_sink *sink, const struct cl_interval *interval);
	int (*row)(struct cl_sink *sink, const struct cl_row *row,
		   const struct cl_interval *interval);
	int (*end)(struct cl_sink *sink, const struct cl_interval *interval);
};

struct cl_sink {
	const struct cl_sink_ops *ops;
	const struct cl_schema *schema;
	FILE *out;
	unsigned long intervals;	/* intervals begun so far */
};

extern const struct cl_sink_ops cl_sink_table_ops;
extern const struct cl_sink_ops cl_sink_csv_ops;
extern const struct cl_sink_ops cl_sink_jsonl_ops;

/* NULL for an unknown format name. */
const struct cl_sink_ops *cl_sink_lookup(const char *format);
void cl_sink_init(struct cl_sink *sink, const struct cl_sink_ops *ops,
		  const struct cl_schema *schema, FILE *out);
int cl_sink_start(struct cl_sink *sink);
/* Writes one interval: begin, the sorted rows, end; flushes. */
int cl_sink_write(struct cl_sink *sink, const struct cl_rows *rows,
		  const struct cl_interval *interval);
/*
 * Writes one cell the way machine-readable formats share: numbers in the C
 * locale, @null_text for unsupported values, strings through @put_string.
 */
void cl_sink_put_cell(FILE *out, const struct cl_cell *cell, const char *null_text,
		      void (*put_string)(FILE *out, const char *s));
struct cl_victim;

/* stat --histogram: @row's run-queue waits, runqlat-style. */
void cl_table_histogram(FILE *out, const struct cl_row *row, bool threads);
/* stat --preemptors: victims and their top preemptors, named by @name. */
void cl_table_preemptors(FILE *out, const struct cl_victim *victims, size_t count,
			 const char *(*name)(void *ctx, uint64_t cgroup_id), void *ctx);

/* A CSV field, quoted per RFC 4180 when needed. */
void cl_csv_string(FILE *out, const char *s);
/* -EPIPE or -EIO when @out failed, else 0. */
int cl_sink_status(FILE *out);

#endif
