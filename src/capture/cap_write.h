/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing a record file (format in cap_format.h). Self-contained: the
 * injection library links this file and nothing else of xplane-stat.
 *
 * Records collect in a buffer that goes to the file descriptor on
 * cap_writer_flush (and whenever it grows past a megabyte), so what reached
 * the file survives the process being killed. Not thread-safe: the caller
 * serialises. Every function returns 0 or a negative errno; after the first
 * failure the writer keeps that error and writes nothing more.
 */
#ifndef CAP_WRITE_H
#define CAP_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "cap_record.h"

struct cap_str_slot;

struct cap_writer {
	int fd;
	int err;		/* first failure, as a negative errno */
	unsigned char *buf;
	size_t len, cap;
	uint64_t records;	/* written so far, the header not counted */
	/* strings already written: an open-addressing table by content */
	struct cap_str_slot *slots;
	size_t nslots, nstrings;
};

/* Starts a file on fd (which stays the caller's to close) with the header h. */
int cap_writer_open(struct cap_writer *w, int fd, const struct cap_header *h);
int cap_writer_device(struct cap_writer *w, const struct cap_device *d);
int cap_writer_kernel(struct cap_writer *w, const struct cap_kernel *k);
int cap_writer_memcpy(struct cap_writer *w, const struct cap_memcpy *m);
int cap_writer_memset(struct cap_writer *w, const struct cap_memset *m);
int cap_writer_api(struct cap_writer *w, const struct cap_api *a);
int cap_writer_marker(struct cap_writer *w, const struct cap_marker *m);
int cap_writer_range(struct cap_writer *w, const struct cap_range *r);
int cap_writer_note(struct cap_writer *w, const struct cap_note *n);
/* count more records were dropped (by CUPTI, or by the writer itself). */
int cap_writer_dropped(struct cap_writer *w, uint64_t count);
/* Writes the buffered records to the file. */
int cap_writer_flush(struct cap_writer *w);
/* Writes the trailer (t->records is filled in here) and flushes: the file is complete. */
int cap_writer_finish(struct cap_writer *w, struct cap_trailer *t);
/* Frees the buffers; does not close the file descriptor. */
void cap_writer_release(struct cap_writer *w);

#endif
