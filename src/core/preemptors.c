// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdlib.h>
#include <string.h>

#include "core/htab.h"
#include "core/preemptors.h"

struct pair {
	struct cl_hnode node;
	struct cl_preempt_key key;
	uint64_t last;		/* cumulative count at the last observation */
	uint64_t delta;		/* this interval */
};

struct cl_preemptors {
	struct cl_htab pairs;
	struct cl_victim *victims;
	size_t nr_victims;
};

static uint64_t pair_hash(const struct cl_preempt_key *key)
{
	return cl_hash_combine(cl_hash_u64(key->victim_cgroup_id), key->preemptor_cgroup_id);
}

static bool pair_eq(const struct cl_hnode *node, const void *key)
{
	return !memcmp(&((const struct pair *)node)->key, key, sizeof(struct cl_preempt_key));
}

struct cl_preemptors *cl_preemptors_new(void)
{
	struct cl_preemptors *p = calloc(1, sizeof(*p));

	if (p && cl_htab_init(&p->pairs, 64)) {
		free(p);
		return NULL;
	}
	return p;
}

void cl_preemptors_free(struct cl_preemptors *p)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	if (!p)
		return;
	cl_htab_for_each(&p->pairs, node, tmp, i)
		free(node);
	cl_htab_free(&p->pairs);
	free(p->victims);
	free(p);
}

void cl_preemptors_begin(struct cl_preemptors *p)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	cl_htab_for_each(&p->pairs, node, tmp, i)
		((struct pair *)node)->delta = 0;
}

void cl_preemptors_observe(void *ctx, const struct cl_preempt_key *key, uint64_t count)
{
	struct cl_preemptors *p = ctx;
	uint64_t hash = pair_hash(key);
	struct pair *pair = (struct pair *)cl_htab_find(&p->pairs, hash, pair_eq, key);

	if (!pair) {
		/* First seen: everything it counted happened while we watched. */
		pair = calloc(1, sizeof(*pair));
		if (!pair)
			return;
		pair->key = *key;
		cl_htab_insert(&p->pairs, &pair->node, hash);
	}
	pair->delta = count >= pair->last ? count - pair->last : 0;
	pair->last = count;
}

static int by_total(const void *a, const void *b)
{
	const struct cl_victim *va = a, *vb = b;

	if (va->total != vb->total)
		return va->total > vb->total ? -1 : 1;
	return (va->cgroup_id > vb->cgroup_id) - (va->cgroup_id < vb->cgroup_id);
}

static struct cl_victim *victim_of(struct cl_preemptors *p, uint64_t id)
{
	for (size_t i = 0; i < p->nr_victims; i++) {
		if (p->victims[i].cgroup_id == id)
			return &p->victims[i];
	}
	return NULL;
}

size_t cl_preemptors_rank(struct cl_preemptors *p, const struct cl_victim **victims)
{
	struct cl_hnode *node, *tmp;
	size_t i;

	free(p->victims);
	p->victims = calloc(p->pairs.count ? p->pairs.count : 1, sizeof(*p->victims));
	p->nr_victims = 0;
	if (!p->victims)
		return 0;
	cl_htab_for_each(&p->pairs, node, tmp, i) {
		struct pair *pair = (struct pair *)node;
		struct cl_victim *v;
		size_t slot;

		if (!pair->delta)
			continue;
		v = victim_of(p, pair->key.victim_cgroup_id);
		if (!v) {
			v = &p->victims[p->nr_victims++];
			v->cgroup_id = pair->key.victim_cgroup_id;
		}
		v->total += pair->delta;
		/* Keep the top preemptors, largest first. */
		for (slot = 0; slot < v->nr_top && v->top[slot].count >= pair->delta; slot++)
			;
		if (slot >= CL_TOP_PREEMPTORS)
			continue;
		memmove(&v->top[slot + 1], &v->top[slot],
			(CL_TOP_PREEMPTORS - slot - 1) * sizeof(v->top[0]));
		v->top[slot].cgroup_id = pair->key.preemptor_cgroup_id;
		v->top[slot].count = pair->delta;
		if (v->nr_top < CL_TOP_PREEMPTORS)
			v->nr_top++;
	}
	qsort(p->victims, p->nr_victims, sizeof(*p->victims), by_total);
	*victims = p->victims;
	return p->nr_victims;
}
