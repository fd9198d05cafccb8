package resources

import (
	"errors"
	"math/big"
	"regexp"
)

// kubeQuantity is the grammar of Kubernetes' resource.ParseQuantity: a
// signed decimal number, then a binary suffix (Ki..Ei), a decimal suffix
// (n, u, m, "", k, M, G, T, P, E) or a decimal exponent (e3, E-2).
var kubeQuantity = regexp.MustCompile(`^([+-]?)([0-9]*)(?:\.([0-9]*))?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$`)

var kubeSuffix = map[string]*big.Rat{
	"": big.NewRat(1, 1), "n": big.NewRat(1, 1e9), "u": big.NewRat(1, 1e6), "m": big.NewRat(1, 1e3),
	"k": big.NewRat(1e3, 1), "M": big.NewRat(1e6, 1), "G": big.NewRat(1e9, 1), "T": big.NewRat(1e12, 1),
	"P": big.NewRat(1e15, 1), "E": big.NewRat(1e18, 1),
	"Ki": big.NewRat(1<<10, 1), "Mi": big.NewRat(1<<20, 1), "Gi": big.NewRat(1<<30, 1), "Ti": big.NewRat(1<<40, 1),
	"Pi": big.NewRat(1<<50, 1), "Ei": big.NewRat(1<<60, 1),
}

// ParseKube reads a Kubernetes quantity ("500m", "1.5Gi", "2e3") and
// returns it rounded up to a whole unit (Quantity.Value) and in thousandths
// rounded up (MilliValue), as the Kubernetes shim converts a namespace's
// quota annotation: cpu in millicores, everything else in units.
func ParseKube(s string) (value, milli int64, err error) {
	m := kubeQuantity.FindStringSubmatch(s)
	if m == nil || (m[2] == "" && m[3] == "") {
		return 0, 0, errors.New("not a Kubernetes quantity")
	}
	r, _ := new(big.Rat).SetString(orZero(m[2]) + "." + orZero(m[3]))
	if suffix := m[4]; len(suffix) > 0 && (suffix[0] == 'e' || suffix[0] == 'E') && suffix != "E" {
		exp, ok := new(big.Int).SetString(suffix[1:], 10)
		if !ok || exp.CmpAbs(big.NewInt(64)) > 0 {
			return 0, 0, errors.New("exponent out of range")
		}
		scale := new(big.Int).Exp(big.NewInt(10), new(big.Int).Abs(exp), nil)
		if exp.Sign() < 0 {
			r.Quo(r, new(big.Rat).SetInt(scale))
		} else {
			r.Mul(r, new(big.Rat).SetInt(scale))
		}
	} else {
		r.Mul(r, kubeSuffix[suffix])
	}
	if m[1] == "-" {
		r.Neg(r)
	}
	v, ok1 := ceil(r)
	mv, ok2 := ceil(new(big.Rat).Mul(r, big.NewRat(1000, 1)))
	if !ok1 || !ok2 {
		return 0, 0, errors.New("quantity out of range")
	}
	return v, mv, nil
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// ceil rounds r up to an int64.
func ceil(r *big.Rat) (int64, bool) {
	q, rem := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if rem.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64(), q.IsInt64()
}
