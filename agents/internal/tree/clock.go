package tree

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"
)

// clockKey carries a run's clock on its context.
type clockKey struct{}

// WithClock returns a context whose runs read the current time from now:
// the date every agent's prompt carries, against which the models resolve
// "last month", "YTD" or "this year". Tests and replays pin it; the time
// zone is now's location. Without it, runs use time.Now.
func WithClock(ctx context.Context, now func() time.Time) context.Context {
	return context.WithValue(ctx, clockKey{}, now)
}

// nowFrom is the run's current time.
func nowFrom(ctx context.Context) time.Time {
	if now, ok := ctx.Value(clockKey{}).(func() time.Time); ok && now != nil {
		return now()
	}
	return time.Now()
}

// todayNote is the date, time zone and locale every agent's system prompt
// ends with. It holds the date only, not the time of day, so the prompt
// stays the same all day and its prefix can be cached.
func todayNote(ctx context.Context, locale string) string {
	t := nowFrom(ctx)
	zone := t.Location().String()
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	offset := fmt.Sprintf("UTC%s%02d:%02d", sign, off/3600, off%3600/60)
	if zone == "" || zone == "Local" || zone == "UTC" {
		zone = offset
	} else {
		zone += " (" + offset + ")"
	}
	note := fmt.Sprintf("\n\n## Today\n%s (%s), time zone %s", t.Format("2006-01-02"), t.Weekday(), zone)
	if locale != "" && locale != "C" {
		note += ", locale " + locale
	}
	return note + `. Resolve relative dates against it, saying which you used.`
}

// promptTail is what ends every agent's system prompt but the
// replanner's: the service's house rules, then today's date (the part that
// changes, last).
func (cfg treeConfig) promptTail(ctx context.Context) string {
	return cfg.ext.houseRules() + todayNote(ctx, cfg.locale)
}

// LocaleFromEnv reads the person's locale from LC_ALL, LC_MESSAGES or LANG
// ("zh_CN.UTF-8" → "zh-CN"); empty for C/POSIX or none.
func LocaleFromEnv(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(k)
		if v == "" {
			continue
		}
		v, _, _ = strings.Cut(v, ".")
		v, _, _ = strings.Cut(v, "@")
		if v == "C" || v == "POSIX" {
			return ""
		}
		return strings.ReplaceAll(v, "_", "-")
	}
	return ""
}

// replannerTail ends the replanner's system prompt: the house rules
// without today's date. The replanner runs after every step, so the date
// would be billed on each; it resolves no dates itself (the planner and the
// code agent do, and the results say which dates they used).
func (cfg treeConfig) replannerTail() string {
	return cfg.ext.houseRules()
}

// pauseKey carries the channel that asks a run to pause.
type pauseKey struct{}

// WithPause returns a context under which a run stops at its next safe
// point (before a plan step) once pause is closed: the session is then
// paused, keeps everything done so far, and goes on with Sift.Resume.
// Cancelling the context instead stops the run at once.
func WithPause(ctx context.Context, pause <-chan struct{}) context.Context {
	return context.WithValue(ctx, pauseKey{}, pause)
}

// PauseRequested reports whether the run under ctx was asked to pause.
func PauseRequested(ctx context.Context) bool {
	ch, _ := ctx.Value(pauseKey{}).(<-chan struct{})
	if ch == nil {
		return false
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
