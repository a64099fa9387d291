/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_SERIES_H
#define CPULEDGER_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/htab.h"
#include "core/report.h"

/*
 * serve: cumulative totals per row identity (a container, a cgroup, a
 * process), fed with each interval's rows. Totals only grow, so the counters
 * Prometheus reads never go backwards; a series not updated for the grace
 * period is dropped (its container is gone); at max_series new identities are
 * cut and counted, protecting Prometheus from a cardinality blow-up.
 */
struct cl_series {
	struct cl_hnode node;
	struct cl_row row;	/* identity and labels; row.v holds the totals */
	uint64_t updated_ns;	/* CLOCK_MONOTONIC of the last non-zero delta */
};

struct cl_series_store {
	struct cl_htab htab;
	size_t max_series;
	uint64_t grace_ns;
	uint64_t cut;		/* rows not exported, each interval: max_series reached */
	uint64_t expired;	/* series dropped after the grace period */
};

int cl_series_init(struct cl_series_store *store, size_t max_series, uint64_t grace_ns);
void cl_series_free(struct cl_series_store *store);
/* Adds an interval's rows (every row, idle ones too) at @now_ns. */
void cl_series_add_rows(struct cl_series_store *store, const struct cl_rows *rows,
			uint64_t now_ns);
/* Drops series idle for longer than the grace period. */
void cl_series_expire(struct cl_series_store *store, uint64_t now_ns);
/* The series, in a stable order (by identity), into a malloc'ed array. */
size_t cl_series_sorted(const struct cl_series_store *store, const struct cl_series ***out);

#endif
