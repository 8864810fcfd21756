package llm

import (
	"io"

	"github.com/sift-agent/sift/llm/trajectory"
)

// The names of release 1, before trajectories and their replay moved to
// package llm/trajectory (trajectory.Record, not llm.TrajectoryRecord).
// They are kept for one release so that code written against them still
// compiles; a record's Counts method is trajectory.Record's own (as is
// RecordedCounts(rec)).

// Deprecated: use trajectory.Writer.
type Trajectory = trajectory.Writer

// Deprecated: use trajectory.Config.
type TrajectoryConfig = trajectory.Config

// Deprecated: use trajectory.Record.
type TrajectoryRecord = trajectory.Record

// Deprecated: use trajectory.Message.
type TrajectoryMessage = trajectory.Message

// Deprecated: use trajectory.ToolCall.
type TrajectoryToolCall = trajectory.ToolCall

// Deprecated: use trajectory.Tool.
type TrajectoryTool = trajectory.Tool

// Deprecated: use trajectory.Usage.
type TrajectoryUsage = trajectory.Usage

// Deprecated: use trajectory.Replay.
type Replay = trajectory.Replay

// Deprecated: use trajectory.ReplayConfig.
type ReplayConfig = trajectory.ReplayConfig

// Deprecated: use trajectory.Divergence.
type Divergence = trajectory.Divergence

// Deprecated: use trajectory.DivergenceKind.
type DivergenceKind = trajectory.DivergenceKind

const (
	// Deprecated: use trajectory.DivergedRequest.
	DivergedRequest = trajectory.DivergedRequest
	// Deprecated: use trajectory.DivergedTools.
	DivergedTools = trajectory.DivergedTools
	// Deprecated: use trajectory.DivergedUnanswerable.
	DivergedUnanswerable = trajectory.DivergedUnanswerable
	// Deprecated: use trajectory.DivergedUnused.
	DivergedUnused = trajectory.DivergedUnused
)

// Deprecated: use trajectory.ErrUnanswerable.
var ErrReplayUnanswerable = trajectory.ErrUnanswerable

// Deprecated: use trajectory.NewWriter.
func NewTrajectory(w io.Writer, cfg TrajectoryConfig) *Trajectory {
	return trajectory.NewWriter(w, cfg)
}

// Deprecated: use trajectory.Open.
func OpenTrajectory(path string, cfg TrajectoryConfig) (*Trajectory, error) {
	return trajectory.Open(path, cfg)
}

// Deprecated: use trajectory.Read.
func ReadTrajectory(r io.Reader) ([]TrajectoryRecord, error) { return trajectory.Read(r) }

// Deprecated: use trajectory.Scan.
func ScanTrajectory(r io.Reader, skipDamaged bool, fn func(TrajectoryRecord)) (damaged int, err error) {
	return trajectory.Scan(r, skipDamaged, fn)
}

// Deprecated: use trajectory.Load.
func LoadTrajectory(path string) ([]TrajectoryRecord, error) { return trajectory.Load(path) }

// Deprecated: use trajectory.NewReplay.
func NewReplay(records []TrajectoryRecord, cfg ReplayConfig) *Replay {
	return trajectory.NewReplay(records, cfg)
}

// Deprecated: use trajectory.BlankTimings.
func BlankTimings(s string) string { return trajectory.BlankTimings(s) }
