// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cpuledger stat: interval reports of what each process (or thread) did on
 * the CPU, read from the kernel once per interval.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "core/cgroups.h"
#include "core/collector.h"
#include "core/ledger.h"
#include "core/log.h"
#include "core/loop.h"
#include "core/parse.h"
#include "core/preemptors.h"
#include "core/report.h"
#include "core/system.h"
#include "sinks/sink.h"

#define CMD "stat"
#define DEFAULT_MAX_TASKS 65536
#define DEFAULT_MAX_ROWS 65536

struct stat_opts {
	uint64_t interval_ns;
	uint64_t duration_ns;	/* 0: until a signal */
	uint32_t *pids;
	size_t nr_pids;
	bool threads;
	int level;		/* enum cl_row_level */
	const char *comm;
	const char *events;
	const char *format;
	bool per_cpu;
	const char *sort;
	uint64_t top;		/* 0: all rows */
	uint64_t max_tasks;
	bool wide;
	bool histogram;
	bool preemptors;
	bool self;
	int verbose;		/* 1: debug messages; 2: kernel-side diagnostics too */
};

/* stat --self: what cpuledger cost in the last interval. */
struct self_cost {
	int stats_fd;		/* BPF_ENABLE_STATS while held; -1: none */
	bool bpf_stats;		/* the kernel counts BPF run time */
	uint64_t cpu_ns;	/* cumulative user + system CPU */
	uint64_t bpf_ns;	/* cumulative run time of our programs */
	uint64_t bpf_runs;
	uint64_t diag;		/* kernel-side diagnostics received */
};

struct stat_run {
	const struct stat_opts *opts;
	struct self_cost self;
	struct cl_event_set events;
	struct cl_schema schema;
	int sort_col;
	struct cl_collector *collector;
	struct cl_ledger *ledger;
	struct cl_rows rows;
	struct cl_sink sink;
	struct cl_hotplug_watch hotplug;
	struct cl_preemptors *preemptors;
	struct cl_cgroups *cgroups;
	struct cl_cmd_loop loop;
	uint64_t last_mono;	/* start of the current interval */
	uint64_t next_mono;	/* when it ends */
	uint64_t end_mono;	/* end of --duration, 0 for none */
	struct cl_collector_stats last_stats;
	uint64_t last_untracked;
	uint64_t last_overflow;
	bool machine_format;
	int result;		/* exit code once the loop ends */
};

static void usage(FILE *out)
{
	fprintf(out,
"Usage: cpuledger stat [OPTIONS]\n"
"\n"
"Per-process (or per-thread) CPU accounting from every context switch: on-CPU\n"
"time, voluntary and involuntary switches and perf counters, reported each\n"
"interval. Numbers come from the kernel's own per-task accounting (the same as\n"
"/proc/PID/schedstat and /proc/PID/status) and from per-CPU perf counters read\n"
"at each context switch.\n"
"\n"
"Options:\n"
"  -i, --interval DUR   report every DUR (default 1s; e.g. 250ms, 1.5s, 2m)\n"
"  -d, --duration DUR   stop after DUR (default: until SIGINT or SIGTERM)\n"
"  -p, --pid LIST       only these processes (comma-separated PIDs)\n"
"  -t, --threads        one row per thread instead of one per process\n"
"      --by LEVEL       rows per thread, process (default), cgroup, container\n"
"                       or pod (containers and pods outside: their cgroup)\n"
"      --comm NAME      only tasks named NAME, or threads of processes named NAME\n"
"  -e, --events LIST    perf events by perf's names; default:\n"
"                       " CL_DEFAULT_EVENTS "\n"
"                       (NAME:perf counts a software event with perf)\n"
"      --list-events    list known events and exit\n"
"  -f, --format FMT     table (default), csv, or json (JSON Lines)\n"
"      --per-cpu        split rows by CPU\n"
"      --sort COL       sort rows by this column (default oncpu_ns)\n"
"      --top N          only the first N rows of each interval\n"
"      --max-tasks N    track at most N tasks (default %d)\n"
"  -w, --wide           table: every column (run-queue and preemption ones too)\n"
"      --histogram      table: each row's run-queue waits, runqlat-style\n"
"      --preemptors     table: which cgroups preempted which, each interval\n"
"      --self           each interval, what cpuledger itself cost: its CPU time,\n"
"                       its BPF programs' run time, kernel-side diagnostics\n"
"  -v, --verbose        debug messages, libbpf's included; twice: kernel-side\n"
"                       diagnostics too (off by default: not even loaded)\n"
"  -h, --help           show this help\n"
"\n"
"Events the machine cannot count (no hardware PMU in most VMs) are announced\n"
"once on stderr; their columns stay, empty in CSV, null in JSON, '-' in tables.\n"
"\n"
"EXAMPLES:\n"
"  cpuledger stat                          # every process, every second\n"
"  cpuledger stat -p 1234 -t -i 250ms      # threads of PID 1234, 4 times/second\n"
"  cpuledger stat --comm nginx -d 10s      # nginx processes for 10 seconds\n"
"  cpuledger stat -e cycles,instructions,LLC-load-misses --sort cycles --top 10\n"
"  cpuledger stat --per-cpu -f csv -d 1m > cpu.csv\n"
"  cpuledger stat -w --preemptors --top 5       # noisy neighbours\n",
		DEFAULT_MAX_TASKS);
}

static void list_events(void)
{
	const struct cl_event_def *defs;
	size_t count, i;

	defs = cl_event_defs(&count);
	printf("%-26s %-10s %s\n", "EVENT", "COLUMN", "SOURCE");
	for (i = 0; i < count; i++) {
		char column[40], *c;

		snprintf(column, sizeof(column), "%s", defs[i].name);
		for (c = column; *c; c++)
			*c = *c == '-' ? '_' : *c;
		printf("%-26s %-10s %s%s%s\n", defs[i].name, defs[i].title,
		       defs[i].task_field != CL_TF_NONE ? "kernel per-task counter (exact, free)"
						       : "perf counter read at each switch",
		       defs[i].alias ? ", alias " : "", defs[i].alias ? defs[i].alias : "");
	}
	printf("%-26s %-10s %s\n", "rNNNN", "rNNNN", "raw PMU event, config in hex");
}

enum {
	OPT_COMM = 256,
	OPT_LIST_EVENTS,
	OPT_PER_CPU,
	OPT_SORT,
	OPT_TOP,
	OPT_MAX_TASKS,
	OPT_HISTOGRAM,
	OPT_PREEMPTORS,
	OPT_BY,
	OPT_SELF,
};

/* Returns -1 to go on, or the exit code. */
static int parse_args(int argc, char **argv, struct stat_opts *opts)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "threads", no_argument, NULL, 't' },
		{ "by", required_argument, NULL, OPT_BY },
		{ "self", no_argument, NULL, OPT_SELF },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "events", required_argument, NULL, 'e' },
		{ "list-events", no_argument, NULL, OPT_LIST_EVENTS },
		{ "format", required_argument, NULL, 'f' },
		{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
		{ "wide", no_argument, NULL, 'w' },
		{ "histogram", no_argument, NULL, OPT_HISTOGRAM },
		{ "preemptors", no_argument, NULL, OPT_PREEMPTORS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int opt, err;

	opts->interval_ns = NSEC_PER_SEC;
	opts->events = CL_DEFAULT_EVENTS;
	opts->format = "table";
	opts->sort = "oncpu_ns";
	opts->max_tasks = DEFAULT_MAX_TASKS;
	opts->level = CL_BY_PROCESS;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":i:d:p:te:f:wvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			if (cl_duration_arg(CMD, "interval", optarg, &opts->interval_ns))
				return CL_EXIT_USAGE;
			break;
		case 'd':
			if (cl_duration_arg(CMD, "duration", optarg, &opts->duration_ns))
				return CL_EXIT_USAGE;
			break;
		case 'p':
			free(opts->pids);
			opts->pids = NULL;
			err = cl_parse_pid_list(optarg, &opts->pids, &opts->nr_pids);
			if (err)
				return cl_usage_error(CMD,
						      "invalid PID list '%s': expected PIDs like "
						      "123,456",
						      optarg);
			break;
		case 't':
			opts->threads = true;
			opts->level = CL_BY_THREAD;
			break;
		case OPT_BY:
			opts->level = cl_row_level_parse(optarg);
			if (opts->level < 0)
				return cl_usage_error(CMD, "--by '%s': use %s", optarg,
						      "thread, process, cgroup, container or pod");
			opts->threads = opts->level == CL_BY_THREAD;
			break;
		case OPT_COMM:
			if (!*optarg)
				return cl_usage_error(CMD, "--comm needs a name");
			opts->comm = optarg;
			break;
		case 'e':
			opts->events = optarg;
			break;
		case OPT_LIST_EVENTS:
			list_events();
			return CL_EXIT_OK;
		case 'f':
			opts->format = optarg;
			break;
		case OPT_PER_CPU:
			opts->per_cpu = true;
			break;
		case OPT_SORT:
			opts->sort = optarg;
			break;
		case OPT_TOP:
			if (cl_parse_u64(optarg, &opts->top) || !opts->top)
				return cl_usage_error(CMD, "--top '%s' is not a positive number",
						      optarg);
			break;
		case OPT_MAX_TASKS:
			if (cl_parse_u64(optarg, &opts->max_tasks) || !opts->max_tasks ||
			    opts->max_tasks > (1U << 22))
				return cl_usage_error(CMD, "--max-tasks '%s' must be 1..4194304",
						      optarg);
			break;
		case 'w':
			opts->wide = true;
			break;
		case OPT_HISTOGRAM:
			opts->histogram = true;
			break;
		case OPT_PREEMPTORS:
			opts->preemptors = true;
			break;
		case OPT_SELF:
			opts->self = true;
			break;
		case 'v':
			opts->verbose++;
			break;
		case 'h':
			usage(stdout);
			return CL_EXIT_OK;
		default:
			return cl_getopt_error(CMD, opt, argv);
		}
	}
	if (optind < argc)
		return cl_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
	return -1;
}

static int check_events(struct stat_run *run)
{
	const char *bad = NULL;
	int err;

	err = cl_events_parse(run->opts->events, &run->events, &bad);
	switch (err) {
	case 0:
		return -1;
	case -ENOENT:
		return cl_usage_error_see(CMD, "cpuledger stat --list-events", "unknown event '%s'",
					  bad);
	case -EEXIST:
		return cl_usage_error(CMD, "event '%s' is listed twice", bad);
	case -E2BIG:
		return cl_usage_error(CMD, "too many events: at most %d, of which %d perf counters",
				      CL_MAX_EVENTS, CL_MAX_COUNTERS);
	default:
		return cl_usage_error(CMD, "invalid event list '%s'%s", run->opts->events,
				      bad && strchr(bad, ':') ? " (the only modifier is :perf)" :
								"");
	}
}

static void fill_interval(struct stat_run *run, struct cl_interval *interval, uint64_t mono,
			  uint64_t real)
{
	struct cl_collector_stats stats;
	struct cl_ledger_stats lstats;
	uint64_t untracked;

	cl_collector_get_stats(run->collector, &stats);
	cl_ledger_get_stats(run->ledger, &lstats);
	memset(interval, 0, sizeof(*interval));
	interval->time_ns = real;
	interval->interval_ns = mono - run->last_mono;
	interval->cpus_online = cl_cpumask_weight(cl_collector_online(run->collector));
	interval->cpus_possible = cl_collector_nr_cpus(run->collector);
	interval->lost_exits =
		stats.bpf[CL_STAT_EXIT_DROPS] - run->last_stats.bpf[CL_STAT_EXIT_DROPS];
	untracked = lstats.untracked + run->rows.overflow;
	interval->untracked = untracked - run->last_untracked;
	interval->map_full = stats.bpf[CL_STAT_PERCPU_FULL] -
			     run->last_stats.bpf[CL_STAT_PERCPU_FULL] +
			     stats.bpf[CL_STAT_STORAGE_FAILS] -
			     run->last_stats.bpf[CL_STAT_STORAGE_FAILS];
	interval->final = interval->interval_ns + NSEC_PER_MSEC < run->opts->interval_ns;
	run->last_untracked = untracked;
	run->last_stats = stats;
}

static void warn_losses(const struct cl_interval *interval)
{
	if (interval->lost_exits)
		cl_warn("%llu exit records lost this interval (ring buffer full); "
			"those tasks' last interval is missing",
			(unsigned long long)interval->lost_exits);
	if (interval->untracked)
		cl_warn("%llu task observations dropped this interval: --max-tasks reached",
			(unsigned long long)interval->untracked);
	if (interval->map_full)
		cl_warn("%llu counter charges lost this interval (kernel-side task map full)",
			(unsigned long long)interval->map_full);
}

static void log_diag(void *ctx, const struct cl_diag_record *rec)
{
	static const char *const names[CL_STAT_NR] = {
		[CL_STAT_EXIT_DROPS] = "exit record lost (ring buffer full)",
		[CL_STAT_STORAGE_FAILS] = "task storage not created",
		[CL_STAT_PERCPU_FULL] = "per-CPU task map full",
		[CL_STAT_COUNTER_READ_ERRS] = "counter read failed",
		[CL_STAT_COUNTER_RESETS] = "counter re-baselined",
		[CL_STAT_PREEMPTORS_FULL] = "preemptor pair map full",
		[CL_STAT_CGROUP_DROPS] = "cgroup record lost (ring buffer full)",
	};

	cl_dbg("bpf: cpu%u at %llu ns: %s", rec->cpu, (unsigned long long)rec->time_ns,
	       rec->code < CL_STAT_NR && names[rec->code] ? names[rec->code] : "?");
}

static const char *cgroup_name(void *ctx, uint64_t id)
{
	struct stat_run *run = ctx;
	static char buf[32];
	const char *path = run->cgroups ? cl_cgroups_path(run->cgroups, id) : NULL;

	if (path)
		return path;
	snprintf(buf, sizeof(buf), "cgroup#%llu", (unsigned long long)id);
	return buf;
}

/* The table's extras after the rows: histograms, preemptors. */
static int report_extras(struct stat_run *run)
{
	const struct cl_victim *victims;
	size_t n;

	if (run->opts->histogram) {
		for (size_t i = 0; i < run->rows.nr_sorted; i++)
			cl_table_histogram(stdout, run->rows.sorted[i], run->opts->threads);
	}
	if (run->preemptors) {
		n = cl_preemptors_rank(run->preemptors, &victims);
		if (run->cgroups)
			cl_cgroups_refresh_allowed(run->cgroups);
		cl_table_preemptors(stdout, victims, n, cgroup_name, run);
	}
	if (fflush(stdout))
		return errno == EPIPE ? -EPIPE : -EIO;
	return cl_sink_status(stdout);
}

static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * NSEC_PER_SEC +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * NSEC_PER_USEC;
}

static void self_sample(struct stat_run *run, struct self_cost *now)
{
	struct cl_collector_stats stats;
	struct cl_prog_stat progs[16];
	size_t n;

	*now = run->self;
	now->cpu_ns = self_cpu_ns();
	now->bpf_ns = now->bpf_runs = 0;
	n = cl_collector_prog_stats(run->collector, progs, 16);
	for (size_t i = 0; i < n; i++) {
		now->bpf_ns += progs[i].run_ns;
		now->bpf_runs += progs[i].runs;
	}
	cl_collector_get_stats(run->collector, &stats);
	now->diag = stats.diag_records;
}

/* stat --self: one line, under the table's banner or on stderr. */
static void report_self(struct stat_run *run, struct cl_interval *interval, char *line,
			size_t size)
{
	struct self_cost now;
	char cpu[16], bpf[16], runs[16], each[16];
	double len = (double)interval->interval_ns;
	uint64_t d_cpu, d_bpf, d_runs;

	self_sample(run, &now);
	d_cpu = now.cpu_ns - run->self.cpu_ns;
	d_bpf = now.bpf_ns - run->self.bpf_ns;
	d_runs = now.bpf_runs - run->self.bpf_runs;
	cl_format_time(d_cpu, cpu, sizeof(cpu));
	cl_format_time(d_bpf, bpf, sizeof(bpf));
	cl_format_count(d_runs, runs, sizeof(runs));
	cl_format_time(d_runs ? d_bpf / d_runs : 0, each, sizeof(each));
	if (now.bpf_stats)
		snprintf(line, size,
			 "self: cpu %s (%.2f%%), bpf %s (%.2f%%) in %s runs (%s each), "
			 "%llu diagnostics",
			 cpu, len ? 100.0 * (double)d_cpu / len : 0, bpf,
			 len ? 100.0 * (double)d_bpf / len : 0, runs, each,
			 (unsigned long long)(now.diag - run->self.diag));
	else
		snprintf(line, size,
			 "self: cpu %s (%.2f%%), bpf run time unknown (needs root or "
			 "kernel.bpf_stats_enabled=1), %llu diagnostics",
			 cpu, len ? 100.0 * (double)d_cpu / len : 0,
			 (unsigned long long)(now.diag - run->self.diag));
	if (run->machine_format)
		cl_info("%s", line);
	else
		interval->note = line;
	run->self = now;
}

/* One pass over the kernel's totals, reported as an interval. */
static int report(struct stat_run *run)
{
	uint64_t mono, real;
	struct cl_interval interval;
	char self_line[256];
	size_t n;
	int err;

	/* CPUs that came back since the last look get their counters first. */
	cl_hotplug_sync(&run->hotplug);
	if (run->cgroups)
		cl_cgroups_refresh_allowed(run->cgroups);
	mono = cl_now_mono_ns();
	real = cl_now_real_ns();
	err = cl_collector_pass(run->collector, run->ledger);
	if (err) {
		cl_err("reading task totals from the kernel: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	fill_interval(run, &interval, mono, real);
	n = cl_rows_sort(&run->rows, &run->schema, run->sort_col);
	if (run->opts->top && n > run->opts->top) {
		interval.rows_cut = n - run->opts->top;
		run->rows.nr_sorted = run->opts->top;
	}
	if (run->machine_format)
		warn_losses(&interval);
	if (run->preemptors) {
		cl_preemptors_begin(run->preemptors);
		cl_collector_preemptors(run->collector, cl_preemptors_observe, run->preemptors);
	}
	if (run->opts->self)
		report_self(run, &interval, self_line, sizeof(self_line));
	err = cl_sink_write(&run->sink, &run->rows, &interval);
	if (!err)
		err = report_extras(run);
	cl_rows_reset(&run->rows);
	run->last_mono = mono;
	if (err == -EPIPE)
		return CL_EXIT_OK; /* the reader is gone: stop quietly */
	if (err) {
		cl_err("writing output: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	return -1;
}

static int arm_timer(struct stat_run *run)
{
	uint64_t at = run->next_mono;

	if (run->end_mono && run->end_mono < at)
		at = run->end_mono;
	return cl_timerfd_at(run->loop.timer_fd, at);
}

static int on_timer(void *ctx, uint32_t events)
{
	struct stat_run *run = ctx;
	bool last;
	int ret;

	cl_timerfd_ack(run->loop.timer_fd);
	if (cl_now_mono_ns() < run->next_mono &&
	    !(run->end_mono && cl_now_mono_ns() >= run->end_mono))
		return arm_timer(run); /* early wakeup */
	last = run->end_mono && cl_now_mono_ns() >= run->end_mono;
	ret = report(run);
	if (ret >= 0) {
		run->result = ret;
		return CL_LOOP_STOP;
	}
	if (last) {
		run->result = CL_EXIT_OK;
		return CL_LOOP_STOP;
	}
	/* Keep to the original grid; skip ticks missed while stopped. */
	while (run->next_mono <= cl_now_mono_ns())
		run->next_mono += run->opts->interval_ns;
	return arm_timer(run);
}

/* A storm of exits: take them now rather than lose them. */
static int on_exits(void *ctx, uint32_t events)
{
	struct stat_run *run = ctx;

	cl_collector_drain_exits(run->collector, run->ledger);
	return 0;
}

static int run_loop(struct stat_run *run)
{
	int err, ret;

	err = cl_cmd_loop_add(&run->loop, cl_collector_exit_fd(run->collector), on_exits, run);
	if (!err)
		err = cl_hotplug_watch_start(&run->hotplug, run->loop.loop, run->collector,
					     "counters");
	if (!err)
		err = arm_timer(run);
	if (err) {
		cl_err("setting up the event loop: %s", strerror(-err));
		ret = CL_EXIT_FAIL;
	} else {
		ret = cl_cmd_loop_run(&run->loop);
	}
	if (!ret && run->loop.signal) {
		/* SIGINT/SIGTERM: what was collected so far is an interval too. */
		ret = report(run);
		ret = ret >= 0 ? ret : CL_EXIT_OK;
	} else if (!ret) {
		ret = run->result;
	}
	cl_hotplug_watch_stop(&run->hotplug);
	return ret;
}

static int start(struct stat_run *run)
{
	const struct stat_opts *opts = run->opts;
	struct cl_collector_opts copts = {
		.pids = opts->pids,
		.nr_pids = opts->nr_pids,
		.comm = opts->comm,
		.per_cpu = opts->per_cpu,
		.max_tasks = opts->max_tasks,
		.max_preemptor_pairs = opts->preemptors ? 16384 : 0,
		.diag_level = opts->verbose >= 2 ? 1 : 0,
		.on_diag = log_diag,
		.events = &run->events,
		.sysfs_root = "/sys",
	};
	struct cl_ledger_opts lopts = {
		.max_tasks = opts->max_tasks,
		.per_cpu = opts->per_cpu,
		.on_delta = cl_rows_add,
		.delta_ctx = &run->rows,
		.on_forget = cl_collector_forget,
	};
	char errmsg[512];
	int err;

	/* Names for cgroups: --by cgroup/container/pod rows, --preemptors. */
	if (opts->preemptors || opts->level >= CL_BY_CGROUP) {
		run->cgroups = cl_cgroups_new(NULL, 0);
		if (!run->cgroups) {
			cl_err("out of memory");
			return CL_EXIT_FAIL;
		}
		if (!cl_cgroups_mount(run->cgroups))
			cl_warn("no cgroup2 hierarchy mounted: cgroups are shown by id");
		copts.cgroups = run->cgroups;
	}
	err = cl_collector_open(&run->collector, &copts, errmsg, sizeof(errmsg));
	if (err) {
		cl_err("%s", errmsg);
		if (err == -EPERM || err == -EACCES)
			cl_err("loading BPF needs root or CAP_BPF+CAP_PERFMON");
		return CL_EXIT_FAIL;
	}
	cl_announce_unsupported(&run->events, true);
	if (!cl_collector_has_sched_info(run->collector)) {
		cl_warn("this kernel keeps no run-queue delays (CONFIG_SCHED_INFO): "
			"run-queue columns stay empty");
		for (size_t i = 0; i < run->schema.count; i++)
			run->schema.cols[i].unsupported |= run->schema.cols[i].runq;
	}
	if (opts->preemptors) {
		run->preemptors = cl_preemptors_new();
		if (!run->preemptors) {
			cl_err("out of memory");
			return CL_EXIT_FAIL;
		}
	}
	lopts.nr_cpus = cl_collector_nr_cpus(run->collector);
	lopts.forget_ctx = run->collector;
	lopts.start_ns = cl_now_mono_ns();
	run->ledger = cl_ledger_new(&lopts);
	if (!run->ledger || cl_rows_init(&run->rows, (enum cl_row_level)opts->level,
					 opts->per_cpu, DEFAULT_MAX_ROWS)) {
		cl_err("out of memory");
		return CL_EXIT_FAIL;
	}
	run->rows.cgroups = run->cgroups;
	/* Filtered views list every selected task, idle or not. */
	run->rows.keep_idle = opts->nr_pids || opts->comm;

	if (cl_cmd_loop_open(&run->loop, on_timer, run))
		return CL_EXIT_FAIL;
	/* The baseline: everything before this belongs to no interval. */
	run->last_mono = cl_now_mono_ns();
	err = cl_collector_pass(run->collector, run->ledger);
	if (err) {
		cl_err("reading task totals from the kernel: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	cl_rows_reset(&run->rows);
	cl_collector_get_stats(run->collector, &run->last_stats);
	if (opts->self) {
		/* Counted while this fd is open: from now, for this process's lifetime. */
		run->self.stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		run->self.bpf_stats = run->self.stats_fd >= 0 || cl_bpf_stats_enabled();
		self_sample(run, &run->self);
	}
	/*
	 * Some sandboxes hide processes from BPF task iterators (seen: PID 1 of
	 * a microVM). Say so rather than print nothing for them.
	 */
	for (size_t i = 0; i < opts->nr_pids; i++) {
		if (!cl_ledger_has_process(run->ledger, opts->pids[i]))
			cl_warn("PID %u exists but the kernel's task iterator does not show it; "
				"it cannot be reported", opts->pids[i]);
	}
	run->next_mono = run->last_mono + opts->interval_ns;
	run->end_mono = opts->duration_ns ? run->last_mono + opts->duration_ns : 0;
	err = cl_sink_start(&run->sink);
	if (err == -EPIPE)
		return CL_EXIT_OK;
	if (!run->machine_format && isatty(STDERR_FILENO))
		cl_info("collecting; Ctrl-C to stop");
	return -1;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts opts = {};
	struct stat_run run = {
		.opts = &opts, .loop = { .signal_fd = -1, .timer_fd = -1 }, .hotplug = { .fd = -1 },
		.self = { .stats_fd = -1 },
	};
	const struct cl_sink_ops *sink_ops;
	int ret;

	cl_log_set_prefix("cpuledger " CMD);
	ret = parse_args(argc, argv, &opts);
	if (ret >= 0)
		goto out;
	if (opts.verbose)
		cl_log_set_level(CL_LOG_DEBUG);

	ret = check_events(&run);
	if (ret >= 0)
		goto out;
	sink_ops = cl_sink_lookup(opts.format);
	if (!sink_ops) {
		ret = cl_usage_error(CMD, "unknown format '%s': use table, csv or json",
				     opts.format);
		goto out;
	}
	run.machine_format = sink_ops != &cl_sink_table_ops;
	if (run.machine_format && (opts.histogram || opts.preemptors || opts.wide)) {
		ret = cl_usage_error(CMD, "--wide, --histogram and --preemptors are for the table "
					  "(CSV and JSON always have every column)");
		goto out;
	}
	cl_schema_build_by(&run.schema, &run.events, (enum cl_row_level)opts.level, opts.per_cpu);
	run.schema.wide = opts.wide;
	run.sort_col = cl_schema_find(&run.schema, opts.sort);
	if (run.sort_col < 0) {
		ret = cl_usage_error(CMD,
				     "cannot sort by '%s': not a column (columns are the CSV "
				     "header names)",
				     opts.sort);
		goto out;
	}
	cl_sink_init(&run.sink, sink_ops, &run.schema, stdout);

	ret = cl_check_pids(CMD, opts.pids, opts.nr_pids);
	if (ret)
		goto out;
	ret = cl_check_bpf_ready(CMD);
	if (ret)
		goto out;
	libbpf_set_print(cl_libbpf_print);

	ret = start(&run);
	if (ret < 0)
		ret = run_loop(&run);
out:
	cl_cmd_loop_close(&run.loop);
	if (run.self.stats_fd >= 0)
		close(run.self.stats_fd);
	cl_rows_free(&run.rows);
	cl_preemptors_free(run.preemptors);
	cl_cgroups_free(run.cgroups);
	cl_ledger_free(run.ledger);
	cl_collector_close(run.collector);
	free(opts.pids);
	return ret;
}
