/*
 * scancmp.c -- the `scancmp` tool: parse options, open the store, run the comparison (scan/run.c),
 * print the table on stdout and write the results file. Nothing else lives here.
 */
#include "scan/predict/predict.h"
#include "scan/scan.h"
#include "scan/mix/wl_mix.h"
#include "scan/workloads/workload.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
   "Usage: scancmp [--detail COLL] [--folded COLL] [--key FIELD] [--cold] [--parallel N] [--runs N]\n"
   "               [--layout NAME=COLL[:rows|folded|buckets] ... [--reference-layout NAME]]\n"
   "               [--order alternate|detail-first|folded-first] [--load-order key|random|both]\n"
   "               [--keys-limit N | --keys-file FILE]\n"
   "               [--restart-cmd CMD] [--drop-caches auto|yes|no] [--dbpath DIR] [--device NAME]\n"
   "               [--interval DURATION] [--calibrate] [-o|--out run.json] [common options]\n"
   "               [--cache-sizes SIZE,SIZE,... | --cache-ratios R,R,...] [--server-cache-sweep]\n"
   "\n"
   "Loads every master's rows from both layouts -- one document per row (--detail) and one folded document\n"
   "per master (--folded) -- side by side, optionally cold, with N parallel workers each taking a "
   "contiguous\n"
   "segment of the sorted keys (--load-order key; random shuffles them), and measures the data's disk "
   "(/proc/diskstats), server memory, engine\n"
   "cache and per-key latency. Prints the comparison table on stdout; --out keeps every figure for\n"
   "layout-report.\n"
   "\n"
   "Collections and keys:\n"
   "  --detail COLL          one-document-per-row collection (default bill_detail): what billgen wrote\n"
   "                         (its --dst) and fold-details read (its --src)\n"
   "  --folded COLL          folded collection (default detail_coll): what fold-details wrote (its --dst)\n"
   "  --layout NAME=COLL[:KIND]  a candidate layout, repeatable (2 to 8), instead of --detail/--folded:\n"
   "                         KIND rows (one document per row, the default), folded (one document per\n"
   "                         master, rows in --array-field) or buckets (several such documents per master,\n"
   "                         every one of a key loaded). --detail A --folded B is short for\n"
   "                         --layout detail=A:rows --layout folded=B:folded\n"
   "  --reference-layout NAME  the layout every ratio is against (default: the first of kind rows)\n"
   "  --key FIELD            master key field, indexed in every layout (default: the key a folded layout "
   "was\n"
   "                         folded by, from its _layoutlab record, else bill_id); a --key that contradicts\n"
   "                         that record, or two layouts folded by different keys, are refused (exit 2);\n"
   "                         so is a key none of a layout's first documents has (the fields seen named)\n"
   "  --array-field FIELD    the rows' array in folded documents (default: the record's, else details), to\n"
   "                         count rows; checked against the record as --key is. A layout whose kind is not\n"
   "                         given (--folded, --layout without :KIND) takes it from that record too\n"
   "  --keys-file FILE       keys to load, one per line (JSON value such as 42, \"A-1\", {\"$oid\": "
   "\"...\"};\n"
   "                         other text is taken as a string); default: every key of the first folded or\n"
   "                         buckets layout's index (--folded's). No key matching a document in a\n"
   "                         layout is an error (exit 1, no results); keys matching in part are warned\n"
   "                         about and recorded (keys_unmatched)\n"
   "  --keys-limit N         load N keys spread evenly over the whole sorted key range\n"
   "  --create-index         build a missing key index before measuring (instead of failing)\n"
   "  --allow-writes COLL    the writes (append, update, a --mix with them) and the index builds\n"
   "                         (--create-index, --create-workload-indexes) run only on collections a\n"
   "                         layoutlab tool wrote (its _layoutlab record); any other is refused (exit 2)\n"
   "                         before anything is sent. Measure a marked copy (fold-details --shape copy),\n"
   "                         or name the collection here, on a staging database only (repeatable or\n"
   "                         comma-separated; recorded in the results)\n"
   "\n"
   "The runs:\n"
   "  --cold                 make each layout cold before loading it: embedded store closed, files flushed\n"
   "                         out of the page cache, page cache dropped, reopened; server: --restart-cmd,\n"
   "                         page cache dropped when the server is local, wait for ping; without\n"
   "                         --restart-cmd a server's own cache stays warm: recorded as not cold\n"
   "  --drop-caches MODE     auto (drop when permitted, record when not), yes (fail when not permitted), no\n"
   "  --restart-cmd CMD      shell command that restarts the server (run with the client pool closed)\n"
   "  --restart-timeout DUR  longest the restart command may take (default 120s)\n"
   "  --ready-timeout DUR    longest wait for the server to answer ping afterwards (default 60s)\n"
   "  --parallel N           workers (default 4), each with its own session and key segment\n"
   "  --runs N               repetitions (default 1) of the load, every workload and the mix, each run\n"
   "                         cold with --cold and in the --order of its run; the table shows medians,\n"
   "                         the results keep every run (runs[] in each layout's entry), e.g. --runs 3\n"
   "  --load-order ORDER     how the keys are shared out: key (default: each worker a contiguous segment\n"
   "                         of the sorted keys, as the original experiment's batch loaders; the best case\n"
   "                         for a layout stored in key order, kept as the headline so results stay\n"
   "                         comparable with earlier files), random (the keys shuffled by --seed and dealt\n"
   "                         round-robin: an application opening bills as they are asked for), or both\n"
   "                         (the headline in key order, and a random-order load measured beside it, cold,\n"
   "                         --runs times: the workloads' row \"load (random order)\", at every sweep\n"
   "                         point). Recorded as config.load_order and runs[].load_order; the report\n"
   "                         names the order of every load figure\n"
   "  --order ORDER          alternate (default: each run rotates which layout goes first), detail-first\n"
   "                         (the order given, every run), folded-first (reversed; two layouts only)\n"
   "  --direct-io            embedded store: data files read with O_DIRECT (WiredTiger direct_io=[data]), "
   "so\n"
   "                         every engine cache miss is a disk read, as on a server whose RAM is far "
   "smaller\n"
   "                         than its data; without it a machine with spare RAM serves re-reads from the\n"
   "                         page cache. mongod does not use O_DIRECT: the results record the choice\n"
   "\n"
   "The cache sweep (one results file, one full comparison per engine cache, in order; embedded: each\n"
   "point starts from a reopened engine, so none inherits what the previous point cached):\n"
   "  --cache-sizes LIST     engine caches, smallest first, e.g. 64MiB,256MiB,1GiB (at least 1MiB each)\n"
   "  --cache-ratios LIST    caches as fractions of the detail layout's on-disk size (data + indexes,\n"
   "                         measured once before the first point), e.g. 0.25,1,2: below 1 the cache\n"
   "                         rereads pages, from 1 the data fits. Unsorted or repeated values, or a ratio\n"
   "                         giving a cache under 1MiB, are refused (exit 2) before anything is measured\n"
   "  --server-cache-sweep   a MongoDB server: set its cache with setParameter "
   "wiredTigerEngineRuntimeConfig\n"
   "                         \"cache_size=NM\" at each point and after each restart (every client sees it;\n"
   "                         through mongos each shard's primary gets its share); needs --cold and\n"
   "                         --restart-cmd (a point must not start with what the previous one cached);\n"
   "                         a server without that parameter (FerretDB) is refused before measuring (exit "
   "1)\n"
   "  --reference-runs N     the sweep's reference point (the one the top level repeats) measured N times,\n"
   "                         the other points --runs times, e.g. --cache-ratios 0.1,0.3,1,4 --runs 1\n"
   "                         --reference-runs 3 (default: --runs)\n"
   "  --locality-sample N    masters sampled for the locality figures (default 1000)\n"
   "                         Each point records per layout the read amplification (bytes the engine read\n"
   "                         from disk ÷ the layout's on-disk size) and the locality (distinct leaf pages\n"
   "                         one master's rows occupy, from their RecordIds); layout-report draws the curve\n"
   "\n"
   "Predict before folding:\n"
   "  --predict              no folded collection, no load: probe --detail alone (its key index's entries\n"
   "                         with their RecordIds, its statistics and leaf pages, and a sample of at most\n"
   "                         48 masters' rows folded in memory) and print the predicted sweep: per cache\n"
   "                         (--cache-ratios or --cache-sizes; default ratios 0.1,0.25,0.5,1,2,4) each\n"
   "                         layout's read\n"
   "                         amplification, from LRU stack distances over the page trace of the parallel\n"
   "                         load (near the knee, a miniature of WiredTiger's eviction run over the\n"
   "                         same trace); on the embedded store each layout's load time and the speedup,\n"
   "                         in key and random order, from costs the probe times (its own page reads,\n"
   "                         random reads of the collection's file, the CPU of both shapes on the sampled\n"
   "                         masters). --out writes a results file marked \"predicted\": true. With\n"
   "                         --calibrate a few masters are loaded cold then warm to refine the first\n"
   "                         page read. To set it beside a\n"
   "                         measured sweep (layout-report --prediction), predict at the measured caches:\n"
   "                         --cache-sizes with that sweep's sizes in bytes (points are paired by size).\n"
   "                         With --workload range,aggregate also those workloads' bytes read, cold, per\n"
   "                         layout (range: scancmp's own windows through the time index, which costs one\n"
   "                         pass over the rows' times, or with --sample the sampled masters' rows read by\n"
   "                         the key, scaled back with a sampling error; on a server range needs --sample;\n"
   "                         aggregate: the layout read once)\n"
   "  --sample F             (with --predict, for very large collections) read the RecordIds of a share F\n"
   "                         of the masters only (0 < F <= 1; chosen by a hash of the key: the same ones\n"
   "                         every time) and scale their misses up to the whole load (as SHARDS scales a\n"
   "                         hashed sample, Waldspurger et al. FAST 2015, corrected for pages that several\n"
   "                         masters share). Each read amplification comes with its sampling error (the\n"
   "                         sample split four ways by the same hash, the delete-a-group jackknife's: of\n"
   "                         the figure, or where larger of the knee's cache: the figure read at the cache\n"
   "                         that jackknife moves the point to); the sample's knee is printed with it\n"
   "  --bucket-rows N        (with --predict) the predicted buckets candidate's rows per document\n"
   "                         (default 100; the other candidates predicted beside detail and folded: the\n"
   "                         sorted and clustered copies and the folded layout with zstd blocks)\n"
   "\n"
   "The workloads: what each layout costs for the queries besides the load, each run cold on\n"
   "every layout with the same inputs, drawn from the data by --seed, the results compared (rows returned\n"
   "equal across layouts, aggregate totals equal, else exit 3) and recorded for layout-report's ledger:\n"
   "  --workload LIST        load (default: each master fetched whole), row (--row-keys random rows by key\n"
   "                         and line number), range (--range-windows windows of --range-window on\n"
   "                         --time-field across all masters), aggregate (total --sum-field per\n"
   "                         --group-field over every row), or all (these four); the writes,\n"
   "                         asked for by name as they change the data: append (--append-rows new rows:\n"
   "                         an insert into a rows layout, a $push onto the master's last part of a\n"
   "                         folded one) and update (--update-rows corrections: $set of --sum-field on\n"
   "                         one row, by _id / positional by line number); each write's latency, the\n"
   "                         journal and checkpoint bytes, document growth and write amplification;\n"
   "                         what they wrote is added to each written collection's _layoutlab record\n"
   "                         (writes: workload, rows appended and corrected, time, command line)\n"
   "  --append-rows N        rows appended (default 10000)\n"
   "  --append-to open|random  masters of the appends: the last tenth in key order (open, default: live\n"
   "                         billing) or any\n"
   "  --update-rows N        rows corrected (default 10000)\n"
   "  --row-keys K           rows asked for by the row workload (default 10000)\n"
   "  --row-batch N          rows per query ($or / $in of N pairs, default 1)\n"
   "  --range-windows W      windows of the range workload (default 20)\n"
   "  --range-window DUR     each window's length (default 1h)\n"
   "  --time-field F, --line-field F, --group-field F, --sum-field F\n"
   "                         the rows' fields (defaults charge_time, line_no, dept, amount)\n"
   "  --seed N               the draw of the inputs and --load-order random's shuffle (default 1)\n"
   "  --create-workload-indexes  build the index each workload needs where it is missing: rows layouts\n"
   "                         {key: 1, line: 1} (row) and {time: 1} (range), folded layouts {array.time: 1}\n"
   "                         (multikey); without it a missing one is refused (exit 2) naming the\n"
   "                         createIndex command. Their sizes join the results\n"
   "  --mix SPEC             the user's mix: one interleaved stream of operations in these\n"
   "                         proportions, TYPE=WEIGHT,... of load (one master fetched whole), row (one\n"
   "                         row by key and line), range (one window), append (one new row), update (one\n"
   "                         correction); aggregate is refused (measure it alone). A WEIGHT is a number\n"
   "                         from 0 to 1000000 (5, 0.5), each TYPE once, some WEIGHT above 0: the\n"
   "                         grammar layout-report --mix reads. Drawn from --seed,\n"
   "                         the same stream runs on every layout (cold with --cold) after the load and\n"
   "                         the workloads, the --parallel workers each taking the next op when free:\n"
   "                         per layout time, ops/s, latency per type, bytes read and written, the CPU\n"
   "                         of client and store, the verdict; its appends and corrections recorded as\n"
   "                         the workloads' are. A closed loop by default: latencies omit queueing\n"
   "  --mix-ops N            operations in the stream (default 100000)\n"
   "  --mix-rate OPS/S       an open loop: op i due at i/OPS seconds from the start, its latency timed\n"
   "                         from then (the queueing counted) beside its service time; a rate the\n"
   "                         machine cannot keep is flagged behind (achieved rate, max lag)\n"
   "\n"
   "What the client pays:\n"
   "  --decode MODE          what each worker does with every returned document, timed with its query: none\n"
   "                         (default: counted only, the store's and the wire's cost), fields (every field\n"
   "                         walked, as a driver's cursor hands them over), objects (a tree of heap objects\n"
   "                         built and freed, as the mongo shell or an ORM does). Applies to every workload\n"
   "\n"
   "Measurements:\n"
   "  --dbpath DIR           server's data directory when it runs on this machine: its disk is sampled,\n"
   "                         its files' residency recorded, --calibrate runs there\n"
   "  --device NAME          disk to sample (e.g. vda); default: the disk holding the data directory\n"
   "  --server-disk SRC      where the server's disk figures come from: auto (default: local when the "
   "server\n"
   "                         runs on this machine, else its getDiagnosticData when permitted, else none, "
   "the\n"
   "                         reason recorded), local (/proc/diskstats here), ftdc (getDiagnosticData's\n"
   "                         systemMetrics.disks; needs clusterMonitor; per shard through mongos), none\n"
   "  --server-device NAME   the server's disk in getDiagnosticData (e.g. vda); default: the disk read most\n"
   "                         during each run (the results and report say which and why)\n"
   "  --shard-uri URI        mongos: the URI of a direct connection to a shard, repeatable, in listShards "
   "order\n"
   "                         or as NAME=URI (default: mongodb://HOST:PORT/?directConnection=true from the\n"
   "                         shard's first seed, with --uri's credentials; on a cluster with access\n"
   "                         control those are the router's users, which the shards do not know: give a\n"
   "                         shard-local user here, or the run stops at discovery saying so)\n"
   "  --restart-drops-caches the restart command drops the server's page cache itself (e.g. over ssh): the\n"
   "                         results say \"dropped by the restart command\" instead of \"not possible\"\n"
   "  --interval DUR         sampling period (default 1s; getDiagnosticData is sampled at the same period)\n"
   "  --calibrate            first measure the disk's sequential MB/s and random 4 KiB reads/s (--parallel\n"
   "                         readers) with O_DIRECT on a temporary file in the data directory (removed "
   "after),\n"
   "                         and 48 never-read 4 KiB blocks against the same blocks read again (the raw\n"
   "                         device, else the data's files): rereads 5x faster mean a cache below this\n"
   "                         machine serves them, and the results say absolute times are not cold\n"
   "  --calibrate-size SIZE  size of that file (default 1GiB)\n"
   "  --calibrate-time DUR   duration of the random-read test (default 3s)\n"
   "  -o, --out FILE|-       results file (JSON, docs/results-schema.md; --output is the same option),\n"
   "                         its directory checked before anything is measured; layout-report renders it.\n"
   "                         With -, the JSON is stdout and the table goes to stderr. --json FILE|- writes\n"
   "                         the tools' common summary (docs/json-summary.md) with the same results under\n"
   "                         \"results\"\n"
   "\n"
   "%s"
   "\n"
   "Examples:\n"
   "  # cold comparison on the embedded store, 4 workers, 3 runs, results for layout-report\n"
   "  scancmp --uri wiredtiger:./data --cold --runs 3 --out run.json\n"
   "\n"
   "  # a local mongod: restart it between layouts, sample its disk, 1000 bills only\n"
   "  scancmp --uri mongodb://localhost/bills --cold --restart-cmd 'systemctl restart mongod' \\\n"
   "          --dbpath /var/lib/mongodb --keys-limit 1000 --out run.json\n"
   "\n"
   "  # a remote replica set or mongos: the server's own disk figures from getDiagnosticData\n"
   "  scancmp --uri 'mongodb://db1.example:27017/bills?directConnection=true' --server-disk ftdc \\\n"
   "          --server-device nvme0n1 --cold --restart-cmd 'ssh db1 sudo restart-and-drop' \\\n"
   "          --restart-drops-caches --out run.json\n"
   "  # four candidates in one cold run, ratios against the one-document-per-row layout\n"
   "  scancmp --uri wiredtiger:./data --cold --runs 4 --layout detail=bill_detail:rows \\\n"
   "          --layout folded=detail_coll:folded --layout buckets=bill_buckets:buckets \\\n"
   "          --layout zstd=detail_zstd:folded --out run4.json\n"
   "\n"
   "  # the regime curve: 3 cold points from a cache a quarter of the detail layout to one it fits in\n"
   "  scancmp --uri wiredtiger:./data --cold --direct-io --cache-ratios 0.25,0.7,1.5 --out sweep.json\n"
   "\n"
   "  # is folding worth it here? the predicted curve before folding anything (reads no document)\n"
   "  scancmp --uri wiredtiger:./data --predict --detail bill_detail --cache-ratios 0.1,0.3,1,4\n"
   "\n"
   "  # what folding costs: one row, a time window, a total per department, beside the load\n"
   "  scancmp --uri wiredtiger:./data --cold --workload all --create-workload-indexes --out wl.json\n"
   "\n"
   "  # the user's mix: 60%% single rows, a quarter appends, the rest loads, windows and corrections\n"
   "  scancmp --uri wiredtiger:./data --cold --parallel 4 --create-workload-indexes \\\n"
   "          --mix load=5,row=60,range=5,append=25,update=5 --mix-ops 100000 --out mix.json\n"
   "  # the same mix offered at 500 operations per second (open loop): latency as a client arriving\n"
   "  # on schedule sees it, beside the service time\n"
   "  scancmp --uri wiredtiger:./data --cold --parallel 4 --create-workload-indexes \\\n"
   "          --mix load=5,row=60,range=5,append=25,update=5 --mix-rate 500 --out open.json\n"
   "\n"
   "  # how close does the folded layout come to the disk's limits?\n"
   "  scancmp --uri wiredtiger:./data --cold --calibrate --calibrate-size 256MiB\n";

/* The short help: what --help prints. The whole reference is --help-all (above) and docs/help/. The
 * test hooks (LAYOUTLAB_DROP_CACHES_PATH, LAYOUTLAB_TEST_FORCE_REMOTE) are for tests and named in
 * tests/README.md, not in any help. */
static const char usage_short[] =
   "Usage: scancmp [--detail COLL] [--folded COLL | --layout NAME=COLL[:KIND] ...] [--cold]\n"
   "               [--parallel N] [--runs N] [--load-order key|random|both] [--workload LIST]\n"
   "               [--mix SPEC] [--cache-ratios R,R,...] [--predict] [-o FILE] [common options]\n"
   "\n"
   "Loads every master's rows from each layout -- one document per row (--detail) and one folded\n"
   "document per master (--folded), or up to 8 candidates (--layout) -- side by side, cold, with N\n"
   "parallel workers, and measures disk reads, memory, engine cache and latency; prints the comparison\n"
   "(every \"who wins\" by one rule over the runs, with its 95%% interval); --out keeps every figure\n"
   "for layout-report. Writes (append, update, a mix with them) run only on collections a layoutlab\n"
   "tool wrote.\n"
   "\n"
   "Main options:\n"
   "  --detail COLL        one document per row (default bill_detail)\n"
   "  --folded COLL        one document per master (default detail_coll)\n"
   "  --layout NAME=COLL[:rows|folded|buckets]  a candidate, repeatable (2 to 8)\n"
   "  --cold               each layout cold: engine closed, page cache dropped (server: --restart-cmd)\n"
   "  --parallel N         workers (default 4)      --runs N   repetitions, each cold (default 1)\n"
   "  --load-order ORDER   key (default), random, or both (the random-order load measured beside)\n"
   "  --workload LIST      load,row,range,aggregate,append,update or all: what each layout costs\n"
   "  --mix SPEC           the user's mix, e.g. load=5,row=60,range=5,append=25,update=5\n"
   "  --cache-ratios LIST  a cache sweep, caches as fractions of the detail layout (or --cache-sizes)\n"
   "  --direct-io          embedded: every engine cache miss is a disk read (O_DIRECT)\n"
   "  --predict            the predicted curve from the detail collection alone, before any fold\n"
   "  --allow-writes COLL  let the writes run on a collection no layoutlab tool wrote (staging only)\n"
   "  -o, --out FILE       the results file (JSON) for layout-report\n"
   "%s"
   "\n"
   "Examples:\n"
   "  # cold comparison on the embedded store, 4 workers, 3 runs, results for layout-report\n"
   "  scancmp --uri wiredtiger:./data --cold --runs 3 --out run.json\n"
   "\n"
   "  # the regime curve: 3 cold points from a quarter of the detail layout to a cache it fits in\n"
   "  scancmp --uri wiredtiger:./data --cold --direct-io --cache-ratios 0.25,0.7,1.5 --out sweep.json\n"
   "\n"
   "  # a local mongod restarted between layouts, with what folding costs beside the load\n"
   "  scancmp --uri mongodb://localhost/bills --cold --restart-cmd 'systemctl restart mongod' \\\n"
   "          --dbpath /var/lib/mongodb --workload all --create-workload-indexes --out wl.json\n"
   "\n"
   "Every option, the server's disk figures, the cold procedure and the sweep: scancmp --help-all\n"
   "(also docs/help/scancmp.txt).\n";

static const char *const order_names[] = { "alternate", "detail-first", "folded-first",
                                           NULL }; /* lab_scan_order_t */
static const char *const append_to_names[] = { "open", "random", NULL };
static const char *const drop_names[] = { "auto", "yes", "no", NULL }; /* lab_scan_drop_mode_t */
static const char *const server_disk_names[] = { "auto", "local", "ftdc", "none",
                                                 NULL }; /* lab_scan_server_disk_t */

/* check_modes -- the options that decide what kind of run this is agree: a prediction probes the key-order
 * load alone, --sample needs it, --reference-runs needs a measured sweep, --mix one measured cache, and
 * --mix-rate a mix. False with a usage error naming the two that conflict. */
static bool
check_modes (lab_scan_opts_t *o, bson_error_t *error)
{
   if (!(o->predict_sample > 0 && o->predict_sample <= 1)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--sample %g: give the share of masters the probe reads, 0 < F <= 1 (e.g. 0.01)",
                     o->predict_sample);
      return false;
   }
   if (o->predict_bucket_rows > 0 && !o->predict) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--bucket-rows sets the buckets --predict predicts: it needs --predict (a measured "
                     "buckets layout is fold-details --bucket-rows, given with --layout NAME=COLL:buckets)");
      return false;
   }
   if (o->predict_sample < 1 && !o->predict) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--sample samples the masters --predict probes: it needs --predict");
      return false;
   }
   if (o->predict && o->load_order != LAB_LOAD_ORDER_KEY) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--load-order %s with --predict: the predicted sweep is the key-order load; every "
                     "prediction also gives the random order's load times and speedup (sweep[].speed.random)",
                     lab_scan_load_order_names ()[o->load_order]);
      return false;
   }
   if (o->load_order == LAB_LOAD_ORDER_BOTH) {
      o->wl.set |= 1u << LAB_WL_LOAD; /* the key-order row the random-order one is read beside */
   }
   if (o->predict && lab_scan_wl_any (o) &&
       (o->wl.set & ~((1u << LAB_WL_LOAD) | (1u << LAB_WL_RANGE) | (1u << LAB_WL_AGGREGATE)))) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--predict predicts the load, range and aggregate workloads: run the others (row, "
                     "append, update) in a measured comparison");
      return false;
   }
   if (o->reference_runs > 0 && (o->predict || (o->cache_sizes.n == 0 && o->cache_ratios.n == 0))) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--reference-runs sets the runs of a measured cache sweep's reference point: it needs "
                     "--cache-sizes or --cache-ratios, and not --predict");
      return false;
   }
   if (lab_scan_mix_on (o) && (o->predict || o->cache_sizes.n > 0 || o->cache_ratios.n > 0)) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "--mix is measured at one cache, --runs times: not with --predict, --cache-sizes or --cache-ratios");
      return false;
   }
   if (o->wl.mix_rate > 0 && !lab_scan_mix_on (o)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--mix-rate paces the stream of --mix: give --mix SPEC too");
      return false;
   }
   return true;
}

/* parse_args -- fill the options; returns false with a usage error. The --layout values are split into
 * owned copies (owned[i], bson_free()d by the caller): argv stays as given, for the command line the
 * results record. */
static bool
parse_args (int argc, char **argv, lab_cli_common_t *c, lab_scan_opts_t *o, const char **out,
            lab_cli_list_t *shards, lab_cli_list_t *layouts, lab_cli_list_t *allow, char **owned,
            bson_error_t *error)
{
   const char *detail = NULL, *folded = NULL, *key = NULL, *array_field = NULL;
   int32_t range_window_ms = (int32_t)o->wl.range_window_ms;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--detail", 0, &detail),
      LAB_CLI_OPT_STRING ("--folded", 0, &folded),
      LAB_CLI_OPT_LIST ("--layout", 0, layouts),
      LAB_CLI_OPT_STRING ("--reference-layout", 0, &o->reference_layout),
      LAB_CLI_OPT_STRING ("--key", 0, &key),
      LAB_CLI_OPT_STRING ("--array-field", 0, &array_field),
      LAB_CLI_OPT_STRING ("--keys-file", 0, &o->keys_file),
      LAB_CLI_OPT_INT ("--keys-limit", 0, &o->keys_limit, 1, INT64_MAX),
      LAB_CLI_OPT_FLAG ("--create-index", 0, &o->create_index),
      LAB_CLI_OPT_LIST ("--allow-writes", 0, allow),
      LAB_CLI_OPT_FLAG ("--cold", 0, &o->cold),
      LAB_CLI_OPT_ENUM ("--drop-caches", 0, &o->drop_caches, drop_names),
      LAB_CLI_OPT_STRING ("--restart-cmd", 0, &o->restart_cmd),
      LAB_CLI_OPT_DURATION_MS ("--restart-timeout", 0, &o->restart_timeout_ms),
      LAB_CLI_OPT_DURATION_MS ("--ready-timeout", 0, &o->ready_timeout_ms),
      LAB_CLI_OPT_INT ("--parallel", 0, &o->parallel, 1, 1024),
      LAB_CLI_OPT_INT ("--runs", 0, &o->runs, 1, 1000),
      LAB_CLI_OPT_INT ("--reference-runs", 0, &o->reference_runs, 1, 1000),
      LAB_CLI_OPT_ENUM ("--order", 0, &o->order, order_names),
      LAB_CLI_OPT_ENUM ("--load-order", 0, &o->load_order, lab_scan_load_order_names ()),
      LAB_CLI_OPT_FLAG ("--direct-io", 0, &o->direct_io),
      LAB_CLI_OPT_STRING ("--dbpath", 0, &o->dbpath),
      LAB_CLI_OPT_STRING ("--device", 0, &o->device),
      LAB_CLI_OPT_ENUM ("--server-disk", 0, &o->server_disk, server_disk_names),
      LAB_CLI_OPT_STRING ("--server-device", 0, &o->server_device),
      LAB_CLI_OPT_FLAG ("--restart-drops-caches", 0, &o->restart_drops_caches),
      LAB_CLI_OPT_LIST ("--shard-uri", 0, shards),
      LAB_CLI_OPT_DURATION ("--interval", 0, &o->interval_ns),
      LAB_CLI_OPT_FLAG ("--calibrate", 0, &o->calibrate),
      LAB_CLI_OPT_SIZE ("--calibrate-size", 0, &o->calibrate_bytes),
      LAB_CLI_OPT_DURATION ("--calibrate-time", 0, &o->calibrate_rand_ns),
      LAB_CLI_OPT_STRING ("--out", 'o', out),
      LAB_CLI_OPT_ALIAS ("--output", 0, "--out"),
      LAB_CLI_OPT_SIZES ("--cache-sizes", 0, &o->cache_sizes, "cache sizes", "give e.g. 64MiB,256MiB,1GiB"),
      LAB_CLI_OPT_RATIOS ("--cache-ratios", 0, &o->cache_ratios, "ratios",
                          "a cache as a fraction of the detail layout's on-disk size, e.g. 0.25,1,2"),
      LAB_CLI_OPT_FLAG ("--server-cache-sweep", 0, &o->server_cache_sweep),
      LAB_CLI_OPT_INT ("--locality-sample", 0, &o->locality_sample, 1, 1000000),
      LAB_CLI_OPT_FLAG ("--predict", 0, &o->predict),
      LAB_CLI_OPT_DOUBLE ("--sample", 0, &o->predict_sample),
      LAB_CLI_OPT_INT ("--bucket-rows", 0, &o->predict_bucket_rows, 1, 1000000),
      LAB_CLI_OPT_CUSTOM ("--workload", 0, &o->wl.set, lab_scan_wl_parse_opt),
      LAB_CLI_OPT_INT ("--seed", 0, &o->wl.seed, 0, INT64_MAX),
      LAB_CLI_OPT_INT ("--row-keys", 0, &o->wl.row_keys, 1, 100000000),
      LAB_CLI_OPT_INT ("--row-batch", 0, &o->wl.row_batch, 1, 100000),
      LAB_CLI_OPT_INT ("--range-windows", 0, &o->wl.range_windows, 1, 1000000),
      LAB_CLI_OPT_DURATION_MS ("--range-window", 0, &range_window_ms),
      LAB_CLI_OPT_STRING ("--time-field", 0, &o->wl.time_field),
      LAB_CLI_OPT_STRING ("--line-field", 0, &o->wl.line_field),
      LAB_CLI_OPT_STRING ("--group-field", 0, &o->wl.group_field),
      LAB_CLI_OPT_STRING ("--sum-field", 0, &o->wl.sum_field),
      LAB_CLI_OPT_FLAG ("--create-workload-indexes", 0, &o->wl.create_indexes),
      LAB_CLI_OPT_INT ("--append-rows", 0, &o->wl.append_rows, 1, 100000000),
      LAB_CLI_OPT_ENUM ("--append-to", 0, &o->wl.append_to, append_to_names),
      LAB_CLI_OPT_INT ("--update-rows", 0, &o->wl.update_rows, 1, 100000000),
      LAB_CLI_OPT_CUSTOM ("--mix", 0, o->wl.mix_weight, lab_scan_mix_parse_opt),
      LAB_CLI_OPT_INT ("--mix-ops", 0, &o->wl.mix_ops, 1, 1000000000),
      LAB_CLI_OPT_CUSTOM ("--mix-rate", 0, &o->wl.mix_rate, lab_scan_mix_rate_parse_opt),
      LAB_CLI_OPT_ENUM ("--decode", 0, &o->decode, lab_scan_decode_names ()),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = c };
   size_t i;

   if (!lab_cli_parse (&spec, argc, argv, 1, error)) {
      return false;
   }
   if (range_window_ms <= 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--range-window must be at least 1ms");
      return false;
   }
   o->wl.range_window_ms = range_window_ms;
   if (!check_modes (o, error)) {
      return false;
   }
   if (layouts->n > 0 && (detail || folded)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--%s with --layout: name every candidate with --layout (--detail A --folded B is "
                     "short for --layout detail=A:rows --layout folded=B:folded)",
                     detail ? "detail" : "folded");
      return false;
   }
   if (layouts->n > LAB_RESULTS_MAX_LAYOUTS) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--layout given %zu times: at most %d layouts", layouts->n, LAB_RESULTS_MAX_LAYOUTS);
      return false;
   }
   for (i = 0; i < layouts->n; i++) {
      /* the parse splits its string in place: a copy, so that argv stays as the user gave it */
      owned[i] = bson_strdup (layouts->v[i]);
      {
         /* a kind given says what to measure; without one the fold's record may say it (keysrc.c) */
         const char *eq = strchr (owned[i], '=');
         o->kind_given[i] = eq && strchr (eq, ':') != NULL;
      }
      if (!lab_scan_layout_parse (owned[i], &o->layouts[i], error)) {
         return false;
      }
   }
   o->nlayouts = layouts->n;
   if (layouts->n == 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--layout given once: a comparison needs at least two layouts");
      return false;
   }
   if (o->reference_layout && layouts->n == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--reference-layout names one of the --layout names: give the layouts with --layout");
      return false;
   }
   /* given or not: a fold's _layoutlab record supplies what was not given and may not be contradicted */
   o->key_given = key != NULL;
   o->array_field_given = array_field != NULL;
   o->key = key ? key : o->key;
   o->array_field = array_field ? array_field : o->array_field;
   o->detail = detail ? detail : o->detail;
   o->folded = folded ? folded : o->folded;
   {
      char **names = NULL;
      if (!lab_parse_names (allow->v, allow->n, "--allow-writes", &names, error)) {
         return false;
      }
      o->allow_writes = (const char *const *)names;
   }
   return true;
}

/* main -- options, store, lab_scan_run, results file, table; errors to exit codes. */
int
main (int argc, char **argv)
{
   lab_cli_run_t cli;
   lab_cli_list_t shards = { 0 }, layouts = { 0 }, allow = { 0 };
   lab_cli_common_t c;
   lab_scan_opts_t o;
   lab_store_opts_t so = { 0 };
   lab_store_t *store = NULL;
   const char *out = NULL;
   char *owned[LAB_RESULTS_MAX_LAYOUTS] = { 0 };
   bson_error_t error = { 0 };
   bson_t results = BSON_INITIALIZER, summary;
   char *table = NULL;
   int rc = LAB_EXIT_OK;
   bool ran = false;
   bson_error_t differ = { 0 };

   lab_cli_run_start (&cli, "scancmp", argc, argv);
   lab_log_set_tool ("scancmp");
   lab_log_sink_set (lab_log_sink_stderr, NULL);
   lab_cli_common_init (&c);
   lab_scan_opts_init (&o);
   if (!parse_args (argc, argv, &c, &o, &out, &shards, &layouts, &allow, owned, &error)) {
      rc = lab_cli_usage_exit (&error);
      goto cleanup;
   }
   o.argc = argc;
   o.argv = argv;
   o.shard_uris = shards.v;
   o.nshard_uris = shards.n;
   o.uri = c.uri;
   o.server_timeout_ms = c.server_timeout_ms;
   if (c.help) {
      printf (c.help_all ? usage : usage_short,
              c.help_all ? lab_cli_common_help () : lab_cli_common_help_short ());
      goto cleanup;
   }
   if (c.version) {
      printf ("scancmp %s\n", LAB_VERSION);
      goto cleanup;
   }
   lab_log_set (&c);
   o.progress = c.progress;
   o.cache_size_bytes = c.cache_size_bytes;
   /* the output files before anything is measured: an hour of runs must not end on a missing directory */
   if (!lab_scan_opts_check (&o, c.uri, &error) || !lab_cli_output_check (out, "--out", &error) ||
       !lab_cli_output_check (c.json_path, "--json", &error)) {
      rc = lab_cli_usage_exit (&error); /* before any work: no summary */
      goto cleanup;
   }

   so.db = c.db;
   so.cache_size_bytes = c.cache_size_bytes;
   so.progress = c.progress;
   so.direct_io = o.direct_io;
   so.create = false;
   so.connect_timeout_ms = c.server_timeout_ms;
   so.tool = "scancmp";
   so.argc = argc;
   so.argv = argv;
   so.allow_writes = o.allow_writes;
   store = lab_store_open (c.uri, &so, &error);
   if (!store) {
      char *shown = lab_uri_redact (c.uri);
      lab_error_prefix (&error, "cannot open %s", shown);
      bson_free (shown);
      goto fail;
   }
   if (!(o.predict ? lab_scan_predict_run (store, &o, &results, &error)
                   : lab_scan_run (store, &o, &results, &error))) {
      if (error.domain != LAB_ERROR_VERIFY) {
         goto fail;
      }
      /* the workloads' layouts returned different results: the file and the table show them, exit 3 */
      differ = error;
   }
   ran = true;
   if (out && !lab_json_write (&results, out, &error)) {
      lab_error_prefix (&error, "writing --out %s", out);
      goto fail;
   }
   {
      bson_iter_t runs;
      /* --workload without load: no load table, the ledger alone */
      bool load = o.predict || bson_iter_init_find (&runs, &results, "runs");
      table = o.predict ? lab_scan_predict_table_render (&results)
              : load    ? lab_scan_table_render (&results)
                        : bson_strdup ("");
   }
   if (!o.predict) {
      char *extra[3] = { lab_scan_sweep_table_render (&results), lab_scan_workloads_table_render (&results),
                         lab_scan_mix_table_render (&results) };
      for (int e = 0; e < 3; e++) {
         if (extra[e]) {
            char *both = bson_strdup_printf ("%s%s", table ? table : "", extra[e]);
            bson_free (table);
            bson_free (extra[e]);
            table = both;
         }
      }
   }
   /* JSON on stdout (--out - or --json -) keeps stdout machine-readable: the table goes to stderr */
   if ((out && !strcmp (out, "-")) || (c.json_path && !strcmp (c.json_path, "-"))) {
      if (!c.quiet) {
         fputs (table, stderr);
      }
   } else {
      fputs (table, stdout);
   }
   if (out && strcmp (out, "-") != 0) {
      lab_log_info ("results written to %s", out);
   }
   if (differ.domain) {
      error = differ;
      goto fail;
   }
   goto summary;

fail:
   lab_log_error ("%s", error.message);
   rc = lab_error_exit_code (&error);
summary:
   /* --json: the common header, then the results document (the same as --out's) under "results" */
   if (c.json_path) {
      lab_cli_summary_init (&summary, &cli, rc, rc == LAB_EXIT_OK ? NULL : &error);
      if (ran) {
         BSON_APPEND_DOCUMENT (&summary, "results", &results);
      }
      if (!lab_json_write (&summary, c.json_path, &error)) {
         lab_log_error ("writing --json %s: %s", c.json_path, error.message);
         rc = LAB_EXIT_FAILURE;
      }
      bson_destroy (&summary);
   }
cleanup:
   bson_free (table);
   lab_store_close (store);
   for (size_t i = 0; i < LAB_RESULTS_MAX_LAYOUTS; i++) {
      bson_free (owned[i]);
   }
   lab_sizes_free (&o.cache_sizes);
   lab_ratios_free (&o.cache_ratios);
   bson_destroy (&results);
   lab_cli_list_free (&shards);
   lab_cli_list_free (&layouts);
   lab_cli_list_free (&allow);
   bson_strfreev ((char **)o.allow_writes);
   return rc;
}
