// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/cgroups.c: cgroup ids to paths and identities, over a fake
 * cgroup2 tree (plain directories in a temporary directory). On a real
 * cgroup2 mount the id is the kernfs node id; on other filesystems
 * cl_cgroup_id_of gives whatever name_to_handle_at or stat says, and the
 * resolver must map it back consistently all the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cgroups.h"
#include "unit.h"

#define ID_A "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
#define ID_B "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"
#define UID "c1b75110-97a6-428f-894e-cbceba794229"
#define UID_ "c1b75110_97a6_428f_894e_cbceba794229"
#define POD_SLICE \
	"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice"

/* The fake hierarchy, parents before children. */
static const char *const fake_tree[] = {
	"/a",
	"/a/b",
	"/system.slice",
	"/system.slice/sshd.service",
	"/system.slice/docker-" ID_A ".scope",
	"/kubepods",
	"/kubepods/burstable",
	"/kubepods/burstable/pod" UID,
	"/kubepods/burstable/pod" UID "/" ID_B,
	"/kubepods.slice",
	"/kubepods.slice/kubepods-besteffort.slice",
	POD_SLICE,
};

struct tree {
	char root[64];
};

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void tree_remove(struct tree *t)
{
	if (t->root[0])
		nftw(t->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool tree_mkdir(struct tree *t, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", t->root, rel);
	if (!expect_int(mkdir(path, 0755) ? -errno : 0, 0)) {
		unit_note("mkdir %s", path);
		return false;
	}
	return true;
}

static bool tree_init(struct tree *t)
{
	snprintf(t->root, sizeof(t->root), "/tmp/cpuledger-cgroups-XXXXXX");
	if (!expect(mkdtemp(t->root) != NULL)) {
		t->root[0] = '\0';
		return false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fake_tree); i++) {
		if (!tree_mkdir(t, fake_tree[i]))
			return false;
	}
	return true;
}

/* The id of @rel ("" for the root) in the fake tree. */
static uint64_t tree_id(const struct tree *t, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", t->root, rel);
	return cl_cgroup_id_of(path);
}

static uint64_t walks(const struct cl_cgroups *cg)
{
	struct cl_cgroups_stats stats;

	cl_cgroups_get_stats(cg, &stats);
	return stats.walks;
}

/* Every directory maps back to its path relative to the mount; the root is "/". */
static bool test_paths(void)
{
	struct cl_cgroups *cg = NULL;
	struct tree t = { "" };
	struct stat st;
	bool ok = false;
	uint64_t root_id;

	if (!tree_init(&t))
		goto out_tree;
	cg = cl_cgroups_new(t.root, 0);
	if (!expect(cg != NULL) || !expect_str(cl_cgroups_mount(cg), t.root))
		goto out_tree;
	root_id = tree_id(&t, "");
	if (!expect(root_id != 0) || !expect_u64(tree_id(&t, ""), root_id) ||
	    !expect_str(cl_cgroups_path(cg, root_id), "/") || !expect_u64(walks(cg), 1))
		goto out_tree;
	/* What the id is on this filesystem, for whoever reads the log. */
	if (!stat(t.root, &st))
		printf("# cl_cgroup_id_of on %s: %s\n", t.root,
		       (uint64_t)st.st_ino == root_id ? "the inode number" : "a file handle");
	for (size_t i = 0; i < ARRAY_SIZE(fake_tree); i++) {
		uint64_t id = tree_id(&t, fake_tree[i]);

		if (!expect(id != 0) || !expect(id != root_id) ||
		    !expect_str(cl_cgroups_path(cg, id), fake_tree[i])) {
			unit_note("%s", fake_tree[i]);
			goto out_tree;
		}
		for (size_t k = 0; k < i; k++) {
			if (!expect(id != tree_id(&t, fake_tree[k]))) {
				unit_note("%s and %s share an id", fake_tree[i], fake_tree[k]);
				goto out_tree;
			}
		}
	}
	/* One walk named them all. */
	ok = expect_u64(walks(cg), 1) &&
	     expect_u64(cl_cgroup_id_of("/nonexistent/cpuledger-test"), 0);
out_tree:
	cl_cgroups_free(cg);
	tree_remove(&t);
	return ok;
}

struct ident_case {
	const char *rel;
	bool in_container;
	const char *id;
	const char *runtime;
	const char *pod_uid;
};

static const struct ident_case ident_cases[] = {
	{ "/a/b", false, "", "", "" },
	{ "/system.slice/sshd.service", false, "", "", "" },
	{ "/system.slice/docker-" ID_A ".scope", true, ID_A, "docker", "" },
	{ "/kubepods/burstable/pod" UID, false, "", "", UID },
	{ "/kubepods/burstable/pod" UID "/" ID_B, true, ID_B, "", UID },
	{ POD_SLICE, false, "", "", UID },
};

/* What a path says about containers and pods comes with it. */
static bool test_ident(void)
{
	struct cl_cgroups *cg = NULL;
	struct tree t = { "" };
	bool ok = false;

	if (!tree_init(&t))
		goto out_tree;
	cg = cl_cgroups_new(t.root, 0);
	if (!expect(cg != NULL))
		goto out_tree;
	for (size_t i = 0; i < ARRAY_SIZE(ident_cases); i++) {
		const struct ident_case *c = &ident_cases[i];
		const struct cl_cgroup_ident *ident = cl_cgroups_ident(cg, tree_id(&t, c->rel));

		if (!expect(ident != NULL) || !expect_str(ident->path, c->rel) ||
		    !expect_int(ident->in_container, c->in_container) ||
		    !expect_str(ident->container.id, c->id) ||
		    !expect_str(ident->container.runtime, c->runtime) ||
		    !expect_str(ident->container.pod_uid, c->pod_uid)) {
			unit_note("%s", c->rel);
			goto out_tree;
		}
	}
	ok = expect(cl_cgroups_ident(cg, 1234567) == NULL);
out_tree:
	cl_cgroups_free(cg);
	tree_remove(&t);
	return ok;
}

/*
 * An unknown id walks the hierarchy at most once until the next
 * cl_cgroups_refresh_allowed: a burst of ids of cgroups that are gone
 * must not turn into a burst of walks.
 */
static bool test_unknown_ids(void)
{
	struct cl_cgroups *cg = NULL;
	struct tree t = { "" };
	bool ok = false;
	uint64_t late;

	if (!tree_init(&t))
		goto out_tree;
	cg = cl_cgroups_new(t.root, 0);
	if (!expect(cg != NULL))
		goto out_tree;
	if (!expect(cl_cgroups_path(cg, 987654321) == NULL) || !expect_u64(walks(cg), 1))
		goto out_tree;
	for (uint64_t id = 987654321; id < 987654321 + 100; id++) {
		if (!expect(cl_cgroups_path(cg, id) == NULL))
			goto out_tree;
	}
	/* Known ids from the first walk need none. */
	if (!expect_u64(walks(cg), 1) ||
	    !expect_str(cl_cgroups_path(cg, tree_id(&t, "/a")), "/a") ||
	    !expect_u64(walks(cg), 1))
		goto out_tree;
	/* A cgroup created after the walk: unknown until a walk is allowed again. */
	if (!tree_mkdir(&t, "/a/late"))
		goto out_tree;
	late = tree_id(&t, "/a/late");
	if (!expect(cl_cgroups_path(cg, late) == NULL) || !expect_u64(walks(cg), 1))
		goto out_tree;
	cl_cgroups_refresh_allowed(cg);
	if (!expect_str(cl_cgroups_path(cg, late), "/a/late") || !expect_u64(walks(cg), 2))
		goto out_tree;
	/* Allowed, but nothing unknown asked for: no walk. */
	cl_cgroups_refresh_allowed(cg);
	if (!expect_str(cl_cgroups_path(cg, late), "/a/late") || !expect_u64(walks(cg), 2))
		goto out_tree;
	/* Allowed again and still unknown: one more walk, then none. */
	if (!expect(cl_cgroups_path(cg, 42) == NULL) || !expect(cl_cgroups_path(cg, 43) == NULL) ||
	    !expect_u64(walks(cg), 3))
		goto out_tree;
	ok = true;
out_tree:
	cl_cgroups_free(cg);
	tree_remove(&t);
	return ok;
}

/* Ids the kernel side saw created are named without a walk, even once they are gone. */
static bool test_remember(void)
{
	static const char gone[] = "/system.slice/docker-" ID_B ".scope";
	const struct cl_cgroup_ident *ident;
	struct cl_cgroups_stats stats;
	struct cl_cgroups *cg = NULL;
	struct tree t = { "" };
	bool ok = false;

	if (!tree_init(&t))
		goto out_tree;
	cg = cl_cgroups_new(t.root, 0);
	if (!expect(cg != NULL))
		goto out_tree;
	cl_cgroups_remember(cg, 777, gone);
	ident = cl_cgroups_ident(cg, 777);
	if (!expect(ident != NULL) || !expect_str(ident->path, gone) ||
	    !expect(ident->in_container) || !expect_str(ident->container.id, ID_B) ||
	    !expect_str(ident->container.runtime, "docker") || !expect_u64(walks(cg), 0))
		goto out_tree;
	/* The same id again: the latest path wins, and what it says. */
	cl_cgroups_remember(cg, 777, "/system.slice/sshd.service");
	ident = cl_cgroups_ident(cg, 777);
	if (!expect(ident != NULL) || !expect_str(ident->path, "/system.slice/sshd.service") ||
	    !expect(!ident->in_container) || !expect_str(ident->container.id, ""))
		goto out_tree;
	cl_cgroups_remember(cg, 777, "/system.slice/sshd.service");
	cl_cgroups_remember(cg, 1, "/");
	if (!expect_str(cl_cgroups_path(cg, 1), "/"))
		goto out_tree;
	cl_cgroups_get_stats(cg, &stats);
	ok = expect_u64(stats.entries, 2) && expect_u64(stats.walks, 0) &&
	     expect_u64(stats.resets, 0);
out_tree:
	cl_cgroups_free(cg);
	tree_remove(&t);
	return ok;
}

/*
 * A "pod" component that is no pod uid is no pod: the identity says so even
 * when a container is below it. At --by pod a non-empty pod uid is the row's
 * identity and pod_path_len cuts the row's cgroup (report.c, group_key).
 */
static bool test_malformed_pod_ident(void)
{
	static const char path[] =
		"/kubepods/burstable/podc1b75110x97a6x428fx894excbceba794229/" ID_A;
	const struct cl_cgroup_ident *ident;
	struct cl_cgroups *cg;
	bool ok;

	cg = cl_cgroups_new("/nonexistent/cpuledger-test", 0);
	if (!expect(cg != NULL))
		return false;
	cl_cgroups_remember(cg, 778, path);
	ident = cl_cgroups_ident(cg, 778);
	ok = expect(ident != NULL) && expect_str(ident->path, path) &&
	     expect(ident->in_container) && expect_str(ident->container.id, ID_A) &&
	     expect_str(ident->container.pod_uid, "") &&
	     expect_u64(ident->container.pod_path_len, 0);
	cl_cgroups_free(cg);
	return ok;
}

/* Past max_entries the cache starts over, and says so. */
static bool test_max_entries(void)
{
	struct cl_cgroups_stats stats;
	struct cl_cgroups *cg = NULL;
	struct tree t = { "" };
	bool ok = false;
	uint64_t id;

	if (!tree_init(&t))
		goto out_tree;
	cg = cl_cgroups_new(t.root, 3);
	if (!expect(cg != NULL))
		goto out_tree;
	for (id = 1; id <= 3; id++)
		cl_cgroups_remember(cg, id, "/a");
	cl_cgroups_get_stats(cg, &stats);
	if (!expect_u64(stats.entries, 3) || !expect_u64(stats.resets, 0))
		goto out_tree;
	/* Renaming a known id takes no room. */
	cl_cgroups_remember(cg, 2, "/a/b");
	cl_cgroups_get_stats(cg, &stats);
	if (!expect_u64(stats.entries, 3) || !expect_u64(stats.resets, 0))
		goto out_tree;
	cl_cgroups_remember(cg, 4, "/system.slice");
	cl_cgroups_get_stats(cg, &stats);
	if (!expect_u64(stats.entries, 1) || !expect_u64(stats.resets, 1) ||
	    !expect_str(cl_cgroups_path(cg, 4), "/system.slice"))
		goto out_tree;
	/* A walk of a hierarchy bigger than the bound stays within it, counting. */
	if (!expect(cl_cgroups_path(cg, 1) == NULL))
		goto out_tree;
	cl_cgroups_get_stats(cg, &stats);
	if (!expect_u64(stats.walks, 1) || !expect(stats.entries <= 3) ||
	    !expect(stats.resets >= 2))
		goto out_tree;
	/* A bound of 0 is the default, not "nothing". */
	cl_cgroups_free(cg);
	cg = cl_cgroups_new(t.root, 0);
	if (!expect(cg != NULL))
		goto out_tree;
	for (id = 1; id <= 1000; id++)
		cl_cgroups_remember(cg, id, "/a");
	cl_cgroups_get_stats(cg, &stats);
	ok = expect_u64(stats.entries, 1000) && expect_u64(stats.resets, 0);
out_tree:
	cl_cgroups_free(cg);
	tree_remove(&t);
	return ok;
}

/* A mount given with a trailing slash names paths the same way. */
static bool test_mount_trailing_slash(void)
{
	struct cl_cgroups *cg = NULL;
	struct tree t = { "" };
	char mount[80];
	bool ok = false;

	if (!tree_init(&t))
		goto out_tree;
	snprintf(mount, sizeof(mount), "%s/", t.root);
	cg = cl_cgroups_new(mount, 0);
	if (!expect(cg != NULL))
		goto out_tree;
	ok = expect_str(cl_cgroups_path(cg, tree_id(&t, "")), "/") &&
	     expect_str(cl_cgroups_path(cg, tree_id(&t, "/a/b")), "/a/b");
out_tree:
	cl_cgroups_free(cg);
	tree_remove(&t);
	return ok;
}

/* A mount that is not there: nothing resolves, nothing breaks; NULL frees. */
static bool test_missing_mount(void)
{
	struct cl_cgroups *cg = cl_cgroups_new("/nonexistent/cpuledger-test", 0);
	bool ok;

	if (!expect(cg != NULL))
		return false;
	ok = expect(cl_cgroups_path(cg, 1) == NULL) && expect(cl_cgroups_ident(cg, 1) == NULL) &&
	     expect_u64(walks(cg), 1);
	cl_cgroups_remember(cg, 1, "/x");
	ok = ok && expect_str(cl_cgroups_path(cg, 1), "/x");
	cl_cgroups_free(cg);
	cl_cgroups_free(NULL);
	return ok;
}

int main(void)
{
	RUN_TEST(test_paths);
	RUN_TEST(test_ident);
	RUN_TEST(test_unknown_ids);
	RUN_TEST(test_remember);
	RUN_TEST(test_malformed_pod_ident);
	RUN_TEST(test_max_entries);
	RUN_TEST(test_mount_trailing_slash);
	RUN_TEST(test_missing_mount);
	return unit_done();
}
