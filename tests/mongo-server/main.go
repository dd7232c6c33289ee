// Command ferretdb-test-server runs FerretDB v1.24.2 (embedded, SQLite backend) as layoutlab's
// MongoDB-compatible test server. It exists because `go install .../cmd/ferretdb@v1.24.2` builds a binary
// that panics at start (FerretDB issue #2982: build/version/version.txt is not in the module zip); the
// embeddable package does not need that file when the main module is not FerretDB itself.
//
// Modes (scripts/mongo-test-server.sh drives them):
//
//	ferretdb-test-server -dir DATA -listen 127.0.0.1:PORT [-log FILE] [-as mongod|replset] [-set NAME]
//	    serve until SIGTERM/SIGINT: FerretDB on an internal loopback port, behind the personality proxy
//	ferretdb-test-server -listen 127.0.0.1:PORT -as mongos -shard 127.0.0.1:PORT2 [-log FILE]
//	    a router: no FerretDB of its own, forwards to the shard instance (started separately)
//	ferretdb-test-server -ping 127.0.0.1:PORT [-timeout 2s]              exit 0 when {ping: 1} answers ok: 1
//	ferretdb-test-server -free-port                                      print a free TCP port on 127.0.0.1
//
// The personalities (proxy.go, diskstats.go) answer what FerretDB lacks -- getDiagnosticData, a replica
// set primary's or a mongos's hello, replSetGetStatus, listShards -- following mongod's source field for
// field; the header comments there name the source file each reply follows.
//
// The ping speaks just enough of the wire protocol (one OP_MSG) that the readiness check needs neither
// libmongoc nor a MongoDB Go driver.
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	dir := flag.String("dir", "", "data directory (SQLite files), created if missing")
	listen := flag.String("listen", "", "TCP address to listen on, e.g. 127.0.0.1:27018")
	logPath := flag.String("log", "", "log file (default: DIR/ferretdb.log)")
	logLevel := flag.String("log-level", "warn", "log level: debug, info, warn, error")
	ping := flag.String("ping", "", "ping the server at host:port and exit 0 when it answers ok")
	timeout := flag.Duration("timeout", 2*time.Second, "timeout of -ping")
	freePort := flag.Bool("free-port", false, "print a free TCP port on 127.0.0.1 and exit")
	as := flag.String("as", "mongod", "personality: mongod, replset or mongos")
	setName := flag.String("set", "rs0", "replica set name of -as replset")
	shard := flag.String("shard", "", "-as mongos: the shard instance's host:port")
	auth := flag.Bool("auth", false, "answer saslStart here (PLAIN) with the users of -users; others are refused")
	usersFlag := flag.String("users", "", "-auth: USER:PASSWORD[,USER:PASSWORD...] (empty: no user at all)")
	flag.Parse()
	authUsers = map[string]string{}
	authOn = *auth
	for _, up := range strings.Split(*usersFlag, ",") {
		if u, pw, ok := strings.Cut(up, ":"); ok && u != "" {
			authUsers[u] = pw
		}
	}

	var err error
	switch {
	case *freePort:
		err = printFreePort()
	case *ping != "":
		err = pingServer(*ping, *timeout)
	case *as == "mongos" && *listen != "" && *shard != "":
		err = serveRouter(*listen, *shard, *logPath, *logLevel)
	case *dir != "" && *listen != "" && (*as == "mongod" || *as == "replset"):
		err = serve(*dir, *listen, *logPath, *logLevel, *as, *setName)
	default:
		fmt.Fprintln(os.Stderr, "ferretdb-test-server: give -dir and -listen [-as mongod|replset], or -as mongos -listen and -shard, or -ping ADDR, or -free-port (see -h)")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-test-server: %v\n", err)
		os.Exit(1)
	}
}

// authOn and authUsers -- the -auth and -users flags, for every proxy this process runs.
var (
	authOn    bool
	authUsers map[string]string
)

// openLog -- the text logger writing to logPath (appending), and the file to close at the end.
func openLog(logPath, logLevel string) (*slog.Logger, *os.File, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return nil, nil, fmt.Errorf("-log-level %q: %v", logLevel, err)
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	logger := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)
	return logger, logFile, nil
}

// runProxy -- serve the personality proxy on l until ctx ends, then close the listener.
func runProxy(ctx context.Context, p *proxy, l net.Listener) <-chan error {
	done := make(chan error, 1)
	go func() { done <- p.serve(l) }()
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	return done
}

// serve -- run FerretDB on SQLite files in dir on an internal loopback port, with the personality proxy
// (-as mongod or replset) on listen, until SIGTERM or SIGINT, then shut down gracefully.
func serve(dir, listen, logPath, logLevel, as, setName string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err = os.MkdirAll(abs, 0o755); err != nil {
		return err
	}
	if logPath == "" {
		logPath = filepath.Join(abs, "ferretdb.log")
	}
	logger, logFile, err := openLog(logPath, logLevel)
	if err != nil {
		return err
	}
	defer logFile.Close()

	// Fail fast and clearly when the port is taken; the proxy keeps the public port from here on.
	public, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %v", listen, err)
	}
	defer public.Close()
	internal, err := freeAddr()
	if err != nil {
		return err
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: internal},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
	})
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	logger.Warn("ferretdb-test-server starting", "listen", listen, "as", as, "ferretdb", internal,
		"dir", abs, "pid", os.Getpid())
	proxyDone := runProxy(ctx, newProxy(as, listen, internal, setName, nil, logger), public)
	err = f.Run(ctx)
	stop()
	if perr := <-proxyDone; err == nil {
		err = perr
	}
	logger.Warn("ferretdb-test-server stopped", "err", err)
	return err
}

// serveRouter -- run the mongos personality on listen, forwarding to the shard, until SIGTERM or SIGINT.
func serveRouter(listen, shard, logPath, logLevel string) error {
	if logPath == "" {
		return errors.New("-as mongos needs -log FILE")
	}
	logger, logFile, err := openLog(logPath, logLevel)
	if err != nil {
		return err
	}
	defer logFile.Close()
	public, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %v", listen, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	logger.Warn("ferretdb-test-server starting", "listen", listen, "as", "mongos", "shard", shard,
		"pid", os.Getpid())
	err = <-runProxy(ctx, newProxy("mongos", listen, shard, "", []string{shard}, logger), public)
	logger.Warn("ferretdb-test-server stopped", "err", err)
	return err
}

// freeAddr -- a free 127.0.0.1:PORT chosen by the kernel (released before it is returned).
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// printFreePort -- bind 127.0.0.1:0, print the port the kernel chose, release it.
func printFreePort() error {
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	_, port, _ := net.SplitHostPort(addr)
	fmt.Println(port)
	return nil
}

// bsonDoc -- encode a flat document of int32 / string fields (enough for {ping: 1, $db: "admin"}).
func bsonDoc(fields ...any) []byte {
	body := []byte{}
	for i := 0; i+1 < len(fields); i += 2 {
		name := fields[i].(string)
		switch v := fields[i+1].(type) {
		case int32:
			body = append(body, 0x10)
			body = append(append(body, name...), 0)
			body = binary.LittleEndian.AppendUint32(body, uint32(v))
		case string:
			body = append(body, 0x02)
			body = append(append(body, name...), 0)
			body = binary.LittleEndian.AppendUint32(body, uint32(len(v)+1))
			body = append(append(body, v...), 0)
		}
	}
	doc := binary.LittleEndian.AppendUint32(nil, uint32(len(body)+5))
	return append(append(doc, body...), 0)
}

// okField -- the numeric value of the top-level "ok" field of a BSON document.
func okField(doc []byte) (float64, error) {
	if len(doc) < 5 {
		return 0, errors.New("short reply document")
	}
	p := 4
	for p < len(doc)-1 {
		t := doc[p]
		p++
		end := p
		for end < len(doc) && doc[end] != 0 {
			end++
		}
		if end >= len(doc) {
			return 0, errors.New("malformed reply document")
		}
		name := string(doc[p:end])
		p = end + 1
		var size int
		switch t {
		case 0x01: // double
			if name == "ok" && p+8 <= len(doc) {
				return math.Float64frombits(binary.LittleEndian.Uint64(doc[p:])), nil
			}
			size = 8
		case 0x10: // int32
			if name == "ok" && p+4 <= len(doc) {
				return float64(int32(binary.LittleEndian.Uint32(doc[p:]))), nil
			}
			size = 4
		case 0x12, 0x09, 0x11: // int64, date, timestamp
			if name == "ok" && t == 0x12 && p+8 <= len(doc) {
				return float64(int64(binary.LittleEndian.Uint64(doc[p:]))), nil
			}
			size = 8
		case 0x08: // bool
			if name == "ok" && p < len(doc) {
				if doc[p] != 0 {
					return 1, nil
				}
				return 0, nil
			}
			size = 1
		case 0x02, 0x0D, 0x0E: // string-like
			if p+4 > len(doc) {
				return 0, errors.New("malformed reply document")
			}
			size = 4 + int(binary.LittleEndian.Uint32(doc[p:]))
		case 0x03, 0x04: // document, array
			if p+4 > len(doc) {
				return 0, errors.New("malformed reply document")
			}
			size = int(binary.LittleEndian.Uint32(doc[p:]))
		case 0x05: // binary
			if p+4 > len(doc) {
				return 0, errors.New("malformed reply document")
			}
			size = 5 + int(binary.LittleEndian.Uint32(doc[p:]))
		case 0x07: // ObjectId
			size = 12
		case 0x0A, 0x06, 0x7F, 0xFF: // null, undefined, maxKey, minKey
			size = 0
		case 0x13: // decimal128
			size = 16
		default:
			return 0, fmt.Errorf("reply has BSON type 0x%02x before ok", t)
		}
		p += size
	}
	return 0, errors.New("reply has no ok field")
}

// pingServer -- send one OP_MSG {ping: 1, $db: "admin"} and require ok: 1 in the reply.
func pingServer(addr string, timeout time.Duration) error {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err = conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}

	doc := bsonDoc("ping", int32(1), "$db", "admin")
	msg := make([]byte, 16, 16+4+1+len(doc))
	msg = binary.LittleEndian.AppendUint32(msg, 0) // flagBits
	msg = append(msg, 0)                           // section kind 0: body
	msg = append(msg, doc...)
	binary.LittleEndian.PutUint32(msg[0:], uint32(len(msg)))
	binary.LittleEndian.PutUint32(msg[4:], 1)     // requestID
	binary.LittleEndian.PutUint32(msg[8:], 0)     // responseTo
	binary.LittleEndian.PutUint32(msg[12:], 2013) // OP_MSG
	if _, err = conn.Write(msg); err != nil {
		return err
	}

	hdr := make([]byte, 16)
	if _, err = io.ReadFull(conn, hdr); err != nil {
		return fmt.Errorf("reading reply header: %v", err)
	}
	n := int(binary.LittleEndian.Uint32(hdr))
	if n < 16+5+5 || n > 48000000 {
		return fmt.Errorf("reply of implausible length %d", n)
	}
	if op := binary.LittleEndian.Uint32(hdr[12:]); op != 2013 {
		return fmt.Errorf("reply opcode %d, expected OP_MSG (2013)", op)
	}
	rest := make([]byte, n-16)
	if _, err = io.ReadFull(conn, rest); err != nil {
		return fmt.Errorf("reading reply: %v", err)
	}
	if rest[4] != 0 {
		return fmt.Errorf("reply section kind %d, expected 0", rest[4])
	}
	ok, err := okField(rest[5:])
	if err != nil {
		return err
	}
	if ok != 1 {
		return fmt.Errorf("ping answered ok: %v", ok)
	}
	return nil
}
