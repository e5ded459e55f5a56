package results

import "testing"

func TestMeterGroup(t *testing.T) {
	for name, want := range map[string]string{
		"cache": "cache", "shard#1": "shard", "shard#16": "shard", "jobs send": "jobs", "jobs receive": "jobs",
		"lock#a": "lock#a", "#3": "#3", "shard#": "shard#", "out#2 send": "out",
	} {
		if got := MeterGroup(name); got != want {
			t.Errorf("MeterGroup(%q) = %q, want %q", name, got, want)
		}
	}
}
