/*
 * fold_bucket.c -- the bucket pattern's time windows (fold.h: --bucket-by FIELD:UNIT): parsing the spec and
 * the calendar arithmetic of a window's start and end.
 */
#include "fold.h"

#include "core/error.h"

#include <stdlib.h>
#include <string.h>

#define MS_PER_HOUR INT64_C (3600000)
#define MS_PER_DAY INT64_C (86400000)

/* ---- buckets ------------------------------------------------------------------------------------ */

static const char *const bucket_unit_names[] = { "none", "hour", "day", "week", "month" };

/* lab_fold_bucket_unit_name -- the unit as --bucket-by spells it. */
const char *
lab_fold_bucket_unit_name (lab_fold_bucket_unit_t unit)
{
   return unit >= LAB_BUCKET_NONE && unit <= LAB_BUCKET_MONTH ? bucket_unit_names[unit] : "?";
}

/* lab_fold_bucket_spec_parse -- "FIELD:UNIT". */
bool
lab_fold_bucket_spec_parse (const char *spec, char **field, lab_fold_bucket_unit_t *unit, bson_error_t *error)
{
   const char *colon = spec ? strrchr (spec, ':') : NULL;
   int u;

   *field = NULL;
   *unit = LAB_BUCKET_NONE;
   if (!colon || colon == spec) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--bucket-by '%s' must be FIELD:UNIT (UNIT hour, day, week or month), e.g. "
                     "charge_time:day",
                     spec ? spec : "");
      return false;
   }
   for (u = LAB_BUCKET_HOUR; u <= LAB_BUCKET_MONTH; u++) {
      if (strcmp (colon + 1, bucket_unit_names[u]) == 0) {
         *unit = (lab_fold_bucket_unit_t)u;
      }
   }
   if (*unit == LAB_BUCKET_NONE) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--bucket-by '%s': unknown unit '%s' (use hour, day, week or month)", spec, colon + 1);
      return false;
   }
   *field = bson_strndup (spec, (size_t)(colon - spec));
   return true;
}

/* floor_div -- a / b rounded towards minus infinity (b > 0). */
static int64_t
floor_div (int64_t a, int64_t b)
{
   int64_t q = a / b;

   return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* days_from_civil -- days since 1970-01-01 of the proleptic Gregorian date y-m-d (H. Hinnant). */
static int64_t
days_from_civil (int64_t y, int64_t m, int64_t d)
{
   int64_t era, yoe, doy, doe;

   y -= m <= 2;
   era = floor_div (y, 400);
   yoe = y - era * 400;
   doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
   doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
   return era * 146097 + doe - 719468;
}

/* civil_from_days -- the year and month of day z since 1970-01-01 (H. Hinnant). */
static void
civil_from_days (int64_t z, int64_t *y, int64_t *m)
{
   int64_t era, doe, yoe, doy, mp;

   z += 719468;
   era = floor_div (z, 146097);
   doe = z - era * 146097;
   yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
   doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
   mp = (5 * doy + 2) / 153;
   *m = mp + (mp < 10 ? 3 : -9);
   *y = yoe + era * 400 + (*m <= 2);
}

/* add_sat -- a + b, saturated at INT64_MAX (the window after the last representable one). */
static int64_t
add_sat (int64_t a, int64_t b)
{
   int64_t r;

   return __builtin_add_overflow (a, b, &r) ? INT64_MAX : r;
}

/* lab_fold_bucket_window -- see fold.h. */
int64_t
lab_fold_bucket_window (int64_t ms, lab_fold_bucket_unit_t unit, int64_t *end_ms)
{
   int64_t start, end, y, m;
   const int64_t monday = -3 * MS_PER_DAY; /* 1969-12-29, the Monday before the epoch (a Thursday) */

   switch (unit) {
   case LAB_BUCKET_HOUR:
      start = floor_div (ms, MS_PER_HOUR) * MS_PER_HOUR;
      end = add_sat (start, MS_PER_HOUR);
      break;
   case LAB_BUCKET_DAY:
      start = floor_div (ms, MS_PER_DAY) * MS_PER_DAY;
      end = add_sat (start, MS_PER_DAY);
      break;
   case LAB_BUCKET_WEEK:
      /* (ms - monday) may overflow only below the representable weeks: clamp there */
      start = ms < INT64_MIN - monday ? INT64_MIN
                                      : floor_div (ms - monday, 7 * MS_PER_DAY) * 7 * MS_PER_DAY + monday;
      end = add_sat (start, 7 * MS_PER_DAY);
      break;
   case LAB_BUCKET_MONTH:
      civil_from_days (floor_div (ms, MS_PER_DAY), &y, &m);
      start = days_from_civil (y, m, 1) * MS_PER_DAY;
      end = m == 12 ? days_from_civil (y + 1, 1, 1) * MS_PER_DAY : days_from_civil (y, m + 1, 1) * MS_PER_DAY;
      break;
   default:
      start = INT64_MIN;
      end = INT64_MAX;
      break;
   }
   if (end_ms) {
      *end_ms = end;
   }
   return start;
}
