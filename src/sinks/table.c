// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The table is for people: one header line per interval (time, interval,
 * CPUs online, what was lost), rows with readable units, 100 columns wide
 * with the default events.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/parse.h"
#include "sinks/sink.h"

static int col_width(const struct cl_column *col)
{
	switch (col->kind) {
	case CL_COL_PID:
	case CL_COL_TID:
		return 7;
	case CL_COL_COMM:
		return 15;
	case CL_COL_CPU:
		return 3;
	case CL_COL_ONCPU_NS:
		return 8;
	case CL_COL_VOL_SWITCHES:
	case CL_COL_INVOL_SWITCHES:
		return 6;
	case CL_COL_RATIO:
		return 7;
	default:
		return 7;
	}
}

static bool in_table(const struct cl_column *col)
{
	return col->kind != CL_COL_TIME_NS && col->kind != CL_COL_INTERVAL_NS &&
	       col->kind != CL_COL_CGROUP_ID;
}

static int table_begin(struct cl_sink *sink, const struct cl_interval *interval)
{
	uint64_t lost = interval->lost_exits + interval->untracked + interval->map_full;
	char when[32] = "", span[32], total[16], exits[16], untracked[16], charges[16];
	time_t secs = (time_t)(interval->time_ns / NSEC_PER_SEC);
	struct tm tm;
	size_t i;

	if (localtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	cl_format_time(interval->interval_ns, span, sizeof(span));
	cl_format_count(lost, total, sizeof(total));
	if (sink->intervals)
		fputc('\n', sink->out);
	fprintf(sink->out, "--- %s.%03llu  interval %s%s  cpus %u/%u online  lost %s ---\n", when,
		(unsigned long long)(interval->time_ns % NSEC_PER_SEC / NSEC_PER_MSEC), span,
		interval->final ? " (partial)" : "", interval->cpus_online,
		interval->cpus_possible, total);
	/* What was lost, on a line of its own so the banner stays narrow. */
	if (lost) {
		cl_format_count(interval->lost_exits, exits, sizeof(exits));
		cl_format_count(interval->untracked, untracked, sizeof(untracked));
		cl_format_count(interval->map_full, charges, sizeof(charges));
		fprintf(sink->out, "    lost: %s exit records, %s untracked tasks, %s %s\n", exits,
			untracked, charges, "counter charges");
	}

	for (i = 0; i < sink->schema->count; i++) {
		const struct cl_column *col = &sink->schema->cols[i];

		if (!in_table(col))
			continue;
		if (col->kind == CL_COL_COMM)
			fprintf(sink->out, " %-*s", col_width(col), col->title);
		else
			fprintf(sink->out, "%s%*s", col->kind == CL_COL_PID ? "" : " ",
				col_width(col), col->title);
		if (col->kind == CL_COL_COMM)
			fprintf(sink->out, " %5s", "%CPU");
	}
	fputc('\n', sink->out);
	return 0;
}

static int table_row(struct cl_sink *sink, const struct cl_row *row,
		     const struct cl_interval *interval)
{
	for (size_t i = 0; i < sink->schema->count; i++) {
		const struct cl_column *col = &sink->schema->cols[i];
		int width = col_width(col);
		struct cl_cell cell;
		char buf[64];

		if (!in_table(col))
			continue;
		cl_cell_get(col, row, interval, &cell);
		switch (cell.type) {
		case CL_CELL_NULL:
			snprintf(buf, sizeof(buf), "-");
			break;
		case CL_CELL_STR:
			snprintf(buf, sizeof(buf), "%.*s", width, cell.s);
			break;
		case CL_CELL_I64:
			snprintf(buf, sizeof(buf), "%lld", (long long)cell.i);
			break;
		case CL_CELL_F64:
			snprintf(buf, sizeof(buf), "%.2f", cell.f);
			break;
		case CL_CELL_U64:
			if (col->is_time)
				cl_format_time(cell.u, buf, sizeof(buf));
			else if (col->is_id)
				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)cell.u);
			else
				cl_format_count(cell.u, buf, sizeof(buf));
			break;
		}
		if (col->kind == CL_COL_COMM) {
			double pct = interval->interval_ns ?
					     100.0 * (double)row->v.v[CL_V_ONCPU_NS] /
						     (double)interval->interval_ns :
					     0;

			/* Unprintable bytes in a comm would corrupt the terminal. */
			for (char *c = buf; *c; c++) {
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			}
			fprintf(sink->out, " %-*s %5.1f", width, buf, pct);
		} else {
			fprintf(sink->out, "%s%*s", col->kind == CL_COL_PID ? "" : " ", width, buf);
		}
	}
	fputc('\n', sink->out);
	return 0;
}

static int table_end(struct cl_sink *sink, const struct cl_interval *interval)
{
	if (interval->rows_cut)
		fprintf(sink->out, "(%llu more rows; --top shows more)\n",
			(unsigned long long)interval->rows_cut);
	return 0;
}

const struct cl_sink_ops cl_sink_table_ops = {
	.name = "table",
	.begin = table_begin,
	.row = table_row,
	.end = table_end,
};
