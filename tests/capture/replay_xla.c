/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay_xla - turn a real XLA GPU dump back into the capture records that
 * CUPTI and XLA's NVTX ranges would have given for the same run, and convert
 * them with the capture converter. Comparing the functions table of the
 * result with the table of the dump itself checks the converter and the
 * NVTX join on real timings, without a GPU (tests/capture/replay_check.sh).
 *
 * Usage: replay_xla IN.xplane.pb OUT.xplane.pb [RECORDS.xpscap]
 *
 * What becomes what:
 *  - each event on a device plane's "Stream #" line: a kernel record (device
 *    = the plane's ordinal, stream = the line id, its correlation_id, its
 *    name), or a copy or memset record when it is named like one;
 *  - each host event with a correlation_id (the driver launch calls XLA
 *    records): a driver call record on its line's thread;
 *  - each host event with a module_name stat (GpuExecutable::ExecuteThunks,
 *    one execution of a module): an NVTX range
 *    "XlaModule:#hlo_module=<m>,program_id=<p>#" of the same span on the
 *    thread of every launch it encloses, program_id taken from those
 *    launches (XLA annotates them);
 *  - each launch with an hlo_op stat: a "Thunk:#hlo_op=<op>#" range around it.
 *
 * So the hlo_module, program_id and hlo_op stats that the dump carries on
 * its kernels are left behind: in the result they come only from the join
 * (kernel -> correlation id -> launch -> ranges open on its thread), and the
 * executions only from the XlaModule ranges, where the dump's table groups
 * kernels by its host linkage. On an NVIDIA GPU XLA launches from the
 * thread that executes the thunks, which is where its NVTX ranges are; the
 * AMD dumps name another thread id for the launches, hence "the thread of
 * every launch it encloses".
 *
 * Times: the dump's picoseconds must be whole nanoseconds (CUPTI's unit);
 * anything else, or a launch whose annotation disagrees with its enclosing
 * module, is an error (exit 1) rather than a quietly different answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an_planes.h"
#include "cap_file.h"
#include "cap_write.h"
#include "cap_xspace.h"
#include "xp_input.h"
#include "xp_model.h"

#define GEN_NAME "replay_xla"
#include "gen_common.h"

#define T0 1000000000ull		/* "CUPTI" ns of the earliest time in the dump */
#define WALL0 1700000000000000000ull	/* the wall clock then */

/* Host calls with a correlation id: what the records and the ranges are made from. */
struct launch {
	uint64_t start, end;	/* record ns */
	uint32_t thread, correlation;
	const char *name;
	const char *module;	/* hlo_module stat, NULL if none */
	int64_t program_id;	/* -1 if none */
	const char *op;		/* hlo_op stat, NULL if none */
};

struct replay {
	const struct xp_trace *t;
	int64_t min_ns;		/* earliest absolute ns in the dump: record time T0 */
	uint64_t last;		/* the latest record time */
	struct launch *launches;
	size_t nlaunches;
	struct cap_writer w;
	uint32_t marker;
	size_t kernels, copies, ranges, thunks;
};

/* An event's absolute time in ns, which must be whole. */
static int64_t abs_ns(const struct xp_plane *p, int64_t ps, const char *what)
{
	if (ps % 1000)
		die("%s on plane '%s' at %" PRId64 " ps is not on a whole nanosecond", what, p->name, ps);
	return p->base_ns + ps / 1000;
}

/* Record time of an absolute ns; keeps the latest for the trailer. */
static uint64_t rec_ns(struct replay *r, int64_t ns)
{
	uint64_t t = T0 + (uint64_t)(ns - r->min_ns);

	if (t > r->last)
		r->last = t;
	return t;
}

static const char *str_stat(const struct xp_plane *p, const struct xp_event *e, enum xp_key k)
{
	const struct xp_stat *s = xp_event_stat(p, e, k);
	size_t len;

	return s ? xp_stat_str(p, s, &len) : NULL;
}

static int u64_stat(const struct xp_plane *p, const struct xp_event *e, enum xp_key k, uint64_t *v)
{
	const struct xp_stat *s = xp_event_stat(p, e, k);

	return s && xp_stat_u64(s, v) == 0;
}

static int is_gpu_plane(const struct xp_plane *p, uint32_t *ordinal)
{
	char *end;
	unsigned long v;

	if (strncmp(p->name, "/device:GPU:", 12))
		return 0;
	v = strtoul(p->name + 12, &end, 10);
	if (*end || end == p->name + 12)
		return 0;
	*ordinal = (uint32_t)v;
	return 1;
}

static void find_min(struct replay *r)
{
	size_t i, j;
	int any = 0;

	for (i = 0; i < r->t->nplanes; i++) {
		const struct xp_plane *p = &r->t->planes[i];

		for (j = 0; j < p->nevents; j++) {
			int64_t ns = p->base_ns + p->events[j].start_ps / 1000 - 1;

			if (!any || ns < r->min_ns)
				r->min_ns = ns;
			any = 1;
		}
	}
	if (!any)
		die("no events");
}

static void collect_launches(struct replay *r, const struct xp_plane *p)
{
	size_t j;

	for (j = 0; j < p->nevents; j++) {
		const struct xp_event *e = &p->events[j];
		const struct xp_line *l = &p->lines[e->line];
		struct launch *la;
		uint64_t corr, pid;

		if (!u64_stat(p, e, XP_K_CORRELATION_ID, &corr))
			continue;
		if (corr > UINT32_MAX || (uint64_t)l->id > UINT32_MAX)
			die("correlation id %" PRIu64 " or thread %" PRId64 " does not fit CUPTI's 32 bits",
			    corr, l->id);
		r->launches = realloc(r->launches, (r->nlaunches + 1) * sizeof(*r->launches));
		if (!r->launches)
			die("out of memory");
		la = &r->launches[r->nlaunches++];
		la->start = rec_ns(r, abs_ns(p, e->start_ps, "a launch"));
		la->end = rec_ns(r, abs_ns(p, e->start_ps + e->dur_ps, "a launch's end"));
		la->thread = (uint32_t)l->id;
		la->correlation = (uint32_t)corr;
		la->name = xp_event_name(p, e);
		la->module = str_stat(p, e, XP_K_HLO_MODULE);
		la->program_id = u64_stat(p, e, XP_K_PROGRAM_ID, &pid) ? (int64_t)pid : -1;
		la->op = str_stat(p, e, XP_K_HLO_OP);
	}
}

static void range(struct replay *r, uint32_t thread, uint64_t start, uint64_t end, const char *name)
{
	struct cap_marker s = {.ts = start, .id = ++r->marker, .flags = CAP_MARK_START,
			       .thread = thread, .name = name, .domain = "TSL"};
	struct cap_marker e = {.ts = end, .id = r->marker, .flags = CAP_MARK_END, .thread = thread};

	check(cap_writer_marker(&r->w, &s), "marker");
	check(cap_writer_marker(&r->w, &e), "marker");
}

/*
 * The launch thread of each line that executes modules: the one whose
 * launches its executions enclose most often. (Where XLA launches from the
 * executing thread, as on NVIDIA GPUs, that is the line's own thread.)
 */
struct exec_line {
	const struct xp_plane *p;
	uint32_t line;
	uint32_t thread;	/* its launch thread */
	size_t votes;
};

static void pair_lines(struct replay *r, struct exec_line **out, size_t *nout)
{
	struct exec_line *el = NULL;
	size_t n = 0, i, j, k;

	for (i = 0; i < r->t->nplanes; i++) {
		const struct xp_plane *p = &r->t->planes[i];

		if (strncmp(p->name, "/host:", 6))
			continue;
		for (j = 0; j < p->nevents; j++) {
			const struct xp_event *e = &p->events[j];

			if (!str_stat(p, e, XP_K_MODULE_NAME))
				continue;
			for (k = 0; k < n && !(el[k].p == p && el[k].line == e->line); k++)
				;
			if (k == n) {
				el = realloc(el, (n + 1) * sizeof(*el));
				if (!el)
					die("out of memory");
				el[n++] = (struct exec_line){.p = p, .line = e->line};
			}
		}
	}
	/* votes: for each executor line and launch thread, launches enclosed */
	for (k = 0; k < n; k++) {
		const struct xp_plane *p = el[k].p;
		size_t best = 0;

		for (i = 0; i < r->nlaunches; i++) {
			uint32_t th = r->launches[i].thread;
			size_t votes = 0, m;

			for (m = 0; m < i && r->launches[m].thread != th; m++)
				;
			if (m < i)
				continue;	/* thread counted already */
			for (j = 0; j < p->nevents; j++) {
				const struct xp_event *e = &p->events[j];
				uint64_t s, end;

				if (e->line != el[k].line || !str_stat(p, e, XP_K_MODULE_NAME))
					continue;
				s = rec_ns(r, abs_ns(p, e->start_ps, "an execution"));
				end = rec_ns(r, abs_ns(p, e->start_ps + e->dur_ps, "an execution's end"));
				for (m = 0; m < r->nlaunches; m++)
					if (r->launches[m].thread == th && r->launches[m].start >= s &&
					    r->launches[m].start <= end)
						votes++;
			}
			if (votes > best) {
				best = votes;
				el[k].thread = th;
				el[k].votes = votes;
			}
		}
	}
	*out = el;
	*nout = n;
}

/* An XlaModule range over execution e on thread, program_id from the launches it encloses there. */
static void module_range(struct replay *r, const struct xp_plane *p, const struct xp_event *e,
			 const char *module, uint32_t thread)
{
	uint64_t s = rec_ns(r, abs_ns(p, e->start_ps, "an execution"));
	uint64_t end = rec_ns(r, abs_ns(p, e->start_ps + e->dur_ps, "an execution's end"));
	char name[512];
	int64_t pid = -1;
	size_t k;

	for (k = 0; k < r->nlaunches; k++) {
		const struct launch *o = &r->launches[k];

		if (o->thread != thread || o->start < s || o->start > end || !o->module)
			continue;
		if (strcmp(o->module, module))
			die("launch %" PRIu32 " says module '%s' inside an execution of '%s'", o->correlation,
			    o->module, module);
		if (pid >= 0 && o->program_id != pid)
			die("launches of one execution of '%s' name programs %" PRId64 " and %" PRId64, module,
			    pid, o->program_id);
		pid = o->program_id;
	}
	if (pid >= 0)
		snprintf(name, sizeof(name), "XlaModule:#hlo_module=%s,program_id=%" PRId64 "#", module, pid);
	else
		snprintf(name, sizeof(name), "XlaModule:#hlo_module=%s#", module);
	range(r, thread, s, end, name);
	r->ranges++;
}

static void host_records(struct replay *r)
{
	struct exec_line *el;
	size_t i, j, nel;

	for (i = 0; i < r->t->nplanes; i++)
		if (!strncmp(r->t->planes[i].name, "/host:", 6))
			collect_launches(r, &r->t->planes[i]);
	for (i = 0; i < r->nlaunches; i++) {
		const struct launch *la = &r->launches[i];
		struct cap_api a = {.start = la->start, .end = la->end, .thread = la->thread,
				    .correlation = la->correlation, .name = la->name};

		check(cap_writer_api(&r->w, &a), "api");
		if (la->op) {
			char name[512];

			snprintf(name, sizeof(name), "Thunk:#hlo_op=%s#", la->op);
			range(r, la->thread, la->start, la->end, name);
			r->thunks++;
		}
	}
	pair_lines(r, &el, &nel);
	for (i = 0; i < nel; i++) {
		const struct xp_plane *p = el[i].p;

		if (!el[i].votes)
			continue;	/* launches nothing */
		for (j = 0; j < p->nevents; j++) {
			const struct xp_event *e = &p->events[j];
			const char *m = str_stat(p, e, XP_K_MODULE_NAME);

			if (m && e->line == el[i].line)
				module_range(r, p, e, m, el[i].thread);
		}
	}
	free(el);
}

static int copy_kind(const char *name)
{
	static const char *const names[] = {"MemcpyOther", "MemcpyH2D", "MemcpyD2H", "MemcpyD2D",
					    "MemcpyP2P"};
	int k;

	for (k = 0; k < CAP_COPY_KINDS; k++)
		if (!strcmp(name, names[k]))
			return k;
	return -1;
}

static void device_records(struct replay *r, const struct xp_plane *p, uint32_t ordinal,
			   const struct an_device_facts *f)
{
	struct cap_device d = {.id = ordinal, .name = f->model, .cc_major = (uint32_t)f->cc_major,
			       .cc_minor = (uint32_t)f->cc_minor, .sm_count = (uint32_t)f->cores,
			       .clock_khz = (uint32_t)f->clock_khz, .mem_size = f->mem_size,
			       .mem_bandwidth = f->mem_bw};
	size_t j;

	check(cap_writer_device(&r->w, &d), "device");
	for (j = 0; j < p->nevents; j++) {
		const struct xp_event *e = &p->events[j];
		const struct xp_line *l = &p->lines[e->line];
		const char *name = xp_event_name(p, e);
		uint64_t start, end, corr = 0;
		int kind;

		if (strncmp(l->name, "Stream #", 8))
			continue;
		if ((uint64_t)l->id > UINT32_MAX)
			die("stream id %" PRId64 " does not fit CUPTI's 32 bits", l->id);
		start = rec_ns(r, abs_ns(p, e->start_ps, "a kernel"));
		end = rec_ns(r, abs_ns(p, e->start_ps + e->dur_ps, "a kernel's end"));
		u64_stat(p, e, XP_K_CORRELATION_ID, &corr);
		if (corr > UINT32_MAX)
			die("correlation id %" PRIu64 " does not fit CUPTI's 32 bits", corr);
		kind = copy_kind(name);
		if (kind >= 0) {
			struct cap_memcpy m = {.start = start, .end = end, .device = ordinal, .context = 1,
					       .stream = (uint32_t)l->id, .correlation = (uint32_t)corr,
					       .kind = (uint8_t)kind, .src_device = ordinal,
					       .dst_device = ordinal};

			check(cap_writer_memcpy(&r->w, &m), "memcpy");
			r->copies++;
		} else if (!strcmp(name, "Memset")) {
			struct cap_memset m = {.start = start, .end = end, .device = ordinal, .context = 1,
					       .stream = (uint32_t)l->id, .correlation = (uint32_t)corr};

			check(cap_writer_memset(&r->w, &m), "memset");
			r->copies++;
		} else {
			struct cap_kernel k = {.start = start, .end = end, .device = ordinal, .context = 1,
					       .stream = (uint32_t)l->id, .correlation = (uint32_t)corr,
					       .name = name};

			check(cap_writer_kernel(&r->w, &k), "kernel");
			r->kernels++;
		}
	}
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * The join itself, kernel by kernel: each device event of the converted
 * capture must carry the hlo_module, program_id and hlo_op that XLA wrote
 * on the same kernel (same device, same correlation id) in the dump, and
 * none where the dump has none. Returns the number of kernels compared;
 * dies on the first difference.
 */
static size_t check_join(const struct xp_trace *dump, const struct xp_trace *cap, size_t *annotated)
{
	size_t i, j, k, m, n = 0;

	*annotated = 0;
	for (i = 0; i < dump->nplanes; i++) {
		const struct xp_plane *p = &dump->planes[i], *q = NULL;
		uint32_t ordinal, o2;

		if (!is_gpu_plane(p, &ordinal))
			continue;
		for (k = 0; k < cap->nplanes && !q; k++)
			if (is_gpu_plane(&cap->planes[k], &o2) && o2 == ordinal)
				q = &cap->planes[k];
		for (j = 0; j < p->nevents; j++) {
			const struct xp_event *e = &p->events[j], *f = NULL;
			uint64_t corr, c2, pa = 0, pb = 0;
			int ha, hb;

			if (strncmp(p->lines[e->line].name, "Stream #", 8) ||
			    !u64_stat(p, e, XP_K_CORRELATION_ID, &corr))
				continue;
			for (m = 0; q && m < q->nevents && !f; m++)
				if (u64_stat(q, &q->events[m], XP_K_CORRELATION_ID, &c2) && c2 == corr)
					f = &q->events[m];
			if (!f)
				die("%s: kernel %" PRIu64 " is missing from the capture", p->name, corr);
			ha = u64_stat(p, e, XP_K_PROGRAM_ID, &pa);
			hb = u64_stat(q, f, XP_K_PROGRAM_ID, &pb);
			if (!same_str(str_stat(p, e, XP_K_HLO_MODULE), str_stat(q, f, XP_K_HLO_MODULE)) ||
			    !same_str(str_stat(p, e, XP_K_HLO_OP), str_stat(q, f, XP_K_HLO_OP)) || ha != hb ||
			    pa != pb)
				die("%s: kernel %" PRIu64 ": the dump says %s/%" PRIu64 "/%s, the join %s/%" PRIu64
				    "/%s", p->name, corr, str_stat(p, e, XP_K_HLO_MODULE) ?: "-", pa,
				    str_stat(p, e, XP_K_HLO_OP) ?: "-", str_stat(q, f, XP_K_HLO_MODULE) ?: "-", pb,
				    str_stat(q, f, XP_K_HLO_OP) ?: "-");
			*annotated += str_stat(p, e, XP_K_HLO_MODULE) != NULL;
			n++;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	struct replay r = {0};
	struct xp_buf in = {0};
	struct xp_trace *t = NULL, *ct = NULL;
	size_t joined, annotated;
	struct xp_err err = {0};
	struct an_planes info;
	struct cap_header h = {.pid = 1, .flags = CAP_F_NVTX, .start_wall_ns = WALL0, .start_ts = T0};
	struct cap_trailer tr = {0};
	struct cap_file file;
	const struct cap_file *files[1] = {&file};
	struct cap_convert_opts co = {.hostname = "replay"};
	struct cap_summary sum;
	struct xp_notes notes = {0};
	char recpath[4096];
	unsigned char *out;
	size_t len, i;
	FILE *f;
	int fd;

	if (argc != 3 && argc != 4)
		die("usage: replay_xla IN.xplane.pb OUT.xplane.pb [RECORDS.xpscap]");
	if (xp_buf_load(argv[1], XP_DEFAULT_MAX_INPUT, &in, &err) || xp_trace_read(NULL, in.data, in.len, &t, &err) ||
	    an_planes_describe(t, &info, &err))
		die("%s", err.msg);
	r.t = t;
	find_min(&r);

	if (argc == 4)
		snprintf(recpath, sizeof(recpath), "%s", argv[3]);
	else
		snprintf(recpath, sizeof(recpath), "%s.xpscap", argv[2]);
	fd = open(recpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("cannot create '%s': %s", recpath, strerror(errno));
	check(cap_writer_open(&r.w, fd, &h), "open");
	for (i = 0; i < t->nplanes; i++) {
		uint32_t ordinal;

		if (is_gpu_plane(&t->planes[i], &ordinal))
			device_records(&r, &t->planes[i], ordinal, &info.planes[i].dev);
	}
	host_records(&r);
	tr.end_ts = r.last;
	tr.end_wall_ns = WALL0 + (tr.end_ts - T0);
	check(cap_writer_finish(&r.w, &tr), "finish");
	cap_writer_release(&r.w);
	close(fd);

	if (cap_file_load(recpath, &file, &err) || cap_xspace(files, 1, &co, &out, &len, &sum, &notes, &err))
		die("%s", err.msg);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, len, f) != len || fclose(f))
		die("cannot write '%s'", argv[2]);
	if (xp_trace_read(NULL, out, len, &ct, &err))
		die("the converted capture: %s", err.msg);
	joined = check_join(t, ct, &annotated);
	printf("%zu kernels, %zu copies, %zu launches, %zu module ranges, %zu thunk ranges; "
	       "join: %zu kernels carry the dump's hlo_module, program_id and hlo_op (%zu annotated)\n",
	       r.kernels, r.copies, r.nlaunches, r.ranges, r.thunks, joined, annotated);
	if (annotated != sum.annotated)
		die("the converter says it annotated %zu device activities, the dump has %zu", sum.annotated,
		    annotated);
	for (i = 0; i < notes.n; i++)
		printf("note: %s\n", notes.msgs[i]);
	free(out);
	xp_notes_release(&notes);
	cap_file_release(&file);
	free(r.launches);
	xp_trace_free(ct);
	an_planes_release(&info);
	xp_trace_free(t);
	xp_buf_release(&in);
	return 0;
}
