package sandbox

import (
	"encoding/base64"
	"encoding/binary"
	"runtime"
	"sync"

	"golang.org/x/net/bpf"
)

// A session's disk budget is accounting (see disk.go): the
// workspace is measured while a cell runs, and a cell that passes the
// budget is interrupted. fallocate(2) defeats that: one call reserves
// gigabytes of blocks at once, so a cell could pass the budget many times
// over between two measurements. Every program Sift starts in a workspace
// (the kernel, a process-mode cell) therefore installs, before it runs any
// code of the session, a seccomp filter under which fallocate fails with
// EOPNOTSUPP, as on a file system that lacks it: the C library's
// posix_fallocate then writes the blocks one by one, at the pace a
// measurement can follow, and nothing else changes. The filter is
// inherited by every process the program starts and cannot be removed.
// It covers the host's own system call ABI and its 32-bit ones (i386 and
// x32 on amd64, arm on arm64); on other architectures there is none.

// seccompEnv names the variable that carries the filter (base64 of the
// raw struct sock_filter array) to the program, which installs and
// unsets it first thing (kernel.py, runner.py).
const seccompEnv = "SIFT_SECCOMP"

// Audit architecture numbers (linux/audit.h) and the fallocate system
// call's number in each ABI.
const (
	auditArchX8664   = 0xc000003e
	auditArchI386    = 0x40000003
	auditArchAarch64 = 0xc00000b7
	auditArchARM     = 0x40000028
	x32SyscallBit    = 0x40000000
	seccompRetAllow  = 0x7fff0000
	seccompRetErrno  = 0x00050000
	errnoEOPNOTSUPP  = 95
	seccompDataNr    = 0 // offsetof(struct seccomp_data, nr)
	seccompDataArch  = 4 // offsetof(struct seccomp_data, arch)
)

// fallocateNumbers are, per audit architecture of goarch's ABIs, the
// numbers fallocate has there.
func fallocateNumbers(goarch string) [][2]uint32 {
	switch goarch {
	case "amd64":
		return [][2]uint32{{auditArchX8664, 285}, {auditArchX8664, x32SyscallBit | 285}, {auditArchI386, 324}}
	case "arm64":
		return [][2]uint32{{auditArchAarch64, 47}, {auditArchARM, 352}}
	}
	return nil
}

// fallocateFilter assembles the filter for goarch: fallocate fails with
// EOPNOTSUPP in each ABI, every other call is allowed. Nil for an
// architecture it does not know.
func fallocateFilter(goarch string) []bpf.RawInstruction {
	pairs := fallocateNumbers(goarch)
	if len(pairs) == 0 {
		return nil
	}
	// Per architecture: if arch matches, load nr and compare with each of
	// its numbers (a match jumps to the final EOPNOTSUPP), else go on
	// with the next architecture; whatever matches nothing is allowed.
	var archs []uint32
	nrs := map[uint32][]uint32{}
	for _, p := range pairs {
		if _, seen := nrs[p[0]]; !seen {
			archs = append(archs, p[0])
		}
		nrs[p[0]] = append(nrs[p[0]], p[1])
	}
	size := 1 + 2 // load arch ... allow, deny
	for _, a := range archs {
		size += 3 + len(nrs[a]) // jeq arch, load nr, jeq each, ret allow
	}
	deny := size - 1
	prog := []bpf.Instruction{bpf.LoadAbsolute{Off: seccompDataArch, Size: 4}}
	for i, a := range archs {
		body := 2 + len(nrs[a]) // load nr, jeq each, ret allow
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: a, SkipFalse: uint8(body)})
		prog = append(prog, bpf.LoadAbsolute{Off: seccompDataNr, Size: 4})
		for _, nr := range nrs[a] {
			pc := len(prog)
			prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipTrue: uint8(deny - pc - 1)})
		}
		prog = append(prog, bpf.RetConstant{Val: seccompRetAllow})
		if i == len(archs)-1 {
			prog = append(prog, bpf.RetConstant{Val: seccompRetAllow})
		}
	}
	prog = append(prog, bpf.RetConstant{Val: seccompRetErrno | errnoEOPNOTSUPP})
	raw, err := bpf.Assemble(prog)
	if err != nil || len(raw) != size {
		panic("operator: the fallocate filter does not assemble")
	}
	return raw
}

// encodeFilter returns raw as the bytes of a struct sock_filter array
// (code u16, jt u8, jf u8, k u32, host order: every architecture above is
// little-endian), base64.
func encodeFilter(raw []bpf.RawInstruction) string {
	b := make([]byte, 0, 8*len(raw))
	for _, in := range raw {
		b = binary.LittleEndian.AppendUint16(b, in.Op)
		b = append(b, in.Jt, in.Jf)
		b = binary.LittleEndian.AppendUint32(b, in.K)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// SeccompEnv returns the SIFT_SECCOMP=… entry of this host's filter,
// or "" when there is none for its architecture.
var SeccompEnv = sync.OnceValue(func() string {
	raw := fallocateFilter(runtime.GOARCH)
	if raw == nil {
		return ""
	}
	return seccompEnv + "=" + encodeFilter(raw)
})
