/*
 * cmdbench.c - time a command over an input file, with its peak RSS.
 *
 *	cmdbench [-n RUNS] [-w WARMUPS] [-i FILE] [-p] [-o OUT] [-s BYTES]
 *	    [-c CPU] [-l LABEL] [-S SUMMARY] -- COMMAND [ARG]...
 *
 * Runs COMMAND (no shell) WARMUPS times unmeasured, then RUNS times, with
 * stdin from FILE (-p: through a pipe that a feeder process fills from
 * FILE, as `cat FILE | COMMAND` would) and stdout to /dev/null, or to OUT
 * (truncated each run) so that a single slow run can also be checked.  For each
 * measured run it prints a Go benchmark line, which benchstat reads:
 *
 *	BenchmarkLABEL 1 NS ns/op MBPS MB/s CPU cpu-ns/op RSS peak-RSS-bytes
 *
 * NS is the wall time from fork to the command's exit, MB/s is BYTES (the
 * size of FILE unless -s is given) per second of it in 10^6 bytes, CPU is
 * the command's user plus system time (all its threads), RSS is its own
 * peak resident set; both from wait4(2), the feeder is not counted.  On a
 * busy machine CPU time is the steadier figure.  With -S a tab-separated
 * line is appended to SUMMARY:
 * LABEL BYTES RUNS MEDIAN_NS MIN_NS MAX_NS MAX_RSS_KIB MEDIAN_CPU_NS.
 *
 * With -c the command (not the feeder) runs on that CPU only, so that
 * commands compared side by side all run on the same core: on a shared
 * virtual machine one core can be much slower than another for minutes.
 *
 * A run that exits non-zero or dies of a signal stops cmdbench with exit
 * status 1 and no summary: a failed command has no speed.
 *
 * wait4(2) and sched_setaffinity(2) are Linux calls outside POSIX, hence
 * _GNU_SOURCE.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
die(const char *what)
{
	fprintf(stderr, "cmdbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long
parse_num(const char *s, const char *opt)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0) {
		fprintf(stderr, "cmdbench: %s: '%s' is not a number\n", opt, s);
		exit(2);
	}
	return v;
}

/* Copy FILE into the pipe; ends quietly when the reader goes away. */
static void
feed(const char *path, int wfd)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY);
	ssize_t r, w;
	size_t off;

	signal(SIGPIPE, SIG_IGN);
	if (fd < 0)
		_exit(1);
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < (size_t)r; off += (size_t)w) {
			w = write(wfd, buf + off, (size_t)r - off);
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w < 0)
				_exit(0);
		}
	}
	_exit(r < 0 ? 1 : 0);
}

/* One run: returns wall ns, sets *rss_kib and *cpu_ns. */
static uint64_t
run_once(char **argv, const char *input, int pipe_mode, const char *output,
    int pin, long *rss_kib, uint64_t *cpu_ns)
{
	struct rusage ru;
	uint64_t t0, t1;
	pid_t pid, feeder = -1;
	int pfd[2] = { -1, -1 }, status, fst;

	if (pipe_mode && pipe(pfd) != 0)
		die("pipe");
	t0 = now_ns();
	if (pipe_mode) {
		if ((feeder = fork()) < 0)
			die("fork");
		if (feeder == 0) {
			close(pfd[0]);
			feed(input, pfd[1]);
		}
	}
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		int in, out = open(output ? output : "/dev/null",
		    O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (pipe_mode) {
			in = pfd[0];
			close(pfd[1]);
		} else
			in = open(input ? input : "/dev/null", O_RDONLY);
		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0)
			_exit(126);
		if (pin >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(pin, &set);
			if (sched_setaffinity(0, sizeof(set), &set) != 0) {
				fprintf(stderr, "cmdbench: CPU %d: %s\n", pin,
				    strerror(errno));
				_exit(126);
			}
		}
		execvp(argv[0], argv);
		fprintf(stderr, "cmdbench: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pipe_mode) {
		close(pfd[0]);
		close(pfd[1]);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			die("wait4");
	if (feeder > 0)
		while (waitpid(feeder, &fst, 0) < 0)
			if (errno != EINTR)
				die("waitpid");
	t1 = now_ns();
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "cmdbench: %s: killed by signal %d\n",
			    argv[0], WTERMSIG(status));
		else
			fprintf(stderr, "cmdbench: %s: exit status %d\n",
			    argv[0], WEXITSTATUS(status));
		exit(1);
	}
	*rss_kib = ru.ru_maxrss;
	*cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
	    1000000000u + (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) *
	    1000u;
	return t1 - t0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Sorts v. */
static uint64_t
median_of(uint64_t *v, long n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main(int argc, char **argv)
{
	const char *input = NULL, *output = NULL, *label = "Cmd", *summary = NULL;
	long runs = 5, warmups = 1, size = -1, rss, max_rss = 0;
	uint64_t *ns, *cpu, median, cpu_median;
	int ch, pipe_mode = 0, pin = -1;
	long i;

	while ((ch = getopt(argc, argv, "n:w:i:po:s:c:l:S:")) != -1) {
		switch (ch) {
		case 'n':
			runs = parse_num(optarg, "-n");
			break;
		case 'w':
			warmups = parse_num(optarg, "-w");
			break;
		case 'i':
			input = optarg;
			break;
		case 'p':
			pipe_mode = 1;
			break;
		case 'o':
			output = optarg;
			break;
		case 's':
			size = parse_num(optarg, "-s");
			break;
		case 'c':
			pin = (int)parse_num(optarg, "-c");
			break;
		case 'l':
			label = optarg;
			break;
		case 'S':
			summary = optarg;
			break;
		default:
			return 2;
		}
	}
	argv += optind;
	if (*argv == NULL || runs < 1 || (pipe_mode && input == NULL)) {
		fprintf(stderr, "usage: cmdbench [-n runs] [-w warmups] [-i file]"
		    " [-p] [-o out] [-s bytes] [-c cpu] [-l label] [-S summary]"
		    " -- command...\n");
		return 2;
	}
	if (size < 0) {
		struct stat st;

		if (input == NULL || stat(input, &st) != 0)
			die(input ? input : "-s or -i needed");
		size = (long)st.st_size;
	}
	if ((ns = calloc((size_t)runs, sizeof(*ns))) == NULL ||
	    (cpu = calloc((size_t)runs, sizeof(*cpu))) == NULL)
		die("calloc");
	for (i = 0; i < warmups; i++)
		run_once(argv, input, pipe_mode, output, pin, &rss, &cpu[0]);
	for (i = 0; i < runs; i++) {
		ns[i] = run_once(argv, input, pipe_mode, output, pin, &rss, &cpu[i]);
		if (rss > max_rss)
			max_rss = rss;
		printf("Benchmark%s 1 %llu ns/op %.2f MB/s %llu cpu-ns/op "
		    "%ld peak-RSS-bytes\n", label, (unsigned long long)ns[i],
		    (double)size * 1e3 / (double)ns[i],
		    (unsigned long long)cpu[i], rss * 1024);
		fflush(stdout);
	}
	cpu_median = median_of(cpu, runs);
	median = median_of(ns, runs);
	if (summary != NULL) {
		FILE *f = fopen(summary, "a");

		if (f == NULL)
			die(summary);
		fprintf(f, "%s\t%ld\t%ld\t%llu\t%llu\t%llu\t%ld\t%llu\n", label,
		    size, runs, (unsigned long long)median,
		    (unsigned long long)ns[0], (unsigned long long)ns[runs - 1],
		    max_rss, (unsigned long long)cpu_median);
		if (fclose(f) != 0)
			die(summary);
	}
	free(ns);
	free(cpu);
	return 0;
}
