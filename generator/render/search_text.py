"""Maths as the site search reads it: readable text, not TeX.

Both builders (MkDocs Material's search plugin and Zensical) index a page's
text as it stands in the HTML, and a formula stands there as its TeX source
until MathJax typesets it in the browser: the search showed snippets such as
`\\(T_{x}\\) = 8`.  Each formula is marked `data-search-exclude` (which both
builders skip) and followed by a twin that the page hides (`hidden`: neither
drawn nor read by screen readers, which read MathJax's own MathML) and the
search indexes: `Tₓ = 8`.  A formula with TeX this module does not know is
only left out.

The generated pages' ready HTML goes through `searchable` (examples and
practice pages; the sets are not searched), the maths of hand-written pages
through render.passthrough's tree step (`twin_element`)."""

from __future__ import annotations

import html
import re

from .plain import GREEK

_SUB = str.maketrans("0123456789−-+=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₋₋₊₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUP = str.maketrans("0123456789−-+=()n'", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺⁼⁽⁾ⁿ′")
_SYMBOLS = {
    "cdot": "·", "times": "×", "approx": "≈", "to": "→", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "in": "∈", "ne": "≠", "neq": "≠", "infty": "∞", "quad": " ", "qquad": " ", ",": " ", ";": " ", "!": "",
    " ": " ", "exp": "exp", "ln": "ln", "log": "log", "max": "max", "min": "min", "lim": "lim", "sum": "Σ",
    "{": "{", "}": "}", "$": "$", "%": "%", "&": "&", "#": "#", "_": "_", "ldots": "…", "dots": "…",
    "cdots": "⋯", "prime": "′", "pm": "±", "textbackslash": "\\", "mid": "|", "lvert": "|", "rvert": "|",
    **{name: letter for name, letter in GREEK.items()},
    "gamma": "γ", "delta": "δ", "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "tau": "τ", "epsilon": "ε",
    "varepsilon": "ε", "Sigma": "Σ",
}
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")


class _Unknown(Exception):
    pass


class _Reader:
    def __init__(self, tex: str) -> None:
        self.s, self.i = tex, 0

    def group(self) -> str:
        """The next argument: a {…} group, a command or one character."""
        self.skip_space()
        if self.i >= len(self.s):
            raise _Unknown
        if self.s[self.i] == "{":
            depth, start = 0, self.i
            while self.i < len(self.s):
                ch = self.s[self.i]
                if ch == "\\":
                    self.i += 2
                    continue
                depth += ch == "{"
                depth -= ch == "}"
                self.i += 1
                if depth == 0:
                    return _Reader(self.s[start + 1:self.i - 1]).read()
            raise _Unknown
        if self.s[self.i] == "\\":
            m = _COMMAND.match(self.s, self.i)
            self.i = m.end()
            return self.command(m.group(1))
        self.i += 1
        return self.s[self.i - 1]

    def raw_group(self) -> str:
        self.skip_space()
        if self.s[self.i:self.i + 1] != "{":
            raise _Unknown
        end = self.s.index("}", self.i)
        word, self.i = self.s[self.i + 1:end], end + 1
        return word

    def skip_space(self) -> None:
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def command(self, name: str) -> str:
        if name in ("left", "right", "bigl", "bigr", "Bigl", "Bigr"):
            self.skip_space()
            m = _COMMAND.match(self.s, self.i)
            if m:  # \left\{ , \left. (nothing)
                self.i = m.end()
                return "" if m.group(1) == "." else _SYMBOLS.get(m.group(1), "")
            self.i += 1
            return "" if self.s[self.i - 1] == "." else self.s[self.i - 1]
        if name in ("begin", "end"):
            self.raw_group()
            return " "
        if name == "\\":  # a new row (with its [6pt] of air)
            if self.s[self.i:self.i + 1] == "[":
                self.i = self.s.index("]", self.i) + 1
            return " "
        if name == "frac":
            num, den = self.group(), self.group()
            return f"{_operand(num)}/{_operand(den)}"
        if name in ("text", "mathrm", "operatorname", "mathit", "textrm", "mathbf"):
            return self.group()
        if name in _SYMBOLS:
            return _SYMBOLS[name]
        raise _Unknown

    def read(self) -> str:
        out = []
        while self.i < len(self.s):
            ch = self.s[self.i]
            if ch == "\\":
                m = _COMMAND.match(self.s, self.i)
                self.i = m.end()
                word = self.command(m.group(1))
                if m.group(1).isalpha() and word[-1:].isalpha() and self.s[self.i:self.i + 1].isalnum():
                    word += " "  # \ln x
                out.append(word)
            elif ch in "_^":
                self.i += 1
                arg = self.group()
                table = _SUB if ch == "_" else _SUP
                small = arg.translate(table)
                if all(c not in table and ord(c) > 0x7E for c in small) and small:
                    out.append(small)
                elif ch == "_":
                    out.append("_" + (arg if len(arg) == 1 else f"({arg})"))
                else:
                    out.append("^" + (arg if len(arg) == 1 else f"({arg})"))
            elif ch == "{":
                out.append(self.group())
            elif ch == "}":
                raise _Unknown
            elif ch == "&":
                self.i += 1
            elif ch == "~":
                out.append(" ")
                self.i += 1
            else:
                out.append(ch)
                self.i += 1
        return "".join(out)


def _operand(text: str) -> str:
    text = text.strip()
    return text if re.fullmatch(r"[^\s+\-−]+", text) else f"({text})"


def tex_text(tex: str) -> str | None:
    """A formula's TeX (with or without its \\( \\) or \\[ \\]) as plain text;
    None where it holds TeX this module does not read."""
    tex = tex.strip()
    for a, b in (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$")):
        if tex.startswith(a) and tex.endswith(b) and len(tex) >= len(a) + len(b):
            tex = tex[len(a):-len(b)]
            break
    try:
        text = _Reader(tex.replace("\n", " ")).read()
    except (_Unknown, ValueError):
        return None
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.;)\]])", r"\1", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    return text or None


# A formula in ready HTML, as arithmatex (generic) and render.site_html write it.
_MATHS = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)


def _twin(m: re.Match) -> str:
    tag, body = m.group(1), m.group(2)
    text = tex_text(html.unescape(body))
    out = f'<{tag} class="arithmatex" data-search-exclude>{body}</{tag}>'
    if text:
        out += f'<{tag} class="ad-search-text" hidden>{html.escape(text, quote=False)}</{tag}>'
    return out


def searchable(block: str) -> str:
    """Ready HTML with each formula left out of the search and followed by
    its text for the search (see the module's doc)."""
    return _MATHS.sub(_twin, block)


def twin_element(el, make_element) -> object | None:
    """render.passthrough's step for a formula of a page's own Markdown (an
    ElementTree element with class arithmatex): marks it and returns its
    twin (or None)."""
    el.set("data-search-exclude", "")
    text = tex_text(el.text or "")
    if not text:
        return None
    twin = make_element(el.tag, {"class": "ad-search-text", "hidden": "hidden"})
    twin.text = text
    return twin
