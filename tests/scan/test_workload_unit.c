/*
 * test_workload_unit.c -- the pure parts of the workloads (scan/workloads/workload.c,
 * scan/workloads/wl_plan.c): --workload parsing, the row view of a folded document, the aggregate's groups,
 * the commands a MongoDB server is sent for each workload and layout, the index each workload needs, and the
 * planner table: every plan lab_scan_wl_plan writes is the one docs/mongodb-compat.md §19 lists.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "scan/measure/measure.h"
#include "scan/workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
test_parse (void **state)
{
   bson_error_t e;
   unsigned set = 0;

   (void)state;
   assert_true (lab_scan_wl_parse ("load,row,range,aggregate", &set, &e));
   assert_int_equal (set, 15);
   assert_true (lab_scan_wl_parse ("all", &set, &e));
   assert_int_equal (set, 15);
   assert_true (lab_scan_wl_parse ("range", &set, &e));
   assert_int_equal (set, 1u << LAB_WL_RANGE);
   /* the writes are asked for by name: "all" stays the four reads */
   assert_true (lab_scan_wl_parse ("append,update,load", &set, &e));
   assert_int_equal (set, (1u << LAB_WL_APPEND) | (1u << LAB_WL_UPDATE) | 1u);
   assert_true (lab_scan_wl_parse ("all,append", &set, &e));
   assert_int_equal (set, 15u | (1u << LAB_WL_APPEND));
   assert_true (lab_scan_wl_is_write (LAB_WL_UPDATE) && !lab_scan_wl_is_write (LAB_WL_AGGREGATE));
   assert_false (lab_scan_wl_parse ("row,rows", &set, &e));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (e.message, "unknown workload 'rows'"));
   assert_false (lab_scan_wl_parse ("row,row", &set, &e));
   assert_non_null (strstr (e.message, "'row' given twice"));
   assert_false (lab_scan_wl_parse (",", &set, &e));
   assert_non_null (strstr (e.message, "empty"));
}

/* the row view: the element's field first, else the hoisted top-level one */
static void
test_row_field (void **state)
{
   bson_t *doc =
      bson_new_from_json ((const uint8_t *)"{\"bill_id\": 7, \"dept\": \"ICU\", \"amount\": 1.5}", -1, NULL);
   bson_t *e1 = bson_new_from_json ((const uint8_t *)"{\"line_no\": 1, \"amount\": 2.5}", -1, NULL);
   bson_t *e2 = bson_new_from_json ((const uint8_t *)"{\"line_no\": 2, \"dept\": \"ER\"}", -1, NULL);
   bson_iter_t it;
   const bson_value_t *v;

   (void)state;
   v = lab_scan_wl_row_field (doc, e1, "amount", &it);
   assert_true (v && v->value_type == BSON_TYPE_DOUBLE && v->value.v_double == 2.5);
   v = lab_scan_wl_row_field (doc, e1, "dept", &it);
   assert_true (v && v->value_type == BSON_TYPE_UTF8 && strcmp (v->value.v_utf8.str, "ICU") == 0);
   v = lab_scan_wl_row_field (doc, e2, "dept", &it);
   assert_true (v && strcmp (v->value.v_utf8.str, "ER") == 0);
   assert_null (lab_scan_wl_row_field (doc, e2, "qty", &it));
   v = lab_scan_wl_row_field (doc, NULL, "amount", &it);
   assert_true (v && v->value.v_double == 1.5);
   bson_destroy (doc);
   bson_destroy (e1);
   bson_destroy (e2);
}

static void
test_groups (void **state)
{
   lab_scan_wl_acc_t a = { 0 }, b = { 0 }, c = { 0 };
   char why[200];

   (void)state;
   lab_scan_wl_group_add (&a, "\"ICU\"", 1, 0.1);
   lab_scan_wl_group_add (&a, "\"ER\"", 1, 0.2);
   lab_scan_wl_group_add (&a, "\"ICU\"", 1, 0.2);
   /* the same rows summed in another order, merged from two workers */
   lab_scan_wl_group_add (&b, "\"ICU\"", 1, 0.2);
   lab_scan_wl_group_add (&c, "\"ER\"", 1, 0.2);
   lab_scan_wl_group_add (&c, "\"ICU\"", 1, 0.1);
   lab_scan_wl_acc_merge (&b, &c);
   lab_scan_wl_groups_sort (&a);
   lab_scan_wl_groups_sort (&b);
   assert_int_equal (a.ngroups, 2);
   assert_string_equal (a.groups[0].name, "\"ER\"");
   assert_true (lab_scan_wl_groups_equal (&a, &b, why, sizeof why));
   lab_scan_wl_group_add (&b, "\"ER\"", 0, 0.001);
   assert_false (lab_scan_wl_groups_equal (&a, &b, why, sizeof why));
   assert_non_null (strstr (why, "group \"ER\": total"));
   lab_scan_wl_group_add (&b, "\"ER\"", 1, -0.001);
   assert_false (lab_scan_wl_groups_equal (&a, &b, why, sizeof why));
   assert_non_null (strstr (why, "rows"));
   lab_scan_wl_acc_cleanup (&a);
   lab_scan_wl_acc_cleanup (&b);
   lab_scan_wl_acc_cleanup (&c);
}

/* the row hash: the same row in any layout hashes the same, another row not */
static void
test_row_hash (void **state)
{
   bson_value_t k = { .value_type = BSON_TYPE_INT64 }, k32 = { .value_type = BSON_TYPE_INT32 },
                id = { .value_type = BSON_TYPE_INT32 };

   (void)state;
   k.value.v_int64 = 7;
   k32.value.v_int32 = 7;
   id.value.v_int32 = 1;
   assert_true (lab_scan_wl_id_hash (&k, &id) == lab_scan_wl_id_hash (&k32, &id));
   id.value.v_int32 = 2;
   assert_true (
      lab_scan_wl_id_hash (&k, &id) !=
      lab_scan_wl_id_hash (&k32, &(bson_value_t){ .value_type = BSON_TYPE_INT32, .value.v_int32 = 1 }));
}

/* rh_of -- lab_scan_rowhash of doc (elem: its array's element number `elem`, -1: doc is the row). */
static uint64_t
rh_of (const bson_t *doc, int elem)
{
   lab_scan_rowhash_t rh = { "bill_id", "lines", NULL, NULL };
   bson_iter_t it, child;
   uint64_t h = 0;

   lab_scan_rowhash_doc (&rh, doc);
   if (elem < 0) {
      h = lab_scan_rowhash (&rh, NULL);
   } else if (bson_iter_init_find (&it, doc, "lines") && bson_iter_recurse (&it, &child)) {
      for (int i = 0; i <= elem && bson_iter_next (&child); i++) {
         if (i == elem) {
            const uint8_t *data;
            uint32_t len;
            bson_t e;
            bson_iter_document (&child, &len, &data);
            assert_true (bson_init_static (&e, data, len));
            h = lab_scan_rowhash (&rh, &e);
         }
      }
   }
   lab_scan_rowhash_cleanup (&rh);
   return h;
}

/* the content digest: the detail row, its folded element with the hoisted fields merged back (the fold's
 * own fields left out) and its clustered copy hash the same, in any field order; a changed value does not */
static void
test_row_content_hash (void **state)
{
   bson_t *row = BCON_NEW ("_id", BCON_INT32 (11), "bill_id", BCON_INT64 (7), "cust", "ann", "line",
                           BCON_INT32 (1), "amount", BCON_DOUBLE (2.5));
   bson_t *reordered = BCON_NEW ("amount", BCON_DOUBLE (2.5), "line", BCON_INT32 (1), "bill_id",
                                 BCON_INT64 (7), "_id", BCON_INT32 (11), "cust", "ann");
   bson_t *changed = BCON_NEW ("_id", BCON_INT32 (11), "bill_id", BCON_INT64 (7), "cust", "ann", "line",
                               BCON_INT32 (1), "amount", BCON_DOUBLE (2.75));
   bson_t *folded =
      BCON_NEW ("_id", "n:7#0", "bill_id", BCON_INT64 (7), "cust", "ann", "row_count", BCON_INT32 (2), "part",
                BCON_INT32 (0), "parts", BCON_INT32 (1), "lines", "[", "{", "_id", BCON_INT32 (10), "line",
                BCON_INT32 (0), "amount", BCON_DOUBLE (1), "}", "{", "_id", BCON_INT32 (11), "line",
                BCON_INT32 (1), "amount", BCON_DOUBLE (2.5), "}", "]");
   bson_t *clustered =
      BCON_NEW ("_id", "{", "bill_id", BCON_INT64 (7), "id", BCON_INT32 (11), "}", "bill_id", BCON_INT64 (7),
                "cust", "ann", "line", BCON_INT32 (1), "amount", BCON_DOUBLE (2.5));
   uint64_t h = rh_of (row, -1);

   (void)state;
   assert_true (h != 0);
   assert_true (h == rh_of (reordered, -1));
   assert_true (h == rh_of (folded, 1));
   assert_true (h == rh_of (clustered, -1));
   assert_true (h != rh_of (changed, -1));
   assert_true (h != rh_of (folded, 0));
   bson_destroy (row);
   bson_destroy (reordered);
   bson_destroy (changed);
   bson_destroy (folded);
   bson_destroy (clustered);
}

/* fixture: options and three drawn rows */
typedef struct {
   lab_scan_opts_t o;
   lab_scan_wl_inputs_t in;
   lab_scan_wl_row_t rows[3];
   int64_t win[1];
   lab_results_layout_t rows_l, folded_l;
} fx_t;

static void
fx_init (fx_t *f)
{
   int i;

   memset (f, 0, sizeof *f);
   lab_scan_opts_init (&f->o);
   for (i = 0; i < 3; i++) {
      f->rows[i].key.value_type = BSON_TYPE_INT64;
      f->rows[i].key.value.v_int64 = 100 + i;
      f->rows[i].line.value_type = BSON_TYPE_INT32;
      f->rows[i].line.value.v_int32 = 1 + i;
   }
   f->win[0] = 3600000;
   f->in.rows = f->rows;
   f->in.nrows = 3;
   f->in.win_lo = f->win;
   f->in.nwin = 1;
   f->rows_l = (lab_results_layout_t){ .name = "detail", .collection = "bill_detail", .kind = "rows" };
   f->folded_l = (lab_results_layout_t){ .name = "folded", .collection = "detail_coll", .kind = "folded" };
   /* what the plan makes for each (lab_scan_layouts_resolve): the tools ask the descriptor */
   lab_layout_init (&f->rows_l.desc, "detail", "bill_detail", "rows");
   lab_layout_init (&f->folded_l.desc, "folded", "detail_coll", "folded");
}

/* command_json -- the command of item i of `kind` on layout l as relaxed JSON: "find <filter> <opts>" or
 * "aggregate <pipeline> <opts>" (caller frees). */
static char *
command_json (fx_t *f, lab_scan_wl_kind_t kind, const lab_results_layout_t *l, int64_t i)
{
   lab_scan_wl_layout_t wl;
   bson_t filter, opts;
   bool pipeline;
   char *a, *b, *out;

   memset (&wl, 0, sizeof wl);
   wl.kind = kind;
   wl.mode = LAB_WL_MODE_SERVER;
   wl.opts = &f->o;
   wl.layout = l;
   wl.array = strcmp (l->kind, "rows") != 0;
   wl.in = &f->in;
   lab_scan_wl_server_command (&wl, i, &filter, &opts, &pipeline);
   a = bson_as_relaxed_extended_json (&filter, NULL);
   b = bson_as_relaxed_extended_json (&opts, NULL);
   out = bson_strdup_printf ("%s %s %s", pipeline ? "aggregate" : "find", a, b);
   bson_free (a);
   bson_free (b);
   bson_destroy (&filter);
   bson_destroy (&opts);
   return out;
}

#define EXPECT_CMD(kind, layout, i, want)                                                                    \
   do {                                                                                                      \
      char *got_ = command_json (&f, kind, layout, i);                                                       \
      if (strcmp (got_, want) != 0) {                                                                        \
         fprintf (stderr, "got:  %s\nwant: %s\n", got_, want);                                               \
      }                                                                                                      \
      assert_string_equal (got_, want);                                                                      \
      bson_free (got_);                                                                                      \
   } while (0)

static void
test_server_commands (void **state)
{
   fx_t f;

   (void)state;
   fx_init (&f);
   EXPECT_CMD (
      LAB_WL_ROW, &f.rows_l, 1,
      "find { \"bill_id\" : 101, \"line_no\" : 2 } { \"hint\" : { \"bill_id\" : 1, \"line_no\" : 1 } }");
   EXPECT_CMD (LAB_WL_ROW, &f.folded_l, 0,
               "find { \"bill_id\" : 100, \"details.line_no\" : 1 } { \"projection\" : { \"bill_id\" : 1, "
               "\"details\" : { \"$elemMatch\" : { \"line_no\" : 1 } } }, \"hint\" : { \"bill_id\" : 1 } }");
   EXPECT_CMD (LAB_WL_RANGE, &f.rows_l, 0,
               "find { \"charge_time\" : { \"$gte\" : { \"$date\" : \"1970-01-01T01:00:00Z\" }, \"$lt\" : { "
               "\"$date\" : \"1970-01-01T02:00:00Z\" } } } { \"hint\" : { \"charge_time\" : 1 } }");
   EXPECT_CMD (
      LAB_WL_RANGE, &f.folded_l, 0,
      "aggregate { \"0\" : { \"$match\" : { \"details\" : { \"$elemMatch\" : { \"charge_time\" : { "
      "\"$gte\" : { \"$date\" : \"1970-01-01T01:00:00Z\" }, \"$lt\" : { \"$date\" : "
      "\"1970-01-01T02:00:00Z\" } } } } } }, \"1\" : { \"$project\" : { \"bill_id\" : 1, \"details\" : "
      "{ \"$filter\" : { \"input\" : \"$details\", \"cond\" : { \"$and\" : [ { \"$gte\" : [ "
      "\"$$this.charge_time\", { \"$date\" : \"1970-01-01T01:00:00Z\" } ] }, { \"$lt\" : [ "
      "\"$$this.charge_time\", { \"$date\" : \"1970-01-01T02:00:00Z\" } ] } ] } } } } } } { \"hint\" : "
      "{ \"details.charge_time\" : 1 } }");
   EXPECT_CMD (
      LAB_WL_AGGREGATE, &f.rows_l, 0,
      "aggregate { \"0\" : { \"$group\" : { \"_id\" : \"$dept\", \"total\" : { \"$sum\" : \"$amount\" }, "
      "\"n\" : { \"$sum\" : 1 } } } } { \"allowDiskUse\" : true }");
   EXPECT_CMD (
      LAB_WL_AGGREGATE, &f.folded_l, 0,
      "aggregate { \"0\" : { \"$unwind\" : \"$details\" }, \"1\" : { \"$group\" : { \"_id\" : { "
      "\"$ifNull\" : [ \"$details.dept\", \"$dept\" ] }, \"total\" : { \"$sum\" : { \"$ifNull\" : [ "
      "\"$details.amount\", \"$amount\" ] } }, \"n\" : { \"$sum\" : 1 } } } } { \"allowDiskUse\" : true }");
   /* batches: an $or of the pairs; on the folded layout $unwind, then the pairs */
   f.o.wl.row_batch = 2;
   EXPECT_CMD (
      LAB_WL_ROW, &f.rows_l, 0,
      "find { \"$or\" : [ { \"bill_id\" : 100, \"line_no\" : 1 }, { \"bill_id\" : 101, \"line_no\" : 2 } ] "
      "} { \"hint\" : { \"bill_id\" : 1, \"line_no\" : 1 } }");
   EXPECT_CMD (
      LAB_WL_ROW, &f.folded_l, 0,
      "aggregate { \"0\" : { \"$match\" : { \"bill_id\" : { \"$in\" : [ 100, 101 ] } } }, \"1\" : { "
      "\"$unwind\" : \"$details\" }, \"2\" : { \"$match\" : { \"$or\" : [ { \"bill_id\" : 100, "
      "\"details.line_no\" : 1 }, { \"bill_id\" : 101, \"details.line_no\" : 2 } ] } } } { \"hint\" : { "
      "\"bill_id\" : 1 } }");
   /* the last batch holds what is left: one pair, a find */
   EXPECT_CMD (LAB_WL_ROW, &f.folded_l, 1,
               "find { \"bill_id\" : 102, \"details.line_no\" : 3 } { \"projection\" : { \"bill_id\" : 1, "
               "\"details\" : { \"$elemMatch\" : { \"line_no\" : 3 } } }, \"hint\" : { \"bill_id\" : 1 } }");
}

static void
test_indexes (void **state)
{
   lab_scan_opts_t o;
   lab_store_index_spec_t s;
   char names[LAB_STORE_INDEX_MAX_FIELDS][256];

   (void)state;
   lab_scan_opts_init (&o);
   assert_true (lab_scan_wl_index (&o, LAB_WL_ROW, false, &s, names));
   assert_int_equal (s.n, 2);
   assert_string_equal (s.fields[0], "bill_id");
   assert_string_equal (s.fields[1], "line_no");
   assert_true (lab_scan_wl_index (&o, LAB_WL_ROW, true, &s, names));
   assert_int_equal (s.n, 1);
   assert_true (lab_scan_wl_index (&o, LAB_WL_RANGE, true, &s, names));
   assert_string_equal (s.fields[0], "details.charge_time");
   assert_true (lab_scan_wl_index (&o, LAB_WL_RANGE, false, &s, names));
   assert_string_equal (s.fields[0], "charge_time");
   assert_false (lab_scan_wl_index (&o, LAB_WL_AGGREGATE, true, &s, names));
}

/* every plan the results cite is a row of the planner table in docs/mongodb-compat.md §19 */
static void
test_planner_table (void **state)
{
   const char *dir = getenv ("LAB_DOCS_DIR");
   char path[1024], *doc, line[4096];
   lab_scan_opts_t o;
   FILE *fp;
   size_t len = 0, cap = 1 << 20;
   int k, a, b;

   (void)state;
   assert_non_null (dir);
   bson_snprintf (path, sizeof path, "%s/mongodb-compat.md", dir);
   fp = fopen (path, "r");
   assert_non_null (fp);
   doc = bson_malloc0 (cap);
   while (fgets (line, sizeof line, fp)) {
      size_t n = strlen (line);
      if (len + n + 1 < cap) {
         memcpy (doc + len, line, n + 1);
         len += n;
      }
   }
   fclose (fp);
   assert_non_null (strstr (doc, "## 19. The workloads' plans"));
   lab_scan_opts_init (&o);
   for (k = LAB_WL_LOAD; k < LAB_WL_NKINDS; k++) {
      for (a = 0; a < 2; a++) {
         for (b = 1; b <= 2; b++) {
            char plan[700], cell[800];
            lab_scan_wl_plan (&o, (lab_scan_wl_kind_t)k, a == 1, b, plan, sizeof plan);
            if (k == LAB_WL_LOAD && a == 1 && b == 2) {
               continue;
            }
            bson_snprintf (cell, sizeof cell, "| `%s` |", plan);
            if (!strstr (doc, cell)) {
               fprintf (stderr, "planner table lacks %s (%s, %s)\n", cell, lab_scan_wl_name (k),
                        a ? "folded" : "rows");
            }
            assert_non_null (strstr (doc, cell));
         }
      }
   }
   bson_free (doc);
}

/* --decode: objects builds one heap node per value, nested ones too, and frees them; none does nothing */
static void
test_decode (void **state)
{
   bson_t *doc =
      bson_new_from_json ((const uint8_t *)"{\"a\": 1, \"b\": {\"c\": \"x\", \"d\": [1, 2.5]}}", -1, NULL);

   (void)state;
   assert_int_equal (lab_scan_decode (doc, LAB_DECODE_NONE), 0);
   assert_int_equal (lab_scan_decode (doc, LAB_DECODE_OBJECTS), 6);
   assert_true (lab_scan_decode (doc, LAB_DECODE_FIELDS) > 0);
   assert_string_equal (lab_scan_decode_names ()[LAB_DECODE_OBJECTS], "objects");
   bson_destroy (doc);
}

/* test_writes_group -- writes grouped by master, a master's writes in their draw order, groups[] marking
 * each master's first write (one master, one worker). */
static void
test_writes_group (void **state)
{
   static const int32_t keys[] = { 3, 1, 3, 2, 1, 3 };
   lab_scan_wl_writes_t ws;
   int64_t i;
   static const int32_t want_key[] = { 1, 1, 2, 3, 3, 3 }, want_line[] = { 1, 4, 3, 0, 2, 5 };

   (void)state;
   memset (&ws, 0, sizeof ws);
   ws.n = 6;
   ws.w = bson_malloc0 (6 * sizeof *ws.w);
   for (i = 0; i < 6; i++) {
      ws.w[i].key.value_type = ws.w[i].line.value_type = BSON_TYPE_INT32;
      ws.w[i].key.value.v_int32 = keys[i];
      ws.w[i].line.value.v_int32 = (int32_t)i; /* the draw position */
   }
   lab_scan_wl_writes_group (&ws);
   for (i = 0; i < 6; i++) {
      assert_int_equal (ws.w[i].key.value.v_int32, want_key[i]);
      assert_int_equal (ws.w[i].line.value.v_int32, want_line[i]);
   }
   assert_int_equal (ws.ngroups, 3);
   assert_int_equal (ws.group[0], 0);
   assert_int_equal (ws.group[1], 2);
   assert_int_equal (ws.group[2], 3);
   assert_int_equal (ws.group[3], 6);
   lab_scan_wl_writes_cleanup (&ws);
}

/* test_point_plan -- which workloads run at a point, decided once (scan/point.c): the single point as
 * asked; a sweep's other points without the writes (they change what the other points read) but with the
 * load; the reference point with --reference-runs and the writes; the mix never in a sweep. */
static void
test_point_plan (void **state)
{
   lab_scan_opts_t o;
   lab_scan_point_t pt;

   (void)state;
   lab_scan_opts_init (&o);
   o.runs = 3;
   o.reference_runs = 5;
   o.wl.set = (1u << LAB_WL_LOAD) | (1u << LAB_WL_ROW) | (1u << LAB_WL_APPEND);
   o.wl.mix_weight[LAB_WL_ROW] = 1;
   lab_scan_point_plan (&o, false, true, &pt);
   assert_true (pt.load && pt.workloads && pt.load_after_writes && pt.mix && !pt.load_random);
   assert_int_equal (pt.runs, 3);
   assert_int_equal (pt.set, o.wl.set);
   lab_scan_point_plan (&o, true, false, &pt);
   assert_true (pt.load && pt.workloads && !pt.load_after_writes && !pt.mix);
   assert_int_equal (pt.runs, 3);
   assert_int_equal (pt.set, (1u << LAB_WL_LOAD) | (1u << LAB_WL_ROW));
   lab_scan_point_plan (&o, true, true, &pt);
   assert_true (pt.load_after_writes && !pt.mix);
   assert_int_equal (pt.runs, 5);
   assert_int_equal (pt.set, o.wl.set);
   /* the load alone: no "workloads" array; without the load: no load runs; writes alone at another point:
    * nothing besides the load */
   o.wl.set = 1u << LAB_WL_LOAD;
   lab_scan_point_plan (&o, false, true, &pt);
   assert_true (pt.load && !pt.workloads && !lab_scan_wl_any (&o));
   o.wl.set = 1u << LAB_WL_RANGE;
   lab_scan_point_plan (&o, false, true, &pt);
   assert_true (!pt.load && pt.workloads && lab_scan_wl_any (&o));
   o.wl.set = (1u << LAB_WL_LOAD) | (1u << LAB_WL_UPDATE);
   lab_scan_point_plan (&o, true, false, &pt);
   assert_true (pt.load && !pt.workloads);
   o.load_order = LAB_LOAD_ORDER_BOTH;
   lab_scan_point_plan (&o, true, false, &pt);
   assert_true (pt.load_random && pt.workloads);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_parse),           cmocka_unit_test (test_point_plan),
      cmocka_unit_test (test_row_field),       cmocka_unit_test (test_groups),
      cmocka_unit_test (test_row_hash),        cmocka_unit_test (test_row_content_hash),
      cmocka_unit_test (test_server_commands), cmocka_unit_test (test_indexes),
      cmocka_unit_test (test_planner_table),   cmocka_unit_test (test_decode),
      cmocka_unit_test (test_writes_group),
   };
   return lab_test_run_group ("workload_unit", tests, NULL, NULL);
}
