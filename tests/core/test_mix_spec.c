/*
 * test_mix_spec.c -- unit tests of the one grammar of a mix spec and a workload list (core/mix_spec.h):
 * every spec of mix_specs.txt judged as the list says (the same list mix_agree.sh gives both tools), the
 * weights and the canonical text of good specs, the item and its position in a refusal, the names table,
 * and the workload list.
 */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/mix_spec.h"
#include "tests/testutil.h"

/* test_list_file -- every line of mix_specs.txt: a good spec parses, a bad one is a usage error holding the
 * list's words. */
static void
test_list_file (void **state)
{
   FILE *f = fopen (LAB_MIX_SPECS, "r");
   char line[512];
   int n = 0;

   (void)state;
   assert_non_null (f);
   while (fgets (line, sizeof line, f)) {
      char *want = strtok (line, " \n"), *spec = strtok (NULL, " \n"), *words = strtok (NULL, "\n");
      double w[LAB_MIX_SPEC_NKINDS];
      bson_error_t e;
      bool ok;

      if (!want || (strcmp (want, "good") != 0 && strcmp (want, "bad") != 0)) {
         continue;
      }
      assert_non_null (spec);
      if (strcmp (spec, "-") == 0) {
         spec = "";
      }
      memset (&e, 0, sizeof e);
      ok = lab_mix_spec_parse ("--mix", spec, w, &e);
      if (ok != (strcmp (want, "good") == 0)) {
         fail_msg ("'%s': %s, the list says %s (%s)", spec, ok ? "accepted" : "refused", want, e.message);
      }
      if (!ok) {
         assert_int_equal (e.domain, LAB_ERROR_USAGE);
         if (!words || !strstr (e.message, words)) {
            fail_msg ("'%s': '%s' lacks '%s'", spec, e.message, words ? words : "(no words)");
         }
      }
      n++;
   }
   fclose (f);
   assert_true (n >= 20);
}

/* test_weights -- weights by kind, aggregate 0, the canonical text in kind order and round-tripping. */
static void
test_weights (void **state)
{
   double w[LAB_MIX_SPEC_NKINDS], back[LAB_MIX_SPEC_NKINDS];
   char text[256];
   bson_error_t e;

   (void)state;
   assert_true (lab_mix_spec_parse ("--mix", "update=5,load=0.5,row=60,range=0.1,append=1000000", w, &e));
   assert_true (w[LAB_MIX_SPEC_LOAD] == 0.5 && w[LAB_MIX_SPEC_ROW] == 60 && w[LAB_MIX_SPEC_AGGREGATE] == 0);
   assert_true (w[LAB_MIX_SPEC_RANGE] == 0.1 && w[LAB_MIX_SPEC_APPEND] == 1e6 && w[LAB_MIX_SPEC_UPDATE] == 5);
   lab_mix_spec_text (w, text, sizeof text);
   assert_string_equal (text, "load=0.5,row=60,range=0.1,append=1000000,update=5");
   assert_true (lab_mix_spec_parse ("--mix", text, back, &e));
   assert_memory_equal (w, back, sizeof w);
   assert_true (lab_mix_spec_parse ("--mix", "row=1,append=0", w, &e));
   lab_mix_spec_text (w, text, sizeof text);
   assert_string_equal (text, "row=1");
   /* a refusal leaves weight[] as it was, names the option and the whole spec */
   assert_false (lab_mix_spec_parse ("--mix", "row=1,row=2", w, &e));
   assert_true (w[LAB_MIX_SPEC_ROW] == 1);
   assert_non_null (strstr (e.message, "--mix 'row=1,row=2': item 2 'row=2': 'row' is given twice"));
}

/* test_names -- the one table: each kind's name and back, unknown names and prefixes -1. */
static void
test_names (void **state)
{
   int k;

   (void)state;
   for (k = 0; k < LAB_MIX_SPEC_NKINDS; k++) {
      const char *name = lab_mix_spec_name (k);
      assert_int_equal (lab_mix_spec_kind_of (name, strlen (name)), k);
   }
   assert_string_equal (lab_mix_spec_name (LAB_MIX_SPEC_AGGREGATE), "aggregate");
   assert_string_equal (lab_mix_spec_name (LAB_MIX_SPEC_NKINDS), "?");
   assert_int_equal (lab_mix_spec_kind_of ("rows", 4), -1);
   assert_int_equal (lab_mix_spec_kind_of ("ro", 2), -1);
}

/* test_list -- --workload's list: names, all, and refusals naming the item and its position. */
static void
test_list (void **state)
{
   unsigned set = 0;
   bson_error_t e;

   (void)state;
   assert_true (lab_mix_spec_list_parse ("--workload", "all,append", &set, &e));
   assert_int_equal (set, LAB_MIX_SPEC_READS | (1u << LAB_MIX_SPEC_APPEND));
   assert_false (lab_mix_spec_list_parse ("--workload", "row,rows", &set, &e));
   assert_non_null (strstr (e.message, "--workload 'row,rows': item 2: unknown workload 'rows'"));
   assert_false (lab_mix_spec_list_parse ("--workload", "row,,load", &set, &e));
   assert_non_null (strstr (e.message, "item 2 is empty"));
   assert_false (lab_mix_spec_list_parse ("--workload", "all,load", &set, &e));
   assert_non_null (strstr (e.message, "item 2: 'load' given twice"));
   assert_false (lab_mix_spec_list_parse ("--workload", "", &set, &e));
   assert_non_null (strstr (e.message, "empty"));
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_list_file),
      cmocka_unit_test (test_weights),
      cmocka_unit_test (test_names),
      cmocka_unit_test (test_list),
   };

   return lab_test_run_group ("mix_spec", tests, NULL, NULL);
}
