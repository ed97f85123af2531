"""Code out of a model's reply, as the model writes it: a fenced block among prose.

A model asked for code answers the way it was trained to: a sentence, a
```` ```python ```` block, maybe an explanation after. Asking it to put the
code inside a JSON string costs a small model more than any strategy wins
back (issue 25: 38/64 against 45/64 on the same problems), so every code
request asks for a fenced block and :func:`extract_code` reads it:

- the longest ``python`` (or ``py``, or untagged) fenced block wins; prose
  around it is ignored;
- a reply with no fence at all is taken whole when it is a module that
  defines a function or class (prose, or a JSON object, is not code);
- a bare function body (HumanEval's completion form) is completed with the
  signature it belongs to, when the caller gives one.

:func:`applied_line` reads the strategies a reply says it applied from a
last ``Applied:`` line, outside any code.
"""

from __future__ import annotations

import ast
import re
import textwrap

# An opening fence of three or more backticks or tildes, its info string, the body, the same fence.
_BLOCK = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)^[ \t]*(?P=fence)[ \t]*$",
    re.DOTALL | re.MULTILINE,
)
# Reasoning models served locally prefix their answer with this.
_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)
_PYTHON_TAGS = frozenset({"", "python", "python3", "py", "py3"})
_APPLIED = re.compile(
    r"^\W*applied(?:[ _]strategies)?\W*:(?P<ids>.*)$", re.IGNORECASE | re.MULTILINE
)
_ID = re.compile(r"[A-Za-z0-9_-]{4,}")


def code_blocks(reply: str) -> list[str]:
    """The bodies of the reply's Python (or untagged) fenced blocks, in order."""
    text = _THINK.sub("", reply)
    blocks = []
    for match in _BLOCK.finditer(text):
        tag = match.group("info").strip().split(" ")[0].lower() if match.group("info") else ""
        if tag in _PYTHON_TAGS:
            blocks.append(match.group("body"))
    return blocks


def extract_code(
    reply: str, *, signature: str | None = None, entry_point: str | None = None
) -> str:
    """The code in ``reply`` (``""`` when it holds none).

    ``signature`` (the ``def`` line, or a whole stub with its docstring) is
    put before a reply that is only a function body, so that ``entry_point``
    is defined; without it such a body is returned as written.
    """
    blocks = code_blocks(reply)
    if blocks:
        code = max(blocks, key=len)
    else:
        whole = _THINK.sub("", reply).strip("\n")
        code = whole if _defines(textwrap.dedent(whole)) or _indented_start(whole) else ""
    if not code.strip():
        return ""
    if entry_point and signature and f"def {entry_point}" not in code and _is_body(code):
        return signature.rstrip("\n") + "\n" + _indented(code)
    return textwrap.dedent(code).strip("\n") + "\n"


def applied_line(reply: str) -> list[str]:
    """The ids named on the reply's last ``Applied:`` line outside code (``[]`` if none)."""
    prose = _BLOCK.sub("", _THINK.sub("", reply))
    lines = _APPLIED.findall(prose)
    if not lines:
        return []
    return _ID.findall(lines[-1])


def _defines(code: str) -> bool:
    """Whether unfenced text is a module that defines something (not prose, not a bare
    expression such as a JSON object, which parses as Python too)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    return any(isinstance(node, kinds) for node in tree.body)


def _indented_start(code: str) -> bool:
    lines = [line for line in code.splitlines() if line.strip()]
    return bool(lines) and lines[0][:1] in (" ", "\t")


def _is_body(code: str) -> bool:
    """Whether ``code`` reads as a function's body: not a definition, and indented or only
    valid inside a function (a ``return`` at the top)."""
    lines = [line for line in code.splitlines() if line.strip()]
    if not lines or lines[0].lstrip().startswith(("def ", "class ", "import ", "from ", "@")):
        return False
    return _indented_start(code) or _outside_function(textwrap.dedent(code))


def _outside_function(code: str) -> bool:
    """Whether ``code`` fails to parse, or returns at the top (valid only inside a function)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return True
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Return | ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            pending.extend(ast.iter_child_nodes(node))
    return False


def _indented(body: str) -> str:
    """A body at four spaces, whatever indentation it came with."""
    return textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"
