/*
 * faultfs.c -- an LD_PRELOAD shim that injects disk faults into the files under one directory, for the
 * fault tests (tests/fault/disk_full.sh): a disk that fills up after N bytes, a disk whose reads fail.
 *
 * Environment (read once, at load):
 *   FAULTFS_DIR=DIR          only files under DIR (as the kernel names them: /proc/self/fd) are touched;
 *                            without it the shim passes everything through.
 *   FAULTFS_WRITE_LIMIT=N    after N bytes written in total to files under DIR, writes fail with ENOSPC
 *                            (the write that crosses N writes the part that fits, as a full disk does);
 *                            from then on fallocate/posix_fallocate and a growing ftruncate fail too.
 *   FAULTFS_READ_LIMIT=N     the reads of files under DIR after the first N fail with EIO (N = 0: every
 *                            read). WiredTiger's memory maps of those files are refused (ENOTSUP, which it
 *                            answers by reading through pread), so every read of its passes here; other
 *                            maps (the cold check's mincore) are left alone.
 *   FAULTFS_READ_MATCH=TEXT  only files whose path contains TEXT count and fail reads (e.g. "collection-").
 *   FAULTFS_LOG=FILE         the first fault of each kind is appended to FILE as one line ("faultfs: ENOSPC
 *                            write /dir/file after N bytes", "faultfs: EIO pread /dir/file after N reads"),
 *                            so a test can tell that the fault was really met.
 *
 * Which calls: WiredTiger 3.2 uses open, close, pread, pwrite, fallocate, posix_fallocate, ftruncate and
 * mmap (`nm -D libwiredtiger.so`); the rest (read, write, the vectored and 64-bit forms, openat, creat)
 * are here so other code writing under DIR meets the same disk. Symbols are resolved with
 * dlsym(RTLD_NEXT). Calls glibc makes internally (stdio's own writes) do not pass here.
 */
#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define FAULTFS_MAX_FDS 65536

static char ff_dir[PATH_MAX]; /* FAULTFS_DIR, resolved; empty: pass through */
static size_t ff_dir_len;
static int64_t ff_write_limit = -1; /* -1: no limit */
static int64_t ff_read_limit = -1;
static char ff_read_match[256];
static char ff_log[PATH_MAX];

static int64_t ff_written;    /* atomic: bytes written under the directory */
static int64_t ff_reads;      /* atomic: counted reads */
static int ff_logged_nospace; /* atomic: the first ENOSPC was logged */
static int ff_logged_eio;

static pthread_mutex_t ff_mu = PTHREAD_MUTEX_INITIALIZER;
static char *ff_paths[FAULTFS_MAX_FDS]; /* fd -> path under the directory, NULL otherwise (under ff_mu) */

/* real -- the next definition of `name` (libc's); aborts when there is none. */
static void *
real (const char *name)
{
   void *f = dlsym (RTLD_NEXT, name);

   if (!f) {
      fprintf (stderr, "faultfs: no symbol %s\n", name);
      abort ();
   }
   return f;
}

/* REAL -- declare real_<name>, libc's <name> with the same prototype, resolved at first use. */
#define REAL(name)                                                                                           \
   static __typeof__ (name) *real_##name;                                                                    \
   if (!real_##name) {                                                                                       \
      real_##name = (__typeof__ (name) *)real (#name);                                                       \
   }

/* env_int -- an integer environment variable, or dflt when unset or empty. */
static int64_t
env_int (const char *name, int64_t dflt)
{
   const char *v = getenv (name);

   return v && *v ? strtoll (v, NULL, 10) : dflt;
}

/* ff_init -- read the environment once, at load. */
__attribute__ ((constructor)) static void
ff_init (void)
{
   const char *dir = getenv ("FAULTFS_DIR");
   const char *match = getenv ("FAULTFS_READ_MATCH");
   const char *log = getenv ("FAULTFS_LOG");

   if (dir && *dir && realpath (dir, ff_dir)) {
      ff_dir_len = strlen (ff_dir);
   } else if (dir && *dir) {
      /* not there yet: the tool creates it; compare with the name as given */
      snprintf (ff_dir, sizeof ff_dir, "%s", dir);
      ff_dir_len = strlen (ff_dir);
   }
   while (ff_dir_len > 1 && ff_dir[ff_dir_len - 1] == '/') {
      ff_dir[--ff_dir_len] = '\0';
   }
   ff_write_limit = env_int ("FAULTFS_WRITE_LIMIT", -1);
   ff_read_limit = env_int ("FAULTFS_READ_LIMIT", -1);
   snprintf (ff_read_match, sizeof ff_read_match, "%s", match ? match : "");
   snprintf (ff_log, sizeof ff_log, "%s", log ? log : "");
}

/* ff_note -- append one line to FAULTFS_LOG (once per kind: *once guards it). */
static void
ff_note (int *once, const char *fmt, ...)
{
   char line[PATH_MAX + 128];
   va_list ap;
   int n, fd;

   if (!ff_log[0] || __atomic_exchange_n (once, 1, __ATOMIC_ACQ_REL)) {
      return;
   }
   va_start (ap, fmt);
   n = vsnprintf (line, sizeof line, fmt, ap);
   va_end (ap);
   if (n < 0) {
      return;
   }
   if ((size_t)n >= sizeof line) {
      n = (int)sizeof line - 1;
   }
   REAL (open);
   REAL (write);
   REAL (close);
   fd = real_open (ff_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
   if (fd >= 0) {
      (void)!real_write (fd, line, (size_t)n);
      real_close (fd);
   }
}

/* ff_track -- after a successful open: remember fd when its file is under the directory. */
static void
ff_track (int fd)
{
   char link[64], path[PATH_MAX];
   ssize_t n;

   if (fd < 0 || fd >= FAULTFS_MAX_FDS || !ff_dir_len) {
      return;
   }
   snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
   n = readlink (link, path, sizeof path - 1);
   if (n <= 0) {
      return;
   }
   path[n] = '\0';
   if (strncmp (path, ff_dir, ff_dir_len) != 0 || (path[ff_dir_len] != '/' && path[ff_dir_len] != '\0')) {
      return;
   }
   pthread_mutex_lock (&ff_mu);
   free (ff_paths[fd]);
   ff_paths[fd] = strdup (path);
   pthread_mutex_unlock (&ff_mu);
}

/* ff_untrack -- before close: forget fd. */
static void
ff_untrack (int fd)
{
   if (fd < 0 || fd >= FAULTFS_MAX_FDS) {
      return;
   }
   pthread_mutex_lock (&ff_mu);
   free (ff_paths[fd]);
   ff_paths[fd] = NULL;
   pthread_mutex_unlock (&ff_mu);
}

/* ff_path -- the path of fd into buf when it is under the directory; false otherwise. */
static bool
ff_path (int fd, char *buf, size_t len)
{
   bool under = false;

   if (fd < 0 || fd >= FAULTFS_MAX_FDS || !ff_dir_len) {
      return false;
   }
   pthread_mutex_lock (&ff_mu);
   if (ff_paths[fd]) {
      snprintf (buf, len, "%s", ff_paths[fd]);
      under = true;
   }
   pthread_mutex_unlock (&ff_mu);
   return under;
}

/* ff_write_allow -- how many of `count` bytes a write to fd may write: count when fd is not under the
 * directory or the limit is not reached, the part that fits when it is crossed, -1 (errno ENOSPC) when
 * the disk is full. */
static ssize_t
ff_write_allow (int fd, size_t count, const char *call)
{
   char path[PATH_MAX];
   int64_t before;

   if (ff_write_limit < 0 || !ff_path (fd, path, sizeof path)) {
      return (ssize_t)count;
   }
   before = __atomic_fetch_add (&ff_written, (int64_t)count, __ATOMIC_ACQ_REL);
   if (before + (int64_t)count <= ff_write_limit) {
      return (ssize_t)count;
   }
   if (before < ff_write_limit) {
      /* the crossing write: the part that fits; the rest is not counted as written */
      __atomic_fetch_sub (&ff_written, before + (int64_t)count - ff_write_limit, __ATOMIC_ACQ_REL);
      return (ssize_t)(ff_write_limit - before);
   }
   __atomic_fetch_sub (&ff_written, (int64_t)count, __ATOMIC_ACQ_REL);
   ff_note (&ff_logged_nospace, "faultfs: ENOSPC %s %s after %lld bytes\n", call, path,
            (long long)ff_write_limit);
   errno = ENOSPC;
   return -1;
}

/* ff_full -- true (errno ENOSPC) when fd is under the directory and the write limit is reached: space
 * can no longer be allocated there. */
static bool
ff_full (int fd, const char *call)
{
   char path[PATH_MAX];

   if (ff_write_limit < 0 || !ff_path (fd, path, sizeof path) ||
       __atomic_load_n (&ff_written, __ATOMIC_ACQUIRE) < ff_write_limit) {
      return false;
   }
   ff_note (&ff_logged_nospace, "faultfs: ENOSPC %s %s after %lld bytes\n", call, path,
            (long long)ff_write_limit);
   errno = ENOSPC;
   return true;
}

/* ff_read_armed -- read faults apply to fd (under the directory and matching FAULTFS_READ_MATCH). */
static bool
ff_read_armed (int fd, char *path, size_t len)
{
   return ff_read_limit >= 0 && ff_path (fd, path, len) &&
          (!ff_read_match[0] || strstr (path, ff_read_match));
}

/* ff_read_fails -- count one read of fd; true (errno EIO) when it is past the limit. */
static bool
ff_read_fails (int fd, const char *call)
{
   char path[PATH_MAX];
   int64_t n;

   if (!ff_read_armed (fd, path, sizeof path)) {
      return false;
   }
   n = __atomic_add_fetch (&ff_reads, 1, __ATOMIC_ACQ_REL);
   if (n <= ff_read_limit) {
      return false;
   }
   ff_note (&ff_logged_eio, "faultfs: EIO %s %s after %lld reads\n", call, path, (long long)ff_read_limit);
   errno = EIO;
   return true;
}

/* iov_total -- the bytes an iovec array carries. */
static size_t
iov_total (const struct iovec *iov, int n)
{
   size_t total = 0;
   int i;

   for (i = 0; i < n; i++) {
      total += iov[i].iov_len;
   }
   return total;
}

/* ---- opening and closing ------------------------------------------------------------------------ */

/* open_mode -- the mode argument of an open that creates (O_CREAT or O_TMPFILE), else 0. */
#define OPEN_MODE(flags, last)                                                                               \
   mode_t mode = 0;                                                                                          \
   if ((flags) & (O_CREAT | O_TMPFILE)) {                                                                    \
      va_list ap;                                                                                            \
      va_start (ap, last);                                                                                   \
      mode = (mode_t)va_arg (ap, int);                                                                       \
      va_end (ap);                                                                                           \
   }

/* open -- libc's, then track the fd. */
int
open (const char *file, int flags, ...)
{
   OPEN_MODE (flags, flags);
   REAL (open);
   int fd = real_open (file, flags, mode);
   ff_track (fd);
   return fd;
}

/* open64 -- libc's, then track the fd. */
int
open64 (const char *file, int flags, ...)
{
   OPEN_MODE (flags, flags);
   REAL (open64);
   int fd = real_open64 (file, flags, mode);
   ff_track (fd);
   return fd;
}

/* openat -- libc's, then track the fd. */
int
openat (int dirfd, const char *file, int flags, ...)
{
   OPEN_MODE (flags, flags);
   REAL (openat);
   int fd = real_openat (dirfd, file, flags, mode);
   ff_track (fd);
   return fd;
}

/* openat64 -- libc's, then track the fd. */
int
openat64 (int dirfd, const char *file, int flags, ...)
{
   OPEN_MODE (flags, flags);
   REAL (openat64);
   int fd = real_openat64 (dirfd, file, flags, mode);
   ff_track (fd);
   return fd;
}

/* creat -- libc's, then track the fd. */
int
creat (const char *file, mode_t mode)
{
   REAL (creat);
   int fd = real_creat (file, mode);
   ff_track (fd);
   return fd;
}

/* creat64 -- libc's, then track the fd. */
int
creat64 (const char *file, mode_t mode)
{
   REAL (creat64);
   int fd = real_creat64 (file, mode);
   ff_track (fd);
   return fd;
}

/* close -- forget the fd, then libc's. */
int
close (int fd)
{
   REAL (close);
   ff_untrack (fd);
   return real_close (fd);
}

/* ---- writes ------------------------------------------------------------------------------------- */

/* write -- ENOSPC past the limit. */
ssize_t
write (int fd, const void *buf, size_t count)
{
   REAL (write);
   ssize_t allow = ff_write_allow (fd, count, "write");
   return allow < 0 ? -1 : real_write (fd, buf, (size_t)allow);
}

/* pwrite -- ENOSPC past the limit. */
ssize_t
pwrite (int fd, const void *buf, size_t count, off_t offset)
{
   REAL (pwrite);
   ssize_t allow = ff_write_allow (fd, count, "pwrite");
   return allow < 0 ? -1 : real_pwrite (fd, buf, (size_t)allow, offset);
}

/* pwrite64 -- ENOSPC past the limit. */
ssize_t
pwrite64 (int fd, const void *buf, size_t count, off64_t offset)
{
   REAL (pwrite64);
   ssize_t allow = ff_write_allow (fd, count, "pwrite64");
   return allow < 0 ? -1 : real_pwrite64 (fd, buf, (size_t)allow, offset);
}

/* writev -- all or nothing: ENOSPC when the whole vector does not fit. */
ssize_t
writev (int fd, const struct iovec *iov, int n)
{
   REAL (writev);
   size_t total = iov_total (iov, n);
   ssize_t allow = ff_write_allow (fd, total, "writev");
   if (allow >= 0 && (size_t)allow < total) {
      errno = ENOSPC;
      return -1;
   }
   return allow < 0 ? -1 : real_writev (fd, iov, n);
}

/* pwritev -- all or nothing, as writev. */
ssize_t
pwritev (int fd, const struct iovec *iov, int n, off_t offset)
{
   REAL (pwritev);
   size_t total = iov_total (iov, n);
   ssize_t allow = ff_write_allow (fd, total, "pwritev");
   if (allow >= 0 && (size_t)allow < total) {
      errno = ENOSPC;
      return -1;
   }
   return allow < 0 ? -1 : real_pwritev (fd, iov, n, offset);
}

/* pwritev64 -- all or nothing, as writev. */
ssize_t
pwritev64 (int fd, const struct iovec *iov, int n, off64_t offset)
{
   REAL (pwritev64);
   size_t total = iov_total (iov, n);
   ssize_t allow = ff_write_allow (fd, total, "pwritev64");
   if (allow >= 0 && (size_t)allow < total) {
      errno = ENOSPC;
      return -1;
   }
   return allow < 0 ? -1 : real_pwritev64 (fd, iov, n, offset);
}

/* fallocate -- ENOSPC once the disk is full (the bytes it reserves are not counted as written). */
int
fallocate (int fd, int mode, off_t offset, off_t len)
{
   REAL (fallocate);
   return ff_full (fd, "fallocate") ? -1 : real_fallocate (fd, mode, offset, len);
}

/* fallocate64 -- as fallocate. */
int
fallocate64 (int fd, int mode, off64_t offset, off64_t len)
{
   REAL (fallocate64);
   return ff_full (fd, "fallocate64") ? -1 : real_fallocate64 (fd, mode, offset, len);
}

/* posix_fallocate -- ENOSPC (returned, as posix_fallocate does) once the disk is full. */
int
posix_fallocate (int fd, off_t offset, off_t len)
{
   REAL (posix_fallocate);
   return ff_full (fd, "posix_fallocate") ? ENOSPC : real_posix_fallocate (fd, offset, len);
}

/* posix_fallocate64 -- as posix_fallocate. */
int
posix_fallocate64 (int fd, off64_t offset, off64_t len)
{
   REAL (posix_fallocate64);
   return ff_full (fd, "posix_fallocate64") ? ENOSPC : real_posix_fallocate64 (fd, offset, len);
}

/* grows -- ftruncate to length makes fd's file larger. */
static bool
grows (int fd, off64_t length)
{
   struct stat sb;

   return fstat (fd, &sb) == 0 && length > sb.st_size;
}

/* ftruncate -- growing fails with ENOSPC once the disk is full; shrinking always works. */
int
ftruncate (int fd, off_t length)
{
   REAL (ftruncate);
   return grows (fd, length) && ff_full (fd, "ftruncate") ? -1 : real_ftruncate (fd, length);
}

/* ftruncate64 -- as ftruncate. */
int
ftruncate64 (int fd, off64_t length)
{
   REAL (ftruncate64);
   return grows (fd, length) && ff_full (fd, "ftruncate64") ? -1 : real_ftruncate64 (fd, length);
}

/* ---- reads -------------------------------------------------------------------------------------- */

/* read -- EIO past the read limit. */
ssize_t
read (int fd, void *buf, size_t count)
{
   REAL (read);
   return ff_read_fails (fd, "read") ? -1 : real_read (fd, buf, count);
}

/* pread -- EIO past the read limit. */
ssize_t
pread (int fd, void *buf, size_t count, off_t offset)
{
   REAL (pread);
   return ff_read_fails (fd, "pread") ? -1 : real_pread (fd, buf, count, offset);
}

/* pread64 -- EIO past the read limit. */
ssize_t
pread64 (int fd, void *buf, size_t count, off64_t offset)
{
   REAL (pread64);
   return ff_read_fails (fd, "pread64") ? -1 : real_pread64 (fd, buf, count, offset);
}

/* readv -- EIO past the read limit. */
ssize_t
readv (int fd, const struct iovec *iov, int n)
{
   REAL (readv);
   return ff_read_fails (fd, "readv") ? -1 : real_readv (fd, iov, n);
}

/* preadv -- EIO past the read limit. */
ssize_t
preadv (int fd, const struct iovec *iov, int n, off_t offset)
{
   REAL (preadv);
   return ff_read_fails (fd, "preadv") ? -1 : real_preadv (fd, iov, n, offset);
}

/* preadv64 -- EIO past the read limit. */
ssize_t
preadv64 (int fd, const struct iovec *iov, int n, off64_t offset)
{
   REAL (preadv64);
   return ff_read_fails (fd, "preadv64") ? -1 : real_preadv64 (fd, iov, n, offset);
}

/* from_wiredtiger -- the code at address `caller` belongs to libwiredtiger. */
static bool
from_wiredtiger (const void *caller)
{
   Dl_info info;

   return dladdr (caller, &info) != 0 && info.dli_fname && strstr (info.dli_fname, "libwiredtiger");
}

/* mmap -- refused (ENOTSUP) to WiredTiger for files whose reads fail, so its reads go through pread. */
void *
mmap (void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
   char path[PATH_MAX];

   REAL (mmap);
   if (!(flags & MAP_ANONYMOUS) && ff_read_armed (fd, path, sizeof path) &&
       from_wiredtiger (__builtin_return_address (0))) {
      errno = ENOTSUP;
      return MAP_FAILED;
   }
   return real_mmap (addr, length, prot, flags, fd, offset);
}

/* mmap64 -- as mmap. */
void *
mmap64 (void *addr, size_t length, int prot, int flags, int fd, off64_t offset)
{
   char path[PATH_MAX];

   REAL (mmap64);
   if (!(flags & MAP_ANONYMOUS) && ff_read_armed (fd, path, sizeof path) &&
       from_wiredtiger (__builtin_return_address (0))) {
      errno = ENOTSUP;
      return MAP_FAILED;
   }
   return real_mmap64 (addr, length, prot, flags, fd, offset);
}
