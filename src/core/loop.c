// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#include "core/loop.h"

#define MAX_WATCHES 64

struct watch {
	int fd;
	cl_loop_fn fn;
	void *ctx;
};

struct cl_loop {
	int epfd;
	struct watch watches[MAX_WATCHES];
};

struct cl_loop *cl_loop_new(void)
{
	struct cl_loop *loop = calloc(1, sizeof(*loop));

	if (!loop)
		return NULL;
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epfd < 0) {
		free(loop);
		return NULL;
	}
	for (int i = 0; i < MAX_WATCHES; i++)
		loop->watches[i].fd = -1;
	return loop;
}

void cl_loop_free(struct cl_loop *loop)
{
	if (!loop)
		return;
	close(loop->epfd);
	free(loop);
}

int cl_loop_add(struct cl_loop *loop, int fd, cl_loop_fn fn, void *ctx)
{
	struct epoll_event ev = { .events = EPOLLIN };

	for (int i = 0; i < MAX_WATCHES; i++) {
		struct watch *w = &loop->watches[i];

		if (w->fd >= 0)
			continue;
		ev.data.ptr = w;
		if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev))
			return -errno;
		w->fd = fd;
		w->fn = fn;
		w->ctx = ctx;
		return 0;
	}
	return -ENOSPC;
}

int cl_loop_del(struct cl_loop *loop, int fd)
{
	for (int i = 0; i < MAX_WATCHES; i++) {
		if (loop->watches[i].fd != fd)
			continue;
		loop->watches[i].fd = -1;
		return epoll_ctl(loop->epfd, EPOLL_CTL_DEL, fd, NULL) ? -errno : 0;
	}
	return -ENOENT;
}

int cl_loop_run(struct cl_loop *loop)
{
	struct epoll_event events[16];

	for (;;) {
		int n = epoll_wait(loop->epfd, events, 16, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (int i = 0; i < n; i++) {
			struct watch *w = events[i].data.ptr;
			int ret;

			if (w->fd < 0)
				continue;
			ret = w->fn(w->ctx, events[i].events);
			if (ret)
				return ret;
		}
	}
}

int cl_signalfd_open(void)
{
	sigset_t mask;
	int fd;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -errno;
	fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

int cl_signalfd_read(int fd)
{
	struct signalfd_siginfo info;
	ssize_t n = read(fd, &info, sizeof(info));

	if (n != (ssize_t)sizeof(info))
		return n < 0 ? -errno : -EIO;
	return (int)info.ssi_signo;
}

int cl_timerfd_open(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	return fd < 0 ? -errno : fd;
}

int cl_timerfd_at(int fd, uint64_t mono_ns)
{
	struct itimerspec spec = {
		.it_value = { .tv_sec = (time_t)(mono_ns / 1000000000ULL),
			      .tv_nsec = (long)(mono_ns % 1000000000ULL) },
	};

	if (!mono_ns)
		spec.it_value.tv_nsec = 1; /* zero would disarm */
	return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL) ? -errno : 0;
}

void cl_timerfd_ack(int fd)
{
	uint64_t expirations;

	if (read(fd, &expirations, sizeof(expirations)) < 0)
		return; /* EAGAIN: nothing pending */
}

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t cl_now_mono_ns(void)
{
	return now_ns(CLOCK_MONOTONIC);
}

uint64_t cl_now_real_ns(void)
{
	return now_ns(CLOCK_REALTIME);
}
