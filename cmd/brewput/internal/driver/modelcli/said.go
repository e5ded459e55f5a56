package modelcli

import (
	"bytes"
	"encoding/json"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// SayPoints adds to each point of brewput model's JSON lines the words
// report/text says of it, for the playground's page to show as the other
// surfaces do: its limit, verdict and recommended changes
// (bottleneck.said), each relief tried (bottleneck.profile[].said) and
// each reason a number passes a bound (trust.above[].said). Other lines
// pass as they are.
func SayPoints(out []byte) []byte {
	var b bytes.Buffer
	for _, line := range bytes.SplitAfter(out, []byte("\n")) {
		said, ok := sayPoint(line)
		if !ok {
			b.Write(line)
			continue
		}
		b.Write(said)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// sayPoint is one point's line with its words; false for another line.
func sayPoint(line []byte) ([]byte, bool) {
	var obj map[string]any
	if json.Unmarshal(line, &obj) != nil || obj["mode"] == nil {
		return nil, false
	}
	ps, err := results.ReadJSON(bytes.NewReader(line))
	if err != nil || len(ps) != 1 {
		return nil, false
	}
	p := ps[0]
	if bn, ok := obj["bottleneck"].(map[string]any); ok && p.Bottleneck != nil {
		b := p.Bottleneck
		recommend := []string{}
		for _, i := range b.Tier {
			recommend = append(recommend, text.ChangeText(b.Experiments[i]))
		}
		if b.Combined != nil {
			recommend = append(recommend, text.ChangeText(*b.Combined))
		}
		bn["said"] = map[string]any{"limit": text.BottleneckName(b), "text": text.BottleneckText(p), "recommend": recommend}
		rows, _ := bn["profile"].([]any)
		for i, row := range rows {
			if r, ok := row.(map[string]any); ok && i < len(b.Experiments) {
				r["said"] = text.ChangeText(b.Experiments[i])
			}
		}
	}
	if trust, ok := obj["trust"].(map[string]any); ok {
		above, _ := trust["above"].([]any)
		for i, a := range above {
			if a, ok := a.(map[string]any); ok && i < len(p.Above) {
				a["said"] = text.AboveText(p, p.Above[i])
			}
		}
	}
	data, err := json.Marshal(obj)
	return data, err == nil
}
