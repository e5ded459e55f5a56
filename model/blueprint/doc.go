// Package blueprint simulates a concurrent system that a user describes in
// YAML, without writing Go: its steps and their durations, the resources
// they share, pipelines, parallel branches, and the load. It runs the
// description in virtual time on package sim, measured as package model
// measures the coffee shop's modes, so `brewput model --model shop.yaml`
// predicts a system's throughput, latency and contention on any number of
// CPUs.
//
// # The format
//
// A blueprint is the steps of one order and what they share:
//
//	name: cafe                # optional; the file's base name by default
//	description: One cashier, two baristas, one espresso machine.
//	unit: lattes              # what an order is called, plural; "orders" by default
//
//	resources:                # name: capacity, a whole number of units, 1 or more
//	  cashier: 1
//	  barista: 2
//	  espresso: 1
//	  # shard: {locks: 16}    # 16 mutexes; each use locks one drawn at random
//
//	load:                     # optional; a closed loop, one customer per CPU, by default
//	  customers: 6            # closed loop: each customer orders again as soon as served
//	  # or an open loop:
//	  # rate: 800             # orders a second, whether or not the system keeps up
//	  # servers: 4            # processes serving them; one per CPU by default
//	  # queue: 1000           # orders that may wait for a server; more are dropped (1000)
//	  # arrivals: poisson     # even (one every 1/rate, the default) or poisson
//
//	steps:                    # one order, in order
//	  - name: order
//	    duration: 2ms
//	    holds: [cashier]
//	  - name: make            # a group: holds its resources across its steps
//	    holds: [barista]
//	    steps:
//	      - {name: grind, duration: 1ms}
//	      - {name: shot, duration: 2.5ms, holds: [espresso]}
//	      - {name: steam, duration: 3ms}
//	      - {name: pour, duration: 1.5ms}
//
// An item of a list of steps is one of:
//
//   - a step: name, duration, and optionally holds (a resource name or a
//     list of them) and cpu. A step takes a virtual CPU for its duration,
//     as all of brewput's steps burn one; cpu: false makes it wait without
//     one instead (IO, a timer, another machine doing the work).
//   - a group: steps (a list of items), and optionally name and holds. Its
//     resources are held from before its first step to after its last.
//   - a parallel: parallel (a list of two or more branches), and optionally
//     name. A branch is an item or a list of items. The branches run at
//     once, the first on the order's own process and each other on a
//     process of its own, and the order goes on when all are done.
//   - a pipeline: pipeline (a list of stages), and optionally name, buffer
//     (room in each channel between stages; 0, the default, hands an order
//     from hand to hand) and lines (copies of the whole line sharing its
//     entry channel; 1). Each stage is a step or a group with a name, and
//     optionally workers (processes working it; 1) and buffer (room in the
//     channel into it, overriding the pipeline's). The order is handed to
//     the first stage and waits for the last to finish it.
//
// A duration is a Go duration (1ms, 250us, 1.5ms, 0) or a distribution:
// {uniform: [1ms, 3ms]} (every value in the range equally likely),
// {exponential: 2ms} (with that mean), or {normal: {mean: 2ms, stddev:
// 0.5ms}} (a draw below 0 is drawn again). Draws come from the run's
// seeded source: the same seed gives the same run.
//
// Holding a resource means waiting, first come, first served, for one of
// its units; a step or group holding several takes them in the order
// listed, and gives them back in reverse. A blueprint that takes resources
// in different orders in different places (the barista, then the machine;
// elsewhere the machine, then the barista) could deadlock and is refused,
// as is a step that takes what its group already holds.
//
// Keys beginning with x- at the top are ignored: a place for YAML anchors
// that steps share through aliases and merge keys:
//
//	x-machine: &machine {duration: 1ms, cpu: true}
//	steps:
//	  - {<<: *machine, name: grind, holds: [grinder]}
//
// A file with a mistake gets an [*Error] naming the file, the line, what is
// wrong and what was expected:
//
//	shop.yaml:12: step "grind": duration "2 ms": want a Go duration such as 1ms, or {uniform: [1ms, 3ms]}, {exponential: 2ms}, {normal: {mean: 2ms, stddev: 0.5ms}}
//
// # What a run reports
//
// [Blueprint.Run] returns a model.Result: the orders completed in the
// measured window (Lattes, whatever the unit), their throughput and exact
// latency percentiles (from the intended arrival in an open loop, with the
// service time beside it, and the drops), the CPUs' utilization, and a
// machine per resource and per pipeline stage: its uses, its busy fraction
// (mean units in use ÷ capacity) and its users' mean wait. Bounds are the
// analytic limits from the structure alone: the CPU bound (CPUs ÷ CPU time
// per order), the structural bound (capacity ÷ hold time per order of the
// most-held resource or stage), the throughput ceiling they and the load
// set, and the critical path as the latency floor.
package blueprint
