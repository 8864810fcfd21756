# Shared by runner.py (process mode) and kernel.py (kernel mode): Go
# prepends this file to each. How the value of a cell's trailing expression
# is shown: tables bounded, anything else by repr, capped.
import sys

VALUE_LIMIT = 20000


def _render(value):
    pd = sys.modules.get("pandas")
    if pd is not None:
        if isinstance(value, pd.DataFrame):
            return value.to_string(max_rows=20, max_cols=20)
        if isinstance(value, pd.Series):
            return value.to_string(max_rows=20)
    try:
        text = repr(value)
    except Exception as exc:  # a broken __repr__ must not lose the cell
        text = "<unrepresentable %s: %s>" % (type(value).__name__, exc)
    if len(text) > VALUE_LIMIT:
        half = VALUE_LIMIT // 2
        text = text[:half] + "\n[... %d characters cut ...]\n" % (len(text) - 2 * half) + text[-half:]
    return text




def _seed_font_cache():
    """Copies matplotlib's shared, read-only font list (built once per
    machine by Sift) into the session's own MPLCONFIGDIR when that has
    none, and takes its name out of the environment before any cell runs."""
    import os
    import shutil

    src = os.environ.pop("SIFT_FONT_CACHE", "")
    dst = os.environ.get("MPLCONFIGDIR", "")
    if not src or not dst:
        return
    try:
        os.makedirs(dst, exist_ok=True)
        for name in os.listdir(src):
            if name.startswith("fontlist-") and name.endswith(".json"):
                target = os.path.join(dst, name)
                if not os.path.lexists(target):
                    shutil.copyfile(os.path.join(src, name), target)
    except OSError:
        pass  # matplotlib then builds the session's own
