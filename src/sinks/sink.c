// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <string.h>

#include "core/json.h"
#include "sinks/sink.h"

const struct cl_sink_ops *cl_sink_lookup(const char *format)
{
	static const struct cl_sink_ops *const all[] = {
		&cl_sink_table_ops,
		&cl_sink_csv_ops,
		&cl_sink_jsonl_ops,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (!strcmp(format, all[i]->name))
			return all[i];
	}
	return NULL;
}

void cl_sink_init(struct cl_sink *sink, const struct cl_sink_ops *ops,
		  const struct cl_schema *schema, FILE *out)
{
	memset(sink, 0, sizeof(*sink));
	sink->ops = ops;
	sink->schema = schema;
	sink->out = out;
}

void cl_sink_put_cell(FILE *out, const struct cl_cell *cell, const char *null_text,
		      void (*put_string)(FILE *out, const char *s))
{
	switch (cell->type) {
	case CL_CELL_NULL:
		fputs(null_text, out);
		break;
	case CL_CELL_U64:
		fprintf(out, "%llu", (unsigned long long)cell->u);
		break;
	case CL_CELL_I64:
		fprintf(out, "%lld", (long long)cell->i);
		break;
	case CL_CELL_F64:
		cl_json_double(out, cell->f);
		break;
	case CL_CELL_STR:
		put_string(out, cell->s);
		break;
	}
}

int cl_sink_status(FILE *out)
{
	if (!ferror(out))
		return 0;
	return errno == EPIPE ? -EPIPE : -EIO;
}

int cl_sink_start(struct cl_sink *sink)
{
	int err = sink->ops->start ? sink->ops->start(sink) : 0;

	if (fflush(sink->out) && !err)
		err = errno == EPIPE ? -EPIPE : -EIO;
	return err ?: cl_sink_status(sink->out);
}

int cl_sink_write(struct cl_sink *sink, const struct cl_rows *rows,
		  const struct cl_interval *interval)
{
	int err;

	err = sink->ops->begin(sink, interval);
	for (size_t i = 0; !err && i < rows->nr_sorted; i++)
		err = sink->ops->row(sink, rows->sorted[i], interval);
	if (!err)
		err = sink->ops->end(sink, interval);
	sink->intervals++;
	if (fflush(sink->out) && !err)
		err = errno == EPIPE ? -EPIPE : -EIO;
	return err ?: cl_sink_status(sink->out);
}
