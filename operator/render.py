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
# Charts in the question's language: matplotlib's default font has no
# Chinese, Japanese or Korean glyphs, which then draw as boxes. Once a cell
# imports matplotlib, the CJK fonts the system has are put after its
# default font in the fallback list (Latin text keeps its look; CJK
# characters come from the fallback). Where none is installed, a chart
# with CJK text says so on stderr, once.
_CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK TC", "Noto Sans CJK KR",
              "Noto Serif CJK SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Source Han Sans SC",
              "Source Han Sans CN", "SimHei", "Microsoft YaHei", "PingFang SC")
_cjk = {"found": None, "warned": False}


def _setup_cjk_fonts(mpl):
    try:
        from matplotlib import font_manager

        have = {f.name for f in font_manager.fontManager.ttflist}
        found = [n for n in _CJK_FONTS if n in have]
        _cjk["found"] = found
        if found:
            # Each family of font.family is a fallback for the ones before
            # it (matplotlib 3.6+); a generic name such as sans-serif
            # stands for the first installed font of its own list.
            family = mpl.rcParams["font.family"]
            family = [family] if isinstance(family, str) else list(family)
            mpl.rcParams["font.family"] = family + [f for f in found if f not in family]
            rest = [f for f in mpl.rcParams["font.sans-serif"] if f not in found]
            mpl.rcParams["font.sans-serif"] = rest[:1] + found + rest[1:]
    except Exception:  # fonts are a nicety: never fail the cell for them
        pass


class _AfterMatplotlib:
    """Sets the fonts up right after `import matplotlib`, before any cell
    draws (importing it up front would cost every cell that never plots)."""

    def find_spec(self, name, path=None, target=None):
        if name != "matplotlib":
            return None
        sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _setup_cjk_fonts(module)

        spec.loader.exec_module = exec_module
        return spec


def _install_font_fallback():
    if "matplotlib" in sys.modules:
        _setup_cjk_fonts(sys.modules["matplotlib"])
    else:
        sys.meta_path.insert(0, _AfterMatplotlib())


def _warn_missing_cjk(fig):
    if _cjk["found"] or _cjk["found"] is None or _cjk["warned"]:
        return
    try:
        texts = [o.get_text() for o in fig.findobj(lambda o: hasattr(o, "get_text"))]
    except Exception:
        return
    if any(any("\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in str(t))
           for t in texts):
        _cjk["warned"] = True
        sys.stderr.write("Warning: no Chinese, Japanese or Korean font is installed, so that text in this chart "
                         "shows as boxes; install one (Debian: apt-get install fonts-noto-cjk, or make setup) "
                         "and run again.\n")
        sys.stderr.flush()
