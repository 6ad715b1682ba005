/* SPDX-License-Identifier: Apache-2.0 */
/* A growing byte buffer and the number and JSON string writers over it (out_bytes.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_bytes.h"
#include "out_table.h"

int out_bytes_reserve(struct out_bytes *b, size_t more)
{
	size_t cap;
	unsigned char *p;

	if (b->failed)
		return -1;
	if (b->cap - b->n >= more)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->n < more) {
		if (cap > SIZE_MAX / 2) {
			b->failed = 1;
			return -1;
		}
		cap *= 2;
	}
	if (!(p = realloc(b->p, cap))) {
		b->failed = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void out_bytes_put(struct out_bytes *b, const void *s, size_t n)
{
	if (n && !out_bytes_reserve(b, n)) {
		memcpy(b->p + b->n, s, n);
		b->n += n;
	}
}

void out_bytes_release(struct out_bytes *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void out_bytes_str(struct out_bytes *b, const char *s)
{
	out_bytes_put(b, s, strlen(s));
}

void out_bytes_u64(struct out_bytes *b, uint64_t v)
{
	char d[24];
	size_t k = sizeof(d);

	do {
		d[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_bytes_put(b, d + k, sizeof(d) - k);
}

void out_bytes_i64(struct out_bytes *b, int64_t v)
{
	if (v < 0) {
		out_bytes_put(b, "-", 1);
		out_bytes_u64(b, (uint64_t)0 - (uint64_t)v);
	} else {
		out_bytes_u64(b, (uint64_t)v);
	}
}

static void json_str(struct out_bytes *b, const char *str, size_t n, int exact)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;

	out_bytes_put(b, "\"", 1);
	while (i < n) {
		unsigned char c = s[i];
		size_t k;

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			continue;
		}
		k = c >= 0x80 ? exact ? 1 : out_utf8_seq(s + i, n - i) : 0;
		if (k) {
			i += k;
			continue;
		}
		out_bytes_put(b, s + run, i - run);
		if (c == '"' || c == '\\') {
			char e[2] = {'\\', (char)c};

			out_bytes_put(b, e, 2);
		} else if (c < 0x20) {
			char e[7];

			snprintf(e, sizeof(e), "\\u%04x", c);
			out_bytes_put(b, e, 6);
		} else {
			out_bytes_put(b, "\\ufffd", 6);
		}
		run = ++i;
	}
	out_bytes_put(b, s + run, n - run);
	out_bytes_put(b, "\"", 1);
}

void out_bytes_json(struct out_bytes *b, const char *s, size_t n)
{
	json_str(b, s, n, 0);
}

void out_bytes_json_cstr(struct out_bytes *b, const char *s)
{
	json_str(b, s, strlen(s), 0);
}

void out_bytes_json_exact(struct out_bytes *b, const char *s)
{
	json_str(b, s, strlen(s), 1);
}
