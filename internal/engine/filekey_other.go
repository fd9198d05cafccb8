//go:build !unix

package engine

import "os"

// fileKey is unused where the system gives no device and inode through
// os.FileInfo (Windows): os.SameFile compares the files one by one.
type fileKey struct{}

func keyOf(os.FileInfo) (fileKey, bool) { return fileKey{}, false }
