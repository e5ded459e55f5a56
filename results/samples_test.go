package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The files in testdata/samples are brewput's (run, model and lab with
// --format json; their CSV by brewput report): the shop measured on 1 and
// 2 CPUs, closed and open loop, with --count and --profile; the model's
// fifo predictions of shop modes and of a YAML system; and every lab.
// Every later version must read them as they were.
func TestSamplesRead(t *testing.T) {
	for _, c := range []struct {
		name  string
		kind  Kind
		model bool
	}{{"shop", KindShop, false}, {"model", KindShop, true}, {"lab", KindLab, false}} {
		points, err := ReadFile(filepath.Join("testdata", "samples", c.name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range points {
			if p.Kind != c.kind || p.IsModel() != c.model || p.checkParts() != nil {
				t.Errorf("%s: %s is a %s point (model %v, %v), want %s", c.name, p.Mode, p.Kind, p.IsModel(), p.checkParts(), c.kind)
			}
			// Every kind has its part, and a prediction its policy.
			if (p.Shop != nil) != (c.kind == KindShop) || (p.Lab != nil) != (c.kind == KindLab) || (len(p.Own()) > 0) != (c.kind == KindLab) ||
				(p.Policy != Policy{}) != c.model {
				t.Errorf("%s: %s has shop %v, policy %+v, lab %+v", c.name, p.Mode, p.Shop != nil, p.Policy, p.Lab)
			}
		}
	}
}

// Written again, the samples' points read back as they were.
func TestSamplesWriteBack(t *testing.T) {
	for _, name := range []string{"shop", "model", "lab"} {
		fromJSON, err := ReadFile(filepath.Join("testdata", "samples", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var js bytes.Buffer
		if err := WriteJSON(&js, fromJSON); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(js.String(), `{"brewput":"results","schema":3}`+"\n") || strings.Count(js.String(), "\n"+`{"kind":"`) != len(fromJSON) {
			t.Errorf("%s.json written again does not say its schema and every point's kind:\n%.300s", name, js.String())
		}
		if back, err := ReadJSON(&js); err != nil || !reflect.DeepEqual(back, fromJSON) {
			t.Errorf("%s.json written again reads back otherwise: %v", name, err)
		}
	}
}

// TestConcatenatedFiles: files joined with cat read as one, each saying
// its schema.
func TestConcatenatedFiles(t *testing.T) {
	ps := samplePoints(t)
	var a, b bytes.Buffer
	if err := WriteJSON(&a, ps[:1]); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&b, ps[1:]); err != nil {
		t.Fatal(err)
	}
	model, err := os.ReadFile(filepath.Join("testdata", "samples", "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read([]byte(a.String() + b.String() + string(model) + a.String()))
	if err != nil || len(f.Points) != 2+12 || len(f.Notes) != 1 || !reflect.DeepEqual(f.Points[:2], ps) {
		t.Errorf("cat a.json b.json model.json a.json: %v, %d points, notes %q", err, len(f.Points), f.Notes)
	}
	if _, err := Read([]byte(`{"brewput":"results","schema":3}` + "\n" + a.String())); err != nil {
		t.Errorf("a newer schema's line: %v", err)
	}
}
