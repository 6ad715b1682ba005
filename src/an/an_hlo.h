/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The compiled programs a trace carries: each module's "Hlo Proto" stat on
 * its event metadata in the /host:metadata plane (JAX writes one per
 * module it compiled), found without decoding, decoded when first asked
 * (an_hlo_module) and only then.
 *
 * A module is named as the metadata names it, "jit_dot(64)": its name and,
 * in parentheses, its program id (on GPU the run's program id, on TPU the
 * fingerprint), which is how device events name their program. An op is
 * looked up by module, program and the op's name, the name taken after its
 * last "::" as XProf does ("xla::op::add.1" is "add.1").
 *
 * Ownership: a set owns its modules and strings; the HLO bytes stay the
 * trace's, so a set lives no longer than the trace it was found in.
 */
#ifndef AN_HLO_H
#define AN_HLO_H

#include <stddef.h>
#include <stdint.h>

#include "xp_hlo.h"
#include "xp_model.h"

struct an_hlo_entry {
	char *name;		/* as the metadata names it: "jit_dot(64)" */
	char *base;		/* without the "(digits)": "jit_dot" */
	uint64_t program_id;
	int has_program_id;	/* "(digits)" in the name, else a non-zero program_id stat */
	const uint8_t *bytes;	/* the trace's */
	size_t len;
	struct xp_hlo_module *mod;	/* once decoded */
	int tried;		/* decoding was tried: mod, or error says why not */
	char *error;
	/* once decoded (kept after an_hlo_forget): decoded 1, its entry computation's name, its counts */
	int decoded;
	char *entry_name;
	size_t comps, instrs, fusions;
	/* an_hlo_mark_op: ops of this module, and those of them that name no instruction of it */
	size_t ops, ops_unmatched;
};

struct an_hlo_set {
	struct an_hlo_entry *e;
	size_t n, cap;
	size_t failed;		/* modules whose HLO did not decode (error says why) */
};

/*
 * Adds the modules of t's metadata plane (loading it if deferred), the set
 * then in order of name and program. 0, or an xp_errcode with err filled.
 */
int an_hlo_find(struct an_hlo_set *s, struct xp_trace *t, struct xp_err *err);
/*
 * The module a device event's module and program name: module as events
 * name it ("jit_dot", or "jit_f(123)" as TPU modules are), matched on the
 * name without "(digits)" and on the program id where both have one; else
 * the one module of that name the metadata names without a program (or,
 * for an event without a program, the one module of that name). NULL when
 * none or several. The set must be as an_hlo_find leaves it (sorted).
 */
struct an_hlo_entry *an_hlo_lookup(struct an_hlo_set *s, const char *module, uint64_t program_id, int has_program_id);
/* The entry's module, decoded on first call; NULL when it does not decode (e->error says why, counted in failed) or out of memory (-1 in *nomem). */
const struct xp_hlo_module *an_hlo_module(struct an_hlo_set *s, struct an_hlo_entry *e, int *nomem);
/* Frees the entry's decoded module, keeping its counts (a module decoded again costs the decoding again). */
void an_hlo_forget(struct an_hlo_entry *e);
/* The instruction an op's name names in m (after its last "::"), or NULL. */
const struct xp_hlo_instr *an_hlo_op(const struct xp_hlo_module *m, const char *op);
/* Splits "name(digits)": the length of name, and the digits' value in *pid (returns 1) or 0 when there are none. */
int an_hlo_split_name(const char *s, size_t *base_len, uint64_t *pid);
/*
 * Counts one op (a row of an_ops: module, program, name) in the module it
 * ran in, and whether it names no instruction there, decoding that module.
 * 0, or -1 when out of memory.
 */
int an_hlo_mark_op(struct an_hlo_set *s, const char *module, uint64_t program_id, int has_program_id,
		   const char *op);
void an_hlo_set_release(struct an_hlo_set *s);

#endif
