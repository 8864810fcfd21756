package tools

import (
	"reflect"

	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/eino-contrib/jsonschema"
)

// leanSchema is the option every tool inferred from an argument struct
// here is built with: its JSON schema leaves out `"additionalProperties":
// false`, which the reflector adds to every object. Each model request
// carries every tool's schema, so the line is billed on every call, and it
// tells the model nothing it acts on: models send the arguments a schema
// lists, and arguments it does not list are ignored when the call is
// parsed into the struct.
var leanSchema = utils.WithSchemaModifier(func(_ string, t reflect.Type, _ reflect.StructTag, s *jsonschema.Schema) {
	if t.Kind() == reflect.Struct {
		s.AdditionalProperties = nil
	}
})
