/*
 * calibrate.c -- what the device can do, measured where the data lives: sequential 1 MiB O_DIRECT reads
 * and random 4 KiB O_DIRECT reads (several readers) on a temporary file in the data directory, so the
 * report can say how close a layout came to the device's limit. The file is always removed.
 */
#include "scan/scan.h"

#include "core/error.h"
#include "core/opts.h"
#include "core/workers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define SEQ_CHUNK (1u << 20)
#define RAND_CHUNK 4096u

typedef struct {
   int fd;
   const char *path; /* for the message */
   uint64_t file_bytes;
   uint64_t deadline_ns;
   uint64_t seed;
   uint64_t reads;
} rand_reader_t;

/* rand_reader -- 4 KiB aligned random reads until the deadline (xorshift for offsets); a worker of the
 * pool (core/workers.h). */
static bool
rand_reader (void *arg, int index, bson_error_t *error)
{
   rand_reader_t *r = arg;
   void *buf = NULL;
   uint64_t blocks = r->file_bytes / RAND_CHUNK;
   uint64_t x = r->seed | 1;

   (void)index;
   if (posix_memalign (&buf, 4096, RAND_CHUNK) != 0) {
      lab_error_set_errno (error, ENOMEM, "--calibrate: random O_DIRECT read of %s", r->path);
      return false;
   }
   while (lab_now_ns () < r->deadline_ns) {
      int k;
      for (k = 0; k < 16; k++) {
         off_t off;
         x ^= x << 13;
         x ^= x >> 7;
         x ^= x << 17;
         off = (off_t)((x % blocks) * RAND_CHUNK);
         if (pread (r->fd, buf, RAND_CHUNK, off) != (ssize_t)RAND_CHUNK) {
            lab_error_set_errno (error, errno ? errno : EIO, "--calibrate: random O_DIRECT read of %s",
                                 r->path);
            free (buf);
            return false;
         }
         r->reads++;
      }
   }
   free (buf);
   return true;
}

/* rand_read_iops -- `threads` random readers on dfd until rand_ns from now: reads per second. */
static bool
rand_read_iops (int dfd, const char *path, uint64_t file_bytes, uint64_t rand_ns, int threads, double *iops,
                bson_error_t *error)
{
   rand_reader_t *readers = bson_malloc0 ((size_t)threads * sizeof *readers);
   lab_workers_t pool = { rand_reader, readers, sizeof *readers, NULL, NULL, NULL };
   uint64_t t0 = lab_now_ns (), reads = 0;
   bool ok;
   int i;

   for (i = 0; i < threads; i++) {
      readers[i].fd = dfd;
      readers[i].path = path;
      readers[i].file_bytes = file_bytes;
      readers[i].deadline_ns = t0 + (rand_ns ? rand_ns : 3000000000ull);
      readers[i].seed = 0x2545F4914F6CDD1Dull * (uint64_t)(i + 1);
   }
   ok = lab_workers_run (&pool, threads, NULL, error);
   if (ok) {
      for (i = 0; i < threads; i++) {
         reads += readers[i].reads;
      }
      *iops = (double)reads / ((double)(lab_now_ns () - t0) / 1e9);
   }
   bson_free (readers);
   return ok;
}

/* fill_chunk -- incompressible content, so no layer below can shortcut the reads. */
static void
fill_chunk (void *buf)
{
   uint64_t x = 0x9E3779B97F4A7C15ull;
   size_t k;

   for (k = 0; k < SEQ_CHUNK / 8; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      ((uint64_t *)buf)[k] = x;
   }
}

/* write_test_file -- file_bytes of distinct chunks to fd, synced and dropped from the page cache. */
static bool
write_test_file (int fd, const char *path, void *buf, uint64_t file_bytes, bson_error_t *error)
{
   uint64_t done;

   fill_chunk (buf);
   for (done = 0; done < file_bytes; done += SEQ_CHUNK) {
      ((uint64_t *)buf)[0] = done; /* every chunk differs */
      if (write (fd, buf, SEQ_CHUNK) != (ssize_t)SEQ_CHUNK) {
         lab_error_set_errno (error, errno ? errno : ENOSPC, "--calibrate: writing %s (%" PRIu64 " bytes)",
                              path, file_bytes);
         return false;
      }
   }
   if (fdatasync (fd) != 0) {
      lab_error_set_errno (error, errno, "--calibrate: fdatasync %s", path);
      return false;
   }
   posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
   return true;
}

/* seq_read_mb_s -- the whole file in 1 MiB O_DIRECT reads: 10^6 bytes per second. */
static bool
seq_read_mb_s (int dfd, const char *path, void *buf, uint64_t file_bytes, double *mb_s, bson_error_t *error)
{
   uint64_t done, t0 = lab_now_ns ();

   for (done = 0; done < file_bytes; done += SEQ_CHUNK) {
      if (pread (dfd, buf, SEQ_CHUNK, (off_t)done) != (ssize_t)SEQ_CHUNK) {
         lab_error_set_errno (error, errno ? errno : EIO, "--calibrate: O_DIRECT read of %s", path);
         return false;
      }
   }
   *mb_s = (double)file_bytes / ((double)(lab_now_ns () - t0) / 1e9) / 1e6;
   return true;
}

/* lab_scan_rereads_cached -- see scan.h. */
bool
lab_scan_rereads_cached (double first_ms, double reread_ms)
{
   return first_ms > 0 && reread_ms >= 0 && first_ms >= LAB_SCAN_REREAD_CACHED_X * reread_ms;
}

/* cmp_double -- qsort order of doubles. */
static int
cmp_double (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

/* pass_ms -- every block (fds[i], offs[i]) of [0..n) read once with O_DIRECT, each read's time sorted into
 * ms[]. */
static bool
pass_ms (const int *fds, const char *path, void *buf, const off_t *offs, int n, double *ms,
         bson_error_t *error)
{
   int i;

   for (i = 0; i < n; i++) {
      uint64_t t0 = lab_now_ns ();
      if (pread (fds[i], buf, RAND_CHUNK, offs[i]) != (ssize_t)RAND_CHUNK) {
         lab_error_set_errno (error, errno ? errno : EIO, "--calibrate: O_DIRECT reread probe of %s", path);
         return false;
      }
      ms[i] = (double)(lab_now_ns () - t0) / 1e6;
   }
   qsort (ms, (size_t)n, sizeof *ms, cmp_double);
   return true;
}

static bool reread_passes (const int *fds, const char *path, void *buf, const off_t *offs,
                           lab_scan_calibration_t *out, bson_error_t *error);

/* reread_probe -- LAB_SCAN_REREAD_BLOCKS blocks of dfd's first span_bytes, one per stretch (so no
 * read-ahead below can bring one in with another) at an offset within it drawn from seed, read, then read
 * again: where the second reads are several times faster, a cache below this machine (a VM host's, a
 * SAN's) holds what was read, and a "cold" run here reads that cache, not the disk. */
static bool
reread_probe (int dfd, const char *path, void *buf, uint64_t span_bytes, uint64_t seed,
              lab_scan_calibration_t *out, bson_error_t *error)
{
   enum { N = LAB_SCAN_REREAD_BLOCKS };
   off_t offs[N];
   int fds[N];

   uint64_t stride = span_bytes / N / RAND_CHUNK, x = seed | 1;
   int i;

   for (i = 0; i < N; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      offs[i] = (off_t)(((uint64_t)i * stride + (stride > 1 ? x % stride : 0)) * RAND_CHUNK);
      fds[i] = dfd;
   }
   return reread_passes (fds, path, buf, offs, out, error);
}

/* lab_scan_reread_files -- see scan.h. */
bool
lab_scan_reread_files (char *const *paths, lab_scan_calibration_t *out, bson_error_t *error)
{
   enum { N = LAB_SCAN_REREAD_BLOCKS, MAXF = 64 };
   int fds[N], ofd[MAXF], nf = 0, i, k;
   uint64_t size[MAXF], total = 0, stride, x = lab_now_ns () | 1;
   off_t offs[N];
   void *buf = NULL;
   bool ok = false;

   /* the data's files of at least two blocks, each opened O_DIRECT: a virtual span over all of them */
   for (i = 0; paths[i] && nf < MAXF; i++) {
      size_t len = strlen (paths[i]);
      /* the tables (mongod's and ours end in .wt), not the journal, whose preallocated files read as
       * zeros without a disk read */
      int fd = len > 3 && strcmp (paths[i] + len - 3, ".wt") == 0 ? open (paths[i], O_RDONLY | O_DIRECT) : -1;
      off_t sz = fd >= 0 ? lseek (fd, 0, SEEK_END) : -1;
      if (sz >= (off_t)(2 * RAND_CHUNK)) {
         ofd[nf] = fd;
         size[nf++] = (uint64_t)sz / RAND_CHUNK * RAND_CHUNK;
         total += (uint64_t)sz / RAND_CHUNK * RAND_CHUNK;
      } else if (fd >= 0) {
         close (fd);
      }
   }
   if (total < (uint64_t)N * RAND_CHUNK) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "--calibrate: the data's files hold fewer than %d blocks that O_DIRECT can read", N);
      goto done;
   }
   stride = total / N / RAND_CHUNK;
   for (i = 0; i < N; i++) {
      uint64_t at;
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      at = ((uint64_t)i * stride + (stride > 1 ? x % stride : 0)) * RAND_CHUNK;
      for (k = 0; k < nf - 1 && at >= size[k]; k++) {
         at -= size[k];
      }
      fds[i] = ofd[k];
      offs[i] = (off_t)(at < size[k] ? at : size[k] - RAND_CHUNK);
      {
         /* a block the file holds data in: an unwritten (preallocated) extent reads as zeros, no I/O */
         off_t d = lseek (ofd[k], offs[i], SEEK_DATA);
         if (d >= 0 && (uint64_t)d + RAND_CHUNK <= size[k]) {
            offs[i] = d / RAND_CHUNK * RAND_CHUNK;
         }
      }
   }
   if (posix_memalign (&buf, 4096, RAND_CHUNK) != 0) {
      lab_error_set_errno (error, ENOMEM, "--calibrate: buffer");
      goto done;
   }
   if ((ok = reread_passes (fds, "the data's files", buf, offs, out, error))) {
      bson_strncpy (out->reread_source, "the data's files", sizeof out->reread_source);
   }
done:
   for (k = 0; k < nf; k++) {
      close (ofd[k]);
   }
   free (buf);
   return ok;
}

/* reread_passes -- the two timed passes over the blocks and their p50/p90 into out. */
static bool
reread_passes (const int *fds, const char *path, void *buf, const off_t *offs, lab_scan_calibration_t *out,
               bson_error_t *error)
{
   enum { N = LAB_SCAN_REREAD_BLOCKS };
   double first[N], again[N];

   if (!pass_ms (fds, path, buf, offs, N, first, error) || !pass_ms (fds, path, buf, offs, N, again, error)) {
      return false;
   }
   out->reread_blocks = N;
   out->first_p50_ms = first[N / 2];
   out->first_p90_ms = first[(N * 9) / 10];
   out->reread_p50_ms = again[N / 2];
   out->reread_p90_ms = again[(N * 9) / 10];
   out->rereads_cached = lab_scan_rereads_cached (out->first_p50_ms, out->reread_p50_ms);
   return true;
}

/* lab_scan_reread_device -- see scan.h. */
bool
lab_scan_reread_device (const char *device, lab_scan_calibration_t *out, bson_error_t *error)
{
   char *path = bson_strdup_printf ("/dev/%s", device);
   void *buf = NULL;
   off_t size;
   bool ok = false;
   int fd = open (path, O_RDONLY | O_DIRECT);

   if (fd < 0) {
      lab_error_set_errno (error, errno, "--calibrate: O_DIRECT open of %s for the reread probe", path);
      goto done;
   }
   if ((size = lseek (fd, 0, SEEK_END)) < (off_t)(LAB_SCAN_REREAD_BLOCKS * 2 * RAND_CHUNK)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "--calibrate: %s is too small for the reread probe", path);
      goto done;
   }
   if (posix_memalign (&buf, 4096, RAND_CHUNK) != 0) {
      lab_error_set_errno (error, ENOMEM, "--calibrate: buffer");
      goto done;
   }
   /* a new draw each time: blocks spread over the whole device, unlikely read by anyone lately */
   ok = reread_probe (fd, path, buf, (uint64_t)size, lab_now_ns () ^ (uint64_t)getpid (), out, error);
   if (ok) {
      bson_strncpy (out->reread_source, path, sizeof out->reread_source);
   }
done:
   if (fd >= 0) {
      close (fd);
   }
   free (buf);
   bson_free (path);
   return ok;
}

/* enough_space -- twice the test file must stay free in dir (unknown space: go ahead). */
static bool
enough_space (const char *dir, uint64_t file_bytes, bson_error_t *error)
{
   struct statvfs vfs;

   if (statvfs (dir, &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < file_bytes * 2) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--calibrate: %s has %" PRIu64 " MiB free, too little for a %" PRIu64
                     " MiB test file (twice its size is kept free); use a smaller --calibrate-size",
                     dir, (uint64_t)vfs.f_bavail * vfs.f_frsize >> 20, file_bytes >> 20);
      return false;
   }
   return true;
}

/* lab_scan_calibrate -- see scan.h. */
bool
lab_scan_calibrate (const char *dir, uint64_t file_bytes, uint64_t rand_ns, int threads,
                    lab_scan_calibration_t *out, bson_error_t *error)
{
   char *path = bson_strdup_printf ("%s/.layoutlab-calibrate-XXXXXX", dir);
   int fd = -1, dfd = -1;
   void *buf = NULL;
   uint64_t t_start = lab_now_ns ();
   bool ok = false;

   memset (out, 0, sizeof *out);
   file_bytes = (file_bytes / SEQ_CHUNK) * SEQ_CHUNK;
   if (file_bytes < SEQ_CHUNK) {
      file_bytes = SEQ_CHUNK;
   }
   if (threads < 1) {
      threads = 1;
   }
   if (!enough_space (dir, file_bytes, error)) {
      goto done;
   }
   fd = mkstemp (path);
   if (fd < 0) {
      lab_error_set_errno (error, errno, "--calibrate: cannot create a temporary file in %s", dir);
      goto done;
   }
   if (posix_memalign (&buf, 4096, SEQ_CHUNK) != 0) {
      lab_error_set_errno (error, ENOMEM, "--calibrate: buffer");
      goto done;
   }
   if (!write_test_file (fd, path, buf, file_bytes, error)) {
      goto done;
   }
   dfd = open (path, O_RDONLY | O_DIRECT);
   if (dfd < 0) {
      lab_error_set_errno (error, errno,
                           "--calibrate: O_DIRECT open of %s (the file system must support "
                           "direct I/O)",
                           path);
      goto done;
   }
   /* before the sequential pass: its blocks must never have been read */
   if (!reread_probe (dfd, path, buf, file_bytes, 0x9E3779B97F4A7C15ull, out, error) ||
       !seq_read_mb_s (dfd, path, buf, file_bytes, &out->seq_read_mb_s, error) ||
       !rand_read_iops (dfd, path, file_bytes, rand_ns, threads, &out->rand_read_4k_iops, error)) {
      goto done;
   }
   bson_strncpy (out->reread_source, "the test file (just written)", sizeof out->reread_source);
   out->rand_threads = threads;
   out->file_bytes = file_bytes;
   out->elapsed_s = (double)(lab_now_ns () - t_start) / 1e9;
   ok = true;
done:
   if (dfd >= 0) {
      close (dfd);
   }
   if (fd >= 0) {
      close (fd);
      unlink (path);
   }
   free (buf);
   bson_free (path);
   return ok;
}
