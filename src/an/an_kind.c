/* SPDX-License-Identifier: Apache-2.0 */
#include "an_kind.h"

#include <ctype.h>
#include <string.h>

static const char *const kind_names[AN_KIND_COUNT] = {
	[AN_KIND_KERNEL] = "kernel", [AN_KIND_H2D] = "H2D", [AN_KIND_D2H] = "D2H",
	[AN_KIND_D2D] = "D2D",       [AN_KIND_P2P] = "P2P", [AN_KIND_COPY] = "copy",
	[AN_KIND_MEMSET] = "memset",
};

const char *an_kind_name(enum an_kind k)
{
	return k < AN_KIND_COUNT ? kind_names[k] : "?";
}

/* The kind a name like "MemcpyH2D" or "Memset" says, or -1. */
static int kind_of_word(const char *s, size_t n)
{
	static const struct {
		const char *w;
		enum an_kind k;
	} words[] = {
		{ "MemcpyH2D", AN_KIND_H2D }, { "MemcpyD2H", AN_KIND_D2H }, { "MemcpyD2D", AN_KIND_D2D },
		{ "MemcpyP2P", AN_KIND_P2P }, { "MemcpyOther", AN_KIND_COPY }, { "Memcpy", AN_KIND_COPY },
		{ "Memset", AN_KIND_MEMSET },
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i].w) == n && !memcmp(s, words[i].w, n))
			return (int)words[i].k;
	return -1;
}

enum an_kind an_event_kind(const struct xp_plane *p, const struct xp_event *e)
{
	const char *name = xp_event_name(p, e), *line = p->lines[e->line].name, *open;
	int k = kind_of_word(name, strlen(name));

	/* "Stream #13(MemcpyH2D)": the word in parentheses */
	if (k < 0 && (open = strrchr(line, '(')) && line[strlen(line) - 1] == ')')
		k = kind_of_word(open + 1, strlen(open + 1) - 1);
	if (k >= 0)
		return (enum an_kind)k;
	if (xp_event_stat(p, e, XP_K_MEMSET_DETAILS))
		return AN_KIND_MEMSET;
	if (xp_event_stat(p, e, XP_K_MEMCPY_DETAILS))
		return AN_KIND_COPY;
	return AN_KIND_KERNEL;
}

/* The decimal number after key (e.g. "size:") in the stat's text; -1 if none. */
static int number_after(const struct xp_plane *p, const struct xp_stat *s, const char *key,
			uint64_t *out)
{
	size_t len, klen = strlen(key), i;
	const char *v = s ? xp_stat_str(p, s, &len) : NULL;

	for (i = 0; v && i + klen <= len; i++) {
		if ((i && v[i - 1] != ' ' && v[i - 1] != ',') || memcmp(v + i, key, klen))
			continue;
		i += klen;
		if (i >= len || !isdigit((unsigned char)v[i]))
			return -1;
		for (*out = 0; i < len && isdigit((unsigned char)v[i]); i++) {
			if (*out > (UINT64_MAX - (uint64_t)(v[i] - '0')) / 10)
				return -1;
			*out = *out * 10 + (uint64_t)(v[i] - '0');
		}
		return 0;
	}
	return -1;
}

int an_event_bytes(const struct xp_plane *p, const struct xp_event *e, uint64_t *bytes)
{
	if (!number_after(p, xp_event_stat(p, e, XP_K_MEMCPY_DETAILS), "size:", bytes))
		return 0;
	return number_after(p, xp_event_stat(p, e, XP_K_MEMSET_DETAILS), "num_bytes:", bytes);
}

/*
 * Whether s contains word as a word of its own (after s's start or a
 * character that is no letter or digit, before s's end or a character that
 * is no letter), comparing case-insensitively, a
 * '-' in word matching '-', '_' or nothing.
 */
static int has_word(const char *s, const char *word)
{
	size_t i, j, k;

	for (i = 0; s[i]; i++) {
		if (i && isalnum((unsigned char)s[i - 1]))
			continue;
		for (j = i, k = 0; word[k]; k++) {
			if (word[k] == '-') {
				if (s[j] == '-' || s[j] == '_')
					j++;
				continue;
			}
			if (tolower((unsigned char)s[j]) != word[k])
				break;
			j++;
		}
		if (!word[k] && !isalpha((unsigned char)s[j]))
			return 1;
	}
	return 0;
}

/* Whether s contains sub (lower case) in any case. */
static int has_sub(const char *s, const char *sub)
{
	size_t i, k;

	for (i = 0; s[i]; i++) {
		for (k = 0; sub[k] && tolower((unsigned char)s[i + k]) == sub[k]; k++)
			;
		if (!sub[k])
			return 1;
	}
	return 0;
}

/*
 * Whether s, in any case, holds none of the pieces every collective name
 * has ("ccl" of nccl and rccl; "all", "reduce", "permute", "send", "recv"
 * of the words): most names do not, and are told so in one pass and a few
 * searches rather than the nine case-blind scans below. 0 when unsure.
 */
static int surely_not_collective(const char *s)
{
	static const char *const pieces[] = {"ccl", "all", "reduce", "permute", "send", "recv"};
	char low[256];
	size_t n, i;

	for (n = 0; s[n]; n++) {
		if (n + 1 >= sizeof(low))
			return 0;
		low[n] = (char)tolower((unsigned char)s[n]);
	}
	low[n] = '\0';
	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
		if (strstr(low, pieces[i]))
			return 0;
	return 1;
}

int an_is_collective(const char *name)
{
	static const char *const words[] = {
		"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
		"send", "recv",
	};
	size_t i;

	if (surely_not_collective(name))
		return 0;

	if (has_sub(name, "nccl") || has_sub(name, "rccl"))
		return 1;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has_word(name, words[i]))
			return 1;
	return 0;
}
