# Sift cell runner: runs one cell of generated code in a fresh interpreter.
#
# Usage: python -c RUNNER ROOT CELL_FILE RESULT_FILE CELL_ID
#
# It chdirs to the workspace ROOT, runs CELL_FILE so that the value of a
# trailing expression is captured, saves every open matplotlib figure to
# out/figure-CELL_ID-N.png, and writes what happened as one JSON object to
# RESULT_FILE: {"value", "error", "figures"}. The cell's own stdout and
# stderr are left alone; the traceback of an exception goes to RESULT_FILE,
# never to stderr.
import ast
import json
import os
import sys
import traceback



def _format_error(exc, cell_file):
    if isinstance(exc, SyntaxError) and exc.filename == cell_file:
        return "".join(traceback.format_exception_only(type(exc), exc))
    # Drop the runner's own frames: the traceback starts at the cell.
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != cell_file:
        tb = tb.tb_next
    if tb is None:
        tb = exc.__traceback__
    return "".join(traceback.format_exception(type(exc), exc, tb))


def _save_figures(root, cell_id, result):
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        nums = plt.get_fignums()
        if nums:
            os.makedirs(os.path.join(root, "out"), exist_ok=True)
        for n, num in enumerate(nums, 1):
            path = "out/figure-%s-%d.png" % (cell_id, n)
            _warn_missing_cjk(plt.figure(num))
            plt.figure(num).savefig(os.path.join(root, path), dpi=100, bbox_inches="tight")
            result["figures"].append(path)
        plt.close("all")
    except Exception as exc:
        note = "saving figures failed: %s: %s\n" % (type(exc).__name__, exc)
        result["error"] = (result["error"] + "\n" + note) if result["error"] else note


def _main():
    root, cell_file, cell_id = sys.argv[1:4]
    # The code comes on stdin and the result goes to fd 3, so that a cell
    # runs on a session disk too full for any file (the cell file, when it
    # could be saved, serves tracebacks). The cell's own stdin is empty.
    source = sys.stdin.buffer.read().decode("utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    result_out = os.fdopen(3, "w", encoding="utf-8")
    os.set_inheritable(3, False)
    os.chdir(root)
    # The cell may chdir; everything the runner writes uses absolute paths.
    root = os.getcwd()
    sys.argv = [cell_file]
    if "" not in sys.path:
        sys.path.insert(0, "")
    # matplotlib reads this when the cell imports it; importing it here
    # would cost every cell a third of a second.
    os.environ["MPLBACKEND"] = "Agg"
    _seed_font_cache()
    _install_font_fallback()
    result = {"value": "", "error": "", "figures": []}
    scope = {"__name__": "__main__", "__file__": cell_file, "__builtins__": __builtins__}
    try:
        tree = ast.parse(source, cell_file, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, cell_file, "exec"), scope)
        if last is not None:
            value = eval(compile(last, cell_file, "eval"), scope)
            if value is not None:
                result["value"] = _render(value)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            result["error"] = "SystemExit: %s\n" % (exc.code,)
    except BaseException as exc:
        result["error"] = _format_error(exc, cell_file)
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        _save_figures(root, cell_id, result)
        with result_out:
            json.dump(result, result_out)


_main()
