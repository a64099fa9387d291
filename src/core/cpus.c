// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpus.h"

unsigned int cl_cpumask_weight(const struct cl_cpumask *mask)
{
	unsigned int weight = 0;
	size_t i;

	for (i = 0; i < CL_MAX_CPUS / 64; i++)
		weight += (unsigned int)__builtin_popcountll(mask->bits[i]);
	return weight;
}

bool cl_cpumask_equal(const struct cl_cpumask *a, const struct cl_cpumask *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}

unsigned int cl_cpumask_span(const struct cl_cpumask *mask)
{
	unsigned int cpu;

	for (cpu = CL_MAX_CPUS; cpu > 0; cpu--) {
		if (cl_cpumask_test(mask, cpu - 1))
			return cpu;
	}
	return 0;
}

static int parse_cpu(const char **p, unsigned int *cpu)
{
	unsigned long value = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		value = value * 10 + (unsigned long)(*s - '0');
		if (value >= CL_MAX_CPUS)
			return -ERANGE;
	}
	*cpu = (unsigned int)value;
	*p = s;
	return 0;
}

int cl_cpulist_parse(const char *text, struct cl_cpumask *mask)
{
	const char *p = text;
	int err;

	memset(mask, 0, sizeof(*mask));
	while (*p && *p != '\n') {
		unsigned int first, last, cpu;

		err = parse_cpu(&p, &first);
		if (err)
			return err;
		last = first;
		if (*p == '-') {
			p++;
			err = parse_cpu(&p, &last);
			if (err)
				return err;
			if (last < first)
				return -EINVAL;
		}
		for (cpu = first; cpu <= last; cpu++)
			cl_cpumask_set(mask, cpu);
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

void cl_cpulist_format(const struct cl_cpumask *mask, char *buf, size_t size)
{
	unsigned int cpu = 0, span = cl_cpumask_span(mask);
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	while (cpu < span) {
		unsigned int first;
		int n;

		if (!cl_cpumask_test(mask, cpu)) {
			cpu++;
			continue;
		}
		first = cpu;
		while (cpu + 1 < span && cl_cpumask_test(mask, cpu + 1))
			cpu++;
		if (first == cpu)
			n = snprintf(buf + used, size - used, "%s%u", used ? "," : "", first);
		else
			n = snprintf(buf + used, size - used, "%s%u-%u", used ? "," : "", first,
				     cpu);
		if (n < 0 || (size_t)n >= size - used)
			return;
		used += (size_t)n;
		cpu++;
	}
}

int cl_cpus_read(const char *sysfs_root, const char *which, struct cl_cpumask *mask)
{
	char path[512], buf[4096];
	ssize_t len;
	int fd, err;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/%s", sysfs_root, which);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	err = len < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[len] = '\0';
	return cl_cpulist_parse(buf, mask);
}

bool cl_cpu_hotpluggable(const char *sysfs_root, unsigned int cpu)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/online", sysfs_root, cpu);
	return access(path, F_OK) == 0;
}
