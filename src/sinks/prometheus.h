/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_PROMETHEUS_H
#define CPULEDGER_PROMETHEUS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/report.h"
#include "core/series.h"

/*
 * Prometheus exposition of the series store: text format 0.0.4, or
 * OpenMetrics 1.0 when the scraper asks for it. Counters end in _total and
 * count seconds, not nanoseconds. Labels follow the --by level.
 */
#define CL_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define CL_OPENMETRICS_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

struct cl_prom_bpf_prog {
	const char *name;
	uint64_t run_ns;
	uint64_t runs;
};

/* What cpuledger says about itself. */
struct cl_prom_self {
	const char *version;
	unsigned int cpus_online;
	unsigned int cpus_possible;
	uint64_t lost_exit_records;
	uint64_t untracked_tasks;
	uint64_t lost_counter_charges;
	uint64_t lost_cgroup_records;
	uint64_t series_cut;
	uint64_t series_expired;
	uint64_t hotplug_events;
	uint64_t collections;
	double collect_seconds;		/* the last collection's duration */
	double scrape_seconds;		/* the previous scrape's duration */
	double process_cpu_seconds;
	uint64_t process_rss_bytes;
	double process_start_seconds;	/* Unix time */
	const struct cl_prom_bpf_prog *progs; /* NULL when the kernel keeps no BPF stats */
	size_t nr_progs;
};

struct cl_prom_view {
	const struct cl_schema *schema;	/* level and events */
	bool openmetrics;
	/* A cgroup's path for process-level series' cgroup label; may be NULL. */
	const char *(*cgroup_name)(void *ctx, uint64_t cgroup_id);
	void *ctx;
};

/* Writes the whole exposition; returns 0 or -errno. */
int cl_prom_render(FILE *out, const struct cl_prom_view *view,
		   const struct cl_series *const *series, size_t count,
		   const struct cl_prom_self *self);

/* Metric name for an event column: lower case, "_ns" events as "_seconds". */
void cl_prom_event_name(const struct cl_event *event, char *buf, size_t size);

#endif
