// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "core/log.h"

static enum cl_log_level log_level = CL_LOG_INFO;
static const char *log_prefix = "cpuledger";

void cl_log_set_level(enum cl_log_level level)
{
	log_level = level;
}

enum cl_log_level cl_log_get_level(void)
{
	return log_level;
}

void cl_log_set_prefix(const char *prefix)
{
	log_prefix = prefix;
}

void cl_log(enum cl_log_level level, const char *fmt, ...)
{
	va_list args;

	if (level > log_level)
		return;
	fprintf(stderr, "%s: ", log_prefix);
	if (level == CL_LOG_WARN)
		fputs("warning: ", stderr);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
}

int cl_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (log_level < CL_LOG_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}
