/*
 * predict_cost_probe.c -- the cost figures of the prediction's load time (predict_cost.h), measured by the
 * probe on the same store, without a device test and without loading anything:
 *   the device: random pages of the collection's own file read cold (O_DIRECT, as --direct-io reads; where
 *   the file system refuses it, buffered after posix_fadvise DONTNEED drops the file's cached pages, which
 *   any reader may do) by as many threads at once as the load has workers, at two sizes (a 4 KiB block and
 *   the collection's page on disk): the median read's latency, a fixed part and a part per byte;
 *   a page read's CPU: the leaf count's process CPU per page it read (predict_probe.c);
 *   the CPU: the sample fold's masters (predict_fold.c) found again warm (the engine's search and fetch,
 *   a line through the masters' times against their rows), their rows and their folded documents decoded and
 *   digested as the load does (scan/measure/measure.c on_doc), a page image of the rows decompressed;
 *   each repeated and the fastest repetition kept (a CPU time is only ever inflated by others' work).
 */
#include "scan/predict/predict_private.h"

#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "scan/workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <snappy-c.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Reads per size of the device sample, the most threads it uses, and the block it aligns to. */
#define DEVICE_READS 96
#define DEVICE_MAX_THREADS 16
#define DEVICE_ALIGN 4096
/* Repetitions of each CPU timing (the fastest kept): with 5, six probes of one store put the predicted
 * speedup 1.18-1.27x apart (bench-predict's default, zipf and small masters at ratio 1); with 15, 1.09x,
 * 1.21x and 1.17x, for about 0.1 s more of the probe on those stores (docs/results.md). */
#define CPU_REPS 15

/* ---- the device ---------------------------------------------------------------------------------- */

/* thread_cpu_ns -- this thread's CPU time in nanoseconds. */
static uint64_t
thread_cpu_ns (void)
{
   struct timespec ts;

   if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0) {
      return 0;
   }
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

typedef struct {
   int fd;
   const off_t *off;
   double *lat; /* each read's seconds */
   int n;
   size_t len;
   int err; /* the first errno (0: every read whole) */
} reader_t;

/* reader_main -- read `n` blocks of `len` at r->off[], each into an aligned buffer, each timed. */
static void *
reader_main (void *arg)
{
   reader_t *r = arg;
   void *buf = NULL;
   int i;

   if (posix_memalign (&buf, DEVICE_ALIGN, r->len) != 0) {
      r->err = ENOMEM;
      return NULL;
   }
   for (i = 0; i < r->n && r->err == 0; i++) {
      uint64_t t0 = lab_now_ns ();
      ssize_t got = pread (r->fd, buf, r->len, r->off[i]);
      r->lat[i] = (double)(lab_now_ns () - t0) / 1e9;
      if (got < 0) {
         r->err = errno;
      }
   }
   free (buf);
   return NULL;
}

/* next_rand -- splitmix64. */
static uint64_t
next_rand (uint64_t *s)
{
   uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

/* cmp_double -- qsort's order of doubles. */
static int
cmp_double (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

/* timed_reads -- DEVICE_READS reads of `len` bytes at random aligned places of `fd` (of `size` bytes) by
 * `nt` threads at once; the median read's seconds (the device's latency: on a busy machine a reader also
 * waits for a core after its read, which lengthens the slow reads, not the median, and the model's CPU is
 * a quiet machine's too), or -1 with *err the errno of a failed read. */
static double
timed_reads (int fd, off_t size, size_t len, int nt, bool drop, uint64_t *seed, int *err)
{
   off_t off[DEVICE_READS];
   double lat[DEVICE_READS];
   reader_t rs[DEVICE_MAX_THREADS];
   pthread_t th[DEVICE_MAX_THREADS];
   int64_t blocks = (int64_t)((size - (off_t)len) / DEVICE_ALIGN) + 1;
   int i, per = DEVICE_READS / nt, started = 0;

   for (i = 0; i < DEVICE_READS; i++) {
      off[i] = (off_t)((int64_t)(next_rand (seed) % (uint64_t)blocks) * DEVICE_ALIGN);
   }
   memset (rs, 0, sizeof rs); /* a thread not started reads nothing and fails nothing */
   if (drop) {
      (void)posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
   }
   for (i = 0; i < nt; i++) {
      rs[i] =
         (reader_t){ fd, off + i * per, lat + i * per, i == nt - 1 ? DEVICE_READS - i * per : per, len, 0 };
      if (pthread_create (&th[i], NULL, reader_main, &rs[i]) != 0) {
         rs[i].err = EAGAIN;
         break;
      }
      started++;
   }
   for (i = 0; i < started; i++) {
      pthread_join (th[i], NULL);
   }
   for (i = 0; i < nt; i++) {
      if (rs[i].err) {
         *err = rs[i].err;
         return -1;
      }
   }
   qsort (lat, DEVICE_READS, sizeof lat[0], cmp_double);
   return (lat[DEVICE_READS / 2 - 1] + lat[DEVICE_READS / 2]) / 2;
}

/* lab_scan_predict_cpu_ns -- see predict_private.h. */
uint64_t
lab_scan_predict_cpu_ns (void)
{
   struct timespec ts;

   if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) {
      return 0;
   }
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Fresh memory the probe touches to time the cache's growth. */
#define FRESH_BYTES (32u << 20)

/* time_fresh -- CPU seconds per byte of anonymous memory touched for the first time (a page fault per 4
 * KiB: what a page read into a growing cache pays and one read into an evicted page's memory does not;
 * CPU, not wall: the other processes' share of the cores is not the fault's); 0 when the memory cannot be
 * mapped. */
static double
time_fresh (void)
{
   volatile uint8_t *m = mmap (NULL, FRESH_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   uint64_t t0 = thread_cpu_ns ();
   size_t i;
   double s;

   if (m == (volatile uint8_t *)MAP_FAILED) {
      return 0;
   }
   for (i = 0; i < FRESH_BYTES; i += 4096) {
      m[i] = 1;
   }
   s = (double)(thread_cpu_ns () - t0) / 1e9;
   munmap ((void *)m, FRESH_BYTES);
   return s / FRESH_BYTES;
}

/* lab_scan_predict_cost_device -- see predict_private.h. */
void
lab_scan_predict_cost_device (lab_store_t *store, const lab_scan_opts_t *o, probe_t *p)
{
   lab_scan_predict_cost_t *c = &p->cost;
   char **paths = NULL;
   bson_error_t err;
   struct stat sb;
   uint64_t t0 = lab_now_ns (), seed = 0x6c61796f75746c62ull;
   double page = p->leaf_pages > 0 ? (double)p->st.storage_size_bytes / (double)p->leaf_pages : 32768;
   size_t small = DEVICE_ALIGN, large;
   double ws, wl;
   int fd = -1, nt = o->parallel > 0 ? o->parallel : 1, e = 0;
   bool drop = false;

   if (nt > DEVICE_MAX_THREADS) {
      nt = DEVICE_MAX_THREADS;
   }
   large = (size_t)((page + DEVICE_ALIGN - 1) / DEVICE_ALIGN) * DEVICE_ALIGN;
   if (large < 2 * DEVICE_ALIGN) {
      large = 2 * DEVICE_ALIGN;
   }
   if (large > (1u << 20)) {
      large = 1u << 20;
   }
   if (lab_store_backend (store) != LAB_BACKEND_WT) {
      c->not_measured = "a server's files are not this process's to read: no device figures (the load time "
                        "needs the embedded store)";
      return;
   }
   if (!lab_store_data_files (store, o->detail, &paths, &err) || !paths || !paths[0]) {
      c->not_measured = "the collection's file is not known";
      goto done;
   }
   fd = open (paths[0], O_RDONLY | O_DIRECT);
   c->device_how = "O_DIRECT reads of the collection's file (the OS page cache bypassed, as --direct-io)";
   if (fd < 0) {
      fd = open (paths[0], O_RDONLY);
      drop = true;
      c->device_how = "buffered reads of the collection's file after posix_fadvise DONTNEED (the file system "
                      "refuses O_DIRECT)";
   }
   if (fd < 0 || fstat (fd, &sb) != 0 || sb.st_size < (off_t)(large + DEVICE_ALIGN)) {
      c->not_measured = "the collection's file could not be read, or is smaller than two pages";
      goto done;
   }
   ws = timed_reads (fd, sb.st_size, small, nt, drop, &seed, &e);
   if (ws < 0 && !drop && e == EINVAL) {
      /* the file system took O_DIRECT at open but refuses its reads: buffered, after dropping the file */
      close (fd);
      fd = open (paths[0], O_RDONLY);
      drop = true;
      c->device_how = "buffered reads of the collection's file after posix_fadvise DONTNEED (the file system "
                      "refuses O_DIRECT reads)";
      ws = fd < 0 ? -1 : timed_reads (fd, sb.st_size, small, nt, drop, &seed, &e);
   }
   wl = ws < 0 ? -1 : timed_reads (fd, sb.st_size, large, nt, drop, &seed, &e);
   if (ws < 0 || wl < 0) {
      c->not_measured = "a read of the collection's file failed";
      lab_log_info ("the device sample of %s: %s", paths[0], strerror (e));
      goto done;
   }
   /* a line through the two sizes: a fixed part per read and a part per byte, neither negative */
   c->read_byte_s = wl > ws ? (wl - ws) / (double)(large - small) : 0;
   c->read_s = wl > ws ? ws - c->read_byte_s * (double)small : (ws + wl) / 2;
   if (c->read_s < 0) {
      c->read_s = 0;
   }
   c->fresh_byte_s = time_fresh ();
   c->device_reads = 2 * DEVICE_READS;
   c->device_bytes = (int64_t)DEVICE_READS * (int64_t)(small + large);
   c->parallel = o->parallel > 0 ? o->parallel : 1;
   c->cores = (int)sysconf (_SC_NPROCESSORS_ONLN);
   /* a page read's CPU: the leaf count's process CPU per page it read into the cache */
   if (p->leaf_pages_read >= 4 && p->leaf_cpu_s > 0) {
      c->read_cpu_s = p->leaf_cpu_s / (double)p->leaf_pages_read;
      c->read_page_mem = p->data_page_mem; /* the footprint's bytes in memory per page (0: not measured) */
   }
   c->done = c->cpu_rows > 0;
   if (!c->done && !c->not_measured) {
      c->not_measured = "the sample fold read no row: no CPU figures";
   }
done:
   c->probe_s += (double)(lab_now_ns () - t0) / 1e9;
   if (fd >= 0) {
      close (fd);
   }
   bson_strfreev (paths);
}

/* ---- the CPU ------------------------------------------------------------------------------------- */

/* nothing_cb -- a find's callback: the engine's work alone (the load's own is timed apart). */
static bool
nothing_cb (const bson_t *doc, void *ctx)
{
   (*(int64_t *)ctx) += doc->len;
   return true;
}

/* process -- what the load does with a returned document (scan/measure/measure.c on_doc): decode, then
 * each row's content digest; `folded`: the rows are the elements of the array. Returns a checksum. */
static uint64_t
process (lab_scan_rowhash_t *rh, const lab_scan_opts_t *o, const bson_t *doc, bool folded)
{
   uint64_t sum = lab_scan_decode (doc, o->decode);
   bson_iter_t it, child;

   lab_scan_rowhash_doc (rh, doc);
   if (!folded) {
      return sum + lab_scan_rowhash (rh, NULL);
   }
   if (bson_iter_init_find (&it, doc, o->array_field) && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &child)) {
      while (bson_iter_next (&child)) {
         const uint8_t *data;
         uint32_t len;
         bson_t elem;
         if (BSON_ITER_HOLDS_DOCUMENT (&child)) {
            bson_iter_document (&child, &len, &data);
            if (bson_init_static (&elem, data, len)) {
               sum += lab_scan_rowhash (rh, &elem);
            }
         }
      }
   }
   return sum;
}

/* time_process -- the fastest of CPU_REPS passes of `process` over the sample's rows (folded false) or its
 * folded documents; seconds. */
static double
time_process (const lab_scan_opts_t *o, const lab_store_docs_t *ms, size_t nm, bson_t *const *docs,
              bool folded, uint64_t *sink)
{
   double best = -1;
   int r;

   for (r = 0; r < CPU_REPS; r++) {
      lab_scan_rowhash_t rh = { o->key, o->array_field, NULL, NULL };
      uint64_t t0 = lab_now_ns ();
      size_t i, j;
      double s;
      for (i = 0; i < nm; i++) {
         if (folded) {
            *sink += process (&rh, o, docs[i], true);
            continue;
         }
         for (j = 0; j < ms[i].n; j++) {
            *sink += process (&rh, o, ms[i].docs[j], false);
         }
      }
      s = (double)(lab_now_ns () - t0) / 1e9;
      lab_scan_rowhash_cleanup (&rh);
      if (best < 0 || s < best) {
         best = s;
      }
   }
   return best;
}

/* time_inflate -- the CPU per byte of decompressing a page image of the sample's rows (snappy, the
 * collection's default block compressor) of about `page` bytes; 0 when there is nothing to compress. */
static double
time_inflate (const lab_store_docs_t *ms, size_t nm, double page)
{
   size_t cap = (size_t)(page > 4096 ? page : 4096), used = 0, i, j, clen, olen;
   uint8_t *buf = bson_malloc (cap);
   char *comp, *out = bson_malloc (cap);
   double best = -1;
   int r;

   for (i = 0; i < nm && used < cap; i++) {
      for (j = 0; j < ms[i].n && used < cap; j++) {
         size_t n = ms[i].docs[j]->len < cap - used ? ms[i].docs[j]->len : cap - used;
         memcpy (buf + used, bson_get_data (ms[i].docs[j]), n);
         used += n;
      }
   }
   clen = snappy_max_compressed_length (used);
   comp = bson_malloc (clen + 1);
   if (used == 0 || snappy_compress ((const char *)buf, used, comp, &clen) != SNAPPY_OK) {
      used = 0;
   }
   for (r = 0; used > 0 && r < CPU_REPS * 4; r++) {
      uint64_t t0 = lab_now_ns ();
      double s;
      olen = cap;
      if (snappy_uncompress (comp, clen, out, &olen) != SNAPPY_OK) {
         used = 0;
         break;
      }
      s = (double)(lab_now_ns () - t0) / 1e9;
      if (best < 0 || s < best) {
         best = s;
      }
   }
   bson_free (buf);
   bson_free (comp);
   bson_free (out);
   return used > 0 && best > 0 ? best / (double)used : 0;
}

/* time_copy -- the CPU per byte of copying the folded documents (a fetch hands the load its own copy). */
static double
time_copy (bson_t *const *docs, size_t nm)
{
   size_t total = 0, i;
   double best = -1;
   int r;

   for (r = 0; r < CPU_REPS; r++) {
      uint64_t t0 = lab_now_ns ();
      double s;
      total = 0;
      for (i = 0; i < nm; i++) {
         bson_t *c = bson_copy (docs[i]);
         total += c->len;
         bson_destroy (c);
      }
      s = (double)(lab_now_ns () - t0) / 1e9;
      if (best < 0 || s < best) {
         best = s;
      }
   }
   return total > 0 ? best / (double)total : 0;
}

/* lab_scan_predict_cost_cpu -- see predict_private.h. */
bool
lab_scan_predict_cost_cpu (lab_store_session_t *sess, const lab_scan_opts_t *o, probe_t *p,
                           const int64_t *pick, const lab_store_docs_t *ms, size_t nm, bson_t *const *docs,
                           bson_error_t *error)
{
   lab_scan_predict_cost_t *c = &p->cost;
   double *x = bson_malloc0 ((nm + 1) * sizeof *x), *y = bson_malloc0 ((nm + 1) * sizeof *y);
   double page = p->leaf_pages > 0 ? (double)p->st.data_size_bytes / (double)p->leaf_pages : 32768;
   double rows = 0, t;
   uint64_t t0 = lab_now_ns (), sink = 0;
   size_t i;
   int r;
   bool ok = false;

   /* the engine: each master found again (its pages in the cache now), the fastest of the repetitions */
   for (i = 0; i < nm; i++) {
      x[i] = (double)ms[i].n;
      y[i] = -1;
      rows += x[i];
   }
   for (r = 0; r < CPU_REPS; r++) {
      for (i = 0; i < nm; i++) {
         int64_t bytes = 0;
         uint64_t t1 = lab_now_ns ();
         if (!lab_store_find_eq (sess, o->detail, o->key, &p->keys[pick[i]], nothing_cb, &bytes, NULL,
                                 error)) {
            lab_error_prefix (error, "the CPU sample of %s", o->detail);
            goto done;
         }
         t = (double)(lab_now_ns () - t1) / 1e9;
         if (y[i] < 0 || t < y[i]) {
            y[i] = t;
         }
      }
   }
   lab_scan_predict_cost_fit (x, y, (int)nm, &c->lookup_s, &c->doc_s);
   /* the load's own work on both shapes: per row */
   if (rows > 0) {
      c->row_s[0] = time_process (o, ms, nm, docs, false, &sink) / rows;
      c->row_s[1] = time_process (o, ms, nm, docs, true, &sink) / rows;
   }
   c->inflate_byte_s = time_inflate (ms, nm, page);
   c->copy_byte_s = time_copy (docs, nm);
   c->cpu_masters = (int64_t)nm;
   c->cpu_rows = (int64_t)rows;
   c->cpu_reps = CPU_REPS;
   if (sink == 42) {
      lab_log_debug ("the CPU sample's checksum"); /* keeps the digests from being optimized away */
   }
   ok = true;
done:
   c->probe_s += (double)(lab_now_ns () - t0) / 1e9;
   bson_free (x);
   bson_free (y);
   return ok;
}
