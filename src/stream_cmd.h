/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_STREAM_CMD_H
#define CPULEDGER_STREAM_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuledger/abi.h"

/* The options `record` and `trace` share, parsed by each command. */
struct stream_cmd {
	const char *name;	/* "record", "trace" */
	enum cl_mode mode;
	uint64_t duration_ns;	/* 0: until a signal */
	uint64_t slice_ns;	/* record */
	uint32_t *pids;
	size_t nr_pids;
	const char *comm;
	const char *events;
	const char *format;
	const char *output;	/* NULL: stdout (not for sqlite) */
	bool threads;		/* record: slices name the thread, not the process */
	uint64_t ring_bytes;
	bool verbose;
};

enum {
	STREAM_OPT_COMM = 256,
	STREAM_OPT_RING,
	STREAM_OPT_SLICE,
};

/*
 * Parses an option both commands share: returns -1 when taken, -2 when not
 * one of them, or an exit code (a usage error was printed).
 */
int stream_cmd_parse_common(struct stream_cmd *cmd, int opt, const char *arg);
/* Runs the command; returns its exit code. Frees cmd->pids. */
int stream_cmd_run(struct stream_cmd *cmd);

#endif
