// Package jsonpos says where in a JSON document decoding failed, so that
// an error about a file a person wrote (model config, price table,
// approval policy) names the line to look at.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Of returns the line and column (both from 1; the column counts bytes)
// at which decoding data failed with err, a *json.SyntaxError or
// *json.UnmarshalTypeError (also wrapped). ok is false for any other
// error, or an offset outside data.
func Of(data []byte, err error) (line, col int, ok bool) {
	var offset int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	}
	if offset < 0 || offset > int64(len(data)) {
		return 0, 0, false
	}
	before := data[:offset]
	return bytes.Count(before, []byte("\n")) + 1, int(offset) - bytes.LastIndexByte(before, '\n'), true
}

// Describe is err's message after "line L, column C: " when Of knows
// where it happened, else err's message alone.
func Describe(data []byte, err error) string {
	line, col, ok := Of(data, err)
	if !ok {
		return err.Error()
	}
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}
