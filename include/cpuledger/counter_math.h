/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Counter arithmetic shared by the BPF side and userspace (and unit-tested
 * there): deltas between two readings of a perf counter, scaled for
 * multiplexing with the enabled/running times perf reports.
 */
#ifndef CPULEDGER_COUNTER_MATH_H
#define CPULEDGER_COUNTER_MATH_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#include <stdbool.h>
#endif

#define CL_U64_MAX	(~(__u64)0)

/*
 * Scale a counter delta measured while the counter ran for @drunning ns of
 * the @denabled ns it was enabled (perf multiplexes counters when there are
 * more events than hardware slots). A counter that never ran in the window
 * says nothing: 0.
 */
static inline __u64 cl_counter_scale(__u64 dvalue, __u64 denabled, __u64 drunning)
{
	__u64 quotient, remainder;
	int i;

	if (drunning == 0)
		return 0;
	if (drunning >= denabled)
		return dvalue;
	/*
	 * Keep the ratio in 32 bits so remainder * denabled cannot overflow;
	 * the BPF target has no 128-bit multiply.
	 */
	for (i = 0; i < 32 && (denabled >> 32); i++) {
		denabled >>= 1;
		drunning >>= 1;
	}
	if (drunning == 0)
		return dvalue;
	quotient = dvalue / drunning;
	remainder = dvalue % drunning;
	return quotient * denabled + remainder * denabled / drunning;
}

/*
 * Advance from the last reading to the current one. Returns false when the
 * two cannot be compared (the counter went backwards, as after a re-open),
 * in which case the caller re-baselines and charges nothing: never a
 * negative or huge delta.
 */
static inline bool cl_counter_delta(__u64 last_value, __u64 last_enabled, __u64 last_running,
				    __u64 value, __u64 enabled, __u64 running, __u64 *delta)
{
	if (value < last_value || enabled < last_enabled || running < last_running) {
		*delta = 0;
		return false;
	}
	*delta = cl_counter_scale(value - last_value, enabled - last_enabled,
				  running - last_running);
	return true;
}

#endif /* CPULEDGER_COUNTER_MATH_H */
