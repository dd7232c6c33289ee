/*
 * cold.c -- the pieces of "make it cold": dropping the OS page cache, running the user's restart
 * command with a timeout, and measuring how cold the data files really are (resident pages via mincore).
 */
#include "scan/scan.h"

#include "core/error.h"
#include "core/opts.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* lab_scan_drop_caches -- sync, then write "1" to the drop_caches file (or the test hook's path). */
bool
lab_scan_drop_caches (lab_scan_drop_mode_t mode, bool *dropped, char *note, size_t note_len,
                      bson_error_t *error)
{
   const char *path = getenv ("LAYOUTLAB_DROP_CACHES_PATH");
   int fd;
   int err = 0;

   *dropped = false;
   if (mode == LAB_DROP_NO) {
      snprintf (note, note_len, "not requested (--drop-caches no)");
      return true;
   }
   if (!path || !*path) {
      path = LAB_DROP_CACHES_PATH;
   }
   sync ();
   fd = open (path, O_WRONLY);
   if (fd < 0) {
      err = errno;
   } else {
      if (write (fd, "1", 1) != 1) {
         err = errno ? errno : EIO;
      }
      close (fd);
   }
   if (err == 0) {
      *dropped = true;
      snprintf (note, note_len, "dropped (%s)", geteuid () == 0 ? "root" : "permitted");
      return true;
   }
   snprintf (note, note_len, "not permitted: %s: %s", path, strerror (err));
   if (mode == LAB_DROP_YES) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_PERMISSION,
                     "--drop-caches yes: cannot drop the page cache: %s: %s; run as root, or use "
                     "--drop-caches auto (records that caches were not dropped) or no",
                     path, strerror (err));
      return false;
   }
   return true;
}

/* lab_scan_run_command -- fork + sh -c in its own process group; poll for exit until the deadline. */
bool
lab_scan_run_command (const char *cmd, const char *shown, int32_t timeout_ms, bson_error_t *error)
{
   pid_t pid;
   uint64_t deadline;
   int status = 0;

   fflush (NULL);
   pid = fork ();
   if (pid < 0) {
      lab_error_set_errno (error, errno, "cannot start the restart command \"%s\"", shown);
      return false;
   }
   if (pid == 0) {
      setpgid (0, 0);
      dup2 (STDERR_FILENO, STDOUT_FILENO); /* our stdout is the results table */
      execl ("/bin/sh", "sh", "-c", cmd, (char *)NULL);
      _exit (127);
   }
   setpgid (pid, pid);
   deadline = lab_now_ns () + (uint64_t)(timeout_ms > 0 ? timeout_ms : 120000) * 1000000ull;
   for (;;) {
      pid_t r = waitpid (pid, &status, WNOHANG);
      struct timespec ts = { 0, 20 * 1000 * 1000 };

      if (r == pid) {
         break;
      }
      if (r < 0 && errno != EINTR) {
         lab_error_set_errno (error, errno, "waiting for the restart command \"%s\"", shown);
         return false;
      }
      if (lab_now_ns () > deadline) {
         kill (-pid, SIGTERM);
         nanosleep (&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
         kill (-pid, SIGKILL);
         waitpid (pid, &status, 0);
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_TIMEOUT,
                        "the restart command \"%s\" did not finish within %.1f s and was killed; fix the "
                        "command or raise --restart-timeout",
                        shown, (double)timeout_ms / 1000.0);
         return false;
      }
      nanosleep (&ts, NULL);
   }
   if (WIFEXITED (status) && WEXITSTATUS (status) == 0) {
      return true;
   }
   if (WIFEXITED (status)) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_FAILED,
                     "the restart command \"%s\" failed with exit code %d%s", shown, WEXITSTATUS (status),
                     WEXITSTATUS (status) == 127 ? " (command not found?)" : "; see its output above");
   } else {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_FAILED,
                     "the restart command \"%s\" was killed by signal %d", shown, WTERMSIG (status));
   }
   return false;
}

/* lab_scan_resident_bytes -- mmap each file read-only and count resident pages with mincore. */
bool
lab_scan_resident_bytes (char *const *paths, int64_t *resident, int64_t *total, bson_error_t *error)
{
   long page = sysconf (_SC_PAGESIZE);
   size_t i;

   *resident = 0;
   *total = 0;
   for (i = 0; paths && paths[i]; i++) {
      struct stat st;
      int fd = open (paths[i], O_RDONLY | O_CLOEXEC);
      void *map;
      unsigned char *vec;
      size_t npages, j;

      if (fd < 0) {
         if (errno == ENOENT) {
            continue;
         }
         lab_error_set_errno (error, errno, "cannot open data file %s to check residency", paths[i]);
         return false;
      }
      if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size == 0) {
         close (fd);
         continue;
      }
      map = mmap (NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
      close (fd);
      if (map == MAP_FAILED) {
         lab_error_set_errno (error, errno, "cannot map data file %s to check residency", paths[i]);
         return false;
      }
      npages = ((size_t)st.st_size + (size_t)page - 1) / (size_t)page;
      vec = bson_malloc (npages);
      if (mincore (map, (size_t)st.st_size, vec) != 0) {
         int err = errno;
         bson_free (vec);
         munmap (map, (size_t)st.st_size);
         lab_error_set_errno (error, err, "mincore on data file %s", paths[i]);
         return false;
      }
      for (j = 0; j < npages; j++) {
         if (vec[j] & 1) {
            int64_t bytes = page;
            if (j == npages - 1 && st.st_size % page) {
               bytes = st.st_size % page;
            }
            *resident += bytes;
         }
      }
      *total += st.st_size;
      bson_free (vec);
      munmap (map, (size_t)st.st_size);
   }
   return true;
}

typedef struct {
   char **v;
   size_t n, cap;
} strv_t;

/* strv_push -- append to a NULL-terminated string vector. */
static void
strv_push (strv_t *s, char *p)
{
   if (s->n + 2 > s->cap) {
      s->cap = s->cap ? s->cap * 2 : 16;
      s->v = bson_realloc (s->v, s->cap * sizeof *s->v);
   }
   s->v[s->n++] = p;
   s->v[s->n] = NULL;
}

/* walk -- append regular files under dir, depth-first; depth is capped to avoid loops. */
static bool
walk (const char *dir, strv_t *out, int depth, bson_error_t *error)
{
   DIR *d = opendir (dir);
   struct dirent *e;

   if (!d) {
      lab_error_set_errno (error, errno, "cannot list the data directory %s", dir);
      return false;
   }
   while ((e = readdir (d))) {
      char *p;
      struct stat st;

      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0) {
         continue;
      }
      p = bson_strdup_printf ("%s/%s", dir, e->d_name);
      if (lstat (p, &st) != 0) {
         bson_free (p);
         continue;
      }
      if (S_ISREG (st.st_mode)) {
         strv_push (out, p);
      } else if (S_ISDIR (st.st_mode) && depth < 8) {
         bool ok = walk (p, out, depth + 1, error);
         bson_free (p);
         if (!ok) {
            closedir (d);
            return false;
         }
      } else {
         bson_free (p);
      }
   }
   closedir (d);
   return true;
}

/* lab_scan_dir_files -- see scan.h. */
bool
lab_scan_dir_files (const char *dir, char ***paths, bson_error_t *error)
{
   strv_t s = { 0 };

   strv_push (&s, NULL);
   s.n = 0;
   if (!walk (dir, &s, 0, error)) {
      bson_strfreev (s.v);
      return false;
   }
   *paths = s.v;
   return true;
}
