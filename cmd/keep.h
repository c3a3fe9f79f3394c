/*
 * keep.h - what a file replaced by -o or -w keeps of the file it
 * replaces: its owner and group, its extended attributes (its access ACL
 * among them, system.posix_acl_access on Linux) and its mode, set-ID bits
 * included.  The new file is one this process created beside the old one;
 * what it got from its directory (a default ACL) does not stay.
 *
 * Extended attributes are kept where the system has the Linux calls
 * (flistxattr(2) and the rest); elsewhere only the owner, group and mode.
 */
#ifndef KEEP_H
#define KEEP_H

#include <stddef.h>
#include <sys/stat.h>

/* What could not be kept: a phrase for the message ("its owner and group
 * (1234:5678)", "its extended attribute user.x", "its ACL") and errno. */
struct keep_loss {
	char what[320];
	int err;
};

#define KEEP_MAX_LOSS 8

struct keep_report {
	struct keep_loss loss[KEEP_MAX_LOSS];
	size_t n;		/* losses in loss[] */
	size_t more;		/* losses past KEEP_MAX_LOSS, not described */
};

/*
 * keep_copy - give dst (a descriptor of the new file, open for writing)
 * what the old file had: st is its stat(2); its extended attributes are
 * read from src_fd when it is >= 0, else from the path src (a symbolic
 * link is not followed: give the file it points to).  An extended
 * attribute dst has and the old file has not is removed when it is the
 * access ACL (one inherited from the directory's default ACL); the others
 * (a security label the system gave) stay.  The mode comes last, set-ID
 * bits dropped where the owner or group they go with could not be kept.
 *
 * Returns 0 when everything was kept.  Otherwise -1, with r describing
 * the first thing lost; with all set it goes on and keeps what it can,
 * r listing each loss, else it stops at the first.
 */
int keep_copy(int dst, int src_fd, const char *src, const struct stat *st,
    int all, struct keep_report *r);

#endif /* KEEP_H */
