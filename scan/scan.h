/*
 * scan.h -- the scan module: the cold, parallel, side-by-side load of two or more layouts of the same
 * rows -- one document per row ("detail"), folded, buckets (--layout) -- with device-level
 * measurements (issue "scancmp").
 *
 * Pure parts (unit-tested): /proc/diskstats parsing and iostat arithmetic, device resolution from a
 * path's st_dev, key spreading and segmentation, percentiles and the latency histogram.
 * Effectful parts: dropping the page cache, running a restart command, page residency via mincore,
 * the sampler thread, the O_DIRECT device calibration, and lab_scan_run, which drives a whole
 * comparison through store/store.h and fills the results document (docs/results-schema.md) -- or, with
 * --cache-sizes/--cache-ratios, one comparison per engine cache (the sweep, scan/sweep.c, with the read
 * amplification and the locality of scan/measure/locality.c).
 *
 * Library code never prints: messages go through core/log.h (lab_log_info, lab_log_debug: the sink scancmp's
 * main sets; none set, they are dropped), tables are rendered to strings.
 */
#ifndef LAB_SCAN_H
#define LAB_SCAN_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/iostat.h"
#include "core/opts.h"
#include "core/progress.h"
#include "core/results.h"
#include "store/store.h"

/* ---- /proc/diskstats ----------------------------------------------------------------------------- */

/* /proc/diskstats always counts in 512-byte sectors, whatever the device's logical block size. */
#define LAB_DISKSTATS_SECTOR_BYTES LAB_IOSTAT_SECTOR_BYTES

typedef struct {
   uint64_t reads;         /* field 4: reads completed */
   uint64_t reads_merged;  /* field 5 */
   uint64_t read_sectors;  /* field 6: 512-byte sectors read */
   uint64_t read_time_ms;  /* field 7: ms spent by all reads */
   uint64_t writes;        /* field 8 */
   uint64_t write_sectors; /* field 10 */
   uint64_t in_flight;     /* field 12 */
   uint64_t io_ticks_ms;   /* field 13: ms the device had I/O in flight */
} lab_scan_diskstats_t;

/* lab_scan_diskstats_parse -- find `device` (e.g. "vda") in the text of /proc/diskstats and fill *out.
 * LAB_ERROR_SCAN when the device is missing or its line is malformed (names the line). */
bool lab_scan_diskstats_parse (const char *text, const char *device, lab_scan_diskstats_t *out,
                               bson_error_t *error);

/* lab_scan_diskstats_read -- read `path` (NULL: /proc/diskstats) and parse it for `device`. */
bool lab_scan_diskstats_read (const char *path, const char *device, lab_scan_diskstats_t *out,
                              bson_error_t *error);

/* iostat's figures between two snapshots (core/iostat.h: the one copy of the arithmetic). */
typedef lab_iostat_t lab_scan_diskstats_delta_t;

/* lab_scan_diskstats_delta -- the iostat figures from snapshot a (older) to b (newer). */
void lab_scan_diskstats_delta (const lab_scan_diskstats_t *a, const lab_scan_diskstats_t *b, double elapsed_s,
                               lab_scan_diskstats_delta_t *d);

/* ---- device resolution --------------------------------------------------------------------------- */

typedef struct {
   char name[64];         /* disk name as in /proc/diskstats, e.g. "vda" */
   unsigned major, minor; /* of the disk (after partition -> disk) */
   char reason[512];      /* how it was chosen, for the log and the results */
} lab_scan_device_t;

/* lab_scan_device_resolve -- the whole disk that holds `path`: `override` (--device, "vda" or "/dev/vda")
 * when given; else st_dev of path -> <sysfs>/dev/block/M:m, a partition's parent disk; when st_dev is not
 * a block device (overlay, btrfs, tmpfs), the device of the mount holding path per `mountinfo`.
 * `sysfs` NULL: "/sys"; `mountinfo` NULL: "/proc/self/mountinfo" (tests point both at fixtures). */
bool lab_scan_device_resolve (const char *path, const char *override, const char *sysfs,
                              const char *mountinfo, lab_scan_device_t *out, bson_error_t *error);

/* lab_scan_device_read_ahead_kb -- the disk's readahead window, <sysfs>/block/<name>/queue/read_ahead_kb
 * (`sysfs` NULL: "/sys"); false when it cannot be read. */
bool lab_scan_device_read_ahead_kb (const char *sysfs, const char *name, int *kb);

/* ---- keys ---------------------------------------------------------------------------------------- */

/* lab_scan_keys_spread -- keep `limit` of the `*n` sorted keys, evenly spread over the whole range (first and
 * last included), in place; the values dropped are destroyed. limit <= 0 or >= *n keeps all. */
void lab_scan_keys_spread (bson_value_t *keys, int64_t *n, int64_t limit);

/* lab_scan_keys_segment -- split n keys into `parallel` contiguous segments: worker i gets
 * [starts[i], starts[i+1]); `starts` has parallel + 1 entries. Sizes differ by at most one. */
void lab_scan_keys_segment (int64_t n, int parallel, int64_t *starts);

/* --load-order: how the keys are shared out over the workers. key: each worker a contiguous segment of
 * the sorted keys (the original experiment's batch loaders: reads arrive in key order); random: a shuffle
 * of the keys seeded by --seed, dealt round-robin (an application opening bills as they are asked for);
 * both: the headline load in key order and a random-order load beside it (the workloads' row "load_random").
 */
typedef enum { LAB_LOAD_ORDER_KEY = 0, LAB_LOAD_ORDER_RANDOM, LAB_LOAD_ORDER_BOTH } lab_scan_load_order_t;

/* lab_scan_load_order_names -- "key", "random", "both", NULL (the option table's enum). */
const char *const *lab_scan_load_order_names (void);

/* lab_scan_keys_shuffle -- perm[0..n) = a permutation of 0..n-1, the same for the same (n, seed) on every
 * machine (Fisher-Yates over splitmix64). */
void lab_scan_keys_shuffle (int64_t n, uint64_t seed, int64_t *perm);

/* lab_scan_keys_share -- worker `worker` of `parallel` loads key indexes first, first + stride, ... < end:
 * key order, the contiguous segment of lab_scan_keys_segment (stride 1); random order, positions worker,
 * worker + parallel, ... of the shuffle (the caller maps a position p to the key perm[p]). */
void lab_scan_keys_share (lab_scan_load_order_t order, int64_t n, int parallel, int worker, int64_t *first,
                          int64_t *end, int64_t *stride);

/* lab_scan_keys_sort_unique -- sort values in MongoDB order and drop duplicates (destroying them). */
void lab_scan_keys_sort_unique (bson_value_t *keys, int64_t *n);

/* lab_scan_keys_parse_line -- one --keys-file line: an extended-JSON value (42, "A-1", {"$oid": "..."},
 * {"$date": "..."}, 9007199254740993) or, when it is not JSON, the bare text as a string. Integers that
 * fit become int32, else int64 (MongoDB compares numbers by value). Empty lines: *skip = true. */
bool lab_scan_keys_parse_line (const char *line, bson_value_t *out, bool *skip, bson_error_t *error);

/* lab_scan_keys_read_file -- every key of `path` (lines as above), sorted and deduplicated; errors name the
 * file and line. Caller frees with lab_store_values_free. */
bool lab_scan_keys_read_file (const char *path, bson_value_t **keys, int64_t *n, bson_error_t *error);

/* ---- latency ------------------------------------------------------------------------------------- */

typedef struct {
   int64_t count;
   double min_ms, mean_ms, p50_ms, p90_ms, p95_ms, p99_ms, max_ms;
} lab_scan_latency_summary_t;

/* lab_scan_percentile -- the p-th percentile (0..100) of `sorted` ascending values, linear interpolation
 * between closest ranks (numpy's default): position p/100 * (n-1). n == 0 gives 0. */
double lab_scan_percentile (const double *sorted, size_t n, double p);

/* lab_scan_latency_summarize -- sort `ms` in place and summarize it. */
void lab_scan_latency_summarize (double *ms, size_t n, lab_scan_latency_summary_t *out);

/* lab_scan_latency_append -- `key` of parent: {count, p50, p95, p99, max, mean} in ms rounded to the
 * microsecond, each percentile null when s->count is too small to support it (core/percentile.h: p50
 * needs 2 observations, p95 20, p99 100). */
void lab_scan_latency_append (bson_t *parent, const char *key, const lab_scan_latency_summary_t *s);

/* Log-spaced histogram bucket bounds: 1-2-5 per decade from 0.01 ms to 100,000 ms. */
#define LAB_LATENCY_NBUCKETS 22
/* lab_scan_latency_bucket_le -- upper bound (ms) of bucket i; the last bucket also takes everything above. */
double lab_scan_latency_bucket_le (int i);
/* lab_scan_latency_histogram -- counts[i] = values v with le(i-1) < v <= le(i) (the last takes the rest). */
void lab_scan_latency_histogram (const double *ms, size_t n, int64_t counts[LAB_LATENCY_NBUCKETS]);

/* ---- what the client pays (decode.c) -------------------------------------------------------------- */

/* --decode: what a worker does with each returned document (timed with the query). */
typedef enum {
   LAB_DECODE_NONE = 0, /* counted only: the store's and the wire's cost alone */
   LAB_DECODE_FIELDS,   /* every field walked, nested ones too, as a driver's cursor hands them over */
   LAB_DECODE_OBJECTS   /* a tree of heap objects built and freed, as the shell or an ORM does */
} lab_scan_decode_t;

/* lab_scan_decode_names -- "none", "fields", "objects", NULL (the option table's enum). */
const char *const *lab_scan_decode_names (void);

/* lab_scan_decode -- decode doc per mode; returns a checksum (or the objects built) so the work stays. */
uint64_t lab_scan_decode (const bson_t *doc, lab_scan_decode_t mode);

/* ---- cold procedure ------------------------------------------------------------------------------ */

typedef enum { LAB_DROP_AUTO = 0, LAB_DROP_YES, LAB_DROP_NO } lab_scan_drop_mode_t;

/* The file written to drop the page cache. The hidden test hook LAYOUTLAB_DROP_CACHES_PATH replaces it,
 * so the "not permitted" path can be tested as root (point it at an unwritable location). */
#define LAB_DROP_CACHES_PATH "/proc/sys/vm/drop_caches"

/* lab_scan_drop_caches -- `sync; echo 1 > drop_caches` per `mode`: *dropped says whether it happened and
 * `note` why (e.g. "dropped (root)", "not permitted: ...: Permission denied"). mode yes and not
 * permitted: LAB_ERROR_SCAN / LAB_STORE_ERR_PERMISSION naming the fix. auto never fails. */
bool lab_scan_drop_caches (lab_scan_drop_mode_t mode, bool *dropped, char *note, size_t note_len,
                           bson_error_t *error);

/* lab_scan_run_command -- run `cmd` with /bin/sh -c, its stdout sent to our stderr, waiting at most
 * timeout_ms (then the whole process group is killed). Fails when it cannot start, exits non-zero, dies
 * from a signal or times out; messages show `shown` (the redacted command). */
bool lab_scan_run_command (const char *cmd, const char *shown, int32_t timeout_ms, bson_error_t *error);

/* lab_scan_resident_bytes -- pages of `paths` (NULL-terminated) resident in the page cache, via mmap+mincore:
 * *resident and *total in bytes (missing files are skipped). */
bool lab_scan_resident_bytes (char *const *paths, int64_t *resident, int64_t *total, bson_error_t *error);

/* lab_scan_dir_files -- regular files under `dir` (recursively), NULL-terminated; bson_strfreev to free. */
bool lab_scan_dir_files (const char *dir, char ***paths, bson_error_t *error);

/* ---- calibration --------------------------------------------------------------------------------- */

typedef struct {
   double seq_read_mb_s;     /* 10^6 bytes per second, 1 MiB O_DIRECT reads */
   double rand_read_4k_iops; /* 4 KiB O_DIRECT reads at random aligned offsets */
   int rand_threads;         /* readers used for the random test */
   uint64_t file_bytes;
   double elapsed_s;
   /* the reread probe: LAB_SCAN_REREAD_BLOCKS 4 KiB blocks never read, then the same blocks again, each
    * read timed (O_DIRECT: no page cache of this machine in between) */
   int reread_blocks;
   double first_p50_ms, first_p90_ms, reread_p50_ms, reread_p90_ms;
   bool rereads_cached;     /* rereads at least LAB_SCAN_REREAD_CACHED_X times faster at p50: a cache below
                             * this machine (the VM's host, a SAN) served them */
   char reread_source[128]; /* the raw device (/dev/NAME), else the test file (whose blocks were just
                             * written: a write cache below may hold them, so never-read is not assured) */
} lab_scan_calibration_t;

#define LAB_SCAN_REREAD_BLOCKS 48
#define LAB_SCAN_REREAD_CACHED_X 5.0

/* lab_scan_rereads_cached -- whether rereads at p50 `reread_ms` against first reads at `first_ms` say a
 * cache below this machine served them (at least LAB_SCAN_REREAD_CACHED_X times faster). Pure. */
bool lab_scan_rereads_cached (double first_ms, double reread_ms);

/* lab_scan_reread_device -- the reread probe on the raw device /dev/`device` (read-only, O_DIRECT), blocks
 * drawn anew over its whole size, into out's reread fields (reread_source the device's path). Fails when
 * the device cannot be opened (not root): the caller keeps the test file's figures. */
bool lab_scan_reread_device (const char *device, lab_scan_calibration_t *out, bson_error_t *error);

/* lab_scan_reread_files -- the reread probe over the data's files (`paths`, NULL-terminated), blocks drawn
 * anew over all of them: the data a run will read, as it sits below this machine (reread_source "the
 * data's files"). Fails when they hold too few blocks. */
bool lab_scan_reread_files (char *const *paths, lab_scan_calibration_t *out, bson_error_t *error);

/* lab_scan_calibrate -- write a temporary file of `file_bytes` in `dir`, flush it out of the page cache,
 * read it sequentially with O_DIRECT, then random 4 KiB O_DIRECT reads with `threads` readers for
 * `rand_ns`; the file is removed afterwards, also on failure. */
bool lab_scan_calibrate (const char *dir, uint64_t file_bytes, uint64_t rand_ns, int threads,
                         lab_scan_calibration_t *out, bson_error_t *error);

/* ---- the comparison ------------------------------------------------------------------------------ */

typedef enum { LAB_ORDER_ALTERNATE = 0, LAB_ORDER_DETAIL_FIRST, LAB_ORDER_FOLDED_FIRST } lab_scan_order_t;

/* Where the server-side disk figures come from (--server-disk): this machine's /proc/diskstats (the server
 * runs here), the server's getDiagnosticData (FTDC: systemMetrics.disks), or nowhere. */
typedef enum {
   LAB_SERVER_DISK_AUTO = 0,
   LAB_SERVER_DISK_LOCAL,
   LAB_SERVER_DISK_FTDC,
   LAB_SERVER_DISK_NONE
} lab_scan_server_disk_t;

typedef struct {
   const char *detail; /* --detail: one-doc-per-row collection (layout "detail", kind rows) */
   const char *folded; /* --folded: folded collection (layout "folded", kind folded) */
   /* --layout NAME=COLLECTION[:KIND], repeated: the candidates, in the order given. nlayouts == 0: the
    * two layouts of --detail and --folded (lab_scan_layouts_resolve) */
   lab_results_layout_t layouts[LAB_RESULTS_MAX_LAYOUTS];
   size_t nlayouts;
   const char *reference_layout; /* --reference-layout NAME; NULL: the first of kind rows */
   const char *key;              /* key field (default bill_id, or the fold's record: lab_scan_key_resolve) */
   const char *array_field;      /* array of rows in the folded documents */
   bool key_given;               /* --key given: a fold's record may not contradict it */
   bool array_field_given;       /* --array-field given: likewise */
   bool kind_given[LAB_RESULTS_MAX_LAYOUTS]; /* layouts[i]'s :KIND given; else a fold's record may set it */
   bool cold;
   int parallel;
   int runs;
   int reference_runs; /* a sweep's reference point (sweep_reference) measured this many times (0: runs) */
   lab_scan_order_t order;
   lab_scan_load_order_t load_order; /* --load-order (default key) */
   int64_t keys_limit;               /* 0: all */
   const char *keys_file;            /* NULL: the folded collection's key index */
   const char *restart_cmd;          /* server: run while the client pool is down */
   int32_t restart_timeout_ms;
   int32_t ready_timeout_ms; /* wait for ping after a restart */
   lab_scan_drop_mode_t drop_caches;
   const char *dbpath; /* the data directory (server), for the device, residency and calibration */
   const char *device; /* --device override (a local server only) */
   lab_scan_server_disk_t server_disk; /* --server-disk (default auto) */
   const char *server_device; /* --server-device: the server's disk in getDiagnosticData; NULL: most read */
   bool restart_drops_caches; /* --restart-drops-caches: the restart command drops the server's page cache */
   const char *const *shard_uris; /* --shard-uri, in listShards order or NAME=URI (mongos) */
   size_t nshard_uris;
   const char *uri;           /* the URI as given (may hold credentials: only passed on to the shards) */
   int32_t server_timeout_ms; /* the shards' connections: --server-timeout (0: the store's default) */
   uint64_t interval_ns;      /* sampler period */
   bool calibrate;
   uint64_t calibrate_bytes;
   uint64_t calibrate_rand_ns;
   bool create_index;               /* create missing key indexes before measuring */
   const char *const *allow_writes; /* --allow-writes: collections layoutlab did not write that the user
                                     * named for writes and index builds (NULL-terminated; NULL: none) */
   uint64_t cache_size_bytes;       /* as configured (for the results) */
   bool direct_io;                  /* embedded store opened with direct_io=[data] (for the results) */
   /* the cache sweep (scan/sweep.c): one full comparison per cache, a list given turns it on (the main's
    * option table parses and checks each list once: LAB_CLI_OPT_SIZES / LAB_CLI_OPT_RATIOS) */
   lab_sizes_t cache_sizes;   /* --cache-sizes, strictly ascending (n == 0: see cache_ratios) */
   lab_ratios_t cache_ratios; /* --cache-ratios, strictly ascending: x the detail layout's on-disk size */
   bool server_cache_sweep;   /* --server-cache-sweep: a MongoDB server's cache set by setParameter */
   int64_t locality_sample;   /* masters sampled for the locality figures (default 1000) */
   lab_scan_decode_t decode;  /* --decode (default none) */
   bool predict; /* --predict: the predicted curve from a probe of `detail` alone (scan/predict/predict.h) */
   double predict_sample;       /* --sample F: the share of masters the probe reads (0 < F <= 1; default 1) */
   int64_t predict_bucket_rows; /* --bucket-rows N: the predicted buckets' rows per document (0: 100) */
   /* the workloads (scan/workloads/workload.h) */
   struct {
      unsigned set;            /* --workload: bit k = lab_scan_wl_kind_t k (default: the load alone) */
      uint64_t seed;           /* --seed: the inputs drawn from the data */
      int64_t row_keys;        /* --row-keys K (default 10,000) */
      int64_t row_batch;       /* --row-batch N rows per query (default 1) */
      int64_t range_windows;   /* --range-windows W (default 20) */
      int64_t range_window_ms; /* --range-window DUR (default 1h) */
      const char *time_field;  /* --time-field (default charge_time) */
      const char *line_field;  /* --line-field (default line_no) */
      const char *group_field; /* --group-field (default dept) */
      const char *sum_field;   /* --sum-field (default amount) */
      bool create_indexes;     /* --create-workload-indexes */
      int64_t append_rows;     /* --append-rows N (default 10,000) */
      int append_to;           /* --append-to: 0 open (default: the last tenth of the keys), 1 random */
      int64_t update_rows;     /* --update-rows N (default 10,000) */
      double mix_weight[8];    /* --mix: each lab_scan_wl_kind_t's weight (all 0: no mix; core/mix_spec.h) */
      int64_t mix_ops;         /* --mix-ops N (default 100,000) */
      double mix_rate;         /* --mix-rate OPS/S: the open loop's schedule (0: closed loop, the default) */
   } wl;
   lab_progress_mode_t progress;
   int argc; /* the command line recorded as command_line (URIs redacted); 0: none */
   char *const *argv;
} lab_scan_opts_t;

/* lab_scan_opts_init -- the defaults of DESIGN.md (bill_detail, detail_coll, bill_id, details, 4
 * workers, 1 run, alternate, drop auto, 1 s interval ...). */
void lab_scan_opts_init (lab_scan_opts_t *o);

/* Where the comparison's key and array field come from (scan/keysrc.c). */
typedef struct {
   char *key;            /* the folds' records' key (owned); NULL: none recorded */
   char *array_field;    /* their array field (owned); NULL: none recorded */
   char key_source[192]; /* "--key", "default" or "the _layoutlab record of COLL" */
   char array_source[192];
} lab_scan_keysrc_t;

/* lab_scan_key_resolve -- read the _layoutlab record of every layout's collection (ls) that fold-details
 * wrote: its params' key and (folded, buckets) array field become the comparison's when --key /
 * --array-field were not given, its shape sets the kind of a layout whose kind was not given (--folded,
 * --layout without :KIND; the reference is chosen again). Refused (LAB_ERROR_USAGE, naming both): a
 * given option that contradicts a record, two records that contradict each other. */
bool lab_scan_key_resolve (lab_store_session_t *sess, const lab_scan_opts_t *o, lab_results_layouts_t *ls,
                           lab_scan_keysrc_t *out, bson_error_t *error);

/* lab_scan_keysrc_cleanup -- free what lab_scan_key_resolve gave. */
void lab_scan_keysrc_cleanup (lab_scan_keysrc_t *ks);

/* lab_scan_layout_parse -- one --layout value, NAME=COLLECTION[:KIND] (KIND rows, folded or buckets;
 * default rows), into *out (pointing into `s`, which must outlive it; the ':' and '=' are overwritten).
 * A missing name or collection, a name with characters other than letters, digits, '_' and '-', and an
 * unknown kind are LAB_ERROR_USAGE naming the value. */
bool lab_scan_layout_parse (char *s, lab_results_layout_t *out, bson_error_t *error);

/* lab_scan_layouts_resolve -- the layouts the comparison measures: o->layouts, or "detail" (o->detail,
 * rows) and "folded" (o->folded, folded) without --layout; the reference per o->reference_layout (else
 * the first of kind rows, else the first). Refused (LAB_ERROR_USAGE): fewer than two layouts, two with
 * the same name or collection, an unknown --reference-layout. */
bool lab_scan_layouts_resolve (const lab_scan_opts_t *o, lab_results_layouts_t *out, bson_error_t *error);

/* lab_scan_run_order -- the layouts of run `run` (1-based) in the order they are measured: order[k] is
 * the index of the k-th layout. alternate rotates the first layout by one each run (run 1: as given);
 * detail-first keeps the order given; folded-first reverses it. */
void lab_scan_run_order (lab_scan_order_t order, int run, size_t n, size_t *out);

/* lab_scan_order_parse / lab_scan_drop_mode_parse -- option values; false on anything else. */
bool lab_scan_order_parse (const char *s, lab_scan_order_t *out);
bool lab_scan_drop_mode_parse (const char *s, lab_scan_drop_mode_t *out);

/* lab_scan_opts_check -- the checks that need no store: --interval at least 10ms, --calibrate-size at
 * least 1MiB, and --direct-io only on the embedded store (when `uri` is given). LAB_ERROR_USAGE. */
bool lab_scan_opts_check (const lab_scan_opts_t *o, const char *uri, bson_error_t *error);

/* ---- the cache sweep (scan/sweep.c) and locality (scan/measure/locality.c) -------------------------------
 */

/* lab_scan_sweep_points -- the points of the sweep o asks for (--cache-sizes or --cache-ratios); 0: none. */
size_t lab_scan_sweep_points (const lab_scan_opts_t *o);

/* lab_scan_sweep_opts_check -- the sweep options that need no store: --cache-sizes and --cache-ratios
 * not both, --server-cache-sweep only with a sweep, and a sweep against a MongoDB server (`uri` not
 * wiredtiger:) only with --server-cache-sweep. LAB_ERROR_USAGE. */
bool lab_scan_sweep_opts_check (const lab_scan_opts_t *o, const char *uri, bson_error_t *error);

/* lab_scan_sweep_resolve -- the one conversion of the sweep's list (--cache-sizes, else --cache-ratios) into
 * its points: bytes[i], the cache, is sizes->v[i] as given or round(ratios->v[i] x detail_on_disk); and
 * ratio[i] (may be NULL), the ratio recorded, that cache ÷ detail_on_disk (0 when the size is unknown).
 * Refused (LAB_ERROR_USAGE): a cache under LAB_STORE_MIN_CACHE_BYTES, two ratios rounding to the same
 * size, a ratio with the on-disk size unknown (<= 0). */
bool lab_scan_sweep_resolve (const lab_sizes_t *sizes, const lab_ratios_t *ratios, double detail_on_disk,
                             uint64_t *bytes, double *ratio, bson_error_t *error);

/* lab_scan_locality_pages -- the distinct leaf pages that the rows `rids` (ascending) occupy when each page
 * holds rows_per_page consecutive RecordIds counted from min_rid: row r covers pages
 * floor((r - min_rid) / rpp) .. ceil((r + 1 - min_rid) / rpp) - 1, so a document larger than a page
 * (rpp < 1) counts every page it spans. 0 when n is 0 or rows_per_page <= 0. */
int64_t lab_scan_locality_pages (const int64_t *rids, size_t n, int64_t min_rid, double rows_per_page);

/* lab_scan_locality_sample -- `sample` indexes of [0, nkeys), ascending and distinct, chosen with a fixed
 * seed (the same masters every time); all of them when nkeys <= sample. Returns how many were written to out
 * (which holds at least min(sample, nkeys)). */
int64_t lab_scan_locality_sample (int64_t nkeys, int64_t sample, int64_t *out);

/* lab_scan_run -- the whole comparison on `store`; *results (initialized by the caller) gets the results
 * document of docs/results-schema.md (restart_cmd is redacted before it is stored). */
bool lab_scan_run (lab_store_t *store, const lab_scan_opts_t *opts, bson_t *results, bson_error_t *error);

/* lab_scan_table_render -- the human-readable comparison table of a results document (medians over
 * runs): per metric one value per layout, each other layout's ratio to the reference and which is
 * better. Caller bson_free()s. */
char *lab_scan_table_render (const bson_t *results);

/* lab_scan_sweep_table_render -- the sweep's points, one line each (cache, ratio, regime, load times,
 * speedup, read amplification, locality), from a results document; NULL for a single-point file.
 * Caller bson_free()s. */
char *lab_scan_sweep_table_render (const bson_t *results);

/* lab_scan_workloads_table_render -- the workloads' ledger (results' "workloads"), one line per workload:
 * each layout's time and how many times the winner's, the winner; NULL without workloads. Caller
 * bson_free()s. */
char *lab_scan_workloads_table_render (const bson_t *results);

#endif
