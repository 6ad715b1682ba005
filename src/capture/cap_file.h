/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading a record file (format in cap_format.h) into arrays of records.
 *
 * Ownership: a cap_file owns its arrays and strings (the records' string
 * pointers point into it); free it with cap_file_release.
 *
 * A file without its trailer is read as far as its last whole record and
 * flagged partial: that is what a process killed before its exit handlers
 * leaves. Only a bad header, or records whose framing makes no sense, make
 * the read fail.
 */
#ifndef CAP_FILE_H
#define CAP_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cap_record.h"
#include "xp_err.h"

struct cap_file {
	struct cap_header header;
	struct cap_device *devices;
	size_t ndevices;
	struct cap_kernel *kernels;
	size_t nkernels;
	struct cap_memcpy *memcpys;
	size_t nmemcpys;
	struct cap_memset *memsets;
	size_t nmemsets;
	struct cap_api *apis;
	size_t napis;
	struct cap_marker *markers;
	size_t nmarkers;
	struct cap_range *ranges;
	size_t nranges;
	struct cap_note *notes;
	size_t nnotes;
	uint64_t dropped;	/* DROPPED records summed; the trailer's count if larger */
	int complete;		/* the trailer was read */
	struct cap_trailer trailer;	/* valid when complete */
	uint64_t last_ts;	/* the latest time any record mentions */
	size_t truncated_bytes;	/* a record cut off at the end (partial files) */
	size_t unknown_records;	/* types this reader does not know, skipped */
	size_t short_records;	/* known types with a payload too short, skipped */
	size_t bad_string_refs;	/* string ids that name no string (read as NULL) */
	size_t after_trailer;	/* bytes after the trailer, ignored */
	/* private */
	char **strings_;	/* [id], [0] unused */
	size_t nstrings_;
	char *string_pool_;
};

/* Reads len bytes of a record file. Returns 0 or a negative xp_errcode (XP_ERR_FORMAT, XP_ERR_NOMEM). */
int cap_file_read(const void *buf, size_t len, struct cap_file *f, struct xp_err *err);
/* Reads the file at path; messages name it. */
int cap_file_load(const char *path, struct cap_file *f, struct xp_err *err);
void cap_file_release(struct cap_file *f);

#endif
