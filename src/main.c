// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cpuledger: attributes CPU resources to threads, processes and containers
 * from every context switch. The command table and global options live here;
 * this is the only place that calls exit().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "stat", cmd_stat, "per-process/thread CPU accounting, one report per interval" },
	{ "record", cmd_record, "per-CPU time slices (1 ms) into SQLite or CSV" },
	{ "trace", cmd_trace, "one line per context switch" },
	{ "serve", cmd_serve, "Prometheus metrics per container, pod, cgroup or process" },
	{ "doctor", cmd_doctor, "what this machine supports, and whether cpuledger can run" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: cpuledger COMMAND [OPTIONS]\n"
		     "       cpuledger --version | --help\n"
		     "\n"
		     "Attributes CPU time, context switches and perf counters to threads and\n"
		     "processes from every context switch, aggregated in the kernel.\n"
		     "\n"
		     "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n"
		     "'cpuledger COMMAND --help' describes each command.\n"
		     "Exit status: 0 ok, 1 runtime failure, 2 usage error.\n"
		     "\n"
		     "EXAMPLES:\n"
		     "  cpuledger doctor                 # can cpuledger run here?\n"
		     "  cpuledger stat                   # every process, every second\n"
		     "  cpuledger stat -p 1234 -t -d 5s  # threads of one process for 5 seconds\n");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	if (!name)
		return cl_usage_error(NULL, "no command given: try %s",
				      "stat, record, trace, serve or doctor");
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return CL_EXIT_OK;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("cpuledger %s\n", CPULEDGER_VERSION);
		return CL_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(name, commands[i].name))
			exit(commands[i].fn(argc - 1, argv + 1));
	}
	if (name[0] == '-')
		return cl_usage_error(NULL, "unknown option '%s'", name);
	return cl_usage_error(NULL, "unknown command '%s'", name);
}
