package cli

import (
	"bytes"
	"testing"

	"github.com/aclint/aclint/internal/audit"
)

// TestMatrixCodesAsCells: a matrix given as codes (MatrixHead.Words) and
// the same matrix given as cells write the same bytes in every format and
// layout, with rows marked Same or not, and --only-access alike; a code
// past the words is a cell not known (exit 2).
func TestMatrixCodesAsCells(t *testing.T) {
	words := []string{"-", "submit", "admin"}
	head := audit.MatrixHead{System: "toy", Subjects: []string{"everyone", "user:a", "group:b"}, SectionWord: "partition", ObjectWord: "queue",
		Legend: "admin (and submit) or submit", Grows: words, PathSep: "."}
	rows := []struct {
		obj   string
		codes []uint8
	}{
		{"root", []uint8{0, 0, 2}},
		{"root.a", []uint8{0, 0, 2}},
		{"root.a.b", []uint8{1, 1, 2}},
		{"root.c", []uint8{0, 0, 0}},
		{"root.c.d", []uint8{0, 0, 0}},
	}
	render := func(ask matrixAsk, codes bool) (string, error) {
		var out bytes.Buffer
		w, end := newMatrixOut(&streams{out: &out}, ask)
		h := head
		if codes {
			h.Words = words
		}
		if err := w.Head(h); err != nil {
			t.Fatal(err)
		}
		buf := make([]uint8, 3)
		for i, r := range rows {
			same := i > 0 && bytes.Equal(rows[i-1].codes, r.codes)
			row := audit.MatrixRow{Section: "default", Object: r.obj, Same: same}
			if codes {
				copy(buf, r.codes) // reused, as a system may
				row.Codes = buf
			} else {
				for _, c := range r.codes {
					row.Cells = append(row.Cells, words[c])
				}
			}
			if err := w.Row(row); err != nil {
				t.Fatal(err)
			}
		}
		err := end()
		return out.String(), err
	}
	for _, output := range []string{"text", "csv", "json"} {
		for _, layout := range []string{"grid", "list"} {
			for _, only := range []bool{false, true} {
				ask := matrixAsk{output: output, layout: layout, only: only, width: 120}
				want, err1 := render(ask, false)
				got, err2 := render(ask, true)
				if got != want || (err1 == nil) != (err2 == nil) {
					t.Errorf("%s %s only=%v: codes give\n%s\ncells give\n%s", output, layout, only, got, want)
				}
				if want == "" {
					t.Errorf("%s %s: nothing written", output, layout)
				}
			}
		}
	}
	// the list says only what each queue adds to the one above
	out, _ := render(matrixAsk{output: "text", layout: "list", width: 120}, true)
	for _, line := range []string{"default/root  admin: group:b\n", "default/root.a  nothing new\n", "default/root.a.b  submit: everyone\n", "default/root.c  nothing new\n"} {
		if !bytes.Contains([]byte(out), []byte(line)) {
			t.Errorf("the list lacks %q:\n%s", line, out)
		}
	}
	// a code past the words is not known
	var o bytes.Buffer
	w, end := newMatrixOut(&streams{out: &o}, matrixAsk{output: "csv", layout: "grid"})
	h := head
	h.Words = words
	w.Head(h)
	w.Row(audit.MatrixRow{Section: "default", Object: "root", Codes: []uint8{0, 7, 1}})
	if err := end(); err == nil || !bytes.Contains(o.Bytes(), []byte("root,-,?,submit")) {
		t.Errorf("a code past the words: %v\n%s", err, o.String())
	}
}
