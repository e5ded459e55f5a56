package gobench

import (
	"fmt"
	"strings"
)

// testFlags are go test's flags that belong to the test binary, and
// whether each takes a value: SplitFlags passes them on as -test.NAME.
func testFlags() map[string]bool {
	return map[string]bool{
		"benchmem": false, "blockprofile": true, "blockprofilerate": true, "coverprofile": true,
		"cpuprofile": true, "failfast": false, "fullpath": false, "memprofile": true, "memprofilerate": true,
		"mutexprofile": true, "mutexprofilefraction": true, "outputdir": true, "parallel": true, "short": false,
		"shuffle": true, "skip": true, "timeout": true, "trace": true, "v": false,
	}
}

// ownFlags are go test's flags that brewput bench sets itself, each with
// the brewput flag to use instead ("" where there is none to use).
func ownFlags() map[string]string {
	return map[string]string{
		"bench": "--bench", "benchtime": "--benchtime", "count": "--count", "cpu": "--cpus",
		"run": "", "list": "", "c": "", "o": "", "json": "", "exec": "", "fuzz": "", "fuzztime": "", "fuzzminimizetime": "",
	}
}

// buildValueFlags are go build's flags that take a value, so that
// SplitFlags keeps the value with its flag.
func buildValueFlags() map[string]bool {
	return map[string]bool{
		"asmflags": true, "buildmode": true, "buildvcs": true, "compiler": true, "covermode": true, "coverpkg": true,
		"gccgoflags": true, "gcflags": true, "installsuffix": true, "ldflags": true, "mod": true, "modfile": true,
		"overlay": true, "p": true, "pgo": true, "pkgdir": true, "tags": true, "toolexec": true,
	}
}

// SplitFlags splits go test flags, as given after -- on brewput bench's
// command line, into the flags for go test -c (build flags such as -tags,
// -race, -gcflags) and those for the test binary, written -test.NAME as
// the binary takes them (-benchmem, -timeout, -cpuprofile …). The flags
// brewput sets itself (-bench, -benchtime, -count, -cpu, -run, -c, -o …)
// are an error that says which brewput flag to use. Both forms -name
// value and -name=value are read, with one dash or two.
func SplitFlags(args []string) (build, test []string, err error) {
	tf, own, bv := testFlags(), ownFlags(), buildValueFlags()
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
			return nil, nil, fmt.Errorf("%q is not a go test flag; give packages before --, flags after it", arg)
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		if use, ok := own[name]; ok {
			if use != "" {
				return nil, nil, fmt.Errorf("-%s: brewput bench sets it; use its %s flag", name, use)
			}
			return nil, nil, fmt.Errorf("-%s: brewput bench sets it, or does without it", name)
		}
		if takesValue, ok := tf[name]; ok {
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
		if bv[name] && !hasValue {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("-%s needs a value", name)
			}
			i++
			build = append(build, args[i])
		}
	}
	return build, test, nil
}
