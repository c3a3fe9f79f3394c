/*
 * map.c - a regular file mapped into memory read-only, for the readers
 * that read it from the mapping instead of with read(2) (JENC_READ_MAP):
 * the input layer's window (in.c), the chunks of the reader on several
 * threads (par.c) and the scout of a document (pipe.c).  Each unmaps the
 * pages it is done with a megabyte at a time, so that memory stays what
 * reading would take.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

char *
jenc_map_new(int fd, off_t at, size_t *len, size_t *skip)
{
	struct stat sb;
	long pg = sysconf(_SC_PAGESIZE);
	off_t base;
	void *m;

	if (fd < 0 || pg <= 0 || fstat(fd, &sb) != 0 ||
	    !S_ISREG(sb.st_mode) || at < 0 ||
	    sb.st_size - at < (off_t)JENC_IN_MAP_MIN)
		return NULL;
	base = at - at % pg;	/* mmap's offset is a page's */
	if ((uintmax_t)(sb.st_size - base) > SIZE_MAX / 2)
		return NULL;
	*len = (size_t)(sb.st_size - base);
	m = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, base);
	if (m == MAP_FAILED)
		return NULL;
	(void)posix_madvise(m, *len, POSIX_MADV_SEQUENTIAL);
	*skip = (size_t)(at - base);
	return m;
}

void
jenc_map_trim(char *map, size_t *gone, size_t done)
{
	long pg;

	if (done - *gone < JENC_MAP_TRIM || (pg = sysconf(_SC_PAGESIZE)) <= 0)
		return;
	done -= done % (size_t)pg;
	if (munmap(map + *gone, done - *gone) == 0)
		*gone = done;
}

void
jenc_map_free(char *map, size_t gone, size_t len)
{
	(void)munmap(map + gone, len - gone);
}
