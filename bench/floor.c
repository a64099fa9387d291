// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Loads bench/floor.bpf.c (an empty sched_switch program), prints "attached"
 * on stdout once it is attached, and holds it until SIGINT or SIGTERM.
 *   floor [-v]
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "floor.skel.h"

static bool verbose;

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

int main(int argc, char **argv)
{
	struct floor_bpf *skel;
	sigset_t stop_signals;
	int sig, err;

	verbose = argc > 1 && !strcmp(argv[1], "-v");
	libbpf_set_print(print_libbpf);

	/* Blocked before attaching: a stop request is never lost. */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop_signals, NULL);

	skel = floor_bpf__open_and_load();
	if (!skel) {
		err = -errno;
		fprintf(stderr, "floor: loading the BPF program: %s\n", strerror(-err));
		return 1;
	}
	err = floor_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "floor: attaching to sched_switch: %s\n", strerror(-err));
		goto destroy_skel;
	}
	printf("attached\n");
	fflush(stdout);

	err = sigwait(&stop_signals, &sig);
	if (err)
		fprintf(stderr, "floor: sigwait: %s\n", strerror(err));

destroy_skel:
	floor_bpf__destroy(skel);
	return err ? 1 : 0;
}
