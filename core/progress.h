/*
 * progress.h -- a progress line on stderr with a capped refresh rate (default 10 Hz).
 *
 * Mode auto shows it only when stderr is a terminal; never/always as named. Thread-safe: workers may
 * call lab_progress_add() concurrently; drawing happens from whichever call crosses the refresh period.
 */
#ifndef LAB_PROGRESS_H
#define LAB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { LAB_PROGRESS_AUTO = 0, LAB_PROGRESS_ALWAYS, LAB_PROGRESS_NEVER } lab_progress_mode_t;

typedef struct lab_progress lab_progress_t;

/* lab_progress_new -- `label` names the work ("folding"), `unit` the items ("rows"); total 0 = unknown
 * (no ETA). Returns an object that is inert when the mode says not to draw. */
lab_progress_t *lab_progress_new (lab_progress_mode_t mode, const char *label, const char *unit,
                                  uint64_t total);

/* lab_progress_lines -- for long work a log reader must follow: where no bar is drawn because stderr is
 * not a terminal (mode auto), or -v asks for lines (the log at LAB_LOG_DEBUG), log one line of done /
 * total, rate and the time left (lab_log_info) at most every `period_ns`, the first once the work has
 * taken `after_ns`: a short load stays silent. Mode never: nothing; always: the bar. */
void lab_progress_lines (lab_progress_t *p, uint64_t after_ns, uint64_t period_ns);

/* lab_progress_add -- add `items` done (and `bytes`, shown as MB/s when non-zero). */
void lab_progress_add (lab_progress_t *p, uint64_t items, uint64_t bytes);

/* lab_progress_set_extra -- a short extra text shown after the rate (copied), e.g. "r/s 812". */
void lab_progress_set_extra (lab_progress_t *p, const char *extra);

/* lab_progress_done -- draw the final line (when drawing) and free. NULL is fine. */
void lab_progress_done (lab_progress_t *p);

/* lab_progress_enabled -- whether a bar is drawn in `mode`: always, or auto with stderr a terminal. */
bool lab_progress_enabled (lab_progress_mode_t mode);

/* lab_progress_parse_mode -- "auto" | "always" | "never"; false on anything else. */
bool lab_progress_parse_mode (const char *s, lab_progress_mode_t *out);

#endif
