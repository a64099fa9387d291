// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/parse.c: durations, plain numbers, PID and item lists, and the
 * human-readable counts and times of the table.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/parse.h"
#include "unit.h"

struct duration_case {
	const char *text;
	int err;
	uint64_t ns;		/* when err == 0 */
};

static const struct duration_case duration_cases[] = {
	{ "250ms", 0, 250 * NSEC_PER_MSEC },
	{ "1s", 0, NSEC_PER_SEC },
	{ "1.5s", 0, 1500000000ULL },
	{ "2m", 0, 120 * NSEC_PER_SEC },
	{ "1min", 0, 60 * NSEC_PER_SEC },
	{ "100us", 0, 100 * NSEC_PER_USEC },
	{ "5\xc2\xb5s", 0, 5 * NSEC_PER_USEC },
	{ "10ns", 0, 10 },
	{ "1h", 0, 3600 * NSEC_PER_SEC },
	{ "2", 0, 2 * NSEC_PER_SEC },		/* a bare number is seconds */
	{ "1.5", 0, 1500000000ULL },
	{ "0", 0, 0 },				/* the CLI rejects zero, not the parser */
	{ "0s", 0, 0 },
	{ "0.5ms", 0, 500 * NSEC_PER_USEC },
	{ ".5s", 0, 500 * NSEC_PER_MSEC },
	{ "0.25m", 0, 15 * NSEC_PER_SEC },
	{ "1.000000001s", 0, 1000000001ULL },
	/* Below a nanosecond is cut off, not rounded. */
	{ "1.0000000019s", 0, 1000000001ULL },
	{ "0.0000000015s", 0, 1 },
	/* Long fractions are still exact: 11 and 12 digits after the point. */
	{ "0.999999999999s", 0, 999999999ULL },
	{ "1.99999999999s", 0, 1999999999ULL },
	{ "1.99999999999m", 0, 119999999999ULL },
	{ "2.999999999999m", 0, 179999999999ULL },
	{ "1.123456789012h", 0, 4044444440443ULL },
	/* The edges of 64 bits. */
	{ "18446744073709551615ns", 0, UINT64_MAX },
	{ "18446744073.709551615s", 0, UINT64_MAX },
	{ "5124095h", 0, 5124095ULL * 3600 * NSEC_PER_SEC },
	{ "18446744073709551616ns", -ERANGE, 0 },
	{ "18446744073.709551616s", -ERANGE, 0 },
	{ "18446744074s", -ERANGE, 0 },
	{ "5124096h", -ERANGE, 0 },
	{ "99999999999999999999999s", -ERANGE, 0 },
	/* Not durations. */
	{ "", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "-1s", -EINVAL, 0 },
	{ "+1s", -EINVAL, 0 },
	{ "1x", -EINVAL, 0 },
	{ "1.5.2s", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "ms", -EINVAL, 0 },
	{ ".", -EINVAL, 0 },
	{ ".s", -EINVAL, 0 },
	{ " 1s", -EINVAL, 0 },
	{ "1s ", -EINVAL, 0 },
	{ "1 s", -EINVAL, 0 },
	{ "1e3s", -EINVAL, 0 },
	{ "1sec", -EINVAL, 0 },
	{ "1S", -EINVAL, 0 },
};

static bool check_duration(const struct duration_case *c)
{
	uint64_t ns = 0xdeadbeef;
	int err;

	err = cl_parse_duration(c->text, &ns);
	if (!expect_int(err, c->err))
		goto fail;
	if (!c->err && !expect_u64(ns, c->ns))
		goto fail;
	return true;
fail:
	unit_note("cl_parse_duration(\"%s\")", c->text);
	return false;
}

static bool test_parse_duration(void)
{
	uint64_t ns;
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(duration_cases); i++)
		ok &= check_duration(&duration_cases[i]);
	ok &= expect_int(cl_parse_duration(NULL, &ns), -EINVAL);
	return ok;
}

/* Values whose canonical text is obvious. */
static const struct {
	uint64_t ns;
	const char *text;
} format_duration_cases[] = {
	{ 0, "0s" },
	{ 1, "1ns" },
	{ 1500, "1500ns" },
	{ 100 * NSEC_PER_USEC, "100us" },
	{ 250 * NSEC_PER_MSEC, "250ms" },
	{ NSEC_PER_SEC, "1s" },
	{ 1500000000ULL, "1.5s" },
	{ 90 * NSEC_PER_SEC, "90s" },
	{ 120 * NSEC_PER_SEC, "2m" },
	{ 90 * 60 * NSEC_PER_SEC, "90m" },
	{ 3600 * NSEC_PER_SEC, "1h" },
};

static bool test_format_duration(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(format_duration_cases); i++) {
		char buf[64];

		cl_format_duration(format_duration_cases[i].ns, buf, sizeof(buf));
		if (!expect_str(buf, format_duration_cases[i].text)) {
			unit_note("cl_format_duration(%llu)",
				  (unsigned long long)format_duration_cases[i].ns);
			ok = false;
		}
	}
	return ok;
}

/* cl_format_duration "formats ns the way cl_parse_duration reads it back". */
static const uint64_t round_trip_ns[] = {
	0,
	1,
	999,
	1500,
	100 * NSEC_PER_USEC,
	250 * NSEC_PER_MSEC,
	NSEC_PER_SEC,
	1500000000ULL,
	2500000000ULL,
	90 * NSEC_PER_SEC,
	120 * NSEC_PER_SEC,
	3600 * NSEC_PER_SEC,
	1001000000ULL,		/* 1.001s */
	1234567890ULL,		/* 1.23456789s */
	999999999999ULL,	/* just under 1000s */
	100000500000000ULL,	/* 100000.5s */
	UINT64_MAX,
};

static bool test_duration_round_trip(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(round_trip_ns); i++) {
		uint64_t back = 0;
		char buf[64];

		cl_format_duration(round_trip_ns[i], buf, sizeof(buf));
		if (!expect_int(cl_parse_duration(buf, &back), 0) ||
		    !expect_u64(back, round_trip_ns[i])) {
			unit_note("%llu ns formatted as \"%s\"",
				  (unsigned long long)round_trip_ns[i], buf);
			ok = false;
		}
	}
	return ok;
}

struct number_case {
	const char *text;
	int err;
	uint64_t value;
};

static const struct number_case u64_cases[] = {
	{ "0", 0, 0 },
	{ "42", 0, 42 },
	{ "007", 0, 7 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "18446744073709551620", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "12a", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1.0", -EINVAL, 0 },
};

static const struct number_case u32_cases[] = {
	{ "0", 0, 0 },
	{ "4294967295", 0, UINT32_MAX },
	{ "4294967296", -ERANGE, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "4k", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
};

static bool test_parse_u64(void)
{
	uint64_t value;
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(u64_cases); i++) {
		const struct number_case *c = &u64_cases[i];

		value = 0xdeadbeef;
		if (!expect_int(cl_parse_u64(c->text, &value), c->err) ||
		    !expect_u64(value, c->err ? 0xdeadbeef : c->value)) {
			unit_note("cl_parse_u64(\"%s\")", c->text);
			ok = false;
		}
	}
	ok &= expect_int(cl_parse_u64(NULL, &value), -EINVAL);
	return ok;
}

static bool test_parse_u32(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(u32_cases); i++) {
		const struct number_case *c = &u32_cases[i];
		uint32_t value = 0xdead;

		if (!expect_int(cl_parse_u32(c->text, &value), c->err) ||
		    !expect_u64(value, c->err ? 0xdead : c->value)) {
			unit_note("cl_parse_u32(\"%s\")", c->text);
			ok = false;
		}
	}
	return ok;
}

static const struct {
	const char *text;
	bool valid;
	size_t count;
	uint32_t pids[4];
} pid_list_cases[] = {
	{ "1,2,3", true, 3, { 1, 2, 3 } },
	{ "42", true, 1, { 42 } },
	{ "4194303,1", true, 2, { 4194303, 1 } },
	{ "", false },
	{ "1,,2", false },
	{ "1,", false },
	{ ",1", false },
	{ "abc", false },
	{ "0", false },
	{ "1,0", false },
	{ "-5", false },
	{ "1,x", false },
	{ "1, 2", false },
	{ "4194305", false },
	{ "4294967296", false },
};

static bool test_parse_pid_list(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(pid_list_cases); i++) {
		uint32_t *pids = NULL;
		size_t count = 0, j;
		bool case_ok;
		int err;

		err = cl_parse_pid_list(pid_list_cases[i].text, &pids, &count);
		if (!pid_list_cases[i].valid) {
			case_ok = expect(err < 0) && expect(pids == NULL);
		} else {
			case_ok = expect_int(err, 0) && expect_u64(count, pid_list_cases[i].count);
			for (j = 0; case_ok && j < count; j++)
				case_ok = expect_u64(pids[j], pid_list_cases[i].pids[j]);
		}
		if (!case_ok) {
			unit_note("cl_parse_pid_list(\"%s\")", pid_list_cases[i].text);
			ok = false;
		}
		free(pids);
	}
	return ok;
}

static const struct {
	const char *text;
	int err;
	size_t count;
	const char *items[3];
} split_cases[] = {
	{ "a", 0, 1, { "a" } },
	{ "cycles,page-faults:perf,r1a8", 0, 3, { "cycles", "page-faults:perf", "r1a8" } },
	{ "", -EINVAL },
	{ ",", -EINVAL },
	{ "a,", -EINVAL },
	{ ",a", -EINVAL },
	{ "a,,b", -EINVAL },
};

static bool test_split_list(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(split_cases); i++) {
		char **items = NULL;
		size_t count = 0, j;
		bool case_ok;

		case_ok = expect_int(cl_split_list(split_cases[i].text, &items, &count),
				     split_cases[i].err);
		if (case_ok && !split_cases[i].err) {
			case_ok = expect_u64(count, split_cases[i].count);
			for (j = 0; case_ok && j < count; j++)
				case_ok = expect_str(items[j], split_cases[i].items[j]);
		}
		if (!case_ok) {
			unit_note("cl_split_list(\"%s\")", split_cases[i].text);
			ok = false;
		}
		if (!split_cases[i].err)
			cl_free_list(items, count);
	}
	cl_free_list(NULL, 0);
	return ok;
}

static const struct {
	uint64_t value;
	const char *text;
} count_cases[] = {
	{ 0, "0" },
	{ 999, "999" },
	{ 12345, "12345" },
	{ 99999, "99999" },
	{ 100000, "100.0K" },
	{ 123456, "123.5K" },
	{ 999949, "999.9K" },
	{ 999950, "1.0M" },		/* never "1000.0K" */
	{ 12345678, "12.3M" },
	{ 1000000000ULL, "1.0G" },
	{ 4200000000000ULL, "4.2T" },
	{ UINT64_MAX, "18.4E" },
};

static bool test_format_count(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(count_cases); i++) {
		char buf[32];

		cl_format_count(count_cases[i].value, buf, sizeof(buf));
		if (!expect_str(buf, count_cases[i].text)) {
			unit_note("cl_format_count(%llu)",
				  (unsigned long long)count_cases[i].value);
			ok = false;
		}
	}
	return ok;
}

static const struct {
	uint64_t ns;
	const char *text;
} time_cases[] = {
	{ 0, "0" },
	{ 1, "1ns" },
	{ 812, "812ns" },
	{ 999, "999ns" },
	{ 1000, "1.0us" },
	{ 45200, "45.2us" },
	{ 1500000, "1.5ms" },
	{ 812300000, "812.3ms" },
	{ 1520000000, "1.52s" },
	{ 61 * NSEC_PER_SEC, "61.00s" },
	/* Rounding up to the next unit shows that unit, as cl_format_count does. */
	{ 999999, "1.0ms" },
	{ 999999999, "1.00s" },
};

static bool test_format_time(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(time_cases); i++) {
		char buf[32];

		cl_format_time(time_cases[i].ns, buf, sizeof(buf));
		if (!expect_str(buf, time_cases[i].text)) {
			unit_note("cl_format_time(%llu)", (unsigned long long)time_cases[i].ns);
			ok = false;
		}
	}
	return ok;
}

int main(void)
{
	RUN_TEST(test_parse_duration);
	RUN_TEST(test_format_duration);
	RUN_TEST(test_duration_round_trip);
	RUN_TEST(test_parse_u64);
	RUN_TEST(test_parse_u32);
	RUN_TEST(test_parse_pid_list);
	RUN_TEST(test_split_list);
	RUN_TEST(test_format_count);
	RUN_TEST(test_format_time);
	return unit_done();
}
