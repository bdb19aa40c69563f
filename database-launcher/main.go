// Command hitscope-db runs an embedded FerretDB on loopback for Hitscope: on SQLite files in a
// folder (the default), or on a PostgreSQL database.
//
// It prints one JSON line {"uri": "mongodb://..."} on stdout once it listens, and stops when it
// receives SIGINT/SIGTERM or when its standard input closes (the parent Node process died), so an
// orphaned database never outlives the app that started it.
//
// Beside FerretDB it keeps the indexes FerretDB's queries can use (indexes.go): FerretDB creates
// its indexes on expressions its own queries do not use, so without these every lookup, even by
// _id, reads the whole table.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on (port 0 picks a free port)")
	handler := flag.String("handler", "sqlite", "storage: sqlite (files under -data) or postgresql (-postgresql-url)")
	dataDir := flag.String("data", "data/db", "directory for the SQLite files")
	postgresqlURL := flag.String("postgresql-url", "", "PostgreSQL connection string, for -handler postgresql")
	indexInterval := flag.Duration("index-interval", time.Second, "how often new collections are given their lookup indexes (0: never)")
	watchStdin := flag.Bool("watch-stdin", true, "exit when standard input closes")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()
	tuneGarbageCollector()

	if err := run(*listen, *handler, *dataDir, *postgresqlURL, *indexInterval, *watchStdin, *logLevel); err != nil {
		fmt.Fprintf(os.Stderr, "hitscope-db: %v\n", err)
		os.Exit(1)
	}
}

func run(listen, handler, dataDir, postgresqlURL string, indexInterval time.Duration, watchStdin bool, logLevel string) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return fmt.Errorf("bad -log-level %q: %w", logLevel, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	config := &ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: listen},
		Logger:   logger,
		Handler:  handler,
	}
	var indexes indexKeeper
	switch handler {
	case "sqlite":
		abs, err := filepath.Abs(dataDir)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(abs, 0o700); err != nil {
			return fmt.Errorf("cannot create data directory %s: %w", abs, err)
		}
		// synchronous(normal): in WAL mode a commit is written to the log without waiting for the
		// disk; the log is synced at each checkpoint. A crash of the process loses nothing; a power
		// cut may lose the last commits, as MongoDB's default journal (synced every 100 ms) does.
		// FULL (SQLite's default) waits for an fsync at every write: ~0.2 ms each here, on the one
		// connection every request shares.
		// temp_store(memory): SQLite's temporary files in memory. Each write inside a transaction
		// keeps the pages it changes in a statement journal (to undo that statement alone); past
		// 64 KiB that journal went to a temporary file, and an order's update (its row and 29 indexes)
		// is more: 17 % of the database's CPU in bulk updates was writing it (1 090–1 310 against
		// 1 390–1 650 µs per lone update of an order-shaped document without it).
		config.SQLiteURL = "file:" + abs + "/?_pragma=synchronous(normal)&_pragma=temp_store(memory)"
		indexes = &sqliteIndexes{dir: abs, logger: logger}
	case "postgresql":
		if postgresqlURL == "" {
			return fmt.Errorf("-handler postgresql needs -postgresql-url")
		}
		config.PostgreSQLURL = postgresqlURL
		indexes = &postgresqlIndexes{url: postgresqlURL, logger: logger}
	default:
		return fmt.Errorf("unknown -handler %q: sqlite or postgresql", handler)
	}

	f, err := ferretdb.New(config)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if watchStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}

	// HITSCOPE_DB_CPUPROFILE=<file>: a CPU profile of the whole run, written when it stops (`npm run
	// bench` sets it beside the app's with BENCH_PROFILE; read it with `go tool pprof`).
	if path := os.Getenv("HITSCOPE_DB_CPUPROFILE"); path != "" {
		profile, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("cannot write the CPU profile: %w", err)
		}
		if err := pprof.StartCPUProfile(profile); err != nil {
			return fmt.Errorf("cannot start the CPU profile: %w", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = profile.Close()
		}()
	}

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()

	// The lookup indexes of existing collections are in place before the URI is announced, so the
	// app's first queries already use them; later collections get theirs within indexInterval.
	// The loop is over before its connections are closed.
	var keeping sync.WaitGroup
	if indexInterval > 0 {
		indexes.ensure(ctx)
		keeping.Add(1)
		go func() {
			defer keeping.Done()
			keepIndexes(ctx, indexes, indexInterval)
		}()
	}

	line, _ := json.Marshal(map[string]string{"uri": f.MongoDBURI()})
	fmt.Println(string(line))

	err = <-done
	stop() // FerretDB may also stop by itself
	keeping.Wait()
	indexes.close()
	return err
}

// tuneGarbageCollector lets the heap grow to five times what is live between collections (Go's
// default: twice), under a soft limit of 1 GiB. FerretDB allocates for every command (documents
// decoded, encoded, copied); in `npm run bench`'s webhook run this took the database's CPU per event
// from 11.1-12.9 ms to 9.7-11.4 ms, for a resident size of 82 MB instead of 51. GOGC and GOMEMLIMIT,
// when set, win.
func tuneGarbageCollector() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}
