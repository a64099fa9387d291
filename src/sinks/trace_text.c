// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace's text format, for people: one aligned line per context switch, a
 * header every 40 lines that says how many switches were lost so far, and a
 * line as soon as new losses are known.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/parse.h"
#include "sinks/sink.h"
#include "sinks/stream.h"

#define HEADER_EVERY 40

struct text_state {
	uint64_t lost;	/* latest known total */
};

static uint64_t total_lost(const struct cl_stream_summary *sum)
{
	uint64_t lost = 0;

	for (unsigned int cpu = 0; sum->lost && cpu < sum->nr_cpus; cpu++)
		lost += sum->lost[cpu];
	return lost;
}

static void header(struct cl_stream_sink *sink)
{
	struct text_state *st = sink->priv;

	if (st && sink->summary)
		st->lost = total_lost(sink->summary);
	fprintf(sink->out, "%-15s %3s  %-15s %7s %7s %-2s %8s  %-15s %7s %7s", "TIME", "CPU",
		"PREV_COMM", "PID", "TID", "ST", "RUN", "NEXT_COMM", "PID", "TID");
	for (size_t i = 0; i < sink->schema->count; i++) {
		const struct cl_scolumn *col = &sink->schema->cols[i];

		if (col->kind == CL_SCOL_EVENT)
			fprintf(sink->out, " %7s", col->event->def->title ?: col->event->name);
	}
	fprintf(sink->out, "   (lost %llu)\n", (unsigned long long)(st ? st->lost : 0));
	sink->lines_since_header = 0;
}

static int text_start(struct cl_stream_sink *sink, const struct cl_stream_summary *sum)
{
	struct text_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->lost = total_lost(sum);
	sink->priv = st;
	header(sink);
	fflush(sink->out);
	return cl_sink_status(sink->out);
}

static void comm(FILE *out, const char *s)
{
	char buf[CL_COMM_LEN];

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *c = buf; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	}
	fprintf(out, "%-15s", buf);
}

static int text_record(struct cl_stream_sink *sink, const void *record)
{
	const struct cl_switch_record *sw = record;
	uint64_t real = sw->time_ns + (uint64_t)sink->schema->realtime_offset_ns;
	time_t secs = (time_t)(real / NSEC_PER_SEC);
	char when[16] = "", run[16] = "-";
	struct tm tm;

	if (sink->lines_since_header >= HEADER_EVERY)
		header(sink);
	if (localtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	if (sw->run_ns)
		cl_format_time(sw->run_ns, run, sizeof(run));
	fprintf(sink->out, "%s.%06llu %3u  ", when,
		(unsigned long long)(real % NSEC_PER_SEC / NSEC_PER_USEC), sw->cpu);
	comm(sink->out, sw->prev_comm);
	fprintf(sink->out, " %7u %7u %-2s %8s  ", sw->prev_pid, sw->prev_tid,
		cl_task_state_name(sw->prev_state), run);
	comm(sink->out, sw->next_comm);
	fprintf(sink->out, " %7u %7u", sw->next_pid, sw->next_tid);
	for (size_t i = 0; i < sink->schema->count; i++) {
		const struct cl_scolumn *col = &sink->schema->cols[i];
		struct cl_cell cell;
		char buf[32] = "-";

		if (col->kind != CL_SCOL_EVENT)
			continue;
		cl_stream_cell(sink->schema, col, record, &cell);
		if (cell.type == CL_CELL_U64 && col->event->def->is_time)
			cl_format_time(cell.u, buf, sizeof(buf));
		else if (cell.type == CL_CELL_U64)
			cl_format_count(cell.u, buf, sizeof(buf));
		fprintf(sink->out, " %7s", buf);
	}
	fputc('\n', sink->out);
	sink->lines_since_header++;
	sink->records++;
	return 0;
}

static int text_flush(struct cl_stream_sink *sink, const struct cl_stream_summary *sum)
{
	struct text_state *st = sink->priv;
	uint64_t lost = total_lost(sum);

	if (lost > st->lost) {
		fprintf(sink->out, "# %llu %s lost (ring buffer full), %llu so far\n",
			(unsigned long long)(lost - st->lost),
			lost - st->lost == 1 ? "switch" : "switches", (unsigned long long)lost);
		st->lost = lost;
	}
	if (fflush(sink->out))
		return errno == EPIPE ? -EPIPE : -EIO;
	return cl_sink_status(sink->out);
}

static int text_cpu_change(struct cl_stream_sink *sink, uint64_t mono_ns, unsigned int cpu,
			   bool online)
{
	fprintf(sink->out, "# cpu%u %s\n", cpu, online ? "came online" : "went offline");
	return 0;
}

static int text_finish(struct cl_stream_sink *sink, const struct cl_stream_summary *sum)
{
	int err = sink->priv ? text_flush(sink, sum) : 0;

	free(sink->priv);
	sink->priv = NULL;
	return err;
}

const struct cl_stream_sink_ops cl_trace_text_ops = {
	.name = "text",
	.start = text_start,
	.record = text_record,
	.flush = text_flush,
	.cpu_change = text_cpu_change,
	.finish = text_finish,
};
