"""Runs inside the practice sandbox: the candidate's code in a child of its own, answering calls.

A solution that runs in the checker's process can write the checker's
report itself and exit: the verdict would be its to forge. So the checker
forks first, before it has read a single check: the child closes every
descriptor the checker will report through, imports ``solution`` and answers
calls over two pipes; the checker, which cannot be read or traced by the
child (it is made non-dumpable before the fork), imports the checks with a
stand-in ``solution`` module whose functions send their arguments to the
child and bring back what came out. The checks' comparisons run in the
checker, on plain values: what crosses the pipe is ``marshal``-ed (numbers,
strings, bytes, None, and tuples, lists, sets and dicts of them), so an
object whose ``__eq__`` always says yes cannot cross.

The standard library only, as little of it as can be (this starts with the
interpreter, under ``-S``).
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

_MAX_MESSAGE = 64 * 1024 * 1024
_PR_SET_DUMPABLE = 4


class CandidateError(Exception):
    """The candidate's process ended, or said something that cannot be read."""


class Candidate:
    """The checker's side: the child's pid, its pipes, and what its solution exports."""

    def __init__(self, pid: int, calls: int, answers: int) -> None:
        self.pid, self.calls, self.answers = pid, calls, answers

    def ready(self) -> tuple[dict[str, Any], str | None]:
        """(the solution's exports, None) once it imported, or ({}, why it did not)."""
        try:
            answer = _receive(self.answers)
        except CandidateError as exc:
            return {}, f"the solution does not import: {exc}"
        if not (isinstance(answer, tuple) and len(answer) == 2):
            return {}, "the solution's process said something that cannot be read"
        if answer[0] == "ready" and isinstance(answer[1], dict):
            return answer[1], None
        return {}, f"the solution does not import: {answer[1]}"

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """``name(*args, **kwargs)`` in the child; its exception is raised here, by type name."""
        try:
            message = marshal.dumps((name, args, kwargs))
        except ValueError as exc:
            raise TypeError(f"an argument cannot be handed to the candidate: {exc}") from None
        _send(self.calls, message)
        answer = _receive(self.answers)
        if isinstance(answer, tuple) and len(answer) == 2 and answer[0] == "ok":
            return answer[1]
        if isinstance(answer, tuple) and len(answer) == 4 and answer[0] == "raised":
            _, type_name, bases, text = answer
            raise _exception(str(type_name), [str(b) for b in bases])(str(text))
        raise CandidateError("an answer of the wrong shape")


def start(folder: str, close: Sequence[int]) -> Candidate:
    """Fork the candidate's child (closing ``close`` in it) and return the checker's side."""
    _no_dumps()  # before the fork: the child must never see this process's descriptors
    call_read, call_write = os.pipe()
    answer_read, answer_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: it never returns
        code = 0
        try:
            for fd in (*close, call_write, answer_read):
                os.close(fd)
            _serve(folder, call_read, answer_write)
        except BaseException:
            code = 1
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()  # what the solution printed is for the model to read
                except BaseException:
                    code = 1
            os._exit(code)
    os.close(call_read)
    os.close(answer_write)
    return Candidate(pid, call_write, answer_read)


def stand_in(candidate: Candidate, exports: dict[str, Any]) -> Any:
    """A module ``solution`` for the tests: a function per exported callable, values as is.

    ``exports`` is what the checker chose to show (:func:`shown`), not all the child said.
    """
    module = type(sys)("solution")
    names = []
    for name, (kind, value) in exports.items():
        if kind == "function":
            setattr(module, name, remote(candidate, name))
        elif kind == "exception":
            setattr(module, name, _exception(name, value))
        else:
            setattr(module, name, value)
        names.append(name)
    setattr(module, "__all__", names)  # noqa: B010 (a module made at run time)
    return module


def shown(exports: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The exports a test file may see: ``names`` (what the task defines) when given, and
    never a builtin's name or one pytest would collect as a test of its own."""
    wanted = set(names)
    return {
        name: value
        for name, value in exports.items()
        if (not wanted or name in wanted)
        and not hasattr(builtins, name)
        and not name.lower().startswith("test")
    }


def remote(candidate: Candidate, name: str) -> Callable[..., Any]:
    """A function of the checker's that calls ``name`` in the candidate's child."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return candidate.call(name, args, kwargs)

    call.__name__ = call.__qualname__ = name
    return call


_MADE: dict[str, type[BaseException]] = {}


def _exception(name: str, bases: Sequence[str]) -> type[BaseException]:
    """The exception type ``name``: a built-in one, or one made here on its built-in base."""
    found = getattr(builtins, name, None)
    if isinstance(found, type) and issubclass(found, BaseException):
        return found
    if name not in _MADE:
        base = next(
            (
                b
                for b in (getattr(builtins, n, None) for n in bases)
                if isinstance(b, type) and issubclass(b, Exception)
            ),
            Exception,
        )
        _MADE[name] = type(name, (base,), {})
    return _MADE[name]


def _serve(folder: str, calls: int, answers: int) -> None:
    sys.path.insert(0, folder)
    try:
        import solution  # type: ignore[import-not-found]
    except BaseException as exc:
        _print_trace()
        _send(answers, marshal.dumps(("broken", f"{type(exc).__name__}: {exc}"[:300])))
        return
    _send(answers, marshal.dumps(("ready", _exports(solution))))
    while True:
        try:
            name, args, kwargs = marshal.loads(_read_message(calls))  # noqa: S302 (from the checker)
        except CandidateError:
            return  # the checker is done
        try:
            message = marshal.dumps(("ok", getattr(solution, name)(*args, **kwargs)))
        except BaseException as exc:
            kind = type(exc)
            bases = [c.__name__ for c in kind.__mro__]
            message = marshal.dumps(("raised", kind.__name__, bases, str(exc)[:2000]))
        _send(answers, message)


def _exports(solution: Any) -> dict[str, tuple[str, Any]]:
    """What ``from solution import *`` would give, as marshal can carry it."""
    names = getattr(solution, "__all__", None)
    if names is None:
        names = [n for n in vars(solution) if not n.startswith("_")]
    found: dict[str, tuple[str, Any]] = {}
    for name in names:
        value = getattr(solution, name, None)
        if isinstance(value, type) and issubclass(value, BaseException):
            found[name] = ("exception", [c.__name__ for c in value.__mro__])
        elif callable(value):
            found[name] = ("function", None)
        else:
            try:
                marshal.dumps(value)
            except ValueError:
                continue  # a module, an object: nothing the checks can be given
            found[name] = ("value", value)
    return found


def _send(fd: int, message: bytes) -> None:
    data = memoryview(len(message).to_bytes(4, "big") + message)
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError as exc:
        raise CandidateError(f"the candidate's process ended ({exc.strerror})") from None


def _receive(fd: int) -> Any:
    # marshal, not pickle: loading it builds values and never runs code. A crafted stream
    # can at worst end this process, which fails the run; code objects are refused below.
    try:
        value = marshal.loads(_read_message(fd))  # noqa: S302
    except (ValueError, EOFError, TypeError) as exc:
        raise CandidateError(f"an answer that cannot be read ({exc})") from None
    if not _plain(value, 0):
        raise CandidateError("an answer that is not plain data")
    return value


_SCALARS = (type(None), bool, int, float, complex, str, bytes)


def _plain(value: Any, depth: int) -> bool:
    """Only numbers, strings, bytes, None and containers of them, not too deep."""
    if isinstance(value, _SCALARS) and type(value) in _SCALARS:
        return True
    if depth > 100:
        return False
    if type(value) in (tuple, list, set, frozenset):
        return all(_plain(item, depth + 1) for item in value)
    if type(value) is dict:
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _read_message(fd: int) -> bytes:
    size = int.from_bytes(_read_exactly(fd, 4), "big")
    if size > _MAX_MESSAGE:
        raise CandidateError(f"an answer of {size} bytes")
    return _read_exactly(fd, size)


def _read_exactly(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise CandidateError("the candidate's process ended")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _no_dumps() -> None:
    # Non-dumpable: a process of the same user cannot open /proc/PID/fd/N, read its memory
    # or trace it. The child inherits the flag too, which costs it nothing.
    import ctypes

    if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")


def _print_trace() -> None:
    import traceback  # only when something went wrong: it costs an import

    traceback.print_exc()
    sys.stdout.flush()
