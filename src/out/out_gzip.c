/* SPDX-License-Identifier: Apache-2.0 */
/* gzip output compressed piece by piece (out_gzip.h). */
#include <string.h>
#include <zlib.h>

#include "out_gzip.h"

int out_gz_deflate(const unsigned char *in, size_t n, int level, struct out_gz_piece *pc)
{
	z_stream z;
	int ret = -1;
	size_t k;

	memset(&z, 0, sizeof(z));
	memset(pc, 0, sizeof(*pc));
	/* Raw deflate (-15): the header and trailer are written once for all pieces. */
	if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	pc->crc = (uint32_t)crc32(0L, Z_NULL, 0);
	pc->len = n;
	for (k = 0; k < n;) {
		uInt chunk = n - k > (1u << 30) ? 1u << 30 : (uInt)(n - k);

		pc->crc = (uint32_t)crc32(pc->crc, in + k, chunk);
		k += chunk;
	}
	z.next_in = (Bytef *)in;
	k = n;
	do {
		uInt chunk = k > (1u << 30) ? 1u << 30 : (uInt)k;
		int flush = chunk == k ? Z_SYNC_FLUSH : Z_NO_FLUSH;

		z.avail_in = chunk;
		k -= chunk;
		do {
			size_t room;

			if (out_bytes_reserve(&pc->z, 1 << 16))
				goto out;
			room = pc->z.cap - pc->z.n;
			z.next_out = pc->z.p + pc->z.n;
			z.avail_out = room > (1u << 30) ? 1u << 30 : (uInt)room;
			room = z.avail_out;
			if (deflate(&z, flush) == Z_STREAM_ERROR)
				goto out;
			pc->z.n += room - z.avail_out;
		} while (z.avail_out == 0 || z.avail_in);
	} while (k);
	ret = 0;
out:
	deflateEnd(&z);
	return ret;
}

void out_gz_header(struct out_bytes *b)
{
	/* magic, deflate, no flags, no time, no extra flags, OS unknown */
	static const unsigned char h[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255};

	out_bytes_put(b, h, sizeof(h));
}

void out_gz_add(struct out_gz *g, const struct out_gz_piece *pc)
{
	g->crc = (uint32_t)crc32_combine(g->crc, pc->crc, (z_off_t)pc->len);
	g->len += pc->len;
}

void out_gz_trailer(const struct out_gz *g, struct out_bytes *b)
{
	/* A final fixed-Huffman block holding only its end: bits 1, 01, 0000000. */
	unsigned char t[10] = {0x03, 0x00};
	uint32_t len = (uint32_t)g->len;
	int i;

	for (i = 0; i < 4; i++) {
		t[2 + i] = (unsigned char)(g->crc >> (8 * i));
		t[6 + i] = (unsigned char)(len >> (8 * i));
	}
	out_bytes_put(b, t, sizeof(t));
}
