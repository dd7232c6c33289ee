/*
 * alloc.c -- see alloc.h. Why tcmalloc: WiredTiger's cache is many small page allocations that eviction
 * threads free on behalf of others. glibc malloc keeps that memory spread over its arenas: at a 3 GiB
 * engine cache scancmp peaked at 4.3 GiB of RSS on glibc, 2.9 GiB on tcmalloc; the full-size generate,
 * 11.3 GiB of cache, peaked at 18.7 GiB on glibc.
 */
#include "core/alloc.h"

#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef LAB_TCMALLOC
#include <gperftools/malloc_extension_c.h>
#endif

/* lab_alloc_name -- see alloc.h. */
const char *
lab_alloc_name (void)
{
#ifdef LAB_TCMALLOC
   return "tcmalloc";
#else
   return "glibc";
#endif
}

/* lab_alloc_tune -- see alloc.h. glibc's default is eight arenas per core; one per core measured 700 MiB
 * instead of 826 MiB of peak RSS at a 512 MiB cache. */
void
lab_alloc_tune (void)
{
#ifndef LAB_TCMALLOC
   long ncpu = sysconf (_SC_NPROCESSORS_ONLN);

   if (getenv ("MALLOC_ARENA_MAX") == NULL) {
      mallopt (M_ARENA_MAX, ncpu > 1 ? (int)ncpu : 1);
   }
#endif
}

/* lab_alloc_release -- see alloc.h. */
void
lab_alloc_release (void)
{
#ifdef LAB_TCMALLOC
   MallocExtension_ReleaseFreeMemory ();
#else
   malloc_trim (0);
#endif
}
