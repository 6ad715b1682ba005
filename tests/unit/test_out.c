/* out_table: escaping of hostile names in each mode; time formatting; duration parsing. */
#include <stdlib.h>

#include "opt.h"
#include "out_table.h"
#include "test.h"

static char *render(enum out_mode mode, const char *cell)
{
	static const char *const h[] = {"NAME", "N"};
	static const unsigned char right[] = {0, 1};
	struct out_table t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	out_table_init(&t, 2, h, right);
	out_table_add(&t, "%s", cell);
	out_table_add(&t, "%d", 7);
	out_table_print(&t, f, mode, 0);
	out_table_release(&t);
	fclose(f);
	return buf;
}

static void test_escaping(void)
{
	char *s;

	/* Control characters and invalid UTF-8 are shown as \xNN in the text table; valid UTF-8 stays. */
	s = render(OUT_TABLE, "a\tb\xff\xc3\xa9");
	CHECK_STR(s, "NAME         N\na\\x09b\\xffé  7\n");
	free(s);
	s = render(OUT_CSV, "say \"hi\", ok");
	CHECK_STR(s, "NAME,N\n\"say \"\"hi\"\", ok\",7\n");
	free(s);
	s = render(OUT_CSV, "line\nbreak");
	CHECK_STR(s, "NAME,N\n\"line\nbreak\",7\n");
	free(s);
	s = render(OUT_TSV, "tab\there\\");
	CHECK_STR(s, "NAME\tN\ntab\\there\\\\\t7\n");
	free(s);
}

static void test_units(void)
{
	char b[32];
	int64_t ps;

	out_fmt_time(b, sizeof(b), 1234567);
	CHECK_STR(b, "1.235 us");
	out_fmt_time(b, sizeof(b), 999);
	CHECK_STR(b, "999.000 ps");
	out_fmt_time(b, sizeof(b), 2.5e12);
	CHECK_STR(b, "2.500 s");
	out_fmt_time(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	CHECK(!opt_parse_duration("1us", &ps) && ps == 1000000);
	CHECK(!opt_parse_duration("2.5ms", &ps) && ps == 2500000000LL);
	CHECK(!opt_parse_duration("250ns", &ps) && ps == 250000);
	CHECK(!opt_parse_duration("7ps", &ps) && ps == 7);
	CHECK(opt_parse_duration("5", &ps) == -1);
	CHECK(opt_parse_duration("-1us", &ps) == -1);
	CHECK(opt_parse_duration("1 us", &ps) == -1);
	CHECK(opt_parse_duration("1e30s", &ps) == -1);
}

int main(void)
{
	test_escaping();
	test_units();
	return test_done("test_out");
}
