/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report: the timeline strip's columns worked by hand, and the HTML writer's
 * escaping (markup, quotes, control characters, invalid UTF-8).
 */
#include <stdlib.h>
#include <string.h>

#include "an_report.h"
#include "out_report.h"
#include "test.h"

/*
 * One device, executions f [0, 50), g [50, 75), f [90, 100) ps, two g's
 * overlapping on another stream [52, 54) and [53, 56), and an instant h at
 * 85: 10 columns of 10 ps. Columns 0-4 f, full; 5 g, 1 (10 + 2 + 3 capped at 1);
 * 6 g, 1; 7 g, 0.5; 8 h with no cover (an instant shows as its function, at
 * strength 0); 9 f, full.
 */
static void timeline(void)
{
	struct an_exec x[6];
	struct an_device dev;
	struct an_exec_list l;
	struct an_rep_timeline tl;
	struct xp_err err = {0};
	static const float cover[10] = {1, 1, 1, 1, 1, 1, 1, 0.5f, 0, 1};
	static const char *const fn[10] = {"f", "f", "f", "f", "f", "g", "g", "g", "h", "f"};
	size_t i;

	memset(x, 0, sizeof(x));
	memset(&dev, 0, sizeof(dev));
	memset(&l, 0, sizeof(l));
	x[0].name = "f", x[0].start_ps = 0, x[0].span_ps = 50;
	x[1].name = "g", x[1].start_ps = 50, x[1].span_ps = 25;
	x[2].name = "f", x[2].start_ps = 90, x[2].span_ps = 10;
	x[3].name = "g", x[3].start_ps = 52, x[3].span_ps = 2;
	x[4].name = "g", x[4].start_ps = 53, x[4].span_ps = 3;
	x[5].name = "h", x[5].start_ps = 85, x[5].span_ps = 0;
	dev.name = "/device:GPU:0";
	dev.busy_ps = 85;
	l.execs = x;
	l.n = 6;
	l.devices = &dev;
	l.ndevices = 1;
	CHECK_INT(an_rep_timeline(&l, NULL, 10, &tl, &err), 0);
	CHECK_INT(tl.n, 1);
	if (tl.n == 1) {
		const struct an_rep_strip *s = &tl.strips[0];

		CHECK_STR(s->device, "/device:GPU:0");
		CHECK_INT(s->span_ps, 100);
		CHECK_INT(s->busy_ps, 85);
		CHECK_INT(s->execs, 6);
		CHECK_INT(s->nfns, 3);
		for (i = 0; i < 10; i++) {
			CHECK_NEAR(s->cols[i].cover + 1, cover[i] + 1, 1e-6);
			CHECK(s->cols[i].fn >= 0 && !strcmp(s->fns[s->cols[i].fn], fn[i]));
		}
	}
	an_rep_timeline_release(&tl);
}

/* Edges: a device whose executions span nothing (one instant), and no columns at all. */
static void edges(void)
{
	struct an_exec x[2];
	struct an_device dev[2];
	struct an_exec_list l;
	struct an_rep_timeline tl;
	struct xp_err err = {0};

	memset(x, 0, sizeof(x));
	memset(dev, 0, sizeof(dev));
	memset(&l, 0, sizeof(l));
	x[0].name = "f", x[0].device = 1, x[0].start_ps = 5;
	x[1].name = "g", x[1].device = 0, x[1].start_ps = 7, x[1].span_ps = 1;
	dev[0].name = "/device:GPU:10";
	dev[1].name = "/device:GPU:2";
	l.execs = x;
	l.n = 2;
	l.devices = dev;
	l.ndevices = 2;
	CHECK_INT(an_rep_timeline(&l, NULL, 4, &tl, &err), 0);
	CHECK_INT(tl.n, 2);
	if (tl.n == 2) {
		CHECK_STR(tl.strips[0].device, "/device:GPU:2");	/* by number, as the devices table */
		CHECK_INT(tl.strips[0].span_ps, 0);
		CHECK_INT(tl.strips[0].cols[0].fn, -1);	/* no span: nothing placed */
		CHECK_STR(tl.strips[1].device, "/device:GPU:10");
		CHECK_INT(tl.strips[1].span_ps, 1);
		CHECK(tl.strips[1].cols[3].fn == 0 && tl.strips[1].cols[3].cover == 1);
	}
	an_rep_timeline_release(&tl);
	CHECK_INT(an_rep_timeline(&l, NULL, 0, &tl, &err), 0);
	CHECK_INT(tl.n, 0);
	an_rep_timeline_release(&tl);
}

/*
 * One axis: GPU:0 (base 0) runs f over 0..100 ps, GPU:1 (its plane's base
 * 1 ns later) g over its own 0..100, 1000..1100 ps on GPU:0's clock. The
 * window is 0..1100 ps; in 11 columns of 100 ps f fills GPU:0's first and
 * g GPU:1's last, every other column empty. Bases 2^62 ns apart: each strip
 * on its own span again.
 */
static void shared(void)
{
	struct an_exec x[2];
	struct an_device dev[2];
	struct an_exec_list l;
	struct an_rep_timeline tl;
	struct xp_err err = {0};
	int64_t base[2] = {0, 1};
	size_t i;

	memset(x, 0, sizeof(x));
	memset(dev, 0, sizeof(dev));
	memset(&l, 0, sizeof(l));
	x[0].name = "f", x[0].device = 0, x[0].start_ps = 0, x[0].span_ps = 100;
	x[1].name = "g", x[1].device = 1, x[1].start_ps = 0, x[1].span_ps = 100;
	dev[0].name = "/device:GPU:0";
	dev[1].name = "/device:GPU:1";
	l.execs = x;
	l.n = 2;
	l.devices = dev;
	l.ndevices = 2;
	CHECK_INT(an_rep_timeline(&l, base, 11, &tl, &err), 0);
	CHECK_INT(tl.shared, 1);
	CHECK_INT(tl.lo_ps, 0);
	CHECK_INT(tl.span_ps, 1100);
	CHECK_INT(tl.n, 2);
	for (i = 0; tl.n == 2 && i < 11; i++) {
		CHECK_INT(tl.strips[0].cols[i].fn, i == 0 ? 0 : -1);
		CHECK_INT(tl.strips[1].cols[i].fn, i == 10 ? 0 : -1);
		CHECK_NEAR(tl.strips[0].cols[i].cover, i == 0 ? 1 : 0, 1e-6);
		CHECK_NEAR(tl.strips[1].cols[i].cover, i == 10 ? 1 : 0, 1e-6);
	}
	if (tl.n == 2)
		CHECK_INT(tl.strips[1].span_ps, 100);	/* its own span, as its label says */
	an_rep_timeline_release(&tl);
	base[1] = (int64_t)1 << 62;
	CHECK_INT(an_rep_timeline(&l, base, 11, &tl, &err), 0);
	CHECK_INT(tl.shared, 0);
	if (tl.n == 2)
		CHECK_NEAR(tl.strips[1].cols[10].cover, 1, 1e-6);	/* its own span fills it */
	an_rep_timeline_release(&tl);
}

static void escaping(void)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	out_html_text(f, "</svg><script>alert(\"x\")</script> & 'q' \x01\t\xff\xc3(");
	fclose(f);
	CHECK_STR(buf, "&lt;/svg&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; "
		       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd(");
	free(buf);
}

int main(void)
{
	timeline();
	edges();
	shared();
	escaping();
	return test_done("report");
}
