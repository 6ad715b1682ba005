#include "cap_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_format.h"

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
	return 0;
}

/* After a record: flush when the buffer is large. */
static int done(struct cap_writer *w)
{
	if (w->err)
		return w->err;
	return w->len >= FLUSH_AT ? cap_writer_flush(w) : 0;
}

int cap_writer_device(struct cap_writer *w, const struct cap_device *d)
{
	uint32_t name = string_id(w, d->name);
	unsigned char *p = record(w, CAP_REC_DEVICE, CAP_LEN_DEVICE);

	if (!p)
		return w->err;
	cap_put32(p, d->id);
	cap_put32(p + 4, name);
	cap_put32(p + 8, d->cc_major);
	cap_put32(p + 12, d->cc_minor);
	cap_put32(p + 16, d->sm_count);
	cap_put32(p + 20, d->clock_khz);
	cap_put64(p + 24, d->mem_size);
	cap_put64(p + 32, d->mem_bandwidth);
	cap_put32(p + 40, d->warp_size);
	cap_put32(p + 44, d->max_warps_per_sm);
	cap_put32(p + 48, d->max_blocks_per_sm);
	cap_put32(p + 52, d->max_threads_per_block);
	cap_put32(p + 56, d->regs_per_sm);
	cap_put32(p + 60, d->regs_per_block);
	cap_put32(p + 64, d->shmem_per_sm);
	cap_put32(p + 68, d->shmem_per_block);
	return done(w);
}

int cap_writer_kernel(struct cap_writer *w, const struct cap_kernel *k)
{
	uint32_t name = string_id(w, k->name), dem = string_id(w, k->demangled);
	unsigned char *p = record(w, CAP_REC_KERNEL, CAP_LEN_KERNEL);
	int i;

	if (!p)
		return w->err;
	cap_put64(p, k->start);
	cap_put64(p + 8, k->end);
	cap_put32(p + 16, k->device);
	cap_put32(p + 20, k->context);
	cap_put32(p + 24, k->stream);
	cap_put32(p + 28, k->correlation);
	cap_put32(p + 32, name);
	cap_put32(p + 36, dem);
	for (i = 0; i < 3; i++) {
		cap_put32(p + 40 + 4 * i, (uint32_t)k->grid[i]);
		cap_put32(p + 52 + 4 * i, (uint32_t)k->block[i]);
	}
	cap_put32(p + 64, k->regs);
	cap_put32(p + 68, k->static_shmem);
	cap_put32(p + 72, k->dynamic_shmem);
	cap_put32(p + 76, k->graph_id);
	cap_put64(p + 80, k->graph_node_id);
	return done(w);
}

int cap_writer_memcpy(struct cap_writer *w, const struct cap_memcpy *m)
{
	unsigned char *p = record(w, CAP_REC_MEMCPY, CAP_LEN_MEMCPY);

	if (!p)
		return w->err;
	cap_put64(p, m->start);
	cap_put64(p + 8, m->end);
	cap_put64(p + 16, m->bytes);
	cap_put32(p + 24, m->device);
	cap_put32(p + 28, m->context);
	cap_put32(p + 32, m->stream);
	cap_put32(p + 36, m->correlation);
	p[40] = m->kind;
	p[41] = m->src_kind;
	p[42] = m->dst_kind;
	p[43] = m->async;
	cap_put32(p + 44, m->src_device);
	cap_put32(p + 48, m->dst_device);
	cap_put32(p + 52, m->graph_id);
	cap_put64(p + 56, m->graph_node_id);
	return done(w);
}

int cap_writer_memset(struct cap_writer *w, const struct cap_memset *m)
{
	unsigned char *p = record(w, CAP_REC_MEMSET, CAP_LEN_MEMSET);

	if (!p)
		return w->err;
	cap_put64(p, m->start);
	cap_put64(p + 8, m->end);
	cap_put64(p + 16, m->bytes);
	cap_put32(p + 24, m->device);
	cap_put32(p + 28, m->context);
	cap_put32(p + 32, m->stream);
	cap_put32(p + 36, m->correlation);
	cap_put32(p + 40, m->value);
	p[44] = m->mem_kind;
	p[45] = m->async;
	p[46] = p[47] = 0;
	cap_put32(p + 48, m->graph_id);
	cap_put64(p + 52, m->graph_node_id);
	return done(w);
}

int cap_writer_api(struct cap_writer *w, const struct cap_api *a)
{
	uint32_t name = string_id(w, a->name);
	unsigned char *p = record(w, CAP_REC_API, CAP_LEN_API);

	if (!p)
		return w->err;
	cap_put64(p, a->start);
	cap_put64(p + 8, a->end);
	cap_put32(p + 16, a->thread);
	cap_put32(p + 20, a->correlation);
	cap_put32(p + 24, a->cbid);
	cap_put32(p + 28, a->result);
	cap_put32(p + 32, name);
	return done(w);
}

int cap_writer_marker(struct cap_writer *w, const struct cap_marker *m)
{
	uint32_t name = string_id(w, m->name), dom = string_id(w, m->domain);
	unsigned char *p = record(w, CAP_REC_MARKER, CAP_LEN_MARKER);

	if (!p)
		return w->err;
	cap_put64(p, m->ts);
	cap_put32(p + 8, m->id);
	cap_put32(p + 12, m->flags);
	cap_put32(p + 16, m->thread);
	cap_put32(p + 20, name);
	cap_put32(p + 24, dom);
	return done(w);
}

int cap_writer_range(struct cap_writer *w, const struct cap_range *r)
{
	unsigned char *p = record(w, CAP_REC_RANGE, CAP_LEN_RANGE);

	if (!p)
		return w->err;
	cap_put64(p, r->ts);
	cap_put32(p + 8, r->start);
	return done(w);
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
	unsigned char *p;

	t->records = w->records;
	p = record(w, CAP_REC_TRAILER, CAP_LEN_TRAILER);
	if (!p)
		return w->err;
	cap_put64(p, t->records);
	cap_put64(p + 8, t->dropped);
	cap_put64(p + 16, t->end_ts);
	cap_put64(p + 24, t->end_wall_ns);
	return cap_writer_flush(w);
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
