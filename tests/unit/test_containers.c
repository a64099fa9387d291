// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/containers.c: containers and pods from the cgroup v2 paths real
 * hosts have (systemd and cgroupfs drivers; docker, containerd, CRI-O,
 * podman; Kubernetes QoS classes), and paths that only look like them.
 */
#include <stdlib.h>

#include "core/containers.h"
#include "unit.h"

#define ID_A "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
#define ID_B "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"
#define ID_A_63 "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48b"
#define ID_A_UPPER "CA978112CA1BBDCAFAC231B39A23DC4DA786EFF8147C4E72B9807785AFEE48BB"
/* A pod uid as Kubernetes shows it, and as the systemd driver spells it in a slice name. */
#define UID "c1b75110-97a6-428f-894e-cbceba794229"
#define UID_ "c1b75110_97a6_428f_894e_cbceba794229"

#define POD_BURSTABLE \
	"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice"
#define POD_BESTEFFORT \
	"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice"
#define POD_GUARANTEED "/kubepods.slice/kubepods-pod" UID_ ".slice"

struct parse_case {
	const char *path;
	bool recognised;
	const char *id;		/* "" when none */
	const char *runtime;
	const char *pod_uid;	/* "" when none */
	const char *pod_path;	/* the pod's own cgroup, a prefix of path; "" when none */
};

static const struct parse_case parse_cases[] = {
	/* systemd driver */
	{ "/system.slice/docker-" ID_A ".scope", true, ID_A, "docker", "", "" },
	{ POD_BURSTABLE "/cri-containerd-" ID_A ".scope", true, ID_A, "containerd", UID,
	  POD_BURSTABLE },
	{ POD_BESTEFFORT "/cri-containerd-" ID_B ".scope", true, ID_B, "containerd", UID,
	  POD_BESTEFFORT },
	{ POD_GUARANTEED "/crio-" ID_A ".scope", true, ID_A, "cri-o", UID, POD_GUARANTEED },
	{ POD_GUARANTEED "/crio-conmon-" ID_A ".scope", true, ID_A, "cri-o", UID, POD_GUARANTEED },
	{ POD_BURSTABLE "/docker-" ID_B ".scope", true, ID_B, "docker", UID, POD_BURSTABLE },
	{ "/machine.slice/libpod-" ID_A ".scope", true, ID_A, "podman", "", "" },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID_A ".scope", true,
	  ID_A, "podman", "", "" },
	{ "/machine.slice/libpod-conmon-" ID_B ".scope", true, ID_B, "podman", "", "" },
	/* A process tree under the container's scope is still the container. */
	{ "/system.slice/docker-" ID_A ".scope/system.slice/nginx.service", true, ID_A, "docker",
	  "", "" },
	{ "/system.slice/docker-" ID_A ".scope/", true, ID_A, "docker", "", "" },
	/* cgroupfs driver */
	{ "/docker/" ID_A, true, ID_A, "docker", "", "" },
	{ "/docker/" ID_A "/", true, ID_A, "docker", "", "" },
	{ "//docker//" ID_A "//", true, ID_A, "docker", "", "" },
	{ "/kubepods/burstable/pod" UID "/" ID_A, true, ID_A, "", UID,
	  "/kubepods/burstable/pod" UID },
	{ "/kubepods/besteffort/pod" UID "/" ID_B, true, ID_B, "", UID,
	  "/kubepods/besteffort/pod" UID },
	{ "/kubepods/pod" UID "/" ID_A, true, ID_A, "", UID, "/kubepods/pod" UID },
	{ "/kubepods/pod" UID "/" ID_A "//", true, ID_A, "", UID, "/kubepods/pod" UID },
	/* Nested: the innermost container wins; its pod is the one it is in. */
	{ "/docker/" ID_A "/docker/" ID_B, true, ID_B, "docker", "", "" },
	{ "/system.slice/docker-" ID_A ".scope/kubepods/besteffort/pod" UID "/" ID_B, true, ID_B,
	  "", UID, "/system.slice/docker-" ID_A ".scope/kubepods/besteffort/pod" UID },
	{ "/docker/" ID_A POD_BESTEFFORT "/crio-" ID_B ".scope", true, ID_B, "cri-o", UID,
	  "/docker/" ID_A POD_BESTEFFORT },
	/* A pod's own cgroup, without a container (yet). */
	{ POD_BURSTABLE, true, "", "", UID, POD_BURSTABLE },
	{ POD_GUARANTEED "/", true, "", "", UID, POD_GUARANTEED },
	{ "/kubepods/burstable/pod" UID, true, "", "", UID, "/kubepods/burstable/pod" UID },
	/* Not containers, not pods. */
	{ "", false, "", "", "", "" },
	{ "/", false, "", "", "", "" },
	{ "///", false, "", "", "", "" },
	{ "/system.slice/sshd.service", false, "", "", "", "" },
	{ "/user.slice/user-1000.slice/session-3.scope", false, "", "", "", "" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/dbus.service", false, "", "", "",
	  "" },
	{ "/kubepods.slice", false, "", "", "", "" },
	{ "/kubepods.slice/kubepods-burstable.slice", false, "", "", "", "" },
	{ "/kubepods/burstable", false, "", "", "", "" },
	{ "/system.slice/docker.service", false, "", "", "", "" },
	{ "/docker", false, "", "", "", "" },
	{ "/system.slice/docker-" ID_A_63 ".scope", false, "", "", "", "" },
	{ "/system.slice/docker-" ID_A "0.scope", false, "", "", "", "" },
	{ "/system.slice/docker-" ID_A_UPPER ".scope", false, "", "", "", "" },
	{ "/system.slice/docker-" ID_A ".scope.extra", false, "", "", "", "" },
	{ "/system.slice/docker-" ID_A, false, "", "", "", "" },
	{ "/system.slice/docker" ID_A ".scope", false, "", "", "", "" },
	{ "/system.slice/rkt-" ID_A ".scope", false, "", "", "", "" },
	{ "/docker/" ID_A_63, false, "", "", "", "" },
	{ "/docker/" ID_A "0", false, "", "", "", "" },
	{ "/docker/" ID_A_UPPER, false, "", "", "", "" },
	{ "/docker/x" ID_A_63, false, "", "", "", "" },
};

static bool check_parse(const struct parse_case *c, const char *path)
{
	struct cl_container out;
	bool recognised;

	/* Leftovers from an earlier call must not survive. */
	memset(&out, 'x', sizeof(out));
	out.runtime = "stale";
	recognised = cl_container_parse(path, &out);
	if (!expect_int(recognised, c->recognised) || !expect_str(out.id, c->id) ||
	    !expect_str(out.runtime, c->runtime) || !expect_str(out.pod_uid, c->pod_uid) ||
	    !expect_u64(out.pod_path_len, strlen(c->pod_path)) ||
	    !expect(!strncmp(path, c->pod_path, strlen(c->pod_path)))) {
		unit_note("cl_container_parse(\"%.160s%s\")", path,
			  strlen(path) > 160 ? "..." : "");
		return false;
	}
	return true;
}

static bool test_parse(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(parse_cases); i++)
		ok &= check_parse(&parse_cases[i], parse_cases[i].path);
	return ok;
}

/*
 * Pods that are not: "pod" and something that is no Kubernetes uid. Nothing
 * of the would-be uid may be left in pod_uid, since cgroups.c keeps what
 * the parser filled whatever it returns, and at --by pod a non-empty pod_uid
 * is the row's identity (report.c, group_key).
 */
static const struct parse_case malformed_pod_cases[] = {
	/* "pod" and a uid that is not one. */
	{ "/kubepods/burstable/pod", false, "", "", "", "" },
	{ "/kubepods/burstable/podc1b75110-97a6-428f-894e-cbceba79422", false, "", "", "", "" },
	{ "/kubepods/burstable/podc1b75110-97a6-428f-894e-cbceba7942299", false, "", "", "", "" },
	{ "/kubepods/burstable/podc1b75110-97a6-428f-894e-cbceba79422g", false, "", "", "", "" },
	{ "/kubepods/burstable/podc1b7511097a6-428f-894e-cbceba794229-", false, "", "", "", "" },
	{ "/kubepods/burstable/podc1b75110x97a6x428fx894excbceba794229", false, "", "", "", "" },
	/* Slices whose uid has its dashes in the wrong places. */
	{ "/kubepods.slice/kubepods-burstable.slice/"
	  "kubepods-burstable-podc1b7511_097a6_428f_894e_cbceba794229.slice",
	  false, "", "", "", "" },
	{ "/kubepods.slice/kubepods-podc1b75110_97a6_428f_894ecbceba794229_.slice", false, "", "",
	  "", "" },
	{ "/kubepods.slice/kubepods-podc1b7511097a6428f894ecbceba79422912.slice", false, "", "", "",
	  "" },
	{ "/kubepods.slice/kubepods-pod.slice", false, "", "", "", "" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".scope", false, "", "", "", "" },
	/* A malformed pod does not stop the container from being found. */
	{ "/kubepods/burstable/podc1b75110-97a6-428f-894e-cbceba79422/" ID_A, true, ID_A, "", "",
	  "" },
	{ "/kubepods/burstable/podc1b75110x97a6x428fx894excbceba794229/" ID_A, true, ID_A, "", "",
	  "" },
	/* ... nor does it leave anything behind when a real pod is above it. */
	{ "/kubepods/pod" UID "/podc1b75110-97a6-428f-894e-cbceba79422g/" ID_A, true, ID_A, "", UID,
	  "/kubepods/pod" UID },
};

static bool test_parse_malformed_pods(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(malformed_pod_cases); i++)
		ok &= check_parse(&malformed_pod_cases[i], malformed_pod_cases[i].path);
	return ok;
}

/*
 * Layouts real hosts have that the parser's list leaves out:
 *  - kind nodes (and any kubelet with cgroupRoot: /kubelet) prefix every
 *    Kubernetes slice with "kubelet-", as kubernetes-sigs/kind#3947 shows;
 *  - CRI-O with the cgroupfs manager names a container's cgroup "crio-<id>",
 *    without ".scope" (cri-o's CgroupfsManager.ContainerCgroupPath).
 */
#define KIND_POD                                                                     \
	"/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/" \
	"kubelet-kubepods-besteffort-pod" UID_ ".slice"

static const struct parse_case unlisted_cases[] = {
	{ KIND_POD "/cri-containerd-" ID_A ".scope", true, ID_A, "containerd", UID, KIND_POD },
	{ KIND_POD, true, "", "", UID, KIND_POD },
	{ "/kubepods/burstable/pod" UID "/crio-" ID_A, true, ID_A, "cri-o", UID,
	  "/kubepods/burstable/pod" UID },
	{ "/kubepods/burstable/pod" UID "/crio-conmon-" ID_A, true, ID_A, "cri-o", UID,
	  "/kubepods/burstable/pod" UID },
};

static bool test_parse_unlisted_layouts(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(unlisted_cases); i++)
		ok &= check_parse(&unlisted_cases[i], unlisted_cases[i].path);
	return ok;
}

/*
 * Deep hierarchies. The parser keeps a fixed number of components, a bound
 * on its own work, but the bound must not change the answer: the container
 * is the innermost one, wherever it is, and a pod above it is still its pod.
 * (Paths come from a walk of the hierarchy, which has no depth limit.)
 */
struct deep_case {
	bool pod;			/* a cgroupfs pod near the root */
	unsigned int filler;		/* "x" components before the container */
	bool outer_container;		/* a docker container at the top too */
};

static const struct deep_case deep_cases[] = {
	{ false, 1, false },
	{ false, 62, false },	/* the container is component 63 */
	{ false, 63, false },	/* ... 64, the last one kept */
	{ false, 64, false },	/* ... 65 */
	{ false, 99, false },	/* ... 100 */
	{ false, 1000, false },
	{ false, 70, true },	/* an outer container within the bound, the inner one past it */
	{ true, 60, false },
	{ true, 62, false },	/* the pod near the root, its container past the bound */
	{ true, 100, false },
};

/* "[/docker/<A>][/kubepods/pod<uid>]/x.../docker-<B>.scope" */
static char *deep_path(const struct deep_case *c, struct parse_case *want)
{
	size_t size = 256 + (size_t)c->filler * 2;
	char *path = malloc(size), *end;

	if (!path)
		return NULL;
	end = path;
	*end = '\0';
	if (c->outer_container)
		end += sprintf(end, "/docker/%s", ID_A);
	if (c->pod)
		end += sprintf(end, "/kubepods/pod%s", UID);
	for (unsigned int i = 0; i < c->filler; i++)
		end += sprintf(end, "/x");
	sprintf(end, "/docker-%s.scope", ID_B);
	want->recognised = true;
	want->id = ID_B;
	want->runtime = "docker";
	want->pod_uid = c->pod ? UID : "";
	return path;
}

static bool test_parse_deep(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(deep_cases); i++) {
		const struct deep_case *c = &deep_cases[i];
		struct parse_case want;
		char pod_path[256] = "";
		char *path = deep_path(c, &want);

		if (!expect(path != NULL))
			return false;
		if (c->pod)
			snprintf(pod_path, sizeof(pod_path), "%s/kubepods/pod%s",
				 c->outer_container ? "/docker/" ID_A : "", UID);
		want.pod_path = pod_path;
		want.path = path;
		if (!check_parse(&want, path)) {
			unit_note("%u components of filler%s%s", c->filler,
				  c->outer_container ? ", an outer container" : "",
				  c->pod ? ", a pod" : "");
			ok = false;
		}
		free(path);
	}
	return ok;
}

/* Ids and uids keep exactly their length and end in a NUL. */
static bool test_parse_sizes(void)
{
	struct cl_container out;

	if (!expect(cl_container_parse(POD_BURSTABLE "/cri-containerd-" ID_A ".scope", &out)))
		return false;
	return expect_u64(strlen(out.id), CL_CONTAINER_ID_LEN) &&
	       expect_u64(strlen(out.pod_uid), CL_POD_UID_LEN) &&
	       expect_u64(sizeof(out.id), CL_CONTAINER_ID_LEN + 1) &&
	       expect_u64(sizeof(out.pod_uid), CL_POD_UID_LEN + 1);
}

int main(void)
{
	RUN_TEST(test_parse);
	RUN_TEST(test_parse_malformed_pods);
	RUN_TEST(test_parse_unlisted_layouts);
	RUN_TEST(test_parse_deep);
	RUN_TEST(test_parse_sizes);
	return unit_done();
}
