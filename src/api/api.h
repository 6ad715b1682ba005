/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public API's glue (include/xplane_stat.h) over the reader (xp/) and the
 * analyses (an/): the trace handle and how an internal error reaches the caller.
 * Nothing here prints, exits or keeps state between calls.
 */
#ifndef API_H
#define API_H

#include <stddef.h>

#include "xp_err.h"
#include "xp_model.h"
#include "xplane_stat.h"

struct xps_trace {
	struct xp_trace *t;	/* owns the input's bytes (host planes are read from them on demand) */
	char *path;		/* as given, for messages */
};

/* err's message into errbuf (when there is room), and its code as an XPS_E* code, which it returns. */
int api_fail(const struct xp_err *err, char *errbuf, size_t errlen);

#endif
