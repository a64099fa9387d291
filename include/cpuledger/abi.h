/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel <-> userspace ABI of cpuledger: everything that crosses the
 * boundary is defined here, once, with fixed-width types and explicit padding.
 * Included by the BPF objects (after vmlinux.h) and by userspace.
 */
#ifndef CPULEDGER_ABI_H
#define CPULEDGER_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define CL_COMM_LEN		16
/* Perf counter slots read at each switch; each slot is one opened event. */
#define CL_MAX_COUNTERS		8
/* Run-queue waits: log2 buckets of ns; bucket b holds [2^b, 2^(b+1)), 0 holds 0..1. */
#define CL_RUNQ_HIST_BUCKETS	32
/* Upper bound on CPU ids for the few global arrays indexed by CPU. */
#define CL_MAX_CPUS		1024
#define CL_MAX_CPUS_MASK	(CL_MAX_CPUS - 1)

/*
 * Per-task values, cumulative since the task started (kernel fields) or since
 * cpuledger first charged it (perf counters). Userspace turns them into
 * per-interval deltas. Order matters: it is the index into cl_values.v[].
 */
enum cl_value {
	CL_V_ONCPU_NS,		/* se.sum_exec_runtime */
	CL_V_NVCSW,		/* voluntary switches, as /proc/PID/status counts */
	CL_V_NIVCSW,		/* involuntary switches */
	CL_V_MIN_FLT,		/* minor faults, as getrusage counts */
	CL_V_MAJ_FLT,		/* major faults */
	CL_V_MIGRATIONS,	/* se.nr_migrations */
	CL_V_RUN_DELAY_NS,	/* sched_info.run_delay: runnable, not running */
	CL_V_RUN_COUNT,		/* sched_info.pcount: times run on a CPU */
	CL_V_KERNEL_NR,		/* the kernel's own fields end here */
	/* What cpuledger charges at each switch: */
	CL_V_RUNQ_MAX_NS = CL_V_KERNEL_NR, /* longest wait since last read: a gauge */
	CL_V_PREEMPT_SAME_PROCESS,	/* involuntary switches to a thread of the same process */
	CL_V_PREEMPT_SAME_CGROUP,	/* ... to another process in the same cgroup */
	CL_V_PREEMPT_OTHER_CGROUP,	/* ... to a task in another cgroup */
	CL_V_COUNTER0,		/* counter slots (perf, or kernel events), scaled */
	CL_V_HIST0 = CL_V_COUNTER0 + CL_MAX_COUNTERS, /* run-queue wait histogram */
	CL_V_NR = CL_V_HIST0 + CL_RUNQ_HIST_BUCKETS,
};

/* What a counter slot counts: a perf event, or a kernel tracepoint event. */
enum cl_slot_kind {
	CL_SLOT_PERF,
	CL_SLOT_PAGE_ALLOCS,	/* kmem:mm_page_alloc, weighted by 2^order */
	CL_SLOT_RECLAIM_NS,	/* time in direct and memcg reclaim (vmscan begin/end) */
	CL_SLOT_RECLAIMS,	/* reclaim episodes */
	CL_SLOT_KINDS,
};
#define CL_SOFT_NR (CL_SLOT_KINDS - 1)

struct cl_values {
	__u64 v[CL_V_NR];
};

enum cl_task_flags {
	CL_TASK_EXITED		= 1 << 0,	/* final record, from the task's last switch */
	CL_TASK_KTHREAD		= 1 << 1,
	CL_TASK_NO_STORAGE	= 1 << 2,	/* counters never charged (no task storage) */
};

enum cl_record_kind {
	CL_REC_TASK = 1,	/* from the task iterator: a live task's totals */
	CL_REC_EXIT = 2,	/* from the exit ring buffer: a task's final totals */
	CL_REC_SLICE = 3,	/* record: one slice of a task on a CPU */
	CL_REC_SWITCH = 4,	/* trace: one context switch */
	CL_REC_CGROUP = 5,	/* a cgroup2 directory was created */
	CL_REC_DIAG = 6,	/* a kernel-side diagnostic (-vv only) */
};

/*
 * A kernel-side diagnostic: one of the enum cl_stat events, where and when.
 * Only with diag_level >= 1 (a load-time constant, 0 by default): at the
 * default level the code that would emit them is not even loaded.
 */
struct cl_diag_record {
	__u32 kind;		/* CL_REC_DIAG */
	__u32 code;		/* enum cl_stat */
	__u32 cpu;
	__u32 __pad;
	__u64 time_ns;		/* CLOCK_MONOTONIC */
};

#define CL_CGROUP_RECORD_PATH 256

/* cgroup:cgroup_mkdir on the default hierarchy: names a cgroup before it can vanish. */
struct cl_cgroup_record {
	__u32 kind;		/* CL_REC_CGROUP */
	__u32 __pad;
	__u64 id;		/* kernfs node id: what cgroup_id fields hold */
	char path[CL_CGROUP_RECORD_PATH]; /* relative to the cgroup2 root, maybe cut */
};

/* What the kernel side is loaded for; a load-time constant. */
enum cl_mode {
	CL_MODE_STAT,		/* totals per task, read once per interval */
	CL_MODE_RECORD,		/* a stream of per-CPU time slices */
	CL_MODE_TRACE,		/* a stream of context switches */
};

/*
 * One task's identity and cumulative values. Written by the task iterator
 * (one per live task, each interval) and into the exit ring buffer (one per
 * exiting task, at its final context switch).
 */
struct cl_task_record {
	__u32 kind;		/* enum cl_record_kind */
	__u32 flags;		/* enum cl_task_flags */
	__u32 tid;
	__u32 tgid;
	__u64 start_ns;		/* task->start_time, CLOCK_MONOTONIC ns */
	__u64 leader_start_ns;	/* group leader's start_time: process identity */
	__u64 cgroup_id;	/* cgroup2 (default hierarchy) cgroup id */
	__u64 leader_cgroup_id;	/* the group leader's: where the process is */
	char comm[CL_COMM_LEN];
	char leader_comm[CL_COMM_LEN];
	__s32 cpu;		/* CPU of the final switch (exit records), else -1 */
	__u32 __pad;
	struct cl_values values;
};

/* What cpuledger keeps per task in BPF task storage. */
struct cl_task_acct {
	struct cl_values totals;	/* what cpuledger charges; kernel fields unused */
	__u64 snap[CL_V_KERNEL_NR];	/* per-CPU mode: kernel fields at switch-in */
	__u64 last_run_delay;		/* sched_info at the last switch-out */
	__u64 last_pcount;
	__u64 last_nivcsw;
	__u64 reclaim_start_ns;		/* in reclaim since, 0 if not */
	__u32 snap_valid;
	__u32 seen;			/* last_* are set */
};

/* Per-CPU state: the perf counter path, slices, and per-CPU losses. */
struct cl_cpu_state {
	__u32 generation;	/* matches cpu_generation[cpu] when baselined */
	__u32 valid_mask;	/* slots whose last_* hold a good reading */
	__u64 last_value[CL_MAX_COUNTERS];
	__u64 last_enabled[CL_MAX_COUNTERS];
	__u64 last_running[CL_MAX_COUNTERS];
	__u64 slice_start_ns;	/* record: when the current slice began, 0: none */
	__u64 switch_ns;	/* trace: last context switch on this CPU, 0: none */
	__u64 ring_drops;	/* stream records lost here: ring buffer full */
	__u64 ticks;		/* record: slice ticks seen here */
	__u64 soft[CL_SOFT_NR];	/* kernel events on this CPU (enum cl_slot_kind - 1) */
};

enum cl_slice_end {
	CL_SLICE_SWITCH = 1,	/* the task switched out */
	CL_SLICE_TICK = 2,	/* the per-CPU tick closed it; the task runs on */
};

/*
 * record: the running task's slice of a CPU, closed by a switch or a tick.
 * Variable length: nr_counters counter deltas follow.
 */
struct cl_slice_record {
	__u32 kind;		/* CL_REC_SLICE */
	__u32 cpu;
	__u64 start_ns;		/* CLOCK_MONOTONIC */
	__u64 duration_ns;
	__u32 pid;
	__u32 tid;
	__u64 cgroup_id;
	char comm[CL_COMM_LEN];
	__u32 end;		/* enum cl_slice_end */
	__u32 nr_counters;
	__u64 counters[];
};

/* trace: prev was preempted (an involuntary switch); "R+" as perf shows it. */
#define CL_STATE_PREEMPTED	(1U << 31)

/* trace: one context switch on a CPU. Variable length like slices. */
struct cl_switch_record {
	__u32 kind;		/* CL_REC_SWITCH */
	__u32 cpu;
	__u64 time_ns;		/* CLOCK_MONOTONIC */
	__u32 prev_pid;
	__u32 prev_tid;
	__u32 next_pid;
	__u32 next_tid;
	char prev_comm[CL_COMM_LEN];
	char next_comm[CL_COMM_LEN];
	__u64 prev_cgroup_id;
	__u64 next_cgroup_id;
	__u64 run_ns;		/* how long prev ran, 0 if unknown */
	__u64 prev_wait_ns;	/* how long prev waited for the run that ended, ~0 if unknown */
	__u32 prev_state;	/* task state bits, or CL_STATE_PREEMPTED */
	__u32 nr_counters;
	__u64 counters[];
};

/* stat --preemptors: involuntary switches of a victim cgroup to a preemptor cgroup. */
struct cl_preempt_key {
	__u64 victim_cgroup_id;
	__u64 preemptor_cgroup_id;
};

/* Per-CPU mode: key of the per-CPU hash of (task) -> values on each CPU. */
struct cl_task_key {
	__u32 tid;
	__u32 __pad;
	__u64 start_ns;
};

/* Counters the BPF side keeps about itself; indexes into stats[]. */
enum cl_stat {
	CL_STAT_EXIT_DROPS,		/* exit records lost: ring buffer full */
	CL_STAT_STORAGE_FAILS,		/* task storage could not be created */
	CL_STAT_PERCPU_FULL,		/* per-CPU mode: task map full */
	CL_STAT_COUNTER_READ_ERRS,	/* bpf_perf_event_read_value failed */
	CL_STAT_COUNTER_RESETS,		/* re-baselined after a counter was re-opened */
	CL_STAT_PREEMPTORS_FULL,	/* stat --preemptors: pair map full */
	CL_STAT_CGROUP_DROPS,		/* cgroup records lost: ring buffer full */
	CL_STAT_NR,
};

#endif /* CPULEDGER_ABI_H */
