// Command hitscope-db runs an embedded FerretDB (SQLite backend) on loopback for Hitscope.
//
// It prints one JSON line {"uri": "mongodb://..."} on stdout once it listens, and stops when it
// receives SIGINT/SIGTERM or when its standard input closes (the parent Node process died), so an
// orphaned database never outlives the app that started it.
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
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on (port 0 picks a free port)")
	dataDir := flag.String("data", "data/db", "directory for the SQLite files")
	watchStdin := flag.Bool("watch-stdin", true, "exit when standard input closes")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	if err := run(*listen, *dataDir, *watchStdin, *logLevel); err != nil {
		fmt.Fprintf(os.Stderr, "hitscope-db: %v\n", err)
		os.Exit(1)
	}
}

func run(listen, dataDir string, watchStdin bool, logLevel string) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return fmt.Errorf("bad -log-level %q: %w", logLevel, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return fmt.Errorf("cannot create data directory %s: %w", abs, err)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
	})
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

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()

	line, _ := json.Marshal(map[string]string{"uri": f.MongoDBURI()})
	fmt.Println(string(line))

	return <-done
}
