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
