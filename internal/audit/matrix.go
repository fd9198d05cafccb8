package audit

// Matrixer is a Loader that shows every object against every subject
// (aclint matrix): the subjects its rules name, everyone else, and the
// ones asked for. Each cell is the system's own check's answer.
type Matrixer interface {
	Loader
	Matrix(m Model, q MatrixQuestion, out MatrixWriter) error
}

// Subject is a user, group or principal asked about by name.
type Subject struct{ Kind, Name string }

// MatrixQuestion is what a matrix is asked for.
type MatrixQuestion struct {
	Subjects []Subject // --subjects: more columns
	Scope    Scope
	Action   string // --action: the one action the cells answer, when the system has a choice
}

// MatrixWriter receives a matrix: its head once, then its rows in order.
// A row's Cells may be reused for the next row once Row returns (a large
// matrix is never held): a writer that keeps a row copies them.
type MatrixWriter interface {
	Head(h MatrixHead) error
	Row(r MatrixRow) error
}

// MatrixHead names a matrix's columns and parts.
type MatrixHead struct {
	System   string
	Subjects []string // column names: Everyone, "user:alice", "principal:ops"
	// SectionWord and ObjectWord name a row's section and object in text
	// and CSV headers: "partition" and "queue", "ACL kind" and "object".
	SectionWord, ObjectWord string
	// Joiner joins a row's section and object in a text label: "/" when
	// empty (default/root.a); Mesos' paths take a space.
	Joiner string
	// Legend says what a cell's words mean, for the text output.
	Legend string
	// Grows, when set, says that access only grows down an object's path
	// (YuniKorn has no deny): it lists the cell words from the least
	// access to the most, and PathSep separates a path's parts ("."). The
	// text list then says at each object only what it adds to the nearest
	// object above it that was listed.
	Grows   []string
	PathSep string
	// Words, when set, are the words a row's Codes index: a system whose
	// cells take a few words gives each row as Codes (one byte a cell), so
	// that a matrix of a hundred million cells costs what its bytes cost.
	Words []string
	// Preamble are lines the text says before the matrix.
	Preamble []string
	Notes    []string
}

// MatrixRow is one object against every subject, a cell per column: a
// word such as "admin", "submit", "allow", "read,write"; "-" for no
// access; "?" when not known, which makes the matrix incomplete (exit 2).
type MatrixRow struct {
	Section, Object string
	Cells           []string
	// Codes are the cells as indexes into MatrixHead.Words, in place of
	// Cells (nil when the row gives Cells); an index past Words is a cell
	// not known.
	Codes []uint8
	// Same says the cells are the row before's (most objects of a large
	// tree write no rule of their own): a writer need not read them again.
	// False is always right.
	Same bool
}

// NoAccess is a matrix cell of a subject with no access; UnknownCell is one
// aclint cannot answer.
const (
	NoAccess    = "-"
	UnknownCell = "?"
)

// Everyone is the matrix column of everyone no rule names, the first.
const Everyone = "everyone"
