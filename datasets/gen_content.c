/* gen_content.c -- what a generated bill holds: the catalogues, a bill's master fields and a row's fields. */
#include "datasets/gen_private.h"

#include <math.h>
#include <string.h>

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
BSON_STATIC_ASSERT2 (n_items, N_ITEMS == LAB_GEN_N_ITEMS);

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
BSON_STATIC_ASSERT2 (n_insurance, NELEM (INSURANCE) == LAB_GEN_N_INSURANCE);

static const char *const MASTER_FIELDS[] = {
   "patient_id", "patient_name", "age", "hospital", "dept", "admit_date", "insurance", NULL,
};

/* lab_gen_content_init -- the catalogue's and the insurance table's cumulative weights. */
void
lab_gen_content_init (lab_gen_t *g)
{
   double c = 0;
   for (size_t i = 0; i < N_ITEMS; i++) {
      c += ITEMS[i].weight;
      g->item_cum[i] = c;
      g->item_doc[i] = bson_new ();
      BSON_APPEND_UTF8 (g->item_doc[i], "item_code", ITEMS[i].code);
      BSON_APPEND_UTF8 (g->item_doc[i], "item_name", ITEMS[i].name);
      BSON_APPEND_UTF8 (g->item_doc[i], "spec", ITEMS[i].spec);
      BSON_APPEND_UTF8 (g->item_doc[i], "unit", ITEMS[i].unit);
   }
   int ic = 0;
   for (size_t i = 0; i < NELEM (INSURANCE); i++) {
      ic += INSURANCE_WEIGHT[i];
      g->insurance_cum[i] = ic;
   }
}

/* append_utf8_pick -- strcat a random entry of a string table. */
static const char *
pick (rng_t *r, const char *const *table, size_t n)
{
   return table[rng_below (r, n)];
}

/* lab_gen_bill_master -- draw bill b's master fields (patient, hospital, department, insurance) from its
 * stream, after its sizes; admitted at admit_ms. */
void
lab_gen_bill_master (const lab_gen_t *g, bill_t *b, int64_t admit_ms)
{
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

/* master_append -- bill b's master fields (the key, then those it repeats in every row) into doc. */
static void
master_append (const lab_gen_t *g, const bill_t *b, bson_t *doc)
{
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
}

/* master_encode -- bill b's master fields encoded once into b->master (UINT32_MAX when they do not fit):
 * every row copies the same bytes (bson_concat) instead of appending eight fields again. */
static void
master_encode (const lab_gen_t *g, bill_t *b)
{
   bson_t m = BSON_INITIALIZER;

   master_append (g, b, &m);
   if (m.len <= sizeof b->master) {
      memcpy (b->master, bson_get_data (&m), m.len);
      b->master_len = m.len;
   } else {
      b->master_len = UINT32_MAX; /* (appended field by field) */
   }
   bson_destroy (&m);
}

/* lab_gen_row_append -- build row `b->next_line` of bill b (charge time already drawn) into doc; with doc
 * NULL only make the row's draws (lab_gen_skip), so the bill's stream advances exactly as when building. */
void
lab_gen_row_append (lab_gen_t *g, bill_t *b, bson_t *doc)
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
   if (b->master_len == 0) {
      master_encode (g, b);
   }
   bson_t m;
   if (b->master_len <= sizeof b->master && bson_init_static (&m, b->master, b->master_len)) {
      bson_concat (doc, &m);
   } else {
      master_append (g, b, doc);
   }
   BSON_APPEND_INT32 (doc, "line_no", b->next_line);
   bson_concat (doc, g->item_doc[it - ITEMS]);
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
