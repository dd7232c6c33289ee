/*
 * fuzz_util.h -- what the libFuzzer harnesses share: a private temporary directory per process, writing
 * the input to a file there, splitting the input on NUL bytes, a silent log sink, and a byte reader that
 * turns the input into choices.
 */
#ifndef LAB_FUZZ_UTIL_H
#define LAB_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* lab_fuzz_setup -- once per process: silence the log and mongoc's, make the temporary directory. */
void lab_fuzz_setup (void);

/* lab_fuzz_dir -- the process's temporary directory (removed at exit). */
const char *lab_fuzz_dir (void);

/* lab_fuzz_write -- write data[0..len) to <dir>/<name> (replacing it); returns the path (static buffer
 * per name slot: valid until the next call with the same name). Aborts on an IO error. */
const char *lab_fuzz_write (const char *name, const void *data, size_t len);

/* lab_fuzz_split -- split data[0..len) on NUL bytes into at most `max` NUL-terminated strings (copies
 * in one allocation, *store: free() it). Returns the count. */
size_t lab_fuzz_split (const uint8_t *data, size_t len, char **out, size_t max, char **store);

/* A consumer of input bytes: choices come from the front, 0 once the input is used up. */
typedef struct {
   const uint8_t *p;
   size_t n;
} lab_fuzz_bytes_t;

uint8_t lab_fuzz_u8 (lab_fuzz_bytes_t *b);
uint32_t lab_fuzz_u32 (lab_fuzz_bytes_t *b);
uint64_t lab_fuzz_u64 (lab_fuzz_bytes_t *b);
/* lab_fuzz_take -- up to `want` bytes from the front (*got: how many). */
const uint8_t *lab_fuzz_take (lab_fuzz_bytes_t *b, size_t want, size_t *got);

#endif
