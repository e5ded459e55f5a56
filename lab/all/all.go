// Package all is the one list of brewput's labs: brewput lab, the main
// job's --labs and the report know them from here. Adding a lab is a
// package under lab/ and a line in Labs.
package all

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/actors"
	"github.com/brewput/brewput/lab/aggregate"
	"github.com/brewput/brewput/lab/channels"
	"github.com/brewput/brewput/lab/logs"
	"github.com/brewput/brewput/lab/render"
	"github.com/brewput/brewput/lab/stream"
	"github.com/brewput/brewput/lab/wordcount"
	"github.com/brewput/brewput/lab/workloads"
)

// Labs returns every lab at its defaults, in the order brewput lab list
// shows them.
func Labs() []lab.Lab {
	return []lab.Lab{
		workloads.NewLab(),
		channels.NewLab(),
		render.NewLab(),
		wordcount.NewLab(),
		actors.NewLab(),
		logs.NewLab(),
		stream.NewLab(),
		aggregate.NewLab(),
	}
}

// Names lists the labs' names, in order, for messages.
func Names() string {
	var names []string
	for _, l := range Labs() {
		names = append(names, l.Info().Name)
	}
	return strings.Join(names, ", ")
}

// Find returns the lab named, at its defaults.
func Find(name string) (lab.Lab, bool) {
	for _, l := range Labs() {
		if l.Info().Name == name {
			return l, true
		}
	}
	return nil, false
}

// Select reads a list of labs as the main job's --labs gives it: "all",
// or names separated by commas. Its error names the unknown lab.
func Select(list string) ([]lab.Lab, error) {
	if list == "all" {
		return Labs(), nil
	}
	var out []lab.Lab
	for _, name := range strings.Split(list, ",") {
		l, ok := Find(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("unknown lab %q; accepted: all, or some of %s", strings.TrimSpace(name), Names())
		}
		out = append(out, l)
	}
	return out, nil
}

// Figures are the labs' charts by name, for report.Options.
func Figures() map[string]lab.Figure {
	out := map[string]lab.Figure{}
	for _, l := range Labs() {
		out[l.Info().Name] = l.Figure()
	}
	return out
}
