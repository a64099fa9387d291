// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/htab.h"
#include "core/ledger.h"

struct ledger_task {
	struct cl_hnode node;
	struct cl_task_meta meta;
	struct cl_values last;		/* whole-task totals */
	struct cl_values *cpu_last;	/* per-CPU mode: [nr_cpus], NULL until baselined */
	uint32_t seen_pass;
	bool exited;
};

struct task_key {
	uint32_t tid;
	uint64_t start_ns;
};

struct cl_ledger {
	struct cl_ledger_opts opts;
	struct cl_htab tasks;
	uint32_t pass;		/* 1 is the baseline pass */
	struct cl_ledger_stats stats;
};

void cl_values_delta(const struct cl_values *cur, const struct cl_values *last,
		     struct cl_values *delta)
{
	for (int i = 0; i < CL_V_NR; i++)
		delta->v[i] = cur->v[i] >= last->v[i] ? cur->v[i] - last->v[i] : 0;
	/* A gauge, reset by every read: what it says is this interval's. */
	delta->v[CL_V_RUNQ_MAX_NS] = cur->v[CL_V_RUNQ_MAX_NS];
}

bool cl_values_zero(const struct cl_values *values)
{
	for (int i = 0; i < CL_V_NR; i++) {
		if (values->v[i])
			return false;
	}
	return true;
}

void cl_values_add(struct cl_values *sum, const struct cl_values *add)
{
	for (int i = 0; i < CL_V_NR; i++) {
		if (i == CL_V_RUNQ_MAX_NS)
			sum->v[i] = sum->v[i] > add->v[i] ? sum->v[i] : add->v[i];
		else
			sum->v[i] += add->v[i];
	}
}

static uint64_t task_hash(uint32_t tid, uint64_t start_ns)
{
	return cl_hash_combine(cl_hash_u64(tid), start_ns);
}

static bool task_eq(const struct cl_hnode *node, const void *key)
{
	const struct ledger_task *task = (const struct ledger_task *)node;
	const struct task_key *k = key;

	return task->meta.tid == k->tid && task->meta.start_ns == k->start_ns;
}

static struct ledger_task *find_task(struct cl_ledger *ledger, uint32_t tid, uint64_t start_ns)
{
	struct task_key key = { tid, start_ns };

	return (struct ledger_task *)cl_htab_find(&ledger->tasks, task_hash(tid, start_ns), task_eq,
						  &key);
}

struct cl_ledger *cl_ledger_new(const struct cl_ledger_opts *opts)
{
	struct cl_ledger *ledger = calloc(1, sizeof(*ledger));

	if (!ledger)
		return NULL;
	ledger->opts = *opts;
	if (cl_htab_init(&ledger->tasks, 1024)) {
		free(ledger);
		return NULL;
	}
	return ledger;
}

static void free_task(struct ledger_task *task)
{
	free(task->cpu_last);
	free(task);
}

void cl_ledger_free(struct cl_ledger *ledger)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	if (!ledger)
		return;
	cl_htab_for_each(&ledger->tasks, node, tmp, i)
		free_task((struct ledger_task *)node);
	cl_htab_free(&ledger->tasks);
	free(ledger);
}

void cl_ledger_begin_pass(struct cl_ledger *ledger)
{
	ledger->pass++;
}

static bool baseline_pass(const struct cl_ledger *ledger)
{
	return ledger->pass <= 1;
}

static void set_meta(struct cl_task_meta *meta, const struct cl_task_record *rec)
{
	meta->tid = rec->tid;
	meta->tgid = rec->tgid;
	meta->start_ns = rec->start_ns;
	meta->leader_start_ns = rec->leader_start_ns;
	meta->cgroup_id = rec->cgroup_id;
	meta->leader_cgroup_id = rec->leader_cgroup_id;
	meta->flags = rec->flags;
	memcpy(meta->comm, rec->comm, sizeof(meta->comm));
	meta->comm[CL_COMM_LEN - 1] = '\0';
	memcpy(meta->leader_comm, rec->leader_comm, sizeof(meta->leader_comm));
	meta->leader_comm[CL_COMM_LEN - 1] = '\0';
}

static struct ledger_task *add_task(struct cl_ledger *ledger, const struct cl_task_record *rec)
{
	struct ledger_task *task;

	if (ledger->tasks.count >= ledger->opts.max_tasks) {
		ledger->stats.untracked++;
		return NULL;
	}
	task = calloc(1, sizeof(*task));
	if (!task) {
		ledger->stats.untracked++;
		return NULL;
	}
	set_meta(&task->meta, rec);
	cl_htab_insert(&ledger->tasks, &task->node, task_hash(rec->tid, rec->start_ns));
	return task;
}

void cl_ledger_observe(struct cl_ledger *ledger, const struct cl_task_record *rec)
{
	struct ledger_task *task = find_task(ledger, rec->tid, rec->start_ns);
	bool is_new = !task;
	struct cl_values delta;

	if (!task) {
		task = add_task(ledger, rec);
		if (!task)
			return;
	} else {
		set_meta(&task->meta, rec);	/* comm and cgroup can change */
	}
	task->seen_pass = ledger->pass;
	if (rec->kind == CL_REC_EXIT) {
		task->exited = true;
		ledger->stats.exited++;
	}
	if (ledger->opts.per_cpu)
		return;

	if (is_new) {
		if (baseline_pass(ledger) || rec->start_ns < ledger->opts.start_ns) {
			if (!baseline_pass(ledger))
				ledger->stats.late++;
			task->last = rec->values;
			return;
		}
		memset(&task->last, 0, sizeof(task->last));
	}
	cl_values_delta(&rec->values, &task->last, &delta);
	task->last = rec->values;
	if (!cl_values_zero(&delta) || is_new || rec->kind == CL_REC_TASK)
		ledger->opts.on_delta(ledger->opts.delta_ctx, &task->meta, -1, &delta);
}

void cl_ledger_observe_percpu(struct cl_ledger *ledger, uint32_t tid, uint64_t start_ns,
			      const struct cl_values *per_cpu)
{
	struct ledger_task *task = find_task(ledger, tid, start_ns);
	unsigned int nr_cpus = ledger->opts.nr_cpus, cpu;
	bool first = false;

	/* Without an identity yet (born since the iterator ran): next pass. */
	if (!task)
		return;
	if (!task->cpu_last) {
		task->cpu_last = calloc(nr_cpus, sizeof(*task->cpu_last));
		if (!task->cpu_last)
			return;
		first = true;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct cl_values delta;

		cl_values_delta(&per_cpu[cpu], &task->cpu_last[cpu], &delta);
		task->cpu_last[cpu] = per_cpu[cpu];
		/* Per-CPU totals start at cpuledger's load: all of it is ours. */
		if (first && baseline_pass(ledger))
			continue;
		if (!cl_values_zero(&delta))
			ledger->opts.on_delta(ledger->opts.delta_ctx, &task->meta, (int)cpu,
					      &delta);
	}
}

void cl_ledger_end_pass(struct cl_ledger *ledger)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&ledger->tasks, node, tmp, i) {
		struct ledger_task *task = (struct ledger_task *)node;
		bool stale = ledger->pass - task->seen_pass >= 2;

		if (!task->exited && !stale)
			continue;
		if (stale && !task->exited)
			ledger->stats.vanished++;
		if (ledger->opts.per_cpu && ledger->opts.on_forget)
			ledger->opts.on_forget(ledger->opts.forget_ctx, task->meta.tid,
					       task->meta.start_ns);
		cl_htab_remove(&ledger->tasks, node);
		free_task(task);
	}
}

bool cl_ledger_has_process(const struct cl_ledger *ledger, uint32_t tgid)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&ledger->tasks, node, tmp, i) {
		if (((struct ledger_task *)node)->meta.tgid == tgid)
			return true;
	}
	return false;
}

void cl_ledger_get_stats(const struct cl_ledger *ledger, struct cl_ledger_stats *stats)
{
	*stats = ledger->stats;
	stats->tasks = ledger->tasks.count;
}
