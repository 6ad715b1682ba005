/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_arena.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define XP_ARENA_CHUNK (256 * 1024)

struct xp_arena_chunk {
	struct xp_arena_chunk *next;
	size_t size, used;
	size_t mapped;		/* bytes mapped (a growing block), 0: malloc'd */
	max_align_t data[];
};

static void chunk_free(struct xp_arena_chunk *c)
{
	if (c->mapped)
		munmap(c, c->mapped);
	else
		free(c);
}

void xp_arena_init(struct xp_arena *a)
{
	a->head = NULL;
	a->used_bytes = 0;
}

void xp_arena_release(struct xp_arena *a)
{
	struct xp_arena_chunk *c = a->head;

	while (c) {
		struct xp_arena_chunk *next = c->next;
		chunk_free(c);
		c = next;
	}
	a->head = NULL;
	a->used_bytes = 0;
}

void *xp_arena_alloc(struct xp_arena *a, size_t size)
{
	const size_t align = sizeof(max_align_t);
	struct xp_arena_chunk *c = a->head;
	size_t need = (size + align - 1) & ~(align - 1);
	void *p;

	if (need < size)
		return NULL;
	if (!c || c->size - c->used < need) {
		size_t cap = need > XP_ARENA_CHUNK ? need : XP_ARENA_CHUNK;

		if (cap > SIZE_MAX - sizeof(*c))
			return NULL;
		/* A big block comes zeroed from fresh pages: no second pass to clear it. */
		c = need > XP_ARENA_CHUNK ? calloc(1, sizeof(*c) + cap) : malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		if (need > XP_ARENA_CHUNK)
			xp_hint_huge(c, sizeof(*c) + cap);
		c->size = cap;
		c->used = 0;
		c->mapped = 0;
		/* A big block goes behind the head so the head's free space is kept. */
		if (a->head && need > XP_ARENA_CHUNK) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	p = (char *)c->data + c->used;
	if (c->used || need <= XP_ARENA_CHUNK)
		memset(p, 0, size);
	c->used += need;
	a->used_bytes += need;
	return p;
}

void xp_arena_adopt(struct xp_arena *dst, struct xp_arena *src)
{
	struct xp_arena_chunk *last = src->head;

	if (!last)
		return;
	while (last->next)
		last = last->next;
	/* Behind dst's head, so that the head's free space is kept for dst. */
	if (dst->head) {
		last->next = dst->head->next;
		dst->head->next = src->head;
	} else {
		dst->head = src->head;
	}
	dst->used_bytes += src->used_bytes;
	xp_arena_init(src);
}

/* A growing block is a chunk whose data the caller holds: the header sits before it. */
static struct xp_arena_chunk *block_of(void *data)
{
	return (struct xp_arena_chunk *)((char *)data - offsetof(struct xp_arena_chunk, data));
}

/*
 * A growing block under this many bytes is malloc'd (a mapping per block
 * costs system calls that threads reading many small files contend on);
 * from it on, a mapping of its own, which mremap moves and never copies
 * (realloc copies a block under glibc's mmap threshold, which rises to
 * 32 MB as big blocks are freed).
 */
#define BLOCK_MAP_MIN ((size_t)1 << 20)

void *xp_arena_block_grow(void *data, size_t size)
{
	struct xp_arena_chunk *c = data ? block_of(data) : NULL;
	long ps = sysconf(_SC_PAGESIZE);
	size_t page = ps > 0 ? (size_t)ps : 4096, len;
	void *m;

	if (size > SIZE_MAX - sizeof(*c) - page)
		return NULL;
	if ((!c || !c->mapped) && size < BLOCK_MAP_MIN) {
		c = realloc(c, sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = NULL;
		c->size = c->used = size;
		c->mapped = 0;
		return c->data;
	}
	len = (sizeof(*c) + size + page - 1) & ~(page - 1);
	if (c && len <= c->mapped) {
		c->size = c->used = size;
		return c->data;
	}
	if (c && c->mapped) {
		m = mremap(c, c->mapped, len, MREMAP_MAYMOVE);
	} else {
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED && c) {	/* from malloc to a mapping: copied once */
			memcpy(m, c, sizeof(*c) + c->size);
			free(c);
		}
	}
	if (m == MAP_FAILED)
		return NULL;
	c = m;
	c->next = NULL;
	c->size = c->used = size;
	c->mapped = len;
	xp_hint_huge(c, len);
	return c->data;
}

void xp_arena_block_adopt(struct xp_arena *a, void *data, size_t used)
{
	struct xp_arena_chunk *c = block_of(data);
	long ps = sysconf(_SC_PAGESIZE);
	size_t page = ps > 0 ? (size_t)ps : 4096;

	/* A mapping gives back the pages past what is used (a shrink never moves it). */
	if (c->mapped && used < c->size) {
		size_t len = (sizeof(*c) + used + page - 1) & ~(page - 1);

		if (len < c->mapped && mremap(c, c->mapped, len, 0) != MAP_FAILED)
			c->mapped = len;
		c->size = c->used = used;
	}

	/* Behind the head, so that the head's free space is kept. */
	if (a->head) {
		c->next = a->head->next;
		a->head->next = c;
	} else {
		c->next = NULL;
		a->head = c;
	}
	a->used_bytes += c->size;
}

void xp_arena_block_free(void *data)
{
	if (data)
		chunk_free(block_of(data));
}

char *xp_arena_strndup(struct xp_arena *a, const char *s, size_t len)
{
	char *p = xp_arena_alloc(a, len + 1);

	if (!p)
		return NULL;
	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

int xp_grow(void *arrp, size_t *cap, size_t n, size_t elem, size_t first)
{
	void *a, *na;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : first;
	if (c <= *cap || c > SIZE_MAX / elem)
		return -1;
	/* through memcpy: arrp is a T **, not a void ** */
	memcpy(&a, arrp, sizeof(a));
	na = realloc(a, c * elem);
	if (!na)
		return -1;
	memcpy(arrp, &na, sizeof(na));
	*cap = c;
	xp_hint_huge(na, c * elem);
	return 0;
}

int xp_reserve(void *arrp, size_t *cap, size_t n, size_t k, size_t elem)
{
	void *a, *na;
	size_t want;

	if (k <= *cap - n)
		return 0;
	if (k > SIZE_MAX - n || n + k > SIZE_MAX / elem)
		return -1;
	want = n + k;
	if (*cap <= SIZE_MAX / 2 / elem && 2 * *cap > want)
		want = 2 * *cap;
	memcpy(&a, arrp, sizeof(a));
	na = realloc(a, want * elem);
	if (!na)
		return -1;
	memcpy(arrp, &na, sizeof(na));
	*cap = want;
	return 0;
}

void xp_hint_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	long ps;
	size_t page;
	uintptr_t lo, hi;

	if (n < XP_HUGE_MIN)
		return;
	/* asked each time (big blocks only): no state shared between threads */
	ps = sysconf(_SC_PAGESIZE);
	page = ps > 0 ? (size_t)ps : 4096;
	lo = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	hi = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);	/* a hint: failure changes nothing */
#else
	(void)p;
	(void)n;
#endif
}

void *xp_malloc_big(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = malloc(n * size > 0 ? n * size : 1);
	if (p)
		xp_hint_huge(p, n * size);
	return p;
}

void *xp_calloc_big(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p)
		xp_hint_huge(p, n * size);
	return p;
}

void xp_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}
