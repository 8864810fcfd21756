package operator_test

import (
	"fmt"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// TestDeprecatedNamesStillCompile is code written against release 1's
// names: it must compile, and NewOperator must build what New builds.
func TestDeprecatedNamesStillCompile(t *testing.T) {
	var cfg operator.OperatorConfig = operator.Config{Root: t.TempDir(), Mode: operator.PythonProcess}
	old, err := operator.NewOperator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	cur, err := operator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close()
	if fmt.Sprintf("%T", old) != fmt.Sprintf("%T", cur) {
		t.Errorf("NewOperator built a %T, New a %T", old, cur)
	}
}
