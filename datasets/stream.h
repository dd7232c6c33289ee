/*
 * stream.h -- byte streams for billgen: an input that reads a file or stdin and transparently
 * decompresses zstd (detected by the frame magic, not the file name), and an output that writes a file
 * (atomically: a temporary name renamed on commit) or stdout, optionally zstd-compressed.
 */
#ifndef LAB_STREAM_H
#define LAB_STREAM_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct lab_input lab_gen_input_t;

/* lab_gen_input_open -- open `path` ("-" is stdin) and sniff the first bytes: a zstd frame (magic
 * 28 B5 2F FD, or a skippable frame) makes every read decompress through ZSTD_decompressStream. */
lab_gen_input_t *lab_gen_input_open (const char *path, bson_error_t *error);

/* lab_gen_input_read -- up to `len` bytes of (decompressed) content. Returns the count, 0 at the end, -1 with
 * *error on an IO error or bad zstd data: a corrupt frame (LAB_ERROR_ZSTD with zstd's reason) or a
 * stream that ends inside a frame ("truncated"). Messages name the file and the compressed offset. */
ssize_t lab_gen_input_read (lab_gen_input_t *in, void *buf, size_t len, bson_error_t *error);

/* lab_gen_input_name -- the path as given, "<stdin>" for "-". */
const char *lab_gen_input_name (const lab_gen_input_t *in);
bool lab_gen_input_is_zstd (const lab_gen_input_t *in);
/* lab_gen_input_raw_bytes -- bytes read from the file so far (compressed bytes for zstd). */
uint64_t lab_gen_input_raw_bytes (const lab_gen_input_t *in);
/* lab_gen_input_size -- the file's size when it is a regular file, else -1. */
int64_t lab_gen_input_size (const lab_gen_input_t *in);
void lab_gen_input_close (lab_gen_input_t *in);

typedef struct lab_output lab_gen_output_t;

/* lab_gen_output_open -- write to `path` ("-" is stdout) through a temporary file in the same directory,
 * renamed over `path` by lab_gen_output_commit; `zstd_level` > 0 compresses (levels 1..19). */
lab_gen_output_t *lab_gen_output_open (const char *path, int zstd_level, bson_error_t *error);
bool lab_gen_output_write (lab_gen_output_t *out, const void *data, size_t len, bson_error_t *error);
/* lab_gen_output_commit -- finish the zstd frame, flush, fsync and rename into place; frees `out`. */
bool lab_gen_output_commit (lab_gen_output_t *out, bson_error_t *error);
/* lab_gen_output_abort -- remove the temporary file and free (nothing is left behind); NULL is fine. */
void lab_gen_output_abort (lab_gen_output_t *out);
/* lab_gen_output_bytes -- bytes written to the file so far (after compression). */
uint64_t lab_gen_output_bytes (const lab_gen_output_t *out);

/* lab_gen_path_has_suffix -- true if `path` ends with `suffix`. */
bool lab_gen_path_has_suffix (const char *path, const char *suffix);

#endif
