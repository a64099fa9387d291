// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * src/core/hotplug.c: which kernel uevent messages are about a CPU going or
 * coming, and draining a socket of them (a socketpair stands in for the
 * netlink socket: both hand over one message per datagram).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>

#include "core/hotplug.h"
#include "unit.h"

/*
 * A message as the kernel sends it (lib/kobject_uevent.c): "ACTION@DEVPATH",
 * then the environment, every string NUL-terminated; the length counts the
 * last NUL.
 */
#define UEVENT(action, devpath, seqnum)                                              \
	action "@" devpath "\0ACTION=" action "\0DEVPATH=" devpath "\0SUBSYSTEM=cpu\0" \
	       "SEQNUM=" seqnum

struct parse_case {
	const char *msg;
	size_t len;
	bool is_cpu;
	int cpu;	/* when is_cpu */
	bool online;
};

/* The whole string literal, its final NUL included. */
#define MSG(text) text, sizeof(text)

static const struct parse_case cpu_cases[] = {
	{ MSG(UEVENT("online", "/devices/system/cpu/cpu1", "1234")), true, 1, true },
	{ MSG(UEVENT("offline", "/devices/system/cpu/cpu12", "1235")), true, 12, false },
	{ MSG(UEVENT("add", "/devices/system/cpu/cpu3", "7")), true, 3, true },
	{ MSG(UEVENT("remove", "/devices/system/cpu/cpu7", "8")), true, 7, false },
	{ MSG(UEVENT("online", "/devices/system/cpu/cpu0", "1")), true, 0, true },
	{ MSG(UEVENT("offline", "/devices/system/cpu/cpu1023", "99")), true, 1023, false },
	/* The header alone, still terminated. */
	{ MSG("online@/devices/system/cpu/cpu5"), true, 5, true },
	{ MSG("offline@/devices/system/cpu/cpu255\0"), true, 255, false },
};

static const struct parse_case other_cases[] = {
	{ MSG(UEVENT("online", "/devices/system/memory/memory3", "40")) },
	{ MSG(UEVENT("offline", "/devices/system/memory/memory3", "41")) },
	{ MSG(UEVENT("change", "/devices/system/cpu/cpu1", "42")) },
	{ MSG(UEVENT("bind", "/devices/system/cpu/cpu1", "43")) },
	{ MSG(UEVENT("move", "/devices/system/cpu/cpu1", "44")) },
	{ MSG(UEVENT("online", "/devices/system/cpu/cpufreq", "45")) },
	{ MSG(UEVENT("online", "/devices/system/cpu/cpu", "46")) },
	{ MSG(UEVENT("online", "/devices/system/cpu/cpu1x", "47")) },
	{ MSG(UEVENT("online", "/devices/system/cpu/cpu-1", "48")) },
	{ MSG(UEVENT("online", "/devices/system/cpu/cpu 1", "49")) },
	{ MSG(UEVENT("online", "/devices/system/cpu/cpuidle", "50")) },
	{ MSG(UEVENT("add", "/devices/system/node/node1", "51")) },
	{ MSG(UEVENT("add", "/devices/virtual/net/cpu1", "52")) },
	{ MSG(UEVENT("online", "/devices/system/cpux/cpu1", "53")) },
	/* Action names are exact. */
	{ MSG("onlinex@/devices/system/cpu/cpu1") },
	{ MSG("Online@/devices/system/cpu/cpu1") },
	{ MSG("line@/devices/system/cpu/cpu1") },
	{ MSG("adds@/devices/system/cpu/cpu1") },
	{ MSG("@/devices/system/cpu/cpu1") },
	/* No '@': the environment alone, and other text. */
	{ MSG("ACTION=online\0DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu\0") },
	{ MSG("online /devices/system/cpu/cpu1") },
	{ MSG("") },
	/*
	 * What udevd forwards (libudev's monitor): a "libudev" magic, a binary
	 * header (magic 0xfeedcafe, header size and properties offset 40,
	 * properties length, filter hashes and bloom), then the environment.
	 */
	{ MSG("libudev\0" "\xfe\xed\xca\xfe" "\x28\0\0\0" "\x28\0\0\0" "\x3d\0\0\0"
	      "\x9d\x4b\x1f\x2e" "\0\0\0\0" "\0\0\0\0" "\0\0\0\0"
	      "ACTION=online\0DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu\0") },
	{ MSG("libudev\0online@/devices/system/cpu/cpu1") },
};

/*
 * Buffers cut short: @len ends before the text does, and what follows it is
 * not the message (a reused buffer, a short read). Nothing past @len counts.
 */
static const char online_cpu12[] = UEVENT("online", "/devices/system/cpu/cpu12", "3");

static const struct parse_case truncated_cases[] = {
	{ online_cpu12, 0 },
	{ online_cpu12, 6 },				/* "online" */
	{ online_cpu12, 7 },				/* "online@" */
	{ online_cpu12, 20 },				/* inside the devpath */
	{ online_cpu12, 30 },				/* ".../cpu": no number */
	{ online_cpu12, 31 },				/* ".../cpu1" of cpu12 */
	{ online_cpu12, 32 },				/* ".../cpu12", no NUL */
	{ "offline@/devices/system/cpu/cpu3\0", 31 },	/* ".../cpu" */
};

static bool check_parse(const struct parse_case *c, const char *table, size_t i)
{
	bool online = !c->online, is_cpu;
	int cpu = -1;
	bool ok;

	is_cpu = cl_hotplug_parse(c->msg, c->len, &cpu, &online);
	ok = expect(is_cpu == c->is_cpu);
	if (ok && c->is_cpu)
		ok = expect_int(cpu, c->cpu) && expect(online == c->online);
	if (!ok)
		unit_note("%s case %zu: \"%.*s\", %zu bytes: %s cpu %d %s", table, i,
			  (int)strnlen(c->msg, c->len), c->msg, c->len,
			  is_cpu ? "said" : "not", cpu, online ? "online" : "offline");
	return ok;
}

static bool test_parse_cpu_messages(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cpu_cases); i++)
		ok &= check_parse(&cpu_cases[i], "cpu", i);
	return ok;
}

static bool test_parse_other_messages(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(other_cases); i++)
		ok &= check_parse(&other_cases[i], "other", i);
	return ok;
}

static bool test_parse_truncated(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(truncated_cases); i++)
		ok &= check_parse(&truncated_cases[i], "truncated", i);
	return ok;
}

/* A number that does not fit a CPU id is not one: it must not wrap to a small id. */
static bool test_parse_number_range(void)
{
	static const struct parse_case cases[] = {
		{ MSG("online@/devices/system/cpu/cpu2147483647"), true, 2147483647, true },
		{ MSG("online@/devices/system/cpu/cpu2147483648") },
		{ MSG("online@/devices/system/cpu/cpu4294967297") },	/* 2^32 + 1 */
		{ MSG("offline@/devices/system/cpu/cpu99999999999999999999999") },
	};
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		ok &= check_parse(&cases[i], "range", i);
	return ok;
}

struct datagram {
	const char *data;
	size_t len;
};

/* Sends @count datagrams into one end of a fresh socketpair; returns the other end. */
static int queue_datagrams(int fds[2], const struct datagram *msgs, size_t count)
{
	if (!expect(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) == 0))
		return -1;
	for (size_t i = 0; i < count; i++) {
		if (!expect(send(fds[1], msgs[i].data, msgs[i].len, 0) == (ssize_t)msgs[i].len)) {
			unit_note("datagram %zu: %s", i, strerror(errno));
			close(fds[0]);
			close(fds[1]);
			return -1;
		}
	}
	return fds[0];
}

/* Is there nothing left to read on @fd? */
static bool drained(int fd)
{
	char byte;

	return expect(recv(fd, &byte, 1, MSG_DONTWAIT) < 0) && expect_int(errno, EAGAIN);
}

#define DGRAM(text) { text, sizeof(text) }

static const struct datagram cpu_online = DGRAM(UEVENT("online", "/devices/system/cpu/cpu1", "1"));
static const struct datagram cpu_remove = DGRAM(UEVENT("remove", "/devices/system/cpu/cpu2", "2"));
static const struct datagram memory = DGRAM(UEVENT("online", "/devices/system/memory/memory3",
						   "3"));
static const struct datagram change = DGRAM(UEVENT("change", "/devices/system/cpu/cpu1", "4"));
static const struct datagram empty = { "", 0 };

static const struct {
	const char *what;
	struct datagram msgs[8];
	size_t count;
	bool any_cpu;
} drain_cases[] = {
	{ "nothing queued", { { NULL } }, 0, false },
	{ "one CPU message", { cpu_online }, 1, true },
	{ "not about CPUs", { memory, change, memory, empty }, 4, false },
	{ "a CPU message among others", { memory, change, cpu_remove, memory, change }, 5, true },
	{ "the CPU message first", { cpu_online, memory, memory }, 3, true },
	{ "an empty datagram, then a CPU", { empty, cpu_online }, 2, true },
	{ "many CPU messages", { cpu_online, cpu_remove, cpu_online, cpu_remove, cpu_online,
				 cpu_remove, cpu_online, cpu_remove }, 8, true },
};

static bool test_drain(void)
{
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(drain_cases); i++) {
		int fds[2], fd = queue_datagrams(fds, drain_cases[i].msgs, drain_cases[i].count);
		bool case_ok;

		if (fd < 0) {
			unit_note("%s", drain_cases[i].what);
			ok = false;
			continue;
		}
		/* Everything is read at once; a second call finds nothing. */
		case_ok = expect(cl_hotplug_drain(fd) == drain_cases[i].any_cpu) && drained(fd) &&
			  expect(!cl_hotplug_drain(fd));
		if (case_ok) {
			/* What comes later is news again. */
			case_ok = expect(send(fds[1], cpu_online.data, cpu_online.len, 0) > 0) &&
				  expect(cl_hotplug_drain(fd)) && expect(!cl_hotplug_drain(fd));
		}
		if (!case_ok) {
			unit_note("%s", drain_cases[i].what);
			ok = false;
		}
		close(fds[0]);
		close(fds[1]);
	}
	return ok;
}

/*
 * A datagram longer than the reading buffer is cut (and the rest of it
 * dropped, as datagrams are); its start still tells, and the next one is
 * read on its own.
 */
static bool test_drain_long_message(void)
{
	static const char start[] = UEVENT("offline", "/devices/system/cpu/cpu9", "77");
	size_t long_len = 64 * 1024;
	char *long_msg = calloc(1, long_len);
	struct datagram msgs[2];
	int fds[2], fd;
	bool ok = false;

	if (!expect(long_msg != NULL))
		return false;
	memcpy(long_msg, start, sizeof(start));
	/* More environment: "X=xxxx...\0" up to the end. */
	memset(long_msg + sizeof(start), 'x', long_len - sizeof(start) - 1);
	memcpy(long_msg + sizeof(start), "X=", 2);
	msgs[0] = (struct datagram){ long_msg, long_len };
	msgs[1] = memory;
	fd = queue_datagrams(fds, msgs, 2);
	if (fd < 0)
		goto out_msg;
	ok = expect(cl_hotplug_drain(fd)) && drained(fd) && expect(!cl_hotplug_drain(fd));
	close(fds[0]);
	close(fds[1]);
	if (!ok)
		goto out_msg;

	/* The long one not about a CPU, then nothing else. */
	memcpy(long_msg, memory.data, memory.len);
	msgs[0] = (struct datagram){ long_msg, long_len };
	fd = queue_datagrams(fds, msgs, 1);
	if (fd < 0) {
		ok = false;
		goto out_msg;
	}
	ok = expect(!cl_hotplug_drain(fd)) && drained(fd);
	close(fds[0]);
	close(fds[1]);
out_msg:
	free(long_msg);
	return ok;
}

/* A socket that cannot be read says nothing about CPUs (and does not hang). */
static bool test_drain_bad_fd(void)
{
	int fds[2];

	if (!expect(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, fds) == 0))
		return false;
	close(fds[0]);
	close(fds[1]);
	return expect(!cl_hotplug_drain(fds[0])) && expect(!cl_hotplug_drain(-1));
}

int main(void)
{
	RUN_TEST(test_parse_cpu_messages);
	RUN_TEST(test_parse_other_messages);
	RUN_TEST(test_parse_truncated);
	RUN_TEST(test_parse_number_range);
	RUN_TEST(test_drain);
	RUN_TEST(test_drain_long_message);
	RUN_TEST(test_drain_bad_fd);
	return unit_done();
}
