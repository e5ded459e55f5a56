package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/brewput/brewput/results"
)

// Schema is the version of the analysis file this brewput writes. An
// older one is made again from its points rather than read.
const Schema = 3

// File is the analysis file's name beside a report's results.json.
const File = "analysis.json"

// Analysis is what brewput makes of a set of points, computed once and
// saved beside them, so that every page and table renders the same reading.
type Analysis struct {
	Schema int `json:"schema"`
	// Of identifies the points it was made from.
	Of string `json:"of"`
	// Verdict is the answer: what makes the most where, and why.
	Verdict Verdict `json:"verdict"`
	// Grid is the map of what limits what.
	Grid *Grid `json:"grid,omitempty"`
	// Ranges and StudyTable are the compact tables a terminal shows.
	Ranges     []Ranges    `json:"ranges,omitempty"`
	StudyTable *StudyTable `json:"study_table,omitempty"`
	// Labs answer each lab's points.
	Labs []LabAnswer `json:"labs,omitempty"`
	// Fits are the Universal Scalability Law fitted to every series.
	Fits []Fit `json:"fits,omitempty"`
	// Advice is the model's what-if advice, at most one per mode.
	Advice []*Advice `json:"advice,omitempty"`
	// Schedules are the schedule pictures the points call for.
	Schedules []Picture `json:"schedules,omitempty"`
	// Notes say what could not be analysed, and why.
	Notes []string `json:"notes,omitempty"`
}

// OfPoints identifies points: a hash of their JSON Lines.
func OfPoints(points []results.Point) (string, error) {
	var b bytes.Buffer
	if err := results.WriteJSON(&b, points); err != nil {
		return "", err
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:12]), nil
}

// For reports whether a is the analysis of points.
func (a *Analysis) For(points []results.Point) bool {
	if a == nil {
		return false
	}
	of, err := OfPoints(points)
	return err == nil && a.Of == of
}

// Marshal is a's JSON, indented, as the file holds it.
func (a *Analysis) Marshal() ([]byte, error) {
	return json.MarshalIndent(a, "", "  ")
}

// Read reads an analysis file; an error names the file.
func Read(path string) (*Analysis, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var a Analysis
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%s: not a brewput analysis: %w", path, err)
	}
	if a.Schema != Schema {
		return nil, fmt.Errorf("%s: analysis schema %d; this brewput reads %d", path, a.Schema, Schema)
	}
	return &a, nil
}
