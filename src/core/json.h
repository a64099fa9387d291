/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_JSON_H
#define CPULEDGER_JSON_H

#include <stdint.h>
#include <stdio.h>

/*
 * The one JSON writer: every string that reaches JSON output goes through
 * cl_json_string. Numbers are locale-independent (cpuledger never calls
 * setlocale for LC_NUMERIC).
 */
void cl_json_string(FILE *out, const char *s);
/* Finite doubles with up to 6 significant decimals; non-finite as null. */
void cl_json_double(FILE *out, double value);

#endif
