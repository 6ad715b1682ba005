/* SPDX-License-Identifier: Apache-2.0 */
/* out_table: escaping of hostile names in each mode; time formatting; duration parsing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "out_functions.h"
#include "out_table.h"
#include "test.h"

/* A table of rows (NAME, N): names[i] and i + first, printed in mode with style st. */
static char *render_rows(enum out_mode mode, const struct out_style *st, size_t n, const char *const *names,
			 int first)
{
	static const char *const h[] = {"NAME", "N"};
	static const unsigned char right[] = {0, 1};
	struct out_table t;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	out_table_init(&t, 2, h, right);
	for (i = 0; i < n; i++) {
		out_table_add(&t, "%s", names[i]);
		out_table_add(&t, "%d", first + (int)i);
	}
	out_table_print(&t, f, mode, st);
	out_table_release(&t);
	fclose(f);
	return buf;
}

static char *render(enum out_mode mode, const char *cell)
{
	return render_rows(mode, NULL, 1, &cell, 7);
}

static void test_escaping(void)
{
	static const struct {
		enum out_mode mode;
		const char *cell, *want;
	} c[] = {
		/* control characters and invalid UTF-8 as \xNN in the text table; valid UTF-8 stays */
		{OUT_TABLE, "a\tb\xff\xc3\xa9", "NAME         N\na\\x09b\\xffé  7\n"},
		{OUT_CSV, "say \"hi\", ok", "NAME,N\n\"say \"\"hi\"\", ok\",7\n"},
		{OUT_CSV, "line\nbreak", "NAME,N\n\"line\nbreak\",7\n"},
		{OUT_TSV, "tab\there\\", "NAME\tN\ntab\\there\\\\\t7\n"},
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *s = render(c[i].mode, c[i].cell);

		CHECK_STR(s, c[i].want);
		free(s);
	}
}

static void test_units(void)
{
	static const struct {
		double ps;
		const char *want;
	} times[] = {{1234567, "1.235 us"}, {999, "999.000 ps"}, {2.5e12, "2.500 s"}, {0, "0"}};
	/* a duration and its picoseconds; -1: refused */
	static const struct {
		const char *text;
		int64_t ps;
	} durations[] = {
		{"1us", 1000000}, {"2.5ms", 2500000000LL}, {"250ns", 250000}, {"7ps", 7},
		{"5", -1}, {"-1us", -1}, {"1 us", -1}, {"1e30s", -1},
	};
	char b[32];
	int64_t ps;
	size_t i;

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		out_fmt_time(b, sizeof(b), times[i].ps, OUT_UNIT_AUTO);
		CHECK_STR(b, times[i].want);
	}
	for (i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		if (durations[i].ps < 0)
			CHECK(opt_parse_duration(durations[i].text, &ps) == -1);
		else
			CHECK(!opt_parse_duration(durations[i].text, &ps) && ps == durations[i].ps);
	}
}

/* The unit a column of these values (picoseconds) gets when asked for unit, and how v shows in it. */
static const char *column(const double *ps, size_t n, double v, char *cell, size_t len, enum out_unit unit)
{
	static char head[32];
	struct out_tcol c;
	size_t i;

	out_tcol_init(&c, unit);
	for (i = 0; i < n; i++)
		out_tcol_add(&c, ps[i]);
	out_tcol_header(&c, head, sizeof(head), "T");
	out_tcol_fmt(&c, cell, len, v);
	return head;
}

static void test_columns(void)
{
	/* The smallest non-zero value is at least 1 in the unit: no value loses a digit. */
	static const double mixed[] = {43598948, 441422, 0, 27640e3};
	/* Seven digits before the point are too many: the unit grows. */
	static const double big[] = {1833003e3, 441422};
	static const double wide[] = {2.5e12, 441422};
	static const double zeros[] = {0, 0};
	/* a column of n values ps asked for unit: its header, and how v shows in it (NULL: not checked) */
	static const struct {
		const double *ps;
		size_t n;
		double v;
		enum out_unit unit;
		const char *head, *cell;
	} c[] = {
		{mixed, 4, 43598948, OUT_UNIT_AUTO, "T (ns)", "43598.948"},
		{mixed, 4, 27640e3, OUT_UNIT_AUTO, "T (ns)", "27640.000"},
		{mixed, 4, 0, OUT_UNIT_AUTO, "T (ns)", "0.000"},
		{mixed + 2, 2, 27640e3, OUT_UNIT_AUTO, "T (us)", "27.640"},
		{big, 2, 1833003e3, OUT_UNIT_AUTO, "T (us)", "1833.003"},
		{big, 2, 441422, OUT_UNIT_AUTO, "T (us)", "0.441"},
		{wide, 2, 441422, OUT_UNIT_AUTO, "T (ms)", "0.000"},
		{wide, 2, 2.5e12, OUT_UNIT_AUTO, "T (ms)", "2500.000"},
		{zeros, 2, 0, OUT_UNIT_AUTO, "T (us)", NULL},
		{mixed, 4, HUGE_VAL, OUT_UNIT_AUTO, "T (ns)", "-"},
		/* --time-unit: every column in that unit */
		{mixed, 4, 441422, OUT_UNIT_MS, "T (ms)", "0.000"},
	};
	char cell[48];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CHECK_STR(column(c[i].ps, c[i].n, c[i].v, cell, sizeof(cell), c[i].unit), c[i].head);
		if (c[i].cell)
			CHECK_STR(cell, c[i].cell);
	}
	CHECK(out_unit_parse("ms") == OUT_UNIT_MS && out_unit_parse("s") == OUT_UNIT_S);
	CHECK(out_unit_parse("ps") == -1 && out_unit_parse("sec") == -1 && out_unit_parse("") == -1);
	/* and the summary's times */
	out_fmt_time(cell, sizeof(cell), 1234567, OUT_UNIT_MS);
	CHECK_STR(cell, "0.001 ms");
	out_fmt_time(cell, sizeof(cell), 0, OUT_UNIT_MS);
	CHECK_STR(cell, "0.000 ms");
	/* The unit goes with each call: asking for one leaves the next call's choice alone. */
	CHECK_STR(column(mixed, 4, 43598948, cell, sizeof(cell), OUT_UNIT_AUTO), "T (ns)");
	out_fmt_time(cell, sizeof(cell), 0, OUT_UNIT_AUTO);
	CHECK_STR(cell, "0");
}

/* out_functions of two rows with these program ids in mode, as a string. */
static char *functions_table(enum out_mode mode, uint64_t a, uint64_t b)
{
	struct an_fn_row rows[2];
	struct an_fn_result r;
	struct xp_notes notes = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(rows, 0, sizeof(rows));
	memset(&r, 0, sizeof(r));
	rows[0].name = (char *)"jit_f";
	rows[1].name = (char *)"jit_g";
	rows[0].program_id = a;
	rows[1].program_id = b;
	rows[0].has_program_id = rows[1].has_program_id = 1;
	rows[0].ndevices = rows[1].ndevices = 1;
	rows[0].s.n = rows[1].s.n = 1;
	rows[0].s.total = rows[0].s.mean = rows[0].s.min = rows[0].s.median = rows[0].s.max = 2e6;
	rows[1].s.total = rows[1].s.mean = rows[1].s.min = rows[1].s.median = rows[1].s.max = 1e6;
	r.rows = rows;
	r.nrows = 2;
	out_functions(f, mode, &r, &notes, &(const struct out_style){.unit = OUT_UNIT_AUTO});
	fclose(f);
	return buf;
}

static void test_programs(void)
{
	char *s;

	/* TPU fingerprints (20 digits) show 7 digits and an ellipsis in the table, whole in CSV. */
	s = functions_table(OUT_TABLE, 12190760917235803885ULL, 9646411105960254074ULL);
	CHECK(strstr(s, " 1219076\u2026  ") != NULL);
	CHECK(strstr(s, " 9646411\u2026  ") != NULL);
	CHECK(!strstr(s, "12190760"));
	free(s);
	s = functions_table(OUT_CSV, 12190760917235803885ULL, 9646411105960254074ULL);
	CHECK(strstr(s, "jit_f,12190760917235803885,") != NULL);
	CHECK(strstr(s, "jit_g,9646411105960254074,") != NULL);
	free(s);
	/* Two ids that agree in their first 9 digits keep 10, so they stay apart. */
	s = functions_table(OUT_TABLE, 12345678901234567890ULL, 12345678991234567890ULL);
	CHECK(strstr(s, " 1234567890\u2026  ") != NULL);
	CHECK(strstr(s, " 1234567899\u2026  ") != NULL);
	free(s);
	/* Ids of up to 10 digits are whole. */
	s = functions_table(OUT_TABLE, 4294967295ULL, 49);
	CHECK(strstr(s, "jit_f     4294967295  ") != NULL);
	CHECK(strstr(s, "jit_g             49  ") != NULL);
	free(s);
}

/* Rows a, b (NAME, N: 1, 2) as the text table prints them with style st. */
static char *render2(const char *a, const char *b, const struct out_style *st)
{
	const char *names[] = {a, b};

	return render_rows(OUT_TABLE, st, 2, names, 1);
}

/* Names over OUT_CELL_MAX columns: cut to start and end, never two alike, whole with --wide. */
static void test_cut(void)
{
	const struct out_style wide = {.unit = OUT_UNIT_AUTO, .wide = 1};
	char a[128], b[128], want[1024], *out;

	/* 81 characters differing in the middle only: a cut at 64 (42 + … + 21) shows them alike */
	snprintf(a, sizeof(a), "%s%s%s", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "x",
		 "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
	snprintf(b, sizeof(b), "%s%s%s", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "y",
		 "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
	out = render2(a, b, NULL);
	/* widened to the narrowest width that tells them apart, 78: 51 of the start (x or y its last), …, the last 26 */
	snprintf(want, sizeof(want), "NAME%*s  N\n%.51s\u2026%s  1\n%.51s\u2026%s  2\n", 74, "", a, a + 55, b, b + 55);
	CHECK_STR(out, want);
	free(out);
	out = render2(a, a + 1, &wide);
	snprintf(want, sizeof(want), "NAME%*s  N\n%s  1\n%s   2\n", 77, "", a, a + 1);
	CHECK_STR(out, want);
	free(out);
	/* two that differ in their first character: cut at 64, 42 + … + 21 */
	b[0] = 'Z';
	out = render2(a, b, NULL);
	snprintf(want, sizeof(want), "NAME%*s  N\n%.42s\u2026%s  1\n%.42s\u2026%s  2\n", 60, "", a, a + 60, b,
		 b + 60);
	CHECK_STR(out, want);
	free(out);
}

int main(void)
{
	test_escaping();
	test_cut();
	test_units();
	test_columns();
	test_programs();
	return test_done("test_out");
}
