// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "core/ringbuf.h"

/* How many records go by between two publications of our position. */
#define PUBLISH_EVERY 256

struct cl_ringbuf {
	int map_fd;
	cl_ringbuf_fn fn;
	void *ctx;
	unsigned long *consumer_pos;	/* ours: the producer reads it */
	unsigned long *producer_pos;	/* the producer's */
	const char *data;		/* mapped twice in a row: records never wrap */
	unsigned long mask;
	size_t page_size;
	size_t ring_size;
};

struct cl_ringbuf *cl_ringbuf_new(int map_fd, cl_ringbuf_fn fn, void *ctx)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct cl_ringbuf *rb;
	void *cons, *prod;

	if (bpf_obj_get_info_by_fd(map_fd, &info, &len))
		return NULL;
	rb = calloc(1, sizeof(*rb));
	if (!rb)
		return NULL;
	rb->map_fd = map_fd;
	rb->fn = fn;
	rb->ctx = ctx;
	rb->page_size = (size_t)sysconf(_SC_PAGESIZE);
	rb->ring_size = info.max_entries;
	rb->mask = info.max_entries - 1;
	cons = mmap(NULL, rb->page_size, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (cons == MAP_FAILED)
		goto err_free;
	prod = mmap(NULL, rb->page_size + 2 * rb->ring_size, PROT_READ, MAP_SHARED, map_fd,
		    (off_t)rb->page_size);
	if (prod == MAP_FAILED)
		goto err_cons;
	rb->consumer_pos = cons;
	rb->producer_pos = prod;
	rb->data = (const char *)prod + rb->page_size;
	return rb;

err_cons:
	munmap(cons, rb->page_size);
err_free:
	free(rb);
	return NULL;
}

void cl_ringbuf_free(struct cl_ringbuf *rb)
{
	if (!rb)
		return;
	munmap(rb->consumer_pos, rb->page_size);
	munmap(rb->producer_pos, rb->page_size + 2 * rb->ring_size);
	free(rb);
}

int cl_ringbuf_fd(const struct cl_ringbuf *rb)
{
	return rb->map_fd;
}

int cl_ringbuf_consume(struct cl_ringbuf *rb)
{
	unsigned long cons = __atomic_load_n(rb->consumer_pos, __ATOMIC_RELAXED), prod;
	int count = 0, err = 0;

	do {
		prod = __atomic_load_n(rb->producer_pos, __ATOMIC_ACQUIRE);
		while (cons < prod) {
			const __u32 *hdr = (const __u32 *)(rb->data + (cons & rb->mask));
			__u32 len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
			__u32 size = len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);

			if (len & BPF_RINGBUF_BUSY_BIT)
				goto out; /* reserved, not committed yet */
			cons = (cons + size + BPF_RINGBUF_HDR_SZ + 7) & ~7UL;
			if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
				err = rb->fn(rb->ctx, (const char *)hdr + BPF_RINGBUF_HDR_SZ, size);
				if (err)
					goto out;
				count++;
			}
			if (count % PUBLISH_EVERY == 0)
				__atomic_store_n(rb->consumer_pos, cons, __ATOMIC_RELEASE);
		}
	} while (cons != __atomic_load_n(rb->producer_pos, __ATOMIC_ACQUIRE));
out:
	__atomic_store_n(rb->consumer_pos, cons, __ATOMIC_RELEASE);
	return err ? err : count;
}
