/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the trace generators (gen_synth, gen_bad, their builder gen_trace) and
 * the capture test tools (tests/capture/gen_cap.c, replay_xla.c) share: short
 * names for protobuf-c's XPlane types, and dying with a message. Each defines
 * GEN_NAME (its name for messages, a string) before including this.
 */
#ifndef GEN_COMMON_H
#define GEN_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xplane_pb.h"

#define US(x) ((int64_t)(x) * 1000000)		/* microseconds to ps */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", GEN_NAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Dies unless r is 0 (a call returning 0 or an error code). */
static inline void check(int r, const char *what)
{
	if (r)
		die("%s: error %d", what, r);
}

static inline void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		die("out of memory");
	return p;
}

static inline char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

/* Append ITEM to the protobuf-c repeated field ARR of length N. */
#define PUSH(arr, n, item) do {						\
		(arr) = xrealloc((arr), ((n) + 1) * sizeof(*(arr)));	\
		(arr)[(n)++] = (item);					\
	} while (0)

#endif
