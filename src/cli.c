// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>


#include "cli.h"
#include "core/collector.h"
#include "core/events.h"
#include "core/hotplug.h"
#include "core/log.h"
#include "core/loop.h"
#include "core/parse.h"
#include "core/system.h"

static void vusage_error(const char *cmd, const char *see, const char *fmt, va_list args)
{
	const char *sep = cmd ? " " : "";

	fprintf(stderr, "cpuledger%s%s: ", sep, cmd ? cmd : "");
	vfprintf(stderr, fmt, args);
	if (see)
		fprintf(stderr, " (see '%s')\n", see);
	else
		fprintf(stderr, " (see 'cpuledger%s%s --help')\n", sep, cmd ? cmd : "");
}

int cl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vusage_error(cmd, NULL, fmt, args);
	va_end(args);
	return CL_EXIT_USAGE;
}

int cl_usage_error_see(const char *cmd, const char *see, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vusage_error(cmd, see, fmt, args);
	va_end(args);
	return CL_EXIT_USAGE;
}

int cl_getopt_error(const char *cmd, int opt, char **argv)
{
	const char *arg = argv[optind - 1];

	if (opt == ':')
		return cl_usage_error(cmd, "option '%s' needs a value", arg);
	if (optopt && !(arg[0] == '-' && arg[1] == '-'))
		return cl_usage_error(cmd, "unknown option '-%c'", optopt);
	return cl_usage_error(cmd, "unknown option '%s'", arg);
}

int cl_duration_arg(const char *cmd, const char *option, const char *arg, uint64_t *ns)
{
	int err = cl_parse_duration(arg, ns);

	if (err == -ERANGE)
		return cl_usage_error(cmd, "%s '%s' is too long", option, arg);
	if (err || *ns == 0)
		return cl_usage_error(cmd,
				      "%s '%s' is not a positive duration (e.g. 250ms, 1s, 1.5s, "
				      "2m)",
				      option, arg);
	return 0;
}

int cl_check_bpf_ready(const char *cmd)
{
	struct utsname uts;

	cl_raise_bpf_caps();
	if (!cl_have_bpf_privileges()) {
		fprintf(stderr,
			"cpuledger %s: not enough privileges to load BPF programs: run as root, "
			"or grant CAP_BPF and CAP_PERFMON (e.g. setcap cap_bpf,cap_perfmon+ep)\n",
			cmd);
		return CL_EXIT_FAIL;
	}
	if (!cl_have_btf()) {
		uname(&uts);
		fprintf(stderr,
			"cpuledger %s: kernel %s has no BTF (%s missing); cpuledger needs a "
			"kernel built with CONFIG_DEBUG_INFO_BTF=y\n",
			cmd, uts.release, CL_BTF_PATH);
		return CL_EXIT_FAIL;
	}
	return 0;
}

/* One message for all events that cannot be counted, grouped by reason. */
void cl_announce_unsupported(const struct cl_event_set *events, bool as_columns)
{
	bool done[CL_MAX_EVENTS] = {};

	for (size_t i = 0; i < events->count; i++) {
		const char *reason;
		char names[512] = "";
		size_t n = 0, used = 0;

		if (done[i] || events->events[i].status != CL_EVENT_UNSUPPORTED)
			continue;
		reason = cl_event_open_reason(&events->events[i]);
		for (size_t j = i; j < events->count; j++) {
			const struct cl_event *e = &events->events[j];

			if (done[j] || e->status != CL_EVENT_UNSUPPORTED ||
			    strcmp(cl_event_open_reason(e), reason))
				continue;
			done[j] = true;
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 n++ ? ", " : "", e->name);
			if (used >= sizeof(names))
				used = sizeof(names) - 1;
		}
		cl_warn("%s: not counted, %s; %s", names, reason,
			!as_columns    ? "no series for it"
			: n > 1 ? "their columns stay empty"
				: "its column stays empty");
	}
}

static void log_cpu_change(void *ctx, unsigned int cpu, bool online, int err)
{
	const struct cl_hotplug_watch *watch = ctx;

	if (!online)
		cl_info("cpu%u went offline: its %s are closed", cpu, watch->what);
	else if (err)
		cl_warn("cpu%u came online but its %s could not be re-opened: %s", cpu, watch->what,
			strerror(-err));
	else
		cl_info("cpu%u came online: its %s are re-opened", cpu, watch->what);
	if (watch->on_change)
		watch->on_change(watch->ctx, cpu, online);
}

int cl_hotplug_sync(struct cl_hotplug_watch *watch)
{
	return cl_collector_sync_cpus(watch->collector, log_cpu_change, watch);
}

static int on_uevent(void *ctx, uint32_t events)
{
	struct cl_hotplug_watch *watch = ctx;

	if (cl_hotplug_drain(watch->fd))
		cl_hotplug_sync(watch);
	return 0;
}

int cl_hotplug_watch_start(struct cl_hotplug_watch *watch, struct cl_loop *loop,
			   struct cl_collector *collector, const char *what)
{
	int err;

	watch->collector = collector;
	watch->what = what;
	watch->fd = cl_hotplug_open();
	if (watch->fd < 0) {
		/* Not fatal: the periodic sync still sees every change. */
		cl_dbg("no uevent socket (%s); CPU hotplug is seen by polling sysfs",
		       strerror(-watch->fd));
		return 0;
	}
	err = cl_loop_add(loop, watch->fd, on_uevent, watch);
	if (err) {
		close(watch->fd);
		watch->fd = -1;
	}
	return err;
}

void cl_hotplug_watch_stop(struct cl_hotplug_watch *watch)
{
	if (watch->fd >= 0)
		close(watch->fd);
	watch->fd = -1;
}

static int on_loop_signal(void *ctx, uint32_t events)
{
	struct cl_cmd_loop *cl = ctx;
	int sig = cl_signalfd_read(cl->signal_fd);

	if (sig < 0)
		return 0;
	cl_dbg("signal %d: stopping", sig);
	cl->signal = sig;
	return CL_LOOP_STOP;
}

int cl_cmd_loop_open(struct cl_cmd_loop *cl, int (*on_timer)(void *ctx, uint32_t events),
		     void *ctx)
{
	int err;

	cl->signal = 0;
	cl->loop = cl_loop_new();
	cl->signal_fd = cl_signalfd_open();
	cl->timer_fd = cl_timerfd_open();
	err = !cl->loop ? -ENOMEM : cl->signal_fd < 0 ? cl->signal_fd : cl->timer_fd;
	if (err >= 0)
		err = cl_loop_add(cl->loop, cl->signal_fd, on_loop_signal, cl);
	if (!err)
		err = cl_loop_add(cl->loop, cl->timer_fd, on_timer, ctx);
	if (err) {
		cl_err("setting up signals, timers and the event loop: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	return 0;
}

int cl_cmd_loop_add(struct cl_cmd_loop *cl, int fd, int (*fn)(void *ctx, uint32_t events),
		    void *ctx)
{
	return cl_loop_add(cl->loop, fd, fn, ctx);
}

int cl_cmd_loop_run(struct cl_cmd_loop *cl)
{
	int err = cl_loop_run(cl->loop);

	if (err < 0) {
		cl_err("event loop: %s", strerror(-err));
		return CL_EXIT_FAIL;
	}
	return 0;
}

void cl_cmd_loop_close(struct cl_cmd_loop *cl)
{
	cl_loop_free(cl->loop);
	cl->loop = NULL;
	if (cl->timer_fd >= 0)
		close(cl->timer_fd);
	if (cl->signal_fd >= 0)
		close(cl->signal_fd);
	cl->timer_fd = cl->signal_fd = -1;
}

int cl_check_pids(const char *cmd, const uint32_t *pids, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		pid_t pid = (pid_t)pids[i], tgid;
		int err = cl_process_exists(pid, &tgid);

		if (err == -ESRCH) {
			cl_err("no process with PID %d", pid);
			return CL_EXIT_FAIL;
		}
		if (err) {
			cl_err("cannot read /proc/%d/status: %s", pid, strerror(-err));
			return CL_EXIT_FAIL;
		}
		if (tgid != pid) {
			cl_err("%d is a thread of process %d: use -p %d%s", pid, tgid, tgid,
			       strcmp(cmd, "stat") ? "" : " (and -t for threads)");
			return CL_EXIT_FAIL;
		}
	}
	return 0;
}
