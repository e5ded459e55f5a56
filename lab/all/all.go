// Package all is the one list of brewput's labs: brewput lab, the main
// job's --labs and the report know them from here. Adding a lab is a
// package under lab/ and a line in Labs.
package all

import (
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
