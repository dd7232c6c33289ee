/*
 * wt_session.c -- the embedded store's session cache: one WT_SESSION per lab_store_session_t, on the store's
 * list so close can close the ones left open, with a small cache of open cursors (reset, not closed,
 * between operations: twice as fast as reopening for single-key lookups) and scratch buffers.
 */
#include "wt_private.h"

#include "core/error.h"

#include <string.h>

/* lab_wt_session_open -- a WiredTiger session with snapshot isolation, put on the store's list. */
bool
lab_wt_session_open (lab_store_session_t *sess, bson_error_t *error)
{
   wt_store_t *st = sess->store->impl;
   wt_sess_t *ss;
   int ret;

   ss = bson_malloc0 (sizeof *ss);
   ss->st = st;
   ss->sess = sess;
   pthread_mutex_lock (&st->mu);
   if (!st->conn) {
      pthread_mutex_unlock (&st->mu);
      bson_free (ss);
      return lab_wt_closed_error (st, error);
   }
   ret = st->conn->open_session (st->conn, NULL, "isolation=snapshot", &ss->s);
   if (ret == 0) {
      st->nsessions++;
      ss->next = st->sessions;
      if (st->sessions) {
         st->sessions->prev = ss;
      }
      st->sessions = ss;
   }
   pthread_mutex_unlock (&st->mu);
   if (ret != 0) {
      bson_free (ss);
      return lab_wt_fail (error, ret, "open a session in %s", st->home);
   }
   lab_buf_init (&ss->key);
   lab_buf_init (&ss->ikeys);
   lab_buf_init (&ss->ckeys);
   lab_buf_init (&ss->cpend);
   lab_buf_init (&ss->val);
   lab_buf_init (&ss->body);
   sess->impl = ss;
   return true;
}

/* close_cursors -- close every cached cursor of the session. */
static void
close_cursors (wt_sess_t *ss)
{
   int i;

   for (i = 0; i < ss->ncache; i++) {
      ss->cache[i].c->close (ss->cache[i].c);
      bson_free (ss->cache[i].uri);
   }
   ss->ncache = 0;
}

/* lab_wt_session_close -- close the cursors and the WiredTiger session, take it off the list. */
void
lab_wt_session_close (lab_store_session_t *sess)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;

   /* under ddl: a drop may be closing this session's cursors from its own thread */
   pthread_rwlock_rdlock (&st->ddl);
   close_cursors (ss);
   pthread_mutex_lock (&st->mu);
   ss->s->close (ss->s, NULL);
   st->nsessions--;
   if (ss->prev) {
      ss->prev->next = ss->next;
   } else {
      st->sessions = ss->next;
   }
   if (ss->next) {
      ss->next->prev = ss->prev;
   }
   pthread_mutex_unlock (&st->mu);
   pthread_rwlock_unlock (&st->ddl);
   lab_buf_destroy (&ss->key);
   lab_buf_destroy (&ss->ikeys);
   bson_free (ss->ik.v);
   lab_buf_destroy (&ss->ckeys);
   bson_free (ss->ck.v);
   lab_buf_destroy (&ss->cpend);
   lab_buf_destroy (&ss->val);
   lab_buf_destroy (&ss->body);
   bson_free (ss->rids);
   bson_free (ss);
}

/* lab_wt_cache_drop -- close this session's cached cursors on `uri` (before a drop). */
void
lab_wt_cache_drop (wt_sess_t *ss, const char *uri)
{
   int i, j = 0;

   for (i = 0; i < ss->ncache; i++) {
      if (strcmp (ss->cache[i].uri, uri) == 0) {
         ss->cache[i].c->close (ss->cache[i].c);
         bson_free (ss->cache[i].uri);
      } else {
         ss->cache[j++] = ss->cache[i];
      }
   }
   ss->ncache = j;
}

/* lab_wt_get_cursor -- a cursor on uri, kept open for the rest of the operation (see
 * lab_wt_reset_cursors); when the cache is full the oldest cursor is closed. */
bool
lab_wt_get_cursor (wt_sess_t *ss, const char *uri, bool overwrite, WT_CURSOR **out, bson_error_t *error)
{
   int i, ret;

   for (i = 0; i < ss->ncache; i++) {
      if (ss->cache[i].overwrite == overwrite && strcmp (ss->cache[i].uri, uri) == 0) {
         *out = ss->cache[i].c;
         return true;
      }
   }
   if (ss->ncache == WT_CURSOR_CACHE) {
      ss->cache[0].c->close (ss->cache[0].c);
      bson_free (ss->cache[0].uri);
      memmove (&ss->cache[0], &ss->cache[1], (WT_CURSOR_CACHE - 1) * sizeof ss->cache[0]);
      ss->ncache--;
   }
   if ((ret = ss->s->open_cursor (ss->s, uri, NULL, overwrite ? NULL : "overwrite=false", out)) != 0) {
      return lab_wt_fail (error, ret, "open cursor on %s", uri);
   }
   ss->cache[ss->ncache].uri = bson_strdup (uri);
   ss->cache[ss->ncache].overwrite = overwrite;
   ss->cache[ss->ncache].c = *out;
   ss->ncache++;
   return true;
}

/* lab_wt_reset_cursors -- end of an operation: the session's cursors stay open for the next one but
 * release their position and pages. A drop closes them in every idle session first (lab_wt_drop). */
void
lab_wt_reset_cursors (wt_sess_t *ss)
{
   int i;

   for (i = 0; i < ss->ncache; i++) {
      ss->cache[i].c->reset (ss->cache[i].c);
   }
}

/* lab_wt_rids_push -- append a RecordId to ss->rids, growing it. */
void
lab_wt_rids_push (wt_sess_t *ss, int64_t rid)
{
   if (ss->nrids == ss->caprids) {
      ss->caprids = ss->caprids ? ss->caprids * 2 : 256;
      ss->rids = bson_realloc (ss->rids, ss->caprids * sizeof *ss->rids);
   }
   ss->rids[ss->nrids++] = rid;
}

/* lab_wt_search_ge -- see wt_private.h. */
int
lab_wt_search_ge (WT_CURSOR *c)
{
   int exact, ret = c->search_near (c, &exact);

   return ret == 0 && exact < 0 ? c->next (c) : ret;
}

/* lab_wt_seek_from -- see wt_private.h. */
int
lab_wt_seek_from (WT_CURSOR *c, const lab_buf_t *start)
{
   WT_ITEM k;

   if (start->len == 0) {
      return c->next (c);
   }
   k.data = start->data;
   k.size = start->len;
   c->set_key (c, &k);
   return lab_wt_search_ge (c);
}

/* lab_wt_rid_ends -- see wt_private.h. */
int
lab_wt_rid_ends (WT_CURSOR *cc, int64_t *first, int64_t *last)
{
   int ret;

   if ((ret = cc->next (cc)) == 0 && (ret = cc->get_key (cc, first)) == 0 && (ret = cc->reset (cc)) == 0 &&
       (ret = cc->prev (cc)) == 0) {
      ret = cc->get_key (cc, last);
   }
   cc->reset (cc);
   return ret;
}

/* lab_wt_coll_cursor -- see wt_private.h. */
bool
lab_wt_coll_cursor (WT_SESSION *s, const wt_coll_t *c, WT_CURSOR **cc, bson_error_t *error)
{
   int ret;

   *cc = NULL;
   if ((ret = s->open_cursor (s, c->uri, NULL, NULL, cc)) != 0) {
      *cc = NULL;
      return lab_wt_fail (error, ret, "open collection '%s' (%s)", c->name, c->uri);
   }
   return true;
}
