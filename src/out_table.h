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
};

void out_table_init(struct out_table *t, size_t ncols, const char *const *headers,
		    const unsigned char *right);
/* Appends a cell (printf-style); rows fill left to right. */
void out_table_add(struct out_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Text table: control characters and invalid UTF-8 shown as \xNN, header bold
 * when colour; CSV quoted as RFC 4180; TSV with \t \n \r \\ escaped.
 * Returns -1 if the table could not be built (out of memory).
 */
int out_table_print(const struct out_table *t, FILE *f, enum out_mode mode, int colour);
void out_table_release(struct out_table *t);

/* "12.345 ms" style: picoseconds in the largest unit that keeps the value >= 1. */
void out_fmt_time(char *buf, size_t n, double ps);
/* Picoseconds as nanoseconds with three decimals ("1234.567"). */
void out_fmt_ns(char *buf, size_t n, double ps);
/* Whether to colour a stream: a terminal, and NO_COLOR unset or empty. */
int out_use_colour(FILE *f);
/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
size_t out_utf8_len(const unsigned char *s);

#endif
