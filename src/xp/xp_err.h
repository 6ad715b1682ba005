/* SPDX-License-Identifier: Apache-2.0 */
/* Error reporting for library code: a code and a message, never printed here. */
#ifndef XP_ERR_H
#define XP_ERR_H

#include <stddef.h>

enum xp_errcode {
	XP_OK = 0,
	XP_ERR_NOMEM = -1,	/* out of memory */
	XP_ERR_IO = -2,		/* cannot open or read an input */
	XP_ERR_FORMAT = -3,	/* input is not a valid XSpace (or gzip of one) */
	XP_ERR_LIMIT = -4,	/* input exceeds a limit (size, time range) */
	XP_ERR_USAGE = -5,	/* bad argument from the caller (e.g. a regex) */
	/*
	 * Only between a reader and xp_read_opts.plane_read, never returned by a
	 * read: the plane read in pieces is to be read again, whole.
	 */
	XP_ERR_AGAIN = -6,
};

struct xp_err {
	int code;
	char msg[512];
};

/*
 * Text from a trace for a message (names are data): control bytes, DEL,
 * backslash and bytes above 0x7f as \xNN, at most n - 1 bytes into dst.
 */
void xp_escape(char *dst, size_t n, const char *s);
/* The same keeping valid UTF-8 and backslashes (an id a reader knows): control bytes, DEL and invalid bytes as \xNN. */
void xp_escape_utf8(char *dst, size_t n, const char *s);
/* Length of the valid UTF-8 sequence beginning the len bytes at s (1-4), or 0 when they do not begin one. */
size_t xp_utf8_seq(const unsigned char *s, size_t len);
/* Records the first error only: later calls keep the original cause. Returns code. */
int xp_err_set(struct xp_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif

#ifndef XP_NOTES_DEFINED
#define XP_NOTES_DEFINED
#include <stddef.h>
/* Warnings collected for the output ("warnings" in JSON, stderr otherwise). */
struct xp_notes {
	char **msgs;
	size_t n, cap;
};

/* Appends a formatted warning; returns XP_ERR_NOMEM if it could not. */
int xp_notes_add(struct xp_notes *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void xp_notes_release(struct xp_notes *w);
#endif
