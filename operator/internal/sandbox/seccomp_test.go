package sandbox

import (
	"testing"

	"golang.org/x/net/bpf"
)

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
