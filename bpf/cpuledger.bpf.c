// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cpuledger kernel side.
 *
 * What the kernel already counts per task (on-CPU time, voluntary and
 * involuntary switches, faults, migrations, run delay) is read where it lives:
 * the task iterator dumps every task's totals once per interval and the last
 * context switch of an exiting task sends its final totals through a ring
 * buffer. Nothing is done per switch for those. What the kernel does not
 * count per task (perf counters: cycles, instructions, cache misses...) is
 * read at each switch on the local CPU and charged to the outgoing task in
 * task storage. A raw_tp program run on each CPU at the interval's end
 * charges the running task's counters up to now, so a task that never
 * switches is still charged in every interval.
 *
 * Per-CPU mode (stat --per-cpu) additionally charges each stint's deltas to
 * (task, CPU) in a per-CPU hash.
 *
 * The same object streams records for `record` (per-CPU time slices, closed
 * by a switch or by a per-CPU cpu-clock tick) and `trace` (one record per
 * switch) through a ring buffer whose consumer is woken in batches. The mode
 * is a load-time constant: the verifier drops the code of the other modes.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "cpuledger/abi.h"
#include "cpuledger/counter_math.h"
#include "core_fixes.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Configuration, set before load: the verifier prunes what is switched off. */
const volatile __u32 mode = CL_MODE_STAT;	/* enum cl_mode */
const volatile __u32 nr_cpus = 1;		/* possible CPUs */
const volatile __u32 nr_counters = 0;		/* perf counter slots in use */
const volatile bool per_cpu_mode = false;
const volatile bool filter_pids = false;	/* only tgids in pid_filter */
const volatile bool filter_comm = false;	/* only tasks named comm_filter */
const volatile char comm_filter[CL_COMM_LEN] = {};
/* record: slices name the process (group leader), not the thread. */
const volatile bool process_comm = false;
/* Streams: wake the consumer once this much is unread, not per record. */
const volatile __u64 wakeup_bytes = 1 << 20;

/* Written by userspace (mmapped .bss): bumped when a CPU's counters are re-opened. */
__u32 cpu_generation[CL_MAX_CPUS];
/* Counters about cpuledger itself (enum cl_stat). */
__u64 stats[CL_STAT_NR];
/* Source of zeroes for map inserts, kept off the 512-byte stack. */
struct cl_values zero_values;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct cl_task_acct);
} task_acct SEC(".maps");

/* Index slot * nr_cpus + cpu; max_entries set at load from possible CPUs. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cl_cpu_state);
} cpu_state SEC(".maps");

/* Final totals of exiting tasks; drained once per interval, no wakeups. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} exits SEC(".maps");

/* record/trace: the stream of slices or switches; sized at load. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8);
} pid_filter SEC(".maps");

/* Per-CPU mode only; sized at load (1 entry otherwise). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1);
	__type(key, struct cl_task_key);
	__type(value, struct cl_values);
} cpu_tasks SEC(".maps");

static __always_inline void stat_inc(enum cl_stat stat)
{
	__sync_fetch_and_add(&stats[stat], 1);
}

static __always_inline bool comm_equal(const char *comm)
{
	for (int i = 0; i < CL_COMM_LEN; i++) {
		if (comm[i] != comm_filter[i])
			return false;
		if (!comm[i])
			return true;
	}
	return true;
}

/* Is the task one the user asked about? Both filters are load-time constants. */
static __always_inline bool task_selected(struct task_struct *task)
{
	if (filter_pids) {
		__u32 tgid = task->tgid;

		if (!bpf_map_lookup_elem(&pid_filter, &tgid))
			return false;
	}
	if (filter_comm) {
		char comm[CL_COMM_LEN];

		bpf_probe_read_kernel_str(comm, sizeof(comm), task->comm);
		if (comm_equal(comm))
			return true;
		bpf_probe_read_kernel_str(comm, sizeof(comm), task->group_leader->comm);
		return comm_equal(comm);
	}
	return true;
}

/* The kernel's own per-task accounting, cumulative. */
static __always_inline void read_task_values(struct task_struct *task, struct cl_values *out)
{
	out->v[CL_V_ONCPU_NS] = task->se.sum_exec_runtime;
	out->v[CL_V_NVCSW] = task->nvcsw;
	out->v[CL_V_NIVCSW] = task->nivcsw;
	out->v[CL_V_MIN_FLT] = task->min_flt;
	out->v[CL_V_MAJ_FLT] = task->maj_flt;
	out->v[CL_V_MIGRATIONS] = task->se.nr_migrations;
	if (have_sched_info()) {
		out->v[CL_V_RUN_DELAY_NS] = task->sched_info.run_delay;
		out->v[CL_V_RUN_COUNT] = task->sched_info.pcount;
	}
}

static __always_inline struct cl_values *cpu_task_values(struct task_struct *task)
{
	struct cl_task_key key = { .tid = task->pid, .start_ns = task->start_time };
	struct cl_values *vals;

	vals = bpf_map_lookup_elem(&cpu_tasks, &key);
	if (vals)
		return vals;
	if (bpf_map_update_elem(&cpu_tasks, &key, &zero_values, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&cpu_tasks, &key)) {
		stat_inc(CL_STAT_PERCPU_FULL);
		return NULL;
	}
	return bpf_map_lookup_elem(&cpu_tasks, &key);
}

/*
 * Reads this CPU's counters and returns in @deltas what each advanced since
 * the last reading here, i.e. what the task that ran in between did. All
 * counters are read before any map is touched so map work does not leak
 * into the counts. Returns this CPU's state, NULL if unavailable.
 */
static __always_inline struct cl_cpu_state *read_counter_deltas(__u64 *deltas)
{
	struct bpf_perf_event_value readings[CL_MAX_COUNTERS];
	__u32 cpu = bpf_get_smp_processor_id();
	__u32 ok_mask = 0, zero = 0, gen;
	struct cl_cpu_state *state;
	int i;

#pragma unroll
	for (i = 0; i < CL_MAX_COUNTERS; i++) {
		if (i >= nr_counters)
			break;
		if (!bpf_perf_event_read_value(&counters, i * nr_cpus + cpu, &readings[i],
					       sizeof(readings[i])))
			ok_mask |= 1u << i;
	}

	state = bpf_map_lookup_elem(&cpu_state, &zero);
	if (!state)
		return NULL;
	gen = cpu_generation[cpu & CL_MAX_CPUS_MASK];
	if (state->generation != gen) {
		/*
		 * The CPU came back online and its counters were re-opened:
		 * start over from here, counters, slice and switch times alike.
		 */
		state->generation = gen;
		state->valid_mask = 0;
		state->slice_start_ns = 0;
		state->switch_ns = 0;
		stat_inc(CL_STAT_COUNTER_RESETS);
	}

#pragma unroll
	for (i = 0; i < CL_MAX_COUNTERS; i++) {
		if (i >= nr_counters)
			break;
		if (!(ok_mask & (1u << i))) {
			state->valid_mask &= ~(1u << i);
			stat_inc(CL_STAT_COUNTER_READ_ERRS);
			continue;
		}
		if ((state->valid_mask & (1u << i)) &&
		    !cl_counter_delta(state->last_value[i], state->last_enabled[i],
				      state->last_running[i], readings[i].counter,
				      readings[i].enabled, readings[i].running, &deltas[i]))
			stat_inc(CL_STAT_COUNTER_RESETS);
		state->last_value[i] = readings[i].counter;
		state->last_enabled[i] = readings[i].enabled;
		state->last_running[i] = readings[i].running;
		state->valid_mask |= 1u << i;
	}
	return state;
}

/* stat: charge this CPU's counter deltas to @task (the task that ran). */
static __always_inline void charge_counters(struct task_struct *task, bool charge)
{
	__u64 deltas[CL_MAX_COUNTERS] = {};
	struct cl_task_acct *acct;
	struct cl_values *vals;
	int i;

	if (!read_counter_deltas(deltas) || !charge)
		return;
	if (per_cpu_mode) {
		vals = cpu_task_values(task);
		if (!vals)
			return;
#pragma unroll
		for (i = 0; i < CL_MAX_COUNTERS; i++) {
			if (i >= nr_counters)
				break;
			vals->v[CL_V_COUNTER0 + i] += deltas[i];
		}
		return;
	}
	acct = bpf_task_storage_get(&task_acct, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!acct) {
		stat_inc(CL_STAT_STORAGE_FAILS);
		return;
	}
#pragma unroll
	for (i = 0; i < CL_MAX_COUNTERS; i++) {
		if (i >= nr_counters)
			break;
		acct->counters[i] += deltas[i];
	}
}

/* Per-CPU mode: remember where @task's kernel totals stood when it got this CPU. */
static __always_inline void snapshot_task(struct task_struct *task)
{
	struct cl_task_acct *acct;

	acct = bpf_task_storage_get(&task_acct, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!acct) {
		stat_inc(CL_STAT_STORAGE_FAILS);
		return;
	}
	read_task_values(task, &acct->snap);
	acct->snap_valid = 1;
}

/*
 * Per-CPU mode: charge what @task's kernel totals advanced on this CPU since
 * its snapshot. False when there was no snapshot to charge from.
 */
static __always_inline bool charge_stint(struct task_struct *task)
{
	struct cl_task_acct *acct;
	struct cl_values *vals;
	struct cl_values now = {};
	int i;

	acct = bpf_task_storage_get(&task_acct, task, NULL, 0);
	if (!acct || !acct->snap_valid)
		return false;
	vals = cpu_task_values(task);
	if (!vals)
		return true;
	read_task_values(task, &now);
#pragma unroll
	for (i = 0; i < CL_V_COUNTER0; i++) {
		vals->v[i] += now.v[i] - acct->snap.v[i];
		acct->snap.v[i] = now.v[i];
	}
	return true;
}

static __always_inline void fill_identity(struct cl_task_record *rec, struct task_struct *task)
{
	struct task_struct *leader = task->group_leader;

	rec->tid = task->pid;
	rec->tgid = task->tgid;
	rec->start_ns = task->start_time;
	rec->leader_start_ns = leader->start_time;
	rec->cgroup_id = get_task_cgroup_id(task);
	rec->leader_cgroup_id = get_task_cgroup_id(leader);
	rec->flags |= (task->flags & CL_PF_KTHREAD) ? CL_TASK_KTHREAD : 0;
	bpf_probe_read_kernel_str(rec->comm, sizeof(rec->comm), task->comm);
	bpf_probe_read_kernel_str(rec->leader_comm, sizeof(rec->leader_comm), leader->comm);
}

static __always_inline void fill_values(struct cl_task_record *rec, struct task_struct *task)
{
	struct cl_task_acct *acct;
	int i;

	read_task_values(task, &rec->values);
	acct = bpf_task_storage_get(&task_acct, task, NULL, 0);
	if (!acct) {
		rec->flags |= CL_TASK_NO_STORAGE;
		return;
	}
#pragma unroll
	for (i = 0; i < CL_MAX_COUNTERS; i++)
		rec->values.v[CL_V_COUNTER0 + i] = acct->counters[i];
}

/* Final totals of a task at its last switch (its state is TASK_DEAD). */
static __always_inline void emit_exit(struct task_struct *task)
{
	struct cl_task_record *rec;

	rec = bpf_ringbuf_reserve(&exits, sizeof(*rec), 0);
	if (!rec) {
		stat_inc(CL_STAT_EXIT_DROPS);
		return;
	}
	__builtin_memset(rec, 0, sizeof(*rec));
	rec->kind = CL_REC_EXIT;
	rec->flags = CL_TASK_EXITED;
	rec->cpu = bpf_get_smp_processor_id();
	fill_identity(rec, task);
	fill_values(rec, task);
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
}

/* Submits a stream record, waking the consumer only past wakeup_bytes. */
static __always_inline void stream_submit(void *rec)
{
	__u64 flags = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes
			      ? BPF_RB_FORCE_WAKEUP
			      : BPF_RB_NO_WAKEUP;

	bpf_ringbuf_submit(rec, flags);
}

/* record: close @task's slice of this CPU at @now, open the next one. */
static __always_inline void close_slice(struct task_struct *task, __u32 end)
{
	__u64 deltas[CL_MAX_COUNTERS] = {};
	struct cl_slice_record *rec;
	struct cl_cpu_state *state;
	__u64 now, start;
	int i;

	state = read_counter_deltas(deltas);
	if (!state)
		return;
	now = bpf_ktime_get_ns();
	start = state->slice_start_ns;
	state->slice_start_ns = now;
	if (end == CL_SLICE_TICK)
		state->ticks++;
	/* Idle is not a slice; nor is time before the first switch we saw. */
	if (!start || !task->pid || !task_selected(task))
		return;
	rec = bpf_ringbuf_reserve(&events, sizeof(*rec) + nr_counters * sizeof(__u64), 0);
	if (!rec) {
		state->ring_drops++;
		return;
	}
	rec->kind = CL_REC_SLICE;
	rec->cpu = bpf_get_smp_processor_id();
	rec->start_ns = start;
	rec->duration_ns = now - start;
	rec->pid = task->tgid;
	rec->tid = task->pid;
	rec->cgroup_id = get_task_cgroup_id(task);
	bpf_probe_read_kernel_str(rec->comm, sizeof(rec->comm),
				  process_comm ? task->group_leader->comm : task->comm);
	rec->end = end;
	rec->nr_counters = nr_counters;
#pragma unroll
	for (i = 0; i < CL_MAX_COUNTERS; i++) {
		if (i >= nr_counters)
			break;
		rec->counters[i] = deltas[i];
	}
	stream_submit(rec);
}

/* trace: one record per switch involving a selected task. */
static __always_inline void trace_switch(bool preempt, struct task_struct *prev,
					 struct task_struct *next)
{
	__u64 deltas[CL_MAX_COUNTERS] = {};
	struct cl_switch_record *rec;
	struct cl_cpu_state *state;
	__u64 now, last;
	int i;

	state = read_counter_deltas(deltas);
	if (!state)
		return;
	now = bpf_ktime_get_ns();
	last = state->switch_ns;
	state->switch_ns = now;
	if (!task_selected(prev) && !task_selected(next))
		return;
	rec = bpf_ringbuf_reserve(&events, sizeof(*rec) + nr_counters * sizeof(__u64), 0);
	if (!rec) {
		state->ring_drops++;
		return;
	}
	rec->kind = CL_REC_SWITCH;
	rec->cpu = bpf_get_smp_processor_id();
	rec->time_ns = now;
	rec->prev_pid = prev->tgid;
	rec->prev_tid = prev->pid;
	rec->next_pid = next->tgid;
	rec->next_tid = next->pid;
	bpf_probe_read_kernel_str(rec->prev_comm, sizeof(rec->prev_comm), prev->comm);
	bpf_probe_read_kernel_str(rec->next_comm, sizeof(rec->next_comm), next->comm);
	rec->prev_cgroup_id = get_task_cgroup_id(prev);
	rec->next_cgroup_id = get_task_cgroup_id(next);
	rec->run_ns = last ? now - last : 0;
	/* A preempted task is runnable whatever its state says (it was about to sleep). */
	rec->prev_state = preempt ? CL_STATE_PREEMPTED : get_task_state(prev);
	rec->nr_counters = nr_counters;
#pragma unroll
	for (i = 0; i < CL_MAX_COUNTERS; i++) {
		if (i >= nr_counters)
			break;
		rec->counters[i] = deltas[i];
	}
	stream_submit(rec);
}

static __always_inline void on_switch(struct task_struct *prev, struct task_struct *next)
{
	bool prev_tracked = prev->pid && task_selected(prev);

	if (nr_counters)
		charge_counters(prev, prev_tracked);
	if (per_cpu_mode) {
		if (prev_tracked)
			charge_stint(prev);
		if (next->pid && task_selected(next))
			snapshot_task(next);
	}
	if (prev_tracked && get_task_state(prev) == CL_TASK_DEAD)
		emit_exit(prev);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(handle_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	if (mode == CL_MODE_RECORD)
		close_slice(prev, CL_SLICE_SWITCH);
	else if (mode == CL_MODE_TRACE)
		trace_switch(preempt, prev, next);
	else
		on_switch(prev, next);
	return 0;
}

/* record: the per-CPU tick (a cpu-clock sampling event) closes the slice. */
SEC("perf_event")
int slice_tick(struct bpf_perf_event_data *ctx)
{
	if (mode == CL_MODE_RECORD)
		close_slice(bpf_get_current_task_btf(), CL_SLICE_TICK);
	return 0;
}

/*
 * Run by userspace on each CPU (BPF_F_TEST_RUN_ON_CPU) at an interval's end,
 * in the context of whatever task is running there: charge it up to now.
 */
SEC("raw_tp")
int flush_cpu(void *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	bool tracked = task->pid && task_selected(task);

	if (nr_counters)
		charge_counters(task, tracked);
	/* A task running since before cpuledger started gets its snapshot here. */
	if (per_cpu_mode && tracked && !charge_stint(task))
		snapshot_task(task);
	return 0;
}

/* One record per live task; userspace reads the iterator once per interval. */
SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct cl_task_record rec = {};

	/* Exiting tasks are reported by their final switch; zombies are done. */
	if (!task || task->exit_state || !task_selected(task))
		return 0;
	rec.kind = CL_REC_TASK;
	rec.cpu = -1;
	fill_identity(&rec, task);
	fill_values(&rec, task);
	bpf_seq_write(ctx->meta->seq, &rec, sizeof(rec));
	return 0;
}
