package results

import "slices"

// Schema 2 named what sets a point's ceiling (Bounds.SetBy) "limit", a
// second word for a point's limit beside its bottleneck's; schema 3 calls
// it "set_by". A file of schema 2 (or 1) reads through these.

// migrateV2 rewrites a point's object of schema 2 (or 1, migrated) as
// schema 3's: bounds.limit becomes bounds.set_by.
func migrateV2(o map[string]any) {
	b, ok := o["bounds"].(map[string]any)
	if !ok {
		return
	}
	if v, ok := b["limit"]; ok {
		if _, now := b["set_by"]; !now {
			b["set_by"] = v
		}
		delete(b, "limit")
	}
}

// csvFromV2 is a CSV header with schema 2's names (and 1's) of columns
// schema 3 renamed given their new ones.
func csvFromV2(header []string) []string {
	i := slices.Index(header, "bounds.limit")
	if i < 0 {
		return header
	}
	h := slices.Clone(header)
	h[i] = "bounds.set_by"
	return h
}
