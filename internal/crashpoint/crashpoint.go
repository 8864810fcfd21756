// Package crashpoint lets a test stop a process right after one of its
// writes of session state, to check that a crash at any point still
// resumes correctly. Outside such a test it does nothing.
package crashpoint

import "sync/atomic"

var hook atomic.Pointer[func(what string)]

// Set has fn called after every write of session state (a workspace file
// replaced, an event appended, a checkpoint or record stored) with what was
// written; nil removes it.
func Set(fn func(what string)) {
	if fn == nil {
		hook.Store(nil)
		return
	}
	hook.Store(&fn)
}

// Wrote reports a finished write to the hook, if one is set.
func Wrote(what string) {
	if fn := hook.Load(); fn != nil {
		(*fn)(what)
	}
}
