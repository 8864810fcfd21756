package tree

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestTodayNoteHoldsTheInjectedDateZoneAndLocale(t *testing.T) {
	shanghai := time.FixedZone("Asia/Shanghai", 8*3600)
	ctx := WithClock(context.Background(), func() time.Time { return time.Date(2024, 3, 1, 0, 30, 0, 0, shanghai) })
	got := todayNote(ctx, "zh-CN")
	want := "\n\n## Today\n2024-03-01 (Friday), time zone Asia/Shanghai (UTC+08:00), locale zh-CN."
	if !strings.HasPrefix(got, want) {
		t.Errorf("todayNote = %q, want it to start %q", got, want)
	}
	// The same day at another hour gives the same prompt: it stays cacheable.
	later := WithClock(context.Background(), func() time.Time { return time.Date(2024, 3, 1, 23, 59, 0, 0, shanghai) })
	if todayNote(later, "zh-CN") != got {
		t.Error("the note must not change within a day")
	}
	if n := todayNote(WithClock(context.Background(), func() time.Time { return time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC) }), ""); !strings.Contains(n, "time zone UTC+00:00. Resolve") {
		t.Errorf("UTC without a locale: %q", n)
	}
}

func TestLocaleFromEnv(t *testing.T) {
	for env, want := range map[string]string{"zh_CN.UTF-8": "zh-CN", "en_US": "en-US", "C.UTF-8": "", "de_DE@euro": "de-DE", "": ""} {
		got := LocaleFromEnv(func(k string) string {
			if k == "LANG" {
				return env
			}
			return ""
		})
		if got != want {
			t.Errorf("LANG=%q: locale %q, want %q", env, got, want)
		}
	}
}
