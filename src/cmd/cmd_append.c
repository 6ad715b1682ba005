/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Appending to the files this tool owns (--history FILE, summarize --append),
 * as sqlite writes its database: the file is opened and locked, checked to be
 * empty or this tool's before a byte is touched, and its length noted in a
 * journal beside it ("FILE-journal") before the new lines are written and
 * synced. Any failure truncates back to the noted length; a process killed
 * in between leaves the journal, and the next appender, once it holds the
 * lock, rolls the cut append back. A cut last line without a journal (from
 * another program, or a version before this one) is removed only on
 * --repair.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an_summary.h"
#include "cmd.h"

#define JOURNAL_MAGIC "xplane-stat append journal"

/* Reads n bytes at off (fewer at the end of the file); -1 on error. */
static ssize_t read_at(int fd, void *buf, size_t n, off_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = pread(fd, (char *)buf + got, n - got, off + (off_t)got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (!w) {
			errno = ENOSPC;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Back to the noted length, synced; the journal then goes. 0, or -1 (errno set). */
static int roll_back(struct cmd_append *a)
{
	if (ftruncate(a->fd, a->len) || fsync(a->fd))
		return -1;
	if (a->journal && unlink(a->journal) && errno != ENOENT)
		return -1;
	return 0;
}

/*
 * A journal left by an appender that was killed (we hold the lock, so it is
 * not running): the file goes back to the length it noted.
 */
static int recover(struct cmd_append *a, const struct stat *st)
{
	char buf[256];
	uintmax_t dev, ino, len;
	int fd = open(a->journal, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		if (errno == ENOENT)
			return CMD_GO_ON;
		cmd_error("cannot read '%s': %s: nothing appended", a->journal, strerror(errno));
		return EXIT_ERROR;
	}
	n = read_at(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, JOURNAL_MAGIC " %ju %ju %ju", &dev, &ino, &len) != 3) {
		cmd_error("'%s' is not a journal of xplane-stat: nothing appended to '%s' (remove it if it is yours)",
			  a->journal, a->path);
		return EXIT_INPUT;
	}
	if (dev != (uintmax_t)st->st_dev || ino != (uintmax_t)st->st_ino) {
		/* the file was replaced since: the journal speaks of a file that is gone */
		if (unlink(a->journal)) {
			cmd_error("cannot remove '%s': %s: nothing appended", a->journal, strerror(errno));
			return EXIT_ERROR;
		}
		cmd_error("warning: '%s': a journal of a file since replaced: removed", a->journal);
		return CMD_GO_ON;
	}
	if (len > (uintmax_t)st->st_size) {
		cmd_error("'%s' is shorter (%jd bytes) than its journal '%s' noted (%ju): nothing appended; "
			  "check the file, then remove the journal", a->path, (intmax_t)st->st_size, a->journal, len);
		return EXIT_INPUT;
	}
	a->len = (off_t)len;
	if (roll_back(a)) {
		cmd_error("cannot roll back '%s': %s: nothing appended", a->path, strerror(errno));
		return EXIT_ERROR;
	}
	cmd_error("warning: '%s': an append that was interrupted (%jd bytes) rolled back", a->path,
		  (intmax_t)(st->st_size - a->len));
	return CMD_GO_ON;
}

/*
 * The file must be empty or this tool's, and end with a whole line: a last
 * line without its newline is given one when it is a whole record, removed on
 * --repair, else the append is refused.
 */
static int check_file(struct cmd_append *a, off_t size, int repair)
{
	char head[sizeof(AN_SUMMARY_MAGIC)], tail[1 << 12];
	off_t end = size, cut;
	ssize_t n;

	if (!size)
		return CMD_GO_ON;
	n = read_at(a->fd, head, sizeof(head) - 1, 0);
	if (n < 0)
		goto read_error;
	if (!an_summary_sniff(head, (size_t)n)) {
		cmd_error("'%s' is not a summary or history file of xplane-stat: nothing appended, the file untouched",
			  a->path);
		return EXIT_INPUT;
	}
	/* the last newline, looking back a block at a time */
	for (cut = -1; end > 0 && cut < 0;) {
		off_t from = end > (off_t)sizeof(tail) ? end - (off_t)sizeof(tail) : 0;
		ssize_t i;

		if ((n = read_at(a->fd, tail, (size_t)(end - from), from)) < 0)
			goto read_error;
		if (end == size && n && tail[n - 1] == '\n')
			return CMD_GO_ON;
		for (i = n; i > 0 && cut < 0; i--)
			if (tail[i - 1] == '\n')
				cut = from + i;
		end = from;
	}
	if (cut < 0)
		cut = 0;
	{
		/* a record whole but for its newline (cut right there) only wants the newline */
		size_t len = (size_t)(size - cut);
		char *line = malloc(len ? len : 1);
		struct an_run r;
		struct xp_err err = {0};
		int whole = 0;

		if (!line) {
			cmd_error("out of memory");
			return EXIT_ERROR;
		}
		if (read_at(a->fd, line, len, cut) == (ssize_t)len &&
		    !an_summary_parse(line, len, a->path, 0, &r, &err)) {
			an_run_release(&r);
			whole = 1;
		}
		free(line);
		if (whole) {
			a->len = size;
			a->newline = 1;
			return CMD_GO_ON;
		}
	}
	if (!repair) {
		cmd_error("'%s': its last line is cut (%jd bytes after the last newline), left by a write that was "
			  "interrupted: nothing appended; --repair removes that line", a->path, (intmax_t)(size - cut));
		return EXIT_INPUT;
	}
	if (ftruncate(a->fd, cut) || fsync(a->fd)) {
		cmd_error("cannot write '%s': %s: nothing appended", a->path, strerror(errno));
		return EXIT_ERROR;
	}
	cmd_error("warning: '%s': its cut last line (%jd bytes) removed (--repair)", a->path,
		  (intmax_t)(size - cut));
	a->len = cut;
	return CMD_GO_ON;

read_error:
	cmd_error("cannot read '%s': %s: nothing appended", a->path, strerror(errno));
	return EXIT_ERROR;
}

int cmd_append_open(struct cmd_append *a, const char *path, int repair)
{
	struct stat st;
	int ret;

	memset(a, 0, sizeof(*a));
	a->path = path;
	a->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (a->fd < 0) {
		cmd_error("cannot open '%s': %s", path, strerror(errno));
		return EXIT_ERROR;
	}
	if (fstat(a->fd, &st) || !S_ISREG(st.st_mode)) {
		cmd_error("'%s' is not a regular file: nothing appended", path);
		ret = EXIT_INPUT;
		goto fail;
	}
	if (asprintf(&a->journal, "%s-journal", path) < 0) {
		a->journal = NULL;
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto fail;
	}
	/* under the lock from the checks to the last byte: appenders take turns */
	if (flock(a->fd, LOCK_EX)) {
		if (errno != ENOLCK && errno != EINVAL) {
			cmd_error("cannot lock '%s': %s", path, strerror(errno));
			ret = EXIT_ERROR;
			goto fail;
		}
		/* no locks here: a journal may be a live appender's, never to be rolled back */
		if (access(a->journal, F_OK) == 0) {
			cmd_error("'%s': another append is under way or was interrupted ('%s' exists) and this file "
				  "system has no locks: nothing appended", path, a->journal);
			ret = EXIT_INPUT;
			goto fail;
		}
	} else if ((ret = recover(a, &st)) != CMD_GO_ON) {
		goto fail;
	}
	if (fstat(a->fd, &st)) {
		cmd_error("cannot read '%s': %s", path, strerror(errno));
		ret = EXIT_ERROR;
		goto fail;
	}
	a->len = st.st_size;
	a->dev = (uintmax_t)st.st_dev;
	a->ino = (uintmax_t)st.st_ino;
	if ((ret = check_file(a, st.st_size, repair)) != CMD_GO_ON)
		goto fail;
	return CMD_GO_ON;
fail:
	cmd_append_close(a);
	return ret;
}

int cmd_append_read(struct cmd_append *a, struct out_bytes *b)
{
	char buf[1 << 16];
	off_t off = 0;

	while (off < a->len) {
		size_t want = a->len - off < (off_t)sizeof(buf) ? (size_t)(a->len - off) : sizeof(buf);
		ssize_t k = read_at(a->fd, buf, want, off);

		if (k <= 0) {
			cmd_error("cannot read '%s': %s", a->path, k ? strerror(errno) : "it shrank while read");
			return EXIT_ERROR;
		}
		out_bytes_put(b, buf, (size_t)k);
		off += k;
	}
	if (b->failed) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	return CMD_GO_ON;
}

/* The journal noting the length to come back to, synced before the file is touched. */
static int journal_write(struct cmd_append *a)
{
	char buf[256];
	int fd = open(a->journal, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	int n = snprintf(buf, sizeof(buf), JOURNAL_MAGIC " %ju %ju %jd\n", a->dev, a->ino, (intmax_t)a->len);

	if (fd < 0)
		return -1;
	if (write_all(fd, buf, (size_t)n) || fsync(fd)) {
		int e = errno;

		close(fd);
		unlink(a->journal);
		errno = e;
		return -1;
	}
	return close(fd);
}

int cmd_append_commit(struct cmd_append *a, const void *bytes, size_t n)
{
	sigset_t all, old;
	int ret = EXIT_OK, e;

	/* Ctrl-C, a hangup or a kill's TERM wait until the file is whole again */
	sigemptyset(&all);
	sigaddset(&all, SIGINT);
	sigaddset(&all, SIGTERM);
	sigaddset(&all, SIGHUP);
	sigaddset(&all, SIGQUIT);
	sigaddset(&all, SIGPIPE);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (journal_write(a)) {
		cmd_error("cannot write '%s': %s: nothing appended to '%s'", a->journal, strerror(errno), a->path);
		ret = EXIT_ERROR;
		goto out;
	}
	if (lseek(a->fd, a->len, SEEK_SET) < 0 || (a->newline && write_all(a->fd, "\n", 1)) ||
	    write_all(a->fd, bytes, n) || fsync(a->fd)) {
		e = errno;
		ret = EXIT_ERROR;
		if (roll_back(a))
			cmd_error("cannot write '%s': %s; nor roll it back: %s (its journal '%s' says how)", a->path,
				  strerror(e), strerror(errno), a->journal);
		else
			cmd_error("cannot write '%s': %s: nothing appended", a->path, strerror(e));
		goto out;
	}
	if (unlink(a->journal)) {
		/* the lines are in; the next appender would take them back: better now, and say so */
		e = errno;
		ret = EXIT_ERROR;
		if (roll_back(a))
			cmd_error("cannot remove '%s': %s (the next append rolls this one back)", a->journal,
				  strerror(e));
		else
			cmd_error("cannot remove '%s': %s: nothing appended", a->journal, strerror(e));
	}
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void cmd_append_close(struct cmd_append *a)
{
	if (a->fd >= 0)
		close(a->fd);	/* the lock goes with it */
	free(a->journal);
	memset(a, 0, sizeof(*a));
	a->fd = -1;
}
