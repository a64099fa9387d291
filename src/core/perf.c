// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>

#include "core/perf.h"

int cl_perf_event_open(struct perf_event_attr *attr, int pid, int cpu)
{
	long fd = syscall(__NR_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

int cl_perf_counters_init(struct cl_perf_counters *pc, unsigned int nr_cpus)
{
	memset(pc, 0, sizeof(*pc));
	pc->nr_cpus = nr_cpus;
	pc->map_fd = -1;
	pc->fds = malloc(sizeof(*pc->fds) * CL_MAX_COUNTERS * nr_cpus);
	if (!pc->fds)
		return -ENOMEM;
	for (unsigned int i = 0; i < CL_MAX_COUNTERS * nr_cpus; i++)
		pc->fds[i] = -1;
	return 0;
}

void cl_perf_counters_free(struct cl_perf_counters *pc)
{
	unsigned int cpu;

	if (!pc->fds)
		return;
	for (cpu = 0; cpu < pc->nr_cpus; cpu++)
		cl_perf_counters_close_cpu(pc, cpu);
	free(pc->fds);
	pc->fds = NULL;
}

static int *slot_fd(struct cl_perf_counters *pc, unsigned int slot, unsigned int cpu)
{
	return &pc->fds[slot * pc->nr_cpus + cpu];
}

static int publish(struct cl_perf_counters *pc, unsigned int slot, unsigned int cpu)
{
	__u32 key = slot * pc->nr_cpus + cpu;
	int fd = *slot_fd(pc, slot, cpu);

	if (pc->map_fd < 0)
		return 0;
	if (fd < 0) {
		if (bpf_map_delete_elem(pc->map_fd, &key) && errno != ENOENT)
			return -errno;
		return 0;
	}
	return bpf_map_update_elem(pc->map_fd, &key, &fd, BPF_ANY) ? -errno : 0;
}

static bool soft_supported(const struct cl_event *event, bool (*exists)(const char *name))
{
	char names[256], *name, *save = NULL;

	if (!exists)
		return true;
	snprintf(names, sizeof(names), "%s",
		 event->def->tracepoints ? event->def->tracepoints : "");
	for (name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (exists(name))
			return true; /* one source of the event is enough */
	}
	return false;
}

int cl_perf_counters_probe(struct cl_perf_counters *pc, struct cl_event_set *set,
			   const struct cl_cpumask *online,
			   bool (*tracepoint_exists)(const char *name))
{
	size_t i;

	for (i = 0; i < set->count; i++) {
		struct cl_event *event = &set->events[i];
		unsigned int slot = pc->nr_slots, cpu, opened = 0;

		if (event->source == CL_SRC_TASK)
			continue;
		if (slot >= CL_MAX_COUNTERS)
			return -E2BIG;
		if (event->source == CL_SRC_SOFT) {
			if (!soft_supported(event, tracepoint_exists)) {
				event->status = CL_EVENT_UNSUPPORTED;
				event->open_errno = ENOENT;
				continue;
			}
			pc->slot_kind[slot] = (__u8)event->def->soft;
			event->status = CL_EVENT_SUPPORTED;
			event->slot = (int)slot;
			pc->nr_slots++;
			continue;
		}
		cl_event_attr(event->def, &pc->attrs[slot]);
		event->open_errno = 0;
		for (cpu = 0; cpu < pc->nr_cpus; cpu++) {
			int fd;

			if (!cl_cpumask_test(online, cpu))
				continue;
			fd = cl_perf_event_open(&pc->attrs[slot], -1, (int)cpu);
			if (fd < 0) {
				if (!event->open_errno)
					event->open_errno = -fd;
				continue;
			}
			*slot_fd(pc, slot, cpu) = fd;
			opened++;
		}
		if (!opened) {
			event->status = CL_EVENT_UNSUPPORTED;
			continue;
		}
		event->status = CL_EVENT_SUPPORTED;
		event->slot = (int)slot;
		pc->nr_slots++;
	}
	return 0;
}

int cl_perf_counters_set_map(struct cl_perf_counters *pc, int map_fd)
{
	unsigned int slot, cpu;
	int err;

	pc->map_fd = map_fd;
	for (slot = 0; slot < pc->nr_slots; slot++) {
		for (cpu = 0; cpu < pc->nr_cpus; cpu++) {
			if (*slot_fd(pc, slot, cpu) < 0)
				continue;
			err = publish(pc, slot, cpu);
			if (err)
				return err;
		}
	}
	return 0;
}

int cl_perf_counters_open_cpu(struct cl_perf_counters *pc, unsigned int cpu, int *first_errno)
{
	unsigned int slot;
	int failed = 0;

	if (cpu >= pc->nr_cpus)
		return 0;
	for (slot = 0; slot < pc->nr_slots; slot++) {
		int *fd = slot_fd(pc, slot, cpu), err;

		if (*fd >= 0 || pc->slot_kind[slot] != CL_SLOT_PERF)
			continue;
		*fd = cl_perf_event_open(&pc->attrs[slot], -1, (int)cpu);
		err = *fd < 0 ? *fd : publish(pc, slot, cpu);
		if (err) {
			if (*fd >= 0)
				close(*fd);
			*fd = -1;
			if (first_errno && !failed)
				*first_errno = -err;
			failed++;
		}
	}
	return failed;
}

void cl_perf_counters_close_cpu(struct cl_perf_counters *pc, unsigned int cpu)
{
	unsigned int slot;

	if (cpu >= pc->nr_cpus)
		return;
	for (slot = 0; slot < pc->nr_slots; slot++) {
		int *fd = slot_fd(pc, slot, cpu);

		if (*fd < 0)
			continue;
		close(*fd);
		*fd = -1;
		publish(pc, slot, cpu);
	}
}

bool cl_perf_counters_cpu_open(const struct cl_perf_counters *pc, unsigned int cpu)
{
	unsigned int slot;

	for (slot = 0; slot < pc->nr_slots && cpu < pc->nr_cpus; slot++) {
		if (pc->fds[slot * pc->nr_cpus + cpu] >= 0)
			return true;
	}
	return false;
}
