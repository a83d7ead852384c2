"""The dispatch both maths printers share (latex.py, typst_math.py): one
`_print_<Class>` method per maths node class, looked up once per class, as
sympy's printers dispatch but without sympy.  Anything that is not a node
goes to `fallback`."""

from __future__ import annotations

from .. import mathlines as M
from .. import text


class NodePrinter:
    def __init__(self):
        self._methods: dict[type, object] = {}

    def doprint(self, node) -> str:
        return self._print(node)

    def _print(self, node) -> str:
        method = self._methods.get(type(node))
        if method is None:
            found = getattr(self, "_print_" + type(node).__name__, None) if isinstance(node, M.Node) else None
            method = self._methods[type(node)] = found or self.fallback
        return method(node)

    @property
    def mark(self) -> str:
        """The language's decimal mark (text/<lang>/language.yaml)."""
        return text.NOW.mark

    @property
    def sep(self) -> str:
        """What separates a vector's or a list's items: "," (";" where the decimal mark is a comma)."""
        return text.NOW.sep

    def fallback(self, expr) -> str:
        raise TypeError(f"no {type(self).__name__} form for {type(expr).__name__}")
