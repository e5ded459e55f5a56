// Command engine is the playground's engine: brewput model and brewput
// schedule's JSON (modelcli.Playground), the CLI's code without the rest of
// the CLI. brewput playground builds it for js/wasm, where the page calls
// it; built for this machine, it runs the command line it is given, as the
// page would, so that the two can be compared:
//
//	go run ./cmd/brewput/internal/driver/playground/engine model --modes finelocking --sched fifo --format json
package main
