/*
 * mix_spec.h -- the workloads' one table of names and the one grammar of the lists that name them:
 * scancmp's --workload (a set of workloads) and --mix (weights per type), layout-report's --mix. Both tools
 * parse a spec here, so one tool never accepts what the other refuses. Pure functions.
 *
 * A mix spec is TYPE=WEIGHT[,TYPE=WEIGHT...]:
 *   - TYPE one of load, row, range, append, update (aggregate is refused: one aggregate is a scan of the
 *     whole collection, measured alone with --workload aggregate);
 *   - WEIGHT a decimal number from 0 to LAB_MIX_SPEC_MAX_WEIGHT, digits with an optional fraction
 *     ("5", "0.5"; no sign, exponent or hex);
 *   - each type at most once, no empty item, at least one weight above 0.
 * An error is LAB_ERROR_USAGE naming the option, the spec, the bad item and its position (1-based).
 */
#ifndef LAB_CORE_MIX_SPEC_H
#define LAB_CORE_MIX_SPEC_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>

/* The workloads, in their one order (bit k of a workload set is kind k; a spec's canonical order). */
typedef enum {
   LAB_MIX_SPEC_LOAD = 0,
   LAB_MIX_SPEC_ROW,
   LAB_MIX_SPEC_RANGE,
   LAB_MIX_SPEC_AGGREGATE,
   LAB_MIX_SPEC_APPEND,
   LAB_MIX_SPEC_UPDATE,
   LAB_MIX_SPEC_NKINDS
} lab_mix_spec_kind_t;

/* The read workloads ("all" in a workload list) and the kinds a mix may hold. */
#define LAB_MIX_SPEC_READS                                                                                   \
   ((1u << LAB_MIX_SPEC_LOAD) | (1u << LAB_MIX_SPEC_ROW) | (1u << LAB_MIX_SPEC_RANGE) |                      \
    (1u << LAB_MIX_SPEC_AGGREGATE))
#define LAB_MIX_SPEC_MIXABLE (((1u << LAB_MIX_SPEC_NKINDS) - 1) & ~(1u << LAB_MIX_SPEC_AGGREGATE))

/* The largest weight a mix spec accepts. */
#define LAB_MIX_SPEC_MAX_WEIGHT 1000000.0

/* lab_mix_spec_name -- kind k's name ("load", ..., "update"); "?" out of range. */
const char *lab_mix_spec_name (int k);

/* lab_mix_spec_kind_of -- the kind named by the len bytes at s, or -1. */
int lab_mix_spec_kind_of (const char *s, size_t len);

/* lab_mix_spec_parse -- mix spec `spec` given to option `opt` ("--mix") into weight[] indexed by kind
 * (absent types and aggregate 0). False with *error (LAB_ERROR_USAGE), weight[] untouched. */
bool lab_mix_spec_parse (const char *opt, const char *spec, double weight[LAB_MIX_SPEC_NKINDS],
                         bson_error_t *error);

/* lab_mix_spec_text -- the canonical spec of weight[] into buf: the kinds above 0 in kind order, each
 * weight in the fewest digits that read back the same ("load=5,row=0.5"). */
void lab_mix_spec_text (const double weight[LAB_MIX_SPEC_NKINDS], char *buf, size_t len);

/* lab_mix_spec_list_parse -- a workload list given to `opt` ("--workload"): a comma-separated subset of
 * the kinds' names, or all (LAB_MIX_SPEC_READS), into a bit set (bit k: kind k). An unknown, repeated or
 * empty item is LAB_ERROR_USAGE naming it and its position. */
bool lab_mix_spec_list_parse (const char *opt, const char *s, unsigned *set, bson_error_t *error);

#endif
