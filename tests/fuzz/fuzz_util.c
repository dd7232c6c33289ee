/*
 * fuzz_util.c -- shared helpers of the libFuzzer harnesses (see fuzz_util.h).
 */
#include "tests/fuzz/fuzz_util.h"

#include "core/log.h"

#include <bson/bson.h>
#include <mongoc/mongoc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

/* silent -- a log sink that drops everything (harnesses run millions of inputs). */
static void
silent (lab_log_level_t level, const char *msg, void *ctx)
{
   (void)level;
   (void)msg;
   (void)ctx;
}

/* mongoc_silent -- the same for libmongoc's and libbson's own log. */
static void
mongoc_silent (mongoc_log_level_t level, const char *domain, const char *message, void *ud)
{
   (void)level;
   (void)domain;
   (void)message;
   (void)ud;
}

/* cleanup_dir -- remove the temporary directory at exit. */
static void
cleanup_dir (void)
{
   char cmd[300];
   if (dir[0]) {
      snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
      if (system (cmd) != 0) {
         /* nothing to do: a leftover in /tmp is harmless */
      }
   }
}

/* lab_fuzz_setup -- see fuzz_util.h. */
void
lab_fuzz_setup (void)
{
   if (dir[0]) {
      return;
   }
   lab_log_sink_set (silent, NULL);
   mongoc_log_set_handler (mongoc_silent, NULL);
   mongoc_init ();
   snprintf (dir, sizeof dir, "%s/labfuzz-XXXXXX", getenv ("TMPDIR") ? getenv ("TMPDIR") : "/tmp");
   if (!mkdtemp (dir)) {
      perror ("mkdtemp");
      abort ();
   }
   atexit (cleanup_dir);
}

/* lab_fuzz_dir -- see fuzz_util.h. */
const char *
lab_fuzz_dir (void)
{
   lab_fuzz_setup ();
   return dir;
}

/* lab_fuzz_write -- see fuzz_util.h. */
const char *
lab_fuzz_write (const char *name, const void *data, size_t len)
{
   static char paths[8][320];
   static char names[8][64];
   size_t slot = 0;
   FILE *f;

   lab_fuzz_setup ();
   while (slot < 7 && names[slot][0] && strcmp (names[slot], name) != 0) {
      slot++;
   }
   snprintf (names[slot], sizeof names[slot], "%s", name);
   snprintf (paths[slot], sizeof paths[slot], "%s/%s", dir, name);
   f = fopen (paths[slot], "wb");
   if (!f || (len && fwrite (data, 1, len, f) != len) || fclose (f) != 0) {
      perror (paths[slot]);
      abort ();
   }
   return paths[slot];
}

/* lab_fuzz_split -- see fuzz_util.h. */
size_t
lab_fuzz_split (const uint8_t *data, size_t len, char **out, size_t max, char **store)
{
   char *s = malloc (len + 1);
   size_t n = 0, start = 0;

   memcpy (s, data, len);
   s[len] = '\0';
   *store = s;
   for (size_t i = 0; i <= len && n < max; i++) {
      if (i == len || s[i] == '\0') {
         out[n++] = s + start;
         start = i + 1;
      }
   }
   return n;
}

/* lab_fuzz_u8 -- see fuzz_util.h. */
uint8_t
lab_fuzz_u8 (lab_fuzz_bytes_t *b)
{
   if (b->n == 0) {
      return 0;
   }
   b->n--;
   return *b->p++;
}

/* lab_fuzz_u32 -- see fuzz_util.h. */
uint32_t
lab_fuzz_u32 (lab_fuzz_bytes_t *b)
{
   uint32_t v = 0;
   for (int i = 0; i < 4; i++) {
      v = (v << 8) | lab_fuzz_u8 (b);
   }
   return v;
}

/* lab_fuzz_u64 -- see fuzz_util.h. */
uint64_t
lab_fuzz_u64 (lab_fuzz_bytes_t *b)
{
   return ((uint64_t)lab_fuzz_u32 (b) << 32) | lab_fuzz_u32 (b);
}

/* lab_fuzz_take -- see fuzz_util.h. */
const uint8_t *
lab_fuzz_take (lab_fuzz_bytes_t *b, size_t want, size_t *got)
{
   const uint8_t *p = b->p;
   *got = want < b->n ? want : b->n;
   b->p += *got;
   b->n -= *got;
   return p;
}
