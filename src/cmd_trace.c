// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* cpuledger trace: one line per context switch, filtered in the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/log.h"
#include "stream_cmd.h"

#define CMD "trace"

static void usage(FILE *out)
{
	fprintf(out,
"Usage: cpuledger trace [OPTIONS]\n"
"\n"
"Prints every context switch: time, CPU, the task leaving (pid, tid, name,\n"
"state: R preempted, S sleeping, D disk wait, ...) and how long it ran, the\n"
"task arriving, and the counter deltas of the run that just ended. Filters\n"
"apply in the kernel: switches of other tasks cost no ring-buffer traffic.\n"
"\n"
"Options:\n"
"  -p, --pid LIST       only switches in or out of these processes\n"
"      --comm NAME      only switches in or out of tasks named NAME\n"
"  -d, --duration DUR   stop after DUR (default: until SIGINT or SIGTERM)\n"
"  -f, --format FMT     text (default), csv, or json (JSON Lines)\n"
"  -o, --output FILE    write to FILE instead of stdout\n"
"  -e, --events LIST    perf events read at each switch (default: none)\n"
"      --ring-size SIZE kernel ring buffer, a power of two (default 16M; 4K..1G)\n"
"  -v, --verbose        debug messages, libbpf's included\n"
"  -h, --help           show this help\n"
"\n"
"Switches lost because the ring buffer was full are counted: in every text\n"
"header, as they happen, and at the end.\n"
"\n"
"EXAMPLES:\n"
"  cpuledger trace -p 1234\n"
"  cpuledger trace --comm nginx -d 5s -f csv > switches.csv\n"
"  cpuledger trace -e page-faults,cpu-clock -p 1234\n");
}

int cmd_trace(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, STREAM_OPT_COMM },
		{ "duration", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "ring-size", required_argument, NULL, STREAM_OPT_RING },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct stream_cmd cmd = {
		.name = CMD,
		.mode = CL_MODE_TRACE,
		.events = "",
		.format = "text",
		.ring_bytes = 16 << 20,
	};
	int opt, ret;

	cl_log_set_prefix("cpuledger " CMD);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":p:d:f:o:e:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			free(cmd.pids);
			return CL_EXIT_OK;
		case '?':
		case ':':
			free(cmd.pids);
			return cl_getopt_error(CMD, opt, argv);
		}
		ret = stream_cmd_parse_common(&cmd, opt, optarg);
		if (ret >= 0) {
			free(cmd.pids);
			return ret;
		}
	}
	if (optind < argc) {
		free(cmd.pids);
		return cl_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
	}
	return stream_cmd_run(&cmd);
}
