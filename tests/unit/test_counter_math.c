// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * include/cpuledger/counter_math.h: multiplexing scale and deltas between
 * two perf counter readings, the arithmetic the BPF side runs at each switch.
 */
#include <math.h>

#include "cpuledger/counter_math.h"
#include "unit.h"

#define NSEC_PER_SEC 1000000000ULL

static const struct {
	__u64 value, enabled, running, want;
} exact_scale_cases[] = {
	/* Not multiplexed: the value as it is. */
	{ 12345, 1000, 1000, 12345 },
	{ 12345, 0, 0, 0 },
	{ CL_U64_MAX, NSEC_PER_SEC, NSEC_PER_SEC, CL_U64_MAX },
	/* Running longer than enabled (rounding in the kernel): never scaled down. */
	{ 12345, 1000, 1001, 12345 },
	/* Never ran: says nothing. */
	{ 12345, 1000, 0, 0 },
	{ 0, 1000, 0, 0 },
	/* Ran half the time: doubled; a quarter: times four. */
	{ 1000, 2000, 1000, 2000 },
	{ 1001, 2000, 1000, 2002 },
	{ 1000, 4000, 1000, 4000 },
	{ 7, 3, 2, 10 },		/* 10.5 truncated */
	{ 0, 2000, 1000, 0 },
};

static bool test_scale_exact(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(exact_scale_cases); i++) {
		__u64 got = cl_counter_scale(exact_scale_cases[i].value,
					     exact_scale_cases[i].enabled,
					     exact_scale_cases[i].running);

		if (!expect_u64(got, exact_scale_cases[i].want)) {
			unit_note("cl_counter_scale(%llu, %llu, %llu)",
				  (unsigned long long)exact_scale_cases[i].value,
				  (unsigned long long)exact_scale_cases[i].enabled,
				  (unsigned long long)exact_scale_cases[i].running);
			ok = false;
		}
	}
	return ok;
}

/*
 * value * enabled overflows 64 bits in all of these; the result must still
 * match the exact ratio to better than 1e-6.
 */
static const struct {
	__u64 value, enabled, running;
} large_scale_cases[] = {
	{ 1000000000000000ULL, 10 * NSEC_PER_SEC, 3 * NSEC_PER_SEC },
	{ 1ULL << 60, 4000000000ULL, 3000000000ULL },
	{ 1ULL << 62, 4 * NSEC_PER_SEC, 2 * NSEC_PER_SEC + 1 },
	{ 3000000000000ULL, 3600 * NSEC_PER_SEC, 1800 * NSEC_PER_SEC + 12345 },
	{ 123456789012345ULL, 86400 * NSEC_PER_SEC, 864 * NSEC_PER_SEC + 999 },
	{ 987654321987ULL, 5000000017ULL, 1666666673ULL },
	{ 4000000000ULL, 0xffffffffffffULL, 0x7fffffffffffULL },
	{ 5000000000ULL, 0xfffffffffffffffULL, 0x123456789abcdefULL },
	{ 1ULL << 40, 1ULL << 63, (1ULL << 62) + 3 },
	{ 99999999999ULL, 600 * NSEC_PER_SEC, 6 * NSEC_PER_SEC + 7 },	/* ran 1% */
};

static bool test_scale_no_overflow(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(large_scale_cases); i++) {
		__u64 value = large_scale_cases[i].value, enabled = large_scale_cases[i].enabled,
		      running = large_scale_cases[i].running;
		long double want = (long double)value * enabled / running;
		__u64 got = cl_counter_scale(value, enabled, running);
		long double rel = fabsl((long double)got - want) / want;

		if (!expect(want < 1.8e19L, "(case fits 64 bits)") || !expect(rel < 1e-6L)) {
			unit_note("cl_counter_scale(%llu, %llu, %llu) = %llu, exact %.1Lf",
				  (unsigned long long)value, (unsigned long long)enabled,
				  (unsigned long long)running, (unsigned long long)got, want);
			ok = false;
		}
	}
	return ok;
}

static const struct {
	const char *what;
	__u64 last_value, last_enabled, last_running;
	__u64 value, enabled, running;
	bool ok;
	__u64 delta;
} delta_cases[] = {
	{ "steady", 100, 1000, 1000, 350, 2000, 2000, true, 250 },
	{ "nothing happened", 100, 1000, 1000, 100, 1000, 1000, true, 0 },
	{ "multiplexed half", 100, 1000, 500, 350, 2000, 1000, true, 500 },
	{ "not running", 100, 1000, 500, 100, 2000, 500, true, 0 },
	{ "from zero", 0, 0, 0, 5000, 100, 100, true, 5000 },
	{ "up to the top", 0, 0, 0, CL_U64_MAX, 100, 100, true, CL_U64_MAX },
	{ "value went backwards", 500, 1000, 1000, 499, 2000, 2000, false, 0 },
	{ "enabled went backwards", 100, 2000, 1000, 350, 1999, 1000, false, 0 },
	{ "running went backwards", 100, 2000, 1000, 350, 3000, 999, false, 0 },
	{ "re-opened counter", 123456789, 5000000, 5000000, 10, 1000, 1000, false, 0 },
};

static bool test_delta(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(delta_cases); i++) {
		__u64 delta = 0xdeadbeef;
		bool got;

		got = cl_counter_delta(delta_cases[i].last_value, delta_cases[i].last_enabled,
				       delta_cases[i].last_running, delta_cases[i].value,
				       delta_cases[i].enabled, delta_cases[i].running, &delta);
		if (!expect_int(got, delta_cases[i].ok) ||
		    !expect_u64(delta, delta_cases[i].delta)) {
			unit_note("%s", delta_cases[i].what);
			ok = false;
		}
	}
	return ok;
}

int main(void)
{
	RUN_TEST(test_scale_exact);
	RUN_TEST(test_scale_no_overflow);
	RUN_TEST(test_delta);
	return unit_done();
}
