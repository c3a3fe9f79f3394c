/*
 * map.c - a regular file mapped into memory read-only, for the readers
 * that read it from the mapping instead of with read(2) (JENC_READ_MAP):
 * the input layer's window (in.c), the chunks of the reader on several
 * threads (par.c) and the scout of a document (pipe.c).  Each unmaps the
 * pages it is done with a megabyte at a time, so that memory stays what
 * reading would take, and reads on with read(2) from the mapping's end
 * (jenc_map_seek), so that what the file grew by meanwhile is read too.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

const char *
jenc_map_init(jenc_map *m, int fd, off_t at)
{
	struct stat sb;
	long pg = sysconf(_SC_PAGESIZE);
	void *p;

	memset(m, 0, sizeof(*m));
	if (fd < 0 || pg <= 0 || fstat(fd, &sb) != 0 ||
	    !S_ISREG(sb.st_mode) || at < 0 ||
	    sb.st_size - at < (off_t)JENC_IN_MAP_MIN)
		return NULL;
	m->base = at - at % pg;	/* mmap's offset is a page's */
	if ((uintmax_t)(sb.st_size - m->base) > SIZE_MAX / 2)
		return NULL;
	p = mmap(NULL, (size_t)(sb.st_size - m->base), PROT_READ,
	    MAP_PRIVATE, fd, m->base);
	if (p == MAP_FAILED)
		return NULL;
	m->p = p;
	m->len = (size_t)(sb.st_size - m->base);
	(void)posix_madvise(p, m->len, POSIX_MADV_SEQUENTIAL);
	return m->p + (at - m->base);
}

void
jenc_map_trim(jenc_map *m, const char *done)
{
	size_t d = (size_t)(done - m->p);
	long pg;

	if (d - m->gone < JENC_MAP_TRIM || (pg = sysconf(_SC_PAGESIZE)) <= 0)
		return;
	d -= d % (size_t)pg;
	if (munmap(m->p + m->gone, d - m->gone) == 0)
		m->gone = d;
}

off_t
jenc_map_seek(const jenc_map *m, int fd, const char *at)
{
	return lseek(fd, m->base + (off_t)(at - m->p), SEEK_SET);
}

void
jenc_map_release(jenc_map *m)
{
	if (m->p != NULL)
		(void)munmap(m->p + m->gone, m->len - m->gone);
	m->p = NULL;
}
