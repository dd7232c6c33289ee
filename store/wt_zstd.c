/*
 * wt_zstd.c -- the zstd block compressor of the embedded store: a WT_COMPRESSOR on libzstd, loaded with
 * every connection (Debian's WiredTiger 3.2.1 ships snappy and zlib extensions, not zstd).
 *
 * It is a WiredTiger extension compiled into our programs: wiredtiger_open's configuration names it as
 * `extensions=[local=(entry=lab_wt_zstd_extension_init,config=(compression_level=N))]`, so WiredTiger
 * finds the entry point in the running program (dlopen(NULL); the link exports that one symbol) and
 * registers the compressor before recovery, which may need it to replay the journal into a zstd table.
 *
 * Block format: an 8-byte little-endian length of the zstd frame, then the frame. WiredTiger may hand
 * decompress a buffer rounded up with zeroes past what compress produced; the length says where the
 * frame ends (as WiredTiger's own zstd extension does). A frame is readable by any zstd at any level.
 */
#include "wt_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wiredtiger_ext.h>
#include <zstd.h>
#include <zstd_errors.h>

#define ZSTD_HEADER_BYTES 8
#define ZSTD_POOL 16 /* contexts kept for reuse (each thread takes one while it compresses) */

typedef struct {
   WT_COMPRESSOR iface; /* first: WiredTiger hands our callbacks a pointer to it */
   WT_EXTENSION_API *api;
   int level;
   pthread_mutex_t mu;
   ZSTD_CCtx *cctx[ZSTD_POOL];
   int ncctx;
   ZSTD_DCtx *dctx[ZSTD_POOL];
   int ndctx;
} lab_zstd_t;

/* zstd_fail -- report a zstd error through WiredTiger (our event handler keeps it for lab_wt_fail). */
static int
zstd_fail (lab_zstd_t *z, WT_SESSION *session, const char *what, size_t code)
{
   (void)z->api->err_printf (z->api, session, "zstd block compressor: %s: %s", what,
                             ZSTD_getErrorName (code));
   return WT_ERROR;
}

/* zstd_compress -- compress src into dst after the length header; a block that does not shrink is kept
 * as it is (compression_failed). */
static int
zstd_compress (WT_COMPRESSOR *compressor, WT_SESSION *session, uint8_t *src, size_t src_len, uint8_t *dst,
               size_t dst_len, size_t *result_lenp, int *compression_failed)
{
   lab_zstd_t *z = (lab_zstd_t *)compressor;
   ZSTD_CCtx *cctx = NULL;
   size_t n;
   uint64_t le;

   *compression_failed = 0;
   if (dst_len <= ZSTD_HEADER_BYTES) {
      *compression_failed = 1;
      return 0;
   }
   pthread_mutex_lock (&z->mu);
   if (z->ncctx > 0) {
      cctx = z->cctx[--z->ncctx];
   }
   pthread_mutex_unlock (&z->mu);
   if (!cctx && !(cctx = ZSTD_createCCtx ())) {
      return ENOMEM;
   }
   n = ZSTD_compressCCtx (cctx, dst + ZSTD_HEADER_BYTES, dst_len - ZSTD_HEADER_BYTES, src, src_len, z->level);
   pthread_mutex_lock (&z->mu);
   if (z->ncctx < ZSTD_POOL) {
      z->cctx[z->ncctx++] = cctx;
      cctx = NULL;
   }
   pthread_mutex_unlock (&z->mu);
   ZSTD_freeCCtx (cctx);
   if (ZSTD_isError (n)) {
      if (ZSTD_getErrorCode (n) == ZSTD_error_dstSize_tooSmall) {
         *compression_failed = 1;
         return 0;
      }
      return zstd_fail (z, session, "compress", n);
   }
   if (n + ZSTD_HEADER_BYTES >= src_len) {
      *compression_failed = 1;
      return 0;
   }
   le = BSON_UINT64_TO_LE ((uint64_t)n);
   memcpy (dst, &le, sizeof le);
   *result_lenp = n + ZSTD_HEADER_BYTES;
   return 0;
}

/* zstd_decompress -- the frame whose length the header gives, into dst; anything damaged is an error
 * WiredTiger reports (never a crash: the length is checked against the buffer, zstd checks the frame). */
static int
zstd_decompress (WT_COMPRESSOR *compressor, WT_SESSION *session, uint8_t *src, size_t src_len, uint8_t *dst,
                 size_t dst_len, size_t *result_lenp)
{
   lab_zstd_t *z = (lab_zstd_t *)compressor;
   ZSTD_DCtx *dctx = NULL;
   uint64_t le, frame;
   size_t n;

   if (src_len < ZSTD_HEADER_BYTES) {
      (void)z->api->err_printf (z->api, session, "zstd block compressor: a %zu-byte block has no header",
                                src_len);
      return WT_ERROR;
   }
   memcpy (&le, src, sizeof le);
   frame = BSON_UINT64_FROM_LE (le);
   if (frame > src_len - ZSTD_HEADER_BYTES) {
      (void)z->api->err_printf (z->api, session,
                                "zstd block compressor: the block says its frame is %llu bytes but only %zu "
                                "follow: the block is damaged",
                                (unsigned long long)frame, src_len - ZSTD_HEADER_BYTES);
      return WT_ERROR;
   }
   pthread_mutex_lock (&z->mu);
   if (z->ndctx > 0) {
      dctx = z->dctx[--z->ndctx];
   }
   pthread_mutex_unlock (&z->mu);
   if (!dctx && !(dctx = ZSTD_createDCtx ())) {
      return ENOMEM;
   }
   n = ZSTD_decompressDCtx (dctx, dst, dst_len, src + ZSTD_HEADER_BYTES, (size_t)frame);
   pthread_mutex_lock (&z->mu);
   if (z->ndctx < ZSTD_POOL) {
      z->dctx[z->ndctx++] = dctx;
      dctx = NULL;
   }
   pthread_mutex_unlock (&z->mu);
   ZSTD_freeDCtx (dctx);
   if (ZSTD_isError (n)) {
      return zstd_fail (z, session, "decompress", n);
   }
   *result_lenp = n;
   return 0;
}

/* zstd_pre_size -- room for the worst case, so compress never runs out of buffer. */
static int
zstd_pre_size (WT_COMPRESSOR *compressor, WT_SESSION *session, uint8_t *src, size_t src_len,
               size_t *result_lenp)
{
   *result_lenp = ZSTD_compressBound (src_len) + ZSTD_HEADER_BYTES;
   return 0;
}

/* zstd_terminate -- free the pooled contexts and the compressor (the connection closes). */
static int
zstd_terminate (WT_COMPRESSOR *compressor, WT_SESSION *session)
{
   lab_zstd_t *z = (lab_zstd_t *)compressor;

   while (z->ncctx > 0) {
      ZSTD_freeCCtx (z->cctx[--z->ncctx]);
   }
   while (z->ndctx > 0) {
      ZSTD_freeDCtx (z->dctx[--z->ndctx]);
   }
   pthread_mutex_destroy (&z->mu);
   free (z);
   return 0;
}

/* lab_wt_zstd_extension_init -- WiredTiger's extension entry: register "zstd" on the connection with
 * the configured compression_level (default LAB_ZSTD_DEFAULT_LEVEL). Exported from every program. */
int
lab_wt_zstd_extension_init (WT_CONNECTION *connection, WT_CONFIG_ARG *config)
{
   WT_EXTENSION_API *api = connection->get_extension_api (connection);
   WT_CONFIG_ITEM v;
   lab_zstd_t *z;
   int level = LAB_ZSTD_DEFAULT_LEVEL, ret;

   if (config && api->config_get (api, NULL, config, "compression_level", &v) == 0 && v.len > 0) {
      if (v.val < ZSTD_minCLevel () || v.val > ZSTD_maxCLevel ()) {
         (void)api->err_printf (api, NULL, "zstd block compressor: compression_level %lld is out of [%d, %d]",
                                (long long)v.val, ZSTD_minCLevel (), ZSTD_maxCLevel ());
         return EINVAL;
      }
      level = (int)v.val;
   }
   z = calloc (1, sizeof *z);
   if (!z) {
      return ENOMEM;
   }
   z->iface.compress = zstd_compress;
   z->iface.decompress = zstd_decompress;
   z->iface.pre_size = zstd_pre_size;
   z->iface.terminate = zstd_terminate;
   z->api = api;
   z->level = level;
   pthread_mutex_init (&z->mu, NULL);
   if ((ret = connection->add_compressor (connection, "zstd", &z->iface, NULL)) != 0) {
      pthread_mutex_destroy (&z->mu);
      free (z);
   }
   return ret;
}

/* lab_wt_zstd_entry -- the entry point's name for wiredtiger_open's configuration (referencing it here
 * also keeps this object, and so the exported entry point, in every program that links the store). */
const char *
lab_wt_zstd_entry (void)
{
   return "lab_wt_zstd_extension_init";
}
