// Package coffeetest is what tests of the shop's readers share: a real
// execution trace of the shop, as --profile writes it for a point.
package coffeetest

import (
	"os"
	"runtime/trace"
	"sync"
	"testing"

	"github.com/brewput/brewput/coffee"
)

// WriteShopTrace writes to path a real execution trace of finelocking, two
// customers brewing brews drinks each: what --profile writes for a point.
// It skips t where the test binary is traced already.
func WriteShopTrace(t testing.TB, path string, brews int) {
	t.Helper()
	if trace.IsEnabled() {
		t.Skip("the test binary is traced already")
	}
	shop, err := coffee.OpenVariant(coffee.MustParseMode("finelocking"), coffee.DefaultSteps(), coffee.Variant{})
	if err != nil {
		t.Fatal(err)
	}
	defer shop.Close()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := trace.Start(f); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for range brews {
				if err := shop.Brew(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	trace.Stop()
}
