/* SPDX-License-Identifier: Apache-2.0 */
/* A table of text cells rendered aligned for people, or as CSV / TSV for programs. */
#ifndef OUT_TABLE_H
#define OUT_TABLE_H

#include <stdint.h>
#include <stdio.h>

enum out_mode { OUT_TABLE, OUT_JSON, OUT_CSV, OUT_TSV };

struct out_table {
	size_t ncols;
	const char *const *headers;
	const unsigned char *right;	/* per column: right-aligned in the text table */
	char **cells;			/* row-major, owned */
	size_t ncells, cap;
	int failed;			/* out of memory while adding: nothing is printed */
	unsigned char *marks;		/* per row: enum out_mark (out_table_mark), or NULL */
	size_t nmarks;
	int whole_last;			/* the last column is a description, never cut (set after init) */
};

/* How a row stands out in a coloured text table. */
enum out_mark { OUT_MARK_NONE, OUT_MARK_WORSE, OUT_MARK_BETTER };

void out_table_init(struct out_table *t, size_t ncols, const char *const *headers,
		    const unsigned char *right);
/* Appends a cell (printf-style); rows fill left to right. */
void out_table_add(struct out_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Marks the row being filled (the last one begun): red (worse) or green (better) when colour. */
void out_table_mark(struct out_table *t, enum out_mark m);
struct out_style;
/*
 * Text table: control characters and invalid UTF-8 shown as \xNN, header bold
 * with st's colour, cells of left-aligned columns (names; not a whole_last
 * column) wider than OUT_CELL_MAX cut to their start and end around "…" (wider where the cut
 * would show two different names alike; whole with st->wide; st may be
 * NULL); CSV quoted as RFC 4180; TSV with \t \n \r \\ escaped, every cell
 * whole. Returns -1 if the table could not be built (out of memory).
 */
int out_table_print(const struct out_table *t, FILE *f, enum out_mode mode, const struct out_style *st);
void out_table_release(struct out_table *t);

/* Units of times in text tables; OUT_UNIT_AUTO lets each column choose its own. */
enum out_unit { OUT_UNIT_AUTO = -1, OUT_UNIT_PS, OUT_UNIT_NS, OUT_UNIT_US, OUT_UNIT_MS, OUT_UNIT_S };

/* "ns", "us", "ms" or "s" (--time-unit); -1 if none of them. */
int out_unit_parse(const char *s);
const char *out_unit_name(enum out_unit u);
/*
 * How a formatter styles what people read, chosen by the command and passed
 * with each call: colour in text tables (out_use_colour), and the unit text
 * tables and summaries show times in (--time-unit). JSON, CSV and TSV keep
 * their documented units.
 */
struct out_style {
	int colour;
	enum out_unit unit;	/* OUT_UNIT_AUTO: each column (each time) its own */
	int several;		/* the result pools several inputs: tables that can name each row's do */
	int wide;		/* --wide: text cells whole, never cut to OUT_CELL_MAX */
};

/* Text table cells (names) wider than this many columns are cut, keeping their start and end. */
#define OUT_CELL_MAX 64

/*
 * One column of times shown in one unit, named in its header ("TOTAL (ms)"),
 * so that the numbers line up. With OUT_UNIT_AUTO the column takes the
 * largest unit in which its smallest non-zero value is at least 1 (no value
 * loses a digit against "%.3f" in its own unit), larger while its largest
 * value would need seven digits before the point.
 */
struct out_tcol {
	double lo, hi;		/* smallest non-zero and largest magnitude seen */
	enum out_unit want;	/* the unit asked for, or OUT_UNIT_AUTO */
	enum out_unit unit;	/* after out_tcol_add: the unit */
	double logsum;		/* of the non-zero magnitudes' log10 (out_tcols_share) */
	size_t nlog;
};

void out_tcol_init(struct out_tcol *c, enum out_unit unit);
void out_tcol_add(struct out_tcol *c, double ps);
/* "NAME (unit)" into buf. */
void out_tcol_header(const struct out_tcol *c, char *buf, size_t n, const char *name);
/*
 * The headers of n columns that share c's unit: "names[k] (unit)" into the
 * k-th of the size-byte buffers that begin at bufs (a char [n][size] array).
 */
void out_tcol_headers(const struct out_tcol *c, char *bufs, size_t size, const char *const *names, size_t n);
/* n columns at once, each choosing its own unit (out_tcol_init on each). */
void out_tcols_init(struct out_tcol *c, size_t n, enum out_unit unit);
/*
 * One unit for a table's n time columns (after their values are added;
 * nothing where a unit was asked for): the one in which a typical value of
 * the table (the geometric mean of its non-zero times) reads at least 1,
 * larger while the largest would need seven digits before the point. Small
 * values may then read 0.000: JSON and CSV have them exact.
 */
void out_tcols_share(struct out_tcol *c, size_t n);
/* The headers of n such columns: "names[k] (unit)" in c[k]'s unit, into bufs as out_tcol_headers. */
void out_tcols_headers(const struct out_tcol *c, char *bufs, size_t size, const char *const *names, size_t n);
/* ps in the column's unit with three decimals, no suffix; "-" if not finite. */
void out_tcol_fmt(const struct out_tcol *c, char *buf, size_t n, double ps);
/* Appends a cell: ps as out_tcol_fmt writes it in c's unit. */
void out_table_add_time(struct out_table *t, const struct out_tcol *c, double ps);
/*
 * Appends a time cell of a table written for programs (machine: nanoseconds
 * as out_fmt_ns, c unused) or people (in c's unit); a time it lacks (!have)
 * is empty for programs and "-" for people.
 */
void out_table_add_time_cell(struct out_table *t, int machine, const struct out_tcol *c, double ps, int have);

/*
 * "12.345 ms" style, for times in sentences: picoseconds in the largest unit
 * that keeps the value >= 1 ("0" for zero) with OUT_UNIT_AUTO, else in unit.
 */
void out_fmt_time(char *buf, size_t n, double ps, enum out_unit unit);
/* Bytes for people: "512 B", "1.50 KiB", "1.61 GiB" (binary units, two decimals). */
void out_fmt_bytes(char *buf, size_t n, uint64_t bytes);
/* Picoseconds as nanoseconds with three decimals ("1234.567"). */
void out_fmt_ns(char *buf, size_t n, double ps);
/* Whether to colour a stream: a terminal, and NO_COLOR unset or empty. */
int out_use_colour(FILE *f);
/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
size_t out_utf8_len(const unsigned char *s);
/* The same for the len bytes at s (no NUL needed): 0 when they do not begin with a valid sequence. */
size_t out_utf8_seq(const unsigned char *s, size_t len);

/*
 * One CSV field (quoted when it holds a comma, quote, CR or LF, or starts or
 * ends with a space; quotes doubled) or TSV field (tab, newline, CR and
 * backslash escaped as \t \n \r \\), as the table's CSV/TSV modes write cells.
 */
void out_put_csv(FILE *f, const char *s);
/* Text from a trace in a sentence, as the text table shows cells (\xNN for control bytes, bad UTF-8). */
void out_put_text(FILE *f, const char *s);
void out_put_tsv(FILE *f, const char *s);

#endif
