// diskstats.go -- the getDiagnosticData reply, built from this machine's /proc/diskstats the way mongod's
// FTDC builds its "systemMetrics.disks" section. Written from reading (not copying) mongod's source:
//
//   - src/mongo/db/ftdc/ftdc_commands.cpp: getDiagnosticData is admin-only and replies
//     {data: <most recent periodic FTDC document>, ok: 1}.
//   - src/mongo/db/ftdc/collector.cpp + util.cpp (kFTDCCollectStartField "start", kFTDCCollectEndField
//     "end"): the document is {start: Date, <collector name>: {start: Date, ..., end: Date}, ..., end: Date}
//     (the pre-8.0 single-service schema; 8.0's multi-service schema nests it under "common").
//   - src/mongo/db/ftdc/ftdc_system_stats.cpp: the system collector's name is "systemMetrics".
//   - src/mongo/db/ftdc/ftdc_system_stats_linux.cpp: "disks" is omitted when no physical disk was found;
//     the disk list is found once, at start, by procparser::findPhysicalDisks("/sys/block").
//   - src/mongo/util/procparser.cpp: findPhysicalDisks keeps the entries of /sys/block that have a
//     "device" directory (whole physical disks; not partitions, loop, ram, zram, dm-, md devices);
//     parseProcDiskStats reads "major minor name" then the first 11 counters as reads, reads_merged,
//     read_sectors, read_time_ms, writes, writes_merged, write_sectors, write_time_ms, io_in_progress,
//     io_time_ms, io_queued_ms (sectors are 512 bytes, times in ms, as the kernel reports them), skips
//     a disk whose 11 counters are all zero, and appends each with appendNumber(long long).
//   - src/mongo/bson/bsonobjbuilder.h: appendNumber(long long) stores a value that fits in int32 as
//     NumberInt, else as NumberLong (so clients must accept both).
//   - When a listed disk is missing from /proc/diskstats, mongod puts {error: "..."} in "disks"
//     (SystemMetricsCollector::processStatusErrors).
//
// Differences from mongod: the sample is taken when the command arrives (mongod returns its last
// periodic sample, up to one FTDC period -- 1 s by default -- old), and systemMetrics carries only the
// disks section (mongod also has cpu, memory, netstat, mounts, vmstat, files; the document also holds
// serverStatus and more).
package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/bson"
)

// diskFields -- the names mongod gives the first 11 counters of a /proc/diskstats line, in order.
var diskFields = []string{
	"reads", "reads_merged", "read_sectors", "read_time_ms",
	"writes", "writes_merged", "write_sectors", "write_time_ms",
	"io_in_progress", "io_time_ms", "io_queued_ms",
}

// physicalDisks -- the names under sysBlock that have a "device" directory, as mongod selects them.
func physicalDisks(sysBlock string) []string {
	entries, err := os.ReadDir(sysBlock)
	if err != nil {
		return nil
	}
	var disks []string
	for _, e := range entries {
		st, err := os.Stat(filepath.Join(sysBlock, e.Name(), "device"))
		if err == nil && st.IsDir() {
			disks = append(disks, e.Name())
		}
	}
	return disks
}

// appendNumber -- v as NumberInt when it fits in int32, else NumberLong (bsonobjbuilder.h).
func appendNumber(v uint64) any {
	if v <= math.MaxInt32 {
		return int32(v)
	}
	return int64(v)
}

// diskStats -- the "disks" sub-document for the given disks from the text of /proc/diskstats.
func diskStats(text string, disks []string) bson.D {
	want := map[string]bool{}
	for _, d := range disks {
		want[d] = true
	}
	found := false
	out := bson.D{}
	for _, line := range strings.Split(text, "\n") {
		parts := strings.Fields(line)
		if len(parts) < 3 || !want[parts[2]] {
			continue
		}
		found = true
		nonZero := false
		sub := bson.D{}
		for i := 0; i < len(diskFields) && 3+i < len(parts); i++ {
			v, err := strconv.ParseUint(parts[3+i], 10, 64)
			if err != nil {
				v = 0
			}
			if v != 0 {
				nonZero = true
			}
			sub = append(sub, bson.E{Key: diskFields[i], Value: appendNumber(v)})
		}
		if nonZero {
			out = append(out, bson.E{Key: parts[2], Value: sub})
		}
	}
	if !found {
		out = append(out, bson.E{Key: "error", Value: "NoSuchKey: Failed to find any keys in diskstats string"})
	}
	return out
}

// diagnosticData -- the reply to getDiagnosticData: {data: {start, systemMetrics: {start, disks, end},
// end}, ok: 1}.
func diagnosticData(disks []string) bson.D {
	start := time.Now()
	sys := bson.D{{Key: "start", Value: start}}
	if len(disks) > 0 {
		var d bson.D
		text, err := os.ReadFile("/proc/diskstats")
		if err != nil {
			d = bson.D{{Key: "error", Value: "FileOpenFailed: " + err.Error()}}
		} else {
			d = diskStats(string(text), disks)
		}
		sys = append(sys, bson.E{Key: "disks", Value: d})
	}
	sys = append(sys, bson.E{Key: "end", Value: time.Now()})
	data := bson.D{{Key: "start", Value: start}, {Key: "systemMetrics", Value: sys}, {Key: "end", Value: time.Now()}}
	return bson.D{{Key: "data", Value: data}, {Key: "ok", Value: float64(1)}}
}
