/*
 * loglevel.c - the levels of log records for the log view (logv.c): the
 * severity of a level's name or number (jenc_logv_level), the name shown
 * for each severity and its color.
 */
#include <stddef.h>

#include "internal.h"
#include "logv.h"

static const struct {
	const char *name;
	int sev;
} ll_names[] = {
	{ "trace", 10 }, { "debug", 20 }, { "info", 30 }, { "notice", 30 },
	{ "information", 30 }, { "warn", 40 }, { "warning", 40 },
	{ "error", 50 }, { "err", 50 }, { "fatal", 60 }, { "critical", 60 },
	{ "crit", 60 }, { "alert", 60 }, { "emerg", 60 }, { "emergency", 60 },
	{ "panic", 60 }, { "dpanic", 60 },
};

/* Shown for severities 10, 20, ... 60 (logv.h), in pino-pretty's colors. */
const char *const jenc_logl_names[6] = {
	"TRACE", "DEBUG", "INFO ", "WARN ", "ERROR", "FATAL",
};
const char *const jenc_logl_sgr[6] = {
	"\033[0;90m", "\033[0;34m", "\033[0;32m", "\033[0;33m",
	"\033[0;31m", "\033[1;31m",
};

/* The severity of the name s[0..n), -1 if it is none of ll_names. */
static int
ll_name(const char *s, size_t n)
{
	size_t i, k;

	for (i = 0; i < sizeof(ll_names) / sizeof(ll_names[0]); i++) {
		const char *m = ll_names[i].name;

		for (k = 0; k < n && m[k] != '\0'; k++)
			if ((s[k] | 0x20) != m[k])
				break;
		if (k == n && m[k] == '\0')
			return ll_names[i].sev;
	}
	return -1;
}

int
jenc_logv_level(const char *s, size_t n)
{
	size_t i, at;
	int v = 0, sev;

	if (n > 0 && n <= 3 && s[0] >= '0' && s[0] <= '9') {
		for (i = 0; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			v = v * 10 + (s[i] - '0');
		}
		return v;
	}
	if ((sev = ll_name(s, n)) >= 0)
		return sev;
	/* Go's log/slog between its names: "INFO+2", "WARN-1", one or two
	 * digits of its steps, four from a name to the next (ten here) */
	for (at = n; at > 0 && s[at - 1] >= '0' && s[at - 1] <= '9'; at--)
		;
	if (at < 2 || n - at < 1 || n - at > 2 ||
	    (s[at - 1] != '+' && s[at - 1] != '-') ||
	    (sev = ll_name(s, at - 1)) < 0)
		return -1;
	for (i = at; i < n; i++)
		v = v * 10 + (s[i] - '0');
	sev += (s[at - 1] == '+' ? v : -v) * 10 / 4;
	return sev > 0 ? sev : 0;
}
