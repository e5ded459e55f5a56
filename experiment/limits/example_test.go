package limits_test

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report/text"
)

// The kitchen lock of locking on 2 CPUs: holding it for less (the customer
// combines outside it) gains a third, which no other relief comes near.
func ExampleCausalProfiles() {
	cfg := model.DefaultConfig(2) // the talk's shop, every step 1 ms
	cfg.Mode, cfg.Policy.Sched = "locking", "fifo"
	var pr *limits.CausalProfile
	err := limits.CausalProfiles(context.Background(), []model.Config{cfg}, limits.EveryRelief, func(_ int, p *limits.CausalProfile, err error) error {
		pr = p
		return err
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	b := pr.Bottleneck
	fmt.Println(b.Resource, text.ChangeText(b.Experiments[b.Tier[0]]))
	for _, e := range b.Experiments[:3] {
		fmt.Printf("%s: %+.1f %%\n", text.ChangeText(e), 100*e.Gain)
	}
	// Output:
	// kitchen the kitchen lock held for less: combining outside it
	// the kitchen lock held for less: combining outside it: +33.2 %
	// grinding 10 % faster: +2.8 %
	// pressing 10 % faster: +2.8 %
}
