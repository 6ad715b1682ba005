/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pipeline harness's validators (fuzz_pipeline.c): what every output must
 * be whatever the names in the input hold (JSON parses and is valid UTF-8, CSV
 * and TSV keep their field counts, a table holds no control character), and
 * the promises the results make in their headers (an_memory.h, an_compile.h,
 * out_export.h, out_report.h). A broken check prints what broke and aborts,
 * which the fuzzer records as a crash.
 */
#ifndef FUZZ_VALIDATE_H
#define FUZZ_VALIDATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "an_compile.h"
#include "an_export.h"
#include "an_functions.h"
#include "an_memory.h"
#include "an_overview.h"
#include "an_report.h"
#include "an_straggle.h"
#include "out_bytes.h"
#include "out_table.h"
#include "xp_model.h"

/*
 * memory adds the input twice: the harness's full read, then the read the
 * command makes (host planes only, of them only the memory events and their
 * key stats), under names with odd bytes, as file names may hold.
 */
#define MEM_INPUT_A "fuzz\t\"memory\xff"
#define MEM_INPUT_B "fuzz,\nmemory\x01"

/*
 * compile adds the input twice too: the harness's full read, then the read
 * the command makes (host planes only, names and times: XP_EVSTATS_NONE).
 */
#define COMP_INPUT_A "fuzz\t\"compile\xff"
#define COMP_INPUT_B "fuzz,\ncompile\x01"

/* Prints what failed and the output (n bytes at out, the first 4000), then aborts. */
void val_fail(const char *what, const char *out, size_t n) __attribute__((noreturn));

/* Output of a formatter in mode (colour: the table may hold ANSI escapes) held to its format. */
void val_output(enum out_mode mode, int colour, const char *out, size_t n);

/* Runs one formatter into memory (call writes to the FILE *f it is given), then checks what it wrote. */
#define VAL_FORMAT(mode, colour, call)                                                          \
	do {                                                                                    \
		char *buf_ = NULL;                                                              \
		size_t n_ = 0;                                                                  \
		FILE *f = open_memstream(&buf_, &n_);                                           \
		int r_;                                                                         \
		if (!f)                                                                         \
			abort();                                                                \
		r_ = (call);                                                                    \
		if (fclose(f) || r_)                                                            \
			val_fail("formatter failed", buf_ ? buf_ : "", buf_ ? n_ : 0);          \
		val_output(mode, colour, buf_, n_);                                             \
		free(buf_);                                                                     \
	} while (0)

/* events --list's JSON lines: valid UTF-8, each line one document. */
void val_json_lines(const char *out, size_t n);

/* The input added twice to r, as MEM_INPUT_A and MEM_INPUT_B: an_memory.h's promises. */
void val_memory(const struct an_mem_result *r);

/* The input added twice to r, as COMP_INPUT_A and COMP_INPUT_B: an_compile.h's promises. */
void val_compile(const struct an_comp_result *r);

/* Both export writers on plan p, their outputs held to out_export.h's promises. */
void val_export(const struct an_exp_plan *p);
/* The trace t, planned as p with eo, exported as two hosts on one timeline (export of a run). */
void val_export_hosts(const struct xp_trace *t, const struct an_exp_opts *eo, const struct an_exp_plan *p);

/* A .pftrace (b, without its tail) of exported events held to out_export.h's promises. */
void val_pftrace(const struct out_bytes *b, uint64_t exported);

/* The stragglers keep an_straggle.h's promises: counts within the groups, sums not negative. */
void val_strag(const struct an_strag_result *r);
/*
 * The same, and its hosts (an_straggle.h) in range; equal: the result of
 * one input added as two hosts of one run, whose host times are equal.
 */
void val_strag_hosts(const struct an_strag_result *r, int equal);
/* The report's page from these results, held to out_report.h's promises. */
void val_report(const struct an_fn_result *fr, const struct an_ov_result *ov,
		const struct an_rep_timeline *tl, const struct xp_notes *notes);

#endif
