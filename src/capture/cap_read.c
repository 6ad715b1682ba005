/* SPDX-License-Identifier: Apache-2.0 */
#include "cap_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cap_format.h"
#include "cap_layout.h"

/* Records by type, from the counting pass. */
struct counts {
	size_t n[16];
	size_t string_bytes;
};

static const size_t min_len[16] = {
	[CAP_REC_STRING] = CAP_LEN_STRING, [CAP_REC_DEVICE] = CAP_LEN_DEVICE,
	[CAP_REC_KERNEL] = CAP_LEN_KERNEL, [CAP_REC_MEMCPY] = CAP_LEN_MEMCPY,
	[CAP_REC_MEMSET] = CAP_LEN_MEMSET, [CAP_REC_API] = CAP_LEN_API_MIN,
	[CAP_REC_MARKER] = CAP_LEN_MARKER, [CAP_REC_NOTE] = CAP_LEN_NOTE,
	[CAP_REC_DROPPED] = CAP_LEN_DROPPED, [CAP_REC_RANGE] = CAP_LEN_RANGE,
	[CAP_REC_TRAILER] = CAP_LEN_TRAILER,
};

static int known(unsigned t)
{
	return t < 16 && min_len[t] != 0;
}

static int read_header(const unsigned char *b, size_t len, struct cap_file *f, size_t *off,
		       struct xp_err *err)
{
	uint32_t hsize;

	if (len < CAP_MAGIC_LEN || memcmp(b, CAP_MAGIC, CAP_MAGIC_LEN))
		return xp_err_set(err, XP_ERR_FORMAT, "not a capture record file (bad magic)");
	if (len < 16)
		return xp_err_set(err, XP_ERR_FORMAT, "capture record file cut off in its header");
	f->header.version = cap_get32(b + 8);
	hsize = cap_get32(b + 12);
	if (f->header.version != CAP_VERSION)
		return xp_err_set(err, XP_ERR_FORMAT, "capture record file version %u (this reader knows %u)",
				  f->header.version, CAP_VERSION);
	if (hsize < CAP_HEADER_SIZE || hsize > 4096)
		return xp_err_set(err, XP_ERR_FORMAT, "capture record file header size %u is not plausible", hsize);
	if (len < hsize)
		return xp_err_set(err, XP_ERR_FORMAT, "capture record file cut off in its header");
	f->header.pid = cap_get32(b + 16);
	f->header.flags = cap_get32(b + 20);
	f->header.start_wall_ns = cap_get64(b + 24);
	f->header.start_ts = cap_get64(b + 32);
	f->header.cupti_version = cap_get32(b + 40);
	f->header.flush_ms = cap_get32(b + 44);
	*off = hsize;
	return 0;
}

/*
 * Walks the records from off, calling fill (pass 2) or counting (pass 1).
 * Sets the framing facts in f on the counting pass.
 */
static int walk(const unsigned char *b, size_t len, size_t off, struct cap_file *f, struct counts *c,
		int (*fill)(struct cap_file *, unsigned, const unsigned char *, size_t, struct xp_err *),
		struct xp_err *err)
{
	while (off < len) {
		unsigned type;
		uint32_t plen;

		if (len - off < CAP_REC_HEADER) {
			if (!fill)
				f->truncated_bytes = len - off;
			return 0;
		}
		type = cap_get16(b + off);
		plen = cap_get32(b + off + 4);
		if (cap_get16(b + off + 2) != 0 || plen > CAP_MAX_PAYLOAD || type == 0)
			return xp_err_set(err, XP_ERR_FORMAT,
					  "capture record file: bad record header at byte %zu", off);
		if (len - off - CAP_REC_HEADER < plen) {
			if (!fill)
				f->truncated_bytes = len - off;
			return 0;
		}
		off += CAP_REC_HEADER;
		if (fill) {
			int r = fill(f, type, b + off, plen, err);

			if (r)
				return r;
		} else if (!known(type)) {
			f->unknown_records++;
		} else if (plen < min_len[type]) {
			f->short_records++;
		} else {
			c->n[type]++;
			if (type == CAP_REC_STRING || type == CAP_REC_NOTE)
				c->string_bytes += plen - 4 + 1;
		}
		off += plen;
		if (type == CAP_REC_TRAILER && known(type) && plen >= min_len[type]) {
			if (!fill)
				f->after_trailer = len - off;
			return 0;
		}
	}
	return 0;
}

static const char *str_ref(void *ctx, uint32_t id)
{
	struct cap_file *f = ctx;

	if (!id)
		return NULL;
	if (id > f->nstrings_) {
		f->bad_string_refs++;
		return NULL;
	}
	return f->strings_[id];
}

static void see_ts(struct cap_file *f, uint64_t ts)
{
	if (ts > f->last_ts)
		f->last_ts = ts;
}

static int fill_record(struct cap_file *f, unsigned type, const unsigned char *p, size_t plen,
		       struct xp_err *err)
{
	char *s;

	if (!known(type) || plen < min_len[type])
		return 0;
	switch (type) {
	case CAP_REC_STRING:
		if (cap_get32(p) != f->nstrings_ + 1)
			return xp_err_set(err, XP_ERR_FORMAT,
					  "capture record file: string id %u where %zu was due",
					  cap_get32(p), f->nstrings_ + 1);
		s = f->string_pool_;
		memcpy(s, p + 4, plen - 4);
		s[plen - 4] = 0;
		f->string_pool_ += plen - 4 + 1;
		f->strings_[++f->nstrings_] = s;
		break;
	case CAP_REC_DEVICE:
		cap_layout_get(&cap_layout_device, p, &f->devices[f->ndevices++], str_ref, f);
		break;
	case CAP_REC_KERNEL: {
		struct cap_kernel *k = &f->kernels[f->nkernels++];

		cap_layout_get(&cap_layout_kernel, p, k, str_ref, f);
		see_ts(f, k->end);
		break;
	}
	case CAP_REC_MEMCPY: {
		struct cap_memcpy *m = &f->memcpys[f->nmemcpys++];

		cap_layout_get(&cap_layout_memcpy, p, m, str_ref, f);
		see_ts(f, m->end);
		break;
	}
	case CAP_REC_MEMSET: {
		struct cap_memset *m = &f->memsets[f->nmemsets++];

		cap_layout_get(&cap_layout_memset, p, m, str_ref, f);
		see_ts(f, m->end);
		break;
	}
	case CAP_REC_API: {
		struct cap_api *a = &f->apis[f->napis++];
		unsigned char full[CAP_LEN_API] = {0};

		/* an API record written before its kind was appended reads as a driver call */
		if (plen < CAP_LEN_API) {
			memcpy(full, p, plen);
			p = full;
		}
		cap_layout_get(&cap_layout_api, p, a, str_ref, f);
		see_ts(f, a->end);
		break;
	}
	case CAP_REC_MARKER: {
		struct cap_marker *m = &f->markers[f->nmarkers++];

		cap_layout_get(&cap_layout_marker, p, m, str_ref, f);
		see_ts(f, m->ts);
		break;
	}
	case CAP_REC_RANGE: {
		struct cap_range *r = &f->ranges[f->nranges++];

		cap_layout_get(&cap_layout_range, p, r, str_ref, f);
		see_ts(f, r->ts);
		break;
	}
	case CAP_REC_NOTE: {
		struct cap_note *n = &f->notes[f->nnotes++];

		n->warning = cap_get32(p) != 0;
		s = f->string_pool_;
		memcpy(s, p + 4, plen - 4);
		s[plen - 4] = 0;
		f->string_pool_ += plen - 4 + 1;
		n->text = s;
		break;
	}
	case CAP_REC_DROPPED:
		f->dropped += cap_get64(p);
		break;
	case CAP_REC_TRAILER:
		f->complete = 1;
		cap_layout_get(&cap_layout_trailer, p, &f->trailer, str_ref, f);
		if (f->trailer.dropped > f->dropped)
			f->dropped = f->trailer.dropped;
		see_ts(f, f->trailer.end_ts);
		break;
	}
	return 0;
}

#define ALLOC(arr, n) ((n) ? ((arr) = calloc((n), sizeof(*(arr)))) != NULL : 1)

int cap_file_read(const void *buf, size_t len, struct cap_file *f, struct xp_err *err)
{
	const unsigned char *b = buf;
	struct counts c = {0};
	size_t off = 0;
	char *pool = NULL;
	int r;

	memset(f, 0, sizeof(*f));
	r = read_header(b, len, f, &off, err);
	if (r)
		return r;
	r = walk(b, len, off, f, &c, NULL, err);
	if (r)
		return r;
	pool = malloc(c.string_bytes + 1);
	f->strings_ = calloc(c.n[CAP_REC_STRING] + 1, sizeof(*f->strings_));
	if (!pool || !f->strings_ || !ALLOC(f->devices, c.n[CAP_REC_DEVICE]) ||
	    !ALLOC(f->kernels, c.n[CAP_REC_KERNEL]) || !ALLOC(f->memcpys, c.n[CAP_REC_MEMCPY]) ||
	    !ALLOC(f->memsets, c.n[CAP_REC_MEMSET]) || !ALLOC(f->apis, c.n[CAP_REC_API]) ||
	    !ALLOC(f->markers, c.n[CAP_REC_MARKER]) || !ALLOC(f->ranges, c.n[CAP_REC_RANGE]) ||
	    !ALLOC(f->notes, c.n[CAP_REC_NOTE])) {
		free(pool);
		cap_file_release(f);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	/* strings_[0] keeps the pool's start, so release can free it. */
	f->strings_[0] = pool;
	f->string_pool_ = pool;
	f->last_ts = f->header.start_ts;
	r = walk(b, len, off, f, &c, fill_record, err);
	if (r) {
		cap_file_release(f);
		return r;
	}
	return 0;
}

int cap_file_load(const char *path, struct cap_file *f, struct xp_err *err)
{
	FILE *fp = fopen(path, "rb");
	struct stat st;
	unsigned char *buf = NULL;
	size_t n = 0;
	int r;

	memset(f, 0, sizeof(*f));
	if (!fp)
		return xp_err_set(err, XP_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(fp), &st) || st.st_size < 0) {
		r = xp_err_set(err, XP_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		r = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	n = fread(buf, 1, (size_t)st.st_size, fp);
	if (ferror(fp)) {
		r = xp_err_set(err, XP_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	r = cap_file_read(buf, n, f, err);
	if (r && err->msg[0] != '\'') {
		char msg[sizeof(err->msg)];

		memcpy(msg, err->msg, sizeof(msg));
		snprintf(err->msg, sizeof(err->msg), "'%.200s': %.300s", path, msg);
	}
out:
	free(buf);
	fclose(fp);
	return r;
}

void cap_file_release(struct cap_file *f)
{
	if (f->strings_)
		free(f->strings_[0]);
	free(f->strings_);
	free(f->devices);
	free(f->kernels);
	free(f->memcpys);
	free(f->memsets);
	free(f->apis);
	free(f->markers);
	free(f->ranges);
	free(f->notes);
	memset(f, 0, sizeof(*f));
}
