/*
 * wt_sort.c -- the external merge sort of index builds (see wt_sort.h): an arena of keys with
 * references sorted by a radix sort on eight bytes of each key past the chunk's common prefix (ties
 * ordered by comparison), runs spilled as [u32 length][key] ... to unlinked files, a merge.
 */
#include "wt_sort.h"

#include "core/buf.h"
#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* key_ref_t -- one key in the arena, with the eight bytes of it that the radix sort orders by. */
typedef struct {
   uint64_t pfx; /* bytes [cp, cp + 8) of the key, big-endian, zero past its end (sort_chunk) */
   uint32_t off;
   uint32_t len;
} key_ref_t;

/* An arena offset is 32 bits: a chunk spills before its keys reach this. */
#define ARENA_MAX ((size_t)UINT32_MAX)

/* sort_run_t -- a sorted run spilled to an unlinked file, and its current key. */
typedef struct {
   FILE *f;
   uint8_t *key;
   uint32_t len, cap;
   bool done;
} sort_run_t;

struct lab_wt_sort {
   char *dir;
   size_t budget;
   lab_buf_t arena; /* the keys of the current chunk, back to back */
   key_ref_t *refs;
   size_t nrefs, caprefs;
   size_t cp;   /* the length of the prefix every key of the chunk shares */
   bool sorted; /* the chunk's keys came in strictly ascending order */
   sort_run_t *runs;
   size_t nruns;
   uint64_t nkeys;
   size_t pos;       /* in memory: the next reference to return */
   sort_run_t *last; /* merging: the run whose key was returned last (advanced on the next call) */
};

/* lab_wt_sort_cmp -- memcmp order, a proper prefix first. */
int
lab_wt_sort_cmp (const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
   int c = memcmp (a, b, alen < blen ? alen : blen);

   return c ? c : (alen < blen ? -1 : alen > blen ? 1 : 0);
}

/* key_ref_cmp -- qsort_r comparison of two references into the arena `base`. */
static int
key_ref_cmp (const void *a, const void *b, void *base)
{
   const key_ref_t *x = a, *y = b;
   const uint8_t *p = base;

   return lab_wt_sort_cmp (p + x->off, x->len, p + y->off, y->len);
}

/* lab_wt_sort_new -- an empty sort. */
lab_wt_sort_t *
lab_wt_sort_new (const char *dir, size_t budget_bytes)
{
   lab_wt_sort_t *s = bson_malloc0 (sizeof *s);

   s->dir = bson_strdup (dir);
   s->budget = budget_bytes;
   s->sorted = true;
   lab_buf_init (&s->arena);
   return s;
}

/* lab_wt_sort_destroy -- closing a run's file removes it (it is unlinked already). */
void
lab_wt_sort_destroy (lab_wt_sort_t *s)
{
   size_t i;

   if (!s) {
      return;
   }
   for (i = 0; i < s->nruns; i++) {
      if (s->runs[i].f) {
         fclose (s->runs[i].f);
      }
      bson_free (s->runs[i].key);
   }
   bson_free (s->runs);
   bson_free (s->refs);
   lab_buf_destroy (&s->arena);
   bson_free (s->dir);
   bson_free (s);
}

/* key_pfx -- bytes [cp, cp + 8) of key k as a big-endian number, zeros past its end: comparing two keys'
 * numbers orders them as lab_wt_sort_cmp does, up to a tie (the same eight bytes, or one key ending in
 * zeros where the other has zero bytes). */
static uint64_t
key_pfx (const uint8_t *k, size_t len, size_t cp)
{
   uint64_t v = 0;
   size_t i;

   for (i = 0; i < 8; i++) {
      v = (v << 8) | (cp + i < len ? k[cp + i] : 0);
   }
   return v;
}

/* sort_ties -- order refs[0..n), whose eight radix bytes are equal, by the whole keys: nothing when they
 * are in order already (keys read in RecordId order end in ascending RecordIds), else an insertion sort
 * for a few, qsort_r for more. */
static void
sort_ties (key_ref_t *refs, size_t n, const uint8_t *base)
{
   size_t i, j;

   for (i = 1; i < n && key_ref_cmp (&refs[i - 1], &refs[i], (void *)base) <= 0; i++) {
   }
   if (i == n) {
      return;
   }
   if (n > 32) {
      qsort_r (refs, n, sizeof *refs, key_ref_cmp, (void *)base);
      return;
   }
   for (i = 1; i < n; i++) {
      key_ref_t r = refs[i];
      for (j = i; j > 0 && key_ref_cmp (&refs[j - 1], &r, (void *)base) > 0; j--) {
         refs[j] = refs[j - 1];
      }
      refs[j] = r;
   }
}

/* sort_chunk -- sort the chunk's references unless the keys came in order: a least-significant-digit
 * radix sort on the eight bytes past the common prefix (a pass per byte that differs between keys), then
 * every group of references with the same eight bytes by comparison. The order is lab_wt_sort_cmp's,
 * as qsort_r gave it, in O(n) for the keys an index build sorts (a comparison sort spent half of a
 * build's reading on them). */
static void
sort_chunk (lab_wt_sort_t *s)
{
   size_t n = s->nrefs, i, b, start;
   size_t (*count)[256];
   key_ref_t *tmp, *src, *dst, *t;
   const uint8_t *base = s->arena.data;

   if (s->sorted || n < 2) {
      return;
   }
   count = bson_malloc0 (8 * sizeof *count);
   for (i = 0; i < n; i++) {
      key_ref_t *r = &s->refs[i];
      r->pfx = key_pfx (base + r->off, r->len, s->cp);
      for (b = 0; b < 8; b++) {
         count[b][(r->pfx >> (8 * b)) & 0xff]++;
      }
   }
   tmp = bson_malloc (n * sizeof *tmp);
   src = s->refs;
   dst = tmp;
   for (b = 0; b < 8; b++) {
      size_t sum = 0, c;
      if (count[b][(src[0].pfx >> (8 * b)) & 0xff] == n) {
         continue; /* every key has this byte: the pass would change nothing */
      }
      for (c = 0; c < 256; c++) {
         size_t k = count[b][c];
         count[b][c] = sum;
         sum += k;
      }
      for (i = 0; i < n; i++) {
         dst[count[b][(src[i].pfx >> (8 * b)) & 0xff]++] = src[i];
      }
      t = src;
      src = dst;
      dst = t;
   }
   if (src != s->refs) {
      memcpy (s->refs, src, n * sizeof *src);
   }
   bson_free (tmp);
   bson_free (count);
   for (start = 0, i = 1; i <= n; i++) {
      if (i == n || s->refs[i].pfx != s->refs[start].pfx) {
         if (i - start > 1) {
            sort_ties (s->refs + start, i - start, base);
         }
         start = i;
      }
   }
}

/* run_write_fail -- a sort file could not be written: errno err, the directory and its free space named
 * when the disk is full; false. */
static bool
run_write_fail (lab_wt_sort_t *s, int err, bson_error_t *error)
{
   lab_error_set_errno (error, err, "write a sort file in %s", s->dir);
   if (err == ENOSPC) {
      lab_error_prefix_nospace (error, s->dir);
   }
   return false;
}

/* run_write -- the chunk's keys in reference order into run->f, rewound for reading. */
static bool
run_write (lab_wt_sort_t *s, sort_run_t *run, bson_error_t *error)
{
   size_t i;

   for (i = 0; i < s->nrefs; i++) {
      uint32_t len = (uint32_t)s->refs[i].len;
      if (fwrite (&len, sizeof len, 1, run->f) != 1 ||
          fwrite (s->arena.data + s->refs[i].off, 1, len, run->f) != len) {
         return run_write_fail (s, errno, error);
      }
   }
   if (fflush (run->f) != 0) {
      return run_write_fail (s, errno, error);
   }
   rewind (run->f);
   return true;
}

/* spill_run -- sort the chunk and write it to a new unlinked file in dir; the chunk is emptied. */
static bool
spill_run (lab_wt_sort_t *s, bson_error_t *error)
{
   char *path = bson_strdup_printf ("%s/_tmp_index_build_XXXXXX", s->dir);
   sort_run_t *run;
   int fd;

   sort_chunk (s);
   s->runs = bson_realloc (s->runs, (s->nruns + 1) * sizeof *s->runs);
   run = &s->runs[s->nruns++];
   memset (run, 0, sizeof *run);
   fd = mkstemp (path);
   if (fd < 0) {
      lab_error_set_errno (error, errno, "create a sort file in %s for an index build", s->dir);
      bson_free (path);
      return false;
   }
   unlink (path);
   bson_free (path);
   if (!(run->f = fdopen (fd, "w+b"))) {
      lab_error_set_errno (error, errno, "open a sort file in %s", s->dir);
      close (fd);
      return false;
   }
   if (!run_write (s, run, error)) {
      return false;
   }
   lab_buf_reset (&s->arena);
   s->nrefs = 0;
   s->cp = 0;
   s->sorted = true;
   return true;
}

/* lab_wt_sort_add -- append to the arena, keeping the chunk's common prefix; spill when keys and
 * references reach the budget (or the arena its 32-bit offsets). */
bool
lab_wt_sort_add (lab_wt_sort_t *s, const void *key, size_t len, bson_error_t *error)
{
   key_ref_t *ref;
   size_t i;

   if (s->nrefs > 0 && s->arena.len + len > ARENA_MAX && !spill_run (s, error)) {
      return false;
   }
   if (s->nrefs == s->caprefs) {
      s->caprefs = s->caprefs ? s->caprefs * 2 : 4096;
      s->refs = bson_realloc (s->refs, s->caprefs * sizeof *s->refs);
   }
   ref = &s->refs[s->nrefs];
   ref->off = (uint32_t)s->arena.len;
   ref->len = (uint32_t)len;
   lab_buf_append (&s->arena, key, len);
   if (s->nrefs == 0) {
      s->cp = len;
   } else {
      const uint8_t *first = s->arena.data, *k = s->arena.data + ref->off;
      size_t cp = s->cp < len ? s->cp : len;
      for (i = 0; i < cp && first[i] == k[i]; i++) {
      }
      s->cp = i;
   }
   if (s->sorted && s->nrefs > 0) {
      s->sorted = key_ref_cmp (ref - 1, ref, s->arena.data) < 0;
   }
   s->nrefs++;
   s->nkeys++;
   if (s->arena.len + s->nrefs * sizeof *s->refs >= s->budget) {
      return spill_run (s, error);
   }
   return true;
}

/* run_next -- the run's next key into run->key, or run->done. */
static bool
run_next (sort_run_t *run, bson_error_t *error)
{
   uint32_t len;

   if (fread (&len, sizeof len, 1, run->f) != 1) {
      if (feof (run->f)) {
         run->done = true;
         return true;
      }
      lab_error_set_errno (error, errno, "read back a sort file of an index build");
      return false;
   }
   if (len > run->cap) {
      run->key = bson_realloc (run->key, len);
      run->cap = len;
   }
   if (fread (run->key, 1, len, run->f) != len) {
      lab_error_set_errno (error, errno ? errno : EIO, "read back a sort file of an index build");
      return false;
   }
   run->len = len;
   return true;
}

/* lab_wt_sort_finish -- in memory: sort; else the last chunk becomes a run too and the arena goes. */
bool
lab_wt_sort_finish (lab_wt_sort_t *s, bson_error_t *error)
{
   size_t i;

   if (s->nruns == 0) {
      sort_chunk (s);
      return true;
   }
   if (s->nrefs > 0 && !spill_run (s, error)) {
      return false;
   }
   lab_buf_destroy (&s->arena);
   bson_free (s->refs);
   s->refs = NULL;
   s->nrefs = s->caprefs = 0;
   for (i = 0; i < s->nruns; i++) {
      if (!run_next (&s->runs[i], error)) {
         return false;
      }
   }
   return true;
}

/* merge_next -- advance the run returned last, then return the least current key of all runs. */
static int
merge_next (lab_wt_sort_t *s, const uint8_t **key, size_t *len, bson_error_t *error)
{
   sort_run_t *min = NULL;
   size_t i;

   if (s->last && !run_next (s->last, error)) {
      return -1;
   }
   for (i = 0; i < s->nruns; i++) {
      sort_run_t *r = &s->runs[i];
      if (!r->done && (!min || lab_wt_sort_cmp (r->key, r->len, min->key, min->len) < 0)) {
         min = r;
      }
   }
   s->last = min;
   if (!min) {
      return 0;
   }
   *key = min->key;
   *len = min->len;
   return 1;
}

/* lab_wt_sort_next -- from memory in reference order, or from the merge of the runs. */
int
lab_wt_sort_next (lab_wt_sort_t *s, const uint8_t **key, size_t *len, bson_error_t *error)
{
   if (s->nruns > 0) {
      return merge_next (s, key, len, error);
   }
   if (s->pos == s->nrefs) {
      return 0;
   }
   *key = s->arena.data + s->refs[s->pos].off;
   *len = s->refs[s->pos].len;
   s->pos++;
   return 1;
}

/* lab_wt_sort_nkeys -- keys added. */
uint64_t
lab_wt_sort_nkeys (const lab_wt_sort_t *s)
{
   return s->nkeys;
}

/* lab_wt_sort_nruns -- runs spilled. */
size_t
lab_wt_sort_nruns (const lab_wt_sort_t *s)
{
   return s->nruns;
}
