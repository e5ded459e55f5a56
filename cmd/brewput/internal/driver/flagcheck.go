package driver

import (
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
)

// formatVar adds --format table|json, table by default.
func formatVar(fs *pflag.FlagSet, to *string, usage string) {
	modelcli.ChoiceVar(fs, to, "format", "table", "output format: table or json"+usage, "table or json", "table", "json")
}

// tableVar adds --format compact|table: the table printed.
func tableVar(fs *pflag.FlagSet, to *string, compact string) {
	modelcli.ChoiceVar(fs, to, "format", "compact", "the table printed: compact or table\n(compact: "+compact+"; table: every point in full)", "compact or table", "compact", "table")
}
