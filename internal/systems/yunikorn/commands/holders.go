package commands

import (
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

func toHolderJSON(h *acl.Holder) *clikit.HolderJSON {
	if h == nil {
		return nil
	}
	return &clikit.HolderJSON{Kind: h.Kind, Name: h.Name, Queue: h.Queue, ACL: h.ACL, Inherited: h.Inherited, File: h.Pos.File, Line: h.Pos.Line, Column: h.Pos.Col}
}

func holdersJSON(hs []acl.Holder) []clikit.HolderJSON {
	out := []clikit.HolderJSON{}
	for i := range hs {
		out = append(out, *toHolderJSON(&hs[i]))
	}
	return out
}
