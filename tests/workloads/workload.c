// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A controllable workload for integration tests and benchmarks: burns CPU,
 * sleeps (voluntary switches), touches pages (faults), in threads, pinned
 * or not; can wait for a go signal, stop itself before exiting so the test
 * can read /proc while nothing moves, and write its own rusage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

static struct {
	int pin;		/* -1: anywhere */
	double busy_ms;		/* CPU burnt per thread */
	double slice_ms;	/* after each slice of busy time... */
	double sleep_ms;	/* ...sleep this long (0: never) */
	long pages;		/* pages touched per thread, spread over the run */
	int threads;
	const char *wait_fifo;
	const char *report;
	const char *name;
	bool stop;
	bool forever;
	long pingpong;		/* round trips over pipes with a child, then exit */
} cfg = { .pin = -1, .busy_ms = 1000, .slice_ms = 0, .threads = 1 };

/* With --stop: every thread stays alive until the stop has been observed. */
static pthread_barrier_t work_done, stop_seen;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(double ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000),
			       .tv_nsec = (long)((ms - (double)(time_t)(ms / 1000) * 1000) * 1e6) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void touch_pages(long count)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *mem;

	if (count <= 0)
		return;
	mem = mmap(NULL, (size_t)(count * page), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (long i = 0; i < count; i++)
		mem[i * page] = 1;
	munmap((void *)mem, (size_t)(count * page));
}

static void pin(void)
{
	cpu_set_t set;

	if (cfg.pin < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cfg.pin, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static void *run(void *arg)
{
	double start = now_ms(), next_sleep = start + cfg.slice_ms;
	long pages_left = cfg.pages;
	volatile unsigned long spin = 0;

	pin();
	while (cfg.forever || now_ms() - start < cfg.busy_ms) {
		for (int i = 0; i < 10000; i++)
			spin++;
		if (pages_left > 0) {
			/* Spread faults over the run: 64 pages at a time. */
			long n = pages_left < 64 ? pages_left : 64;

			touch_pages(n);
			pages_left -= n;
		}
		if (cfg.slice_ms > 0 && cfg.sleep_ms > 0 && now_ms() >= next_sleep) {
			sleep_ms(cfg.sleep_ms);
			next_sleep = now_ms() + cfg.slice_ms;
		}
	}
	touch_pages(pages_left);
	if (cfg.stop && arg) {
		pthread_barrier_wait(&work_done);
		pthread_barrier_wait(&stop_seen);
	}
	return arg;
}

/* Two processes bouncing a byte: two context switches per round trip. */
static int pingpong(long rounds)
{
	int to_child[2], to_parent[2];
	char byte = 0;
	pid_t child;

	if (pipe(to_child) || pipe(to_parent)) {
		perror("pipe");
		return 1;
	}
	child = fork();
	if (child == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &byte, 1) == 1 && write(to_parent[1], &byte, 1) == 1)
			;
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	for (long i = 0; i < rounds; i++) {
		if (write(to_child[1], &byte, 1) != 1 || read(to_parent[0], &byte, 1) != 1)
			return 1;
	}
	close(to_child[1]);
	waitpid(child, NULL, 0);
	return 0;
}

static void write_report(void)
{
	struct rusage ru;
	FILE *f;

	if (!cfg.report)
		return;
	getrusage(RUSAGE_SELF, &ru);
	f = fopen(cfg.report, "w");
	if (!f) {
		perror(cfg.report);
		exit(1);
	}
	fprintf(f, "minflt %ld\nmajflt %ld\nnvcsw %ld\nnivcsw %ld\n", ru.ru_minflt, ru.ru_majflt,
		ru.ru_nvcsw, ru.ru_nivcsw);
	/* This thread's own schedstat: on-CPU ns, run delay ns, timeslices. */
	{
		unsigned long long oncpu = 0, delay = 0, slices = 0;
		FILE *ss = fopen("/proc/thread-self/schedstat", "r");

		if (ss && fscanf(ss, "%llu %llu %llu", &oncpu, &delay, &slices) == 3)
			fprintf(f, "oncpu_ns %llu\nrun_delay_ns %llu\n", oncpu, delay);
		if (ss)
			fclose(ss);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pin", required_argument, NULL, 'c' },
		{ "busy-ms", required_argument, NULL, 'b' },
		{ "slice-ms", required_argument, NULL, 's' },
		{ "sleep-ms", required_argument, NULL, 'z' },
		{ "pages", required_argument, NULL, 'g' },
		{ "threads", required_argument, NULL, 'T' },
		{ "wait", required_argument, NULL, 'w' },
		{ "report", required_argument, NULL, 'r' },
		{ "name", required_argument, NULL, 'n' },
		{ "stop", no_argument, NULL, 'S' },
		{ "forever", no_argument, NULL, 'F' },
		{ "pingpong", required_argument, NULL, 'P' },
		{},
	};
	pthread_t *tids;
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c': cfg.pin = atoi(optarg); break;
		case 'b': cfg.busy_ms = atof(optarg); break;
		case 's': cfg.slice_ms = atof(optarg); break;
		case 'z': cfg.sleep_ms = atof(optarg); break;
		case 'g': cfg.pages = atol(optarg); break;
		case 'T': cfg.threads = atoi(optarg); break;
		case 'w': cfg.wait_fifo = optarg; break;
		case 'r': cfg.report = optarg; break;
		case 'n': cfg.name = optarg; break;
		case 'S': cfg.stop = true; break;
		case 'F': cfg.forever = true; break;
		case 'P': cfg.pingpong = atol(optarg); break;
		default:
			fprintf(stderr, "usage: workload [--pin CPU] [--busy-ms MS] [--slice-ms MS "
					"--sleep-ms MS] [--pages N] [--threads N] [--wait FIFO] "
					"[--report FILE] [--name COMM] [--stop] [--forever]\n");
			return 2;
		}
	}
	if (cfg.name)
		prctl(PR_SET_NAME, cfg.name);
	pin(); /* before waiting: not a moment on another CPU after the go */
	if (cfg.wait_fifo) {
		/* Blocks until the test opens the FIFO for writing: the go signal. */
		char go;
		int fd = open(cfg.wait_fifo, O_RDONLY);

		if (fd < 0 || read(fd, &go, 1) < 0) {
			perror(cfg.wait_fifo);
			return 1;
		}
		close(fd);
	}
	if (cfg.pingpong)
		return pingpong(cfg.pingpong);
	tids = calloc((size_t)cfg.threads, sizeof(*tids));
	pthread_barrier_init(&work_done, NULL, (unsigned int)cfg.threads);
	pthread_barrier_init(&stop_seen, NULL, (unsigned int)cfg.threads);
	for (int i = 1; i < cfg.threads; i++)
		pthread_create(&tids[i], NULL, run, (void *)1);
	run(NULL);
	if (cfg.stop)
		pthread_barrier_wait(&work_done);
	write_report();
	/* All threads alive and idle: the test reads /proc while we are stopped. */
	if (cfg.stop)
		raise(SIGSTOP);
	if (cfg.stop)
		pthread_barrier_wait(&stop_seen);
	for (int i = 1; i < cfg.threads; i++)
		pthread_join(tids[i], NULL);
	/*
	 * Single-threaded with a report: exit right away, so that as little as
	 * possible (a preemption) can happen between the report and the exit.
	 */
	if (cfg.report && cfg.threads == 1 && !cfg.stop)
		_exit(0);
	return 0;
}
