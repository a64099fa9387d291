/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CPULEDGER_CONTAINERS_H
#define CPULEDGER_CONTAINERS_H

#include <stdbool.h>

/*
 * Containers and Kubernetes pods from cgroup v2 paths, for the layouts real
 * hosts use:
 *   systemd driver:  .../docker-<id>.scope, .../cri-containerd-<id>.scope,
 *                    .../crio-<id>.scope (and crio-conmon-), .../libpod-<id>.scope
 *                    (and libpod-conmon-), kubepods[-<qos>]-pod<uid_with_underscores>.slice
 *   cgroupfs driver: /docker/<id>, /kubepods[/<qos>]/pod<uid>/<id>
 * The innermost container wins (nested containers). Pure: no I/O.
 */
#define CL_CONTAINER_ID_LEN 64
#define CL_POD_UID_LEN 36

struct cl_container {
	char id[CL_CONTAINER_ID_LEN + 1];	/* 64 hex digits, or "" */
	const char *runtime;			/* docker, containerd, cri-o, podman, or "" */
	char pod_uid[CL_POD_UID_LEN + 1];	/* with dashes, as Kubernetes shows it, or "" */
	size_t pod_path_len;			/* the pod's cgroup: this much of the path */
};

/* Fills @out from @path; true if a container or a pod was recognised. */
bool cl_container_parse(const char *path, struct cl_container *out);

#endif
