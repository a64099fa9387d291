// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "core/hotplug.h"

int cl_hotplug_open(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1, /* the kernel's uevent multicast group */
	};
	int fd;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* "online@/devices/system/cpu/cpu1\0ACTION=online\0..."; reads at most @len bytes. */
bool cl_hotplug_parse(const char *msg, size_t len, int *cpu, bool *online)
{
	static const char prefix[] = "@/devices/system/cpu/cpu";
	const char *at = memchr(msg, '@', len), *p, *end = msg + len;
	size_t action_len;
	long value = 0;

	if (!at || (size_t)(end - at) < sizeof(prefix) - 1 ||
	    memcmp(at, prefix, sizeof(prefix) - 1))
		return false;
	action_len = (size_t)(at - msg);
	if (action_len == 6 && !memcmp(msg, "online", 6))
		*online = true;
	else if (action_len == 3 && !memcmp(msg, "add", 3))
		*online = true;
	else if (action_len == 7 && !memcmp(msg, "offline", 7))
		*online = false;
	else if (action_len == 6 && !memcmp(msg, "remove", 6))
		*online = false;
	else
		return false;
	p = at + sizeof(prefix) - 1;
	if (p == end || *p < '0' || *p > '9')
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		value = value * 10 + (*p - '0');
		if (value > INT_MAX)
			return false;
	}
	/* The kernel ends "action@devpath" with a NUL; without it, the text was cut. */
	if (p == end || *p != '\0')
		return false;
	*cpu = (int)value;
	return true;
}

bool cl_hotplug_drain(int fd)
{
	char buf[8192];
	bool any = false;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		bool online;
		int cpu;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* EAGAIN: drained. ENOBUFS: we missed some; sysfs will tell. */
			return any || errno == ENOBUFS;
		}
		buf[n] = '\0';
		if (cl_hotplug_parse(buf, (size_t)n, &cpu, &online))
			any = true;
	}
}
