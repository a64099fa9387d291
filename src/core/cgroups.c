// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cgroups.h"
#include "core/htab.h"
#include "core/system.h"

struct cgroup_entry {
	struct cl_hnode node;
	uint64_t id;
	char *path;
	struct cl_cgroup_ident ident;	/* ident.path == path */
};

static void parse_ident(struct cgroup_entry *e)
{
	cl_container_parse(e->path, &e->ident.container);
	e->ident.path = e->path;
	e->ident.in_container = e->ident.container.id[0] != '\0';
}

struct cl_cgroups {
	char mount[4096];
	bool have_mount;
	struct cl_htab ids;
	size_t max_entries;
	bool walk_allowed;
	struct cl_cgroups_stats stats;
};

static bool id_eq(const struct cl_hnode *node, const void *key)
{
	return ((const struct cgroup_entry *)node)->id == *(const uint64_t *)key;
}

/*
 * The cgroup id is the kernfs node id, which name_to_handle_at() returns as
 * the file handle on cgroupfs; on 64-bit kernels it is also the inode number.
 */
uint64_t cl_cgroup_id_of(const char *path)
{
	struct {
		struct file_handle handle;
		uint64_t id;
	} fh = { .handle.handle_bytes = sizeof(uint64_t) };
	struct stat st;
	int mount_id;

	if (!name_to_handle_at(AT_FDCWD, path, &fh.handle, &mount_id, 0) &&
	    fh.handle.handle_bytes == sizeof(uint64_t))
		return fh.id;
	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

struct cl_cgroups *cl_cgroups_new(const char *mount, size_t max_entries)
{
	struct cl_cgroups *cg = calloc(1, sizeof(*cg));

	if (!cg)
		return NULL;
	if (cl_htab_init(&cg->ids, 256)) {
		free(cg);
		return NULL;
	}
	cg->max_entries = max_entries ? max_entries : 65536;
	cg->walk_allowed = true;
	if (mount)
		cg->have_mount = snprintf(cg->mount, sizeof(cg->mount), "%s", mount) > 0;
	else
		cg->have_mount = !cl_cgroup2_mount(cg->mount, sizeof(cg->mount));
	/* "/x/" and "/x" are the same mount: paths below it start with '/'. */
	for (size_t len = strlen(cg->mount); len > 1 && cg->mount[len - 1] == '/'; len--)
		cg->mount[len - 1] = '\0';
	return cg;
}

static void drop_all(struct cl_cgroups *cg)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&cg->ids, node, tmp, i) {
		struct cgroup_entry *e = (struct cgroup_entry *)node;

		cl_htab_remove(&cg->ids, node);
		free(e->path);
		free(e);
	}
}

void cl_cgroups_free(struct cl_cgroups *cg)
{
	if (!cg)
		return;
	drop_all(cg);
	cl_htab_free(&cg->ids);
	free(cg);
}

const char *cl_cgroups_mount(const struct cl_cgroups *cg)
{
	return cg->have_mount ? cg->mount : NULL;
}

void cl_cgroups_remember(struct cl_cgroups *cg, uint64_t id, const char *path)
{
	uint64_t hash = cl_hash_u64(id);
	struct cgroup_entry *e;

	e = (struct cgroup_entry *)cl_htab_find(&cg->ids, hash, id_eq, &id);
	if (e) {
		if (strcmp(e->path, path)) {
			char *copy = strdup(path);

			if (copy) {
				free(e->path);
				e->path = copy;
				parse_ident(e);
			}
		}
		return;
	}
	if (cg->ids.count >= cg->max_entries) {
		drop_all(cg);
		cg->stats.resets++;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->id = id;
	e->path = strdup(path);
	if (!e->path) {
		free(e);
		return;
	}
	parse_ident(e);
	cl_htab_insert(&cg->ids, &e->node, hash);
}

/* nftw has no context argument; walks happen on one thread. */
static struct cl_cgroups *walking;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + strlen(walking->mount);

	if (type != FTW_D)
		return FTW_CONTINUE;
	cl_cgroups_remember(walking, cl_cgroup_id_of(path), *rel ? rel : "/");
	return FTW_CONTINUE;
}

static void walk(struct cl_cgroups *cg)
{
	walking = cg;
	nftw(cg->mount, visit, 32, FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL);
	walking = NULL;
	cg->stats.walks++;
}

const struct cl_cgroup_ident *cl_cgroups_ident(struct cl_cgroups *cg, uint64_t id)
{
	struct cgroup_entry *e;

	e = (struct cgroup_entry *)cl_htab_find(&cg->ids, cl_hash_u64(id), id_eq, &id);
	if (e || !cg->have_mount || !cg->walk_allowed)
		return e ? &e->ident : NULL;
	cg->walk_allowed = false;
	walk(cg);
	e = (struct cgroup_entry *)cl_htab_find(&cg->ids, cl_hash_u64(id), id_eq, &id);
	return e ? &e->ident : NULL;
}

const char *cl_cgroups_path(struct cl_cgroups *cg, uint64_t id)
{
	const struct cl_cgroup_ident *ident = cl_cgroups_ident(cg, id);

	return ident ? ident->path : NULL;
}

void cl_cgroups_refresh_allowed(struct cl_cgroups *cg)
{
	cg->walk_allowed = true;
}

void cl_cgroups_get_stats(const struct cl_cgroups *cg, struct cl_cgroups_stats *stats)
{
	*stats = cg->stats;
	stats->entries = cg->ids.count;
}
