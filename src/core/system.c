// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "core/system.h"

bool cl_have_cap(int cap)
{
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &header, data))
		return false;
	return (data[cap / 32].effective >> (cap % 32)) & 1;
}

void cl_raise_bpf_caps(void)
{
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	static const int caps[] = { CL_CAP_BPF, CL_CAP_PERFMON };
	bool change = false;

	if (syscall(SYS_capget, &header, data))
		return;
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		__u32 bit = 1U << (caps[i] % 32);
		struct __user_cap_data_struct *d = &data[caps[i] / 32];

		if ((d->permitted & bit) && !(d->effective & bit)) {
			d->effective |= bit;
			change = true;
		}
	}
	if (change)
		syscall(SYS_capset, &header, data);
}

bool cl_have_bpf_privileges(void)
{
	return (cl_have_cap(CL_CAP_BPF) && cl_have_cap(CL_CAP_PERFMON)) ||
	       cl_have_cap(CL_CAP_SYS_ADMIN);
}

bool cl_have_btf(void)
{
	return access(CL_BTF_PATH, R_OK) == 0;
}

int cl_process_exists(pid_t pid, pid_t *tgid)
{
	char path[64], line[256];
	FILE *f;
	int err = -ESRCH;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Tgid:", 5)) {
			*tgid = (pid_t)strtol(line + 5, NULL, 10);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

/*
 * mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER.
 * The last match wins: a later mount over the same place hides earlier ones
 * (a container runtime's namespaced cgroup2 under the host's, bind-mounted on top).
 */
static int find_mount(const char *fstype, char *path, size_t size)
{
	char line[4096];
	FILE *f;
	int err = -ENOENT;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mnt[4096], type[64];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(dash + 3, "%63s", type) != 1 || strcmp(type, fstype))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		if (path)
			snprintf(path, size, "%s", mnt);
		err = 0;
	}
	fclose(f);
	return err;
}

int cl_cgroup2_mount(char *path, size_t size)
{
	return find_mount("cgroup2", path, size);
}

bool cl_cgroup1_mounted(void)
{
	return find_mount("cgroup", NULL, 0) == 0;
}
