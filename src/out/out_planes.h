/* SPDX-License-Identifier: Apache-2.0 */
/* Formatters for `planes`: what a file holds. */
#ifndef OUT_PLANES_H
#define OUT_PLANES_H

#include <stdio.h>

#include "an_planes.h"
#include "out_table.h"

/* Text, CSV or TSV (one row per line of each plane), or JSON (with notes as "warnings"; NULL: none). */
int out_planes(FILE *f, enum out_mode mode, const char *path, const struct an_planes *p,
	       const struct xp_notes *notes, const struct out_style *st);

#endif
