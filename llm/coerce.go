package llm

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// Models write structured arguments as people would: numbers and booleans
// as strings ("index": "2", "ascending": "true"), a list as one value or as
// "1, 2", null for an empty field. coerceArguments takes such arguments
// as they are meant, by the tool's own JSON schema, so that neither a tool
// nor the plan-execute framework refuses what is clear; argumentProblems
// names what is still not clear, to go back to the model.

// coerceArguments returns args reshaped to the schema of the tool it names
// among tools, and whether it changed anything. Arguments that are not a
// JSON object, or a tool without a schema, are returned unchanged.
func coerceArguments(args string, tool *schema.ToolInfo) (string, bool) {
	s := toolSchema(tool)
	if s == nil {
		return args, false
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return args, false
	}
	if _, ok := v.(map[string]any); !ok {
		return args, false
	}
	out, changed := coerce(v, s)
	if !changed {
		return args, false
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // code in arguments keeps its < > &
	if err := enc.Encode(out); err != nil {
		return args, false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// toolSchema is a tool's parameters as a JSON schema, or nil.
func toolSchema(tool *schema.ToolInfo) *jsonschema.Schema {
	if tool == nil || tool.ParamsOneOf == nil {
		return nil
	}
	s, err := tool.ParamsOneOf.ToJSONSchema()
	if err != nil {
		return nil
	}
	return s
}

// schemaType is the one type a schema names ("" when it names none or
// several).
func schemaType(s *jsonschema.Schema) string {
	if s == nil {
		return ""
	}
	if s.Type != "" {
		return s.Type
	}
	var types []string
	for _, t := range s.TypeEnhanced {
		if t != "null" {
			types = append(types, t)
		}
	}
	if len(types) == 1 {
		return types[0]
	}
	return ""
}

// coerce reshapes v to s where the meaning is clear.
func coerce(v any, s *jsonschema.Schema) (any, bool) {
	switch schemaType(s) {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok || s.Properties == nil {
			return v, false
		}
		changed := false
		for k, x := range obj {
			ps, ok := s.Properties.Get(k)
			if !ok {
				continue
			}
			if x == nil {
				// null for a field is the field left out.
				delete(obj, k)
				changed = true
				continue
			}
			if y, c := coerce(x, ps); c {
				obj[k] = y
				changed = true
			}
		}
		return obj, changed
	case "array":
		var list []any
		changed := false
		switch x := v.(type) {
		case []any:
			list = x
		case string:
			list, changed = splitList(x, schemaType(s.Items)), true
		default:
			list, changed = []any{x}, true
		}
		for i, e := range list {
			if y, c := coerce(e, s.Items); c {
				list[i] = y
				changed = true
			}
		}
		return list, changed
	case "integer", "number":
		str, ok := v.(string)
		if !ok {
			return v, false
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(str), ",", ""), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return v, false
		}
		if schemaType(s) == "integer" && f == math.Trunc(f) {
			return json.Number(strconv.FormatInt(int64(f), 10)), true
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
	case "boolean":
		if str, ok := v.(string); ok {
			switch strings.ToLower(strings.TrimSpace(str)) {
			case "true", "yes", "1":
				return true, true
			case "false", "no", "0", "":
				return false, true
			}
		}
		if n, ok := v.(json.Number); ok {
			switch n.String() {
			case "1":
				return true, true
			case "0":
				return false, true
			}
		}
	case "string":
		switch x := v.(type) {
		case json.Number:
			return x.String(), true
		case bool:
			return strconv.FormatBool(x), true
		}
	}
	return v, false
}

// splitList reads a list written as one string: a JSON array in a string,
// "1, 2" for numbers, or one value. A string list is split only when it is
// a JSON array: commas are common inside text.
func splitList(s, item string) []any {
	t := strings.TrimSpace(s)
	if t == "" {
		return []any{}
	}
	if strings.HasPrefix(t, "[") {
		var list []any
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		if dec.Decode(&list) == nil {
			return list
		}
	}
	if item == "integer" || item == "number" {
		var out []any
		for _, p := range strings.FieldsFunc(strings.Trim(t, "[]"), func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
			out = append(out, p)
		}
		return out
	}
	return []any{s}
}
