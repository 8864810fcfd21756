# Sift template prelude: shared by every built-in analysis.
#
# The Go side appends one template file to this prelude and indents both
# into one function, _sift_template(_PARAMS_B64), called with the template's
# parameters as base64-encoded JSON (so no value is ever spliced into code).
# Wrapped so, a template leaves no names behind in a stateful kernel. A
# template defines main() and ends with run_template(main). The result is
# printed as one line, "SIFT_RESULT <json>", which the Go side reads back.
import base64
import json
import math
import os
import re
import sys
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

P = json.loads(base64.b64decode(_PARAMS_B64).decode("utf-8"))  # noqa: F821
STEM = P["stem"]
R = {"sections": [], "answer": "", "data": {}, "picked": [], "notes": []}
STAGE = ["load the file"]
MD_ROWS = 20


class TemplateError(Exception):
    """A problem the person can fix, such as a missing or unusable column."""


# ZH: the question was asked in Chinese, so the words a template writes
# (titles, answers, notes) are Chinese; column names and numbers stay.
ZH = P.get("lang") == "zh"


def tr(en, zh):
    """en, or zh when the report is written in Chinese."""
    return zh if ZH else en


def stage(name):
    STAGE[0] = name


def pick(text):
    R["picked"].append(text)


def note(text):
    R["notes"].append(text)


# ---------------------------------------------------------------- loading

def _read_csv(path, enc, sep):
    kw = {"encoding": enc}
    if sep:
        kw["sep"] = sep
        kw["low_memory"] = False
    else:
        kw["sep"] = None
        kw["engine"] = "python"
    return pd.read_csv(path, **kw)


def _first_sheet_with_data(path):
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        for ws in wb.worksheets:
            for row in ws.iter_rows(max_row=50, values_only=True):
                if any(v is not None and str(v).strip() != "" for v in row):
                    return ws.title
        return wb.sheetnames[0]
    finally:
        wb.close()


def load():
    stage("load the file")
    if P.get("pre"):
        # The DuckDB engine ran because the file is too large for pandas.
        raise TemplateError("this template has no DuckDB path; the file is too large to load whole")
    path = P["file"]
    ext = os.path.splitext(path)[1].lower()
    if ext in (".xlsx", ".xlsm"):
        sheet = P.get("sheet") or _first_sheet_with_data(path)
        df = pd.read_excel(path, sheet_name=sheet, engine="openpyxl")
        pick(tr("sheet: %s", "工作表：%s") % sheet)
    elif ext == ".json":
        df = pd.read_json(path, encoding=P.get("encoding") or "utf-8")
    elif ext in (".jsonl", ".ndjson"):
        df = pd.read_json(path, lines=True, encoding=P.get("encoding") or "utf-8")
    else:
        sep = P.get("delimiter") or ("\t" if ext in (".tsv", ".tab") else None)
        enc = P.get("encoding")
        if enc:
            df = _read_csv(path, enc, sep)
        else:
            df = None
            for enc in ("utf-8-sig", "gb18030", "cp1252"):
                try:
                    df = _read_csv(path, enc, sep)
                    break
                except UnicodeDecodeError:
                    continue
            pick(tr("encoding: %s (detected by trying)", "编码：%s（逐一尝试后识别）") % enc)
    df.columns = [str(c).strip() for c in df.columns]
    df = df.reset_index(drop=True)
    if len(df) == 0:
        raise TemplateError("the table has no data rows")
    return df


# ---------------------------------------------------------------- columns

def col(df, name, role):
    """Returns the column called name (exact, then ignoring case and spaces)."""
    if name in df.columns:
        return name
    want = re.sub(r"[\s_]+", "", str(name).lower())
    for c in df.columns:
        if re.sub(r"[\s_]+", "", c.lower()) == want:
            return c
    raise TemplateError(
        "no column %r for the %s; the columns are: %s" % (name, role, ", ".join(map(str, df.columns[:60])))
    )


TIME_HINTS = ("date", "time", "day", "month", "period", "created", "timestamp", "日期", "时间", "月份", "年月", "日")
ID_HINTS = ("id", "user", "customer", "client", "member", "account", "uid", "用户", "客户", "会员", "账号", "编号")


def _hinted(name, hints):
    low = name.lower()
    words = re.split(r"[\s_\-./]+", low)
    for h in hints:
        if h.isascii():
            if h in words or low.endswith(h) or low.startswith(h):
                return True
        elif h in name:
            return True
    return False


def to_number(s):
    """Numbers from a column, accepting "1,234", "12.5%" and currency signs."""
    if pd.api.types.is_bool_dtype(s):
        return s.astype(float)
    if pd.api.types.is_numeric_dtype(s):
        return pd.to_numeric(s, errors="coerce")
    t = s.astype("string").str.strip()
    t = t.str.replace(r"[,\s¥$€£￥]", "", regex=True).str.replace("%", "", regex=False)
    return pd.to_numeric(t, errors="coerce")


def numeric_share(s):
    nonnull = s.notna().sum()
    if nonnull == 0:
        return 0.0
    return float(to_number(s).notna().sum()) / float(nonnull)


def to_dates(s):
    """Timestamps from a column (dates as text, Chinese dates, or datetimes)."""
    if pd.api.types.is_datetime64_any_dtype(s):
        out = s
    else:
        t = s.astype("string").str.strip()
        t = t.str.replace(r"(\d{4})年(\d{1,2})月(\d{1,2})日?", r"\1-\2-\3", regex=True)
        t = t.str.replace(r"^(\d{4})年(\d{1,2})月$", r"\1-\2", regex=True)
        out = pd.to_datetime(t, errors="coerce")
        if out.notna().sum() < 0.8 * t.notna().sum():
            try:
                out = pd.to_datetime(t, errors="coerce", format="mixed")
            except (TypeError, ValueError):
                pass
    try:
        if getattr(out.dt, "tz", None) is not None:
            out = out.dt.tz_localize(None)
    except (AttributeError, TypeError):
        pass
    return out


def date_share(s, sample=200):
    if pd.api.types.is_datetime64_any_dtype(s):
        return 1.0
    if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
        return 0.0
    v = s.dropna()
    if len(v) == 0:
        return 0.0
    v = v.head(sample)
    if not v.astype(str).str.contains(r"\d", regex=True).all():
        return 0.0
    return float(to_dates(v).notna().sum()) / float(len(v))


def find_time(df):
    """The column to use as time: a named one, else the best date column."""
    if P.get("time"):
        c = col(df, P["time"], "time column")
        return c
    best = None
    for c in df.columns:
        share = date_share(df[c])
        if share >= 0.8:
            score = share + (1 if _hinted(c, TIME_HINTS) else 0)
            if best is None or score > best[0]:
                best = (score, c)
    if best is None:
        raise TemplateError(
            "no date or time column found (no column parses as dates); "
            "name the time column explicitly (time=...). The columns are: %s" % ", ".join(map(str, df.columns[:60]))
        )
    pick(tr("time column: %s (detected: its values parse as dates)", "时间列：%s（自动识别：其值可解析为日期）") % best[1])
    return best[1]


def numeric_columns(df, limit=None, exclude=()):
    """Columns that hold numbers (ids and all-empty columns left out)."""
    out = []
    for c in df.columns:
        if c in exclude:
            continue
        s = df[c]
        if pd.api.types.is_bool_dtype(s) or pd.api.types.is_datetime64_any_dtype(s):
            continue
        if s.notna().sum() == 0:
            continue
        if numeric_share(s) < 0.9:
            continue
        if _hinted(c, ID_HINTS) and c.lower() not in ("paid", "valid"):
            continue
        out.append(c)
        if limit and len(out) >= limit:
            break
    return out


def find_measure(df, required=False):
    if P.get("measure"):
        return col(df, P["measure"], "measure")
    nums = numeric_columns(df)
    if not nums:
        if required:
            raise TemplateError("no numeric column found; name the measure column explicitly (measure=...)")
        return None
    floats = [c for c in nums if pd.api.types.is_float_dtype(df[c])]
    c = (floats or nums)[0]
    pick(tr("measure: %s (the first numeric column)", "度量：%s（第一个数值列）") % c)
    return c


def find_category(df, key="category", exclude=()):
    if P.get(key):
        return col(df, P[key], "category column")
    n = len(df)
    best = None
    for c in df.columns:
        if c in exclude:
            continue
        s = df[c]
        if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_datetime64_any_dtype(s):
            continue
        if date_share(s) >= 0.8:
            continue
        u = s.nunique(dropna=True)
        if u < 2 or (n > 20 and u > 0.9 * n):
            continue
        score = -u
        if best is None or score > best[0]:
            best = (score, c)
    if best is None:
        raise TemplateError("no text column to group by; name the category column explicitly (category=...)")
    pick(tr("category: %s (a text column with few distinct values)", "类别：%s（不同值较少的文本列）") % best[1])
    return best[1]


AGG_NAMES = {"sum": "sum", "mean": "mean", "count": "count", "median": "median", "min": "min", "max": "max", "nunique": "nunique"}


def aggregation(measure):
    agg = P.get("aggregation") or ("sum" if measure else "count")
    if agg not in AGG_NAMES:
        raise TemplateError("unknown aggregation %r; use one of %s" % (agg, ", ".join(AGG_NAMES)))
    if measure is None and agg not in ("count",):
        raise TemplateError("aggregation %r needs a measure column; name it (measure=...)" % agg)
    return agg


def aggregate(grouped, measure, agg):
    if measure is None:
        return grouped.size().astype(float)
    if agg == "count":
        return grouped[measure].count().astype(float)
    return grouped[measure].agg(agg).astype(float)


AGG_ZH = {"sum": "总和", "mean": "平均值", "count": "计数", "median": "中位数", "min": "最小值", "max": "最大值",
          "nunique": "不同值个数"}


# AGG_EN says an aggregation of a measure in English ("total revenue").
AGG_EN = {"sum": "total %s", "mean": "average %s", "median": "median %s", "min": "minimum %s", "max": "maximum %s",
          "count": "count of %s", "nunique": "number of distinct %s"}


def describe_agg(measure, agg):
    if measure is None:
        return tr("number of rows", "行数")
    return tr(AGG_EN.get(agg, agg + " of %s") % measure, "%s%s" % (measure, AGG_ZH.get(agg, agg)))


def plural_count(n, noun):
    """n and an English noun phrase for n things ("1 numeric column")."""
    return "%s %s" % (fmt(n), noun if n == 1 else noun + "s")


def plural(word, n):
    """An English word for n things ("1 region", "4 regions"): a plain
    lower-case noun gets its plural; other names (product_id, 地区, Status)
    are column names and stay as they are."""
    if n == 1 or not re.fullmatch(r"[a-z]+", word):
        return word
    if re.search(r"(?:s|x|z|ch|sh)$", word):
        return word + "es"
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    return word + "s"


# HEADERS_ZH are the Chinese of the column headers templates write
# themselves (not the data's column names).
HEADERS_ZH = {
    "rank": "排名", "share": "占比", "column": "列", "type": "类型", "non_null": "非空值", "missing": "缺失值",
    "missing_pct": "缺失比例", "unique": "不同值", "count": "计数", "mean": "均值", "std": "标准差", "min": "最小值",
    "q1": "下四分位数", "median": "中位数", "q3": "上四分位数", "max": "最大值", "skew": "偏度", "value": "值",
    "column A": "列 A", "column B": "列 B", "rows": "行数", "lower fence": "下界", "upper fence": "上界",
    "IQR outliers": "IQR 异常值", "change": "变化", "change_pct": "变化率", "compared_with": "对比期",
    "previous": "上期值", "Total": "合计", "row": "行号", "cohort": "同期群", "size": "人数", "stage": "阶段",
    "from_previous": "较上一阶段", "from_first": "较第一阶段", "drop_off": "流失", "partial": "不完整",
    "day": "日", "week": "周", "month": "月", "quarter": "季度", "year": "年",
}


def headers(df, *names):
    """df with the template's own column headers names in Chinese when the
    report is; the data's column names stay."""
    if not ZH:
        return df
    return df.rename(columns={n: HEADERS_ZH[n] for n in names if n in HEADERS_ZH})


# ---------------------------------------------------------------- periods

PERIODS = {"day": "D", "week": "W", "month": "M", "quarter": "Q", "year": "Y"}
PERIOD_WORDS = {"D": "daily", "W": "weekly", "M": "monthly", "Q": "quarterly", "Y": "yearly"}
PERIOD_NOUNS = {"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"}


def period_noun(code):
    """The period's noun in the report's language ("month", "月")."""
    return PERIOD_NOUNS_ZH[code] if ZH else PERIOD_NOUNS[code]
if ZH:
    PERIOD_WORDS = {"D": "每日", "W": "每周", "M": "月度", "Q": "季度", "Y": "年度"}
    PERIOD_NOUNS_ZH = {"D": "日", "W": "周", "M": "月", "Q": "季度", "Y": "年"}


def period_code(times, default=None):
    name = P.get("period") or default
    if name:
        if name not in PERIODS:
            raise TemplateError("unknown period %r; use one of %s" % (name, ", ".join(PERIODS)))
        return PERIODS[name]
    span = (times.max() - times.min()).days
    if span <= 45:
        code = "D"
    elif span <= 200:
        code = "W"
    elif span <= 4 * 366:
        code = "M"
    elif span <= 10 * 366:
        code = "Q"
    else:
        code = "Y"
    pick(tr("period: %s (the data spans %d days)", "周期：%s（数据跨越 %d 天）") % (period_noun(code), span))
    return code


def period_label(p):
    if p.freqstr.startswith("W"):
        return p.start_time.strftime("%Y-%m-%d")
    return str(p)


def pre_series(rows, code):
    """A Series indexed by period from the DuckDB engine's [start, value] rows."""
    index = pd.PeriodIndex([pd.Period(r[0], freq=code) for r in rows], freq=code)
    return pd.Series([np.nan if r[-1] is None else float(r[-1]) for r in rows], index=index, dtype=float)


def full_periods(periods):
    return pd.period_range(periods.min(), periods.max(), freq=periods.iloc[0].freq)


# ---------------------------------------------------------------- totals

# A label that says it is a total ("Total", "Grand total", "合计", "World").
TOTAL_NAME = re.compile(
    r"^\s*(?:grand\s+|sub-?\s*)?totals?\s*(?:[:(\-].*)?$|^.*\b(?:grand\s+|sub-?)totals?\b.*$|^\s*(?:overall|world|worldwide|global|all)\s*$"
    r"|^\s*(?:合计|总计|小计|总和|全部|总体|整体|全国|汇总)|(?:合计|总计|小计)\s*$", re.I)
# A label that may be a total when its value is the rest's sum ("All natural
# disasters", "All regions").
# LEFT_OUT are the total groups drop_totals left out; templates put them in
# their data as "left_out_totals".
LEFT_OUT = []
MAYBE_TOTAL_NAME = re.compile(r"^\s*(?:all|total|every)\b|^\s*所有", re.I)


def total_labels(values):
    """The labels of values (one number per group) that are totals of the
    other groups, each with why: named like a total, or named like one and
    as large as the sum of the rest."""
    v = values.dropna()
    if len(v) < 3:
        return {}
    whole = float(v.sum())
    out = {}
    for k, x in v.items():
        name = str(k)
        rest = whole - float(x)
        sums_rest = rest > 0 and abs(float(x) - rest) <= 0.1 * rest
        if TOTAL_NAME.search(name):
            out[k] = tr("its name says it is a total", "名称表明它是合计") + (
                tr(" and its value is the sum of the others", "，且其值等于其余各项之和") if sums_rest else "")
        elif MAYBE_TOTAL_NAME.search(name) and sums_rest:
            out[k] = tr("its value is the sum of the others", "其值等于其余各项之和")
    if len(out) == len(v):
        return {}
    return out


def drop_totals(values, what, where=None):
    """values without its total groups, saying which were left out and why."""
    found = total_labels(values)
    where = where or tr("the ranking and shares", "排名和占比")
    for k, why in found.items():
        note(tr("%r looks like a total or aggregate row of %s (%s), so it is left out of %s",
                "“%s”看起来是%s的合计或汇总行（%s），因此不计入%s")
             % (str(k), what, why, where))
    LEFT_OUT.extend(str(k) for k in found if str(k) not in LEFT_OUT)
    return values.drop(index=list(found)), list(found)


# ---------------------------------------------------------------- partial periods

def pre_days(pre):
    """The days with data the DuckDB engine listed, as timestamps."""
    return pd.Series(pd.to_datetime([r[0] for r in pre.get("days") or []]))


def partial_ends(times, periods):
    """Which of the first and last periods the data covers only in part:
    the data starts after the first period begins (or stops before the last
    one ends) by more than its usual spacing between dates, and that period
    holds well under the dates a period usually holds. Returns (first,
    last), each the date the data starts or stops at, or None when that
    period is whole."""
    t = pd.Series(times).dropna()
    if len(t) < 2 or len(periods) < 2:
        return None, None
    days = pd.Series(t.dt.normalize().unique()).sort_values()
    gaps = days.diff().dropna()
    gap = max(gaps.median() if len(gaps) else pd.Timedelta(days=1), pd.Timedelta(days=1))
    first_p, last_p = periods[0], periods[-1]
    if gap >= (last_p.end_time - last_p.start_time):
        return None, None  # the data is no finer than the period
    per = days.dt.to_period(first_p.freq).value_counts()
    inner = per.drop(index=[first_p, last_p], errors="ignore")
    usual = float(inner.median()) if len(inner) else float(per.max())

    def thin(p):
        return per.get(p, 0) < 0.6 * usual

    lo, hi = t.min().normalize(), t.max().normalize()
    first = lo if lo - first_p.start_time.normalize() >= gap and thin(first_p) else None
    last = hi if last_p.end_time.normalize() - hi >= gap and thin(last_p) else None
    return first, last


# ---------------------------------------------------------------- output

def clean(v):
    """A JSON-safe copy: numpy scalars to Python, NaN and infinities to None."""
    if isinstance(v, dict):
        return {str(k): clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return None if (math.isnan(f) or math.isinf(f)) else f
    if isinstance(v, (np.bool_,)):
        return bool(v)
    if isinstance(v, (pd.Timestamp,)):
        return v.isoformat()
    if isinstance(v, pd.Period):
        return period_label(v)
    if v is pd.NaT or v is None:
        return None
    try:
        if pd.isna(v):
            return None
    except (TypeError, ValueError):
        pass
    return v


def fmt(v):
    """A number for people: thousands separators, a few decimals."""
    v = clean(v)
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return "{:,}".format(v)
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return "{:,}".format(int(v))
        if abs(v) >= 100:
            return "{:,.1f}".format(v)
        if abs(v) >= 1:
            return "{:,.2f}".format(v)
        return "{:.4g}".format(v)
    return str(v)


def pct(v):
    v = clean(v)
    return "" if v is None else "{:.1f}%".format(100 * v)


def _cell(v):
    text = fmt(v) if not isinstance(v, str) else v
    text = str(text).replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 60 else text[:59] + "…"


def _column_decimals(values):
    """How many decimals a column of numbers shows, the same for every row
    (a change of 0.02581 beside 1,234.50 reads badly): what its largest
    value needs, as fmt would show it; None for a column that is not all
    floats, or whose floats are all whole."""
    nums = [clean(v) for v in values]
    nums = [v for v in nums if v is not None]
    if not nums or not all(isinstance(v, float) for v in nums) or all(v == int(v) for v in nums):
        return None
    top = max(abs(v) for v in nums)
    if top >= 100:
        return 1
    if top >= 1:
        return 2
    return 4


def _fixed(v, decimals):
    v = clean(v)
    if v is None:
        return ""
    return "{:,.{}f}".format(v, decimals)


def md_table(df, max_rows=MD_ROWS, index=False, total=None):
    """A Markdown table of at most max_rows rows, saying when rows were cut;
    total is how many rows the table has when df holds only its first ones.
    Each column of numbers shows one number of decimals."""
    if index:
        df = df.reset_index()
    cols = [str(c) for c in df.columns]
    head = df.head(max_rows)
    decimals = [_column_decimals(head.iloc[:, k].tolist()) for k in range(len(cols))]
    lines = ["| " + " | ".join(_cell(c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in head.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) if d is None else _fixed(v, d) for v, d in zip(row, decimals)) + " |")
    total = len(df) if total is None else total
    if total > max_rows:
        lines.append("")
        lines.append(tr("(%d of %d rows shown; the CSV has them all)", "（显示 %d 行，共 %d 行；CSV 文件包含全部）") % (max_rows, total))
    return "\n".join(lines)


def out_path(suffix, ext):
    os.makedirs("out", exist_ok=True)
    return "out/%s_%s.%s" % (STEM, suffix, ext)


# A cell a spreadsheet would run as a formula (=HYPERLINK(...), +cmd|...,
# @SUM(...)) starts with one of these; a plain number does not count.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
NEUTRALISED = [0]


def _formula_like(v):
    return isinstance(v, str) and v.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(v)


def _neutral(v):
    return "'" + v if _formula_like(v) else v


def neutralise(df, index=False):
    """df with every text cell (and column name, and with index its labels)
    that a spreadsheet would read as a formula written with a leading ',
    as OWASP recommends for CSV exports; numbers stay numbers. Counts what
    it changed in NEUTRALISED and notes it once for the report."""
    out, n = df, 0
    for i, c in enumerate(df.columns):
        col = df.iloc[:, i]
        if col.dtype != object and str(col.dtype) not in ("string", "category"):
            continue
        mask = col.map(_formula_like).astype(bool)
        k = int(mask.sum())
        if k:
            if out is df:
                out = df.copy()
            out.isetitem(i, col.astype(object).where(~mask, col.map(_neutral)))
            n += k
    names = [_neutral(c) for c in df.columns]
    if names != list(df.columns):
        out = out.copy() if out is df else out
        n += sum(1 for a, b in zip(names, df.columns) if a != b)
        out.columns = names
    if index and not isinstance(df.index, pd.MultiIndex) and df.index.dtype == object:
        labels = [_neutral(v) for v in df.index]
        if labels != list(df.index):
            out = out.copy() if out is df else out
            n += sum(1 for a, b in zip(labels, df.index) if a != b)
            out.index = pd.Index(labels, name=df.index.name)
    if n and not NEUTRALISED[0]:
        note(tr("Cells of the exported CSV that began with =, +, -, @, a tab or a carriage return were written "
                "with a leading ' so that spreadsheet programs show them as text instead of running them as formulas.",
                "导出的 CSV 中以 =、+、-、@、制表符或回车开头的单元格前加了 '，电子表格程序会把它们显示为文本，而不会当作公式执行。"))
    NEUTRALISED[0] += n
    return out


def save_csv(df, suffix, index=False):
    path = out_path(suffix, "csv")
    neutralise(df, index).to_csv(path, index=index, encoding="utf-8-sig")
    return path


def _setup_fonts():
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    cjk = [n for n in ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Serif CJK SC", "WenQuanYi Zen Hei",
                       "WenQuanYi Micro Hei", "SimHei", "Microsoft YaHei", "PingFang SC", "Source Han Sans SC")
           if n in have]
    if cjk:
        plt.rcParams["font.sans-serif"] = cjk + list(plt.rcParams["font.sans-serif"])
        plt.rcParams["font.family"] = "sans-serif"
    plt.rcParams["axes.unicode_minus"] = False


_FONTS_READY = []


def figure(w=8, h=4.5):
    """A new figure and its one axes, with fonts that show CJK text."""
    if not _FONTS_READY:
        _setup_fonts()
        _FONTS_READY.append(True)
    return plt.subplots(figsize=(w, h))


def grid(n, w=4, h=3, most_per_row=3):
    """A figure with n small axes in rows; the spare axes are hidden."""
    if not _FONTS_READY:
        _setup_fonts()
        _FONTS_READY.append(True)
    ncol = max(1, min(most_per_row, n))
    nrow = int(math.ceil(n / float(ncol)))
    fig, axes = plt.subplots(nrow, ncol, figsize=(w * ncol, h * nrow), squeeze=False)
    axes = list(axes.flat)
    for ax in axes[n:]:
        ax.axis("off")
    return fig, axes[:n]


def save_fig(fig, suffix):
    path = out_path(suffix, "png")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def section(title, markdown, files=()):
    R["sections"].append({"title": title, "markdown": markdown, "files": list(files)})


def run_template(main):
    before = set(plt.get_fignums())
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            main()
    except TemplateError:
        raise
    except Exception as exc:
        raise TemplateError("while trying to %s: %s: %s" % (STAGE[0], type(exc).__name__, exc)) from exc
    finally:
        # Close only this template's figures: a kernel may hold others.
        for num in set(plt.get_fignums()) - before:
            plt.close(num)
    R["data"] = clean(R["data"])
    print("SIFT_RESULT " + json.dumps(clean(R), ensure_ascii=True, allow_nan=False))
