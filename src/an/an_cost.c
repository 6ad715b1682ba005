/* SPDX-License-Identifier: Apache-2.0 */
/* FLOPs and bytes of HLO instructions from their shapes (rules in an_cost.h). */
#include "an_cost.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "xp_sat.h"

/* A fused computation's FLOPs, found once per call of an_cost_of: shared bodies cost no time again, cycles end. */
struct comp_memo {
	int state;		/* 0 not yet, 1 being summed (met then: a fusion calling itself), 2 done */
	int known;
	uint64_t flops;
	const char *unknown;
};

struct cost_ctx {
	const struct xp_hlo_module *m;
	struct comp_memo *memo;	/* per computation */
};

static uint64_t elements(const struct xp_hlo_shape *s, int *ok)
{
	return xp_hlo_shape_elements(s, ok);
}

/* The result of a library call: its first part when it returns (result, workspace). */
static const struct xp_hlo_shape *call_result(const struct xp_hlo_shape *s)
{
	return s->ntuple ? &s->tuple[0] : s;
}

static const char *const elementwise[] = {
	"abs", "add", "and", "ceil", "clamp", "compare", "complex", "convert", "divide", "floor", "imag",
	"is-finite", "maximum", "minimum", "multiply", "negate", "not", "or", "popcnt", "real", "remainder",
	"round-nearest-afz", "round-nearest-even", "select", "shift-left", "shift-right-arithmetic",
	"shift-right-logical", "sign", "subtract", "xor", "count-leading-zeros", "stochastic-convert", NULL,
};

/* Transcendental functions: XLA counts them apart from FLOPs (none here, as in the TPU's flops). */
static const char *const transcendental[] = {
	"atan2", "cbrt", "cosine", "erf", "exponential", "exponential-minus-one", "log", "log-plus-one",
	"logistic", "power", "rsqrt", "sine", "sqrt", "tan", "tanh", NULL,
};

static const char *const movement[] = {
	"broadcast", "concatenate", "copy", "copy-start", "copy-done", "dynamic-slice", "dynamic-update-slice",
	"gather", "iota", "pad", "reshape", "reverse", "scatter", "slice", "transpose", "dynamic-reshape",
	"sort", "select-and-scatter", "reduce-precision", "all-gather", "all-gather-start", "all-gather-done",
	"all-to-all", "collective-permute", "collective-permute-start", "collective-permute-done", "send",
	"send-done", "recv", "recv-done", "all-reduce-done", "async-start", "async-done", NULL,
};

static const char *const free_ops[] = {
	"parameter", "constant", "tuple", "get-tuple-element", "bitcast", "after-all", "partition-id",
	"replica-id", "opt-barrier", "domain", "add-dependency", NULL,
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* 2 x result elements x the product of lhs's dimensions at lhs_contract. */
static void dot_flops(const struct xp_hlo_shape *result, const struct xp_hlo_shape *lhs, const int64_t *contract,
		      size_t n, struct an_cost *c)
{
	int ok = 1;
	uint64_t k = 1, out = elements(result, &ok);
	size_t i;

	for (i = 0; i < n && ok; i++) {
		uint64_t d;

		if (contract[i] < 0 || (uint64_t)contract[i] >= lhs->ndims || lhs->ntuple) {
			ok = 0;
			break;
		}
		d = lhs->dims[contract[i]] < 0 ? 0 : (uint64_t)lhs->dims[contract[i]];
		if (d && k > UINT64_MAX / d)
			ok = 0;
		else
			k *= d;
	}
	if (!ok || (k && out > UINT64_MAX / 2 / k)) {
		c->flops_known = 0;
		return;
	}
	c->flops = 2 * out * k;
	c->flops_known = 1;
}

/* 2 x result elements x kernel elements / the kernel's output features. */
static void conv_flops(const struct xp_hlo_instr *ins, const struct xp_hlo_shape *result,
		       const struct xp_hlo_shape *kernel, struct an_cost *c)
{
	int ok = 1;
	uint64_t out = elements(result, &ok), kel = elements(kernel, &ok), of, per;
	int64_t d = ins->conv_kernel_out_dim;

	c->flops_known = 0;
	if (!ok || kernel->ntuple || d < 0 || (uint64_t)d >= kernel->ndims || kernel->dims[d] <= 0)
		return;
	of = (uint64_t)kernel->dims[d];
	per = kel / of;
	if (per && out > UINT64_MAX / 2 / per)
		return;
	c->flops = 2 * out * per;
	c->flops_known = 1;
}

/* "lhs_contracting_dimensions":["1"] of a GEMM's backend configuration; -1 when not there. */
static int gemm_contracting(const char *config, int64_t *dims, size_t cap, size_t *n)
{
	cJSON *doc = cJSON_Parse(config), *g, *dn, *lc, *v;
	int ret = -1;

	*n = 0;
	if (!doc)
		return -1;
	g = cJSON_GetObjectItemCaseSensitive(doc, "gemm_backend_config");
	dn = g ? cJSON_GetObjectItemCaseSensitive(g, "dot_dimension_numbers") : NULL;
	lc = dn ? cJSON_GetObjectItemCaseSensitive(dn, "lhs_contracting_dimensions") : NULL;
	if (!cJSON_IsArray(lc))
		goto out;
	cJSON_ArrayForEach(v, lc) {
		char *end;
		long long x;

		if (*n == cap)
			goto out;
		if (cJSON_IsString(v)) {
			x = strtoll(v->valuestring, &end, 10);
			if (end == v->valuestring || *end)
				goto out;
		} else if (cJSON_IsNumber(v)) {
			x = (long long)v->valuedouble;
		} else {
			goto out;
		}
		dims[(*n)++] = x;
	}
	ret = 0;
out:
	cJSON_Delete(doc);
	return ret;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int is_gemm_target(const char *t)
{
	return !strcmp(t, "__cublas$gemm") || starts(t, "__cublas$lt$matmul");
}

static int is_conv_forward_target(const char *t)
{
	return starts(t, "__cudnn$convForward");
}

/*
 * A cuBLAS or cuDNN library call (XLA names ROCm's the same) whose result
 * ends in its scratch workspace: a tuple whose last part is an s8 or u8
 * array. Its bytes leave that part out.
 */
static int has_workspace(const struct xp_hlo_instr *ins)
{
	const struct xp_hlo_shape *s = &ins->shape;

	return !strcmp(ins->opcode, "custom-call") &&
	       (starts(ins->custom_call_target, "__cublas$") || starts(ins->custom_call_target, "__cudnn$")) &&
	       s->ntuple >= 2 && (s->tuple[s->ntuple - 1].type == 2 || s->tuple[s->ntuple - 1].type == 6) &&
	       !s->tuple[s->ntuple - 1].ntuple;
}

/* FLOPs of one instruction (bytes are the caller's). */
static void flops_of(struct cost_ctx *x, const struct xp_hlo_instr *ins, struct an_cost *c);

/* The arithmetic ops of a reducer computation (at least one). */
static uint64_t reducer_ops(const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	uint64_t n = 0;
	size_t k, j;

	for (k = 0; k < ins->ncalled; k++) {
		const struct xp_hlo_comp *comp = &m->comps[ins->called[k]];

		for (j = 0; j < comp->n; j++)
			n += in_list(elementwise, m->instrs[comp->first + j].opcode);
	}
	return n ? n : 1;
}

/* A fusion's FLOPs: the sums of the computations it calls, which fill_memo has summed. */
static void fusion_flops(struct cost_ctx *x, const struct xp_hlo_instr *ins, struct an_cost *c)
{
	size_t k;

	c->flops = 0;
	c->flops_known = 1;
	for (k = 0; k < ins->ncalled; k++) {
		const struct comp_memo *b = &x->memo[ins->called[k]];

		if (b->state != 2) {	/* still being summed: it calls itself */
			c->flops_known = 0;
			if (!c->unknown)
				c->unknown = "fusion calling itself";
		} else if (!b->known) {
			c->flops_known = 0;
			if (!c->unknown)
				c->unknown = b->unknown;
		} else if (xp_sat_add_to_u64(&c->flops, b->flops)) {
			c->flops_known = 0;
		}
	}
}

/* Sums computation k's instructions, the computations its fusions call summed before. */
static void sum_comp(struct cost_ctx *x, size_t k)
{
	struct comp_memo *me = &x->memo[k];
	const struct xp_hlo_comp *comp = &x->m->comps[k];
	size_t j;

	me->known = 1;
	me->flops = 0;
	for (j = 0; j < comp->n; j++) {
		struct an_cost b = {0};

		flops_of(x, &x->m->instrs[comp->first + j], &b);
		if (!b.flops_known) {
			me->known = 0;
			if (!me->unknown)
				me->unknown = b.unknown;
		} else if (xp_sat_add_to_u64(&me->flops, b.flops)) {
			me->known = 0;
			me->unknown = "too large";
		}
	}
	me->state = 2;
}

/*
 * Sums every computation the fusions under ins call, callees first, with a
 * stack of its own (no C recursion: a chain of 100,000 fusions overflowed
 * the stack once): each computation summed once, a computation met while
 * being summed (a fusion calling itself) left unknown. -1 when out of memory.
 */
static int fill_memo(struct cost_ctx *x, const struct xp_hlo_instr *root)
{
	struct frame {
		size_t k, j, i;	/* computation, its instruction, that instruction's called computation */
	} *st = malloc((x->m->ncomps ? x->m->ncomps : 1) * sizeof(*st));
	size_t sp = 0, i;

	if (!st)
		return -1;
	for (i = 0; i <= root->ncalled; i++) {
		if (i < root->ncalled && x->memo[root->called[i]].state == 0) {
			x->memo[root->called[i]].state = 1;
			st[sp++] = (struct frame){root->called[i], 0, 0};
		}
		while (sp) {
			struct frame *f = &st[sp - 1];
			const struct xp_hlo_comp *comp = &x->m->comps[f->k];
			int pushed = 0;

			while (f->j < comp->n && !pushed) {
				const struct xp_hlo_instr *ins = &x->m->instrs[comp->first + f->j];

				if (!strcmp(ins->opcode, "fusion") && f->i < ins->ncalled) {
					size_t c = ins->called[f->i++];

					if (x->memo[c].state == 0) {
						x->memo[c].state = 1;
						st[sp++] = (struct frame){c, 0, 0};
						pushed = 1;
					}
					continue;
				}
				f->j++;
				f->i = 0;
			}
			if (pushed)
				continue;
			sum_comp(x, f->k);
			sp--;
		}
	}
	free(st);
	return 0;
}

static void flops_of(struct cost_ctx *x, const struct xp_hlo_instr *ins, struct an_cost *c)
{
	const struct xp_hlo_module *m = x->m;
	const char *op = ins->opcode;
	int ok = 1;

	c->flops = 0;
	c->flops_known = 1;
	if (in_list(free_ops, op) || in_list(movement, op) || in_list(transcendental, op))
		return;
	if (in_list(elementwise, op)) {
		c->flops = elements(&ins->shape, &ok);
		c->flops_known = ok;
		return;
	}
	if (!strcmp(op, "dot")) {
		if (ins->noperands < 2 || !ins->has_dot) {
			c->flops_known = 0;
			c->unknown = "dot";
			return;
		}
		dot_flops(&ins->shape, &m->instrs[ins->operands[0]].shape, ins->dot[XP_HLO_LHS_CONTRACT],
			  ins->ndot[XP_HLO_LHS_CONTRACT], c);
		return;
	}
	if (!strcmp(op, "convolution")) {
		if (ins->noperands < 2) {
			c->flops_known = 0;
			c->unknown = "convolution";
			return;
		}
		conv_flops(ins, &ins->shape, &m->instrs[ins->operands[1]].shape, c);
		return;
	}
	if (!strcmp(op, "all-reduce") || !strcmp(op, "all-reduce-start")) {
		/* as XLA counts it: the reducer's ops once per element of the result (every part of a tuple) */
		uint64_t out = elements(&ins->shape, &ok), per = reducer_ops(m, ins);

		if (!ok || (per && out > UINT64_MAX / per)) {
			c->flops_known = 0;
			return;
		}
		c->flops = out * per;
		return;
	}
	if (!strcmp(op, "reduce") || !strcmp(op, "reduce-window")) {
		uint64_t in, out, per = reducer_ops(m, ins), n;

		if (!ins->noperands || !strcmp(op, "reduce-window")) {
			c->flops_known = 0;
			c->unknown = op;
			return;
		}
		in = elements(&m->instrs[ins->operands[0]].shape, &ok);
		out = elements(ins->shape.ntuple ? &ins->shape.tuple[0] : &ins->shape, &ok);
		n = in > out ? in - out : 0;
		if (!ok || (per && n > UINT64_MAX / per)) {
			c->flops_known = 0;
			return;
		}
		c->flops = n * per;
		return;
	}
	if (!strcmp(op, "fusion")) {
		fusion_flops(x, ins, c);
		return;
	}
	if (!strcmp(op, "custom-call") && is_gemm_target(ins->custom_call_target)) {
		int64_t lc[8];
		size_t n;

		if (ins->noperands < 2 || gemm_contracting(ins->backend_config, lc, 8, &n)) {
			c->flops_known = 0;
			c->unknown = ins->custom_call_target;
			return;
		}
		dot_flops(call_result(&ins->shape), &m->instrs[ins->operands[0]].shape, lc, n, c);
		return;
	}
	if (!strcmp(op, "custom-call") && is_conv_forward_target(ins->custom_call_target) && ins->noperands >= 2) {
		conv_flops(ins, call_result(&ins->shape), &m->instrs[ins->operands[1]].shape, c);
		return;
	}
	c->flops_known = 0;
	c->unknown = !strcmp(op, "custom-call") && *ins->custom_call_target ? ins->custom_call_target : op;
}

int an_cost_of(const struct xp_hlo_module *m, const struct xp_hlo_instr *ins, struct an_cost *c)
{
	struct cost_ctx x = {m, calloc(m->ncomps ? m->ncomps : 1, sizeof(*x.memo))};
	int ok = 1;
	uint64_t b = 0;
	size_t k;

	memset(c, 0, sizeof(*c));
	if (!x.memo || (!strcmp(ins->opcode, "fusion") && fill_memo(&x, ins))) {
		free(x.memo);
		c->unknown = "out of memory";
		return -1;
	}
	flops_of(&x, ins, c);
	free(x.memo);
	if (!c->flops_known && !c->unknown)
		c->unknown = "shapes too large or inconsistent";
	if (in_list(free_ops, ins->opcode)) {
		c->bytes_known = 1;
		return 0;
	}
	/* an asynchronous pair moves its data once: the start's operands, the done's result */
	for (k = 0; !ends_with(ins->opcode, "-done") && k < ins->noperands; k++) {
		const struct xp_hlo_instr *op = &m->instrs[ins->operands[k]];

		ok &= op->shape_bytes_ok;
		if (xp_sat_add_to_u64(&b, op->shape_bytes))
			ok = 0;
	}
	if (!ends_with(ins->opcode, "-start")) {
		uint64_t rb = ins->shape_bytes;
		uint32_t i;

		if (has_workspace(ins)) {	/* the result's parts but the workspace */
			rb = 0;
			for (i = 0; i + 1 < ins->shape.ntuple; i++)
				if (xp_sat_add_to_u64(&rb, xp_hlo_shape_bytes(&ins->shape.tuple[i], &ok)))
					ok = 0;
		} else {
			ok &= ins->shape_bytes_ok;
		}
		if (xp_sat_add_to_u64(&b, rb))
			ok = 0;
	}
	c->bytes = b;
	c->bytes_known = ok;
	return 0;
}
