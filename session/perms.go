package session

// SessionFileMode is the mode of the files Sift writes for a session
// (events.jsonl, state.json, plan.md, the report, meta.json, claims,
// checkpoints): the owner's alone, as the sessions root and each
// workspace (0700) are. A session's previews and results are no other
// local user's to read.
const SessionFileMode = 0o600
