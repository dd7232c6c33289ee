#!/usr/bin/env python3
"""make-fixtures.py -- writes the serverfacts fixtures (canonical extended JSON, types as mongod sends them).

Run in this directory. Field names and types: see README.md for the mongod source of each.
"""
import json


def i32(v): return {"$numberInt": str(v)}
def i64(v): return {"$numberLong": str(v)}
def dbl(v): return {"$numberDouble": repr(float(v))}
def date(ms): return {"$date": {"$numberLong": str(ms)}}
def oid(h): return {"$oid": h}
def ts(t, i): return {"$timestamp": {"t": t, "i": i}}


def old(v):
    """BSONObjBuilder::appendNumber(long long), 4.x era: int32 below 2^30, double below 2^40, else int64."""
    if -(1 << 30) < v < (1 << 30):
        return i32(v)
    if -(1 << 40) < v < (1 << 40):
        return dbl(v)
    return i64(v)


def new(v):
    """appendNumber(long long), current: int32 when the value fits in 32 bits, else int64."""
    if -(1 << 31) <= v < (1 << 31):
        return i32(v)
    return i64(v)


def w(name, doc):
    with open(name, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


T0 = 1764536400000
ct = {"clusterTime": ts(1764536400, 1),
      "signature": {"hash": {"$binary": {"base64": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "subType": "00"}}, "keyId": i64(0)}}

w("hello-standalone-4.2-ismaster.json", {
  "ismaster": True, "maxBsonObjectSize": i32(16777216), "maxMessageSizeBytes": i32(48000000),
  "maxWriteBatchSize": i32(100000), "localTime": date(T0), "logicalSessionTimeoutMinutes": i32(30),
  "connectionId": i32(4), "minWireVersion": i32(0), "maxWireVersion": i32(8), "readOnly": False, "ok": dbl(1)})

w("hello-replset-primary-6.0.json", {
  "topologyVersion": {"processId": oid("642b972dd6128edf1d22c73b"), "counter": i64(6)},
  "hosts": ["db1.example.net:27017", "db2.example.net:27017", "db3.example.net:27017"],
  "setName": "rs0", "setVersion": i32(3), "isWritablePrimary": True, "secondary": False,
  "primary": "db1.example.net:27017", "me": "db1.example.net:27017", "electionId": oid("7fffffff0000000000000013"),
  "lastWrite": {"opTime": {"ts": ts(1764536399, 1), "t": i64(19)}, "lastWriteDate": date(T0 - 1000),
                "majorityOpTime": {"ts": ts(1764536399, 1), "t": i64(19)}, "majorityWriteDate": date(T0 - 1000)},
  "maxBsonObjectSize": i32(16777216), "maxMessageSizeBytes": i32(48000000), "maxWriteBatchSize": i32(100000),
  "localTime": date(T0), "logicalSessionTimeoutMinutes": i32(30), "connectionId": i32(258342),
  "minWireVersion": i32(0), "maxWireVersion": i32(17), "readOnly": False, "ok": dbl(1),
  "$clusterTime": ct, "operationTime": ts(1764536399, 1)})

w("hello-replset-secondary-8.0.json", {
  "topologyVersion": {"processId": oid("66a0c0ffee0000000000beef"), "counter": i64(4)},
  "hosts": ["db1.example.net:27017", "db2.example.net:27017", "db3.example.net:27017"],
  "setName": "rs0", "setVersion": i32(3), "isWritablePrimary": False, "secondary": True,
  "primary": "db1.example.net:27017", "me": "db2.example.net:27017",
  "lastWrite": {"opTime": {"ts": ts(1764536399, 1), "t": i64(19)}, "lastWriteDate": date(T0 - 1000),
                "majorityOpTime": {"ts": ts(1764536399, 1), "t": i64(19)}, "majorityWriteDate": date(T0 - 1000)},
  "maxBsonObjectSize": i32(16777216), "maxMessageSizeBytes": i32(48000000), "maxWriteBatchSize": i32(100000),
  "localTime": date(T0), "logicalSessionTimeoutMinutes": i32(30), "connectionId": i32(77),
  "minWireVersion": i32(0), "maxWireVersion": i32(25), "readOnly": False, "ok": dbl(1),
  "$clusterTime": ct, "operationTime": ts(1764536399, 1)})

w("hello-mongos-7.0.json", {
  "isWritablePrimary": True, "msg": "isdbgrid",
  "topologyVersion": {"processId": oid("6560a1b2c3d4e5f601234567"), "counter": i64(0)},
  "maxBsonObjectSize": i32(16777216), "maxMessageSizeBytes": i32(48000000), "maxWriteBatchSize": i32(100000),
  "localTime": date(T0), "logicalSessionTimeoutMinutes": i32(30), "connectionId": i32(1204),
  "maxWireVersion": i32(21), "minWireVersion": i32(0), "ok": dbl(1),
  "$clusterTime": ct, "operationTime": ts(1764536399, 1)})

w("listshards-7.0.json", {
  "shards": [
    {"_id": "shard01", "host": "shard01/db1.example.net:27018,db2.example.net:27018,db3.example.net:27018",
     "state": i32(1), "topologyTime": ts(1700000000, 3)},
    {"_id": "shard02", "host": "shard02/[2001:db8::7]:27018,db5.example.net", "state": i32(1),
     "draining": True, "topologyTime": ts(1700000100, 1)},
    {"_id": "legacy", "host": "db9.example.net:27019"}],
  "ok": dbl(1), "$clusterTime": ct, "operationTime": ts(1764536399, 1)})


def wt_section(num, cache_in, cache_max, read_into, pages, blocks, bytes_read):
    return {
      "uri": "statistics:",
      "block-manager": {"blocks pre-loaded": num(0), "blocks read": num(blocks), "blocks written": num(4211),
                        "bytes read": num(bytes_read), "bytes written": num(73728000)},
      "cache": {"application threads page read from disk to cache count": num(pages),
                "bytes belonging to page images in the cache": num(cache_in - 4096),
                "bytes currently in the cache": num(cache_in), "bytes read into cache": num(read_into),
                "maximum bytes configured": num(cache_max), "pages read into cache": num(pages),
                "tracked dirty bytes in the cache": num(0)}}


w("serverstatus-mongod-4.4.json", {
  "host": "db1", "version": "4.4.29", "process": "mongod", "pid": i64(2213),
  "uptime": dbl(86400), "uptimeMillis": i64(86400123), "uptimeEstimate": i64(86400), "localTime": date(T0),
  "mem": {"bits": i32(64), "resident": i32(52400), "virtual": i32(54012), "supported": True},
  "wiredTiger": wt_section(old, 34720784384, 52613349376, 5497558138880, 812345678, 901234567, 7696581394432),
  "ok": dbl(1)})

w("serverstatus-mongod-7.0.json", {
  "host": "db1.example.net:27018", "version": "7.0.12", "process": "mongod", "pid": i64(41877),
  "uptime": dbl(3600), "uptimeMillis": i64(3600456), "uptimeEstimate": i64(3600), "localTime": date(T0),
  "mem": {"bits": i32(64), "resident": i32(300), "virtual": i32(2650), "supported": True},
  "wiredTiger": wt_section(new, 268000000, 268435456, 4294967296, 40000, 41000, 168000000),
  "ok": dbl(1), "$clusterTime": ct, "operationTime": ts(1764536399, 1)})

w("serverstatus-mongos-7.0.json", {
  "host": "router1:27017", "version": "7.0.12", "process": "mongos", "pid": i64(913),
  "uptime": dbl(12.0), "uptimeMillis": i64(12001), "uptimeEstimate": i64(12), "localTime": date(T0),
  "mem": {"bits": i32(64), "resident": i32(118), "virtual": i32(2001), "supported": True},
  "ok": dbl(1), "$clusterTime": ct, "operationTime": ts(1764536399, 1)})


def disk(num, r, rm, rs, rt, wr, wm, ws, wt, inp, io, q):
    return {"reads": num(r), "reads_merged": num(rm), "read_sectors": num(rs), "read_time_ms": num(rt),
            "writes": num(wr), "writes_merged": num(wm), "write_sectors": num(ws), "write_time_ms": num(wt),
            "io_in_progress": num(inp), "io_time_ms": num(io), "io_queued_ms": num(q)}


def diag(t, disks, num):
    sm = {"start": date(t + 5), "cpu": {"num_cpus": i32(8), "user_ms": dbl(8310000), "iowait_ms": dbl(342790)},
          "memory": {"MemTotal_kb": num(65843260), "Cached_kb": num(6421520)}}
    if disks is not None:
        sm["disks"] = disks
    sm["end"] = date(t + 9)
    return {"data": {"start": date(t),
                     "serverStatus": {"start": date(t + 1), "host": "db1", "version": "4.4.29", "process": "mongod",
                                      "pid": i64(2213), "end": date(t + 4)},
                     "systemMetrics": sm, "end": date(t + 12)}, "ok": dbl(1)}


# a: 4.4-era types (int32 / double / int64); b: 10.000 s later; sdb had all-zero counters in a (omitted)
a = {"nvme0n1": disk(old, 1206110, 33630, 1500000000, 965500, 3497970, 167398, 11311562, 2453603, 0, 1175140, 3554160),
     "sda": disk(old, 12707, 3876, 1525418, 57507, 997000, 3561, 1200000000000, 97976, 1, 37870, 155619)}
b = {"nvme0n1": disk(old, 1206110 + 39170, 33630 + 12, 1500000000 + 317600, 965500 + 78340, 3497970 + 10, 167398,
                     11311562 + 80, 2453603 + 5, 3, 1175140 + 9500, 3554160 + 80000),
     "sda": disk(old, 12707 + 100, 3876, 1525418 + 800, 57507 + 40, 997000 + 5000, 3561 + 30,
                 1200000000000 + 900000, 97976 + 2500, 0, 37870 + 3000, 155619 + 2600),
     "sdb": disk(old, 5, 0, 40, 3, 0, 0, 0, 0, 0, 4, 3)}
w("getdiagnosticdata-a-4.4.json", diag(T0, a, old))
w("getdiagnosticdata-b-4.4.json", diag(T0 + 10000, b, old))

# mongos (or no /sys/block access): systemMetrics without disks
m = diag(T0, None, new)
m["data"]["serverStatus"]["process"] = "mongos"
m["data"]["connPoolStats"] = {"start": date(T0 + 10), "totalInUse": i32(0), "end": date(T0 + 11)}
w("getdiagnosticdata-mongos-nodisks.json", m)

# FTDC never ran (mongos without --logpath): an empty document
w("getdiagnosticdata-empty.json", {"data": {}, "ok": dbl(1)})

# multi-service layout: collectors grouped by role
ms = {"data": {"start": date(T0), "common": {"start": date(T0 + 1),
       "systemMetrics": {"start": date(T0 + 2), "disks": {"vda": disk(new, 10, 0, 80, 4, 0, 0, 0, 0, 0, 5, 4)},
                         "end": date(T0 + 3)}, "end": date(T0 + 4)}, "end": date(T0 + 5)}, "ok": dbl(1)}
w("getdiagnosticdata-multiservice.json", ms)


# ---- explain (verbosity queryPlanner) of the fold's read: aggregate [{$match}, {$sort: {bill_id: 1}}] with
# hint {bill_id: 1}. Shapes from the manual's explain-results page (winningPlan.stage / inputStage; 5.1+
# winningPlan.queryPlan + slotBasedPlan; sharded winningPlan.shards[]) and the server source named in
# README.md; stage and field names as mongod writes them.

def ixscan(multikey=False, node=None):
    s = {"stage": "IXSCAN", "keyPattern": {"bill_id": i32(1)}, "indexName": "bill_id_1", "isMultiKey": multikey,
         "multiKeyPaths": {"bill_id": ["bill_id"] if multikey else []}, "isUnique": False, "isSparse": False,
         "isPartial": False, "indexVersion": i32(2), "direction": "forward",
         "indexBounds": {"bill_id": ["[MinKey, MaxKey]"]}}
    if node is not None:
        s = {"planNodeId": i32(node), **s}
    return s


def fetch(inp, node=None):
    s = {"stage": "FETCH", "inputStage": inp}
    return s if node is None else {"stage": "FETCH", "planNodeId": i32(node), "inputStage": inp}


def sort(inp, pattern, node=None, v44=True):
    s = {"stage": "SORT", "sortPattern": pattern}
    if v44:  # 4.4+: the sort stage has memLimit and type (4.2 had SORT over SORT_KEY_GENERATOR)
        s.update({"memLimit": i32(104857600), "type": "simple"})
    s["inputStage"] = inp
    return s if node is None else {"stage": "SORT", "planNodeId": i32(node), **{k: v for k, v in s.items() if k != "stage"}}


def server_info(version, host="db1.example.net"):
    return {"host": host, "port": i32(27017), "version": version, "gitVersion": "0" * 40}


qp_common = {"namespace": "hospital.bill_detail", "indexFilterSet": False, "parsedQuery": {}}

# 4.2, the index serves the order: the whole pipeline absorbed by the query layer (optimizedPipeline)
w("explain-classic-4.2-ixscan.json", {
  "queryPlanner": {"plannerVersion": i32(1), **qp_common, "queryHash": "8E0D2A4B", "planCacheKey": "A1B2C3D4",
                   "optimizedPipeline": True, "winningPlan": fetch(ixscan()), "rejectedPlans": []},
  "serverInfo": server_info("4.2.24"), "ok": dbl(1)})

# 4.2, {bill_id: 1, _id: 1} over the {bill_id: 1} index: the $cursor stage's plan sorts (SORT over
# SORT_KEY_GENERATOR, the 4.2 shape)
w("explain-classic-4.2-sort.json", {
  "stages": [{"$cursor": {"query": {}, "sort": {"bill_id": i32(1), "_id": i32(1)},
                          "queryPlanner": {"plannerVersion": i32(1), **qp_common, "queryHash": "5F1B2C3D",
                                           "planCacheKey": "E5F6A7B8",
                                           "winningPlan": sort({"stage": "SORT_KEY_GENERATOR",
                                                                "inputStage": fetch(ixscan())},
                                                               {"bill_id": i32(1), "_id": i32(1)}, v44=False),
                                           "rejectedPlans": []}}}],
  "serverInfo": server_info("4.2.24"), "ok": dbl(1)})

# 4.4, the key field holds arrays: a multikey index cannot give the order, the plan sorts
w("explain-classic-4.4-multikey.json", {
  "queryPlanner": {"plannerVersion": i32(1), **qp_common, "queryHash": "0A1B2C3D", "planCacheKey": "4E5F6071",
                   "optimizedPipeline": True,
                   "winningPlan": sort(fetch(ixscan(multikey=True)), {"bill_id": i32(1)}), "rejectedPlans": []},
  "serverInfo": server_info("4.4.29"), "ok": dbl(1)})

sbe_plan = {"slots": "$$RESULT=s5 env: { s1 = IndexBounds(...) }",
            "stages": "[2] nlj inner [] [s2, s3] \n    left \n        [1] ixseek s1 s4 s2 s3 [] @\"...\" @\"bill_id_1\" true \n    right \n        [2] seek s2 s5 s6 s3 s7 s8 s9 none none [] @\"...\" true false "}

# 7.0 with the slot-based engine (explainVersion 2): winningPlan.queryPlan + slotBasedPlan
w("explain-sbe-7.0-ixscan.json", {
  "explainVersion": "2",
  "queryPlanner": {**qp_common, "queryHash": "9F3C1A2E", "planCacheKey": "2B1D0E11",
                   "maxIndexedOrSolutionsReached": False, "maxIndexedAndSolutionsReached": False,
                   "maxScansToExplodeReached": False,
                   "winningPlan": {"queryPlan": fetch(ixscan(node=1), node=2), "slotBasedPlan": sbe_plan},
                   "rejectedPlans": []},
  "command": {"aggregate": "bill_detail", "pipeline": [{"$match": {}}, {"$sort": {"bill_id": i32(1)}}],
              "cursor": {"batchSize": i32(1000)}, "allowDiskUse": True, "hint": {"bill_id": i32(1)}, "$db": "hospital"},
  "serverInfo": server_info("7.0.12"), "ok": dbl(1)})

w("explain-sbe-7.0-sort.json", {
  "explainVersion": "2",
  "queryPlanner": {**qp_common, "queryHash": "9F3C1A2F", "planCacheKey": "2B1D0E12",
                   "winningPlan": {"queryPlan": sort(fetch(ixscan(node=1), node=2), {"bill_id": i32(1), "_id": i32(1)},
                                                     node=3),
                                   "slotBasedPlan": sbe_plan},
                   "rejectedPlans": []},
  "serverInfo": server_info("7.0.12"), "ok": dbl(1)})

# a sharded find's shape (docs explain-results, "Sharded Collections"): one shard walks its index, the
# other sorts (its index is multikey there)
w("explain-sharded-6.0.json", {
  "queryPlanner": {"mongosPlannerVersion": i32(1), "winningPlan": {"stage": "SHARD_MERGE_SORT", "shards": [
      {"shardName": "shard01", "connectionString": "shard01/db1.example.net:27018,db2.example.net:27018",
       "serverInfo": server_info("6.0.14", "db1.example.net"), "namespace": "hospital.bill_detail",
       "indexFilterSet": False, "parsedQuery": {}, "winningPlan": {"stage": "SHARDING_FILTER",
                                                                  "inputStage": fetch(ixscan())},
       "rejectedPlans": []},
      {"shardName": "shard02", "connectionString": "shard02/db4.example.net:27018",
       "serverInfo": server_info("6.0.14", "db4.example.net"), "namespace": "hospital.bill_detail",
       "indexFilterSet": False, "parsedQuery": {},
       "winningPlan": {"queryPlan": sort({"stage": "SHARDING_FILTER", "planNodeId": i32(3),
                                          "inputStage": fetch(ixscan(multikey=True, node=1), node=2)},
                                         {"bill_id": i32(1)}, node=4), "slotBasedPlan": sbe_plan},
       "rejectedPlans": []}]}},
  "serverInfo": server_info("6.0.14", "router1.example.net"), "ok": dbl(1)})

# an aggregate through mongos (src/mongo/db/pipeline/sharded_agg_helpers.cpp, appendExplainResults):
# splitPipeline, then shards: {<id>: {host, queryPlanner | stages}}; shard02's pipeline sorts in $sort
w("explain-sharded-agg-7.0.json", {
  "mergeType": "mongos",
  "splitPipeline": {"shardsPart": [{"$match": {}}, {"$sort": {"sortKey": {"bill_id": i32(1)}}}],
                    "mergerPart": [{"$mergeCursors": {"sort": {"bill_id": i32(1)}, "compareWholeSortKey": False,
                                                      "tailableMode": "normal", "nss": "hospital.bill_detail",
                                                      "allowPartialResults": False}}]},
  "shards": {
    "shard01": {"host": "db1.example.net:27018",
                "queryPlanner": {**qp_common, "optimizedPipeline": True,
                                 "winningPlan": {"queryPlan": fetch(ixscan(node=1), node=2),
                                                 "slotBasedPlan": sbe_plan}, "rejectedPlans": []}},
    "shard02": {"host": "db4.example.net:27018",
                "stages": [{"$cursor": {"queryPlanner": {**qp_common,
                                                         "winningPlan": {"stage": "COLLSCAN", "direction": "forward"},
                                                         "rejectedPlans": []}}},
                           {"$sort": {"sortKey": {"bill_id": i32(1)}}}]}},
  "serverInfo": server_info("7.0.12", "router1.example.net"), "ok": dbl(1)})

# hostInfo (src/mongo/db/commands/generic_servers.cpp: system, os {type, name, version} from ProcessInfo)
w("hostinfo-windows-7.0.json", {
  "system": {"currentTime": date(T0), "hostname": "WIN-DB1", "cpuAddrSize": i32(64), "memSizeMB": i64(65536),
             "numCores": i32(16), "cpuArch": "x86_64", "numaEnabled": False},
  "os": {"type": "Windows", "name": "Microsoft Windows Server 2022", "version": "10.0 (build 20348)"},
  "extra": {"pageSize": i64(4096)}, "ok": dbl(1)})

# FTDC on Windows: systemMetrics.disks from performance counters, by instance name
# (src/mongo/db/ftdc/ftdc_system_stats_windows.cpp, the output shape in src/mongo/util/perfctr_collect.h)
win_disk = {"\\PhysicalDisk\\% Disk Read Time": i64(1203344), "\\PhysicalDisk\\% Disk Read Time Base": i64(9961472),
            "\\PhysicalDisk\\Disk Read Bytes/sec": i64(81920000), "\\PhysicalDisk\\Disk Reads/sec": i64(20000),
            "\\PhysicalDisk\\Disk Writes/sec": i64(3000), "\\PhysicalDisk\\Current Disk Queue Length": i32(0)}
w("getdiagnosticdata-windows-7.0.json", {"data": {"start": date(T0), "systemMetrics": {
    "start": date(T0 + 5), "cpu": {"\\System\\Processes": i32(120)}, "disks": {"0 C:": win_disk, "1 D:": win_disk},
    "end": date(T0 + 9)}, "end": date(T0 + 12)}, "ok": dbl(1)})
