/*
 * alloc.h -- the process's heap allocator: which one, its tuning at start-up, and giving freed memory
 * back to the system. The tools link tcmalloc, as mongod does; the sanitizer builds run on glibc malloc.
 */
#ifndef LAB_ALLOC_H
#define LAB_ALLOC_H

/* lab_alloc_name -- "tcmalloc" (linked, as mongod) or "glibc". */
const char *lab_alloc_name (void);

/* lab_alloc_tune -- start-up tuning, before any thread exists: with glibc malloc at most one arena per
 * core ($MALLOC_ARENA_MAX, when set, wins); nothing with tcmalloc. */
void lab_alloc_tune (void);

/* lab_alloc_release -- give the memory the allocator holds free back to the system (after the embedded
 * engine closes in a cold cycle: the next layout starts from the memory a fresh process would have). */
void lab_alloc_release (void);

#endif
