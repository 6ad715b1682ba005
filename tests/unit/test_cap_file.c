/* SPDX-License-Identifier: Apache-2.0 */
/* Capture record files: writer and reader round trip, truncated and corrupt files. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cap_file.h"
#include "cap_format.h"
#include "cap_layout.h"
#include "cap_write.h"
#include "test.h"
#include "../capture/cap_h100.h"

/* Bytes written to a temporary file, read back into memory. */
struct blob {
	unsigned char *p;
	size_t n;
};

/* What was written to tmp, which is closed. */
static void slurp(FILE *tmp, struct blob *b)
{
	long n;

	fflush(tmp);
	n = ftell(tmp);
	b->p = malloc((size_t)n + 1);
	b->n = (size_t)n;
	rewind(tmp);
	CHECK(fread(b->p, 1, b->n, tmp) == b->n);
	fclose(tmp);
}

static const struct cap_kernel k1 = {
	.start = 1000100, .end = 1000350, .device = 1, .context = 7, .stream = 13, .correlation = 42,
	.name = "_Z6matmulPfS_S_i", .demangled = "matmul(float*, float*, float*, int)",
	.grid = {64, 2, 1}, .block = {256, 1, 1}, .regs = 40, .static_shmem = 1024,
	.dynamic_shmem = 2048, .graph_id = 5, .graph_node_id = 0x100000002ull,
};

/* A complete file with one record of every kind (and a repeated kernel name). */
static void write_all(struct blob *b, int finish)
{
	FILE *tmp = tmpfile();
	struct cap_writer w;
	struct cap_header h = {.pid = 4242, .flags = CAP_F_NVTX, .cupti_version = 130001,
			       .start_wall_ns = 1700000000123456789ull, .start_ts = 1000000};
	struct cap_device d = cap_h100(1);
	struct cap_kernel k2 = k1;
	struct cap_memcpy mc = {.start = 1000400, .end = 1000500, .bytes = 1 << 20, .device = 1,
				.context = 7, .stream = 14, .correlation = 43, .kind = CAP_COPY_H2D,
				.src_kind = CAP_MEM_PINNED, .dst_kind = CAP_MEM_DEVICE, .async = 1,
				.src_device = 1, .dst_device = 1};
	struct cap_memset ms = {.start = 1000600, .end = 1000610, .bytes = 4096, .device = 1, .context = 7,
				.stream = 13, .correlation = 44, .value = 0xab, .mem_kind = CAP_MEM_DEVICE};
	struct cap_api a = {.start = 1000050, .end = 1000060, .thread = 777, .correlation = 42,
			    .cbid = 307, .name = "cuLaunchKernel"};
	struct cap_marker m1 = {.ts = 1000010, .id = 9, .flags = CAP_MARK_START, .thread = 777,
				.name = "XlaModule:#hlo_module=jit_f,program_id=3#", .domain = "TSL"};
	struct cap_marker m2 = {.ts = 1000900, .id = 9, .flags = CAP_MARK_END, .thread = 777};
	struct cap_range r = {.ts = 1000001, .start = 1};
	struct cap_note note = {.warning = 1, .text = "hello"};
	struct cap_trailer t = {.dropped = 3, .end_ts = 1001000, .end_wall_ns = 1700000000124457789ull};

	k2.start = 1000360;
	k2.end = 1000380;
	k2.correlation = 45;
	k2.demangled = NULL;
	CHECK_INT(cap_writer_open(&w, fileno(tmp), &h), 0);
	CHECK_INT(cap_writer_device(&w, &d), 0);
	CHECK_INT(cap_writer_kernel(&w, &k1), 0);
	CHECK_INT(cap_writer_kernel(&w, &k2), 0);
	CHECK_INT(cap_writer_memcpy(&w, &mc), 0);
	CHECK_INT(cap_writer_memset(&w, &ms), 0);
	CHECK_INT(cap_writer_api(&w, &a), 0);
	CHECK_INT(cap_writer_marker(&w, &m1), 0);
	CHECK_INT(cap_writer_marker(&w, &m2), 0);
	CHECK_INT(cap_writer_range(&w, &r), 0);
	CHECK_INT(cap_writer_note(&w, &note), 0);
	CHECK_INT(cap_writer_dropped(&w, 2), 0);
	if (finish) {
		CHECK_INT(cap_writer_finish(&w, &t), 0);
		/* strings: device name, k1 name, k1 demangled, api name, marker name, "TSL" */
		CHECK_INT(t.records, 6 + 11);
	} else {
		CHECK_INT(cap_writer_flush(&w), 0);
	}
	cap_writer_release(&w);
	slurp(tmp, b);
}

static void test_round_trip(void)
{
	struct blob b;
	struct cap_file f;
	struct xp_err err = {0};

	write_all(&b, 1);
	CHECK_INT(cap_file_read(b.p, b.n, &f, &err), 0);
	CHECK_INT(f.header.version, CAP_VERSION);
	CHECK_INT(f.header.pid, 4242);
	CHECK_INT(f.header.flags, CAP_F_NVTX);
	CHECK_INT(f.header.cupti_version, 130001);
	CHECK(f.header.start_wall_ns == 1700000000123456789ull);
	CHECK_INT(f.header.start_ts, 1000000);
	CHECK_INT(f.complete, 1);
	CHECK_INT(f.trailer.records, 17);
	CHECK_INT(f.trailer.end_ts, 1001000);
	/* DROPPED records sum to 2, the trailer says 3: the larger one stands */
	CHECK_INT(f.dropped, 3);
	CHECK_INT(f.last_ts, 1001000);
	CHECK_INT(f.truncated_bytes + f.unknown_records + f.short_records + f.bad_string_refs, 0);

	CHECK_INT(f.ndevices, 1);
	CHECK_STR(f.devices[0].name, "NVIDIA H100 80GB HBM3");
	CHECK_INT(f.devices[0].sm_count, 132);
	CHECK(f.devices[0].mem_bandwidth == 3352000000000ull);
	CHECK_INT(f.devices[0].shmem_per_block, 49152);

	CHECK_INT(f.nkernels, 2);
	CHECK_INT(f.kernels[0].start, k1.start);
	CHECK_INT(f.kernels[0].end, k1.end);
	CHECK_INT(f.kernels[0].stream, 13);
	CHECK_INT(f.kernels[0].correlation, 42);
	CHECK_STR(f.kernels[0].name, k1.name);
	CHECK_STR(f.kernels[0].demangled, k1.demangled);
	CHECK_INT(f.kernels[0].grid[1], 2);
	CHECK_INT(f.kernels[0].block[0], 256);
	CHECK_INT(f.kernels[0].regs, 40);
	CHECK_INT(f.kernels[0].dynamic_shmem, 2048);
	CHECK_INT(f.kernels[0].graph_id, 5);
	CHECK(f.kernels[0].graph_node_id == 0x100000002ull);
	/* the same name is one string: both point at it */
	CHECK(f.kernels[1].name == f.kernels[0].name);
	CHECK(f.kernels[1].demangled == NULL);

	CHECK_INT(f.nmemcpys, 1);
	CHECK_INT(f.memcpys[0].bytes, 1 << 20);
	CHECK_INT(f.memcpys[0].kind, CAP_COPY_H2D);
	CHECK_INT(f.memcpys[0].src_kind, CAP_MEM_PINNED);
	CHECK_INT(f.memcpys[0].dst_kind, CAP_MEM_DEVICE);
	CHECK_INT(f.memcpys[0].async, 1);
	CHECK_INT(f.nmemsets, 1);
	CHECK_INT(f.memsets[0].value, 0xab);
	CHECK_INT(f.memsets[0].bytes, 4096);
	CHECK_INT(f.napis, 1);
	CHECK_INT(f.apis[0].thread, 777);
	CHECK_INT(f.apis[0].cbid, 307);
	CHECK_STR(f.apis[0].name, "cuLaunchKernel");
	CHECK_INT(f.nmarkers, 2);
	CHECK_STR(f.markers[0].name, "XlaModule:#hlo_module=jit_f,program_id=3#");
	CHECK_STR(f.markers[0].domain, "TSL");
	CHECK_INT(f.markers[1].flags, CAP_MARK_END);
	CHECK(f.markers[1].name == NULL && f.markers[1].domain == NULL);
	CHECK_INT(f.nranges, 1);
	CHECK_INT(f.ranges[0].start, 1);
	CHECK_INT(f.nnotes, 1);
	CHECK_STR(f.notes[0].text, "hello");
	CHECK_INT(f.notes[0].warning, 1);
	cap_file_release(&f);
	free(b.p);
}

/* Every prefix of a complete file: the header must be whole, records are kept up to the cut. */
/* The first n bytes of p read as an incomplete capture file, with its cut bytes and kernels as given. */
static struct cap_file read_partial(const unsigned char *p, size_t n, long long truncated, long long nkernels)
{
	struct cap_file f;
	struct xp_err err = {0};

	CHECK_INT(cap_file_read(p, n, &f, &err), 0);
	CHECK_INT(f.complete, 0);
	CHECK_INT(f.truncated_bytes, truncated);
	CHECK_INT(f.nkernels, nkernels);
	return f;
}

static void test_truncated(void)
{
	struct blob b;
	struct cap_file part;
	size_t cut, prev_records = 0, first_kernel_end = 0;

	write_all(&b, 1);
	for (cut = 0; cut <= b.n; cut++) {
		struct cap_file f;
		struct xp_err err = {0};
		int r = cap_file_read(b.p, cut, &f, &err);
		size_t records;

		if (cut < CAP_HEADER_SIZE) {
			CHECK_INT(r, XP_ERR_FORMAT);
			continue;
		}
		CHECK_INT(r, 0);
		if (r)
			continue;
		records = f.ndevices + f.nkernels + f.nmemcpys + f.nmemsets + f.napis + f.nmarkers +
			  f.nranges + f.nnotes;
		CHECK(records >= prev_records);
		prev_records = records;
		CHECK_INT(f.complete, cut == b.n);
		if (f.nkernels && !first_kernel_end)
			first_kernel_end = cut;
		cap_file_release(&f);
	}
	CHECK_INT(prev_records, 10);
	/* header 64, device name string 8+4+21, device 8+72, k1's two strings 8+4+16 and 8+4+35, k1 8+88 */
	CHECK_INT(first_kernel_end, 64 + 33 + 80 + 28 + 47 + 96);
	/* cut 10 bytes into k1's record */
	part = read_partial(b.p, first_kernel_end - 86, 10, 0);
	CHECK_INT(part.ndevices, 1);
	cap_file_release(&part);
	free(b.p);

	/* a file without its trailer (the process was killed): readable, partial */
	write_all(&b, 0);
	part = read_partial(b.p, b.n, 0, 2);
	CHECK_INT(part.dropped, 2);
	CHECK_INT(part.last_ts, 1000900);
	cap_file_release(&part);
	free(b.p);
}

static int read_err(const unsigned char *p, size_t n, const char *want)
{
	struct cap_file f;
	struct xp_err err = {0};
	int r = cap_file_read(p, n, &f, &err);

	if (!r)
		cap_file_release(&f);
	else if (!strstr(err.msg, want))
		fprintf(stderr, "error '%s' lacks '%s'\n", err.msg, want), test_failures++;
	return r;
}

static void test_corrupt(void)
{
	struct blob b;
	unsigned char *c;
	struct cap_file f;
	struct xp_err err = {0};
	size_t off;

	write_all(&b, 1);
	c = malloc(b.n + 200);

	memcpy(c, b.p, b.n);
	c[1] = 'Y';
	CHECK_INT(read_err(c, b.n, "bad magic"), XP_ERR_FORMAT);
	memcpy(c, b.p, b.n);
	cap_put32(c + 8, 2);
	CHECK_INT(read_err(c, b.n, "version 2"), XP_ERR_FORMAT);
	memcpy(c, b.p, b.n);
	cap_put32(c + 12, 8);
	CHECK_INT(read_err(c, b.n, "header size"), XP_ERR_FORMAT);
	/* the reserved half-word of the first record must be 0 */
	memcpy(c, b.p, b.n);
	c[CAP_HEADER_SIZE + 2] = 1;
	CHECK_INT(read_err(c, b.n, "bad record header at byte 64"), XP_ERR_FORMAT);
	/* an absurd length is corruption, not truncation */
	memcpy(c, b.p, b.n);
	cap_put32(c + CAP_HEADER_SIZE + 4, 0x7fffffff);
	CHECK_INT(read_err(c, b.n, "bad record header"), XP_ERR_FORMAT);
	/* strings must come in order */
	memcpy(c, b.p, b.n);
	cap_put32(c + CAP_HEADER_SIZE + 8, 2);
	CHECK_INT(read_err(c, b.n, "string id 2 where 1 was due"), XP_ERR_FORMAT);

	/* an unknown record type and a longer kernel payload (a later version) are read */
	off = CAP_HEADER_SIZE;
	memcpy(c, b.p, off);
	cap_put16(c + off, 12);
	cap_put16(c + off + 2, 0);
	cap_put32(c + off + 4, 3);
	memcpy(c + off + 8, "abc", 3);
	off += 11;
	memcpy(c + off, b.p + CAP_HEADER_SIZE, b.n - CAP_HEADER_SIZE);
	off += b.n - CAP_HEADER_SIZE;
	CHECK_INT(cap_file_read(c, off, &f, &err), 0);
	CHECK_INT(f.unknown_records, 1);
	CHECK_INT(f.nkernels, 2);
	CHECK_INT(f.complete, 1);
	cap_file_release(&f);

	/* bytes after the trailer are counted and ignored */
	memcpy(c, b.p, b.n);
	memset(c + b.n, 0xee, 20);
	CHECK_INT(cap_file_read(c, b.n + 20, &f, &err), 0);
	CHECK_INT(f.after_trailer, 20);
	CHECK_INT(f.complete, 1);
	cap_file_release(&f);
	free(c);
	free(b.p);
}

/* A file header of this version, the rest of its fields zero. */
static void put_header(unsigned char *buf)
{
	memcpy(buf, CAP_MAGIC, CAP_MAGIC_LEN);
	cap_put32(buf + 8, CAP_VERSION);
	cap_put32(buf + 12, CAP_HEADER_SIZE);
}

/* A kernel record longer than version 1's, and one shorter (skipped). */
static void test_payload_sizes(void)
{
	unsigned char buf[CAP_HEADER_SIZE + 2 * (CAP_REC_HEADER + 100)] = {0};
	unsigned char *p = buf + CAP_HEADER_SIZE;
	struct cap_file f;
	struct xp_err err = {0};

	put_header(buf);
	cap_put16(p, CAP_REC_KERNEL);
	cap_put32(p + 4, 100);
	cap_put64(p + 8, 5);		/* start */
	cap_put64(p + 16, 9);		/* end */
	cap_put32(p + 8 + 24, 3);	/* stream */
	p += CAP_REC_HEADER + 100;
	cap_put16(p, CAP_REC_KERNEL);
	cap_put32(p + 4, 40);
	CHECK_INT(cap_file_read(buf, (size_t)(p + 48 - buf), &f, &err), 0);
	CHECK_INT(f.nkernels, 1);
	CHECK_INT(f.kernels[0].end, 9);
	CHECK_INT(f.kernels[0].stream, 3);
	CHECK_INT(f.short_records, 1);
	CHECK_INT(f.complete, 0);
	cap_file_release(&f);
}

/* An API record of the first files of version 1 (36 bytes, no kind) reads as a driver call. */
static void test_api_without_kind(void)
{
	unsigned char buf[CAP_HEADER_SIZE + 2 * (CAP_REC_HEADER + CAP_LEN_API)] = {0};
	unsigned char *p = buf + CAP_HEADER_SIZE;
	struct cap_file f;
	struct xp_err err = {0};

	put_header(buf);
	cap_put32(buf + 44, 250);	/* flush interval */
	cap_put16(p, CAP_REC_API);
	cap_put32(p + 4, CAP_LEN_API_MIN);
	cap_put64(p + 8, 5);		/* start */
	cap_put32(p + 8 + 20, 42);	/* correlation */
	p += CAP_REC_HEADER + CAP_LEN_API_MIN;
	cap_put16(p, CAP_REC_API);
	cap_put32(p + 4, CAP_LEN_API);
	cap_put32(p + 8 + 20, 43);
	p[8 + 36] = CAP_API_RUNTIME;
	p += CAP_REC_HEADER + CAP_LEN_API;
	CHECK_INT(cap_file_read(buf, (size_t)(p - buf), &f, &err), 0);
	CHECK_INT(f.header.flush_ms, 250);
	CHECK_INT(f.napis, 2);
	CHECK_INT(f.apis[0].correlation, 42);
	CHECK_INT(f.apis[0].kind, CAP_API_DRIVER);
	CHECK_INT(f.apis[1].correlation, 43);
	CHECK_INT(f.apis[1].kind, CAP_API_RUNTIME);
	CHECK_INT(f.short_records, 0);
	cap_file_release(&f);
}

/*
 * The layout tables against the payload offsets of version 1, written out
 * here by hand (the round trip alone cannot see a field at the wrong offset
 * in both directions): every record type, through the writer, each field
 * read at its own offset.
 */
static const unsigned char *find_rec(const struct blob *b, unsigned type)
{
	size_t off = CAP_HEADER_SIZE;

	while (off + CAP_REC_HEADER <= b->n) {
		if (cap_get16(b->p + off) == type)
			return b->p + off + CAP_REC_HEADER;
		off += CAP_REC_HEADER + cap_get32(b->p + off + 4);
	}
	return NULL;
}

/* A field of a record's payload: its offset, its width in bytes (1, 4 or 8; 0 ends a list) and its value. */
struct field_at {
	unsigned off, width;
	uint64_t v;
};

/* The record of type in b holds the fields of want, each at its own offset. */
static void check_fields(const struct blob *b, unsigned type, const struct field_at *want)
{
	const unsigned char *p = find_rec(b, type);

	CHECK(p != NULL);
	for (; p && want->width; want++) {
		const unsigned char *q = p + want->off;
		uint64_t got = want->width == 8 ? cap_get64(q) : want->width == 4 ? cap_get32(q) : *q;

		if (got != want->v) {
			fprintf(stderr, "%s:%d: record %u offset %u: %" PRIu64 ", expected %" PRIu64 "\n",
				__FILE__, __LINE__, type, want->off, got, want->v);
			test_failures++;
		}
	}
}

/*
 * The records test_layout_offsets writes, field by field: numbers in order
 * within a record where they can be, the ids of the strings where they are.
 */
static const struct field_at device_at[] = {
	{0, 4, 3}, {4, 4, 1}, {8, 4, 9}, {12, 4, 1}, {16, 4, 132}, {20, 4, 1980000},
	{24, 8, 1ull << 36}, {32, 8, 3ull << 40},
	{40, 4, 32}, {44, 4, 64}, {48, 4, 31}, {52, 4, 1024}, {56, 4, 65536}, {60, 4, 65535},
	{64, 4, 233472}, {68, 4, 49152}, {0},
};
static const struct field_at kernel_at[] = {
	{0, 8, 11}, {8, 8, 12},
	{16, 4, 13}, {20, 4, 14}, {24, 4, 15}, {28, 4, 16},		/* device .. correlation */
	{32, 4, 2}, {36, 4, 3},						/* the names */
	{40, 4, 17}, {44, 4, 18}, {48, 4, 19}, {52, 4, 20}, {56, 4, 21}, {60, 4, (uint32_t)-22},
	{64, 4, 23}, {68, 4, 24}, {72, 4, 25}, {76, 4, 26},		/* regs .. graph_id */
	{80, 8, 1ull << 40}, {0},
};
static const struct field_at memcpy_at[] = {
	{0, 8, 31}, {8, 8, 32}, {16, 8, 33},
	{24, 4, 34}, {28, 4, 35}, {32, 4, 36}, {36, 4, 37},
	{40, 1, CAP_COPY_P2P}, {41, 1, CAP_MEM_PINNED}, {42, 1, CAP_MEM_DEVICE}, {43, 1, 1},
	{44, 4, 38}, {48, 4, 39}, {52, 4, 40},
	{56, 8, 41}, {0},
};
static const struct field_at memset_at[] = {
	{0, 8, 51}, {8, 8, 52}, {16, 8, 53},
	{24, 4, 54}, {28, 4, 55}, {32, 4, 56}, {36, 4, 57}, {40, 4, 58},
	{44, 1, CAP_MEM_MANAGED}, {45, 1, 1}, {46, 1, 0}, {47, 1, 0},
	{48, 4, 59}, {52, 8, 60}, {0},
};
static const struct field_at api_at[] = {
	{0, 8, 61}, {8, 8, 62}, {16, 4, 63}, {20, 4, 64}, {24, 4, 65}, {28, 4, 66}, {32, 4, 4},
	{36, 1, CAP_API_INTERNAL}, {37, 1, 0}, {38, 1, 0}, {39, 1, 0}, {0},
};
static const struct field_at marker_at[] = {
	{0, 8, 71}, {8, 4, 72}, {12, 4, CAP_MARK_START}, {16, 4, 73}, {20, 4, 5}, {24, 4, 6}, {0},
};
static const struct field_at range_at[] = {{0, 8, 81}, {8, 4, 1}, {0}};
/* records: the strings and records before it */
static const struct field_at trailer_at[] = {{0, 8, 6 + 7}, {8, 8, 91}, {16, 8, 92}, {24, 8, 93}, {0}};

static void test_layout_offsets(void)
{
	const struct cap_layout *all[] = {&cap_layout_device, &cap_layout_kernel, &cap_layout_memcpy,
					  &cap_layout_memset, &cap_layout_api, &cap_layout_marker,
					  &cap_layout_range, &cap_layout_trailer};
	struct cap_device d = {.id = 3, .name = "dev", .cc_major = 9, .cc_minor = 1, .sm_count = 132,
			       .clock_khz = 1980000, .mem_size = 1ull << 36, .mem_bandwidth = 3ull << 40,
			       .warp_size = 32, .max_warps_per_sm = 64, .max_blocks_per_sm = 31,
			       .max_threads_per_block = 1024, .regs_per_sm = 65536, .regs_per_block = 65535,
			       .shmem_per_sm = 233472, .shmem_per_block = 49152};
	struct cap_kernel k = {.start = 11, .end = 12, .device = 13, .context = 14, .stream = 15,
			       .correlation = 16, .name = "_Z1kv", .demangled = "k()", .grid = {17, 18, 19},
			       .block = {20, 21, -22}, .regs = 23, .static_shmem = 24, .dynamic_shmem = 25,
			       .graph_id = 26, .graph_node_id = 1ull << 40};
	struct cap_memcpy c = {.start = 31, .end = 32, .bytes = 33, .device = 34, .context = 35, .stream = 36,
			       .correlation = 37, .kind = CAP_COPY_P2P, .src_kind = CAP_MEM_PINNED,
			       .dst_kind = CAP_MEM_DEVICE, .async = 1, .src_device = 38, .dst_device = 39,
			       .graph_id = 40, .graph_node_id = 41};
	struct cap_memset m = {.start = 51, .end = 52, .bytes = 53, .device = 54, .context = 55, .stream = 56,
			       .correlation = 57, .value = 58, .mem_kind = CAP_MEM_MANAGED, .async = 1,
			       .graph_id = 59, .graph_node_id = 60};
	struct cap_api a = {.start = 61, .end = 62, .thread = 63, .correlation = 64, .cbid = 65, .result = 66,
			    .name = "cuLaunchKernel", .kind = CAP_API_INTERNAL};
	struct cap_marker mk = {.ts = 71, .id = 72, .flags = CAP_MARK_START, .thread = 73, .name = "r",
				.domain = "TSL"};
	struct cap_range rg = {.ts = 81, .start = 1};
	struct cap_trailer t = {.dropped = 91, .end_ts = 92, .end_wall_ns = 93};
	struct cap_header h = {.pid = 1};
	struct cap_writer w;
	FILE *tmp = tmpfile();
	struct blob b;
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		size_t j, nstr = 0;

		CHECK_INT(cap_layout_size(all[i]), all[i]->len);
		for (j = 0; j < all[i]->nfields; j++)
			nstr += all[i]->fields[j].kind == CAP_FK_STR;
		CHECK_INT(nstr, all[i]->nstrings);
		CHECK(nstr <= CAP_LAYOUT_MAX_STRINGS);
	}
	CHECK_INT(cap_writer_open(&w, fileno(tmp), &h), 0);
	CHECK_INT(cap_writer_device(&w, &d), 0);	/* string 1: "dev" */
	CHECK_INT(cap_writer_kernel(&w, &k), 0);	/* 2, 3 */
	CHECK_INT(cap_writer_memcpy(&w, &c), 0);
	CHECK_INT(cap_writer_memset(&w, &m), 0);
	CHECK_INT(cap_writer_api(&w, &a), 0);		/* 4 */
	CHECK_INT(cap_writer_marker(&w, &mk), 0);	/* 5, 6 */
	CHECK_INT(cap_writer_range(&w, &rg), 0);
	CHECK_INT(cap_writer_finish(&w, &t), 0);
	cap_writer_release(&w);
	slurp(tmp, &b);

	check_fields(&b, CAP_REC_DEVICE, device_at);
	check_fields(&b, CAP_REC_KERNEL, kernel_at);
	check_fields(&b, CAP_REC_MEMCPY, memcpy_at);
	check_fields(&b, CAP_REC_MEMSET, memset_at);
	check_fields(&b, CAP_REC_API, api_at);
	check_fields(&b, CAP_REC_MARKER, marker_at);
	check_fields(&b, CAP_REC_RANGE, range_at);
	check_fields(&b, CAP_REC_TRAILER, trailer_at);

	/* the reader's clamps: enums out of range read as 0, flags as 0 or 1 */
	{
		unsigned char *q = (unsigned char *)find_rec(&b, CAP_REC_MEMCPY);
		struct cap_file f;
		struct xp_err err = {0};

		q[40] = q[41] = q[42] = 0xff;
		q[43] = 7;
		q = (unsigned char *)find_rec(&b, CAP_REC_RANGE);
		cap_put32(q + 8, 5);
		q = (unsigned char *)find_rec(&b, CAP_REC_MEMSET);
		q[44] = CAP_MEM_KINDS;
		q[45] = 0x80;
		CHECK_INT(cap_file_read(b.p, b.n, &f, &err), 0);
		CHECK_INT(f.memcpys[0].kind, CAP_COPY_OTHER);
		CHECK_INT(f.memcpys[0].src_kind, CAP_MEM_UNKNOWN);
		CHECK_INT(f.memcpys[0].dst_kind, CAP_MEM_UNKNOWN);
		CHECK_INT(f.memcpys[0].async, 1);
		CHECK_INT(f.memsets[0].mem_kind, CAP_MEM_UNKNOWN);
		CHECK_INT(f.memsets[0].async, 1);
		CHECK_INT(f.ranges[0].start, 1);
		CHECK_INT(f.kernels[0].block[2], -22);
		cap_file_release(&f);
	}
	free(b.p);
}

/* Enough records to pass the writer's flush threshold several times. */
static void test_many(void)
{
	FILE *tmp = tmpfile();
	struct cap_writer w;
	struct cap_header h = {.pid = 1, .start_ts = 10};
	struct cap_trailer t = {0};
	struct cap_file f;
	struct xp_err err = {0};
	struct blob b;
	char name[32];
	uint32_t i;

	CHECK_INT(cap_writer_open(&w, fileno(tmp), &h), 0);
	for (i = 0; i < 30000; i++) {
		struct cap_kernel k = {.start = 100 + i, .end = 101 + i, .correlation = i};

		snprintf(name, sizeof(name), "k%u", i % 100);
		k.name = name;
		CHECK_INT(cap_writer_kernel(&w, &k), 0);
	}
	CHECK_INT(cap_writer_finish(&w, &t), 0);
	CHECK_INT(t.records, 30000 + 100);
	cap_writer_release(&w);
	slurp(tmp, &b);
	CHECK_INT(cap_file_read(b.p, b.n, &f, &err), 0);
	CHECK_INT(f.nkernels, 30000);
	CHECK_STR(f.kernels[29999].name, "k99");
	CHECK_INT(f.kernels[29999].correlation, 29999);
	CHECK_INT(f.complete, 1);
	cap_file_release(&f);
	free(b.p);

	/* a write error is kept and reported */
	CHECK_INT(cap_writer_open(&w, -1, &h), 0);
	CHECK_INT(cap_writer_flush(&w), -EBADF);
	CHECK_INT(cap_writer_dropped(&w, 1), -EBADF);
	cap_writer_release(&w);
}

int main(void)
{
	test_round_trip();
	test_truncated();
	test_corrupt();
	test_payload_sizes();
	test_layout_offsets();
	test_api_without_kind();
	test_many();
	return test_done("test_cap_file");
}
