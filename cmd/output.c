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
/* realpath(3) is XSI; O_TMPFILE and AT_EMPTY_PATH are Linux's, which
 * glibc declares with _GNU_SOURCE. */
#define _XOPEN_SOURCE 700
#ifdef __linux__
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "keep.h"
#include "output.h"
#include "quote.h"

/* What failed, for the message. */
enum { WHY_NONE, WHY_TMP, WHY_IO, WHY_LINKS, WHY_SPOOL, WHY_KEEP };

struct output {
	enum output_mode mode;
	unsigned flags;		/* OUTPUT_BEST_EFFORT, OUTPUT_NUL */
	mode_t umask;		/* of the process, for a new -o FILE */
	const char *name;	/* the file's name for messages (quoted) */
	const char *path;	/* --check: the name as given, for -z */
	char *qname;		/* -o: the quoted name name points to */
	char *target;		/* the path renamed over (a link resolved) */
	int have_st;		/* target existed: st holds it */
	struct stat st;
	int direct;		/* -o to a non-regular file: no temporary */
	int tmp_fd;		/* temporary (or direct) file, -1 if none */
	int named;		/* tmp_fd has the name tmp_path (mkstemp) */
	struct keep_report keep;	/* what the new file lost */
	/* -w and --check: the input compared with. */
	int in_fd;
	off_t base;		/* input offset of output byte 0 */
	off_t off;		/* output bytes that matched so far */
	int differs;		/* an output byte differed from the input */
	/* The first failure, reported by output_end(). */
	int err;		/* errno */
	int why;		/* WHY_* */
	int failed;		/* a write failed, the run stops */
	char buf[65536];
};

/*
 * The temporary file while it has a name, for the signal handler and
 * atexit: at most one exists at a time.  tmp_armed is set only while
 * tmp_path names a file this process created (tmp_dev, tmp_ino) and has
 * not yet renamed or removed; both changes happen with the signals
 * blocked.  An unnamed file (O_TMPFILE) needs nothing: it goes with the
 * process.
 */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_armed;
static dev_t tmp_dev;
static ino_t tmp_ino;
static const int tmp_signals[] = { SIGHUP, SIGINT, SIGTERM };

/* Remove the named temporary file, if it is still the one this process
 * made: never another file that took its name. */
void
output_abandon(void)
{
	struct stat st;

	if (tmp_armed && lstat(tmp_path, &st) == 0 && st.st_dev == tmp_dev &&
	    st.st_ino == tmp_ino)
		(void)unlink(tmp_path);
}

static void
output_on_signal(int sig)
{
	output_abandon();
	(void)signal(sig, SIG_DFL);
	(void)raise(sig);
}

/* Block the signals output_new catches; old gets the mask to restore. */
static void
output_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_LEN(tmp_signals); i++)
		sigaddset(&set, tmp_signals[i]);
	(void)sigprocmask(SIG_BLOCK, &set, old);
}

struct output *
output_new(enum output_mode mode, unsigned flags)
{
	static int installed;
	struct output *o;
	size_t i;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	o->mode = mode;
	o->flags = flags;
	o->tmp_fd = o->in_fd = -1;
	o->umask = umask(0);
	(void)umask(o->umask);
	if (mode != OUTPUT_CHECK && !installed) {
		installed = 1;
		(void)atexit(output_abandon);
		for (i = 0; i < ARRAY_LEN(tmp_signals); i++) {
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
	free(o->qname);
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

/* Tell the failure kept.  Returns EXIT_IO. */
static int
output_report(const struct output *o)
{
	char dir[PATH_MAX], q[QUOTE_SIZE];

	switch (o->why) {
	case WHY_TMP:
		fprintf(stderr, "jenc: %s: cannot create a temporary file in "
		    "%s: %s\n", o->name, quote_name(output_dir(o->target, dir,
		    sizeof(dir)), q, sizeof(q)), strerror(o->err));
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
	case WHY_KEEP:
		fprintf(stderr, "jenc: %s: cannot keep %s: %s, left unchanged "
		    "(see --best-effort)\n", o->name, o->keep.loss[0].what,
		    strerror(o->err));
		break;
	case WHY_IO:
		return cli_sys_error(o->name, o->err);
	}
	return EXIT_IO;
}

/* --best-effort: after the file was replaced, say what it did not keep. */
static void
output_tell_losses(const struct output *o)
{
	size_t i;

	for (i = 0; i < o->keep.n; i++)
		fprintf(stderr, "jenc: warning: %s: %s not kept: %s\n", o->name,
		    o->keep.loss[i].what, strerror(o->keep.loss[i].err));
	if (o->keep.more > 0)
		fprintf(stderr, "jenc: warning: %s: %zu more extended "
		    "attributes not kept\n", o->name, o->keep.more);
}

/* ---- the temporary file (output.h says its life) ----------------------- */

#ifdef O_TMPFILE
/* Six characters for the end of a new name. */
static void
output_rand6(char *x)
{
	static const char al[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static uint64_t s;
	struct timespec ts;
	int i;

	(void)clock_gettime(CLOCK_REALTIME, &ts);
	s ^= (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^
	    (uint64_t)getpid() << 12;
	for (i = 0; i < 6; i++) {
		s = s * 6364136223846793005u + 1442695040888963407u;
		x[i] = al[(s >> 33) % (sizeof(al) - 1)];
	}
}
#endif

/* The temporary name beside o->target into tmp_path, ending in XXXXXX
 * (or six characters of x if not NULL).  Returns 0, or -1 (too long). */
static int
output_tmp_name(const struct output *o, const char *x)
{
	const char *base = o->target + output_dirlen(o->target);
	int dirlen = (int)output_dirlen(o->target), n;

	n = snprintf(tmp_path, sizeof(tmp_path), "%.*s.%.200s.jenc-%ld-%.6s",
	    dirlen, o->target, base, (long)getpid(), x ? x : "XXXXXX");
	return n < 0 || (size_t)n >= sizeof(tmp_path) ? -1 : 0;
}

/* tmp_path names fd, a file this process made: armed for removal. */
static void
output_arm(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0) {
		tmp_dev = st.st_dev;
		tmp_ino = st.st_ino;
		tmp_armed = 1;
	}
}

#ifdef O_TMPFILE
/* Can an unnamed file be given a name?  Through /proc/self/fd, or with
 * AT_EMPTY_PATH, which needs privilege. */
static int
output_can_link(void)
{
	static int can = -1;
	struct stat st;

	if (can < 0)
		can = stat("/proc/self/fd", &st) == 0 || geteuid() == 0;
	return can;
}

/* Give the unnamed file o->tmp_fd the name tmp_path; signals blocked.
 * Returns 0, or -1 with errno. */
static int
output_tmp_link(struct output *o)
{
	char proc[64], x[6];
	struct stat st;
	int tries, rc;

	for (tries = 0; tries < 100; tries++) {
		output_rand6(x);
		if (output_tmp_name(o, x) != 0) {
			errno = ENAMETOOLONG;
			return -1;
		}
		(void)snprintf(proc, sizeof(proc), "/proc/self/fd/%d",
		    o->tmp_fd);
		rc = linkat(AT_FDCWD, proc, AT_FDCWD, tmp_path,
		    AT_SYMLINK_FOLLOW);
		if (rc != 0 && errno == ENOENT && stat("/proc/self/fd", &st) != 0)
			rc = linkat(o->tmp_fd, "", AT_FDCWD, tmp_path,
			    AT_EMPTY_PATH);
		if (rc == 0) {
			output_arm(o->tmp_fd);
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}
#endif

/*
 * A new file in dir: unnamed (O_TMPFILE, with flags and mode) where it can
 * be, else made by mkstemp(3) from the template path (NULL: the name was
 * too long) with the signals blocked.  named NULL: --check's copy of an
 * input, whose name, if it has one, is removed at once.  Else the
 * temporary file, which must be able to get a name (output_can_link) and
 * whose name is armed for removal (path is tmp_path); *named says whether
 * it has one.  Returns the descriptor, or -1 with errno.
 */
static int
output_new_file(const char *dir, int flags, mode_t mode, char *path,
    int *named)
{
	sigset_t old;
	int fd, e;

#ifdef O_TMPFILE
	/* Refused by the file system (EOPNOTSUPP), or by a kernel that
	 * predates it (EISDIR, EINVAL): a named one instead. */
	fd = open(dir, O_TMPFILE | O_CLOEXEC | flags, mode);
	if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR &&
	    errno != EINVAL)
		return -1;
	if (fd >= 0 && named != NULL && !output_can_link()) {
		(void)close(fd);
		fd = -1;
	}
	if (fd >= 0)
		return fd;
#else
	(void)dir;
	(void)flags;
	(void)mode;
#endif
	if (path == NULL) {
		errno = ENAMETOOLONG;
		return -1;
	}
	output_block(&old);
	fd = mkstemp(path);
	e = errno;
	if (fd >= 0 && named != NULL)
		output_arm(fd);
	else if (fd >= 0)
		(void)unlink(path);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (named != NULL)
		*named = fd >= 0;
	errno = e;
	return fd;
}

/* Create the temporary file beside o->target with what the result must
 * have: the mode of a new file, or what the file it replaces has (see
 * keep.h).  Returns 0, or -1 with the failure kept. */
static int
output_tmp_create(struct output *o)
{
	char dir[PATH_MAX];
	int fd;

	o->named = 0;
	o->keep.n = o->keep.more = 0;
	fd = output_new_file(output_dir(o->target, dir, sizeof(dir)),
	    O_WRONLY, o->have_st ? 0600 : 0666,
	    output_tmp_name(o, NULL) == 0 ? tmp_path : NULL, &o->named);
	if (fd < 0) {
		output_fail(o, WHY_TMP, errno);
		return -1;
	}
	o->tmp_fd = fd;
	if (o->have_st) {
		if (keep_copy(fd, o->in_fd, o->target, &o->st,
		    (o->flags & OUTPUT_BEST_EFFORT) != 0, &o->keep) != 0 &&
		    !(o->flags & OUTPUT_BEST_EFFORT)) {
			output_fail(o, WHY_KEEP, o->keep.loss[0].err);
			return -1;
		}
	} else if (o->named && fchmod(fd, 0666 & ~o->umask) != 0) {
		/* a new file: the mode open(2) would have given it */
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
	output_abandon();
	tmp_armed = 0;
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
}

/* fsync the temporary file and rename it over o->target, then fsync the
 * directory.  Returns 0, or -1 with the failure kept (the temporary file
 * is then removed and the target untouched). */
static int
output_tmp_commit(struct output *o)
{
	char dir[PATH_MAX];
	sigset_t old;
	int fd, rc = 0, e = 0;

	if (fsync(o->tmp_fd) != 0) {
		output_fail(o, WHY_IO, errno);
		return -1;
	}
	/* From the name given to the rename, no signal comes between. */
	output_block(&old);
#ifdef O_TMPFILE
	if (!o->named && (rc = output_tmp_link(o)) != 0)
		e = errno;
#endif
	if (close(o->tmp_fd) != 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	o->tmp_fd = -1;
	if (rc == 0 && (rc = rename(tmp_path, o->target)) != 0)
		e = errno;
	if (rc != 0)
		output_abandon();
	tmp_armed = 0;
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
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
	if (o->why != WHY_NONE)
		return -1;
	output_tell_losses(o);
	return 0;
}

/* ---- the sink ---------------------------------------------------------- */

static void
output_put(struct output *o, const char *p, size_t len)
{
	int err;

	if (jenc_fd_write(o->tmp_fd, p, len, &err) != 0)
		output_fail(o, WHY_IO, err);
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

	while (done < len && !o->differs) {
		ssize_t r = output_read_back(o, o->off, len - done);
		size_t k = 0;

		if (r <= 0) {
			o->differs = r == 0;
			break;
		}
		while (k < (size_t)r && o->buf[k] == p[done + k])
			k++;
		o->off += (off_t)k;
		done += k;
		o->differs = k < (size_t)r;
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
	o->differs = output_read_back(o, o->off, 1) > 0;
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
	/* -o, or -w past the first difference: written */
	if (o->mode == OUTPUT_FILE || (o->mode == OUTPUT_WRITE && o->differs))
		output_put(o, p, len);
	else if (!o->differs) {
		same = output_compare(o, p, len);
		if (o->differs && o->mode == OUTPUT_WRITE) {
			output_diverge(o);
			if (o->why == WHY_NONE)
				output_put(o, p + same, len - same);
		}
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
output_fd_path(const char *path)
{
	static const char *const std[] = { "/dev/stdin", "/dev/stdout",
	    "/dev/stderr" };
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	size_t i, n;
	unsigned long fd;

	for (i = 0; i < 3; i++)
		if (strcmp(path, std[i]) == 0)
			return (int)i;
	for (i = 0; i < 2; i++) {
		n = strlen(dirs[i]);
		if (strncmp(path, dirs[i], n) == 0 &&
		    opts_digits_ok(path + n, &fd) && fd <= INT_MAX)
			return (int)fd;
	}
	return -1;
}

/* o->target, the path renamed over: path, or the file it points to if it
 * is a symbolic link (the link stays).  Returns 0, or EXIT_IO (said why). */
static int
output_target(struct output *o, const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		o->target = realpath(path, NULL);
	else
		o->target = strdup(path);
	return o->target != NULL ? 0 : cli_sys_error(o->name, errno);
}

int
output_open(struct output *o, const char *path)
{
	struct stat st;
	int fd;

	if ((o->qname = quote_dup(path)) == NULL)
		cli_out_of_memory();
	o->name = o->qname;
	/* The descriptor itself, not the file it is open on, which may be
	 * appended to, or have no name left. */
	if ((fd = output_fd_path(path)) >= 0) {
		o->direct = 1;
		if ((o->tmp_fd = dup(fd)) < 0)
			return cli_sys_error(o->name, errno);
		return 0;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return cli_sys_error(o->name, EISDIR);
		if (!S_ISREG(st.st_mode)) {
			o->direct = 1;
			if ((o->tmp_fd = open(path, O_WRONLY | O_TRUNC)) < 0)
				return cli_sys_error(o->name, errno);
			return 0;
		}
		o->st = st;
		o->have_st = 1;
		if (st.st_nlink > 1) {
			output_fail(o, WHY_LINKS, 0);
			return output_report(o);
		}
	} else if (errno != ENOENT || lstat(path, &st) == 0) {
		/* ENOENT from a symbolic link that points nowhere: say so
		 * rather than replace the link. */
		return cli_sys_error(o->name, errno);
	}
	if (output_target(o, path) != 0)
		return EXIT_IO;
	if (output_tmp_create(o) != 0) {
		output_tmp_remove(o);
		return output_report(o);
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
			status = output_report(o);
		}
		o->tmp_fd = -1;
		return status;
	}
	if (status == 0 && output_tmp_commit(o) != 0)
		status = output_report(o);
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
	int fd, n, err;
	ssize_t r;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	n = snprintf(path, sizeof(path), "%s/jenc-XXXXXX", dir);
	fd = output_new_file(dir, O_RDWR, 0600, n < 0 ||
	    (size_t)n >= sizeof(path) ? NULL : path, NULL);
	if (fd < 0) {
		output_fail(o, WHY_SPOOL, errno);
		return -1;
	}
	o->tmp_fd = fd;
	while ((r = jenc_fd_read(in, o->buf, sizeof(o->buf), &err)) > 0) {
		output_put(o, o->buf, (size_t)r);
		if (o->why != WHY_NONE) {
			o->why = WHY_SPOOL;	/* the copy failed */
			break;
		}
	}
	if (r < 0)
		output_fail(o, WHY_IO, err);
	o->tmp_fd = -1;
	if (o->why == WHY_NONE && lseek(fd, 0, SEEK_SET) != 0)
		output_fail(o, WHY_SPOOL, errno);
	if (o->why != WHY_NONE) {
		(void)close(fd);
		return -1;
	}
	return fd;
}

/* -w: say why the file st describes cannot be rewritten, if it cannot.
 * Returns 0, or EXIT_IO (said why). */
static int
output_refuse(const struct stat *st, const char *name)
{
	if (S_ISDIR(st->st_mode))
		return cli_sys_error(name, EISDIR);
	if (!S_ISREG(st->st_mode)) {
		fprintf(stderr, "jenc: %s: not a regular file, left unchanged\n",
		    name);
		return EXIT_IO;
	}
	return 0;
}

int
output_input(const struct output *o, const char *path, const char *name)
{
	struct stat st;
	int fd, fl, w = o != NULL && o->mode == OUTPUT_WRITE;

	/* -w: a FIFO, a device or a socket is refused, and opening one
	 * must not wait (for a writer, a carrier) first. */
	if (w && stat(path, &st) == 0 && output_refuse(&st, name) != 0)
		return -1;
	if ((fd = open(path, w ? O_RDONLY | O_NONBLOCK | O_NOCTTY :
	    O_RDONLY)) < 0) {
		(void)cli_sys_error(name, errno);
		return -1;
	}
	if (!w)
		return fd;
	if (fstat(fd, &st) != 0 || output_refuse(&st, name) != 0) {
		(void)close(fd);
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
		(void)cli_sys_error(name, errno);
		(void)close(fd);
		return -1;
	}
	return fd;
}

int
output_begin(struct output *o, int *fd, const char *path, const char *name)
{
	struct stat st;

	if (o->mode == OUTPUT_FILE)
		return 0;
	free(o->target);
	o->target = NULL;
	o->name = name;
	o->path = strcmp(path, "-") == 0 ? name : path;
	o->have_st = o->differs = o->err = 0;
	o->why = WHY_NONE;
	o->tmp_fd = -1;
	o->off = o->base = 0;
	o->in_fd = *fd;
	if (fstat(*fd, &st) != 0)
		return cli_sys_error(name, errno);
	if (o->mode == OUTPUT_CHECK) {
		int s;

		if (S_ISREG(st.st_mode)) {
			o->base = lseek(*fd, 0, SEEK_CUR);
			if (o->base < 0)
				o->base = 0;
			return 0;
		}
		if ((s = output_spool(o, *fd)) < 0)
			return output_report(o);
		*fd = o->in_fd = s;
		return 0;
	}
	if (output_refuse(&st, name) != 0)
		return EXIT_IO;
	o->st = st;
	o->have_st = 1;
	return output_target(o, path);
}

/* --check: list the input, quoted (as it is and NUL-ended with -z).
 * Returns 0, or EXIT_IO when the list cannot be written (said why; the
 * run stops). */
static int
output_list(struct output *o)
{
	const char *s = o->flags & OUTPUT_NUL ? o->path : o->name;
	size_t len = strlen(s);
	int err;

	if (len + 1 > sizeof(o->buf))	/* longer than a path can be */
		len = sizeof(o->buf) - 1;
	memcpy(o->buf, s, len);
	o->buf[len++] = o->flags & OUTPUT_NUL ? '\0' : '\n';
	if (jenc_fd_write(STDOUT_FILENO, o->buf, len, &err) != 0) {
		fprintf(stderr, "jenc: write error: %s\n", strerror(err));
		o->failed = 1;
		return EXIT_IO;
	}
	return 0;
}

int
output_end(struct output *o, int status)
{
	switch (o->mode) {
	case OUTPUT_FILE:
		if (o->why != WHY_NONE && !o->failed) {
			o->failed = 1;
			output_tmp_remove(o);
			return output_report(o);	/* EXIT_IO, the largest */
		}
		return status;
	case OUTPUT_CHECK:
		if (status != 0)
			return status;
		if (o->why == WHY_NONE && !o->differs)
			output_check_end(o);
		if (o->why != WHY_NONE)
			return output_report(o);
		if (o->differs)
			return output_list(o) != 0 ? EXIT_IO : EXIT_INVALID;
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
		if (status == 0 && o->why != WHY_NONE)
			status = output_report(o);
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
