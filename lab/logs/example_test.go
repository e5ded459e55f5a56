package logs_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/brewput/brewput/lab/logs"
)

// A file log keeps its values across Close and Open: Open reads the
// records back and finds each one's place.
func ExampleFileLog() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "events.log")

	lg := &logs.FileLog{Sync: true}
	if err := lg.Open(path); err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range []string{"espresso", "latte", "cortado"} {
		index, err := lg.Append([]byte(v))
		fmt.Println(index, err)
	}
	lg.Close()

	again := &logs.FileLog{}
	if err := again.Open(path); err != nil {
		fmt.Println(err)
		return
	}
	defer again.Close()
	v, err := again.Get(1)
	fmt.Printf("%d values; at 1: %s %v\n", again.Len(), v, err)
	_, err = again.Get(3)
	fmt.Println(err)
	// Output:
	// 0 <nil>
	// 1 <nil>
	// 2 <nil>
	// 3 values; at 1: latte <nil>
	// get 3: no entry at that index (the log holds 3)
}

// A memory log has nothing to sync, so it has no -sync variant.
func ExampleVariant() {
	for _, k := range logs.Kinds() {
		fmt.Println(logs.Variant(k, false), logs.Variant(k, true))
	}
	// Output:
	// memory memory
	// file file-sync
	// leveldb leveldb-sync
}
