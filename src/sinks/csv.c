// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>

#include "sinks/sink.h"

/* RFC 4180: quote fields holding separators, quotes, line breaks or edge spaces. */
void cl_csv_string(FILE *out, const char *s)
{
	size_t len = strlen(s);

	if (!strpbrk(s, ",\"\r\n") && !(len && (s[0] == ' ' || s[len - 1] == ' '))) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static int csv_start(struct cl_sink *sink)
{
	for (size_t i = 0; i < sink->schema->count; i++) {
		if (i)
			fputc(',', sink->out);
		fputs(sink->schema->cols[i].name, sink->out);
	}
	fputc('\n', sink->out);
	return 0;
}

static int csv_begin(struct cl_sink *sink, const struct cl_interval *interval)
{
	return 0;
}

static int csv_row(struct cl_sink *sink, const struct cl_row *row,
		   const struct cl_interval *interval)
{
	for (size_t i = 0; i < sink->schema->count; i++) {
		struct cl_cell cell;

		if (i)
			fputc(',', sink->out);
		cl_cell_get(&sink->schema->cols[i], row, interval, &cell);
		cl_sink_put_cell(sink->out, &cell, "", cl_csv_string);
	}
	fputc('\n', sink->out);
	return 0;
}

static int csv_end(struct cl_sink *sink, const struct cl_interval *interval)
{
	return 0;
}

const struct cl_sink_ops cl_sink_csv_ops = {
	.name = "csv",
	.start = csv_start,
	.begin = csv_begin,
	.row = csv_row,
	.end = csv_end,
};
