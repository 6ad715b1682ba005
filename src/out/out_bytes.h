/* SPDX-License-Identifier: Apache-2.0 */
/* A growing byte buffer, and writers of numbers and JSON strings into it. */
#ifndef OUT_BYTES_H
#define OUT_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* A growing byte buffer; failed is set (and the bytes kept) when it could not grow. */
struct out_bytes {
	unsigned char *p;
	size_t n, cap;
	int failed;
};

void out_bytes_put(struct out_bytes *b, const void *s, size_t n);
/* Makes room for more bytes after n: 0, or -1 (and failed set) when it cannot. */
int out_bytes_reserve(struct out_bytes *b, size_t more);
void out_bytes_release(struct out_bytes *b);
void out_bytes_str(struct out_bytes *b, const char *s);
/* Decimal integers, exact. */
void out_bytes_u64(struct out_bytes *b, uint64_t v);
void out_bytes_i64(struct out_bytes *b, int64_t v);
/*
 * A JSON string of n bytes: quotes, backslashes and control characters
 * escaped, a byte not part of valid UTF-8 written as \ufffd.
 */
void out_bytes_json(struct out_bytes *b, const char *s, size_t n);
void out_bytes_json_cstr(struct out_bytes *b, const char *s);
/*
 * The same keeping every byte of s: bytes that are not valid UTF-8 are
 * written as they are (JSON parsers that check UTF-8 may refuse or replace
 * them), so that a reader gets back exactly s.
 */
void out_bytes_json_exact(struct out_bytes *b, const char *s);

#endif
