/*
 * fuzz_csv.c -- libFuzzer harness of CSV import without a store: the same path `billgen import
 * --parse-only` takes (lab_gen_import with no store: open, zstd sniffing, record cutting, header
 * typing, field conversion to BSON, --parse-grace, the reject file).
 *
 * Input: byte 0 chooses the options -- bit 0 --columns-have-types, bit 1 --headerline (else the first
 * line of the rest is the --fields list), bits 2-3 --parse-grace (stop, skip-row, skip-field), bit 4 the
 * file is zstd-compressed first, bit 5 the compressed file is cut short, bit 6 --reject FILE, bit 7 --key
 * bill_id given explicitly; byte 1 bit 0: the same file twice. The rest is the file's content.
 */
#include "datasets/billgen.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* LLVMFuzzerTestOneInput -- import one fuzzed CSV file with fuzzed options. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   lab_gen_import_opts_t o;
   lab_gen_import_stats_t st;
   bson_error_t error;
   uint8_t f0, f1;
   char *fields = NULL;
   const char *files[2];
   const char *path;

   lab_fuzz_setup ();
   if (len < 2) {
      return 0;
   }
   f0 = data[0];
   f1 = data[1];
   data += 2;
   len -= 2;

   memset (&o, 0, sizeof o);
   o.coll = "bills";
   o.parse_only = true;
   o.typed = f0 & 1;
   o.headerline = (f0 & 2) != 0;
   o.grace = (lab_gen_grace_t)(((f0 >> 2) & 3) % 3);
   o.key = "bill_id";
   o.key_given = (f0 & 0x80) != 0;
   o.progress = LAB_PROGRESS_NEVER;
   if (!o.headerline) {
      const uint8_t *nl = memchr (data, '\n', len);
      size_t n = nl ? (size_t)(nl - data) : len;
      fields = bson_malloc (n + 1); /* not bson_strndup: it reads the source as a C string */
      memcpy (fields, data, n);
      fields[n] = '\0';
      o.fields = fields;
      data += nl ? n + 1 : n;
      len -= nl ? n + 1 : n;
   }
   if (f0 & 0x40) {
      o.reject_path = lab_fuzz_write ("rejects.txt", "", 0);
   }
   if (f0 & 0x10) {
      size_t cap = ZSTD_compressBound (len);
      void *z = malloc (cap);
      size_t zn = ZSTD_compress (z, cap, data, len, 1);
      if (ZSTD_isError (zn)) {
         abort ();
      }
      if ((f0 & 0x20) && zn > 0) {
         zn -= 1 + (f1 >> 1) % zn;
      }
      path = lab_fuzz_write ("in.csv.zst", z, zn);
      free (z);
   } else {
      path = lab_fuzz_write ("in.csv", data, len);
   }
   files[0] = files[1] = path;
   o.files = files;
   o.nfiles = (f1 & 1) ? 2 : 1;

   memset (&st, 0, sizeof st);
   if (lab_gen_import (NULL, &o, &st, &error)) {
      if (st.rows_inserted + st.rejects != st.rows_read) {
         abort (); /* every data row is either converted or refused */
      }
   } else if (!error.message[0]) {
      abort (); /* a failure must say why */
   }
   bson_free (fields);
   return 0;
}
