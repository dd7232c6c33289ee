/*
 * fuzz_reference.c -- libFuzzer harness of the --reference loader behind layout-report
 * (lab_cmp_reference_load_json: a published experiment's figures, datasets/reference/README.md) and of
 * the section "Beside <the reference>" rendered from what it accepts. An accepted file is rendered beside
 * four committed results files (tests/compare/data/, read once): a --direct-io run, a cache sweep (the
 * point in the reference's regime is chosen), a run in the "fits in memory" regime, and a run of three
 * layouts; the whole report is rendered once with it too, as layout-report does.
 */
#include "compare/cmp.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LAB_FUZZ_DATA_DIR
#error "LAB_FUZZ_DATA_DIR (tests/compare/data) must be defined by tests/fuzz/CMakeLists.txt"
#endif

static const char *const results_files[] = { "run.json", "sweep.json", "buffered-run.json", "run3.json" };
#define N_RESULTS (sizeof results_files / sizeof results_files[0])

static lab_cmp_results_t results[N_RESULTS];

/* load_results -- once per process: the committed results files; a file that does not load is a broken
 * harness, not a finding, so it aborts. */
static void
load_results (void)
{
   static bool loaded;
   bson_error_t error;
   size_t i;

   if (loaded) {
      return;
   }
   for (i = 0; i < N_RESULTS; i++) {
      char *path = bson_strdup_printf ("%s/%s", LAB_FUZZ_DATA_DIR, results_files[i]);
      if (!lab_cmp_results_load_file (path, &results[i], &error)) {
         fprintf (stderr, "fuzz_reference: cannot load %s: %s\n", path, error.message);
         abort ();
      }
      bson_free (path);
   }
   loaded = true;
}

/* LLVMFuzzerTestOneInput -- load the input as a reference file; render what is accepted. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   lab_cmp_reference_t ref;
   bson_error_t error;
   size_t i;

   lab_fuzz_setup ();
   load_results ();
   if (lab_cmp_reference_load_json ((const char *)data, len, "fuzz.json", &ref, &error)) {
      lab_cmp_render_opts_t o = { 0 };
      char *md;

      for (i = 0; i < N_RESULTS; i++) {
         bson_string_t *s = bson_string_new (NULL);
         lab_cmp_render_reference (s, &results[i], &ref);
         bson_string_free (s, true);
      }
      o.reference = &ref;
      o.charts_note = "no gnuplot";
      md = lab_cmp_render_md (&results[1], &o);
      bson_free (md);
   }
   lab_cmp_reference_cleanup (&ref);
   return 0;
}
