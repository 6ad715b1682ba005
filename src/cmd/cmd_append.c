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
 *
 * The journal is named after the file with its symbolic links resolved, so
 * every name of it finds the same journal; it notes the file (device,
 * inode), the length to come back to and the length the append would reach,
 * then holds the bytes the append writes: a roll-back cuts only bytes that
 * are a prefix of those (never lines another appender wrote, through a hard
 * link or a copy of the tool without this journal).
 * The file is locked and then checked to be the one at its path still (not
 * replaced while we waited); only our own journal is ever removed; the
 * journal's folder is synced after it is made and removed. Where the file
 * system has no locks, making the journal exclusively (O_EXCL) is the lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
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

/* Syncs the folder holding path, so that a journal made or removed there stays so. */
static int sync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd, r = -1;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		r = fsync(fd);
		if (r && (errno == EINVAL || errno == EROFS))
			r = 0;	/* a folder that cannot be synced (some file systems): nothing to make durable */
		close(fd);
	}
	free(copy);
	return r;
}

struct journal {
	uintmax_t dev, ino, len, end;
	int has_end;		/* journals of the first version noted no end, */
	size_t head;		/* nor the bytes after their first line: where those start */
	uintmax_t size;		/* the journal's length */
};

/* Reads path's journal: 1 read, 0 none, -1 unreadable (errno set), -2 not a journal. */
static int journal_read(const char *path, struct journal *j)
{
	char buf[256], *nl;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), k;
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	n = read_at(fd, buf, sizeof(buf) - 1, 0);
	memset(j, 0, sizeof(*j));
	if (n >= 0 && fstat(fd, &st) == 0)
		j->size = (uintmax_t)st.st_size;
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	k = sscanf(buf, JOURNAL_MAGIC " %ju %ju %ju %ju", &j->dev, &j->ino, &j->len, &j->end);
	if (k < 3)
		return -2;
	j->has_end = k == 4;
	nl = memchr(buf, '\n', (size_t)n);
	j->head = nl ? (size_t)(nl - buf) + 1 : (size_t)n;
	return 1;
}

/* Removes the journal if it is still ours (another appender's, after a replaced file, stays). */
static int journal_remove(struct cmd_append *a)
{
	struct journal j;
	int r = journal_read(a->journal, &j);

	if (r == 0)
		return 0;
	if (r == 1 && (j.dev != a->dev || j.ino != a->ino || j.len != (uintmax_t)a->len))
		return 0;
	if (unlink(a->journal) && errno != ENOENT)
		return -1;
	return sync_dir_of(a->journal);
}

/* Back to the noted length, synced; the journal then goes. 0, or -1 (errno set). */
static int roll_back(struct cmd_append *a)
{
	if (ftruncate(a->fd, a->len) || fsync(a->fd))
		return -1;
	return a->journal ? journal_remove(a) : 0;
}

/*
 * Whether the file's bytes from j->len to size are the start of what the
 * journal says the append wrote (the bytes after its first line; a journal
 * of the first version holds none, and is trusted as it was). 1 yes, 0 no,
 * -1 unreadable (errno set).
 */
static int cut_is_ours(struct cmd_append *a, const struct journal *j, uintmax_t size)
{
	char fb[1 << 14], jb[1 << 14];
	uintmax_t off = 0, want = size - j->len;
	int fd, ret = 1;

	if (j->size <= j->head)
		return 1;	/* the first version's journal: no bytes to compare */
	if (j->size - j->head < want)
		return 0;
	if ((fd = open(a->journal, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while (ret == 1 && off < want) {
		size_t k = want - off < sizeof(fb) ? (size_t)(want - off) : sizeof(fb);

		if (read_at(a->fd, fb, k, (off_t)(j->len + off)) != (ssize_t)k ||
		    read_at(fd, jb, k, (off_t)(j->head + off)) != (ssize_t)k)
			ret = -1;
		else if (memcmp(fb, jb, k))
			ret = 0;
		off += k;
	}
	close(fd);
	return ret;
}

/*
 * A journal left by an appender that was killed (we hold the lock, so it is
 * not running): the file goes back to the length it noted. st: the file as
 * it is now, under the lock.
 */
static int recover(struct cmd_append *a, const struct stat *st)
{
	struct journal j;
	int r = journal_read(a->journal, &j);

	if (r == 0)
		return CMD_GO_ON;
	if (r == -1) {
		cmd_error("cannot read '%s': %s: nothing appended", a->journal, strerror(errno));
		return EXIT_ERROR;
	}
	if (r == -2) {
		cmd_error("'%s' is not a journal of xplane-stat: nothing appended to '%s' (remove it if it is yours)",
			  a->journal, a->path);
		return EXIT_INPUT;
	}
	if (j.dev != (uintmax_t)st->st_dev || j.ino != (uintmax_t)st->st_ino) {
		/* it speaks of a file no longer at this path (replaced since): nothing here to roll back */
		if (unlink(a->journal) || sync_dir_of(a->journal)) {
			cmd_error("cannot remove '%s': %s: nothing appended", a->journal, strerror(errno));
			return EXIT_ERROR;
		}
		cmd_error("warning: '%s': a journal of a file since replaced: removed", a->journal);
		return CMD_GO_ON;
	}
	if (j.len > (uintmax_t)st->st_size) {
		cmd_error("'%s' is shorter (%jd bytes) than its journal '%s' noted (%ju): nothing appended; "
			  "check the file, then remove the journal", a->path, (intmax_t)st->st_size, a->journal, j.len);
		return EXIT_INPUT;
	}
	if (j.has_end && (uintmax_t)st->st_size <= j.end && (r = cut_is_ours(a, &j, (uintmax_t)st->st_size)) <= 0) {
		if (r < 0) {
			cmd_error("cannot read '%s' or '%s': %s: nothing appended", a->path, a->journal, strerror(errno));
			return EXIT_ERROR;
		}
		cmd_error("'%s': the bytes after byte %ju are not those its journal '%s' says the interrupted append "
			  "wrote (another append through another name of the file?): nothing appended, nothing "
			  "rolled back: check the file from byte %ju, then remove the journal", a->path, j.len,
			  a->journal, j.len);
		return EXIT_INPUT;
	}
	if (j.has_end && (uintmax_t)st->st_size > j.end) {
		cmd_error("'%s' is longer (%jd bytes) than the append its journal '%s' notes could have made it "
			  "(%ju): lines were added after that append was cut (through another name of the file?); "
			  "nothing appended, nothing rolled back: check the file from byte %ju, then remove the journal",
			  a->path, (intmax_t)st->st_size, a->journal, j.end, j.len);
		return EXIT_INPUT;
	}
	a->len = (off_t)j.len;
	a->dev = j.dev;
	a->ino = j.ino;
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

/* The journal's name: beside the file with its symbolic links resolved, so that every name finds it. */
static char *journal_name(const char *path)
{
	char *real = realpath(path, NULL), *j = NULL;

	if (asprintf(&j, "%s-journal", real ? real : path) < 0)
		j = NULL;
	free(real);
	return j;
}

/*
 * Opens path for appending (made if missing) and locks it, again if the file
 * at path was replaced while we waited for the lock. *st: the file, locked.
 */
static int open_locked(struct cmd_append *a, struct stat *st)
{
	struct stat now;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		a->fd = open(a->path, O_RDWR | O_CLOEXEC);
		if (a->fd < 0 && errno == ENOENT) {
			struct stat l;

			if (lstat(a->path, &l) == 0 && S_ISLNK(l.st_mode)) {
				/* a link to a file yet to be made: made through the link, the link kept */
				a->fd = open(a->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
			} else {
				a->fd = open(a->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
				if (a->fd < 0 && errno == EEXIST)
					continue;	/* made by another appender just now */
				a->created = a->fd >= 0;
			}
		}
		if (a->fd < 0) {
			cmd_error("cannot open '%s': %s", a->path, strerror(errno));
			return EXIT_ERROR;
		}
		if (fstat(a->fd, st) || !S_ISREG(st->st_mode)) {
			cmd_error("'%s' is not a regular file: nothing appended", a->path);
			return EXIT_INPUT;
		}
		/* under the lock from the checks to the last byte: appenders take turns */
		if (flock(a->fd, LOCK_EX)) {
			if (errno != ENOLCK && errno != EINVAL) {
				cmd_error("cannot lock '%s': %s", a->path, strerror(errno));
				return EXIT_ERROR;
			}
			a->nolock = 1;
		}
		if (fstat(a->fd, st)) {
			cmd_error("cannot read '%s': %s", a->path, strerror(errno));
			return EXIT_ERROR;
		}
		if (stat(a->path, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino)
			return CMD_GO_ON;
		/* replaced (or removed) while we waited: what we hold is no longer the file at path */
		close(a->fd);
		a->fd = -1;
		a->created = 0;
		a->nolock = 0;
	}
	cmd_error("'%s' keeps being replaced while it is opened: nothing appended", a->path);
	return EXIT_ERROR;
}

int cmd_append_open(struct cmd_append *a, const char *path, int repair)
{
	struct stat st;
	int ret;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->path = path;
	if ((ret = open_locked(a, &st)) != CMD_GO_ON)
		goto fail;
	if (!(a->journal = journal_name(path))) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto fail;
	}
	if (a->nolock) {
		/* no locks here: a journal may be a live appender's, never to be rolled back */
		if (access(a->journal, F_OK) == 0) {
			cmd_error("'%s': another append is under way or was interrupted ('%s' exists) and this file "
				  "system has no locks: nothing appended", path, a->journal);
			ret = EXIT_INPUT;
			goto fail;
		}
	} else if ((ret = recover(a, &st)) != CMD_GO_ON) {
		goto fail;
	} else if (fstat(a->fd, &st)) {
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

/*
 * The journal noting the length to come back to and the one the append
 * reaches, then the n bytes it writes (after the newline a record lacked),
 * synced with its folder before the file is touched.
 * Without locks it is made exclusively, and the file must still be as long
 * as when it was checked. 0, or -1 with a message.
 */
static int journal_write(struct cmd_append *a, const void *bytes, size_t n)
{
	char buf[256];
	struct stat st;
	int fd = open(a->journal, O_WRONLY | O_CREAT | O_CLOEXEC | (a->nolock ? O_EXCL : O_TRUNC), 0666);
	int k = snprintf(buf, sizeof(buf), JOURNAL_MAGIC " %ju %ju %jd %ju\n", a->dev, a->ino, (intmax_t)a->len,
			 (uintmax_t)a->len + a->newline + n);
	int e;

	if (fd < 0) {
		if (errno == EEXIST)
			cmd_error("'%s': another append is under way ('%s' exists) and this file system has no "
				  "locks: nothing appended", a->path, a->journal);
		else
			cmd_error("cannot write '%s': %s: nothing appended to '%s'", a->journal, strerror(errno),
				  a->path);
		return -1;
	}
	if (write_all(fd, buf, (size_t)k) || (a->newline && write_all(fd, "\n", 1)) || write_all(fd, bytes, n) ||
	    fsync(fd) || close(fd) || sync_dir_of(a->journal)) {
		e = errno;
		unlink(a->journal);
		cmd_error("cannot write '%s': %s: nothing appended to '%s'", a->journal, strerror(e), a->path);
		return -1;
	}
	if (a->nolock && (fstat(a->fd, &st) || st.st_size != a->len)) {
		unlink(a->journal);
		cmd_error("'%s' changed while it was checked (another appender, and this file system has no "
			  "locks): nothing appended; try again", a->path);
		return -1;
	}
	return 0;
}

int cmd_append_commit(struct cmd_append *a, const void *bytes, size_t n)
{
	struct sigaction ign, old_xfsz;
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
	/* past the file size limit: a write that fails (EFBIG) and is rolled back, not a signal that kills
	 * (blocked, it would be delivered when the mask comes back) */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGXFSZ, &ign, &old_xfsz);
	if (journal_write(a, bytes, n)) {
		ret = EXIT_ERROR;
		goto out;
	}
	if (lseek(a->fd, a->len, SEEK_SET) < 0 || (a->newline && write_all(a->fd, "\n", 1)) ||
	    write_all(a->fd, bytes, n) || fsync(a->fd)) {
		e = errno;
		ret = EXIT_ERROR;
		if (roll_back(a))
			cmd_error("cannot write '%s': %s, and cannot cut it back: %s: its journal '%s' stays, and the "
				  "next append rolls the cut lines back", a->path, strerror(e), strerror(errno),
				  a->journal);
		else
			cmd_error("cannot write '%s': %s: nothing appended", a->path, strerror(e));
		goto out;
	}
	if (journal_remove(a)) {
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
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void cmd_append_close(struct cmd_append *a)
{
	struct stat st;

	/*
	 * A file this append made and left empty (refused, or failed) goes
	 * again, under the lock (an appender waiting for it finds it gone and
	 * makes its own); without locks another appender may be writing to it.
	 */
	if (a->fd >= 0 && a->created && !a->nolock && !fstat(a->fd, &st) && !st.st_size)
		unlink(a->path);
	if (a->fd >= 0)
		close(a->fd);	/* the lock goes with it */
	free(a->journal);
	memset(a, 0, sizeof(*a));
	a->fd = -1;
}
