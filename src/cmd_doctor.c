// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cpuledger doctor: what this machine supports, line by line, and whether
 * cpuledger can run here (exit 0) or not (exit 1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "core/collector.h"
#include "core/cpus.h"
#include "core/events.h"
#include "core/log.h"
#include "core/perf.h"
#include "core/system.h"

#define CMD "doctor"

static void usage(FILE *out)
{
	fprintf(out,
"Usage: cpuledger doctor [-v]\n"
"\n"
"Reports what this machine offers cpuledger, line by line: kernel and BTF,\n"
"privileges, the tracepoints and BPF features used, each event (counted or\n"
"why not), CPUs possible/online/hotpluggable and the cgroup layout. Loads the\n"
"real BPF programs once to prove they load. Exits 0 when cpuledger can run.\n"
"\n"
"Options:\n"
"  -v, --verbose   show libbpf's messages (the verifier log on failure)\n"
"  -h, --help      show this help\n"
"\n"
"EXAMPLES:\n"
"  cpuledger doctor\n"
"  cpuledger doctor -v 2>&1 | less\n");
}

static void line(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(const char *what, const char *fmt, ...)
{
	va_list args;

	printf("%-14s ", what);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	putchar('\n');
}

static const char *yes_no(bool value)
{
	return value ? "yes" : "no";
}

static int read_sysctl(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -EIO;
	}
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return 0;
}

static bool btf_has(const struct btf *btf, const char *name, int kind)
{
	return btf && btf__find_by_name_kind(btf, name, kind) > 0;
}

static void report_tracepoints(const struct btf *btf)
{
	static const char *const tracepoints[] = { "sched_switch" };
	char name[64];

	for (size_t i = 0; i < sizeof(tracepoints) / sizeof(tracepoints[0]); i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", tracepoints[i]);
		line("tracepoint", "sched:%s %s", tracepoints[i],
		     btf_has(btf, name, BTF_KIND_TYPEDEF) ? "yes (tp_btf)" : "NO");
	}
}

static void report_sched_fields(const struct btf *btf)
{
	line("sched_info", "%s (run-queue delay per task, CONFIG_SCHED_INFO)",
	     btf_has(btf, "sched_info", BTF_KIND_STRUCT) ? "yes" : "no");
}

/* Opens each known event on one online CPU and says what happened. */
static void report_events(const struct cl_cpumask *online)
{
	const struct cl_event_def *defs;
	unsigned int cpu;
	size_t count;

	for (cpu = 0; cpu < CL_MAX_CPUS && !cl_cpumask_test(online, cpu); cpu++)
		;
	defs = cl_event_defs(&count);
	for (size_t i = 0; i < count; i++) {
		struct cl_event event = { .def = &defs[i] };
		struct perf_event_attr attr;
		bool is_default = strstr("," CL_DEFAULT_EVENTS ",", defs[i].name) != NULL;
		char what[48];
		int fd;

		cl_event_attr(&defs[i], &attr);
		fd = cl_perf_event_open(&attr, -1, (int)cpu);
		if (fd >= 0)
			close(fd);
		event.open_errno = fd < 0 ? -fd : 0;
		snprintf(what, sizeof(what), "%s%s", defs[i].name, is_default ? " *" : "");
		if (defs[i].task_field != CL_TF_NONE)
			printf("  %-28s counted (kernel per-task counter); perf counter: %s\n",
			       what, fd >= 0 ? "yes" : cl_event_open_reason(&event));
		else if (fd >= 0)
			printf("  %-28s counted (perf counter)\n", what);
		else
			printf("  %-28s NOT counted: %s\n", what, cl_event_open_reason(&event));
	}
	printf("  (* default event)\n");
}

static void report_cpus(struct cl_cpumask *online)
{
	struct cl_cpumask possible = {}, hotplug = {};
	char plist[256], olist[256], hlist[256];
	unsigned int cpu;

	cl_cpus_read("/sys", "possible", &possible);
	cl_cpus_read("/sys", "online", online);
	for (cpu = 0; cpu < cl_cpumask_span(&possible); cpu++) {
		if (cl_cpu_hotpluggable("/sys", cpu))
			cl_cpumask_set(&hotplug, cpu);
	}
	cl_cpulist_format(&possible, plist, sizeof(plist));
	cl_cpulist_format(online, olist, sizeof(olist));
	cl_cpulist_format(&hotplug, hlist, sizeof(hlist));
	line("cpus", "possible %s (%u), online %s (%u), hotpluggable %s", plist,
	     cl_cpumask_weight(&possible), olist, cl_cpumask_weight(online),
	     hlist[0] ? hlist : "none");
}

static void report_cgroups(void)
{
	char path[4096];
	bool v1 = cl_cgroup1_mounted();

	if (cl_cgroup2_mount(path, sizeof(path)) == 0)
		line("cgroup", "v2 at %s%s", path,
		     v1 ? " (hybrid: v1 controllers mounted too)" : " (unified)");
	else
		line("cgroup", "no cgroup2 mount%s: cgroup ids will be 0 or the root",
		     v1 ? " (v1 only)" : "");
}

/* The real thing: load and attach what `stat` loads, run one pass. */
static bool try_load(void)
{
	struct cl_event_set events;
	struct cl_collector *collector = NULL;
	struct cl_collector_opts opts = { .max_tasks = 1024,
					  .events = &events,
					  .sysfs_root = "/sys" };
	struct cl_ledger_opts lopts = { .max_tasks = 1024, .on_delta = NULL };
	struct cl_ledger *ledger;
	const char *bad;
	char errmsg[512];
	int err;

	cl_events_parse("page-faults", &events, &bad);
	err = cl_collector_open(&collector, &opts, errmsg, sizeof(errmsg));
	if (err) {
		line("bpf", "programs do NOT load: %s", errmsg);
		return false;
	}
	ledger = cl_ledger_new(&lopts);
	err = ledger ? cl_collector_pass(collector, ledger) : -ENOMEM;
	if (err)
		line("bpf", "programs load, but reading tasks failed: %s", strerror(-err));
	else
		line("bpf", "programs load and attach: sched_switch, task iterator, exit ring "
			    "buffer, task storage");
	cl_ledger_free(ledger);
	cl_collector_close(collector);
	return !err;
}

int cmd_doctor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct cl_cpumask online = {};
	struct btf *btf = NULL;
	struct utsname uts;
	char value[64];
	bool privileged, have_btf, ready;
	int opt;

	cl_log_set_prefix("cpuledger " CMD);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'v':
			cl_log_set_level(CL_LOG_DEBUG);
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
	libbpf_set_print(cl_libbpf_print);

	uname(&uts);
	printf("cpuledger %s\n", CPULEDGER_VERSION);
	line("kernel", "%s %s (%s)", uts.sysname, uts.release, uts.machine);
	have_btf = cl_have_btf();
	if (have_btf)
		btf = btf__load_vmlinux_btf();
	line("btf", "%s", have_btf ? "yes: " CL_BTF_PATH
				   : "NO: " CL_BTF_PATH " missing (needs CONFIG_DEBUG_INFO_BTF=y)");
	privileged = cl_have_bpf_privileges();
	line("privileges", "%s (uid %d): CAP_BPF %s, CAP_PERFMON %s, CAP_SYS_ADMIN %s",
	     privileged ? "enough" : "NOT enough: run as root or grant CAP_BPF+CAP_PERFMON",
	     (int)getuid(), yes_no(cl_have_cap(CL_CAP_BPF)), yes_no(cl_have_cap(CL_CAP_PERFMON)),
	     yes_no(cl_have_cap(CL_CAP_SYS_ADMIN)));
	report_tracepoints(btf);
	report_sched_fields(btf);
	if (!read_sysctl("/proc/sys/kernel/perf_event_paranoid", value, sizeof(value)))
		line("perf", "kernel.perf_event_paranoid = %s", value);
	if (!read_sysctl("/proc/sys/kernel/bpf_stats_enabled", value, sizeof(value)))
		line("bpf_stats", "kernel.bpf_stats_enabled = %s%s", value,
		     strcmp(value, "1") ? " (BPF run time not measured)" : "");
	report_cpus(&online);
	report_cgroups();
	printf("events:\n");
	report_events(&online);
	ready = have_btf && privileged;
	if (ready)
		ready = try_load();
	else
		line("bpf", "not tried: %s", !have_btf ? "no BTF" : "not enough privileges");
	btf__free(btf);
	line("verdict", "%s", ready ? "cpuledger can run here" : "cpuledger cannot run here");
	return ready ? CL_EXIT_OK : CL_EXIT_FAIL;
}
