package server

// errorCode is a machine-readable code of an error answer (error.code).
// It is a struct, not a string, so that a string literal cannot be passed
// where a code is wanted: every code the server sends is one declared
// here, and TestOpenAPIErrorCodesAreTheServers holds the OpenAPI
// document's enum to this list.
type errorCode struct{ name string }

// String returns the code as sent.
func (c errorCode) String() string { return c.name }

// errorCodes lists every code, in declaration order.
var errorCodes []errorCode

func newErrorCode(name string) errorCode {
	c := errorCode{name}
	errorCodes = append(errorCodes, c)
	return c
}

// The codes, each with the status it goes with.
var (
	codeBadRequest   = newErrorCode("bad_request")  // 400: the request is malformed or names something unknown
	codeBadFile      = newErrorCode("bad_file")     // 422: an uploaded file cannot be analysed, or a session file read as a table
	codeUnauthorized = newErrorCode("unauthorized") // 401: no or a wrong token
	codeForbidden    = newErrorCode("forbidden")    // 403: a path this endpoint does not serve
	codeCrossOrigin  = newErrorCode("cross_origin") // 403: a changing request from another site's page
	codeForeignHost  = newErrorCode("foreign_host") // 403: a Host that is not loopback on a server without a token
	codeNotFound     = newErrorCode("not_found")    // 404
	codeConflict     = newErrorCode("conflict")     // 409: a run is going on or queued elsewhere
	// 409: a refresh's mapping of renamed columns waits for approval
	codeNeedsApproval = newErrorCode("needs_approval")
	codeTooLarge      = newErrorCode("too_large") // 413
	codeNotReady      = newErrorCode("not_ready") // 503: shutting down, or the store or queue cannot be used
	codeInternal      = newErrorCode("internal")  // 500
)
