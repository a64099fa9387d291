/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_CPUS_H
#define CPULEDGER_CPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuledger/abi.h"

struct cl_cpumask {
	uint64_t bits[CL_MAX_CPUS / 64];
};

static inline void cl_cpumask_set(struct cl_cpumask *mask, unsigned int cpu)
{
	if (cpu < CL_MAX_CPUS)
		mask->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline void cl_cpumask_clear(struct cl_cpumask *mask, unsigned int cpu)
{
	if (cpu < CL_MAX_CPUS)
		mask->bits[cpu / 64] &= ~(1ULL << (cpu % 64));
}

static inline bool cl_cpumask_test(const struct cl_cpumask *mask, unsigned int cpu)
{
	return cpu < CL_MAX_CPUS && (mask->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned int cl_cpumask_weight(const struct cl_cpumask *mask);
bool cl_cpumask_equal(const struct cl_cpumask *a, const struct cl_cpumask *b);
/* Highest set CPU + 1, 0 when empty. */
unsigned int cl_cpumask_span(const struct cl_cpumask *mask);

/* Kernel cpulist format: "0-3,5,7-8" (a trailing newline is fine). */
int cl_cpulist_parse(const char *text, struct cl_cpumask *mask);
/* Back to cpulist format; "" when empty. */
void cl_cpulist_format(const struct cl_cpumask *mask, char *buf, size_t size);

/*
 * Reads /sys/devices/system/cpu/<which> ("online", "possible", "present")
 * under @sysfs_root ("/sys" normally; a fake tree in tests).
 */
int cl_cpus_read(const char *sysfs_root, const char *which, struct cl_cpumask *mask);
/* Can this CPU be taken offline (its cpuN/online file exists)? */
bool cl_cpu_hotpluggable(const char *sysfs_root, unsigned int cpu);

#endif
