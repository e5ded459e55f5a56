package actors_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/brewput/brewput/lab/actors"
)

// Each variant hands out 1, 2, 3 … and builds the same reply record for
// an identity and a client.
func ExampleNewService() {
	for _, v := range actors.Variants() {
		svc, err := actors.NewService(v, 16, 96)
		if err != nil {
			fmt.Println(err)
			return
		}
		a, b, c := svc.Next(7), svc.Next(7), svc.Next(7)
		svc.Close()
		fmt.Printf("%-8s %d %d %d  %s\n", v, a.ID, b.ID, c.ID, c.Record)
	}
	// Output:
	// simple   1 2 3  ipseity id=3 client=7 hex=3 pad=def810bd4e41b0d1989a18b7a8f6643b10dd050d6a8 sum=80cf7571c0c19290
	// sequence 1 2 3  ipseity id=3 client=7 hex=3 pad=def810bd4e41b0d1989a18b7a8f6643b10dd050d6a8 sum=80cf7571c0c19290
	// actor    1 2 3  ipseity id=3 client=7 hex=3 pad=def810bd4e41b0d1989a18b7a8f6643b10dd050d6a8 sum=80cf7571c0c19290
	// locker   1 2 3  ipseity id=3 client=7 hex=3 pad=def810bd4e41b0d1989a18b7a8f6643b10dd050d6a8 sum=80cf7571c0c19290
}

// Concurrent clients of the actor each see their identities increase, and
// together get every identity once.
func ExampleNewService_concurrent() {
	svc, _ := actors.NewService(actors.Actor, 1024, 128)
	defer svc.Close()
	got := make([][]uint64, 8)
	var wg sync.WaitGroup
	for client := range got {
		wg.Go(func() {
			for range 1000 {
				got[client] = append(got[client], svc.Next(client).ID)
			}
		})
	}
	wg.Wait()
	seen, increasing := map[uint64]bool{}, true
	for _, ids := range got {
		for i, id := range ids {
			seen[id] = true
			increasing = increasing && (i == 0 || id > ids[i-1])
		}
	}
	fmt.Println(len(seen), "distinct ids, each client's increasing:", increasing)
	// Output: 8000 distinct ids, each client's increasing: true
}

// Run checks every run, so a point's Ops are identities handed out, each
// once; the throughputs vary from machine to machine.
func ExampleRun() {
	c := actors.DefaultConfig()
	c.Clients, c.Requests, c.RemoteRequests, c.Remote, c.Reps = []int{4}, 2000, 200, true, 1
	points, err := actors.Run(context.Background(), c, []int{1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range points {
		_, hasCost := p.Metrics["remote_cost"]
		fmt.Printf("%s: %d ids by %d clients, remote_cost given: %v\n", p.Variant(), p.Ops, p.Par, hasCost)
	}
	// Output:
	// simple: 2000 ids by 4 clients, remote_cost given: false
	// remote/simple: 200 ids by 4 clients, remote_cost given: true
	// sequence: 2000 ids by 4 clients, remote_cost given: false
	// remote/sequence: 200 ids by 4 clients, remote_cost given: true
	// actor: 2000 ids by 4 clients, remote_cost given: false
	// remote/actor: 200 ids by 4 clients, remote_cost given: true
	// locker: 2000 ids by 4 clients, remote_cost given: false
	// remote/locker: 200 ids by 4 clients, remote_cost given: true
}
