# Sift kernel: one long-lived interpreter whose globals persist between cells.
#
# Usage: python -u -c BOOTSTRAP KERNEL [PRELOAD_MODULE ...]
#
# where BOOTSTRAP compiles KERNEL (this text) under the file name
# KERNEL_FILE, so that the kernel's own frames can be told from the cell's.
#
# It runs in the workspace root (its working directory when started) and
# speaks a framed protocol with the Go side: every message is a 4-byte
# big-endian length followed by that many bytes of UTF-8 JSON. Requests come
# on stdin, replies go out on fd 3, so nothing a cell prints can corrupt the
# protocol. Both are moved to private descriptors at start: the cell sees
# /dev/null as stdin, and subprocesses inherit neither.
#
# At start it imports the PRELOAD modules (failures are ignored: the cell
# that needs one will say so) and sends {"ready": true, "python": VERSION}.
#
# Request {"op": "run", "cell": "0001", "file": "work/.cells/cell-0001.py",
#          "code": SOURCE, "stdout": PATH, "stderr": PATH, "replay": false,
#          "max_output": BYTES}
# runs SOURCE in the persistent globals with fds 1 and 2 redirected to the
# fresh files STDOUT and STDERR (so subprocesses and C code are captured
# too), the value of a trailing expression rendered, every open matplotlib
# figure saved as out/figure-CELL-N.png and closed (on replay: closed, not
# saved). Reply: {"cell", "value", "error", "figures", "interrupted",
# "written", "state", "stdout", "stderr"}, "state" a few lines naming the
# data the globals hold (see _state), the last two read from the kernel's own
# descriptors of the capture files (see _Redirect.take), so the Go side
# opens no file the cell could have replaced. A SIGINT interrupts
# the running cell with KeyboardInterrupt; between cells it is ignored. The
# kernel exits when its stdin closes.
import ast
import base64
import builtins
import errno
import json
import linecache
import os
import re
import signal
import struct
import sys
import traceback
import types

KERNEL_FILE = "<sift-kernel>"

_busy = False  # a cell is executing: SIGINT may interrupt it
_interrupted = False  # a SIGINT arrived while the current cell ran


def _on_sigint(signum, frame):
    global _interrupted
    if _busy:
        _interrupted = True
        raise KeyboardInterrupt


def _read_exact(fd, n):
    chunks = []
    while n > 0:
        chunk = os.read(fd, n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _read_frame(fd):
    head = _read_exact(fd, 4)
    if head is None:
        return None
    (size,) = struct.unpack(">I", head)
    body = _read_exact(fd, size)
    if body is None:
        return None
    return json.loads(body.decode("utf-8"))


def _write_frame(fd, obj):
    body = json.dumps(obj).encode("utf-8")
    data = struct.pack(">I", len(body)) + body
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _format_error(exc, cell_file):
    if isinstance(exc, SyntaxError) and exc.filename == cell_file:
        return "".join(traceback.format_exception_only(type(exc), exc))
    # Drop the kernel's own frames: the traceback starts at the cell, and
    # the signal handler that raised a KeyboardInterrupt is not shown.
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != cell_file:
        tb = tb.tb_next
    if tb is None:
        return "".join(traceback.format_exception_only(type(exc), exc))
    te = traceback.TracebackException(type(exc), exc, tb)
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if f.filename != KERNEL_FILE])
    return "".join(te.format())


# The paths the running cell opened for writing (an audit hook collects
# them), so a step's files are told from those of steps running at the
# same time in other kernels on the same workspace. None between cells.
_written = None

# At most this many are remembered per cell (Go lists at most 200 anyway).
_WRITTEN_MAX = 10000

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _audit(event, args):
    if _written is None:
        return
    try:
        if event == "open":
            path, mode, flags = args
            if isinstance(path, int):
                return
            if mode is not None:
                if not any(c in mode for c in "wax+"):
                    return
            elif not flags & _WRITE_FLAGS:
                return
        elif event in ("os.rename", "os.replace", "shutil.copyfile", "shutil.copymode", "os.link", "os.symlink"):
            path = args[1]
        else:
            return
        if isinstance(path, int) or len(_written) >= _WRITTEN_MAX:
            return
        _written.add(os.path.abspath(os.fsdecode(path)))
    except Exception:
        pass


def _written_paths(root):
    out = set()
    for path in _written or ():
        rel = os.path.relpath(path, root)
        if not rel.startswith(".."):
            out.add(rel.replace(os.sep, "/"))
    return sorted(out)


def _save_figures(root, cell_id, save, result):
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        nums = plt.get_fignums()
        if save:
            if nums:
                os.makedirs(os.path.join(root, "out"), exist_ok=True)
            for n, num in enumerate(nums, 1):
                path = "out/figure-%s-%d.png" % (cell_id, n)
                _warn_missing_cjk(plt.figure(num))
                plt.figure(num).savefig(os.path.join(root, path), dpi=100, bbox_inches="tight")
                result["figures"].append(path)
        plt.close("all")
    except BaseException as exc:
        note = "saving figures failed: %s: %s\n" % (type(exc).__name__, exc)
        result["error"] = (result["error"] + "\n" + note) if result["error"] else note


class _Redirect:
    """Points fds 1 and 2 at a cell's capture files, and back."""

    def __init__(self, root, stdout_path, stderr_path):
        self.paths = (os.path.join(root, stdout_path), os.path.join(root, stderr_path))
        self.saved = []
        self.targets = []
        self.in_memory = set()

    def __enter__(self):
        for fd, path in zip((1, 2), self.paths):
            # A fresh file: whatever a cell left at this name (a link, a
            # FIFO that would block the open) is removed, not opened.
            try:
                os.unlink(path)
            except OSError:
                pass
            try:
                target = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            except OSError as e:
                if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                    raise
                # The session's disk is full (a cell used up its files or
                # bytes): the output is caught in memory, so the cell that
                # deletes what filled it can still run.
                target = os.memfd_create("cell-output")
                self.in_memory.add(target)
            self.saved.append(os.dup(fd))
            os.dup2(target, fd)
            self.targets.append(target)
        return self

    def __exit__(self, *exc):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        return False

    def take(self, limit, drop):
        """What the cell wrote to each capture file, read from the kernel's
        own descriptors (whatever the cell did to the names), so the Go side
        never opens them: {"head", "tail" (base64), "size", "kept"}. Output
        that fits limit is all in head and its file removed; longer output
        keeps head and tail and its file."""
        out = []
        for target, path in zip(self.targets, self.paths):
            try:
                st = os.fstat(target)
                size = st.st_size
                kept = size > limit and not drop and target not in self.in_memory
                if drop:
                    head, tail = b"", b""
                elif not kept:
                    head, tail = os.pread(target, size, 0), b""
                else:
                    head = os.pread(target, limit // 2, 0)
                    tail = os.pread(target, limit - limit // 2, size - (limit - limit // 2))
                if not kept:
                    try:
                        now = os.stat(path, follow_symlinks=False)
                        if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                            os.unlink(path)
                    except OSError:
                        pass
                out.append({"head": base64.b64encode(head).decode(), "tail": base64.b64encode(tail).decode(),
                            "size": size, "kept": kept})
            except OSError:
                out.append(None)
            finally:
                os.close(target)
        self.targets = []
        return out


def _run(root, scope, req):
    global _busy, _interrupted
    cell_id, cell_file, code = req["cell"], req["file"], req["code"]
    global _written
    result = {"cell": cell_id, "value": "", "error": "", "figures": [], "interrupted": False, "written": []}
    # Every cell starts in the workspace root, whatever the last one did.
    os.chdir(root)
    sys.argv = [cell_file]
    scope["__file__"] = cell_file
    # Tracebacks show the cell's lines even if the file is moved or the
    # cell changes directory.
    lines = code.splitlines(True)
    linecache.cache[cell_file] = (len(code), None, lines, cell_file)
    # A cell may have replaced the handler (or ignored SIGINT); take it back.
    signal.signal(signal.SIGINT, _on_sigint)
    _interrupted = False
    redirect = _Redirect(root, req["stdout"], req["stderr"])
    with redirect:
        _written = set()
        try:
            try:
                tree = ast.parse(code, cell_file, "exec")
                last = None
                if tree.body and isinstance(tree.body[-1], ast.Expr):
                    last = ast.Expression(tree.body.pop().value)
                body = compile(tree, cell_file, "exec")
                tail = compile(last, cell_file, "eval") if last is not None else None
                _busy = True
                exec(body, scope)
                value = eval(tail, scope) if tail is not None else None
                _busy = False
                if value is not None:
                    result["value"] = _render(value)
            finally:
                _busy = False
        except SystemExit as exc:
            if exc.code not in (None, 0):
                result["error"] = "SystemExit: %s\n" % (exc.code,)
        except BaseException as exc:
            result["error"] = _format_error(exc, cell_file)
        _save_figures(root, cell_id, not req.get("replay"), result)
        result["written"] = _written_paths(root)
        try:
            result["state"] = _state(scope)
        except Exception:
            result["state"] = ""
        _written = None
    result["stdout"], result["stderr"] = redirect.take(int(req.get("max_output") or 65536), bool(req.get("replay")))
    result["interrupted"] = _interrupted
    return result


STATE_VARIABLES = 20  # variables _state describes
STATE_COLUMNS = 30  # columns (or folded runs of them) of a DataFrame it names
STATE_LIMIT = 2000  # characters of the whole text


def _columns(frame):
    """A DataFrame's columns as "name dtype", runs of four or more
    same-typed columns numbered in order (m01, m02, ...) folded into one."""
    names, dtypes = [str(c) for c in frame.columns], list(frame.dtypes)
    out, i = [], 0
    while i < len(names):
        j = i + 1
        m = re.match(r"^(.*?)(\d+)$", names[i])
        while m and j < len(names):
            n = re.match(r"^(.*?)(\d+)$", names[j])
            if not n or n.group(1) != m.group(1) or int(n.group(2)) != int(m.group(2)) + j - i or dtypes[j] != dtypes[i]:
                break
            j += 1
        if j - i >= 4:
            out.append("%s … %s %s ×%d" % (names[i], names[j - 1], dtypes[i], j - i))
        else:
            j = i + 1
            out.append("%s %s" % (names[i], dtypes[i]))
        i = j
    return out


def _state(scope):
    """A few lines naming what the globals hold, by name: each DataFrame with its
    shape and columns (dtype), each Series and array with its length or
    shape, other values by type; modules, functions, classes and private
    names left out. Cheap: no data is read."""
    pd = sys.modules.get("pandas")
    np = sys.modules.get("numpy")
    lines, others = [], []
    # In name order: the order globals were set in depends on which of a
    # plan's parallel branches finished first, and prompts must not.
    for name, value in sorted(scope.items()):
        if name.startswith("_") or isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)):
            continue
        if len(lines) >= STATE_VARIABLES:
            others.append(name)
            continue
        try:
            if pd is not None and isinstance(value, pd.DataFrame):
                cols = _columns(value)
                if len(cols) > STATE_COLUMNS:
                    cols = cols[:STATE_COLUMNS] + ["+%d more" % (len(cols) - STATE_COLUMNS)]
                index = ""
                if not isinstance(value.index, pd.RangeIndex):
                    index = "; index %s %s" % (value.index.name or "", value.index.dtype)
                lines.append("%s: DataFrame %d rows × %d columns%s: %s" % (name, value.shape[0], value.shape[1], index, ", ".join(cols)))
            elif pd is not None and isinstance(value, pd.Series):
                lines.append("%s: Series %d %s%s" % (name, len(value), value.dtype, " (name %s)" % value.name if value.name is not None else ""))
            elif np is not None and isinstance(value, np.ndarray):
                lines.append("%s: ndarray %s %s" % (name, value.shape, value.dtype))
            elif isinstance(value, (list, tuple, dict, set)):
                lines.append("%s: %s of %d" % (name, type(value).__name__, len(value)))
            elif isinstance(value, (bool, int, float, str)):
                lines.append("%s: %s" % (name, type(value).__name__))
            else:
                others.append(name)
        except Exception:
            others.append(name)
    if others:
        lines.append("also: " + ", ".join(others[:STATE_VARIABLES]) + (" …" if len(others) > STATE_VARIABLES else ""))
    text = "\n".join(lines)
    if len(text) > STATE_LIMIT:
        text = text[:STATE_LIMIT].rsplit("\n", 1)[0] + "\n…"
    return text


def _preload(names):
    for name in names:
        try:
            __import__(name)
        except Exception:
            pass


def _main():
    # Take the protocol's descriptors private (non-inheritable, away from
    # 0 and 3) before any user code runs.
    requests = os.dup(0)
    replies = os.dup(3)
    os.close(3)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    root = os.getcwd()
    if "" not in sys.path:
        sys.path.insert(0, "")
    os.environ.setdefault("MPLBACKEND", "Agg")
    _seed_font_cache()
    _install_font_fallback()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _preload(sys.argv[1:])
    signal.signal(signal.SIGINT, _on_sigint)
    sys.addaudithook(_audit)
    # The cells' globals are a real __main__ module, so that pickle and
    # multiprocessing find the classes and functions cells define.
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    scope = main.__dict__
    _write_frame(replies, {"ready": True, "python": sys.version.split()[0]})
    while True:
        try:
            req = _read_frame(requests)
        except KeyboardInterrupt:
            continue
        if req is None:  # the Go side closed the pipe: shut down
            break
        try:
            reply = _run(root, scope, req)
        except KeyboardInterrupt:  # a late interrupt between the cell and its reply
            reply = {"cell": req.get("cell"), "value": "", "error": "KeyboardInterrupt\n", "figures": [], "interrupted": True}
        except BaseException as exc:  # the kernel's own bookkeeping failed: say so, keep serving
            reply = {"cell": req.get("cell"), "value": "", "error": "kernel error: %s: %s\n" % (type(exc).__name__, exc),
                     "figures": [], "interrupted": False}
        _write_frame(replies, reply)
    sys.stdout.flush()
    os._exit(0)


_main()
