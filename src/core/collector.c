// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "core/cgroups.h"
#include "core/collector.h"
#include "core/ringbuf.h"
#include "cpuledger.skel.h"

_Static_assert(sizeof(struct cl_task_record) == 88 + 8 * CL_V_NR, "cl_task_record layout changed");
_Static_assert(sizeof(struct cl_task_acct) % 8 == 0, "cl_task_acct must stay 8-byte aligned");
_Static_assert(sizeof(struct cl_task_key) == 16, "cl_task_key layout changed");
_Static_assert(sizeof(struct cl_slice_record) == 64, "cl_slice_record layout changed");
_Static_assert(sizeof(struct cl_switch_record) == 104, "cl_switch_record layout changed");

struct cl_collector {
	enum cl_mode mode;
	struct ring_buffer *diag;
	void (*on_diag)(void *ctx, const struct cl_diag_record *rec);
	void *diag_ctx;
	bool has_sched_info;
	struct cl_cgroups *cgroups;
	struct ring_buffer *cgroup_events;
	struct cpuledger_bpf *skel;
	struct cl_perf_counters perf;
	struct ring_buffer *exits;	/* stat */
	struct cl_ringbuf *stream;	/* record/trace */
	struct cl_ledger *ledger;	/* the one being fed during a pass */
	const char *sysfs_root;
	unsigned int nr_cpus;		/* possible */
	struct cl_cpumask online;
	bool per_cpu;
	bool needs_flush;
	uint64_t slice_ns;
	struct bpf_link **ticks;	/* record: [nr_cpus] */
	struct cl_values *percpu_values;	/* [nr_cpus] lookup buffer */
	struct cl_cpu_state *cpu_states;	/* [nr_cpus] lookup buffer */
	cl_stream_fn on_record;
	void *record_ctx;
	struct cl_collector_stats stats;
	char *iter_buf;
	size_t iter_buf_size;
};

static int fail(char *errmsg, size_t size, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *errmsg, size_t size, int err, const char *fmt, ...)
{
	va_list args;
	size_t n;

	va_start(args, fmt);
	vsnprintf(errmsg, size, fmt, args);
	va_end(args);
	n = strlen(errmsg);
	if (err && n < size)
		snprintf(errmsg + n, size - n, ": %s", strerror(err < 0 ? -err : err));
	return err < 0 ? err : -err;
}

/* Kernel BTF, loaded once, to ask which tracepoints this kernel has. */
static struct btf *vmlinux_btf;

static bool tracepoint_btf(void)
{
	if (!vmlinux_btf)
		vmlinux_btf = btf__load_vmlinux_btf();
	return vmlinux_btf != NULL;
}

static bool tracepoint_exists(const char *name)
{
	char type[128];

	if (!tracepoint_btf())
		return false;
	snprintf(type, sizeof(type), "btf_trace_%s", name);
	return btf__find_by_name_kind(vmlinux_btf, type, BTF_KIND_TYPEDEF) > 0;
}

static bool uses_slot(const struct cl_collector *c, enum cl_slot_kind kind)
{
	for (unsigned int i = 0; i < c->perf.nr_slots; i++) {
		if (c->perf.slot_kind[i] == kind)
			return true;
	}
	return false;
}

/* Loads a kernel-event program only when a slot needs it and its tracepoint exists. */
static int autoload_tracepoint(struct bpf_program *prog, const char *tracepoint, bool wanted)
{
	return bpf_program__set_autoload(prog, wanted && tracepoint_exists(tracepoint));
}

static int configure(struct cl_collector *c, const struct cl_collector_opts *opts)
{
	struct cpuledger_bpf *skel = c->skel;
	unsigned int slots = c->perf.nr_slots ? c->perf.nr_slots : 1;
	bool stat = opts->mode == CL_MODE_STAT, reclaim;
	int err;

	skel->rodata->mode = opts->mode;
	skel->rodata->nr_cpus = c->nr_cpus;
	skel->rodata->nr_counters = c->perf.nr_slots;
	memcpy((void *)skel->rodata->slot_kind, c->perf.slot_kind, sizeof(c->perf.slot_kind));
	skel->rodata->track_preemptors = stat && opts->max_preemptor_pairs > 0;
	skel->rodata->track_cgroups = stat && opts->cgroups;
	skel->rodata->per_cpu_mode = opts->per_cpu;
	skel->rodata->process_comm = opts->process_comm;
	skel->rodata->diag_level = opts->diag_level;
	skel->rodata->filter_pids = opts->nr_pids > 0;
	if (opts->comm) {
		skel->rodata->filter_comm = true;
		strncpy((char *)skel->rodata->comm_filter, opts->comm, CL_COMM_LEN - 1);
	}
	if (!stat && opts->stream_ring_bytes)
		skel->rodata->wakeup_bytes = opts->stream_ring_bytes / 8;
	err = bpf_map__set_max_entries(skel->maps.counters, slots * c->nr_cpus);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.pid_filter,
					       opts->nr_pids ? (__u32)opts->nr_pids : 1);
	if (!err && opts->per_cpu)
		err = bpf_map__set_max_entries(skel->maps.cpu_tasks, (__u32)opts->max_tasks);
	if (!err && stat && opts->max_preemptor_pairs)
		err = bpf_map__set_max_entries(skel->maps.preemptors,
					       (__u32)opts->max_preemptor_pairs);
	if (!err)
		err = autoload_tracepoint(skel->progs.handle_page_alloc, "mm_page_alloc",
					  uses_slot(c, CL_SLOT_PAGE_ALLOCS));
	reclaim = uses_slot(c, CL_SLOT_RECLAIM_NS) || uses_slot(c, CL_SLOT_RECLAIMS);
	if (!err)
		err = autoload_tracepoint(skel->progs.handle_direct_reclaim_begin,
					  "mm_vmscan_direct_reclaim_begin", reclaim);
	if (!err)
		err = autoload_tracepoint(skel->progs.handle_direct_reclaim_end,
					  "mm_vmscan_direct_reclaim_end", reclaim);
	if (!err)
		err = autoload_tracepoint(skel->progs.handle_memcg_reclaim_begin,
					  "mm_vmscan_memcg_reclaim_begin", reclaim);
	if (!err)
		err = autoload_tracepoint(skel->progs.handle_memcg_reclaim_end,
					  "mm_vmscan_memcg_reclaim_end", reclaim);
	if (!err && stat && opts->exit_ring_bytes) {
		err = bpf_map__set_max_entries(skel->maps.exits, (__u32)opts->exit_ring_bytes);
		skel->rodata->exit_wakeup_bytes = opts->exit_ring_bytes / 2;
	}
	if (!err && !stat)
		err = bpf_map__set_max_entries(skel->maps.exits, 4096);
	if (!err && !stat && opts->stream_ring_bytes)
		err = bpf_map__set_max_entries(skel->maps.events, (__u32)opts->stream_ring_bytes);
	/* Load only what this mode runs; none of these is auto-attached. */
	if (!err && (!stat || !c->needs_flush))
		err = bpf_program__set_autoload(skel->progs.flush_cpu, false);
	if (!err && !stat)
		err = bpf_program__set_autoload(skel->progs.dump_task, false);
	if (!err && opts->cgroups)
		err = bpf_map__set_max_entries(skel->maps.cgroup_events, 256 << 10);
	if (!err && opts->diag_level)
		err = bpf_map__set_max_entries(skel->maps.diag, 256 << 10);
	if (!err)
		err = autoload_tracepoint(skel->progs.handle_cgroup_mkdir, "cgroup_mkdir",
					  stat && opts->cgroups);
	if (!err && opts->mode != CL_MODE_RECORD)
		err = bpf_program__set_autoload(skel->progs.slice_tick, false);
	bpf_program__set_autoattach(skel->progs.flush_cpu, false);
	bpf_program__set_autoattach(skel->progs.slice_tick, false);
	return err;
}

static int on_exit_record(void *ctx, void *data, size_t size)
{
	struct cl_collector *c = ctx;

	if (size < sizeof(struct cl_task_record))
		return 0;
	cl_ledger_observe(c->ledger, data);
	return 0;
}

static int on_cgroup_record(void *ctx, void *data, size_t size)
{
	struct cl_collector *c = ctx;
	const struct cl_cgroup_record *rec = data;
	char path[CL_CGROUP_RECORD_PATH];

	if (size < sizeof(*rec) || rec->kind != CL_REC_CGROUP)
		return 0;
	/* Ring buffer pages are read-only here: terminate a copy. */
	memcpy(path, rec->path, sizeof(path));
	path[sizeof(path) - 1] = '\0';
	cl_cgroups_remember(c->cgroups, rec->id, path[0] ? path : "/");
	return 0;
}

static int on_diag_record(void *ctx, void *data, size_t size)
{
	struct cl_collector *c = ctx;

	if (size < sizeof(struct cl_diag_record))
		return 0;
	c->stats.diag_records++;
	if (c->on_diag)
		c->on_diag(c->diag_ctx, data);
	return 0;
}

void cl_collector_drain_diag(struct cl_collector *c)
{
	if (c->diag)
		ring_buffer__consume(c->diag);
}

static int on_stream_record(void *ctx, const void *data, size_t size)
{
	struct cl_collector *c = ctx;

	return c->on_record ? c->on_record(c->record_ctx, data, size) : 0;
}

/* record: a cpu-clock sampling event on @cpu firing every slice, running slice_tick. */
static int open_tick(struct cl_collector *c, unsigned int cpu)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = c->slice_ns,
	};
	struct bpf_link *link;
	int fd, err;

	if (c->ticks[cpu])
		return 0;
	fd = cl_perf_event_open(&attr, -1, (int)cpu);
	if (fd < 0)
		return fd;
	link = bpf_program__attach_perf_event(c->skel->progs.slice_tick, fd);
	if (!link) {
		err = -errno;
		close(fd);
		return err;
	}
	c->ticks[cpu] = link; /* owns fd now */
	return 0;
}

static void close_tick(struct cl_collector *c, unsigned int cpu)
{
	if (!c->ticks || !c->ticks[cpu])
		return;
	bpf_link__destroy(c->ticks[cpu]);
	c->ticks[cpu] = NULL;
}

/* Opens what @cpu needs (counters, tick); returns the first error. */
static int cpu_up(struct cl_collector *c, unsigned int cpu)
{
	int first_errno = 0, err = 0;

	/* Tell the kernel side to start this CPU over: counters, slice, switch time. */
	c->skel->bss->cpu_generation[cpu & CL_MAX_CPUS_MASK]++;
	if (cl_perf_counters_open_cpu(&c->perf, cpu, &first_errno))
		err = -first_errno;
	if (c->mode == CL_MODE_RECORD) {
		int tick_err = open_tick(c, cpu);

		if (!err)
			err = tick_err;
	}
	return err;
}

static void cpu_down(struct cl_collector *c, unsigned int cpu)
{
	cl_perf_counters_close_cpu(&c->perf, cpu);
	close_tick(c, cpu);
}

int cl_collector_open(struct cl_collector **out, const struct cl_collector_opts *opts,
		      char *errmsg, size_t errmsg_size)
{
	struct cl_collector *c;
	int err, possible;
	unsigned int cpu;
	size_t i;

	c = calloc(1, sizeof(*c));
	if (!c)
		return fail(errmsg, errmsg_size, -ENOMEM, "allocating the collector");
	c->mode = opts->mode;
	c->cgroups = opts->cgroups;
	c->on_diag = opts->on_diag;
	c->diag_ctx = opts->diag_ctx;
	c->sysfs_root = opts->sysfs_root ? opts->sysfs_root : "/sys";
	c->per_cpu = opts->per_cpu;
	c->slice_ns = opts->slice_ns ? opts->slice_ns : 1000000;
	c->on_record = opts->on_record;
	c->record_ctx = opts->record_ctx;
	possible = libbpf_num_possible_cpus();
	if (possible <= 0) {
		err = fail(errmsg, errmsg_size, possible ?: -EINVAL, "counting possible CPUs");
		goto err_free;
	}
	if (possible > CL_MAX_CPUS) {
		err = fail(errmsg, errmsg_size, -E2BIG, "%d possible CPUs, cpuledger handles %d",
			   possible, CL_MAX_CPUS);
		goto err_free;
	}
	c->nr_cpus = (unsigned int)possible;
	c->percpu_values = calloc(c->nr_cpus, sizeof(*c->percpu_values));
	c->cpu_states = calloc(c->nr_cpus, sizeof(*c->cpu_states));
	c->ticks = calloc(c->nr_cpus, sizeof(*c->ticks));
	if (!c->percpu_values || !c->cpu_states || !c->ticks) {
		err = fail(errmsg, errmsg_size, -ENOMEM, "allocating per-CPU buffers");
		goto err_free;
	}
	err = cl_cpus_read(c->sysfs_root, "online", &c->online);
	if (err) {
		fail(errmsg, errmsg_size, err, "reading %s/devices/system/cpu/online",
		     c->sysfs_root);
		goto err_free;
	}
	err = cl_perf_counters_init(&c->perf, c->nr_cpus);
	if (err) {
		fail(errmsg, errmsg_size, err, "allocating perf counters");
		goto err_free;
	}
	/* Only CPUs online now; the others are opened when they come online. */
	err = cl_perf_counters_probe(&c->perf, opts->events, &c->online, tracepoint_exists);
	if (err) {
		fail(errmsg, errmsg_size, err, "opening perf counters");
		goto err_perf;
	}
	c->needs_flush = c->mode == CL_MODE_STAT && (c->perf.nr_slots > 0 || opts->per_cpu);

	c->skel = cpuledger_bpf__open();
	if (!c->skel) {
		err = fail(errmsg, errmsg_size, -errno, "opening the BPF object");
		goto err_perf;
	}
	err = configure(c, opts);
	/*
	 * The kernel's BTF is big and libbpf is about to load its own copy:
	 * keep only the answers, so the two copies never coexist.
	 */
	c->has_sched_info = tracepoint_btf() &&
			    btf__find_by_name_kind(vmlinux_btf, "sched_info", BTF_KIND_STRUCT) > 0;
	btf__free(vmlinux_btf);
	vmlinux_btf = NULL;
	if (err) {
		fail(errmsg, errmsg_size, err, "configuring the BPF object");
		goto err_skel;
	}
	err = cpuledger_bpf__load(c->skel);
	if (err) {
		fail(errmsg, errmsg_size, err,
		     "loading BPF programs (run with -v for the verifier log)");
		goto err_skel;
	}
	for (i = 0; i < opts->nr_pids; i++) {
		__u8 one = 1;

		if (bpf_map__update_elem(c->skel->maps.pid_filter, &opts->pids[i],
					 sizeof(opts->pids[i]), &one, sizeof(one), BPF_ANY)) {
			err = fail(errmsg, errmsg_size, -errno, "setting the PID filter");
			goto err_skel;
		}
	}
	err = cl_perf_counters_set_map(&c->perf, bpf_map__fd(c->skel->maps.counters));
	if (err) {
		fail(errmsg, errmsg_size, err, "publishing perf counters to BPF");
		goto err_skel;
	}
	if (c->mode == CL_MODE_STAT)
		c->exits = ring_buffer__new(bpf_map__fd(c->skel->maps.exits), on_exit_record, c,
					    NULL);
	else
		c->stream = cl_ringbuf_new(bpf_map__fd(c->skel->maps.events), on_stream_record, c);
	if (!c->exits && !c->stream) {
		err = fail(errmsg, errmsg_size, -errno, "setting up the ring buffer");
		goto err_skel;
	}
	/*
	 * Always read the diagnostics ring, also at the default level: that
	 * nothing ever arrives there is what the tests check.
	 */
	c->diag = ring_buffer__new(bpf_map__fd(c->skel->maps.diag), on_diag_record, c, NULL);
	if (!c->diag) {
		err = fail(errmsg, errmsg_size, -errno, "setting up the diagnostics ring buffer");
		goto err_ring;
	}
	if (c->cgroups) {
		c->cgroup_events = ring_buffer__new(bpf_map__fd(c->skel->maps.cgroup_events),
						    on_cgroup_record, c, NULL);
		if (!c->cgroup_events) {
			err = fail(errmsg, errmsg_size, -errno, "setting up the %s ring buffer",
				   "cgroup");
			goto err_ring;
		}
	}
	err = cpuledger_bpf__attach(c->skel);
	if (err) {
		fail(errmsg, errmsg_size, err, "attaching BPF programs");
		goto err_ring;
	}
	if (c->mode == CL_MODE_RECORD) {
		for (cpu = 0; cpu < c->nr_cpus; cpu++) {
			if (!cl_cpumask_test(&c->online, cpu))
				continue;
			err = open_tick(c, cpu);
			if (err) {
				fail(errmsg, errmsg_size, err, "opening the slice tick on CPU %u",
				     cpu);
				goto err_ticks;
			}
		}
	}
	c->iter_buf_size = 512 * sizeof(struct cl_task_record);
	c->iter_buf = malloc(c->iter_buf_size);
	if (!c->iter_buf) {
		err = fail(errmsg, errmsg_size, -ENOMEM, "allocating the iterator buffer");
		goto err_ticks;
	}
	*out = c;
	return 0;

err_ticks:
	for (cpu = 0; cpu < c->nr_cpus; cpu++)
		close_tick(c, cpu);
err_ring:
	ring_buffer__free(c->diag);
	ring_buffer__free(c->cgroup_events);
	ring_buffer__free(c->exits);
	cl_ringbuf_free(c->stream);
err_skel:
	cpuledger_bpf__destroy(c->skel);
err_perf:
	cl_perf_counters_free(&c->perf);
err_free:
	free(c->ticks);
	free(c->cpu_states);
	free(c->percpu_values);
	free(c);
	return err;
}

void cl_collector_close(struct cl_collector *c)
{
	unsigned int cpu;

	if (!c)
		return;
	for (cpu = 0; cpu < c->nr_cpus; cpu++)
		close_tick(c, cpu);
	free(c->iter_buf);
	ring_buffer__free(c->diag);
	ring_buffer__free(c->cgroup_events);
	ring_buffer__free(c->exits);
	cl_ringbuf_free(c->stream);
	cpuledger_bpf__destroy(c->skel);
	cl_perf_counters_free(&c->perf);
	free(c->ticks);
	free(c->cpu_states);
	free(c->percpu_values);
	free(c);
}

int cl_collector_sync_cpus(struct cl_collector *c, cl_cpu_change_fn fn, void *ctx)
{
	struct cl_cpumask now;
	unsigned int cpu;
	int changes = 0;

	if (cl_cpus_read(c->sysfs_root, "online", &now))
		return 0;
	if (cl_cpumask_equal(&now, &c->online))
		return 0;
	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		bool was = cl_cpumask_test(&c->online, cpu), is = cl_cpumask_test(&now, cpu);
		int err = 0;

		if (was == is)
			continue;
		if (is)
			err = cpu_up(c, cpu);
		else
			cpu_down(c, cpu);
		changes++;
		if (fn)
			fn(ctx, cpu, is, err);
	}
	c->online = now;
	return changes;
}

/* Runs the flush program on each online CPU, charging whatever runs there. */
static void flush_cpus(struct cl_collector *c)
{
	int prog_fd = bpf_program__fd(c->skel->progs.flush_cpu);
	unsigned int cpu;

	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, run, .cpu = cpu, .flags = BPF_F_TEST_RUN_ON_CPU);

		if (!cl_cpumask_test(&c->online, cpu))
			continue;
		/* ENXIO: the CPU went offline since we looked; nothing runs there. */
		if (bpf_prog_test_run_opts(prog_fd, &run) && errno != ENXIO)
			c->stats.flush_errors++;
	}
}

static int read_iterator(struct cl_collector *c)
{
	size_t have = 0, rec_size = sizeof(struct cl_task_record);
	int fd, err = 0;

	fd = bpf_iter_create(bpf_link__fd(c->skel->links.dump_task));
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, c->iter_buf + have, c->iter_buf_size - have);
		size_t off = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		for (; have - off >= rec_size; off += rec_size)
			cl_ledger_observe(c->ledger, (struct cl_task_record *)(c->iter_buf + off));
		memmove(c->iter_buf, c->iter_buf + off, have - off);
		have -= off;
	}
	c->stats.iter_bad_bytes += have;
	close(fd);
	return err;
}

static int read_percpu(struct cl_collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.cpu_tasks);
	struct cl_task_key key, next;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, c->percpu_values))
			continue; /* deleted meanwhile */
		cl_ledger_observe_percpu(c->ledger, key.tid, key.start_ns, c->percpu_values);
	}
	return errno == ENOENT ? 0 : -errno;
}

void cl_collector_forget(void *ctx, uint32_t tid, uint64_t start_ns)
{
	struct cl_collector *c = ctx;
	struct cl_task_key key = { .tid = tid, .start_ns = start_ns };

	bpf_map_delete_elem(bpf_map__fd(c->skel->maps.cpu_tasks), &key);
}

int cl_collector_pass(struct cl_collector *c, struct cl_ledger *ledger)
{
	int err;

	if (c->mode != CL_MODE_STAT)
		return -EINVAL;
	c->ledger = ledger;
	/* New cgroups first: tasks read next may be in them. */
	if (c->cgroup_events)
		ring_buffer__consume(c->cgroup_events);
	cl_ledger_begin_pass(ledger);
	if (c->needs_flush)
		flush_cpus(c);
	/* Live tasks first, then the ones that exited: exit records are final. */
	err = read_iterator(c);
	if (!err) {
		int n = ring_buffer__consume(c->exits);

		err = n < 0 ? n : 0;
	}
	if (!err && c->per_cpu)
		err = read_percpu(c);
	cl_ledger_end_pass(ledger);
	c->ledger = NULL;
	cl_collector_drain_diag(c);
	memcpy(c->stats.bpf, c->skel->bss->stats, sizeof(c->stats.bpf));
	return err;
}

int cl_collector_exit_fd(const struct cl_collector *c)
{
	return c->exits ? ring_buffer__epoll_fd(c->exits) : -1;
}

int cl_collector_drain_exits(struct cl_collector *c, struct cl_ledger *ledger)
{
	int n;

	if (!c->exits)
		return -EINVAL;
	c->ledger = ledger;
	n = ring_buffer__consume(c->exits);
	c->ledger = NULL;
	return n < 0 ? n : 0;
}

int cl_collector_stream_fd(const struct cl_collector *c)
{
	return c->stream ? cl_ringbuf_fd(c->stream) : -1;
}

int cl_collector_stream_consume(struct cl_collector *c)
{
	int n;

	if (!c->stream)
		return -EINVAL;
	n = cl_ringbuf_consume(c->stream);
	cl_collector_drain_diag(c);
	memcpy(c->stats.bpf, c->skel->bss->stats, sizeof(c->stats.bpf));
	return n;
}

static int read_cpu_states(const struct cl_collector *c)
{
	__u32 zero = 0;

	return bpf_map__lookup_elem(c->skel->maps.cpu_state, &zero, sizeof(zero), c->cpu_states,
				    sizeof(*c->cpu_states) * c->nr_cpus, 0)
		       ? -errno
		       : 0;
}

int cl_collector_ring_drops(const struct cl_collector *c, uint64_t *per_cpu)
{
	int err = read_cpu_states(c);

	for (unsigned int cpu = 0; !err && cpu < c->nr_cpus; cpu++)
		per_cpu[cpu] = c->cpu_states[cpu].ring_drops;
	return err;
}

int cl_collector_preemptors(struct cl_collector *c,
			    void (*fn)(void *ctx, const struct cl_preempt_key *key, uint64_t count),
			    void *ctx)
{
	int fd = bpf_map__fd(c->skel->maps.preemptors);
	struct cl_preempt_key key, next;
	void *prev = NULL;
	__u64 count;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &count))
			fn(ctx, &key, count);
	}
	return errno == ENOENT ? 0 : -errno;
}

size_t cl_collector_prog_stats(const struct cl_collector *c, struct cl_prog_stat *stats,
			       size_t max)
{
	struct bpf_program *prog;
	size_t n = 0;

	bpf_object__for_each_program(prog, c->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (n >= max || fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		stats[n].name = bpf_program__name(prog);
		stats[n].run_ns = info.run_time_ns;
		stats[n].runs = info.run_cnt;
		n++;
	}
	return n;
}

bool cl_bpf_stats_enabled(void)
{
	char value = '0';
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "re");

	if (!f)
		return false;
	if (fread(&value, 1, 1, f) != 1)
		value = '0';
	fclose(f);
	return value == '1';
}

int cl_collector_ticks(const struct cl_collector *c, uint64_t *per_cpu)
{
	int err = read_cpu_states(c);

	for (unsigned int cpu = 0; !err && cpu < c->nr_cpus; cpu++)
		per_cpu[cpu] = c->cpu_states[cpu].ticks;
	return err;
}

void cl_collector_get_stats(const struct cl_collector *c, struct cl_collector_stats *stats)
{
	*stats = c->stats;
}

bool cl_collector_has_sched_info(const struct cl_collector *c)
{
	return c->has_sched_info;
}

unsigned int cl_collector_nr_cpus(const struct cl_collector *c)
{
	return c->nr_cpus;
}

const struct cl_cpumask *cl_collector_online(const struct cl_collector *c)
{
	return &c->online;
}
