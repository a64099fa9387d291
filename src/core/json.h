/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_JSON_H
#define CPULEDGER_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The one JSON writer: every string that reaches JSON output goes through
 * cl_json_string. Numbers are locale-independent (cpuledger never calls
 * setlocale for LC_NUMERIC).
 */
void cl_json_string(FILE *out, const char *s);
/* Length of the well-formed UTF-8 sequence at @p (RFC 3629), 0 if none. */
size_t cl_utf8_sequence(const unsigned char *p);
/* Finite doubles with up to 6 significant decimals; non-finite as null. */
void cl_json_double(FILE *out, double value);

#endif
