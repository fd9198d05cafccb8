package cli

import (
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// holderJSON is the JSON of a grant (acl.Holder), as who-can, access and
// diff write it.
type holderJSON struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Queue     string `json:"queue"`
	ACL       string `json:"acl"`
	Inherited bool   `json:"inherited"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}

func toHolderJSON(h *acl.Holder) *holderJSON {
	if h == nil {
		return nil
	}
	return &holderJSON{h.Kind, h.Name, h.Queue, h.ACL, h.Inherited, h.Pos.File, h.Pos.Line, h.Pos.Col}
}

func holdersJSON(hs []acl.Holder) []holderJSON {
	out := []holderJSON{}
	for i := range hs {
		out = append(out, *toHolderJSON(&hs[i]))
	}
	return out
}
