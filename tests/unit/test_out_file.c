/* SPDX-License-Identifier: Apache-2.0 */
/*
 * out_file: the bytes read back equal the bytes put, whatever the sizes of
 * the puts and of the whole (a block's multiple or not, over the buffers,
 * over the sync interval), past the page cache or through it (a directory
 * here, and /dev/shm where tmpfs may refuse O_DIRECT); a failed write is
 * returned by the next call and by out_file_finish; a put after the finish
 * is refused; the descriptor ends without O_DIRECT either way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out_file.h"
#include "test.h"

static unsigned char byte_at(size_t i)
{
	return (unsigned char)((i * 2654435761u) >> 13);
}

/* Puts total bytes in pieces cycling through sizes; reads the file back. */
static void roundtrip(const char *dir, size_t total, int direct)
{
	static const size_t sizes[] = {1, 4095, 4097, (1 << 20) + 3, 9 << 20, 4096, 777};
	char path[4096];
	unsigned char *src = malloc(total ? total : 1), *back = malloc(total + 1);
	struct out_file *w;
	size_t at = 0, k = 0;
	ssize_t got;
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/out_file.XXXXXX", dir);
	fd = mkstemp(path);
	CHECK(fd >= 0 && src && back);
	if (fd < 0 || !src || !back)
		goto out;
	for (at = 0; at < total; at++)
		src[at] = byte_at(at);
	w = out_file_new(fd, direct);
	CHECK(w != NULL);
	if (!w)
		goto out;
	for (at = 0; at < total && !rc; k++) {
		size_t n = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];

		if (n > total - at)
			n = total - at;
		rc = out_file_put(w, src + at, n);
		at += n;
	}
	CHECK_INT(rc, 0);
	CHECK_INT(out_file_finish(w), 0);
	if (!direct)
		CHECK(!out_file_was_direct(w));
	printf("  %s, %zu bytes: %s\n", dir, total,
	       out_file_was_direct(w) ? "past the page cache" : "through the page cache");
	CHECK_INT(out_file_put(w, "x", 1), EINVAL);	/* finished: refused, not lost in a queue */
	CHECK(!(fcntl(fd, F_GETFL) & O_DIRECT));
	out_file_free(w);
	CHECK_INT(fsync(fd), 0);
	/* the descriptor is as it was opened: a plain write of one byte still works */
	CHECK_INT(pwrite(fd, "x", 1, (off_t)total), 1);
	CHECK_INT(lseek(fd, 0, SEEK_SET), 0);
	got = read(fd, back, total + 1);
	CHECK_INT(got, (long long)total + 1);
	CHECK(got == (ssize_t)total + 1 && !memcmp(src, back, total) && back[total] == 'x');
out:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(src);
	free(back);
}

static void test_sizes(const char *dir)
{
	roundtrip(dir, 0, 1);
	roundtrip(dir, 1, 1);
	roundtrip(dir, 4096, 1);
	roundtrip(dir, (size_t)8 << 20, 1);			/* exactly one buffer */
	roundtrip(dir, ((size_t)27 << 20) + 4097, 1);		/* every buffer, and around */
	roundtrip(dir, ((size_t)27 << 20) + 4097, 0);
	roundtrip(dir, OUT_FILE_SYNC_BYTES + ((size_t)5 << 20) + 1, 1);	/* a sync on the way */
}

/* A descriptor that cannot be written: the error comes back, from the put after it or the finish. */
static void test_error(void)
{
	static unsigned char buf[(9 << 20) + 5];
	char path[] = "out_file_ro.XXXXXX";
	int fd = mkstemp(path), ro, rc;
	struct out_file *w;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	ro = open(path, O_RDONLY);
	CHECK(ro >= 0);
	w = ro >= 0 ? out_file_new(ro, 1) : NULL;
	CHECK(w != NULL);
	if (w) {
		rc = out_file_put(w, buf, sizeof(buf));	/* a buffer queued: its write may have failed already */
		CHECK(rc == 0 || rc == EBADF);
		rc = out_file_finish(w);
		CHECK_INT(rc, EBADF);
		CHECK_INT(out_file_put(w, buf, 1), EBADF);
		CHECK(!(fcntl(ro, F_GETFL) & O_DIRECT));	/* as it was, after the failure too */
		out_file_free(w);
	}
	out_file_free(NULL);
	if (ro >= 0)
		close(ro);
	close(fd);
	unlink(path);
}

/* Freed without out_file_finish: what was queued is still written, nothing leaks or hangs. */
static void test_free_unfinished(void)
{
	static unsigned char buf[(8 << 20) + 1];
	char path[] = "out_file_free.XXXXXX";
	int fd = mkstemp(path);
	struct out_file *w;
	struct stat st;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	w = out_file_new(fd, 1);
	CHECK(w != NULL);
	if (w) {
		CHECK_INT(out_file_put(w, buf, sizeof(buf)), 0);
		out_file_free(w);
		CHECK(fstat(fd, &st) == 0 && st.st_size == (off_t)8 << 20);
	}
	close(fd);
	unlink(path);
}

int main(void)
{
	struct stat st;

	test_sizes(".");
	if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
		test_sizes("/dev/shm");
	test_error();
	test_free_unfinished();
	return test_done("test_out_file");
}
