// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/cpus.c: the kernel's cpulist format, CPU masks, and reading
 * online/possible CPUs and hotplug capability from a fake sysfs tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cpus.h"
#include "unit.h"

struct cpulist_case {
	const char *text;
	int err;
	unsigned int weight, span;	/* when err == 0 */
	const char *canonical;		/* cl_cpulist_format of the result */
};

static const struct cpulist_case cpulist_cases[] = {
	{ "0", 0, 1, 1, "0" },
	{ "0\n", 0, 1, 1, "0" },
	{ "0-3", 0, 4, 4, "0-3" },
	{ "0-1,4,6-7\n", 0, 5, 8, "0-1,4,6-7" },
	{ "", 0, 0, 0, "" },
	{ "\n", 0, 0, 0, "" },
	{ "3-3", 0, 1, 4, "3" },
	{ "2,0", 0, 2, 3, "0,2" },
	{ "0-2,1-3", 0, 4, 4, "0-3" },
	{ "0,1,2,3", 0, 4, 4, "0-3" },
	{ "1,3,5", 0, 3, 6, "1,3,5" },
	{ "63-64", 0, 2, 65, "63-64" },
	{ "0-1023", 0, CL_MAX_CPUS, CL_MAX_CPUS, "0-1023" },
	{ "1023", 0, 1, CL_MAX_CPUS, "1023" },
	{ "007", 0, 1, 8, "7" },
	{ "3-1", -EINVAL },
	{ "a", -EINVAL },
	{ "0-", -EINVAL },
	{ "0-\n", -EINVAL },
	{ "-1", -EINVAL },
	{ "-", -EINVAL },
	/* The kernel never writes empty items; a list that has them is not its. */
	{ "1,,2", -EINVAL },
	{ ",0", -EINVAL },
	{ " 0", -EINVAL },
	{ "0 1", -EINVAL },
	{ "0-3x", -EINVAL },
	{ "0-3-5", -EINVAL },
	{ "1024", -ERANGE },
	{ "0-1024", -ERANGE },
	{ "99999999999999999999999", -ERANGE },
};

static bool check_cpulist(const struct cpulist_case *c)
{
	struct cl_cpumask mask;
	char buf[256];

	if (!expect_int(cl_cpulist_parse(c->text, &mask), c->err))
		goto fail;
	if (c->err)
		return true;
	cl_cpulist_format(&mask, buf, sizeof(buf));
	if (!expect_u64(cl_cpumask_weight(&mask), c->weight) ||
	    !expect_u64(cl_cpumask_span(&mask), c->span) || !expect_str(buf, c->canonical))
		goto fail;
	return true;
fail:
	unit_note("cl_cpulist_parse(\"%s\")", c->text);
	return false;
}

static bool test_cpulist_parse(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cpulist_cases); i++)
		ok &= check_cpulist(&cpulist_cases[i]);
	return ok;
}

/* Formatting and parsing again gives the same mask. */
static bool test_cpulist_round_trip(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cpulist_cases); i++) {
		struct cl_cpumask mask, again;
		char buf[256];

		if (cpulist_cases[i].err)
			continue;
		cl_cpulist_parse(cpulist_cases[i].text, &mask);
		cl_cpulist_format(&mask, buf, sizeof(buf));
		if (!expect_int(cl_cpulist_parse(buf, &again), 0) ||
		    !expect(cl_cpumask_equal(&mask, &again))) {
			unit_note("\"%s\" formatted as \"%s\"", cpulist_cases[i].text, buf);
			ok = false;
		}
	}
	return ok;
}

/* Every other CPU: the longest list there is, and a buffer too short for it. */
static bool test_cpulist_format_bounds(void)
{
	struct cl_cpumask mask = { 0 }, again;
	char big[4096], small[16];

	for (unsigned int cpu = 0; cpu < CL_MAX_CPUS; cpu += 2)
		cl_cpumask_set(&mask, cpu);
	cl_cpulist_format(&mask, big, sizeof(big));
	memset(small, 'x', sizeof(small));
	cl_cpulist_format(&mask, small, 8);
	return expect_int(cl_cpulist_parse(big, &again), 0) &&
	       expect(cl_cpumask_equal(&mask, &again)) &&
	       expect_u64(cl_cpumask_weight(&again), CL_MAX_CPUS / 2) &&
	       expect(memchr(small, '\0', 8) != NULL) && expect(small[8] == 'x');
}

static bool test_cpumask_ops(void)
{
	struct cl_cpumask a = { 0 }, b, c;

	cl_cpumask_set(&a, 0);
	cl_cpumask_set(&a, 64);
	cl_cpumask_set(&a, CL_MAX_CPUS - 1);
	cl_cpumask_set(&a, CL_MAX_CPUS);	/* out of range: ignored */
	cl_cpumask_set(&a, UINT_MAX);
	if (!expect_u64(cl_cpumask_weight(&a), 3) ||
	    !expect_u64(cl_cpumask_span(&a), CL_MAX_CPUS) || !expect(cl_cpumask_test(&a, 64)) ||
	    !expect(!cl_cpumask_test(&a, 63)) || !expect(!cl_cpumask_test(&a, CL_MAX_CPUS)))
		return false;
	cl_cpumask_clear(&a, CL_MAX_CPUS - 1);
	cl_cpumask_clear(&a, CL_MAX_CPUS);
	if (!expect_u64(cl_cpumask_weight(&a), 2) || !expect_u64(cl_cpumask_span(&a), 65))
		return false;
	cl_cpulist_parse("0,64", &b);
	cl_cpulist_parse("0,63", &c);
	return expect(cl_cpumask_equal(&a, &b)) && expect(!cl_cpumask_equal(&a, &c)) &&
	       expect(cl_cpumask_equal(&c, &c));
}

/* A fake /sys: <root>/devices/system/cpu/{online,possible,cpuN/online}. */
static int write_file(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*slash = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = -EIO;
	close(fd);
	return err;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void remove_tree(const char *root)
{
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const struct {
	const char *rel;
	const char *text;
} fake_sysfs[] = {
	{ "devices/system/cpu/online", "0-1,3\n" },
	{ "devices/system/cpu/possible", "0-3\n" },
	{ "devices/system/cpu/offline", "2\n" },
	{ "devices/system/cpu/kernel_max", "8191\n" },
	{ "devices/system/cpu/broken", "zero-three\n" },
	/* cpu0 cannot go offline: no online file, as on x86. */
	{ "devices/system/cpu/cpu0/topology/core_id", "0\n" },
	{ "devices/system/cpu/cpu1/online", "1\n" },
	{ "devices/system/cpu/cpu2/online", "0\n" },
	{ "devices/system/cpu/cpu3/online", "1\n" },
};

static bool test_sysfs(void)
{
	char root[] = "/tmp/cpuledger-sysfs-XXXXXX";
	struct cl_cpumask mask, want;
	bool ok = false;

	if (!expect(mkdtemp(root) != NULL))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(fake_sysfs); i++) {
		if (!expect_int(write_file(root, fake_sysfs[i].rel, fake_sysfs[i].text), 0))
			goto out_tree;
	}

	if (!expect_int(cl_cpus_read(root, "online", &mask), 0) ||
	    !expect_int(cl_cpulist_parse("0,1,3", &want), 0) ||
	    !expect(cl_cpumask_equal(&mask, &want)))
		goto out_tree;
	if (!expect_int(cl_cpus_read(root, "possible", &mask), 0) ||
	    !expect_u64(cl_cpumask_weight(&mask), 4) || !expect_u64(cl_cpumask_span(&mask), 4))
		goto out_tree;
	if (!expect_int(cl_cpus_read(root, "offline", &mask), 0) ||
	    !expect_u64(cl_cpumask_weight(&mask), 1) || !expect(cl_cpumask_test(&mask, 2)))
		goto out_tree;
	if (!expect_int(cl_cpus_read(root, "present", &mask), -ENOENT) ||
	    !expect_int(cl_cpus_read(root, "broken", &mask), -EINVAL) ||
	    !expect_int(cl_cpus_read("/nonexistent/cpuledger-test", "online", &mask), -ENOENT))
		goto out_tree;

	/* Hotpluggable: the online file exists, whatever the CPU's state now. */
	if (!expect(!cl_cpu_hotpluggable(root, 0)) || !expect(cl_cpu_hotpluggable(root, 1)) ||
	    !expect(cl_cpu_hotpluggable(root, 2)) || !expect(cl_cpu_hotpluggable(root, 3)) ||
	    !expect(!cl_cpu_hotpluggable(root, 4)) ||
	    !expect(!cl_cpu_hotpluggable("/nonexistent/cpuledger-test", 1)))
		goto out_tree;
	ok = true;
out_tree:
	remove_tree(root);
	return ok;
}

int main(void)
{
	RUN_TEST(test_cpulist_parse);
	RUN_TEST(test_cpulist_round_trip);
	RUN_TEST(test_cpulist_format_bounds);
	RUN_TEST(test_cpumask_ops);
	RUN_TEST(test_sysfs);
	return unit_done();
}
