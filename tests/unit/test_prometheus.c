// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/sinks/prometheus.c: the exposition cpuledger serve answers scrapes
 * with, in the Prometheus text format 0.0.4 and in OpenMetrics 1.0.
 *
 * Synthetic series render byte for byte as tests/unit/golden/metrics.prom,
 * metrics.openmetrics and metrics-process.prom. After an intended change,
 * regenerate them from the repository root with
 *
 *	UPDATE_GOLDEN=1 build/tests/test_prometheus
 *
 * and read the diff, then check them with the real tools:
 *
 *	promtool check metrics < tests/unit/golden/metrics.prom
 *
 * GOLDEN_DIR overrides where they are (default: tests/unit/golden). Apart
 * from the golden files, every rendering here goes through lint(), the
 * format's rules written down: one metadata block per family, sample names
 * that fit the family's type, escaped and valid label values, no
 * duplicate series, "# EOF" at the end of OpenMetrics.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "sinks/prometheus.h"
#include "golden.h"

#define NSEC_PER_SEC 1000000000ULL

#define ID_A "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
#define ID_B "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"
#define UID "c1b75110-97a6-428f-894e-cbceba794229"
#define POD "/kubepods.slice/kubepods-burstable.slice/" \
	    "kubepods-burstable-podc1b75110_97a6_428f_894e_cbceba794229.slice"
/* A cgroup name with everything a label value must escape. */
#define WEIRD_CGROUP "/weird.slice/a\"quote\\back\nnewline"

#define EVENTS "page-faults,cycles,reclaim-ns,task-clock"
enum { EV_PAGE_FAULTS, EV_CYCLES, EV_RECLAIM_NS, EV_TASK_CLOCK };

struct series_def {
	uint32_t pid, tid;
	const char *comm;
	uint64_t cgroup_id;
	const char *cgroup;
	const char *container_id;
	const char *runtime;	/* NULL: none set */
	const char *pod_uid;
	uint64_t oncpu_ns, vol, invol, run_delay_ns, runs;
	uint64_t preempt[3];	/* same process, same cgroup, other cgroup */
	uint64_t min_flt, maj_flt, reclaim_ns;
};

static const struct series_def group_defs[] = {
	{ 0, 0, "", 0, "/system.slice/docker-" ID_A ".scope", ID_A, "docker", "", 1500000000,
	  120, 7, 250000000, 130, { 3, 2, 1 }, 1000, 2, 2500000 },
	{ 0, 0, "", 0, POD "/cri-containerd-" ID_B ".scope", ID_B, "containerd", UID,
	  86400123456789ULL, 4000000, 35000, 999999999999ULL, 4100000, { 0, 0, 35000 },
	  123456789012ULL, 0, 0 },
	/* Outside containers; nothing happened yet: zeros, not gaps. */
	{ 0, 0, "", 0, WEIRD_CGROUP, "", NULL, "" },
};

static const struct series_def task_defs[] = {
	{ 1234, 1234, "nginx", 11, "", "", NULL, "", 2000000000, 10, 1, 5000, 11, { 1, 0, 0 },
	  50, 1, 0 },
	/* A name with a quote and a backslash; its cgroup unknown to the resolver. */
	{ 4194303, 4194310, "we\"ird\\", 99, "", "", NULL, "", 1, 0, 0, 0, 0, { 0, 0, 0 }, 0, 0,
	  0 },
};

static const struct cl_prom_bpf_prog progs[] = {
	{ "on_switch", 1234567890, 98765 },
	{ "dump_task", 5000, 10 },
};

static const struct cl_prom_self self_template = {
	.version = "0.4.0-test",
	.cpus_online = 4,
	.cpus_possible = 8,
	.lost_exit_records = 1,
	.untracked_tasks = 2,
	.lost_counter_charges = 3,
	.lost_cgroup_records = 4,
	.series_cut = 5,
	.series_expired = 6,
	.hotplug_events = 2,
	.collections = 100,
	.collect_seconds = 0.0125,
	.scrape_seconds = 0.003,
	.process_cpu_seconds = 12.5,
	.process_rss_bytes = 52428800,
	.process_start_seconds = 1700000000.25,
	.progs = progs,
	.nr_progs = ARRAY_SIZE(progs),
};

struct fixture {
	struct cl_event_set events;
	struct cl_schema schema;
	struct cl_series series[4];
	const struct cl_series *sorted[4];
	size_t count;
	struct cl_prom_self self;
	struct cl_prom_view view;
};

static const char *cgroup_name(void *ctx, uint64_t cgroup_id)
{
	return cgroup_id == 11 ? "/system.slice/nginx.service" : NULL;
}

static void fill_series(struct cl_series *s, const struct series_def *d)
{
	struct cl_row *row = &s->row;

	memset(s, 0, sizeof(*s));
	row->pid = d->pid;
	row->tid = d->tid;
	row->cpu = -1;
	row->cgroup_id = d->cgroup_id;
	snprintf(row->comm, sizeof(row->comm), "%s", d->comm);
	snprintf(row->cgroup, sizeof(row->cgroup), "%s", d->cgroup);
	snprintf(row->container_id, sizeof(row->container_id), "%s", d->container_id);
	row->container_runtime = d->runtime;
	snprintf(row->pod_uid, sizeof(row->pod_uid), "%s", d->pod_uid);
	row->v.v[CL_V_ONCPU_NS] = d->oncpu_ns;
	row->v.v[CL_V_NVCSW] = d->vol;
	row->v.v[CL_V_NIVCSW] = d->invol;
	row->v.v[CL_V_RUN_DELAY_NS] = d->run_delay_ns;
	row->v.v[CL_V_RUN_COUNT] = d->runs;
	row->v.v[CL_V_PREEMPT_SAME_PROCESS] = d->preempt[0];
	row->v.v[CL_V_PREEMPT_SAME_CGROUP] = d->preempt[1];
	row->v.v[CL_V_PREEMPT_OTHER_CGROUP] = d->preempt[2];
	row->v.v[CL_V_MIN_FLT] = d->min_flt;
	row->v.v[CL_V_MAJ_FLT] = d->maj_flt;
	row->v.v[CL_V_COUNTER0] = d->reclaim_ns;
	s->updated_ns = NSEC_PER_SEC;
}

/*
 * The events as after opening them: cycles had no PMU counter, reclaim-ns
 * got counter slot 0; page-faults and task-clock are the kernel's own.
 */
static bool fixture_init(struct fixture *f, const char *events, enum cl_row_level level,
			 bool openmetrics)
{
	bool tasks = level == CL_BY_PROCESS || level == CL_BY_THREAD;
	const struct series_def *defs = tasks ? task_defs : group_defs;
	size_t count = tasks ? ARRAY_SIZE(task_defs) : ARRAY_SIZE(group_defs);
	struct cl_event *event;
	const char *bad;

	memset(f, 0, sizeof(*f));
	if (!expect_int(cl_events_parse(events, &f->events, &bad), 0))
		return false;
	event = cl_events_find(&f->events, "cycles");
	if (event)
		event->status = CL_EVENT_UNSUPPORTED;
	event = cl_events_find(&f->events, "reclaim-ns");
	if (event) {
		event->status = CL_EVENT_SUPPORTED;
		event->slot = 0;
	}
	if (!expect_int(cl_schema_build_by(&f->schema, &f->events, level, false), 0))
		return false;
	for (size_t i = 0; i < count; i++) {
		fill_series(&f->series[i], &defs[i]);
		f->sorted[i] = &f->series[i];
	}
	f->count = count;
	f->self = self_template;
	f->view.schema = &f->schema;
	f->view.openmetrics = openmetrics;
	f->view.cgroup_name = cgroup_name;
	f->view.ctx = f;
	return true;
}

/* Renders @f into a malloc'ed string, or NULL. */
static char *render(struct fixture *f, size_t *len)
{
	char *text = NULL;
	FILE *out;
	int err;

	*len = 0;
	out = open_memstream(&text, len);
	if (!expect(out != NULL))
		return NULL;
	err = cl_prom_render(out, &f->view, f->sorted, f->count, &f->self);
	fclose(out);
	if (!expect_int(err, 0)) {
		free(text);
		return NULL;
	}
	return text;
}

/* The format's rules, as a linter would check them. */

#define MAX_FAMILIES 64
#define MAX_SAMPLES 256
#define MAX_LABELS 8

struct family {
	char name[128];
	char type[16];
	char unit[16];
	bool help, has_samples, closed;
};

struct lint {
	bool openmetrics;
	struct family families[MAX_FAMILIES];
	size_t nr_families;
	struct family *current;
	char *series[MAX_SAMPLES];	/* "name{labels}" seen, to find duplicates */
	size_t nr_series;
	int line_no;
};

/* The linter's own test expects failures: it keeps them quiet. */
static bool lint_quiet;

static bool lint_fail(struct lint *l, const char *line, size_t len, const char *why)
{
	if (lint_quiet)
		return false;
	unit_note("line %d: %s: %.*s", l->line_no, why, (int)len, line);
	return false;
}

static bool valid_name(const char *s, size_t len)
{
	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == ':'))
		return false;
	for (size_t i = 1; i < len; i++) {
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == ':'))
			return false;
	}
	return true;
}

static struct family *find_family(struct lint *l, const char *name, size_t len)
{
	for (size_t i = 0; i < l->nr_families; i++) {
		if (strlen(l->families[i].name) == len && !memcmp(l->families[i].name, name, len))
			return &l->families[i];
	}
	return NULL;
}

/* "# HELP name text", "# TYPE name type", "# UNIT name unit". */
static bool lint_comment(struct lint *l, const char *line, size_t len)
{
	const char *name = line + 7, *end, *rest;
	size_t name_len, rest_len;
	struct family *f;

	if (len < 8 || (strncmp(line, "# HELP ", 7) && strncmp(line, "# TYPE ", 7) &&
			strncmp(line, "# UNIT ", 7)))
		return lint_fail(l, line, len, "not HELP, TYPE or UNIT");
	end = memchr(name, ' ', len - 7);
	if (!end)
		return lint_fail(l, line, len, "malformed metadata");
	name_len = (size_t)(end - name);
	rest = end + 1;
	rest_len = len - (size_t)(rest - line);
	if (!valid_name(name, name_len) || !rest_len)
		return lint_fail(l, line, len, "malformed metadata");
	f = find_family(l, name, name_len);
	if (!f) {
		if (!expect(l->nr_families < MAX_FAMILIES))
			return false;
		if (l->current)
			l->current->closed = true;
		f = &l->families[l->nr_families++];
		memcpy(f->name, name, name_len < sizeof(f->name) ? name_len : sizeof(f->name) - 1);
		l->current = f;
	} else if (f != l->current || f->has_samples) {
		return lint_fail(l, line, len, "a second metadata block for a family");
	}
	if (!strncmp(line, "# HELP ", 7)) {
		if (f->help)
			return lint_fail(l, line, len, "second HELP");
		f->help = true;
	} else if (!strncmp(line, "# TYPE ", 7)) {
		if (f->type[0])
			return lint_fail(l, line, len, "second TYPE");
		if (rest_len >= sizeof(f->type))
			return lint_fail(l, line, len, "unknown type");
		memcpy(f->type, rest, rest_len);
		if (strcmp(f->type, "counter") && strcmp(f->type, "gauge"))
			return lint_fail(l, line, len, "unexpected type");
		/* OpenMetrics names the family without the suffix its samples carry. */
		if (!strcmp(f->type, "counter") && l->openmetrics == (name_len > 6 &&
		    !memcmp(name + name_len - 6, "_total", 6)))
			return lint_fail(l, line, len, "counter family name and _total");
	} else {
		if (!l->openmetrics)
			return lint_fail(l, line, len, "UNIT in the text format");
		if (f->unit[0] || rest_len >= sizeof(f->unit))
			return lint_fail(l, line, len, "second or long UNIT");
		memcpy(f->unit, rest, rest_len);
		/* The unit must be the name's suffix. */
		if (name_len <= rest_len + 1 || name[name_len - rest_len - 1] != '_' ||
		    memcmp(name + name_len - rest_len, rest, rest_len))
			return lint_fail(l, line, len, "unit is not the name's suffix");
	}
	return true;
}

/* name{label="value",...} value */
static bool lint_sample(struct lint *l, const char *line, size_t len)
{
	const char *p = line, *end = line + len, *name_end;
	char label_names[MAX_LABELS][64];
	size_t nr_labels = 0, series_len;
	struct family *f = l->current;
	char value[64], *value_end;
	double v;

	while (p < end && *p != '{' && *p != ' ')
		p++;
	name_end = p;
	if (!valid_name(line, (size_t)(name_end - line)))
		return lint_fail(l, line, len, "bad metric name");
	if (!f || !f->type[0])
		return lint_fail(l, line, len, "sample before TYPE");
	if (f->closed)
		return lint_fail(l, line, len, "family's samples not together");
	if (!strcmp(f->type, "counter") && l->openmetrics) {
		if ((size_t)(name_end - line) != strlen(f->name) + 6 ||
		    memcmp(line, f->name, strlen(f->name)) || memcmp(name_end - 6, "_total", 6))
			return lint_fail(l, line, len, "not the family's _total sample");
	} else if ((size_t)(name_end - line) != strlen(f->name) ||
		   memcmp(line, f->name, strlen(f->name))) {
		return lint_fail(l, line, len, "not the family's sample");
	}
	if (p < end && *p == '{') {
		p++;
		while (p < end && *p != '}') {
			const char *label = p, *value_start;

			while (p < end && *p != '=')
				p++;
			if (p >= end || !valid_name(label, (size_t)(p - label)) ||
			    (size_t)(p - label) >= sizeof(label_names[0]) || p + 1 >= end ||
			    p[1] != '"')
				return lint_fail(l, line, len, "bad label");
			for (size_t i = 0; i < nr_labels; i++) {
				if (strlen(label_names[i]) == (size_t)(p - label) &&
				    !memcmp(label_names[i], label, (size_t)(p - label)))
					return lint_fail(l, line, len, "duplicate label name");
			}
			if (nr_labels == MAX_LABELS)
				return lint_fail(l, line, len, "too many labels");
			memcpy(label_names[nr_labels], label, (size_t)(p - label));
			label_names[nr_labels++][p - label] = '\0';
			p += 2;
			value_start = p;
			while (p < end && *p != '"') {
				if (*p == '\\') {
					if (p + 1 >= end ||
					    (p[1] != '\\' && p[1] != '"' && p[1] != 'n'))
						return lint_fail(l, line, len, "bad escape");
					p++;
				}
				p++;
			}
			if (p >= end)
				return lint_fail(l, line, len, "unterminated label value");
			if (!unit_valid_utf8((const unsigned char *)value_start,
					(size_t)(p - value_start)))
				return lint_fail(l, line, len, "label value is not UTF-8");
			p++;
			if (p < end && *p == ',')
				p++;
			else if (p < end && *p != '}')
				return lint_fail(l, line, len, "bad label separator");
		}
		if (p >= end)
			return lint_fail(l, line, len, "unterminated labels");
		p++;
	}
	series_len = (size_t)(p - line);
	if (p >= end || *p != ' ' || (size_t)(end - p - 1) >= sizeof(value) || end - p < 2)
		return lint_fail(l, line, len, "no value");
	memcpy(value, p + 1, (size_t)(end - p - 1));
	value[end - p - 1] = '\0';
	errno = 0;
	v = strtod(value, &value_end);
	if (*value_end || errno || isnan(v))
		return lint_fail(l, line, len, "bad value");
	if (!strcmp(f->type, "counter") && v < 0)
		return lint_fail(l, line, len, "negative counter");
	for (size_t i = 0; i < l->nr_series; i++) {
		if (strlen(l->series[i]) == series_len && !memcmp(l->series[i], line, series_len))
			return lint_fail(l, line, len, "duplicate series");
	}
	if (l->nr_series < MAX_SAMPLES)
		l->series[l->nr_series++] = strndup(line, series_len);
	f->has_samples = true;
	return true;
}

static bool lint(const char *text, bool openmetrics)
{
	struct lint *l = calloc(1, sizeof(*l));
	bool ok = true, eof = false;

	if (!expect(l != NULL))
		return false;
	l->openmetrics = openmetrics;
	for (const char *line = text, *end; *line && ok; line = end + 1) {
		size_t len;

		end = strchr(line, '\n');
		l->line_no++;
		if (!end) {
			ok = lint_fail(l, line, strlen(line), "no newline at the end");
			break;
		}
		len = (size_t)(end - line);
		if (eof)
			ok = lint_fail(l, line, len, "after # EOF");
		else if (!len)
			ok = lint_fail(l, line, len, "blank line");
		else if (openmetrics && len == 5 && !memcmp(line, "# EOF", 5))
			eof = true;
		else if (line[0] == '#')
			ok = lint_comment(l, line, len);
		else
			ok = lint_sample(l, line, len);
	}
	if (ok && openmetrics && !eof)
		ok = lint_fail(l, "", 0, "OpenMetrics without # EOF at the end");
	for (size_t i = 0; ok && i < l->nr_families; i++) {
		if (!l->families[i].help || !l->families[i].type[0])
			ok = lint_fail(l, l->families[i].name, strlen(l->families[i].name),
				       "family without HELP or TYPE");
	}
	for (size_t i = 0; i < l->nr_series; i++)
		free(l->series[i]);
	free(l);
	return ok;
}

struct lint_case {
	const char *text;
	bool openmetrics;
	bool valid;
};

static const struct lint_case lint_cases[] = {
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total{l=\"x\\\"y\"} 1\n", false, true },
	{ "# HELP a A.\n# TYPE a counter\n# UNIT a_seconds seconds\n", true, false },
	{ "# HELP a_seconds A.\n# TYPE a_seconds counter\n# UNIT a_seconds seconds\n"
	  "a_seconds_total 1.5\n# EOF\n", true, true },
	{ "a_total 1\n", false, false },					/* no TYPE */
	{ "# HELP a_total A.\n# TYPE a_total counter\n# TYPE a_total counter\n", false, false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total 1\n"
	  "# HELP a_total A.\n# TYPE a_total counter\n", false, false },	/* declared twice */
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total{l=\"\xff\"} 1\n", false, false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total{l=\"a\"b\"} 1\n", false, false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total{l=\"a\\x\"} 1\n", false, false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total{l=\"a\",l=\"b\"} 1\n", false,
	  false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total{l=\"a\"} 1\na_total{l=\"a\"} 2\n",
	  false, false },							/* twice */
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total -1\n", false, false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total one\n", false, false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total 1\n\n", false, false },
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total 1\n# EOF\n", false, false },
	{ "# HELP a A.\n# TYPE a counter\na_total 1\n", true, false },	/* no # EOF */
	{ "# HELP a_total A.\n# TYPE a_total counter\na_total 1\n# EOF\n", true, false },
	{ "# HELP a A.\n# TYPE a counter\na 1\n# EOF\n", true, false },
	{ "# HELP a A.\n# TYPE a gauge\na 1\n# EOF\n", true, true },
	{ "# HELP a_seconds A.\n# TYPE a_seconds gauge\n# UNIT a_seconds bytes\n# EOF\n", true,
	  false },
	{ "# HELP a A.\n# TYPE a gauge\n# UNIT a seconds\n", false, false },	/* text: no UNIT */
	{ "# HELP a A.\n# TYPE a gauge\na 1", false, false },			/* no newline */
	{ "# HELP a A.\n# TYPE a gauge\na 1\n# HELP b B.\n# TYPE b gauge\nb 1\na 2\n", false,
	  false },							/* apart */
};

/* The linter itself: it must catch what it claims to. */
static bool test_lint(void)
{
	bool ok = true;

	lint_quiet = true;
	for (size_t i = 0; i < ARRAY_SIZE(lint_cases); i++) {
		const struct lint_case *c = &lint_cases[i];

		if (!expect_int(lint(c->text, c->openmetrics), c->valid)) {
			unit_note("case %zu: %s", i, c->text);
			ok = false;
		}
	}
	lint_quiet = false;
	return ok;
}

/* Golden files */

static bool check_golden(enum cl_row_level level, bool openmetrics, const char *file)
{
	size_t len = 0;
	struct fixture f;
	char *text;
	bool ok;

	if (!fixture_init(&f, EVENTS, level, openmetrics))
		return false;
	text = render(&f, &len);
	if (!expect(text != NULL))
		return false;
	ok = lint(text, openmetrics) && unit_golden_check(file, text, len);
	free(text);
	return ok;
}

static bool test_golden_text(void)
{
	return check_golden(CL_BY_CONTAINER, false, "metrics.prom");
}

static bool test_golden_openmetrics(void)
{
	return check_golden(CL_BY_CONTAINER, true, "metrics.openmetrics");
}

static bool test_golden_process(void)
{
	return check_golden(CL_BY_PROCESS, false, "metrics-process.prom");
}

/* Looking into a rendering */

/* The value of the first sample line starting with @prefix, or NAN. */
static double sample_value(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);

	for (const char *line = text, *end; (end = strchr(line, '\n')); line = end + 1) {
		/* The value follows the line's last space (label values may have spaces). */
		const char *space = end;

		if (strncmp(line, prefix, len))
			continue;
		while (space > line && *space != ' ')
			space--;
		return *space == ' ' ? strtod(space + 1, NULL) : NAN;
	}
	return NAN;
}

/* Lines starting with @prefix. */
static size_t count_lines(const char *text, const char *prefix)
{
	size_t len = strlen(prefix), n = 0;

	for (const char *line = text; line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, prefix, len))
			n++;
	}
	return n;
}

static bool expect_sample(const char *text, const char *prefix, double want)
{
	double got = sample_value(text, prefix);

	if (!expect(fabs(got - want) <= fabs(want) * 1e-12)) {
		unit_note("sample %s = %.17g, expected %.17g", prefix, got, want);
		return false;
	}
	return true;
}

/* Renders @events at @level, both formats, each linted; @check looks at the text. */
static bool for_each_format(const char *events, enum cl_row_level level,
			    bool (*check)(const char *text, bool openmetrics))
{
	for (int om = 0; om <= 1; om++) {
		struct fixture f;
		char *text;
		size_t len;
		bool ok;

		if (!fixture_init(&f, events, level, om))
			return false;
		text = render(&f, &len);
		if (!expect(text != NULL))
			return false;
		ok = lint(text, om) && (!check || check(text, om));
		if (!ok)
			unit_note("%s, events %s, level %d", om ? "OpenMetrics" : "text", events,
				  level);
		free(text);
		if (!ok)
			return false;
	}
	return true;
}

#define CONTAINER_A                                                                   \
	"{container_id=\"" ID_A "\",container_runtime=\"docker\",pod_uid=\"\",cgroup=\"" \
	"/system.slice/docker-" ID_A ".scope\""

static bool check_values(const char *text, bool openmetrics)
{
	return expect_sample(text, "cpuledger_oncpu_seconds_total" CONTAINER_A "}", 1.5) &&
	       expect_sample(text, "cpuledger_task_clock_seconds_total" CONTAINER_A "}", 1.5) &&
	       expect_sample(text, "cpuledger_reclaim_seconds_total" CONTAINER_A "}", 0.0025) &&
	       expect_sample(text, "cpuledger_page_faults_total" CONTAINER_A "}", 1002) &&
	       expect_sample(text, "cpuledger_runq_wait_seconds_total" CONTAINER_A "}", 0.25) &&
	       expect_sample(text, "cpuledger_runq_waits_total" CONTAINER_A "}", 130) &&
	       expect_sample(text, "cpuledger_context_switches_total" CONTAINER_A
			     ",kind=\"voluntary\"}", 120) &&
	       expect_sample(text, "cpuledger_context_switches_total" CONTAINER_A
			     ",kind=\"involuntary\"}", 7) &&
	       expect_sample(text, "cpuledger_preemptions_total" CONTAINER_A
			     ",by=\"same_process\"}", 3) &&
	       expect_sample(text, "cpuledger_preemptions_total" CONTAINER_A
			     ",by=\"same_cgroup\"}", 2) &&
	       expect_sample(text, "cpuledger_preemptions_total" CONTAINER_A
			     ",by=\"other_cgroup\"}", 1) &&
	       /* Big totals keep their digits. */
	       expect_sample(text, "cpuledger_oncpu_seconds_total{container_id=\"" ID_B,
			     86400.123456789) &&
	       expect_sample(text, "cpuledger_page_faults_total{container_id=\"" ID_B,
			     123456789012.0) &&
	       expect_sample(text, "cpuledger_runq_wait_seconds_total{container_id=\"" ID_B,
			     999.999999999) &&
	       /* Two switch kinds and three preemption kinds per series, no others. */
	       expect_u64(count_lines(text, "cpuledger_context_switches_total{"), 6) &&
	       expect_u64(count_lines(text, "cpuledger_preemptions_total{"), 9) &&
	       expect_u64(count_lines(text, "cpuledger_oncpu_seconds_total{"), 3);
}

/* Time in seconds, counts as they are, per series and per kind. */
static bool test_values(void)
{
	return for_each_format(EVENTS, CL_BY_CONTAINER, check_values);
}

static bool check_unsupported(const char *text, bool openmetrics)
{
	return expect(!strstr(text, "cycles")) &&
	       expect(strstr(text, "\n# TYPE cpuledger_page_faults_total counter\n") ||
		      strstr(text, "\n# TYPE cpuledger_page_faults counter\n"));
}

/* An event the kernel cannot count has no family at all: never a 0. */
static bool test_unsupported_event(void)
{
	return for_each_format(EVENTS, CL_BY_CONTAINER, check_unsupported) &&
	       for_each_format(EVENTS, CL_BY_PROCESS, check_unsupported);
}

/* Without the kernel's sched_info there are no run-queue families either. */
static bool test_runq_unsupported(void)
{
	for (int om = 0; om <= 1; om++) {
		struct fixture f;
		char *text;
		size_t len;
		bool ok;

		if (!fixture_init(&f, EVENTS, CL_BY_POD, om))
			return false;
		for (size_t i = 0; i < f.schema.count; i++)
			f.schema.cols[i].unsupported |= f.schema.cols[i].runq;
		text = render(&f, &len);
		if (!expect(text != NULL))
			return false;
		ok = lint(text, om) && expect(!strstr(text, "cpuledger_runq_")) &&
		     expect(strstr(text, "cpuledger_oncpu_seconds") != NULL);
		free(text);
		if (!ok)
			return false;
	}
	return true;
}

struct level_labels {
	enum cl_row_level level;
	const char *first_sample;	/* of cpuledger_oncpu_seconds_total */
};

static const struct level_labels level_labels[] = {
	{ CL_BY_CONTAINER, "cpuledger_oncpu_seconds_total" CONTAINER_A "} 1.5\n" },
	{ CL_BY_POD, "cpuledger_oncpu_seconds_total{pod_uid=\"\",cgroup=\"/system.slice/docker-"
		     ID_A ".scope\"} 1.5\n" },
	{ CL_BY_CGROUP, "cpuledger_oncpu_seconds_total{cgroup=\"/system.slice/docker-" ID_A
			".scope\"} 1.5\n" },
	/* Process rows name their cgroup through the resolver. */
	{ CL_BY_PROCESS, "cpuledger_oncpu_seconds_total{pid=\"1234\",comm=\"nginx\","
			 "cgroup=\"/system.slice/nginx.service\"} 2\n" },
	{ CL_BY_THREAD, "cpuledger_oncpu_seconds_total{pid=\"1234\",tid=\"1234\",comm=\"nginx\","
			"cgroup=\"/system.slice/nginx.service\"} 2\n" },
};

/* Each --by level labels its series with its identity, nothing else. */
static bool test_labels_per_level(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(level_labels); i++) {
		const struct level_labels *c = &level_labels[i];
		struct fixture f;
		char *text;
		size_t len;
		bool ok;

		if (!fixture_init(&f, EVENTS, c->level, false))
			return false;
		text = render(&f, &len);
		if (!expect(text != NULL))
			return false;
		ok = lint(text, false) && expect(strstr(text, c->first_sample) != NULL);
		if (!ok)
			unit_note("level %d: no line %s", c->level, c->first_sample);
		free(text);
		if (!ok)
			return false;
	}
	return true;
}

static bool check_escaping(const char *text, bool openmetrics)
{
	return expect(strstr(text, "cgroup=\"/weird.slice/a\\\"quote\\\\back\\nnewline\"}") !=
		      NULL) &&
	       /* No raw line feed inside a label: the line count is the sample count. */
	       expect_u64(count_lines(text, "newline"), 0);
}

/* Quotes, backslashes and line feeds in label values are escaped. */
static bool test_label_escaping(void)
{
	return for_each_format(EVENTS, CL_BY_CGROUP, check_escaping);
}

static bool check_process_escaping(const char *text, bool openmetrics)
{
	/* A cgroup the resolver does not know: an empty label, not a missing one. */
	return expect(strstr(text, "cpuledger_oncpu_seconds_total{pid=\"4194303\","
			     "comm=\"we\\\"ird\\\\\",cgroup=\"\"} 1e-09\n") != NULL);
}

static bool test_process_labels(void)
{
	return for_each_format(EVENTS, CL_BY_PROCESS, check_process_escaping);
}

static bool check_self(const char *text, bool openmetrics)
{
	return expect(strstr(text, "\ncpuledger_build_info{version=\"0.4.0-test\"} 1\n") != NULL) &&
	       expect_sample(text, "cpuledger_cpus_online ", 4) &&
	       expect_sample(text, "cpuledger_cpus_possible ", 8) &&
	       expect_sample(text, "cpuledger_dropped_total{what=\"exit_records\"}", 1) &&
	       expect_sample(text, "cpuledger_dropped_total{what=\"untracked_tasks\"}", 2) &&
	       expect_sample(text, "cpuledger_dropped_total{what=\"counter_charges\"}", 3) &&
	       expect_sample(text, "cpuledger_dropped_total{what=\"cgroup_records\"}", 4) &&
	       expect_sample(text, "cpuledger_series_cut_total ", 5) &&
	       expect_sample(text, "cpuledger_series_expired_total ", 6) &&
	       expect_sample(text, "cpuledger_hotplug_events_total ", 2) &&
	       expect_sample(text, "cpuledger_collections_total ", 100) &&
	       expect_sample(text, "cpuledger_collect_duration_seconds ", 0.0125) &&
	       expect_sample(text, "cpuledger_scrape_duration_seconds ", 0.003) &&
	       expect_sample(text, "process_cpu_seconds_total ", 12.5) &&
	       expect_sample(text, "process_resident_memory_bytes ", 52428800) &&
	       expect_sample(text, "process_start_time_seconds ", 1700000000.25) &&
	       expect_sample(text, "cpuledger_bpf_run_seconds_total{program=\"on_switch\"}",
			     1.23456789) &&
	       expect_sample(text, "cpuledger_bpf_runs_total{program=\"on_switch\"}", 98765) &&
	       expect_sample(text, "cpuledger_bpf_runs_total{program=\"dump_task\"}", 10);
}

static bool test_self_metrics(void)
{
	return for_each_format(EVENTS, CL_BY_CONTAINER, check_self);
}

/* BPF program metrics only when the kernel keeps BPF stats. */
static bool test_no_bpf_stats(void)
{
	for (int om = 0; om <= 1; om++) {
		struct fixture f;
		char *text;
		size_t len;
		bool ok;

		if (!fixture_init(&f, EVENTS, CL_BY_CONTAINER, om))
			return false;
		f.self.progs = NULL;
		f.self.nr_progs = 0;
		text = render(&f, &len);
		if (!expect(text != NULL))
			return false;
		ok = lint(text, om) && expect(!strstr(text, "cpuledger_bpf_")) &&
		     expect(strstr(text, "process_resident_memory_bytes") != NULL);
		free(text);
		if (!ok)
			return false;
	}
	return true;
}

/* No series at all (nothing ran yet): families, self metrics, still valid. */
static bool test_no_series(void)
{
	for (int om = 0; om <= 1; om++) {
		struct fixture f;
		char *text;
		size_t len;
		bool ok;

		if (!fixture_init(&f, EVENTS, CL_BY_CONTAINER, om))
			return false;
		f.count = 0;
		text = render(&f, &len);
		if (!expect(text != NULL))
			return false;
		ok = lint(text, om) && expect(!strstr(text, "cpuledger_oncpu_seconds_total{")) &&
		     expect(strstr(text, "cpuledger_build_info{") != NULL);
		free(text);
		if (!ok)
			return false;
	}
	return true;
}

static bool check_format_specifics(const char *text, bool openmetrics)
{
	size_t len = strlen(text);
	bool eof = len >= 6 && !strcmp(text + len - 6, "# EOF\n");

	if (openmetrics)
		return expect(eof) &&
		       expect(strstr(text, "# TYPE cpuledger_oncpu_seconds counter\n") != NULL) &&
		       expect(strstr(text, "# UNIT cpuledger_oncpu_seconds seconds\n") != NULL) &&
		       expect(strstr(text, "\ncpuledger_oncpu_seconds_total{") != NULL) &&
		       expect(strstr(text, "# UNIT cpuledger_reclaim_seconds seconds\n") != NULL) &&
		       expect(strstr(text, "# TYPE cpuledger_page_faults counter\n") != NULL) &&
		       expect(!strstr(text, "# UNIT cpuledger_page_faults"));
	return expect(!eof) && expect(!strstr(text, "# UNIT")) && expect(!strstr(text, "# EOF")) &&
	       expect(strstr(text, "# TYPE cpuledger_oncpu_seconds_total counter\n") != NULL);
}

/* OpenMetrics: families without _total, with units, # EOF last; text format: none of that. */
static bool test_format_specifics(void)
{
	return for_each_format(EVENTS, CL_BY_CONTAINER, check_format_specifics);
}

/*
 * Events whose metric names meet another family's: each family must still
 * be declared once. "context-switches" is the kernel's per-task count (the
 * sum of the two kinds); raw events differ in case only.
 */
static const char *const colliding_events[] = {
	"context-switches",
	"cpu-migrations,context-switches:perf",
	"r1a8,r1A8",
};

static bool test_family_names_unique(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(colliding_events); i++) {
		struct fixture f;
		char *text;
		size_t len;

		if (!fixture_init(&f, colliding_events[i], CL_BY_CONTAINER, false))
			return false;
		/* Perf and raw events as if their counters opened. */
		for (size_t k = 0; k < f.events.count; k++) {
			if (f.events.events[k].status != CL_EVENT_SUPPORTED) {
				f.events.events[k].status = CL_EVENT_SUPPORTED;
				f.events.events[k].slot = (int)k;
			}
		}
		text = render(&f, &len);
		if (!expect(text != NULL))
			return false;
		if (!lint(text, false)) {
			unit_note("events %s", colliding_events[i]);
			ok = false;
		}
		free(text);
	}
	return ok;
}

/*
 * A comm is 15 bytes of whatever the task set: cutting "a" and five CJK
 * characters there splits a character. Prometheus rejects a whole scrape
 * with a label value that is not UTF-8 ("invalid label value"), so the
 * exposition must stay UTF-8 whatever the names are.
 */
static bool test_label_values_utf8(void)
{
	static const char *const names[] = {
		/* "a" and five CJK characters, cut mid-character */
		"a\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5\xe6\x9c",
		"\xff\xfe",
		"ok \xc3\xa9t\xc3\xa9",		/* valid: stays as it is */
	};
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct fixture f;
		char *text;
		size_t len;

		if (!fixture_init(&f, EVENTS, CL_BY_PROCESS, false))
			return false;
		snprintf(f.series[0].row.comm, sizeof(f.series[0].row.comm), "%s", names[i]);
		snprintf(f.series[1].row.cgroup, sizeof(f.series[1].row.cgroup), "/%s.scope",
			 names[i]);
		text = render(&f, &len);
		if (!expect(text != NULL))
			return false;
		if (!lint(text, false)) {
			unit_note("comm \"%s\"", names[i]);
			ok = false;
		}
		if (i == 2 && !expect(strstr(text, "comm=\"ok \xc3\xa9t\xc3\xa9\"") != NULL))
			ok = false;
		free(text);
	}
	return ok;
}

struct event_name_case {
	const char *event;
	const char *metric;
};

static const struct event_name_case event_name_cases[] = {
	{ "page-faults", "cpuledger_page_faults_total" },
	{ "faults", "cpuledger_page_faults_total" },
	{ "cycles", "cpuledger_cycles_total" },
	{ "LLC-load-misses", "cpuledger_llc_load_misses_total" },
	{ "reclaim-ns", "cpuledger_reclaim_seconds_total" },
	{ "reclaims", "cpuledger_reclaims_total" },
	{ "page-allocs", "cpuledger_page_allocs_total" },
	{ "task-clock", "cpuledger_task_clock_seconds_total" },
	{ "cpu-clock", "cpuledger_cpu_clock_seconds_total" },
	{ "task-clock:perf", "cpuledger_task_clock_perf_seconds_total" },
	{ "page-faults:perf", "cpuledger_page_faults_perf_total" },
	{ "r1a8", "cpuledger_r1a8_total" },
};

static bool test_event_names(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(event_name_cases); i++) {
		const struct event_name_case *c = &event_name_cases[i];
		struct cl_event_set set;
		const char *bad;
		char name[96], small[24];

		if (!expect_int(cl_events_parse(c->event, &set, &bad), 0))
			return false;
		cl_prom_event_name(&set.events[0], name, sizeof(name));
		if (!expect_str(name, c->metric) || !expect(valid_name(name, strlen(name)))) {
			unit_note("event %s", c->event);
			ok = false;
		}
		/* A short buffer gets a terminated prefix, never an overrun. */
		memset(small, 'x', sizeof(small));
		cl_prom_event_name(&set.events[0], small, 16);
		if (!expect(memchr(small, '\0', 16) != NULL) || !expect(small[16] == 'x'))
			ok = false;
	}
	return ok;
}

/* A stream that cannot be written is an error, not a silent short scrape. */
static bool test_write_error(void)
{
	struct fixture f;
	FILE *full;
	int err;

	if (!fixture_init(&f, EVENTS, CL_BY_CONTAINER, false))
		return false;
	full = fopen("/dev/full", "w");
	if (!full) {
		printf("# skip: no /dev/full\n");
		return true;
	}
	err = cl_prom_render(full, &f.view, f.sorted, f.count, &f.self);
	fclose(full);
	return expect_int(err, -EIO);
}

int main(void)
{
	RUN_TEST(test_lint);
	RUN_TEST(test_golden_text);
	RUN_TEST(test_golden_openmetrics);
	RUN_TEST(test_golden_process);
	RUN_TEST(test_values);
	RUN_TEST(test_unsupported_event);
	RUN_TEST(test_runq_unsupported);
	RUN_TEST(test_labels_per_level);
	RUN_TEST(test_label_escaping);
	RUN_TEST(test_process_labels);
	RUN_TEST(test_self_metrics);
	RUN_TEST(test_no_bpf_stats);
	RUN_TEST(test_no_series);
	RUN_TEST(test_format_specifics);
	RUN_TEST(test_family_names_unique);
	RUN_TEST(test_label_values_utf8);
	RUN_TEST(test_event_names);
	RUN_TEST(test_write_error);
	return unit_done();
}
