// Package lab is what every lab shares: the Lab interface, Sweep over CPU
// counts, helpers to measure and make points, and the checks of a
// configuration. Each lab is a package under lab/, listed in lab/all.
package lab

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

// Lab is an experiment on real Go code, configured by flags, measured over
// CPU counts, drawn in its own chart.
type Lab interface {
	Info() Info
	// Bind adds the lab's flags to fs; the check it returns, once fs is
	// parsed, completes and validates the configuration.
	Bind(fs *pflag.FlagSet) (check func() error)
	// Run measures the lab on each CPU count (GOMAXPROCS), telling
	// progress, if not nil, each point measured; cancelled or failing, it
	// returns what it measured with the error.
	Run(ctx context.Context, cpus []int, progress func(results.LabEvent)) ([]results.Point, error)
	Figure() chartspec.Figure
}

// Info names a lab and says what it is.
type Info struct {
	Name    string // in brewput lab NAME and in its points
	Summary string // its line in brewput lab list
	Help    string // what it measures and what to look for: --help
	Example string // command lines that run it, for --help
}

// Validator is a lab's configuration: Validate returns the first problem
// on one line that starts with the flag's name ("reps 0: want 1 to 100").
type Validator interface{ Validate() error }

// Of is a lab made of its package's parts by New.
type Of[C Validator] struct {
	Config C // the defaults, then what Bind's flags set
	info   Info
	run    func(ctx context.Context, c C, cpus []int, progress func(results.LabEvent)) ([]results.Point, error)
	figure chartspec.Figure
}

// New makes the lab of a package's parts. Its flags are config's fields
// tagged `flag:"name"` (`usage:"…"` the help); one tagged `needs:"other"`
// is refused without the bool flag --other.
func New[C Validator](info Info, config C, run func(ctx context.Context, c C, cpus []int, progress func(results.LabEvent)) ([]results.Point, error), figure chartspec.Figure) *Of[C] {
	return &Of[C]{Config: config, info: info, run: run, figure: figure}
}

// Completer is a configuration with a default that depends on which flags
// were given.
type Completer interface {
	Complete(given func(flag string) bool)
}

// Sizer estimates the memory a run holds at most, and the flags, with
// their values, it grows with ("--size 400").
type Sizer interface {
	Memory() (bytes float64, flags []string)
}

// Memory is the Sizer's estimate; 0 for a configuration that is none.
func (l *Of[C]) Memory() (float64, []string) {
	if s, ok := any(l.Config).(Sizer); ok {
		return s.Memory()
	}
	return 0, nil
}

func (l *Of[C]) Info() Info { return l.info }

// Charter is a configuration whose chart depends on it.
type Charter interface {
	Chart(f chartspec.Figure) chartspec.Figure
}

func (l *Of[C]) Figure() chartspec.Figure {
	if c, ok := any(l.Config).(Charter); ok {
		return c.Chart(l.figure)
	}
	return l.figure
}

func (l *Of[C]) Run(ctx context.Context, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	return l.run(ctx, l.Config, cpus, progress)
}

func (l *Of[C]) Bind(fs *pflag.FlagSet) func() error {
	complete := bindFields(fs, &l.Config)
	return func() error {
		err := complete()
		if err == nil {
			if c, ok := any(&l.Config).(Completer); ok {
				c.Complete(fs.Changed)
			}
			err = l.Config.Validate()
		}
		if err != nil {
			return fmt.Errorf("--%w", err) // the error starts with the flag's name
		}
		return nil
	}
}

// bindFields adds to fs a flag for each tagged field of *c, and returns
// what to do once fs is parsed: refuse a flag given without the one it
// needs, and copy a []string into a field of a slice of a string type. It
// panics on a type with no flag, a mistake the lab's tests find.
func bindFields(fs *pflag.FlagSet, c any) (complete func() error) {
	v := reflect.ValueOf(c).Elem()
	var after []func() error
	for i := range v.NumField() {
		tag := v.Type().Field(i).Tag
		name, ok := tag.Lookup("flag")
		if !ok {
			continue
		}
		usage := tag.Get("usage")
		if needs, ok := tag.Lookup("needs"); ok {
			after = append(after, func() error {
				return Refuse(fs.Changed(name) && fs.Lookup(needs).Value.String() != "true",
					"%s: applies only with --%s; add --%s, or drop it", name, needs, needs)
			})
		}
		field := v.Field(i)
		switch p := field.Addr().Interface().(type) {
		case *int:
			fs.IntVar(p, name, *p, usage)
		case *[]int:
			fs.IntSliceVar(p, name, *p, usage)
		case *string:
			fs.StringVar(p, name, *p, usage)
		case *[]string:
			fs.StringSliceVar(p, name, *p, usage)
		case *bool:
			fs.BoolVar(p, name, *p, usage)
		case *float64:
			fs.Float64Var(p, name, *p, usage)
		case *uint64:
			fs.Uint64Var(p, name, *p, usage)
		case *time.Duration:
			fs.Var((*cliflag.Duration)(p), name, usage)
		default:
			if field.Kind() != reflect.Slice || field.Type().Elem().Kind() != reflect.String {
				panic(fmt.Sprintf("lab: no flag --%s for a field of type %s", name, field.Type()))
			}
			strs := make([]string, field.Len())
			for j := range strs {
				strs[j] = field.Index(j).String()
			}
			fs.StringSliceVar(&strs, name, strs, usage)
			after = append(after, func() error {
				out := reflect.MakeSlice(field.Type(), len(strs), len(strs))
				for j, s := range strs {
					out.Index(j).SetString(s)
				}
				field.Set(out)
				return nil
			})
		}
	}
	return func() error {
		for _, f := range after {
			if err := f(); err != nil {
				return err
			}
		}
		return nil
	}
}
