/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_RINGBUF_H
#define CPULEDGER_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

/*
 * A BPF ring buffer consumer that publishes its position once per batch,
 * not once per record as libbpf 1.1's ring_buffer__consume does: the
 * producer reads that position at every reservation, so per-record updates
 * bounce its cache line between the CPUs at full switch rate. The map fd
 * itself polls readable when the producer wakes us.
 */
struct cl_ringbuf;

typedef int (*cl_ringbuf_fn)(void *ctx, const void *data, size_t size);

struct cl_ringbuf *cl_ringbuf_new(int map_fd, cl_ringbuf_fn fn, void *ctx);
void cl_ringbuf_free(struct cl_ringbuf *rb);
/* Hands every committed record to fn; returns how many, or fn's first error. */
int cl_ringbuf_consume(struct cl_ringbuf *rb);
int cl_ringbuf_fd(const struct cl_ringbuf *rb);

#endif
