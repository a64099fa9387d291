// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* CSV and JSON Lines for streams: the same cells as the SQLite sink. */
#include <errno.h>
#include <string.h>

#include "core/json.h"
#include "sinks/sink.h"
#include "sinks/stream.h"

static int status(FILE *out)
{
	return cl_sink_status(out);
}

static int csv_start(struct cl_stream_sink *sink, const struct cl_stream_summary *summary)
{
	for (size_t i = 0; i < sink->schema->count; i++)
		fprintf(sink->out, "%s%s", i ? "," : "", sink->schema->cols[i].name);
	fputc('\n', sink->out);
	fflush(sink->out);
	return status(sink->out);
}

static int csv_record(struct cl_stream_sink *sink, const void *record)
{
	for (size_t i = 0; i < sink->schema->count; i++) {
		struct cl_cell cell;

		if (i)
			fputc(',', sink->out);
		cl_stream_cell(sink->schema, &sink->schema->cols[i], record, &cell);
		cl_sink_put_cell(sink->out, &cell, "", cl_csv_string);
	}
	fputc('\n', sink->out);
	sink->records++;
	return 0;
}

static int jsonl_record(struct cl_stream_sink *sink, const void *record)
{
	fputc('{', sink->out);
	for (size_t i = 0; i < sink->schema->count; i++) {
		const struct cl_scolumn *col = &sink->schema->cols[i];
		struct cl_cell cell;

		if (i)
			fputc(',', sink->out);
		cl_json_string(sink->out, col->name);
		fputc(':', sink->out);
		cl_stream_cell(sink->schema, col, record, &cell);
		cl_sink_put_cell(sink->out, &cell, "null", cl_json_string);
	}
	fputs("}\n", sink->out);
	sink->records++;
	return 0;
}

static int flush_out(struct cl_stream_sink *sink, const struct cl_stream_summary *summary)
{
	if (fflush(sink->out))
		return errno == EPIPE ? -EPIPE : -EIO;
	return status(sink->out);
}

static int no_start(struct cl_stream_sink *sink, const struct cl_stream_summary *summary)
{
	return 0;
}

const struct cl_stream_sink_ops cl_stream_csv_ops = {
	.name = "csv",
	.start = csv_start,
	.record = csv_record,
	.flush = flush_out,
	.finish = flush_out,
};

const struct cl_stream_sink_ops cl_stream_jsonl_ops = {
	.name = "json",
	.start = no_start,
	.record = jsonl_record,
	.flush = flush_out,
	.finish = flush_out,
};
