/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A cost model from the HLO's shapes: FLOPs and bytes accessed of one
 * instruction, for the ops that dominate device time. The rules (the man
 * page's COST MODEL says the same):
 *   elements of a shape: the product of its dimensions (a tuple: of each part);
 *   bytes of a shape: its elements times its element type's bytes;
 *   bytes accessed: the operands' bytes and the result's (of a cuBLAS or
 *     cuDNN call whose result ends in an s8 or u8 array, its scratch
 *     workspace, the result's without it); an
 *     asynchronous pair moves its data once: a *-start its operands', a
 *     *-done its result's;
 *   dot: 2 x result elements x the product of the lhs contracting dimensions;
 *   convolution: 2 x result elements x kernel elements / the kernel's output
 *     features (the groups are already in the kernel's shape);
 *   elementwise arithmetic, comparisons, selects, conversions: a FLOP per
 *     result element; transcendental functions (exp, log, tanh, sqrt,
 *     rsqrt, power, sine, ...): none, as XLA counts them apart;
 *   reduce: (input elements - result elements) FLOPs per arithmetic op of
 *     the reducer (at least one); all-reduce (and its -start): a FLOP per
 *     result element per arithmetic op of the reducer;
 *   data movement (copy, transpose, broadcast, reshape, slice, pad,
 *     concatenate, gather, scatter, iota, all-gather, all-to-all,
 *     collective-permute, send, recv, their -start and -done): no FLOPs;
 *   parameter, constant, tuple, get-tuple-element, bitcast: nothing, no bytes;
 *   fusion: the sum of its body's FLOPs (fusions in fusions followed 64
 *     deep, a fusion calling itself unknown), its bytes at its boundary;
 *   custom-call of a GEMM (__cublas$gemm, __cublas$lt$matmul*; XLA names
 *     ROCm's the same): as a dot, its dimension numbers read from the
 *     backend configuration (gemm_backend_config.dot_dimension_numbers);
 *     of a forward convolution (__cudnn$convForward*): as a convolution of
 *     its operands 0 and 1;
 *   anything else: unknown, its opcode (or target) named.
 * A count past 2^64-1 makes the cost unknown.
 */
#ifndef AN_COST_H
#define AN_COST_H

#include <stdint.h>

#include "xp_hlo.h"

struct an_cost {
	uint64_t flops, bytes;
	int flops_known, bytes_known;
	/*
	 * Why the FLOPs are unknown (set exactly when flops_known is 0): an
	 * opcode or custom-call target the model does not know, "shapes too
	 * large or inconsistent", "fusion calling itself" or "out of memory".
	 */
	const char *unknown;
};

/* The cost of ins (of m). Always fills c; returns 0, or -1 when out of memory (c unknown). */
int an_cost_of(const struct xp_hlo_module *m, const struct xp_hlo_instr *ins, struct an_cost *c);

#endif
