/*
 * log.h -- the one log sink. Library code reports through lab_log_*; it never writes to stderr itself.
 * A tool's main installs the sink (lab_log_set in cli.h installs lab_log_sink_stderr); with no sink set,
 * messages are dropped, so a library used from a test or another program stays silent unless asked.
 */
#ifndef LAB_LOG_H
#define LAB_LOG_H

#include <bson/bson.h>

typedef enum { LAB_LOG_ERROR = 0, LAB_LOG_INFO = 1, LAB_LOG_DEBUG = 2 } lab_log_level_t;

/* lab_log_sink_t -- receives each message that passes the level (one line, no newline). */
typedef void (*lab_log_sink_t) (lab_log_level_t level, const char *msg, void *ctx);

/* lab_log_sink_set -- install `sink` (NULL: drop everything) with its context. Not thread-safe: call once
 * from main before starting threads. */
void lab_log_sink_set (lab_log_sink_t sink, void *ctx);

/* lab_log_sink_stderr -- the mains' sink: "tool: message" (errors: "tool: error: message") on stderr. */
void lab_log_sink_stderr (lab_log_level_t level, const char *msg, void *ctx);

/* lab_log_level_set -- messages above `level` are dropped (quiet: LAB_LOG_ERROR; -v: LAB_LOG_DEBUG). */
void lab_log_level_set (int level);

/* lab_log_enabled -- whether a message of `level` would reach a sink (-v: LAB_LOG_DEBUG is). */
bool lab_log_enabled (lab_log_level_t level);

/* lab_log_set_tool -- the program name the stderr sink uses as the prefix. */
void lab_log_set_tool (const char *tool);

/* lab_log_info / lab_log_debug / lab_log_error -- format one message and hand it to the sink. */
void lab_log_info (const char *fmt, ...) BSON_GNUC_PRINTF (1, 2);
void lab_log_debug (const char *fmt, ...) BSON_GNUC_PRINTF (1, 2);
void lab_log_error (const char *fmt, ...) BSON_GNUC_PRINTF (1, 2);

#endif
