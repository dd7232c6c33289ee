/*
 * charts.c -- SVG charts for the report, drawn by gnuplot: for a cache sweep, each candidate's speedup
 * and each layout's read amplification against the cache ratio; read requests/s and read MB/s over
 * time (every layout aligned at its start, one colour per layout), server memory over time, and the
 * per-master latency distribution (a series per layout).
 *
 * Data and script go to a private temporary directory; gnuplot runs there with its output captured, and
 * each finished SVG is copied next to the report atomically, so a failing gnuplot leaves nothing behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare/cmp.h"
#include "core/cli.h"
#include "core/error.h"

/* gnuplot's #AARRGGBB: AA is transparency */
#define FAINT_DETAIL "#a0d95f02"
#define FAINT_FOLDED "#a01b7e9e"

static const char *const faint_colors[LAB_RESULTS_MAX_LAYOUTS] = {
   FAINT_DETAIL, FAINT_FOLDED, "#a07570b3", "#a0e7298a", "#a066a61e", "#a0e6ab02", "#a0a6761d", "#a0666666",
};

/* lab_cmp_gnuplot_path -- see cmp.h. */
char *
lab_cmp_gnuplot_path (void)
{
   const char *path = getenv ("PATH");
   char *copy, *save = NULL, *dir, *found = NULL;

   if (!path || !*path) {
      return NULL;
   }
   copy = bson_strdup (path);
   for (dir = strtok_r (copy, ":", &save); dir; dir = strtok_r (NULL, ":", &save)) {
      char *cand = bson_strdup_printf ("%s/gnuplot", *dir ? dir : ".");
      struct stat st;
      if (stat (cand, &st) == 0 && S_ISREG (st.st_mode) && access (cand, X_OK) == 0) {
         found = cand;
         break;
      }
      bson_free (cand);
   }
   bson_free (copy);
   return found;
}

/* lab_cmp_chart_set_cleanup -- see cmp.h. */
void
lab_cmp_chart_set_cleanup (lab_cmp_chart_set_t *set)
{
   size_t i;

   for (i = 0; i < set->n_owned; i++) {
      bson_free (set->owned[i]);
   }
   memset (set, 0, sizeof *set);
}

/* rm_tmpdir -- remove our temporary directory and the files in it (flat). */
static void
rm_tmpdir (const char *dir)
{
   DIR *d = opendir (dir);
   struct dirent *e;

   if (d) {
      while ((e = readdir (d))) {
         if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0) {
            char *p = bson_strdup_printf ("%s/%s", dir, e->d_name);
            unlink (p);
            bson_free (p);
         }
      }
      closedir (d);
   }
   rmdir (dir);
}

/* write_text -- create `dir/name` with `text`. */
static bool
write_text (const char *dir, const char *name, const char *text, bson_error_t *error)
{
   char *p = bson_strdup_printf ("%s/%s", dir, name);
   FILE *f = fopen (p, "w");
   bool ok = false;

   if (!f) {
      lab_error_set_errno (error, errno, "cannot create chart data %s", p);
      goto done;
   }
   if (fputs (text, f) < 0 || fclose (f) != 0) {
      f = NULL;
      lab_error_set_errno (error, errno, "cannot write chart data %s", p);
      goto done;
   }
   f = NULL;
   ok = true;
done:
   if (f) {
      fclose (f);
   }
   bson_free (p);
   return ok;
}

/* read_file -- the whole of `path` (NUL-terminated), or NULL. */
static char *
read_file (const char *path, size_t *len_out)
{
   FILE *f = fopen (path, "rb");
   char *buf = NULL;
   size_t len = 0, cap = 0, got;

   if (!f) {
      return NULL;
   }
   do {
      if (len + 65537 > cap) {
         cap = cap ? cap * 2 : 131072;
         buf = bson_realloc (buf, cap);
      }
      got = fread (buf + len, 1, cap - len - 1, f);
      len += got;
   } while (got > 0);
   fclose (f);
   buf[len] = '\0';
   if (len_out) {
      *len_out = len;
   }
   return buf;
}

/* run_gnuplot -- run `gnuplot chart.gp` inside dir; on failure quote the start of its output. */
static bool
run_gnuplot (const char *gnuplot, const char *dir, const char *chart, bson_error_t *error)
{
   pid_t pid;
   int status = 0;
   char *log_path = bson_strdup_printf ("%s/gnuplot.log", dir);
   char *log;
   bool ok = false;

   pid = fork ();
   if (pid < 0) {
      lab_error_set_errno (error, errno, "cannot start gnuplot for the %s chart", chart);
      goto done;
   }
   if (pid == 0) {
      int fd = open (log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      int nul = open ("/dev/null", O_RDONLY);
      if (fd < 0 || nul < 0 || chdir (dir) != 0) {
         _exit (126);
      }
      dup2 (nul, 0);
      dup2 (fd, 1);
      dup2 (fd, 2);
      execl (gnuplot, "gnuplot", "chart.gp", (char *)NULL);
      _exit (127);
   }
   while (waitpid (pid, &status, 0) < 0) {
      if (errno != EINTR) {
         lab_error_set_errno (error, errno, "waiting for gnuplot");
         goto done;
      }
   }
   if (!WIFEXITED (status) || WEXITSTATUS (status) != 0) {
      log = read_file (log_path, NULL);
      if (log) {
         char *nl;
         for (nl = log; *nl; nl++) {
            if (*nl == '\n') {
               *nl = ' ';
            }
         }
         if (strlen (log) > 300) {
            log[300] = '\0';
         }
      }
      /* LAB_ERROR_IO carries an errno: EIO stands for "the external program failed" */
      lab_error_set (error, LAB_ERROR_IO, EIO, "gnuplot (%s) failed drawing the %s chart (%s %d): %s",
                     gnuplot, chart, WIFEXITED (status) ? "exit" : "signal",
                     WIFEXITED (status) ? WEXITSTATUS (status) : WTERMSIG (status),
                     log && *log ? log : "no output");
      bson_free (log);
      goto done;
   }
   ok = true;
done:
   bson_free (log_path);
   return ok;
}

/* script_header -- the common gnuplot settings. */
static void
script_header (bson_string_t *gp, const char *title, const char *xlabel, const char *ylabel)
{
   bson_string_append (gp,
                       "set terminal svg size 900,420 dynamic enhanced font 'sans,11' background '#ffffff'\n"
                       "set output 'chart.svg'\n"
                       "set encoding utf8\n"
                       "set border 3 lc rgb '#555555'\n"
                       "set tics nomirror\n"
                       "set grid ytics lc rgb '#e0e0e0' lt 1\n"
                       "set key below center horizontal samplen 3 spacing 1.2 width 2\n"
                       "set datafile missing 'nan'\n");
   bson_string_append_printf (gp, "set title \"%s\" noenhanced font 'sans,13'\n", title);
   bson_string_append_printf (gp, "set xlabel \"%s\" noenhanced\n", xlabel);
   bson_string_append_printf (gp, "set ylabel \"%s\" noenhanced\n", ylabel);
}

/* finish_chart -- run gnuplot on `gp` and copy the SVG to dir/stem-name.svg; record it in the set. */
static bool
finish_chart (const char *gnuplot, const char *tmp, const bson_string_t *gp, const char *dir,
              const char *stem, const char *name, const char *caption, lab_cmp_chart_set_t *set,
              bson_error_t *error)
{
   char *svg_path = bson_strdup_printf ("%s/chart.svg", tmp);
   char *svg = NULL, *file = NULL, *dest = NULL;
   size_t len = 0;
   bool ok = false;

   if (!write_text (tmp, "chart.gp", gp->str, error) || !run_gnuplot (gnuplot, tmp, name, error)) {
      goto done;
   }
   svg = read_file (svg_path, &len);
   if (!svg || len == 0) {
      lab_error_set (error, LAB_ERROR_IO, EIO, "gnuplot wrote no SVG for the %s chart", name);
      goto done;
   }
   file = bson_strdup_printf ("%s-%s.svg", stem, name);
   dest = bson_strdup_printf ("%s/%s", dir, file);
   if (!lab_file_write_atomic (dest, svg, len, error)) {
      goto done;
   }
   unlink (svg_path);
   set->charts[set->n].file = file;
   set->charts[set->n].caption = caption;
   set->owned[set->n_owned++] = file;
   set->n++;
   file = NULL;
   ok = true;
done:
   bson_free (svg_path);
   bson_free (svg);
   bson_free (file);
   bson_free (dest);
   return ok;
}

typedef struct {
   const char *name;    /* file suffix */
   const char *caption; /* report caption and chart title */
   const char *field;   /* samples[] field */
   double scale;        /* multiply values by this */
   const char *ylabel;
   const char *dashed_field; /* optional second series per median run (dashed) */
   const char *dashed_label;
   /* the same figure as a total of each layout's median run, drawn instead when a load is too short for a
    * time chart (LAB_CMP_SHORT_LOAD_SAMPLES) */
   const char *total_caption;
   const char *total_field;  /* run entry path */
   const char *total_field2; /* optional second bar (memory: the engine cache's peak) */
   double total_scale;
   const char *total_ylabel;
} series_chart_t;

/* caption_with_cache -- "<caption>, key-order load, engine cache 64 MiB": the load's order (the runs the
 * charts show are the headline load's) and the cache when the file says it (for a sweep: its reference
 * point's); caller bson_free()s. */
static char *
caption_with_cache (const lab_cmp_results_t *r, const char *caption)
{
   double cache;
   char *c, *out;

   if (!lab_results_cache_bytes (&r->doc, &cache) || !(cache > 0)) {
      return bson_strdup_printf ("%s, %s-order load", caption, lab_results_load_order (&r->doc));
   }
   c = lab_results_format_binary (cache);
   out =
      bson_strdup_printf ("%s, %s-order load, engine cache %s", caption, lab_results_load_order (&r->doc), c);
   bson_free (c);
   return out;
}

/* count_samples -- how many samples of a run carry `field`. */
static int
count_samples (const bson_t *run, const char *field)
{
   bson_iter_t it, samples, f;
   int n = 0;

   if (bson_iter_init_find (&it, run, "samples") && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &samples)) {
      while (bson_iter_next (&samples)) {
         if (BSON_ITER_HOLDS_DOCUMENT (&samples) && bson_iter_recurse (&samples, &f) &&
             bson_iter_find (&f, field)) {
            n++;
         }
      }
   }
   return n;
}

/* shortest_median_load -- the fewest samples (of `field`) any layout's median run has, and that layout
 * in *layout; INT32_MAX when no run has samples. */
static int
shortest_median_load (const lab_cmp_results_t *r, const lab_results_layouts_t *ls, const char *field,
                      const char **layout)
{
   int fewest = INT32_MAX;
   size_t l;
   bson_t run;

   for (l = 0; l < ls->n; l++) {
      int m = lab_cmp_median_run (r, ls->l[l].name), k;
      if (m < 0 || !lab_cmp_run_get (r, m, &run) || (k = count_samples (&run, field)) == 0) {
         continue;
      }
      if (k < fewest) {
         fewest = k;
         *layout = ls->l[l].name;
      }
   }
   return fewest;
}

/* totals_chart -- a short load's chart: a bar per layout of its median run's total (and a second, lighter
 * bar for total_field2), labelled with its value. */
static bool
totals_chart (const lab_cmp_results_t *r, const series_chart_t *c, const char *caption, const char *gnuplot,
              const char *tmp, const char *dir, const char *stem, lab_cmp_chart_set_t *set,
              bson_error_t *error)
{
   bson_string_t *gp = bson_string_new (NULL), *data = bson_string_new (NULL);
   lab_results_layouts_t ls;
   size_t l;
   bool ok = false;
   bson_t run;
   double v, v2;

   lab_results_layouts (&r->doc, &ls);
   for (l = 0; l < ls.n; l++) {
      int m = lab_cmp_median_run (r, ls.l[l].name);
      bool has = m >= 0 && lab_cmp_run_get (r, m, &run) && lab_results_get_number (&run, c->total_field, &v);
      bool has2 = has && c->total_field2 && lab_results_get_number (&run, c->total_field2, &v2);
      bson_string_append_printf (data, "\"%s\" %.6g %.6g %ld\n", ls.l[l].name, has ? v * c->total_scale : NAN,
                                 has2 ? v2 * c->total_scale : NAN,
                                 strtol (lab_cmp_bold_colors[l] + 1, NULL, 16));
   }
   if (!write_text (tmp, "totals.dat", data->str, error)) {
      goto done;
   }
   script_header (gp, caption, "layout (its median run)", c->total_ylabel);
   bson_string_append_printf (
      gp,
      "set style fill solid 0.85 border -1\nset yrange [0:*]\nset xrange [-0.6:%.1f]\n"
      "set offsets 0, 0, graph 0.12, 0\nset xtics scale 0 (",
      (double)ls.n - 0.4);
   for (l = 0; l < ls.n; l++) {
      bson_string_append_printf (gp, "%s\"%s\" %zu", l ? ", " : "", ls.l[l].name, l);
   }
   bson_string_append (gp, ")\n");
   if (c->total_field2) {
      bson_string_append (
         gp, "set boxwidth 0.35\nplot 'totals.dat' using ($0-0.19):2:4 with boxes lc rgb "
             "variable title \"server memory (peak RSS)\", \\\n"
             "     '' using ($0+0.19):3:4 with boxes lc rgb variable fs pattern 4 title \"engine "
             "cache (peak)\", \\\n"
             "     '' using ($0-0.19):2:(sprintf('%.3g', $2)) with labels offset 0,0.8 notitle, "
             "\\\n     '' using ($0+0.19):3:(sprintf('%.3g', $3)) with labels offset 0,0.8 "
             "notitle\n");
   } else {
      bson_string_append (gp, "set boxwidth 0.6\nplot 'totals.dat' using 0:2:4 with boxes lc rgb variable "
                              "notitle, \\\n     '' using 0:2:(sprintf('%.3g', $2)) with labels offset 0,0.8 "
                              "notitle\n");
   }
   ok = finish_chart (gnuplot, tmp, gp, dir, stem, c->name, caption, set, error);
   if (ok) {
      set->charts[set->n - 1].totals = true;
   }
done:
   bson_string_free (gp, true);
   bson_string_free (data, true);
   return ok;
}

/* write_samples -- data file for one run's `field` (t_s, value); false when the run has none. */
static bool
write_samples (const bson_t *run, const char *field, double scale, const char *tmp, const char *fname,
               int *had, bson_error_t *error)
{
   bson_iter_t it, samples;
   bson_string_t *data = bson_string_new (NULL);
   int points = 0;
   bool ok = true;

   *had = 0;
   if (bson_iter_init_find (&it, run, "samples") && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &samples)) {
      while (bson_iter_next (&samples)) {
         const uint8_t *d;
         uint32_t len;
         bson_t s;
         double t, v;
         if (!BSON_ITER_HOLDS_DOCUMENT (&samples)) {
            continue;
         }
         bson_iter_document (&samples, &len, &d);
         if (!bson_init_static (&s, d, len) || !lab_results_get_number (&s, "t_s", &t) ||
             !lab_results_get_number (&s, field, &v)) {
            continue;
         }
         bson_string_append_printf (data, "%.6g %.6g\n", t, v * scale);
         points++;
      }
   }
   if (points > 0) {
      *had = points;
      ok = write_text (tmp, fname, data->str, error);
   }
   bson_string_free (data, true);
   return ok;
}

/* own -- keep `s` in the set (freed with it) and return it: the captions the set's charts point to. */
static const char *
own (lab_cmp_chart_set_t *set, char *s)
{
   set->owned[set->n_owned++] = s;
   return s;
}

/* short_caption -- the caption of a short load's totals chart: what it shows and why. */
static char *
short_caption (const lab_cmp_results_t *r, const series_chart_t *c, const char *layout, int samples)
{
   double interval = 0;
   char *iv, *base, *out;

   lab_results_get_number (&r->doc, "config.interval_s", &interval);
   iv = interval > 0 ? lab_results_format (LAB_UNIT_SECONDS, interval) : bson_strdup ("its interval");
   base = bson_strdup_printf ("%s (the %s load took %d sample%s of %s, too few for a time chart)",
                              c->total_caption, layout, samples, samples == 1 ? "" : "s", iv);
   out = caption_with_cache (r, base);
   bson_free (iv);
   bson_free (base);
   return out;
}

/* series_chart -- one time-series chart, or, when a layout's median run has fewer than
 * LAB_CMP_SHORT_LOAD_SAMPLES samples, the chart of each layout's total (totals_chart); skipped (true, nothing
 * added) when no run has the field. */
static bool
series_chart (const lab_cmp_results_t *r, const series_chart_t *c, const char *gnuplot, const char *tmp,
              const char *dir, const char *stem, lab_cmp_chart_set_t *set, bson_error_t *error)
{
   const char *const *bold = lab_cmp_bold_colors, *const *faint = faint_colors;
   bson_string_t *gp = bson_string_new (NULL);
   bson_string_t *thin = bson_string_new (NULL), *thick = bson_string_new (NULL);
   int n = lab_cmp_runs_n (r), i, l, series = 0;
   lab_results_layouts_t ls;
   const char *layouts[LAB_RESULTS_MAX_LAYOUTS];
   bool ok = false;
   int had;
   bson_t run;
   double rn;
   const char *style;

   const char *shortest = NULL, *caption;
   int fewest;

   lab_results_layouts (&r->doc, &ls);
   fewest = shortest_median_load (r, &ls, c->field, &shortest);
   if (fewest < LAB_CMP_SHORT_LOAD_SAMPLES) {
      bson_string_free (gp, true);
      bson_string_free (thin, true);
      bson_string_free (thick, true);
      caption = own (set, short_caption (r, c, shortest, fewest));
      return totals_chart (r, c, caption, gnuplot, tmp, dir, stem, set, error);
   }
   for (l = 0; l < (int)ls.n; l++) {
      layouts[l] = ls.l[l].name;
   }
   for (l = 0; l < (int)ls.n; l++) {
      int median = lab_cmp_median_run (r, layouts[l]);
      for (i = 0; i < n; i++) {
         char fname[64];
         const char *layout;
         if (!lab_cmp_run_get (r, i, &run)) {
            continue;
         }
         layout = lab_results_get_string (&run, "layout");
         if (!layout || strcmp (layout, layouts[l]) != 0) {
            continue;
         }
         rn = 0;
         lab_results_get_number (&run, "run", &rn);
         snprintf (fname, sizeof fname, "%s-%d.dat", c->name, i);
         if (!write_samples (&run, c->field, c->scale, tmp, fname, &had, error)) {
            goto done;
         }
         if (had) {
            bson_string_t *dst = i == median ? thick : thin;
            /* a load shorter than a few sampling periods has too few points for a visible line */
            style = had < 5 ? "linespoints pt 7 ps 0.8" : "lines";
            if (dst->len) {
               bson_string_append (dst, ", \\\n     ");
            }
            if (i == median) {
               bson_string_append_printf (
                  dst, "'%s' using 1:2 with %s lw 3 lc rgb '%s' title \"%s (run %g, median)\" noenhanced",
                  fname, style, bold[l], layouts[l], rn);
            } else {
               bson_string_append_printf (dst, "'%s' using 1:2 with %s lw 1 lc rgb '%s' notitle", fname,
                                          style, faint[l]);
            }
            series++;
         }
         if (i == median && c->dashed_field) {
            snprintf (fname, sizeof fname, "%s-%d-b.dat", c->name, i);
            if (!write_samples (&run, c->dashed_field, c->scale, tmp, fname, &had, error)) {
               goto done;
            }
            if (had) {
               if (thick->len) {
                  bson_string_append (thick, ", \\\n     ");
               }
               bson_string_append_printf (
                  thick, "'%s' using 1:2 with %s lw 2 dt 2 lc rgb '%s' title \"%s %s (run %g)\" noenhanced",
                  fname, had < 5 ? "linespoints pt 6 ps 0.8" : "lines", bold[l], layouts[l], c->dashed_label,
                  rn);
            }
         }
      }
   }
   if (series == 0) {
      ok = true; /* nothing sampled: no chart */
      goto done;
   }
   caption = own (set, caption_with_cache (r, c->caption));
   script_header (gp, caption, "seconds since the layout's load started", c->ylabel);
   bson_string_append (gp, "set xrange [0:*]\nset yrange [0:*]\nplot ");
   /* thin lines first so the median runs are drawn on top */
   bson_string_append (gp, thin->str);
   if (thin->len && thick->len) {
      bson_string_append (gp, ", \\\n     ");
   }
   bson_string_append (gp, thick->str);
   bson_string_append (gp, "\n");
   ok = finish_chart (gnuplot, tmp, gp, dir, stem, c->name, caption, set, error);
done:
   bson_string_free (gp, true);
   bson_string_free (thin, true);
   bson_string_free (thick, true);
   return ok;
}

typedef struct {
   double le;
   double count;
} bucket_t;

/* cmp_bucket -- order buckets by upper bound. */
static int
cmp_bucket (const void *a, const void *b)
{
   double x = ((const bucket_t *)a)->le, y = ((const bucket_t *)b)->le;

   return (x > y) - (x < y);
}

/* latency_chart -- cumulative share of masters loaded within a latency, all runs of a layout pooled. */
static bool
latency_chart (const lab_cmp_results_t *r, const char *gnuplot, const char *tmp, const char *dir,
               const char *stem, lab_cmp_chart_set_t *set, bson_error_t *error)
{
   const char *caption =
      own (set, caption_with_cache (r, "Per-master latency distribution (cumulative, all runs)"));
   const char *const *bold = lab_cmp_bold_colors;
   bson_string_t *gp = bson_string_new (NULL), *plot = bson_string_new (NULL);
   int n = lab_cmp_runs_n (r), i, l, series = 0;
   lab_results_layouts_t ls;
   const char *layouts[LAB_RESULTS_MAX_LAYOUTS];
   bool ok = false;

   lab_results_layouts (&r->doc, &ls);
   for (l = 0; l < (int)ls.n; l++) {
      layouts[l] = ls.l[l].name;
   }
   for (l = 0; l < (int)ls.n; l++) {
      bucket_t *b = NULL;
      size_t nb = 0, cap = 0, k, j;
      double total = 0, cum = 0;
      bson_string_t *data;
      char fname[32];
      char *total_s;

      for (i = 0; i < n; i++) {
         bson_t run;
         bson_iter_t it, h;
         const char *layout;
         if (!lab_cmp_run_get (r, i, &run) || !(layout = lab_results_get_string (&run, "layout")) ||
             strcmp (layout, layouts[l]) != 0) {
            continue;
         }
         if (!bson_iter_init (&it, &run) || !bson_iter_find_descendant (&it, "latency_ms.histogram", &h) ||
             !BSON_ITER_HOLDS_ARRAY (&h) || !bson_iter_recurse (&h, &it)) {
            continue;
         }
         while (bson_iter_next (&it)) {
            const uint8_t *d;
            uint32_t len;
            bson_t e;
            double le, c;
            if (!BSON_ITER_HOLDS_DOCUMENT (&it)) {
               continue;
            }
            bson_iter_document (&it, &len, &d);
            if (!bson_init_static (&e, d, len) || !lab_results_get_number (&e, "le_ms", &le) ||
                !lab_results_get_number (&e, "count", &c) || le <= 0) {
               continue;
            }
            for (j = 0; j < nb && b[j].le != le; j++) {
            }
            if (j == nb) {
               if (nb == cap) {
                  cap = cap ? cap * 2 : 64;
                  b = bson_realloc (b, cap * sizeof *b);
               }
               b[nb].le = le;
               b[nb].count = 0;
               nb++;
            }
            b[j].count += c;
            total += c;
         }
      }
      if (nb == 0 || total <= 0) {
         bson_free (b);
         continue;
      }
      qsort (b, nb, sizeof *b, cmp_bucket);
      data = bson_string_new (NULL);
      for (k = 0; k < nb; k++) {
         cum += b[k].count;
         bson_string_append_printf (data, "%.6g %.6g\n", b[k].le, cum / total * 100.0);
      }
      bson_free (b);
      snprintf (fname, sizeof fname, "latency-%d.dat", l);
      if (!write_text (tmp, fname, data->str, error)) {
         bson_string_free (data, true);
         goto done;
      }
      bson_string_free (data, true);
      if (plot->len) {
         bson_string_append (plot, ", \\\n     ");
      }
      total_s = lab_results_format (LAB_UNIT_COUNT, total);
      bson_string_append_printf (plot,
                                 "'%s' using 1:2 with linespoints lw 3 pt 7 ps 0.6 lc rgb '%s' title \"%s "
                                 "(%s master loads)\" noenhanced",
                                 fname, bold[l], layouts[l], total_s);
      bson_free (total_s);
      series++;
   }
   if (series == 0) {
      ok = true;
      goto done;
   }
   script_header (gp, caption, "latency of one master's load, ms (log scale; bucket upper bounds)",
                  "masters loaded within (%)");
   bson_string_append (gp, "set logscale x 10\nset yrange [0:100]\nset autoscale xfix\nset offsets graph "
                           "0.02, graph 0.02, 0, 0\nplot ");
   bson_string_append (gp, plot->str);
   bson_string_append (gp, "\n");
   ok = finish_chart (gnuplot, tmp, gp, dir, stem, "latency", caption, set, error);
done:
   bson_string_free (gp, true);
   bson_string_free (plot, true);
   return ok;
}

/* sweep_chart -- speedup and read amplification against the cache ratio (log scales), the regimes
 * either side of ratio 1 named, the production point marked when an estimate exists; skipped (true,
 * nothing added) for a single-point file. */
static bool
sweep_chart (const lab_cmp_results_t *r, const lab_cmp_production_t *production,
             const lab_cmp_results_t *prediction, const char *gnuplot, const char *tmp, const char *dir,
             const char *stem, lab_cmp_chart_set_t *set, bson_error_t *error)
{
   const char *caption = "Speedup and read amplification against the cache ratio", *title = caption;
   lab_cmp_sweep_chart_t ch;
   bson_string_t *gp = bson_string_new (NULL);
   double ymin, ymax;
   bool ok = false, prod_shown;

   if (lab_cmp_sweep_chart_plot (r, production, prediction, &ch) == 0) {
      bson_string_free (gp, true);
      return true;
   }
   prod_shown = ch.production->len > 0;
   if (!write_text (tmp, "sweep.dat", ch.data->str, error)) {
      goto done;
   }
   if (ch.n_predicted > 0) {
      caption = "Speedup and read amplification against the cache ratio, measured (solid and dashed lines, "
                "filled marks) and predicted before folding (dash-dotted lines, hollow marks)";
      title = "Speedup and read amplification against the cache ratio: measured and predicted";
      if (!write_text (tmp, "predicted.dat", ch.predicted->str, error)) {
         goto done;
      }
   }
   if (prod_shown && !write_text (tmp, "production.dat", ch.production->str, error)) {
      goto done;
   }
   ymin = ch.ymin;
   ymax = ch.ymax;
   if (!(ymin <= ymax)) {
      ymin = ymax = 1.0; /* nothing to draw on the y axis: a frame around 1 */
   }
   /* room below for the cache sizes, above for the speedup labels */
   ymin /= 2.5;
   ymax *= 2.5;
   script_header (gp, title, "engine cache ÷ detail layout's size on disk (log scale)", "factor (log scale)");
   bson_string_append_printf (
      gp,
      "set logscale x 10\nset logscale y 10\nset xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\n"
      "set grid xtics ytics lc rgb '#e0e0e0' lt 1\n"
      "set xtics (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)\n"
      "set mxtics default\n",
      ch.xmin / 1.6, ch.xmax * 1.6, ymin, ymax);
   /* the regimes as measured at each point (not the ratio 1 a cache of the data's size would suggest) */
   bson_string_append (gp, ch.regimes->str);
   /* the cache sizes written just above the x axis */
   bson_string_append_printf (gp, "YLAB = %.6g\n", ymin * 1.4);
   bson_string_append (gp, "plot ");
   bson_string_append (gp, ch.plot->str);
   if (prod_shown) {
      bson_string_append (gp,
                          ", \\\n     'production.dat' using 1:2 with points pt 9 ps 2.2 lc rgb '#c00000' "
                          "title \"production (interpolated speedup)\" noenhanced, \\\n"
                          "     '' using 1:2:(sprintf('production ≈%.3gx', $2)) with labels offset 0,-1.6 "
                          "textcolor rgb '#c00000' notitle");
   }
   bson_string_append (gp, "\n");
   ok = finish_chart (gnuplot, tmp, gp, dir, stem, "sweep", caption, set, error);
done:
   lab_cmp_sweep_chart_cleanup (&ch);
   bson_string_free (gp, true);
   return ok;
}

/* lab_cmp_charts_write -- see cmp.h. */
bool
lab_cmp_charts_write (const lab_cmp_results_t *r, const lab_cmp_production_t *production,
                      const lab_cmp_results_t *prediction, const char *gnuplot, const char *dir,
                      const char *stem, lab_cmp_chart_set_t *set, bson_error_t *error)
{
   static const series_chart_t series[] = {
      { "read-requests", "Disk read requests per second", "read_requests_per_s", 1.0, "read requests/s", NULL,
        NULL, "Disk read requests per load", "read_requests", NULL, 1.0, "read requests (total)" },
      { "read-mbs", "Disk read throughput (MB/s)", "read_mb_s", 1.0, "MB/s read from the device", NULL, NULL,
        "Disk bytes read per load (MB)", "read_bytes", NULL, 1e-6, "MB read from the device (total)" },
      { "memory", "Server memory (RSS, solid) and engine cache (dashed)", "server_rss_bytes", 1e-6, "MB",
        "cache_bytes", "engine cache", "Server memory and engine cache, peak per load (MB)",
        "memory.server_rss_peak_bytes", "memory.cache_peak_bytes", 1e-6, "MB (peak)" },
   };
   const char *tmpbase = getenv ("TMPDIR");
   char *tmp = bson_strdup_printf ("%s/layout-report-XXXXXX", tmpbase && *tmpbase ? tmpbase : "/tmp");
   size_t i;
   bool ok = false;

   memset (set, 0, sizeof *set);
   if (!mkdtemp (tmp)) {
      lab_error_set_errno (error, errno, "cannot create a temporary directory %s for the charts", tmp);
      bson_free (tmp);
      return false;
   }
   if (!sweep_chart (r, production, prediction, gnuplot, tmp, dir, stem, set, error)) {
      goto done;
   }
   for (i = 0; i < sizeof series / sizeof series[0]; i++) {
      if (!series_chart (r, &series[i], gnuplot, tmp, dir, stem, set, error)) {
         goto done;
      }
   }
   if (!latency_chart (r, gnuplot, tmp, dir, stem, set, error)) {
      goto done;
   }
   ok = true;
done:
   rm_tmpdir (tmp);
   bson_free (tmp);
   if (!ok) {
      /* no partial output: remove the charts this call already wrote */
      for (i = 0; i < set->n; i++) {
         char *p = bson_strdup_printf ("%s/%s", dir, set->charts[i].file);
         unlink (p);
         bson_free (p);
      }
      lab_cmp_chart_set_cleanup (set);
   }
   return ok;
}
