//go:build !js

package main

import (
	"context"
	"os"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
)

func main() {
	os.Exit(modelcli.Playground(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}
