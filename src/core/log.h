/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_LOG_H
#define CPULEDGER_LOG_H

#include <stdarg.h>
#include <bpf/libbpf.h>

enum cl_log_level {
	CL_LOG_ERROR,
	CL_LOG_WARN,
	CL_LOG_INFO,
	CL_LOG_DEBUG,
};

/* Messages at or below this level reach stderr; -v raises it to debug. */
void cl_log_set_level(enum cl_log_level level);
enum cl_log_level cl_log_get_level(void);
/* Prefix for messages, e.g. "cpuledger stat". */
void cl_log_set_prefix(const char *prefix);

void cl_log(enum cl_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define cl_err(...)	cl_log(CL_LOG_ERROR, __VA_ARGS__)
#define cl_warn(...)	cl_log(CL_LOG_WARN, __VA_ARGS__)
#define cl_info(...)	cl_log(CL_LOG_INFO, __VA_ARGS__)
#define cl_dbg(...)	cl_log(CL_LOG_DEBUG, __VA_ARGS__)

/* libbpf's print callback: its messages show only with -v. */
int cl_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args);

#endif
