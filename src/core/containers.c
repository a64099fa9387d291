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

/* "pod<uid>" (cgroupfs) or "kubepods[-<qos>]-pod<uid_with_underscores>.slice". */
static bool parse_pod(struct part p, struct cl_container *out)
{
	const char *uid;
	size_t len;

	if (has_prefix(p, "kubepods") && has_suffix(p, ".slice")) {
		const char *pod = NULL;

		for (size_t i = 0; i + 4 <= p.len; i++) {
			if (!memcmp(p.s + i, "-pod", 4))
				pod = p.s + i + 4;
		}
		if (!pod)
			return false;
		uid = pod;
		len = (size_t)(p.s + p.len - 6 - pod);
	} else if (has_prefix(p, "pod")) {
		uid = p.s + 3;
		len = p.len - 3;
	} else {
		return false;
	}
	if (len != CL_POD_UID_LEN)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = uid[i] == '_' ? '-' : uid[i];
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? c != '-' : !is_hex(&c, 1))
			return false;
		out->pod_uid[i] = c;
	}
	out->pod_uid[len] = '\0';
	return true;
}

bool cl_container_parse(const char *path, struct cl_container *out)
{
	struct part parts[64], *parent;
	size_t n = 0;
	bool container = false, pod = false;

	memset(out, 0, sizeof(*out));
	out->runtime = "";
	for (const char *s = path; *s && n < sizeof(parts) / sizeof(parts[0]);) {
		const char *end;

		while (*s == '/')
			s++;
		if (!*s)
			break;
		end = strchr(s, '/');
		if (!end)
			end = s + strlen(s);
		parts[n].s = s;
		parts[n].len = (size_t)(end - s);
		n++;
		s = end;
	}
	/* Innermost first: a container inside a container is the inner one. */
	for (size_t i = n; i-- > 0 && !container;) {
		parent = i ? &parts[i - 1] : NULL;
		container = parse_container(parts[i], parent, out);
	}
	for (size_t i = n; i-- > 0 && !pod;) {
		pod = parse_pod(parts[i], out);
		if (pod)
			out->pod_path_len = (size_t)(parts[i].s + parts[i].len - path);
	}
	return container || pod;
}
