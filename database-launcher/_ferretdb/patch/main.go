// Command patch prepares the build of the launcher with Hitscope's SQLite filter pushdown
// (../sqlite_pushdown.go) compiled into FerretDB's SQLite backend:
//
//	go run ./_ferretdb/patch -out DIR && go build -modfile DIR/go.mod .
//
// It copies FerretDB's module from the module cache to DIR/ferretdb, replaces the two "lone `_id`
// equality" blocks of its SQLite collection.go (Query and Explain) by a call to
// hitscopeWhereClause, adds the pushdown file and the launcher's lookup_expression.go to that
// package, lets the SQLite handler hand dotted
// keys to it (FerretDB's "nested pushdown" option, for SQLite only), and writes DIR/go.mod: the
// launcher's own, with FerretDB replaced by the copy. (`go build -overlay` would be simpler, but Go
// refuses to overlay files in the module cache.) Any other FerretDB version fails here, loudly,
// rather than building a launcher without the pushdown: the blocks are matched byte for byte.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const queryBlock = `	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
			whereClause = fmt.Sprintf(` + "` WHERE %s = ?`" + `, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}
`

const explainBlock = `	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
			filterPushdown = true
			whereClause = fmt.Sprintf(` + "` WHERE %s = ?`" + `, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}
`

func main() {
	out := flag.String("out", "", "folder for the patched copy of FerretDB and its go.mod")
	flag.Parse()
	if *out == "" {
		fail("-out is required")
	}
	if err := run(*out); err != nil {
		fail(err.Error())
	}
}

func fail(message string) {
	fmt.Fprintln(os.Stderr, "patch:", message)
	os.Exit(1)
}

func run(out string) error {
	moduleDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/FerretDB/FerretDB").Output()
	if err != nil {
		return fmt.Errorf("locating FerretDB's module (run go mod download first): %w", err)
	}
	module := strings.TrimSpace(string(moduleDir))
	pushdown, err := os.ReadFile(filepath.Join("_ferretdb", "sqlite_pushdown.go"))
	if err != nil {
		return fmt.Errorf("run this from database-launcher: %w", err)
	}
	goMod, err := os.ReadFile("go.mod")
	if err != nil {
		return err
	}
	goSum, err := os.ReadFile("go.sum")
	if err != nil {
		return err
	}

	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	copyDir := filepath.Join(absOut, "ferretdb")
	if err := os.RemoveAll(copyDir); err != nil {
		return err
	}
	if err := copyTree(module, copyDir); err != nil {
		return err
	}

	collection := filepath.Join(copyDir, "internal", "backends", "sqlite", "collection.go")
	source, err := os.ReadFile(collection)
	if err != nil {
		return err
	}
	patched := string(source)
	for _, replacement := range []struct{ block, with string }{
		{queryBlock, "\twhereClause, args = hitscopeWhereClause(params.Filter)\n"},
		{explainBlock, "\twhereClause, args = hitscopeWhereClause(params.Filter)\n\tfilterPushdown = whereClause != \"\"\n"},
	} {
		if count := strings.Count(patched, replacement.block); count != 1 {
			return fmt.Errorf("FerretDB's internal/backends/sqlite/collection.go: expected the lone-_id pushdown block once, found it %d times (another FerretDB version?)", count)
		}
		patched = strings.Replace(patched, replacement.block, replacement.with, 1)
	}
	if err := os.WriteFile(collection, []byte(patched), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(collection), "hitscope_pushdown.go"), pushdown, 0o644); err != nil {
		return err
	}
	// The expression the launcher indexes, from the launcher's own source: one definition for both.
	expression, err := os.ReadFile("lookup_expression.go")
	if err != nil {
		return err
	}
	if !strings.HasPrefix(string(expression), "package main\n") {
		return fmt.Errorf("lookup_expression.go must begin with its package clause")
	}
	expression = append([]byte("package sqlite\n"), expression[len("package main\n"):]...)
	if err := os.WriteFile(filepath.Join(filepath.Dir(collection), "hitscope_lookup_expression.go"), expression, 0o644); err != nil {
		return err
	}

	// The SQLite handler keeps dotted keys in the filters it hands the backend (FerretDB drops them
	// unless its "nested pushdown" test option is on; the embeddable package cannot set it): the
	// pushdown follows dotted paths. The PostgreSQL handler is left as it is.
	registry := filepath.Join(copyDir, "internal", "handler", "registry", "sqlite.go")
	if err := replaceOnce(registry, "\t\t\tEnableNestedPushdown:    opts.EnableNestedPushdown,\n",
		"\t\t\tEnableNestedPushdown:    true, // Hitscope: dotted paths reach the SQLite pushdown\n"); err != nil {
		return err
	}

	replace := fmt.Sprintf("\nreplace github.com/FerretDB/FerretDB => %s\n", copyDir)
	if err := os.WriteFile(filepath.Join(absOut, "go.mod"), append(goMod, replace...), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(absOut, "go.sum"), goSum, 0o644)
}

// replaceOnce replaces text that must occur exactly once in a file of the copy.
func replaceOnce(path, old, new string) error {
	source, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if count := strings.Count(string(source), old); count != 1 {
		return fmt.Errorf("%s: expected %q once, found it %d times (another FerretDB version?)", path, old, count)
	}
	return os.WriteFile(path, []byte(strings.Replace(string(source), old, new, 1)), 0o644)
}

// copyTree copies a module's files (read-only in the module cache) as writable files.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, entry os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(to, strings.TrimPrefix(path, from))
		if entry.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
