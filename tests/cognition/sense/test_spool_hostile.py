"""The intake spool against what a clone or another user can plant (issue 24, items 1 to 3).

Links, FIFOs, sockets, folders and other users' files where the spool or
its side files should be; records with a damaged length; a sparse file far
past the bound. Real files, real FIFOs; what could hang runs in a child with
a timeout.
"""

from __future__ import annotations

import logging
import os
import socket
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

from cognition.sense.spool import HEADER, ObservationSpool, read_pending
from graph.models import Observation, ObservationType

REPO = Path(__file__).resolve().parents[3]
DECOY = b"the user's own words\n"


def _created(path: str) -> Observation:
    return Observation(agent_id="a", type=ObservationType.FILE_CREATED, path=path, size=1)


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def _run_child(code: str, timeout_s: float = 60) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter; a hang is a failure, not a stuck test run."""
    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the spool blocked for {timeout_s} s")


def test_a_symlinked_spool_is_moved_aside_and_its_target_never_touched(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    decoy = tmp_path / "decoy"
    decoy.write_bytes(DECOY)
    path = tmp_path / "root" / ".nous" / "intake.spool"
    path.parent.mkdir(parents=True)
    path.symlink_to(decoy)
    with caplog.at_level(logging.WARNING):
        spool = ObservationSpool.open(path, max_bytes=1 << 20)
    [error] = _errors(caplog)
    assert str(path) in error and "symbolic link" in error
    [aside] = path.parent.glob("intake.spool.aside-*")
    assert aside.is_symlink() and os.readlink(aside) == str(decoy)  # moved, not followed
    assert path.is_file() and not path.is_symlink()
    first = _created("notes/a.md")
    assert spool.append([first]) == 1
    spool.acknowledge([first.id])  # nothing pending: the spool, not the decoy, is emptied
    assert decoy.read_bytes() == DECOY


def test_a_link_planted_while_running_is_refused_not_written_through(tmp_path: Path) -> None:
    decoy = tmp_path / "decoy"
    decoy.write_bytes(DECOY)
    path = tmp_path / "intake.spool"
    spool = ObservationSpool.open(path, max_bytes=1 << 20)
    first = _created("notes/a.md")
    spool.append([first])
    path.unlink()
    path.symlink_to(decoy)
    with pytest.raises(OSError, match="symbolic link"):
        spool.append([_created("notes/b.md")])
    with pytest.raises(OSError, match="symbolic link"):
        spool.acknowledge([first.id])
    assert decoy.read_bytes() == DECOY


def test_a_symlinked_damaged_file_is_never_followed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(DECOY)
    path = tmp_path / "intake.spool"
    for name in ("intake.spool.damaged", "intake.spool.compact"):
        (tmp_path / name).symlink_to(victim)
    spool = ObservationSpool.open(path, max_bytes=1 << 20)
    spool.append([_created(f"notes/{i}.md") for i in range(3)])
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with caplog.at_level(logging.ERROR):
        again = ObservationSpool.open(path, max_bytes=1 << 20)
    assert len(again) == 2 and victim.read_bytes() == DECOY
    [aside] = tmp_path.glob("intake.spool.damaged-*")
    assert not aside.is_symlink() and aside.stat().st_size > 0
    assert str(aside) in _errors(caplog)[0]


@pytest.mark.parametrize("kind", ["folder", "socket", "other user's file"])
def test_anything_else_at_the_spool_is_moved_aside_unopened(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    path = tmp_path / "intake.spool"
    held: socket.socket | None = None
    if kind == "folder":
        path.mkdir()
    elif kind == "socket":
        held = socket.socket(socket.AF_UNIX)
        held.bind(str(path))
    else:
        if os.geteuid() != 0:
            pytest.skip("making another user's file needs root")
        path.write_bytes(DECOY)
        os.chown(path, 65534, 65534)
    try:
        with caplog.at_level(logging.WARNING):
            spool = ObservationSpool.open(path, max_bytes=1 << 20)
    finally:
        if held is not None:
            held.close()
    [error] = _errors(caplog)
    assert str(path) in error and "moved aside" in error
    [aside] = tmp_path.glob("intake.spool.aside-*")
    if kind == "other user's file":
        assert aside.read_bytes() == DECOY and aside.stat().st_uid == 65534  # not truncated
    assert spool.append([_created("notes/a.md")]) == 1
    assert [o.path for o in read_pending(path)] == ["notes/a.md"]


def test_a_fifo_as_the_spool_never_blocks(tmp_path: Path) -> None:
    # Today's code hangs in open(O_WRONLY) at the first append: the child times out.
    path = tmp_path / "intake.spool"
    os.mkfifo(path)
    done = _run_child(
        f"""
        from pathlib import Path
        from cognition.sense.spool import ObservationSpool
        from graph.models import Observation, ObservationType
        spool = ObservationSpool.open(Path({str(path)!r}), max_bytes=1 << 20)
        o = Observation(agent_id="a", type=ObservationType.FILE_CREATED, path="n.md", size=1)
        print(spool.append([o]), flush=True)
        spool.acknowledge([o.id])
        # A FIFO planted while running (even one with a reader) is refused at once.
        Path({str(path)!r}).unlink()
        import os
        os.mkfifo({str(path)!r})
        reader = os.open({str(path)!r}, os.O_RDONLY | os.O_NONBLOCK)
        try:
            spool.append([o])
        except OSError as exc:
            print("refused:", exc, flush=True)
        """,
        timeout_s=30,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "1" and lines[1].startswith("refused:") and "FIFO" in lines[1]
    assert "moved aside" in done.stderr and str(path) in done.stderr
    [aside] = tmp_path.glob("intake.spool.aside-*")
    assert aside.is_fifo()


def test_a_corrupt_length_costs_its_record_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "intake.spool"
    spool = ObservationSpool.open(path, max_bytes=1 << 20)
    records = [_created(f"notes/{i}.md") for i in range(5)]
    spool.append(records[:1])
    start = spool.size_bytes
    spool.append(records[1:2])
    end = spool.size_bytes
    spool.append(records[2:])
    data = bytearray(path.read_bytes())
    struct.pack_into(">I", data, start, 0xFFFFFFF0)  # a length no record has
    path.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING):
        again = ObservationSpool.open(path, max_bytes=1 << 20)
    # Today's code called this a torn tail and cut the three whole records after it.
    assert again.pending_ids == [records[0].id, *(o.id for o in records[2:])]
    [error] = _errors(caplog)
    assert "torn" not in error and "4 observations replayed" in error
    [aside] = tmp_path.glob("intake.spool.damaged-*")
    assert aside.read_bytes() == bytes(data[start:end])
    assert read_pending(path) == [records[0], *records[2:]]


def test_a_sparse_file_past_the_bound_is_reported_not_read_or_copied_whole(
    tmp_path: Path,
) -> None:
    path = tmp_path / "intake.spool"
    bound = 1 << 20
    spool = ObservationSpool.open(path, max_bytes=bound)
    spool.append([_created(f"notes/{i}.md") for i in range(3)])
    whole = spool.size_bytes
    os.truncate(path, 512 << 20)  # sparse: 512 MiB of zeros after three records
    # Today's code reads all 512 MiB into memory and copies them to disk.
    done = _run_child(
        f"""
        import logging, resource
        from pathlib import Path
        from cognition.sense.spool import ObservationSpool
        logging.basicConfig(level=logging.INFO)
        spool = ObservationSpool.open(Path({str(path)!r}), max_bytes={bound})
        print(len(spool), spool.read_limit, flush=True)
        # VmHWM is this process's own peak: ru_maxrss keeps the high-water mark of the
        # process it was spawned from (the test run's, hundreds of MB late in a suite).
        try:
            with open("/proc/self/status") as status:
                hwm = [line.split()[1] for line in status if line.startswith("VmHWM:")]
            print(int(hwm[0]) * 1024, flush=True)
        except (OSError, IndexError):
            print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, flush=True)
        """
    )
    assert done.returncode == 0, done.stderr
    pending, limit, peak = (int(w) for w in done.stdout.split())
    assert pending == 3 and limit < 3 * bound
    assert peak < 300 << 20, f"peak RSS {peak} bytes"
    assert "not read" in done.stderr and str(path) in done.stderr
    [aside] = tmp_path.glob("intake.spool.damaged-*")
    assert aside.stat().st_size == limit - whole  # only what was read, never the whole file
    assert path.stat().st_size == whole  # the fresh spool holds the three records only
    assert len(read_pending(path)) == 3


def test_a_damaged_header_torn_at_the_end_is_still_a_torn_tail(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "intake.spool"
    spool = ObservationSpool.open(path, max_bytes=1 << 20)
    spool.append([_created("notes/a.md")])
    whole = spool.size_bytes
    with path.open("ab") as file:
        file.write(HEADER.pack(100, 0)[:5])  # a kill after five bytes of the next header
    with caplog.at_level(logging.WARNING):
        again = ObservationSpool.open(path, max_bytes=1 << 20)
    assert len(again) == 1 and path.stat().st_size == whole
    assert not _errors(caplog) and not list(tmp_path.glob("intake.spool.damaged-*"))


def _for(agent_id: str, path: str) -> Observation:
    return Observation(agent_id=agent_id, type=ObservationType.FILE_CREATED, path=path, size=1)


def test_a_record_for_another_agent_is_set_aside_never_replayed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A folder carrying a spool: one record names an agent that never ran here (issue 56).
    path = tmp_path / "intake.spool"
    ObservationSpool.open(path, max_bytes=1 << 20).append(
        [_for("a", "notes/mine.md"), _for("intruder", "notes/planted.md"), _for("a", "notes/b.md")]
    )
    planted = read_pending(path)[1]
    with caplog.at_level(logging.WARNING):
        spool = ObservationSpool.open(path, max_bytes=1 << 20, agent_id="a")
    replayed = spool.load(spool.pending_ids)
    assert [o.path for o in replayed] == ["notes/mine.md", "notes/b.md"]
    assert all(o.agent_id == "a" for o in replayed)
    [error] = _errors(caplog)  # one ERROR, counting it
    assert "1 records for another agent than a set aside" in error
    assert "2 observations replayed" in error
    [aside] = tmp_path.glob("intake.spool.damaged-*")
    assert planted.id.encode() in aside.read_bytes() and b"intruder" in aside.read_bytes()
    assert b"intruder" not in path.read_bytes()  # gone from the spool itself


def test_a_record_changed_to_another_agent_after_start_is_not_replayed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "intake.spool"
    spool = ObservationSpool.open(path, max_bytes=1 << 20, agent_id="a")
    mine = _for("a", "notes/mine.md")
    spool.append([mine])
    # Rewritten in place, same length, its CRC made right: only the agent differs.
    data = path.read_bytes()
    body = data[HEADER.size :].replace(b'"agent_id":"a"', b'"agent_id":"b"')
    path.write_bytes(HEADER.pack(len(body), zlib.crc32(body)) + body)
    with caplog.at_level(logging.WARNING):
        assert spool.load([mine.id]) == []
    assert "another agent's" in _errors(caplog)[0]
