// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ledger.h"
#include "core/series.h"

struct series_key {
	uint32_t id;
	int32_t cpu;
	uint64_t start_ns;
};

static bool series_eq(const struct cl_hnode *node, const void *key)
{
	const struct cl_series *s = (const struct cl_series *)node;
	const struct series_key *k = key;

	return s->row.tid == k->id && s->row.start_ns == k->start_ns && s->row.cpu == k->cpu;
}

static uint64_t series_hash(const struct series_key *k)
{
	return cl_hash_combine(cl_hash_combine(cl_hash_u64(k->id), k->start_ns),
			       (uint64_t)(int64_t)k->cpu);
}

int cl_series_init(struct cl_series_store *store, size_t max_series, uint64_t grace_ns)
{
	memset(store, 0, sizeof(*store));
	store->max_series = max_series;
	store->grace_ns = grace_ns;
	return cl_htab_init(&store->htab, 256);
}

void cl_series_free(struct cl_series_store *store)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	if (!store->htab.buckets)
		return;
	cl_htab_for_each(&store->htab, node, tmp, i)
		free(node);
	cl_htab_free(&store->htab);
}

void cl_series_add_rows(struct cl_series_store *store, const struct cl_rows *rows,
			uint64_t now_ns)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&rows->htab, node, tmp, i) {
		const struct cl_row *row = (const struct cl_row *)node;
		struct series_key key = {
			.id = row->tid, .cpu = row->cpu, .start_ns = row->start_ns
		};
		uint64_t hash = series_hash(&key);
		struct cl_series *s;
		bool idle = cl_values_zero(&row->v);

		s = (struct cl_series *)cl_htab_find(&store->htab, hash, series_eq, &key);
		if (!s) {
			if (idle)
				continue; /* nothing to say yet */
			if (store->htab.count >= store->max_series) {
				store->cut++;
				continue;
			}
			s = calloc(1, sizeof(*s));
			if (!s) {
				store->cut++;
				continue;
			}
			s->row = *row;
			memset(&s->row.v, 0, sizeof(s->row.v));
			cl_htab_insert(&store->htab, &s->node, hash);
		}
		/* Labels follow the latest names; totals only grow. */
		memcpy(s->row.comm, row->comm, sizeof(s->row.comm));
		memcpy(s->row.cgroup, row->cgroup, sizeof(s->row.cgroup));
		s->row.cgroup_id = row->cgroup_id;
		cl_values_add(&s->row.v, &row->v);
		s->row.v.v[CL_V_RUNQ_MAX_NS] = 0; /* a per-interval gauge: no total */
		if (!idle)
			s->updated_ns = now_ns;
	}
}

void cl_series_expire(struct cl_series_store *store, uint64_t now_ns)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&store->htab, node, tmp, i) {
		struct cl_series *s = (struct cl_series *)node;

		if (now_ns < s->updated_ns || now_ns - s->updated_ns <= store->grace_ns)
			continue;
		cl_htab_remove(&store->htab, node);
		free(s);
		store->expired++;
	}
}

static int by_identity(const void *a, const void *b)
{
	const struct cl_row *ra = &(*(const struct cl_series *const *)a)->row;
	const struct cl_row *rb = &(*(const struct cl_series *const *)b)->row;
	int order = strcmp(ra->cgroup, rb->cgroup);

	if (order)
		return order;
	if (ra->tid != rb->tid)
		return ra->tid < rb->tid ? -1 : 1;
	if (ra->start_ns != rb->start_ns)
		return ra->start_ns < rb->start_ns ? -1 : 1;
	return (ra->cpu > rb->cpu) - (ra->cpu < rb->cpu);
}

size_t cl_series_sorted(const struct cl_series_store *store, const struct cl_series ***out)
{
	const struct cl_series **all;
	struct cl_hnode *node, *tmp;
	size_t i, n = 0;

	all = calloc(store->htab.count ? store->htab.count : 1, sizeof(*all));
	if (!all) {
		*out = NULL;
		return 0;
	}
	cl_htab_for_each(&store->htab, node, tmp, i)
		all[n++] = (const struct cl_series *)node;
	qsort(all, n, sizeof(*all), by_identity);
	*out = all;
	return n;
}
