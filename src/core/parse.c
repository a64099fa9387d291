// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"

static const struct {
	const char *suffix;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC },
	{ "\xc2\xb5s", NSEC_PER_USEC },	/* µs */
	{ "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC },
	{ "", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC },
	{ "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int cl_parse_duration(const char *text, uint64_t *ns)
{
	/* 128-bit intermediates: exact for every input that fits 64 bits. */
	unsigned __int128 whole = 0, frac = 0, frac_scale = 1, unit = 0, total;
	const char *p = text;
	bool digits = false;
	size_t i;

	if (!text)
		return -EINVAL;
	for (; is_digit(*p); p++) {
		whole = whole * 10 + (unsigned)(*p - '0');
		if (whole > UINT64_MAX)
			return -ERANGE;
		digits = true;
	}
	if (*p == '.') {
		for (p++; is_digit(*p); p++) {
			/* Digits past 1e-18 of any unit cannot change a ns count. */
			if (frac_scale < 1000000000000000000ULL) {
				frac = frac * 10 + (unsigned)(*p - '0');
				frac_scale *= 10;
			}
			digits = true;
		}
	}
	if (!digits)
		return -EINVAL;
	for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
		if (!strcmp(p, duration_units[i].suffix)) {
			unit = duration_units[i].ns;
			break;
		}
	}
	if (!unit)
		return -EINVAL;
	if (whole > UINT64_MAX / unit)
		return -ERANGE;
	/* frac < frac_scale <= 1e18 and unit < 4e12: the product fits 128 bits. */
	total = whole * unit + frac * unit / frac_scale;
	if (total > UINT64_MAX)
		return -ERANGE;
	*ns = (uint64_t)total;
	return 0;
}

void cl_format_duration(uint64_t ns, char *buf, size_t size)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "h", 3600 * NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC },
		      { "s", NSEC_PER_SEC },	    { "ms", NSEC_PER_MSEC },
		      { "us", NSEC_PER_USEC },	    { "ns", 1 } };
	char frac[16];
	size_t i, len;

	if (ns == 0) {
		snprintf(buf, size, "0s");
		return;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns >= units[i].ns && ns % units[i].ns == 0) {
			snprintf(buf, size, "%llu%s", (unsigned long long)(ns / units[i].ns),
				 units[i].suffix);
			return;
		}
		/* Not a whole number of seconds or more: exact decimal seconds. */
		if (units[i].ns == NSEC_PER_SEC && ns >= NSEC_PER_SEC)
			break;
	}
	/* Below a second every value is a whole number of ns: returned above. */
	snprintf(frac, sizeof(frac), "%09llu", (unsigned long long)(ns % NSEC_PER_SEC));
	for (len = strlen(frac); len > 1 && frac[len - 1] == '0'; len--)
		frac[len - 1] = '\0';
	snprintf(buf, size, "%llu.%ss", (unsigned long long)(ns / NSEC_PER_SEC), frac);
}

int cl_parse_u64(const char *text, uint64_t *value)
{
	uint64_t v = 0;
	const char *p;

	if (!text || !*text)
		return -EINVAL;
	for (p = text; *p; p++) {
		if (!is_digit(*p))
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*value = v;
	return 0;
}

int cl_parse_size(const char *text, uint64_t *bytes)
{
	char digits[32];
	size_t len = text ? strlen(text) : 0;
	uint64_t value, unit = 1;
	int err;

	if (!len || len >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, text, len + 1);
	switch (digits[len - 1]) {
	case 'K':
	case 'k':
		unit = 1ULL << 10;
		break;
	case 'M':
	case 'm':
		unit = 1ULL << 20;
		break;
	case 'G':
	case 'g':
		unit = 1ULL << 30;
		break;
	}
	if (unit > 1)
		digits[len - 1] = '\0';
	err = cl_parse_u64(digits, &value);
	if (err)
		return err;
	if (value > UINT64_MAX / unit)
		return -ERANGE;
	*bytes = value * unit;
	return 0;
}

int cl_parse_u32(const char *text, uint32_t *value)
{
	uint64_t v;
	int err;

	err = cl_parse_u64(text, &v);
	if (err)
		return err;
	if (v > UINT32_MAX)
		return -ERANGE;
	*value = (uint32_t)v;
	return 0;
}

void cl_free_list(char **items, size_t count)
{
	size_t i;

	if (!items)
		return;
	for (i = 0; i < count; i++)
		free(items[i]);
	free(items);
}

int cl_split_list(const char *text, char ***items, size_t *count)
{
	char **out = NULL;
	size_t n = 0;
	const char *start = text, *comma;

	if (!text)
		return -EINVAL;
	for (;;) {
		size_t len;
		char **grown;

		comma = strchr(start, ',');
		len = comma ? (size_t)(comma - start) : strlen(start);
		if (len == 0)
			goto err_invalid;
		grown = realloc(out, (n + 1) * sizeof(*out));
		if (!grown)
			goto err_nomem;
		out = grown;
		out[n] = strndup(start, len);
		if (!out[n])
			goto err_nomem;
		n++;
		if (!comma)
			break;
		start = comma + 1;
	}
	*items = out;
	*count = n;
	return 0;

err_invalid:
	cl_free_list(out, n);
	return -EINVAL;
err_nomem:
	cl_free_list(out, n);
	return -ENOMEM;
}

int cl_parse_pid_list(const char *text, uint32_t **pids, size_t *count)
{
	char **items = NULL;
	uint32_t *out = NULL;
	size_t n = 0, i;
	int err;

	err = cl_split_list(text, &items, &n);
	if (err)
		return err;
	out = calloc(n, sizeof(*out));
	if (!out) {
		err = -ENOMEM;
		goto out_items;
	}
	for (i = 0; i < n; i++) {
		err = cl_parse_u32(items[i], &out[i]);
		/* PIDs are below pid_max, at most 2^22; 0 is never a process. */
		if (!err && (out[i] == 0 || out[i] >= (1U << 22)))
			err = -ERANGE;
		if (err) {
			free(out);
			goto out_items;
		}
	}
	*pids = out;
	*count = n;
out_items:
	cl_free_list(items, n);
	return err;
}

/* 999, 12345, 123.4K, 12.3M ... */
void cl_format_count(uint64_t value, char *buf, size_t size)
{
	static const char suffix[] = "KMGTPE";
	double scaled = (double)value;
	int i = -1;

	if (value < 100000) {
		snprintf(buf, size, "%llu", (unsigned long long)value);
		return;
	}
	while (scaled >= 999.95 && i < 5) {
		scaled /= 1000;
		i++;
	}
	snprintf(buf, size, "%.1f%c", scaled, suffix[i]);
}

/* 0, 812ns, 45.2us, 812.3ms, 1.52s: rounding never shows 1000.0 of a unit. */
void cl_format_time(uint64_t ns, char *buf, size_t size)
{
	if (ns == 0)
		snprintf(buf, size, "0");
	else if (ns < NSEC_PER_USEC)
		snprintf(buf, size, "%lluns", (unsigned long long)ns);
	else if (ns < 999950)
		snprintf(buf, size, "%.1fus", (double)ns / NSEC_PER_USEC);
	else if (ns < 999950000)
		snprintf(buf, size, "%.1fms", (double)ns / NSEC_PER_MSEC);
	else
		snprintf(buf, size, "%.2fs", (double)ns / NSEC_PER_SEC);
}
