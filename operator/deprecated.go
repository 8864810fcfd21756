package operator

// The names of release 1, before they stopped repeating the package name
// (operator.Config, not operator.OperatorConfig). They are kept for one
// release so that code written against them still compiles.

// Deprecated: use Config.
type OperatorConfig = Config

// Deprecated: use New.
func NewOperator(cfg Config) (Operator, error) { return New(cfg) }
