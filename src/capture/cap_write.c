/* SPDX-License-Identifier: Apache-2.0 */
#include "cap_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_format.h"
#include "cap_layout.h"

#define FLUSH_AT (1u << 20)

struct cap_str_slot {
	uint64_t hash;
	char *s;		/* NULL: empty slot */
	size_t len;
	uint32_t id;
};

static uint64_t hash_str(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static int fail(struct cap_writer *w, int e)
{
	if (!w->err)
		w->err = e;
	return w->err;
}

/* Room for n more bytes in the buffer; returns where they go, or NULL. */
static unsigned char *reserve(struct cap_writer *w, size_t n)
{
	if (w->err)
		return NULL;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 64 * 1024;
		unsigned char *nb;

		while (cap < w->len + n)
			cap *= 2;
		nb = realloc(w->buf, cap);
		if (!nb) {
			fail(w, -ENOMEM);
			return NULL;
		}
		w->buf = nb;
		w->cap = cap;
	}
	w->len += n;
	return w->buf + w->len - n;
}

/* Starts a record of type t with a payload of len bytes; returns the payload. */
static unsigned char *record(struct cap_writer *w, unsigned t, size_t len)
{
	unsigned char *p;

	if (len > CAP_MAX_PAYLOAD) {
		fail(w, -EOVERFLOW);
		return NULL;
	}
	p = reserve(w, CAP_REC_HEADER + len);
	if (!p)
		return NULL;
	cap_put16(p, (uint16_t)t);
	cap_put16(p + 2, 0);
	cap_put32(p + 4, (uint32_t)len);
	w->records++;
	return p + CAP_REC_HEADER;
}

static int grow_slots(struct cap_writer *w)
{
	size_t n = w->nslots ? w->nslots * 2 : 256, i;
	struct cap_str_slot *ns = calloc(n, sizeof(*ns));

	if (!ns)
		return fail(w, -ENOMEM);
	for (i = 0; i < w->nslots; i++) {
		struct cap_str_slot *o = &w->slots[i];
		size_t j;

		if (!o->s)
			continue;
		for (j = o->hash & (n - 1); ns[j].s; j = (j + 1) & (n - 1))
			;
		ns[j] = *o;
	}
	free(w->slots);
	w->slots = ns;
	w->nslots = n;
	return 0;
}

/* The id of string s, writing its record first if it is new; 0 for NULL. */
static uint32_t string_id(struct cap_writer *w, const char *s)
{
	size_t len, j;
	uint64_t h;
	unsigned char *p;
	struct cap_str_slot *slot;

	if (!s || w->err)
		return 0;
	len = strlen(s);
	if (len > CAP_MAX_PAYLOAD - CAP_LEN_STRING)
		len = CAP_MAX_PAYLOAD - CAP_LEN_STRING;	/* a name this long is cut, not fatal */
	h = hash_str(s, len);
	if ((w->nstrings + 1) * 2 > w->nslots && grow_slots(w))
		return 0;
	for (j = h & (w->nslots - 1); w->slots[j].s; j = (j + 1) & (w->nslots - 1)) {
		slot = &w->slots[j];
		if (slot->hash == h && slot->len == len && !memcmp(slot->s, s, len))
			return slot->id;
	}
	slot = &w->slots[j];
	slot->s = malloc(len + 1);
	if (!slot->s) {
		fail(w, -ENOMEM);
		return 0;
	}
	memcpy(slot->s, s, len);
	slot->s[len] = 0;
	slot->len = len;
	slot->hash = h;
	slot->id = (uint32_t)++w->nstrings;
	p = record(w, CAP_REC_STRING, CAP_LEN_STRING + len);
	if (!p)
		return 0;
	cap_put32(p, slot->id);
	memcpy(p + 4, s, len);
	return slot->id;
}

int cap_writer_open(struct cap_writer *w, int fd, const struct cap_header *h)
{
	unsigned char *p;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	p = reserve(w, CAP_HEADER_SIZE);
	if (!p)
		return w->err;
	memset(p, 0, CAP_HEADER_SIZE);
	memcpy(p, CAP_MAGIC, CAP_MAGIC_LEN);
	cap_put32(p + 8, CAP_VERSION);
	cap_put32(p + 12, CAP_HEADER_SIZE);
	cap_put32(p + 16, h->pid);
	cap_put32(p + 20, h->flags);
	cap_put64(p + 24, h->start_wall_ns);
	cap_put64(p + 32, h->start_ts);
	cap_put32(p + 40, h->cupti_version);
	cap_put32(p + 44, h->flush_ms);
	return 0;
}

/* After a record: flush when the buffer is large. */
static int done(struct cap_writer *w)
{
	if (w->err)
		return w->err;
	return w->len >= FLUSH_AT ? cap_writer_flush(w) : 0;
}

/* A fixed-layout record: its new strings first (each before the record that uses it), then the record. */
static int put(struct cap_writer *w, const struct cap_layout *l, const void *rec)
{
	const char *s[CAP_LAYOUT_MAX_STRINGS];
	uint32_t ids[CAP_LAYOUT_MAX_STRINGS];
	size_t n = cap_layout_strings(l, rec, s), i;
	unsigned char *p;

	for (i = 0; i < n; i++)
		ids[i] = string_id(w, s[i]);
	p = record(w, l->type, l->len);
	if (!p)
		return w->err;
	cap_layout_put(l, rec, ids, p);
	return done(w);
}

int cap_writer_device(struct cap_writer *w, const struct cap_device *d)
{
	return put(w, &cap_layout_device, d);
}

int cap_writer_kernel(struct cap_writer *w, const struct cap_kernel *k)
{
	return put(w, &cap_layout_kernel, k);
}

int cap_writer_memcpy(struct cap_writer *w, const struct cap_memcpy *m)
{
	return put(w, &cap_layout_memcpy, m);
}

int cap_writer_memset(struct cap_writer *w, const struct cap_memset *m)
{
	return put(w, &cap_layout_memset, m);
}

int cap_writer_api(struct cap_writer *w, const struct cap_api *a)
{
	return put(w, &cap_layout_api, a);
}

int cap_writer_marker(struct cap_writer *w, const struct cap_marker *m)
{
	return put(w, &cap_layout_marker, m);
}

int cap_writer_range(struct cap_writer *w, const struct cap_range *r)
{
	return put(w, &cap_layout_range, r);
}

int cap_writer_note(struct cap_writer *w, const struct cap_note *n)
{
	size_t len = n->text ? strlen(n->text) : 0;
	unsigned char *p;

	if (len > 4096)
		len = 4096;
	p = record(w, CAP_REC_NOTE, CAP_LEN_NOTE + len);
	if (!p)
		return w->err;
	cap_put32(p, n->warning);
	if (len)
		memcpy(p + 4, n->text, len);
	return done(w);
}

int cap_writer_dropped(struct cap_writer *w, uint64_t count)
{
	unsigned char *p = record(w, CAP_REC_DROPPED, CAP_LEN_DROPPED);

	if (!p)
		return w->err;
	cap_put64(p, count);
	return done(w);
}

int cap_writer_flush(struct cap_writer *w)
{
	size_t off = 0;

	if (w->err)
		return w->err;
	while (off < w->len) {
		ssize_t n = write(w->fd, w->buf + off, w->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail(w, n < 0 ? -errno : -EIO);
		off += (size_t)n;
	}
	w->len = 0;
	return 0;
}

int cap_writer_finish(struct cap_writer *w, struct cap_trailer *t)
{
	t->records = w->records;
	return put(w, &cap_layout_trailer, t) ? w->err : cap_writer_flush(w);
}

void cap_writer_release(struct cap_writer *w)
{
	size_t i;

	for (i = 0; i < w->nslots; i++)
		free(w->slots[i].s);
	free(w->slots);
	free(w->buf);
	w->slots = NULL;
	w->buf = NULL;
	w->nslots = w->nstrings = w->len = w->cap = 0;
}
