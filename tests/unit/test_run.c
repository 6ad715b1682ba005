/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run summaries: a line written by out_summary_line reads back field for field
 * (integers past 2^53 included); every truncation and a catalogue of bad
 * fields are refused with the file and line named, never a crash.
 */
#include <stdlib.h>

#include "an_run.h"
#include "an_summary.h"
#include "out_summary.h"
#include "test.h"
#include "xp_arena.h"

/* Two devices, two functions, three executions; values chosen to need strings past 2^53. */
static void make_run(struct an_run *r, int children)
{
	struct an_exec_list *l = &r->execs;
	static char *warn[] = {"'x.xplane.pb': 3 events with unknown metadata"};
	static char *hosts[] = {"host-a"};
	static char *tags[] = {"batch=3", "gpu=h100"};

	memset(r, 0, sizeof(*r));
	r->path = "runs/x.xplane.pb";
	r->size = 123456789012ULL;
	r->crc32 = 0xdeadbeef;
	r->tool = "xplane-stat test";
	r->hostnames = hosts;
	r->nhostnames = 1;
	r->tags = tags;
	r->ntags = 2;
	r->warnings = warn;
	r->nwarnings = 1;
	r->children = children ? "fusion.*" : NULL;
	r->min_dur_ps = 1000;
	r->hist.present = 1;
	r->hist.commit = "abc1234";
	r->hist.dirty = 1;
	r->hist.run = 3;
	r->hist.time = 1795000000;
	r->hist.host = "ci-7";
	xp_arena_init(&l->arena);
	l->hostname = "host-a";
	l->devices = calloc(2, sizeof(*l->devices));
	l->execs = calloc(3, sizeof(*l->execs));
	l->ndevices = 2;
	l->n = l->cap = 3;
	l->devices[0] = (struct an_device){.plane = 4, .name = "/device:GPU:0", .busy_ps = 9007199254740993LL,
					   .events = 17, .corr_events = 5, .linked_events = 4, .host_linkage = 0};
	l->devices[0].odd_stats[XP_K_PROGRAM_ID] = 2;
	l->devices[1] = (struct an_device){.plane = 9, .name = "/device:GPU:1", .busy_ps = 10, .events = 1,
					   .module_line = 1, .host_linkage = AN_LINK_NO_EXECUTORS};
	l->execs[0] = (struct an_exec){.device = 0, .name = "jit_f", .fingerprint = "123", .program_id = 18446744073709551615ULL,
				       .has_program_id = 1, .split = AN_SPLIT_HOST, .start_ps = -5,
				       .busy_ps = 9007199254740995LL, .span_ps = 40, .children_ps = children ? 7 : 0,
				       .events = 4000000000U, .run_id = 77, .has_run_id = 1};
	l->execs[1] = (struct an_exec){.device = 1, .name = "jit_g\"q\\", .split = AN_SPLIT_RUNS,
				       .start_ps = 3, .busy_ps = 2, .span_ps = 2, .events = 1};
	l->execs[2] = l->execs[0];
	l->execs[2].device = 1;
	l->execs[2].busy_ps = 11;
}

static void free_made(struct an_run *r)
{
	free(r->execs.devices);
	free(r->execs.execs);
}

static void check_same(const struct an_run *a, const struct an_run *b)
{
	size_t i;

	CHECK_STR(b->path, a->path);
	CHECK(b->size == a->size && b->crc32 == a->crc32);
	CHECK_STR(b->tool, a->tool);
	CHECK_INT(b->nhostnames, 1);
	CHECK_INT(b->ntags, 2);
	if (b->ntags == 2)
		CHECK_STR(b->tags[1], "gpu=h100");
	CHECK_INT(b->nwarnings, 1);
	if (b->nwarnings)
		CHECK_STR(b->warnings[0], a->warnings[0]);
	CHECK(b->hist.present && b->hist.dirty && b->hist.run == 3 && b->hist.time == 1795000000);
	CHECK_STR(b->hist.commit, "abc1234");
	CHECK((b->children == NULL) == (a->children == NULL));
	CHECK(b->min_dur_ps == 1000 && b->device == NULL);
	CHECK_INT(b->execs.ndevices, 2);
	CHECK_INT(b->execs.n, 3);
	if (b->execs.ndevices != 2 || b->execs.n != 3)
		return;
	CHECK_STR(b->execs.hostname, "host-a");
	for (i = 0; i < 2; i++) {
		const struct an_device *x = &a->execs.devices[i], *y = &b->execs.devices[i];

		CHECK_STR(y->name, x->name);
		CHECK(y->plane == x->plane && y->busy_ps == x->busy_ps && y->events == x->events);
		CHECK(y->corr_events == x->corr_events && y->linked_events == x->linked_events);
		CHECK(y->odd_stats[XP_K_PROGRAM_ID] == x->odd_stats[XP_K_PROGRAM_ID]);
		CHECK(y->module_line == x->module_line && y->host_linkage == x->host_linkage);
	}
	for (i = 0; i < 3; i++) {
		const struct an_exec *x = &a->execs.execs[i], *y = &b->execs.execs[i];

		CHECK_STR(y->name, x->name);
		CHECK((y->fingerprint == NULL) == (x->fingerprint == NULL));
		if (x->fingerprint && y->fingerprint)
			CHECK_STR(y->fingerprint, x->fingerprint);
		CHECK(y->device == x->device && y->program_id == x->program_id &&
		      y->has_program_id == x->has_program_id && y->split == x->split);
		CHECK(y->busy_ps == x->busy_ps && y->span_ps == x->span_ps);
		CHECK(y->children_ps == x->children_ps && y->events == x->events);
		/* starts and run ids are not kept (no reader of summaries uses them) */
		CHECK(y->start_ps == 0 && !y->has_run_id);
	}
}

static void test_round_trip(int children)
{
	struct an_run a, b;
	struct out_bytes line = {0};
	struct xp_err err = {0};

	make_run(&a, children);
	CHECK_INT(out_summary_line(&a, &line), 0);
	CHECK(an_summary_sniff(line.p, line.n));
	CHECK(line.n && line.p[line.n - 1] == '\n');
	CHECK_INT(an_summary_parse((const char *)line.p, line.n, "s.jsonl", 7, &b, &err), 0);
	check_same(&a, &b);
	an_run_release(&b);
	/* every proper prefix is refused, naming the line */
	for (size_t k = 0; k + 1 < line.n; k += 1 + k / 50) {
		int r = an_summary_parse((const char *)line.p, k, "s.jsonl", 7, &b, &err);

		CHECK_INT(r, XP_ERR_FORMAT);
		if (r != XP_ERR_FORMAT) {
			an_run_release(&b);
			break;
		}
		CHECK(strstr(err.msg, "'s.jsonl' line 7: ") == err.msg);
	}
	out_bytes_release(&line);
	free_made(&a);
}

/* Replaces the first `from` in the line by `to` and parses it: the error code. */
static int parse_edited(const struct out_bytes *line, const char *from, const char *to, char *msg, size_t n)
{
	const char *p = memmem(line->p, line->n, from, strlen(from));
	struct out_bytes e = {0};
	struct xp_err err = {0};
	struct an_run r;
	int ret;

	if (!p) {
		fprintf(stderr, "test_run: '%s' not in the line\n", from);
		return 1;
	}
	out_bytes_put(&e, line->p, (size_t)(p - (const char *)line->p));
	out_bytes_str(&e, to);
	p += strlen(from);
	out_bytes_put(&e, p, line->n - (size_t)(p - (const char *)line->p));
	ret = an_summary_parse((const char *)e.p, e.n, "bad.jsonl", 2, &r, &err);
	if (!ret)
		an_run_release(&r);
	snprintf(msg, n, "%s", err.msg);
	out_bytes_release(&e);
	return ret;
}

static void test_bad_fields(void)
{
	static const struct {
		const char *from, *to, *says;
	} bad[] = {
		{"\"xplane_stat_summary\":1", "\"xplane_stat_summary\":2", "schema 2 is newer"},
		{"\"xplane_stat_summary\":1", "\"xplane_stat_summary\":\"one\"", "not a summary line"},
		{"\"device\":[0,1,1]", "\"device\":[0,2,1]", "device"},
		{"\"function\":[0,1,0]", "\"function\":[0,5,0]", "function"},
		{"\"function\":[0,1,0]", "\"function\":[0,1]", "columns of different lengths"},
		{"\"busy_ps\":[\"9007199254740995\",2,11]", "\"busy_ps\":[-1,2,11]", "busy_ps"},
		{"\"busy_ps\":[\"9007199254740995\",2,11]", "\"busy_ps\":[1.5,2,11]", "busy_ps"},
		{"\"events\":[4000000000,1,4000000000]", "\"events\":[4294967296,1,1]", "events"},
		{"\"split\":[1,2,1]", "\"split\":[1,4,1]", "split"},
		{"\"host_linkage\":3", "\"host_linkage\":9", "host_linkage"},
		{"\"module_line\":1", "\"module_line\":2", "module_line"},
		{"\"device\":[0,1,1]", "\"device_runs\":[0,1,1,3]", "runs longer than the column"},
		{"\"device\":[0,1,1]", "\"device_runs\":[0,1,1,1]", "runs shorter than the column"},
		{"\"device\":[0,1,1]", "\"device_runs\":[0,1,1]", "pairs"},
		{"\"device\":[0,1,1]", "\"device_runs\":[0,1,1,0,1,2]", "device_runs"},
		{"\"busy_ps\":[\"9007199254740995\",2,11]", "\"busy_ps\":5", "busy_ps"},
		{"\"span_ps\":[40,2,40]", "\"span_ps\":[40,2]", "columns of different lengths"},
		{"\"device\":[0,1,1]", "\"device\":\"x\"", "device"},
		{"\"program_id\":\"18446744073709551615\"", "\"program_id\":\"18446744073709551616\"", "program_id"},
		{"\"path\":\"runs/x.xplane.pb\"", "\"path\":7", "path"},
		{"\"min_duration_ps\":1000", "\"min_duration_ps\":-3", "min_duration_ps"},
		{"\"crc32\":3735928559", "\"crc32\":4294967296", "crc32"},
		{"\"dirty\":true", "\"dirty\":1", "dirty"},
		{"\"run\":3", "\"run\":0", "run"},
		{"\"events\":[4000000000,1,4000000000]", "\"events\":[4000000000,1,\"1e3\"]", "events"},
		{"\"span_ps\":[40,2,40]", "\"span_ns\":[9223372036854776,2,40]", "span"},
		{"{\"name\":\"/device:GPU:1\"", "{\"nome\":\"/device:GPU:1\"", "name"},
		/* impossible values: a negative or infinite time or count, a device twice (issue 29) */
		{"\"busy_ps\":10", "\"busy_ps\":-1", "not an integer in range: busy_ps"},
		{"\"busy_ps\":10", "\"busy_ps\":\"-9223372036854775808\"", "not an integer in range: busy_ps"},
		{"\"busy_ps\":10", "\"busy_ps\":1e999", "not an integer in range: busy_ps"},
		{"\"busy_ps\":10", "\"busy_ps\":10,\"unattributed_busy_ps\":-5", "unattributed_busy_ps"},
		{"\"events\":1", "\"events\":-1", "not an integer in range: events"},
		{"\"busy_ps\":[\"9007199254740995\",2,11]", "\"busy_ps\":[1e999,2,11]", "busy_ps"},
		{"{\"name\":\"/device:GPU:1\"", "{\"name\":\"/device:GPU:0\"",
		 "device '/device:GPU:0' given twice: devices"},
	};
	struct an_run a;
	struct out_bytes line = {0};
	char msg[512];
	size_t i;

	make_run(&a, 0);
	CHECK_INT(out_summary_line(&a, &line), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = parse_edited(&line, bad[i].from, bad[i].to, msg, sizeof(msg));

		if (r != XP_ERR_FORMAT || !strstr(msg, bad[i].says) || strstr(msg, "'bad.jsonl' line 2: ") != msg) {
			fprintf(stderr, "test_run: edit %zu ('%s'): %d '%s'\n", i, bad[i].to, r, msg);
			test_failures++;
		}
	}
	/* one number for a whole column, and nanoseconds, as SUMMARIES allows */
	CHECK_INT(parse_edited(&line, "\"split\":[1,2,1]", "\"split\":2", msg, sizeof(msg)), 0);
	CHECK_INT(parse_edited(&line, "\"span_ps\":[40,2,40]", "\"span_ns\":[1,1,1]", msg, sizeof(msg)), 0);
	CHECK_INT(parse_edited(&line, "\"device\":[0,1,1]", "\"device_runs\":[0,1,1,2]", msg, sizeof(msg)), 0);
	/* children_ps without the children option is refused (a column nothing would read) */
	CHECK_INT(parse_edited(&line, "\"events\":[", "\"children_ps\":[1,2,3],\"events\":[", msg, sizeof(msg)),
		  XP_ERR_FORMAT);
	out_bytes_release(&line);
	free_made(&a);
}

static void test_select_devices(void)
{
	struct an_run a;
	struct an_exec_list l;

	make_run(&a, 0);
	CHECK_INT(an_exec_list_copy(&l, &a.execs), 0);
	CHECK_INT(an_run_select_devices(&l, "gpu:1"), 0);
	CHECK_INT(l.ndevices, 1);
	CHECK_INT(l.n, 2);
	CHECK_STR(l.devices[0].name, "/device:GPU:1");
	CHECK(l.execs[0].device == 0 && l.execs[1].device == 0 && l.execs[1].busy_ps == 11);
	an_exec_list_release(&l);
	free_made(&a);
}

int main(void)
{
	test_round_trip(0);
	test_round_trip(1);
	test_bad_fields();
	test_select_devices();
	return test_done("test_run");
}
