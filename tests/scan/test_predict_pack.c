/*
 * test_predict_pack.c -- the leaf pages of an in-order insert as WiredTiger 3.2.1 reconciles it
 * (scan/predict/predict_pack.c), on hand-made record sizes whose pages follow from rec_write.c by hand: the
 * split size (90% of the 128 KiB page maximum, to the allocation unit: 118,784 bytes less the 40-byte
 * header), the last chunk evened from the minimum boundary of the one before, a large record growing a
 * chunk under half a split, a reconciliation per memory_page_max, the page maximum walked by the blocks'
 * compression between reconciliations, and the arrival-order tree's pages.
 */
#include "tests/testutil.h"

#include "scan/predict/predict_private.h"

#define CAP LAB_PREDICT_PAGE_IMAGE_MAX

/* test_split -- 400-byte records: 296 a chunk (118,400 of 118,744); 2,000 of them: 6 chunks of 296 and a
 * last of 224 (89,640 bytes: over the minimum split size, 65,536, kept as it is). */
static void
test_split (void **state)
{
   double rec[2000];
   int64_t page_of[2000], full = 0;
   int i;

   (void)state;
   for (i = 0; i < 2000; i++) {
      rec[i] = 400;
   }
   assert_int_equal (lab_scan_predict_pack_records (rec, 2000, CAP, 0, page_of, &full), 7);
   assert_int_equal (page_of[295], 0);
   assert_int_equal (page_of[296], 1);
   assert_int_equal (page_of[1775], 5);
   assert_int_equal (page_of[1776], 6);
   assert_int_equal (full, 5);
}

/* test_finish -- 400 records: a chunk of 296 and a last of 104 (41,640 bytes, under the minimum split
 * size; the two do not fit one 128 KiB page): the first gives the last what lies past its minimum boundary
 * (163 records fill 65,240 of the 65,496 bytes before it), 163 and 237 records. */
static void
test_finish (void **state)
{
   double rec[400];
   int64_t page_of[400];
   int i;

   (void)state;
   for (i = 0; i < 400; i++) {
      rec[i] = 400;
   }
   assert_int_equal (lab_scan_predict_pack_records (rec, 400, CAP, 0, page_of, NULL), 2);
   assert_int_equal (page_of[162], 0);
   assert_int_equal (page_of[163], 1);
   /* 300 records: 296 and 4, which fit one page together: merged */
   assert_int_equal (lab_scan_predict_pack_records (rec, 300, CAP, 0, page_of, NULL), 1);
   assert_int_equal (page_of[299], 0);
}

/* test_grow -- a 100,000-byte record after 200 records (80,040 bytes, over half a split) starts the next
 * chunk; after 100 (40,040, under half) the chunk grows to hold it, to the allocation unit (143,360: room
 * for 8 more records). */
static void
test_grow (void **state)
{
   double rec[300];
   int64_t page_of[300];
   int i;

   (void)state;
   for (i = 0; i < 300; i++) {
      rec[i] = 400;
   }
   rec[200] = 100000;
   lab_scan_predict_pack_records (rec, 300, CAP, 0, page_of, NULL);
   assert_int_equal (page_of[199], 0);
   assert_int_equal (page_of[200], 1);
   rec[200] = 400;
   rec[100] = 100000;
   lab_scan_predict_pack_records (rec, 300, CAP, 0, page_of, NULL);
   assert_int_equal (page_of[100], 0);
   assert_int_equal (page_of[108], 0);
   assert_int_equal (page_of[109], 1);
}

/* test_walk -- 60,000 records of 400 bytes (465 in memory): reconciliations of 22,550 records (memory_page_
 * max, 10 MiB); blocks compressing to 0.3 of their images (35.5 KB: over leaf_page_max) lower the page
 * maximum a tenth of leaf_page_max each, to leaf_page_max itself after 31 blocks; the evened chunk before
 * the last (163 records, 19.6 KB compressed) raises it a tenth (36,044): the second reconciliation splits
 * at 32,768 (81 records). Without a ratio it stays at the cap. */
static void
test_walk (void **state)
{
   static double rec[60000];
   static int64_t page_of[60000];
   int i;

   (void)state;
   for (i = 0; i < 60000; i++) {
      rec[i] = 400;
   }
   lab_scan_predict_pack_records (rec, 60000, 0, 0.3, page_of, NULL);
   assert_int_equal (page_of[296] - page_of[0], 1);
   assert_int_equal (page_of[22550 + 80], page_of[22550]);
   assert_int_equal (page_of[22550 + 81], page_of[22550] + 1);
   lab_scan_predict_pack_records (rec, 60000, 0, 0, page_of, NULL);
   assert_int_equal (page_of[22550 + 295], page_of[22550]);
}

/* test_arrival -- keys inserted in key order make the pages the in-order rule makes; reversed, every insert
 * lands before the page's records (no in-memory split: nothing follows the disk image's last key) and
 * the pages are reconciled from images and inserts: more pages than in order. */
static void
test_arrival (void **state)
{
   static int64_t key_of[60000], page_of[60000];
   static double rec[60000];
   int64_t inorder, i;

   (void)state;
   for (i = 0; i < 60000; i++) {
      key_of[i] = i;
      rec[i] = 400;
   }
   inorder = lab_scan_predict_pack_records (rec, 60000, 0, 0, page_of, NULL);
   assert_int_equal (lab_scan_predict_pack_arrival (key_of, 60000, 400, 0), inorder);
   for (i = 0; i < 60000; i++) {
      key_of[i] = 59999 - i;
   }
   assert_true (lab_scan_predict_pack_arrival (key_of, 60000, 400, 0) > inorder);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_split), cmocka_unit_test (test_finish),  cmocka_unit_test (test_grow),
      cmocka_unit_test (test_walk),  cmocka_unit_test (test_arrival),
   };
   return lab_test_run_group ("predict_pack", tests, NULL, NULL);
}
