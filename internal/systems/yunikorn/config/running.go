package config

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// A running scheduler's config is what yunikorn-core answers on
// GET /ws/v1/config (webservice.getClusterConfig): its SchedulerConfig as
// loaded, inline with the settings the shim passed (extra) and the
// deadlock detection settings (dao.ConfigDAOInfo), as YAML, or as JSON with
// Go's field names when asked with Accept: application/json. Its queue
// config is the one YuniKorn runs, re-marshalled from what it parsed; its
// checksum is that of the config text it was given (configs.SetChecksum).

// Running says a document is a running scheduler's config, and what it
// carried besides the queue config.
type Running struct {
	JSON     bool   // the JSON form (Go field names)
	Checksum string // the checksum of the config text the scheduler loaded
	// ChecksumPos is where the checksum is written; zero when absent
	ChecksumPos Position
	// Extra are the settings the shim passed along (the ConfigMaps' other
	// keys, flattened), also the document's Settings
	Extra map[string]Setting
	// Unknown are the fields the decoder read past: a newer scheduler's
	Unknown []string
}

// RunningSource names the settings of a running scheduler's config.
const RunningSource = "the running scheduler (extra)"

// dumpKeys are the keys of the dump beside the SchedulerConfig's.
var dumpKeys = map[string]bool{"extra": true, "deadlockdetectionenabled": true, "deadlocktimeoutseconds": true}

// isRunningDump reports whether a top-level mapping is a running
// scheduler's config: its checksum (64 upper-case hex digits, as core
// writes it) beside partitions, and a key only the dump has (extra, the
// deadlock settings). The JSON form has Go's field names and is a flow
// mapping. A queues.yaml with a stray extra: key, or Partitions: in
// capitals, is none of these and stays the file YuniKorn refuses.
func isRunningDump(top *yaml.Node) bool {
	if top == nil || top.Kind != yaml.MappingNode {
		return false
	}
	json := top.Style&yaml.FlowStyle != 0
	partitions, checksum, dump := false, false, false
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i].Value, top.Content[i+1]
		if json {
			k = jsonKeys[k]
		}
		switch {
		case k == "partitions":
			partitions = v.Kind == yaml.SequenceNode
		case k == "checksum":
			checksum = v.Kind == yaml.ScalarNode && coreChecksum(v.Value)
		case dumpKeys[k]:
			dump = true
		}
	}
	return partitions && checksum && dump
}

// jsonKeys are the dump's top-level keys in the JSON form.
var jsonKeys = map[string]string{"Partitions": "partitions", "Checksum": "checksum", "Extra": "extra",
	"DeadlockDetectionEnabled": "deadlockdetectionenabled", "DeadlockTimeoutSeconds": "deadlocktimeoutseconds"}

func coreChecksum(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// runningDocument makes the document of a dump: its tree becomes the queue
// config YuniKorn runs (the JSON form's field names read as the YAML
// keys they are, the dump's own keys taken out), with every position kept
// in the dump as written.
func runningDocument(d *Document) *Document {
	top := d.Root
	r := &Running{Extra: map[string]Setting{}}
	if field(top, "Partitions") != nil {
		r.JSON = true
		lowerKeys(top)
	}
	kept := top.Content[:0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch {
		case k.Value == "checksum":
			if v.Kind == yaml.ScalarNode {
				r.Checksum = v.Value
				r.ChecksumPos = d.NodePos(v)
			}
		case k.Value == "extra":
			if v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					ek, ev := v.Content[j], v.Content[j+1]
					if ev.Kind == yaml.ScalarNode {
						r.Extra[ek.Value] = Setting{Value: ev.Value, Pos: d.NodePos(ev), ConfigMap: RunningSource}
					}
				}
			}
			continue
		case dumpKeys[k.Value]:
			continue
		}
		kept = append(kept, k, v)
	}
	top.Content = kept
	d.Running = r
	d.Settings = r.Extra
	return d
}

// mapFields are the fields whose values are maps with keys of the user's
// (resource names, property names, settings): their keys keep their case.
var mapFields = map[string]bool{"guaranteed": true, "max": true, "properties": true, "maxresources": true, "resourceweights": true, "extra": true}

// lowerKeys renames the JSON form's Go field names to the YAML keys yaml.v3
// gives the same fields (the name in lower case), below n, leaving the keys
// of map fields as they are.
func lowerKeys(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			k.Value = strings.ToLower(k.Value)
			if !mapFields[k.Value] {
				lowerKeys(v)
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			lowerKeys(c)
		}
	}
}

// IsRunning reports whether data is a running scheduler's config.
func IsRunning(data []byte) bool {
	var n yaml.Node
	if yaml.Unmarshal(data, &n) != nil || len(n.Content) == 0 {
		return false
	}
	return isRunningDump(n.Content[0])
}

// IsRunningWithoutConfig reports whether data is what a scheduler answers
// on GET /ws/v1/config before any config is loaded: no partitions and no
// checksum (its SchedulerConfig is nil), only the keys the dump adds.
func IsRunningWithoutConfig(data []byte) bool {
	var n yaml.Node
	if yaml.Unmarshal(data, &n) != nil || len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
		return false
	}
	top := n.Content[0]
	json := top.Style&yaml.FlowStyle != 0
	dump := false
	for i := 0; i+1 < len(top.Content); i += 2 {
		k := top.Content[i].Value
		if json {
			k = jsonKeys[k]
		}
		if !dumpKeys[k] {
			return false
		}
		dump = true
	}
	return dump
}
