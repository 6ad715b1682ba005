/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HLO decoder (xp_hlo) and its lookups (an_hlo) on modules built here
 * with protobuf-c's encoder: every field read back, references resolved,
 * source lines from metadata and from stack frames, and hostile input
 * (ids naming nothing, repeated names, shapes nested too deep, every cut of
 * a valid encoding, garbage) refused or counted, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_cost.h"
#include "an_hlo.h"
#include "hlo.pb-c.h"
#include "test.h"
#include "xp_hlo.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static Xla__ShapeProto *shape(int32_t type, size_t nd, const int64_t *dims)
{
	Xla__ShapeProto *s = calloc(1, sizeof(*s));

	xla__shape_proto__init(s);
	s->element_type = type;
	s->n_dimensions = nd;
	s->dimensions = (int64_t *)dims;
	return s;
}

static Xla__OpMetadata *meta(const char *op_name, const char *file, int32_t line, int32_t frame)
{
	Xla__OpMetadata *m = calloc(1, sizeof(*m));

	xla__op_metadata__init(m);
	m->op_name = (char *)op_name;
	if (file)
		m->source_file = (char *)file;
	m->source_line = line;
	m->stack_frame_id = frame;
	return m;
}

static Xla__HloInstructionProto *instr(const char *name, const char *opcode, int64_t id, Xla__ShapeProto *sh)
{
	Xla__HloInstructionProto *i = calloc(1, sizeof(*i));

	xla__hlo_instruction_proto__init(i);
	i->name = (char *)name;
	i->opcode = (char *)opcode;
	i->id = id;
	i->shape = sh;
	return i;
}

/*
 * The module every test starts from:
 *   fused_computation (id 1): p0 f32[4,8] (id 10), c f32[] (id 11), ROOT add (id 12, op_name jit(f)/layer/add)
 *   main (id 2, entry): a bf16[4,16] (id 20), b bf16[16,8] (id 21),
 *     dot f32[4,8] (id 22: contracting {1} x {0}, source by stack frame 2 -> model.py:7),
 *     ROOT fusion.1 (id 23, kLoop, calls 1, source by metadata: train.py:42)
 */
static const int64_t d48[] = {4, 8}, d416[] = {4, 16}, d168[] = {16, 8};
static const int64_t ops_add[] = {10, 11}, ops_dot[] = {20, 21}, ops_fusion[] = {22}, calls_fusion[] = {1};
static const int64_t lc[] = {1}, rc[] = {0};

struct built {
	Xla__HloProto hp;
	Xla__HloModuleProto mp;
	Xla__HloComputationProto comp[2], *compp[2];
	Xla__HloInstructionProto *fused[3], *main_[4];
	Xla__DotDimensionNumbers dn;
	Xla__StackFrameIndexProto sf;
	Xla__StackFrameIndexProto__FileLocation loc[2], *locp[2];
	Xla__StackFrameIndexProto__StackFrame fr[2], *frp[2];
	char *files[2], *funcs[1];
};

static void build(struct built *b)
{
	size_t k;

	memset(b, 0, sizeof(*b));
	xla__hlo_proto__init(&b->hp);
	xla__hlo_module_proto__init(&b->mp);
	b->mp.name = "jit_f";
	b->mp.entry_computation_name = "main";
	b->mp.entry_computation_id = 2;
	b->mp.id = 7;
	b->hp.hlo_module = &b->mp;
	b->fused[0] = instr("p0", "parameter", 10, shape(11, 2, d48));
	b->fused[1] = instr("c", "constant", 11, shape(11, 0, NULL));
	b->fused[2] = instr("add", "add", 12, shape(11, 2, d48));
	b->fused[2]->n_operand_ids = 2;
	b->fused[2]->operand_ids = (int64_t *)ops_add;
	b->fused[2]->metadata = meta("jit(f)/layer/add", NULL, 0, 0);
	b->main_[0] = instr("a", "parameter", 20, shape(16, 2, d416));
	b->main_[1] = instr("b", "parameter", 21, shape(16, 2, d168));
	b->main_[1]->parameter_number = 1;
	b->main_[2] = instr("dot", "dot", 22, shape(11, 2, d48));
	b->main_[2]->n_operand_ids = 2;
	b->main_[2]->operand_ids = (int64_t *)ops_dot;
	b->main_[2]->metadata = meta("jit(f)/layer/dot_general", NULL, 0, 2);
	xla__dot_dimension_numbers__init(&b->dn);
	b->dn.n_lhs_contracting_dimensions = 1;
	b->dn.lhs_contracting_dimensions = (int64_t *)lc;
	b->dn.n_rhs_contracting_dimensions = 1;
	b->dn.rhs_contracting_dimensions = (int64_t *)rc;
	b->main_[2]->dot_dimension_numbers = &b->dn;
	b->main_[3] = instr("fusion.1", "fusion", 23, shape(11, 2, d48));
	b->main_[3]->fusion_kind = "kLoop";
	b->main_[3]->n_operand_ids = 1;
	b->main_[3]->operand_ids = (int64_t *)ops_fusion;
	b->main_[3]->n_called_computation_ids = 1;
	b->main_[3]->called_computation_ids = (int64_t *)calls_fusion;
	b->main_[3]->metadata = meta("jit(f)/layer/add", "train.py", 42, 0);
	for (k = 0; k < 2; k++) {
		xla__hlo_computation_proto__init(&b->comp[k]);
		b->compp[k] = &b->comp[k];
	}
	b->comp[0].name = "fused_computation";
	b->comp[0].id = 1;
	b->comp[0].root_id = 12;
	b->comp[0].n_instructions = 3;
	b->comp[0].instructions = b->fused;
	b->comp[1].name = "main";
	b->comp[1].id = 2;
	b->comp[1].root_id = 23;
	b->comp[1].n_instructions = 4;
	b->comp[1].instructions = b->main_;
	b->mp.n_computations = 2;
	b->mp.computations = b->compp;
	/* frames: 1 = <module> at model.py:3, 2 = its callee at model.py:7 */
	xla__stack_frame_index_proto__init(&b->sf);
	b->files[0] = "other.py";
	b->files[1] = "model.py";
	b->funcs[0] = "f";
	b->sf.n_file_names = 2;
	b->sf.file_names = b->files;
	b->sf.n_function_names = 1;
	b->sf.function_names = b->funcs;
	for (k = 0; k < 2; k++) {
		xla__stack_frame_index_proto__file_location__init(&b->loc[k]);
		b->loc[k].file_name_id = 2;
		b->loc[k].function_name_id = 1;
		b->loc[k].line = k ? 7 : 3;
		b->locp[k] = &b->loc[k];
		xla__stack_frame_index_proto__stack_frame__init(&b->fr[k]);
		b->fr[k].file_location_id = (int32_t)k + 1;
		b->fr[k].parent_frame_id = (int32_t)k;
		b->frp[k] = &b->fr[k];
	}
	b->sf.n_file_locations = 2;
	b->sf.file_locations = b->locp;
	b->sf.n_stack_frames = 2;
	b->sf.stack_frames = b->frp;
	b->mp.stack_frame_index = &b->sf;
}

static void unbuild(struct built *b)
{
	size_t k;

	for (k = 0; k < 3; k++) {
		free(b->fused[k]->shape);
		free(b->fused[k]->metadata);
		free(b->fused[k]);
	}
	for (k = 0; k < 4; k++) {
		free(b->main_[k]->shape);
		free(b->main_[k]->metadata);
		free(b->main_[k]);
	}
}

static uint8_t *encode(const Xla__HloProto *hp, size_t *len)
{
	uint8_t *buf;

	*len = xla__hlo_proto__get_packed_size(hp);
	buf = malloc(*len ? *len : 1);
	xla__hlo_proto__pack(hp, buf);
	return buf;
}

static void test_fields(void)
{
	struct built b;
	struct xp_hlo_module *m = NULL;
	struct xp_err err = {0};
	const struct xp_hlo_instr *dot, *fus, *add;
	uint8_t *buf;
	size_t len;

	build(&b);
	buf = encode(&b.hp, &len);
	CHECK_INT(xp_hlo_decode(buf, len, &m, &err), 0);
	if (!m)
		goto out;
	CHECK_STR(m->name, "jit_f");
	CHECK_INT(m->ncomps, 2);
	CHECK_INT(m->ninstrs, 7);
	CHECK_INT(m->nfusions, 1);
	CHECK_INT(m->entry, 1);
	CHECK_INT(m->bad_refs + m->dup_names + m->dup_ids, 0);
	CHECK(m->comps[0].fusion && !m->comps[1].fusion);
	dot = xp_hlo_instr_named(m, "dot");
	fus = xp_hlo_instr_named(m, "fusion.1");
	add = xp_hlo_instr_named(m, "add");
	CHECK(dot && fus && add && !xp_hlo_instr_named(m, "fusion"));
	if (!dot || !fus || !add)
		goto out;
	CHECK_INT(dot->noperands, 2);
	CHECK_STR(m->instrs[dot->operands[1]].name, "b");
	CHECK_INT(m->instrs[dot->operands[1]].shape.dims[0], 16);
	CHECK_INT(dot->shape.type, 11);
	CHECK(dot->has_dot && dot->ndot[XP_HLO_LHS_CONTRACT] == 1 && dot->dot[XP_HLO_LHS_CONTRACT][0] == 1 &&
	      dot->ndot[XP_HLO_RHS_CONTRACT] == 1 && dot->dot[XP_HLO_RHS_CONTRACT][0] == 0 &&
	      !dot->ndot[XP_HLO_LHS_BATCH]);
	/* source: frame 2 -> location 2 -> file 2 */
	CHECK_STR(dot->source_file, "model.py");
	CHECK_INT(dot->source_line, 7);
	CHECK_STR(dot->op_name, "jit(f)/layer/dot_general");
	CHECK_STR(fus->source_file, "train.py");
	CHECK_INT(fus->source_line, 42);
	CHECK_STR(fus->fusion_kind, "kLoop");
	CHECK_INT(fus->ncalled, 1);
	CHECK_STR(m->comps[fus->called[0]].name, "fused_computation");
	CHECK_STR(add->source_file, "");
	CHECK_INT(add->comp, 0);
	CHECK_STR(xp_hlo_type_name(16), "bf16");
	CHECK_INT(xp_hlo_type_bytes(16), 2);
	CHECK(!xp_hlo_type_name(999));
	/* XProf's name rule */
	CHECK(an_hlo_op(m, "xla::op::fusion.1") == fus);
	CHECK(an_hlo_op(m, "fusion.1") == fus);
	CHECK(!an_hlo_op(m, "xla::op::"));
out:
	xp_hlo_free(m);
	free(buf);
	unbuild(&b);
}

/* Ids that name nothing, frame ids out of range, repeated names and ids: counted, the rest kept. */
static void test_bad_refs(void)
{
	static const int64_t bad_ops[] = {20, 999}, bad_calls[] = {77};
	struct built b;
	struct xp_hlo_module *m = NULL;
	struct xp_err err = {0};
	uint8_t *buf;
	size_t len;

	build(&b);
	b.main_[2]->operand_ids = (int64_t *)bad_ops;		/* 999: nothing */
	b.main_[3]->called_computation_ids = (int64_t *)bad_calls;	/* 77: nothing */
	b.main_[2]->metadata->stack_frame_id = 99;		/* past the frames */
	b.main_[1]->name = "a";					/* a name repeated */
	b.fused[1]->id = 10;					/* an id repeated: add's operand 11 is gone */
	buf = encode(&b.hp, &len);
	CHECK_INT(xp_hlo_decode(buf, len, &m, &err), 0);
	if (m) {
		const struct xp_hlo_instr *dot = xp_hlo_instr_named(m, "dot");

		CHECK_INT(m->bad_refs, 4);	/* 999, 77, frame 99, 11 */
		CHECK_INT(m->dup_names, 1);
		CHECK_INT(m->dup_ids, 1);
		CHECK(dot && dot->noperands == 1 && !strcmp(m->instrs[dot->operands[0]].name, "a"));
		CHECK(dot && !*dot->source_file);
		CHECK_INT(xp_hlo_instr_named(m, "a")->parameter_number, 0);	/* the first "a" */
		CHECK_INT(xp_hlo_instr_named(m, "fusion.1")->ncalled, 0);
		CHECK(!m->comps[0].fusion);
	}
	xp_hlo_free(m);
	free(buf);
	unbuild(&b);
}

/* A tuple shape nested depth deep as the result of the dot. */
static int decode_nested(int depth)
{
	struct built b;
	Xla__ShapeProto *s, **chain = calloc((size_t)depth + 1, sizeof(*chain));
	struct xp_hlo_module *m = NULL;
	struct xp_err err = {0};
	uint8_t *buf;
	size_t len;
	int i, ret;

	build(&b);
	for (i = 0; i <= depth; i++)
		chain[i] = shape(i == depth ? 11 : 13, 0, NULL);
	for (i = 0; i < depth; i++) {
		chain[i]->n_tuple_shapes = 1;
		chain[i]->tuple_shapes = &chain[i + 1];
	}
	s = b.main_[2]->shape;
	b.main_[2]->shape = chain[0];
	buf = encode(&b.hp, &len);
	ret = xp_hlo_decode(buf, len, &m, &err);
	if (!ret) {
		const struct xp_hlo_shape *sh = &xp_hlo_instr_named(m, "dot")->shape;

		for (i = 0; i < depth && sh->ntuple == 1; i++)
			sh = &sh->tuple[0];
		CHECK_INT(i, depth);
		CHECK_INT(sh->type, 11);
	} else {
		CHECK(strstr(err.msg, "deep") != NULL);
	}
	xp_hlo_free(m);
	free(buf);
	b.main_[2]->shape = s;
	for (i = 0; i <= depth; i++)
		free(chain[i]);
	free(chain);
	unbuild(&b);
	return ret;
}

static void test_hostile(void)
{
	struct built b;
	uint8_t *buf, junk[64];
	size_t len, cut, ok = 0;
	struct xp_err err = {0};
	struct xp_hlo_module *m = NULL;

	CHECK_INT(decode_nested(XP_HLO_MAX_DEPTH), 0);
	CHECK_INT(decode_nested(XP_HLO_MAX_DEPTH + 1), XP_ERR_FORMAT);
	CHECK_INT(decode_nested(5000), XP_ERR_FORMAT);	/* would have recursed 5000 deep in protobuf-c */
	/* every cut of a valid encoding: decoded or refused, never a crash or a leak (the sanitizer build checks) */
	build(&b);
	buf = encode(&b.hp, &len);
	for (cut = 0; cut < len; cut++) {
		struct xp_err e = {0};
		int r = xp_hlo_decode(buf, cut, &m, &e);

		CHECK(r == 0 || r == XP_ERR_FORMAT);
		CHECK(r != 0 || m);
		ok += r == 0;
		xp_hlo_free(m);
		m = NULL;
	}
	CHECK(ok < len);	/* most cuts end inside a field */
	free(buf);
	unbuild(&b);
	memset(junk, 0xff, sizeof(junk));
	CHECK_INT(xp_hlo_decode(junk, sizeof(junk), &m, &err), XP_ERR_FORMAT);
	CHECK(!m);
	/* empty: a valid HloProto without a module */
	CHECK_INT(xp_hlo_decode(junk, 0, &m, &err), XP_ERR_FORMAT);
}

/* The cost model on the test module (rules in an_cost.h), and shapes and nesting it must refuse. */
static void test_cost(void)
{
	static const int64_t huge[] = {INT64_C(1) << 40, INT64_C(1) << 40};
	static const int64_t self_call[] = {1};
	struct built b;
	struct xp_hlo_module *m = NULL;
	struct xp_err err = {0};
	struct an_cost c;
	uint8_t *buf;
	size_t len;

	build(&b);
	buf = encode(&b.hp, &len);
	CHECK_INT(xp_hlo_decode(buf, len, &m, &err), 0);
	if (m) {
		/* dot: 2 x (4 x 8) x 16; bytes bf16[4,16] + bf16[16,8] + f32[4,8] = 128 + 256 + 128 */
		an_cost_of(m, xp_hlo_instr_named(m, "dot"), &c);
		CHECK(c.flops_known && c.bytes_known);
		CHECK_INT(c.flops, 1024);
		CHECK_INT(c.bytes, 512);
		/* fusion: its body's add, 32 elements; bytes at its boundary: f32[4,8] in and out */
		an_cost_of(m, xp_hlo_instr_named(m, "fusion.1"), &c);
		CHECK_INT(c.flops, 32);
		CHECK_INT(c.bytes, 256);
		/* a parameter costs nothing */
		an_cost_of(m, xp_hlo_instr_named(m, "a"), &c);
		CHECK(c.flops_known && c.bytes_known && !c.flops && !c.bytes);
	}
	xp_hlo_free(m);
	free(buf);
	/* a result of 2^80 elements: unknown, not wrapped */
	b.main_[2]->shape->dimensions = (int64_t *)huge;
	/* the fused add made a fusion of its own computation: a cycle, no cost */
	b.fused[2]->opcode = "fusion";
	b.fused[2]->n_called_computation_ids = 1;
	b.fused[2]->called_computation_ids = (int64_t *)self_call;
	buf = encode(&b.hp, &len);
	m = NULL;
	CHECK_INT(xp_hlo_decode(buf, len, &m, &err), 0);
	if (m) {
		an_cost_of(m, xp_hlo_instr_named(m, "dot"), &c);
		CHECK(!c.flops_known && !c.bytes_known);
		an_cost_of(m, xp_hlo_instr_named(m, "fusion.1"), &c);
		CHECK(!c.flops_known);
		CHECK_STR(c.unknown, "fusion calling itself");
	}
	xp_hlo_free(m);
	free(buf);
	unbuild(&b);
}

/*
 * The rules XLA counts differently from a plain reading: a transcendental
 * function costs no FLOPs; an all-reduce of a tuple counts every part; a
 * cuBLAS call's bytes leave its s8 workspace out (and a call without one
 * keeps its whole result).
 */
static void test_cost_rules(void)
{
	static const int64_t d4[] = {4}, d8[] = {8}, d100[] = {100};
	static const char gemm_cfg[] = "{\"gemm_backend_config\":{\"dot_dimension_numbers\":"
				       "{\"lhs_contracting_dimensions\":[\"1\"]}}}";
	struct built b;
	struct xp_hlo_module *m = NULL;
	struct xp_err err = {0};
	struct an_cost c;
	Xla__ShapeProto *p0_shape, *dot_shape, tuple, *parts[2], call_tuple, *call_parts[2];
	uint8_t *buf;
	size_t len;

	build(&b);
	b.fused[2]->opcode = "exponential";	/* "add" of fused_computation: exp of f32[4,8] */
	/* p0 of fused_computation: an all-reduce of (f32[4], f32[8]) over it */
	p0_shape = b.fused[0]->shape;
	xla__shape_proto__init(&tuple);
	tuple.element_type = 13;
	parts[0] = shape(11, 1, d4);
	parts[1] = shape(11, 1, d8);
	tuple.n_tuple_shapes = 2;
	tuple.tuple_shapes = parts;
	b.fused[0]->shape = &tuple;
	b.fused[0]->opcode = "all-reduce";
	b.fused[0]->n_called_computation_ids = 1;
	b.fused[0]->called_computation_ids = (int64_t *)calls_fusion;
	/* dot as a cuBLAS GEMM: (f32[4,8], s8[100]) from bf16[4,16] x bf16[16,8] */
	dot_shape = b.main_[2]->shape;
	b.main_[2]->opcode = "custom-call";
	b.main_[2]->custom_call_target = "__cublas$gemm";
	b.main_[2]->dot_dimension_numbers = NULL;
	b.main_[2]->backend_config.data = (uint8_t *)gemm_cfg;
	b.main_[2]->backend_config.len = sizeof(gemm_cfg) - 1;
	xla__shape_proto__init(&call_tuple);
	call_tuple.element_type = 13;
	call_parts[0] = shape(11, 2, d48);
	call_parts[1] = shape(2, 1, d100);
	call_tuple.n_tuple_shapes = 2;
	call_tuple.tuple_shapes = call_parts;
	b.main_[2]->shape = &call_tuple;
	buf = encode(&b.hp, &len);
	CHECK_INT(xp_hlo_decode(buf, len, &m, &err), 0);
	if (m) {
		an_cost_of(m, xp_hlo_instr_named(m, "add"), &c);
		CHECK(c.flops_known && c.flops == 0);	/* exp: a transcendental */
		an_cost_of(m, xp_hlo_instr_named(m, "p0"), &c);
		CHECK(c.flops_known && c.flops == 12);	/* 4 + 8 elements, one op each (its reducer has none: 1) */
		an_cost_of(m, xp_hlo_instr_named(m, "fusion.1"), &c);
		CHECK(c.flops_known && c.flops == 12);	/* its body: the all-reduce and the exp */
		/* GEMM: 2 x 32 x 16 FLOPs; bytes 128 + 256 in, f32[4,8] = 128 out, not the 100-byte workspace */
		an_cost_of(m, xp_hlo_instr_named(m, "dot"), &c);
		CHECK_INT(c.flops, 1024);
		CHECK_INT(c.bytes, 512);
		/* fusion.1 reads the GEMM's whole tuple (workspace too: it is no library call): 128 + 100, writes 128 */
		an_cost_of(m, xp_hlo_instr_named(m, "fusion.1"), &c);
		CHECK_INT(c.bytes, 356);
	}
	xp_hlo_free(m);
	free(buf);
	b.fused[0]->shape = p0_shape;
	b.main_[2]->shape = dot_shape;
	free(parts[0]);
	free(parts[1]);
	free(call_parts[0]);
	free(call_parts[1]);
	unbuild(&b);
}

/* Bytes of a varint at p; returns its length. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/* A module past XP_HLO_MAX_INSTRUCTIONS (empty instructions, 2 bytes each) is refused before decoding. */
static void test_too_many(void)
{
	size_t n = XP_HLO_MAX_INSTRUCTIONS + 1, body = 2 * n, len = 0;
	uint8_t *buf = malloc(body + 64);
	struct xp_hlo_module *m = NULL;
	struct xp_err err = {0};
	size_t k;

	/* HloProto.hlo_module(1) { computations(3) { instructions(2) {} x n } } */
	buf[len++] = 0x0a;
	len += put_varint(buf + len, body + 1 + (body < 128 ? 1 : body < 16384 ? 2 : body < 2097152 ? 3 : 4));
	buf[len++] = 0x1a;
	len += put_varint(buf + len, body);
	for (k = 0; k < n; k++) {
		buf[len++] = 0x12;
		buf[len++] = 0x00;
	}
	CHECK_INT(xp_hlo_decode(buf, len, &m, &err), XP_ERR_LIMIT);
	CHECK(!m && strstr(err.msg, "instructions"));
	free(buf);
}

/*
 * A chain of fusions, each calling the next computation, 40, 100 and
 * 100,000 deep: each costs its last body's add (a chain of 100,000 once
 * overflowed the stack, each level a C recursion). One instruction calling
 * 3,000 computations has them all.
 */
static void test_chains(void)
{
	static const int64_t d4[] = {4};
	const int depths[] = {40, 100, 100000};
	size_t t;

	for (t = 0; t < N(depths); t++) {
		int depth = depths[t], k;
		Xla__HloProto hp;
		Xla__HloModuleProto mp;
		Xla__HloComputationProto **cp = calloc((size_t)depth + 1, sizeof(*cp));
		Xla__HloInstructionProto **ip = calloc((size_t)depth + 1, sizeof(*ip));
		int64_t *calls = calloc((size_t)depth + 1, sizeof(*calls));
		char (*names)[24] = calloc((size_t)depth + 1, sizeof(*names));
		struct xp_hlo_module *m = NULL;
		struct xp_err err = {0};
		struct an_cost c;
		uint8_t *buf;
		size_t len;

		xla__hlo_proto__init(&hp);
		xla__hlo_module_proto__init(&mp);
		hp.hlo_module = &mp;
		for (k = 0; k <= depth; k++) {
			cp[k] = calloc(1, sizeof(**cp));
			xla__hlo_computation_proto__init(cp[k]);
			cp[k]->id = k + 1;
			snprintf(names[k], sizeof(names[k]), "f.%d", k);
			ip[k] = instr(names[k], k < depth ? "fusion" : "add", 1000 + k, shape(11, 1, d4));
			if (k < depth) {
				calls[k] = k + 2;
				ip[k]->n_called_computation_ids = 1;
				ip[k]->called_computation_ids = &calls[k];
			}
			cp[k]->n_instructions = 1;
			cp[k]->instructions = &ip[k];
		}
		mp.n_computations = (size_t)depth + 1;
		mp.computations = cp;
		buf = encode(&hp, &len);
		CHECK_INT(xp_hlo_decode(buf, len, &m, &err), 0);
		if (m) {
			CHECK_INT(an_cost_of(m, xp_hlo_instr_named(m, "f.0"), &c), 0);
			CHECK(c.flops_known && c.flops == 4);	/* summed with a stack of its own, however deep */
		}
		xp_hlo_free(m);
		free(buf);
		/* the first computation calls all the others at once */
		if (depth == 100000) {
			int64_t *all = calloc(3000, sizeof(*all));

			for (k = 0; k < 3000; k++)
				all[k] = k + 2;
			ip[0]->n_called_computation_ids = 3000;
			ip[0]->called_computation_ids = all;
			buf = encode(&hp, &len);
			m = NULL;
			CHECK_INT(xp_hlo_decode(buf, len, &m, &err), 0);
			CHECK(m && xp_hlo_instr_named(m, "f.0")->ncalled == 3000 && !m->bad_refs &&
			      m->comps[xp_hlo_instr_named(m, "f.0")->called[2999]].id == 3001);
			xp_hlo_free(m);
			free(buf);
			free(all);
		}
		for (k = 0; k <= depth; k++) {
			free(ip[k]->shape);
			free(ip[k]);
			free(cp[k]);
		}
		free(cp);
		free(ip);
		free(calls);
		free(names);
	}
}

static void test_lookup(void)
{
	struct an_hlo_set s = {0};
	struct an_hlo_entry e[3];
	size_t base;
	uint64_t pid = 0;

	memset(e, 0, sizeof(e));
	e[0].name = "jit_dot(64)", e[0].base = "jit_dot", e[0].program_id = 64, e[0].has_program_id = 1;
	e[1].name = "jit_dot(79)", e[1].base = "jit_dot", e[1].program_id = 79, e[1].has_program_id = 1;
	e[2].name = "jit_solo", e[2].base = "jit_solo";
	s.e = e;
	s.n = 3;
	CHECK(an_hlo_lookup(&s, "jit_dot", 79, 1) == &e[1]);
	CHECK(an_hlo_lookup(&s, "jit_dot(64)", 0, 0) == &e[0]);	/* TPU: the program in the name */
	CHECK(an_hlo_lookup(&s, "jit_dot", 0, 0) == NULL);	/* two programs: ambiguous */
	CHECK(an_hlo_lookup(&s, "jit_dot", 5, 1) == NULL);
	CHECK(an_hlo_lookup(&s, "jit_solo", 0, 0) == &e[2]);
	CHECK(an_hlo_lookup(&s, "jit_solo", 3, 1) == &e[2]);	/* a module named without a program */
	CHECK(an_hlo_lookup(&s, "jit_do", 64, 1) == NULL);
	CHECK(an_hlo_split_name("jit_f(12190760917235803885)", &base, &pid) && base == 5 &&
	      pid == 12190760917235803885ull);
	CHECK(!an_hlo_split_name("jit_f(99999999999999999999)", &base, &pid));	/* past 2^64-1 */
	CHECK(!an_hlo_split_name("(12)", &base, &pid) && !an_hlo_split_name("f()", &base, &pid));
}

int main(void)
{
	test_fields();
	test_bad_refs();
	test_hostile();
	test_cost();
	test_cost_rules();
	test_too_many();
	test_chains();
	test_lookup();
	return test_done("test_hlo");
}
