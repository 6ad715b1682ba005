/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "xp_arena.h"
#include "xp_guard.h"
#include "xp_hmap.h"

/* Files up to this size are mapped with their pages populated at once. */
#define XP_POPULATE_MAX ((off_t)64 << 20)

static int read_all_fd(int fd, uint64_t max_size, unsigned char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);

	if (!buf)
		return XP_ERR_NOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			unsigned char *nb;

			if ((uint64_t)cap >= max_size + 1) {
				free(buf);
				return XP_ERR_LIMIT;
			}
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return XP_ERR_NOMEM;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return XP_ERR_IO;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if ((uint64_t)n > max_size) {
			free(buf);
			return XP_ERR_LIMIT;
		}
	}
	*out = buf;
	*len = n;
	return 0;
}

/*
 * The inflated bytes: a buffer that grows, never past max + 1 bytes (one
 * more than allowed tells "too big" from "exactly at the limit").
 */
struct gz_out {
	unsigned char *buf;
	size_t n, cap;
	uint64_t max;
};

/* Doubles the room, up to max + 1 bytes; XP_ERR_LIMIT when it is that already. */
static int gz_grow(struct gz_out *o)
{
	unsigned char *nb;
	size_t cap;

	if ((uint64_t)o->cap > o->max)
		return XP_ERR_LIMIT;
	if (o->cap > SIZE_MAX / 2)
		return XP_ERR_NOMEM;
	cap = (uint64_t)o->cap * 2 > o->max + 1 ? (size_t)o->max + 1 : o->cap * 2;
	nb = realloc(o->buf, cap);
	if (!nb)
		return XP_ERR_NOMEM;
	o->buf = nb;
	o->cap = cap;
	xp_hint_huge(nb, cap);
	return 0;
}

static int gz_limit(struct xp_err *err, const char *path, uint64_t max)
{
	return xp_err_set(err, XP_ERR_LIMIT, "'%s': decompresses to more than %" PRIu64 " bytes "
			  "(--max-input-size raises the limit)", path, max);
}

static int gz_grow_or_fail(struct gz_out *o, struct xp_err *err, const char *path)
{
	int r = gz_grow(o);

	if (r == XP_ERR_LIMIT)
		return gz_limit(err, path, o->max);
	return r ? xp_err_set(err, r, "out of memory") : 0;
}

/*
 * Page faults beside the inflater: a thread asks the kernel to map the
 * compressed input's pages and the output's room ahead of it
 * (MADV_POPULATE_READ / _WRITE, Linux 5.14; where refused, nothing is done
 * and the inflater faults them itself). The kernel maps pages without
 * changing their bytes, so the inflater writing the same room meanwhile is
 * safe. Only for big buffers: a thread costs more than a small one's faults.
 * No more than PREFAULT_RATIO times the compressed bytes: the room comes from
 * the trailer's size, which a file can lie about (within 1032 times its
 * size), and memory populated is memory taken; profiles deflate 3-6 times.
 */
#define PREFAULT_MIN ((size_t)16 << 20)
#define PREFAULT_RATIO 16

struct prefault {
	const unsigned char *in;
	size_t in_len;
	unsigned char *out;
	size_t out_len;
	pthread_t thread;
	int started;
};

static void populate(const void *p, size_t n, int advice)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;
	uintptr_t lo = (uintptr_t)p & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);

	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, advice);	/* spares faults only */
}

static void *prefault_run(void *arg)
{
	struct prefault *f = arg;

#if defined(MADV_POPULATE_READ) && defined(MADV_POPULATE_WRITE)
	populate(f->in, f->in_len, MADV_POPULATE_READ);
	populate(f->out, f->out_len, MADV_POPULATE_WRITE);
#endif
	return NULL;
}

static void prefault_start(struct prefault *f, const unsigned char *in, size_t in_len,
			   unsigned char *out, size_t out_len)
{
	memset(f, 0, sizeof(*f));
	if (out_len < PREFAULT_MIN)
		return;
	f->in = in;
	f->in_len = in_len;
	f->out = out;
	f->out_len = out_len / PREFAULT_RATIO > in_len ? in_len * PREFAULT_RATIO : out_len;
	f->started = !pthread_create(&f->thread, NULL, prefault_run, f);
}

/* Before the room moves or goes: the thread is done with it. */
static void prefault_join(struct prefault *f)
{
	if (f->started)
		pthread_join(f->thread, NULL);
	f->started = 0;
}

/* Inflates with zlib the one gzip member at *pos, appending to o; *pos moves past it. */
static int zlib_member(z_stream *zs, const unsigned char *in, size_t in_len, size_t *pos,
		       struct gz_out *o, struct xp_err *err, const char *path)
{
	int zr;

	if (inflateReset(zs) != Z_OK)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	zs->next_in = (unsigned char *)in + *pos;
	for (;;) {
		size_t chunk = in_len - (size_t)(zs->next_in - in);
		int r;

		if (o->n == o->cap && (r = gz_grow_or_fail(o, err, path)))
			return r;
		zs->avail_in = chunk > UINT32_MAX ? UINT32_MAX : (uInt)chunk;
		zs->next_out = o->buf + o->n;
		zs->avail_out = o->cap - o->n > UINT32_MAX ? UINT32_MAX : (uInt)(o->cap - o->n);
		zr = inflate(zs, Z_NO_FLUSH);
		o->n = (size_t)(zs->next_out - o->buf);
		if (zr == Z_STREAM_END) {
			*pos = (size_t)(zs->next_in - in);
			return 0;
		}
		if ((uint64_t)o->n > o->max)
			return gz_limit(err, path, o->max);
		if (zr == Z_BUF_ERROR && zs->avail_out != 0)
			return xp_err_set(err, XP_ERR_FORMAT, "'%s': truncated gzip stream", path);
		if (zr != Z_OK && zr != Z_BUF_ERROR)
			return xp_err_set(err, XP_ERR_FORMAT, "'%s': corrupt gzip data (%s)", path,
					  zs->msg ? zs->msg : "inflate failed");
	}
}

/*
 * Inflates gzip (concatenated members too) into a heap buffer of at most
 * max_size bytes.
 *
 * libdeflate inflates a whole member at a time, about twice as fast as
 * zlib, but only into room given up front, and it says nothing of a member
 * it cannot take but "bad data". So zlib stays for the rest: a member
 * libdeflate rejects is inflated again by zlib, whose verdict stands and
 * whose message (truncated, which check failed) the user sees; a member
 * with a header CRC (FHCRC, which libdeflate skips unchecked) and whatever
 * follows a member without the gzip magic go to zlib directly, which takes
 * gzip only: bytes after a member are another member or an error, as for
 * gzip -d and the fuzz harness's gzread (a zlib stream there was once
 * inflated too, through zlib's automatic detection). A member that
 * overflows its room is inflated again into twice the room, up to the limit.
 * Standard input is read whole before this, so it needs no streaming either.
 */
static int inflate_gzip(const unsigned char *in, size_t in_len, uint64_t max_size,
			unsigned char **out, size_t *out_len, struct xp_err *err, const char *path)
{
	struct gz_out o = {.cap = in_len * 4 + 4096, .max = max_size};
	struct libdeflate_decompressor *d = NULL;
	struct prefault pf = {0};
	z_stream zs;
	int zs_live = 0, ret = 0;
	size_t pos = 0;

	/*
	 * The gzip trailer holds the size mod 2^32 (of the last member only): a
	 * hint that spares the copies of growing the buffer, when it is plausible:
	 * deflate expands at most 1032 times, so a cut or corrupt stream cannot
	 * make a small file allocate gigabytes up front. libdeflate needs it most:
	 * too little room costs it the member's work again.
	 */
	if (in_len >= 18) {
		const unsigned char *t = in + in_len - 4;
		size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;

		if (isize >= in_len && isize < (size_t)UINT32_MAX && isize / 1032 <= in_len)
			o.cap = isize + 1;
	}
	if ((uint64_t)o.cap > max_size + 1)
		o.cap = (size_t)max_size + 1;
	memset(&zs, 0, sizeof(zs));
	o.buf = malloc(o.cap);
	d = libdeflate_alloc_decompressor();
	if (!o.buf || !d) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	xp_hint_huge(o.buf, o.cap);
	prefault_start(&pf, in, in_len, o.buf, o.cap);
	while (pos < in_len) {
		const unsigned char *m = in + pos;
		size_t left = in_len - pos, used_in = 0, used_out = 0;
		enum libdeflate_result r = LIBDEFLATE_BAD_DATA;

		if (left >= 4 && m[0] == 0x1f && m[1] == 0x8b && !(m[3] & 0x02))
			r = libdeflate_gzip_decompress_ex(d, m, left, o.buf + o.n, o.cap - o.n,
							  &used_in, &used_out);
		if (r == LIBDEFLATE_SUCCESS) {
			o.n += used_out;
			pos += used_in;
			if ((uint64_t)o.n > max_size) {
				ret = gz_limit(err, path, max_size);
				goto out;
			}
		} else if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
			prefault_join(&pf);
			ret = gz_grow_or_fail(&o, err, path);
			if (ret)
				goto out;
		} else {
			if (!zs_live && inflateInit2(&zs, 15 + 16) != Z_OK) {
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
				goto out;
			}
			zs_live = 1;
			prefault_join(&pf);	/* zlib grows the room as it goes */
			ret = zlib_member(&zs, in, in_len, &pos, &o, err, path);
			if (ret)
				goto out;
		}
	}
out:
	prefault_join(&pf);
	if (zs_live)
		inflateEnd(&zs);
	libdeflate_free_decompressor(d);
	if (ret) {
		free(o.buf);
		return ret;
	}
	*out = o.buf;
	*out_len = o.n;
	return 0;
}

int xp_buf_load(const char *path, uint64_t max_size, struct xp_buf *b, struct xp_err *err)
{
	int is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int ret = 0;

	memset(b, 0, sizeof(*b));
	/* Past 2^62 bytes is no limit at all; it keeps max_size + 1 from wrapping. */
	if (max_size > (uint64_t)1 << 62)
		max_size = (uint64_t)1 << 62;
	if (fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOMEM))
		/* this process ran out, not the input: an error of the run, not a file to skip */
		return xp_err_set(err, XP_ERR_NOMEM, "cannot open '%s': %s (a limit of this process or system, "
				  "not the input's fault)", path, strerror(errno));
	if (fd < 0)
		return xp_err_set(err, XP_ERR_IO, "'%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = xp_err_set(err, XP_ERR_IO, "'%s': %s", path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = xp_err_set(err, XP_ERR_IO, "'%s': %s", path, strerror(EISDIR));
		goto out;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		/*
		 * A small file is read whole: map it in one go rather than a page
		 * fault at a time. A large one is left to fault in what is read,
		 * as lazy planes read only part of it.
		 */
		int populate = st.st_size <= XP_POPULATE_MAX ? MAP_POPULATE : 0;
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | populate, fd, 0);

		if (m == MAP_FAILED) {
			ret = xp_err_set(err, XP_ERR_IO, "'%s': %s", path, strerror(errno));
			goto out;
		}
		b->map_ = m;
		b->map_len_ = (size_t)st.st_size;
		b->guard_ = xp_guard_add(m, b->map_len_);
		b->data = m;
		b->len = (size_t)st.st_size;
		b->mapped = 1;
	} else {
		int r = read_all_fd(fd, max_size, &b->heap_, &b->len);

		if (r == XP_ERR_LIMIT)
			ret = xp_err_set(err, r, "'%s': more than %" PRIu64 " bytes "
					 "(--max-input-size raises the limit)", path, max_size);
		else if (r)
			ret = xp_err_set(err, r, "'%s': %s", path,
					 r == XP_ERR_NOMEM ? "out of memory" : strerror(errno));
		if (ret)
			goto out;
		b->data = b->heap_;
	}
	if (b->len == 0) {
		ret = xp_err_set(err, XP_ERR_FORMAT, "'%s': empty file", path);
		goto out;
	}
	if (b->len >= 2 && b->data[0] == 0x1f && b->data[1] == 0x8b) {
		unsigned char *plain = NULL;
		size_t plain_len = 0;

		ret = inflate_gzip(b->data, b->len, max_size, &plain, &plain_len, err, path);
		/* zeros inflated where the file shrank: whatever came of them is not the file's */
		if (xp_buf_changed(b)) {
			free(plain);
			ret = xp_buf_check(b, path, err);
		}
		if (ret)
			goto out;
		xp_buf_release(b);
		b->heap_ = plain;
		b->data = plain;
		b->len = plain_len;
		b->compressed = 1;
		if (!plain_len)
			ret = xp_err_set(err, XP_ERR_FORMAT, "'%s': empty after decompression", path);
	}
out:
	if (!is_stdin)
		close(fd);
	if (ret)
		xp_buf_release(b);
	return ret;
}

void xp_buf_release(struct xp_buf *b)
{
	xp_guard_remove(b->guard_);	/* first: the range may be mapped again by anyone */
	if (b->map_)
		munmap(b->map_, b->map_len_);
	free(b->heap_);
	memset(b, 0, sizeof(*b));
}

int xp_buf_changed(const struct xp_buf *b)
{
	return xp_guard_changed(b->guard_);
}

int xp_buf_check(const struct xp_buf *b, const char *path, struct xp_err *err)
{
	if (!xp_buf_changed(b))
		return 0;
	/* the first error set may be what the zeros made: this one is the cause */
	if (err)
		err->code = 0;
	return xp_err_set(err, XP_ERR_IO, "'%s': " XP_CHANGED_MSG, path);
}

static int push_path(struct xp_pathlist *l, const char *p)
{
	if (xp_grow(&l->paths, &l->cap, l->n, sizeof(*l->paths), 16))
		return XP_ERR_NOMEM;
	l->paths[l->n] = strdup(p);
	if (!l->paths[l->n])
		return XP_ERR_NOMEM;
	l->n++;
	return 0;
}

/* Records the file st describes; 1 if it was listed before, -1 out of memory. */
static int seen_file(struct xp_pathlist *l, const struct stat *st)
{
	char key[48];
	size_t v = 0;
	int r;

	snprintf(key, sizeof(key), "%ju:%ju", (uintmax_t)st->st_dev, (uintmax_t)st->st_ino);
	r = xp_hmap_get_or_put(&l->ids_, key, &v);
	return r < 0 ? -1 : r;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directories on the path from the walk's root, to skip symlink loops. */
struct dir_stack {
	dev_t dev[64];
	ino_t ino[64];
	int depth;
};

static int walk_dir(struct xp_pathlist *l, const char *dir, struct dir_stack *ds, struct xp_err *err)
{
	DIR *d;
	struct dirent *de;
	struct xp_pathlist names = {0};
	struct stat st;
	size_t i;
	int k, ret = 0;

	if (stat(dir, &st) < 0)
		return xp_err_set(err, XP_ERR_IO, "'%s': %s", dir, strerror(errno));
	for (k = 0; k < ds->depth; k++)
		if (ds->dev[k] == st.st_dev && ds->ino[k] == st.st_ino)
			return 0;	/* a symlink back to an enclosing directory */
	if (ds->depth == 64)
		return xp_err_set(err, XP_ERR_LIMIT, "'%s': directories nested over 64 deep", dir);
	ds->dev[ds->depth] = st.st_dev;
	ds->ino[ds->depth] = st.st_ino;
	ds->depth++;
	d = opendir(dir);
	if (!d) {
		ret = xp_err_set(err, XP_ERR_IO, "'%s': %s", dir, strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (push_path(&names, de->d_name)) {
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			goto out;
		}
	}
	if (names.n > 1)	/* qsort(NULL, 0) is undefined */
		qsort(names.paths, names.n, sizeof(char *), cmp_str);
	for (i = 0; i < names.n && !ret; i++) {
		size_t len = strlen(dir) + strlen(names.paths[i]) + 2;
		char *full = malloc(len);

		if (!full) {
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			break;
		}
		snprintf(full, len, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", names.paths[i]);
		if (stat(full, &st) < 0) {
			if (errno != ENOENT)	/* a dangling symlink is not an input */
				ret = xp_err_set(err, XP_ERR_IO, "'%s': %s", full, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk_dir(l, full, ds, err);
		} else if (ends_with(full, ".xplane.pb") || ends_with(full, ".xplane.pb.gz")) {
			int seen = S_ISREG(st.st_mode) ? seen_file(l, &st) : 0;

			if (!S_ISREG(st.st_mode))	/* opening a FIFO with no writer blocks */
				ret = xp_err_set(err, XP_ERR_IO, "'%s': not a regular file (give it by name "
						 "to read it)", full);
			else if (seen > 0)
				l->duplicates++;
			else if (seen < 0 || push_path(l, full))
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		}
		free(full);
	}
out:
	if (d)
		closedir(d);
	xp_pathlist_release(&names);
	ds->depth--;
	return ret;
}

int xp_pathlist_expand(struct xp_pathlist *l, const char *const *args, size_t nargs,
		       struct xp_err *err)
{
	size_t i, stdin_given = 0;
	int ret;

	for (i = 0; i < nargs; i++) {
		struct stat st;

		/* Standard input can be read once: a second "-" would get nothing, or half. */
		if (!strcmp(args[i], "-") && stdin_given++)
			return xp_err_set(err, XP_ERR_USAGE, "'-' (standard input) is given more than once");

		if (strcmp(args[i], "-") && stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			struct dir_stack ds = {.depth = 0};
			size_t before = l->n, dups = l->duplicates;

			ret = walk_dir(l, args[i], &ds, err);
			if (ret)
				return ret;
			if (l->n == before && l->duplicates == dups)
				return xp_err_set(err, XP_ERR_IO,
						  "'%s': no *.xplane.pb or *.xplane.pb.gz files in this directory",
						  args[i]);
			continue;
		}
		if ((strcmp(args[i], "-") && stat(args[i], &st) == 0 && S_ISREG(st.st_mode) &&
		     seen_file(l, &st) < 0) || push_path(l, args[i]))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	return 0;
}

void xp_pathlist_release(struct xp_pathlist *l)
{
	xp_strv_free(l->paths, l->n);
	xp_hmap_release(&l->ids_);
	memset(l, 0, sizeof(*l));
}
