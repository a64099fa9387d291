// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <math.h>

#include "core/json.h"

size_t cl_utf8_sequence(const unsigned char *p)
{
	unsigned int cp;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void cl_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		size_t n = cl_utf8_sequence(p);

		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(out, "\\u%04x", *p);
			} else if (!n) {
				/*
				 * Not UTF-8 (a comm cut mid-character by the
				 * kernel, or Latin-1): U+FFFD keeps JSON valid.
				 */
				fputs("\\ufffd", out);
				n = 1;
			} else {
				fwrite(p, 1, n, out);
			}
		}
		p += n ? n : 1;
	}
	fputc('"', out);
}

void cl_json_double(FILE *out, double value)
{
	if (!isfinite(value)) {
		fputs("null", out);
		return;
	}
	fprintf(out, "%.6g", value);
}
