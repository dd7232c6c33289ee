/*
 * results_private.h -- what results.c and results_sweep.c share (not part of the results model's interface).
 */
#pragma once

#include "core/results.h"

/* lab_results_reference_name -- the name of the file's reference layout (lab_results_layouts). */
const char *lab_results_reference_name (const bson_t *results);
