/*
 * render_sections.c -- the report's sections after the comparison: charts, environment (with the
 * deployment), dataset, cold procedure, per-run figures and the device ceiling.
 */
#include "compare/render_private.h"
#include "core/uri.h"

/* md_num -- append the number at `path` of doc in unit, or "n/a". */
static void
md_num (bson_string_t *o, const bson_t *doc, const char *path, lab_unit_t unit)
{
   double v;

   if (lab_results_get_number (doc, path, &v)) {
      lab_cmp_md_number (o, LAB_CMP_UNIT (unit), v);
   } else {
      bson_string_append (o, "n/a");
   }
}

/* md_bool -- append yes / no / n/a for the boolean at path. */
static void
md_bool (bson_string_t *o, const bson_t *doc, const char *path)
{
   bool b;

   bson_string_append (o, lab_results_get_bool (doc, path, &b) ? (b ? "yes" : "no") : "n/a");
}

/* lab_cmp_render_charts -- see render_private.h. */
void
lab_cmp_render_charts (bson_string_t *o, const lab_cmp_render_opts_t *opts, const lab_cmp_sweep_t *s)
{
   size_t i, n_sweep = 0, n_totals = 0, n_latency = 0;

   bson_string_append (o, "## Charts\n\n");
   if (!opts || opts->n_charts == 0) {
      bson_string_append (o, "Charts were skipped: ");
      lab_cmp_md_text (o, opts && opts->charts_note ? opts->charts_note : "none were requested");
      bson_string_append (o, ".\n\n");
      return;
   }
   for (i = 0; i < opts->n_charts; i++) {
      size_t len = strlen (opts->charts[i].file);
      if (len >= 10 && strcmp (opts->charts[i].file + len - 10, "-sweep.svg") == 0) {
         n_sweep++;
      }
   }
   if (n_sweep > 0) {
      bson_string_append (o,
                          "The sweep chart has every point (log scales; a dashed line separates "
                          "neighbouring points measured in different regimes, each named above its points)");
      if (s && s->ref < s->n && opts->n_charts > n_sweep) {
         bson_string_append (o, "; the other charts show the reference point, ");
         lab_cmp_md_point (o, &s->p[s->ref]);
      }
      bson_string_append (o, opts->n_charts > n_sweep ? ". " : ".\n\n");
   }
   for (i = 0; i < opts->n_charts; i++) {
      size_t len = strlen (opts->charts[i].file);
      n_totals += opts->charts[i].totals;
      n_latency += len >= 12 && strcmp (opts->charts[i].file + len - 12, "-latency.svg") == 0;
   }
   if (opts->n_charts > n_sweep + n_totals + n_latency) {
      bson_string_append (o, "Both layouts start at 0 s. The thick line is each layout's median run "
                             "(by load time); thin lines are its other runs.");
      bson_string_append (o, n_totals ? " " : "\n\n");
   }
   if (n_totals) {
      bson_string_append_printf (o,
                                 "A load sampled fewer than %d times would be a dot on a time chart: those "
                                 "charts show each layout's total (or peak) of its median run instead.\n\n",
                                 LAB_CMP_SHORT_LOAD_SAMPLES);
   }
   for (i = 0; i < opts->n_charts; i++) {
      bson_string_append (o, "![");
      lab_cmp_md_text (o, opts->charts[i].caption);
      bson_string_append (o, "](");
      /* file names are ours (stem + fixed suffix); escape only what would end the link */
      for (const char *p = opts->charts[i].file; *p; p++) {
         if (*p == ' ') {
            bson_string_append (o, "%20");
         } else if (*p == '(' || *p == ')') {
            bson_string_append_printf (o, "%%%02X", (unsigned)*p);
         } else {
            bson_string_append_c (o, *p);
         }
      }
      bson_string_append (o, ")\n\n");
   }
}

/* kv_str -- "| key | value |" with the value escaped. */
static void
kv_str (bson_string_t *o, const char *key, const char *value)
{
   bson_string_append_printf (o, "| %s | ", key);
   lab_cmp_md_text (o, value);
   bson_string_append (o, " |\n");
}

#define LAB_SCAN_REPORT_MAX_SERVERS 16

/* render_deployment -- the topology (kind, set, member or shards, what the figures follow) and where the
 * disk figures come from (source, device and why), when the results record them. */
static void
render_deployment (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   const char *kind = lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_KIND);
   const char *src =
      lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE "." LAB_RESULTS_KEY_DISK_SOURCE_SOURCE);
   const char *s;
   bson_t run;
   bson_iter_t it, arr;
   char path[64];
   int i;

   if (kind) {
      bson_string_append (o, "| topology | ");
      lab_cmp_md_text (o, kind);
      s = lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_SET_NAME);
      if (s && *s) {
         bson_string_append (o, " (set ");
         lab_cmp_md_text (o, s);
         bson_string_append (o, ")");
      }
      s = lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_MEMBER);
      if (s && *s) {
         bson_string_append (o, ", member ");
         lab_cmp_md_text (o, s);
      }
      if (bson_iter_init_find (&it, d, LAB_RESULTS_KEY_TOPOLOGY) && BSON_ITER_HOLDS_DOCUMENT (&it) &&
          bson_iter_recurse (&it, &arr) && bson_iter_find (&arr, LAB_RESULTS_KEY_TOPOLOGY_SHARDS) &&
          BSON_ITER_HOLDS_ARRAY (&arr)) {
         bson_iter_t sh;
         bool first = true;
         bson_iter_recurse (&arr, &sh);
         while (bson_iter_next (&sh)) {
            bson_iter_t f;
            if (BSON_ITER_HOLDS_DOCUMENT (&sh) && bson_iter_recurse (&sh, &f) &&
                bson_iter_find (&f, "name") && BSON_ITER_HOLDS_UTF8 (&f)) {
               bson_string_append (o, first ? ", shards: " : ", ");
               lab_cmp_md_text (o, bson_iter_utf8 (&f, NULL));
               first = false;
            }
         }
      }
      bson_string_append (o, " |\n");
      kv_str (o, "server figures follow",
              lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_NOTE));
   }
   if (src) {
      bson_string_append (o, "| disk figures from | ");
      lab_cmp_md_text (o, !strcmp (src, "ftdc")    ? "the server's getDiagnosticData (FTDC)"
                          : !strcmp (src, "local") ? "this machine's /proc/diskstats"
                                                   : "nowhere (not measured)");
      s = lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE ".device");
      if (s) {
         bson_string_append (o, ", device ");
         lab_cmp_md_text (o, s);
      }
      /* the reason, less a tail that repeats the source already named ("the embedded store: this
       * machine's /proc/diskstats") */
      s = lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE ".reason");
      if (s && *s) {
         const char *named = !strcmp (src, "local") ? ": this machine's /proc/diskstats" : NULL;
         size_t n = strlen (s), k = named ? strlen (named) : 0;
         char *reason = bson_strndup (s, named && n > k && !strcmp (s + n - k, named) ? n - k : n);
         bson_string_append (o, " (");
         lab_cmp_md_text (o, reason);
         bson_string_append (o, ")");
         bson_free (reason);
      }
      s = lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE ".local_device");
      if (s) {
         bson_string_append (o, "; the tables' device figures are this machine's /proc/diskstats of ");
         lab_cmp_md_text (o, s);
         bson_string_append (o, ", the server's beside them in the results (runs[].server_disk)");
      }
      bson_string_append (o, " |\n");
   }
   /* FTDC: the disk each server's figures were read from in the first run, and why */
   if (lab_cmp_run_get (r, 0, &run)) {
      for (i = 0; i < LAB_SCAN_REPORT_MAX_SERVERS; i++) {
         const char *name, *dev, *why;
         snprintf (path, sizeof path, LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.name", i);
         if (!(name = lab_results_get_string (&run, path))) {
            break;
         }
         snprintf (path, sizeof path, LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.device", i);
         dev = lab_results_get_string (&run, path);
         snprintf (path, sizeof path, LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.device_reason", i);
         why = lab_results_get_string (&run, path);
         bson_string_append (o, "| server disk (FTDC) of ");
         lab_cmp_md_text (o, name);
         bson_string_append (o, " | ");
         lab_cmp_md_text (o, dev);
         bson_string_append (o, " (");
         lab_cmp_md_text (o, why);
         bson_string_append (o, ") |\n");
      }
   }
}

/* md_clustered_embedded -- the row naming the clustered layouts measured on the embedded store (scancmp's
 * dataset.<layout>.clustered, or an older file's provenance: fold-details --shape clustered): the engine is
 * 4.2's, the layout 5.3+'s, and the row says which parts are mongod's (docs/mongodb-compat.md §23). */
static void
md_clustered_embedded (bson_string_t *o, const bson_t *d)
{
   const char *backend = lab_results_get_string (d, "backend.name");
   lab_results_layouts_t ls;
   char path[256];
   size_t l, n = 0;
   bool b;

   if (!backend || strcmp (backend, "wiredtiger") != 0) {
      return;
   }
   lab_results_layouts (d, &ls);
   for (l = 0; l < ls.n; l++) {
      const char *shape;
      snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.clustered", ls.l[l].name);
      b = lab_results_get_bool (d, path, &b) && b;
      snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.provenance.params.shape", ls.l[l].name);
      shape = lab_results_get_string (d, path);
      if (!b && !(shape && strcmp (shape, "clustered") == 0)) {
         continue;
      }
      bson_string_append (o, n++ ? ", " : "| clustered layout on the embedded store | ");
      lab_cmp_md_text (o, ls.l[l].name);
   }
   if (n > 0) {
      bson_string_append (o,
                          ": a 5.3+ layout on the 4.2 engine (WiredTiger 3.2.1): keys and record format are "
                          "mongod's byte for byte; page images, eviction and checkpoints are 3.2.1's |\n");
   }
}

/* lab_cmp_render_environment -- see render_private.h. */
void
lab_cmp_render_environment (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   const char *dev = lab_results_get_string (d, "device.name");
   double ra;
   bool b;

   if (!dev) {
      dev = lab_results_get_string (d, "config.device");
   }
   bson_string_append (o, "## Environment\n\n| | |\n|---|---|\n");
   kv_str (o, "host", lab_results_get_string (d, "host.hostname"));
   kv_str (o, "kernel", lab_results_get_string (d, "host.kernel"));
   kv_str (o, "CPU", lab_results_get_string (d, "host.cpu_model"));
   bson_string_append (o, "| cores | ");
   md_num (o, d, "host.cores", LAB_UNIT_COUNT);
   bson_string_append (o, " |\n| RAM | ");
   md_num (o, d, "host.ram_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " |\n");
   kv_str (o, "data device", dev);
   if (lab_results_get_number (d, "device.read_ahead_kb", &ra)) {
      /* MongoDB's production notes: 8-32 KiB of readahead under WiredTiger */
      bson_string_append_printf (o, "| device readahead | %.0f KiB%s |\n", ra,
                                 ra > 32
                                    ? " (MongoDB recommends 8–32 KiB for WiredTiger: larger windows inflate "
                                      "each random read)"
                                    : "");
   }
   bson_string_append (o, "| backend | ");
   lab_cmp_md_backend (o, d);
   bson_string_append (o, " |\n");
   md_clustered_embedded (o, d);
   if (lab_results_product (d)) {
      const char *warn = lab_results_product_warning (lab_results_product (d));
      bson_string_append (o, "| server product | ");
      lab_cmp_md_text (o, lab_results_product (d));
      if (warn) {
         bson_string_append (o, " (");
         bson_string_append (o, warn);
         bson_string_append (o, ")");
      }
      bson_string_append (o, " |\n");
   }
   if (lab_results_get_string (d, "backend.uri")) {
      /* scancmp records it redacted; a file from elsewhere may not have been */
      char *uri = lab_uri_redact (lab_results_get_string (d, "backend.uri"));
      kv_str (o, "URI (redacted)", uri);
      bson_free (uri);
   } else {
      kv_str (o, "URI (redacted)", NULL);
   }
   if (lab_results_get_string (d, "backend.allocator")) {
      kv_str (o, "allocator (embedded engine)", lab_results_get_string (d, "backend.allocator"));
   }
   kv_str (o, "database", lab_results_get_string (d, "backend.db"));
   bson_string_append (o, "| server on this host | ");
   bson_string_append (o, lab_results_get_bool (d, "backend.server_local", &b) ? (b ? "yes" : "no") : "n/a");
   bson_string_append (o, " |\n| engine cache maximum | ");
   /* a cache as configured: binary, as every other mention of it */
   {
      double v;
      if (lab_results_get_number (d, "backend.cache_max_bytes", &v)) {
         lab_cmp_md_number (o, LAB_CMP_BINARY, v);
      } else {
         bson_string_append (o, "n/a");
      }
   }
   bson_string_append (o, " |\n| measured by | ");
   lab_cmp_md_tool (o, d);
   bson_string_append (o, " |\n");
   render_deployment (o, r);
   kv_str (o, "started", lab_results_header (d, LAB_RESULTS_KEY_STARTED));
   kv_str (o, "finished", lab_results_header (d, LAB_RESULTS_KEY_FINISHED));
   bson_string_append (o, "\n");
}

/* lab_cmp_render_dataset -- see render_private.h. */
void
lab_cmp_render_dataset (bson_string_t *o, const lab_cmp_results_t *r)
{
   static const struct {
      const char *field, *label;
      lab_unit_t unit;
   } rows[] = {
      { "count", "documents", LAB_UNIT_COUNT },
      { "avg_obj_size_bytes", "average document size", LAB_UNIT_BYTES },
      { "data_size_bytes", "data size (uncompressed)", LAB_UNIT_BYTES },
      { "storage_size_bytes", "storage size (on disk)", LAB_UNIT_BYTES },
      { "index_size_bytes", "index size", LAB_UNIT_BYTES },
      { "nindexes", "indexes", LAB_UNIT_COUNT },
   };
   const bson_t *d = &r->doc;
   lab_results_layouts_t ls;
   double dc, fc, keys;
   size_t i, l;
   char path[160];

   lab_results_layouts (d, &ls);
   bson_string_append (o, "## Dataset\n\n|");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, " | ");
      lab_cmp_md_text (o, lab_cmp_layout_heading (&ls, l));
   }
   bson_string_append (o, " |\n|---|");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, "--:|");
   }
   bson_string_append (o, "\n| collection |");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, " ");
      lab_cmp_md_text (o, lab_cmp_collection_name (r, ls.l[l].name));
      bson_string_append (o, " |");
   }
   bson_string_append (o, "\n");
   if (!lab_cmp_classic_pair (&ls)) {
      bson_string_append (o, "| kind |");
      for (l = 0; l < ls.n; l++) {
         bson_string_append (o, " ");
         lab_cmp_md_text (o, ls.l[l].kind);
         bson_string_append (o, " |");
      }
      bson_string_append (o, "\n");
   }
   for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      bson_string_append_printf (o, "| %s |", rows[i].label);
      for (l = 0; l < ls.n; l++) {
         snprintf (path, sizeof path, "dataset.%s.%s", ls.l[l].name, rows[i].field);
         bson_string_append (o, " ");
         md_num (o, d, path, rows[i].unit);
         bson_string_append (o, " |");
      }
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n- masters (distinct ");
   lab_cmp_md_text (o, lab_results_get_string (d, "config.key") ? lab_results_get_string (d, "config.key")
                                                                : "key");
   bson_string_append (o, " values) loaded per layout and run: ");
   md_num (o, d, "dataset.keys", LAB_UNIT_COUNT);
   if (lab_cmp_classic_pair (&ls)) {
      bson_string_append (o, "\n- rows per master (detail documents ÷ folded documents): ");
      if (lab_results_get_number (d, "dataset.detail.count", &dc) &&
          lab_results_get_number (d, "dataset.folded.count", &fc) && fc > 0) {
         bson_string_append_printf (o, "%.1f", dc / fc);
      } else {
         bson_string_append (o, "n/a");
      }
   } else {
      /* a buckets layout's documents per master is its point: how many reads one master costs */
      bson_string_append (o, "\n- documents per master (documents ÷ masters in the collection's key "
                             "index when every master was loaded): ");
      for (l = 0; l < ls.n; l++) {
         snprintf (path, sizeof path, "dataset.%s.count", ls.l[l].name);
         bson_string_append (o, l ? ", " : "");
         lab_cmp_md_text (o, ls.l[l].name);
         bson_string_append (o, " ");
         if (lab_results_get_number (d, path, &dc) && lab_results_get_number (d, "dataset.keys", &keys) &&
             keys > 0) {
            bson_string_append_printf (o, "%.1f", dc / keys);
         } else {
            bson_string_append (o, "n/a");
         }
      }
   }
   bson_string_append (o, "\n- array field of the folded documents: ");
   lab_cmp_md_text (o, lab_results_get_string (d, "config.array_field"));
   bson_string_append (o, "\n");
   lab_cmp_render_state (o, r);
   bson_string_append (o, "\n");
}

/* render_background -- after the cold table: what else ran on the machine during each run (recorded
 * since the machines are shared), each busy run flagged next to the figures it may have slowed. */
static void
render_background (bson_string_t *o, const lab_cmp_results_t *r)
{
   int i, n = lab_cmp_runs_n (r), known = 0;
   double cores_max = 0, v;
   bson_t run;
   bool b;

   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run) || !lab_results_get_number (&run, "background.other_cores", &v)) {
         continue;
      }
      known++;
      cores_max = v > cores_max ? v : cores_max;
      if (lab_results_get_bool (&run, "background.busy", &b) && b) {
         bson_string_append (o, "- run ");
         md_num (o, &run, "run", LAB_UNIT_COUNT);
         bson_string_append (o, " ");
         lab_cmp_md_text (o, lab_results_get_string (&run, "layout"));
         bson_string_append (o, ": **the machine was busy**: ");
         lab_cmp_md_text (o, lab_results_get_string (&run, "background.busy_note"));
         bson_string_append (o, "\n");
      }
   }
   if (known > 0) {
      bson_string_append_printf (o,
                                 "- other processes on this machine used at most %.2f cores during a run "
                                 "(`runs[].background`)\n\n",
                                 cores_max);
   }
}

/* render_rereads -- the reread probe of --calibrate: blocks never read against the same blocks read again
 * (O_DIRECT); where the rereads were served by a cache below this machine, the sentence that says what the
 * absolute times are worth. */
static void
render_rereads (bson_string_t *o, const bson_t *d)
{
   double a, b, c, e;
   bool cached = false;

   if (!lab_results_get_number (d, "calibration.first_read_p50_ms", &a) ||
       !lab_results_get_number (d, "calibration.first_read_p90_ms", &b) ||
       !lab_results_get_number (d, "calibration.reread_p50_ms", &c) ||
       !lab_results_get_number (d, "calibration.reread_p90_ms", &e)) {
      return;
   }
   bson_string_append_printf (
      o,
      "- 4 KiB O_DIRECT reads of blocks never read: p50 %.3f ms, p90 %.3f ms; the same "
      "blocks read again: p50 %.3f ms, p90 %.3f ms (",
      a, b, c, e);
   lab_cmp_md_text (o, lab_results_get_string (d, "calibration.reread_source"));
   bson_string_append (o, ")\n");
   if (lab_results_get_bool (d, "calibration.rereads_cached", &cached) && cached) {
      bson_string_append (o,
                          "- **a cache below this machine served re-reads: absolute times are not cold; the "
                          "ratios between layouts hold**\n");
   }
}

/* lab_cmp_render_cold -- see render_private.h. */
void
lab_cmp_render_cold (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   int i, n = lab_cmp_runs_n (r);
   bson_t run;
   double v;
   bool b;

   bson_string_append (o, "## Cold procedure\n\n");
   bson_string_append (o, "- cold runs requested (`--cold`): ");
   md_bool (o, d, "config.cold");
   bson_string_append (o, "\n- drop the OS page cache (`--drop-caches`): ");
   lab_cmp_md_text (o, lab_results_get_string (d, "config.drop_caches"));
   if (lab_results_get_bool (d, "config.direct_io", &b) && b) {
      bson_string_append (o,
                          "\n- data files read with O_DIRECT (`--direct-io`): every engine cache miss is a "
                          "disk read, as on a server whose RAM is far smaller than its data");
   } else if (lab_results_get_bool (d, "config.direct_io", &b)) {
      bson_string_append (
         o, "\n- data files read through the OS page cache (no `--direct-io`, as mongod reads): "
            "an engine cache miss the page cache holds costs no disk read");
   }
   bson_string_append (o, "\n- restart command: ");
   if (lab_results_get_string (d, "config.restart_cmd")) {
      bson_string_append (o, "`");
      /* inside a code span only a backtick needs care */
      for (const char *p = lab_results_get_string (d, "config.restart_cmd"); *p; p++) {
         bson_string_append_c (o, (*p == '`' || *p == '\n') ? '\'' : *p);
      }
      bson_string_append (o, "`");
   } else {
      bson_string_append (o, "none");
   }
   bson_string_append (o, "\n- order of layouts: ");
   lab_cmp_md_text (o, lab_results_get_string (d, "config.order"));
   bson_string_append_printf (o, "; load order: %s", lab_results_load_order (d));
   if (lab_results_get_string (d, "config.load_order") &&
       strcmp (lab_results_get_string (d, "config.load_order"), "both") == 0) {
      bson_string_append (o, " (and random, the workloads' \"load (random order)\")");
   }
   bson_string_append (o, "; parallel workers: ");
   md_num (o, d, "config.parallel", LAB_UNIT_COUNT);
   bson_string_append (o, "; runs: ");
   md_num (o, d, "config.runs", LAB_UNIT_COUNT);
   {
      double ref_runs;
      if (lab_results_get_number (d, "config.reference_runs", &ref_runs)) {
         bson_string_append (o, " (at the sweep's reference point: ");
         md_num (o, d, "config.reference_runs", LAB_UNIT_COUNT);
         bson_string_append (o, ")");
      }
   }
   bson_string_append (o, "; sampling interval: ");
   md_num (o, d, "config.interval_s", LAB_UNIT_SECONDS);
   bson_string_append (o, "\n\n");
   bson_string_append (o, "| run | layout | went | engine restarted | server restarted | caches dropped | "
                          "resident before | note |\n|--:|---|--:|---|---|---|--:|---|\n");
   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      bson_string_append (o, "| ");
      md_num (o, &run, "run", LAB_UNIT_COUNT);
      bson_string_append (o, " | ");
      lab_cmp_md_text (o, lab_results_get_string (&run, "layout"));
      bson_string_append (o, " | ");
      if (lab_results_get_number (&run, "order_in_run", &v)) {
         bson_string_append (o, v == 1 ? "first" : v == 2 ? "second" : "later");
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      md_bool (o, &run, "cold.engine_restarted");
      bson_string_append (o, " | ");
      md_bool (o, &run, "cold.server_restarted");
      bson_string_append (o, " | ");
      md_bool (o, &run, "cold.caches_dropped");
      bson_string_append (o, " | ");
      if (lab_results_get_number (&run, "cold.resident_pct_before", &v)) {
         bson_string_append_printf (o, "%.1f%%", v);
         if (lab_results_get_number (&run, "cold.resident_bytes_before", &v)) {
            bson_string_append (o, " (");
            lab_cmp_md_number (o, LAB_CMP_BYTES, v);
            if (lab_results_get_number (&run, "cold.file_bytes", &v)) {
               bson_string_append (o, " of ");
               lab_cmp_md_number (o, LAB_CMP_BYTES, v);
            }
            bson_string_append (o, ")");
         }
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      lab_cmp_md_text (o, lab_results_get_string (&run, "cold.drop_caches_note"));
      if (lab_results_get_bool (&run, "cold.started_cold", &b) && !b &&
          lab_results_get_string (&run, "cold.reason")) {
         bson_string_append (o, "; **not cold**: ");
         lab_cmp_md_text (o, lab_results_get_string (&run, "cold.reason"));
      }
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
   render_background (o, r);
}

/* lab_cmp_render_runs -- see render_private.h. */
void
lab_cmp_render_runs (bson_string_t *o, const lab_cmp_results_t *r)
{
   static const struct {
      const char *path;
      lab_unit_t unit;
   } cols[] = {
      { "elapsed_s", LAB_UNIT_SECONDS },
      { "docs", LAB_UNIT_COUNT },
      { "read_requests", LAB_UNIT_COUNT },
      { "read_bytes", LAB_UNIT_BYTES },
      { "rates.read_requests_per_s_peak", LAB_UNIT_RATE },
      { "rates.read_mb_s_peak", LAB_UNIT_MB_S },
      { "rates.avg_read_request_bytes", LAB_UNIT_BYTES },
      { "latency_ms.p95", LAB_UNIT_MS },
      { "memory.server_rss_peak_bytes", LAB_UNIT_BYTES },
   };
   int i, n = lab_cmp_runs_n (r);
   size_t c;
   bson_t run;

   bson_string_append (o, "## Per-run figures\n\n");
   bson_string_append_printf (o, "| run | layout | load time (%s order) | documents",
                              lab_results_load_order (&r->doc));
   bson_string_append (o, " | read requests | disk read | peak read "
                          "req/s | peak read MB/s | avg request | latency p95 | peak RSS |\n"
                          "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      bson_string_append (o, "| ");
      md_num (o, &run, "run", LAB_UNIT_COUNT);
      bson_string_append (o, " | ");
      lab_cmp_md_text (o, lab_results_get_string (&run, "layout"));
      for (c = 0; c < sizeof cols / sizeof cols[0]; c++) {
         bson_string_append (o, " | ");
         md_num (o, &run, cols[c].path, cols[c].unit);
      }
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
}

/* lab_cmp_render_ceiling -- see render_private.h. */
void
lab_cmp_render_ceiling (bson_string_t *o, const lab_cmp_results_t *r)
{
   lab_results_layouts_t ls;
   const bson_t *d = &r->doc;
   double seq, iops, v;
   bool has_seq = lab_results_get_number (d, "calibration.seq_read_mb_s", &seq);
   bool has_iops = lab_results_get_number (d, "calibration.rand_read_4k_iops", &iops);
   int l;

   bson_string_append (o, "## Device ceiling\n\n");
   if (!has_seq && !has_iops) {
      bson_string_append (o, "Not measured: run scancmp with `--calibrate` to record the device's sequential "
                             "and random read limits next to the figures above.\n\n");
      return;
   }
   bson_string_append (o, "- sequential reads: ");
   md_num (o, d, "calibration.seq_read_mb_s", LAB_UNIT_MB_S);
   bson_string_append (o, "\n- random 4 KiB reads: ");
   md_num (o, d, "calibration.rand_read_4k_iops", LAB_UNIT_RATE);
   bson_string_append (o, "\n- measured on a file of ");
   md_num (o, d, "calibration.file_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " in ");
   md_num (o, d, "calibration.elapsed_s", LAB_UNIT_SECONDS);
   bson_string_append (o, "\n");
   render_rereads (o, d);
   lab_results_layouts (&r->doc, &ls);
   for (l = 0; l < (int)ls.n; l++) {
      lab_stat_t rr = lab_results_metric_stat (&r->doc, ls.l[l].name,
                                               lab_results_metric_find ("read_requests_per_s_peak"));
      lab_stat_t mb =
         lab_results_metric_stat (&r->doc, ls.l[l].name, lab_results_metric_find ("read_mb_s_peak"));
      bson_string_append (o, "- ");
      lab_cmp_md_text (o, ls.l[l].name);
      bson_string_append (o, " peaks: ");
      if (rr.present && has_iops && iops > 0) {
         v = rr.median / iops * 100.0;
         bson_string_append_printf (
            o, v < 9.95 ? "%.1f%% of the random-read ceiling" : "%.0f%% of the random-read ceiling", v);
      } else {
         bson_string_append (o, "n/a of the random-read ceiling");
      }
      if (mb.present && has_seq && seq > 0) {
         v = mb.median / seq * 100.0;
         bson_string_append_printf (
            o, v < 9.95 ? ", %.1f%% of the sequential throughput" : ", %.0f%% of the sequential throughput",
            v);
      } else {
         bson_string_append (o, ", n/a of the sequential throughput");
      }
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n");
}
