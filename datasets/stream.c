/*
 * stream.c -- file/stdin input with zstd sniffing, and atomic file/stdout output with optional zstd.
 */
#include "datasets/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "core/cli.h"
#include "core/error.h"

/* ---- input ------------------------------------------------------------------------------------- */

struct lab_input {
   char *name;
   int fd;
   bool own_fd;
   int64_t size;
   uint64_t raw_bytes;
   bool zstd;
   ZSTD_DStream *ds;
   uint8_t *zbuf; /* compressed input buffer */
   size_t zcap;
   ZSTD_inBuffer zin;
   size_t last_ret; /* ZSTD_decompressStream's last hint: 0 = at a frame boundary */
   bool raw_eof;
   /* plain input: sniffed bytes not yet returned */
   uint8_t head[4];
   size_t head_len, head_pos;
};

/* read_full -- read up to len bytes, retrying on EINTR and short reads until len or end of file. */
static ssize_t
read_full (int fd, void *buf, size_t len)
{
   size_t got = 0;
   while (got < len) {
      ssize_t n = read (fd, (uint8_t *)buf + got, len - got);
      if (n < 0) {
         if (errno == EINTR) {
            continue;
         }
         return -1;
      }
      if (n == 0) {
         break;
      }
      got += (size_t)n;
   }
   return (ssize_t)got;
}

lab_gen_input_t *
lab_gen_input_open (const char *path, bson_error_t *error)
{
   lab_gen_input_t *in = bson_malloc0 (sizeof *in);
   struct stat st;

   in->size = -1;
   if (strcmp (path, "-") == 0) {
      in->name = bson_strdup ("<stdin>");
      in->fd = STDIN_FILENO;
   } else {
      in->name = bson_strdup (path);
      in->fd = open (path, O_RDONLY | O_CLOEXEC);
      if (in->fd < 0) {
         lab_error_set_errno (error, errno, "cannot open input '%s'", path);
         goto fail;
      }
      in->own_fd = true;
   }
   if (fstat (in->fd, &st) == 0) {
      if (S_ISDIR (st.st_mode)) {
         lab_error_set (error, LAB_ERROR_IO, EISDIR, "input '%s' is a directory, not a CSV file", in->name);
         goto fail;
      }
      if (S_ISREG (st.st_mode)) {
         in->size = (int64_t)st.st_size;
#ifdef POSIX_FADV_SEQUENTIAL
         (void)posix_fadvise (in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
      }
   }
   ssize_t n = read_full (in->fd, in->head, sizeof in->head);
   if (n < 0) {
      lab_error_set_errno (error, errno, "cannot read input '%s'", in->name);
      goto fail;
   }
   in->head_len = (size_t)n;
   in->raw_bytes = (uint64_t)n;
   uint32_t magic = n == 4 ? ((uint32_t)in->head[0] | (uint32_t)in->head[1] << 8 |
                              (uint32_t)in->head[2] << 16 | (uint32_t)in->head[3] << 24)
                           : 0;
   if (magic == ZSTD_MAGICNUMBER || (magic & 0xFFFFFFF0u) == 0x184D2A50u) {
      in->zstd = true;
      in->ds = ZSTD_createDStream ();
      if (!in->ds) {
         lab_error_set (error, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_LIBRARY,
                        "cannot create a zstd decompression stream (out of memory)");
         goto fail;
      }
      in->zcap = ZSTD_DStreamInSize ();
      if (in->zcap < 4) {
         in->zcap = 131072;
      }
      in->zbuf = bson_malloc (in->zcap);
      memcpy (in->zbuf, in->head, 4);
      in->zin.src = in->zbuf;
      in->zin.size = 4;
      in->zin.pos = 0;
      in->head_len = 0;
      in->last_ret = 1;
   }
   return in;

fail:
   lab_gen_input_close (in);
   return NULL;
}

ssize_t
lab_gen_input_read (lab_gen_input_t *in, void *buf, size_t len, bson_error_t *error)
{
   if (len == 0) {
      return 0;
   }
   if (!in->zstd) {
      size_t got = 0;
      if (in->head_pos < in->head_len) {
         size_t k = BSON_MIN (len, in->head_len - in->head_pos);
         memcpy (buf, in->head + in->head_pos, k);
         in->head_pos += k;
         got = k;
         if (got == len) {
            return (ssize_t)got;
         }
      }
      for (;;) {
         ssize_t n = read (in->fd, (uint8_t *)buf + got, len - got);
         if (n < 0 && errno == EINTR) {
            continue;
         }
         if (n < 0) {
            lab_error_set_errno (error, errno, "cannot read input '%s'", in->name);
            return -1;
         }
         in->raw_bytes += (uint64_t)n;
         return (ssize_t)got + n;
      }
   }

   ZSTD_outBuffer out = { buf, len, 0 };
   while (out.pos == 0) {
      if (in->zin.pos == in->zin.size) {
         if (in->raw_eof) {
            if (in->last_ret != 0) {
               lab_error_set (error, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_TRUNCATED,
                              "'%s' is a truncated zstd stream: it ends inside a frame after %" PRIu64
                              " compressed bytes (incomplete download or copy?)",
                              in->name, in->raw_bytes);
               return -1;
            }
            return 0;
         }
         ssize_t n = read_full (in->fd, in->zbuf, in->zcap);
         if (n < 0) {
            lab_error_set_errno (error, errno, "cannot read input '%s'", in->name);
            return -1;
         }
         in->raw_bytes += (uint64_t)n;
         in->zin.size = (size_t)n;
         in->zin.pos = 0;
         if (n == 0) {
            in->raw_eof = true;
            continue;
         }
      }
      size_t before = in->zin.pos;
      size_t r = ZSTD_decompressStream (in->ds, &out, &in->zin);
      if (ZSTD_isError (r)) {
         lab_error_set (error, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_CORRUPT,
                        "'%s': corrupt zstd data near compressed byte %" PRIu64 ": %s", in->name,
                        in->raw_bytes - (uint64_t)(in->zin.size - before), ZSTD_getErrorName (r));
         return -1;
      }
      in->last_ret = r;
   }
   return (ssize_t)out.pos;
}

const char *
lab_gen_input_name (const lab_gen_input_t *in)
{
   return in->name;
}

bool
lab_gen_input_is_zstd (const lab_gen_input_t *in)
{
   return in->zstd;
}

uint64_t
lab_gen_input_raw_bytes (const lab_gen_input_t *in)
{
   return in->raw_bytes;
}

int64_t
lab_gen_input_size (const lab_gen_input_t *in)
{
   return in->size;
}

void
lab_gen_input_close (lab_gen_input_t *in)
{
   if (!in) {
      return;
   }
   if (in->own_fd && in->fd >= 0) {
      close (in->fd);
   }
   if (in->ds) {
      ZSTD_freeDStream (in->ds);
   }
   bson_free (in->zbuf);
   bson_free (in->name);
   bson_free (in);
}

/* ---- output ------------------------------------------------------------------------------------ */

struct lab_output {
   bool in_place;  /* a special file (/dev/null, a FIFO): written directly, closed at the end */
   char *path;     /* final path (NULL: stdout or in place) */
   char *tmp_path; /* temporary file being written */
   int fd;
   uint64_t bytes;
   ZSTD_CCtx *cctx;
   uint8_t *zbuf;
   size_t zcap;
};

bool
lab_gen_path_has_suffix (const char *path, const char *suffix)
{
   size_t a = strlen (path), b = strlen (suffix);
   return a >= b && strcmp (path + a - b, suffix) == 0;
}

/* write_all -- write every byte, retrying on EINTR and short writes. */
static bool
write_all (lab_gen_output_t *out, const void *data, size_t len, bson_error_t *error)
{
   const uint8_t *p = data;
   while (len > 0) {
      ssize_t n = write (out->fd, p, len);
      if (n < 0) {
         if (errno == EINTR) {
            continue;
         }
         lab_error_set_errno (error, errno, "cannot write '%s'", out->path ? out->path : "<stdout>");
         return false;
      }
      p += n;
      len -= (size_t)n;
      out->bytes += (uint64_t)n;
   }
   return true;
}

lab_gen_output_t *
lab_gen_output_open (const char *path, int zstd_level, bson_error_t *error)
{
   lab_gen_output_t *out = bson_malloc0 (sizeof *out);
   out->fd = -1;

   if (strcmp (path, "-") == 0) {
      out->fd = STDOUT_FILENO;
   } else if (lab_path_is_special (path)) {
      /* a temporary file renamed over /dev/null would replace the device for everyone */
      out->fd = open (path, O_WRONLY | O_CLOEXEC);
      if (out->fd < 0) {
         lab_error_set_errno (error, errno, "cannot open '%s'", path);
         goto fail;
      }
      out->in_place = true;
   } else {
      out->path = bson_strdup (path);
      out->tmp_path = bson_strdup_printf ("%s.tmp.XXXXXX", path);
      out->fd = mkostemp (out->tmp_path, O_CLOEXEC);
      if (out->fd < 0) {
         lab_error_set_errno (error, errno, "cannot create '%s'", out->tmp_path);
         bson_free (out->tmp_path);
         out->tmp_path = NULL;
         goto fail;
      }
      (void)fchmod (out->fd, 0644);
   }
   if (zstd_level > 0) {
      out->cctx = ZSTD_createCCtx ();
      if (!out->cctx) {
         lab_error_set (error, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_LIBRARY,
                        "cannot create a zstd compression context (out of memory)");
         goto fail;
      }
      size_t r = ZSTD_CCtx_setParameter (out->cctx, ZSTD_c_compressionLevel, zstd_level);
      if (!ZSTD_isError (r)) {
         r = ZSTD_CCtx_setParameter (out->cctx, ZSTD_c_checksumFlag, 1);
      }
      if (ZSTD_isError (r)) {
         lab_error_set (error, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_LIBRARY, "zstd level %d: %s", zstd_level,
                        ZSTD_getErrorName (r));
         goto fail;
      }
      out->zcap = ZSTD_CStreamOutSize ();
      out->zbuf = bson_malloc (out->zcap);
   }
   return out;

fail:
   lab_gen_output_abort (out);
   return NULL;
}

/* zstd_push -- feed `data` (or finish the frame with ZSTD_e_end) and write what comes out. */
static bool
zstd_push (lab_gen_output_t *out, const void *data, size_t len, ZSTD_EndDirective mode, bson_error_t *error)
{
   ZSTD_inBuffer in = { data, len, 0 };
   for (;;) {
      ZSTD_outBuffer o = { out->zbuf, out->zcap, 0 };
      size_t r = ZSTD_compressStream2 (out->cctx, &o, &in, mode);
      if (ZSTD_isError (r)) {
         lab_error_set (error, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_LIBRARY, "zstd compression failed: %s",
                        ZSTD_getErrorName (r));
         return false;
      }
      if (o.pos && !write_all (out, out->zbuf, o.pos, error)) {
         return false;
      }
      if (mode == ZSTD_e_end ? r == 0 : in.pos == in.size) {
         return true;
      }
   }
}

bool
lab_gen_output_write (lab_gen_output_t *out, const void *data, size_t len, bson_error_t *error)
{
   if (out->cctx) {
      return zstd_push (out, data, len, ZSTD_e_continue, error);
   }
   return write_all (out, data, len, error);
}

bool
lab_gen_output_commit (lab_gen_output_t *out, bson_error_t *error)
{
   if (out->cctx && !zstd_push (out, NULL, 0, ZSTD_e_end, error)) {
      goto fail;
   }
   if (out->path) {
      if (fsync (out->fd) != 0) {
         lab_error_set_errno (error, errno, "cannot sync '%s'", out->tmp_path);
         goto fail;
      }
      if (close (out->fd) != 0) {
         out->fd = -1;
         lab_error_set_errno (error, errno, "cannot close '%s'", out->tmp_path);
         goto fail;
      }
      out->fd = -1;
      if (rename (out->tmp_path, out->path) != 0) {
         lab_error_set_errno (error, errno, "cannot rename '%s' to '%s'", out->tmp_path, out->path);
         goto fail;
      }
      bson_free (out->tmp_path);
      out->tmp_path = NULL;
   }
   lab_gen_output_abort (out); /* frees; nothing left to remove */
   return true;

fail:
   lab_gen_output_abort (out);
   return false;
}

void
lab_gen_output_abort (lab_gen_output_t *out)
{
   if (!out) {
      return;
   }
   if ((out->path || out->in_place) && out->fd >= 0) {
      close (out->fd);
   }
   if (out->tmp_path) {
      (void)unlink (out->tmp_path);
   }
   if (out->cctx) {
      ZSTD_freeCCtx (out->cctx);
   }
   bson_free (out->zbuf);
   bson_free (out->tmp_path);
   bson_free (out->path);
   bson_free (out);
}

uint64_t
lab_gen_output_bytes (const lab_gen_output_t *out)
{
   return out->bytes;
}
