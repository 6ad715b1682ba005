/* SPDX-License-Identifier: Apache-2.0 */
#include "opt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int opt_parse_duration(const char *s, int64_t *ps)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0 || !isfinite(v))
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			double r = v * units[i].scale;

			if (r > 9.2e18)
				return -1;
			*ps = (int64_t)llround(r);
			return 0;
		}
	}
	return -1;
}

static int parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	if (*s == '-')
		return -1;
	v = strtoull(s, &end, 10);
	if (end == s || errno)
		return -1;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

size_t opt_distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), i, j, row[64];

	if (lb >= sizeof(row) / sizeof(row[0]) || la >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* opt_before_command's: the argument vector and the index of the word typed before the command */
static struct {
	char **argv;
	int last;
} before;

void opt_before_command(char **argv, int last)
{
	before.argv = argv;
	before.last = last;
}

/* The long option of the table nearest to name (len bytes) within two edits, for "did you mean"; NULL: none. */
static const struct opt *nearest_long(const struct opt *opts, const char *name, size_t len)
{
	const struct opt *o, *best = NULL;
	size_t d, best_d = 3;

	for (o = opts; o->kind != OPT_END; o++)
		if (o->lng && (d = opt_distance(name, len, o->lng)) < best_d) {
			best = o;
			best_d = d;
		}
	return best;
}

/* OPT_ENUM: the index of arg among names ("a|b|c"), else -1 with "a, b or c" in err. */
static int parse_enum(const struct opt *o, const char *arg, char *err, size_t errlen)
{
	const char *n = o->arg, *bar;
	size_t len, off;
	int i;

	for (i = 0;; i++, n = bar + 1) {
		bar = strchr(n, '|');
		len = bar ? (size_t)(bar - n) : strlen(n);
		if (strlen(arg) == len && !strncmp(arg, n, len))
			return i;
		if (!bar)
			break;
	}
	off = (size_t)snprintf(err, errlen, "--%s: '%s' is not ", o->lng, arg);
	for (n = o->arg; off < errlen; n = bar + 1) {
		bar = strchr(n, '|');
		len = bar ? (size_t)(bar - n) : strlen(n);
		off += (size_t)snprintf(err + off, errlen - off, "%s%.*s", n == o->arg ? "" : bar ? ", " : " or ",
					(int)len, n);
		if (!bar)
			break;
	}
	return -1;
}

/* "--NAME: 'ARG' is not WHAT" in err; -1. */
static int not_a(const struct opt *o, const char *arg, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "--%s: '%s' is not %s", o->lng, arg, what);
	return -1;
}

static int set_value(const struct opt *o, const char *arg, char *err, size_t errlen)
{
	char *end;
	unsigned long long v;

	switch (o->kind) {
	case OPT_STR:
		*(const char **)o->ptr = arg;
		return 0;
	case OPT_SIZE:
	case OPT_COUNT:
		errno = 0;
		v = strtoull(arg, &end, 10);
		if (*arg == '-' || end == arg || *end || errno || (o->kind == OPT_COUNT && !v))
			return not_a(o, arg, o->kind == OPT_COUNT ? "a positive integer" : "a non-negative integer",
				     err, errlen);
		*(size_t *)o->ptr = (size_t)v;
		return 0;
	case OPT_DUR:
		if (opt_parse_duration(arg, (int64_t *)o->ptr))
			return not_a(o, arg, "a duration such as 1us, 250ns, 2.5ms", err, errlen);
		return 0;
	case OPT_ENUM:
		return (*(int *)o->ptr = parse_enum(o, arg, err, errlen)) < 0 ? -1 : 0;
	case OPT_BYTES:
		if (parse_bytes(arg, (uint64_t *)o->ptr))
			return not_a(o, arg, "a size such as 512M or 16G", err, errlen);
		return 0;
	default:
		return -1;
	}
}

static const struct opt *find_long(const struct opt *o, const char *name, size_t len)
{
	for (; o->kind != OPT_END; o++)
		if (o->lng && strlen(o->lng) == len && !strncmp(o->lng, name, len))
			return o;
	return NULL;
}

static const struct opt *find_short(const struct opt *o, char c)
{
	for (; o->kind != OPT_END; o++)
		if (o->shrt && o->shrt == c)
			return o;
	return NULL;
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, const char ***pos, size_t *npos,
	      FILE *out, char *err, size_t errlen)
{
	const char **enums = NULL;	/* each OPT_ENUM's last value: checked once all is parsed */
	const struct opt *o;
	size_t nopts = 0;
	int i, only_pos = 0, ret = -1;

	*npos = 0;
	for (o = c->opts; o->kind != OPT_END; o++)
		nopts++;
	*pos = calloc((size_t)argc + 1, sizeof(**pos));
	enums = calloc(nopts + 1, sizeof(*enums));
	if (!*pos || !enums) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;

		if (only_pos || a[0] != '-' || !a[1]) {
			(*pos)[(*npos)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			opt_help(c, out);
			ret = 1;
			goto out;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

			o = find_long(c->opts, a + 2, len);
			if (!o) {
				const struct opt *near = nearest_long(c->opts, a + 2, len);

				if (near)
					snprintf(err, errlen, "unknown option '%.*s'; did you mean '--%s'? (see "
						 "'xplane-stat %s --help')", (int)(len + 2), a, near->lng, c->name);
				else
					snprintf(err, errlen, "unknown option '%.*s' (see 'xplane-stat %s --help')",
						 (int)(len + 2), a, c->name);
				goto out;
			}
			if (eq)
				val = eq + 1;
		} else {
			o = find_short(c->opts, a[1]);
			if (!o) {
				snprintf(err, errlen, "unknown option '-%c' (see 'xplane-stat %s --help')",
					 a[1], c->name);
				goto out;
			}
			if (a[2])
				val = a + 2;
		}
		if (o->kind == OPT_FLAG) {
			if (val) {
				snprintf(err, errlen, "--%s takes no value", o->lng);
				goto out;
			}
			*(int *)o->ptr = 1;
			continue;
		}
		if (!val && argv == before.argv && i == before.last) {
			snprintf(err, errlen, "'%s' takes a value (%s), but the word after it named the command "
				 "'%s': write the command first ('xplane-stat %s %s %s ...') or join the value "
				 "('--%s=%s')", a, o->arg, c->name, c->name, a, o->arg, o->lng, o->arg);
			goto out;
		}
		if (!val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "--%s needs a value (%s)", o->lng, o->arg);
				goto out;
			}
			val = argv[++i];
		}
		if (o->kind == OPT_ENUM)
			enums[o - c->opts] = val;
		else if (set_value(o, val, err, errlen))
			goto out;
	}
	if (*npos < c->min_pos || (c->max_pos && *npos > c->max_pos)) {
		snprintf(err, errlen, "%s (see 'xplane-stat %s --help')", c->pos_msg ? c->pos_msg : "no input given",
			 c->name);
		goto out;
	}
	for (o = c->opts; o->kind != OPT_END; o++)
		if (enums[o - c->opts] && set_value(o, enums[o - c->opts], err, errlen))
			goto out;
	ret = 0;
out:
	free(enums);
	return ret;
}

void opt_help(const struct opt_cmd *c, FILE *f)
{
	const struct opt *o;
	size_t w = 0;

	fprintf(f, "usage: xplane-stat %s %s\n\n%s\n\noptions:\n", c->name, c->usage, c->about);
	for (o = c->opts; o->kind != OPT_END; o++) {
		size_t len = strlen(o->lng) + 6 + (o->arg && o->kind != OPT_FLAG ? strlen(o->arg) + 1 : 0);

		if (len > w)
			w = len;
	}
	for (o = c->opts; o->kind != OPT_END; o++) {
		char head[128];

		snprintf(head, sizeof(head), "%c%c%s--%s%s%s", o->shrt ? '-' : ' ', o->shrt ? o->shrt : ' ',
			 o->shrt ? ", " : "  ", o->lng, o->kind != OPT_FLAG ? " " : "",
			 o->kind != OPT_FLAG ? o->arg : "");
		fprintf(f, "  %-*s  %s\n", (int)w, head, o->help);
	}
	fprintf(f, "  %-*s  %s\n", (int)w, "-h, --help", "show this help");
}
