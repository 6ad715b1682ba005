/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

size_t xp_utf8_seq(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned cp;

	if (!len)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void xp_escape_utf8(char *dst, size_t n, const char *id)
{
	const unsigned char *s = (const unsigned char *)id;
	size_t len = 0, k;

	if (!n)
		return;
	while (*s && len + 5 < n) {
		k = xp_utf8_seq(s, strnlen((const char *)s, 4));
		if (!k || *s < 0x20 || *s == 0x7f) {
			len += (size_t)snprintf(dst + len, n - len, "\\x%02x", *s++);
			continue;
		}
		if (len + k + 1 >= n)
			break;
		memcpy(dst + len, s, k);
		len += k;
		s += k;
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
