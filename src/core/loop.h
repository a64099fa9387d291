/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_LOOP_H
#define CPULEDGER_LOOP_H

#include <stdint.h>

/*
 * The one event loop: epoll over signalfd, timerfd, ring buffers, netlink
 * and listeners. Callbacks return 0 to keep going, CL_LOOP_STOP to end the
 * loop, or -errno to end it with an error.
 */
#define CL_LOOP_STOP 1

typedef int (*cl_loop_fn)(void *ctx, uint32_t events);

struct cl_loop;

struct cl_loop *cl_loop_new(void);
void cl_loop_free(struct cl_loop *loop);
int cl_loop_add(struct cl_loop *loop, int fd, cl_loop_fn fn, void *ctx);
int cl_loop_del(struct cl_loop *loop, int fd);
/* Runs until a callback stops it; returns its result (CL_LOOP_STOP or -errno). */
int cl_loop_run(struct cl_loop *loop);

/* signalfd for SIGINT and SIGTERM (blocked for normal delivery); SIGPIPE ignored. */
int cl_signalfd_open(void);
/* Reads one signal from the signalfd; returns its number or -errno. */
int cl_signalfd_read(int fd);

/* A CLOCK_MONOTONIC timerfd; cl_timerfd_at arms it for an absolute time. */
int cl_timerfd_open(void);
int cl_timerfd_at(int fd, uint64_t mono_ns);
/* Consumes the expiration count so the fd stops being readable. */
void cl_timerfd_ack(int fd);

uint64_t cl_now_mono_ns(void);
uint64_t cl_now_real_ns(void);

#endif
