// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/series.c: what cpuledger serve exports. Each interval's rows
 * (built with cl_rows_add, as the ledger does) become cumulative series:
 * totals that only grow, idle rows that create nothing, expiry after the
 * grace period, a bound on series, and a stable order.
 */
#include <stdlib.h>
#include <unistd.h>

#include "core/cgroups.h"
#include "core/ledger.h"
#include "core/series.h"
#include "unit.h"

#define NSEC_PER_SEC 1000000000ULL

/* One task's delta in one interval; processes are single-threaded. */
struct delta {
	uint32_t pid;
	const char *comm;
	int cpu;
	uint64_t oncpu_ns, vol, invol, runq_max_ns, counter0, preempt_other;
};

static uint64_t start_of(uint32_t pid)
{
	return 1000000 + pid;
}

static void add_delta(struct cl_rows *rows, const struct delta *d, uint64_t start_ns)
{
	struct cl_task_meta meta = {
		.tid = d->pid,
		.tgid = d->pid,
		.start_ns = start_ns,
		.leader_start_ns = start_ns,
		.cgroup_id = 100 + d->pid,
		.leader_cgroup_id = 100 + d->pid,
	};
	struct cl_values v = { 0 };

	snprintf(meta.comm, sizeof(meta.comm), "%s", d->comm ? d->comm : "task");
	memcpy(meta.leader_comm, meta.comm, sizeof(meta.comm));
	v.v[CL_V_ONCPU_NS] = d->oncpu_ns;
	v.v[CL_V_NVCSW] = d->vol;
	v.v[CL_V_NIVCSW] = d->invol;
	v.v[CL_V_RUNQ_MAX_NS] = d->runq_max_ns;
	v.v[CL_V_COUNTER0] = d->counter0;
	v.v[CL_V_PREEMPT_OTHER_CGROUP] = d->preempt_other;
	v.v[CL_V_HIST0 + 3] = d->runq_max_ns ? 1 : 0;
	cl_rows_add(rows, &meta, d->cpu, &v);
}

/* One interval: its deltas into fresh rows, the rows into the store at @now_ns. */
static bool interval(struct cl_series_store *store, bool per_cpu, const struct delta *deltas,
		     size_t count, uint64_t now_ns)
{
	struct cl_rows rows;

	if (!expect_int(cl_rows_init(&rows, CL_BY_PROCESS, per_cpu, 1000), 0))
		return false;
	for (size_t i = 0; i < count; i++)
		add_delta(&rows, &deltas[i], start_of(deltas[i].pid));
	cl_series_add_rows(store, &rows, now_ns);
	cl_rows_free(&rows);
	return true;
}

static const struct cl_series *find(const struct cl_series_store *store, uint32_t pid, int cpu)
{
	const struct cl_series **all, *found = NULL;
	size_t n = cl_series_sorted(store, &all);

	for (size_t i = 0; i < n; i++) {
		if (all[i]->row.pid == pid && all[i]->row.cpu == cpu)
			found = all[i];
	}
	free(all);
	return found;
}

static const struct cl_series *find_start(const struct cl_series_store *store, uint64_t start_ns)
{
	const struct cl_series **all, *found = NULL;
	size_t n = cl_series_sorted(store, &all);

	for (size_t i = 0; i < n; i++) {
		if (all[i]->row.start_ns == start_ns)
			found = all[i];
	}
	free(all);
	return found;
}

struct totals {
	uint32_t pid;
	uint64_t oncpu_ns, vol, invol, counter0, preempt_other, hist3;
};

static bool expect_totals(const struct cl_series_store *store, const struct totals *want)
{
	const struct cl_series *s = find(store, want->pid, -1);
	const struct cl_values *v;

	if (!expect(s != NULL))
		goto fail;
	v = &s->row.v;
	if (!expect_u64(v->v[CL_V_ONCPU_NS], want->oncpu_ns) ||
	    !expect_u64(v->v[CL_V_NVCSW], want->vol) ||
	    !expect_u64(v->v[CL_V_NIVCSW], want->invol) ||
	    !expect_u64(v->v[CL_V_COUNTER0], want->counter0) ||
	    !expect_u64(v->v[CL_V_PREEMPT_OTHER_CGROUP], want->preempt_other) ||
	    !expect_u64(v->v[CL_V_HIST0 + 3], want->hist3) ||
	    /* A per-interval gauge has no total. */
	    !expect_u64(v->v[CL_V_RUNQ_MAX_NS], 0))
		goto fail;
	return true;
fail:
	unit_note("series of pid %u", want->pid);
	return false;
}

/* Three intervals for two processes; the totals after each. */
static const struct delta totals_intervals[3][2] = {
	{ { 10, "a", -1, 5000, 1, 2, 700, 100, 1 }, { 20, "b", -1, 9000, 3, 0, 0, 0, 0 } },
	/* The rows start from zero again; the totals do not. */
	{ { 10, "a", -1, 1000, 0, 1, 300, 50, 0 }, { 20, "b", -1, 1, 0, 0, 0, 0, 0 } },
	/* 20 idle: its total stays where it was. */
	{ { 10, "a", -1, 4000, 2, 0, 900, 0, 2 }, { 20, "b", -1, 0, 0, 0, 0, 0, 0 } },
};

static const struct totals totals_after[3][2] = {
	{ { 10, 5000, 1, 2, 100, 1, 1 }, { 20, 9000, 3, 0, 0, 0, 0 } },
	{ { 10, 6000, 1, 3, 150, 1, 2 }, { 20, 9001, 3, 0, 0, 0, 0 } },
	{ { 10, 10000, 3, 3, 150, 3, 3 }, { 20, 9001, 3, 0, 0, 0, 0 } },
};

/* As serve does: one set of rows, reset after each interval is added. */
static bool test_totals_accumulate(void)
{
	struct cl_series_store store;
	uint64_t last[2] = { 0, 0 };
	struct cl_rows rows;
	bool ok = false;

	if (!expect_int(cl_series_init(&store, 100, 60 * NSEC_PER_SEC), 0))
		return false;
	if (!expect_int(cl_rows_init(&rows, CL_BY_PROCESS, false, 1000), 0))
		goto out_store;
	for (size_t i = 0; i < ARRAY_SIZE(totals_intervals); i++) {
		for (size_t k = 0; k < 2; k++)
			add_delta(&rows, &totals_intervals[i][k],
				  start_of(totals_intervals[i][k].pid));
		cl_series_add_rows(&store, &rows, (i + 1) * NSEC_PER_SEC);
		cl_rows_reset(&rows);
		if (!expect_u64(store.htab.count, 2))
			goto out_rows;
		for (size_t k = 0; k < 2; k++) {
			const struct cl_series *s = find(&store, totals_after[i][k].pid, -1);

			if (!expect_totals(&store, &totals_after[i][k])) {
				unit_note("after interval %zu", i + 1);
				goto out_rows;
			}
			/* Never backwards. */
			if (!expect(s->row.v.v[CL_V_ONCPU_NS] >= last[k]))
				goto out_rows;
			last[k] = s->row.v.v[CL_V_ONCPU_NS];
		}
	}
	ok = expect_u64(store.cut, 0) && expect_u64(store.expired, 0);
out_rows:
	cl_rows_free(&rows);
out_store:
	cl_series_free(&store);
	return ok;
}

/* The gauge alone, over intervals that each have a longest wait. */
static bool test_runq_max_is_not_a_total(void)
{
	static const struct delta waits[] = {
		{ 7, "w", -1, 100, 0, 0, 5000000 },
		{ 7, "w", -1, 100, 0, 0, 9000000 },
		{ 7, "w", -1, 100, 0, 0, 1000 },
	};
	struct cl_series_store store;
	bool ok = false;

	if (!expect_int(cl_series_init(&store, 100, 60 * NSEC_PER_SEC), 0))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(waits); i++) {
		const struct cl_series *s;

		if (!interval(&store, false, &waits[i], 1, (i + 1) * NSEC_PER_SEC))
			goto out_store;
		s = find(&store, 7, -1);
		if (!expect(s != NULL) || !expect_u64(s->row.v.v[CL_V_RUNQ_MAX_NS], 0) ||
		    !expect_u64(s->row.v.v[CL_V_ONCPU_NS], 100 * (i + 1)) ||
		    !expect_u64(s->row.v.v[CL_V_HIST0 + 3], i + 1))
			goto out_store;
	}
	ok = true;
out_store:
	cl_series_free(&store);
	return ok;
}

/* Idle rows (all zero) say nothing new: no series for them, no refresh of one. */
static bool test_idle_rows(void)
{
	static const struct delta idle[] = {
		{ 30, "idle", -1 },
		{ 31, "idle2", -1 },
	};
	static const struct delta busy = { 30, "idle", -1, 10 };
	struct cl_series_store store;
	const struct cl_series *s;
	bool ok = false;

	if (!expect_int(cl_series_init(&store, 100, 10 * NSEC_PER_SEC), 0))
		return false;
	if (!interval(&store, false, idle, ARRAY_SIZE(idle), NSEC_PER_SEC) ||
	    !expect_u64(store.htab.count, 0))
		goto out_store;
	if (!interval(&store, false, &busy, 1, 2 * NSEC_PER_SEC) ||
	    !expect_u64(store.htab.count, 1))
		goto out_store;
	s = find(&store, 30, -1);
	if (!expect(s != NULL) || !expect_u64(s->updated_ns, 2 * NSEC_PER_SEC))
		goto out_store;
	/* Idle again later: the series stays, but its last activity does not move. */
	if (!interval(&store, false, idle, ARRAY_SIZE(idle), 9 * NSEC_PER_SEC) ||
	    !expect_u64(store.htab.count, 1))
		goto out_store;
	s = find(&store, 30, -1);
	if (!expect(s != NULL) || !expect_u64(s->updated_ns, 2 * NSEC_PER_SEC) ||
	    !expect_u64(s->row.v.v[CL_V_ONCPU_NS], 10))
		goto out_store;
	/* So it expires on time although it kept reporting zeros. */
	cl_series_expire(&store, 13 * NSEC_PER_SEC);
	ok = expect_u64(store.htab.count, 0) && expect_u64(store.expired, 1) &&
	     expect_u64(store.cut, 0);
out_store:
	cl_series_free(&store);
	return ok;
}

/* Grace 3 s: a series last active at 1 s is gone at 5 s; one active at 5 s stays. */
static bool test_expire(void)
{
	static const struct delta both[] = { { 40, "gone", -1, 100 }, { 41, "stays", -1, 100 } };
	static const struct delta only_41 = { 41, "stays", -1, 50 };
	static const struct delta back_40 = { 40, "gone", -1, 7 };
	struct cl_series_store store;
	const struct cl_series *s;
	bool ok = false;

	if (!expect_int(cl_series_init(&store, 100, 3 * NSEC_PER_SEC), 0))
		return false;
	if (!interval(&store, false, both, 2, 1 * NSEC_PER_SEC))
		goto out_store;
	/* Exactly the grace period: still there. */
	cl_series_expire(&store, 4 * NSEC_PER_SEC);
	if (!expect_u64(store.htab.count, 2) || !expect_u64(store.expired, 0))
		goto out_store;
	if (!interval(&store, false, &only_41, 1, 5 * NSEC_PER_SEC))
		goto out_store;
	cl_series_expire(&store, 5 * NSEC_PER_SEC);
	if (!expect_u64(store.htab.count, 1) || !expect_u64(store.expired, 1) ||
	    !expect(find(&store, 40, -1) == NULL) || !expect(find(&store, 41, -1) != NULL))
		goto out_store;
	/* Expiring again drops nothing more. */
	cl_series_expire(&store, 6 * NSEC_PER_SEC);
	if (!expect_u64(store.htab.count, 1) || !expect_u64(store.expired, 1))
		goto out_store;
	/* Back after expiry: a new series, counting from its return. */
	if (!interval(&store, false, &back_40, 1, 7 * NSEC_PER_SEC))
		goto out_store;
	s = find(&store, 40, -1);
	if (!expect(s != NULL) || !expect_u64(s->row.v.v[CL_V_ONCPU_NS], 7))
		goto out_store;
	cl_series_expire(&store, 100 * NSEC_PER_SEC);
	ok = expect_u64(store.htab.count, 0) && expect_u64(store.expired, 3);
out_store:
	cl_series_free(&store);
	return ok;
}

/* At max_series new identities are cut and counted; existing ones keep adding. */
static bool test_max_series(void)
{
	static const struct delta first[] = {
		{ 50, "a", -1, 10 }, { 51, "b", -1, 10 }, { 52, "c", -1, 10 },
	};
	static const struct delta second[] = {
		{ 50, "a", -1, 5 }, { 51, "b", -1, 5 }, { 52, "c", -1, 5 },
		{ 53, "idle", -1, 0 },	/* idle: nothing to cut */
	};
	static const struct delta third = { 52, "c", -1, 1 };
	struct cl_series_store store;
	uint64_t total = 0;
	bool ok = false;

	if (!expect_int(cl_series_init(&store, 2, 3 * NSEC_PER_SEC), 0))
		return false;
	if (!interval(&store, false, first, ARRAY_SIZE(first), NSEC_PER_SEC) ||
	    !expect_u64(store.htab.count, 2) || !expect_u64(store.cut, 1))
		goto out_store;
	/* Refused again in the next interval: counted again. */
	if (!interval(&store, false, second, ARRAY_SIZE(second), 2 * NSEC_PER_SEC) ||
	    !expect_u64(store.htab.count, 2) || !expect_u64(store.cut, 2))
		goto out_store;
	for (uint32_t pid = 50; pid <= 52; pid++) {
		const struct cl_series *s = find(&store, pid, -1);

		if (s && !expect_u64(s->row.v.v[CL_V_ONCPU_NS], 15))
			goto out_store;
		total += s ? 1 : 0;
	}
	if (!expect_u64(total, 2))
		goto out_store;
	/* Room again once the others expire: the cut identity starts from its own delta. */
	cl_series_expire(&store, 10 * NSEC_PER_SEC);
	if (!interval(&store, false, &third, 1, 10 * NSEC_PER_SEC) ||
	    !expect(find(&store, 52, -1) != NULL) ||
	    !expect_u64(find(&store, 52, -1)->row.v.v[CL_V_ONCPU_NS], 1))
		goto out_store;
	ok = expect_u64(store.htab.count, 1) && expect_u64(store.cut, 2) &&
	     expect_u64(store.expired, 2);
out_store:
	cl_series_free(&store);
	return ok;
}

/* Identities: a recycled pid (another start time) and another CPU are other series. */
static bool test_identities(void)
{
	static const struct delta per_cpu[] = {
		{ 60, "p", 0, 10 }, { 60, "p", 1, 20 }, { 61, "q", 1, 30 },
	};
	struct cl_series_store store;
	struct cl_rows rows;
	const struct cl_series *s;
	const struct delta d = { 70, "first", -1, 100 };
	const struct delta renamed = { 70, "renamed", -1, 1 };
	bool ok = false;

	if (!expect_int(cl_series_init(&store, 100, 60 * NSEC_PER_SEC), 0))
		return false;
	if (!interval(&store, true, per_cpu, ARRAY_SIZE(per_cpu), NSEC_PER_SEC) ||
	    !expect_u64(store.htab.count, 3) || !expect(find(&store, 60, 0) != NULL) ||
	    !expect_u64(find(&store, 60, 1)->row.v.v[CL_V_ONCPU_NS], 20))
		goto out_store;
	cl_series_free(&store);

	if (!expect_int(cl_series_init(&store, 100, 60 * NSEC_PER_SEC), 0) ||
	    !expect_int(cl_rows_init(&rows, CL_BY_PROCESS, false, 100), 0))
		return false;
	add_delta(&rows, &d, 5000);
	cl_series_add_rows(&store, &rows, NSEC_PER_SEC);
	cl_rows_reset(&rows);
	/* The same pid, born later: another process. */
	add_delta(&rows, &d, 9000);
	cl_series_add_rows(&store, &rows, 2 * NSEC_PER_SEC);
	cl_rows_reset(&rows);
	if (!expect_u64(store.htab.count, 2))
		goto out_rows;
	/* The first one again, renamed: the same series, labelled with the new name. */
	add_delta(&rows, &renamed, 5000);
	cl_series_add_rows(&store, &rows, 3 * NSEC_PER_SEC);
	if (!expect_u64(store.htab.count, 2))
		goto out_rows;
	s = find_start(&store, 5000);
	ok = expect(s != NULL) && expect_str(s->row.comm, "renamed") &&
	     expect_u64(s->row.v.v[CL_V_ONCPU_NS], 101);
out_rows:
	cl_rows_free(&rows);
out_store:
	cl_series_free(&store);
	return ok;
}

/*
 * Container level: the identity is the container, whichever of its cgroups
 * a task is in; outside containers, the cgroup. Labels come along.
 */
#define ID_A "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"

static const struct {
	uint64_t cgroup_id;
	const char *path;
} named_cgroups[] = {
	{ 201, "/system.slice/docker-" ID_A ".scope" },
	{ 202, "/system.slice/docker-" ID_A ".scope/init.scope" },
	{ 203, "/system.slice/sshd.service" },
};

static void add_in_cgroup(struct cl_rows *rows, uint32_t pid, uint64_t cgroup_id,
			  uint64_t oncpu_ns)
{
	struct cl_task_meta meta = {
		.tid = pid,
		.tgid = pid,
		.start_ns = start_of(pid),
		.leader_start_ns = start_of(pid),
		.cgroup_id = cgroup_id,
		.leader_cgroup_id = cgroup_id,
	};
	struct cl_values v = { 0 };

	v.v[CL_V_ONCPU_NS] = oncpu_ns;
	cl_rows_add(rows, &meta, -1, &v);
}

static bool test_container_level(void)
{
	char mount[] = "/tmp/cpuledger-series-XXXXXX";
	struct cl_series_store store;
	const struct cl_series **all = NULL;
	struct cl_cgroups *cgroups = NULL;
	struct cl_rows rows;
	bool ok = false;
	size_t n;

	if (!expect(mkdtemp(mount) != NULL))
		return false;
	cgroups = cl_cgroups_new(mount, 0);
	if (!expect(cgroups != NULL))
		goto out_mount;
	for (size_t i = 0; i < ARRAY_SIZE(named_cgroups); i++)
		cl_cgroups_remember(cgroups, named_cgroups[i].cgroup_id, named_cgroups[i].path);
	if (!expect_int(cl_series_init(&store, 100, 60 * NSEC_PER_SEC), 0))
		goto out_cgroups;
	if (!expect_int(cl_rows_init(&rows, CL_BY_CONTAINER, false, 100), 0))
		goto out_store;
	rows.cgroups = cgroups;
	for (int round = 1; round <= 2; round++) {
		add_in_cgroup(&rows, 1, 201, 100);
		add_in_cgroup(&rows, 2, 202, 10);
		add_in_cgroup(&rows, 3, 203, 1);
		cl_series_add_rows(&store, &rows, (uint64_t)round * NSEC_PER_SEC);
		cl_rows_reset(&rows);
	}
	n = cl_series_sorted(&store, &all);
	/* Sorted by cgroup path: the container's, then sshd's. */
	if (!expect_u64(n, 2) || !expect_str(all[0]->row.container_id, ID_A) ||
	    !expect_str(all[0]->row.container_runtime, "docker") ||
	    !expect_u64(all[0]->row.v.v[CL_V_ONCPU_NS], 220) ||
	    !expect_str(all[1]->row.cgroup, "/system.slice/sshd.service") ||
	    !expect_str(all[1]->row.container_id, "") ||
	    !expect_u64(all[1]->row.v.v[CL_V_ONCPU_NS], 2))
		goto out_sorted;
	ok = true;
out_sorted:
	free(all);
	cl_rows_free(&rows);
out_store:
	cl_series_free(&store);
out_cgroups:
	cl_cgroups_free(cgroups);
out_mount:
	rmdir(mount);
	return ok;
}

/* The same identities in any insertion order come out in one order. */
static bool same_order(const struct delta *deltas, size_t count, const size_t *order,
		       uint32_t *pids, int *cpus)
{
	struct cl_series_store store;
	const struct cl_series **all = NULL, **again = NULL;
	struct delta shuffled[8];
	size_t n, m;
	bool ok = false;

	for (size_t i = 0; i < count; i++)
		shuffled[i] = deltas[order[i]];
	if (!expect_int(cl_series_init(&store, 100, 60 * NSEC_PER_SEC), 0))
		return false;
	if (!interval(&store, true, shuffled, count, NSEC_PER_SEC))
		goto out_store;
	n = cl_series_sorted(&store, &all);
	m = cl_series_sorted(&store, &again);
	if (!expect_u64(n, count) || !expect_u64(m, n))
		goto out_sorted;
	for (size_t i = 0; i < n; i++) {
		pids[i] = all[i]->row.pid;
		cpus[i] = all[i]->row.cpu;
		if (!expect(all[i] == again[i]))
			goto out_sorted;
	}
	ok = true;
out_sorted:
	free(again);
	free(all);
out_store:
	cl_series_free(&store);
	return ok;
}

static bool test_sorted(void)
{
	static const struct delta deltas[] = {
		{ 300, "c", 1, 1 }, { 5, "a", 0, 1 }, { 300, "c", 0, 1 },
		{ 42, "b", 3, 1 }, { 70000, "d", 2, 1 }, { 42, "b", 2, 1 },
	};
	static const size_t orders[][6] = {
		{ 0, 1, 2, 3, 4, 5 },
		{ 5, 4, 3, 2, 1, 0 },
		{ 3, 0, 5, 1, 4, 2 },
	};
	static const uint32_t want_pids[] = { 5, 42, 42, 300, 300, 70000 };
	static const int want_cpus[] = { 0, 2, 3, 0, 1, 2 };
	struct cl_series_store empty;
	const struct cl_series **none;

	for (size_t k = 0; k < ARRAY_SIZE(orders); k++) {
		uint32_t pids[6];
		int cpus[6];

		if (!same_order(deltas, ARRAY_SIZE(deltas), orders[k], pids, cpus))
			return false;
		for (size_t i = 0; i < ARRAY_SIZE(want_pids); i++) {
			if (!expect_u64(pids[i], want_pids[i]) ||
			    !expect_int(cpus[i], want_cpus[i])) {
				unit_note("insertion order %zu, position %zu", k, i);
				return false;
			}
		}
	}
	/* An empty store: nothing, in an array that can be freed. */
	if (!expect_int(cl_series_init(&empty, 10, NSEC_PER_SEC), 0))
		return false;
	if (!expect_u64(cl_series_sorted(&empty, &none), 0) || !expect(none != NULL)) {
		cl_series_free(&empty);
		return false;
	}
	free(none);
	cl_series_free(&empty);
	/* A store that was never initialised (zeroed) frees too. */
	memset(&empty, 0, sizeof(empty));
	cl_series_free(&empty);
	return true;
}

int main(void)
{
	RUN_TEST(test_totals_accumulate);
	RUN_TEST(test_runq_max_is_not_a_total);
	RUN_TEST(test_idle_rows);
	RUN_TEST(test_expire);
	RUN_TEST(test_max_series);
	RUN_TEST(test_identities);
	RUN_TEST(test_container_level);
	RUN_TEST(test_sorted);
	return unit_done();
}
