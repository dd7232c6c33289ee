/*
 * fuzz_serverfacts.c -- libFuzzer harness of the server reply parsers (core/serverfacts.h). The input is
 * a BSON document (bson_init_static; refused unless bson_validate accepts it, as the driver would) handed
 * to every parser as a hello, listShards, serverStatus and getDiagnosticData reply; the disks it yields
 * are picked and diffed against an empty sample. When the input is not BSON, its text up to the first
 * NUL is a shard host string for the seed-list parser.
 */
#include "core/serverfacts.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>
#include <string.h>

/* seed_list -- the shard host string parser on text. */
static void
seed_list (const uint8_t *data, size_t len)
{
   char *parts[1];
   char *store;
   char *set_name = NULL;
   lab_store_facts_hostport_t *seeds = NULL;
   size_t nseeds = 0;
   bson_error_t error;

   lab_fuzz_split (data, len, parts, 1, &store);
   if (lab_store_facts_parse_seed_list (parts[0], &set_name, &seeds, &nseeds, &error)) {
      for (size_t i = 0; i < nseeds; i++) {
         if (seeds[i].port <= 0 || seeds[i].port > 65535 || !seeds[i].host[0]) {
            abort (); /* an accepted seed with a bad port or no host */
         }
      }
   }
   bson_free (set_name);
   bson_free (seeds);
   free (store);
}

/* LLVMFuzzerTestOneInput -- every reply parser on one document. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   bson_t reply;
   bson_error_t error;
   lab_store_facts_topology_t topo;
   lab_store_facts_shards_t shards;
   lab_store_facts_status_t status;
   lab_store_facts_disks_t disks, none;
   const lab_store_facts_disk_t *da, *db;
   lab_store_facts_disk_delta_t d;
   char reason[256];

   lab_fuzz_setup ();
   if (!bson_init_static (&reply, data, len) || !bson_validate (&reply, BSON_VALIDATE_NONE, NULL)) {
      seed_list (data, len);
      return 0;
   }
   (void)lab_store_facts_topology_from_hello (&reply, &topo, &error);
   lab_store_facts_topology_cleanup (&topo);
   (void)lab_store_facts_shards_from_list (&reply, &shards, &error);
   lab_store_facts_shards_cleanup (&shards);
   (void)lab_store_facts_server_status (&reply, &status, &error);

   memset (&none, 0, sizeof none);
   if (lab_store_facts_disks_from_diag (&reply, &disks, &error)) {
      (void)lab_store_facts_disks_elapsed_s (&disks, &disks);
      if (lab_store_facts_disks_pick (&disks, &disks, NULL, &da, &db, reason, sizeof reason, &error)) {
         lab_store_facts_disk_delta (da, db, 1.0, &d);
         lab_store_facts_disk_delta (NULL, db, 0.0, &d);
      }
      if (disks.ndisks > 0) {
         (void)lab_store_facts_disks_find (&disks, disks.disks[0].name);
         (void)lab_store_facts_disks_pick (&none, &disks, disks.disks[0].name, &da, &db, reason,
                                           sizeof reason, &error);
      }
   }
   lab_store_facts_disks_cleanup (&disks);
   return 0;
}
