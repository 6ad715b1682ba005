/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gzip output compressed on several threads: each piece is deflated on its
 * own (raw deflate ending in a sync flush, so byte aligned) and the pieces
 * are concatenated between one gzip header and a trailer whose CRC-32 is
 * combined from the pieces'. One gzip member, which every reader inflates.
 */
#ifndef OUT_GZIP_H
#define OUT_GZIP_H

#include <stddef.h>
#include <stdint.h>

#include "out_export.h"

struct out_gz_piece {
	struct out_bytes z;	/* the deflated bytes */
	uint32_t crc;		/* CRC-32 of the input */
	size_t len;		/* input bytes */
};

/* Deflates n bytes of in at level into pc. Returns 0, or -1 when out of memory. */
int out_gz_deflate(const unsigned char *in, size_t n, int level, struct out_gz_piece *pc);

/* The running state of one gzip member. */
struct out_gz {
	uint32_t crc;
	uint64_t len;
};

/* The 10-byte header. */
void out_gz_header(struct out_bytes *b);
/* Accounts for a piece written after the header. */
void out_gz_add(struct out_gz *g, const struct out_gz_piece *pc);
/* The final empty block and the trailer (CRC-32, length mod 2^32). */
void out_gz_trailer(const struct out_gz *g, struct out_bytes *b);

#endif
