// Command gen writes Sift's native eval suite (see package native) into a
// directory: go run ./eval/native/gen DIR; then sift eval --scripted DIR.
package main

import (
	"fmt"
	"os"

	"github.com/sift-agent/sift/eval/native"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./eval/native/gen DIR")
		os.Exit(2)
	}
	s, err := native.Write(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "Wrote %d questions of %s to %s\n", len(s.Questions), s.Name, os.Args[1])
}
