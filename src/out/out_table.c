/* SPDX-License-Identifier: Apache-2.0 */
/* A table of text cells rendered aligned for people, or as CSV / TSV for programs (out_table.h). */
#include "out_table.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xp_arena.h"
#include "xp_err.h"

void out_table_init(struct out_table *t, size_t ncols, const char *const *headers,
		    const unsigned char *right)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->headers = headers;
	t->right = right;
}

void out_table_add(struct out_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (t->failed)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0) {
		va_end(ap);
		t->failed = 1;
		return;
	}
	va_end(ap);
	if (t->ncells == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : t->ncols * 16;
		char **nc = realloc(t->cells, cap * sizeof(*nc));

		if (!nc) {
			free(s);
			t->failed = 1;
			return;
		}
		t->cells = nc;
		t->cap = cap;
	}
	t->cells[t->ncells++] = s;
}

void out_table_release(struct out_table *t)
{
	xp_strv_free(t->cells, t->ncells);
	free(t->marks);
	memset(t, 0, sizeof(*t));
}

size_t out_utf8_len(const unsigned char *s)
{
	return out_utf8_seq(s, strnlen((const char *)s, 4));
}

size_t out_utf8_seq(const unsigned char *s, size_t len)
{
	return xp_utf8_seq(s, len);
}

/* The next character's width in a text cell (4 for one shown as \\xNN) and its bytes (*k). */
static size_t unit(const unsigned char *s, size_t left, size_t *k)
{
	*k = out_utf8_seq(s, left);
	if (!*k || *s < 0x20 || *s == 0x7f) {
		*k = 1;
		return 4;
	}
	return 1;
}

/* The same as put_text for the first n bytes of str. */
static size_t put_text_n(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t width = 0, i, k, w;

	for (i = 0; i < n; i += k) {
		w = unit(s + i, n - i, &k);
		if (f && w == 4)
			fprintf(f, "\\x%02x", s[i]);
		else if (f)
			fwrite(s + i, 1, k, f);
		width += w;
	}
	return width;
}

/*
 * A cell cut to max columns: its first two thirds and its end around "…"
 * (a name's start says what it is, its end often which variant); the bytes
 * [0, *head) and [*tail, end) are shown. Returns the width shown; a cell
 * that fits is whole (*head = *tail = its length).
 */
static size_t cut_cell(const char *str, size_t max, size_t *head, size_t *tail)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str), width = put_text_n(NULL, str, len), i, k, w, hw, uw, want;

	*head = *tail = len;
	if (width <= max)
		return width;
	want = (max - 1) * 2 / 3;
	for (i = 0, w = 0; i < len && w + (uw = unit(s + i, len - i, &k)) <= want; i += k)
		w += uw;
	*head = i;
	hw = w;
	/* the tail: the longest end that fits in what max leaves after the head and the "…" */
	want = max - 1 - hw;
	for (; i < len && width - w > want; i += k)
		w += unit(s + i, len - i, &k);
	*tail = i;
	return hw + 1 + (width - w);
}

/* Prints s for a terminal (f != NULL) and returns its width in columns. */
static size_t put_text(FILE *f, const char *s)
{
	return put_text_n(f, s, strlen(s));
}

void out_put_text(FILE *f, const char *s)
{
	put_text(f, s);
}

void out_put_csv(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n") && !(s[0] == ' ' || (s[0] && s[strlen(s) - 1] == ' '))) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void out_put_tsv(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\\': fputs("\\\\", f); break;
		default: fputc(*s, f);
		}
	}
}

static void print_plain(const struct out_table *t, FILE *f, enum out_mode mode)
{
	size_t i, c;
	size_t nrows = t->ncells / t->ncols;

	for (i = 0; i <= nrows; i++) {
		for (c = 0; c < t->ncols; c++) {
			const char *s = i ? t->cells[(i - 1) * t->ncols + c] : t->headers[c];

			if (c)
				fputc(mode == OUT_CSV ? ',' : '\t', f);
			if (mode == OUT_CSV)
				out_put_csv(f, s);
			else
				out_put_tsv(f, s);
		}
		fputc('\n', f);
	}
}

void out_table_mark(struct out_table *t, enum out_mark m)
{
	size_t row = t->ncells ? (t->ncells - 1) / t->ncols : 0, i;
	unsigned char *p;

	if (row >= t->nmarks) {
		p = realloc(t->marks, row + 1);
		if (!p) {
			t->failed = 1;
			return;
		}
		for (i = t->nmarks; i <= row; i++)
			p[i] = OUT_MARK_NONE;
		t->marks = p;
		t->nmarks = row + 1;
	}
	t->marks[row] = (unsigned char)m;
}

/* A cell as a cut shows it, and the cell itself: to find two cells a cut makes alike. */
struct shown {
	char *text;
	const char *cell;
};

static int cmp_shown(const void *a, const void *b)
{
	return strcmp(((const struct shown *)a)->text, ((const struct shown *)b)->text);
}

/* Whether cutting column c at max shows two different cells alike; -1 out of memory. */
static int cut_collides(const struct out_table *t, size_t c, size_t max)
{
	size_t nrows = t->ncells / t->ncols, i, head, tail, n = 0;
	struct shown *v = calloc(nrows + 1, sizeof(*v));
	int ret = 0;

	if (!v)
		return -1;
	for (i = 0; i < nrows; i++) {
		const char *s = t->cells[i * t->ncols + c];

		cut_cell(s, max, &head, &tail);
		if (asprintf(&v[n].text, "%.*s%s%s", (int)head, s, head < tail ? "\u2026" : "", s + tail) < 0) {
			ret = -1;
			break;
		}
		v[n++].cell = s;
	}
	if (!ret) {
		qsort(v, n, sizeof(*v), cmp_shown);
		for (i = 1; i < n && !ret; i++)
			ret = !strcmp(v[i - 1].text, v[i].text) && strcmp(v[i - 1].cell, v[i].cell);
	}
	for (i = 0; i < n; i++)
		free(v[i].text);
	free(v);
	return ret;
}

/*
 * How wide column c's cells may show: OUT_CELL_MAX, or the narrowest width
 * past it at which the cut shows no two different cells alike (a binary
 * search, each step checked: O(n log n log W) for n rows of width up to W);
 * SIZE_MAX (whole) with wide, for right-aligned columns (numbers), for a
 * last column the table keeps whole, and when memory runs out.
 */
static size_t cut_width(const struct out_table *t, size_t c, int wide)
{
	size_t nrows = t->ncells / t->ncols, i, widest = 0, w, lo, hi, mid;
	int r;

	if (wide || (t->right && t->right[c]) || (t->whole_last && c + 1 == t->ncols))
		return SIZE_MAX;
	for (i = 0; i < nrows; i++)
		if ((w = put_text(NULL, t->cells[i * t->ncols + c])) > widest)
			widest = w;
	if (widest <= OUT_CELL_MAX || !(r = cut_collides(t, c, OUT_CELL_MAX)))
		return OUT_CELL_MAX;
	if (r < 0)
		return SIZE_MAX;
	/* collides at lo, not at hi (nothing is cut at the widest cell's width) */
	for (lo = OUT_CELL_MAX, hi = widest; hi - lo > 1;) {
		mid = lo + (hi - lo) / 2;
		if ((r = cut_collides(t, c, mid)) < 0)
			return SIZE_MAX;
		if (r)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

int out_table_print(const struct out_table *t, FILE *f, enum out_mode mode, const struct out_style *st)
{
	size_t nrows = t->ncells / t->ncols, i, c, *w, *cut, head, tail;
	int colour = st && st->colour;

	if (t->failed)
		return -1;
	if (mode == OUT_CSV || mode == OUT_TSV) {
		print_plain(t, f, mode);
		return 0;
	}
	w = calloc(t->ncols, sizeof(*w));
	cut = calloc(t->ncols, sizeof(*cut));
	if (!w || !cut) {
		free(w);
		free(cut);
		return -1;
	}
	for (c = 0; c < t->ncols; c++) {
		w[c] = put_text(NULL, t->headers[c]);
		cut[c] = cut_width(t, c, st && st->wide);
		for (i = 0; i < nrows; i++) {
			size_t cw = cut_cell(t->cells[i * t->ncols + c], cut[c], &head, &tail);

			if (cw > w[c])
				w[c] = cw;
		}
	}
	for (i = 0; i <= nrows; i++) {
		int mark = i && colour && i - 1 < t->nmarks ? t->marks[i - 1] : OUT_MARK_NONE;

		if (!i && colour)
			fputs("\033[1m", f);
		else if (mark)
			fputs(mark == OUT_MARK_WORSE ? "\033[31m" : "\033[32m", f);
		size_t end = t->ncols;

		/* Trailing empty cells print nothing, so no line ends in spaces. */
		while (i && end > 1 && !t->cells[(i - 1) * t->ncols + end - 1][0])
			end--;
		for (c = 0; c < end; c++) {
			const char *s = i ? t->cells[(i - 1) * t->ncols + c] : t->headers[c];
			size_t cw = i ? cut_cell(s, cut[c], &head, &tail) : put_text(NULL, s), pad = w[c] - cw;
			int last = c + 1 == end;

			if (c)
				fputs("  ", f);
			if (t->right && t->right[c])
				fprintf(f, "%*s", (int)pad, "");
			if (i && head < tail) {	/* cut: whole in JSON, CSV, TSV and with --wide */
				put_text_n(f, s, head);
				fputs("\u2026", f);
				put_text(f, s + tail);
			} else {
				put_text(f, s);
			}
			if (!(t->right && t->right[c]) && !last)
				fprintf(f, "%*s", (int)pad, "");
		}
		if ((!i && colour) || mark)
			fputs("\033[0m", f);
		fputc('\n', f);
	}
	free(w);
	free(cut);
	return 0;
}

static const struct {
	double scale;
	const char *name;
} units[] = {{1, "ps"}, {1e3, "ns"}, {1e6, "us"}, {1e9, "ms"}, {1e12, "s"}};
#define NUNITS (sizeof(units) / sizeof(units[0]))

int out_unit_parse(const char *s)
{
	size_t i;

	for (i = OUT_UNIT_NS; i < NUNITS; i++)
		if (!strcmp(s, units[i].name))
			return (int)i;
	return -1;
}

const char *out_unit_name(enum out_unit u)
{
	return u >= 0 && (size_t)u < NUNITS ? units[u].name : "auto";
}

/* The largest unit in which |ps| >= 1 (ps for zero or less). */
static enum out_unit unit_of(double ps)
{
	size_t i = NUNITS - 1;

	while (i > 0 && fabs(ps) < units[i].scale)
		i--;
	return (enum out_unit)i;
}

void out_tcol_init(struct out_tcol *c, enum out_unit unit)
{
	c->lo = c->hi = 0;
	c->logsum = 0;
	c->nlog = 0;
	c->want = unit;
	c->unit = unit != OUT_UNIT_AUTO ? unit : OUT_UNIT_US;
}

void out_tcol_add(struct out_tcol *c, double ps)
{
	double a = fabs(ps);
	size_t u;

	if (!isfinite(ps))
		return;
	if (a > 0 && (c->lo == 0 || a < c->lo))
		c->lo = a;
	if (a > 0) {
		c->logsum += log10(a);
		c->nlog++;
	}
	if (a > c->hi)
		c->hi = a;
	if (c->want != OUT_UNIT_AUTO || c->hi == 0)
		return;
	u = (size_t)unit_of(c->lo);
	/* Seven digits before the point are too many: a larger unit, even if small values lose digits. */
	while (u + 1 < NUNITS && c->hi / units[u].scale >= 999999.9995)
		u++;
	c->unit = (enum out_unit)u;
}

void out_tcol_header(const struct out_tcol *c, char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s (%s)", name, units[c->unit].name);
}

void out_tcol_headers(const struct out_tcol *c, char *bufs, size_t size, const char *const *names, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		out_tcol_header(c, bufs + k * size, size, names[k]);
}

void out_tcols_init(struct out_tcol *c, size_t n, enum out_unit unit)
{
	size_t k;

	for (k = 0; k < n; k++)
		out_tcol_init(&c[k], unit);
}

void out_tcols_share(struct out_tcol *c, size_t n)
{
	double logsum = 0, hi = 0;
	size_t k, nlog = 0, u;

	if (!n || c[0].want != OUT_UNIT_AUTO)
		return;
	for (k = 0; k < n; k++) {
		logsum += c[k].logsum;
		nlog += c[k].nlog;
		if (c[k].hi > hi)
			hi = c[k].hi;
	}
	if (!nlog)
		return;
	u = (size_t)unit_of(pow(10, logsum / (double)nlog));
	while (u + 1 < NUNITS && hi / units[u].scale >= 999999.9995)
		u++;
	for (k = 0; k < n; k++)
		c[k].unit = (enum out_unit)u;
}

void out_tcols_headers(const struct out_tcol *c, char *bufs, size_t size, const char *const *names, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		out_tcol_header(&c[k], bufs + k * size, size, names[k]);
}

void out_tcol_fmt(const struct out_tcol *c, char *buf, size_t n, double ps)
{
	if (!isfinite(ps))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f", ps / units[c->unit].scale);
}

void out_table_add_time(struct out_table *t, const struct out_tcol *c, double ps)
{
	char b[48];

	out_tcol_fmt(c, b, sizeof(b), ps);
	out_table_add(t, "%s", b);
}

void out_table_add_time_cell(struct out_table *t, int machine, const struct out_tcol *c, double ps, int have)
{
	char b[48];

	if (!have) {
		out_table_add(t, "%s", machine ? "" : "-");
		return;
	}
	if (!machine) {
		out_table_add_time(t, c, ps);
		return;
	}
	out_fmt_ns(b, sizeof(b), ps);
	out_table_add(t, "%s", b);
}

void out_fmt_time(char *buf, size_t n, double ps, enum out_unit unit)
{
	enum out_unit u;

	if (!isfinite(ps)) {
		snprintf(buf, n, "-");
		return;
	}
	if (ps == 0 && unit == OUT_UNIT_AUTO) {
		snprintf(buf, n, "0");
		return;
	}
	u = unit != OUT_UNIT_AUTO ? unit : unit_of(ps);
	snprintf(buf, n, "%.3f %s", ps / units[u].scale, units[u].name);
}

void out_fmt_ns(char *buf, size_t n, double ps)
{
	snprintf(buf, n, "%.3f", ps / 1000.0);
}

int out_use_colour(FILE *f)
{
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return 0;
	return isatty(fileno(f));
}

void out_fmt_bytes(char *buf, size_t n, uint64_t bytes)
{
	static const char *const binary[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	size_t u = 0;

	if (bytes < 1024) {
		snprintf(buf, n, "%" PRIu64 " B", bytes);
		return;
	}
	v /= 1024;
	while (v >= 1024 && u + 1 < sizeof(binary) / sizeof(binary[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, n, "%.2f %s", v, binary[u]);
}
