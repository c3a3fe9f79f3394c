/*
 * keep.c - a replacing file given what the replaced one had; see keep.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/xattr.h>
#define KEEP_XATTR 1
#define KEEP_ACL "system.posix_acl_access"
#endif

#include "keep.h"

/* Note a loss.  Returns non-zero when keep_copy must stop. */
static int
keep_lost(struct keep_report *r, int all, int err, const char *fmt, ...)
{
	va_list ap;

	if (r->n == KEEP_MAX_LOSS) {
		r->more++;
		return !all;
	}
	va_start(ap, fmt);
	(void)vsnprintf(r->loss[r->n].what, sizeof(r->loss[r->n].what), fmt,
	    ap);
	va_end(ap);
	r->loss[r->n].err = err;
	r->n++;
	return !all;
}

#ifdef KEEP_XATTR

/* listxattr(2) (name NULL) or getxattr(2) of name, on fd or, if fd < 0,
 * on path without following a link. */
static ssize_t
keep_call(int fd, const char *path, const char *name, char *buf, size_t n)
{
	if (name == NULL)
		return fd >= 0 ? flistxattr(fd, buf, n) : llistxattr(path, buf, n);
	return fd >= 0 ? fgetxattr(fd, name, buf, n) :
	    lgetxattr(path, name, buf, n);
}

/*
 * The names of the extended attributes of fd (or path if fd < 0), name
 * NULL, or else the value of the attribute name, into *buf (malloc'd,
 * NULL if empty or on error); returns their bytes, or -1 with errno.
 * A file system without extended attributes has no names.
 */
static ssize_t
keep_fetch(int fd, const char *path, const char *name, char **buf)
{
	ssize_t n, m;
	int e;

	*buf = NULL;
	for (;;) {
		free(*buf);	/* (the last round's, too small) */
		*buf = NULL;
		n = keep_call(fd, path, name, NULL, 0);
		if (n < 0 && name == NULL && (errno == ENOTSUP ||
		    errno == ENOSYS))
			return 0;
		if (n <= 0)
			return n;
		if ((*buf = malloc((size_t)n)) == NULL)
			return -1;
		m = keep_call(fd, path, name, *buf, (size_t)n);
		if (m >= 0)
			return m;
		if (errno != ERANGE)		/* ERANGE: it grew */
			break;
	}
	e = errno;
	free(*buf);
	*buf = NULL;
	errno = e;
	return -1;
}

/* What a message calls the extended attribute name. */
static const char *
keep_noun(const char *name, char *buf, size_t size)
{
	if (strcmp(name, KEEP_ACL) == 0)
		return "its ACL";
	(void)snprintf(buf, size, "its extended attribute %s", name);
	return buf;
}

/* Give dst the extended attributes of the old file; remove an inherited
 * access ACL.  Returns non-zero when keep_copy must stop. */
static int
keep_xattrs(int dst, int src_fd, const char *src, int all,
    struct keep_report *r)
{
	char *names = NULL, *val = NULL, *cur = NULL, noun[300];
	ssize_t len, vlen, clen;
	int had_acl = 0, stop = 0;
	const char *p;

	if ((len = keep_fetch(src_fd, src, NULL, &names)) < 0)
		return keep_lost(r, all, errno, "its extended attributes");
	for (p = names; !stop && len > 0 && p < names + len;
	    p += strlen(p) + 1) {
		if (strcmp(p, KEEP_ACL) == 0)
			had_acl = 1;
		if ((vlen = keep_fetch(src_fd, src, p, &val)) < 0) {
			if (errno != ENODATA)	/* ENODATA: gone meanwhile */
				stop = keep_lost(r, all, errno, "%s",
				    keep_noun(p, noun, sizeof(noun)));
			continue;
		}
		/* the same already (a label the system gave both): leave it */
		clen = keep_fetch(dst, NULL, p, &cur);
		if ((clen != vlen || (vlen > 0 && memcmp(cur, val,
		    (size_t)vlen) != 0)) &&
		    fsetxattr(dst, p, val, (size_t)vlen, 0) != 0)
			stop = keep_lost(r, all, errno, "%s",
			    keep_noun(p, noun, sizeof(noun)));
		free(cur);
		free(val);
	}
	free(names);
	if (!stop && !had_acl && fremovexattr(dst, KEEP_ACL) != 0 &&
	    errno != ENODATA && errno != ENOTSUP && errno != ENOSYS)
		stop = keep_lost(r, all, errno, "its lack of an ACL");
	return stop;
}

#endif /* KEEP_XATTR */

int
keep_copy(int dst, int src_fd, const char *src, const struct stat *st,
    int all, struct keep_report *r)
{
	mode_t mode = st->st_mode & 07777;
	struct stat now;

	r->n = r->more = 0;
	/* Owner first: chown(2) clears the set-ID bits. */
	if (fstat(dst, &now) != 0) {
		(void)keep_lost(r, all, errno, "its owner and group");
		return -1;
	}
	if ((now.st_uid != st->st_uid || now.st_gid != st->st_gid) &&
	    fchown(dst, st->st_uid, st->st_gid) != 0) {
		int e = errno, uid_ok = now.st_uid == st->st_uid;
		int gid_ok = now.st_gid == st->st_gid ||
		    fchown(dst, (uid_t)-1, st->st_gid) == 0;
		int stop;

		if (!uid_ok && !gid_ok)
			stop = keep_lost(r, all, e, "its owner and group "
			    "(%ju:%ju)", (uintmax_t)st->st_uid,
			    (uintmax_t)st->st_gid);
		else if (!uid_ok)
			stop = keep_lost(r, all, e, "its owner (%ju)",
			    (uintmax_t)st->st_uid);
		else
			stop = keep_lost(r, all, e, "its group (%ju)",
			    (uintmax_t)st->st_gid);
		if (stop)
			return -1;
		if (!uid_ok)
			mode &= (mode_t)~S_ISUID;
		if (!gid_ok)
			mode &= (mode_t)~S_ISGID;
	}
#ifdef KEEP_XATTR
	if (keep_xattrs(dst, src_fd, src, all, r))
		return -1;
#else
	(void)src_fd;
	(void)src;
#endif
	/* Last: with an ACL, the group bits are its mask, which the ACL set
	 * above has and the mode has too. */
	if (fchmod(dst, mode) != 0)
		(void)keep_lost(r, all, errno, "its mode (%04o)",
		    (unsigned)mode);
	return r->n > 0 || r->more > 0 ? -1 : 0;
}
