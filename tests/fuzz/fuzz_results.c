/*
 * fuzz_results.c -- libFuzzer harness of the results-file reader behind layout-report
 * (lab_cmp_results_load_json) and of the Markdown report rendered from what it accepts (any JSON, any
 * types, any nesting depth). An accepted file is rendered alone, against itself as the baseline, with a
 * production point, and as the --json sweep summary.
 */
#include "compare/cmp.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>
#include <string.h>

/* LLVMFuzzerTestOneInput -- load, then render every way layout-report does. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   lab_cmp_results_t r;
   bson_error_t error;

   lab_fuzz_setup ();
   memset (&r, 0, sizeof r);
   if (lab_cmp_results_load_json ((const char *)data, len, "fuzz.json", &r, &error)) {
      lab_cmp_render_opts_t o = { 0 };
      lab_cmp_production_t prod = { .ratio = 0.25 };
      char *md = lab_cmp_render_md (&r, &o);
      bson_t js = BSON_INITIALIZER;

      bson_free (md);
      o.baseline = &r;
      o.production = &prod;
      o.charts_note = "no gnuplot";
      md = lab_cmp_render_md (&r, &o);
      bson_free (md);
      lab_cmp_sweep_json_append (&r, &prod, &js);
      bson_destroy (&js);
   }
   lab_cmp_results_cleanup (&r);
   return 0;
}
