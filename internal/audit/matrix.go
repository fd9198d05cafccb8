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
type MatrixWriter interface {
	Head(h MatrixHead) error
	Row(r MatrixRow) error
}

// MatrixHead names a matrix's columns and parts.
type MatrixHead struct {
	System   string
	Subjects []string // column names: "everyone", "user:alice", "principal:ops"
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
}

// NoAccess is a matrix cell of a subject with no access; UnknownCell is one
// aclint cannot answer.
const (
	NoAccess    = "-"
	UnknownCell = "?"
)
