// Package report turns a run's markdown report into the self-contained
// HTML page Sift serves and saves: charts and images inlined from the
// workspace, Python tracebacks folded, one stylesheet embedded; and it
// names the report file of each question of a session (report-NN.md).
package report
