/*
 * wt_conn.c -- the embedded store's kv engine: mongod's wiredtiger_open configuration, opening and
 * closing the home, checkpoints, the cold cycle (close, evict from the page cache, reopen), engine
 * statistics and data files. WiredTiger's messages and errors are wt_error.c's.
 */
#include "wt_private.h"

#include "core/alloc.h"
#include "core/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- open / close ------------------------------------------------------------------------------- */

/* mkdir_p -- create dir and its parents. */
static int
mkdir_p (const char *dir)
{
   char *tmp = bson_strdup (dir);
   char *p;
   int err = 0;

   for (p = tmp + 1; *p; p++) {
      if (*p == '/') {
         *p = '\0';
         if (mkdir (tmp, 0755) != 0 && errno != EEXIST) {
            err = errno;
            break;
         }
         *p = '/';
      }
   }
   if (!err && mkdir (tmp, 0755) != 0 && errno != EEXIST) {
      err = errno;
   }
   bson_free (tmp);
   return err;
}

/* permission_error -- one clear message for a home we cannot write. */
static bool
permission_error (bson_error_t *error, const char *home, int err)
{
   char ebuf[128];

   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_PERMISSION,
                  "WiredTiger home '%s' is not writable (%s): choose a directory you can write with "
                  "--uri wiredtiger:DIR",
                  home, bson_strerror_r (err, ebuf, sizeof ebuf));
   return false;
}

/* default_cache_bytes -- mongod's rule: max(50% of (RAM - 1 GB), 256 MB). */
static uint64_t
default_cache_bytes (void)
{
   long pages = sysconf (_SC_PHYS_PAGES), psize = sysconf (_SC_PAGESIZE);
   uint64_t ram_mb = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize / (1024 * 1024) : 0;
   uint64_t mb = ram_mb > 1024 ? (ram_mb - 1024) / 2 : 0;

   if (mb < 256) {
      mb = 256;
   }
   return mb * 1024 * 1024;
}

/* conn_open -- wiredtiger_open with the saved config, the meta session and the catalog. */
static bool
conn_open (wt_store_t *st, bson_error_t *error)
{
   char *journal = bson_strdup_printf ("%s/journal", st->home);
   int ret, err;

   err = mkdir_p (journal);
   bson_free (journal);
   if (err) {
      return permission_error (error, st->home, err);
   }
   lab_wt_handler_init (st);
   if ((ret = wiredtiger_open (st->home, &st->handler, st->config, &st->conn)) != 0) {
      st->conn = NULL;
      if (ret == EBUSY) {
         return lab_wt_fail (error, ret,
                             "open WiredTiger home %s: another process (or store) has it open; stop it or "
                             "use another --uri",
                             st->home);
      }
      return lab_wt_fail (error, ret, "open WiredTiger home %s", st->home);
   }
   if ((ret = st->conn->open_session (st->conn, NULL, "isolation=snapshot", &st->meta)) != 0) {
      return lab_wt_fail (error, ret, "open session in %s", st->home);
   }
   return lab_wt_catalog_load (st, error);
}

/* conn_close -- save the catalog (clean) and close the connection; errors are reported. */
static bool
conn_close (wt_store_t *st, bson_error_t *error)
{
   bool ok = true;
   int ret;

   if (!st->conn) {
      return true;
   }
   if (__atomic_load_n (&st->panicked, __ATOMIC_ACQUIRE)) {
      /* After a panic WiredTiger allows no call: its close would wait forever for the transactions the
       * failed writes left open. The connection is abandoned; the next open recovers from the journal. */
      st->conn = NULL;
      st->meta = NULL;
      st->loaded = false;
      lab_wt_coll_list_free (st->colls);
      st->colls = NULL;
      lab_error_set (error, LAB_ERROR_WT, (uint32_t)WT_PANIC,
                     "WiredTiger home %s panicked after a failed write and was not closed; the next open "
                     "recovers it from its journal",
                     st->home);
      return false;
   }
   if (st->meta && st->loaded) {
      ok = lab_wt_catalog_save (st, true, error);
   }
   st->loaded = false;
   if ((ret = st->conn->close (st->conn, NULL)) != 0 && ok) {
      ok = lab_wt_fail (error, ret, "close WiredTiger home %s", st->home);
   }
   st->conn = NULL;
   st->meta = NULL;
   lab_wt_coll_list_free (st->colls);
   st->colls = NULL;
   return ok;
}

/* lab_wt_close -- close the sessions left open, save the catalog, close the engine, free the store. */
void
lab_wt_close (lab_store_t *store)
{
   wt_store_t *st = store->impl;

   if (!st) {
      return;
   }
   /* lab_store_close closes the sessions left open (store.h): they must not be used afterwards */
   while (st->sessions) {
      lab_store_session_t *sess = st->sessions->sess;
      lab_wt_session_close (sess);
      bson_free (sess);
   }
   conn_close (st, NULL);
   if (__atomic_load_n (&st->panicked, __ATOMIC_ACQUIRE)) {
      /* the abandoned connection's threads may still report through st->handler: st stays allocated */
      store->impl = NULL;
      return;
   }
   lab_wt_coll_list_free (st->graveyard);
   pthread_mutex_destroy (&st->mu);
   pthread_mutex_destroy (&st->meta_mu);
   pthread_rwlock_destroy (&st->ddl);
   bson_free (st->home);
   bson_free (st->config);
   bson_free (st->coll_config);
   bson_free (st->clustered_config);
   bson_free (st);
   store->impl = NULL;
}

/* is_wt_home -- a directory holding a WiredTiger database (its "WiredTiger" version file). */
static bool
is_wt_home (const char *dir)
{
   char *f = bson_strdup_printf ("%s/WiredTiger", dir);
   struct stat sb;
   bool yes = stat (f, &sb) == 0 && S_ISREG (sb.st_mode);

   bson_free (f);
   return yes;
}

/* find_homes -- append to `out` ("a, b (...)") the stores in `dir` and its subdirectories `depth` levels
 * down (hidden ones and symbolic links skipped), at most `*left` of them; a store next to a run.json is
 * a demo's. For the error of a home that does not exist: where the stores are. */
static void
find_homes (const char *dir, int depth, bson_string_t *out, int *left)
{
   DIR *d;
   struct dirent *e;

   if (*left <= 0 || !(d = opendir (dir))) {
      return;
   }
   while (*left > 0 && (e = readdir (d))) {
      char *sub;
      struct stat sb;
      if (e->d_name[0] == '.') {
         continue;
      }
      sub = strcmp (dir, ".") == 0 ? bson_strdup (e->d_name) : bson_strdup_printf ("%s/%s", dir, e->d_name);
      if (lstat (sub, &sb) == 0 && S_ISDIR (sb.st_mode)) {
         if (is_wt_home (sub)) {
            char *run = bson_strdup_printf ("%s/../run.json", sub);
            bson_string_append_printf (
               out, "%s%s%s", out->len ? ", " : "", sub,
               access (run, F_OK) == 0 ? " (a scripts/demo.sh store, next to its run.json)" : "");
            bson_free (run);
            (*left)--;
         } else if (depth > 0) {
            find_homes (sub, depth - 1, out, left);
         }
      }
      bson_free (sub);
   }
   closedir (d);
}

/* missing_home -- the error of a home that does not exist, naming the stores found under the current
 * directory (two levels down: the demo keeps its store in OUT/layoutlab-data) and how to name one. */
static bool
missing_home (const char *dir, bson_error_t *error)
{
   bson_string_t *found = bson_string_new (NULL);
   int left = 4;

   find_homes (".", 1, found, &left);
   if (found->len) {
      lab_error_set (error, LAB_ERROR_IO, ENOENT,
                     "WiredTiger home '%s' does not exist (tools that write create it). Stores under the "
                     "current directory: %s; name one with --uri wiredtiger:DIR",
                     dir, found->str);
   } else {
      lab_error_set (
         error, LAB_ERROR_IO, ENOENT,
         "WiredTiger home '%s' does not exist (tools that write create it), and no store is under "
         "the current directory: check --uri wiredtiger:DIR, or make one (billgen generate, or "
         "scripts/demo.sh)",
         dir);
   }
   bson_string_free (found, true);
   return false;
}

/* check_home -- create (when asked) and check the home directory; its real path into `real`. */
static bool
check_home (const lab_store_t *store, char *real, bson_error_t *error)
{
   const char *dir = store->uri.wt_home;
   struct stat sb;
   int err;

   if (store->opts.create && (err = mkdir_p (dir)) != 0) {
      return permission_error (error, dir, err);
   }
   if (stat (dir, &sb) != 0) {
      err = errno;
      if (err == ENOENT) {
         return missing_home (dir, error);
      }
      return permission_error (error, dir, err);
   }
   if (!S_ISDIR (sb.st_mode)) {
      return permission_error (error, dir, ENOTDIR);
   }
   if (access (dir, W_OK | X_OK) != 0) {
      return permission_error (error, dir, errno);
   }
   if (!realpath (dir, real)) {
      return permission_error (error, dir, errno);
   }
   return true;
}

#ifdef LAB_WT_ZLIB_PATH
#define ZLIB_EXTENSION ",\"" LAB_WT_ZLIB_PATH "\""
#else
#define ZLIB_EXTENSION ""
#endif

#ifdef LAB_TCMALLOC
#define LAB_WT_CACHE_OVERHEAD "8"
#else
#define LAB_WT_CACHE_OVERHEAD "30"
#endif

/* conn_config -- mongod's wiredtiger_open configuration for a cache of cache_bytes. cache_overhead is
 * WiredTiger's default 8 with tcmalloc, as in mongod; with glibc malloc (the sanitizer builds) 30, the
 * most it takes: glibc's per-allocation overhead and fragmentation on the engine's many small page
 * allocations measured about 30% (peak RSS at a 512 MiB cache: 700 MiB with 8, 622 MiB with 30, with the
 * process's base ~80 MiB), so the cache counts it and the process stays nearer cache_size. Every block
 * compressor is loaded on every open (snappy and zlib: Debian's extensions; zstd: ours, wt_zstd.c), so a
 * store written with any of them reopens; a compressor missing (skip_zstd, or a build without zlib)
 * surfaces when a table that needs it is opened (compressor_hint). */
static char *
conn_config (const lab_store_t *store, uint64_t cache_bytes)
{
   char zstd[160] = "";

   if (!store->opts.skip_zstd) {
      bson_snprintf (zstd, sizeof zstd, ",local=(entry=%s,config=(compression_level=%d))",
                     lab_wt_zstd_entry (),
                     store->opts.zstd_level ? store->opts.zstd_level : LAB_ZSTD_DEFAULT_LEVEL);
   }
   return bson_strdup_printf (
      "create,cache_size=%" PRIu64 "M,cache_overflow=(file_max=0M),session_max=33000,"
      "cache_overhead=" LAB_WT_CACHE_OVERHEAD ",eviction=(threads_min=4,threads_max=4),config_base=false,"
      "statistics=(fast),"
      "log=(enabled=true,archive=true,path=journal,compressor=snappy),"
      "file_manager=(close_idle_time=100000,close_scan_interval=10,close_handle_minimum=250),"
      "statistics_log=(wait=0),checkpoint=(wait=60),extensions=[\"%s\"%s%s]%s",
      (cache_bytes + (1024 * 1024 - 1)) / (1024 * 1024), LAB_WT_SNAPPY_PATH, ZLIB_EXTENSION, zstd,
      store->opts.direct_io ? ",direct_io=[data]" : "");
}

/* lab_wt_open -- check/create the home, then open it with mongod's configuration. */
bool
lab_wt_open (lab_store_t *store, bson_error_t *error)
{
   wt_store_t *st;
   char real[PATH_MAX];

   if (!check_home (store, real, error)) {
      return false;
   }
   st = bson_malloc0 (sizeof *st);
   store->impl = st;
   pthread_mutex_init (&st->mu, NULL);
   pthread_mutex_init (&st->meta_mu, NULL);
   pthread_rwlock_init (&st->ddl, NULL);
   st->home = bson_strdup (real);
   st->cache_max_bytes = store->opts.cache_size_bytes ? store->opts.cache_size_bytes : default_cache_bytes ();
   st->config = conn_config (store, st->cache_max_bytes);
   st->unlogged = store->opts.unlogged;
   st->coll_config = bson_strdup_printf (WT_COLL_CONFIG_FMT, lab_store_block_compressor (store),
                                         st->unlogged ? WT_UNLOGGED : "");
   st->clustered_config = bson_strdup_printf (WT_CLUSTERED_CONFIG_FMT, lab_store_block_compressor (store),
                                              st->unlogged ? WT_UNLOGGED : "");
   if (strcmp (lab_store_block_compressor (store), "zstd") == 0) {
      bson_snprintf (store->compressor_note, sizeof store->compressor_note,
                     "table config block_compressor=zstd (level %d)", store->opts.zstd_level);
   } else {
      bson_snprintf (store->compressor_note, sizeof store->compressor_note,
                     "table config block_compressor=%s", lab_store_block_compressor (store));
   }
   st->progress = store->opts.progress;
   st->opened_at = time (NULL);
   if (!conn_open (st, error)) {
      lab_wt_close (store);
      return false;
   }
   return true;
}

/* lab_wt_home -- the real path of the home directory. */
const char *
lab_wt_home (const lab_store_t *store)
{
   return ((const wt_store_t *)store->impl)->home;
}

/* lab_wt_flush -- a checkpoint makes everything durable in the data files (the journal already has it). */
bool
lab_wt_flush (lab_store_t *store, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   bool ok = true;
   int ret;

   pthread_mutex_lock (&st->meta_mu);
   if (!st->meta) {
      ok = lab_wt_closed_error (st, error);
   } else if ((ret = st->meta->checkpoint (st->meta, NULL)) != 0) {
      ok = lab_wt_fail (error, ret, "checkpoint %s", st->home);
   }
   pthread_mutex_unlock (&st->meta_mu);
   return ok;
}

/* ---- server and engine facts -------------------------------------------------------------------- */

/* lab_wt_server_info -- this process stands in for the server. */
bool
lab_wt_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   int major, minor, patch;

   bson_strncpy (info->backend, "wiredtiger", sizeof info->backend);
   bson_strncpy (info->product, LAB_STORE_PRODUCT_EMBEDDED, sizeof info->product);
   /* the number alone, as a server's version is ("4.2.0"): the full string repeats the name and adds a
    * build date ("WiredTiger 3.2.1: (August 27, 2019)") */
   (void)wiredtiger_version (&major, &minor, &patch);
   bson_snprintf (info->version, sizeof info->version, "%d.%d.%d", major, minor, patch);
   if (gethostname (info->host, sizeof info->host) != 0) {
      bson_strncpy (info->host, "localhost", sizeof info->host);
   }
   info->host[sizeof info->host - 1] = '\0';
   info->max_bson_bytes = LAB_BSON_MAX_BYTES;
   info->max_message_bytes = LAB_MESSAGE_MAX_BYTES;
   info->pid = (int64_t)getpid ();
   info->uptime_s = (int64_t)(time (NULL) - st->opened_at);
   info->start_ms = (int64_t)st->opened_at * 1000;
   info->local = true;
   return true;
}

/* self_rss -- VmRSS of this process in bytes, -1 when unknown. */
static int64_t
self_rss (void)
{
   FILE *f = fopen ("/proc/self/status", "r");
   char line[256];
   long long kb = -1;

   if (!f) {
      return -1;
   }
   while (fgets (line, sizeof line, f)) {
      if (sscanf (line, "VmRSS: %lld kB", &kb) == 1) {
         break;
      }
   }
   fclose (f);
   return kb < 0 ? -1 : kb * 1024;
}

/* The connection statistics lab_store_engine_stats_t reports, by WiredTiger key. */
static const struct {
   int key;
   size_t off;
} stat_map[] = {
   { WT_STAT_CONN_CACHE_BYTES_INUSE, offsetof (lab_store_engine_stats_t, cache_bytes) },
   { WT_STAT_CONN_BLOCK_READ, offsetof (lab_store_engine_stats_t, block_reads) },
   { WT_STAT_CONN_BLOCK_BYTE_READ, offsetof (lab_store_engine_stats_t, block_read_bytes) },
   { WT_STAT_CONN_CACHE_BYTES_READ, offsetof (lab_store_engine_stats_t, cache_read_bytes) },
   { WT_STAT_CONN_CACHE_READ, offsetof (lab_store_engine_stats_t, cache_pages_read) },
   { WT_STAT_CONN_BLOCK_WRITE, offsetof (lab_store_engine_stats_t, block_writes) },
   { WT_STAT_CONN_BLOCK_BYTE_WRITE, offsetof (lab_store_engine_stats_t, block_write_bytes) },
   { WT_STAT_CONN_LOG_BYTES_WRITTEN, offsetof (lab_store_engine_stats_t, log_bytes_written) },
   { WT_STAT_CONN_TXN_CHECKPOINT, offsetof (lab_store_engine_stats_t, checkpoints) },
};

/* read_stats -- every statistic of stat_map through the statistics cursor sc into out. */
static bool
read_stats (wt_store_t *st, WT_CURSOR *sc, lab_store_engine_stats_t *out, bson_error_t *error)
{
   size_t i;
   int ret;

   for (i = 0; i < sizeof stat_map / sizeof stat_map[0]; i++) {
      const char *desc, *pvalue;
      int64_t value;

      sc->set_key (sc, stat_map[i].key);
      if ((ret = sc->search (sc)) != 0 || (ret = sc->get_value (sc, &desc, &pvalue, &value)) != 0) {
         return lab_wt_fail (error, ret, "read statistic %d of %s", stat_map[i].key, st->home);
      }
      *(int64_t *)((char *)out + stat_map[i].off) = value;
   }
   return true;
}

/* lab_wt_engine_stats -- cache and block statistics of the connection, the cache size, our RSS. */
bool
lab_wt_engine_stats (lab_store_t *store, lab_store_engine_stats_t *out, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   WT_CURSOR *sc = NULL;
   bool ok = true;
   int ret;

   pthread_mutex_lock (&st->meta_mu);
   if (!st->meta) {
      ok = lab_wt_closed_error (st, error);
      goto done;
   }
   if ((ret = st->meta->open_cursor (st->meta, "statistics:", NULL, NULL, &sc)) != 0) {
      ok = lab_wt_fail (error, ret, "open statistics of %s", st->home);
      goto done;
   }
   if (!(ok = read_stats (st, sc, out, error))) {
      goto done;
   }
   out->cache_max_bytes = (int64_t)st->cache_max_bytes;
   out->server_rss_bytes = self_rss ();
   out->docs_examined = __atomic_load_n (&st->docs_read, __ATOMIC_RELAXED);
   out->keys_examined = -1;
done:
   if (sc) {
      sc->close (sc);
   }
   pthread_mutex_unlock (&st->meta_mu);
   return ok;
}

/* list_files -- every regular file under dir, recursively, appended to *paths. */
static bool
list_files (const char *dir, char ***paths, size_t *n, size_t *cap, bson_error_t *error)
{
   DIR *d = opendir (dir);
   struct dirent *e;
   bool ok = true;

   if (!d) {
      lab_error_set_errno (error, errno, "list %s", dir);
      return false;
   }
   while (ok && (e = readdir (d))) {
      char *path;
      struct stat sb;

      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0) {
         continue;
      }
      path = bson_strdup_printf ("%s/%s", dir, e->d_name);
      if (lstat (path, &sb) != 0) {
         bson_free (path);
         continue;
      }
      if (S_ISDIR (sb.st_mode)) {
         ok = list_files (path, paths, n, cap, error);
         bson_free (path);
      } else if (S_ISREG (sb.st_mode)) {
         if (*n + 2 > *cap) {
            *cap = *cap ? *cap * 2 : 32;
            *paths = bson_realloc (*paths, *cap * sizeof **paths);
         }
         (*paths)[(*n)++] = path;
         (*paths)[*n] = NULL;
      } else {
         bson_free (path);
      }
   }
   closedir (d);
   return ok;
}

/* lab_wt_data_files -- every file of the home, or the table files of one collection and its indexes. */
bool
lab_wt_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   size_t n = 0, cap = 0;
   wt_coll_t *c;
   int i;

   if (!coll) {
      if (!list_files (st->home, paths, &n, &cap, error)) {
         bson_strfreev (*paths);
         *paths = NULL;
         return false;
      }
      if (!*paths) {
         *paths = bson_malloc0 (sizeof **paths);
      }
      return true;
   }
   pthread_rwlock_rdlock (&st->ddl);
   c = lab_wt_coll_lookup (st, coll, error);
   if (c) {
      *paths = bson_malloc0 ((size_t)(c->nindexes + 2) * sizeof **paths);
      (*paths)[0] = bson_strdup_printf ("%s/%s.wt", st->home, c->ident);
      for (i = 0; i < c->nindexes; i++) {
         (*paths)[i + 1] = bson_strdup_printf ("%s/%s.wt", st->home, c->indexes[i].ident);
      }
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}

/* lab_wt_set_cache_size -- the cache for every later reopen, and the open connection reconfigured to it
 * now (WiredTiger resizes its cache in place). */
bool
lab_wt_set_cache_size (lab_store_t *store, uint64_t bytes, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   uint64_t mib = (bytes + (1024 * 1024 - 1)) / (1024 * 1024);
   bool ok = true;
   int ret;

   pthread_mutex_lock (&st->meta_mu);
   st->cache_max_bytes = bytes;
   bson_free (st->config);
   st->config = conn_config (store, bytes);
   if (st->conn) {
      char cfg[64];
      snprintf (cfg, sizeof cfg, "cache_size=%" PRIu64 "M", mib);
      if ((ret = st->conn->reconfigure (st->conn, cfg)) != 0) {
         ok = lab_wt_fail (error, ret, "reconfigure %s with %s", st->home, cfg);
      }
   }
   pthread_mutex_unlock (&st->meta_mu);
   return ok;
}

/* ---- the cold cycle ----------------------------------------------------------------------------- */

/* evict_files -- fdatasync + posix_fadvise(DONTNEED) every file of the home, so nothing of it stays in
 * the OS page cache. */
static bool
evict_files (wt_store_t *st, bson_error_t *error)
{
   char **paths = NULL;
   size_t n = 0, cap = 0, i;
   bool ok;

   ok = list_files (st->home, &paths, &n, &cap, error);
   for (i = 0; ok && i < n; i++) {
      int fd = open (paths[i], O_RDONLY | O_CLOEXEC);
      int err;

      if (fd < 0) {
         lab_error_set_errno (error, errno, "open %s to drop it from the page cache", paths[i]);
         ok = false;
         break;
      }
      if (fdatasync (fd) != 0 && errno != EINVAL) {
         lab_error_set_errno (error, errno, "fdatasync %s", paths[i]);
         ok = false;
      } else if ((err = posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
         lab_error_set_errno (error, err, "posix_fadvise(DONTNEED) %s", paths[i]);
         ok = false;
      }
      close (fd);
   }
   bson_strfreev (paths);
   return ok;
}

/* lab_wt_cycle -- close the engine, evict its files from the page cache, run hook, reopen. */
bool
lab_wt_cycle (lab_store_t *store, lab_store_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
              bson_error_t *error)
{
   wt_store_t *st = store->impl;
   bson_error_t hook_err;
   bool ok = true, hook_ok = true;

   pthread_rwlock_wrlock (&st->ddl);
   pthread_mutex_lock (&st->mu);
   pthread_mutex_lock (&st->meta_mu);
   if (st->nsessions > 0) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "cannot cycle wiredtiger:%s: %d session(s) still open; close them first", st->home,
                     st->nsessions);
      ok = false;
      goto done;
   }
   ok = conn_close (st, error) && evict_files (st, error);
   lab_alloc_release (); /* the engine's freed cache goes back: the next layout starts as a fresh process */
   if (ok && hook) {
      memset (&hook_err, 0, sizeof hook_err);
      hook_ok = hook (store, ctx, &hook_err);
   }
   /* reopen even after a failure so the store stays usable */
   if (!st->conn && !conn_open (st, ok ? error : NULL)) {
      ok = false;
   }
   if (ok && !hook_ok) {
      *error = hook_err;
      ok = false;
   }
done:
   pthread_mutex_unlock (&st->meta_mu);
   pthread_mutex_unlock (&st->mu);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}
