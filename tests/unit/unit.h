/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A minimal table-friendly unit test harness printing TAP lines
 * ("ok N - name", "not ok N - name") that tests/run.sh counts. Assertions
 * return bool so they chain: if (!expect_u64(...)) goto out;
 */
#ifndef CPULEDGER_UNIT_H
#define CPULEDGER_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static int unit_run_count;
static int unit_fail_count;

#define expect(cond, ...) unit_expect((cond), __FILE__, __LINE__, #cond, "" __VA_ARGS__)

static inline bool unit_expect(bool ok, const char *file, int line, const char *what,
			       const char *note)
{
	if (!ok)
		fprintf(stderr, "#   %s:%d: expected %s %s\n", file, line, what, note);
	return ok;
}

#define expect_u64(got, want) unit_expect_u64((got), (want), __FILE__, __LINE__, #got)

static inline bool unit_expect_u64(uint64_t got, uint64_t want, const char *file, int line,
				   const char *what)
{
	if (got != want)
		fprintf(stderr, "#   %s:%d: %s = %llu, expected %llu\n", file, line, what,
			(unsigned long long)got, (unsigned long long)want);
	return got == want;
}

#define expect_int(got, want) unit_expect_int((got), (want), __FILE__, __LINE__, #got)

static inline bool unit_expect_int(long long got, long long want, const char *file, int line,
				   const char *what)
{
	if (got != want)
		fprintf(stderr, "#   %s:%d: %s = %lld, expected %lld\n", file, line, what, got,
			want);
	return got == want;
}

#define expect_str(got, want) unit_expect_str((got), (want), __FILE__, __LINE__, #got)

static inline bool unit_expect_str(const char *got, const char *want, const char *file, int line,
				   const char *what)
{
	bool ok = got && want && !strcmp(got, want);

	if (!ok)
		fprintf(stderr, "#   %s:%d: %s = \"%s\", expected \"%s\"\n", file, line, what,
			got ? got : "(null)", want ? want : "(null)");
	return ok;
}

/*
 * Says which case of a table failed, after the assertion's own message:
 * if (!expect_u64(...)) unit_note("input \"%s\"", c->text);
 */
__attribute__((format(printf, 1, 2))) static inline void unit_note(const char *fmt, ...)
{
	va_list ap;

	fputs("#     in ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Does @s hold only well-formed UTF-8 (RFC 3629)? Written apart from the code
 * under test (src/core/json.c) so it can judge it; Prometheus requires it of
 * label values.
 */
static inline bool unit_valid_utf8(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}

/* Runs one test function (returning bool) and prints its TAP line. */
#define RUN_TEST(fn) unit_run(#fn, fn)

static inline void unit_run(const char *name, bool (*fn)(void))
{
	bool ok = fn();

	unit_run_count++;
	if (!ok)
		unit_fail_count++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", unit_run_count, name);
	fflush(stdout);
}

static inline int unit_done(void)
{
	return unit_fail_count ? 1 : 0;
}

#endif
