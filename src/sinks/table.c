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
#include "core/preemptors.h"
#include "sinks/sink.h"

static int col_width(const struct cl_column *col)
{
	switch (col->kind) {
	case CL_COL_PID:
	case CL_COL_TID:
		return 7;
	case CL_COL_COMM:
		return 15;
	case CL_COL_CGROUP:
		return 30;
	case CL_COL_CONTAINER_ID:
		return 12;
	case CL_COL_CONTAINER_RUNTIME:
		return 10;
	case CL_COL_POD_UID:
		return 36;
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
		return col->is_time ? 8 : 7;
	}
}

static bool in_table(const struct cl_schema *schema, const struct cl_column *col)
{
	return col->kind != CL_COL_TIME_NS && col->kind != CL_COL_INTERVAL_NS &&
	       col->kind != CL_COL_CGROUP_ID && (!col->wide || schema->wide);
}

static bool left_aligned(const struct cl_column *col)
{
	return col->kind == CL_COL_COMM || col->kind == CL_COL_CGROUP ||
	       col->kind == CL_COL_CONTAINER_ID || col->kind == CL_COL_CONTAINER_RUNTIME ||
	       col->kind == CL_COL_POD_UID;
}

/* %CPU and %RUNQ: on CPU, and waiting for one, as a share of the interval. */
static void print_shares(struct cl_sink *sink, const struct cl_row *row,
			 const struct cl_interval *interval)
{
	double len = (double)interval->interval_ns;
	bool runq = true;

	for (size_t i = 0; i < sink->schema->count; i++) {
		if (sink->schema->cols[i].runq && sink->schema->cols[i].unsupported)
			runq = false;
	}
	fprintf(sink->out, " %5.1f", len ? 100.0 * (double)row->v.v[CL_V_ONCPU_NS] / len : 0);
	if (runq)
		fprintf(sink->out, " %5.1f",
			len ? 100.0 * (double)row->v.v[CL_V_RUN_DELAY_NS] / len : 0);
	else
		fprintf(sink->out, " %5s", "-");
}

static int table_begin(struct cl_sink *sink, const struct cl_interval *interval)
{
	uint64_t lost = interval->lost_exits + interval->untracked + interval->map_full;
	char when[32] = "", span[32], total[16], exits[16], untracked[16], charges[16];
	time_t secs = (time_t)(interval->time_ns / NSEC_PER_SEC);
	bool first;
	struct tm tm;
	size_t i;

	if (localtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	cl_format_time(interval->interval_ns, span, sizeof(span));
	cl_format_count(lost, total, sizeof(total));
	if (sink->intervals)
		fputc('\n', sink->out);
	first = true;
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
	if (interval->note)
		fprintf(sink->out, "    %s\n", interval->note);

	for (i = 0; i < sink->schema->count; i++) {
		const struct cl_column *col = &sink->schema->cols[i];

		if (!in_table(sink->schema, col))
			continue;
		if (left_aligned(col))
			fprintf(sink->out, "%s%-*s", first ? "" : " ", col_width(col), col->title);
		else
			fprintf(sink->out, "%s%*s", first ? "" : " ", col_width(col), col->title);
		if (col->shares_after)
			fprintf(sink->out, " %5s %5s", "%CPU", "%RUNQ");
		first = false;
	}
	fputc('\n', sink->out);
	return 0;
}

static int table_row(struct cl_sink *sink, const struct cl_row *row,
		     const struct cl_interval *interval)
{
	bool first = true;

	for (size_t i = 0; i < sink->schema->count; i++) {
		const struct cl_column *col = &sink->schema->cols[i];
		int width = col_width(col);
		struct cl_cell cell;
		char buf[CL_CGROUP_PATH_MAX + 8];

		if (!in_table(sink->schema, col))
			continue;
		cl_cell_get(col, row, interval, &cell);
		switch (cell.type) {
		case CL_CELL_NULL:
			snprintf(buf, sizeof(buf), "-");
			break;
		case CL_CELL_STR:
			snprintf(buf, sizeof(buf), "%s", cell.s);
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
		if (left_aligned(col)) {
			size_t len;

			/* Outside containers and pods, rows are their cgroups: name them so. */
			if ((col->kind == CL_COL_CONTAINER_ID || col->kind == CL_COL_POD_UID) &&
			    !buf[0])
				snprintf(buf, sizeof(buf), "%s", row->cgroup);
			len = strlen(buf);

			/* Unprintable bytes in a comm would corrupt the terminal. */
			for (char *c = buf; *c; c++) {
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			}
			/* A long cgroup path keeps its end, where the names are. */
			if (buf[0] == '/' && len > (size_t)width) {
				memmove(buf + 1, buf + len - (size_t)width + 1, (size_t)width);
				buf[0] = '<';
			}
			fprintf(sink->out, "%s%-*.*s", first ? "" : " ", width, width, buf);
		} else {
			fprintf(sink->out, "%s%*s", first ? "" : " ", width, buf);
		}
		if (col->shares_after)
			print_shares(sink, row, interval);
		first = false;
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

/* runqlat's way: one line per non-empty log2 bucket, stars scaled to the largest. */
void cl_table_histogram(FILE *out, const struct cl_row *row, bool threads)
{
	const __u64 *hist = &row->v.v[CL_V_HIST0];
	uint64_t max = 0, total = 0;
	int first = -1, last = -1;

	for (int b = 0; b < CL_RUNQ_HIST_BUCKETS; b++) {
		if (!hist[b])
			continue;
		if (first < 0)
			first = b;
		last = b;
		total += hist[b];
		max = hist[b] > max ? hist[b] : max;
	}
	if (first < 0)
		return;
	if (row->cgroup[0]) /* a cgroup, container or pod row */
		fprintf(out, "\n%s%s%s: run-queue waits, %llu\n", row->cgroup,
			row->container_id[0] ? " container " : "", row->container_id,
			(unsigned long long)total);
	else
		fprintf(out, "\n%s %u (%s): run-queue waits, %llu\n", threads ? "tid" : "pid",
			threads ? row->tid : row->pid, row->comm, (unsigned long long)total);
	fprintf(out, "%21s : %-8s distribution\n", "wait", "count");
	for (int b = first; b <= last; b++) {
		char lo[16], hi[16], stars[41];
		int n = (int)(40 * hist[b] / max);

		cl_format_time(b ? 1ULL << b : 0, lo, sizeof(lo));
		cl_format_time((1ULL << (b + 1)) - 1, hi, sizeof(hi));
		memset(stars, '*', (size_t)n);
		stars[n] = '\0';
		fprintf(out, "%9s -> %-9s : %-8llu |%-40s|\n", lo, hi,
			(unsigned long long)hist[b], stars);
	}
}

/* stat --preemptors: who took the CPU from whom, by cgroup. */
void cl_table_preemptors(FILE *out, const struct cl_victim *victims, size_t count,
			 const char *(*name)(void *ctx, uint64_t cgroup_id), void *ctx)
{
	fprintf(out, "\npreempted (involuntary switches to another process, by cgroup, "
		     "this interval):\n");
	if (!count)
		fprintf(out, "  none\n");
	for (size_t i = 0; i < count; i++) {
		const struct cl_victim *v = &victims[i];

		fprintf(out, "  %-40s %8llu  by", name(ctx, v->cgroup_id),
			(unsigned long long)v->total);
		for (size_t j = 0; j < v->nr_top; j++)
			fprintf(out, "%s %s %llu (%.0f%%)", j ? "," : "",
				name(ctx, v->top[j].cgroup_id),
				(unsigned long long)v->top[j].count,
				100.0 * (double)v->top[j].count / (double)v->total);
		fputc('\n', out);
	}
}
