/* SPDX-License-Identifier: Apache-2.0 */
/* xp_input: plain and gzip loading, limits, truncation, directory walks with symlink loops. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* in as one gzip member; with hcrc, its header carries a CRC (FHCRC). */
static unsigned char *gzip_mem(const void *in, size_t len, int hcrc, size_t *out_len)
{
	z_stream zs = {0};
	gz_header h = {0};
	unsigned char *out;
	size_t cap;

	deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	h.hcrc = hcrc;
	h.os = 3;
	deflateSetHeader(&zs, &h);
	cap = deflateBound(&zs, len) + 64;
	out = malloc(cap);
	zs.next_in = (unsigned char *)in;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*out_len = zs.total_out;
	deflateEnd(&zs);
	return out;
}

/* A gzip member of `len` copies of byte c. */
static unsigned char *gzip_of(int c, size_t len, size_t *out_len)
{
	unsigned char *in = malloc(len ? len : 1), *out;

	memset(in, c, len);
	out = gzip_mem(in, len, 0, out_len);
	free(in);
	return out;
}

/* Writes the bytes as a file and loads it. */
static int load_bytes(const char *name, const void *data, size_t len, uint64_t max, struct xp_buf *b,
		      struct xp_err *err)
{
	char p[256];

	write_file(name, data, len);
	path_of(p, sizeof(p), name);
	memset(err, 0, sizeof(*err));
	return xp_buf_load(p, max, b, err);
}

/* The bytes of a and b one after the other; *n is their length. */
static unsigned char *concat(const void *a, size_t na, const void *b, size_t nb, size_t *n)
{
	unsigned char *p = malloc(na + nb);

	memcpy(p, a, na);
	memcpy(p + na, b, nb);
	*n = na + nb;
	return p;
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

/*
 * Members whose sizes the trailer does not give: the last member's size
 * (all the trailer holds) is a plausible hint but too small for the whole,
 * so the first member overflows its room twice and the second once; the
 * bytes must come out whole and in order.
 */
static void test_gzip_members(void)
{
	struct xp_buf b;
	struct xp_err err = {0};
	size_t na = 3000000, nb = 1000000, ga, gb, ge, gs, n, i;
	unsigned char *a = malloc(na), *za, *zb, *ze, *zs, *cat, *cat3;
	uint32_t x = 12345;

	for (i = 0; i < na; i++) {	/* 2 bits a byte: deflate gets it to about a quarter */
		x = x * 1103515245u + 12345u;
		a[i] = (unsigned char)("ACGT"[x >> 30]);
	}
	za = gzip_mem(a, na, 0, &ga);
	zb = gzip_of('b', nb, &gb);
	cat = concat(za, ga, zb, gb, &n);
	/* the hint the code takes: b's size, at least the file's and within 1032 times it */
	CHECK(nb >= n && nb / 1032 <= n);
	CHECK_INT(load_bytes("ab.gz", cat, n, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK_INT(b.len, na + nb);
	CHECK(b.len == na + nb && !memcmp(b.data, a, na) && b.data[na] == 'b' && b.data[na + nb - 1] == 'b');
	xp_buf_release(&b);
	/* The limit counts every member: one byte over it is refused, at it is fine. */
	CHECK_INT(load_bytes("ab.gz", cat, n, na + nb - 1, &b, &err), XP_ERR_LIMIT);
	CHECK(strstr(err.msg, "decompresses to more than 3999999 bytes") != NULL);
	CHECK_INT(load_bytes("ab.gz", cat, n, na + nb, &b, &err), 0);
	xp_buf_release(&b);
	CHECK_INT(load_bytes("ab.gz", cat, n, na + 10, &b, &err), XP_ERR_LIMIT);
	free(cat);

	/* An empty member between two is nothing; an empty member alone is an empty input. */
	ze = gzip_of(0, 0, &ge);
	zs = gzip_of('s', 10, &gs);
	cat = concat(zs, gs, ze, ge, &n);
	cat3 = concat(cat, n, zs, gs, &n);
	CHECK_INT(load_bytes("s0s.gz", cat3, n, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK(b.len == 20 && b.data[0] == 's' && b.data[19] == 's');
	xp_buf_release(&b);
	CHECK_INT(load_bytes("0.gz", ze, ge, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
	CHECK(strstr(err.msg, "empty after decompression") != NULL);
	free(cat);
	free(cat3);

	/* After a good member, a bad one is named as zlib names it. */
	cat = concat(zs, gs, "\x1f\x8b\x07\x00\x00\x00\x00\x00\x00\x03xxxxxxxxxx", 20, &n);
	CHECK_INT(load_bytes("s_bad.gz", cat, n, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
	CHECK(strstr(err.msg, "corrupt gzip data (unknown compression method)") != NULL);
	free(cat);
	{	/* a zlib stream is not a gzip member: trailing garbage, as gzip -d says */
		unsigned char z[64];
		uLongf zlen = sizeof(z);

		CHECK_INT(compress(z, &zlen, (const unsigned char *)"zlib", 4), Z_OK);
		cat = concat(zs, gs, z, zlen, &n);
		CHECK_INT(load_bytes("s_zlib.gz", cat, n, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
		CHECK(strstr(err.msg, "corrupt gzip data (incorrect header check)") != NULL);
		free(cat);
	}
	cat = concat(zs, gs, "\x1f\x8b", 2, &n);
	CHECK_INT(load_bytes("s_cut.gz", cat, n, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
	CHECK(strstr(err.msg, "truncated gzip stream") != NULL);
	free(cat);
	free(a);
	free(za);
	free(zb);
	free(ze);
	free(zs);
}

/*
 * Big enough for the page-fault thread beside the inflater (16 MiB of room
 * and more): a big member, then one with a header CRC (zlib inflates it, so
 * the thread is joined first) and a small one whose trailer's size is no use,
 * so the room grows; the bytes come out whole and in order.
 */
static void test_gzip_big_members(void)
{
	struct xp_buf b;
	struct xp_err err = {0};
	size_t na = 24000000, ga, gh, gb, n, n2, i;
	unsigned char *a = malloc(na), *za, *zh, *zb, *cat, *cat3;
	uint32_t x = 777;

	/* a period of 4093 random letters (quick to deflate), each MiB stamped with its place */
	for (i = 0; i < na; i++) {
		x = x * 1103515245u + 12345u;
		a[i] = i < 4093 ? (unsigned char)("ACGT"[x >> 30]) : a[i - 4093];
	}
	for (i = 0; i + 8 <= na; i += (size_t)1 << 20)
		memcpy(a + i, &i, 8);
	za = gzip_mem(a, na, 0, &ga);
	CHECK(na / 1032 <= ga);	/* the trailer's size is a plausible hint: 24 MB of room */
	zh = gzip_mem("tail", 4, 1, &gh);
	zb = gzip_of('b', 10, &gb);
	cat = concat(za, ga, zh, gh, &n);
	cat3 = concat(cat, n, zb, gb, &n2);
	CHECK_INT(load_bytes("big.gz", za, ga, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK(b.len == na && !memcmp(b.data, a, na));
	xp_buf_release(&b);
	CHECK_INT(load_bytes("big3.gz", cat3, n2, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK_INT(b.len, na + 14);
	CHECK(b.len == na + 14 && !memcmp(b.data, a, na) && !memcmp(b.data + na, "tail", 4) &&
	      b.data[na + 4] == 'b' && b.data[na + 13] == 'b');
	xp_buf_release(&b);
	/* the limit still holds with the thread running */
	CHECK_INT(load_bytes("big3.gz", cat3, n2, na - 1, &b, &err), XP_ERR_LIMIT);
	free(a);
	free(za);
	free(zh);
	free(zb);
	free(cat);
	free(cat3);
}

/* A trailer whose size lies (4 bytes anyone can edit) is corrupt data, whatever room it asks for. */
static void test_gzip_lying_size(void)
{
	static const uint32_t lies[] = {99999, 100001, 1000000, 1, 0xfffffffeu};
	struct xp_buf b;
	struct xp_err err = {0};
	size_t glen, i;
	unsigned char *g = gzip_of('a', 100000, &glen);

	for (i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		unsigned char *t = g + glen - 4;

		t[0] = (unsigned char)lies[i];
		t[1] = (unsigned char)(lies[i] >> 8);
		t[2] = (unsigned char)(lies[i] >> 16);
		t[3] = (unsigned char)(lies[i] >> 24);
		CHECK_INT(load_bytes("lie.gz", g, glen, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
		CHECK(strstr(err.msg, "corrupt gzip data (incorrect length check)") != NULL);
		/* under a limit the true size passes, the limit is what it hits */
		CHECK_INT(load_bytes("lie.gz", g, glen, 50000, &b, &err), XP_ERR_LIMIT);
	}
	free(g);
	{	/* 1 MB of noise claiming 1 GB: the room asked is address space, not memory taken */
		size_t n = 1 << 20;
		unsigned char *a = malloc(n), *t;
		uint32_t x = 99;
		pid_t pid;
		int st = -1;

		for (i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			a[i] = (unsigned char)(x >> 24);
		}
		g = gzip_mem(a, n, 0, &glen);
		t = g + glen - 4;
		t[0] = 0, t[1] = 0, t[2] = 0, t[3] = 0x40;	/* 2^30 */
		write_file("lie_big.gz", g, glen);
		pid = fork();
		if (pid == 0) {
			struct rusage before, after;
			char p[256];
			int r;

			path_of(p, sizeof(p), "lie_big.gz");
			getrusage(RUSAGE_SELF, &before);
			r = xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err);
			getrusage(RUSAGE_SELF, &after);
			/* AddressSanitizer writes the shadow of all the room: an eighth of it */
#if defined(__SANITIZE_ADDRESS__)
			long most = 256 << 10;
#else
			long most = 64 << 10;
#endif

			if (r != XP_ERR_FORMAT || after.ru_maxrss - before.ru_maxrss > most) {
				fprintf(stderr, "lie_big: %d, peak RSS grew by %ld KB\n", r,
					after.ru_maxrss - before.ru_maxrss);
				_exit(1);
			}
			_exit(0);
		}
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		free(a);
		free(g);
	}
}

/* A header CRC (FHCRC) is checked: libdeflate would skip it. */
static void test_gzip_header_crc(void)
{
	struct xp_buf b;
	struct xp_err err = {0};
	size_t glen;
	unsigned char *g = gzip_mem("header crc", 10, 1, &glen);

	CHECK(glen > 12 && (g[3] & 0x02));
	CHECK_INT(load_bytes("hcrc.gz", g, glen, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK(b.len == 10 && !memcmp(b.data, "header crc", 10));
	xp_buf_release(&b);
	g[10] ^= 1;	/* the CRC16 after the 10-byte header */
	CHECK_INT(load_bytes("hcrc.gz", g, glen, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_FORMAT);
	CHECK(strstr(err.msg, "corrupt gzip data (header crc mismatch)") != NULL);
	free(g);
}

/*
 * A bomb is refused before its bytes are held: 256 MiB of zeros in 256 KB,
 * loaded under a 1 MiB limit by a child process, must raise the child's
 * peak resident memory by far less than the bomb (the room never grows past
 * the limit; the trailer asks for 256 MiB and gets 1 MiB + 1).
 */
static void test_gzip_bomb_memory(void)
{
	static unsigned char zeros[1 << 20];
	unsigned char *g = malloc(1 << 20);
	z_stream zs = {0};
	size_t i;
	pid_t pid;
	int st = -1;

	deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_RLE);
	zs.next_out = g;
	zs.avail_out = 1 << 20;
	for (i = 0; i < 256; i++) {
		zs.next_in = zeros;
		zs.avail_in = sizeof(zeros);
		deflate(&zs, i == 255 ? Z_FINISH : Z_NO_FLUSH);
	}
	CHECK(zs.avail_in == 0 && zs.total_out < (1 << 20));
	write_file("bomb.gz", g, zs.total_out);
	deflateEnd(&zs);
	free(g);
	pid = fork();
	if (pid == 0) {
		struct rusage before, after;
		struct xp_buf b;
		struct xp_err err = {0};
		char p[256];
		int r;

		path_of(p, sizeof(p), "bomb.gz");
		getrusage(RUSAGE_SELF, &before);
		r = xp_buf_load(p, 1 << 20, &b, &err);
		getrusage(RUSAGE_SELF, &after);
		if (r != XP_ERR_LIMIT) {
			fprintf(stderr, "bomb: %d '%s'\n", r, err.msg);
			_exit(1);
		}
		if (after.ru_maxrss - before.ru_maxrss > 32 << 10) {	/* KB */
			fprintf(stderr, "bomb: peak RSS grew by %ld KB\n", after.ru_maxrss - before.ru_maxrss);
			_exit(1);
		}
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
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

/* No file descriptor left: the process's limit, not the input's fault (XP_ERR_NOMEM, exit 1, not 3). */
static void test_no_descriptors(void)
{
	char p[256];
	struct xp_buf b;
	struct xp_err err = {0};
	int fds[4096], n = 0, i;

	struct rlimit old, low;

	write_file("fd.xplane.pb", "\x0a\x00", 2);
	path_of(p, sizeof(p), "fd.xplane.pb");
	/* a limit of 256 descriptors, all taken */
	CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
	low = old;
	low.rlim_cur = 256;
	CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
	while (n < (int)(sizeof(fds) / sizeof(fds[0])) && (fds[n] = dup(0)) >= 0)
		n++;
	CHECK(n < 256);
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), XP_ERR_NOMEM);
	CHECK(strstr(err.msg, "not the input's fault") != NULL);
	for (i = 0; i < n; i++)
		close(fds[i]);
	CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
	memset(&err, 0, sizeof(err));
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	xp_buf_release(&b);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	test_plain_and_gzip();
	test_gzip_members();
	test_gzip_big_members();
	test_gzip_lying_size();
	test_gzip_header_crc();
	test_gzip_bomb_memory();
	test_walk();
	test_no_descriptors();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return test_done("test_input");
}
