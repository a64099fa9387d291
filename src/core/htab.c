// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>

#include "core/htab.h"

uint64_t cl_hash_u64(uint64_t x)
{
	/* splitmix64 finaliser */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

uint64_t cl_hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t cl_hash_combine(uint64_t seed, uint64_t value)
{
	return cl_hash_u64(seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

int cl_htab_init(struct cl_htab *h, size_t nr_buckets)
{
	size_t n = 16;

	while (n < nr_buckets)
		n <<= 1;
	h->buckets = calloc(n, sizeof(*h->buckets));
	if (!h->buckets)
		return -ENOMEM;
	h->nr_buckets = n;
	h->count = 0;
	return 0;
}

void cl_htab_free(struct cl_htab *h)
{
	free(h->buckets);
	h->buckets = NULL;
	h->nr_buckets = 0;
	h->count = 0;
}

struct cl_hnode *cl_htab_find(const struct cl_htab *h, uint64_t hash, cl_htab_eq_fn eq,
			      const void *key)
{
	struct cl_hnode *node;

	for (node = h->buckets[hash & (h->nr_buckets - 1)]; node; node = node->next) {
		if (node->hash == hash && eq(node, key))
			return node;
	}
	return NULL;
}

static void grow(struct cl_htab *h)
{
	size_t n = h->nr_buckets * 2, i;
	struct cl_hnode **buckets = calloc(n, sizeof(*buckets));

	if (!buckets)
		return; /* longer chains, still correct */
	for (i = 0; i < h->nr_buckets; i++) {
		struct cl_hnode *node = h->buckets[i], *next;

		for (; node; node = next) {
			next = node->next;
			node->next = buckets[node->hash & (n - 1)];
			buckets[node->hash & (n - 1)] = node;
		}
	}
	free(h->buckets);
	h->buckets = buckets;
	h->nr_buckets = n;
}

void cl_htab_insert(struct cl_htab *h, struct cl_hnode *node, uint64_t hash)
{
	size_t b;

	if (h->count >= h->nr_buckets)
		grow(h);
	b = hash & (h->nr_buckets - 1);
	node->hash = hash;
	node->next = h->buckets[b];
	h->buckets[b] = node;
	h->count++;
}

void cl_htab_remove(struct cl_htab *h, struct cl_hnode *node)
{
	struct cl_hnode **link = &h->buckets[node->hash & (h->nr_buckets - 1)];

	for (; *link; link = &(*link)->next) {
		if (*link == node) {
			*link = node->next;
			h->count--;
			return;
		}
	}
}
