/*
 * gen.c -- the deterministic bill-detail generator (see gen.h for the model).
 *
 * Randomness: xoshiro256** streams seeded through splitmix64. One stream drives admissions (inter-arrival
 * times); every bill has its own stream seeded from (seed, bill index), drawn in a fixed sequence: row
 * count, charge rate, master fields, then for each line the charge-time step and the row's content. So a
 * bill's rows do not depend on the order in which rows are emitted, and a bill's size can be known
 * without generating it (the pre-pass and lab_gen_bill_rows_at).
 */
#include "datasets/gen.h"
#include "datasets/gen_private.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* ---- catalogues -------------------------------------------------------------------------------- */

typedef enum { Q_ONE, Q_FEW, Q_MANY, Q_HALF, Q_HOURS, Q_GRAMS } qty_kind_t;

typedef struct {
   const char *code;
   const char *name;
   const char *category;
   const char *spec;
   const char *unit;
   double price;
   qty_kind_t qty;
   int weight;
} item_t;

/* A hospital charge catalogue: drugs, tests, examinations, treatment, nursing, bed, materials, surgery. */
static const item_t ITEMS[] = {
   { "X01000101", "0.9%氯化钠注射液", "西药费", "250ml:2.25g", "袋", 4.60, Q_FEW, 40 },
   { "X01000102", "5%葡萄糖注射液", "西药费", "250ml:12.5g", "袋", 5.10, Q_FEW, 25 },
   { "X01000203", "注射用头孢曲松钠", "西药费", "1.0g", "支", 15.80, Q_FEW, 20 },
   { "X01000204", "注射用头孢呋辛钠", "西药费", "0.75g", "支", 12.35, Q_FEW, 12 },
   { "X01000305", "阿莫西林胶囊", "西药费", "0.25g*24粒", "盒", 13.20, Q_ONE, 6 },
   { "X01000406", "奥美拉唑肠溶胶囊", "西药费", "20mg*14粒", "盒", 18.60, Q_ONE, 8 },
   { "X01000407", "注射用泮托拉唑钠", "西药费", "40mg", "支", 23.50, Q_FEW, 14 },
   { "X01000508", "左氧氟沙星注射液", "西药费", "100ml:0.5g", "瓶", 21.40, Q_ONE, 10 },
   { "X01000609", "硝苯地平控释片", "西药费", "30mg*7片", "盒", 33.80, Q_ONE, 6 },
   { "X01000610", "阿托伐他汀钙片", "西药费", "20mg*7片", "盒", 28.90, Q_ONE, 6 },
   { "X01000711", "二甲双胍缓释片", "西药费", "0.5g*30片", "盒", 15.60, Q_ONE, 5 },
   { "X01000712", "胰岛素注射液", "西药费", "3ml:300IU", "支", 68.00, Q_ONE, 4 },
   { "X01000813", "低分子肝素钙注射液", "西药费", "0.4ml:4100IU", "支", 35.20, Q_ONE, 8 },
   { "X01000914", "氨溴索注射液", "西药费", "2ml:15mg", "支", 8.70, Q_FEW, 12 },
   { "X01001015", "地塞米松磷酸钠注射液", "西药费", "1ml:5mg", "支", 0.85, Q_FEW, 8 },
   { "X01001016", "呋塞米注射液", "西药费", "2ml:20mg", "支", 0.62, Q_FEW, 6 },
   { "X01001117", "氯化钾缓释片", "西药费", "0.5g*24片", "盒", 6.30, Q_ONE, 4 },
   { "X01001218", "布洛芬缓释胶囊", "西药费", "0.3g*20粒", "盒", 11.90, Q_ONE, 4 },
   { "Z02000101", "复方丹参滴丸", "中成药费", "27mg*180丸", "瓶", 36.50, Q_ONE, 4 },
   { "Z02000202", "血塞通注射液", "中成药费", "5ml:250mg", "支", 18.90, Q_FEW, 6 },
   { "Z02000303", "连花清瘟胶囊", "中成药费", "0.35g*24粒", "盒", 14.80, Q_ONE, 3 },
   { "C03000101", "黄芪", "中草药费", "饮片", "克", 0.12, Q_GRAMS, 3 },
   { "C03000102", "当归", "中草药费", "饮片", "克", 0.35, Q_GRAMS, 3 },
   { "J04000101", "血常规", "化验费", "五分类", "次", 20.00, Q_ONE, 14 },
   { "J04000202", "肝功能", "化验费", "十二项", "次", 60.00, Q_ONE, 6 },
   { "J04000203", "肾功能", "化验费", "五项", "次", 35.00, Q_ONE, 6 },
   { "J04000304", "电解质", "化验费", "四项", "次", 24.00, Q_ONE, 7 },
   { "J04000405", "凝血功能", "化验费", "四项", "次", 48.00, Q_ONE, 4 },
   { "J04000506", "C反应蛋白", "化验费", "定量", "次", 15.00, Q_ONE, 5 },
   { "J04000607", "尿常规", "化验费", "十一项", "次", 10.00, Q_ONE, 4 },
   { "E05000101", "胸部CT平扫", "检查费", "64排", "次", 230.00, Q_ONE, 2 },
   { "E05000202", "心电图", "检查费", "十二导联", "次", 25.00, Q_ONE, 4 },
   { "E05000303", "腹部彩超", "检查费", "肝胆胰脾", "次", 120.00, Q_ONE, 2 },
   { "E05000404", "头颅磁共振", "检查费", "1.5T", "次", 480.00, Q_ONE, 1 },
   { "E05000505", "胸部正位片", "检查费", "DR", "次", 65.00, Q_ONE, 2 },
   { "T06000101", "静脉输液", "治疗费", "第一组", "次", 8.00, Q_ONE, 22 },
   { "T06000102", "静脉输液", "治疗费", "连续输液", "组", 2.00, Q_FEW, 18 },
   { "T06000203", "肌肉注射", "治疗费", "每次", "次", 3.00, Q_ONE, 6 },
   { "T06000304", "吸氧", "治疗费", "每小时", "小时", 2.50, Q_HOURS, 6 },
   { "T06000405", "雾化吸入", "治疗费", "超声", "次", 10.00, Q_FEW, 5 },
   { "T06000506", "换药", "治疗费", "中换药", "次", 30.00, Q_ONE, 3 },
   { "N07000101", "一级护理", "护理费", "每日", "日", 26.00, Q_ONE, 10 },
   { "N07000102", "二级护理", "护理费", "每日", "日", 16.00, Q_ONE, 10 },
   { "B08000101", "普通病床", "床位费", "三人间", "日", 40.00, Q_ONE, 10 },
   { "B08000102", "普通病床", "床位费", "双人间", "日", 60.00, Q_ONE, 5 },
   { "D09000101", "住院诊查费", "诊查费", "每日", "日", 12.00, Q_ONE, 14 },
   { "M10000101", "一次性输液器", "材料费", "带针", "套", 3.20, Q_FEW, 20 },
   { "M10000102", "一次性注射器", "材料费", "5ml", "支", 0.68, Q_MANY, 16 },
   { "M10000203", "医用棉签", "材料费", "10支/包", "包", 0.80, Q_FEW, 8 },
   { "M10000304", "静脉留置针", "材料费", "22G", "支", 18.50, Q_ONE, 4 },
   { "S11000101", "腹腔镜阑尾切除术", "手术费", "腹腔镜", "次", 1260.00, Q_ONE, 1 },
   { "S11000202", "全身麻醉", "麻醉费", "每小时", "小时", 280.00, Q_HALF, 1 },
};
#define N_ITEMS (sizeof ITEMS / sizeof ITEMS[0])

static const char *const SURNAMES[] = {
   "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马",   "朱",
   "胡", "郭", "何", "高", "林", "罗", "郑", "梁", "谢", "宋", "唐", "许", "韩",   "冯",
   "邓", "曹", "彭", "曾", "肖", "田", "董", "袁", "潘", "于", "蒋", "蔡", "欧阳", "司马",
};
static const char *const GIVEN[] = {
   "伟", "芳", "娜", "秀", "英", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟",
   "涛", "明", "超", "兰", "霞", "平", "刚", "桂", "华", "建", "国", "文", "辉", "玉", "红", "波",
   "鑫", "宇", "浩", "欣", "婷", "雪", "琳", "晨", "志", "海", "俊", "斌", "凤", "梅", "春", "秋",
};
static const char *const HOSPITALS[] = {
   "江州市人民医院", "江州市第二医院", "江州市中医院",     "江州市中心医院",
   "江医附属医院",   "临川县人民医院", "江州市妇幼保健院", "东湖区医院",
};
static const double HOSPITAL_PRICE[] = { 1.00, 0.98, 0.92, 1.00, 1.06, 0.88, 0.95, 0.90 };
static const char *const DEPARTMENTS[] = {
   "心血管内科", "呼吸内科", "消化内科", "神经内科", "内分泌科",   "肾内科",
   "普通外科",   "骨科",     "神经外科", "泌尿外科", "妇科",       "产科",
   "儿科",       "眼科",     "耳鼻喉科", "肿瘤科",   "重症医学科", "康复医学科",
};
static const char *const INSURANCE[] = {
   "职工医保", "居民医保", "新农合", "异地医保", "自费", "商业保险", "公费医疗",
};
static const int INSURANCE_WEIGHT[] = { 40, 30, 12, 6, 7, 3, 2 };

static const char *const MASTER_FIELDS[] = {
   "patient_id", "patient_name", "age", "hospital", "dept", "admit_date", "insurance", NULL,
};

/* ---- the generator ----------------------------------------------------------------------------- */

typedef struct {
   int64_t idx;
   rng_t rng;
   int32_t rows;
   int32_t next_line; /* 1-based line of the next row */
   bool oversize;
   int64_t admit_ms;
   int64_t stay_ms;
   double u; /* last sorted uniform position within the stay */
   int64_t next_charge_ms;
   int64_t bill_id;
   char key_str[24]; /* LAB_GEN_KEY_STRING: lab_gen_key_string (bill_id) */
   char patient_id[24];
   char patient_name[32];
   int32_t age;
   int hospital;
   const char *department;
   const char *insurance;
} bill_t;

struct lab_gen {
   lab_gen_params_t p;
   char *key;
   double logn_mu;
   double zipf_s;
   double *zipf_cdf;    /* exact part, cumulative weights for k = 1..zipf_exact */
   int64_t zipf_exact;  /* rows covered by the table */
   double zipf_exact_w; /* total weight of the exact part */
   double zipf_tail_w;  /* total weight of the continuous tail */
   int64_t total_bills;
   int64_t total_rows;
   int64_t oversize_rows;
   int64_t *oversize_idx; /* sorted bill indexes of oversize bills */
   int32_t *fixed_rows;   /* total_rows given: every bill's rescaled row count (else NULL) */
   double interarrival_ms;
   double item_cum[N_ITEMS];
   int insurance_cum[NELEM (INSURANCE)];
   uint64_t oid_process; /* 5 "process" bytes of every _id */
   uint32_t oid_counter0;
   /* state */
   rng_t arrival;
   int64_t next_admit_idx;
   double next_admit_ms;
   int64_t seq; /* rows emitted */
   bill_t **heap;
   int64_t heap_len, heap_cap;
   int64_t heap_peak;
   bill_t *current; /* clustered: the bill being emitted */
};

/* calibrate -- fit the distribution's free parameter to the requested mean. */
static bool
calibrate (lab_gen_t *g, bson_error_t *error)
{
   const lab_gen_params_t *p = &g->p;
   double m = p->mean_rows;
   int64_t M = p->max_rows;

   switch (p->dist) {
   case LAB_GEN_LOGNORMAL: {
      if (!(m > 1.0 && m < (double)M)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g is not reachable by lognormal with --max-rows %" PRId64
                        ": it must lie strictly between 1 and --max-rows",
                        m, M);
         return false;
      }
      double lo = -20.0, hi = log ((double)M) + 20.0;
      for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
         double mid = (lo + hi) / 2;
         if (lab_gen_logn_clipped_mean (mid, LAB_GEN_LOGNORMAL_SIGMA, M) < m) {
            lo = mid;
         } else {
            hi = mid;
         }
      }
      g->logn_mu = (lo + hi) / 2;
      return true;
   }
   case LAB_GEN_ZIPF: {
      double w1, w2, mean0;
      g->zipf_exact = M < ZIPF_EXACT_ROWS ? M : ZIPF_EXACT_ROWS;
      lab_gen_zipf_weights (0.0, M, g->zipf_exact, &w1, &w2, &mean0);
      if (!(m > 1.0 && m < mean0)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g is not reachable by zipf with --max-rows %" PRId64
                        ": it must lie strictly between 1 and %.1f ((max-rows + 1) / 2)",
                        m, M, mean0);
         return false;
      }
      double lo = 0.0, hi = 30.0, mean;
      for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
         double mid = (lo + hi) / 2;
         lab_gen_zipf_weights (mid, M, g->zipf_exact, &w1, &w2, &mean);
         if (mean > m) {
            lo = mid;
         } else {
            hi = mid;
         }
      }
      g->zipf_s = (lo + hi) / 2;
      lab_gen_zipf_weights (g->zipf_s, M, g->zipf_exact, &g->zipf_exact_w, &g->zipf_tail_w, &mean);
      g->zipf_cdf = bson_malloc ((size_t)g->zipf_exact * sizeof (double));
      double c = 0;
      for (int64_t k = 1; k <= g->zipf_exact; k++) {
         c += pow ((double)k, -g->zipf_s);
         g->zipf_cdf[k - 1] = c;
      }
      return true;
   }
   case LAB_GEN_UNIFORM:
      if (!(m >= 1.0 && 2 * m - 1 <= (double)M)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g is not reachable by uniform with --max-rows %" PRId64
                        ": uniform draws from 1..2*mean-1, so the mean must be in [1, (max-rows + 1) / 2]",
                        m, M);
         return false;
      }
      return true;
   case LAB_GEN_FIXED:
      if (!(m >= 1.0 && m <= (double)M)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g must be in [1, --max-rows %" PRId64 "] for fixed", m, M);
         return false;
      }
      return true;
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "unknown --dist");
   return false;
}

/* clip_rows -- round and clip a continuous draw to [1, max]. */
static int64_t
clip_rows (double x, int64_t max_rows)
{
   if (!(x >= 1.5)) { /* also NaN */
      return 1;
   }
   if (x >= (double)max_rows) {
      return max_rows;
   }
   int64_t r = (int64_t)floor (x + 0.5);
   return r > max_rows ? max_rows : r;
}

/* draw_rows -- the bill's row count: always exactly one draw from the bill stream, whatever the dist. */
static int64_t
draw_rows (const lab_gen_t *g, rng_t *r)
{
   const lab_gen_params_t *p = &g->p;
   double u = rng_open_unit (r);

   switch (p->dist) {
   case LAB_GEN_LOGNORMAL: {
      /* inverse CDF of the normal through erfc's inverse is not in libm: use the probit by Acklam's
       * rational approximation refined by one Halley step, accurate to ~1e-15. */
      static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                                  1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00 };
      static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                  6.680131188771972e+01, -1.328068155288572e+01 };
      static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                  -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00 };
      static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                  3.754408661907416e+00 };
      double z, q, t;
      if (u < 0.02425) {
         q = sqrt (-2 * log (u));
         z = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
      } else if (u > 1 - 0.02425) {
         q = sqrt (-2 * log (1 - u));
         z = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
      } else {
         q = u - 0.5;
         t = q * q;
         z = (((((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4]) * t + a[5]) * q /
             (((((b[0] * t + b[1]) * t + b[2]) * t + b[3]) * t + b[4]) * t + 1);
      }
      double e = 0.5 * erfc (-z / M_SQRT2) - u;
      double uu = e * sqrt (2 * M_PI) * exp (z * z / 2);
      z = z - uu / (1 + z * uu / 2);
      return clip_rows (exp (g->logn_mu + LAB_GEN_LOGNORMAL_SIGMA * z), p->max_rows);
   }
   case LAB_GEN_ZIPF: {
      double total = g->zipf_exact_w + g->zipf_tail_w;
      double target = u * total;
      if (target < g->zipf_exact_w || g->zipf_tail_w <= 0) {
         /* binary search the first k with cdf[k-1] > target */
         int64_t lo = 0, hi = g->zipf_exact - 1;
         while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (g->zipf_cdf[mid] > target) {
               hi = mid;
            } else {
               lo = mid + 1;
            }
         }
         return lo + 1;
      }
      /* continuous tail on [a, b] with density ~ x^-s: invert its CDF */
      double s = g->zipf_s;
      double a = (double)g->zipf_exact + 0.5, bnd = (double)p->max_rows + 0.5;
      double f = (target - g->zipf_exact_w) / g->zipf_tail_w;
      double x;
      if (fabs (s - 1.0) < 1e-9) {
         x = a * pow (bnd / a, f);
      } else {
         double pa = pow (a, 1 - s), pb = pow (bnd, 1 - s);
         x = pow (pa + f * (pb - pa), 1 / (1 - s));
      }
      int64_t k = (int64_t)floor (x + 0.5);
      if (k <= g->zipf_exact) {
         k = g->zipf_exact + 1;
      }
      return k > p->max_rows ? p->max_rows : k;
   }
   case LAB_GEN_UNIFORM:
      return clip_rows (0.5 + u * (2 * p->mean_rows - 1.0), p->max_rows);
   case LAB_GEN_FIXED: {
      double fl = floor (p->mean_rows);
      return (int64_t)fl + (u < p->mean_rows - fl ? 1 : 0);
   }
   }
   return 1;
}

/* draw_stay_ms -- a bill's stay: its rows at a rate of 8..25 rows a day, within 6 hours .. 60 days. */
static int64_t
draw_stay_ms (rng_t *r, int64_t rows)
{
   double rate = 8.0 + 17.0 * rng_unit (r);
   double days = (double)rows / rate;
   if (days < 0.25) {
      days = 0.25;
   }
   if (days > 60.0) {
      days = 60.0;
   }
   return (int64_t)(days * MS_PER_DAY);
}

/* is_oversize -- binary search in the sorted oversize index list. */
static bool
is_oversize (const lab_gen_t *g, int64_t idx)
{
   int64_t lo = 0, hi = g->p.oversize;
   while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (g->oversize_idx[mid] < idx) {
         lo = mid + 1;
      } else {
         hi = mid;
      }
   }
   return lo < g->p.oversize && g->oversize_idx[lo] == idx;
}

/* bill_sizes -- seed bill idx's stream and draw its row count and stay (the first draws of the stream). */
static void
bill_sizes (const lab_gen_t *g, int64_t idx, rng_t *r, int64_t *rows, int64_t *stay_ms, bool *oversize)
{
   rng_seed (r, g->p.seed, (uint64_t)idx + 1);
   *rows = draw_rows (g, r);
   if (g->fixed_rows) {
      *rows = g->fixed_rows[idx]; /* the draw above still happens: the stream stays the same */
   }
   *oversize = g->p.oversize > 0 && is_oversize (g, idx);
   if (*oversize) {
      *rows = g->oversize_rows;
   }
   *stay_ms = draw_stay_ms (r, *rows);
}

bool
lab_gen_bill_rows_at (const lab_gen_t *g, int64_t bill_index, int64_t *rows, bool *oversize)
{
   rng_t r;
   int64_t stay;
   bool ov;

   if (bill_index < 0 || bill_index >= g->total_bills) {
      return false;
   }
   bill_sizes (g, bill_index, &r, rows, &stay, &ov);
   if (oversize) {
      *oversize = ov;
   }
   return true;
}

/* append_utf8_pick -- strcat a random entry of a string table. */
static const char *
pick (rng_t *r, const char *const *table, size_t n)
{
   return table[rng_below (r, n)];
}

/* bill_admit -- draw the master fields and the first charge time of bill idx. */
static void
bill_admit (lab_gen_t *g, bill_t *b, int64_t idx, int64_t admit_ms)
{
   int64_t rows, stay;
   bool ov;
   memset (b, 0, sizeof *b);
   bill_sizes (g, idx, &b->rng, &rows, &stay, &ov);
   b->idx = idx;
   b->rows = (int32_t)rows;
   b->oversize = ov;
   b->stay_ms = stay;
   b->admit_ms = admit_ms;
   b->next_line = 1;
   b->u = 0.0;
   b->bill_id = 202300000001ll + idx;
   if (g->p.key_type == LAB_GEN_KEY_STRING) {
      lab_gen_key_string (b->bill_id, b->key_str, sizeof b->key_str);
   }

   rng_t *r = &b->rng;
   /* A patient pool smaller than the bills: readmissions share patient id, name, sex and birth year,
    * all derived from the patient number alone. */
   uint64_t pool = (uint64_t)(g->total_bills * 4 / 5) + 1;
   uint64_t pno = rng_below (r, pool);
   rng_t pr;
   rng_seed (&pr, g->p.seed ^ 0xA5A5A5A5A5A5A5A5ull, pno + 1);
   bson_snprintf (b->patient_id, sizeof b->patient_id, "ZY%08" PRIu64,
                  1000000 + pno * 7 + rng_below (&pr, 7));
   const char *sur = pick (&pr, SURNAMES, NELEM (SURNAMES));
   const char *g1 = pick (&pr, GIVEN, NELEM (GIVEN));
   if (rng_below (&pr, 3) == 0) {
      bson_snprintf (b->patient_name, sizeof b->patient_name, "%s%s", sur, g1);
   } else {
      bson_snprintf (b->patient_name, sizeof b->patient_name, "%s%s%s", sur, g1,
                     pick (&pr, GIVEN, NELEM (GIVEN)));
   }
   int birth_year = 1930 + (int)rng_below (&pr, 93);
   int admit_year = 1970 + (int)(admit_ms / (int64_t)(365.2425 * MS_PER_DAY));
   b->age = admit_year - birth_year < 0 ? 0 : admit_year - birth_year;

   b->hospital = (int)rng_below (r, NELEM (HOSPITALS));
   b->department = pick (r, DEPARTMENTS, NELEM (DEPARTMENTS));
   int w = (int)rng_below (r, (uint64_t)g->insurance_cum[NELEM (INSURANCE) - 1]);
   size_t i = 0;
   while (w >= g->insurance_cum[i]) {
      i++;
   }
   b->insurance = INSURANCE[i];
}

/* bill_step -- draw the next charge time (sorted uniforms generated in order: the k-th of n is
 * 1 - (1 - u_{k-1}) V^(1/(n-k+1))); charge times are whole seconds, never before the previous one. */
static void
bill_step (bill_t *b)
{
   int64_t remaining = b->rows - b->next_line + 1;
   double v = rng_open_unit (&b->rng);
   b->u = 1.0 - (1.0 - b->u) * pow (v, 1.0 / (double)remaining);
   int64_t t = b->admit_ms + (int64_t)(b->u * (double)b->stay_ms);
   t -= t % 1000;
   if (t < b->next_charge_ms) {
      t = b->next_charge_ms;
   }
   b->next_charge_ms = t;
}

/* heap_less -- order of open bills: next charge time, then bill index. */
static inline bool
heap_less (const bill_t *a, const bill_t *b)
{
   return a->next_charge_ms < b->next_charge_ms ||
          (a->next_charge_ms == b->next_charge_ms && a->idx < b->idx);
}

static void
heap_push (lab_gen_t *g, bill_t *b)
{
   if (g->heap_len == g->heap_cap) {
      g->heap_cap = g->heap_cap ? g->heap_cap * 2 : 256;
      g->heap = bson_realloc (g->heap, (size_t)g->heap_cap * sizeof (bill_t *));
   }
   int64_t i = g->heap_len++;
   while (i > 0) {
      int64_t parent = (i - 1) / 2;
      if (!heap_less (b, g->heap[parent])) {
         break;
      }
      g->heap[i] = g->heap[parent];
      i = parent;
   }
   g->heap[i] = b;
   if (g->heap_len > g->heap_peak) {
      g->heap_peak = g->heap_len;
   }
}

static bill_t *
heap_pop (lab_gen_t *g)
{
   bill_t *top = g->heap[0];
   bill_t *last = g->heap[--g->heap_len];
   int64_t i = 0, n = g->heap_len;
   while (n > 0) {
      int64_t c = 2 * i + 1;
      if (c >= n) {
         break;
      }
      if (c + 1 < n && heap_less (g->heap[c + 1], g->heap[c])) {
         c++;
      }
      if (!heap_less (g->heap[c], last)) {
         break;
      }
      g->heap[i] = g->heap[c];
      i = c;
   }
   if (n > 0) {
      g->heap[i] = last;
   }
   return top;
}

/* pick_item -- a weighted draw from the catalogue. */
static const item_t *
pick_item (const lab_gen_t *g, rng_t *r)
{
   double w = rng_unit (r) * g->item_cum[N_ITEMS - 1];
   size_t lo = 0, hi = N_ITEMS - 1;
   while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (g->item_cum[mid] > w) {
         hi = mid;
      } else {
         lo = mid + 1;
      }
   }
   return &ITEMS[lo];
}

/* draw_qty -- a quantity for the item's kind (doubles, as HIS systems store them). */
static double
draw_qty (rng_t *r, qty_kind_t k)
{
   switch (k) {
   case Q_ONE:
      return rng_below (r, 10) == 0 ? 2.0 : 1.0;
   case Q_FEW:
      return (double)(1 + rng_below (r, 3));
   case Q_MANY:
      return (double)(2 + rng_below (r, 19));
   case Q_HALF:
      return 0.5 * (double)(1 + rng_below (r, 6));
   case Q_HOURS:
      return (double)(1 + rng_below (r, 24));
   case Q_GRAMS:
      return (double)(5 * (2 + rng_below (r, 5)));
   }
   return 1.0;
}

/* round2 -- round to cents. */
static double
round2 (double x)
{
   return round (x * 100.0) / 100.0;
}

/* append_row -- build row `b->next_line` of bill b (charge time already drawn) into doc; with doc NULL
 * only make the row's draws (lab_gen_skip), so the bill's stream advances exactly as when building. */
static void
append_row (lab_gen_t *g, bill_t *b, bson_t *doc)
{
   rng_t *r = &b->rng;
   const item_t *it = pick_item (g, r);
   double qty = draw_qty (r, it->qty);
   if (!doc) {
      return;
   }
   double price = round2 (it->price * HOSPITAL_PRICE[b->hospital]);
   if (price < 0.01) {
      price = 0.01;
   }
   double amount = round2 (qty * price);

   /* _id: ObjectId as mongod would assign it on insert: timestamp = the simulated insertion time
    * (interleaved: the charge time; clustered: a bulk load at 5,000 rows/s after the last admission),
    * 5 bytes fixed by the seed, 3-byte counter = insertion sequence. */
   int64_t ts_s;
   if (g->p.order == LAB_GEN_INTERLEAVED) {
      ts_s = b->next_charge_ms / 1000;
   } else {
      ts_s = g->p.start_ms / 1000 + g->seq / 5000;
   }
   uint8_t oid[12];
   uint32_t ts = (uint32_t)ts_s;
   uint32_t ctr = (g->oid_counter0 + (uint32_t)g->seq) & 0xFFFFFFu;
   oid[0] = (uint8_t)(ts >> 24);
   oid[1] = (uint8_t)(ts >> 16);
   oid[2] = (uint8_t)(ts >> 8);
   oid[3] = (uint8_t)ts;
   for (int i = 0; i < 5; i++) {
      oid[4 + i] = (uint8_t)(g->oid_process >> (8 * (4 - i)));
   }
   oid[9] = (uint8_t)(ctr >> 16);
   oid[10] = (uint8_t)(ctr >> 8);
   oid[11] = (uint8_t)ctr;
   bson_oid_t boid;
   bson_oid_init_from_data (&boid, oid);

   BSON_APPEND_OID (doc, "_id", &boid);
   if (g->p.key_type == LAB_GEN_KEY_STRING) {
      bson_append_utf8 (doc, g->key, -1, b->key_str, -1);
   } else {
      bson_append_int64 (doc, g->key, -1, b->bill_id);
   }
   BSON_APPEND_UTF8 (doc, "patient_id", b->patient_id);
   BSON_APPEND_UTF8 (doc, "patient_name", b->patient_name);
   BSON_APPEND_INT32 (doc, "age", b->age);
   BSON_APPEND_UTF8 (doc, "hospital", HOSPITALS[b->hospital]);
   BSON_APPEND_UTF8 (doc, "dept", b->department);
   BSON_APPEND_DATE_TIME (doc, "admit_date", b->admit_ms);
   BSON_APPEND_UTF8 (doc, "insurance", b->insurance);
   BSON_APPEND_INT32 (doc, "line_no", b->next_line);
   BSON_APPEND_UTF8 (doc, "item_code", it->code);
   BSON_APPEND_UTF8 (doc, "item_name", it->name);
   BSON_APPEND_UTF8 (doc, "spec", it->spec);
   BSON_APPEND_UTF8 (doc, "unit", it->unit);
   BSON_APPEND_DOUBLE (doc, "qty", qty);
   BSON_APPEND_DOUBLE (doc, "unit_price", price);
   BSON_APPEND_DOUBLE (doc, "amount", amount);
   BSON_APPEND_DATE_TIME (doc, "charge_time", b->next_charge_ms);
}

int64_t
lab_gen_min_folded_row_bytes (void)
{
   /* Shortest value of each string row field over the catalogue; numbers have fixed sizes. */
   size_t min_code = SIZE_MAX, min_name = SIZE_MAX, min_spec = SIZE_MAX, min_unit = SIZE_MAX;
   for (size_t i = 0; i < N_ITEMS; i++) {
      min_code = BSON_MIN (min_code, strlen (ITEMS[i].code));
      min_name = BSON_MIN (min_name, strlen (ITEMS[i].name));
      min_spec = BSON_MIN (min_spec, strlen (ITEMS[i].spec));
      min_unit = BSON_MIN (min_unit, strlen (ITEMS[i].unit));
   }
   char s[64];
   memset (s, 'x', sizeof s);
   bson_t d = BSON_INITIALIZER;
   BSON_APPEND_INT32 (&d, "line_no", 1);
   bson_append_utf8 (&d, "item_code", -1, s, (int)min_code);
   bson_append_utf8 (&d, "item_name", -1, s, (int)min_name);
   bson_append_utf8 (&d, "spec", -1, s, (int)min_spec);
   bson_append_utf8 (&d, "unit", -1, s, (int)min_unit);
   BSON_APPEND_DOUBLE (&d, "qty", 0);
   BSON_APPEND_DOUBLE (&d, "unit_price", 0);
   BSON_APPEND_DOUBLE (&d, "amount", 0);
   BSON_APPEND_DATE_TIME (&d, "charge_time", 0);
   /* array element: type byte + shortest index name "0" + NUL, then the sub-document */
   int64_t n = 1 + 2 + (int64_t)d.len;
   bson_destroy (&d);
   return n;
}

const char *const *
lab_gen_master_fields (void)
{
   return MASTER_FIELDS;
}

/* fix_total_rows -- draw every bill's row count, then rescale them so that they sum to exactly
 * p.total_rows: each bill keeps its one row and gets its share of the rest in proportion to its rows
 * above one, rounded on the running sum (floor of the scaled cumulative excess), so the shape of the
 * distribution is kept, no bill falls below one row and the sum is exact. Deterministic (integer
 * arithmetic over the bills in admission order). O(bills) memory: 4 bytes a bill. */
static bool
fix_total_rows (lab_gen_t *g, bson_error_t *error)
{
   const int64_t n = g->total_bills, target = g->p.total_rows;
   int64_t excess_sum = 0;

   if (g->p.oversize > 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "an exact total of rows (a preset) cannot be combined with --oversize");
      return false;
   }
   if (target < n) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "a total of %" PRId64 " rows cannot be spread over %" PRId64
                     " bills: every bill needs at least one row",
                     target, n);
      return false;
   }
   g->fixed_rows = bson_malloc ((size_t)n * sizeof (int32_t));
   for (int64_t i = 0; i < n; i++) {
      rng_t r;
      rng_seed (&r, g->p.seed, (uint64_t)i + 1);
      int64_t rows = draw_rows (g, &r);
      g->fixed_rows[i] = (int32_t)rows;
      excess_sum += rows - 1;
   }
   const int64_t want = target - n; /* rows above one per bill, over all bills */
   int64_t cum = 0, prev = 0;
   for (int64_t i = 0; i < n; i++) {
      int64_t next;
      if (excess_sum > 0) {
         cum += g->fixed_rows[i] - 1;
         next = (int64_t)(((unsigned __int128)cum * (uint64_t)want) / (uint64_t)excess_sum);
      } else { /* every bill drew one row: spread evenly */
         next = (int64_t)(((unsigned __int128)(i + 1) * (uint64_t)want) / (uint64_t)n);
      }
      if (1 + next - prev > INT32_MAX) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "a total of %" PRId64 " rows over %" PRId64 " bills gives one bill too many rows",
                        target, n);
         return false;
      }
      g->fixed_rows[i] = (int32_t)(1 + next - prev);
      prev = next;
   }
   return true;
}

lab_gen_t *
lab_gen_new (const lab_gen_params_t *p, bson_error_t *error)
{
   lab_gen_t *g = bson_malloc0 (sizeof *g);
   g->p = *p;
   g->key = bson_strdup (p->key ? p->key : "bill_id");
   g->p.key = g->key;

   if (p->bills < 0 || p->oversize < 0 || p->bills + p->oversize < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--bills (%" PRId64 ") plus --oversize (%" PRId64 ") must be at least 1", p->bills,
                     p->oversize);
      goto fail;
   }
   if (p->max_rows < 1 || p->max_rows > LAB_GEN_MAX_ROWS_LIMIT) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--max-rows %" PRId64 " must be in [1, %d]", p->max_rows, LAB_GEN_MAX_ROWS_LIMIT);
      goto fail;
   }
   if (!(p->mean_rows >= 1.0) || p->mean_rows > (double)LAB_GEN_MAX_ROWS_LIMIT) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--mean-rows %g must be at least 1",
                     p->mean_rows);
      goto fail;
   }
   if (p->open_bills < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--open-bills must be at least 1");
      goto fail;
   }
   if (!*g->key || g->key[0] == '$' || strchr (g->key, '.') || strcmp (g->key, "_id") == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "--key '%s' is not usable: a top-level field name, not empty, not _id, without '.' or a "
                     "leading '$'",
                     g->key);
      goto fail;
   }
   for (const char *const *f = MASTER_FIELDS; *f; f++) {
      if (strcmp (*f, g->key) == 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "--key '%s' clashes with a generated field", g->key);
         goto fail;
      }
   }
   static const char *const row_fields[] = { "line_no", "item_code",  "item_name", "spec",       "unit",
                                             "qty",     "unit_price", "amount",    "charge_time" };
   for (size_t i = 0; i < NELEM (row_fields); i++) {
      if (strcmp (row_fields[i], g->key) == 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "--key '%s' clashes with a generated field", g->key);
         goto fail;
      }
   }
   if (!calibrate (g, error)) {
      goto fail;
   }

   /* Oversize bills: rows enough that even the smallest possible folded elements pass the target. */
   g->total_bills = p->bills + p->oversize;
   if (p->oversize > 0) {
      int64_t min_row = lab_gen_min_folded_row_bytes ();
      g->oversize_rows = (LAB_GEN_OVERSIZE_TARGET_BYTES + min_row - 1) / min_row;
      g->oversize_idx = bson_malloc ((size_t)p->oversize * sizeof (int64_t));
      for (int64_t j = 0; j < p->oversize; j++) {
         /* spread evenly over admission order */
         g->oversize_idx[j] = (int64_t)(((2 * (unsigned __int128)j + 1) * (uint64_t)g->total_bills) /
                                        (2 * (uint64_t)p->oversize));
         if (j > 0 && g->oversize_idx[j] <= g->oversize_idx[j - 1]) {
            g->oversize_idx[j] = g->oversize_idx[j - 1] + 1;
         }
      }
   }

   if (p->total_rows != 0 && !fix_total_rows (g, error)) {
      goto fail;
   }

   /* Pre-pass: totals and mean stay (Little's law: open bills = arrival rate x mean stay). */
   double stay_sum = 0;
   g->total_rows = 0;
   for (int64_t i = 0; i < g->total_bills; i++) {
      rng_t r;
      int64_t rows, stay;
      bool ov;
      bill_sizes (g, i, &r, &rows, &stay, &ov);
      g->total_rows += rows;
      stay_sum += (double)stay;
   }
   g->interarrival_ms = stay_sum / (double)g->total_bills / (double)p->open_bills;

   double c = 0;
   for (size_t i = 0; i < N_ITEMS; i++) {
      c += ITEMS[i].weight;
      g->item_cum[i] = c;
   }
   int ic = 0;
   for (size_t i = 0; i < NELEM (INSURANCE); i++) {
      ic += INSURANCE_WEIGHT[i];
      g->insurance_cum[i] = ic;
   }
   uint64_t x = p->seed ^ 0x0123456789ABCDEFull;
   g->oid_process = splitmix64 (&x) & 0xFFFFFFFFFFull;
   g->oid_counter0 = (uint32_t)(splitmix64 (&x) & 0xFFFFFFu);

   rng_seed (&g->arrival, p->seed, 0);
   g->next_admit_idx = 0;
   g->next_admit_ms = (double)p->start_ms;
   return g;

fail:
   lab_gen_destroy (g);
   return NULL;
}

/* admit_next -- admit the next bill at the current arrival time and advance the arrival clock. */
static bill_t *
admit_next (lab_gen_t *g)
{
   bill_t *b = bson_malloc (sizeof *b);
   int64_t admit = (int64_t)g->next_admit_ms;
   admit -= admit % 1000;
   bill_admit (g, b, g->next_admit_idx, admit);
   bill_step (b);
   g->next_admit_idx++;
   g->next_admit_ms += -log (rng_open_unit (&g->arrival)) * g->interarrival_ms;
   return b;
}

/* emit -- fill doc with the bill's current row and advance it; returns true if the bill has more rows. */
static bool
emit (lab_gen_t *g, bill_t *b, bson_t *doc, lab_gen_row_t *info)
{
   if (doc) {
      bson_reinit (doc);
   }
   append_row (g, b, doc);
   if (info) {
      info->bill_index = b->idx;
      info->bill_id = b->bill_id;
      info->line_no = b->next_line;
      info->bill_rows = b->rows;
      info->oversize = b->oversize;
      info->charge_ms = b->next_charge_ms;
   }
   g->seq++;
   b->next_line++;
   if (b->next_line > b->rows) {
      return false;
   }
   bill_step (b);
   return true;
}

/* gen_step -- the next row into doc (NULL: draws only); false when every row has been generated. */
static bool
gen_step (lab_gen_t *g, bson_t *doc, lab_gen_row_t *info)
{
   if (g->p.order == LAB_GEN_CLUSTERED) {
      if (!g->current) {
         if (g->next_admit_idx >= g->total_bills) {
            return false;
         }
         g->current = admit_next (g);
      }
      if (!emit (g, g->current, doc, info)) {
         bson_free (g->current);
         g->current = NULL;
      }
      return true;
   }

   /* interleaved: admit every bill whose admission is not after the earliest pending charge */
   while (g->next_admit_idx < g->total_bills &&
          (g->heap_len == 0 || (int64_t)g->next_admit_ms <= g->heap[0]->next_charge_ms)) {
      heap_push (g, admit_next (g));
   }
   if (g->heap_len == 0) {
      return false;
   }
   bill_t *b = heap_pop (g);
   if (emit (g, b, doc, info)) {
      heap_push (g, b);
   } else {
      bson_free (b);
   }
   return true;
}

bool
lab_gen_next (lab_gen_t *g, bson_t *doc, lab_gen_row_t *info)
{
   return gen_step (g, doc, info);
}

int64_t
lab_gen_skip (lab_gen_t *g, int64_t n)
{
   int64_t done = 0;
   while (done < n && gen_step (g, NULL, NULL)) {
      done++;
   }
   return done;
}

int64_t
lab_gen_position (const lab_gen_t *g)
{
   return g->seq;
}

int64_t
lab_gen_total_rows (const lab_gen_t *g)
{
   return g->total_rows;
}

int64_t
lab_gen_total_bills (const lab_gen_t *g)
{
   return g->total_bills;
}

int64_t
lab_gen_oversize_rows (const lab_gen_t *g)
{
   return g->oversize_rows;
}

double
lab_gen_lognormal_mu (const lab_gen_t *g)
{
   return g->logn_mu;
}

int64_t
lab_gen_open_bills_peak (const lab_gen_t *g)
{
   return g->heap_peak;
}

void
lab_gen_destroy (lab_gen_t *g)
{
   if (!g) {
      return;
   }
   for (int64_t i = 0; i < g->heap_len; i++) {
      bson_free (g->heap[i]);
   }
   bson_free (g->heap);
   bson_free (g->current);
   bson_free (g->zipf_cdf);
   bson_free (g->oversize_idx);
   bson_free (g->fixed_rows);
   bson_free (g->key);
   bson_free (g);
}
