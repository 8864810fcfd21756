package sandbox

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseByteSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"2GiB", 2 << 30, false},
		{"2gib", 2 << 30, false},
		{"512MiB", 512 << 20, false},
		{"512M", 512 << 20, false},
		{"1.5G", 3 << 29, false},
		{"750MB", 750e6, false},
		{"4 GB", 4e9, false},
		{"64KiB", 64 << 10, false},
		{"1073741824", 1 << 30, false},
		{"100B", 100, false},
		{"1TiB", 1 << 40, false},
		{"unlimited", -1, false},
		{"none", -1, false},
		{"", 0, true},
		{"GiB", 0, true},
		{"2 gigs", 0, true},
		{"0", 0, true},
		{"-1GiB", 0, true},
		{"1.2.3G", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseByteSize(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseByteSize(%q) error = %v; want error %v", tt.in, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("ParseByteSize(%q) = %d; want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestDefaultLimits(t *testing.T) {
	want := Limits{MemoryBytes: 4 << 30, Processes: 256, FileSizeBytes: 1 << 30, CPUSeconds: 3600, DiskBytes: 4 << 30, DiskFiles: 100000}
	if diff := cmp.Diff(want, DefaultLimits()); diff != "" {
		t.Errorf("DefaultLimits (-want +got):\n%s", diff)
	}
}

func TestLimitsCombine(t *testing.T) {
	tests := []struct {
		name         string
		a, b, want   Limits
		withDefaults bool
	}{
		{"stricter of each", Limits{MemoryBytes: 100, Processes: 5, FileSizeBytes: 10, CPUSeconds: 3},
			Limits{MemoryBytes: 50, Processes: 9, FileSizeBytes: 20, CPUSeconds: 1},
			Limits{MemoryBytes: 50, Processes: 5, FileSizeBytes: 10, CPUSeconds: 1}, false},
		{"zero on one side takes the other", Limits{MemoryBytes: 100}, Limits{Processes: 7},
			Limits{MemoryBytes: 100, Processes: 7}, false},
		{"negative means none", Limits{MemoryBytes: -1, Processes: -1}, Limits{Processes: 7},
			Limits{Processes: 7}, false},
		{"defaults fill zero fields only", Limits{MemoryBytes: 1 << 20, Processes: -1}, DefaultLimits(),
			Limits{MemoryBytes: 1 << 20, Processes: -1, FileSizeBytes: 1 << 30, CPUSeconds: 3600, DiskBytes: 4 << 30, DiskFiles: 100000}, true},
		{"disk budget: stricter of each", Limits{DiskBytes: 100, DiskFiles: -1}, Limits{DiskBytes: 50, DiskFiles: 9},
			Limits{DiskBytes: 50, DiskFiles: 9}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.a.Tighter(tt.b)
			if tt.withDefaults {
				got = tt.a.WithDefaults(tt.b)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrlimitArgs(t *testing.T) {
	tests := []struct {
		name string
		in   Limits
		want string
	}{
		{"none", Limits{}, ""},
		{"unlimited", Limits{MemoryBytes: -1, Processes: -1}, ""},
		{"all", Limits{MemoryBytes: 1 << 30, Processes: 32, FileSizeBytes: 8 << 20, CPUSeconds: 60},
			"--core=0 --as=1073741824 --nproc=32 --fsize=8388608 --cpu=60:65 --"},
		{"memory only", Limits{MemoryBytes: 1 << 20}, "--core=0 --as=1048576 --"},
		{"no file past the disk budget", Limits{FileSizeBytes: 8 << 20, DiskBytes: 1 << 20, DiskFiles: 10}, "--core=0 --fsize=1048576 --"},
		{"disk budget alone caps files", Limits{DiskBytes: 1 << 20}, "--core=0 --fsize=1048576 --"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(tt.in.prlimitArgs(), " "); got != tt.want {
				t.Errorf("prlimitArgs = %q; want %q", got, tt.want)
			}
		})
	}
}
