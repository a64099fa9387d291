/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_PARSE_H
#define CPULEDGER_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/*
 * "250ms", "1s", "1.5s", "2m", "100us", "1h"; a bare number is seconds.
 * Exact decimal arithmetic (no floating point). Returns 0, -EINVAL for text
 * that is not a duration (including negative ones), -ERANGE on overflow.
 */
int cl_parse_duration(const char *text, uint64_t *ns);
/* Formats ns the way cl_parse_duration reads it back, e.g. "1.5s", "250ms". */
void cl_format_duration(uint64_t ns, char *buf, size_t size);

/* For people: 999, 12345, 123.4K, 12.3M ... */
void cl_format_count(uint64_t value, char *buf, size_t size);
/* For people: 0, 812ns, 45.2us, 812.3ms, 1.52s */
void cl_format_time(uint64_t ns, char *buf, size_t size);

/* A byte count: "4096", "64K", "16M", "1G" (powers of 1024). */
int cl_parse_size(const char *text, uint64_t *bytes);

/* Whole decimal number, no sign, no trailing junk. */
int cl_parse_u64(const char *text, uint64_t *value);
int cl_parse_u32(const char *text, uint32_t *value);

/*
 * Comma-separated list of PIDs ("12,345"): each a positive number that fits
 * pid_t. On success *pids is malloc'ed and holds *count entries.
 */
int cl_parse_pid_list(const char *text, uint32_t **pids, size_t *count);

/*
 * Splits a comma-separated list into malloc'ed copies of its items, empty
 * items rejected (-EINVAL). Free with cl_free_list.
 */
int cl_split_list(const char *text, char ***items, size_t *count);
void cl_free_list(char **items, size_t count);

#endif
