// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/ledger.c: cumulative per-task totals in, per-interval deltas out,
 * fed with synthetic records the way the collector feeds it from the task
 * iterator, the exit ring buffer and (per-CPU mode) the per-CPU task map.
 */
#include <stdlib.h>

#include "core/ledger.h"
#include "unit.h"

/* Collection began at 1000ns; tasks born before it are "old". */
#define START_NS	1000
#define OLD_NS		500
#define NEW_NS		2000

struct seen_delta {
	struct cl_task_meta meta;
	int cpu;
	struct cl_values delta;
};

struct seen_forget {
	uint32_t tid;
	uint64_t start_ns;
};

struct seen {
	struct seen_delta deltas[64];
	size_t nr_deltas;
	struct seen_forget forgets[16];
	size_t nr_forgets;
	bool overflow;		/* more than the arrays hold */
	uint64_t total_oncpu;	/* over all deltas, kept or not */
};

static void on_delta(void *ctx, const struct cl_task_meta *meta, int cpu,
		     const struct cl_values *delta)
{
	struct seen *seen = ctx;

	seen->total_oncpu += delta->v[CL_V_ONCPU_NS];
	if (seen->nr_deltas == ARRAY_SIZE(seen->deltas)) {
		seen->overflow = true;
		return;
	}
	seen->deltas[seen->nr_deltas].meta = *meta;
	seen->deltas[seen->nr_deltas].cpu = cpu;
	seen->deltas[seen->nr_deltas].delta = *delta;
	seen->nr_deltas++;
}

static void on_forget(void *ctx, uint32_t tid, uint64_t start_ns)
{
	struct seen *seen = ctx;

	if (seen->nr_forgets == ARRAY_SIZE(seen->forgets)) {
		seen->overflow = true;
		return;
	}
	seen->forgets[seen->nr_forgets].tid = tid;
	seen->forgets[seen->nr_forgets].start_ns = start_ns;
	seen->nr_forgets++;
}

static void seen_reset(struct seen *seen)
{
	memset(seen, 0, sizeof(*seen));
}

/* The deltas reported for one task (and CPU) since the last reset, summed. */
static size_t seen_sum(const struct seen *seen, uint32_t tid, uint64_t start_ns, int cpu,
		       struct cl_values *sum)
{
	size_t n = 0;

	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < seen->nr_deltas; i++) {
		const struct seen_delta *d = &seen->deltas[i];

		if (d->meta.tid != tid || d->meta.start_ns != start_ns || d->cpu != cpu)
			continue;
		cl_values_add(sum, &d->delta);
		n++;
	}
	return n;
}

/* Exactly one delta for the task, of @oncpu ns and @faults minor faults. */
static bool expect_delta(const struct seen *seen, uint32_t tid, uint64_t start_ns, int cpu,
			 uint64_t oncpu, uint64_t faults)
{
	struct cl_values sum;
	size_t n = seen_sum(seen, tid, start_ns, cpu, &sum);

	if (expect_u64(n, 1) && expect_u64(sum.v[CL_V_ONCPU_NS], oncpu) &&
	    expect_u64(sum.v[CL_V_MIN_FLT], faults))
		return true;
	unit_note("task %u (start %llu) cpu %d", tid, (unsigned long long)start_ns, cpu);
	return false;
}

/* Nothing charged to the task: not reported, or reported as all zero. */
static bool expect_no_delta(const struct seen *seen, uint32_t tid, uint64_t start_ns, int cpu)
{
	struct cl_values sum;

	seen_sum(seen, tid, start_ns, cpu, &sum);
	if (expect(cl_values_zero(&sum)))
		return true;
	unit_note("task %u (start %llu) cpu %d", tid, (unsigned long long)start_ns, cpu);
	return false;
}

static struct cl_task_record record(enum cl_record_kind kind, uint32_t tid, uint64_t start_ns,
				    uint64_t oncpu, uint64_t faults)
{
	struct cl_task_record rec = {
		.kind = kind,
		.tid = tid,
		.tgid = tid,
		.start_ns = start_ns,
		.leader_start_ns = start_ns,
		.cgroup_id = 77,
		.cpu = -1,
	};

	snprintf(rec.comm, sizeof(rec.comm), "task-%u", tid);
	snprintf(rec.leader_comm, sizeof(rec.leader_comm), "task-%u", tid);
	rec.values.v[CL_V_ONCPU_NS] = oncpu;
	rec.values.v[CL_V_MIN_FLT] = faults;
	rec.values.v[CL_V_COUNTER0] = oncpu * 3;
	return rec;
}

static void observe(struct cl_ledger *ledger, enum cl_record_kind kind, uint32_t tid,
		    uint64_t start_ns, uint64_t oncpu, uint64_t faults)
{
	struct cl_task_record rec = record(kind, tid, start_ns, oncpu, faults);

	cl_ledger_observe(ledger, &rec);
}

static struct cl_ledger *new_ledger(struct seen *seen, size_t max_tasks, bool per_cpu)
{
	struct cl_ledger_opts opts = {
		.max_tasks = max_tasks,
		.nr_cpus = per_cpu ? 2 : 0,
		.per_cpu = per_cpu,
		.start_ns = START_NS,
		.on_delta = on_delta,
		.delta_ctx = seen,
		.on_forget = on_forget,
		.forget_ctx = seen,
	};

	seen_reset(seen);
	return cl_ledger_new(&opts);
}

static bool expect_stats(struct cl_ledger *ledger, uint64_t tasks, uint64_t untracked,
			 uint64_t late, uint64_t exited, uint64_t vanished)
{
	struct cl_ledger_stats stats;

	cl_ledger_get_stats(ledger, &stats);
	return expect_u64(stats.tasks, tasks) && expect_u64(stats.untracked, untracked) &&
	       expect_u64(stats.late, late) && expect_u64(stats.exited, exited) &&
	       expect_u64(stats.vanished, vanished);
}

static bool test_baseline_then_deltas(void)
{
	struct cl_task_record rec;
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 100, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 7000, 2);
	/* Born after collection began, but this is the baseline pass all the same. */
	observe(ledger, CL_REC_TASK, 12, NEW_NS, 100, 1);
	cl_ledger_end_pass(ledger);
	if (!expect_u64(seen.nr_deltas, 0) || !expect_stats(ledger, 3, 0, 0, 0, 0))
		goto out_ledger;

	cl_ledger_begin_pass(ledger);
	rec = record(CL_REC_TASK, 10, OLD_NS, 5600, 43);
	/* comm and cgroup can change */
	snprintf(rec.comm, sizeof(rec.comm), "renamed");
	rec.cgroup_id = 88;
	rec.values.v[CL_V_NVCSW] = 4;
	cl_ledger_observe(ledger, &rec);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 7000, 2);
	observe(ledger, CL_REC_TASK, 12, NEW_NS, 150, 1);
	cl_ledger_end_pass(ledger);
	if (!expect_delta(&seen, 10, OLD_NS, -1, 600, 3) ||
	    !expect_no_delta(&seen, 11, OLD_NS, -1) ||
	    !expect_delta(&seen, 12, NEW_NS, -1, 50, 0) || !expect_stats(ledger, 3, 0, 0, 0, 0))
		goto out_ledger;
	for (size_t i = 0; i < seen.nr_deltas; i++) {
		const struct seen_delta *d = &seen.deltas[i];

		if (d->meta.tid != 10)
			continue;
		if (!expect_str(d->meta.comm, "renamed") || !expect_u64(d->meta.cgroup_id, 88) ||
		    !expect_u64(d->meta.tgid, 10) || !expect_u64(d->delta.v[CL_V_NVCSW], 4) ||
		    !expect_u64(d->delta.v[CL_V_COUNTER0], 1800))
			goto out_ledger;
	}
	ok = true;
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

/* Born since collection began: everything it did, we watched. */
static bool test_new_task_counted_from_zero(void)
{
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 100, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	cl_ledger_end_pass(ledger);

	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 20, NEW_NS, 300, 9);
	observe(ledger, CL_REC_TASK, 21, START_NS, 200, 0);	/* born the very ns we began */
	cl_ledger_end_pass(ledger);
	if (!expect_delta(&seen, 20, NEW_NS, -1, 300, 9) ||
	    !expect_delta(&seen, 21, START_NS, -1, 200, 0) || !expect_stats(ledger, 3, 0, 0, 0, 0))
		goto out_ledger;

	seen_reset(&seen);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 20, NEW_NS, 500, 10);
	cl_ledger_end_pass(ledger);
	ok = expect_delta(&seen, 20, NEW_NS, -1, 200, 1);
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

/* Born before collection but first seen later (missed by the baseline pass). */
static bool test_late_task_counted_from_sighting(void)
{
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 100, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	cl_ledger_end_pass(ledger);

	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 30, OLD_NS, 90000, 900);
	cl_ledger_end_pass(ledger);
	if (!expect_u64(seen_sum(&seen, 30, OLD_NS, -1, &(struct cl_values){ 0 }), 0) ||
	    !expect_stats(ledger, 2, 0, 1, 0, 0))
		goto out_ledger;

	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 30, OLD_NS, 90100, 905);
	cl_ledger_end_pass(ledger);
	ok = expect_delta(&seen, 30, OLD_NS, -1, 100, 5) && expect_stats(ledger, 2, 0, 1, 0, 0);
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

static bool test_exit_record(void)
{
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 100, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 1000, 1);
	cl_ledger_end_pass(ledger);

	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_EXIT, 10, OLD_NS, 5250, 44);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 1000, 1);
	/* Born and gone between two passes: all of it, from the exit record alone. */
	observe(ledger, CL_REC_EXIT, 40, NEW_NS, 123, 4);
	/* Old, never seen alive: nothing to compare with. */
	observe(ledger, CL_REC_EXIT, 41, OLD_NS, 99999, 99);
	if (!expect_delta(&seen, 10, OLD_NS, -1, 250, 4) ||
	    !expect_delta(&seen, 40, NEW_NS, -1, 123, 4) || !expect_no_delta(&seen, 41, OLD_NS, -1))
		goto out_ledger;
	cl_ledger_end_pass(ledger);
	/* Exited tasks are forgotten at the end of the pass that saw them go. */
	if (!expect_stats(ledger, 1, 0, 1, 3, 0))
		goto out_ledger;

	seen_reset(&seen);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 1010, 1);
	cl_ledger_end_pass(ledger);
	ok = expect_delta(&seen, 11, OLD_NS, -1, 10, 0) && expect_u64(seen.nr_deltas, 1) &&
	     expect_stats(ledger, 1, 0, 1, 3, 0);
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

/*
 * The iterator can walk a task that is exiting: its record (read before the
 * final switch) and the exit record land in the same pass, in either order.
 * The task is charged once, up to its final totals.
 */
static bool test_exit_and_iterator_same_pass(void)
{
	bool ok = true;

	for (int exit_first = 0; exit_first <= 1; exit_first++) {
		struct cl_ledger *ledger;
		struct cl_values sum;
		struct seen seen;

		ledger = new_ledger(&seen, 100, false);
		if (!expect(ledger != NULL))
			return false;
		cl_ledger_begin_pass(ledger);
		observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
		cl_ledger_end_pass(ledger);

		cl_ledger_begin_pass(ledger);
		if (exit_first)
			observe(ledger, CL_REC_EXIT, 10, OLD_NS, 5900, 50);
		observe(ledger, CL_REC_TASK, 10, OLD_NS, 5600, 45);
		if (!exit_first)
			observe(ledger, CL_REC_EXIT, 10, OLD_NS, 5900, 50);
		cl_ledger_end_pass(ledger);
		seen_sum(&seen, 10, OLD_NS, -1, &sum);
		if (!expect_u64(sum.v[CL_V_ONCPU_NS], 900) ||
		    !expect_u64(sum.v[CL_V_MIN_FLT], 10) || !expect_stats(ledger, 0, 0, 0, 1, 0)) {
			unit_note("exit record %s the iterator's", exit_first ? "before" : "after");
			ok = false;
		}
		cl_ledger_free(ledger);
	}
	return ok;
}

static bool test_vanished_task(void)
{
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 100, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 1000, 1);
	cl_ledger_end_pass(ledger);

	/* Unseen once (its exit record may have been lost): still remembered. */
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	cl_ledger_end_pass(ledger);
	if (!expect_stats(ledger, 2, 0, 0, 0, 0))
		goto out_ledger;

	/* Unseen for two passes: forgotten. */
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	cl_ledger_end_pass(ledger);
	if (!expect_stats(ledger, 1, 0, 0, 0, 1))
		goto out_ledger;

	/* Seen again after a one-pass gap: its deltas pick up where they left off. */
	cl_ledger_begin_pass(ledger);
	cl_ledger_end_pass(ledger);
	seen_reset(&seen);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5070, 41);
	cl_ledger_end_pass(ledger);
	ok = expect_delta(&seen, 10, OLD_NS, -1, 70, 1) && expect_stats(ledger, 1, 0, 0, 0, 1);
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

/* A recycled tid with another start time is another task. */
static bool test_tid_reuse(void)
{
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 100, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	cl_ledger_end_pass(ledger);

	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, NEW_NS, 300, 3);
	cl_ledger_end_pass(ledger);
	/* Not 300 - 5000 (0) nor a delta of the old task: the new one's whole life. */
	if (!expect_delta(&seen, 10, NEW_NS, -1, 300, 3) ||
	    !expect_no_delta(&seen, 10, OLD_NS, -1) || !expect_stats(ledger, 2, 0, 0, 0, 0))
		goto out_ledger;

	seen_reset(&seen);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, NEW_NS, 400, 3);
	cl_ledger_end_pass(ledger);
	ok = expect_delta(&seen, 10, NEW_NS, -1, 100, 0) && expect_stats(ledger, 1, 0, 0, 0, 1);
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

static bool test_values_backwards(void)
{
	struct cl_values cur = { 0 }, last = { 0 }, delta;
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	cur.v[CL_V_ONCPU_NS] = 10;
	last.v[CL_V_ONCPU_NS] = 20;
	cur.v[CL_V_NVCSW] = 7;
	last.v[CL_V_NVCSW] = 5;
	cur.v[CL_V_NR - 1] = 0;
	last.v[CL_V_NR - 1] = UINT64_MAX;
	cl_values_delta(&cur, &last, &delta);
	if (!expect_u64(delta.v[CL_V_ONCPU_NS], 0) || !expect_u64(delta.v[CL_V_NVCSW], 2) ||
	    !expect_u64(delta.v[CL_V_NR - 1], 0))
		return false;

	ledger = new_ledger(&seen, 100, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	cl_ledger_end_pass(ledger);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 4000, 42);
	cl_ledger_end_pass(ledger);
	if (!expect_delta(&seen, 10, OLD_NS, -1, 0, 2))
		goto out_ledger;
	/* The lower reading is the new baseline. */
	seen_reset(&seen);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 4100, 42);
	cl_ledger_end_pass(ledger);
	ok = expect_delta(&seen, 10, OLD_NS, -1, 100, 0);
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

static bool test_max_tasks(void)
{
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 2, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 1000, 1);
	observe(ledger, CL_REC_TASK, 12, OLD_NS, 3000, 3);
	cl_ledger_end_pass(ledger);
	if (!expect_stats(ledger, 2, 1, 0, 0, 0))
		goto out_ledger;

	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5100, 40);
	observe(ledger, CL_REC_EXIT, 11, OLD_NS, 1200, 1);
	observe(ledger, CL_REC_TASK, 12, OLD_NS, 3300, 3);
	cl_ledger_end_pass(ledger);
	if (!expect_delta(&seen, 10, OLD_NS, -1, 100, 0) ||
	    !expect_delta(&seen, 11, OLD_NS, -1, 200, 0) ||
	    !expect_no_delta(&seen, 12, OLD_NS, -1) || !expect_stats(ledger, 1, 2, 0, 1, 0))
		goto out_ledger;

	/* The exit made room. */
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 12, OLD_NS, 3500, 3);
	cl_ledger_end_pass(ledger);
	ok = expect_stats(ledger, 2, 2, 1, 1, 0);
out_ledger:
	cl_ledger_free(ledger);
	return ok;
}

static void observe_percpu(struct cl_ledger *ledger, uint32_t tid, uint64_t start_ns,
			   uint64_t oncpu0, uint64_t oncpu1)
{
	struct cl_values per_cpu[2] = { 0 };

	per_cpu[0].v[CL_V_ONCPU_NS] = oncpu0;
	per_cpu[1].v[CL_V_ONCPU_NS] = oncpu1;
	per_cpu[0].v[CL_V_MIN_FLT] = oncpu0 / 100;
	per_cpu[1].v[CL_V_MIN_FLT] = oncpu1 / 100;
	cl_ledger_observe_percpu(ledger, tid, start_ns, per_cpu);
}

static bool test_per_cpu(void)
{
	struct cl_ledger *ledger;
	struct seen seen;
	bool ok = false;

	ledger = new_ledger(&seen, 100, true);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 5000, 40);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 1000, 1);
	observe_percpu(ledger, 10, OLD_NS, 1000, 500);
	observe_percpu(ledger, 11, OLD_NS, 0, 300);
	observe_percpu(ledger, 99, OLD_NS, 100, 100);	/* no identity yet: ignored */
	cl_ledger_end_pass(ledger);
	if (!expect_u64(seen.nr_deltas, 0) || !expect_stats(ledger, 2, 0, 0, 0, 0))
		goto out_ledger;

	cl_ledger_begin_pass(ledger);
	/* The records give identity only: their values are not charged. */
	observe(ledger, CL_REC_TASK, 10, OLD_NS, 9000, 90);
	observe(ledger, CL_REC_TASK, 11, OLD_NS, 2000, 2);
	observe(ledger, CL_REC_TASK, 20, NEW_NS, 700, 7);
	if (!expect_u64(seen.nr_deltas, 0))
		goto out_ledger;
	observe_percpu(ledger, 10, OLD_NS, 1400, 500);
	observe_percpu(ledger, 11, OLD_NS, 200, 600);
	/* Per-CPU totals start at load: a task new to the ledger is charged all of them. */
	observe_percpu(ledger, 20, NEW_NS, 0, 700);
	cl_ledger_end_pass(ledger);
	if (!expect_delta(&seen, 10, OLD_NS, 0, 400, 4) || !expect_no_delta(&seen, 10, OLD_NS, 1) ||
	    !expect_delta(&seen, 11, OLD_NS, 0, 200, 2) ||
	    !expect_delta(&seen, 11, OLD_NS, 1, 300, 3) || !expect_no_delta(&seen, 20, NEW_NS, 0) ||
	    !expect_delta(&seen, 20, NEW_NS, 1, 700, 7) ||
	    !expect_no_delta(&seen, 10, OLD_NS, -1) || !expect_u64(seen.nr_forgets, 0))
		goto out_ledger;

	/* 10 exits, 11 is gone without a word, 20 carries on. */
	seen_reset(&seen);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_EXIT, 10, OLD_NS, 9900, 99);
	observe_percpu(ledger, 10, OLD_NS, 1450, 510);
	observe(ledger, CL_REC_TASK, 20, NEW_NS, 800, 8);
	observe_percpu(ledger, 20, NEW_NS, 0, 700);
	cl_ledger_end_pass(ledger);
	if (!expect_delta(&seen, 10, OLD_NS, 0, 50, 0) ||
	    !expect_delta(&seen, 10, OLD_NS, 1, 10, 0) || !expect_no_delta(&seen, 20, NEW_NS, 1) ||
	    !expect_u64(seen.nr_forgets, 1) || !expect_u64(seen.forgets[0].tid, 10) ||
	    !expect_u64(seen.forgets[0].start_ns, OLD_NS) || !expect_stats(ledger, 2, 0, 0, 1, 0))
		goto out_ledger;

	seen_reset(&seen);
	cl_ledger_begin_pass(ledger);
	observe(ledger, CL_REC_TASK, 20, NEW_NS, 800, 8);
	observe_percpu(ledger, 20, NEW_NS, 0, 700);
	cl_ledger_end_pass(ledger);
	ok = expect_u64(seen.nr_forgets, 1) && expect_u64(seen.forgets[0].tid, 11) &&
	     expect_u64(seen.forgets[0].start_ns, OLD_NS) && expect_stats(ledger, 1, 0, 0, 1, 1);
out_ledger:
	cl_ledger_free(ledger);
	return ok && expect(!seen.overflow);
}

/* Many tasks: the table grows, every one is still found, and all are freed. */
static bool test_many_tasks(void)
{
	const uint32_t nr = 5000;
	struct cl_ledger *ledger;
	struct seen seen;
	uint32_t tid;
	bool ok = false;

	ledger = new_ledger(&seen, nr, false);
	if (!expect(ledger != NULL))
		return false;
	cl_ledger_begin_pass(ledger);
	for (tid = 1; tid <= nr; tid++)
		observe(ledger, CL_REC_TASK, tid, OLD_NS + tid, tid, 0);
	cl_ledger_end_pass(ledger);
	cl_ledger_begin_pass(ledger);
	for (tid = 1; tid <= nr; tid++)
		observe(ledger, tid % 2 ? CL_REC_EXIT : CL_REC_TASK, tid, OLD_NS + tid,
			tid == nr ? tid + 5 : tid, 0);
	cl_ledger_end_pass(ledger);
	/* Only the last task moved. */
	ok = expect_u64(seen.total_oncpu, 5) && expect_stats(ledger, nr / 2, 0, 0, nr / 2, 0);
	cl_ledger_free(ledger);
	cl_ledger_free(NULL);
	return ok;
}

int main(void)
{
	RUN_TEST(test_baseline_then_deltas);
	RUN_TEST(test_new_task_counted_from_zero);
	RUN_TEST(test_late_task_counted_from_sighting);
	RUN_TEST(test_exit_record);
	RUN_TEST(test_exit_and_iterator_same_pass);
	RUN_TEST(test_vanished_task);
	RUN_TEST(test_tid_reuse);
	RUN_TEST(test_values_backwards);
	RUN_TEST(test_max_tasks);
	RUN_TEST(test_per_cpu);
	RUN_TEST(test_many_tasks);
	return unit_done();
}
