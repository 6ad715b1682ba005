/* SPDX-License-Identifier: Apache-2.0 */
/* Loading a file or a trace in a unit test: a failure is a test failure, never a crash. */
#ifndef TEST_TRACE_H
#define TEST_TRACE_H

#include <stdio.h>

#include "test.h"
#include "xp_input.h"
#include "xp_model.h"

/* The file at path in b (0), or -1 after counting a failure. */
static inline int test_buf_load(const char *path, struct xp_buf *b)
{
	struct xp_err err = {0};

	if (!xp_buf_load(path, XP_DEFAULT_MAX_INPUT, b, &err))
		return 0;
	fprintf(stderr, "%s: %s\n", path, err.msg);
	test_failures++;
	return -1;
}

/* The trace at path read with reader r (NULL: the default), or NULL after counting a failure. */
static inline struct xp_trace *test_load(const char *path, const struct xp_reader *r)
{
	struct xp_buf buf = {0};
	struct xp_err err = {0};
	struct xp_trace *t = NULL;

	if (xp_buf_load(path, XP_DEFAULT_MAX_INPUT, &buf, &err) || xp_trace_read(r, buf.data, buf.len, &t, &err)) {
		fprintf(stderr, "  %s: %s\n", path, err.msg);
		test_failures++;
	}
	xp_buf_release(&buf);
	return t;
}

#endif
