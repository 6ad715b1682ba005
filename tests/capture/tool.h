/*
 * What the capture test tools (gen_cap, replay_xla) share: dying with a
 * message. Each defines TOOL_NAME before including this.
 */
#ifndef CAP_TEST_TOOL_H
#define CAP_TEST_TOOL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs(TOOL_NAME ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Dies unless r is 0 (a capture writer call). */
static inline void check(int r, const char *what)
{
	if (r)
		die("%s: error %d", what, r);
}

#endif
