/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a trace: the readers by name, and a read through one of them into a new trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_model.h"

const struct xp_reader *const xp_reader_default = &xp_reader_wire;

const struct xp_reader *xp_reader_find(const char *name)
{
	if (!strcmp(name, xp_reader_wire.name))
		return &xp_reader_wire;
	if (!strcmp(name, xp_reader_protobuf_c.name))
		return &xp_reader_protobuf_c;
	return NULL;
}

static size_t skip_blanks(const unsigned char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/*
 * Bytes a reader refused that begin as JSON does ('{' or '[' then a string,
 * an object, an array or their end; as protobuf those would be groups, which
 * no XSpace holds): the Chrome trace the profiler writes beside the XSpace,
 * named so in err instead of a protobuf error.
 */
static void name_json(const unsigned char *s, size_t len, struct xp_err *err)
{
	size_t i = skip_blanks(s, len, 0), j;

	if (i >= len || (s[i] != '{' && s[i] != '['))
		return;
	j = skip_blanks(s, len, i + 1);
	if (j < len && strchr("\"{[}]", s[j]))
		snprintf(err->msg, sizeof(err->msg), "JSON (a Chrome trace such as *.trace.json.gz?), not an XSpace "
			 "protobuf: give the *.xplane.pb the profiler wrote beside it");
}

int xp_trace_read_opts(const struct xp_read_opts *o, const void *buf, size_t len,
		       struct xp_trace **out, struct xp_err *err)
{
	struct xp_trace *t = calloc(1, sizeof(*t));
	size_t i;
	int ret;

	*out = NULL;
	if (!t)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	xp_arena_init(&t->arena);
	t->reader_ = o->reader ? o->reader : xp_reader_default;
	t->buf_ = buf;
	t->len_ = len;
	t->event_stats_ = o->event_stats;
	t->input_mapped_ = o->input_mapped;
	t->want_host_event_ = o->want_host_event;
	t->host_keys_ = o->host_keys;
	t->keys_ = o->keys;
	t->jobs_ = o->jobs;
	t->split_bytes_ = o->split_bytes;
	t->plane_user_free_ = o->plane_user_free;
	ret = t->reader_->read(buf, len, o, t, err);
	if (ret == XP_ERR_FORMAT && err)
		name_json(buf, len, err);
	for (i = 0; !ret && i < t->nplanes; i++)
		if (t->planes[i].loaded && !t->planes[i].plane_read_done_)
			ret = xp_plane_read_done(&t->planes[i], o, err);
	if (ret) {
		xp_trace_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

int xp_trace_read(const struct xp_reader *r, const void *buf, size_t len,
		  struct xp_trace **out, struct xp_err *err)
{
	struct xp_read_opts o = {.reader = r};

	return xp_trace_read_opts(&o, buf, len, out, err);
}
