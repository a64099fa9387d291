// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What `record` and `trace` share: events, sinks, the collector in stream
 * mode, and one loop over signals, the ring buffer, a flush timer and CPU
 * hotplug. Each command parses its own options into a struct stream_cmd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "core/collector.h"
#include "core/log.h"
#include "core/loop.h"
#include "core/parse.h"
#include "core/stream.h"
#include "core/system.h"
#include "sinks/stream.h"
#include "stream_cmd.h"

/* How often records are flushed (committed, written) and CPUs re-checked. */
#define FLUSH_NS (200 * NSEC_PER_MSEC)

struct stream_run {
	struct stream_cmd *cmd;
	struct cl_event_set events;
	struct cl_stream_schema schema;
	struct cl_stream_sink sink;
	struct cl_collector *collector;
	struct cl_hotplug_watch hotplug;
	struct cl_stream_summary summary;
	uint64_t *lost;		/* [nr_cpus] */
	uint64_t *ticks;	/* [nr_cpus] */
	char host[256];
	char kernel[256];
	char online_list[1024];
	char filter[256];
	struct cl_cmd_loop loop;
	uint64_t next_flush;
	uint64_t end_mono;
	int sink_err;		/* first error from the sink */
	int result;
};

int stream_cmd_parse_common(struct stream_cmd *cmd, int opt, const char *arg)
{
	int err;

	switch (opt) {
	case 'd':
		if (cl_duration_arg(cmd->name, "duration", arg, &cmd->duration_ns))
			return CL_EXIT_USAGE;
		return -1;
	case 'p':
		free(cmd->pids);
		cmd->pids = NULL;
		err = cl_parse_pid_list(arg, &cmd->pids, &cmd->nr_pids);
		if (err)
			return cl_usage_error(cmd->name, "invalid PID list '%s': %s", arg,
					      "expected PIDs like 123,456");
		return -1;
	case STREAM_OPT_COMM:
		if (!*arg)
			return cl_usage_error(cmd->name, "--comm needs a name");
		cmd->comm = arg;
		return -1;
	case 'e':
		cmd->events = arg;
		return -1;
	case 'f':
		cmd->format = arg;
		return -1;
	case 'o':
		cmd->output = arg;
		return -1;
	case STREAM_OPT_RING:
		if (cl_parse_size(arg, &cmd->ring_bytes) || cmd->ring_bytes < 4096 ||
		    cmd->ring_bytes > (1ULL << 30) || (cmd->ring_bytes & (cmd->ring_bytes - 1)))
			return cl_usage_error(cmd->name, "--ring-size '%s' must be %s", arg,
					      "a power of two, 4K..1G");
		return -1;
	case 'v':
		cmd->verbose = true;
		return -1;
	}
	return -2;
}

static int check_events(struct stream_run *run)
{
	const char *bad = NULL, *name = run->cmd->name;
	int err;

	/* No events at all is fine for streams: times and tasks only. */
	err = *run->cmd->events ? cl_events_parse(run->cmd->events, &run->events, &bad) : 0;
	switch (err) {
	case 0:
		break;
	case -ENOENT:
		return cl_usage_error_see(name, "cpuledger stat --list-events",
					  "unknown event '%s'", bad);
	case -EEXIST:
		return cl_usage_error(name, "event '%s' is listed twice", bad);
	case -E2BIG:
		return cl_usage_error(name, "too many events: at most %d perf counters",
				      CL_MAX_COUNTERS);
	default:
		return cl_usage_error(name, "invalid event list '%s'", run->cmd->events);
	}
	/* Streams carry counter deltas: every event is a perf counter here. */
	cl_events_use_perf(&run->events);
	if (run->events.count > CL_MAX_COUNTERS)
		return cl_usage_error(name, "too many events: at most %d perf counters",
				      CL_MAX_COUNTERS);
	return -1;
}

static const struct cl_stream_sink_ops *pick_sink(struct stream_run *run)
{
	const char *format = run->cmd->format;

	if (!strcmp(format, "csv"))
		return &cl_stream_csv_ops;
	if (!strcmp(format, "json"))
		return &cl_stream_jsonl_ops;
	if (run->cmd->mode == CL_MODE_RECORD && !strcmp(format, "sqlite"))
		return &cl_stream_sqlite_ops;
	if (run->cmd->mode == CL_MODE_TRACE && !strcmp(format, "text"))
		return &cl_trace_text_ops;
	return NULL;
}

/* Like perf record: an existing database is kept as FILE.old, not overwritten. */
static int prepare_database(const char *path)
{
	char old[4096], side[4096];
	static const char *const sides[] = { "-wal", "-shm", "-journal" };

	if (access(path, F_OK))
		return 0;
	snprintf(old, sizeof(old), "%s.old", path);
	if (rename(path, old)) {
		cl_err("cannot move the existing %s aside: %s", path, strerror(errno));
		return CL_EXIT_FAIL;
	}
	for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", path, sides[i]);
		unlink(side);
	}
	cl_info("%s existed: kept as %s", path, old);
	return 0;
}

static void update_summary(struct stream_run *run)
{
	cl_collector_ring_drops(run->collector, run->lost);
	cl_collector_ticks(run->collector, run->ticks);
	cl_cpulist_format(cl_collector_online(run->collector), run->online_list,
			  sizeof(run->online_list));
	run->summary.cpus_online = cl_cpumask_weight(cl_collector_online(run->collector));
	run->summary.records = run->sink.records;
}

static void sink_failed(struct stream_run *run, int err)
{
	if (run->sink_err)
		return;
	run->sink_err = err;
	if (err == -EPIPE)
		return; /* the reader went away: end quietly */
	if (run->sink.ops == &cl_stream_sqlite_ops)
		cl_err("writing %s: %s", run->cmd->output, cl_stream_sqlite_error(&run->sink));
	else
		cl_err("writing output: %s", strerror(-err));
}

static int on_record(void *ctx, const void *record, size_t size)
{
	struct stream_run *run = ctx;
	int err;

	if (run->sink_err || !cl_stream_record_valid(&run->schema, record, size))
		return 0;
	err = run->sink.ops->record(&run->sink, record);
	if (err) {
		sink_failed(run, err);
		return err; /* stops ring_buffer__consume */
	}
	return 0;
}

static int flush(struct stream_run *run)
{
	int err;

	if (run->sink_err)
		return run->sink_err;
	update_summary(run);
	err = run->sink.ops->flush(&run->sink, &run->summary);
	if (err)
		sink_failed(run, err);
	return err;
}

static int consume(struct stream_run *run)
{
	int n = cl_collector_stream_consume(run->collector);

	if (run->sink_err)
		return run->sink_err;
	if (n < 0) {
		cl_err("reading records from the kernel: %s", strerror(-n));
		return n;
	}
	/* Losses as of this batch, for text headers printed before the next flush. */
	if (n > 0)
		cl_collector_ring_drops(run->collector, run->lost);
	return 0;
}

/* A CPU went or came (the collector already followed it): remember it. */
static void on_cpu_change(void *ctx, unsigned int cpu, bool online)
{
	struct stream_run *run = ctx;

	run->summary.hotplug_events++;
	if (run->sink.ops->cpu_change && !run->sink_err) {
		int err = run->sink.ops->cpu_change(&run->sink, cl_now_mono_ns(), cpu, online);

		if (err)
			sink_failed(run, err);
	}
}

static int stop_with(struct stream_run *run, int code)
{
	run->result = code;
	return CL_LOOP_STOP;
}

static int on_ring(void *ctx, uint32_t events)
{
	struct stream_run *run = ctx;

	if (consume(run))
		return stop_with(run, run->sink_err == -EPIPE ? CL_EXIT_OK : CL_EXIT_FAIL);
	return 0;
}

static int on_timer(void *ctx, uint32_t events)
{
	struct stream_run *run = ctx;
	uint64_t now = cl_now_mono_ns(), at;

	cl_timerfd_ack(run->loop.timer_fd);
	if (consume(run))
		return stop_with(run, run->sink_err == -EPIPE ? CL_EXIT_OK : CL_EXIT_FAIL);
	cl_hotplug_sync(&run->hotplug);
	if (flush(run))
		return stop_with(run, run->sink_err == -EPIPE ? CL_EXIT_OK : CL_EXIT_FAIL);
	if (run->end_mono && now >= run->end_mono)
		return stop_with(run, CL_EXIT_OK);
	while (run->next_flush <= now)
		run->next_flush += FLUSH_NS;
	at = run->next_flush;
	if (run->end_mono && run->end_mono < at)
		at = run->end_mono;
	cl_timerfd_at(run->loop.timer_fd, at);
	return 0;
}

static void describe_filter(struct stream_run *run)
{
	struct stream_cmd *cmd = run->cmd;
	size_t used = 0;

	if (!cmd->nr_pids && !cmd->comm) {
		snprintf(run->filter, sizeof(run->filter), "all tasks");
		return;
	}
	for (size_t i = 0; i < cmd->nr_pids && used < sizeof(run->filter); i++)
		used += (size_t)snprintf(run->filter + used, sizeof(run->filter) - used, "%spid %u",
					 i ? ", " : "", cmd->pids[i]);
	if (cmd->comm && used < sizeof(run->filter))
		snprintf(run->filter + used, sizeof(run->filter) - used, "%scomm %s",
			 used ? ", " : "", cmd->comm);
}

static int open_everything(struct stream_run *run, const struct cl_stream_sink_ops *ops)
{
	struct stream_cmd *cmd = run->cmd;
	struct cl_collector_opts copts = {
		.mode = cmd->mode,
		.pids = cmd->pids,
		.nr_pids = cmd->nr_pids,
		.comm = cmd->comm,
		.max_tasks = 1,
		.stream_ring_bytes = (size_t)cmd->ring_bytes,
		.slice_ns = cmd->slice_ns,
		.process_comm = cmd->mode == CL_MODE_RECORD && !cmd->threads,
		.events = &run->events,
		.sysfs_root = "/sys",
		.on_record = on_record,
		.record_ctx = run,
	};
	struct utsname uts;
	char errmsg[512];
	unsigned int nr_cpus;
	FILE *out = stdout;
	int err;

	err = cl_collector_open(&run->collector, &copts, errmsg, sizeof(errmsg));
	if (err) {
		cl_err("%s", errmsg);
		return CL_EXIT_FAIL;
	}
	cl_announce_unsupported(&run->events, true);
	nr_cpus = cl_collector_nr_cpus(run->collector);
	run->lost = calloc(nr_cpus, sizeof(*run->lost));
	run->ticks = calloc(nr_cpus, sizeof(*run->ticks));
	if (!run->lost || !run->ticks) {
		cl_err("out of memory");
		return CL_EXIT_FAIL;
	}

	uname(&uts);
	gethostname(run->host, sizeof(run->host) - 1);
	snprintf(run->kernel, sizeof(run->kernel), "%s %s %s", uts.sysname, uts.release,
		 uts.machine);
	describe_filter(run);
	run->summary = (struct cl_stream_summary){
		.version = CPULEDGER_VERSION,
		.host = run->host,
		.kernel = run->kernel,
		.start_mono_ns = cl_now_mono_ns(),
		.start_real_ns = cl_now_real_ns(),
		.slice_ns = cmd->mode == CL_MODE_RECORD ? cmd->slice_ns : 0,
		.filter = run->filter,
		.events = &run->events,
		.nr_cpus = nr_cpus,
		.cpus_online_list = run->online_list,
		.lost = run->lost,
		.ticks = run->ticks,
	};
	run->schema.realtime_offset_ns =
		(int64_t)(run->summary.start_real_ns - run->summary.start_mono_ns);
	update_summary(run);

	if (cmd->output && ops != &cl_stream_sqlite_ops) {
		out = fopen(cmd->output, "we");
		if (!out) {
			cl_err("cannot open %s: %s", cmd->output, strerror(errno));
			return CL_EXIT_FAIL;
		}
	}
	run->sink.ops = ops;
	run->sink.schema = &run->schema;
	run->sink.out = out;
	run->sink.path = cmd->output;
	run->sink.summary = &run->summary;
	err = ops->start(&run->sink, &run->summary);
	if (err) {
		sink_failed(run, err);
		return err == -EPIPE ? CL_EXIT_OK : CL_EXIT_FAIL;
	}
	return -1;
}

static int loop(struct stream_run *run)
{
	int err;

	if (cl_cmd_loop_open(&run->loop, on_timer, run))
		return CL_EXIT_FAIL;
	err = cl_cmd_loop_add(&run->loop, cl_collector_stream_fd(run->collector), on_ring, run);
	run->hotplug.on_change = on_cpu_change;
	run->hotplug.ctx = run;
	if (!err)
		err = cl_hotplug_watch_start(&run->hotplug, run->loop.loop, run->collector,
					     run->cmd->mode == CL_MODE_RECORD ? "counters and tick"
									     : "counters");
	if (!err) {
		run->next_flush = cl_now_mono_ns() + FLUSH_NS;
		run->end_mono = run->cmd->duration_ns ? run->summary.start_mono_ns +
								run->cmd->duration_ns
						      : 0;
		err = cl_timerfd_at(run->loop.timer_fd,
				    run->end_mono && run->end_mono < run->next_flush
					    ? run->end_mono
					    : run->next_flush);
	}
	if (err) {
		cl_err("setting up the event loop: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	if (isatty(STDERR_FILENO))
		cl_info("%s; Ctrl-C to stop", run->cmd->mode == CL_MODE_RECORD ? "recording"
										: "tracing");
	err = cl_cmd_loop_run(&run->loop);
	cl_hotplug_watch_stop(&run->hotplug);
	/* A signal ends the run cleanly: finish() writes what was collected. */
	return err ? err : run->loop.signal ? CL_EXIT_OK : run->result;
}

/* Drains what is left, writes the summary and closes the sink. */
static int finish(struct stream_run *run, int code)
{
	uint64_t lost = 0;
	int err;

	if (!run->sink.ops || !run->collector)
		return code;
	if (!run->sink_err)
		consume(run);
	update_summary(run);
	run->summary.end_real_ns = cl_now_real_ns();
	/* Finish even after an error: it commits what it can and frees. */
	err = run->sink.ops->finish(&run->sink, &run->summary);
	if (run->sink_err)
		err = run->sink_err;
	if (err && err != -EPIPE) {
		sink_failed(run, err);
		code = CL_EXIT_FAIL;
	}
	if (run->sink.out && run->sink.out != stdout)
		fclose(run->sink.out);
	for (unsigned int cpu = 0; cpu < run->summary.nr_cpus; cpu++)
		lost += run->lost[cpu];
	if (err != -EPIPE)
		cl_info("%llu %s written%s%s, %llu lost (ring buffer full)%s",
			(unsigned long long)run->sink.records,
			run->cmd->mode == CL_MODE_RECORD ? "slices" : "switches",
			run->cmd->output ? " to " : "", run->cmd->output ? run->cmd->output : "",
			(unsigned long long)lost,
			lost ? "; try a bigger --ring-size, or filter with -p/--comm" : "");
	return code;
}

int stream_cmd_run(struct stream_cmd *cmd)
{
	struct stream_run run = { .cmd = cmd, .loop = { .signal_fd = -1, .timer_fd = -1 },
				  .hotplug = { .fd = -1 } };
	const struct cl_stream_sink_ops *ops;
	int ret;

	if (cmd->verbose)
		cl_log_set_level(CL_LOG_DEBUG);
	ret = check_events(&run);
	if (ret >= 0)
		goto out;
	ops = pick_sink(&run);
	if (!ops) {
		ret = cl_usage_error(cmd->name, "unknown format '%s': use %s", cmd->format,
				     cmd->mode == CL_MODE_RECORD ? "sqlite, csv or json"
								 : "text, csv or json");
		goto out;
	}
	if (ops == &cl_stream_sqlite_ops && !cmd->output) {
		ret = cl_usage_error(cmd->name, "-o FILE is needed for the SQLite database "
						"(or -f csv for CSV on stdout)");
		goto out;
	}
	cl_stream_schema_build(&run.schema, cmd->mode, &run.events);
	ret = cl_check_pids(cmd->name, cmd->pids, cmd->nr_pids);
	if (ret)
		goto out;
	ret = cl_check_bpf_ready(cmd->name);
	if (ret)
		goto out;
	if (ops == &cl_stream_sqlite_ops) {
		ret = prepare_database(cmd->output);
		if (ret)
			goto out;
	}
	libbpf_set_print(cl_libbpf_print);
	ret = open_everything(&run, ops);
	if (ret < 0)
		ret = loop(&run);
	ret = finish(&run, ret);
out:
	cl_cmd_loop_close(&run.loop);
	cl_collector_close(run.collector);
	free(run.lost);
	free(run.ticks);
	free(cmd->pids);
	return ret;
}
