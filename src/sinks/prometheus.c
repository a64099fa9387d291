// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "core/json.h"
#include "sinks/prometheus.h"
#include "sinks/sink.h"

#define NS 1e9

/*
 * Label values: backslash, double quote and line feed escaped (both formats),
 * and always UTF-8: a name the kernel cut mid-character would make Prometheus
 * drop the whole scrape, so bytes that are not UTF-8 become U+FFFD.
 */
static void label_value(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		size_t n = cl_utf8_sequence(p);

		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (!n)
			fputs("\xef\xbf\xbd", out);
		else
			fwrite(p, 1, n, out);
		p += n ? n : 1;
	}
	fputc('"', out);
}

/* The series' identity labels for the --by level; @extra adds one more (kind, by). */
static void labels(FILE *out, const struct cl_prom_view *view, const struct cl_series *s,
		   const char *extra_name, const char *extra_value)
{
	const struct cl_row *row = &s->row;
	enum cl_row_level level = view->schema->level;
	const char *cgroup = row->cgroup;
	char num[32];
	bool first = true;

#define LABEL(name, value)                                   \
	do {                                                 \
		fprintf(out, "%s" name "=", first ? "" : ","); \
		label_value(out, value);                     \
		first = false;                               \
	} while (0)

	fputc('{', out);
	if (level == CL_BY_PROCESS || level == CL_BY_THREAD) {
		snprintf(num, sizeof(num), "%u", row->pid);
		LABEL("pid", num);
		if (level == CL_BY_THREAD) {
			snprintf(num, sizeof(num), "%u", row->tid);
			LABEL("tid", num);
		}
		LABEL("comm", row->comm);
		if (view->cgroup_name)
			cgroup = view->cgroup_name(view->ctx, row->cgroup_id);
	}
	if (level == CL_BY_CONTAINER) {
		LABEL("container_id", row->container_id);
		LABEL("container_runtime", row->container_runtime ? row->container_runtime : "");
	}
	if (level == CL_BY_CONTAINER || level == CL_BY_POD)
		LABEL("pod_uid", row->pod_uid);
	LABEL("cgroup", cgroup ? cgroup : "");
	if (extra_name) {
		fprintf(out, ",%s=", extra_name);
		label_value(out, extra_value);
	}
	fputc('}', out);
#undef LABEL
}

static void family(FILE *out, const struct cl_prom_view *view, const char *name, const char *type,
		   const char *unit, const char *help)
{
	char base[128];
	size_t len = strlen(name);

	/* OpenMetrics names a counter family without its _total suffix. */
	snprintf(base, sizeof(base), "%s", name);
	if (view->openmetrics && !strcmp(type, "counter") && len > 6 &&
	    !strcmp(name + len - 6, "_total"))
		base[len - 6] = '\0';
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", view->openmetrics ? base : name, help,
		view->openmetrics ? base : name, type);
	if (view->openmetrics && unit)
		fprintf(out, "# UNIT %s %s\n", base, unit);
}

/* 15 significant digits: nanoseconds over 11 days of seconds; C locale. */
static void value(FILE *out, double v)
{
	fprintf(out, " %.15g\n", v);
}

void cl_prom_event_name(const struct cl_event *event, char *buf, size_t size)
{
	size_t len;

	snprintf(buf, size, "cpuledger_%s", event->column);
	for (char *c = buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	len = strlen(buf);
	if (event->def->is_time) {
		if (len > 3 && !strcmp(buf + len - 3, "_ns"))
			buf[len - 3] = '\0';
		snprintf(buf + strlen(buf), size - strlen(buf), "_seconds_total");
	} else {
		snprintf(buf + len, size - len, "_total");
	}
}

/* Families over every series: one value each (extra: one sample per extra label value). */
static void per_series(FILE *out, const struct cl_prom_view *view,
		       const struct cl_series *const *series, size_t count, const char *name,
		       enum cl_value v, double scale)
{
	for (size_t i = 0; i < count; i++) {
		fputs(name, out);
		labels(out, view, series[i], NULL, NULL);
		value(out, (double)series[i]->row.v.v[v] / scale);
	}
}

static void self_metrics(FILE *out, const struct cl_prom_view *view,
			 const struct cl_prom_self *self)
{
	static const char *const dropped[] = { "exit_records", "untracked_tasks",
					       "counter_charges", "cgroup_records" };
	uint64_t dropped_values[] = { self->lost_exit_records, self->untracked_tasks,
				      self->lost_counter_charges, self->lost_cgroup_records };

	family(out, view, "cpuledger_build_info", "gauge", NULL, "cpuledger's version.");
	fprintf(out, "cpuledger_build_info{version=");
	label_value(out, self->version);
	fprintf(out, "} 1\n");
	family(out, view, "cpuledger_cpus_online", "gauge", NULL, "CPUs online now.");
	fprintf(out, "cpuledger_cpus_online %u\n", self->cpus_online);
	family(out, view, "cpuledger_cpus_possible", "gauge", NULL, "CPUs that can exist.");
	fprintf(out, "cpuledger_cpus_possible %u\n", self->cpus_possible);
	family(out, view, "cpuledger_dropped_total", "counter", NULL,
	       "What cpuledger could not account for, by what.");
	for (size_t i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
		fprintf(out, "cpuledger_dropped_total{what=\"%s\"} %llu\n", dropped[i],
			(unsigned long long)dropped_values[i]);
	family(out, view, "cpuledger_series_cut_total", "counter", NULL,
	       "Series not created because --max-series was reached.");
	fprintf(out, "cpuledger_series_cut_total %llu\n", (unsigned long long)self->series_cut);
	family(out, view, "cpuledger_series_expired_total", "counter", NULL,
	       "Series dropped after their grace period without activity.");
	fprintf(out, "cpuledger_series_expired_total %llu\n",
		(unsigned long long)self->series_expired);
	family(out, view, "cpuledger_hotplug_events_total", "counter", NULL,
	       "CPUs that went offline or came online.");
	fprintf(out, "cpuledger_hotplug_events_total %llu\n",
		(unsigned long long)self->hotplug_events);
	family(out, view, "cpuledger_collections_total", "counter", NULL,
	       "Passes over the kernel's per-task totals.");
	fprintf(out, "cpuledger_collections_total %llu\n", (unsigned long long)self->collections);
	family(out, view, "cpuledger_collect_duration_seconds", "gauge", "seconds",
	       "How long the last collection took.");
	fprintf(out, "cpuledger_collect_duration_seconds");
	value(out, self->collect_seconds);
	family(out, view, "cpuledger_scrape_duration_seconds", "gauge", "seconds",
	       "How long the previous scrape took to render.");
	fprintf(out, "cpuledger_scrape_duration_seconds");
	value(out, self->scrape_seconds);
	if (self->progs) {
		family(out, view, "cpuledger_bpf_run_seconds_total", "counter", "seconds",
		       "Time the kernel spent running each cpuledger BPF program "
		       "(kernel.bpf_stats_enabled=1).");
		for (size_t i = 0; i < self->nr_progs; i++) {
			fprintf(out, "cpuledger_bpf_run_seconds_total{program=");
			label_value(out, self->progs[i].name);
			fputc('}', out);
			value(out, (double)self->progs[i].run_ns / NS);
		}
		family(out, view, "cpuledger_bpf_runs_total", "counter", NULL,
		       "Times each cpuledger BPF program ran (kernel.bpf_stats_enabled=1).");
		for (size_t i = 0; i < self->nr_progs; i++) {
			fprintf(out, "cpuledger_bpf_runs_total{program=");
			label_value(out, self->progs[i].name);
			fprintf(out, "} %llu\n", (unsigned long long)self->progs[i].runs);
		}
	}
	family(out, view, "process_cpu_seconds_total", "counter", "seconds",
	       "CPU time cpuledger itself used, user and system.");
	fprintf(out, "process_cpu_seconds_total");
	value(out, self->process_cpu_seconds);
	family(out, view, "process_resident_memory_bytes", "gauge", "bytes",
	       "cpuledger's resident memory.");
	fprintf(out, "process_resident_memory_bytes %llu\n",
		(unsigned long long)self->process_rss_bytes);
	family(out, view, "process_start_time_seconds", "gauge", "seconds",
	       "When cpuledger started, Unix time.");
	fprintf(out, "process_start_time_seconds");
	value(out, self->process_start_seconds);
}

/* Would event column @c's family repeat a built-in one or an earlier event's? */
static bool family_taken(const struct cl_schema *schema, size_t c, const char *name)
{
	static const char *const builtin[] = {
		"cpuledger_oncpu_seconds_total", "cpuledger_context_switches_total",
		"cpuledger_runq_wait_seconds_total", "cpuledger_runq_waits_total",
		"cpuledger_preemptions_total",
	};
	char other[96];

	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		if (!strcmp(name, builtin[i]))
			return true;
	}
	for (size_t i = 0; i < c; i++) {
		const struct cl_column *col = &schema->cols[i];

		if (col->kind != CL_COL_EVENT || col->event->status != CL_EVENT_SUPPORTED)
			continue;
		cl_prom_event_name(col->event, other, sizeof(other));
		if (!strcmp(name, other))
			return true;
	}
	return false;
}

int cl_prom_render(FILE *out, const struct cl_prom_view *view,
		   const struct cl_series *const *series, size_t count,
		   const struct cl_prom_self *self)
{
	static const struct {
		const char *label;
		enum cl_value v;
	} switches[] = { { "voluntary", CL_V_NVCSW }, { "involuntary", CL_V_NIVCSW } },
	  preempts[] = { { "same_process", CL_V_PREEMPT_SAME_PROCESS },
			 { "same_cgroup", CL_V_PREEMPT_SAME_CGROUP },
			 { "other_cgroup", CL_V_PREEMPT_OTHER_CGROUP } };
	const struct cl_schema *schema = view->schema;
	bool runq = true;

	for (size_t i = 0; i < schema->count; i++)
		runq &= !(schema->cols[i].runq && schema->cols[i].unsupported);

	family(out, view, "cpuledger_oncpu_seconds_total", "counter", "seconds",
	       "Time on CPU (the kernel's sum_exec_runtime).");
	per_series(out, view, series, count, "cpuledger_oncpu_seconds_total", CL_V_ONCPU_NS, NS);

	family(out, view, "cpuledger_context_switches_total", "counter", NULL,
	       "Context switches: voluntary (blocked) or involuntary (preempted).");
	for (size_t i = 0; i < count; i++) {
		for (size_t k = 0; k < 2; k++) {
			fputs("cpuledger_context_switches_total", out);
			labels(out, view, series[i], "kind", switches[k].label);
			value(out, (double)series[i]->row.v.v[switches[k].v]);
		}
	}
	if (runq) {
		family(out, view, "cpuledger_runq_wait_seconds_total", "counter", "seconds",
		       "Time runnable but waiting for a CPU (the kernel's run_delay).");
		per_series(out, view, series, count, "cpuledger_runq_wait_seconds_total",
			   CL_V_RUN_DELAY_NS, NS);
		family(out, view, "cpuledger_runq_waits_total", "counter", NULL,
		       "Times a task got a CPU after waiting in a run queue.");
		per_series(out, view, series, count, "cpuledger_runq_waits_total", CL_V_RUN_COUNT,
			   1);
	}
	family(out, view, "cpuledger_preemptions_total", "counter", NULL,
	       "Involuntary switches by who took the CPU: a thread of the same process, "
	       "another process of the same cgroup, or another cgroup.");
	for (size_t i = 0; i < count; i++) {
		for (size_t k = 0; k < 3; k++) {
			fputs("cpuledger_preemptions_total", out);
			labels(out, view, series[i], "by", preempts[k].label);
			value(out, (double)series[i]->row.v.v[preempts[k].v]);
		}
	}
	for (size_t c = 0; c < schema->count; c++) {
		const struct cl_column *col = &schema->cols[c];
		char name[96], help[160];

		if (col->kind != CL_COL_EVENT || col->event->status != CL_EVENT_SUPPORTED)
			continue; /* unsupported: no series at all, never 0 */
		cl_prom_event_name(col->event, name, sizeof(name));
		/* A family is declared once: context-switches is the built-in one. */
		if (family_taken(schema, c, name))
			continue;
		snprintf(help, sizeof(help), "The %s event%s.", col->event->name,
			 col->event->def->is_time ? ", in seconds" : "");
		family(out, view, name, "counter", col->event->def->is_time ? "seconds" : NULL,
		       help);
		for (size_t i = 0; i < count; i++) {
			struct cl_cell cell;
			struct cl_interval none = { 0 };

			cl_cell_get(col, &series[i]->row, &none, &cell);
			if (cell.type != CL_CELL_U64)
				continue;
			fputs(name, out);
			labels(out, view, series[i], NULL, NULL);
			value(out, (double)cell.u / (col->event->def->is_time ? NS : 1));
		}
	}
	self_metrics(out, view, self);
	if (view->openmetrics)
		fputs("# EOF\n", out);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
