/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_err.h"

#include <stdarg.h>
#include <stdio.h>

#include "xp_arena.h"

void xp_escape(char *dst, size_t n, const char *s)
{
	size_t len = 0;

	if (!n)
		return;
	for (; *s && len + 5 < n; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch >= 0x7f || ch == '\\')
			len += (size_t)snprintf(dst + len, n - len, "\\x%02x", ch);
		else
			dst[len++] = (char)ch;
	}
	dst[len] = '\0';
}

int xp_err_set(struct xp_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

#include <stdlib.h>
#include <string.h>

int xp_notes_add(struct xp_notes *w, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	if (xp_grow(&w->msgs, &w->cap, w->n, sizeof(*w->msgs), 8))
		return XP_ERR_NOMEM;
	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return XP_ERR_NOMEM;
	w->msgs[w->n++] = s;
	return 0;
}

void xp_notes_release(struct xp_notes *w)
{
	xp_strv_free(w->msgs, w->n);
	memset(w, 0, sizeof(*w));
}
