/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A real trace cut at every byte offset, and its gzip stream cut at every
 * offset (RELIABILITY.md, "Truncated files"). The rule each cut must follow:
 *  - rejected as invalid input (exit status 3), by both readers alike; or
 *  - accepted, and then every plane it holds is identical to that plane of
 *    the whole file: a cut can drop whole planes (a cut exactly between two
 *    top-level fields leaves a well-formed XSpace), never change one.
 * A gzip stream cut short is always rejected.
 * XPS_TEST_VERBOSE=1 prints the counts.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cmd.h"
#include "model_check.h"
#include "test.h"
#include "test_trace.h"
#include "xp_input.h"
#include "xp_model.h"

#define SMALL_REAL TESTDATA_DIR "/real/mi300x_jax_gemm.xplane.pb"

/*
 * Under AddressSanitizer every allocation is cleared page by page, and the
 * readers size their arenas by the input: every cut of a 110 KB file would
 * take minutes. There the cuts are the first 2 KiB, every 997th offset, and
 * the bytes around each top-level field boundary (where a cut can succeed).
 */
#if defined(__SANITIZE_ADDRESS__)
#define SAMPLED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SAMPLED 1
#endif
#endif
#ifndef SAMPLED
#define SAMPLED 0
#endif

/* Marks in near[] the offsets within 2 bytes of a top-level field boundary. */
static void mark_boundaries(const unsigned char *p, size_t n, unsigned char *near)
{
	size_t off = 0, k;

	while (off < n) {
		uint64_t tag = 0, len = 0;
		int shift = 0;

		for (k = off >= 2 ? off - 2 : 0; k <= off + 2 && k < n; k++)
			near[k] = 1;
		do
			tag |= (uint64_t)(p[off] & 0x7f) << shift, shift += 7;
		while (p[off++] & 0x80 && off < n);
		if ((tag & 7) != 2) {
			fprintf(stderr, "top-level field with wire type %u\n", (unsigned)(tag & 7));
			test_failures++;
			return;
		}
		shift = 0;
		do
			len |= (uint64_t)(p[off] & 0x7f) << shift, shift += 7;
		while (p[off++] & 0x80 && off < n);
		off += len;
	}
}

/* Checks one cut with reader r against the whole file's model; 1 if it was accepted. */
static int check_cut(const struct xp_reader *r, const unsigned char *cut, size_t off,
		     const struct xp_trace *whole, size_t *planes_kept)
{
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct model_diff d;
	size_t i;
	int ret = xp_trace_read(r, cut, off, &t, &err);

	if (ret) {
		if (cmd_exit_for(ret) != EXIT_INPUT || !err.msg[0]) {
			fprintf(stderr, "%s, cut at %zu: error %d '%s' is not an input error\n", r->name,
				off, ret, err.msg);
			test_failures++;
		}
		return 0;
	}
	if (t->nplanes > whole->nplanes || t->nhostnames > whole->nhostnames) {
		fprintf(stderr, "%s, cut at %zu: more planes or hosts than the whole file\n", r->name, off);
		test_failures++;
	}
	for (i = 0; i < t->nplanes && i < whole->nplanes; i++) {
		if (model_plane_differ(&t->planes[i], &whole->planes[i], i, &d)) {
			fprintf(stderr, "%s, cut at %zu: %s\n", r->name, off, d.msg);
			test_failures++;
			break;
		}
	}
	*planes_kept = t->nplanes;
	xp_trace_free(t);
	return 1;
}

static void test_every_offset(void)
{
	struct xp_trace *whole = NULL;
	struct xp_err err = {0};
	struct xp_buf b;
	size_t off, accepted = 0, last_kept = 0, cuts = 0;
	unsigned char *near;

	if (test_buf_load(SMALL_REAL, &b))
		return;
	CHECK_INT(xp_trace_read(&xp_reader_protobuf_c, b.data, b.len, &whole, &err), 0);
	near = calloc(b.len + 3, 1);
	if (!near)
		abort();
	mark_boundaries(b.data, b.len, near);
	for (off = 0; whole && off < b.len; off++) {
		unsigned char *cut;
		size_t kept_p = 0, kept_w = 0;
		int ok_p, ok_w;

		if (SAMPLED && off >= 2048 && off % 997 && !near[off])
			continue;
		cuts++;
		/* An exact copy, so that a read past the end is one a sanitizer sees. */
		cut = malloc(off ? off : 1);
		if (!cut)
			abort();
		memcpy(cut, b.data, off);
		ok_p = check_cut(&xp_reader_protobuf_c, cut, off, whole, &kept_p);
		ok_w = check_cut(&xp_reader_wire, cut, off, whole, &kept_w);
		free(cut);
		if (ok_p != ok_w || kept_p != kept_w) {
			fprintf(stderr, "cut at %zu: protobuf-c %s %zu planes, wire %s %zu\n", off,
				ok_p ? "keeps" : "rejects", kept_p, ok_w ? "keeps" : "rejects", kept_w);
			test_failures++;
		}
		if (ok_p) {
			accepted++;
			/* A longer cut never holds fewer planes. */
			CHECK(kept_p >= last_kept);
			last_kept = kept_p;
		}
	}
	/* Cuts between top-level fields: 0 and after each of the 11 planes, but not the last byte. */
	CHECK_INT(accepted, 12);
	if (getenv("XPS_TEST_VERBOSE"))
		printf("%zu cuts of %zu bytes: %zu accepted (whole planes only), the rest rejected\n",
		       cuts, b.len, accepted);
	free(near);
	xp_trace_free(whole);
	xp_buf_release(&b);
}

/* in as one gzip member. */
static unsigned char *gzip_bytes(const unsigned char *in, size_t n, size_t *out_len)
{
	z_stream zs;
	unsigned char *out;
	size_t cap;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	cap = deflateBound(&zs, n);
	out = malloc(cap);
	if (!out)
		abort();
	zs.next_in = (unsigned char *)in;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		abort();
	*out_len = zs.total_out;
	deflateEnd(&zs);
	return out;
}

static void test_gzip_every_offset(void)
{
	char path[] = "/tmp/xps-test-bad-truncate-XXXXXX";
	struct xp_buf b, g;
	unsigned char *gz;
	size_t gz_len, off, truncated = 0, cuts = 0;
	int fd;

	if (test_buf_load(SMALL_REAL, &b))
		return;
	gz = gzip_bytes(b.data, b.len, &gz_len);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0 || write(fd, gz, gz_len) != (ssize_t)gz_len)
		abort();
	/* The whole stream reads back; then every shorter cut, made by truncating the file. */
	CHECK_INT(test_buf_load(path, &g), 0);
	CHECK(g.compressed && g.len == b.len && !memcmp(g.data, b.data, b.len));
	xp_buf_release(&g);
	for (off = gz_len; off-- > 0;) {
		struct xp_err err = {0};
		int ret;

		/* Each cut inflates up to its end: all of the first and last 1 KiB, then a sample. */
		if (off >= 1024 && off + 1024 < gz_len && off % 61)
			continue;
		cuts++;
		if (ftruncate(fd, (off_t)off))
			abort();
		ret = xp_buf_load(path, XP_DEFAULT_MAX_INPUT, &g, &err);
		if (!ret) {
			/* One byte is no gzip magic: read as protobuf, where it is no valid tag. */
			struct xp_trace *t = NULL;

			int compressed = g.compressed;

			ret = xp_trace_read(NULL, g.data, g.len, &t, &err);
			xp_buf_release(&g);
			xp_trace_free(t);
			if (!ret || compressed) {
				fprintf(stderr, "gzip cut at %zu of %zu: accepted\n", off, gz_len);
				test_failures++;
				continue;
			}
		}
		if (cmd_exit_for(ret) != EXIT_INPUT) {
			fprintf(stderr, "gzip cut at %zu: error %d '%s'\n", off, ret, err.msg);
			test_failures++;
		}
		truncated += strstr(err.msg, "truncated gzip stream") != NULL;
	}
	/* Every cut but the first 2 bytes (no gzip magic yet) says "truncated gzip stream". */
	CHECK_INT(truncated, cuts - 2);
	if (getenv("XPS_TEST_VERBOSE"))
		printf("gzip: %zu cuts of %zu bytes rejected, %zu as a truncated stream\n", cuts, gz_len,
		       truncated);
	close(fd);
	unlink(path);
	free(gz);
	xp_buf_release(&b);
}

int main(void)
{
	test_every_offset();
	test_gzip_every_offset();
	return test_done("test_bad_truncate");
}
