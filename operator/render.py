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


