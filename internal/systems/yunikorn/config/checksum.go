package config

import (
	"crypto/sha256"
	"fmt"
	"strings"
)

// Checksum is the checksum yunikorn-core gives a config text
// (configs.SetChecksum): SHA-256, upper-case hex, of the text with its
// checksum removed as configs.GetConfigurationString removes it. That is
// not a line: from the first "checksum: " on, up to 74 characters (the
// key and 64 hex digits), with any new lines at the end of what follows
// it trimmed first, and every other occurrence of that same string too.
// aclint follows it to the letter, odd cases included.
func Checksum(text []byte) string {
	conf := string(text)
	checksum := "checksum: "
	checksumLength := 64 + len(checksum)
	if strings.Contains(conf, checksum) {
		checksum += strings.Split(conf, checksum)[1]
		checksum = strings.TrimRight(checksum, "\n")
		if len(checksum) > checksumLength {
			checksum = checksum[:checksumLength]
		}
	}
	return fmt.Sprintf("%X", sha256.Sum256([]byte(strings.ReplaceAll(conf, checksum, ""))))
}

// coreDefaultConfig is yunikorn-core's configs.DefaultSchedulerConfig as
// written there, with its first new line: the text whose checksum a
// scheduler given no config reports.
const coreDefaultConfig = "\n" + DefaultConfigText

// RegisteredChecksum is the checksum a scheduler reports after loading
// this document: the shim registers the queue config text (for
// ConfigMaps, yunikorn-configs' over yunikorn-defaults', binaryData's over
// data's: Merge), and the core loads its built-in default in place of an
// empty one (ClusterContext.processRMRegistrationEvent).
func (d *Document) RegisteredChecksum() string {
	if len(d.Registered()) == 0 {
		return Checksum([]byte(coreDefaultConfig))
	}
	return Checksum(d.Registered())
}
