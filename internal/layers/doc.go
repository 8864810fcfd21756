// Package layers holds no code: its test checks that Sift's packages
// import one way, as docs/architecture.md draws them.
package layers
