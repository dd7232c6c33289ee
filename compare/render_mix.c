/*
 * render_mix.c -- the report's section "The user's mix" (docs/results-schema.md): the verdict sentence
 * under the mix's proportions, a table per layout (elapsed, ops/s, x vs the winner, bytes written and read)
 * and a table per op type (ops, time per op, latency percentiles per layout). A measured mix (the file's
 * "mix", scancmp --mix) says how it ran; an estimate (layout-report --mix SPEC, from the separate
 * workloads) says how it was made and what it ignores; with both, the estimate follows the measured mix
 * with its error per layout. A measured mix says whether it ran closed-loop or open-loop (--mix-rate: its
 * latencies from each op's intended start beside its service times, the schedule kept or not), the CPU
 * of the client and the store, and whether the machine was saturated. A percentile of fewer ops than it
 * needs (core/percentile.h) is n/a. A file without a mix and no --mix gets none of it.
 */
#include "compare/render_private.h"
#include "core/cli.h"
#include "core/percentile.h"

/* md_factor -- a factor of the verdict as docs/results-schema.md writes it: "1.8x" (one decimal; two under
 * 0.1). */
static void
md_factor (bson_string_t *o, double x)
{
   bson_string_append_printf (o, x < 0.095 ? "%.2fx" : "%.1fx", x);
}

/* md_share -- a type's share of the mix in percent: "5%", "33.3%". */
static void
md_share (bson_string_t *o, const lab_cmp_mix_t *m, int t)
{
   double sum = 0, pct;
   int k;

   for (k = 0; k < LAB_CMP_MIX_TYPES; k++) {
      sum += m->weight[k];
   }
   pct = sum > 0 ? 100.0 * m->weight[t] / sum : 0;
   bson_string_append_printf (o, fabs (pct - round (pct)) < 0.05 ? "%.0f%%" : "%.1f%%", pct);
}

/* md_proportions -- "load 5%, row 60%, range 5%, append 25%, update 5%". */
static void
md_proportions (bson_string_t *o, const lab_cmp_mix_t *m)
{
   int t, k = 0;

   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      if (m->weight[t] > 0) {
         bson_string_append_printf (o, "%s%s ", k++ ? ", " : "", lab_cmp_mix_type_names[t]);
         md_share (o, m, t);
      }
   }
}

/* per_op -- the time per op of type t on layout l, in seconds; -1 when unknown or not in the stream. */
static double
per_op (const lab_cmp_mix_layout_t *l, int t)
{
   const lab_cmp_mix_op_t *op = &l->by_type[t];

   return op->ops > 0 && op->time_s >= 0 ? op->time_s / op->ops : -1;
}

/* write_bytes -- the layout's bytes written: the engine's when known, else the device's; -1 unknown. */
static double
write_bytes (const lab_cmp_mix_layout_t *l, bool *disk)
{
   *disk = l->engine_write_bytes < 0 && l->disk_write_bytes >= 0;
   return l->engine_write_bytes >= 0 ? l->engine_write_bytes : l->disk_write_bytes;
}

/* md_list_sep -- ", " between items and " and " before the last of n. */
static void
md_list_sep (bson_string_t *o, size_t k, size_t n)
{
   bson_string_append (o, k == 0 ? "" : k + 1 == n ? " and " : ", ");
}

/* md_types -- the types the winner w wins (`wins`) or loses against layout b: "load (9.1x) and range
 * (2.0x)"; returns how many (0: nothing appended). */
static size_t
md_types (bson_string_t *o, const lab_cmp_mix_layout_t *w, const lab_cmp_mix_layout_t *b, bool wins)
{
   size_t n = 0, k = 0;
   int t, pass;

   for (pass = 0; pass < 2; pass++) {
      for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
         double pw = per_op (w, t), pb = per_op (b, t);
         if (pw <= 0 || pb <= 0 || (pw < pb) != wins || pw == pb) {
            continue;
         }
         if (pass == 0) {
            n++;
            continue;
         }
         md_list_sep (o, k++, n);
         bson_string_append_printf (o, "%s (", lab_cmp_mix_type_names[t]);
         md_factor (o, wins ? pb / pw : pw / pb);
         bson_string_append (o, ")");
      }
   }
   return n;
}

/* md_clause -- "the folded layout is 1.8x faster overall than detail: it wins load (9.1x), loses row
 * (1.3x) and writes 4.1x the bytes" against layout b (`first`: with "the <winner> layout is"). */
static void
md_clause (bson_string_t *o, const lab_cmp_mix_t *m, size_t b, bool first)
{
   const lab_cmp_mix_layout_t *w = &m->layouts[m->winner], *l = &m->layouts[b];
   bson_string_t *wins = bson_string_new (NULL), *loses = bson_string_new (NULL);
   double bw, bl;
   bool dw, dl, bytes;
   size_t n, k = 0;

   if (first) {
      bson_string_append (o, "the ");
      lab_cmp_md_text (o, w->layout);
      bson_string_append (o, " layout is ");
   }
   if (m->tie && m->rank.tied[b]) {
      /* the one rule cannot tell them apart overall: no factor to claim */
      bson_string_append (o, first ? "as fast overall as " : "as fast as ");
      lab_cmp_md_text (o, l->layout);
      lab_cmp_md_rule_note (o, &m->rank, true);
   } else {
      md_factor (o, lab_cmp_mix_score (m, w) > 0 ? lab_cmp_mix_score (m, l) / lab_cmp_mix_score (m, w) : 1);
      bson_string_append (o, first ? " faster overall than " : " faster than ");
      lab_cmp_md_text (o, l->layout);
      if (first && m->open) {
         /* an open loop's elapsed time is its schedule's: the layouts differ in the latency they cause */
         bson_string_append_printf (o, " (latencies summed, at %g ops/s)", m->rate_ops_s);
      }
      if (b == m->rank.runner && !m->estimated) {
         lab_cmp_md_rule_note (o, &m->rank, false);
      }
   }
   bw = write_bytes (w, &dw);
   bl = write_bytes (l, &dl);
   if (dw != dl) { /* one engine's, one device's: compare the device's of both, when known */
      bw = w->disk_write_bytes, bl = l->disk_write_bytes;
   }
   bytes = bw >= 0 && bl > 0;
   md_types (wins, w, l, true);
   md_types (loses, w, l, false);
   n = (wins->len > 0) + (loses->len > 0) + bytes;
   if (n > 0) {
      bson_string_append (o, ": it ");
   }
   if (wins->len) {
      md_list_sep (o, k++, n);
      bson_string_append_printf (o, "wins %s", wins->str);
   }
   if (loses->len) {
      md_list_sep (o, k++, n);
      bson_string_append_printf (o, "loses %s", loses->str);
   }
   if (bytes) {
      md_list_sep (o, k++, n);
      bson_string_append (o, "writes ");
      md_factor (o, bw / bl);
      bson_string_append (o, " the bytes");
   }
   bson_string_free (wins, true);
   bson_string_free (loses, true);
}

/* lab_cmp_mix_verdict -- see cmp.h. */
void
lab_cmp_mix_verdict (bson_string_t *o, const lab_cmp_mix_t *m)
{
   size_t i;
   bool first = true;

   bson_string_append (o,
                       m->estimated ? "Estimated from separate runs: under this mix (" : "Under this mix (");
   md_proportions (o, m);
   bson_string_append (o, ") ");
   for (i = 0; i < m->n_layouts; i++) {
      if (i != m->winner) {
         bson_string_append (o, first ? "" : "; ");
         md_clause (o, m, i, first);
         first = false;
      }
   }
   if (first) {
      bson_string_append (o, "only ");
      lab_cmp_md_text (o, m->layouts[m->winner].layout);
      bson_string_append (o, " ran");
   }
   bson_string_append (o, ".");
}

/* md_cores -- cores kept busy, "1.92 cores", or n/a. */
static void
md_cores (bson_string_t *o, double v)
{
   if (v < 0) {
      bson_string_append (o, "n/a");
   } else {
      bson_string_append_printf (o, "%.2f cores", v);
   }
}

/* run_facts -- the mix recorded its CPU (and, open, its schedule): files before that did not. */
static bool
run_facts (const lab_cmp_mix_t *m)
{
   size_t i;

   for (i = 0; !m->estimated && i < m->n_layouts; i++) {
      if (m->layouts[i].store_cpu) {
         return true;
      }
   }
   return false;
}

/* md_run_cells -- a measured layout's last cells: an open loop's achieved rate and max lag (behind: in
 * bold), then the client's and the store's CPU. */
static void
md_run_cells (bson_string_t *o, const lab_cmp_mix_t *m, const lab_cmp_mix_layout_t *l)
{
   if (m->open) {
      bson_string_append (o, l->behind == 1 ? " | **" : " | ");
      lab_cmp_md_known (o, LAB_CMP_RATE, l->achieved_ops_s);
      bson_string_append (o, l->behind == 1 ? " (behind)** | " : " | ");
      lab_cmp_md_known (o, LAB_CMP_MS, l->max_lag_ms);
   }
   bson_string_append (o, " | ");
   md_cores (o, l->client_cores);
   bson_string_append (o, " | ");
   md_cores (o, l->store_cores);
}

/* md_run_notes -- under a measured mix's table: what the CPU columns hold, a schedule that fell behind,
 * a saturated machine. */
static void
md_run_notes (bson_string_t *o, const lab_cmp_mix_t *m)
{
   const char *store = NULL;
   size_t i;

   for (i = 0; i < m->n_layouts && !store; i++) {
      store = m->layouts[i].store_cpu;
   }
   bson_string_append (o, " Client CPU: this process's (the load generator) over the stream, as cores kept "
                          "busy; store CPU: ");
   bson_string_append (o, store ? store : "the store's process, when known");
   bson_string_append (o, ".");
   if (m->open) {
      bson_string_append (o, " Achieved ops/s: the pace the ops started at (never above the asked rate); "
                             "max lag: the latest an op started after its intended start.");
   }
   if (m->behind == 1) {
      bson_string_append_printf (o,
                                 "\n\n**The schedule fell behind**: the machine could not sustain %g ops/s, "
                                 "so the latencies hold a growing backlog; measure at a lower --mix-rate for "
                                 "the latency at a load it carries.",
                                 m->rate_ops_s);
   }
   if (m->saturated == 1) {
      bson_string_append (o, "\n\n**The machine was saturated: latencies include waiting for a CPU** (its "
                             "CPUs were nearly all busy over a stream: the client's and the store's share is "
                             "in the CPU columns, the rest other processes of the machine).");
   }
   bson_string_append (o, "\n\n");
}

/* render_layouts -- the table per layout: elapsed, ops/s, x vs winner, bytes written and read. */
static void
render_layouts (bson_string_t *o, const lab_cmp_mix_t *m)
{
   bool any_disk = false;
   size_t i;

   bson_string_append (o, "| layout | elapsed | ops/s | x vs winner | write bytes | read bytes |");
   bson_string_append (o, !run_facts (m) ? "\n|---|---|---|---|---|---|\n"
                          : m->open      ? " achieved ops/s | max lag | client CPU | store CPU |\n"
                                           "|---|---|---|---|---|---|---|---|---|---|\n"
                                         : " client CPU | store CPU |\n|---|---|---|---|---|---|---|---|\n");
   for (i = 0; i < m->n_layouts; i++) {
      const lab_cmp_mix_layout_t *l = &m->layouts[i];
      bool disk;
      double wb = write_bytes (l, &disk);

      bson_string_append (o, i == m->winner ? "| **" : "| ");
      lab_cmp_md_text (o, l->layout);
      bson_string_append (o, i == m->winner ? "** | " : " | ");
      lab_cmp_md_known (o, LAB_CMP_SECONDS, l->elapsed_s);
      bson_string_append (o, " | ");
      lab_cmp_md_known (o, LAB_CMP_RATE, l->ops_per_s);
      bson_string_append (o, " | ");
      if (i == m->winner) {
         bson_string_append (o, m->tie ? "best median (same by the rule)" : "winner");
      } else {
         lab_cmp_md_known (o, LAB_CMP_FACTOR, l->x_vs_winner);
      }
      bson_string_append (o, " | ");
      lab_cmp_md_known (o, LAB_CMP_BYTES, wb);
      bson_string_append (o, disk ? " (device)" : "");
      any_disk = any_disk || disk;
      bson_string_append (o, " | ");
      lab_cmp_md_known (o, LAB_CMP_BYTES, l->disk_read_bytes);
      if (run_facts (m)) {
         md_run_cells (o, m, l);
      }
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, m->estimated ? "\nWrite bytes: what the engine wrote (journal and block manager); "
                                         "read bytes: read from the disk.\n\n"
                                       : "\nWrite bytes: what the engine wrote (journal and block manager, "
                                         "with a checkpoint forced at the end of the stream); read bytes: "
                                         "read from the disk over the stream.");
   if (!m->estimated) {
      bson_string_append (o, any_disk
                                ? " (device): the engine's bytes were not known, the device's are shown "
                                  "instead."
                                : "");
      if (run_facts (m)) {
         md_run_notes (o, m);
      } else {
         bson_string_append (o, "\n\n");
      }
   }
}

/* md_pcts -- " | p50 / p95 / p99" of n ops, each n/a when unknown or when n ops cannot support it. */
static void
md_pcts (bson_string_t *o, double n, double p50, double p95, double p99)
{
   const double pct[3] = { 50, 95, 99 }, v[3] = { p50, p95, p99 };
   int i;

   bson_string_append (o, " | ");
   if (p50 < 0 && p95 < 0 && p99 < 0) {
      bson_string_append (o, "n/a");
      return;
   }
   for (i = 0; i < 3; i++) {
      bson_string_append (o, i ? " / " : "");
      lab_cmp_md_known (o, LAB_CMP_MS, lab_percentile_supported (pct[i], (int64_t)n) ? v[i] : -1);
   }
}

/* render_types -- the table per op type: its share and ops, then per layout the time per op and the
 * latency percentiles; the faster time per op in bold. */
static void
render_types (bson_string_t *o, const lab_cmp_mix_t *m)
{
   size_t i;
   int t;

   bson_string_append (o, "| op | share | ops |");
   for (i = 0; i < m->n_layouts; i++) {
      bson_string_append (o, " time per op: ");
      lab_cmp_md_text (o, m->layouts[i].layout);
      bson_string_append (o, " |");
   }
   for (i = 0; i < m->n_layouts; i++) {
      bson_string_append (o, " p50 / p95 / p99: ");
      lab_cmp_md_text (o, m->layouts[i].layout);
      bson_string_append (o, " |");
   }
   for (i = 0; m->open && i < m->n_layouts; i++) {
      bson_string_append (o, " service p50 / p95 / p99: ");
      lab_cmp_md_text (o, m->layouts[i].layout);
      bson_string_append (o, " |");
   }
   bson_string_append (o, "\n|---|---|---|");
   for (i = 0; i < (m->open ? 3 : 2) * m->n_layouts; i++) {
      bson_string_append (o, "---|");
   }
   bson_string_append (o, "\n");
   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      double best = -1, ops = -1;
      bool differ = false;

      for (i = 0; i < m->n_layouts; i++) {
         double p = per_op (&m->layouts[i], t), n = m->layouts[i].by_type[t].ops;
         best = p > 0 && (best < 0 || p < best) ? p : best;
         differ = differ || (ops >= 0 && n != ops);
         ops = ops < 0 ? n : ops;
      }
      if (!(m->weight[t] > 0) && !(ops > 0)) {
         continue;
      }
      bson_string_append_printf (o, "| %s | ", lab_cmp_mix_type_names[t]);
      md_share (o, m, t);
      bson_string_append (o, " | ");
      for (i = 0; i < m->n_layouts; i++) {
         if (i == 0 || differ) {
            bson_string_append (o, i ? " / " : "");
            lab_cmp_md_number (o, LAB_CMP_COUNT, round (m->layouts[i].by_type[t].ops));
         }
      }
      for (i = 0; i < m->n_layouts; i++) {
         double p = per_op (&m->layouts[i], t);
         bool bold = p > 0 && p == best && m->n_layouts > 1;
         bson_string_append (o, bold ? " | **" : " | ");
         lab_cmp_md_known (o, LAB_CMP_MS, p < 0 ? p : p * 1000.0);
         bson_string_append (o, bold ? "**" : "");
      }
      for (i = 0; i < m->n_layouts; i++) {
         const lab_cmp_mix_op_t *op = &m->layouts[i].by_type[t];
         md_pcts (o, op->ops, op->p50_ms, op->p95_ms, op->p99_ms);
      }
      for (i = 0; m->open && i < m->n_layouts; i++) {
         const lab_cmp_mix_op_t *op = &m->layouts[i].by_type[t];
         md_pcts (o, op->ops, op->svc_p50_ms, op->svc_p95_ms, op->svc_p99_ms);
      }
      bson_string_append (o, " |\n");
   }
   /* one quantity in both tables (measured and estimated): an operation's own time */
   bson_string_append (
      o, "\nTime per op: the mean of the type's operations' own times (from each one's actual start; the "
         "workers run together, so the elapsed time is less than their sum); the faster in "
         "bold.");
   bson_string_append (o, m->estimated ? " Each type's from its workload measured alone (a row query of "
                                         "row_batch rows counts as that many ops).\n\n"
                                       : " The ops column lists each layout's count only when they differ.");
   if (!m->estimated) {
      bson_string_append (o, m->open ? " p50 / p95 / p99: the latency from each op's intended start (the "
                                       "queueing it met counted, as a client arriving on schedule sees it); "
                                       "service: from its actual start, the time per op's own."
                                     : " p50 / p95 / p99: each op's latency, from its start (a closed loop: "
                                       "no queueing is seen).");
      bson_string_append (o, " n/a: too few ops for the percentile (p50 needs 2, p95 20, p99 100: one "
                             "observation above it).\n\n");
   }
}

/* md_state -- " It started on ..." : the documents each layout held when its stream started (the data as
 * the writes before it left it: the Dataset section lists them). */
static void
md_state (bson_string_t *o, const lab_cmp_mix_t *m)
{
   size_t l;
   bool any = false;

   for (l = 0; l < m->n_layouts; l++) {
      if (m->layouts[l].state_count < 0) {
         continue;
      }
      bson_string_append (o, any ? ", " : " Each stream started on the data as it stood then: ");
      lab_cmp_md_text (o, m->layouts[l].layout);
      bson_string_append (o, " ");
      lab_cmp_md_number (o, LAB_CMP_COUNT, m->layouts[l].state_count);
      bson_string_append (o, " documents");
      any = true;
   }
   bson_string_append (o, any ? " (the writes before it: the Dataset section)." : "");
}

/* render_how -- how a measured mix ran, or how an estimate was made and what it ignores. */
static void
render_how (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_mix_t *m)
{
   if (m->estimated) {
      bson_string_append (o, "How it was estimated: ");
      lab_cmp_md_number (o, LAB_CMP_COUNT, m->ops);
      bson_string_append (o, " operations of ");
      lab_cmp_md_code (o, m->spec);
      bson_string_append (
         o, " re-weighted from the workloads of this file, each measured alone: per layout and type, one "
            "operation costs the workload's elapsed time over its operations (load: the masters it loaded; "
            "row: its keys times the rows per key; range: its windows; append and update: its writes), and "
            "the mix's elapsed time is those costs weighted by the mix's proportions. It ignores the "
            "interference between op types (the writes' journal and checkpoints slowing the reads beside "
            "them, the reads evicting pages the writes need, the workers contending for the same documents) "
            "and the cache state a real mix shares (each workload ran alone from its own start; one stream "
            "warms the cache for every type): measure it with ");
      {
         bson_string_t *args = bson_string_new ("--cold --mix ");
         lab_cli_shell_quote (args, m->spec ? m->spec : "SPEC");
         lab_cmp_md_suggest_scan (o, r, args->str);
         bson_string_free (args, true);
      }
      bson_string_append (
         o, " to know. Write bytes are the append and update workloads' engine bytes per write times their "
            "operations (the reads counted as writing nothing); ");
      bson_string_append (o,
                          m->read_bytes_scaled
                             ? "read bytes each type's disk bytes read per operation, scaled the same way; "
                             : "read bytes are not estimated (a workload of the mix did not record its disk "
                               "bytes read); ");
      bson_string_append (o, "latencies are not estimated (n/a).\n\n");
      return;
   }
   bson_string_append (o, "Measured: ");
   lab_cmp_md_number (o, LAB_CMP_COUNT, m->ops);
   bson_string_append (o, " operations of ");
   lab_cmp_md_code (o, m->spec);
   if (m->workers > 0) {
      bson_string_append_printf (o, " over %.0f worker%s", m->workers, m->workers == 1 ? "" : "s");
   }
   if (m->seed >= 0) {
      bson_string_append_printf (o, ", seed %.0f", m->seed);
   }
   if (m->source) {
      bson_string_append (o, ": ");
      lab_cmp_md_text (o, m->source);
   } else {
      bson_string_append (o, m->cold == 1 ? ", from a cold start" : m->cold == 0 ? ", not cold" : "");
   }
   bson_string_append (o, ".");
   if (m->open) {
      bson_string_append_printf (o,
                                 " Open loop at %g ops/s (--mix-rate): op i was due at i / rate from the "
                                 "stream's start, each free worker took the next op no earlier than that; "
                                 "its latency runs from when it was due, so the time it queued behind "
                                 "slower ops counts (coordinated omission corrected).",
                                 m->rate_ops_s);
   } else {
      bson_string_append (o, " Closed loop: each worker took the next op as soon as its last one ended, so "
                             "an op's latency omits the queueing a request arriving on its own schedule "
                             "would see (measure one with --mix-rate).");
   }
   bson_string_append (o, m->rows_equal == 1
                             ? " Every layout read and wrote the same rows (their digests are "
                               "equal)."
                             : "");
   md_state (o, m);
   bson_string_append (o, "\n\n");
   if (m->rows_equal == 0) {
      bson_string_append (o,
                          "**Warning: the layouts read and wrote different rows in the mix** (their digests "
                          "differ): its figures do not compare like with like. Check that the collections "
                          "hold the same rows (");
      lab_cmp_md_suggest_verify (o, r);
      bson_string_append (o, ") before trusting them.\n\n");
   }
}

/* render_one -- the verdict, how, and the two tables of m. */
static void
render_one (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_mix_t *m)
{
   lab_cmp_mix_verdict (o, m);
   bson_string_append (o, "\n\n");
   render_how (o, r, m);
   render_layouts (o, m);
   render_types (o, m);
}

/* render_error -- the estimate beside the measured mix: per layout both elapsed times and the error, and
 * the largest error named. */
static void
render_error (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_mix_t *m, const lab_cmp_mix_t *e)
{
   double worst = 0;
   size_t i, wi = 0;
   bool any = false;

   bson_string_append (o, "### The estimate beside the measured mix\n\n");
   render_one (o, r, e);
   bson_string_append (o, "How honest the estimate is, against the measured mix above:\n\n"
                          "| layout | measured | estimated | error |\n|---|---|---|---|\n");
   for (i = 0; i < m->n_layouts; i++) {
      const lab_cmp_mix_layout_t *l = &m->layouts[i];
      int k = lab_cmp_mix_layout_find (e, l->layout);
      double est = k >= 0 ? e->layouts[k].elapsed_s : -1, err = 0;

      bson_string_append (o, "| ");
      lab_cmp_md_text (o, l->layout);
      bson_string_append (o, " | ");
      lab_cmp_md_known (o, LAB_CMP_SECONDS, l->elapsed_s);
      bson_string_append (o, " | ");
      lab_cmp_md_known (o, LAB_CMP_SECONDS, est);
      if (est >= 0 && l->elapsed_s > 0) {
         err = est / l->elapsed_s - 1.0;
         bson_string_append_printf (o, " | %+.0f%% |\n", 100.0 * err);
         if (!any || fabs (err) > fabs (worst)) {
            worst = err, wi = i, any = true;
         }
      } else {
         bson_string_append (o, " | n/a |\n");
      }
   }
   bson_string_append (o, "\nError: the estimate over the measured elapsed time, minus 1.");
   if (any) {
      bson_string_append (o, " The estimate is furthest off for ");
      lab_cmp_md_text (o, m->layouts[wi].layout);
      bson_string_append_printf (o, " (%+.0f%%): %s.", 100.0 * worst,
                                 worst < 0 ? "the separate runs missed a cost of running the types together"
                                           : "running the types together cost less than running them apart");
      if (e->winner < e->n_layouts && m->winner < m->n_layouts &&
          strcmp (e->layouts[e->winner].layout, m->layouts[m->winner].layout) != 0) {
         bson_string_append (o, " **The estimate names another winner than the measured mix**: trust the "
                                "measured one.");
      }
   }
   bson_string_append (o, "\n\n");
   lab_cmp_mix_explain (o, m, e, false);
}

/* lab_cmp_render_verdict_mix -- see render_private.h. */
void
lab_cmp_render_verdict_mix (bson_string_t *o, const lab_cmp_mix_t *measured, const lab_cmp_mix_t *estimate)
{
   const lab_cmp_mix_t *m = measured && measured->present && measured->n_layouts > 0 ? measured : estimate;

   if (!m || !m->present || m->n_layouts == 0 || o->len < 2 || strcmp (o->str + o->len - 2, "\n\n") != 0) {
      return;
   }
   bson_string_truncate (o, o->len - 1);
   bson_string_append (o, "- **The user's mix**: ");
   lab_cmp_mix_verdict (o, m);
   bson_string_append (o, " (\"The user's mix\" below.)\n\n");
}

/* lab_cmp_render_mix -- see render_private.h. */
void
lab_cmp_render_mix (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_mix_t *measured,
                    const lab_cmp_mix_t *estimate, const char *measured_in)
{
   bool m = measured && measured->present && measured->n_layouts > 0;
   bool e = estimate && estimate->present && estimate->n_layouts > 0;

   if (!m && !e) {
      return;
   }
   bson_string_append (o, "## The user's mix\n\n");
   if (m && measured_in) {
      bson_string_append (o, "The stream was measured in ");
      lab_cmp_md_text (o, measured_in);
      bson_string_append (o, " (scancmp --mix), on the same collections as this file's layouts.\n\n");
   }
   if (m) {
      render_one (o, r, measured);
   }
   if (m && e) {
      render_error (o, r, measured, estimate);
   } else if (e) {
      render_one (o, r, estimate);
   }
}
