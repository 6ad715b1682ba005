/* SPDX-License-Identifier: Apache-2.0 */
#include "cap_layout.h"

#include <string.h>

#include "cap_format.h"
#include "cap_record.h"

#define F(k, type, member) {CAP_FK_##k, 0, (uint16_t)offsetof(type, member)}
#define E(type, member, n) {CAP_FK_ENUM8, (n), (uint16_t)offsetof(type, member)}
#define PAD(n) {CAP_FK_ZERO, (n), 0}
#define LAYOUT(name, rec, fields, strings)                                                     \
	const struct cap_layout name = {CAP_REC_##rec, CAP_LEN_##rec,                          \
					(uint8_t)(sizeof(fields) / sizeof(fields[0])), (strings), \
					fields}

static const struct cap_field device_fields[] = {
	F(U32, struct cap_device, id),
	F(STR, struct cap_device, name),
	F(U32, struct cap_device, cc_major),
	F(U32, struct cap_device, cc_minor),
	F(U32, struct cap_device, sm_count),
	F(U32, struct cap_device, clock_khz),
	F(U64, struct cap_device, mem_size),
	F(U64, struct cap_device, mem_bandwidth),
	F(U32, struct cap_device, warp_size),
	F(U32, struct cap_device, max_warps_per_sm),
	F(U32, struct cap_device, max_blocks_per_sm),
	F(U32, struct cap_device, max_threads_per_block),
	F(U32, struct cap_device, regs_per_sm),
	F(U32, struct cap_device, regs_per_block),
	F(U32, struct cap_device, shmem_per_sm),
	F(U32, struct cap_device, shmem_per_block),
};
LAYOUT(cap_layout_device, DEVICE, device_fields, 1);

static const struct cap_field kernel_fields[] = {
	F(U64, struct cap_kernel, start),
	F(U64, struct cap_kernel, end),
	F(U32, struct cap_kernel, device),
	F(U32, struct cap_kernel, context),
	F(U32, struct cap_kernel, stream),
	F(U32, struct cap_kernel, correlation),
	F(STR, struct cap_kernel, name),
	F(STR, struct cap_kernel, demangled),
	F(U32, struct cap_kernel, grid[0]),
	F(U32, struct cap_kernel, grid[1]),
	F(U32, struct cap_kernel, grid[2]),
	F(U32, struct cap_kernel, block[0]),
	F(U32, struct cap_kernel, block[1]),
	F(U32, struct cap_kernel, block[2]),
	F(U32, struct cap_kernel, regs),
	F(U32, struct cap_kernel, static_shmem),
	F(U32, struct cap_kernel, dynamic_shmem),
	F(U32, struct cap_kernel, graph_id),
	F(U64, struct cap_kernel, graph_node_id),
};
LAYOUT(cap_layout_kernel, KERNEL, kernel_fields, 2);

static const struct cap_field memcpy_fields[] = {
	F(U64, struct cap_memcpy, start),
	F(U64, struct cap_memcpy, end),
	F(U64, struct cap_memcpy, bytes),
	F(U32, struct cap_memcpy, device),
	F(U32, struct cap_memcpy, context),
	F(U32, struct cap_memcpy, stream),
	F(U32, struct cap_memcpy, correlation),
	E(struct cap_memcpy, kind, CAP_COPY_KINDS),
	E(struct cap_memcpy, src_kind, CAP_MEM_KINDS),
	E(struct cap_memcpy, dst_kind, CAP_MEM_KINDS),
	F(BOOL8, struct cap_memcpy, async),
	F(U32, struct cap_memcpy, src_device),
	F(U32, struct cap_memcpy, dst_device),
	F(U32, struct cap_memcpy, graph_id),
	F(U64, struct cap_memcpy, graph_node_id),
};
LAYOUT(cap_layout_memcpy, MEMCPY, memcpy_fields, 0);

static const struct cap_field memset_fields[] = {
	F(U64, struct cap_memset, start),
	F(U64, struct cap_memset, end),
	F(U64, struct cap_memset, bytes),
	F(U32, struct cap_memset, device),
	F(U32, struct cap_memset, context),
	F(U32, struct cap_memset, stream),
	F(U32, struct cap_memset, correlation),
	F(U32, struct cap_memset, value),
	E(struct cap_memset, mem_kind, CAP_MEM_KINDS),
	F(BOOL8, struct cap_memset, async),
	PAD(2),
	F(U32, struct cap_memset, graph_id),
	F(U64, struct cap_memset, graph_node_id),
};
LAYOUT(cap_layout_memset, MEMSET, memset_fields, 0);

static const struct cap_field api_fields[] = {
	F(U64, struct cap_api, start),
	F(U64, struct cap_api, end),
	F(U32, struct cap_api, thread),
	F(U32, struct cap_api, correlation),
	F(U32, struct cap_api, cbid),
	F(U32, struct cap_api, result),
	F(STR, struct cap_api, name),
	E(struct cap_api, kind, CAP_API_KINDS),
	PAD(3),
};
LAYOUT(cap_layout_api, API, api_fields, 1);

static const struct cap_field marker_fields[] = {
	F(U64, struct cap_marker, ts),
	F(U32, struct cap_marker, id),
	F(U32, struct cap_marker, flags),
	F(U32, struct cap_marker, thread),
	F(STR, struct cap_marker, name),
	F(STR, struct cap_marker, domain),
};
LAYOUT(cap_layout_marker, MARKER, marker_fields, 2);

static const struct cap_field range_fields[] = {
	F(U64, struct cap_range, ts),
	F(BOOL32, struct cap_range, start),
};
LAYOUT(cap_layout_range, RANGE, range_fields, 0);

static const struct cap_field trailer_fields[] = {
	F(U64, struct cap_trailer, records),
	F(U64, struct cap_trailer, dropped),
	F(U64, struct cap_trailer, end_ts),
	F(U64, struct cap_trailer, end_wall_ns),
};
LAYOUT(cap_layout_trailer, TRAILER, trailer_fields, 0);

static size_t field_size(const struct cap_field *f)
{
	switch (f->kind) {
	case CAP_FK_U64:
		return 8;
	case CAP_FK_U32:
	case CAP_FK_BOOL32:
	case CAP_FK_STR:
		return 4;
	case CAP_FK_ZERO:
		return f->bound;
	default:
		return 1;
	}
}

size_t cap_layout_size(const struct cap_layout *l)
{
	size_t n = 0, i;

	for (i = 0; i < l->nfields; i++)
		n += field_size(&l->fields[i]);
	return n;
}

size_t cap_layout_strings(const struct cap_layout *l, const void *rec, const char **s)
{
	size_t n = 0, i;

	for (i = 0; i < l->nfields && n < CAP_LAYOUT_MAX_STRINGS; i++)
		if (l->fields[i].kind == CAP_FK_STR)
			memcpy(&s[n++], (const char *)rec + l->fields[i].off, sizeof(*s));
	return n;
}

void cap_layout_put(const struct cap_layout *l, const void *rec, const uint32_t *str_ids, unsigned char *p)
{
	const char *r = rec;
	size_t i;
	uint64_t v64;
	uint32_t v32;

	for (i = 0; i < l->nfields; i++) {
		const struct cap_field *f = &l->fields[i];

		switch (f->kind) {
		case CAP_FK_U64:
			memcpy(&v64, r + f->off, 8);
			cap_put64(p, v64);
			break;
		case CAP_FK_U32:
		case CAP_FK_BOOL32:
			memcpy(&v32, r + f->off, 4);
			cap_put32(p, v32);
			break;
		case CAP_FK_STR:
			cap_put32(p, *str_ids++);
			break;
		case CAP_FK_ZERO:
			memset(p, 0, f->bound);
			break;
		default:
			*p = (unsigned char)r[f->off];
			break;
		}
		p += field_size(f);
	}
}

void cap_layout_get(const struct cap_layout *l, const unsigned char *p, void *rec,
		    const char *(*str)(void *ctx, uint32_t id), void *ctx)
{
	char *r = rec;
	size_t i;
	uint64_t v64;
	uint32_t v32;
	uint8_t v8;
	const char *s;

	for (i = 0; i < l->nfields; i++) {
		const struct cap_field *f = &l->fields[i];

		switch (f->kind) {
		case CAP_FK_U64:
			v64 = cap_get64(p);
			memcpy(r + f->off, &v64, 8);
			break;
		case CAP_FK_U32:
		case CAP_FK_BOOL32:
			v32 = cap_get32(p);
			if (f->kind == CAP_FK_BOOL32)
				v32 = v32 != 0;
			memcpy(r + f->off, &v32, 4);
			break;
		case CAP_FK_STR:
			s = str(ctx, cap_get32(p));
			memcpy(r + f->off, &s, sizeof(s));
			break;
		case CAP_FK_ENUM8:
			v8 = *p < f->bound ? *p : 0;
			memcpy(r + f->off, &v8, 1);
			break;
		case CAP_FK_BOOL8:
			v8 = *p != 0;
			memcpy(r + f->off, &v8, 1);
			break;
		default:
			break;
		}
		p += field_size(f);
	}
}
