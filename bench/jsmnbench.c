/*
 * jsmnbench.c - the jsmn tokenizer alone over the same bytes jenc reads:
 * the ceiling for a re-encoder that must at least find every token.
 *
 *	jsmnbench [-n RUNS] [-c CPU] [-l LABEL] [-S SUMMARY] FILE
 *
 * FILE is read into memory once; a first jsmn_parse() with no token array
 * counts the tokens, the array is sized to that count, and then each run
 * times one jsmn_parse() of the whole buffer (the system jsmn.h, built
 * with JSMN_STRICT and JSMN_PARENT_LINKS as the Makefile's CPPFLAGS set
 * them).  Nothing is written.  Output matches cmdbench: a Go benchmark
 * line per run, and with -S a tab-separated summary line
 * LABEL BYTES RUNS MEDIAN_NS MIN_NS MAX_NS 0 MEDIAN_NS (no RSS: the file is
 * held in memory on purpose; CPU time is the wall time of one thread).
 *
 * -c runs it on that CPU only, like cmdbench -c, so that the ceiling is
 * measured on the core the commands ran on.
 *
 * jsmn keeps offsets in int: files must be under 2 GiB.  sched_setaffinity
 * is a Linux call, hence _GNU_SOURCE.
 */
#define _GNU_SOURCE
#include <sched.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jsmn.h>

static void
die(const char *what, const char *why)
{
	fprintf(stderr, "jsmnbench: %s: %s\n", what, why);
	exit(1);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p;
	long n = 0;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0)
		die(path, strerror(errno));
	if ((uint64_t)n >= (1u << 31))
		die(path, "too large for jsmn's int offsets");
	if ((p = malloc((size_t)n + 1)) == NULL)
		die(path, "out of memory");
	if (fread(p, 1, (size_t)n, f) != (size_t)n)
		die(path, "short read");
	fclose(f);
	*len = (size_t)n;
	return p;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	const char *label = "Jsmn", *summary = NULL;
	jsmntok_t *tok;
	jsmn_parser p;
	uint64_t *ns, t0, median;
	size_t len;
	char *buf;
	long runs = 5, i;
	int ch, ntok, r, pin = -1;

	while ((ch = getopt(argc, argv, "n:c:l:S:")) != -1) {
		switch (ch) {
		case 'n':
			runs = strtol(optarg, NULL, 10);
			break;
		case 'c':
			pin = (int)strtol(optarg, NULL, 10);
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
	if (optind + 1 != argc || runs < 1) {
		fprintf(stderr, "usage: jsmnbench [-n runs] [-c cpu] [-l label]"
		    " [-S summary] file\n");
		return 2;
	}
	if (pin >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(pin, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0)
			die("sched_setaffinity", strerror(errno));
	}
	buf = slurp(argv[optind], &len);
	jsmn_init(&p);
	ntok = jsmn_parse(&p, buf, len, NULL, 0);
	if (ntok < 0)
		die(argv[optind], "jsmn rejects it");
	if ((tok = malloc((size_t)ntok * sizeof(*tok))) == NULL ||
	    (ns = calloc((size_t)runs, sizeof(*ns))) == NULL)
		die(argv[optind], "out of memory");
	for (i = -1; i < runs; i++) {	/* run -1 warms up */
		jsmn_init(&p);
		t0 = now_ns();
		r = jsmn_parse(&p, buf, len, tok, (unsigned)ntok);
		if (i >= 0)
			ns[i] = now_ns() - t0;
		if (r != ntok)
			die(argv[optind], "token count differs between runs");
		if (i >= 0)
			printf("Benchmark%s 1 %llu ns/op %.2f MB/s\n", label,
			    (unsigned long long)ns[i],
			    (double)len * 1e3 / (double)ns[i]);
	}
	qsort(ns, (size_t)runs, sizeof(*ns), cmp_u64);
	median = runs % 2 ? ns[runs / 2] : (ns[runs / 2 - 1] + ns[runs / 2]) / 2;
	if (summary != NULL) {
		FILE *f = fopen(summary, "a");

		if (f == NULL)
			die(summary, strerror(errno));
		fprintf(f, "%s\t%zu\t%ld\t%llu\t%llu\t%llu\t0\t%llu\n", label,
		    len, runs, (unsigned long long)median,
		    (unsigned long long)ns[0], (unsigned long long)ns[runs - 1],
		    (unsigned long long)median);
		fclose(f);
	}
	fprintf(stderr, "jsmnbench: %s: %d tokens\n", argv[optind], ntok);
	return 0;
}
