// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>

#include "core/containers.h"

static bool is_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

/* A path component: [start, start + len). */
struct part {
	const char *s;
	size_t len;
};

static bool has_prefix(struct part p, const char *prefix)
{
	size_t n = strlen(prefix);

	return p.len >= n && !memcmp(p.s, prefix, n);
}

static bool has_suffix(struct part p, const char *suffix)
{
	size_t n = strlen(suffix);

	return p.len >= n && !memcmp(p.s + p.len - n, suffix, n);
}

/* "<prefix><64 hex>.scope" (systemd) or "<64 hex>" (cgroupfs, prefix ""). */
static bool container_part(struct part p, const char *prefix, const char *suffix,
			   struct cl_container *out)
{
	size_t plen = strlen(prefix), slen = strlen(suffix);

	if (p.len != plen + CL_CONTAINER_ID_LEN + slen || !has_prefix(p, prefix) ||
	    !has_suffix(p, suffix) || !is_hex(p.s + plen, CL_CONTAINER_ID_LEN))
		return false;
	memcpy(out->id, p.s + plen, CL_CONTAINER_ID_LEN);
	out->id[CL_CONTAINER_ID_LEN] = '\0';
	return true;
}

static const struct {
	const char *prefix;
	const char *runtime;
} scopes[] = {
	/* systemd driver: "<prefix><id>.scope" */
	{ "docker-", "docker" },
	{ "cri-containerd-", "containerd" },
	{ "crio-conmon-", "cri-o" },
	{ "crio-", "cri-o" },
	{ "libpod-conmon-", "podman" },
	{ "libpod-", "podman" },
};

static bool parse_container(struct part p, const struct part *parent, struct cl_container *out)
{
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		if (container_part(p, scopes[i].prefix, ".scope", out)) {
			out->runtime = scopes[i].runtime;
			return true;
		}
	}
	/* CRI-O with its cgroupfs manager: "crio-[conmon-]<id>", no .scope. */
	if (container_part(p, "crio-conmon-", "", out) || container_part(p, "crio-", "", out)) {
		out->runtime = "cri-o";
		return true;
	}
	/* cgroupfs driver: a bare id under /docker/ or under a pod. */
	if (container_part(p, "", "", out)) {
		if (parent && parent->len == 6 && !memcmp(parent->s, "docker", 6))
			out->runtime = "docker";
		else
			out->runtime = "";
		return true;
	}
	return false;
}

/* "pod<uid>" (cgroupfs) or "[kubelet-]kubepods[-<qos>]-pod<uid_with_underscores>.slice". */
static bool parse_pod(struct part p, char uid_out[CL_POD_UID_LEN + 1])
{
	char uid[CL_POD_UID_LEN + 1];
	const char *start;
	size_t len;

	if ((has_prefix(p, "kubepods") || has_prefix(p, "kubelet-kubepods")) &&
	    has_suffix(p, ".slice")) {
		const char *pod = NULL;

		for (size_t i = 0; i + 4 <= p.len; i++) {
			if (!memcmp(p.s + i, "-pod", 4))
				pod = p.s + i + 4;
		}
		if (!pod)
			return false;
		start = pod;
		len = (size_t)(p.s + p.len - 6 - pod);
	} else if (has_prefix(p, "pod")) {
		start = p.s + 3;
		len = p.len - 3;
	} else {
		return false;
	}
	if (len != CL_POD_UID_LEN)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = start[i] == '_' ? '-' : start[i];
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? c != '-' : !is_hex(&c, 1))
			return false;
		uid[i] = c;
	}
	uid[len] = '\0';
	/* Only a whole, valid uid is written out. */
	memcpy(uid_out, uid, sizeof(uid));
	return true;
}

/* The component that ends at @end (exclusive), scanning back from the path's end. */
static bool previous_part(const char *path, const char **end, struct part *p)
{
	const char *e = *end, *b;

	while (e > path && e[-1] == '/')
		e--;
	if (e == path)
		return false;
	for (b = e; b > path && b[-1] != '/'; b--)
		;
	p->s = b;
	p->len = (size_t)(e - b);
	*end = b;
	return true;
}

bool cl_container_parse(const char *path, struct cl_container *out)
{
	const char *end = path + strlen(path);
	struct part p, parent;
	bool container = false, pod = false, have = false;

	memset(out, 0, sizeof(*out));
	out->runtime = "";
	/* From the end: the innermost container and pod come first. No depth limit. */
	if (previous_part(path, &end, &p))
		have = true;
	while (have && !(container && pod)) {
		const char *before = end;
		bool more = previous_part(path, &before, &parent);

		if (!container)
			container = parse_container(p, more ? &parent : NULL, out);
		if (!pod && parse_pod(p, out->pod_uid)) {
			pod = true;
			out->pod_path_len = (size_t)(p.s + p.len - path);
		}
		p = parent;
		end = before;
		have = more;
	}
	return container || pod;
}
