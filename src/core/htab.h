/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_HTAB_H
#define CPULEDGER_HTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A small intrusive chained hash table: callers embed struct cl_hnode in
 * their entries, hash their own keys and compare them in the callback.
 * Grows by doubling; never shrinks (bounded by the callers' entry limits).
 */
struct cl_hnode {
	struct cl_hnode *next;
	uint64_t hash;
};

struct cl_htab {
	struct cl_hnode **buckets;
	size_t nr_buckets;	/* power of two */
	size_t count;
};

typedef bool (*cl_htab_eq_fn)(const struct cl_hnode *node, const void *key);

int cl_htab_init(struct cl_htab *h, size_t nr_buckets);
/* Frees the bucket array only; entries belong to the caller. */
void cl_htab_free(struct cl_htab *h);

struct cl_hnode *cl_htab_find(const struct cl_htab *h, uint64_t hash, cl_htab_eq_fn eq,
			      const void *key);
/* Inserts @node with @hash; growing may fail, the insert itself cannot. */
void cl_htab_insert(struct cl_htab *h, struct cl_hnode *node, uint64_t hash);
void cl_htab_remove(struct cl_htab *h, struct cl_hnode *node);

/* Safe against removing @node inside the loop. */
#define cl_htab_for_each(h, node, tmp, i)                                                \
	for ((i) = 0; (i) < (h)->nr_buckets; (i)++)                                      \
		for ((node) = (h)->buckets[i], (tmp) = (node) ? (node)->next : NULL; (node); \
		     (node) = (tmp), (tmp) = (node) ? (node)->next : NULL)

uint64_t cl_hash_u64(uint64_t x);
uint64_t cl_hash_bytes(const void *data, size_t len);
uint64_t cl_hash_combine(uint64_t seed, uint64_t value);

#endif
