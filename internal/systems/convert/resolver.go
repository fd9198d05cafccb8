package convert

import (
	"errors"
	"fmt"

	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// cached answers each user once: the proof asks the same users many
// times, and an LDAP server once per user (YuniKorn keeps a cache too).
// A failure that is no answer (a server that cannot be reached, memberOf
// values YuniKorn crashes on) ends the lookups: every later one fails the
// same way, and the conversion is not proven (fatal).
type cached struct {
	resolve.Resolver
	seen  map[string]cachedResult
	fatal error
}

type cachedResult struct {
	res resolve.Result
	err error
}

func newCached(r resolve.Resolver) resolve.Resolver {
	if r == nil {
		return nil
	}
	return &cached{Resolver: r, seen: map[string]cachedResult{}}
}

func (c *cached) Resolve(user string) (resolve.Result, error) {
	if c.fatal != nil {
		return resolve.Result{}, c.fatal
	}
	if v, ok := c.seen[user]; ok {
		return v.res, v.err
	}
	res, err := c.Resolver.Resolve(user)
	var unreachable *resolve.UnreachableError
	var crash *resolve.CrashError
	if errors.As(err, &unreachable) || errors.As(err, &crash) {
		c.fatal = err
	}
	c.seen[user] = cachedResult{res, err}
	return res, err
}

// noAnswer is the error that ends a conversion whose resolver gave no
// answer for a user, or nil.
func noAnswer(r resolve.Resolver) error {
	c, ok := r.(*cached)
	if !ok || c.fatal == nil {
		return nil
	}
	return fmt.Errorf("the %s resolver gave no answer: %v: aclint cannot know the groups the cluster gives, so the conversion is not proven (check the resolver's settings, or prove without it)", c.Name(), c.fatal)
}
