/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compiled XLA program, as a JAX trace carries it: the "Hlo Proto" stat's
 * bytes (a serialized xla.HloProto, proto/hlo.proto) decoded into plain
 * structs. Only this file's .c sees protobuf-c.
 *
 * Ownership: a module owns every string and array it hands out; free only
 * the module. Strings are NUL-terminated, "" where the proto left a field
 * out; names are data from the trace (escape them in every output).
 *
 * Hostile input is decoded or refused, never trusted: a tuple shape nested
 * deeper than XP_HLO_MAX_DEPTH is refused before decoding (protobuf-c
 * recurses once per level); operand, computation and stack frame ids that
 * name nothing are left out and counted in bad_refs; a repeated instruction
 * name or id keeps the first and is counted in dup_names/dup_ids.
 */
#ifndef XP_HLO_H
#define XP_HLO_H

#include <stddef.h>
#include <stdint.h>

#include "xp_arena.h"
#include "xp_err.h"

#define XP_HLO_MAX_DEPTH 32	/* tuple shapes within tuple shapes */
/* In one module, each refused past (XP_ERR_LIMIT) before decoding: real programs hold far fewer. */
#define XP_HLO_MAX_INSTRUCTIONS 1000000
#define XP_HLO_MAX_COMPUTATIONS 1000000
#define XP_HLO_MAX_SHAPES 4000000	/* shapes within tuple shapes, all instructions' together */

struct xp_hlo_shape {
	int32_t type;		/* xla.PrimitiveType's number: 11 F32, 16 BF16, 13 TUPLE, ... */
	uint32_t ndims;
	const int64_t *dims;
	uint32_t ntuple;
	const struct xp_hlo_shape *tuple;	/* the element shapes of a tuple */
};

/* Dimension numbers of a dot (index DOT_LHS_CONTRACT ...), as written. */
enum { XP_HLO_LHS_CONTRACT, XP_HLO_RHS_CONTRACT, XP_HLO_LHS_BATCH, XP_HLO_RHS_BATCH };

struct xp_hlo_instr {
	const char *name, *opcode;
	int64_t id;
	size_t comp;			/* index of its computation in comps */
	struct xp_hlo_shape shape;
	const size_t *operands;		/* indexes in instrs (ids that named nothing left out) */
	size_t noperands;
	const size_t *called;		/* indexes in comps */
	size_t ncalled;
	const int64_t *dims;		/* the dimensions attribute (reduce, broadcast, transpose ...) */
	size_t ndims;
	/* metadata: the framework's op name (JAX's name stack "jit(f)/layer/dot_general") and type */
	const char *op_name, *op_type;
	/* where in the user's program: the metadata's, else its stack frame's; "" and 0 when none */
	const char *source_file;
	int32_t source_line;
	const char *fusion_kind;	/* kLoop, kInput, kOutput, kCustom; "" */
	const char *custom_call_target;	/* "__cublas$gemm" ...; "" */
	const char *backend_config;	/* as written (JSON on GPU), NUL-terminated; "" */
	size_t backend_config_len;
	int64_t parameter_number, tuple_index;
	int has_dot;
	const int64_t *dot[4];
	size_t ndot[4];
	/* its shape's bytes (xp_hlo_shape_bytes), found once; shape_bytes_ok 0: past 2^64-1 */
	uint64_t shape_bytes;
	int shape_bytes_ok;
	/* a convolution's: the kernel's output feature dimension (-1: none written), its groups (0: none written) */
	int64_t conv_kernel_out_dim;
	int64_t feature_group_count, batch_group_count;
};

struct xp_hlo_comp {
	const char *name;
	int64_t id, root_id;
	size_t first, n;		/* its instructions: instrs[first .. first+n) */
	int fusion;			/* called by a fusion instruction */
};

struct xp_hlo_module {
	const char *name, *entry_name;
	int64_t id, entry_id;
	struct xp_hlo_comp *comps;	/* in the proto's order: callees before callers */
	size_t ncomps;
	struct xp_hlo_instr *instrs;	/* computation by computation */
	size_t ninstrs;
	size_t entry;			/* index of the entry computation; ncomps when none */
	size_t nfusions;		/* instructions of opcode fusion */
	size_t bad_refs, dup_names, dup_ids;
	/* private */
	struct xp_arena arena_;
	struct hlo_by_name *by_name_;	/* instrs sorted by name, the first of equal names */
	struct hlo_by_id *by_id_;	/* and by id */
	struct hlo_by_id *comp_by_id_;	/* computations by id */
	size_t nnames_, nids_, ncomp_ids_;
};

/*
 * Decodes len bytes of a serialized xla.HloProto (a module's "Hlo Proto"
 * stat). 0 with *out set, or XP_ERR_FORMAT (not one, or nested too deep),
 * XP_ERR_LIMIT (past one of the XP_HLO_MAX_* counts) or XP_ERR_NOMEM with
 * err filled.
 */
int xp_hlo_decode(const void *buf, size_t len, struct xp_hlo_module **out, struct xp_err *err);
void xp_hlo_free(struct xp_hlo_module *m);	/* accepts NULL */

/* The instruction of that name, or NULL. */
const struct xp_hlo_instr *xp_hlo_instr_named(const struct xp_hlo_module *m, const char *name);
/* "f32", "bf16", "pred", "(tuple)" ... for xla.PrimitiveType numbers; NULL for one not known here. */
const char *xp_hlo_type_name(int32_t type);
/* Bytes of one element of that type (bits rounded up for sub-byte types); 0 when not an array type. */
unsigned xp_hlo_type_bytes(int32_t type);
/*
 * Elements of an array shape (the product of its dimensions; a tuple: the
 * sum over its parts) and its bytes (elements times the type's size); past
 * 2^64-1, 0 with *ok cleared (*ok is never set).
 */
uint64_t xp_hlo_shape_elements(const struct xp_hlo_shape *s, int *ok);
uint64_t xp_hlo_shape_bytes(const struct xp_hlo_shape *s, int *ok);

#endif
