"""Code notes (issue 25): what a run's output says about the names the code called.

A failed check's output often states something true about a library whatever
the attempt's outcome: the library's own error ("span: positions are counted
from 1, got start=0"), or the values a failing assert compared. This module
reads such statements out of a tool call's output, pure and without I/O:

- :func:`library_calls`: the calls a piece of code makes into modules it
  imports from outside the standard library (``tally.span(...)``, or a name
  imported ``from`` such a module), each with the line that makes it;
- :func:`observations`: from a failed call's output and its code, a note per
  called name the output speaks of: ``raised`` (an exception message naming
  it, or a traceback frame in it) or ``failed_assert`` (a failing assert line,
  kept for every library call the code made, since the values alone do not
  say which call was wrong);
- :func:`passed_calls`: from code whose check passed, a ``worked`` note per
  library call;
- :func:`prompt_names`: the names a prompt speaks of as code (backticked,
  dotted, or called), which recall matches notes against; :func:`prose_names`
  its plain words, which recall falls back on when those match no note.

With no code (a shell command's output), an exception message's leading
``name:`` or a ``name(`` in it is the name.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from cognition.text import clip
from graph.models import NoteKind

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_IMPORT = re.compile(rf"^\s*import\s+({_IDENT}(?:\.{_IDENT})*(?:\s+as\s+{_IDENT})?(?:\s*,\s*.+)?)$")
_FROM = re.compile(rf"^\s*from\s+({_IDENT}(?:\.{_IDENT})*)\s+import\s+\(?([^)#]+)\)?")
_ATTR_CALL = re.compile(rf"\b({_IDENT})\.({_IDENT})\s*\(")
_BARE_CALL = re.compile(rf"(?<![.\w])({_IDENT})\s*\(")
_EXCEPTION = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Warning|Exit))\s*:\s*(.+)")
_FRAME = re.compile(rf'File "[^"]*", line \d+, in ({_IDENT})')
_ASSERT = re.compile(r"\b(assert\s.+)")
_LEADING_NAME = re.compile(rf"^({_IDENT}(?:\.{_IDENT})*)\s*[:(]")
_NAMED_CALL = re.compile(rf"\b({_IDENT}(?:\.{_IDENT})*)\s*\(")
_CODE_SPAN = re.compile(r"`([^`\n]{1,200})`")
_DOTTED = re.compile(rf"\b({_IDENT}(?:\.{_IDENT})+)\b")
_LITERAL = re.compile(r"'[^']*'|\"[^\"]*\"|-?\b\d+(?:\.\d+)?\b")
_LINE_CHARS = 240
_NAME_CHARS = 120  # a longer "name" is no function's: and name and key are indexed, bounded
_OUTPUT_LINES = 200
_OUTPUT_CHARS = 32_000
_PROSE_NAMES = 200
_STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


@dataclass(frozen=True)
class LibraryCall:
    """A name the code called in an outside module: ``span`` as ``tally.span`` on ``line``."""

    name: str
    qualified: str
    line: str


@dataclass(frozen=True)
class Observed:
    """One statement a run made about a name (a :class:`graph.models.CodeNote` to be)."""

    name: str
    qualified: str
    kind: NoteKind
    call: str
    text: str

    @property
    def key(self) -> str:
        """The note's identity: a repeat with other literals is the same note."""
        if self.kind is NoteKind.RETURNED:  # a fact: other literals are another fact
            return f"{self.name}|{self.kind.value}|{' '.join(f'{self.call} {self.text}'.split())}"
        said = self.text if self.kind is NoteKind.RAISED else f"{self.call}\n{self.text}"
        return f"{self.name}|{self.kind.value}|{_LITERAL.sub('#', ' '.join(said.split()))}"


def _outside(module: str) -> bool:
    return module.split(".")[0] not in _STDLIB


def outside_imports(code: str) -> tuple[dict[str, str], dict[str, str]]:
    """Aliases of outside modules (``alias -> module``) and names imported from them."""
    modules: dict[str, str] = {}
    names: dict[str, str] = {}
    for line in code.splitlines():
        if match := _IMPORT.match(line):
            for part in match.group(1).split(","):
                words = part.split()
                if words and _outside(words[0]):
                    modules[words[-1] if len(words) == 3 else words[0]] = words[0]
        elif (match := _FROM.match(line)) and _outside(match.group(1)):
            for part in match.group(2).split(","):
                words = part.split()
                if words and re.fullmatch(_IDENT, words[0]):
                    names[words[-1] if len(words) == 3 else words[0]] = (
                        f"{match.group(1)}.{words[0]}"
                    )
    return modules, names


def library_calls(code: str) -> list[LibraryCall]:
    """The calls ``code`` makes into outside modules, each name once, in the order they come."""
    modules, names = outside_imports(code)
    if not modules and not names:
        return []
    found: dict[str, LibraryCall] = {}
    for raw in code.splitlines():
        line = raw.strip()
        if line.startswith(("import ", "from ", "#")):
            continue
        for base, attr in _ATTR_CALL.findall(line):
            if base in modules and attr not in found:
                found[attr] = LibraryCall(attr, f"{base}.{attr}", clip(line, _LINE_CHARS))
        for alias in _BARE_CALL.findall(line):
            real = names[alias].split(".")[-1] if alias in names else ""
            if real and real not in found:
                found[real] = LibraryCall(real, names[alias], clip(line, _LINE_CHARS))
    return list(found.values())


def _identifiers(text: str) -> set[str]:
    return set(re.findall(_IDENT, text))


def _raised(line: str) -> tuple[str, set[str]] | None:
    """An exception message on ``line`` (``Error: message``) and the identifiers in it."""
    match = _EXCEPTION.search(line)
    if match is None:
        return None
    message = match.group(2).strip()
    if "(raised " in line and message.endswith(")"):
        message = message[:-1]  # the bench's "(raised E: m)" wrapper
    return f"{match.group(1)}: {message}", _identifiers(message)


def _named_in(message: str) -> set[str]:
    """With no code to match against: the message's leading ``name:`` and any ``name(``."""
    body = message.split(": ", 1)[-1]
    found = set(_NAMED_CALL.findall(body))
    if lead := _LEADING_NAME.match(body):
        found.add(lead.group(1))
    return {name.split(".")[-1] for name in found}


def bounded_lines(output: str) -> list[str]:
    """The head and the tail of a long output (a test run's error often comes last)."""
    if len(output) > 2 * _OUTPUT_CHARS:
        output = f"{output[:_OUTPUT_CHARS]}\n{output[-_OUTPUT_CHARS:]}"
    lines = output.splitlines()
    if len(lines) > 2 * _OUTPUT_LINES:
        lines = lines[:_OUTPUT_LINES] + lines[-_OUTPUT_LINES:]
    return lines


def observations(output: str, code: str) -> list[Observed]:
    """The notes a failed call's ``output`` makes about the names its ``code`` called."""
    calls = {call.name: call for call in library_calls(code)}
    lines = [line.strip() for line in bounded_lines(output) if line.strip()]
    found: dict[tuple[str, NoteKind], Observed] = {}
    frames = {name for line in lines for name in _FRAME.findall(line)}
    for line in lines:
        raised = _raised(line)
        if raised is None:
            continue
        text, words = raised
        named = (words | frames) & calls.keys() if calls else _named_in(text)
        for name in sorted(named):
            call = calls.get(name)
            qualified, at = (call.qualified, call.line) if call else (name, "")
            found.setdefault(
                (name, NoteKind.RAISED),
                Observed(name, qualified, NoteKind.RAISED, at, clip(text, _LINE_CHARS)),
            )
    failing = next((m.group(1) for line in lines if (m := _ASSERT.search(line))), None)
    if failing is not None and not any(k is NoteKind.RAISED for _, k in found):
        for call in calls.values():
            found[(call.name, NoteKind.FAILED_ASSERT)] = Observed(
                call.name, call.qualified, NoteKind.FAILED_ASSERT, call.line,
                clip(failing, _LINE_CHARS),
            )  # fmt: skip
    return [o for o in found.values() if _named_fairly(o)]


def _named_fairly(observed: Observed) -> bool:
    """Whether the note's names are short enough to be a function's (and to be indexed)."""
    return len(observed.name) <= _NAME_CHARS and len(observed.qualified) <= 2 * _NAME_CHARS


def passed_calls(code: str, result: str) -> list[Observed]:
    """A ``worked`` note for each library call in ``code``, whose check passed (``result``: its
    first line, the summary; the checks a verbose run lists after it are facts' business, see
    :mod:`cognition.call_facts`)."""
    first = next((line for line in result.splitlines() if line.strip()), "")
    said = clip(" ".join(first.split()), _LINE_CHARS) or "its check passed"
    notes = [
        Observed(c.name, c.qualified, NoteKind.WORKED, c.line, said) for c in library_calls(code)
    ]
    return [o for o in notes if _named_fairly(o)]


def prompt_names(text: str) -> list[str]:
    """The names ``text`` speaks of as code, in order: inside backticks, dotted
    (``tally.span`` gives both it and ``span``), or called (``span(``)."""
    spans = _CODE_SPAN.findall(text)
    found: list[str] = []
    for chunk in [*spans, *_DOTTED.findall(text), *_NAMED_CALL.findall(text)]:
        for dotted in re.findall(rf"{_IDENT}(?:\.{_IDENT})*", chunk):
            found.extend([dotted, *dotted.split(".")[1:]] if "." in dotted else [dotted])
    return list(dict.fromkeys(found))


def prose_names(text: str) -> list[str]:
    """Every word of ``text`` that could name code (identifiers of 3 characters or more), in
    order, at most :data:`_PROSE_NAMES`: what recall falls back on when the prompt names no
    code that any note is about (a prompt that says "using the span function")."""
    words = (w for w in re.findall(_IDENT, text[: 50 * _PROSE_NAMES]) if len(w) >= 3)
    return list(dict.fromkeys(words))[:_PROSE_NAMES]


def calls_in(code: str) -> Iterable[str]:
    """The lines of ``code`` without their whitespace (to match a note's call against)."""
    return ("".join(line.split()) for line in code.splitlines() if line.strip())
