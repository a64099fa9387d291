/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_PERF_H
#define CPULEDGER_PERF_H

#include <stdbool.h>
#include <linux/perf_event.h>

#include "core/cpus.h"
#include "core/events.h"

/*
 * Per-CPU counting perf events, one per (slot, CPU), mirrored into the BPF
 * perf event array at slot * nr_cpus + cpu. CPUs come and go: a CPU's events
 * are opened when it is online and closed when it goes offline (the kernel
 * turns them off for good when their CPU goes away).
 */
struct cl_perf_counters {
	unsigned int nr_slots;
	__u8 slot_kind[CL_MAX_COUNTERS];	/* enum cl_slot_kind: soft slots have no fds */
	unsigned int nr_cpus;		/* possible CPUs: the stride of the map */
	struct perf_event_attr attrs[CL_MAX_COUNTERS];
	int *fds;			/* [slot * nr_cpus + cpu], -1 when closed */
	int map_fd;			/* BPF perf event array, -1 until set */
};

int cl_perf_counters_init(struct cl_perf_counters *pc, unsigned int nr_cpus);
void cl_perf_counters_free(struct cl_perf_counters *pc);

/*
 * Opens each perf-sourced event of @set on the @online CPUs. An event that
 * opens on no CPU is marked unsupported (with its errno); the others get a
 * slot, in order. Kernel-tracepoint events get a slot when @tracepoint_exists
 * says all they need is there. Task-sourced events are left alone.
 */
int cl_perf_counters_probe(struct cl_perf_counters *pc, struct cl_event_set *set,
			   const struct cl_cpumask *online,
			   bool (*tracepoint_exists)(const char *name));

/* Publishes every open fd into the BPF perf event array. */
int cl_perf_counters_set_map(struct cl_perf_counters *pc, int map_fd);

/* Opens all slots on @cpu (skipping open ones); returns how many failed. */
int cl_perf_counters_open_cpu(struct cl_perf_counters *pc, unsigned int cpu, int *first_errno);
void cl_perf_counters_close_cpu(struct cl_perf_counters *pc, unsigned int cpu);
bool cl_perf_counters_cpu_open(const struct cl_perf_counters *pc, unsigned int cpu);

int cl_perf_event_open(struct perf_event_attr *attr, int pid, int cpu);

#endif
