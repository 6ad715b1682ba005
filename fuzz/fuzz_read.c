/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One reader, bytes -> model: it must not crash, leak or read out of bounds,
 * and every model it returns must keep the promises of xp_model.h
 * (model_check). FUZZ_READER names the reader: built once per reader.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model_check.h"
#include "xp_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct model_diff d;
	int ret = xp_trace_read(&FUZZ_READER, data, len, &t, &err);

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
