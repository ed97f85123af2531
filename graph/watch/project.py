"""Which project a watched root is: what agents sharing one Neo4j share decisions by.

The ``project`` setting when given; else the repository's ``origin`` remote
as host and path (``github.com/acme/retrier``: every clone of it is the same
project; user, password and scheme left out), read from ``.git/config``;
else the root folder's name (a repository without a remote, or no
repository). Only ``.git/config`` is read: a regular file under a size
cap, never a symlink.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

MAX_CONFIG_BYTES = 64 * 1024
_ORIGIN = re.compile(r'^\s*\[remote\s+"origin"\]\s*$')
_SECTION = re.compile(r"^\s*\[")
_URL = re.compile(r"^\s*url\s*=\s*(\S+)\s*$")
_SCP = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)(.+)$")


def project_of(root: Path, configured: str | None = None) -> str:
    """The project ``root`` belongs to (see the module's docstring)."""
    if configured:
        return configured
    url = _origin_url(root / ".git" / "config")
    name = _from_url(url) if url else None
    return name or root.resolve().name or "project"


def _origin_url(config: Path) -> str | None:
    try:
        fd = os.open(config, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        text = handle.read(MAX_CONFIG_BYTES).decode("utf-8", errors="replace")
    inside = False
    for line in text.splitlines():
        if _SECTION.match(line):
            inside = bool(_ORIGIN.match(line))
        elif inside and (found := _URL.match(line)):
            return found.group(1)
    return None


def _from_url(url: str) -> str | None:
    """``host/path`` of a remote's URL, without user, password, scheme, port or ``.git``."""
    scp = _SCP.match(url)
    if scp and "://" not in url:
        host, path = scp.group(1), scp.group(2)
    else:
        rest = url.split("://", 1)[-1]
        rest = rest.rsplit("@", 1)[-1]  # user:password@ dropped
        host, _, path = rest.partition("/")
        host = host.split(":", 1)[0]
    path = path.strip("/").removesuffix(".git")
    if not host and not path:
        return None
    return f"{host}/{path}".strip("/")[:200] or None
