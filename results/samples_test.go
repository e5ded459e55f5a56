package results

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The files in testdata were written by brewput before points had parts
// (run, model and lab with --format json; their CSV by brewput report):
// the shop measured on 1 and 2 CPUs, closed and open loop, with --count
// and --profile; the model's fifo predictions of shop modes and of a YAML
// system; and every lab. Every later version must read them as they were.
func TestSamplesRead(t *testing.T) {
	for _, c := range []struct {
		name string
		kind Kind
	}{{"shop", KindMeasured}, {"model", KindModel}, {"lab", KindLab}} {
		for _, ext := range []string{".json", ".csv"} {
			points, err := ReadFile(filepath.Join("testdata", c.name+ext))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range points {
				if k := p.Kind(); k != c.kind {
					t.Errorf("%s%s: %s is a %s point, want %s", c.name, ext, p.Mode, k, c.kind)
				}
				// Every kind has its parts, and only those.
				if (p.Shop != nil) == (c.kind == KindLab) || (p.Lab.Name != "") != (c.kind == KindLab) || (len(p.Metrics) > 0) != (c.kind == KindLab) ||
					(p.Model != Model{}) != (c.kind == KindModel) {
					t.Errorf("%s%s: %s has shop %v, model %+v, lab %+v", c.name, ext, p.Mode, p.Shop != nil, p.Model, p.Lab)
				}
			}
		}
	}
}

// Written again, the samples' points give the same files: byte for byte,
// except that lab points no longer write the shop's empty machines and
// steps. Their CSV is the same throughout, but for the harness, band and
// calibration columns and those of the user's code (studies, Go
// benchmarks) written since, empty on every sample's row.
func TestSamplesWriteBack(t *testing.T) {
	for _, name := range []string{"shop", "model", "lab"} {
		file, err := os.ReadFile(filepath.Join("testdata", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		points, err := ReadJSON(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, points); err != nil {
			t.Fatal(err)
		}
		if name != "lab" && !bytes.Equal(got.Bytes(), file) {
			t.Errorf("%s.json written again differs", name)
		}
		if name == "lab" {
			want := objects(t, file)
			for _, o := range want {
				delete(o, "machines")
				delete(o, "steps")
			}
			if gotObjs := objects(t, got.Bytes()); !reflect.DeepEqual(gotObjs, want) {
				t.Errorf("lab.json written again holds other values than the file's, less its empty shop fields")
			}
			if bytes.Contains(got.Bytes(), []byte(`"steps"`)) || bytes.Contains(got.Bytes(), []byte(`"machines"`)) {
				t.Errorf("lab points still write machines or steps")
			}
		}
		csvFile, err := os.ReadFile(filepath.Join("testdata", name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		csvFile = withBandColumns(t, csvFile)
		for _, from := range []string{".json", ".csv"} {
			ps, err := ReadFile(filepath.Join("testdata", name+from))
			if err != nil {
				t.Fatal(err)
			}
			var csv bytes.Buffer
			if err := WriteCSV(&csv, ps); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(csv.Bytes(), csvFile) {
				t.Errorf("%s%s written as CSV differs from %s.csv", name, from, name)
			}
		}
	}
}

// objects decodes JSON Lines into generic objects, to compare them
// without regard to the order of their keys.
func objects(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var o map[string]any
		if err := dec.Decode(&o); err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

// withBandColumns is a CSV file from before the harness, band,
// calibration, user's code, interference and inference columns as WriteCSV writes
// its points now: those columns added to the header, empty on every row
// but for the interference's zeros (no other process measured, not
// disturbed).
func withBandColumns(t *testing.T, file []byte) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(file)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	for i, rec := range recs {
		added := append(bandCSVColumns(), codeCSVColumns()...)
		if i == 0 {
			rec = append(rec, added...)
			rec = append(rec, interferenceCSVColumns()...)
			rec = append(rec, inferenceCSVColumns()...)
			rec = append(rec, steadyCSVColumns()...)
		} else {
			rec = append(rec, make([]string, len(added))...)
			rec = append(rec, "0", "0", "false", "0")
			rec = append(rec, make([]string, len(inferenceCSVColumns())+len(steadyCSVColumns()))...)
		}
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
