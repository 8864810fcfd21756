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

// Of returns where decoding data failed with err, a *json.SyntaxError
// or *json.UnmarshalTypeError (also wrapped): the line and column (both
// from 1; the column counts bytes) of the last byte the decoder read,
// the offending character or the last byte of a value of the wrong
// type. ok is false for any other error, or an offset outside data.
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
	if offset == 0 {
		return 1, 1, true
	}
	// The decoder says it failed after reading offset bytes: the last
	// of them is at offset-1.
	before := data[:offset-1]
	return bytes.Count(before, []byte("\n")) + 1, len(before) - bytes.LastIndexByte(before, '\n'), true
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
