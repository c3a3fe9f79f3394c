/*
 * output.c - output files for jenc(1): -o replaced atomically, -w in place,
 * --check comparing; see output.h.
 *
 * The comparison for -w and --check costs no temporary file: the encoder's
 * sink compares each output byte with the input at the same offset, read
 * back with pread(2) (which leaves the reader's offset alone), 64 KiB at a
 * time.  Only at the first difference does -w create its temporary file,
 * copy the matching prefix into it and go on writing the output there, so
 * a file already in the requested form is never written, nor is its
 * directory, and memory stays bounded whatever the size of the file.
 */
/* realpath(3) is XSI. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

#define EXIT_DIFFERS 1
#define EXIT_IO 3

/* What failed, for the message. */
enum { WHY_NONE, WHY_TMP, WHY_IO, WHY_LINKS, WHY_SPOOL };

struct output {
	enum output_mode mode;
	mode_t umask;		/* of the process, for a new -o FILE */
	const char *name;	/* the file's name for messages */
	char *target;		/* the path renamed over (a link resolved) */
	int have_st;		/* target existed: st holds it */
	struct stat st;
	int direct;		/* -o to a non-regular file: no temporary */
	int tmp_fd;		/* temporary (or direct) file, -1 if none */
	/* -w and --check: the input compared with. */
	int in_fd;
	off_t base;		/* input offset of output byte 0 */
	off_t off;		/* output bytes that matched so far */
	int differs;		/* an output byte differed from the input */
	/* The first failure, reported by output_end(). */
	int err;		/* errno */
	int why;		/* WHY_* */
	int failed;		/* -o: a write failed, the run stops */
	/* Directories already swept of leftovers. */
	struct { dev_t dev; ino_t ino; } *swept;
	size_t nswept, capswept;
	char buf[65536];
};

/*
 * The temporary file, for the signal handler and atexit: at most one
 * exists at a time.  tmp_armed is set only while tmp_path names a file
 * this process created and has not yet renamed or removed; both changes
 * happen with the signals blocked.
 */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_armed;
static const int tmp_signals[] = { SIGHUP, SIGINT, SIGTERM };

static void
output_on_signal(int sig)
{
	if (tmp_armed)
		(void)unlink(tmp_path);
	(void)signal(sig, SIG_DFL);
	(void)raise(sig);
}

void
output_abandon(void)
{
	if (tmp_armed)
		(void)unlink(tmp_path);
}

static void
output_at_exit(void)
{
	if (tmp_armed) {
		(void)unlink(tmp_path);
		tmp_armed = 0;
	}
}

static void
output_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		sigaddset(&set, tmp_signals[i]);
	(void)sigprocmask(SIG_BLOCK, &set, old);
}

static void
output_unblock(const sigset_t *old)
{
	(void)sigprocmask(SIG_SETMASK, old, NULL);
}

struct output *
output_new(enum output_mode mode)
{
	static int installed;
	struct output *o;
	size_t i;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	o->mode = mode;
	o->tmp_fd = o->in_fd = -1;
	o->umask = umask(0);
	(void)umask(o->umask);
	if (mode != OUTPUT_CHECK && !installed) {
		installed = 1;
		(void)atexit(output_at_exit);
		for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]);
		    i++) {
			struct sigaction sa, old;

			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = output_on_signal;
			sigemptyset(&sa.sa_mask);
			if (sigaction(tmp_signals[i], NULL, &old) == 0 &&
			    old.sa_handler != SIG_IGN)
				(void)sigaction(tmp_signals[i], &sa, NULL);
		}
	}
	return o;
}

void
output_free(struct output *o)
{
	if (o == NULL)
		return;
	free(o->target);
	free(o->swept);
	free(o);
}

/* Length of the directory part of path, its final '/' included. */
static size_t
output_dirlen(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? 0 : (size_t)(slash - path) + 1;
}

/* The directory of path as a string to print or open ("." if none). */
static const char *
output_dir(const char *path, char *buf, size_t size)
{
	size_t n = output_dirlen(path);

	if (n == 0)
		return ".";
	if (n > 1)
		n--;		/* "a/b" -> "a", but "/b" -> "/" */
	if (n >= size)
		n = size - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
	return buf;
}

static void
output_fail(struct output *o, int why, int err)
{
	if (o->why == WHY_NONE) {
		o->why = why;
		o->err = err;
	}
}

static void
output_report(const struct output *o)
{
	char dir[PATH_MAX];

	switch (o->why) {
	case WHY_TMP:
		fprintf(stderr, "jenc: %s: cannot create a temporary file in "
		    "%s: %s\n", o->name, output_dir(o->target, dir,
		    sizeof(dir)), strerror(o->err));
		break;
	case WHY_SPOOL:
		fprintf(stderr, "jenc: %s: cannot copy it to a temporary file: "
		    "%s\n", o->name, strerror(o->err));
		break;
	case WHY_LINKS:
		fprintf(stderr, "jenc: %s: has %ju hard links, left unchanged "
		    "(its other names would keep the old content)\n", o->name,
		    (uintmax_t)o->st.st_nlink);
		break;
	case WHY_IO:
		fprintf(stderr, "jenc: %s: %s\n", o->name, strerror(o->err));
		break;
	}
}

/* ---- leftovers ----------------------------------------------------------- */

/*
 * Is name ".X.jenc-PID-XXXXXX", the name of a temporary file?  Sets *pid.
 */
static int
output_leftover(const char *name, long *pid)
{
	size_t n = strlen(name), i, d;

	if (n < 1 + 1 + 6 + 1 + 1 + 6 || name[0] != '.')
		return 0;
	for (i = n - 6; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= '0' && name[i] <= '9')))
			return 0;
	i = n - 7;
	if (name[i] != '-')
		return 0;
	for (d = i; d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9'; d--)
		;
	if (d == i || i - d > 10 || d < 2 + 6 ||
	    memcmp(name + d - 6, ".jenc-", 6) != 0)
		return 0;
	*pid = 0;
	for (; d < i; d++)
		*pid = *pid * 10 + (name[d] - '0');
	return *pid > 0;
}

/*
 * Remove the temporary files that killed runs left in dir: those whose PID
 * is not a running process.  Each directory once per run.
 */
static void
output_sweep(struct output *o, const char *dir)
{
	struct dirent *de;
	struct stat st;
	size_t i;
	DIR *d;

	if (stat(dir, &st) != 0)
		return;
	for (i = 0; i < o->nswept; i++)
		if (o->swept[i].dev == st.st_dev && o->swept[i].ino == st.st_ino)
			return;
	if (o->nswept == o->capswept) {
		size_t cap = o->capswept ? 2 * o->capswept : 8;
		void *p = realloc(o->swept, cap * sizeof(*o->swept));

		if (p != NULL) {
			o->swept = p;
			o->capswept = cap;
		}
	}
	if (o->nswept < o->capswept) {
		o->swept[o->nswept].dev = st.st_dev;
		o->swept[o->nswept].ino = st.st_ino;
		o->nswept++;
	}
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		long pid;

		if (!output_leftover(de->d_name, &pid) ||
		    pid == (long)getpid() || (pid_t)pid != pid ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && S_ISREG(st.st_mode))
			(void)unlinkat(dirfd(d), de->d_name, 0);
	}
	(void)closedir(d);
}

/* ---- the temporary file ------------------------------------------------ */

/* Create the temporary file beside o->target with the mode (and owner) the
 * result must have.  Returns 0, or -1 with the failure kept. */
static int
output_tmp_create(struct output *o)
{
	const char *base = o->target + output_dirlen(o->target);
	int dirlen = (int)output_dirlen(o->target), fd, n, e;
	mode_t mode = 0666 & ~o->umask;
	sigset_t old;

	n = snprintf(tmp_path, sizeof(tmp_path), "%.*s.%.200s.jenc-%ld-XXXXXX",
	    dirlen, o->target, base, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp_path)) {
		output_fail(o, WHY_TMP, ENAMETOOLONG);
		return -1;
	}
	output_block(&old);
	fd = mkstemp(tmp_path);
	e = errno;
	if (fd >= 0)
		tmp_armed = 1;
	output_unblock(&old);
	if (fd < 0) {
		output_fail(o, WHY_TMP, e);
		return -1;
	}
	o->tmp_fd = fd;
	if (o->have_st) {
		struct stat now;

		/* Owner first: chown clears the set-ID bits.  Where the owner
		 * or group cannot be kept, neither is its set-ID bit. */
		mode = o->st.st_mode & 07777;
		if (fstat(fd, &now) == 0 && (now.st_uid != o->st.st_uid ||
		    now.st_gid != o->st.st_gid) &&
		    fchown(fd, o->st.st_uid, o->st.st_gid) != 0) {
			mode &= (mode_t)~S_ISUID;
			if (now.st_gid != o->st.st_gid &&
			    fchown(fd, (uid_t)-1, o->st.st_gid) != 0)
				mode &= (mode_t)~S_ISGID;
		}
	}
	if (fchmod(fd, mode) != 0) {
		output_fail(o, WHY_IO, errno);
		return -1;
	}
	return 0;
}

/* Remove the temporary file, if there is one. */
static void
output_tmp_remove(struct output *o)
{
	sigset_t old;

	if (o->tmp_fd >= 0)
		(void)close(o->tmp_fd);
	o->tmp_fd = -1;
	output_block(&old);
	if (tmp_armed) {
		(void)unlink(tmp_path);
		tmp_armed = 0;
	}
	output_unblock(&old);
}

/* fsync the temporary file and rename it over o->target, then fsync the
 * directory.  Returns 0, or -1 with the failure kept (the temporary file
 * is then removed and the target untouched). */
static int
output_tmp_commit(struct output *o)
{
	char dir[PATH_MAX];
	sigset_t old;
	int fd, rc, e;

	if (fsync(o->tmp_fd) != 0) {
		output_fail(o, WHY_IO, errno);
		return -1;
	}
	rc = close(o->tmp_fd);
	o->tmp_fd = -1;
	if (rc != 0) {
		output_fail(o, WHY_IO, errno);
		return -1;
	}
	output_block(&old);
	rc = rename(tmp_path, o->target);
	e = errno;
	if (rc == 0)
		tmp_armed = 0;
	output_unblock(&old);
	if (rc != 0) {
		output_fail(o, WHY_IO, e);
		return -1;
	}
	/* The rename itself is made durable by the directory's fsync; a file
	 * system that cannot fsync a directory says EINVAL. */
	fd = open(output_dir(o->target, dir, sizeof(dir)), O_RDONLY);
	if (fd >= 0) {
		if (fsync(fd) != 0 && errno != EINVAL)
			output_fail(o, WHY_IO, errno);
		(void)close(fd);
	}
	return o->why == WHY_NONE ? 0 : -1;
}

/* ---- the sink ---------------------------------------------------------- */

static void
output_put(struct output *o, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t w = write(o->tmp_fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				struct pollfd pfd = { .fd = o->tmp_fd,
				    .events = POLLOUT };

				(void)poll(&pfd, 1, -1);
				continue;
			}
			output_fail(o, WHY_IO, errno);
			return;
		}
		p += w;
		len -= (size_t)w;
	}
}

/* Read up to len input bytes at output offset off into o->buf.  Returns
 * the count (0 at the end of the input), or -1 with the failure kept. */
static ssize_t
output_read_back(struct output *o, off_t off, size_t len)
{
	ssize_t r;

	if (len > sizeof(o->buf))
		len = sizeof(o->buf);
	do
		r = pread(o->in_fd, o->buf, len, o->base + off);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		output_fail(o, WHY_IO, errno);
	return r;
}

/* Compare output bytes with the input from o->off on; o->off moves past
 * the matching ones.  Returns how many matched (all of len unless the
 * output differs or a read failed). */
static size_t
output_compare(struct output *o, const char *p, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = output_read_back(o, o->off, len - done);
		size_t k = 0;

		if (r <= 0) {
			o->differs = r == 0;
			return done;
		}
		while (k < (size_t)r && o->buf[k] == p[done + k])
			k++;
		o->off += (off_t)k;
		done += k;
		if (k < (size_t)r) {
			o->differs = 1;
			return done;
		}
	}
	return done;
}

/* -w: the output differs from the input after o->off bytes.  Start the
 * temporary file with those bytes, read back from the input. */
static void
output_diverge(struct output *o)
{
	off_t at = 0;

	if (o->st.st_nlink > 1) {
		output_fail(o, WHY_LINKS, 0);
		return;
	}
	if (output_tmp_create(o) != 0)
		return;
	while (at < o->off && o->why == WHY_NONE) {
		ssize_t r = output_read_back(o, at, (size_t)(o->off - at));

		if (r == 0)	/* the input shrank under us */
			output_fail(o, WHY_IO, EIO);
		if (r <= 0)
			return;
		output_put(o, o->buf, (size_t)r);
		at += r;
	}
}

/* Does the input go on past the output that matched it? */
static void
output_check_end(struct output *o)
{
	char c;
	ssize_t r;

	do
		r = pread(o->in_fd, &c, 1, o->base + o->off);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		output_fail(o, WHY_IO, errno);
	o->differs = r > 0;
}

/* Never fails the encoder: a failure is kept, reported by output_end(),
 * and the rest of the input still read so that its errors are told. */
static int
output_sink(void *ctx, const char *p, size_t len)
{
	struct output *o = ctx;
	size_t same;

	if (o->why != WHY_NONE)
		return 0;
	switch (o->mode) {
	case OUTPUT_FILE:
		output_put(o, p, len);
		break;
	case OUTPUT_CHECK:
		if (!o->differs)
			(void)output_compare(o, p, len);
		break;
	case OUTPUT_WRITE:
		if (o->differs) {
			output_put(o, p, len);
			break;
		}
		same = output_compare(o, p, len);
		if (o->differs) {
			output_diverge(o);
			if (o->why == WHY_NONE)
				output_put(o, p + same, len - same);
		}
		break;
	}
	return 0;
}

jenc_enc *
output_encoder(struct output *o, const jenc_opts *opts)
{
	if (o == NULL)
		return jenc_get_fd(STDOUT_FILENO, opts);
	return jenc_get_sink(output_sink, o, opts);
}

/* ---- -o FILE ------------------------------------------------------------- */

int
output_open(struct output *o, const char *path)
{
	char dir[PATH_MAX];
	struct stat st;

	o->name = path;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "jenc: %s: %s\n", path,
			    strerror(EISDIR));
			return EXIT_IO;
		}
		if (!S_ISREG(st.st_mode)) {
			o->direct = 1;
			if ((o->tmp_fd = open(path, O_WRONLY | O_TRUNC)) < 0) {
				fprintf(stderr, "jenc: %s: %s\n", path,
				    strerror(errno));
				return EXIT_IO;
			}
			return 0;
		}
		o->st = st;
		o->have_st = 1;
		if (st.st_nlink > 1) {
			output_fail(o, WHY_LINKS, 0);
			output_report(o);
			return EXIT_IO;
		}
	} else if (errno != ENOENT || lstat(path, &st) == 0) {
		/* ENOENT from a symbolic link that points nowhere: say so
		 * rather than replace the link. */
		fprintf(stderr, "jenc: %s: %s\n", path, strerror(errno ==
		    ENOENT ? ENOENT : errno));
		return EXIT_IO;
	}
	if (o->have_st && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		o->target = realpath(path, NULL);
	else
		o->target = strdup(path);
	if (o->target == NULL) {
		fprintf(stderr, "jenc: %s: %s\n", path, strerror(errno));
		return EXIT_IO;
	}
	output_sweep(o, output_dir(o->target, dir, sizeof(dir)));
	if (output_tmp_create(o) != 0) {
		output_report(o);
		output_tmp_remove(o);
		return EXIT_IO;
	}
	return 0;
}

int
output_failed(const struct output *o)
{
	return o != NULL && o->failed;
}

int
output_close(struct output *o, int status)
{
	if (o == NULL || o->mode != OUTPUT_FILE || o->failed)
		return status;
	if (o->direct) {
		if (o->tmp_fd >= 0 && close(o->tmp_fd) != 0 && status == 0) {
			output_fail(o, WHY_IO, errno);
			output_report(o);
			status = EXIT_IO;
		}
		o->tmp_fd = -1;
		return status;
	}
	if (status == 0 && output_tmp_commit(o) != 0) {
		output_report(o);
		status = EXIT_IO;
	}
	output_tmp_remove(o);
	return status;
}

/* ---- -w and --check ------------------------------------------------------ */

/* Copy the input to an unlinked temporary file, to compare against.
 * Returns its descriptor, or -1 with the failure kept. */
static int
output_spool(struct output *o, int in)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	sigset_t old;
	int fd, n;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	n = snprintf(path, sizeof(path), "%s/jenc-XXXXXX", dir);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		output_fail(o, WHY_SPOOL, ENAMETOOLONG);
		return -1;
	}
	output_block(&old);
	if ((fd = mkstemp(path)) >= 0)
		(void)unlink(path);
	else
		output_fail(o, WHY_SPOOL, errno);
	output_unblock(&old);
	if (fd < 0)
		return -1;
	o->tmp_fd = fd;
	for (;;) {
		ssize_t r = read(in, o->buf, sizeof(o->buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = in, .events = POLLIN };

			(void)poll(&pfd, 1, -1);
			continue;
		}
		if (r < 0) {
			output_fail(o, WHY_IO, errno);
			break;
		}
		if (r == 0)
			break;
		output_put(o, o->buf, (size_t)r);
		if (o->why != WHY_NONE) {
			o->why = WHY_SPOOL;
			break;
		}
	}
	o->tmp_fd = -1;
	if (o->why == WHY_NONE && lseek(fd, 0, SEEK_SET) != 0)
		output_fail(o, WHY_SPOOL, errno);
	if (o->why != WHY_NONE) {
		(void)close(fd);
		return -1;
	}
	return fd;
}

int
output_begin(struct output *o, int *fd, const char *path, const char *name)
{
	char dir[PATH_MAX];
	struct stat st;

	if (o->mode == OUTPUT_FILE)
		return 0;
	free(o->target);
	o->target = NULL;
	o->name = name;
	o->have_st = o->differs = o->err = 0;
	o->why = WHY_NONE;
	o->tmp_fd = -1;
	o->off = o->base = 0;
	o->in_fd = *fd;
	if (fstat(*fd, &st) != 0) {
		fprintf(stderr, "jenc: %s: %s\n", name, strerror(errno));
		return EXIT_IO;
	}
	if (o->mode == OUTPUT_CHECK) {
		int s;

		if (S_ISREG(st.st_mode)) {
			o->base = lseek(*fd, 0, SEEK_CUR);
			if (o->base < 0)
				o->base = 0;
			return 0;
		}
		if ((s = output_spool(o, *fd)) < 0) {
			output_report(o);
			return EXIT_IO;
		}
		*fd = o->in_fd = s;
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "jenc: %s: %s\n", name, strerror(EISDIR));
		return EXIT_IO;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "jenc: %s: not a regular file, left unchanged\n",
		    name);
		return EXIT_IO;
	}
	o->st = st;
	o->have_st = 1;
	/* A symbolic link stays: the file it points to is replaced. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		o->target = realpath(path, NULL);
	else
		o->target = strdup(path);
	if (o->target == NULL) {
		fprintf(stderr, "jenc: %s: %s\n", name, strerror(errno));
		return EXIT_IO;
	}
	output_sweep(o, output_dir(o->target, dir, sizeof(dir)));
	return 0;
}

int
output_end(struct output *o, int status)
{
	switch (o->mode) {
	case OUTPUT_FILE:
		if (o->why != WHY_NONE && !o->failed) {
			output_report(o);
			o->failed = 1;
			output_tmp_remove(o);
			if (status < EXIT_IO)
				status = EXIT_IO;
		}
		return status;
	case OUTPUT_CHECK:
		if (status == 0 && o->why == WHY_NONE && !o->differs)
			output_check_end(o);
		if (status != 0)
			return status;
		if (o->why != WHY_NONE) {
			output_report(o);
			return EXIT_IO;
		}
		if (o->differs) {
			printf("%s\n", o->name);
			return EXIT_DIFFERS;
		}
		return 0;
	case OUTPUT_WRITE:
		if (status == 0 && o->why == WHY_NONE && !o->differs) {
			/* The input goes on after the output ended: the
			 * output is that prefix. */
			output_check_end(o);
			if (o->differs)
				output_diverge(o);
		}
		if (status == 0 && o->why == WHY_NONE && o->differs)
			(void)output_tmp_commit(o);
		/* An input that could not be read whole is left as it is;
		 * what went wrong in writing its output no longer matters. */
		if (status == 0 && o->why != WHY_NONE) {
			output_report(o);
			if (status < EXIT_IO)
				status = EXIT_IO;
		}
		output_tmp_remove(o);
		return status;
	}
	return status;
}

/* ---- input is output ----------------------------------------------------- */

const char *
output_is_stdout(char *const *paths, int n)
{
	struct stat out, in;
	int i;

	if (fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode))
		return NULL;
	for (i = 0; i < (n > 0 ? n : 1); i++) {
		int r;

		if (n == 0 || strcmp(paths[i], "-") == 0)
			r = fstat(STDIN_FILENO, &in);
		else
			r = stat(paths[i], &in);
		if (r == 0 && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino)
			return n == 0 ? "-" : paths[i];
	}
	return NULL;
}
