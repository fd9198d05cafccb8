// Command floor is make bench's yardstick: a whole process that only reads
// its input files and decodes them the standard way, so that aclint's
// commands are measured against the cost of reading the file at all.
//
//	floor yaml FILE...   yaml.Unmarshal into a yaml.Node, per file; every
//	                     tree is kept to the end, as a command comparing
//	                     two files (diff) must keep both
//	floor json FILE...   encoding/json into an any, per file
//	floor xml FILE...    encoding/xml's tokens, the text kept, per file
//	floor write N FILE   writes N bytes like a CSV of the file's size (the
//	                     floor of a command bound by writing its output)
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"runtime"
	"strconv"

	"gopkg.in/yaml.v3"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: floor yaml|json|xml FILE... | floor write BYTES")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "xml":
		// encoding/xml reading every token, keeping the text: what any
		// reader of a Hadoop configuration file must do at least
		var kept [][]byte
		defer func() { runtime.KeepAlive(kept) }()
		for _, f := range os.Args[2:] {
			data := read(f)
			d := xml.NewDecoder(bytes.NewReader(data))
			for {
				t, err := d.Token()
				if err != nil {
					break
				}
				if c, ok := t.(xml.CharData); ok {
					kept = append(kept, bytes.Clone(c))
				}
			}
		}
	case "yaml", "json":
		var kept []any
		defer func() { runtime.KeepAlive(kept) }()
		for _, f := range os.Args[2:] {
			data := read(f)
			var err error
			if os.Args[1] == "yaml" {
				var n yaml.Node
				err = yaml.Unmarshal(data, &n)
				kept = append(kept, &n)
			} else {
				var v any
				err = json.Unmarshal(data, &v)
				kept = append(kept, v)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
	case "write":
		n, err := strconv.Atoi(os.Args[2])
		if err != nil {
			os.Exit(2)
		}
		w := bufio.NewWriter(os.Stdout)
		row := []byte("default,root.dept0.team0.q0,submit,-,admin,-,submit,-,admin\n")
		for written := 0; written < n; written += len(row) {
			_, _ = w.Write(row)
		}
		_ = w.Flush()
	default:
		os.Exit(2)
	}
}

// read is a file's bytes, or the process ends as the measured one would.
func read(f string) []byte {
	data, err := os.ReadFile(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return data
}
