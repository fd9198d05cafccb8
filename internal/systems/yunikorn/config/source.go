package config

import (
	"path/filepath"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"

	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// DefaultKey is the ConfigMap key YuniKorn reads: "<policyGroup>.yaml" with
// the default policy group "queues".
const DefaultKey = "queues.yaml"

// ConfigMap names the YuniKorn scheduler reads, in the order it merges them.
const (
	DefaultsConfigMap = "yunikorn-defaults"
	ConfigsConfigMap  = "yunikorn-configs"
)

// DefaultConfigText is YuniKorn's built-in config, used when no config (or an
// empty one) is given.
const DefaultConfigText = `partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
    queues:
      - name: root
        submitacl: '*'
`

// LoadOptions control how inputs are read.
type LoadOptions struct {
	Key   string                    // ConfigMap data key; DefaultKey when empty
	Stdin io.Reader                 // read for "-"
	Skip  func(path, reason string) // told about every file a directory search passes over
	// MaxSize is the largest input read, and what a gzipped value may
	// inflate to (0: input.DefaultMaxSize): --max-input-size.
	MaxSize int64
	// Seen is the run's files read, where each is remembered.
	Seen *engine.ReadSet
}

func (o LoadOptions) key() string {
	if o.Key == "" {
		return DefaultKey
	}
	return o.Key
}

// InputError is an input that cannot be read or holds no queue config: a
// usage or I/O error, not a finding.
type InputError = input.Error

// KeyAbsentError is an input holding only YuniKorn's own ConfigMaps
// (yunikorn-configs, yunikorn-defaults) without the queue config key. That
// is normal: YuniKorn merges the two ConfigMaps key by key, so the key may
// come from the other one, and when neither has it the built-in default
// config applies. Callers decide whether that is an error.
type KeyAbsentError struct {
	Path       string
	Key        string
	ConfigMaps []string // the names, in file order
	// Settings are the ConfigMaps' other data keys, Source the file.
	Settings map[string]Setting
	Source   []byte
}

func (e *KeyAbsentError) Error() string {
	return fmt.Sprintf("%s: ConfigMap %s has no %s key", e.Path, strings.Join(e.ConfigMaps, ", "), e.Key)
}

// Load reads one command-line input: a file, "-" for standard input, or a
// directory searched recursively for queue configs and ConfigMaps holding
// them (read through the input pipeline). Every queue config found becomes
// a Document.
func Load(path string, opts LoadOptions) ([]*Document, error) {
	ins, err := input.Read([]string{path}, input.Options{Stdin: opts.Stdin, Skip: opts.Skip, Exts: []string{".yaml", ".yml"}, MaxSize: opts.MaxSize, Seen: opts.Seen})
	if err != nil {
		return nil, err
	}
	var docs []*Document
	for _, in := range ins {
		found, err := FromInput(in, opts)
		if err != nil && !in.Explicit {
			if opts.Skip != nil {
				opts.Skip(in.Path, SkipReason(err))
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, found...)
	}
	return docs, nil
}

// SkipReason says why a file found in a directory is not linted.
func SkipReason(err error) string { return engine.SkipReason(err) }

// SkipReason is why a ConfigMap file without the queue config key is
// passed over in a directory search.
func (ka *KeyAbsentError) SkipReason() string {
	return fmt.Sprintf("ConfigMap %s has no %s key (YuniKorn merges %s and %s key by key, so the key may come from the other one)",
		strings.Join(ka.ConfigMaps, ", "), ka.Key, ConfigsConfigMap, DefaultsConfigMap)
}

// FromInput reads the queue configs of one input: a raw queue config, or
// the ConfigMaps of a Kubernetes manifest. A file found in a directory
// search that is neither is an error saying why (SkipReason).
func FromInput(in *engine.Input, opts LoadOptions) ([]*Document, error) {
	return fromBytes(in.Path, in.Data, opts, in.Explicit)
}

// fromBytes classifies a file. A Kubernetes manifest (a ConfigMap, a List, or
// several documents with a kind) yields the queue configs of its ConfigMaps.
// Anything else is a raw queue config; when explicit is false (a directory
// search), a file that is neither is skipped.
func fromBytes(path string, data []byte, opts LoadOptions, explicit bool) ([]*Document, error) {
	// YuniKorn's default config replaces zero bytes only: a lone byte order
	// mark is a config, parsed and found to have no partitions
	zeroBytes := len(data) == 0
	raw := data
	data = normalize(data)
	manifests, isManifest, scan := scanDocuments(data)
	if isManifest {
		return manifestDocuments(path, data, manifests, opts)
	}
	if scan.parsed && scan.first != nil && len(scan.first.Content) > 0 && isRunningDump(scan.first.Content[0]) {
		d := adoptDocument(path, data, scan)
		d.zeroBytes = zeroBytes
		d.keepRaw(raw)
		return []*Document{runningDocument(d)}, nil
	}
	queueConfig := scan.hasKey("partitions") || !scan.parsed && looksLikeQueueConfig(data)
	if !queueConfig && scan.parsed && scan.first != nil && len(scan.first.Content) > 0 {
		if chart, under := chartValues(scan.first.Content[0]); chart != nil {
			return helmValues(path, data, chart, under, opts)
		}
		if explicit && helmValuesName(path) {
			// a values file with no queue config: once, and not as a
			// queue config whose every key is unknown
			return nil, &InputError{Path: path, Err: errors.New("Helm values with no YuniKorn queue config: the chart renders queues.yaml from yunikornDefaults (its queues.yaml key) or from configuration, at the top of the values or under an umbrella chart's key, and this file has neither")}
		}
	}
	if (!queueConfig || !scan.parsed) && manifestRe.Match(data) {
		// a Kubernetes manifest that is not valid YAML: report the YAML
		// error, not the manifest's keys as unknown queue config keys, and
		// offer no fix (FuzzFix found a quoted * that turned such a file
		// into a valid manifest: it was never a raw queue config)
		d := newDocument(path, data, data)
		if len(d.Problems) > 0 {
			d.Root = nil
			return []*Document{d}, nil
		}
	}
	if !explicit && !queueConfig {
		return nil, &InputError{Path: path, Err: errors.New(notQueueConfig(scan))}
	}
	var d *Document
	if scan.parsed {
		d = adoptDocument(path, data, scan) // parsed once, by the probe
	} else {
		d = newDocument(path, data, data) // a YAML error: parse with recovery
	}
	d.zeroBytes = zeroBytes
	d.keepRaw(raw)
	return []*Document{d}, nil
}

// manifestDocuments are the queue configs of the ConfigMaps in a file of
// Kubernetes manifests; an error says why there is none, and when the
// ConfigMaps lack the key, which settings they carry.
func manifestDocuments(path string, data []byte, manifests []*yaml.Node, opts LoadOptions) ([]*Document, error) {
	var docs []*Document
	var reasons, absent []string
	settings := map[string]Setting{}
	lines := &splits{} // the file's lines, split once for all its documents
	for _, m := range manifests {
		doc, reason, err := configMapDocument(path, data, lines, m, opts.key(), opts.MaxSize)
		if err != nil {
			// a binaryData value that does not inflate is the config
			// YuniKorn would fail to read: never "no config here"
			return nil, &InputError{Path: path, Err: err}
		}
		if doc != nil {
			docs = append(docs, doc)
		} else if reason != "" {
			reasons = append(reasons, reason)
			name := scalarField(field(m, "metadata"), "name")
			if (name == ConfigsConfigMap || name == DefaultsConfigMap) && field(field(m, "data"), opts.key()) == nil {
				absent = append(absent, name)
				for k, v := range configMapSettings(path, m, opts.key()) {
					settings[k] = v
				}
			}
		}
	}
	if len(docs) == 0 {
		if len(reasons) == 0 {
			return nil, &InputError{Path: path, Err: errors.New("a Kubernetes manifest without a ConfigMap")}
		}
		if len(absent) == len(reasons) {
			return nil, &KeyAbsentError{Path: path, Key: opts.key(), ConfigMaps: absent, Settings: settings, Source: data}
		}
		msg := "no ConfigMap with a " + opts.key() + " key"
		if len(reasons) > 0 {
			msg += " (" + strings.Join(reasons, "; ") + ")"
		}
		return nil, &InputError{Path: path, Err: errors.New(msg + "; name the key with --key")}
	}
	return docs, nil
}

// HelmValuesKey is the key of YuniKorn's Helm chart values whose entries the
// chart writes, each value quoted, into the data of the yunikorn-defaults
// ConfigMap (templates/yunikorn-defaults.yaml).
const HelmValuesKey = "yunikornDefaults"

// HelmConfigurationKey is the chart's older way to give the queue config: a
// string the chart writes, quoted, as queues.yaml (into yunikorn-defaults
// since the chart of YUNIKORN-1371, into yunikorn-configs before), unless
// yunikornDefaults has a queues.yaml of its own.
const HelmConfigurationKey = "configuration"

// helmLegacySettings are the chart's top-level values it writes into
// yunikorn-defaults' data under another key, unless yunikornDefaults has
// that key (templates/yunikorn-defaults.yaml).
var helmLegacySettings = []struct {
	path []string
	key  string
}{
	{[]string{"operatorPlugins"}, "service.operatorPlugins"},
	{[]string{"placeHolderImage"}, "service.placeholderImage"},
	{[]string{"admissionController", "processNamespaces"}, "admissionController.filtering.processNamespaces"},
	{[]string{"admissionController", "bypassNamespaces"}, "admissionController.filtering.bypassNamespaces"},
	{[]string{"admissionController", "labelNamespaces"}, "admissionController.filtering.labelNamespaces"},
	{[]string{"admissionController", "noLabelNamespaces"}, "admissionController.filtering.noLabelNamespaces"},
}

// isChartValues reports whether m is YuniKorn's chart values: it has
// yunikornDefaults, or a configuration string that is a queue config.
func isChartValues(m *yaml.Node) bool {
	if m == nil || m.Kind != yaml.MappingNode {
		return false
	}
	if field(m, HelmValuesKey) != nil {
		return true
	}
	c := resolve(field(m, HelmConfigurationKey))
	return c != nil && c.Kind == yaml.ScalarNode && looksLikeQueueConfig([]byte(c.Value))
}

// chartValues finds YuniKorn's chart values in a values file: at the top,
// or one level down under an umbrella chart's key (the subchart's name,
// yunikorn: in most). under is that key, "" at the top.
func chartValues(top *yaml.Node) (chart *yaml.Node, under string) {
	if top == nil || top.Kind != yaml.MappingNode {
		return nil, ""
	}
	if isChartValues(top) {
		return top, ""
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if v := resolve(top.Content[i+1]); isChartValues(v) {
			return v, top.Content[i].Value
		}
	}
	return nil, ""
}

// helmValuesName: values.yaml, values-prod.yaml, prod.values.yaml.
func helmValuesName(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	return strings.HasPrefix(base, "values") || strings.Contains(base, ".values.") || strings.HasSuffix(base, "-values.yaml") || strings.HasSuffix(base, "-values.yml")
}

// helmValues reads a Helm values file as the yunikorn-defaults ConfigMap
// its chart renders (templates/yunikorn-defaults.yaml): the legacy values
// (operatorPlugins, placeHolderImage, the admission controller's
// namespaces), then configuration as queues.yaml, each unless
// yunikornDefaults has its key, then every yunikornDefaults entry.
// Positions stay in the values file.
func helmValues(path string, data []byte, chart *yaml.Node, under string, opts LoadOptions) ([]*Document, error) {
	str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
	where := ""
	if under != "" {
		where = " (under " + under + ")"
	}
	defaults := resolve(field(chart, HelmValuesKey))
	if defaults != nil && defaults.Kind != yaml.MappingNode && !isNull(defaults) {
		return nil, &InputError{Path: path, Err: fmt.Errorf("Helm values%s: %s is not a mapping of ConfigMap keys to strings, so the chart renders no yunikorn-defaults data from it", where, HelmValuesKey)}
	}
	has := func(k string) bool {
		return defaults != nil && defaults.Kind == yaml.MappingNode && field(defaults, k) != nil
	}
	values := &yaml.Node{Kind: yaml.MappingNode}
	for _, l := range helmLegacySettings {
		v := chart
		for _, k := range l.path {
			v = resolve(field(v, k))
		}
		if v != nil && v.Kind == yaml.ScalarNode && v.Value != "" && !has(l.key) {
			values.Content = append(values.Content, str(l.key), v)
		}
	}
	if c := resolve(field(chart, HelmConfigurationKey)); c != nil && !isNull(c) && !has(DefaultKey) {
		if c.Kind != yaml.ScalarNode {
			return nil, &InputError{Path: path, Err: fmt.Errorf("Helm values%s: %s is not a string, and the chart writes it quoted as %s: write the queue config as a block string (configuration: |)", where, HelmConfigurationKey, DefaultKey)}
		}
		values.Content = append(values.Content, str(DefaultKey), c)
	}
	if defaults != nil && defaults.Kind == yaml.MappingNode {
		values.Content = append(values.Content, defaults.Content...)
	}
	cm := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		str("kind"), str("ConfigMap"),
		str("metadata"), {Kind: yaml.MappingNode, Content: []*yaml.Node{str("name"), str(DefaultsConfigMap)}},
		str("data"), values,
	}}
	doc, reason, err := configMapDocument(path, data, &splits{}, cm, opts.key(), opts.MaxSize)
	if err != nil {
		return nil, &InputError{Path: path, Err: err}
	}
	if doc == nil {
		if field(values, opts.key()) == nil {
			return nil, &KeyAbsentError{Path: path, Key: opts.key(), ConfigMaps: []string{DefaultsConfigMap}, Settings: configMapSettings(path, cm, opts.key()), Source: data}
		}
		return nil, &InputError{Path: path, Err: errors.New("Helm values: " + reason)}
	}
	doc.Helm = true
	doc.HelmUnder = under
	return []*Document{doc}, nil
}

// manifestRe finds a top-level apiVersion or kind key.
var manifestRe = regexp.MustCompile(`(?m)^(apiVersion|kind):[ \t]*\S`)

// looksLikeQueueConfig is the fallback for files that are not valid YAML
// (a queue config with a YAML error is still a queue config to lint): a
// partitions key at the start of a line, indented or not, or in flow style.
func looksLikeQueueConfig(data []byte) bool {
	return partitionsKeyRe.Match(data)
}

var partitionsKeyRe = regexp.MustCompile(`(?m)(^[ \t]*|[{,][ \t]*)["']?partitions["']?[ \t]*:`)

// notQueueConfig says why a file found in a directory is not linted.
func notQueueConfig(scan docScan) string {
	switch {
	case !scan.parsed:
		return "not valid YAML, and no partitions key in it: not a queue config"
	case scan.hasKey("yunikornDefaults") || scan.hasKey("yunikornDefault"):
		return "Helm values (yunikornDefaults): the chart renders them into the yunikorn-defaults ConfigMap; lint the rendered ConfigMap (helm template ... | aclint lint -)"
	case len(scan.firstKeys) == 0:
		return "no top-level mapping: neither a queue config nor a ConfigMap holding one"
	}
	keys := scan.firstKeys
	if len(keys) > 5 {
		keys = append(keys[:5:5], "...")
	}
	return fmt.Sprintf("no top-level partitions key (keys: %s): neither a queue config nor a ConfigMap holding one", strings.Join(keys, ", "))
}

// scanDocuments decodes data as Kubernetes objects. It reports false when
// data is not a manifest (not YAML, or no document has apiVersion and kind),
// and says what the documents are: whether the YAML parsed, and the keys of
// the first document's top-level mapping (the only document YuniKorn
// reads), so that files are recognised by their keys, whatever their
// indentation or style.
// docScan is what scanDocuments learned about a file.
type docScan struct {
	parsed    bool     // every document read is valid YAML
	firstKeys []string // top-level keys of the first document, when a mapping
	// for adoptDocument: the first document, how many were decoded, the
	// decoder, and whether it reached the end
	first    *yaml.Node
	docs     int
	next     func(*yaml.Node) error // the next document, io.EOF at the end
	complete bool
}

func (d docScan) hasKey(k string) bool {
	for _, x := range d.firstKeys {
		if x == k {
			return true
		}
	}
	return false
}

func scanDocuments(data []byte) ([]*yaml.Node, bool, docScan) {
	var out []*yaml.Node
	scan := docScan{next: documents(data)}
	isManifest := false
	for i := 0; ; i++ {
		var n yaml.Node
		err := scan.next(&n)
		if errors.Is(err, io.EOF) {
			scan.complete = true
			break
		}
		if err != nil {
			return nil, false, docScan{firstKeys: scan.firstKeys}
		}
		scan.docs++
		if i == 0 {
			scan.first = &n
		}
		if len(n.Content) == 0 {
			continue
		}
		top := n.Content[0]
		if top.Kind != yaml.MappingNode {
			continue
		}
		if i == 0 {
			for j := 0; j+1 < len(top.Content); j += 2 {
				scan.firstKeys = append(scan.firstKeys, top.Content[j].Value)
			}
		}
		if field(top, "partitions") != nil {
			scan.parsed = true
			return nil, false, scan
		}
		kind := scalarField(top, "kind")
		if kind == "" || scalarField(top, "apiVersion") == "" {
			continue
		}
		isManifest = true
		out = append(out, expandList(top)...)
	}
	scan.parsed = true
	return out, isManifest, scan
}

// documents returns a reader of the YAML documents of data, one per call.
// A stream holds a second document only where a line starts with a
// document marker ("---" or "..."), or after a first document whose top
// node ends before the text does (a flow collection or a scalar followed
// by more text). So when there is no marker past a leading "---" and the
// first document is a block mapping or list starting in the first column
// (every queue config, every manifest), that document is the only one and
// it is decoded as yaml.Unmarshal does, from the bytes, which costs about a
// tenth less than yaml.v3's reader-based decoder on a large file. Both run
// the same parser on the same text: the node and any error are the same
// (FuzzDocuments). Anything else is read with the decoder.
func documents(data []byte) func(*yaml.Node) error {
	var dec *yaml.Decoder
	decode := func(n *yaml.Node) error {
		if dec == nil {
			dec = yaml.NewDecoder(bytes.NewReader(data))
		}
		return dec.Decode(n)
	}
	if !singleDocument(data) {
		return decode
	}
	calls := 0
	return func(n *yaml.Node) error {
		calls++
		if dec != nil {
			return decode(n)
		}
		if calls > 1 {
			return io.EOF
		}
		var first yaml.Node
		if err := yaml.Unmarshal(data, &first); err != nil {
			return err
		}
		if first.Kind == 0 {
			return io.EOF // no document: what the decoder reports as io.EOF
		}
		// a block collection written at column 1 ends the stream's only
		// document. Its first key or item must start on the node's own
		// line (and a key at column 1): a tag or an anchor alone on the
		// line before ("!\n 0: x\n0") puts the node's position on the
		// property, and the content after it may not end the document
		// (FuzzDocuments). Anything else goes to the decoder.
		if top := first.Content[0]; len(first.Content) == 1 && top.Column == 1 && top.Style&yaml.FlowStyle == 0 &&
			len(top.Content) > 0 && top.Content[0].Line == top.Line &&
			(top.Kind == yaml.MappingNode && top.Content[0].Column == 1 || top.Kind == yaml.SequenceNode) {
			*n = first
			return nil
		}
		return decode(n) // read again from the start, with the decoder
	}
}

// singleDocument reports whether data cannot hold a second YAML document:
// no "---" or "..." anywhere after an optional leading "---". It is
// deliberately coarse (a "---" inside a value counts too): when it says
// no, the documents are read with yaml.v3's decoder.
func singleDocument(data []byte) bool {
	rest := data
	if bytes.HasPrefix(rest, []byte("---")) {
		rest = rest[3:]
	}
	return !bytes.Contains(rest, []byte("---")) && !bytes.Contains(rest, []byte("..."))
}

// adoptDocument makes the document of a raw config from the decode the
// manifest probe already made, so that the file is parsed once: the first
// document is the config, the later ones are only counted.
func adoptDocument(file string, text []byte, scan docScan) *Document {
	d := &Document{File: file, Source: text, Text: text, parsed: text, patched: map[[2]int]bool{}}
	if scan.first == nil {
		return d
	}
	d.Docs = scan.docs
	if len(scan.first.Content) > 0 {
		d.Root = scan.first.Content[0]
	}
	if !scan.complete {
		d.Docs += laterDocuments(scan.next)
	}
	return d
}

// laterDocuments reads the rest of a stream and counts its documents. A
// broken one still counts, as a document YuniKorn skips, and ends the
// reading: the parser cannot go on past it.
func laterDocuments(next func(*yaml.Node) error) int {
	for n := 0; ; n++ {
		var more yaml.Node
		if err := next(&more); err != nil {
			if errors.Is(err, io.EOF) {
				return n
			}
			return n + 1
		}
	}
}

func expandList(top *yaml.Node) []*yaml.Node {
	if scalarField(top, "kind") != "List" && !strings.HasSuffix(scalarField(top, "kind"), "List") {
		return []*yaml.Node{top}
	}
	items := field(top, "items")
	if items == nil || items.Kind != yaml.SequenceNode {
		return nil
	}
	var out []*yaml.Node
	for _, it := range items.Content {
		if it.Kind == yaml.MappingNode {
			out = append(out, expandList(it)...)
		}
	}
	return out
}

func field(m *yaml.Node, key string) *yaml.Node {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return resolve(m.Content[i+1])
		}
	}
	return nil
}

func scalarField(m *yaml.Node, key string) string {
	if v := field(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// Setting is one data key of a ConfigMap besides the queue config, such as
// the admission controller's admissionController.accessControl.bypassAuth.
type Setting struct {
	Value     string
	Pos       Position
	ConfigMap string
}

// configMapSettings reads the string data keys of a ConfigMap except key.
func configMapSettings(path string, m *yaml.Node, key string) map[string]Setting {
	data := field(m, "data")
	if data == nil || data.Kind != yaml.MappingNode {
		return nil
	}
	name := scalarField(field(m, "metadata"), "name")
	out := map[string]Setting{}
	for i := 0; i+1 < len(data.Content); i += 2 {
		k, v := data.Content[i], resolve(data.Content[i+1])
		if k.Value == key || v == nil || v.Kind != yaml.ScalarNode {
			continue
		}
		out[k.Value] = Setting{Value: v.Value, Pos: Position{File: path, Line: v.Line, Col: v.Column}, ConfigMap: name}
	}
	return out
}

// MergeSettings flattens the settings of documents as the shim flattens its
// ConfigMaps: yunikorn-defaults first, then yunikorn-configs, key by key.
func MergeSettings(docs []*Document, absent []*KeyAbsentError) map[string]Setting {
	out := map[string]Setting{}
	for _, name := range []string{DefaultsConfigMap, ConfigsConfigMap, ""} {
		for _, ka := range absent {
			for k, v := range ka.Settings {
				if v.ConfigMap == name || name == "" && v.ConfigMap != DefaultsConfigMap && v.ConfigMap != ConfigsConfigMap {
					out[k] = v
				}
			}
		}
		for _, d := range docs {
			for k, v := range d.Settings {
				if v.ConfigMap == name || name == "" && v.ConfigMap != DefaultsConfigMap && v.ConfigMap != ConfigsConfigMap {
					out[k] = v
				}
			}
		}
	}
	return out
}

// configMapDocument extracts the queue config of one ConfigMap. binaryData
// wins over data, as in YuniKorn's shim.
func configMapDocument(path string, source []byte, lines *splits, m *yaml.Node, key string, max int64) (*Document, string, error) {
	name := scalarField(field(m, "metadata"), "name")
	if scalarField(m, "kind") != "ConfigMap" {
		return nil, "", nil
	}
	label := "ConfigMap " + name
	if bin := field(field(m, "binaryData"), key+".gz"); bin != nil {
		if bin.Kind != yaml.ScalarNode {
			return nil, "", fmt.Errorf("%s: binaryData %s.gz is not a string", label, key)
		}
		doc, err := gzipDocument(path, source, bin, key, max)
		if doc != nil {
			doc.source = lines
		}
		var tl *input.TooLargeError
		if errors.As(err, &tl) {
			return nil, "", fmt.Errorf("%s: binaryData %s.gz inflates to more than %s, aclint's input limit (a gzip bomb, or raise it with --max-input-size)", label, key, input.FormatSize(tl.Limit))
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: binaryData %s.gz: %v", label, key, err)
		}
		doc.ConfigMap, doc.ConfigMapPos = name, namePos(path, m)
		doc.Settings = configMapSettings(path, m, key)
		return doc, "", nil
	}
	v := field(field(m, "data"), key)
	if v == nil {
		return nil, label + " has no " + key, nil
	}
	if v.Kind != yaml.ScalarNode {
		return nil, fmt.Sprintf("%s: data %s is not a string", label, key), nil
	}
	doc := embeddedDocument(path, source, lines, v, []byte(v.Value))
	doc.ConfigMap, doc.Key, doc.ConfigMapPos = name, key, namePos(path, m)
	doc.Settings = configMapSettings(path, m, key)
	doc.innerName = key
	return doc, "", nil
}

// namePos is where a ConfigMap's metadata.name is written (nothing for the
// ConfigMap aclint makes of Helm values).
func namePos(path string, m *yaml.Node) Position {
	if n := field(field(m, "metadata"), "name"); n != nil && n.Line > 0 {
		return Position{File: path, Line: n.Line, Col: n.Column}
	}
	return Position{}
}

// YuniKornReads reports whether the Kubernetes shim reads a ConfigMap of
// this name: it watches exactly yunikorn-defaults and yunikorn-configs in
// its namespace.
func YuniKornReads(name string) bool {
	return name == DefaultsConfigMap || name == ConfigsConfigMap
}

func embeddedDocument(path string, source []byte, src *splits, v *yaml.Node, text []byte) *Document {
	d := &Document{File: path, Source: source, source: src, outer: newScalarMapper(src.of(source), v)}
	return d.init(text)
}

func gzipDocument(path string, source []byte, v *yaml.Node, key string, max int64) (*Document, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(v.Value), ""))
	if err != nil {
		return nil, fmt.Errorf("not valid base64: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not gzip data: %v", err)
	}
	// a gzip bomb inflates no further than any input may be large
	text, err := input.ReadAll(zr, fmt.Sprintf("%s: binaryData %s, inflated,", path, key), max)
	var tl *input.TooLargeError
	if errors.As(err, &tl) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("corrupt gzip data: %v", err)
	}
	d := &Document{File: path, Source: source, outer: pointMapper{v.Line, v.Column}, Gzipped: true}
	d.Key = key + ".gz"
	d.innerName = key + ".gz"
	return d.init(text), nil
}

// Merge picks the queue config YuniKorn would use from ConfigMap documents:
// yunikorn-configs wins over yunikorn-defaults, binaryData over data. Raw
// documents are returned as they are. When several candidates remain, the
// last one given wins and the others are reported in the returned notes.
func Merge(docs []*Document) (*Document, []string) {
	if len(docs) == 0 {
		return nil, nil
	}
	if len(docs) == 1 {
		return docs[0], nil
	}
	rank := func(d *Document) int {
		r := 0
		switch d.ConfigMap {
		case ConfigsConfigMap:
			r = 4
		case DefaultsConfigMap:
			r = 2
		}
		if d.Gzipped {
			r++
		}
		return r
	}
	ordered := append([]*Document(nil), docs...)
	sort.SliceStable(ordered, func(i, j int) bool { return rank(ordered[i]) < rank(ordered[j]) })
	chosen := ordered[len(ordered)-1]
	var notes []string
	for _, d := range ordered[:len(ordered)-1] {
		if rank(chosen) > rank(d) {
			notes = append(notes, fmt.Sprintf("%s is overridden by %s, as YuniKorn merges %s over %s and binaryData over data", d.Describe(), chosen.Describe(), ConfigsConfigMap, DefaultsConfigMap))
		} else {
			notes = append(notes, fmt.Sprintf("%s is ignored: several configs were given and none outranks another, so the last one, %s, is used", d.Describe(), chosen.Describe()))
		}
	}
	// the other settings merge key by key, as the shim flattens the maps
	chosen.Settings = MergeSettings(docs, nil)
	return chosen, notes
}

// Describe names the document for messages.
func (d *Document) Describe() string {
	if d.Running != nil {
		return d.File + " (a running scheduler's config)"
	}
	if d.ConfigMap == "" && d.Key == "" {
		return d.File
	}
	if d.Helm {
		under := ""
		if d.HelmUnder != "" {
			under = " under " + d.HelmUnder
		}
		return fmt.Sprintf("%s (Helm values%s, key %s, rendered into ConfigMap %s)", d.File, under, d.Key, d.ConfigMap)
	}
	return fmt.Sprintf("%s (ConfigMap %s, key %s)", d.File, d.ConfigMap, d.Key)
}

// EmptyReason says why YuniKorn falls back to its built-in default for an
// empty document.
func (d *Document) EmptyReason() string {
	if d.absentKey != "" {
		return d.absentKey
	}
	return d.Describe() + " is empty (zero bytes)"
}

// AbsentKeyDocument stands for the merged yunikorn-configs and
// yunikorn-defaults ConfigMaps when neither has the queue config key: YuniKorn
// then reads an empty config, and uses its built-in default.
func AbsentKeyDocument(errs []*KeyAbsentError) *Document {
	var files []string
	for _, e := range errs {
		files = append(files, e.Path)
	}
	d := newDocument(strings.Join(files, ", "), nil, nil)
	d.absentKey = fmt.Sprintf("neither %s nor %s has a %s key (%s)", ConfigsConfigMap, DefaultsConfigMap, errs[0].Key, strings.Join(files, ", "))
	return d
}

// SettingsDocument stands for ConfigMaps that hold settings but no queue
// config key, so that lint can check the settings; its config is empty.
func SettingsDocument(e *KeyAbsentError) *Document {
	d := newDocument(e.Path, e.Source, nil)
	d.ConfigMap = strings.Join(e.ConfigMaps, ", ")
	d.Key = e.Key + " (absent)"
	d.Settings = e.Settings
	return d
}

// DefaultDocument is YuniKorn's built-in config as a document.
func DefaultDocument() *Document {
	return newDocument("<yunikorn built-in default>", []byte(DefaultConfigText), []byte(DefaultConfigText))
}

// LoadBytes reads data as the file path: a raw queue config or a manifest
// of ConfigMaps, as Load does for a file named on the command line.
func LoadBytes(path string, data []byte, opts LoadOptions) ([]*Document, error) {
	return fromBytes(path, data, opts, true)
}
