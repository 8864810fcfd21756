package operator

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/net/bpf"
)

// fallocateProbe calls fallocate(2) for 512 MiB directly (no fallback),
// then posix_fallocate for 1 MiB (the C library writes the blocks itself
// when the call is refused), and prints what each did.
const fallocateProbe = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("work/reserved.bin", os.O_CREAT | os.O_WRONLY, 0o600)
r = libc.fallocate(fd, 0, ctypes.c_long(0), ctypes.c_long(512 << 20))
err = ctypes.get_errno() if r != 0 else 0
os.close(fd)
blocks = os.stat("work/reserved.bin").st_blocks * 512
os.posix_fallocate(os.open("work/small.bin", os.O_CREAT | os.O_WRONLY, 0o600), 0, 1 << 20)
print("fallocate", r, err, blocks, os.stat("work/small.bin").st_size)
`

// TestFallocateCannotReserveTheDiskAtOnce: fallocate(2) in a session's
// program fails with EOPNOTSUPP (so a cell cannot reserve gigabytes
// between two measurements of the disk budget), in the kernel and in
// process mode, sandboxed or not; posix_fallocate still works, writing
// the blocks at a pace the budget's measurement follows.
func TestFallocateCannotReserveTheDiskAtOnce(t *testing.T) {
	if seccompEnvVar() == "" {
		t.Skip("skipping: no fallocate filter for this architecture")
	}
	check := func(t *testing.T, res *RunResult) {
		t.Helper()
		if !res.OK() {
			t.Fatalf("probe failed: %s\n%s", res.Error, res.Stderr)
		}
		f := strings.Fields(strings.TrimSpace(res.Stdout))
		want := []string{"fallocate", "-1", "95", "0", "1048576"}
		if strings.Join(f, " ") != strings.Join(want, " ") {
			t.Errorf("probe printed %q; want %q (fallocate refused with EOPNOTSUPP, nothing reserved, posix_fallocate's 1 MiB written)", f, want)
		}
		if strings.Contains(res.Stderr, "cannot install the disk filter") {
			t.Errorf("the filter did not install: %s", res.Stderr)
		}
	}
	for _, mode := range []SandboxMode{SandboxNone, SandboxBwrap} {
		t.Run("kernel/"+string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, Limits{})
			k := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
			check(t, mustRun(t, k, fallocateProbe))
		})
		t.Run("process/"+string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, Limits{})
			l, _ := newLocal(t, needPython(t), func(c *LocalConfig) { c.Sandbox = sb })
			res, err := l.RunPython(context.Background(), fallocateProbe, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, res)
		})
	}
}

// TestFallocateFilterProgram: the filter refuses fallocate in each ABI of
// the architecture (x86-64, x32 and i386 on amd64) and allows the other
// calls, checked by running the program on seccomp_data by hand.
func TestFallocateFilterProgram(t *testing.T) {
	raw := fallocateFilter("amd64")
	insns := make([]bpf.Instruction, len(raw))
	for i, r := range raw {
		insns[i] = r.Disassemble()
	}
	vm, err := bpf.NewVM(insns)
	if err != nil {
		t.Fatal(err)
	}
	data := func(arch, nr uint32) []byte {
		b := make([]byte, 64)
		// seccomp_data is host order; the VM loads big-endian words, so
		// the test writes them big-endian to read the same numbers.
		b[0], b[1], b[2], b[3] = byte(nr>>24), byte(nr>>16), byte(nr>>8), byte(nr)
		b[4], b[5], b[6], b[7] = byte(arch>>24), byte(arch>>16), byte(arch>>8), byte(arch)
		return b
	}
	for _, c := range []struct {
		name     string
		arch, nr uint32
		want     int
	}{
		{"x86-64 fallocate", auditArchX8664, 285, seccompRetErrno | errnoEOPNOTSUPP},
		{"x32 fallocate", auditArchX8664, x32SyscallBit | 285, seccompRetErrno | errnoEOPNOTSUPP},
		{"i386 fallocate", auditArchI386, 324, seccompRetErrno | errnoEOPNOTSUPP},
		{"x86-64 write", auditArchX8664, 1, seccompRetAllow},
		{"i386 285 is not fallocate", auditArchI386, 285, seccompRetAllow},
		{"another architecture", auditArchAarch64, 47, seccompRetAllow},
	} {
		got, err := vm.Run(data(c.arch, c.nr))
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: filter returns %#x; want %#x", c.name, got, c.want)
		}
	}
	if fallocateFilter("riscv64") != nil {
		t.Error("an architecture without numbers gets a filter")
	}
}
