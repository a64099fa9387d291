/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_CGROUPS_H
#define CPULEDGER_CGROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/containers.h"

/*
 * cgroup v2 ids (what BPF sees: kernfs node ids) to paths relative to the
 * cgroup2 mount ("/" for the root). The mount comes from mountinfo:
 * /sys/fs/cgroup on pure v2 hosts, /sys/fs/cgroup/unified on hybrid ones. An
 * unknown id makes the resolver walk the hierarchy again (at most once per
 * call to cl_cgroups_refresh_allowed); ids the kernel side saw being created
 * can be remembered directly. Bounded: past max_entries the cache starts over
 * (counted).
 */
struct cl_cgroups;

struct cl_cgroups *cl_cgroups_new(const char *mount, size_t max_entries);
void cl_cgroups_free(struct cl_cgroups *cgroups);

/* The cgroup2 mount in use, or NULL when there is none. */
const char *cl_cgroups_mount(const struct cl_cgroups *cgroups);
/* The path of @id, or NULL if it is not (or no longer) in the hierarchy. */
const char *cl_cgroups_path(struct cl_cgroups *cgroups, uint64_t id);

/* A cgroup and what its path says: container, pod. */
struct cl_cgroup_ident {
	const char *path;
	struct cl_container container;
	bool in_container;	/* container.id is set */
};

/* @id's identity, or NULL if unknown (as cl_cgroups_path). */
const struct cl_cgroup_ident *cl_cgroups_ident(struct cl_cgroups *cgroups, uint64_t id);
/* Records @id -> @path (e.g. from a cgroup_mkdir tracepoint). */
void cl_cgroups_remember(struct cl_cgroups *cgroups, uint64_t id, const char *path);
/* Lets the next unknown id trigger one more walk of the hierarchy. */
void cl_cgroups_refresh_allowed(struct cl_cgroups *cgroups);
/* The id of the cgroup directory at @path (absolute), or 0. */
uint64_t cl_cgroup_id_of(const char *path);

struct cl_cgroups_stats {
	uint64_t entries;
	uint64_t walks;		/* hierarchy walks so far */
	uint64_t resets;	/* cache dropped at max_entries */
};

void cl_cgroups_get_stats(const struct cl_cgroups *cgroups, struct cl_cgroups_stats *stats);

#endif
