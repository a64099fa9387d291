// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cpuledger kernel side.
 *
 * What the kernel already counts per task (on-CPU time, voluntary and
 * involuntary switches, faults, migrations, run-queue delay) is read where it
 * lives: the task iterator dumps every task's totals once per interval and the
 * last context switch of an exiting task sends its final totals through a ring
 * buffer. What the kernel does not count per task is charged at each switch to
 * the outgoing task, in task storage (one lookup per switch):
 *   - counter slots: per-CPU perf counters (cycles, instructions, cache
 *     misses...) and kernel events counted per CPU by tracepoints (pages
 *     allocated, time in reclaim), read on the local CPU, their advance since
 *     the last reading charged to the task that ran in between;
 *   - the run-queue wait that preceded the run now ending (from the kernel's
 *     sched_info.run_delay), into a log2 histogram and a maximum;
 *   - for an involuntary switch (nivcsw moved), who took the CPU: a thread of
 *     the same process, another process of the same cgroup, or another cgroup.
 * A raw_tp program run on each CPU at the interval's end charges the running
 * task's counters up to now, so a task that never switches is still charged
 * in every interval.
 *
 * Per-CPU mode (stat --per-cpu) charges each stint to (task, CPU) in a per-CPU
 * hash instead. The same object streams records for `record` (per-CPU time
 * slices, closed by a switch or by a per-CPU cpu-clock tick) and `trace` (one
 * record per switch) through a ring buffer whose consumer is woken in batches.
 * The mode is a load-time constant: the verifier drops the other modes' code.
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
const volatile __u32 nr_counters = 0;		/* counter slots in use */
const volatile __u8 slot_kind[CL_MAX_COUNTERS] = {}; /* enum cl_slot_kind per slot */
const volatile bool per_cpu_mode = false;
const volatile bool filter_pids = false;	/* only tgids in pid_filter */
const volatile bool filter_comm = false;	/* only tasks named comm_filter */
const volatile char comm_filter[CL_COMM_LEN] = {};
/* record: slices name the process (group leader), not the thread. */
const volatile bool process_comm = false;
/* stat --preemptors: count (victim cgroup, preemptor cgroup) pairs. */
const volatile bool track_preemptors = false;
/* stat --by cgroup/container/pod: name cgroups as they are created. */
const volatile bool track_cgroups = false;
/* Kernel-side diagnostics: 0 (default) compiles them out; 1 emits one per stat event. */
const volatile __u32 diag_level = 0;
/* Streams: wake the consumer once this much is unread, not per record. */
const volatile __u64 wakeup_bytes = 1 << 20;
/* stat: exits are read once per interval, unless this much piles up first. */
const volatile __u64 exit_wakeup_bytes = 128 << 10;

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

/* The iterator's record is too big for the 512-byte stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cl_task_record);
} scratch SEC(".maps");

/* Final totals of exiting tasks; drained once per interval (or when half full). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 << 10);
} exits SEC(".maps");

/* stat --by cgroup/container/pod: new cgroups' names; drained before each pass. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} cgroup_events SEC(".maps");

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

/* Diagnostics (diag_level >= 1 only); sized at load. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} diag SEC(".maps");

/* Per-CPU mode only; sized at load (1 entry otherwise). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1);
	__type(key, struct cl_task_key);
	__type(value, struct cl_values);
} cpu_tasks SEC(".maps");

/* stat --preemptors only; sized at load (1 entry otherwise). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct cl_preempt_key);
	__type(value, __u64);
} preemptors SEC(".maps");

static __always_inline void stat_inc(enum cl_stat stat)
{
	struct cl_diag_record *rec;

	__sync_fetch_and_add(&stats[stat], 1);
	if (diag_level < 1)
		return; /* the verifier drops the rest at the default level */
	rec = bpf_ringbuf_reserve(&diag, sizeof(*rec), 0);
	if (!rec)
		return;
	rec->kind = CL_REC_DIAG;
	rec->code = stat;
	rec->cpu = bpf_get_smp_processor_id();
	rec->__pad = 0;
	rec->time_ns = bpf_ktime_get_ns();
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
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

/* The kernel's own per-task accounting, cumulative: v[0..CL_V_KERNEL_NR). */
static __always_inline void read_task_values(struct task_struct *task, __u64 *v)
{
	v[CL_V_ONCPU_NS] = task->se.sum_exec_runtime;
	v[CL_V_NVCSW] = task->nvcsw;
	v[CL_V_NIVCSW] = task->nivcsw;
	v[CL_V_MIN_FLT] = task->min_flt;
	v[CL_V_MAJ_FLT] = task->maj_flt;
	v[CL_V_MIGRATIONS] = task->se.nr_migrations;
	if (have_sched_info()) {
		v[CL_V_RUN_DELAY_NS] = task->sched_info.run_delay;
		v[CL_V_RUN_COUNT] = task->sched_info.pcount;
	} else {
		v[CL_V_RUN_DELAY_NS] = 0;
		v[CL_V_RUN_COUNT] = 0;
	}
}

static __always_inline struct cl_task_acct *task_acct_get(struct task_struct *task)
{
	struct cl_task_acct *acct;

	acct = bpf_task_storage_get(&task_acct, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!acct)
		stat_inc(CL_STAT_STORAGE_FAILS);
	return acct;
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
 * Reads this CPU's counter slots and returns in @deltas what each advanced
 * since the last reading here, i.e. what the task that ran in between did.
 * Perf counters are read before any map is touched so map work does not leak
 * into the counts; kernel-event slots are this CPU's running sums. Returns
 * this CPU's state, NULL if unavailable.
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
		if (slot_kind[i] == CL_SLOT_PERF &&
		    !bpf_perf_event_read_value(&counters, i * nr_cpus + cpu, &readings[i],
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
		if (slot_kind[i] != CL_SLOT_PERF) {
			/* A running sum: enabled == running, never scaled. */
			__u32 soft = (__u32)slot_kind[i] - 1;
			__u64 sum = soft < CL_SOFT_NR ? state->soft[soft] : 0;

			readings[i].counter = sum;
			readings[i].enabled = sum;
			readings[i].running = sum;
			ok_mask |= 1u << i;
		}
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

static __always_inline void add_counters(struct cl_values *acc, const __u64 *deltas)
{
#pragma unroll
	for (int i = 0; i < CL_MAX_COUNTERS; i++) {
		if (i >= nr_counters)
			break;
		acc->v[CL_V_COUNTER0 + i] += deltas[i];
	}
}

static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r < CL_RUNQ_HIST_BUCKETS ? r : CL_RUNQ_HIST_BUCKETS - 1;
}

/* Counts an involuntary switch of @prev to @next by cgroup pair. */
static __always_inline void count_preemptor(struct task_struct *prev, struct task_struct *next)
{
	struct cl_preempt_key key = {
		.victim_cgroup_id = get_task_cgroup_id(prev),
		.preemptor_cgroup_id = get_task_cgroup_id(next),
	};
	__u64 one = 1, *count;

	count = bpf_map_lookup_elem(&preemptors, &key);
	if (count) {
		__sync_fetch_and_add(count, 1);
		return;
	}
	if (bpf_map_update_elem(&preemptors, &key, &one, BPF_NOEXIST)) {
		count = bpf_map_lookup_elem(&preemptors, &key);
		if (count)
			__sync_fetch_and_add(count, 1);
		else
			stat_inc(CL_STAT_PREEMPTORS_FULL);
	}
}

/*
 * At @prev's switch-out: the run-queue wait before the run now ending (the
 * kernel added it to run_delay when prev got the CPU), and, if this switch is
 * involuntary (the kernel just counted it in nivcsw), who takes the CPU.
 */
static __always_inline void account_switch_out(struct task_struct *prev, struct task_struct *next,
					       struct cl_task_acct *acct, struct cl_values *acc)
{
	__u64 nivcsw = prev->nivcsw, run_delay = 0, pcount = 0;

	if (have_sched_info()) {
		run_delay = prev->sched_info.run_delay;
		pcount = prev->sched_info.pcount;
	}
	if (acct->seen) {
		if (pcount != acct->last_pcount) {
			__u64 wait = run_delay - acct->last_run_delay;

			acc->v[CL_V_HIST0 + log2_bucket(wait)]++;
			if (wait > acc->v[CL_V_RUNQ_MAX_NS])
				acc->v[CL_V_RUNQ_MAX_NS] = wait;
		}
		if (nivcsw != acct->last_nivcsw && next->pid) {
			if (next->tgid == prev->tgid)
				acc->v[CL_V_PREEMPT_SAME_PROCESS]++;
			else if (next->cgroups->dfl_cgrp == prev->cgroups->dfl_cgrp)
				acc->v[CL_V_PREEMPT_SAME_CGROUP]++;
			else
				acc->v[CL_V_PREEMPT_OTHER_CGROUP]++;
			if (track_preemptors && next->tgid != prev->tgid)
				count_preemptor(prev, next);
		}
	}
	acct->last_run_delay = run_delay;
	acct->last_pcount = pcount;
	acct->last_nivcsw = nivcsw;
	acct->seen = 1;
}

/* Per-CPU mode: charge what @task's kernel totals advanced on this CPU since its snapshot. */
static __always_inline bool charge_stint(struct task_struct *task, struct cl_task_acct *acct,
					 struct cl_values *acc)
{
	__u64 now[CL_V_KERNEL_NR];
	int i;

	if (!acct->snap_valid)
		return false;
	read_task_values(task, now);
#pragma unroll
	for (i = 0; i < CL_V_KERNEL_NR; i++) {
		acc->v[i] += now[i] - acct->snap[i];
		acct->snap[i] = now[i];
	}
	return true;
}

/* Per-CPU mode: remember where @task's kernel totals stood when it got this CPU. */
static __always_inline void snapshot_task(struct task_struct *task)
{
	struct cl_task_acct *acct = task_acct_get(task);

	if (!acct)
		return;
	read_task_values(task, acct->snap);
	acct->snap_valid = 1;
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

/* What cpuledger charged (from task storage), then the kernel's own fields. */
static __always_inline void fill_values(struct cl_task_record *rec, struct task_struct *task,
					struct cl_task_acct *acct)
{
	if (acct) {
		__builtin_memcpy(&rec->values, &acct->totals, sizeof(rec->values));
		/* The maximum is per read: the next interval starts from 0. */
		acct->totals.v[CL_V_RUNQ_MAX_NS] = 0;
	} else {
		rec->flags |= CL_TASK_NO_STORAGE;
	}
	read_task_values(task, rec->values.v);
}

/*
 * Wake the reader when the unread data crosses @threshold with this record,
 * once per batch, not for every record while it stays above (a busy reader
 * would otherwise cost an irq_work per record); and always past four times
 * the threshold, when the reader may have missed a crossing.
 */
static __always_inline __u64 wakeup_flags(__u64 avail, __u64 size, __u64 threshold)
{
	if (avail >= 4 * threshold)
		return BPF_RB_FORCE_WAKEUP;
	if (avail >= threshold && avail < threshold + size + 2 * BPF_RINGBUF_HDR_SZ)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

/* Final totals of a task at its last switch (its state is TASK_DEAD). */
static __always_inline void emit_exit(struct task_struct *task, struct cl_task_acct *acct)
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
	fill_values(rec, task, acct);
	/* A storm of exits wakes the reader early rather than losing some. */
	bpf_ringbuf_submit(rec, wakeup_flags(bpf_ringbuf_query(&exits, BPF_RB_AVAIL_DATA),
					     sizeof(*rec), exit_wakeup_bytes));
}

/* stat: charge @prev for its run, at its switch-out (or, from flush, up to now). */
static __always_inline void stat_charge(struct task_struct *prev, struct task_struct *next,
					bool switching)
{
	__u64 deltas[CL_MAX_COUNTERS] = {};
	struct cl_task_acct *acct;
	struct cl_values *acc;

	if (nr_counters)
		read_counter_deltas(deltas);
	if (!prev->pid || !task_selected(prev))
		return;
	acct = task_acct_get(prev);
	if (!acct)
		return;
	acc = per_cpu_mode ? cpu_task_values(prev) : &acct->totals;
	if (acc) {
		add_counters(acc, deltas);
		if (switching)
			account_switch_out(prev, next, acct, acc);
		/* A task running since before cpuledger started gets its snapshot here. */
		if (per_cpu_mode && !charge_stint(prev, acct, acc) && !switching)
			snapshot_task(prev);
	}
	if (switching && get_task_state(prev) == CL_TASK_DEAD)
		emit_exit(prev, per_cpu_mode ? NULL : acct);
}

/* A stream record of @size bytes plus the counters; a full ring is counted on this CPU. */
static __always_inline void *stream_reserve(struct cl_cpu_state *state, __u64 size)
{
	void *rec = bpf_ringbuf_reserve(&events, size + nr_counters * sizeof(__u64), 0);

	if (!rec)
		state->ring_drops++;
	return rec;
}

static __always_inline void stream_copy_counters(__u64 *dst, const __u64 *deltas)
{
	int i;

#pragma unroll
	for (i = 0; i < CL_MAX_COUNTERS; i++) {
		if (i >= nr_counters)
			break;
		dst[i] = deltas[i];
	}
}

/* Submits a record reserved by stream_reserve(); @size as given to it. */
static __always_inline void stream_submit(void *rec, __u64 size)
{
	size += nr_counters * sizeof(__u64);
	bpf_ringbuf_submit(rec, wakeup_flags(bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA), size,
					     wakeup_bytes));
}

/* record: close @task's slice of this CPU now, open the next one. */
static __always_inline void close_slice(struct task_struct *task, __u32 end)
{
	__u64 deltas[CL_MAX_COUNTERS] = {};
	struct cl_slice_record *rec;
	struct cl_cpu_state *state;
	__u64 now, start;

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
	rec = stream_reserve(state, sizeof(*rec));
	if (!rec)
		return;
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
	stream_copy_counters(rec->counters, deltas);
	stream_submit(rec, sizeof(*rec));
}

/* trace: how long @prev waited for the run now ending, ~0 if unknown. */
static __always_inline __u64 prev_wait(struct task_struct *prev)
{
	struct cl_task_acct *acct;
	__u64 run_delay, wait = ~0ULL;

	if (!have_sched_info() || !prev->pid)
		return wait;
	acct = task_acct_get(prev);
	if (!acct)
		return wait;
	run_delay = prev->sched_info.run_delay;
	if (acct->seen && prev->sched_info.pcount != acct->last_pcount)
		wait = run_delay - acct->last_run_delay;
	acct->last_run_delay = run_delay;
	acct->last_pcount = prev->sched_info.pcount;
	acct->seen = 1;
	return wait;
}

/* trace: one record per switch involving a selected task. */
static __always_inline void trace_switch(bool preempt, struct task_struct *prev,
					 struct task_struct *next)
{
	__u64 deltas[CL_MAX_COUNTERS] = {};
	struct cl_switch_record *rec;
	struct cl_cpu_state *state;
	__u64 now, last;

	state = read_counter_deltas(deltas);
	if (!state)
		return;
	now = bpf_ktime_get_ns();
	last = state->switch_ns;
	state->switch_ns = now;
	if (!task_selected(prev) && !task_selected(next))
		return;
	rec = stream_reserve(state, sizeof(*rec));
	if (!rec)
		return;
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
	rec->prev_wait_ns = prev_wait(prev);
	/* A preempted task is runnable whatever its state says (it was about to sleep). */
	rec->prev_state = preempt ? CL_STATE_PREEMPTED : get_task_state(prev);
	rec->nr_counters = nr_counters;
	stream_copy_counters(rec->counters, deltas);
	stream_submit(rec, sizeof(*rec));
}

SEC("tp_btf/sched_switch")
int BPF_PROG(handle_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	if (mode == CL_MODE_RECORD) {
		close_slice(prev, CL_SLICE_SWITCH);
	} else if (mode == CL_MODE_TRACE) {
		trace_switch(preempt, prev, next);
	} else {
		stat_charge(prev, next, true);
		if (per_cpu_mode && next->pid && task_selected(next))
			snapshot_task(next);
	}
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
 * stat: run by userspace on each CPU (BPF_F_TEST_RUN_ON_CPU) at an interval's
 * end, in the context of whatever task is running there: charge it up to now.
 */
SEC("raw_tp")
int flush_cpu(void *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();

	stat_charge(task, task, false);
	return 0;
}

static __always_inline void soft_add(enum cl_slot_kind kind, __u64 amount)
{
	__u32 zero = 0;
	struct cl_cpu_state *state = bpf_map_lookup_elem(&cpu_state, &zero);
	__u32 soft = (__u32)kind - 1;

	if (state && soft < CL_SOFT_NR)
		state->soft[soft] += amount;
}

/* Pages allocated on this CPU, charged to the task running here at the next reading. */
SEC("tp_btf/mm_page_alloc")
int BPF_PROG(handle_page_alloc, struct page *page, unsigned int order)
{
	soft_add(CL_SLOT_PAGE_ALLOCS, 1ULL << (order & 31));
	return 0;
}

/* Reclaim runs in the context of the task that needs memory: time it per task. */
static __always_inline void reclaim_begin(void)
{
	struct cl_task_acct *acct = task_acct_get(bpf_get_current_task_btf());

	if (acct)
		acct->reclaim_start_ns = bpf_ktime_get_ns();
}

static __always_inline void reclaim_end(void)
{
	struct cl_task_acct *acct;
	__u64 start;

	acct = bpf_task_storage_get(&task_acct, bpf_get_current_task_btf(), NULL, 0);
	if (!acct || !acct->reclaim_start_ns)
		return;
	start = acct->reclaim_start_ns;
	acct->reclaim_start_ns = 0;
	soft_add(CL_SLOT_RECLAIM_NS, bpf_ktime_get_ns() - start);
	soft_add(CL_SLOT_RECLAIMS, 1);
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(handle_direct_reclaim_begin)
{
	reclaim_begin();
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(handle_direct_reclaim_end)
{
	reclaim_end();
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(handle_memcg_reclaim_begin)
{
	reclaim_begin();
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(handle_memcg_reclaim_end)
{
	reclaim_end();
	return 0;
}

/*
 * A container's cgroup can be created and removed within one interval: name
 * it when it is made. Only the default (v2) hierarchy, whose hierarchy id is
 * 0, holds the cgroups whose ids tasks report.
 */
SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(handle_cgroup_mkdir, struct cgroup *cgrp, const char *path)
{
	struct cl_cgroup_record *rec;

	if (!track_cgroups || cgrp->root->hierarchy_id != 0)
		return 0;
	rec = bpf_ringbuf_reserve(&cgroup_events, sizeof(*rec), 0);
	if (!rec) {
		stat_inc(CL_STAT_CGROUP_DROPS);
		return 0;
	}
	rec->kind = CL_REC_CGROUP;
	rec->__pad = 0;
	rec->id = cgrp->kn->id;
	bpf_probe_read_kernel_str(rec->path, sizeof(rec->path), path);
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

/* One record per live task; userspace reads the iterator once per interval. */
SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct cl_task_record *rec;
	struct cl_task_acct *acct;
	__u32 zero = 0;

	/* Exiting tasks are reported by their final switch; zombies are done. */
	if (!task || task->exit_state || !task_selected(task))
		return 0;
	rec = bpf_map_lookup_elem(&scratch, &zero);
	if (!rec)
		return 0;
	__builtin_memset(rec, 0, sizeof(*rec));
	rec->kind = CL_REC_TASK;
	rec->cpu = -1;
	fill_identity(rec, task);
	acct = per_cpu_mode ? NULL : bpf_task_storage_get(&task_acct, task, NULL, 0);
	fill_values(rec, task, acct);
	bpf_seq_write(ctx->meta->seq, rec, sizeof(*rec));
	return 0;
}
