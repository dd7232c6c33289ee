/*
 * fold_shape.c -- the shapes fold-details writes (fold.h: --shape): their names and what each holds.
 */
#include "fold.h"

/* The names of --shape (lab_fold_shape_t order). */
const char *const lab_fold_shape_names[] = { "folded", "sorted", "clustered", "copy", NULL };

/* lab_fold_shape_name -- the shape as --shape spells it. */
const char *
lab_fold_shape_name (lab_fold_shape_t shape)
{
   return shape >= LAB_FOLD_SHAPE_FOLDED && shape <= LAB_FOLD_SHAPE_COPY ? lab_fold_shape_names[shape] : "?";
}

/* lab_fold_shape_rows -- one document per source row. */
bool
lab_fold_shape_rows (lab_fold_shape_t shape)
{
   return shape == LAB_FOLD_SHAPE_SORTED || shape == LAB_FOLD_SHAPE_CLUSTERED || shape == LAB_FOLD_SHAPE_COPY;
}

/* lab_fold_shape_natural -- read in natural order, one range. */
bool
lab_fold_shape_natural (lab_fold_shape_t shape)
{
   return shape == LAB_FOLD_SHAPE_CLUSTERED || shape == LAB_FOLD_SHAPE_COPY;
}
