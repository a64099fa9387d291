/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Golden-file comparison shared by the sink tests. A rendering is compared
 * byte for byte with tests/unit/golden/FILE (GOLDEN_DIR overrides the
 * directory); UPDATE_GOLDEN=1 writes the rendering there instead, to be read
 * as a diff before it is committed: the golden files are the spec.
 */
#ifndef CPULEDGER_UNIT_GOLDEN_H
#define CPULEDGER_UNIT_GOLDEN_H

#include <stdlib.h>

#include "unit.h"

static inline char *unit_read_file(const char *path, size_t *len)
{
	char *text = NULL;
	FILE *in, *out;
	char buf[4096];
	size_t n;

	in = fopen(path, "r");
	if (!in)
		return NULL;
	out = open_memstream(&text, len);
	if (!out) {
		fclose(in);
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	return text;
}

/* Points at the first difference, line and column, to read next to a diff. */
static inline void unit_show_difference(const char *got, size_t got_len, const char *want,
					size_t want_len)
{
	size_t i, line = 1, col = 1;

	for (i = 0; i < got_len && i < want_len && got[i] == want[i]; i++) {
		col++;
		if (got[i] == '\n') {
			line++;
			col = 1;
		}
	}
	unit_note("first difference at line %zu, column %zu (%zu bytes vs %zu golden)", line, col,
		  got_len, want_len);
}

static inline bool unit_golden_write(const char *path, const char *text, size_t len)
{
	FILE *out = fopen(path, "w");
	bool ok;

	ok = expect(out != NULL) && expect(fwrite(text, 1, len, out) == len);
	if (out)
		ok = expect(fclose(out) == 0) && ok;
	if (ok)
		fprintf(stderr, "# wrote %s\n", path);
	return ok;
}

/* Compares (or with UPDATE_GOLDEN=1 writes) one rendering; text stays the caller's. */
static inline bool unit_golden_check(const char *file, const char *text, size_t len)
{
	const char *dir = getenv("GOLDEN_DIR");
	const char *update = getenv("UPDATE_GOLDEN");
	size_t want_len = 0;
	char path[512];
	char *want;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/unit/golden", file);
	if (update && !strcmp(update, "1"))
		return unit_golden_write(path, text, len);
	want = unit_read_file(path, &want_len);
	if (!expect(want != NULL, "(golden file; UPDATE_GOLDEN=1 writes it)")) {
		unit_note("%s", path);
		return false;
	}
	ok = expect_u64(len, want_len) && expect(!memcmp(text, want, len));
	if (!ok) {
		unit_show_difference(text, len, want, want_len);
		unit_note("%s; this run's output follows", path);
		fprintf(stderr, "%.*s", (int)len, text);
	}
	free(want);
	return ok;
}

#endif
