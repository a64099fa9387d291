// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cpuledger record: what the running task did in every slice (1 ms by
 * default) on every CPU, into an SQLite database or CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/events.h"
#include "core/log.h"
#include "core/parse.h"
#include "stream_cmd.h"

#define CMD "record"

static void usage(FILE *out)
{
	fprintf(out,
"Usage: cpuledger record -o FILE [OPTIONS]\n"
"\n"
"Records what the running task did in every slice of every CPU: a per-CPU tick\n"
"(a cpu-clock sampling event) closes the running task's slice every --slice,\n"
"and so does every context switch. Each slice has its CPU, task, duration and\n"
"counter deltas. Written to an SQLite database (table slices, see meta) in\n"
"batched transactions, or as CSV. CPUs may go offline and come back.\n"
"\n"
"Options:\n"
"  -o, --output FILE    the SQLite database (an existing one is kept as\n"
"                       FILE.old), or the CSV/JSON file (default: stdout)\n"
"  -f, --format FMT     sqlite (default), csv, or json (JSON Lines)\n"
"  -d, --duration DUR   stop after DUR (default: until SIGINT or SIGTERM)\n"
"      --slice DUR      slice length, 100us..1s (default 1ms)\n"
"  -e, --events LIST    perf events (default " CL_DEFAULT_EVENTS ")\n"
"  -p, --pid LIST       only these processes (comma-separated PIDs)\n"
"      --comm NAME      only tasks named NAME, or threads of processes named NAME\n"
"  -t, --threads        name slices after their thread, not their process\n"
"      --ring-size SIZE kernel ring buffer, a power of two (default 16M; 4K..1G)\n"
"  -v, --verbose        debug messages, libbpf's included\n"
"  -h, --help           show this help\n"
"\n"
"Slices lost because the ring buffer was full are counted per CPU (table\n"
"cpus, meta lost_records) and reported at the end.\n"
"\n"
"EXAMPLES:\n"
"  cpuledger record -o run.db -d 10s\n"
"  cpuledger record -o run.db -p 1234 --slice 250us -e cycles,instructions\n"
"  sqlite3 run.db 'SELECT pid, comm, SUM(duration_ns) FROM slices GROUP BY pid'\n"
"  cpuledger record -f csv -d 2s > slices.csv\n");
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 'd' },
		{ "slice", required_argument, NULL, STREAM_OPT_SLICE },
		{ "events", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, STREAM_OPT_COMM },
		{ "threads", no_argument, NULL, 't' },
		{ "ring-size", required_argument, NULL, STREAM_OPT_RING },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct stream_cmd cmd = {
		.name = CMD,
		.mode = CL_MODE_RECORD,
		.slice_ns = NSEC_PER_MSEC,
		.events = CL_DEFAULT_EVENTS,
		.format = "sqlite",
		.ring_bytes = 16 << 20,
	};
	int opt, ret;

	cl_log_set_prefix("cpuledger " CMD);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":o:f:d:e:p:tvh", longopts, NULL)) != -1) {
		switch (opt) {
		case STREAM_OPT_SLICE:
			if (cl_duration_arg(CMD, "slice", optarg, &cmd.slice_ns))
				goto usage;
			if (cmd.slice_ns < 100 * NSEC_PER_USEC || cmd.slice_ns > NSEC_PER_SEC) {
				cl_usage_error(CMD, "--slice '%s' must be 100us..1s", optarg);
				goto usage;
			}
			continue;
		case 't':
			cmd.threads = true;
			continue;
		case 'h':
			usage(stdout);
			free(cmd.pids);
			return CL_EXIT_OK;
		case '?':
		case ':':
			cl_getopt_error(CMD, opt, argv);
			goto usage;
		}
		ret = stream_cmd_parse_common(&cmd, opt, optarg);
		if (ret >= 0) {
			free(cmd.pids);
			return ret;
		}
	}
	if (optind < argc) {
		cl_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	return stream_cmd_run(&cmd);
usage:
	free(cmd.pids);
	return CL_EXIT_USAGE;
}
