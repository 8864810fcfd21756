"""The constructors of a question set's source file (fresh_src.py, unseen_src.py, blind_src.py): A answerable with
its expected reading, U the data cannot answer, P it answers only in part; a measure "col:value" is a column
observed once per period or group, whose aggregation is left open."""


def builders(out):
    """Returns A, U and P, each appending one question to the list out."""

    def A(table, lang, question, analysis, m=None, by=None, t=None, g=None, f=None, n=None, o=None, p=None,
          sheet=None, method=None, unchecked=None):
        out.append(dict(table=table, lang=lang, question=question, answerable=True, analysis=analysis,
                        m=m, by=by, t=t, g=g, f=f, n=n, o=o, p=p, sheet=sheet, method=method,
                        unchecked=unchecked or []))

    def U(table, lang, question, why):
        out.append(dict(table=table, lang=lang, question=question, answerable=False, why=why))

    def P(table, lang, question, why):
        out.append(dict(table=table, lang=lang, question=question, answerable="partial", why=why))

    return A, U, P
