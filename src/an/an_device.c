/* SPDX-License-Identifier: Apache-2.0 */
/* Device planes: which planes are devices, --device matching, name order, lines of device work. */
#include "an_device.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int an_is_device_plane(const char *name)
{
	return !strncmp(name, "/device:GPU:", 12) || !strncmp(name, "/device:TPU:", 12) ||
	       !strncmp(name, "/device:CUSTOM:", 15) || !strcmp(name, AN_CPU_PLANE);
}

int an_is_sparsecore_plane(const char *name)
{
	return !strncmp(name, "/device:TPU:", 12) && strstr(name, " SparseCore ") != NULL;
}

int an_device_matches(const char *name, const char *pat)
{
	size_t n = strlen(name), m = strlen(pat), i, j;

	if (!m)
		return 1;
	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++)
			if (tolower((unsigned char)name[i + j]) != tolower((unsigned char)pat[j]))
				break;
		if (j < m)
			continue;
		if (isdigit((unsigned char)pat[m - 1]) && isdigit((unsigned char)name[i + m]))
			continue;
		/* "TPU:0" is the TensorCore: its SparseCores only where the pattern names them */
		if (isdigit((unsigned char)pat[m - 1]) && !strncmp(name + i + m, " SparseCore", 11) &&
		    !strcasestr(pat, "sparsecore"))
			continue;
		return 1;
	}
	return 0;
}

static int digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

int an_name_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	while (*x && *y) {
		if (digit(*x) && digit(*y)) {
			const unsigned char *xe, *ye;
			int c;

			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			for (xe = x; digit(*xe); xe++)
				;
			for (ye = y; digit(*ye); ye++)
				;
			if (xe - x != ye - y)
				return xe - x < ye - y ? -1 : 1;	/* more digits: larger */
			if ((c = memcmp(x, y, (size_t)(xe - x))))
				return c < 0 ? -1 : 1;
			x = xe;
			y = ye;
			continue;
		}
		if (*x != *y)
			return *x < *y ? -1 : 1;
		x++;
		y++;
	}
	if (*x != *y)
		return *x ? 1 : -1;
	return strcmp(a, b);
}

int an_is_derived_line(const char *name)
{
	static const char *const derived[] = {
		"XLA Modules", "XLA Ops", "Async XLA Ops", "TensorFlow Ops", "TensorFlow Name Scope", "Steps",
		"Source code", "XLA TraceMe", "Sparse Core Ops", "Sparse Core Modules", "Sparse Core Steps",
		"Host Offload Op",
	};
	size_t i;

	for (i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
		if (!strcmp(name, derived[i]))
			return 1;
	return 0;
}

size_t an_device_lines(const char *const *names, size_t nlines, unsigned char *use, int *module_line)
{
	size_t i, n = 0;

	*module_line = -1;
	for (i = 0; i < nlines && *module_line < 0; i++)
		if (!strcmp(names[i], "XLA Modules") || !strcmp(names[i], "Sparse Core Modules"))
			*module_line = (int)i;
	if (*module_line >= 0) {
		use[*module_line] = 1;
		return 1;
	}
	for (i = 0; i < nlines; i++)
		if (!strncmp(names[i], "Stream #", 8))
			use[i] = 1, n++;
	if (!n)
		for (i = 0; i < nlines; i++)
			use[i] = 1, n++;
	return n;
}

long an_plane_device_lines(const struct xp_plane *p, unsigned char *use, int *module_line)
{
	const char **names = xp_malloc_big(p->nlines + 1, sizeof(*names));
	size_t i, n;

	if (!names)
		return -1;
	for (i = 0; i < p->nlines; i++)
		names[i] = p->lines[i].name;
	n = an_device_lines(names, p->nlines, use, module_line);
	free(names);
	return (long)n;
}

/* Events (else aggregated events) on the plane's lines of device work. */
static size_t device_lines_sum(const struct xp_plane *p, int aggs)
{
	unsigned char *use = calloc(p->nlines + 1, 1);
	size_t i, n = 0;
	int module_line;

	if (!use || an_plane_device_lines(p, use, &module_line) < 0) {
		free(use);
		return aggs ? p->naggs : p->nevents;	/* out of memory: let the scan find out */
	}
	for (i = 0; i < p->nlines; i++)
		if (use[i])
			n += aggs ? p->lines[i].naggs : p->lines[i].nevents;
	free(use);
	return n;
}

size_t an_plane_device_events(const struct xp_plane *p)
{
	return device_lines_sum(p, 0);
}

size_t an_plane_device_aggs(const struct xp_plane *p)
{
	return device_lines_sum(p, 1);
}
