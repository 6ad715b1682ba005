/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The whole analysis pipeline on one input, as the commands run it: reader ->
 * executions -> functions, autotune and --compat=ejkernel candidates, kernels,
 * ops (by op or category, each sort, the input pooled twice), planes,
 * events (the table and --list's stream) and overview -> every formatter into
 * memory. Beyond not crashing, each output must be
 * well-formed whatever the names in the input hold:
 *   JSON  parses (cJSON) and is valid UTF-8 (JSON lines: each line);
 *   CSV   every record has as many fields as the header (RFC 4180 quoting);
 *   TSV   every line has as many tabs as the header, no raw CR;
 *   table valid UTF-8 with no control character but the newline.
 * The options (reader, device pattern, --children, --min-duration, --time,
 * --trim, --per-device, --match) come from a hash of the input, so that the
 * fuzzer reaches them all without a format of its own to learn;
 * FUZZ_VERBOSE=1 prints the choice.
 */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "an_autotune.h"
#include "an_compat.h"
#include "an_events.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_kernels.h"
#include "an_ops.h"
#include "an_overview.h"
#include "an_planes.h"
#include "cmd.h"
#include "model_check.h"
#include "out_autotune.h"
#include "out_events.h"
#include "out_functions.h"
#include "out_kernels.h"
#include "out_ops.h"
#include "out_overview.h"
#include "out_planes.h"
#include "xp_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void fail(const char *what, const char *out, size_t n)
{
	fprintf(stderr, "%s\n--- output (%zu bytes):\n%.*s\n", what, n, (int)(n > 4000 ? 4000 : n), out);
	abort();
}

/* Strict UTF-8 (no overlong forms, surrogates or code points past U+10FFFF), written apart
 * from the formatters' own check. */
static int utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], cp, k, need;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			need = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			need = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			need = 3, cp = c & 0x07;
		else
			return 0;
		if (need > n - i - 1)
			return 0;
		for (k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

/* Fields in each CSV record; -1 when a quote is malformed or a count differs from the first. */
static int csv_check(const char *s, size_t n)
{
	size_t i = 0, fields = 0, want = 0;
	int first = 1;

	while (i < n) {
		fields = 1;
		for (;;) {
			if (i < n && s[i] == '"') {
				for (i++;; i++) {
					if (i >= n)
						return -1;
					if (s[i] == '"') {
						if (i + 1 < n && s[i + 1] == '"') {
							i++;
							continue;
						}
						i++;
						break;
					}
				}
				if (i < n && s[i] != ',' && s[i] != '\n')
					return -1;
			} else {
				while (i < n && s[i] != ',' && s[i] != '\n') {
					if (s[i] == '"' || s[i] == '\r')
						return -1;
					i++;
				}
			}
			if (i >= n)
				return -1;	/* every record ends in a newline */
			if (s[i++] == '\n')
				break;
			fields++;
		}
		if (first)
			want = fields, first = 0;
		else if (fields != want)
			return -1;
	}
	return (int)want;
}

static int tsv_check(const char *s, size_t n)
{
	size_t i, tabs = 0, want = 0;
	int first = 1;

	if (n && s[n - 1] != '\n')
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] == '\r')
			return -1;
		if (s[i] == '\t')
			tabs++;
		if (s[i] == '\n') {
			if (first)
				want = tabs, first = 0;
			else if (tabs != want)
				return -1;
			tabs = 0;
		}
	}
	return (int)want;
}

static void check_output(enum out_mode mode, int colour, const char *out, size_t n)
{
	size_t i;

	switch (mode) {
	case OUT_JSON: {
		cJSON *doc = cJSON_ParseWithLength(out, n);

		if (!doc)
			fail("JSON output does not parse", out, n);
		cJSON_Delete(doc);
		if (!utf8_valid((const unsigned char *)out, n))
			fail("JSON output is not valid UTF-8", out, n);
		break;
	}
	case OUT_CSV:
		if (csv_check(out, n) < 1)
			fail("CSV output is malformed", out, n);
		break;
	case OUT_TSV:
		if (tsv_check(out, n) < 0)
			fail("TSV output is malformed", out, n);
		break;
	case OUT_TABLE:
		if (!utf8_valid((const unsigned char *)out, n))
			fail("table output is not valid UTF-8", out, n);
		for (i = 0; i < n; i++)
			if (((unsigned char)out[i] < 0x20 && out[i] != '\n' && !(colour && out[i] == 0x1b)) ||
			    out[i] == 0x7f)
				fail("table output holds a control character", out, n);
		break;
	}
}

/* Runs one formatter into memory, then checks what it wrote. */
#define FORMAT(mode, colour, call)                                                                   \
	do {                                                                                 \
		char *buf_ = NULL;                                                           \
		size_t n_ = 0;                                                               \
		FILE *f = open_memstream(&buf_, &n_);                                        \
		int r_;                                                                      \
		if (!f)                                                                      \
			abort();                                                             \
		r_ = (call);                                                                 \
		if (fclose(f) || r_)                                                         \
			fail("formatter failed", buf_ ? buf_ : "", buf_ ? n_ : 0);           \
		check_output(mode, colour, buf_, n_);                                              \
		free(buf_);                                                                  \
	} while (0)

/* events --list's JSON lines: each line one document. */
static void check_json_lines(const char *out, size_t n)
{
	size_t i = 0, e;

	if (!utf8_valid((const unsigned char *)out, n))
		fail("JSON lines are not valid UTF-8", out, n);
	for (; i < n; i = e + 1) {
		cJSON *doc;

		for (e = i; e < n && out[e] != '\n'; e++)
			;
		if (e == n)
			fail("JSON lines: the last line has no newline", out, n);
		if (!(doc = cJSON_ParseWithLength(out + i, e - i)))
			fail("JSON lines: a line does not parse", out + i, e - i);
		cJSON_Delete(doc);
	}
}

/* events --list as cmd_events selects, at most 4096 events; 0, or -1 when a write failed. */
static int list_events(FILE *f, enum out_mode mode, const struct xp_trace *t, const struct an_ev_opts *o)
{
	size_t pi, li, i, listed = 0;

	out_events_list_header(f, mode);
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (!p->loaded || (o->plane && !an_device_matches(p->name, o->plane)))
			continue;
		for (li = 0; li < p->nlines; li++) {
			const struct xp_line *ln = &p->lines[li];

			if (!an_ev_selects_line(o, p->name, ln->name))
				continue;
			for (i = ln->first_event; i < ln->first_event + ln->nevents && listed < 4096; i++) {
				if (o->match && regexec(o->match, xp_event_name(p, &p->events[i]), 0, NULL, 0))
					continue;
				if (out_events_list_event(f, mode, "fuzz\t\"input\xff", p, &p->events[i]))
					return -1;
				listed++;
			}
		}
	}
	return 0;
}

static uint64_t hash(const uint8_t *d, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;
	size_t i;

	for (i = 0; i < n && i < 64; i++)
		h = (h ^ d[i]) * 1099511628211ULL;
	for (i = n > 64 ? n - 64 : n; i < n; i++)
		h = (h ^ d[i]) * 1099511628211ULL;
	return h;
}

static regex_t rx_children, rx_match, rx_id;
static int have_rx;

static void compile_regexes(void)
{
	if (have_rx)
		return;
	if (regcomp(&rx_children, "fusion|^%?[a-z]", REG_EXTENDED) ||
	    regcomp(&rx_match, "^jit_", REG_EXTENDED) ||
	    regcomp(&rx_id, AN_AT_DEFAULT_ID_REGEX, REG_EXTENDED))
		abort();
	have_rx = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char *const devices[] = {NULL, NULL, "gpu", "TPU:0", "GPU:1", "custom"};
	static const enum out_mode modes[] = {OUT_TABLE, OUT_JSON, OUT_CSV, OUT_TSV};
	uint64_t h = hash(data, len);
	const struct xp_reader *reader = h & 1 ? &xp_reader_wire : &xp_reader_protobuf_c;
	struct an_exec_opts xo = {0};
	struct an_fn_opts fo = {0};
	struct an_at_opts ao = {0};
	struct an_compat_opts co = {0};
	struct an_compat_file info;
	struct an_fn_result fr;
	struct an_at_result ar, cr;
	struct an_exec_list l;
	struct an_planes pl = {0};
	struct xp_notes notes = {0};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct model_diff d;
	size_t m;
	int colour = (h >> 20) & 1;

	compile_regexes();
	if (xp_trace_read(reader, data, len, &t, &err))
		return 0;
	if (model_check(t, &d)) {
		fprintf(stderr, "%s: broken model: %s\n", reader->name, d.msg);
		abort();
	}
	xo.device = devices[(h >> 1) % 6];
	xo.children = (h >> 4) % 4 == 0 ? &rx_children : NULL;
	xo.min_dur_ps = (h >> 6) % 4 == 0 ? 1000000 : 0;
	fo.time = xo.children ? AN_TIME_CHILDREN : (h >> 8) & 1 ? AN_TIME_SPAN : AN_TIME_BUSY;
	fo.trim = (h >> 9) % 3;
	fo.per_device = (h >> 11) & 1;
	fo.match = (h >> 12) % 4 == 0 ? &rx_match : NULL;
	ao.id_re = &rx_id;
	ao.trim = (h >> 14) % 3;
	ao.all_devices = (h >> 16) & 1;
	ao.time = fo.time;
	ao.alpha = 0.05;
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "reader %s, device %s, children %d, min-duration %lld, time %d, trim %zu, "
			"per-device %d, match %d, autotune trim %zu all-devices %d, colour %d\n",
			reader->name, xo.device ? xo.device : "(any)", xo.children != NULL,
			(long long)xo.min_dur_ps, (int)fo.time, fo.trim, fo.per_device, fo.match != NULL,
			ao.trim, ao.all_devices, colour);

	if (cmd_note_counts(&notes, "fuzz\xff\n\"input", t))
		abort();
	/* functions: the same input pooled twice, as two inputs would be */
	an_fn_init(&fr, &fo);
	an_at_init(&ar, &ao);
	if (!an_exec_find(t, &xo, &l, &err)) {
		if (an_fn_add(&fr, &l, &err) || an_fn_add(&fr, &l, &err) || an_at_add(&ar, &l, &err))
			abort();
	} else if (err.code != XP_ERR_NOMEM) {
		fprintf(stderr, "an_exec_find: %s\n", err.msg);
		abort();
	}
	an_exec_list_release(&l);
	an_fn_finish(&fr, &err);
	an_at_finish(&ar, &err);
	for (m = 0; m < 4; m++) {
		FORMAT(modes[m], colour && !m, out_functions(f, modes[m], &fr, &notes, colour && !m));
		FORMAT(modes[m], colour && !m, out_autotune(f, modes[m], &ar, colour && !m));
	}
	an_fn_release(&fr);
	an_at_release(&ar);

	/* --compat=ejkernel */
	co.device = xo.device ? xo.device : "gpu";
	co.children = xo.children;
	co.id_re = &rx_id;
	ao.trim = 1;
	ao.all_devices = 0;
	an_at_init(&cr, &ao);
	if (!an_compat_add(t, &co, &cr, cr.inputs++, &info, &err)) {
		an_at_finish(&cr, &err);
		FORMAT(OUT_JSON, 0, out_autotune(f, OUT_JSON, &cr, 0));
		FORMAT(OUT_TABLE, 0, out_autotune(f, OUT_TABLE, &cr, 0));
	}
	an_at_release(&cr);

	/* kernels: by name, config or function; the input pooled twice through a merge */
	{
		struct an_kern_opts ko = {.by = (enum an_kern_by)((h >> 22) % 3), .device = xo.device};
		struct out_kern_opts oo = {.top = (h >> 24) % 3, .copies = (h >> 26) & 1};
		struct an_kern_result kr, one;

		an_kern_init(&kr, &ko);
		an_kern_init(&one, &ko);
		if (an_kern_add(&one, t, &err) || an_kern_merge(&kr, &one, &err)) {
			if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_FORMAT)
				abort();
		} else {
			an_kern_release(&one);
			an_kern_init(&one, &ko);
			if (!an_kern_add(&one, t, &err) && an_kern_merge(&kr, &one, &err))
				abort();
			an_kern_finish(&kr, &err);
			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_kernels(f, modes[m], &kr, &oo, &notes, colour && !m));
		}
		an_kern_release(&one);
		an_kern_release(&kr);
	}

	/* ops: by op or category, each sort, --top; the input pooled twice through a merge */
	{
		struct an_ops_opts po = {.device = xo.device, .by_category = (h >> 34) & 1,
					 .sort = (enum an_ops_sort)((h >> 35) % 4)};
		size_t top = (h >> 37) % 3;
		struct an_ops_result pr, one;

		an_ops_init(&pr, &po);
		an_ops_init(&one, &po);
		if (an_ops_add(&one, t, &err) || an_ops_merge(&pr, &one, &err)) {
			if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_FORMAT)
				abort();
		} else {
			an_ops_release(&one);
			an_ops_init(&one, &po);
			if (!an_ops_add(&one, t, &err) && an_ops_merge(&pr, &one, &err))
				abort();
			if (an_ops_finish(&pr, &err))
				abort();
			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_ops(f, modes[m], &pr, top, &notes, colour && !m));
		}
		an_ops_release(&one);
		an_ops_release(&pr);
	}

	/* planes */
	if (an_planes_describe(t, &pl, &err))
		abort();
	for (m = 0; m < 4; m++)
		FORMAT(modes[m], colour && !m,
		       out_planes(f, modes[m], "fuzz\x01input\xc3", &pl, &notes, colour && !m));
	an_planes_release(&pl);

	/* events: the names table (the input pooled twice), then --list in each of its modes */
	{
		static const char *const ev_planes[] = {NULL, NULL, "gpu", "host", "TPU:0"};
		static const char *const ev_lines[] = {NULL, NULL, "Stream", "XLA Ops"};
		struct an_ev_opts eo = {.plane = ev_planes[(h >> 27) % 5], .line = ev_lines[(h >> 30) % 4],
					.match = (h >> 32) % 4 == 0 ? &rx_match : NULL};
		struct an_ev_result er;

		an_ev_init(&er);
		if (an_ev_add(&er, t, &eo, &err) || an_ev_add(&er, t, &eo, &err) || an_ev_finish(&er, &err)) {
			if (err.code != XP_ERR_NOMEM)
				abort();
		} else {
			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_events(f, modes[m], &er, &notes, colour && !m));
		}
		an_ev_release(&er);
		for (m = 1; m < 4; m++) {
			char *buf = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&buf, &n);
			int r;

			if (!f)
				abort();
			r = list_events(f, modes[m], t, &eo);
			if (fclose(f) || r)
				fail("events --list failed", buf ? buf : "", buf ? n : 0);
			if (modes[m] == OUT_JSON)
				check_json_lines(buf, n);
			else
				check_output(modes[m], 0, buf, n);
			free(buf);
		}
	}

	/* overview: the input pooled twice (devices by name) */
	{
		struct an_ov_result orr;
		size_t added;

		an_ov_init(&orr);
		if (an_ov_add(&orr, t, xo.device, &added, &err) || an_ov_add(&orr, t, xo.device, &added, &err) ||
		    an_ov_finish(&orr, &err)) {
			if (err.code != XP_ERR_NOMEM)
				abort();
		} else {
			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_overview(f, modes[m], &orr, &notes, colour && !m));
		}
		an_ov_release(&orr);
	}

	xp_notes_release(&notes);
	xp_trace_free(t);
	return 0;
}
