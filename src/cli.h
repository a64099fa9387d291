/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_CLI_H
#define CPULEDGER_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes, the same for every command. */
enum {
	CL_EXIT_OK = 0,		/* done (also: help, closed stdout) */
	CL_EXIT_FAIL = 1,	/* runtime failure: privileges, BTF, missing PID ... */
	CL_EXIT_USAGE = 2,	/* bad command line */
};

/* Prints "cpuledger CMD: MESSAGE (see 'cpuledger CMD --help')" and returns 2. */
int cl_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, pointing at another place than --help, e.g. "cpuledger stat --list-events". */
int cl_usage_error_see(const char *cmd, const char *see, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The usage error for getopt_long's '?' and ':' results. */
int cl_getopt_error(const char *cmd, int opt, char **argv);
/* Parses a duration option; a usage error (returns 2) if invalid or zero. */
int cl_duration_arg(const char *cmd, const char *option, const char *arg, uint64_t *ns);
/*
 * Checks root or CAP_BPF+CAP_PERFMON and kernel BTF; prints what is missing
 * and returns 1, else 0.
 */
int cl_check_bpf_ready(const char *cmd);

struct cl_collector;
struct cl_loop;

/*
 * The loop each long-running command runs: SIGINT/SIGTERM arrive through a
 * signalfd and end the loop (signal says which), a CLOCK_MONOTONIC timerfd
 * calls the command back, and the command adds what else it watches.
 */
struct cl_cmd_loop {
	struct cl_loop *loop;
	int signal_fd;
	int timer_fd;
	int signal;	/* the signal that ended the loop, 0 if none */
};

/* Returns 0, or 1 (the exit code) after saying what failed. */
int cl_cmd_loop_open(struct cl_cmd_loop *cl, int (*on_timer)(void *ctx, uint32_t events),
		     void *ctx);
/* Adds a watched fd; 0 or -errno. */
int cl_cmd_loop_add(struct cl_cmd_loop *cl, int fd, int (*fn)(void *ctx, uint32_t events),
		    void *ctx);
/* Runs until a callback or a signal stops it: 0, or 1 after an error. */
int cl_cmd_loop_run(struct cl_cmd_loop *cl);
void cl_cmd_loop_close(struct cl_cmd_loop *cl);

/* Each PID must be a running process (1, said) and not a thread id. */
int cl_check_pids(const char *cmd, const uint32_t *pids, size_t count);
struct cl_event_set;

/* One warning for all requested events that cannot be counted, grouped by reason. */
void cl_announce_unsupported(const struct cl_event_set *events, bool as_columns);

/*
 * Follows CPU hotplug for a command: a uevent socket in the loop (when the
 * kernel delivers uevents here) that makes the collector re-sync its CPUs,
 * logging one line per CPU that went or came. Commands also call
 * cl_hotplug_sync() periodically: uevents do not reach every namespace.
 */
struct cl_hotplug_watch {
	int fd;
	struct cl_collector *collector;
	const char *what;	/* "counters", "counters and tick" ... */
	/* Optional: told of every change after it is logged. */
	void (*on_change)(void *ctx, unsigned int cpu, bool online);
	void *ctx;
};

int cl_hotplug_watch_start(struct cl_hotplug_watch *watch, struct cl_loop *loop,
			   struct cl_collector *collector, const char *what);
void cl_hotplug_watch_stop(struct cl_hotplug_watch *watch);
int cl_hotplug_sync(struct cl_hotplug_watch *watch);

int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_doctor(int argc, char **argv);

#endif
