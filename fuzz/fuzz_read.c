/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One reader, bytes -> model: it must not crash, leak or read out of bounds,
 * and every model it returns must keep the promises of xp_model.h
 * (model_check). FUZZ_READER names the reader: built once per reader. The
 * wire reader also splits every plane's lines among three threads (each
 * group counting its events, then filling its slot of the plane's array, or
 * its own array when a count fails): the same verdict, message and model.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_check.h"
#include "xp_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct model_diff d;
	int ret = xp_trace_read(&FUZZ_READER, data, len, &t, &err);

	if (!strcmp(FUZZ_READER.name, "wire")) {
		/* every stat kept or none (groups then number stats from the plane's count) */
		struct xp_read_opts o = {.reader = &FUZZ_READER, .jobs = 3, .split_bytes = 1,
					 .event_stats = len % 2 ? XP_EVSTATS_NONE : XP_EVSTATS_ALL};
		struct xp_trace *t3 = NULL;
		struct xp_err e3 = {0};
		int r3 = xp_trace_read_opts(&o, data, len, &t3, &e3);

		if (r3 != ret || (ret && strcmp(err.msg, e3.msg)) ||
		    (!ret && model_differ_mode(t, t3, o.event_stats, &d))) {
			fprintf(stderr, "split read differs: %d '%s' vs %d '%s' %s\n", ret, err.msg, r3,
				e3.msg, !ret && !r3 ? d.msg : "");
			abort();
		}
		xp_trace_free(t3);
	}
	if (ret) {
		/* A rejection says why, with a code the CLI maps to an exit status. */
		if (t || !err.msg[0] || err.code != ret ||
		    (ret != XP_ERR_FORMAT && ret != XP_ERR_LIMIT && ret != XP_ERR_NOMEM)) {
			fprintf(stderr, "%s: bad rejection: %d '%s'\n", FUZZ_READER.name, ret, err.msg);
			abort();
		}
		return 0;
	}
	if (model_check(t, &d)) {
		fprintf(stderr, "%s: broken model: %s\n", FUZZ_READER.name, d.msg);
		abort();
	}
	xp_trace_free(t);
	return 0;
}
