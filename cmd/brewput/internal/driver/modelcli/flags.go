package modelcli

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/spf13/pflag"
)

// ExplainFlag rewrites the error of a flag value that did not parse to name
// the flag, the value and the form it accepts.
func ExplainFlag(err error) error {
	iv, ok := errors.AsType[*pflag.InvalidValueError](err)
	if !ok {
		return err
	}
	if c, ok := iv.GetFlag().Value.(*choice); ok {
		return fmt.Errorf("--%s %q: want %s", iv.GetFlag().Name, iv.GetValue(), c.want)
	}
	var form string
	switch iv.GetFlag().Value.Type() {
	case "int", "int8", "int16", "int32", "int64":
		form = "want a whole number, such as 4"
	case "uint", "uint8", "uint16", "uint32", "uint64":
		form = "want a whole number from 0, such as 1"
	case "float32", "float64":
		form = "want a number, such as 800 or 0.05"
	case "bool":
		form = "want true or false"
	case "intSlice", "int32Slice", "int64Slice", "uintSlice":
		form = "want whole numbers separated by commas, such as 1,10,100"
	case "stringSlice":
		form = "want names separated by commas, such as a,b"
	default:
		return err
	}
	return fmt.Errorf("invalid argument %q for %q flag: %s", iv.GetValue(), "--"+iv.GetFlag().Name, form)
}

// choice is a flag's value that is one of a few words; want says which,
// in the error of another ("table or json").
type choice struct {
	to    *string
	want  string
	words []string
}

func (c *choice) String() string { return *c.to }
func (c *choice) Type() string   { return "string" }
func (c *choice) Set(v string) error {
	if !slices.Contains(c.words, v) {
		return errors.New(c.want)
	}
	*c.to = v
	return nil
}

// ChoiceVar adds to fs the flag name, one of words, value by default.
func ChoiceVar(fs *pflag.FlagSet, to *string, name, value, usage, want string, words ...string) {
	*to = value
	fs.Var(&choice{to, want, words}, name, usage)
}

// CheckFinite refuses a flag given in fs whose number is not finite
// (pflag reads NaN and Inf).
func CheckFinite(fs *pflag.FlagSet) error {
	var bad error
	fs.Visit(func(f *pflag.Flag) {
		if bad != nil || (f.Value.Type() != "float64" && f.Value.Type() != "float32") {
			return
		}
		v, err := strconv.ParseFloat(f.Value.String(), 64)
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			bad = fmt.Errorf("--%s %s: want a finite number", f.Name, f.Value.String())
		}
	})
	return bad
}
