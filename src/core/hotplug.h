/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_HOTPLUG_H
#define CPULEDGER_HOTPLUG_H

#include <stdbool.h>

/*
 * CPU hotplug notifications: a kernel uevent netlink socket. A message about
 * a CPU only says "look again": the truth is /sys/devices/system/cpu/online,
 * which callers re-read (and also re-read periodically, because uevents do
 * not reach network namespaces owned by other user namespaces).
 */

/* Opens the uevent socket (non-blocking); returns the fd or -errno. */
int cl_hotplug_open(void);
/* Drains pending messages; true if any concerned a CPU. */
bool cl_hotplug_drain(int fd);
/* Parses one uevent message; true for a CPU online/offline/add/remove, setting *cpu. */
bool cl_hotplug_parse(const char *msg, size_t len, int *cpu, bool *online);

#endif
