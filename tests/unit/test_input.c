/* SPDX-License-Identifier: Apache-2.0 */
/* xp_input: plain and gzip loading, limits, truncation, directory walks with symlink loops. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "test.h"
#include "xp_input.h"

static char dir[] = "/tmp/xps-input-XXXXXX";

static void path_of(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static void write_file(const char *name, const void *data, size_t len)
{
	char p[256];
	FILE *f;

	path_of(p, sizeof(p), name);
	f = fopen(p, "wb");
	CHECK(f != NULL);
	if (!f)
		return;
	fwrite(data, 1, len, f);
	fclose(f);
}

/* A gzip member of `len` copies of byte c. */
static unsigned char *gzip_of(int c, size_t len, size_t *out_len)
{
	unsigned char *in = malloc(len), *out;
	z_stream zs = {0};

	memset(in, c, len);
	deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	out = malloc(deflateBound(&zs, len) + 32);
	zs.next_in = in;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)(deflateBound(&zs, len) + 32);
	deflate(&zs, Z_FINISH);
	*out_len = zs.total_out;
	deflateEnd(&zs);
	free(in);
	return out;
}

static void test_plain_and_gzip(void)
{
	char p[256];
	struct xp_buf b;
	struct xp_err err = {0};
	size_t glen, glen2;
	unsigned char *g = gzip_of('a', 100000, &glen), *g2 = gzip_of('b', 10, &glen2), *cat;

	write_file("plain.xplane.pb", "\x0a\x00", 2);
	path_of(p, sizeof(p), "plain.xplane.pb");
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK_INT(b.len, 2);
	CHECK_INT(b.compressed, 0);
	xp_buf_release(&b);

	write_file("a.xplane.pb.gz", g, glen);
	path_of(p, sizeof(p), "a.xplane.pb.gz");
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK_INT(b.len, 100000);
	CHECK(b.compressed && b.data[0] == 'a' && b.data[99999] == 'a');
	xp_buf_release(&b);

	/* Two concatenated members read as one stream, as gzip -d does. */
	cat = malloc(glen + glen2);
	memcpy(cat, g, glen);
	memcpy(cat + glen, g2, glen2);
	write_file("cat.gz", cat, glen + glen2);
	path_of(p, sizeof(p), "cat.gz");
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK_INT(b.len, 100010);
	CHECK(b.len == 100010 && b.data[100009] == 'b');
	xp_buf_release(&b);

	/* A decompression limit stops a bomb with a clear message. */
	path_of(p, sizeof(p), "a.xplane.pb.gz");
	memset(&err, 0, sizeof(err));
	CHECK_INT(xp_buf_load(p, 50000, &b, &err), XP_ERR_LIMIT);
	CHECK(strstr(err.msg, "--max-input-size") != NULL);
	/* Exactly at the limit is fine. */
	memset(&err, 0, sizeof(err));
	CHECK_INT(xp_buf_load(p, 100000, &b, &err), 0);
	xp_buf_release(&b);

	/* A truncated gzip stream is an error, not a short file. */
	write_file("trunc.gz", g, glen / 2);
	path_of(p, sizeof(p), "trunc.gz");
	memset(&err, 0, sizeof(err));
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
	CHECK(strstr(err.msg, "truncated") != NULL);

	write_file("empty.xplane.pb", "", 0);
	path_of(p, sizeof(p), "empty.xplane.pb");
	memset(&err, 0, sizeof(err));
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
	CHECK(strstr(err.msg, "empty") != NULL);
	free(g);
	free(g2);
	free(cat);
}

static void test_walk(void)
{
	char p[256], q[256];
	struct xp_pathlist l = {0};
	struct xp_err err = {0};
	const char *args[1];

	path_of(p, sizeof(p), "tree/b/run");
	CHECK_INT(system(strcat(strcpy(q, "mkdir -p "), p)), 0);
	path_of(p, sizeof(p), "tree/a");
	mkdir(p, 0755);
	write_file("tree/b/run/host.xplane.pb", "x", 1);
	write_file("tree/a/z.xplane.pb.gz", "x", 1);
	write_file("tree/a/notes.txt", "x", 1);
	/* A symlink back to the top: followed once, never in a loop. */
	path_of(p, sizeof(p), "tree/b/loop");
	path_of(q, sizeof(q), "tree");
	CHECK_INT(symlink(q, p), 0);
	args[0] = q;
	CHECK_INT(xp_pathlist_expand(&l, args, 1, &err), 0);
	CHECK_INT(l.n, 2);
	if (l.n == 2) {
		CHECK(strstr(l.paths[0], "tree/a/z.xplane.pb.gz") != NULL);
		CHECK(strstr(l.paths[1], "tree/b/run/host.xplane.pb") != NULL);
	}
	xp_pathlist_release(&l);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	test_plain_and_gzip();
	test_walk();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return test_done("test_input");
}
