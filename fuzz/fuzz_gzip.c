/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The input path: bytes as a file (a memfd, mapped like any regular file) or
 * through standard input (a pipe), gzip detected and inflated under a size
 * limit, then decoded. Seeds are gzip members; the limit is small (1 MiB, or
 * a few bytes) so that bombs and the limit paths are reached in no time.
 * A load either fails with a message or hands out exactly the bytes a plain
 * read or an independent inflate gives.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "model_check.h"
#include "xp_input.h"
#include "xp_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			abort();
		p += w;
		n -= (size_t)w;
	}
}

/* Loads the bytes through a memfd path, or as standard input from a pipe. */
static int load(const uint8_t *data, size_t len, int via_pipe, uint64_t max, struct xp_buf *b,
		struct xp_err *err)
{
	char path[64];
	int fd, saved, p[2], ret;

	if (!via_pipe) {
		fd = memfd_create("fuzz", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		write_all(fd, data, len);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		ret = xp_buf_load(path, max, b, err);
		close(fd);
		return ret;
	}
	/* A pipe holds 64 KiB without a reader; longer inputs are cut there. */
	if (pipe(p))
		abort();
	write_all(p[1], data, len > 65536 ? 65536 : len);
	close(p[1]);
	saved = dup(STDIN_FILENO);
	if (saved < 0 || dup2(p[0], STDIN_FILENO) < 0)
		abort();
	close(p[0]);
	ret = xp_buf_load("-", max, b, err);
	if (dup2(saved, STDIN_FILENO) < 0)
		abort();
	close(saved);
	return ret;
}

/* zlib's own gzip reader over the same bytes must give what the loader gave. */
static void check_inflated(const uint8_t *data, size_t len, const struct xp_buf *b)
{
	unsigned char *out = malloc(b->len + 1);
	int fd = memfd_create("fuzz-gz", MFD_CLOEXEC);
	gzFile gz;
	int n;

	if (!out || fd < 0)
		abort();
	write_all(fd, data, len);
	lseek(fd, 0, SEEK_SET);
	gz = gzdopen(fd, "rb");
	if (!gz)
		abort();
	n = gzread(gz, out, (unsigned)b->len + 1);
	if (n != (int)b->len || memcmp(out, b->data, b->len)) {
		fprintf(stderr, "inflated %zu bytes, zlib's gzread %d\n", b->len, n);
		abort();
	}
	gzclose(gz);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const uint64_t limits[] = {1 << 20, 1 << 20, 1 << 20, 16, 4096};
	int via_pipe = len ? data[len - 1] & 1 : 0;
	uint64_t max = limits[len ? data[len / 2] % 5 : 0];
	int gz = len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
	size_t plain_len = via_pipe && len > 65536 ? 65536 : len;
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct model_diff d;
	struct xp_buf b;
	int ret = load(data, len, via_pipe, max, &b, &err);

	if (ret) {
		if (!err.msg[0] || err.code != ret || ret == XP_ERR_USAGE)
			abort();
		if (!gz && !(plain_len == 0 || (via_pipe && plain_len > max)) && ret != XP_ERR_NOMEM) {
			fprintf(stderr, "plain input rejected: %s\n", err.msg);
			abort();
		}
		return 0;
	}
	if (b.compressed != gz || b.len > max * gz + (gz ? 0 : plain_len) || !b.len) {
		fprintf(stderr, "load: compressed %d, %zu bytes, limit %llu\n", b.compressed, b.len,
			(unsigned long long)max);
		abort();
	}
	if (!gz && (b.len != plain_len || memcmp(b.data, data, plain_len)))
		abort();
	if (gz)
		check_inflated(data, plain_len, &b);
	if (!xp_trace_read(&xp_reader_wire, b.data, b.len, &t, &err)) {
		if (model_check(t, &d)) {
			fprintf(stderr, "broken model: %s\n", d.msg);
			abort();
		}
		xp_trace_free(t);
	}
	xp_buf_release(&b);
	return 0;
}
