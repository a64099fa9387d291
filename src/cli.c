// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "core/parse.h"
#include "core/system.h"

static void vusage_error(const char *cmd, const char *see, const char *fmt, va_list args)
{
	const char *sep = cmd ? " " : "";

	fprintf(stderr, "cpuledger%s%s: ", sep, cmd ? cmd : "");
	vfprintf(stderr, fmt, args);
	if (see)
		fprintf(stderr, " (see '%s')\n", see);
	else
		fprintf(stderr, " (see 'cpuledger%s%s --help')\n", sep, cmd ? cmd : "");
}

int cl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vusage_error(cmd, NULL, fmt, args);
	va_end(args);
	return CL_EXIT_USAGE;
}

int cl_usage_error_see(const char *cmd, const char *see, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vusage_error(cmd, see, fmt, args);
	va_end(args);
	return CL_EXIT_USAGE;
}

int cl_getopt_error(const char *cmd, int opt, char **argv)
{
	const char *arg = argv[optind - 1];

	if (opt == ':')
		return cl_usage_error(cmd, "option '%s' needs a value", arg);
	if (optopt && !(arg[0] == '-' && arg[1] == '-'))
		return cl_usage_error(cmd, "unknown option '-%c'", optopt);
	return cl_usage_error(cmd, "unknown option '%s'", arg);
}

int cl_duration_arg(const char *cmd, const char *option, const char *arg, uint64_t *ns)
{
	int err = cl_parse_duration(arg, ns);

	if (err == -ERANGE)
		return cl_usage_error(cmd, "%s '%s' is too long", option, arg);
	if (err || *ns == 0)
		return cl_usage_error(cmd,
				      "%s '%s' is not a positive duration (e.g. 250ms, 1s, 1.5s, "
				      "2m)",
				      option, arg);
	return 0;
}

int cl_check_bpf_ready(const char *cmd)
{
	struct utsname uts;

	if (!cl_have_bpf_privileges()) {
		fprintf(stderr,
			"cpuledger %s: not enough privileges to load BPF programs: run as root, "
			"or grant CAP_BPF and CAP_PERFMON (e.g. setcap cap_bpf,cap_perfmon+ep)\n",
			cmd);
		return CL_EXIT_FAIL;
	}
	if (!cl_have_btf()) {
		uname(&uts);
		fprintf(stderr,
			"cpuledger %s: kernel %s has no BTF (%s missing); cpuledger needs a "
			"kernel built with CONFIG_DEBUG_INFO_BTF=y\n",
			cmd, uts.release, CL_BTF_PATH);
		return CL_EXIT_FAIL;
	}
	return 0;
}
