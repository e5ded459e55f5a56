package gobench

import (
	"fmt"
	"strings"
)

// testFlags are go test's flags that belong to the test binary, and
// whether each takes a value: SplitFlags passes them on as -test.NAME.
var testFlags = map[string]bool{
	"blockprofile": true, "blockprofilerate": true, "coverprofile": true,
	"cpuprofile": true, "failfast": false, "fullpath": false, "memprofile": true, "memprofilerate": true,
	"mutexprofile": true, "mutexprofilefraction": true, "outputdir": true, "parallel": true, "short": false,
	"shuffle": true, "skip": true, "timeout": true, "trace": true, "v": false,
}

// ownFlags are go test's flags that brewput bench takes itself, before
// --, as go test spells them (true), or does without (false).
var ownFlags = map[string]bool{
	"bench": true, "benchtime": true, "count": true, "cpu": true, "run": true, "benchmem": true,
	"list": false, "c": false, "o": false, "json": false, "exec": false, "fuzz": false, "fuzztime": false, "fuzzminimizetime": false,
}

// buildValueFlags are go build's flags that take a value, so that
// SplitFlags keeps the value with its flag.
var buildValueFlags = map[string]bool{
	"asmflags": true, "buildmode": true, "buildvcs": true, "compiler": true, "covermode": true, "coverpkg": true,
	"gccgoflags": true, "gcflags": true, "installsuffix": true, "ldflags": true, "mod": true, "modfile": true,
	"overlay": true, "p": true, "pgo": true, "pkgdir": true, "tags": true, "toolexec": true,
}

// SplitFlags splits the go test flags given after -- into go test -c's
// and the test binary's (as -test.NAME); brewput bench's own and those it
// does without are errors saying so.
func SplitFlags(args []string) (build, test []string, err error) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
			return nil, nil, fmt.Errorf("%q is not a go test flag; give packages before --, flags after it", arg)
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		if takes, ok := ownFlags[name]; ok {
			if takes {
				return nil, nil, fmt.Errorf("-%s: give it before --, as brewput bench's own flag", name)
			}
			return nil, nil, fmt.Errorf("-%s: brewput bench sets it, or does without it", name)
		}
		if takesValue, ok := testFlags[name]; ok {
			if takesValue && !hasValue {
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("-%s needs a value", name)
				}
				i++
				value, hasValue = args[i], true
			}
			f := "-test." + name
			if hasValue {
				f += "=" + value
			}
			test = append(test, f)
			continue
		}
		build = append(build, arg)
		if buildValueFlags[name] && !hasValue {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("-%s needs a value", name)
			}
			i++
			build = append(build, args[i])
		}
	}
	return build, test, nil
}
