package mcpserver

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema infers a tool's input schema from its argument struct, as the
// SDK would, but declares a slice as a plain "array". The SDK infers
// ["null", "array"] for a Go slice (a nil slice marshals as null); clients
// that build a form from the schema, such as the MCP Inspector, then offer
// a string field and send a string, which the call rejects.
func inputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{})
	if err != nil {
		// The argument structs are this package's own: a failure is a bug
		// found by the first test that lists the tools.
		panic(fmt.Sprintf("mcpserver: infer the input schema of %T: %v", *new(T), err))
	}
	for _, p := range s.Properties {
		if len(p.Types) == 2 && p.Types[0] == "null" && p.Types[1] == "array" {
			p.Type, p.Types = "array", nil
		}
	}
	return s
}
