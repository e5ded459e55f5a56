package actors

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of a actors point, in groups; see Run.

// The load: clients, identities asked for in a run, the size of a reply
// record, and the actor's mailbox (actor points only).
const (
	MetricClients    results.Metric = "clients"
	MetricRequests   results.Metric = "requests"
	MetricReplyBytes results.Metric = "reply_bytes"
	MetricMailbox    results.Metric = "mailbox"
)

// CPU time per identity, in µs; the runs' throughputs from lowest to
// highest, over the median.
const (
	MetricCPUPerID results.Metric = "cpu_us_per_id"
	MetricSpread   results.Metric = "spread"
)

// Throughput ÷ simple's with the same clients and CPUs, both in process or
// both remote.
const (
	MetricVsSimple results.Metric = "vs_simple"
)

// On remote points: the in-process throughput of the same variant, clients
// and CPUs, and that ÷ Throughput.
const (
	MetricLocalRate  results.Metric = "local_ids_per_s"
	MetricRemoteCost results.Metric = "remote_cost"
)

// NewLab returns the actors lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
