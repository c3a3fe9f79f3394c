/*
 * quote.h - file names as jenc(1) shows them in messages and in --check's
 * list: a name that could move the cursor, split a line or be misread is
 * quoted C-style in double quotes, as git quotes paths (core.quotePath).
 *
 * A name needs quoting when it holds a control character (C0, DEL or C1),
 * a double quote, a backslash, or bytes that are not UTF-8.  Inside the
 * quotes \a \b \t \n \v \f \r \" \\ stand for themselves and any other
 * byte of a control character or of invalid UTF-8 is a backslash and
 * three octal digits (ESC is \033); other characters, UTF-8 included, are
 * as they are.  A name that needs no quoting is shown unchanged, so a
 * name shown never starts with '"' unless it was quoted.
 */
#ifndef QUOTE_H
#define QUOTE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/* A buffer that holds the quoted form of any name shorter than PATH_MAX. */
#define QUOTE_SIZE (4 * PATH_MAX + 3)

/*
 * quote_name - name as a message shows it.  Returns name itself when it
 * needs no quoting, else buf (size bytes) holding the quoted form; one
 * that does not fit is cut at a character and ends in ...".  buf is the
 * caller's; the result lives as long as name and buf.
 */
const char *quote_name(const char *name, char *buf, size_t size);

/*
 * quote_dup - the same as a new string, never cut: free(3) it.  NULL if
 * memory runs out.
 */
char *quote_dup(const char *name);

/*
 * quote_fputs - write s to fp as a message shows a value that came from
 * the command line or the environment: as it is, but for each control
 * character and byte that is not UTF-8, written as quote_name writes it
 * (\n, \033), so that the value cannot move the cursor or split the
 * line.  Quotes and backslashes stay as they are: the message quotes the
 * value itself.
 */
void quote_fputs(const char *s, FILE *fp);

#endif /* QUOTE_H */
