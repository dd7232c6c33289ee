// proxy.go -- the personalities: a small MongoDB wire-protocol proxy in front of FerretDB that answers
// the commands FerretDB lacks the way mongod / mongos answer them, and forwards every other message
// byte for byte (to this process's own FerretDB, or for mongos to the shard instance).
//
// What each personality answers itself (everything else is forwarded unchanged):
//
//	all        getDiagnosticData (admin only)   diskstats.go says which mongod sources it follows
//	mongod     serverStatus: FerretDB's reply with process "mongod" (FerretDB puts its executable's name)
//	replset    hello / isMaster / ismaster      src/mongo/db/repl/hello_response.cpp (HelloResponse::
//	           of a one-member set's primary    addToBSON: topologyVersion, hosts, setName, setVersion,
//	                                            isWritablePrimary|ismaster, secondary, primary, me,
//	                                            electionId, lastWrite) + src/mongo/db/repl/
//	                                            replication_info.cpp (the common tail: helloOk,
//	                                            maxBsonObjectSize, maxMessageSizeBytes, maxWriteBatchSize,
//	                                            localTime, logicalSessionTimeoutMinutes, connectionId,
//	                                            minWireVersion, maxWireVersion, readOnly, ok)
//	           replSetGetStatus (minimal)       src/mongo/db/repl/topology_coordinator.cpp
//	                                            (prepareStatusResponse: set, date, myState, term,
//	                                            heartbeatIntervalMillis, members[], ok)
//	           serverStatus: as mongod plus a "repl" section holding the hello fields
//	mongos     hello / isMaster / ismaster      src/mongo/s/commands/cluster_hello_cmd.cpp and
//	                                            src/mongo/s/mongos_hello_response.cpp (topologyVersion,
//	                                            isWritablePrimary|ismaster, msg "isdbgrid", no setName)
//	           listShards / listshards          src/mongo/s/commands/cluster_list_shards_cmd.cpp +
//	                                            src/mongo/s/catalog/type_shard.cpp (ShardType::toBSON:
//	                                            _id, host, state, topologyTime)
//	           serverStatus: the shard's reply with the router's own host, pid, uptime and process
//	                         "mongos", without the storage sections (wiredTiger, storageEngine,
//	                         catalogStats) a router does not have
//	           setParameter wiredTigerEngineRuntimeConfig: refused as mongos refuses it, 72 InvalidOptions
//	                         "attempted to set unrecognized parameter [...]": the parameter belongs to
//	                         mongod's WiredTiger engine (src/mongo/db/storage/wiredtiger/
//	                         wiredtiger_parameters.idl), which a router does not link; the refusal is
//	                         src/mongo/db/commands/parameters.cpp's
//	with -auth (any personality): saslStart answered here, the PLAIN mechanism only (what FerretDB speaks):
//	           a user of -users with its password succeeds ({conversationId, done: true, payload, ok: 1});
//	           any other user, password or mechanism fails as mongod fails an unknown user, 18
//	           AuthenticationFailed "Authentication failed." (src/mongo/db/auth/sasl_commands.cpp masks
//	           UserNotFound as AuthenticationFailed); the payload is BinData or a base64 string
//	           (src/mongo/db/auth/sasl_payload.cpp). So a mongos started with users and its shard without
//	           any is a cluster whose users live on the config servers: the router accepts them, a direct
//	           connection to the shard refuses them (docs core/security-users, "Shard Local Users"). Only
//	           authentication is emulated: commands are not checked against roles.
//
// Awaitable hello (topologyVersion + maxAwaitTimeMS, as libmongoc's pooled monitors send it): the topology
// never changes, so a request carrying our own topologyVersion is answered after maxAwaitTimeMS, as mongod
// does; the exhaustAllowed flag is honoured by simply not using moreToCome.
//
// Wire formats: OP_MSG (2013) and, for the legacy handshake libmongoc 1.23 opens every connection with,
// OP_QUERY (2004) on "<db>.$cmd" answered with OP_REPLY (1). Compression is never negotiated.
package main

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
)

const (
	opReply = 1
	opQuery = 2004
	opMsg   = 2013

	flagChecksum   = 1 << 0
	flagMoreToCome = 1 << 1

	maxMessage = 48000000
)

// proxy -- one personality listening on a public address in front of a backend address.
type proxy struct {
	as      string // "mongod", "replset" or "mongos"
	public  string // our own host:port, as clients name it (hosts, me, primary)
	backend string // FerretDB's internal address, or the shard's
	setName string
	shards  []string          // mongos: the shard addresses listShards names
	disks   []string          // physical disks for getDiagnosticData, found once at start like mongod
	auth    bool              // -auth: saslStart answered here (PLAIN, users below)
	users   map[string]string // -users: user -> password
	log     *slog.Logger

	start     time.Time
	processID primitive.ObjectID // topologyVersion.processId
	connIDs   atomic.Int32
	requestID atomic.Int32

	backendMu   sync.Mutex
	backendInfo bson.Raw // the backend's own hello reply: sizes and wire versions we repeat
}

// message -- one wire-protocol message as read, plus the command it carries when it carries one.
type message struct {
	raw       []byte
	requestID int32
	opCode    int32
	flags     uint32   // OP_MSG flagBits
	cmd       bson.Raw // OP_MSG body, or the OP_QUERY query on $cmd (unwrapped from $query)
	db        string
}

func newProxy(as, public, backend, setName string, shards []string, log *slog.Logger) *proxy {
	return &proxy{as: as, public: public, backend: backend, setName: setName, shards: shards,
		disks: physicalDisks("/sys/block"), auth: authOn, users: authUsers, log: log, start: time.Now(),
		processID: primitive.NewObjectID()}
}

// serve -- accept connections on l until it is closed.
func (p *proxy) serve(l net.Listener) error {
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go p.serveConn(c)
	}
}

// readMessage -- one whole message from r.
func readMessage(r io.Reader) (*message, error) {
	hdr := make([]byte, 16)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, err
	}
	n := int(int32(binary.LittleEndian.Uint32(hdr)))
	if n < 16 || n > maxMessage {
		return nil, fmt.Errorf("message of implausible length %d", n)
	}
	raw := make([]byte, n)
	copy(raw, hdr)
	if _, err := io.ReadFull(r, raw[16:]); err != nil {
		return nil, err
	}
	m := &message{raw: raw, requestID: int32(binary.LittleEndian.Uint32(raw[4:])),
		opCode: int32(binary.LittleEndian.Uint32(raw[12:]))}
	m.parse()
	return m, nil
}

// cstring -- the NUL-terminated string at b[0:], and the bytes after it.
func cstring(b []byte) (string, []byte, bool) {
	i := strings.IndexByte(string(b), 0)
	if i < 0 {
		return "", nil, false
	}
	return string(b[:i]), b[i+1:], true
}

// bsonAt -- the BSON document at the start of b, when it is well formed.
func bsonAt(b []byte) (bson.Raw, bool) {
	if len(b) < 5 {
		return nil, false
	}
	n := int(int32(binary.LittleEndian.Uint32(b)))
	if n < 5 || n > len(b) {
		return nil, false
	}
	doc := bson.Raw(b[:n])
	return doc, doc.Validate() == nil
}

// parse -- find the command document of an OP_MSG (section kind 0) or of an OP_QUERY on "<db>.$cmd".
func (m *message) parse() {
	body := m.raw[16:]
	switch m.opCode {
	case opMsg:
		if len(body) < 5 {
			return
		}
		m.flags = binary.LittleEndian.Uint32(body)
		for s := body[4:]; len(s) > 0; {
			if m.flags&flagChecksum != 0 && len(s) == 4 {
				break
			}
			kind := s[0]
			doc, ok := bsonAt(s[1:])
			if !ok {
				return
			}
			if kind == 0 {
				m.cmd = doc
				m.db, _ = doc.Lookup("$db").StringValueOK()
				return
			}
			s = s[1+len(doc):] // kind 1: int32 size then the sequence; the size covers it all
		}
	case opQuery:
		if len(body) < 4 {
			return
		}
		ns, rest, ok := cstring(body[4:])
		if !ok || !strings.HasSuffix(ns, ".$cmd") || len(rest) < 8 {
			return
		}
		doc, ok := bsonAt(rest[8:])
		if !ok {
			return
		}
		if q, ok := doc.Lookup("$query").DocumentOK(); ok {
			doc = q
		} else if q, ok := doc.Lookup("query").DocumentOK(); ok && firstKey(doc) == "query" {
			doc = q
		}
		m.cmd = doc
		m.db = strings.TrimSuffix(ns, ".$cmd")
	}
}

// firstKey -- the name of the first element of doc (the command name), or "".
func firstKey(doc bson.Raw) string {
	if doc == nil {
		return ""
	}
	el, err := doc.IndexErr(0)
	if err != nil {
		return ""
	}
	return el.Key()
}

// reply -- encode doc as the answer to m: OP_MSG for OP_MSG, OP_REPLY for OP_QUERY.
func (p *proxy) reply(m *message, doc any) ([]byte, error) {
	body, err := bson.Marshal(doc)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 16, 16+20+len(body))
	op := int32(opMsg)
	if m.opCode == opQuery {
		op = opReply
		out = binary.LittleEndian.AppendUint32(out, 8) // responseFlags: AwaitCapable, as mongod sets
		out = binary.LittleEndian.AppendUint64(out, 0) // cursorID
		out = binary.LittleEndian.AppendUint32(out, 0) // startingFrom
		out = binary.LittleEndian.AppendUint32(out, 1) // numberReturned
	} else {
		out = binary.LittleEndian.AppendUint32(out, 0) // flagBits
		out = append(out, 0)                           // section kind 0: body
	}
	out = append(out, body...)
	binary.LittleEndian.PutUint32(out[0:], uint32(len(out)))
	binary.LittleEndian.PutUint32(out[4:], uint32(p.requestID.Add(1)))
	binary.LittleEndian.PutUint32(out[8:], uint32(m.requestID))
	binary.LittleEndian.PutUint32(out[12:], uint32(op))
	return out, nil
}

// replyDoc -- the first document of a backend reply (OP_MSG body or OP_REPLY's first document).
func replyDoc(m *message) (bson.Raw, bool) {
	body := m.raw[16:]
	switch m.opCode {
	case opMsg:
		if len(body) < 5 || body[4] != 0 {
			return nil, false
		}
		return bsonAt(body[5:])
	case opReply:
		if len(body) < 20 {
			return nil, false
		}
		return bsonAt(body[20:])
	}
	return nil, false
}

// upstream -- the backend connection of one client connection, dialled on first use.
type upstream struct {
	addr string
	conn net.Conn
}

func (u *upstream) get() (net.Conn, error) {
	if u.conn == nil {
		c, err := net.DialTimeout("tcp", u.addr, 10*time.Second)
		if err != nil {
			return nil, err
		}
		u.conn = c
	}
	return u.conn, nil
}

func (u *upstream) close() {
	if u.conn != nil {
		u.conn.Close()
	}
}

// roundTrip -- send m to the backend and return its replies (none when m has moreToCome; several while
// the backend sets moreToCome).
func (u *upstream) roundTrip(m *message) ([]*message, error) {
	c, err := u.get()
	if err != nil {
		return nil, err
	}
	if _, err = c.Write(m.raw); err != nil {
		return nil, err
	}
	if m.opCode == opMsg && m.flags&flagMoreToCome != 0 {
		return nil, nil
	}
	var replies []*message
	for {
		r, err := readMessage(c)
		if err != nil {
			return nil, err
		}
		replies = append(replies, r)
		if r.opCode != opMsg || binary.LittleEndian.Uint32(r.raw[16:])&flagMoreToCome == 0 {
			return replies, nil
		}
	}
}

// serveConn -- answer one client connection until it closes.
func (p *proxy) serveConn(c net.Conn) {
	defer c.Close()
	up := &upstream{addr: p.backend}
	defer up.close()
	connID := p.connIDs.Add(1)
	for {
		m, err := readMessage(c)
		if err != nil {
			return
		}
		out, err := p.handle(m, up, connID)
		if err != nil && p.as == "mongos" {
			// A router keeps its client connection when a shard is unreachable and answers the command
			// with an error (HostUnreachable); the next command dials the shard again.
			p.log.Warn("proxy: shard unreachable", "shard", p.backend, "err", err)
			up.close()
			up.conn = nil
			if m.opCode == opMsg && m.flags&flagMoreToCome != 0 {
				continue
			}
			var b []byte
			b, err = p.reply(m, commandError(6, "HostUnreachable",
				fmt.Sprintf("Connection to shard0 (%s) failed: %v", p.backend, err)))
			out = [][]byte{b}
		}
		if err != nil {
			p.log.Warn("proxy: closing the connection", "err", err)
			return
		}
		for _, b := range out {
			if _, err = c.Write(b); err != nil {
				return
			}
		}
	}
}

// handle -- the bytes to send back for m: our own reply, a rewritten backend reply, or the backend's.
func (p *proxy) handle(m *message, up *upstream, connID int32) ([][]byte, error) {
	name := firstKey(m.cmd)
	p.log.Debug("proxy: request", "op", m.opCode, "cmd", name, "db", m.db, "conn", connID)
	var doc any
	switch {
	case name == "getDiagnosticData":
		if m.db != "admin" {
			doc = commandError(13, "Unauthorized", "getDiagnosticData may only be run against the admin database.")
		} else {
			doc = diagnosticData(p.disks)
		}
	case (name == "hello" || name == "isMaster" || name == "ismaster") && p.as != "mongod":
		doc = p.hello(m, up, connID, name != "hello")
	case name == "replSetGetStatus" && p.as == "replset":
		doc = p.replSetGetStatus()
	case (name == "listShards" || name == "listshards") && p.as == "mongos":
		if m.db != "admin" {
			doc = commandError(13, "Unauthorized", "listShards may only be run against the admin database.")
		} else {
			doc = p.listShards()
		}
	case name == "serverStatus":
		return p.serverStatus(m, up)
	case name == "setParameter" && p.as == "mongos":
		if _, err := m.cmd.LookupErr("wiredTigerEngineRuntimeConfig"); err == nil {
			doc = commandError(72, "InvalidOptions",
				"attempted to set unrecognized parameter [wiredTigerEngineRuntimeConfig], use help:true to see options ")
		}
	case name == "saslStart" && p.auth:
		doc = p.saslStart(m.cmd)
	}
	if doc != nil {
		b, err := p.reply(m, doc)
		return [][]byte{b}, err
	}
	replies, err := up.roundTrip(m)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(replies))
	for i, r := range replies {
		out[i] = r.raw
	}
	return out, nil
}

// saslStart -- the PLAIN mechanism's one step: payload "authzid\x00user\x00password" (RFC 4616).
func (p *proxy) saslStart(cmd bson.Raw) bson.D {
	fail := commandError(18, "AuthenticationFailed", "Authentication failed.")
	mech, _ := cmd.Lookup("mechanism").StringValueOK()
	if mech != "PLAIN" {
		return fail
	}
	// BinData, or a base64 string (what libmongoc sends), as mongod's sasl_payload.cpp accepts both
	var payload []byte
	if _, b, ok := cmd.Lookup("payload").BinaryOK(); ok {
		payload = b
	} else if str, ok := cmd.Lookup("payload").StringValueOK(); ok {
		b, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return fail
		}
		payload = b
	} else {
		return fail
	}
	parts := strings.Split(string(payload), "\x00")
	if len(parts) != 3 {
		return fail
	}
	if pw, known := p.users[parts[1]]; !known || pw != parts[2] {
		p.log.Warn("proxy: authentication refused", "user", parts[1])
		return fail
	}
	return bson.D{{Key: "conversationId", Value: int32(1)}, {Key: "done", Value: true},
		{Key: "payload", Value: primitive.Binary{Data: []byte{}}}, {Key: "ok", Value: float64(1)}}
}

// commandError -- a command failure reply as mongod shapes it.
func commandError(code int32, codeName, msg string) bson.D {
	return bson.D{{Key: "ok", Value: float64(0)}, {Key: "errmsg", Value: msg},
		{Key: "code", Value: code}, {Key: "codeName", Value: codeName}}
}

// backendHello -- the backend's own hello reply, fetched until it once succeeds: the sizes and wire
// versions we repeat are the ones the server behind us really has (nil while it cannot be reached).
func (p *proxy) backendHello() bson.Raw {
	p.backendMu.Lock()
	defer p.backendMu.Unlock()
	if p.backendInfo != nil {
		return p.backendInfo
	}
	c, err := net.DialTimeout("tcp", p.backend, 5*time.Second)
	if err != nil {
		return nil
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	q := &message{opCode: opMsg}
	b, err := p.reply(q, bson.D{{Key: "hello", Value: int32(1)}, {Key: "$db", Value: "admin"}})
	if err != nil {
		return nil
	}
	if _, err = c.Write(b); err != nil {
		return nil
	}
	r, err := readMessage(c)
	if err != nil {
		return nil
	}
	if doc, ok := replyDoc(r); ok {
		p.backendInfo = doc
	}
	return p.backendInfo
}

// backendValue -- a field of the backend's hello, or def when it is missing.
func (p *proxy) backendValue(key string, def any) any {
	if info := p.backendHello(); info != nil {
		if v, err := info.LookupErr(key); err == nil {
			return v
		}
	}
	return def
}

// topologyVersion -- {processId, counter}; the counter never moves because the topology never changes.
func (p *proxy) topologyVersion() bson.D {
	return bson.D{{Key: "processId", Value: p.processID}, {Key: "counter", Value: int64(0)}}
}

// electionID -- mongod's OID::fromTerm(1): 0x7fffffff, then the term as 8 big-endian bytes.
func electionID() primitive.ObjectID {
	var id primitive.ObjectID
	binary.BigEndian.PutUint32(id[0:], 0x7fffffff)
	binary.BigEndian.PutUint64(id[4:], 1)
	return id
}

// awaitHello -- for an awaitable hello naming our current topologyVersion, wait maxAwaitTimeMS (capped
// at 10 minutes) before answering, as mongod does when nothing changes.
func (p *proxy) awaitHello(cmd bson.Raw) {
	tv, ok := cmd.Lookup("topologyVersion").DocumentOK()
	if !ok {
		return
	}
	wait, ok := cmd.Lookup("maxAwaitTimeMS").AsInt64OK()
	if !ok || wait <= 0 {
		return
	}
	pid, _ := tv.Lookup("processId").ObjectIDOK()
	counter, _ := tv.Lookup("counter").AsInt64OK()
	if pid != p.processID || counter != 0 {
		return
	}
	time.Sleep(min(time.Duration(wait)*time.Millisecond, 10*time.Minute))
}

// hello -- the hello/isMaster reply of a replica-set primary or of a mongos.
func (p *proxy) hello(m *message, up *upstream, connID int32, legacy bool) bson.D {
	p.awaitHello(m.cmd)
	primaryKey := "isWritablePrimary"
	if legacy {
		primaryKey = "ismaster"
	}
	now := time.Now()
	doc := bson.D{{Key: "topologyVersion", Value: p.topologyVersion()}}
	if p.as == "replset" {
		ts := primitive.Timestamp{T: uint32(now.Unix()), I: 1}
		opTime := bson.D{{Key: "ts", Value: ts}, {Key: "t", Value: int64(1)}}
		doc = append(doc,
			bson.E{Key: "hosts", Value: bson.A{p.public}},
			bson.E{Key: "setName", Value: p.setName},
			bson.E{Key: "setVersion", Value: int32(1)},
			bson.E{Key: primaryKey, Value: true},
			bson.E{Key: "secondary", Value: false},
			bson.E{Key: "primary", Value: p.public},
			bson.E{Key: "me", Value: p.public},
			bson.E{Key: "electionId", Value: electionID()},
			bson.E{Key: "lastWrite", Value: bson.D{
				{Key: "opTime", Value: opTime},
				{Key: "lastWriteDate", Value: primitive.NewDateTimeFromTime(now.Truncate(time.Second))},
				{Key: "majorityOpTime", Value: opTime},
				{Key: "majorityWriteDate", Value: primitive.NewDateTimeFromTime(now.Truncate(time.Second))},
			}})
	} else {
		doc = append(doc, bson.E{Key: primaryKey, Value: true}, bson.E{Key: "msg", Value: "isdbgrid"})
	}
	if _, err := m.cmd.LookupErr("helloOk"); err == nil {
		doc = append(doc, bson.E{Key: "helloOk", Value: true})
	}
	doc = append(doc,
		bson.E{Key: "maxBsonObjectSize", Value: p.backendValue("maxBsonObjectSize", int32(16*1024*1024))},
		bson.E{Key: "maxMessageSizeBytes", Value: p.backendValue("maxMessageSizeBytes", int32(maxMessage))},
		bson.E{Key: "maxWriteBatchSize", Value: p.backendValue("maxWriteBatchSize", int32(100000))},
		bson.E{Key: "localTime", Value: now},
		bson.E{Key: "logicalSessionTimeoutMinutes", Value: int32(30)},
		bson.E{Key: "connectionId", Value: connID},
		bson.E{Key: "minWireVersion", Value: p.backendValue("minWireVersion", int32(0))},
		bson.E{Key: "maxWireVersion", Value: p.backendValue("maxWireVersion", int32(21))})
	if p.as == "replset" {
		doc = append(doc, bson.E{Key: "readOnly", Value: false})
	}
	return append(doc, bson.E{Key: "ok", Value: float64(1)})
}

// replSetGetStatus -- a minimal status of the one-member set: this instance, PRIMARY.
func (p *proxy) replSetGetStatus() bson.D {
	now := time.Now()
	ts := primitive.Timestamp{T: uint32(now.Unix()), I: 1}
	opTime := bson.D{{Key: "ts", Value: ts}, {Key: "t", Value: int64(1)}}
	member := bson.D{
		{Key: "_id", Value: int32(0)},
		{Key: "name", Value: p.public},
		{Key: "health", Value: float64(1)},
		{Key: "state", Value: int32(1)},
		{Key: "stateStr", Value: "PRIMARY"},
		{Key: "uptime", Value: int32(time.Since(p.start).Seconds())},
		{Key: "optime", Value: opTime},
		{Key: "optimeDate", Value: now.Truncate(time.Second)},
		{Key: "electionTime", Value: primitive.Timestamp{T: uint32(p.start.Unix()), I: 1}},
		{Key: "electionDate", Value: p.start.Truncate(time.Second)},
		{Key: "configVersion", Value: int32(1)},
		{Key: "configTerm", Value: int32(1)},
		{Key: "self", Value: true},
	}
	return bson.D{
		{Key: "set", Value: p.setName},
		{Key: "date", Value: now},
		{Key: "myState", Value: int32(1)},
		{Key: "term", Value: int64(1)},
		{Key: "heartbeatIntervalMillis", Value: int64(2000)},
		{Key: "members", Value: bson.A{member}},
		{Key: "ok", Value: float64(1)},
	}
}

// listShards -- {shards: [{_id: "shard0", host, state: 1, topologyTime}], ok: 1}.
func (p *proxy) listShards() bson.D {
	shards := bson.A{}
	for i, h := range p.shards {
		shards = append(shards, bson.D{
			{Key: "_id", Value: "shard" + strconv.Itoa(i)},
			{Key: "host", Value: h},
			{Key: "state", Value: int32(1)},
			{Key: "topologyTime", Value: primitive.Timestamp{T: uint32(p.start.Unix()), I: 1}},
		})
	}
	return bson.D{{Key: "shards", Value: shards}, {Key: "ok", Value: float64(1)}}
}

// serverStatus -- forward serverStatus, then make the reply this personality's: process "mongod" (and a
// repl section for replset), or for mongos the router's own identity without storage sections.
func (p *proxy) serverStatus(m *message, up *upstream) ([][]byte, error) {
	replies, err := up.roundTrip(m)
	if err != nil {
		return nil, err
	}
	if len(replies) != 1 {
		out := make([][]byte, len(replies))
		for i, r := range replies {
			out[i] = r.raw
		}
		return out, nil
	}
	doc, ok := replyDoc(replies[0])
	if !ok || replies[0].opCode != opMsg && m.opCode == opMsg {
		return [][]byte{replies[0].raw}, nil
	}
	if okv, _ := doc.Lookup("ok").AsInt64OK(); okv != 1 {
		return [][]byte{replies[0].raw}, nil
	}
	elems, err := doc.Elements()
	if err != nil {
		return [][]byte{replies[0].raw}, nil
	}
	uptime := time.Since(p.start)
	out := bson.D{}
	for _, e := range elems {
		key := e.Key()
		var v any = e.Value()
		switch {
		case key == "process" && p.as == "mongos":
			v = "mongos"
		case key == "process":
			v = "mongod"
		case p.as != "mongos":
		case key == "host":
			host, _ := os.Hostname()
			_, port, _ := net.SplitHostPort(p.public)
			v = host + ":" + port
		case key == "pid":
			v = int64(os.Getpid())
		case key == "uptime":
			v = uptime.Seconds()
		case key == "uptimeMillis":
			v = uptime.Milliseconds()
		case key == "uptimeEstimate":
			v = int64(uptime.Seconds())
		case key == "wiredTiger" || key == "storageEngine" || key == "catalogStats":
			continue
		}
		if key == "ok" && p.as == "replset" {
			hello := p.hello(&message{cmd: bson.Raw{5, 0, 0, 0, 0}}, up, 0, false)
			repl := bson.D{}
			for _, h := range hello {
				switch h.Key {
				case "topologyVersion", "hosts", "setName", "setVersion", "isWritablePrimary",
					"secondary", "primary", "me", "electionId", "lastWrite":
					repl = append(repl, h)
				}
			}
			out = append(out, bson.E{Key: "repl", Value: repl})
		}
		out = append(out, bson.E{Key: key, Value: v})
	}
	b, err := p.reply(m, out)
	if err != nil {
		return nil, err
	}
	return [][]byte{b}, nil
}
