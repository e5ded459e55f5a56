package playground

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"html/template"
)

// assets are the site's hand-written files.
//
//go:embed site/*
var assets embed.FS

// Page is the site's index.html, which app.js fills in from the engine's
// JSON; calName and calJSON are the go policy's costs, example the YAML
// the editor starts with.
func Page(calName string, calJSON []byte, example string) ([]byte, error) {
	t, err := template.ParseFS(assets, "site/index.html")
	if err != nil {
		return nil, err
	}
	ms, err := json.Marshal(modes())
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = t.Execute(&b, map[string]any{"Modes": template.JS(ms), "Calibration": calName, "CalibrationJSON": template.JS(calJSON), "Example": example})
	return b.Bytes(), err
}

// gzipped is b gzipped at the best compression.
func gzipped(b []byte) []byte {
	var out bytes.Buffer
	w, _ := gzip.NewWriterLevel(&out, gzip.BestCompression) // a valid level: no error
	w.Write(b)                                              // to memory: no error
	w.Close()
	return out.Bytes()
}
