/* SPDX-License-Identifier: Apache-2.0 */
/* Decoding a module's xla.HloProto (protobuf-c) into the plain structs of xp_hlo.h. */
#include "xp_hlo.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.pb-c.h"
#include "xp_sat.h"
#include "xp_sort.h"

/* A varint at *p before end; 0 past it, -1 malformed. */
static int hlo_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned shift;

	*v = 0;
	for (shift = 0; shift < 64 && *p < end; shift += 7) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* What the walk before decoding found wrong. */
enum { WALK_OK, WALK_MALFORMED, WALK_DEEP, WALK_LARGE };

/*
 * Walks a message's fields, following into the fields of the path that
 * nest (the declared message fields that can recurse), counting
 * instructions in *ninstrs: malformed wire, a tuple shape nested past
 * XP_HLO_MAX_DEPTH, or more than XP_HLO_MAX_INSTRUCTIONS instructions.
 * level: 0 HloProto, 1 module, 2 computation, 3 instruction, 4 and more a shape.
 */
struct walk_counts {
	size_t instrs, comps, shapes;
};

static int hlo_walk(const uint8_t *p, const uint8_t *end, int level, struct walk_counts *n)
{
	while (p < end) {
		uint64_t key, len;
		uint32_t field, type;
		int r;

		if (hlo_varint(&p, end, &key))
			return WALK_MALFORMED;
		field = (uint32_t)(key >> 3);
		type = key & 7;
		switch (type) {
		case 0:
			if (hlo_varint(&p, end, &len))
				return WALK_MALFORMED;
			break;
		case 1:
			if (end - p < 8)
				return WALK_MALFORMED;
			p += 8;
			break;
		case 5:
			if (end - p < 4)
				return WALK_MALFORMED;
			p += 4;
			break;
		case 2: {
			int next = -1;

			if (hlo_varint(&p, end, &len) || len > (uint64_t)(end - p))
				return WALK_MALFORMED;
			if ((level == 0 && field == 1) || (level == 1 && field == 3) || (level == 2 && field == 2) ||
			    (level == 3 && field == 3) || (level >= 4 && field == 4))
				next = level + 1;
			if ((next == 2 && ++n->comps > XP_HLO_MAX_COMPUTATIONS) ||
			    (next == 3 && ++n->instrs > XP_HLO_MAX_INSTRUCTIONS) ||
			    (next >= 5 && ++n->shapes > XP_HLO_MAX_SHAPES))
				return WALK_LARGE;
			if (next > 4 + XP_HLO_MAX_DEPTH)
				return WALK_DEEP;
			if (next > 0 && (r = hlo_walk(p, p + len, next, n)))
				return r;
			p += len;
			break;
		}
		default:
			return WALK_MALFORMED;	/* groups: never written by XLA */
		}
	}
	return WALK_OK;
}

static const char *keep_str(struct xp_arena *a, const char *s)
{
	return s && *s ? xp_arena_strndup(a, s, strlen(s)) : "";
}

static int keep_shape(struct xp_arena *a, const Xla__ShapeProto *in, struct xp_hlo_shape *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!in)
		return 0;
	out->type = in->element_type;
	if (in->n_dimensions > UINT32_MAX || in->n_tuple_shapes > UINT32_MAX)
		return -1;
	if (in->n_dimensions) {
		int64_t *d = xp_arena_alloc(a, in->n_dimensions * sizeof(*d));

		if (!d)
			return -1;
		memcpy(d, in->dimensions, in->n_dimensions * sizeof(*d));
		out->dims = d;
		out->ndims = (uint32_t)in->n_dimensions;
	}
	if (in->n_tuple_shapes) {
		struct xp_hlo_shape *t = xp_arena_alloc(a, in->n_tuple_shapes * sizeof(*t));

		if (!t)
			return -1;
		for (i = 0; i < in->n_tuple_shapes; i++)
			if (keep_shape(a, in->tuple_shapes[i], &t[i]))
				return -1;
		out->tuple = t;
		out->ntuple = (uint32_t)in->n_tuple_shapes;
	}
	return 0;
}

/* Elements of an array shape (a tuple: of its parts), 0 with *ok cleared past 2^64-1. */
static uint64_t shape_elements(const struct xp_hlo_shape *s, int *ok)
{
	uint64_t n = 1;
	uint32_t i;

	if (s->ntuple) {
		n = 0;
		for (i = 0; i < s->ntuple; i++)
			if (xp_sat_add_to_u64(&n, shape_elements(&s->tuple[i], ok)))
				*ok = 0;
		return n;
	}
	for (i = 0; i < s->ndims; i++) {
		uint64_t d = s->dims[i] < 0 ? 0 : (uint64_t)s->dims[i];

		if (d && n > UINT64_MAX / d) {
			*ok = 0;
			return 0;
		}
		n *= d;
	}
	return n;
}

/* Bytes of a shape: its parts' elements times their types' sizes. */
static uint64_t shape_bytes(const struct xp_hlo_shape *s, int *ok)
{
	uint64_t n = 0, e;
	unsigned b;
	uint32_t i;

	if (s->ntuple) {
		for (i = 0; i < s->ntuple; i++)
			if (xp_sat_add_to_u64(&n, shape_bytes(&s->tuple[i], ok)))
				*ok = 0;
		return n;
	}
	b = xp_hlo_type_bytes(s->type);
	e = shape_elements(s, ok);
	if (b && e > UINT64_MAX / b) {
		*ok = 0;
		return 0;
	}
	return e * b;
}

uint64_t xp_hlo_shape_elements(const struct xp_hlo_shape *s, int *ok)
{
	return shape_elements(s, ok);
}

uint64_t xp_hlo_shape_bytes(const struct xp_hlo_shape *s, int *ok)
{
	return shape_bytes(s, ok);
}

static const int64_t *keep_i64(struct xp_arena *a, const int64_t *v, size_t n)
{
	int64_t *d;

	if (!n)
		return NULL;
	if (!(d = xp_arena_alloc(a, n * sizeof(*d))))
		return NULL;
	memcpy(d, v, n * sizeof(*d));
	return d;
}

/* The metadata's source line, else its innermost stack frame's (ids 1-based; one naming nothing is counted). */
static void source_of(struct xp_hlo_module *m, const Xla__OpMetadata *md, const Xla__StackFrameIndexProto *sf,
		      const char **file, int32_t *line)
{
	*file = "";
	*line = 0;
	if (!md)
		return;
	if (md->source_file && *md->source_file) {
		*file = md->source_file;
		*line = md->source_line;
		return;
	}
	if (md->stack_frame_id <= 0)
		return;
	if (sf && (size_t)md->stack_frame_id <= sf->n_stack_frames) {
		const Xla__StackFrameIndexProto__StackFrame *fr = sf->stack_frames[md->stack_frame_id - 1];
		int32_t l = fr->file_location_id;

		if (l > 0 && (size_t)l <= sf->n_file_locations) {
			const Xla__StackFrameIndexProto__FileLocation *fl = sf->file_locations[l - 1];

			if (fl->file_name_id > 0 && (size_t)fl->file_name_id <= sf->n_file_names) {
				*file = sf->file_names[fl->file_name_id - 1];
				*line = fl->line;
				return;
			}
		}
	}
	m->bad_refs++;
}

struct hlo_by_id {
	int64_t id;
	size_t i;
};

struct hlo_by_name {
	const char *name;
	size_t i;
};

static int by_name_cmp(const void *a, const void *b)
{
	const struct hlo_by_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : xp_cmp_u64(x->i, y->i);
}

/* The index kept for id in v (n entries sorted by id, ids unique), or SIZE_MAX. */
static size_t find_id(const struct hlo_by_id *v, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].id == id ? v[lo].i : SIZE_MAX;
}

static size_t instr_of_id(const struct xp_hlo_module *m, int64_t id)
{
	return find_id(m->by_id_, m->nids_, id);
}

static size_t comp_of_id(const struct xp_hlo_module *m, int64_t id)
{
	return find_id(m->comp_by_id_, m->ncomp_ids_, id);
}

/* Copies one instruction's own fields (references resolved later, once every id is known). */
static int keep_instr(struct xp_hlo_module *m, const Xla__HloInstructionProto *in, const Xla__StackFrameIndexProto *sf,
		      size_t comp, struct xp_hlo_instr *out)
{
	struct xp_arena *a = &m->arena_;
	const Xla__OpMetadata *md = in->metadata;
	const char *file;
	int32_t line;
	size_t k;

	out->name = keep_str(a, in->name);
	out->opcode = keep_str(a, in->opcode);
	out->id = in->id;
	out->comp = comp;
	out->op_name = keep_str(a, md ? md->op_name : NULL);
	out->op_type = keep_str(a, md ? md->op_type : NULL);
	source_of(m, md, sf, &file, &line);
	out->source_file = keep_str(a, file);
	out->source_line = line;
	out->fusion_kind = keep_str(a, in->fusion_kind);
	out->custom_call_target = keep_str(a, in->custom_call_target);
	out->parameter_number = in->parameter_number;
	out->tuple_index = in->tuple_index;
	out->conv_kernel_out_dim = in->convolution_dimension_numbers ?
				   in->convolution_dimension_numbers->kernel_output_feature_dimension : -1;
	out->feature_group_count = in->feature_group_count;
	out->batch_group_count = in->batch_group_count;
	out->backend_config = "";
	if (in->backend_config.len) {
		char *c = xp_arena_strndup(a, (const char *)in->backend_config.data, in->backend_config.len);

		if (!c)
			return -1;
		out->backend_config = c;
		out->backend_config_len = in->backend_config.len;
	}
	if (!out->name || !out->opcode || !out->op_name || !out->op_type || !out->source_file || !out->fusion_kind ||
	    !out->custom_call_target || keep_shape(a, in->shape, &out->shape))
		return -1;
	out->shape_bytes_ok = 1;
	out->shape_bytes = shape_bytes(&out->shape, &out->shape_bytes_ok);
	if (in->n_dimensions && !(out->dims = keep_i64(a, in->dimensions, in->n_dimensions)))
		return -1;
	out->ndims = in->n_dimensions;
	if (in->dot_dimension_numbers) {
		const Xla__DotDimensionNumbers *d = in->dot_dimension_numbers;
		const int64_t *v[4] = {d->lhs_contracting_dimensions, d->rhs_contracting_dimensions,
				       d->lhs_batch_dimensions, d->rhs_batch_dimensions};
		size_t n[4] = {d->n_lhs_contracting_dimensions, d->n_rhs_contracting_dimensions,
			       d->n_lhs_batch_dimensions, d->n_rhs_batch_dimensions};

		out->has_dot = 1;
		for (k = 0; k < 4; k++) {
			if (n[k] && !(out->dot[k] = keep_i64(a, v[k], n[k])))
				return -1;
			out->ndot[k] = n[k];
		}
	}
	return 0;
}

/* Operands and called computations as indexes; ids that name nothing left out and counted. */
static int resolve_refs(struct xp_hlo_module *m, const Xla__HloInstructionProto *in, struct xp_hlo_instr *out)
{
	size_t k, n = 0;

	if (in->n_operand_ids) {
		size_t *ops = xp_arena_alloc(&m->arena_, in->n_operand_ids * sizeof(*ops));

		if (!ops)
			return -1;
		for (k = 0; k < in->n_operand_ids; k++) {
			size_t j = instr_of_id(m, in->operand_ids[k]);

			if (j == SIZE_MAX)
				m->bad_refs++;
			else
				ops[n++] = j;
		}
		out->operands = ops;
		out->noperands = n;
	}
	if (in->n_called_computation_ids) {
		size_t *c = xp_arena_alloc(&m->arena_, in->n_called_computation_ids * sizeof(*c));

		if (!c)
			return -1;
		for (k = n = 0; k < in->n_called_computation_ids; k++) {
			size_t j = comp_of_id(m, in->called_computation_ids[k]);

			if (j == SIZE_MAX) {
				m->bad_refs++;
				continue;
			}
			c[n++] = j;
			if (!strcmp(out->opcode, "fusion"))
				m->comps[j].fusion = 1;
		}
		out->called = c;
		out->ncalled = n;
	}
	return 0;
}

/* The lookups by id and by name; of equal ids or names the first instruction is kept, the others counted. */
static int index_module(struct xp_hlo_module *m)
{
	size_t i, k;

	if (m->ncomps) {	/* computations by id: the first of equal ids */
		if (!(m->comp_by_id_ = malloc(m->ncomps * sizeof(*m->comp_by_id_))))
			return -1;
		for (i = 0; i < m->ncomps; i++) {
			m->comp_by_id_[i].id = m->comps[i].id;
			m->comp_by_id_[i].i = i;
		}
		if (xp_sort_by_i64(m->comp_by_id_, m->ncomps, sizeof(*m->comp_by_id_), offsetof(struct hlo_by_id, id)))
			return -1;
		for (i = k = 0; i < m->ncomps; i++)
			if (!k || m->comp_by_id_[i].id != m->comp_by_id_[k - 1].id)
				m->comp_by_id_[k++] = m->comp_by_id_[i];
		m->ncomp_ids_ = k;
	}
	if (!m->ninstrs)
		return 0;
	if (!(m->by_id_ = malloc(m->ninstrs * sizeof(*m->by_id_))) ||
	    !(m->by_name_ = malloc(m->ninstrs * sizeof(*m->by_name_))))
		return -1;
	for (i = 0; i < m->ninstrs; i++) {
		m->by_id_[i].id = m->instrs[i].id;
		m->by_id_[i].i = i;
		m->by_name_[i].name = m->instrs[i].name;
		m->by_name_[i].i = i;
	}
	if (xp_sort_by_i64(m->by_id_, m->ninstrs, sizeof(*m->by_id_), offsetof(struct hlo_by_id, id)))
		return -1;
	for (i = k = 0; i < m->ninstrs; i++) {
		if (k && m->by_id_[i].id == m->by_id_[k - 1].id)	/* stable: the earlier is kept */
			m->dup_ids++;
		else
			m->by_id_[k++] = m->by_id_[i];
	}
	m->nids_ = k;
	qsort(m->by_name_, m->ninstrs, sizeof(*m->by_name_), by_name_cmp);
	for (i = k = 0; i < m->ninstrs; i++) {
		if (k && !strcmp(m->by_name_[i].name, m->by_name_[k - 1].name))
			m->dup_names++;
		else
			m->by_name_[k++] = m->by_name_[i];
	}
	m->nnames_ = k;
	return 0;
}

int xp_hlo_decode(const void *buf, size_t len, struct xp_hlo_module **out, struct xp_err *err)
{
	Xla__HloProto *pb = NULL;
	const Xla__HloModuleProto *mp;
	struct xp_hlo_module *m = NULL;
	size_t i, j, n, k;
	struct walk_counts counts = {0, 0, 0};
	int ret = XP_ERR_NOMEM;

	*out = NULL;
	switch (hlo_walk(buf, (const uint8_t *)buf + len, 0, &counts)) {
	case WALK_MALFORMED:
		ret = xp_err_set(err, XP_ERR_FORMAT, "not a valid xla.HloProto (malformed)");
		goto out;
	case WALK_DEEP:
		ret = xp_err_set(err, XP_ERR_FORMAT, "an xla.HloProto with tuple shapes nested more than %d deep",
				 XP_HLO_MAX_DEPTH);
		goto out;
	case WALK_LARGE:
		ret = xp_err_set(err, XP_ERR_LIMIT, "an xla.HloProto of more than %d instructions, %d computations "
				 "or %d tuple parts", XP_HLO_MAX_INSTRUCTIONS, XP_HLO_MAX_COMPUTATIONS, XP_HLO_MAX_SHAPES);
		goto out;
	}
	if (!(pb = xla__hlo_proto__unpack(NULL, len, buf))) {
		ret = xp_err_set(err, XP_ERR_FORMAT, "not a valid xla.HloProto");
		goto out;
	}
	if (!(mp = pb->hlo_module)) {
		ret = xp_err_set(err, XP_ERR_FORMAT, "an xla.HloProto without a module");
		goto out;
	}
	if (!(m = calloc(1, sizeof(*m))))
		goto nomem;
	xp_arena_init(&m->arena_);
	m->name = keep_str(&m->arena_, mp->name);
	m->entry_name = keep_str(&m->arena_, mp->entry_computation_name);
	m->id = mp->id;
	m->entry_id = mp->entry_computation_id;
	for (i = n = 0; i < mp->n_computations; i++)
		n += mp->computations[i]->n_instructions;
	m->ncomps = mp->n_computations;
	m->comps = mp->n_computations ? xp_arena_alloc(&m->arena_, mp->n_computations * sizeof(*m->comps)) : NULL;
	m->instrs = n ? xp_arena_alloc(&m->arena_, n * sizeof(*m->instrs)) : NULL;
	if (!m->name || !m->entry_name || (m->ncomps && !m->comps) || (n && !m->instrs))
		goto nomem;
	m->entry = m->ncomps;
	for (i = k = 0; i < mp->n_computations; i++) {
		const Xla__HloComputationProto *cp = mp->computations[i];
		struct xp_hlo_comp *c = &m->comps[i];

		if (!(c->name = keep_str(&m->arena_, cp->name)))
			goto nomem;
		c->id = cp->id;
		c->root_id = cp->root_id;
		c->first = k;
		c->n = cp->n_instructions;
		if (m->entry == m->ncomps && ((m->entry_id && c->id == m->entry_id) ||
					      (!m->entry_id && *m->entry_name && !strcmp(c->name, m->entry_name))))
			m->entry = i;
		for (j = 0; j < cp->n_instructions; j++, k++) {
			if (keep_instr(m, cp->instructions[j], mp->stack_frame_index, i, &m->instrs[k]))
				goto nomem;
			if (!strcmp(m->instrs[k].opcode, "fusion"))
				m->nfusions++;
		}
	}
	m->ninstrs = n;
	if (index_module(m))
		goto nomem;
	for (i = k = 0; i < mp->n_computations; i++)
		for (j = 0; j < mp->computations[i]->n_instructions; j++, k++)
			if (resolve_refs(m, mp->computations[i]->instructions[j], &m->instrs[k]))
				goto nomem;
	*out = m;
	m = NULL;
	ret = 0;
	goto out;
nomem:
	ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	xp_hlo_free(m);
	if (pb)
		xla__hlo_proto__free_unpacked(pb, NULL);
	return ret;
}

void xp_hlo_free(struct xp_hlo_module *m)
{
	if (!m)
		return;
	free(m->by_name_);
	free(m->by_id_);
	free(m->comp_by_id_);
	xp_arena_release(&m->arena_);
	free(m);
}

const struct xp_hlo_instr *xp_hlo_instr_named(const struct xp_hlo_module *m, const char *name)
{
	size_t lo = 0, hi = m->nnames_;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->by_name_[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nnames_ && !strcmp(m->by_name_[lo].name, name) ? &m->instrs[m->by_name_[lo].i] : NULL;
}

const char *xp_hlo_type_name(int32_t type)
{
	static const char *const names[] = {
		[1] = "pred", [2] = "s8", [3] = "s16", [4] = "s32", [5] = "s64", [6] = "u8", [7] = "u16",
		[8] = "u32", [9] = "u64", [10] = "f16", [11] = "f32", [12] = "f64", [13] = "tuple",
		[14] = "opaque", [15] = "c64", [16] = "bf16", [17] = "token", [18] = "c128", [19] = "f8e5m2",
		[20] = "f8e4m3fn", [21] = "s4", [22] = "u4", [23] = "f8e4m3b11fnuz", [24] = "f8e5m2fnuz",
		[25] = "f8e4m3fnuz", [26] = "s2", [27] = "u2", [28] = "f8e4m3", [29] = "f8e3m4", [30] = "s1",
		[31] = "u1", [32] = "f4e2m1fn", [33] = "f8e8m0fnu", [34] = "buffer",
	};

	return type > 0 && (size_t)type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

unsigned xp_hlo_type_bytes(int32_t type)
{
	switch (type) {
	case 1: case 2: case 6: case 19: case 20: case 21: case 22: case 23: case 24: case 25: case 26: case 27:
	case 28: case 29: case 30: case 31: case 32: case 33:
		return 1;	/* pred, 8-bit and narrower types: a byte each, as XLA rounds sub-byte arrays */
	case 3: case 7: case 10: case 16:
		return 2;
	case 4: case 8: case 11:
		return 4;
	case 5: case 9: case 12: case 15:
		return 8;
	case 18:
		return 16;
	default:
		return 0;
	}
}
