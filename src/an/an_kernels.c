/* SPDX-License-Identifier: Apache-2.0 */
#include "an_kernels.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "an_functions.h"
#include "xp_arena.h"
#include "xp_sat.h"
#include "xp_sort.h"
#include "xp_stray.h"

static const char *const field_names[AN_CFG_NFIELDS] = {
	[AN_CFG_REGS] = "regs",		[AN_CFG_STATIC_SHARED] = "static_shared",
	[AN_CFG_DYNAMIC_SHARED] = "dynamic_shared", [AN_CFG_SHM] = "shm",
	[AN_CFG_GROUP_MEM] = "group_mem",	[AN_CFG_PRIVATE_MEM] = "private_mem",
};

const char *an_cfg_field_name(enum an_cfg_field f)
{
	return f < AN_CFG_NFIELDS ? field_names[f] : "?";
}

/* Decimal digits [p, end) into *out; -1 if empty, not all digits, or beyond uint64. */
static int parse_u64(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	if (p >= end)
		return -1;
	for (; p < end; p++) {
		if (!isdigit((unsigned char)*p) || v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	return 0;
}

/* "X,Y,Z", "X,Y" or "X": up to three integers, a missing one 1. */
static int parse_dim3(const char *p, const char *end, uint64_t v[3])
{
	int k;

	v[0] = v[1] = v[2] = 1;
	for (k = 0; k < 3; k++) {
		const char *c = memchr(p, ',', (size_t)(end - p));

		if (k == 2 && c)
			return -1;	/* a fourth */
		if (parse_u64(p, c ? c : end, &v[k]))
			return -1;
		if (!c)
			return 0;
		p = c + 1;
	}
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int an_launch_parse(const char *s, size_t len, struct an_launch *out)
{
	const char *p = s, *end = s + len;
	size_t read = 0;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *w, *sep, *val;
		size_t klen, k;
		int f;

		while (p < end && is_space(*p))
			p++;
		if (p == end)
			break;
		w = p;
		while (p < end && !is_space(*p))
			p++;
		for (sep = w; sep < p && *sep != ':' && *sep != '='; sep++)
			;
		if (sep == p) {
			out->bad_values++;	/* no key and value */
			continue;
		}
		klen = (size_t)(sep - w);
		val = sep + 1;
		if ((klen == 4 && !memcmp(w, "grid", 4)) || (klen == 5 && !memcmp(w, "block", 5))) {
			int *have = klen == 4 ? &out->has_grid : &out->has_block;
			uint64_t *dim = klen == 4 ? out->grid : out->block, v[3];

			if (*have || parse_dim3(val, p, v)) {
				out->bad_values++;
				continue;
			}
			for (k = 0; k < 3; k++)
				dim[k] = v[k];
			*have = 1;
			read++;
			continue;
		}
		if (klen == 7 && !memcmp(w, "occ_pct", 7)) {
			char num[64], *e;
			size_t n = (size_t)(p - val);
			double d;

			if (out->has_occ || !n || n >= sizeof(num)) {
				out->bad_values++;
				continue;
			}
			memcpy(num, val, n);
			num[n] = '\0';
			errno = 0;
			d = strtod(num, &e);
			if (*e || errno || !isfinite(d)) {
				out->bad_values++;
				continue;
			}
			out->occ_pct = d;
			out->has_occ = 1;
			read++;
			continue;
		}
		for (f = 0; f < AN_CFG_NFIELDS; f++)
			if (strlen(field_names[f]) == klen && !memcmp(w, field_names[f], klen))
				break;
		if (f == AN_CFG_NFIELDS) {
			out->unknown_keys++;	/* a key we do not know: not part of the configuration */
			continue;
		}
		if (out->has[f] || parse_u64(val, p, &out->field[f])) {
			out->bad_values++;
			continue;
		}
		out->has[f] = 1;
		read++;
	}
	if (!out->has_grid)
		out->grid[0] = out->grid[1] = out->grid[2] = 1;
	if (!out->has_block)
		out->block[0] = out->block[1] = out->block[2] = 1;
	return read ? 0 : -1;
}

int an_launch_partial(const struct an_launch *l)
{
	return !l->has_grid || !l->has_block || l->unknown_keys || l->bad_values;
}

void an_launch_format(const struct an_launch *l, char *buf, size_t n)
{
	size_t len;
	int f, w;

	w = snprintf(buf, n, "grid:%" PRIu64 ",%" PRIu64 ",%" PRIu64 " block:%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		     l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
	len = w < 0 ? 0 : (size_t)w;
	for (f = 0; f < AN_CFG_NFIELDS && len < n; f++) {
		if (!l->has[f])
			continue;
		w = snprintf(buf + len, n - len, " %s:%" PRIu64, field_names[f], l->field[f]);
		len += w < 0 ? 0 : (size_t)w;
	}
	if (l->has_occ && len < n)
		snprintf(buf + len, n - len, " occ_pct:%g", l->occ_pct);
}

int an_launch_implausible(const struct an_launch *l)
{
	int k;

	for (k = 0; k < 3; k++)
		if (!l->grid[k] || !l->block[k])
			return 1;
	return 0;
}

int64_t an_quantile_nearest(const int64_t *sorted, size_t n, double p)
{
	double r = ceil(p * (double)n);
	size_t k;

	if (!n)
		return 0;
	k = r < 1 ? 1 : r > (double)n ? n : (size_t)r;
	return sorted[k - 1];
}

int an_kern_tensor_core(const char *name)
{
	static const char *const words[] = {"xmma", "hmma", "imma", "wgmma", "mfma", "tensorop", "tensor_op",
					    "h884", "s884", "h1688", "s1688", "i8816", "h16816", "s16816", "i16832"};
	char low[256];
	const char *p;
	size_t i, n = strlen(name);

	if (n >= sizeof(low))
		n = sizeof(low) - 1;	/* the words sit near the start of library kernel names */
	for (i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[n] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(low, words[i]))
			return 1;
	/* Tensile (rocBLAS, hipBLASLt): "_MI16x16x16x1", its matrix instruction, in the kernel's name */
	for (p = strstr(low, "_mi"); p; p = strstr(p + 1, "_mi"))
		if (isdigit((unsigned char)p[3]) && (p[4] == 'x' || (isdigit((unsigned char)p[4]) && p[5] == 'x')))
			return 1;
	return 0;
}

void an_kern_init(struct an_kern_result *r, const struct an_kern_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->opts = *o;
}

/* A row as it is keyed while adding. */
struct row_key {
	const char *name;
	enum an_cfg_state cfg_state;
	const struct an_launch *cfg;
	const char *config;
	const char *function, *op;
	uint64_t program_id;
	int has_program_id;
};

static char *key_text(const struct an_kern_result *r, const struct row_key *k)
{
	char *key = NULL;
	int n;

	if (r->opts.by == AN_KERN_BY_ALL)
		n = asprintf(&key, "%s\x1f%d\x1f%s\x1f%d%s\x1f%d%" PRIu64 "\x1f%d%s", k->name, (int)k->cfg_state,
			     k->config, k->function != NULL, k->function ? k->function : "", k->has_program_id,
			     k->program_id, k->op != NULL, k->op ? k->op : "");
	else if (r->opts.by == AN_KERN_BY_CONFIG)
		n = asprintf(&key, "%s\x1f%d\x1f%s", k->name, (int)k->cfg_state, k->config);
	else if (r->opts.by == AN_KERN_BY_FUNCTION)
		n = asprintf(&key, "%s\x1f%d%s\x1f%d%" PRIu64 "\x1f%d%s", k->name, k->function != NULL,
			     k->function ? k->function : "", k->has_program_id, k->program_id,
			     k->op != NULL, k->op ? k->op : "");
	else
		n = asprintf(&key, "%s", k->name);
	return n < 0 ? NULL : key;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static struct an_kern_row *row_for(struct an_kern_result *r, const struct row_key *k)
{
	char *key = key_text(r, k);
	struct an_kern_row *row;
	int is_new;

	if (!key)
		return NULL;
	row = xp_hmap_row(&r->by_key_, key, &r->rows, &r->nrows, &r->cap, sizeof(*r->rows), 32, &is_new);
	free(key);
	if (!row || !is_new)
		return row;
	row->name = strdup(k->name);
	if (!row->name)
		return NULL;
	row->tensor_core = an_kern_tensor_core(k->name);
	if (r->opts.by == AN_KERN_BY_CONFIG || r->opts.by == AN_KERN_BY_ALL) {
		row->cfg_state = k->cfg_state;
		if (k->cfg)
			row->cfg = *k->cfg;
		row->config = strdup(k->config);
		if (!row->config)
			return NULL;
	}
	if (r->opts.by == AN_KERN_BY_FUNCTION || r->opts.by == AN_KERN_BY_ALL) {
		row->function = dup_or_null(k->function);
		row->op = dup_or_null(k->op);
		row->program_id = k->program_id;
		row->has_program_id = k->has_program_id;
		if ((k->function && !row->function) || (k->op && !row->op))
			return NULL;
	}
	return row;
}

static int push_sample(struct an_kern_row *row, int64_t v)
{
	if (xp_grow(&row->samples_, &row->cap_, row->ns_, sizeof(*row->samples_), 8))
		return XP_ERR_NOMEM;
	row->samples_[row->ns_++] = v;
	row->instances++;
	return 0;
}

/* A stat's string value copied NUL-terminated into buf (cut to fit); NULL if it has none. */
static const char *stat_text(const struct xp_plane *p, const struct xp_stat *s, char *buf, size_t n)
{
	size_t len;
	const char *v = s ? xp_stat_str(p, s, &len) : NULL;

	if (!v)
		return NULL;
	if (len >= n)
		len = n - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	return buf;
}

/* The function of a kernel: hlo_module without its "(digits)" fingerprint, and its program id. */
static void function_of(const struct xp_plane *p, const struct xp_event *e, char *buf, size_t n,
			struct row_key *k)
{
	const struct xp_stat *s;
	char pid[32];
	size_t len, i;

	k->function = stat_text(p, xp_event_stat(p, e, XP_K_HLO_MODULE), buf, n);
	k->has_program_id = 0;
	k->program_id = 0;
	if (!k->function)
		return;
	s = xp_event_stat(p, e, XP_K_PROGRAM_ID);
	if (s && !xp_stat_u64(s, &k->program_id)) {
		k->has_program_id = 1;
	} else if (s && stat_text(p, s, pid, sizeof(pid))) {
		k->has_program_id = !parse_u64(pid, pid + strlen(pid), &k->program_id);
	}
	len = strlen(buf);
	if (len < 3 || buf[len - 1] != ')')
		return;
	for (i = len - 2; i > 0 && isdigit((unsigned char)buf[i]); i--)
		;
	if (buf[i] != '(' || i == len - 2)
		return;
	if (!k->has_program_id)
		k->has_program_id = !parse_u64(buf + i + 1, buf + len - 1, &k->program_id);
	buf[i] = '\0';
}

struct ival {
	int64_t start, end;
};

static int cmp_ival(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/* Union length of n intervals (sorted here), saturating. */
static int64_t union_ps(struct ival *v, size_t n)
{
	int64_t total = 0, cs = 0, ce = 0;
	size_t i;

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_ival);
	for (i = 0; i < n; i++) {
		if (i && v[i].start <= ce) {
			if (v[i].end > ce)
				ce = v[i].end;
			continue;
		}
		if (i)
			total = xp_sat_add(total, xp_sat_sub(ce, cs));
		cs = v[i].start;
		ce = v[i].end;
	}
	if (n)
		total = xp_sat_add(total, xp_sat_sub(ce, cs));
	return total;
}

static int64_t end_of(const struct xp_event *e)
{
	return xp_sat_add(e->start_ps, e->dur_ps);
}

static int add_copy(struct an_kern_result *r, const struct xp_plane *p, const struct xp_event *e,
		    enum an_kind kind)
{
	struct an_copy *c = &r->copies[kind];
	uint64_t b;

	c->count++;
	c->total_ps += (uint64_t)e->dur_ps;
	r->copy_events++;
	if (an_event_bytes(p, e, &b)) {
		c->no_bytes++;
		return 0;
	}
	c->bytes_saturated |= xp_sat_add_to_u64(&c->bytes, b);
	c->bytes_ps += (uint64_t)e->dur_ps;
	return 0;
}

static int add_kernel(struct an_kern_result *r, const struct xp_plane *p, const struct xp_event *e,
		      size_t *row_of_meta)
{
	char fbuf[1024], obuf[1024], cbuf[512] = "";
	struct an_launch cfg;
	struct row_key k = {.name = xp_event_name(p, e), .config = cbuf};
	const struct xp_stat *s = xp_event_stat(p, e, XP_K_KERNEL_DETAILS);
	struct an_kern_row *row;
	size_t len;
	const char *v = s ? xp_stat_str(p, s, &len) : NULL;

	if (!s) {
		k.cfg_state = AN_CFG_NONE;
		r->no_config++;
	} else if (!v || an_launch_parse(v, len, &cfg)) {
		k.cfg_state = AN_CFG_BAD;
		r->bad_config++;
		if (!r->bad_config_example) {
			char tmp[201];

			r->bad_config_example = strdup(v ? stat_text(p, s, tmp, sizeof(tmp)) : "(not a string)");
			if (!r->bad_config_example)
				return XP_ERR_NOMEM;
		}
	} else {
		k.cfg_state = AN_CFG_OK;
		k.cfg = &cfg;
		if (an_launch_partial(&cfg) && !r->partial_config++) {
			char tmp[201];

			if (!(r->partial_config_example = strdup(stat_text(p, s, tmp, sizeof(tmp)))))
				return XP_ERR_NOMEM;
		}
		if (r->opts.by == AN_KERN_BY_CONFIG || r->opts.by == AN_KERN_BY_ALL)
			an_launch_format(&cfg, cbuf, sizeof(cbuf));
		r->implausible_config += an_launch_implausible(&cfg);
	}
	if (r->opts.by == AN_KERN_BY_FUNCTION || r->opts.by == AN_KERN_BY_ALL) {
		function_of(p, e, fbuf, sizeof(fbuf), &k);
		k.op = stat_text(p, xp_event_stat(p, e, XP_K_HLO_OP), obuf, sizeof(obuf));
	}
	/* By name, a row is one per event metadata: found once per plane. */
	if (r->opts.by == AN_KERN_BY_NAME && row_of_meta[e->meta] != SIZE_MAX) {
		row = &r->rows[row_of_meta[e->meta]];
	} else {
		row = row_for(r, &k);
		if (row && r->opts.by == AN_KERN_BY_NAME)
			row_of_meta[e->meta] = (size_t)(row - r->rows);
	}
	if (!row || push_sample(row, e->dur_ps))
		return XP_ERR_NOMEM;
	r->kernel_events++;
	r->kernel_sum += (uint64_t)e->dur_ps;	/* durations are never negative (xp_plane_finish) */
	r->zero_events += e->dur_ps == 0;
	return 0;
}

/* A's place before b among the slowest: longer first, then earlier input, start, device, stream, name. */
static int inst_cmp(const struct an_kern_inst *a, const struct an_kern_inst *b)
{
	int c;

	if (a->dur_ps != b->dur_ps)
		return a->dur_ps > b->dur_ps ? -1 : 1;
	if (a->input_ix_ != b->input_ix_)
		return a->input_ix_ < b->input_ix_ ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	if (a->start_sub_ps != b->start_sub_ps)
		return a->start_sub_ps < b->start_sub_ps ? -1 : 1;
	if ((c = strcmp(a->device, b->device)) || (c = strcmp(a->stream, b->stream)))
		return c;
	return strcmp(a->name, b->name);
}

static int inst_cmp_q(const void *a, const void *b)
{
	return inst_cmp(a, b);
}

static void inst_free(struct an_kern_inst *x)
{
	free(x->name);
	free(x->input);
	free(x->device);
	free(x->stream);
	free(x->function);
}

/* The heap of the slowest keeps the one that comes last at its root (index 0). */
static void heap_down(struct an_kern_inst *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct an_kern_inst t;

		if (l < n && inst_cmp(&h[l], &h[m]) > 0)
			m = l;
		if (r < n && inst_cmp(&h[r], &h[m]) > 0)
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void heap_up(struct an_kern_inst *h, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		struct an_kern_inst t;

		if (inst_cmp(&h[i], &h[p]) <= 0)
			return;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

/*
 * Offers x (its strings borrowed) to the slowest: kept as a copy when among
 * the opts.slowest so far. 0, or XP_ERR_NOMEM.
 */
static int offer(struct an_kern_result *r, const struct an_kern_inst *x, int take)
{
	struct an_kern_inst c = *x;
	size_t n = r->opts.slowest;

	if (!n || (r->nslowest == n && inst_cmp(x, &r->slowest[0]) >= 0)) {
		if (take) {
			struct an_kern_inst t = *x;

			inst_free(&t);
		}
		return 0;
	}
	if (!r->slowest && !(r->slowest = calloc(n, sizeof(*r->slowest))))
		return XP_ERR_NOMEM;
	if (!take) {
		c.name = strdup(x->name);
		c.input = strdup(x->input ? x->input : "");
		c.device = strdup(x->device);
		c.stream = strdup(x->stream);
		c.function = x->function ? strdup(x->function) : NULL;
		if (!c.name || !c.input || !c.device || !c.stream || (x->function && !c.function)) {
			inst_free(&c);
			return XP_ERR_NOMEM;
		}
	}
	if (r->nslowest == n) {
		inst_free(&r->slowest[0]);
		r->slowest[0] = c;
		heap_down(r->slowest, n, 0);
	} else {
		r->slowest[r->nslowest] = c;
		heap_up(r->slowest, r->nslowest++);
	}
	return 0;
}

/* Room in first_ for input indexes below n (a new one: none yet, the largest value). */
static int first_room(struct an_kern_result *r, size_t n)
{
	__int128 *f;

	if (n <= r->nfirst_)
		return 0;
	if (!(f = realloc(r->first_, n * sizeof(*f))))
		return XP_ERR_NOMEM;
	for (; r->nfirst_ < n; r->nfirst_++)
		f[r->nfirst_] = (__int128)(((unsigned __int128)1 << 126) - 1);
	r->first_ = f;
	return 0;
}

/* A stream event of the current input (index r->inputs - 1) among the slowest and as its first. */
static int slow_event(struct an_kern_result *r, const struct xp_plane *p, const struct xp_line *l,
		      const struct xp_event *e, const char *dev, int kernel)
{
	__int128 abs = (__int128)p->base_ns * 1000 + e->start_ps;
	size_t ix = r->inputs ? r->inputs - 1 : 0;
	struct an_kern_inst x = {0};
	const struct xp_stat *s;
	char fbuf[1024];
	struct row_key k;

	if (first_room(r, ix + 1))
		return XP_ERR_NOMEM;
	if (abs < r->first_[ix])
		r->first_[ix] = abs;
	if (!kernel)
		return 0;
	x.dur_ps = e->dur_ps;
	x.input_ix_ = ix;
	/* floor division: a start before the epoch keeps 0 <= sub < 1000 */
	x.start_ns = (int64_t)(abs >= 0 ? abs / 1000 : -((-abs + 999) / 1000));
	x.start_sub_ps = (int64_t)(abs - (__int128)x.start_ns * 1000);
	x.name = (char *)xp_event_name(p, e);
	x.input = (char *)r->input_;
	x.device = (char *)dev;
	x.stream = (char *)l->name;
	if (r->nslowest == r->opts.slowest && inst_cmp(&x, &r->slowest[0]) >= 0)
		return 0;	/* the common case: not among them, nothing looked up */
	function_of(p, e, fbuf, sizeof(fbuf), &k);
	x.function = (char *)k.function;
	x.program_id = k.program_id;
	x.has_program_id = k.has_program_id;
	s = xp_event_stat(p, e, XP_K_CORRELATION_ID);
	x.has_correlation = s && !xp_stat_u64(s, &x.correlation);
	return offer(r, &x, 0);
}

/*
 * Whether line i of p holds kernels: a "Stream #" line; on a GPU plane with
 * none (streams 0), any line XProf does not derive from the others.
 */
static int is_kernel_line(const struct xp_plane *p, size_t i, int streams)
{
	if (streams)
		return !strncmp(p->lines[i].name, "Stream #", 8);
	return !an_is_derived_line(p->lines[i].name);
}

/* One GPU plane's stream lines (streams: it has "Stream #" lines; else its lines of other names). */
static int add_plane(struct an_kern_result *r, const struct xp_plane *p, const char *hostname, int streams)
{
	unsigned char *use = calloc(p->nlines + 1, 1), *stray = xp_malloc_big(p->nevents + 1, 1);
	struct ival *iv = xp_malloc_big(p->nevents + 1, sizeof(*iv));
	size_t *row_of_meta = xp_malloc_big(p->nevmetas + 1, sizeof(*row_of_meta));
	size_t i, j, nstray = 0, niv = 0, nuse = 0;
	struct xp_err why = {0};
	char *dev = NULL;
	size_t dev_id;
	int ret = XP_ERR_NOMEM;
	int64_t busy;

	if (!use || !stray || !iv || !row_of_meta)
		goto out;
	memset(row_of_meta, 0xff, (p->nevmetas + 1) * sizeof(*row_of_meta));	/* SIZE_MAX: not yet */
	for (i = 0; i < p->nlines; i++) {
		use[i] = is_kernel_line(p, i, streams) && !p->lines[i].skipped;
		nuse += use[i];
		r->other_lines += !use[i];
	}
	r->stream_lines += nuse;
	if (xp_plane_stray_ends(p, use, stray, &nstray, &why))
		goto out;
	r->stray_events += nstray;
	dev = an_device_key(hostname, p->name);
	dev_id = r->dev_ids_.n;
	if (!dev || xp_hmap_get_or_put(&r->dev_ids_, dev, &dev_id) < 0)
		goto out;
	r->devices = r->dev_ids_.n;
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];

		if (!use[i])
			continue;
		for (j = l->first_event; j < l->first_event + l->nevents; j++) {
			const struct xp_event *e = &p->events[j];
			enum an_kind kind;

			if (stray[j])
				continue;
			kind = an_event_kind(p, e);
			if (r->opts.slowest && slow_event(r, p, l, e, dev, kind == AN_KIND_KERNEL))
				goto out;
			if (kind != AN_KIND_KERNEL) {
				if (add_copy(r, p, e, kind))
					goto out;
				continue;
			}
			if (add_kernel(r, p, e, row_of_meta))
				goto out;
			iv[niv].start = e->start_ps;
			iv[niv++].end = end_of(e);
		}
	}
	busy = union_ps(iv, niv);
	r->kernel_busy_ps = xp_sat_add(r->kernel_busy_ps, busy);
	ret = 0;
out:
	free(dev);
	free(use);
	free(stray);
	free(iv);
	free(row_of_meta);
	return ret;
}

/* Whether a loaded plane has a "Stream #" line. */
static int has_streams(const struct xp_plane *p)
{
	size_t i;

	for (i = 0; i < p->nlines; i++)
		if (!strncmp(p->lines[i].name, "Stream #", 8))
			return 1;
	return 0;
}

void an_kern_want_lines(const char *plane, const char *const *names, size_t n, unsigned char *want,
			void *device_pattern)
{
	size_t i;
	int streams = 0, others = 0;

	if (!an_exec_wants_plane(plane, device_pattern))
		return;
	for (i = 0; i < n; i++) {
		streams |= !strncmp(names[i], "Stream #", 8);
		others |= !an_is_derived_line(names[i]);
	}
	if (!streams && (strncmp(plane, "/device:GPU:", 12) || !others)) {
		/* no kernels (a TPU's): its device work read all the same, so the plane is told of as one with events */
		an_exec_want_lines(plane, names, n, want, device_pattern);
		return;
	}
	for (i = 0; i < n; i++)
		want[i] = streams ? !strncmp(names[i], "Stream #", 8) : !an_is_derived_line(names[i]);
}

/* Whether a GPU plane without "Stream #" lines has lines of other names that are not derived (kernels there). */
static int other_gpu_lines(const struct xp_plane *p)
{
	size_t i;

	if (strncmp(p->name, "/device:GPU:", 12))
		return 0;
	for (i = 0; i < p->nlines; i++)
		if (p->lines[i].nevents && !an_is_derived_line(p->lines[i].name))
			return 1;
	return 0;
}

int an_kern_add_plane(struct an_kern_result *r, struct xp_trace *t, size_t i, struct xp_err *err)
{
	int ret = xp_trace_load_plane(t, i, err), streams;

	if (ret || !strcmp(t->planes[i].name, AN_CPU_PLANE))	/* XLA:CPU's: no kernels there */
		return ret;
	streams = has_streams(&t->planes[i]);
	if (!streams && !other_gpu_lines(&t->planes[i])) {
		/* events of its device work (not of any line a read took: summaries read more) */
		r->device_planes_no_streams += an_plane_device_events(&t->planes[i]) > 0;
		return 0;
	}
	ret = add_plane(r, &t->planes[i], t->nhostnames ? t->hostnames[0] : "", streams);
	return ret ? xp_err_set(err, ret, "out of memory") : 0;
}

int an_kern_add(struct an_kern_result *r, struct xp_trace *t, struct xp_err *err)
{
	size_t i;
	int ret;

	r->inputs++;
	for (i = 0; i < t->nplanes; i++)
		if (an_exec_wants_plane(t->planes[i].name, (void *)r->opts.device) &&
		    (ret = an_kern_add_plane(r, t, i, err)))
			return ret;
	return 0;
}

/* Moves s's instances into d (rows of one key). */
static int row_merge(struct an_kern_row *d, struct an_kern_row *s)
{
	size_t k;

	if (!d->ns_) {	/* take the samples whole */
		free(d->samples_);
		d->samples_ = s->samples_;
		d->ns_ = s->ns_;
		d->cap_ = s->cap_;
		d->instances += s->ns_;
		s->samples_ = NULL;
	} else {
		for (k = 0; k < s->ns_; k++)
			if (push_sample(d, s->samples_[k]))
				return XP_ERR_NOMEM;
	}
	s->instances -= s->ns_;
	s->ns_ = s->cap_ = 0;
	if (s->sk_) {
		if (!d->sk_) {
			d->sk_ = s->sk_;
		} else {
			if (an_sketch_merge(&d->sk_->s, &s->sk_->s))
				return XP_ERR_NOMEM;
			an_moments_merge(&d->sk_->m, &s->sk_->m);
			an_sketch_release(&s->sk_->s);
			free(s->sk_);
		}
		d->instances += s->instances;
		s->sk_ = NULL;
		s->instances = 0;
	}
	return 0;
}

int an_kern_merge(struct an_kern_result *dst, struct an_kern_result *src, struct xp_err *err)
{
	size_t i, k, v;
	int ret = XP_ERR_NOMEM;

	for (i = 0; i < src->nrows; i++) {
		struct an_kern_row *s = &src->rows[i], *d;
		struct row_key key = {
			.name = s->name, .cfg_state = s->cfg_state, .cfg = &s->cfg,
			.config = s->config ? s->config : "", .function = s->function, .op = s->op,
			.program_id = s->program_id, .has_program_id = s->has_program_id,
		};

		d = row_for(dst, &key);
		if (!d || row_merge(d, s))
			goto out;
	}
	for (i = 0; i < src->dev_ids_.cap; i++) {
		v = dst->dev_ids_.n;
		if (src->dev_ids_.keys[i] && xp_hmap_get_or_put(&dst->dev_ids_, src->dev_ids_.keys[i], &v) < 0)
			goto out;
	}
	dst->devices = dst->dev_ids_.n;
	for (k = 0; k < AN_KIND_COUNT; k++) {
		struct an_copy *d = &dst->copies[k], *s = &src->copies[k];

		d->count += s->count;
		d->total_ps += s->total_ps;
		d->no_bytes += s->no_bytes;
		d->bytes_ps += s->bytes_ps;
		d->bytes_saturated |= s->bytes_saturated | xp_sat_add_to_u64(&d->bytes, s->bytes);
	}
	if (dst->opts.slowest) {
		/* src's inputs come after dst's: their indexes move up by dst's count */
		if (first_room(dst, dst->inputs + src->inputs))
			goto out;
		for (k = 0; k < src->nfirst_ && k < src->inputs; k++)
			dst->first_[dst->inputs + k] = src->first_[k];
		for (k = 0; k < src->nslowest; k++) {
			src->slowest[k].input_ix_ += dst->inputs;
			if (offer(dst, &src->slowest[k], 1))
				goto out;
		}
		src->nslowest = 0;
	}
	dst->inputs += src->inputs;
	dst->device_planes_no_streams += src->device_planes_no_streams;
	dst->stream_lines += src->stream_lines;
	dst->other_lines += src->other_lines;
	dst->kernel_events += src->kernel_events;
	dst->kernel_sum += src->kernel_sum;
	dst->kernel_busy_ps = xp_sat_add(dst->kernel_busy_ps, src->kernel_busy_ps);
	dst->copy_events += src->copy_events;
	dst->stray_events += src->stray_events;
	dst->zero_events += src->zero_events;
	dst->no_config += src->no_config;
	dst->bad_config += src->bad_config;
	dst->partial_config += src->partial_config;
	if (!dst->partial_config_example && src->partial_config_example) {
		dst->partial_config_example = src->partial_config_example;
		src->partial_config_example = NULL;
	}
	dst->implausible_config += src->implausible_config;
	if (!dst->bad_config_example && src->bad_config_example) {
		dst->bad_config_example = src->bad_config_example;
		src->bad_config_example = NULL;
	}
	ret = 0;
out:
	return ret ? xp_err_set(err, ret, "out of memory") : 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void sort_samples(struct an_kern_row *row)
{
	int64_t *s = row->samples_;
	size_t n = row->ns_;

	if (n > 1 && xp_sort_by_i64(s, n, sizeof(*s), 0))
		qsort(s, n, sizeof(*s), cmp_i64);	/* no room for the radix sort: in place */
}

/* Rank k (1-based) of a sketch's instances, kept within the exact min and max. */
static double sketch_at(const struct an_sketch *s, const struct an_moments *m, uint64_t k)
{
	double v = an_sketch_rank(s, k);

	return v < (double)m->min ? (double)m->min : v > (double)m->max ? (double)m->max : v;
}

static int64_t sketch_nearest(const struct an_sketch *s, const struct an_moments *m, double p)
{
	double r = ceil(p * (double)m->n);
	uint64_t k = r < 1 ? 1 : r > (double)m->n ? m->n : (uint64_t)r;

	return llround(sketch_at(s, m, k));
}

/*
 * The statistics: total, mean and std from the exact moments (the same
 * however the instances were pooled), quantiles from the samples, or from
 * the sketch with the samples added when the row has one.
 */
static int row_stats(struct an_kern_row *row)
{
	struct an_moments m = {0};
	struct an_sketch all = {0};
	size_t n = row->ns_, i;
	int64_t *s = row->samples_;

	if (!row->instances)
		return 0;
	sort_samples(row);
	for (i = 0; i < n; i++)
		an_moments_add(&m, s[i]);
	if (row->sk_) {
		an_moments_merge(&m, &row->sk_->m);
		if (an_sketch_merge(&all, &row->sk_->s) || an_sketch_add_sorted(&all, s, n)) {
			an_sketch_release(&all);
			return XP_ERR_NOMEM;
		}
	}
	row->total = an_moments_sum(&m);
	row->mean = row->total / (double)m.n;
	row->std = an_moments_std(&m);
	row->min = m.min;
	row->max = m.max;
	if (!row->sk_) {
		row->median = n % 2 ? (double)s[n / 2] : ((double)s[n / 2 - 1] + (double)s[n / 2]) / 2;
		row->p90 = an_quantile_nearest(s, n, 0.90);
		row->p99 = an_quantile_nearest(s, n, 0.99);
		return 0;
	}
	row->approximate = 1;
	row->median = m.n % 2 ? sketch_at(&all, &m, m.n / 2 + 1)
		      : (sketch_at(&all, &m, m.n / 2) + sketch_at(&all, &m, m.n / 2 + 1)) / 2;
	row->p90 = sketch_nearest(&all, &m, 0.90);
	row->p99 = sketch_nearest(&all, &m, 0.99);
	an_sketch_release(&all);
	return 0;
}

/* NULL-aware string order: NULL (no function, no op) last. */
static int cmp_opt(const char *a, const char *b)
{
	if (!a || !b)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

static int cmp_row(const void *a, const void *b)
{
	const struct an_kern_row *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if ((c = strcmp(x->name, y->name)))
		return c;
	if ((c = cmp_opt(x->config, y->config)))
		return c;
	if (x->cfg_state != y->cfg_state)
		return x->cfg_state < y->cfg_state ? -1 : 1;
	if ((c = cmp_opt(x->function, y->function)))
		return c;
	if (x->has_program_id != y->has_program_id || x->program_id != y->program_id)
		return x->has_program_id != y->has_program_id ? y->has_program_id - x->has_program_id
		       : x->program_id < y->program_id ? -1 : 1;
	return cmp_opt(x->op, y->op);
}

/* Grouping while finishing by function: the totals of a row's function and op. */
struct nest {
	double fn_total, op_total;
	size_t fn, op;		/* group ids in first-seen order */
	size_t row;
	const struct an_kern_row *r;
};

static int cmp_nest(const void *a, const void *b)
{
	const struct nest *x = a, *y = b;
	const struct an_kern_row *rx = x->r, *ry = y->r;

	if (x->fn != y->fn) {
		if (x->fn_total != y->fn_total)
			return x->fn_total > y->fn_total ? -1 : 1;
		return cmp_opt(rx->function, ry->function) ? cmp_opt(rx->function, ry->function)
		       : x->fn < y->fn ? -1 : 1;
	}
	if (x->op != y->op) {
		if (x->op_total != y->op_total)
			return x->op_total > y->op_total ? -1 : 1;
		return cmp_opt(rx->op, ry->op) ? cmp_opt(rx->op, ry->op) : x->op < y->op ? -1 : 1;
	}
	return x->row < y->row ? -1 : x->row > y->row;	/* rows are sorted already */
}

/* Sorts rows into function, op, kernel order and fills fns and ops. */
static int nest_by_function(struct an_kern_result *r)
{
	struct xp_hmap fmap = {0}, omap = {0};
	double *ftot = calloc(r->nrows + 1, sizeof(*ftot)), *otot = calloc(r->nrows + 1, sizeof(*otot));
	struct nest *v = xp_malloc_big(r->nrows + 1, sizeof(*v));
	struct an_kern_row *sorted = xp_malloc_big(r->nrows + 1, sizeof(*sorted));
	size_t i, nf = 0, no = 0;
	int ret = XP_ERR_NOMEM;

	if (!ftot || !otot || !v || !sorted)
		goto out;
	for (i = 0; i < r->nrows; i++) {
		const struct an_kern_row *row = &r->rows[i];
		char *fk = NULL, *ok = NULL;
		int f1, f2;

		if (asprintf(&fk, "%d%s\x1f%d%" PRIu64, row->function != NULL, row->function ? row->function : "",
			     row->has_program_id, row->program_id) < 0)
			goto out;
		v[i].fn = nf;
		f1 = xp_hmap_get_or_put(&fmap, fk, &v[i].fn);
		if (f1 >= 0 && asprintf(&ok, "%s\x1f%d%s", fk, row->op != NULL, row->op ? row->op : "") < 0)
			ok = NULL;
		free(fk);
		if (f1 < 0 || !ok)
			goto out;
		v[i].op = no;
		f2 = xp_hmap_get_or_put(&omap, ok, &v[i].op);
		free(ok);
		if (f2 < 0)
			goto out;
		nf += !f1;
		no += !f2;
		v[i].row = i;
		v[i].r = row;
		ftot[v[i].fn] += row->total;
		otot[v[i].op] += row->total;
	}
	for (i = 0; i < r->nrows; i++) {
		v[i].fn_total = ftot[v[i].fn];
		v[i].op_total = otot[v[i].op];
	}
	if (r->nrows > 1)
		qsort(v, r->nrows, sizeof(*v), cmp_nest);
	r->fns = calloc(nf + 1, sizeof(*r->fns));
	r->ops = calloc(no + 1, sizeof(*r->ops));
	if (!r->fns || !r->ops)
		goto out;
	for (i = 0; i < r->nrows; i++) {
		struct an_kern_row *row;
		struct an_kern_op *op;
		struct an_kern_fn *fn;

		sorted[i] = r->rows[v[i].row];
		row = &sorted[i];
		if (!i || v[i].fn != v[i - 1].fn) {
			fn = &r->fns[r->nfns++];
			fn->name = row->function;
			fn->program_id = row->program_id;
			fn->has_program_id = row->has_program_id;
			fn->first_op = r->nops;
		}
		fn = &r->fns[r->nfns - 1];
		if (!i || v[i].op != v[i - 1].op || v[i].fn != v[i - 1].fn) {
			op = &r->ops[r->nops++];
			op->name = row->op;
			op->first_row = i;
			fn->nops++;
		}
		op = &r->ops[r->nops - 1];
		op->nrows++;
		op->instances += row->instances;
		op->total += row->total;
		fn->instances += row->instances;
		fn->total += row->total;
		row->fn = r->nfns - 1;
		row->opx = r->nops - 1;
	}
	for (i = 0; i < r->nfns; i++)
		r->fns[i].share = r->kernel_ps > 0 ? r->fns[i].total / r->kernel_ps : 0;
	for (i = 0; i < r->nops; i++)
		r->ops[i].share = r->kernel_ps > 0 ? r->ops[i].total / r->kernel_ps : 0;
	if (r->nrows)
		memcpy(r->rows, sorted, r->nrows * sizeof(*sorted));
	ret = 0;
out:
	xp_hmap_release(&fmap);
	xp_hmap_release(&omap);
	free(ftot);
	free(otot);
	free(v);
	free(sorted);
	return ret;
}

int an_kern_finish(struct an_kern_result *r, struct xp_err *err)
{
	size_t i;

	r->kernel_ps = (double)r->kernel_sum;
	for (i = 0; i < AN_KIND_COUNT; i++) {
		r->copies[i].total = (double)r->copies[i].total_ps;
		r->copies[i].bytes_time = (double)r->copies[i].bytes_ps;
	}
	r->approximate = 0;
	r->tensor_core_ps = 0;
	for (i = 0; i < r->nrows; i++) {
		if (row_stats(&r->rows[i]))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		if (r->rows[i].tensor_core)
			r->tensor_core_ps += r->rows[i].total;
		r->rows[i].share = r->kernel_ps > 0 ? r->rows[i].total / r->kernel_ps : 0;
		r->approximate += r->rows[i].approximate;
	}
	if (r->nrows > 1)
		qsort(r->rows, r->nrows, sizeof(*r->rows), cmp_row);
	/* The row index the key map holds is stale now; nothing looks rows up after finish. */
	xp_hmap_release(&r->by_key_);
	if (r->opts.by == AN_KERN_BY_FUNCTION && nest_by_function(r))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (r->nslowest > 1)
		qsort(r->slowest, r->nslowest, sizeof(*r->slowest), inst_cmp_q);
	for (i = 0; i < r->nslowest; i++) {
		struct an_kern_inst *x = &r->slowest[i];
		__int128 off = (__int128)x->start_ns * 1000 + x->start_sub_ps -
			       (x->input_ix_ < r->nfirst_ ? r->first_[x->input_ix_] : 0);

		x->offset_ps = off > INT64_MAX ? INT64_MAX : off < INT64_MIN ? INT64_MIN : (int64_t)off;
	}
	return 0;
}

void an_kern_release(struct an_kern_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].name);
		free(r->rows[i].config);
		free(r->rows[i].function);
		free(r->rows[i].op);
		free(r->rows[i].samples_);
		if (r->rows[i].sk_)
			an_sketch_release(&r->rows[i].sk_->s);
		free(r->rows[i].sk_);
	}
	free(r->rows);
	free(r->fns);
	free(r->ops);
	free(r->bad_config_example);
	free(r->partial_config_example);
	for (i = 0; i < r->nslowest; i++)
		inst_free(&r->slowest[i]);
	free(r->slowest);
	free(r->first_);
	xp_hmap_release(&r->by_key_);
	xp_hmap_release(&r->dev_ids_);
	memset(r, 0, sizeof(*r));
}

int an_kern_row_digest(struct an_kern_row *row, struct an_kern_digest *d)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	sort_samples(row);
	if (!row->sk_ && row->ns_ <= AN_KERN_EXACT_MAX) {
		d->samples = row->samples_;
		d->n = row->ns_;
		return 0;
	}
	for (i = 0; i < row->ns_; i++)
		an_moments_add(&d->m, row->samples_[i]);
	if (row->sk_) {
		an_moments_merge(&d->m, &row->sk_->m);
		if (an_sketch_merge(&d->s, &row->sk_->s))
			goto nomem;
	}
	if (an_sketch_add_sorted(&d->s, row->samples_, row->ns_))
		goto nomem;
	d->n = (size_t)d->m.n;
	return 0;
nomem:
	an_kern_digest_release(d);
	return XP_ERR_NOMEM;
}

void an_kern_digest_release(struct an_kern_digest *d)
{
	an_sketch_release(&d->s);
	memset(d, 0, sizeof(*d));
}

int an_kern_put_row(struct an_kern_result *r, const struct an_kern_row *key, struct an_kern_digest *d)
{
	struct row_key k = {
		.name = key->name, .cfg_state = key->cfg_state, .cfg = &key->cfg,
		.config = key->config ? key->config : "", .function = key->function, .op = key->op,
		.program_id = key->program_id, .has_program_id = key->has_program_id,
	};
	size_t before = r->nrows, i;
	struct an_kern_row *row = row_for(r, &k);

	if (!row)
		return XP_ERR_NOMEM;
	if ((size_t)(row - r->rows) < before)
		return 1;
	if (d->samples) {
		for (i = 0; i < d->n; i++)
			if (push_sample(row, d->samples[i]))
				return XP_ERR_NOMEM;
		return 0;
	}
	if (!(row->sk_ = calloc(1, sizeof(*row->sk_))))
		return XP_ERR_NOMEM;
	row->sk_->m = d->m;
	row->sk_->s = d->s;
	memset(&d->s, 0, sizeof(d->s));
	row->instances = (size_t)d->m.n;
	return 0;
}

int an_kern_count_device(struct an_kern_result *r, const char *key)
{
	size_t v = r->dev_ids_.n;

	if (xp_hmap_get_or_put(&r->dev_ids_, key, &v) < 0)
		return XP_ERR_NOMEM;
	r->devices = r->dev_ids_.n;
	return 0;
}

int an_kern_row_each(const struct an_kern_row *row, int (*fn)(void *ctx, double ps, size_t weight), void *ctx)
{
	size_t i;
	int ret;

	for (i = 0; i < row->ns_; i++)
		if ((ret = fn(ctx, (double)row->samples_[i], 1)))
			return ret;
	if (!row->sk_)
		return 0;
	if (row->sk_->s.zeros && (ret = fn(ctx, 0, (size_t)row->sk_->s.zeros)))
		return ret;
	for (i = 0; i < row->sk_->s.n; i++) {
		double v = an_sketch_value(row->sk_->s.idx[i]);

		/* within the exact bounds, as the quantiles are */
		v = v < (double)row->sk_->m.min ? (double)row->sk_->m.min
		    : v > (double)row->sk_->m.max ? (double)row->sk_->m.max : v;
		if ((ret = fn(ctx, v, (size_t)row->sk_->s.cnt[i])))
			return ret;
	}
	return 0;
}
