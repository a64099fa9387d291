// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "core/json.h"
#include "sinks/sink.h"

/* JSON Lines: one object per row, keys as the CSV header, null for unsupported. */
static int jsonl_begin(struct cl_sink *sink, const struct cl_interval *interval)
{
	return 0;
}

static int jsonl_row(struct cl_sink *sink, const struct cl_row *row,
		     const struct cl_interval *interval)
{
	fputc('{', sink->out);
	for (size_t i = 0; i < sink->schema->count; i++) {
		const struct cl_column *col = &sink->schema->cols[i];
		struct cl_cell cell;

		if (i)
			fputc(',', sink->out);
		cl_json_string(sink->out, col->name);
		fputc(':', sink->out);
		cl_cell_get(col, row, interval, &cell);
		cl_sink_put_cell(sink->out, &cell, "null", cl_json_string);
	}
	fputs("}\n", sink->out);
	return 0;
}

static int jsonl_end(struct cl_sink *sink, const struct cl_interval *interval)
{
	return 0;
}

const struct cl_sink_ops cl_sink_jsonl_ops = {
	.name = "json",
	.begin = jsonl_begin,
	.row = jsonl_row,
	.end = jsonl_end,
};
