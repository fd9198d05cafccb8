// Command floor is make bench's yardstick: a whole process that only reads
// its input files and decodes them the standard way, so that aclint's
// commands are measured against the cost of reading the file at all.
//
//	floor yaml FILE...   yaml.v3 into a yaml.Node, per document of each file;
//	                     every tree is kept to the end, as a command
//	                     comparing two files (diff) must keep both
//	floor configmaps FILE  each ConfigMap document, and each data value's
//	                     YAML as a second tree (embedded queue configs)
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
	"errors"
	"fmt"
	"io"
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
	case "configmaps":
		// every ConfigMap document, and the YAML text of each data value:
		// what any reader of a file of embedded queue configs must decode
		var kept []*yaml.Node
		defer func() { runtime.KeepAlive(kept) }()
		dec := yaml.NewDecoder(bytes.NewReader(read(os.Args[2])))
		for {
			var n yaml.Node
			if err := dec.Decode(&n); err != nil {
				break
			}
			kept = append(kept, &n)
			var cm struct{ Data map[string]string }
			_ = n.Decode(&cm)
			for _, v := range cm.Data {
				var inner yaml.Node
				_ = yaml.Unmarshal([]byte(v), &inner)
				kept = append(kept, &inner)
			}
		}
	case "yaml", "json":
		var kept []any
		defer func() { runtime.KeepAlive(kept) }()
		for _, f := range os.Args[2:] {
			data := read(f)
			var err error
			if os.Args[1] == "yaml" {
				// every document of the file, as a file of ConfigMaps is read
				dec := yaml.NewDecoder(bytes.NewReader(data))
				for {
					var n yaml.Node
					if err = dec.Decode(&n); err != nil {
						break
					}
					kept = append(kept, &n)
				}
				if errors.Is(err, io.EOF) {
					err = nil
				}
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
