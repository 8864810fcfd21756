# Prepended by Go to runner.py and kernel.py, before anything else runs:
# installs the session's seccomp filter (see sandbox_seccomp.go: fallocate
# fails with EOPNOTSUPP, so the disk budget can follow every block a cell
# writes). The filter comes base64 in SIFT_SECCOMP and is unset here; it
# holds for this process and every process it starts, and cannot be
# removed. A failure to install it is printed on stderr (the kernel's log).
def _sift_install_filter():
    import os

    prog = os.environ.pop("SIFT_SECCOMP", "")
    if not prog:
        return
    import base64
    import ctypes

    raw = base64.b64decode(prog)

    class _Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buf = ctypes.create_string_buffer(raw, len(raw))
    fprog = _Fprog(len(raw) // 8, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        import sys

        sys.stderr.write("sift: cannot install the disk filter: %s\n" % os.strerror(ctypes.get_errno()))


_sift_install_filter()
del _sift_install_filter
