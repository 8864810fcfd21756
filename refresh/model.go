package refresh

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kaptinlin/jsonrepair"
)

// SureScore is how alike a renamed column's name must be for the mapping
// by name and type to be sure of it; below it (or for a column not found)
// a model, when there is one, is asked (Unsure).
const SureScore = 0.75

// ByModel is Pair.By for a column a model mapped.
const ByModel = "model"

// Unsure reports whether the mapping by name and type is not sure of
// every column: one was not found, or was taken for a column whose name
// is less alike than SureScore.
func (m Mapping) Unsure() bool {
	if len(m.Missing) > 0 {
		return true
	}
	for _, p := range m.Pairs {
		if p.Renamed() && p.Score < SureScore {
			return true
		}
	}
	return false
}

// ErrModelMapping is wrapped by a model's mapping that cannot be used.
var ErrModelMapping = errors.New("the model's column mapping is refused")

// ModelMappingError says why a model's mapping is refused: it maps an
// old column to a column the new data does not have, to one another
// column takes, or to one of another kind.
type ModelMappingError struct {
	Table    string
	Old, New string
	Reason   string
	Found    []Column
}

func (e *ModelMappingError) Error() string {
	names := make([]string, len(e.Found))
	for i, c := range e.Found {
		names[i] = fmt.Sprintf("%s (%s)", c.Name, c.Type)
	}
	return fmt.Sprintf("%v: it maps column %s of %s to %q, %s (the new data has %s); nothing was run. Rename the column in the file to %s and refresh again", ErrModelMapping, e.Old, e.Table, e.New, e.Reason, strings.Join(names, ", "), e.Old)
}

func (e *ModelMappingError) Unwrap() error { return ErrModelMapping }

// ParseModelMapping reads a model's reply to a mapping request: a JSON
// object from old column names to new ones (null or "" for a column the
// new data lacks), alone, in a code fence or among words, and repaired
// when malformed (a trailing comma, single quotes, a missing brace).
func ParseModelMapping(reply string) (map[string]string, error) {
	s := strings.TrimSpace(reply)
	if i := strings.Index(s, "{"); i >= 0 {
		s = s[i:]
		if j := strings.LastIndex(s, "}"); j >= 0 {
			s = s[:j+1]
		}
	} else {
		return nil, fmt.Errorf("%w: the reply holds no JSON object: %.200q", ErrModelMapping, reply)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		fixed, rerr := jsonrepair.Repair(s)
		if rerr != nil || json.Unmarshal([]byte(fixed), &raw) != nil {
			return nil, fmt.Errorf("%w: the reply is no JSON object, even repaired (%v): %.200q", ErrModelMapping, err, reply)
		}
	}
	if inner, ok := raw["columns"].(map[string]any); ok && len(raw) == 1 {
		raw = inner
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		switch v := v.(type) {
		case nil:
			out[k] = ""
		case string:
			out[k] = strings.TrimSpace(v)
		default:
			return nil, fmt.Errorf("%w: column %s is mapped to %v, not to a column's name or null", ErrModelMapping, k, v)
		}
	}
	return out, nil
}

// WithModel applies a model's mapping (from ParseModelMapping) to the
// columns of old that m is not sure of: those not found, and those
// renamed to a name less alike than SureScore. The columns m is sure of
// stay as they are. A column the model maps to nothing stays missing (the
// refresh then stops, Mapping.Err). A mapping to a column the new data
// does not have, to one taken by another column, or to one of another
// kind is refused (*ModelMappingError), never corrected.
func WithModel(m Mapping, old []Column, answer map[string]string) (Mapping, error) {
	out := Mapping{Table: m.Table, Found: m.Found}
	sure := map[string]Pair{}
	used := map[int]bool{}
	for _, p := range m.Pairs {
		if !p.Renamed() || p.Score >= SureScore {
			sure[p.Old.Name] = p
			used[p.NewIndex] = true
		}
	}
	for i, o := range old {
		if p, ok := sure[o.Name]; ok {
			out.Pairs = append(out.Pairs, p)
			continue
		}
		name := answer[o.Name]
		if name == "" {
			out.Missing = append(out.Missing, o)
			continue
		}
		refuse := func(reason string) error {
			return &ModelMappingError{Table: m.Table, Old: o.Name, New: name, Reason: reason, Found: m.Found}
		}
		j := -1
		for k, n := range m.Found {
			if n.Name == name {
				j = k
			}
		}
		switch {
		case j < 0:
			return Mapping{}, refuse("a column the new data does not have")
		case used[j]:
			return Mapping{}, refuse("a column that stands for another old column already")
		case !compatible(o.Type, m.Found[j].Type):
			return Mapping{}, refuse(fmt.Sprintf("a column of %s, not %s", m.Found[j].Type, o.Type))
		}
		used[j] = true
		out.Pairs = append(out.Pairs, Pair{Old: o, New: m.Found[j], Score: nameScore(o.Name, name), OldIndex: i, NewIndex: j, By: ByModel})
	}
	return out, nil
}
