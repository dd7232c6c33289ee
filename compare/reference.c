/*
 * reference.c -- another experiment's published figures beside this run's (layout-report --reference):
 * reading a reference file (datasets/reference/README.md has its format), converting each published
 * figure into the unit of the metric catalogue (core/results.h), and the report section that puts both
 * tables side by side and says which differences come from the cache regime and which from the client.
 * Pure functions of the two documents; nothing prints.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/error.h"

/* ---- units ------------------------------------------------------------------------------------- */

typedef struct {
   const char *name;
   lab_unit_t unit; /* the catalogue unit it converts into */
   double factor;   /* published value x factor = value in that unit */
} unit_def_t;

/* Every unit a reference file may publish in. Sizes: SI (KB, MB, GB, TB: powers of 1000) and binary
 * (KiB, MiB, GiB, TiB: powers of 1024) are distinct, as written; the catalogue's sizes are bytes and its
 * throughputs MB/s (10^6 B/s). */
static const unit_def_t units[] = {
   { "count", LAB_UNIT_COUNT, 1.0 },
   { "/s", LAB_UNIT_RATE, 1.0 },
   { "s", LAB_UNIT_SECONDS, 1.0 },
   { "min", LAB_UNIT_SECONDS, 60.0 },
   { "ms", LAB_UNIT_SECONDS, 1e-3 },
   { "ms", LAB_UNIT_MS, 1.0 },
   { "s", LAB_UNIT_MS, 1e3 },
   { "%", LAB_UNIT_PCT, 1.0 },
   { "B", LAB_UNIT_BYTES, 1.0 },
   { "KB", LAB_UNIT_BYTES, 1e3 },
   { "MB", LAB_UNIT_BYTES, 1e6 },
   { "GB", LAB_UNIT_BYTES, 1e9 },
   { "TB", LAB_UNIT_BYTES, 1e12 },
   { "KiB", LAB_UNIT_BYTES, 1024.0 },
   { "MiB", LAB_UNIT_BYTES, 1048576.0 },
   { "GiB", LAB_UNIT_BYTES, 1073741824.0 },
   { "TiB", LAB_UNIT_BYTES, 1099511627776.0 },
   { "B/s", LAB_UNIT_MB_S, 1e-6 },
   { "KB/s", LAB_UNIT_MB_S, 1e-3 },
   { "MB/s", LAB_UNIT_MB_S, 1.0 },
   { "GB/s", LAB_UNIT_MB_S, 1e3 },
   { "KiB/s", LAB_UNIT_MB_S, 1024.0 / 1e6 },
   { "MiB/s", LAB_UNIT_MB_S, 1048576.0 / 1e6 },
   { "GiB/s", LAB_UNIT_MB_S, 1073741824.0 / 1e6 },
};

/* lab_cmp_unit_factor -- see cmp.h. */
bool
lab_cmp_unit_factor (const char *published, lab_unit_t unit, double *factor)
{
   for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
      if (units[i].unit == unit && strcmp (units[i].name, published) == 0) {
         *factor = units[i].factor;
         return true;
      }
   }
   return false;
}

/* unit_choices -- the published units that convert into `unit`, comma-separated, for an error. */
static void
unit_choices (lab_unit_t unit, char *buf, size_t len)
{
   buf[0] = '\0';
   for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
      if (units[i].unit == unit) {
         size_t n = strlen (buf);
         bson_snprintf (buf + n, len - n, "%s%s", n ? ", " : "", units[i].name);
      }
   }
}

/* ---- loading ----------------------------------------------------------------------------------- */

/* read_side -- reference metric `i`'s published value for one layout: a number, or null/absent (not
 * given). False with *error for anything else. */
static bool
read_side (const bson_t *m, const char *layout, const char *name, size_t i, bool *present, double *v,
           bson_error_t *error)
{
   bson_iter_t it;

   *present = false;
   if (!bson_iter_init_find (&it, m, layout) || BSON_ITER_HOLDS_NULL (&it)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_NUMBER (&it)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: metrics[%zu].%s is not a number (a published figure, or null when not given)", name,
                     i, layout);
      return false;
   }
   *v = bson_iter_as_double (&it);
   *present = true;
   return true;
}

/* load_metrics -- the metrics[] of the reference, each checked against the catalogue and converted. */
static bool
load_metrics (lab_cmp_reference_t *ref, bson_error_t *error)
{
   bson_iter_t it, arr;
   size_t n = 0, i = 0;

   if (!bson_iter_init_find (&it, &ref->doc, "metrics") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &arr)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: no \"metrics\" array: nothing to compare", ref->name);
      return false;
   }
   while (bson_iter_next (&arr)) {
      n++;
   }
   if (n == 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"metrics\" is empty: nothing to compare", ref->name);
      return false;
   }
   ref->m = bson_malloc0 (n * sizeof *ref->m);
   bson_iter_recurse (&it, &arr);
   while (bson_iter_next (&arr)) {
      lab_cmp_ref_metric_t *rm = &ref->m[i];
      const uint8_t *data;
      uint32_t len;
      bson_t m;
      double f = 1.0;
      char choices[160];

      if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: metrics[%zu] is not an object", ref->name, i);
         return false;
      }
      bson_iter_document (&arr, &len, &data);
      bson_init_static (&m, data, len);
      const char *name = lab_results_get_string (&m, "metric");
      rm->metric = name ? lab_results_metric_find (name) : NULL;
      if (!rm->metric) {
         lab_error_set (
            error, LAB_ERROR_IO, EINVAL,
            "%s: metrics[%zu]: \"metric\" %s%s%s is not in the metric catalogue (core/results.c): "
            "use a catalogue name such as elapsed_s or server_rss_peak_bytes",
            ref->name, i, name ? "'" : "missing", name ? name : "", name ? "'" : "");
         return false;
      }
      rm->label = lab_results_get_string (&m, "label");
      rm->note = lab_results_get_string (&m, "note");
      rm->unit = lab_results_get_string (&m, "unit");
      if (!read_side (&m, "detail", ref->name, i, &rm->has_detail, &rm->published_detail, error) ||
          !read_side (&m, "folded", ref->name, i, &rm->has_folded, &rm->published_folded, error)) {
         return false;
      }
      if ((rm->has_detail || rm->has_folded) &&
          (!rm->unit || !lab_cmp_unit_factor (rm->unit, rm->metric->unit, &f))) {
         unit_choices (rm->metric->unit, choices, sizeof choices);
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: metrics[%zu] (%s): unit %s%s%s cannot be converted into the catalogue's; use "
                        "one of: %s",
                        ref->name, i, rm->metric->name, rm->unit ? "'" : "missing", rm->unit ? rm->unit : "",
                        rm->unit ? "'" : "", choices);
         return false;
      }
      rm->detail = rm->published_detail * (rm->has_detail ? f : 0.0);
      rm->folded = rm->published_folded * (rm->has_folded ? f : 0.0);
      i++;
   }
   ref->n = n;
   return true;
}

/* lab_cmp_reference_load_json -- see cmp.h. */
bool
lab_cmp_reference_load_json (const char *data, size_t len, const char *name, lab_cmp_reference_t *out,
                             bson_error_t *error)
{
   bson_error_t jerr;
   double version;
   bool ok = false;

   memset (out, 0, sizeof *out);
   out->name = bson_strdup (name);
   if (!bson_init_from_json (&out->doc, data, (ssize_t)len, &jerr)) {
      bson_init (&out->doc);
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: not a reference file: invalid JSON (%s)", name,
                     jerr.message);
      goto done;
   }
   if (!lab_results_get_number (&out->doc, "reference_version", &version) || version != 1) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: not a reference file of version 1 (\"reference_version\": 1 missing or another "
                     "version); see datasets/reference/README.md",
                     name);
      goto done;
   }
   if (!load_metrics (out, error)) {
      goto done;
   }
   ok = true;

done:
   if (!ok) {
      lab_cmp_reference_cleanup (out);
   }
   return ok;
}

/* lab_cmp_reference_load_file -- see cmp.h. */
bool
lab_cmp_reference_load_file (const char *path, lab_cmp_reference_t *out, bson_error_t *error)
{
   FILE *f = fopen (path, "rb");
   bson_string_t *s = NULL;
   char buf[8192];
   size_t n;
   bool ok = false;
   const char *base = strrchr (path, '/');

   memset (out, 0, sizeof *out);
   if (!f) {
      lab_error_set_errno (error, errno, "cannot open reference file %s", path);
      return false;
   }
   s = bson_string_new (NULL);
   while ((n = fread (buf, 1, sizeof buf, f)) > 0) {
      bson_string_append_printf (s, "%.*s", (int)n, buf);
   }
   if (ferror (f)) {
      lab_error_set_errno (error, errno, "cannot read reference file %s", path);
   } else {
      ok = lab_cmp_reference_load_json (s->str, s->len, base ? base + 1 : path, out, error);
   }
   fclose (f);
   bson_string_free (s, true);
   return ok;
}

/* lab_cmp_reference_cleanup -- see cmp.h. */
void
lab_cmp_reference_cleanup (lab_cmp_reference_t *ref)
{
   if (ref->name) { /* the document is initialised whenever the name is set */
      bson_destroy (&ref->doc);
   }
   bson_free (ref->m);
   bson_free (ref->name);
   memset (ref, 0, sizeof *ref);
}

/* ---- rendering --------------------------------------------------------------------------------- */

/* md_val_or -- append v in unit, or `missing` when absent. */
static void
md_val_or (bson_string_t *o, bool present, lab_unit_t unit, double v, const char *missing)
{
   if (!present) {
      bson_string_append (o, missing);
      return;
   }
   lab_cmp_md_number (o, LAB_CMP_UNIT (unit), v);
}

/* md_val -- append v in unit, or "not given" (a reference figure the source does not publish). */
static void
md_val (bson_string_t *o, bool present, lab_unit_t unit, double v)
{
   md_val_or (o, present, unit, v, "not given");
}

/* md_ratio_cell -- folded / detail as a percentage, or "n/a". */
static void
md_ratio_cell (bson_string_t *o, bool present, double detail, double folded)
{
   if (!present || detail == 0.0) {
      bson_string_append (o, "n/a");
      return;
   }
   lab_cmp_md_number (o, LAB_CMP_RATIO_PCT, folded / detail);
}

/* The figures of this run that the section compares: a single-point file, or the sweep point in the
 * reference's regime. */
typedef struct {
   const bson_t *doc;  /* where run figures are read (the file or the chosen sweep point) */
   const bson_t *top;  /* where dataset figures are read (the file) */
   const char *regime; /* lab_results_point_regime, "unknown" */
   bool has_ratio, has_amp;
   double ratio, amp, cache_bytes; /* cache_bytes 0: unknown */
   lab_sweep_point_t single;       /* a single-point file's figures as a point (the regime's inputs) */
   const lab_sweep_point_t *pt;    /* the point the regime is of: a sweep's chosen one, else &top */
   bool is_sweep;
   size_t point; /* the sweep point used */
} this_run_t;

/* stat_of -- metric m of `layout` in this run. */
static lab_stat_t
stat_of (const this_run_t *t, const char *layout, const lab_metric_t *m)
{
   return lab_results_metric_stat (m->run_path ? t->doc : t->top, layout, m);
}

/* choose_run -- which figures of r stand beside the reference: for a sweep, the point with the largest
 * cache among those in the reference's regime (else, for a reference that fits in cache, the largest
 * one that fits in memory; else the file's reference point); a single-point file as it is. `points` (n of
 * them) were filled by the caller. */
static void
choose_run (const lab_cmp_results_t *r, const lab_sweep_point_t *points, size_t n, const char *ref_regime,
            this_run_t *t)
{
   memset (t, 0, sizeof *t);
   t->top = &r->doc;
   t->doc = &r->doc;
   t->regime = "unknown";
   if (n > 0) {
      size_t best = lab_results_sweep_reference (&r->doc), near = SIZE_MAX;
      bool found = false;
      for (size_t i = 0; ref_regime && i < n; i++) {
         const char *regime = lab_results_point_regime (&points[i]);
         if (strcmp (regime, ref_regime) == 0) {
            best = i; /* points are in increasing cache size: the last match is the largest */
            found = true;
         } else if (strcmp (regime, LAB_RESULTS_REGIME_MEMORY) == 0) {
            near = i;
         }
      }
      /* no point fits in the engine cache: one the page cache held is the nearest (the disk read each
       * page about once there too) */
      if (!found && near != SIZE_MAX && strcmp (ref_regime, LAB_RESULTS_REGIME_FITS) == 0) {
         best = near;
      }
      if (best >= n) {
         best = 0;
      }
      const lab_sweep_point_t *p = &points[best];
      t->is_sweep = true;
      t->point = best;
      t->doc = &p->doc;
      t->regime = lab_results_point_regime (p);
      t->has_ratio = p->cache_ratio > 0;
      t->ratio = p->cache_ratio;
      t->has_amp = p->has_amplification[0];
      t->amp = p->read_amplification[0];
      t->cache_bytes = p->cache_size_bytes;
      t->pt = p;
      return;
   }
   /* a single-point file: its top level read as a point, so the regime follows the same rule */
   lab_results_top_point (&r->doc, &t->single);
   t->pt = &t->single;
   t->has_ratio = t->single.cache_ratio > 0;
   t->ratio = t->single.cache_ratio;
   t->cache_bytes = t->single.cache_size_bytes;
   t->has_amp = t->single.has_amplification[0];
   t->amp = t->single.read_amplification[0];
   t->regime = lab_results_point_regime (&t->single);
}

/* ref_find -- the reference's entry for catalogue metric `name`, or NULL. */
static const lab_cmp_ref_metric_t *
ref_find (const lab_cmp_reference_t *ref, const char *name)
{
   for (size_t i = 0; i < ref->n; i++) {
      if (strcmp (ref->m[i].metric->name, name) == 0) {
         return &ref->m[i];
      }
   }
   return NULL;
}

/* md_bytes_exact -- " = 52,400,000,000 B = 48.80 GiB". */
static void
md_bytes_exact (bson_string_t *o, double bytes)
{
   bson_string_append (o, " = ");
   md_val (o, true, LAB_UNIT_COUNT, round (bytes));
   bson_string_append_printf (o, " B = %.2f GiB", bytes / 1073741824.0);
}

/* render_units_note -- how the sizes were converted, exactly. */
static void
render_units_note (bson_string_t *o, const lab_cmp_reference_t *ref, const this_run_t *t)
{
   bool any = false;

   for (size_t i = 0; i < ref->n; i++) {
      const lab_cmp_ref_metric_t *rm = &ref->m[i];
      if (rm->metric->unit != LAB_UNIT_BYTES && rm->metric->unit != LAB_UNIT_MB_S) {
         continue;
      }
      if (!rm->has_detail && !rm->has_folded) {
         continue;
      }
      if (!any) {
         bson_string_append (o, "Units: every size in this table is SI (1 KB = 10^3 B, 1 MB = 10^6 B, "
                                "1 GB = 10^9 B; 1 GiB = 2^30 B = 1.0737 GB).");
         any = true;
      }
      bool si = strchr (rm->unit, 'i') == NULL;
      bson_string_append (o, " The reference's ");
      lab_cmp_md_text (o, rm->label ? rm->label : rm->metric->label);
      bson_string_append (o, " was published as ");
      for (int l = 0; l < 2; l++) {
         bool has = l == 0 ? rm->has_detail : rm->has_folded;
         double pv = l == 0 ? rm->published_detail : rm->published_folded;
         double v = l == 0 ? rm->detail : rm->folded;
         if (!has) {
            continue;
         }
         if (l == 1 && rm->has_detail) {
            bson_string_append (o, " and ");
         }
         bson_string_append_printf (o, "%g %s", pv, rm->unit);
         if (rm->metric->unit == LAB_UNIT_BYTES) {
            md_bytes_exact (o, v);
         }
      }
      if (si && rm->metric->unit == LAB_UNIT_BYTES) {
         bson_string_append (o, ", read as SI units as written; had its tool meant binary units (top and "
                                "mongostat print GiB and call them G), the figures would be ");
         double f = 1.0;
         lab_cmp_unit_factor (rm->unit, LAB_UNIT_BYTES, &f);
         double k = (f >= 1e12  ? 1099511627776.0 / 1e12
                     : f >= 1e9 ? 1073741824.0 / 1e9
                     : f >= 1e6 ? 1048576.0 / 1e6
                                : 1024.0 / 1e3);
         for (int l = 0; l < 2; l++) {
            bool has = l == 0 ? rm->has_detail : rm->has_folded;
            if (!has) {
               continue;
            }
            if (l == 1 && rm->has_detail) {
               bson_string_append (o, " and ");
            }
            md_val (o, true, LAB_UNIT_BYTES, (l == 0 ? rm->detail : rm->folded) * k);
         }
         bson_string_append_printf (o, " (%.1f%% more)", (k - 1.0) * 100.0);
      } else if (!si) {
         bson_string_append (o, ", converted from binary units");
      } else {
         bson_string_append (o, ", the table's unit");
      }
      bson_string_append (o, ".");
      if (rm->metric->unit == LAB_UNIT_BYTES) {
         for (int l = 0; l < 2; l++) {
            lab_stat_t s = stat_of (t, l == 0 ? LAB_RESULTS_DETAIL : LAB_RESULTS_FOLDED, rm->metric);
            if (!s.present) {
               continue;
            }
            bson_string_append (o, l == 0 ? " This run's: " : " and ");
            md_val (o, true, LAB_UNIT_BYTES, s.median);
            md_bytes_exact (o, s.median);
         }
         bson_string_append (o, ".");
      }
   }
   if (any) {
      bson_string_append (o, "\n\n");
   }
}

/* render_differences -- the sentences: size, regime, client, and what the rates and memory compare. */
static void
render_differences (bson_string_t *o, const lab_cmp_reference_t *ref, const this_run_t *t,
                    const lab_sweep_point_t *points, size_t n_points)
{
   const char *ref_regime = lab_results_get_string (&ref->doc, "regime");
   const char *client = lab_results_get_string (&ref->doc, "client");
   const lab_metric_t *elapsed = lab_results_metric_find ("elapsed_s");
   const lab_cmp_ref_metric_t *re = ref_find (ref, "elapsed_s");
   lab_stat_t ed = stat_of (t, LAB_RESULTS_DETAIL, elapsed), ef = stat_of (t, LAB_RESULTS_FOLDED, elapsed);
   bool ref_speed = re && re->has_detail && re->has_folded && re->folded > 0;
   bool run_speed = ed.present && ef.present && ef.median > 0;
   const lab_cmp_ref_metric_t *rc = ref_find (ref, "count");
   const lab_metric_t *count = lab_results_metric_find ("count");
   lab_stat_t cd = stat_of (t, LAB_RESULTS_DETAIL, count), cf = stat_of (t, LAB_RESULTS_FOLDED, count);

   bson_string_append (o, "What the differences come from:\n\n");
   /* size */
   if (rc && rc->has_detail && rc->detail > 0 && cd.present) {
      bson_string_append (o, "- **Size**: this run has ");
      md_val (o, true, LAB_UNIT_COUNT, cd.median);
      bson_string_append (o, " detail documents");
      if (cf.present) {
         bson_string_append (o, " in ");
         md_val (o, true, LAB_UNIT_COUNT, cf.median);
         bson_string_append (o, " masters");
      }
      bson_string_append_printf (o,
                                 ", %.4g times the reference's: load times, bytes and memory scale with the "
                                 "data; ratios and per-second rates do not.\n",
                                 cd.median / rc->detail);
   }
   /* regime */
   bson_string_append (o, "- **Regime** (cache vs data): the reference was measured ");
   if (ref_regime) {
      bson_string_append (o, "in the **");
      lab_cmp_md_text (o, ref_regime);
      bson_string_append (o, "** regime");
   } else {
      bson_string_append (o, "in a regime its file does not name");
   }
   bson_string_append (o, "; this run's figures above are ");
   if (t->is_sweep) {
      bson_string_append_printf (o, "those of sweep point %zu (", t->point);
      lab_cmp_md_number (o, LAB_CMP_BINARY, t->cache_bytes);
      bson_string_append_printf (o, " of cache, ratio %.2f)", t->ratio);
   } else if (t->has_ratio) {
      bson_string_append_printf (o, "at a cache ratio of %.2f", t->ratio);
   } else {
      bson_string_append (o, "at an unknown cache ratio");
   }
   bson_string_append (o, ", in the **");
   lab_cmp_md_text (o, t->regime);
   bson_string_append (o, "** regime");
   if (t->pt && t->pt->buffered_io && t->pt->has_disk_amplification[0] && t->has_amp) {
      /* buffered reads: the engine's figure is not the disk's */
      bson_string_append (o, " (");
      lab_cmp_md_engine_disk (o, t->pt, LAB_RESULTS_DETAIL);
      bson_string_append (o, ")");
   } else if (t->has_amp) {
      bson_string_append_printf (o, " (the detail layout read %.2fx its size on disk)", t->amp);
   }
   bool same = ref_regime && strcmp (ref_regime, t->regime) == 0;
   if (!same && ref_regime && strcmp (ref_regime, LAB_RESULTS_REGIME_FITS) == 0 &&
       strcmp (t->regime, LAB_RESULTS_REGIME_MEMORY) == 0) {
      bson_string_append (o, ". Next to the reference's regime: the disk read the detail layout about once, "
                             "as in the reference, but the engine cache is too small for its pages and "
                             "reread them from the OS page cache (no `--direct-io`). That costs copies and "
                             "decompression, not disk reads: the disk rows compare, the load times carry "
                             "the engine's extra work (which the detail layout pays far more than the "
                             "folded one), so compare the load-time ratio with caution.\n");
   } else if (same) {
      bson_string_append (o, ". The same regime: each page is read about once in both experiments, so the "
                             "regime does not explain the differences between the two tables.\n");
   } else {
      bson_string_append (o, ". Not the reference's regime: the load-time ratio, the read requests and the "
                             "cache use differ mostly because of it (a cache smaller than the data makes the "
                             "detail layout reread its pages, which the folded layout barely does), so "
                             "compare these rows with caution.\n");
   }
   for (size_t i = 0; i < n_points; i++) {
      const lab_sweep_point_t *p = &points[i];
      if (i == t->point || !p->has_speedup) {
         continue;
      }
      bson_string_append_printf (o, "  At the sweep's other point %zu (", i);
      lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      bson_string_append_printf (o, ", ratio %.2f, **%s**", p->cache_ratio, lab_results_point_regime (p));
      if (p->has_amplification[0]) {
         bson_string_append_printf (o, ", detail read amplification %.2fx", p->read_amplification[0]);
         if (p->buffered_io && p->has_disk_amplification[0]) {
            bson_string_append_printf (o, ", disk %.2fx", p->disk_read_amplification[0]);
         }
      }
      bson_string_append (o, ") the folded layout loaded ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, p->speedup);
      bson_string_append (o, strcmp (lab_results_point_regime (p), ref_regime ? ref_regime : "") == 0
                                ? " faster.\n"
                                : " faster: the regime's effect, which the reference did not measure.\n");
   }
   /* client */
   bson_string_append (o, "- **Client**: the reference's client was ");
   lab_cmp_md_text (o, client ? client : "not named");
   bson_string_append (o,
                       "; this run's is layoutlab's C client (libbson documents, no per-field decoding). ");
   if (ref_speed && run_speed) {
      bson_string_append (o, "The folded layout loaded ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, re->folded > 0 ? re->detail / re->folded : 0.0);
      bson_string_append (o, " faster in the reference and ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, ef.median > 0 ? ed.median / ef.median : 0.0);
      bson_string_append (o, " faster here. ");
   }
   bson_string_append (o, "A client that turns every row into objects (the mongo shell builds a JavaScript "
                          "object per row) adds the same time per row to both layouts, which pulls the "
                          "load-time ratio toward 100% and caps how fast either layout can ask the disk for "
                          "data: ");
   if (same) {
      bson_string_append (o, "with the regime the same, the gap between the two load-time ratios and the "
                             "peak disk rates come mostly from the client (and from the devices, which "
                             "differ).\n");
   } else {
      bson_string_append (o, "part of the gap between the two load-time ratios is the client's, the rest "
                             "the regime's (above).\n");
   }
   /* memory and cache */
   bson_string_append (o, "- **Memory**: the reference's server memory and cache use are a server's "
                          "(its engine cache sized by mongod's rule on its machine); this run's are the "
                          "process holding the embedded engine with the cache above. Their values depend "
                          "on the machines and cache sizes: compare the folded / detail ratios, which "
                          "depend on the layouts.\n\n");
}

/* lab_cmp_render_reference -- see cmp.h. */
void
lab_cmp_render_reference (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_reference_t *ref)
{
   const char *name = lab_results_get_string (&ref->doc, "name");
   const char *source = lab_results_get_string (&ref->doc, "source");
   const char *setup = lab_results_get_string (&ref->doc, "setup");
   const char *ref_regime = lab_results_get_string (&ref->doc, "regime");
   size_t n_points = lab_results_sweep_n (&r->doc);
   lab_sweep_point_t *points = bson_malloc0 ((n_points + 1) * sizeof *points);
   this_run_t t;

   for (size_t i = 0; i < n_points; i++) {
      lab_results_sweep_point (&r->doc, i, &points[i]);
   }
   choose_run (r, points, n_points, ref_regime, &t);

   bson_string_append (o, "## Beside ");
   lab_cmp_md_text (o, name ? name : "the reference experiment");
   bson_string_append (o, "\n\nReference: ");
   lab_cmp_md_text (o, ref->name);
   if (source) {
      bson_string_append (o, " (");
      lab_cmp_md_text (o, source);
      bson_string_append (o, ")");
   }
   bson_string_append (o, ".");
   if (setup) {
      bson_string_append (o, " ");
      lab_cmp_md_text (o, setup);
      bson_string_append (o, ".");
   }
   bson_string_append (o, " Its figures are converted into this report's units; ratios are folded / "
                          "detail.\n\n");
   bson_string_append (o, "| metric | reference: detail | reference: folded | reference: ratio | this run: "
                          "detail | this run: folded | this run: ratio |\n");
   bson_string_append (o, "|---|---|---|---|---|---|---|\n");
   for (size_t i = 0; i < ref->n; i++) {
      const lab_cmp_ref_metric_t *rm = &ref->m[i];
      lab_stat_t d = stat_of (&t, LAB_RESULTS_DETAIL, rm->metric),
                 f = stat_of (&t, LAB_RESULTS_FOLDED, rm->metric);
      bson_string_append (o, "| ");
      lab_cmp_md_text (o, rm->label ? rm->label : rm->metric->label);
      bson_string_append (o, " | ");
      md_val (o, rm->has_detail, rm->metric->unit, rm->detail);
      bson_string_append (o, " | ");
      md_val (o, rm->has_folded, rm->metric->unit, rm->folded);
      bson_string_append (o, " | ");
      md_ratio_cell (o, rm->has_detail && rm->has_folded, rm->detail, rm->folded);
      bson_string_append (o, " | ");
      md_val_or (o, d.present, rm->metric->unit, d.median, "n/a");
      bson_string_append (o, " | ");
      md_val_or (o, f.present, rm->metric->unit, f.median, "n/a");
      bson_string_append (o, " | ");
      md_ratio_cell (o, d.present && f.present, d.median, f.median);
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
   for (size_t i = 0; i < ref->n; i++) {
      const lab_cmp_ref_metric_t *rm = &ref->m[i];
      if (rm->note) {
         bson_string_append (o, "- ");
         lab_cmp_md_text (o, rm->label ? rm->label : rm->metric->label);
         bson_string_append (o, ": ");
         lab_cmp_md_text (o, rm->note);
         bson_string_append (o, "\n");
      }
   }
   bson_string_append (o, "- This run's row of each metric is the catalogue's (");
   for (size_t i = 0; i < ref->n; i++) {
      bson_string_append_printf (o, "%s`%s`", i ? ", " : "", ref->m[i].metric->name);
   }
   bson_string_append (o, "), the median over runs.\n\n");
   render_units_note (o, ref, &t);
   render_differences (o, ref, &t, points, n_points);
   bson_free (points);
}
