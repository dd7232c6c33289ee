/*
 * gen.c -- the deterministic bill-detail generator (see gen.h for the model).
 *
 * Randomness: xoshiro256** streams seeded through splitmix64. One stream drives admissions (inter-arrival
 * times); every bill has its own stream seeded from (seed, bill index), drawn in a fixed sequence: row
 * count, charge rate, master fields, then for each line the charge-time step and the row's content. So a
 * bill's rows do not depend on the order in which rows are emitted, and a bill's size can be known
 * without generating it (the pre-pass and lab_gen_bill_rows_at).
 */
#include "datasets/gen.h"
#include "datasets/gen_private.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* ---- the generator ----------------------------------------------------------------------------- */

/* draw_stay_ms -- a bill's stay: its rows at a rate of 8..25 rows a day, within 6 hours .. 60 days. */
static int64_t
draw_stay_ms (rng_t *r, int64_t rows)
{
   double rate = 8.0 + 17.0 * rng_unit (r);
   double days = (double)rows / rate;
   if (days < 0.25) {
      days = 0.25;
   }
   if (days > 60.0) {
      days = 60.0;
   }
   return (int64_t)(days * MS_PER_DAY);
}

/* is_oversize -- binary search in the sorted oversize index list. */
static bool
is_oversize (const lab_gen_t *g, int64_t idx)
{
   int64_t lo = 0, hi = g->p.oversize;
   while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (g->oversize_idx[mid] < idx) {
         lo = mid + 1;
      } else {
         hi = mid;
      }
   }
   return lo < g->p.oversize && g->oversize_idx[lo] == idx;
}

/* bill_sizes -- seed bill idx's stream and draw its row count and stay (the first draws of the stream). */
static void
bill_sizes (const lab_gen_t *g, int64_t idx, rng_t *r, int64_t *rows, int64_t *stay_ms, bool *oversize)
{
   rng_seed (r, g->p.seed, (uint64_t)idx + 1);
   *rows = lab_gen_dist_draw_rows (g, r);
   if (g->fixed_rows) {
      *rows = g->fixed_rows[idx]; /* the draw above still happens: the stream stays the same */
   }
   *oversize = g->p.oversize > 0 && is_oversize (g, idx);
   if (*oversize) {
      *rows = g->oversize_rows;
   }
   *stay_ms = draw_stay_ms (r, *rows);
}

bool
lab_gen_bill_rows_at (const lab_gen_t *g, int64_t bill_index, int64_t *rows, bool *oversize)
{
   rng_t r;
   int64_t stay;
   bool ov;

   if (bill_index < 0 || bill_index >= g->total_bills) {
      return false;
   }
   bill_sizes (g, bill_index, &r, rows, &stay, &ov);
   if (oversize) {
      *oversize = ov;
   }
   return true;
}

/* bill_admit -- draw the master fields and the first charge time of bill idx. */
static void
bill_admit (lab_gen_t *g, bill_t *b, int64_t idx, int64_t admit_ms)
{
   int64_t rows, stay;
   bool ov;
   memset (b, 0, sizeof *b);
   bill_sizes (g, idx, &b->rng, &rows, &stay, &ov);
   b->idx = idx;
   b->rows = (int32_t)rows;
   b->oversize = ov;
   b->stay_ms = stay;
   b->admit_ms = admit_ms;
   b->next_line = 1;
   b->u = 0.0;
   b->master_len = 0;
   b->bill_id = 202300000001ll + idx;
   if (g->p.key_type == LAB_GEN_KEY_STRING) {
      lab_gen_key_string (b->bill_id, b->key_str, sizeof b->key_str);
   }

   lab_gen_bill_master (g, b, admit_ms);
}

/* bill_step -- draw the next charge time (sorted uniforms generated in order: the k-th of n is
 * 1 - (1 - u_{k-1}) V^(1/(n-k+1))); charge times are whole seconds, never before the previous one. */
static void
bill_step (bill_t *b)
{
   int64_t remaining = b->rows - b->next_line + 1;
   double v = rng_open_unit (&b->rng);
   b->u = 1.0 - (1.0 - b->u) * pow (v, 1.0 / (double)remaining);
   int64_t t = b->admit_ms + (int64_t)(b->u * (double)b->stay_ms);
   t -= t % 1000;
   if (t < b->next_charge_ms) {
      t = b->next_charge_ms;
   }
   b->next_charge_ms = t;
}

/* heap_less -- order of open bills: next charge time, then bill index. */
static inline bool
heap_less (const bill_t *a, const bill_t *b)
{
   return a->next_charge_ms < b->next_charge_ms ||
          (a->next_charge_ms == b->next_charge_ms && a->idx < b->idx);
}

static void
heap_push (lab_gen_t *g, bill_t *b)
{
   if (g->heap_len == g->heap_cap) {
      g->heap_cap = g->heap_cap ? g->heap_cap * 2 : 256;
      g->heap = bson_realloc (g->heap, (size_t)g->heap_cap * sizeof (bill_t *));
   }
   int64_t i = g->heap_len++;
   while (i > 0) {
      int64_t parent = (i - 1) / 2;
      if (!heap_less (b, g->heap[parent])) {
         break;
      }
      g->heap[i] = g->heap[parent];
      i = parent;
   }
   g->heap[i] = b;
   if (g->heap_len > g->heap_peak) {
      g->heap_peak = g->heap_len;
   }
}

static bill_t *
heap_pop (lab_gen_t *g)
{
   bill_t *top = g->heap[0];
   bill_t *last = g->heap[--g->heap_len];
   int64_t i = 0, n = g->heap_len;
   while (n > 0) {
      int64_t c = 2 * i + 1;
      if (c >= n) {
         break;
      }
      if (c + 1 < n && heap_less (g->heap[c + 1], g->heap[c])) {
         c++;
      }
      if (!heap_less (g->heap[c], last)) {
         break;
      }
      g->heap[i] = g->heap[c];
      i = c;
   }
   if (n > 0) {
      g->heap[i] = last;
   }
   return top;
}

/* fix_total_rows -- draw every bill's row count, then rescale them so that they sum to exactly
 * p.total_rows: each bill keeps its one row and gets its share of the rest in proportion to its rows
 * above one, rounded on the running sum (floor of the scaled cumulative excess), so the shape of the
 * distribution is kept, no bill falls below one row and the sum is exact. Deterministic (integer
 * arithmetic over the bills in admission order). O(bills) memory: 4 bytes a bill. */
static bool
fix_total_rows (lab_gen_t *g, bson_error_t *error)
{
   const int64_t n = g->total_bills, target = g->p.total_rows;
   int64_t excess_sum = 0;

   if (g->p.oversize > 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "an exact total of rows (a preset) cannot be combined with --oversize");
      return false;
   }
   if (target < n) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "a total of %" PRId64 " rows cannot be spread over %" PRId64
                     " bills: every bill needs at least one row",
                     target, n);
      return false;
   }
   g->fixed_rows = bson_malloc ((size_t)n * sizeof (int32_t));
   for (int64_t i = 0; i < n; i++) {
      rng_t r;
      rng_seed (&r, g->p.seed, (uint64_t)i + 1);
      int64_t rows = lab_gen_dist_draw_rows (g, &r);
      g->fixed_rows[i] = (int32_t)rows;
      excess_sum += rows - 1;
   }
   const int64_t want = target - n; /* rows above one per bill, over all bills */
   int64_t cum = 0, prev = 0;
   for (int64_t i = 0; i < n; i++) {
      int64_t next;
      if (excess_sum > 0) {
         cum += g->fixed_rows[i] - 1;
         next = (int64_t)(((unsigned __int128)cum * (uint64_t)want) / (uint64_t)excess_sum);
      } else { /* every bill drew one row: spread evenly */
         next = (int64_t)(((unsigned __int128)(i + 1) * (uint64_t)want) / (uint64_t)n);
      }
      if (1 + next - prev > INT32_MAX) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "a total of %" PRId64 " rows over %" PRId64 " bills gives one bill too many rows",
                        target, n);
         return false;
      }
      g->fixed_rows[i] = (int32_t)(1 + next - prev);
      prev = next;
   }
   return true;
}

lab_gen_t *
lab_gen_new (const lab_gen_params_t *p, bson_error_t *error)
{
   lab_gen_t *g = bson_malloc0 (sizeof *g);
   g->p = *p;
   g->key = bson_strdup (p->key ? p->key : "bill_id");
   g->p.key = g->key;

   if (p->bills < 0 || p->oversize < 0 || p->bills + p->oversize < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--bills (%" PRId64 ") plus --oversize (%" PRId64 ") must be at least 1", p->bills,
                     p->oversize);
      goto fail;
   }
   if (p->max_rows < 1 || p->max_rows > LAB_GEN_MAX_ROWS_LIMIT) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--max-rows %" PRId64 " must be in [1, %d]", p->max_rows, LAB_GEN_MAX_ROWS_LIMIT);
      goto fail;
   }
   if (!(p->mean_rows >= 1.0) || p->mean_rows > (double)LAB_GEN_MAX_ROWS_LIMIT) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--mean-rows %g must be at least 1",
                     p->mean_rows);
      goto fail;
   }
   if (p->open_bills < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--open-bills must be at least 1");
      goto fail;
   }
   if (!*g->key || g->key[0] == '$' || strchr (g->key, '.') || strcmp (g->key, "_id") == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "--key '%s' is not usable: a top-level field name, not empty, not _id, without '.' or a "
                     "leading '$'",
                     g->key);
      goto fail;
   }
   for (const char *const *f = lab_gen_master_fields (); *f; f++) {
      if (strcmp (*f, g->key) == 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "--key '%s' clashes with a generated field", g->key);
         goto fail;
      }
   }
   static const char *const row_fields[] = { "line_no", "item_code",  "item_name", "spec",       "unit",
                                             "qty",     "unit_price", "amount",    "charge_time" };
   for (size_t i = 0; i < NELEM (row_fields); i++) {
      if (strcmp (row_fields[i], g->key) == 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "--key '%s' clashes with a generated field", g->key);
         goto fail;
      }
   }
   if (!lab_gen_dist_calibrate (g, error)) {
      goto fail;
   }

   /* Oversize bills: rows enough that even the smallest possible folded elements pass the target. */
   g->total_bills = p->bills + p->oversize;
   if (p->oversize > 0) {
      int64_t min_row = lab_gen_min_folded_row_bytes ();
      g->oversize_rows = (LAB_GEN_OVERSIZE_TARGET_BYTES + min_row - 1) / min_row;
      g->oversize_idx = bson_malloc ((size_t)p->oversize * sizeof (int64_t));
      for (int64_t j = 0; j < p->oversize; j++) {
         /* spread evenly over admission order */
         g->oversize_idx[j] = (int64_t)(((2 * (unsigned __int128)j + 1) * (uint64_t)g->total_bills) /
                                        (2 * (uint64_t)p->oversize));
         if (j > 0 && g->oversize_idx[j] <= g->oversize_idx[j - 1]) {
            g->oversize_idx[j] = g->oversize_idx[j - 1] + 1;
         }
      }
   }

   if (p->total_rows != 0 && !fix_total_rows (g, error)) {
      goto fail;
   }

   /* Pre-pass: totals and mean stay (Little's law: open bills = arrival rate x mean stay). */
   double stay_sum = 0;
   g->total_rows = 0;
   for (int64_t i = 0; i < g->total_bills; i++) {
      rng_t r;
      int64_t rows, stay;
      bool ov;
      bill_sizes (g, i, &r, &rows, &stay, &ov);
      g->total_rows += rows;
      stay_sum += (double)stay;
   }
   g->interarrival_ms = stay_sum / (double)g->total_bills / (double)p->open_bills;

   lab_gen_content_init (g);
   uint64_t x = p->seed ^ 0x0123456789ABCDEFull;
   g->oid_process = splitmix64 (&x) & 0xFFFFFFFFFFull;
   g->oid_counter0 = (uint32_t)(splitmix64 (&x) & 0xFFFFFFu);

   rng_seed (&g->arrival, p->seed, 0);
   g->next_admit_idx = 0;
   g->next_admit_ms = (double)p->start_ms;
   return g;

fail:
   lab_gen_destroy (g);
   return NULL;
}

/* admit_next -- admit the next bill at the current arrival time and advance the arrival clock. */
static bill_t *
admit_next (lab_gen_t *g)
{
   bill_t *b = bson_malloc (sizeof *b);
   int64_t admit = (int64_t)g->next_admit_ms;
   admit -= admit % 1000;
   bill_admit (g, b, g->next_admit_idx, admit);
   bill_step (b);
   g->next_admit_idx++;
   g->next_admit_ms += -log (rng_open_unit (&g->arrival)) * g->interarrival_ms;
   return b;
}

/* emit -- fill doc with the bill's current row and advance it; returns true if the bill has more rows. */
static bool
emit (lab_gen_t *g, bill_t *b, bson_t *doc, lab_gen_row_t *info)
{
   if (doc) {
      bson_reinit (doc);
   }
   lab_gen_row_append (g, b, doc);
   if (info) {
      info->bill_index = b->idx;
      info->bill_id = b->bill_id;
      info->line_no = b->next_line;
      info->bill_rows = b->rows;
      info->oversize = b->oversize;
      info->charge_ms = b->next_charge_ms;
   }
   g->seq++;
   b->next_line++;
   if (b->next_line > b->rows) {
      return false;
   }
   bill_step (b);
   return true;
}

/* gen_step -- the next row into doc (NULL: draws only); false when every row has been generated. */
static bool
gen_step (lab_gen_t *g, bson_t *doc, lab_gen_row_t *info)
{
   if (g->p.order == LAB_GEN_CLUSTERED) {
      if (!g->current) {
         if (g->next_admit_idx >= g->total_bills) {
            return false;
         }
         g->current = admit_next (g);
      }
      if (!emit (g, g->current, doc, info)) {
         bson_free (g->current);
         g->current = NULL;
      }
      return true;
   }

   /* interleaved: admit every bill whose admission is not after the earliest pending charge */
   while (g->next_admit_idx < g->total_bills &&
          (g->heap_len == 0 || (int64_t)g->next_admit_ms <= g->heap[0]->next_charge_ms)) {
      heap_push (g, admit_next (g));
   }
   if (g->heap_len == 0) {
      return false;
   }
   bill_t *b = heap_pop (g);
   if (emit (g, b, doc, info)) {
      heap_push (g, b);
   } else {
      bson_free (b);
   }
   return true;
}

bool
lab_gen_next (lab_gen_t *g, bson_t *doc, lab_gen_row_t *info)
{
   return gen_step (g, doc, info);
}

int64_t
lab_gen_skip (lab_gen_t *g, int64_t n)
{
   int64_t done = 0;
   while (done < n && gen_step (g, NULL, NULL)) {
      done++;
   }
   return done;
}

int64_t
lab_gen_position (const lab_gen_t *g)
{
   return g->seq;
}

int64_t
lab_gen_total_rows (const lab_gen_t *g)
{
   return g->total_rows;
}

int64_t
lab_gen_total_bills (const lab_gen_t *g)
{
   return g->total_bills;
}

int64_t
lab_gen_oversize_rows (const lab_gen_t *g)
{
   return g->oversize_rows;
}

double
lab_gen_lognormal_mu (const lab_gen_t *g)
{
   return g->logn_mu;
}

int64_t
lab_gen_open_bills_peak (const lab_gen_t *g)
{
   return g->heap_peak;
}

void
lab_gen_destroy (lab_gen_t *g)
{
   if (!g) {
      return;
   }
   for (int64_t i = 0; i < g->heap_len; i++) {
      bson_free (g->heap[i]);
   }
   bson_free (g->heap);
   bson_free (g->current);
   for (int i = 0; i < LAB_GEN_N_ITEMS; i++) {
      bson_destroy (g->item_doc[i]);
   }
   bson_free (g->zipf_cdf);
   bson_free (g->oversize_idx);
   bson_free (g->fixed_rows);
   bson_free (g->key);
   bson_free (g);
}
