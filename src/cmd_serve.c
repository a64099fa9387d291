// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cpuledger serve: the stat collector as a Prometheus exporter. Collects once
 * per interval into cumulative series (per container, cgroup, pod or process)
 * and serves /metrics and /healthz with libmicrohttpd, driven from the same
 * epoll loop (no threads, no locks).
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/libbpf.h>
#include <microhttpd.h>

#include "cli.h"
#include "core/cgroups.h"
#include "core/collector.h"
#include "core/ledger.h"
#include "core/log.h"
#include "core/loop.h"
#include "core/parse.h"
#include "core/report.h"
#include "core/series.h"
#include "core/system.h"
#include "sinks/prometheus.h"

#define CMD "serve"

/*
 * libmicrohttpd is opened at run time, by serve only: it pulls in GnuTLS and
 * friends, megabytes of resident memory the other commands should not carry.
 */
static struct {
	void *handle;
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_run) *run;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
} mhd;

static int open_mhd(void)
{
	static const char *const names[] = { "libmicrohttpd.so.12", "libmicrohttpd.so" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !mhd.handle; i++)
		mhd.handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!mhd.handle) {
		cl_err("cannot load libmicrohttpd (Debian: apt-get install libmicrohttpd12): %s",
		       dlerror());
		return CL_EXIT_FAIL;
	}
#define SYM(field, name)                                                  \
	do {                                                              \
		*(void **)&mhd.field = dlsym(mhd.handle, name);           \
		if (!mhd.field) {                                         \
			cl_err("libmicrohttpd lacks %s", name);           \
			return CL_EXIT_FAIL;                              \
		}                                                         \
	} while (0)
	SYM(start_daemon, "MHD_start_daemon");
	SYM(stop_daemon, "MHD_stop_daemon");
	SYM(run, "MHD_run");
	SYM(get_daemon_info, "MHD_get_daemon_info");
	SYM(create_response_from_buffer, "MHD_create_response_from_buffer");
	SYM(add_response_header, "MHD_add_response_header");
	SYM(queue_response, "MHD_queue_response");
	SYM(destroy_response, "MHD_destroy_response");
	SYM(lookup_connection_value, "MHD_lookup_connection_value");
#undef SYM
	return 0;
}
#define DEFAULT_LISTEN "127.0.0.1:9645"
#define DEFAULT_EVENTS CL_DEFAULT_EVENTS ",page-allocs,reclaim-ns,reclaims"
#define DEFAULT_MAX_SERIES 10000
#define MAX_TASKS 65536
#define MAX_PROGS 16

struct serve_opts {
	const char *listen;
	int level;
	const char *events;
	uint64_t interval_ns;
	uint64_t grace_ns;
	uint64_t max_series;
	uint32_t *pids;
	size_t nr_pids;
	const char *comm;
	bool verbose;
};

struct serve_run {
	const struct serve_opts *opts;
	struct cl_event_set events;
	struct cl_schema schema;
	struct cl_collector *collector;
	struct cl_ledger *ledger;
	struct cl_rows rows;
	struct cl_series_store series;
	struct cl_cgroups *cgroups;
	struct cl_hotplug_watch hotplug;
	struct MHD_Daemon *httpd;
	int http_fd;
	struct cl_cmd_loop loop;
	uint64_t next_collect;
	struct cl_collector_stats last_stats;
	struct cl_prom_self self;
	struct cl_prom_bpf_prog progs[MAX_PROGS];
	bool healthy;
};

static void usage(FILE *out)
{
	fprintf(out,
"Usage: cpuledger serve [OPTIONS]\n"
"\n"
"Serves Prometheus metrics: on-CPU time, context switches, run-queue waits,\n"
"preemptions, each supported event and page allocations/reclaim, as counters\n"
"per container (default), pod, cgroup or process, plus cpuledger's own health.\n"
"GET /metrics (text format 0.0.4, or OpenMetrics when asked), GET /healthz.\n"
"\n"
"Options:\n"
"  -l, --listen ADDR:PORT  where to listen (default " DEFAULT_LISTEN ", loopback;\n"
"                          0.0.0.0:9645 or [::]:9645 for every interface)\n"
"      --by LEVEL          container (default), pod, cgroup or process\n"
"  -e, --events LIST       events (default " CL_DEFAULT_EVENTS ",\n"
"                          page-allocs,reclaim-ns,reclaims)\n"
"  -i, --interval DUR      how often to collect (default 1s)\n"
"      --grace DUR         drop series idle this long (default 5m)\n"
"      --max-series N      at most N series (default %d); beyond, counted\n"
"  -p, --pid LIST          only these processes\n"
"      --comm NAME         only tasks named NAME\n"
"  -v, --verbose           debug messages, libbpf's included\n"
"  -h, --help              show this help\n"
"\n"
"EXAMPLES:\n"
"  cpuledger serve\n"
"  cpuledger serve --listen 0.0.0.0:9645 --by pod\n"
"  curl -s localhost:9645/metrics | grep cpuledger_oncpu_seconds_total\n",
		DEFAULT_MAX_SERIES);
}

enum {
	OPT_BY = 256,
	OPT_GRACE,
	OPT_MAX_SERIES,
	OPT_COMM,
};

static int parse_args(int argc, char **argv, struct serve_opts *opts)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "by", required_argument, NULL, OPT_BY },
		{ "events", required_argument, NULL, 'e' },
		{ "interval", required_argument, NULL, 'i' },
		{ "grace", required_argument, NULL, OPT_GRACE },
		{ "max-series", required_argument, NULL, OPT_MAX_SERIES },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int opt;

	opts->listen = DEFAULT_LISTEN;
	opts->level = CL_BY_CONTAINER;
	opts->events = DEFAULT_EVENTS;
	opts->interval_ns = NSEC_PER_SEC;
	opts->grace_ns = 300 * NSEC_PER_SEC;
	opts->max_series = DEFAULT_MAX_SERIES;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":l:e:i:p:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			opts->listen = optarg;
			break;
		case OPT_BY:
			opts->level = cl_row_level_parse(optarg);
			if (opts->level < 0 || opts->level == CL_BY_THREAD)
				return cl_usage_error(CMD, "--by '%s': use container, pod, cgroup "
							   "or process", optarg);
			break;
		case 'e':
			opts->events = optarg;
			break;
		case 'i':
			if (cl_duration_arg(CMD, "interval", optarg, &opts->interval_ns))
				return CL_EXIT_USAGE;
			break;
		case OPT_GRACE:
			if (cl_duration_arg(CMD, "grace", optarg, &opts->grace_ns))
				return CL_EXIT_USAGE;
			break;
		case OPT_MAX_SERIES:
			if (cl_parse_u64(optarg, &opts->max_series) || !opts->max_series)
				return cl_usage_error(CMD, "--max-series '%s' is not %s", optarg,
						      "a positive number");
			break;
		case 'p':
			free(opts->pids);
			opts->pids = NULL;
			if (cl_parse_pid_list(optarg, &opts->pids, &opts->nr_pids))
				return cl_usage_error(CMD, "invalid PID list '%s'", optarg);
			break;
		case OPT_COMM:
			opts->comm = optarg;
			break;
		case 'v':
			opts->verbose = true;
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

static int parse_listen(const char *text, struct sockaddr_storage *addr, bool *ipv6);

static int check_listen(const char *text)
{
	struct sockaddr_storage addr;
	bool ipv6;

	if (!parse_listen(text, &addr, &ipv6))
		return -1;
	return cl_usage_error(CMD, "--listen '%s': expected ADDR:PORT, e.g. 127.0.0.1:9645",
			      text);
}

/* "127.0.0.1:9645", "0.0.0.0:9645", "[::1]:9645", ":9645" (every interface). */
static int parse_listen(const char *text, struct sockaddr_storage *addr, bool *ipv6)
{
	char host[128];
	const char *colon = strrchr(text, ':');
	uint32_t port;

	if (!colon || cl_parse_u32(colon + 1, &port) || port == 0 || port > 65535 ||
	    (size_t)(colon - text) >= sizeof(host))
		return -EINVAL;
	memcpy(host, text, (size_t)(colon - text));
	host[colon - text] = '\0';
	memset(addr, 0, sizeof(*addr));
	if (host[0] == '[') {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)addr;
		size_t len = strlen(host);

		if (len < 3 || host[len - 1] != ']')
			return -EINVAL;
		host[len - 1] = '\0';
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*ipv6 = true;
		return inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1 ? 0 : -EINVAL;
	}
	struct sockaddr_in *in4 = (struct sockaddr_in *)addr;

	in4->sin_family = AF_INET;
	in4->sin_port = htons((uint16_t)port);
	*ipv6 = false;
	if (!host[0]) {
		in4->sin_addr.s_addr = htonl(INADDR_ANY);
		return 0;
	}
	return inet_pton(AF_INET, host, &in4->sin_addr) == 1 ? 0 : -EINVAL;
}

static const char *cgroup_name(void *ctx, uint64_t id)
{
	struct serve_run *run = ctx;
	const char *path = run->cgroups ? cl_cgroups_path(run->cgroups, id) : NULL;

	return path ? path : "";
}

static void update_self(struct serve_run *run)
{
	struct cl_collector_stats stats;
	struct cl_ledger_stats lstats;
	struct rusage ru;
	long pages = 0;
	FILE *f;

	cl_collector_get_stats(run->collector, &stats);
	cl_ledger_get_stats(run->ledger, &lstats);
	run->self.cpus_online = cl_cpumask_weight(cl_collector_online(run->collector));
	run->self.cpus_possible = cl_collector_nr_cpus(run->collector);
	run->self.lost_exit_records = stats.bpf[CL_STAT_EXIT_DROPS];
	run->self.untracked_tasks = lstats.untracked + run->rows.overflow;
	run->self.lost_counter_charges =
		stats.bpf[CL_STAT_STORAGE_FAILS] + stats.bpf[CL_STAT_PERCPU_FULL];
	run->self.lost_cgroup_records = stats.bpf[CL_STAT_CGROUP_DROPS];
	run->self.series_cut = run->series.cut;
	run->self.series_expired = run->series.expired;
	getrusage(RUSAGE_SELF, &ru);
	run->self.process_cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
					(double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	f = fopen("/proc/self/statm", "re");
	if (f) {
		if (fscanf(f, "%*d %ld", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	run->self.process_rss_bytes = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
	if (cl_bpf_stats_enabled()) {
		struct cl_prog_stat stats_out[MAX_PROGS];
		size_t n = cl_collector_prog_stats(run->collector, stats_out, MAX_PROGS);

		for (size_t i = 0; i < n; i++) {
			run->progs[i].name = stats_out[i].name;
			run->progs[i].run_ns = stats_out[i].run_ns;
			run->progs[i].runs = stats_out[i].runs;
		}
		run->self.progs = run->progs;
		run->self.nr_progs = n;
	} else {
		run->self.progs = NULL;
		run->self.nr_progs = 0;
	}
}

static void on_cpu_change(void *ctx, unsigned int cpu, bool online)
{
	struct serve_run *run = ctx;

	run->self.hotplug_events++;
}

static int collect(struct serve_run *run)
{
	uint64_t start = cl_now_mono_ns();
	int err;

	cl_hotplug_sync(&run->hotplug);
	cl_cgroups_refresh_allowed(run->cgroups);
	err = cl_collector_pass(run->collector, run->ledger);
	if (err) {
		if (run->healthy)
			cl_err("reading task totals from the kernel: %s", strerror(-err));
		run->healthy = false;
		cl_rows_reset(&run->rows);
		return err;
	}
	run->healthy = true;
	cl_series_add_rows(&run->series, &run->rows, start);
	cl_series_expire(&run->series, start);
	cl_rows_reset(&run->rows);
	run->self.collections++;
	run->self.collect_seconds = (double)(cl_now_mono_ns() - start) / NSEC_PER_SEC;
	update_self(run);
	return 0;
}

static enum MHD_Result respond(struct MHD_Connection *conn, unsigned int status, char *body,
			       size_t len, const char *type, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *response;
	enum MHD_Result ret;

	response = mhd.create_response_from_buffer(len, body, mode);
	if (!response)
		return MHD_NO;
	mhd.add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(response, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue_response(conn, status, response);
	mhd.destroy_response(response);
	return ret;
}

static enum MHD_Result respond_text(struct MHD_Connection *conn, unsigned int status,
				    const char *text)
{
	return respond(conn, status, (char *)text, strlen(text), "text/plain; charset=utf-8",
		       MHD_RESPMEM_PERSISTENT);
}

static enum MHD_Result serve_metrics(struct serve_run *run, struct MHD_Connection *conn)
{
	const char *accept = mhd.lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");
	struct cl_prom_view view = {
		.schema = &run->schema,
		.openmetrics = accept && strstr(accept, "application/openmetrics-text"),
		.cgroup_name = cgroup_name,
		.ctx = run,
	};
	uint64_t start = cl_now_mono_ns();
	const struct cl_series **series;
	char *body = NULL;
	size_t len = 0, n;
	FILE *out;
	int err;

	n = cl_series_sorted(&run->series, &series);
	out = open_memstream(&body, &len);
	if (!out) {
		free(series);
		return respond_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	}
	err = cl_prom_render(out, &view, series, n, &run->self);
	fclose(out);
	free(series);
	run->self.scrape_seconds = (double)(cl_now_mono_ns() - start) / NSEC_PER_SEC;
	if (err) {
		free(body);
		return respond_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "rendering failed\n");
	}
	return respond(conn, MHD_HTTP_OK, body, len,
		       view.openmetrics ? CL_OPENMETRICS_CONTENT_TYPE : CL_PROM_CONTENT_TYPE,
		       MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result on_request(void *ctx, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload_data,
				  size_t *upload_data_size, void **state)
{
	struct serve_run *run = ctx;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return respond_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	/* A GET with a body: take it in and drop it, then answer. */
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!strcmp(url, "/metrics"))
		return serve_metrics(run, conn);
	if (!strcmp(url, "/healthz"))
		return run->healthy ? respond_text(conn, MHD_HTTP_OK, "ok\n")
				    : respond_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
						   "collection failing\n");
	if (!strcmp(url, "/"))
		return respond_text(conn, MHD_HTTP_OK,
				    "cpuledger: /metrics (Prometheus), /healthz\n");
	return respond_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n");
}

static void mhd_log(void *ctx, const char *fmt, va_list args)
{
	if (cl_log_get_level() >= CL_LOG_DEBUG)
		vfprintf(stderr, fmt, args);
}

static int on_http(void *ctx, uint32_t events)
{
	struct serve_run *run = ctx;

	mhd.run(run->httpd);
	return 0;
}

static int on_timer(void *ctx, uint32_t events)
{
	struct serve_run *run = ctx;
	uint64_t now = cl_now_mono_ns();

	cl_timerfd_ack(run->loop.timer_fd);
	if (now >= run->next_collect) {
		collect(run);
		while (run->next_collect <= now)
			run->next_collect += run->opts->interval_ns;
	}
	mhd.run(run->httpd); /* connection timeouts */
	return cl_timerfd_at(run->loop.timer_fd, run->next_collect);
}

static int on_exits(void *ctx, uint32_t events)
{
	struct serve_run *run = ctx;

	cl_collector_drain_exits(run->collector, run->ledger);
	return 0;
}

static int start_http(struct serve_run *run)
{
	struct sockaddr_storage addr;
	const union MHD_DaemonInfo *info;
	bool ipv6 = false;

	parse_listen(run->opts->listen, &addr, &ipv6); /* checked with the options */
	run->httpd = mhd.start_daemon(
		MHD_USE_EPOLL | MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_IPv6 : 0), 0, NULL, NULL,
		on_request, run, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
		MHD_OPTION_CONNECTION_LIMIT, 64U, MHD_OPTION_PER_IP_CONNECTION_LIMIT, 16U,
		MHD_OPTION_CONNECTION_TIMEOUT, 10U, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)(64 << 10), MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_END);
	if (!run->httpd) {
		cl_err("cannot listen on %s: %s", run->opts->listen, strerror(errno));
		return CL_EXIT_FAIL;
	}
	info = mhd.get_daemon_info(run->httpd, MHD_DAEMON_INFO_EPOLL_FD);
	if (!info) {
		cl_err("the HTTP library has no epoll support");
		return CL_EXIT_FAIL;
	}
	run->http_fd = info->epoll_fd;
	return 0;
}

static int run_loop(struct serve_run *run)
{
	int err;

	if (cl_cmd_loop_open(&run->loop, on_timer, run))
		return CL_EXIT_FAIL;
	err = cl_cmd_loop_add(&run->loop, run->http_fd, on_http, run);
	if (!err)
		err = cl_cmd_loop_add(&run->loop, cl_collector_exit_fd(run->collector), on_exits,
				      run);
	run->hotplug.on_change = on_cpu_change;
	run->hotplug.ctx = run;
	if (!err)
		err = cl_hotplug_watch_start(&run->hotplug, run->loop.loop, run->collector,
					     "counters");
	if (!err) {
		run->next_collect = cl_now_mono_ns() + run->opts->interval_ns;
		err = cl_timerfd_at(run->loop.timer_fd, run->next_collect);
	}
	if (err) {
		cl_err("setting up the event loop: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	cl_info("serving metrics on http://%s/metrics", run->opts->listen);
	err = cl_cmd_loop_run(&run->loop);
	cl_hotplug_watch_stop(&run->hotplug);
	return err;
}

static int start(struct serve_run *run)
{
	const struct serve_opts *opts = run->opts;
	struct cl_collector_opts copts = {
		.pids = opts->pids,
		.nr_pids = opts->nr_pids,
		.comm = opts->comm,
		.max_tasks = MAX_TASKS,
		.events = &run->events,
		.sysfs_root = "/sys",
	};
	struct cl_ledger_opts lopts = {
		.max_tasks = MAX_TASKS,
		.on_delta = cl_rows_add,
		.delta_ctx = &run->rows,
	};
	char errmsg[512];
	int err;

	run->cgroups = cl_cgroups_new(NULL, 0);
	if (!run->cgroups) {
		cl_err("out of memory");
		return CL_EXIT_FAIL;
	}
	if (!cl_cgroups_mount(run->cgroups))
		cl_warn("no cgroup2 hierarchy mounted: cgroup labels stay empty");
	copts.cgroups = run->cgroups;
	err = cl_collector_open(&run->collector, &copts, errmsg, sizeof(errmsg));
	if (err) {
		cl_err("%s", errmsg);
		return CL_EXIT_FAIL;
	}
	cl_announce_unsupported(&run->events, false);
	if (!cl_collector_has_sched_info(run->collector)) {
		cl_warn("this kernel keeps no run-queue delays (CONFIG_SCHED_INFO): "
			"no run-queue metrics");
		for (size_t i = 0; i < run->schema.count; i++)
			run->schema.cols[i].unsupported |= run->schema.cols[i].runq;
	}
	lopts.start_ns = cl_now_mono_ns();
	run->ledger = cl_ledger_new(&lopts);
	if (!run->ledger ||
	    cl_rows_init(&run->rows, (enum cl_row_level)opts->level, false, MAX_TASKS) ||
	    cl_series_init(&run->series, opts->max_series, opts->grace_ns)) {
		cl_err("out of memory");
		return CL_EXIT_FAIL;
	}
	run->rows.cgroups = run->cgroups;
	run->self.version = CPULEDGER_VERSION;
	run->self.process_start_seconds = (double)cl_now_real_ns() / NSEC_PER_SEC;
	/* The baseline: what happened before we started is nobody's counter. */
	err = cl_collector_pass(run->collector, run->ledger);
	if (err) {
		cl_err("reading task totals from the kernel: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	cl_rows_reset(&run->rows);
	run->healthy = true;
	update_self(run);
	return -1;
}

int cmd_serve(int argc, char **argv)
{
	struct serve_opts opts = {};
	struct serve_run run = { .opts = &opts, .loop = { .signal_fd = -1, .timer_fd = -1 },
				 .hotplug = { .fd = -1 } };
	const char *bad = NULL;
	int ret;

	cl_log_set_prefix("cpuledger " CMD);
	ret = parse_args(argc, argv, &opts);
	if (ret < 0)
		ret = check_listen(opts.listen);
	if (ret >= 0)
		goto out;
	if (opts.verbose)
		cl_log_set_level(CL_LOG_DEBUG);
	ret = cl_events_parse(opts.events, &run.events, &bad);
	if (ret) {
		ret = ret == -ENOENT ? cl_usage_error_see(CMD, "cpuledger stat --list-events",
							  "unknown event '%s'", bad)
				     : cl_usage_error(CMD, "invalid event list '%s'", opts.events);
		goto out;
	}
	cl_schema_build_by(&run.schema, &run.events, (enum cl_row_level)opts.level, false);
	ret = cl_check_bpf_ready(CMD);
	if (ret)
		goto out;
	libbpf_set_print(cl_libbpf_print);
	ret = start(&run);
	if (ret >= 0)
		goto out;
	ret = open_mhd();
	if (!ret)
		ret = start_http(&run);
	if (!ret)
		ret = run_loop(&run);
out:
	if (run.httpd)
		mhd.stop_daemon(run.httpd);
	if (mhd.handle)
		dlclose(mhd.handle);
	cl_cmd_loop_close(&run.loop);
	cl_series_free(&run.series);
	cl_rows_free(&run.rows);
	cl_ledger_free(run.ledger);
	cl_collector_close(run.collector);
	cl_cgroups_free(run.cgroups);
	free(opts.pids);
	return ret;
}
