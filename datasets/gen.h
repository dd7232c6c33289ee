/*
 * gen.h -- the deterministic bill-detail generator behind `billgen generate`: a pure library (no store,
 * no IO) that, given a seed and parameters, yields rows one at a time.
 *
 * Model. Bills (masters) are admitted one after another (exponential inter-arrival times); a bill's row
 * count follows the requested distribution, its stay grows with its row count, and its rows are charged
 * at sorted random times within the stay. Every row repeats the bill's master fields (key, patient,
 * hospital, department, admission date, insurance type) and carries its own row fields (line number,
 * item, specification, quantity, prices, charge time).
 *
 * Orders. `interleaved` emits rows in charge-time order across all open bills (a heap of open bills keyed
 * by next charge time; memory is O(open bills)), so a bill's rows are scattered as they are in a real
 * collection. `clustered` emits each bill's rows together, bill after bill. Both orders produce the same
 * rows (every bill draws from its own random stream); only `_id` differs, because `_id` is an ObjectId
 * whose timestamp is the simulated insertion time and whose counter is the insertion sequence, as mongod
 * would assign it -- so `_id` order is insertion order in both orders (as with mongod, barring a wrap of
 * the 24-bit counter within one second).
 *
 * Exact totals (`total_rows` > 0, the seed preset): the drawn row counts are rescaled so that they sum to
 * exactly total_rows, keeping one row per bill and the shape of the distribution (lab_gen_new); the
 * rescaled counts are kept, 4 bytes a bill, so lab_gen_bill_rows_at stays O(1).
 *
 * Oversize bills (`oversize` > 0) are added bills whose row count is computed from the smallest possible
 * folded element (lab_gen_min_folded_row_bytes) so that their folded form exceeds 16 MiB even when every
 * master field is hoisted out of the array.
 */
#ifndef LAB_GEN_H
#define LAB_GEN_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum { LAB_GEN_LOGNORMAL = 0, LAB_GEN_ZIPF, LAB_GEN_UNIFORM, LAB_GEN_FIXED } lab_gen_dist_t;
typedef enum { LAB_GEN_INTERLEAVED = 0, LAB_GEN_CLUSTERED } lab_gen_order_t;
/* The key field's BSON type: int64 (bill_id = 202300000001 + bill index) or a string in the style of
 * the original collection's patient-ID strings (lab_gen_key_string). */
typedef enum { LAB_GEN_KEY_INT64 = 0, LAB_GEN_KEY_STRING } lab_gen_key_type_t;

/* Lognormal shape: sigma of ln(rows). mu is calibrated so that the mean after rounding and clipping to
 * [1, max_rows] equals mean_rows. */
#define LAB_GEN_LOGNORMAL_SIGMA 1.0
/* The largest --max-rows accepted (the ObjectId counter and zipf's table bound it). */
#define LAB_GEN_MAX_ROWS_LIMIT 10000000
/* Folded size an oversize bill must exceed, and the margin added on top of the 16 MiB cap. */
#define LAB_GEN_OVERSIZE_TARGET_BYTES (16777216 + 1048576)

typedef struct {
   uint64_t seed;               /* --seed (default 1) */
   int64_t bills;               /* --bills: normal bills (default 1000) */
   double mean_rows;            /* --mean-rows (default 130) */
   lab_gen_dist_t dist;         /* --dist (default lognormal) */
   int64_t max_rows;            /* --max-rows (default 10000); oversize bills are exempt */
   lab_gen_order_t order;       /* --order (default interleaved) */
   int64_t oversize;            /* --oversize K: extra bills folding over 16 MiB (default 0) */
   const char *key;             /* --key: name of the bill id field (default "bill_id") */
   int64_t open_bills;          /* --open-bills: target number of concurrently open bills (default 1000) */
   int64_t start_ms;            /* first admission, ms since the epoch (default 2023-01-01T00:00:00Z) */
   lab_gen_key_type_t key_type; /* default int64 */
   int64_t total_rows; /* 0: the distribution decides; else the bills' row counts are rescaled so that
                        * they sum to exactly this (lab_gen_new; presets) */
} lab_gen_params_t;

/* The seed preset (`billgen generate --preset seed`): the original experiment's collection, 55,357,286
 * detail rows of 427,003 masters keyed by a patient-ID string. */
#define LAB_GEN_SEED_MASTERS INT64_C (427003)
#define LAB_GEN_SEED_ROWS INT64_C (55357286)
#define LAB_GEN_SEED_KEY "ETL_Patient_IDStr"

/* Facts about the row just generated, for callers and tests. */
typedef struct {
   int64_t bill_index; /* 0-based index of the bill in admission order */
   int64_t bill_id;    /* value of the key field */
   int32_t line_no;    /* 1-based line number within the bill */
   int32_t bill_rows;  /* rows of this bill */
   bool oversize;      /* the bill is an oversize bill */
   int64_t charge_ms;  /* charge time */
} lab_gen_row_t;

typedef struct lab_gen lab_gen_t;

/* lab_gen_params_init -- the defaults listed above. */
void lab_gen_params_init (lab_gen_params_t *p);

/* lab_gen_dist_parse / lab_gen_order_parse -- option values by name; false on an unknown name. */
bool lab_gen_dist_parse (const char *s, lab_gen_dist_t *out);
bool lab_gen_order_parse (const char *s, lab_gen_order_t *out);
const char *lab_gen_dist_name (lab_gen_dist_t d);
const char *lab_gen_order_name (lab_gen_order_t o);

/* lab_gen_new -- a generator for `p` (copied; the key string too). Checks the parameters (LAB_ERROR_USAGE
 * naming the option for an impossible request, e.g. a uniform mean above (max_rows+1)/2), calibrates the
 * distribution and makes one pass over the bill sizes (O(bills) time, O(1) memory) to know the totals. */
lab_gen_t *lab_gen_new (const lab_gen_params_t *p, bson_error_t *error);

/* lab_gen_next -- the next row into `doc` (reinitialised; caller owns it); `info` (may be NULL) gets its
 * facts. Returns false when every row has been generated. */
bool lab_gen_next (lab_gen_t *g, bson_t *doc, lab_gen_row_t *info);

/* lab_gen_skip -- advance past the next n rows without building them (the same draws, no BSON): the
 * following lab_gen_next returns exactly the row it would have returned after n lab_gen_next calls, so
 * several generators with the same parameters can each build a share of the rows. Returns the rows
 * skipped (fewer than n at the end). Costs a fraction of building (the simulation, not the documents). */
int64_t lab_gen_skip (lab_gen_t *g, int64_t n);

/* lab_gen_position -- rows generated or skipped so far (the sequence number of the next row). */
int64_t lab_gen_position (const lab_gen_t *g);

/* lab_gen_bill_rows_at -- the row count of bill `bill_index` (admission order) without generating its
 * rows (each bill draws from its own stream, so this is O(1)). False when the index is out of range. */
bool lab_gen_bill_rows_at (const lab_gen_t *g, int64_t bill_index, int64_t *rows, bool *oversize);

/* Totals, known from the pre-pass. */
int64_t lab_gen_total_rows (const lab_gen_t *g);
int64_t lab_gen_total_bills (const lab_gen_t *g);
/* lab_gen_oversize_rows -- rows of each oversize bill (0 when none were requested). */
int64_t lab_gen_oversize_rows (const lab_gen_t *g);
/* lab_gen_lognormal_mu -- the calibrated mu (lognormal only; tests). */
double lab_gen_lognormal_mu (const lab_gen_t *g);
/* lab_gen_open_bills_peak -- the most bills open at once so far (interleaved). */
int64_t lab_gen_open_bills_peak (const lab_gen_t *g);

/* lab_gen_destroy -- free; NULL is fine. */
void lab_gen_destroy (lab_gen_t *g);

/* lab_gen_min_folded_row_bytes -- a lower bound on the bytes one row adds to a folded document's array
 * when every master field is hoisted: element header with the shortest index name, the sub-document's
 * framing, and each row field at its smallest possible value (computed from the item catalogue). */
int64_t lab_gen_min_folded_row_bytes (void);

/* lab_gen_master_fields -- NULL-terminated names of the fields repeated in every row of a bill, the key
 * field excluded (it is named by the caller). */
const char *const *lab_gen_master_fields (void);

/* lab_gen_preset_apply -- set `p` to preset `name` ("seed") scaled by `scale` (> 0; 1 is full size):
 * masters and rows both multiplied by scale and rounded to the nearest integer (total_rows then makes the
 * row sum exact), the mean fitted to their quotient, the preset's key field and key type. Other fields
 * (seed, order, start, open bills) are left alone. LAB_ERROR_USAGE for an unknown name or a scale that
 * leaves no master or fewer rows than two per master. */
bool lab_gen_preset_apply (lab_gen_params_t *p, const char *name, double scale, bson_error_t *error);

/* lab_gen_key_string -- the string key of the bill whose int64 id is `bill_id`: "ZY" and the id's twelve
 * digits ("ZY202300000001"), the inpatient prefix the patient_id field uses too; fixed width, so string
 * order is admission order. */
void lab_gen_key_string (int64_t bill_id, char *buf, size_t len);

/* lab_gen_seed_parse -- a seed: decimal uint64 or 0x-prefixed hex. */
bool lab_gen_seed_parse (const char *s, uint64_t *out, bson_error_t *error);

#endif
