"""Roots no daemon may watch, and daemons on nested roots (issue 24, item 4)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graph.errors import RootInUseError, RootRefusedError
from graph.watch.daemons import register_daemon, running_daemons
from graph.watch.roots import check_root

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    "root", ["/", "/etc", "/etc/ssh", "/proc", "/proc/self", "/sys", "/dev", "/usr", "/usr/lib",
             "/bin", "/boot", "/var", "/var/lib", "/run", "/home", "/lib"],
)  # fmt: skip
def test_the_system_and_its_folders_are_refused(root: str) -> None:
    if not Path(root).exists():
        pytest.skip(f"{root} does not exist here")
    with pytest.raises(RootRefusedError, match=r"watch\.root: ") as refused:
        check_root(Path(root))
    assert str(Path(root).resolve()) in str(refused.value)


def test_a_link_is_judged_by_where_it_leads(tmp_path: Path) -> None:
    link = tmp_path / "looks-harmless"
    link.symlink_to("/etc")
    with pytest.raises(RootRefusedError) as refused:
        check_root(link)
    assert f"{link} (that is /etc)" in str(refused.value)


def test_a_whole_home_is_refused_a_project_inside_it_is_not(tmp_path: Path) -> None:
    home = tmp_path / "home" / "someone"
    (home / "project").mkdir(parents=True)
    with pytest.raises(RootRefusedError, match="whole home folder"):
        check_root(home, home=home)
    assert check_root(home / "project", home=home) == home / "project"
    with pytest.raises(RootRefusedError, match="whole home folder"):
        check_root(Path("~"))  # this user's own, found without being told


def test_a_project_folder_is_accepted_resolved(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "project")
    assert check_root(tmp_path / "via") == (tmp_path / "project").resolve()


def test_nested_roots_are_refused_naming_the_other_root_and_pid(tmp_path: Path) -> None:
    registry = tmp_path / "registry" / "daemons"
    outer, inner = tmp_path / "r2", tmp_path / "r2" / "sub"
    inner.mkdir(parents=True)
    with register_daemon(outer, registry) as record:
        assert record is not None and record.parent == registry
        with pytest.raises(RootInUseError) as below, register_daemon(inner, registry):
            pass
        assert f"(pid {os.getpid()}) watches {outer}, which holds" in str(below.value)
        with (
            pytest.raises(RootInUseError, match="already watches"),
            register_daemon(outer, registry),
        ):
            pass
        apart = tmp_path / "r3"
        with register_daemon(apart, registry):
            assert {d.root for d in running_daemons(registry)} == {outer, apart}
    with (
        register_daemon(inner, registry),
        pytest.raises(RootInUseError) as above,
        register_daemon(outer, registry),
    ):
        pass
    assert f"watches {inner}, which lies inside" in str(above.value)
    assert running_daemons(registry) == []
    assert oct(registry.stat().st_mode & 0o777) == "0o700"
    assert oct(registry.parent.stat().st_mode & 0o777) == "0o700"


def test_a_killed_daemon_leaves_nothing_that_blocks(tmp_path: Path) -> None:
    registry, root = tmp_path / "registry" / "daemons", tmp_path / "root"
    holder = textwrap.dedent(
        f"""
        import time
        from pathlib import Path
        from graph.watch.daemons import register_daemon
        with register_daemon(Path({str(root)!r}), Path({str(registry)!r})):
            print("held", flush=True)
            time.sleep(120)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", holder], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        with (
            pytest.raises(RootInUseError, match=f"pid {child.pid}"),
            register_daemon(root / "sub", registry),
        ):
            pass
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        if child.stdout is not None:
            child.stdout.close()
    assert len(list(registry.glob("daemon-*.json"))) == 1  # the record stays, unlocked
    with register_daemon(root / "sub", registry):
        assert [d.root for d in running_daemons(registry)] == [root / "sub"]
    assert list(registry.glob("daemon-*.json")) == []  # the stale one was removed


def test_a_registry_folder_open_to_others_is_not_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    registry = tmp_path / "open" / "daemons"
    registry.mkdir(parents=True)
    registry.parent.chmod(0o700)
    registry.chmod(0o777)  # anyone could plant a record, or remove ours
    with register_daemon(tmp_path / "a", registry) as record:
        assert record is None
    assert "not registered" in caplog.text and str(registry) in caplog.text


def test_a_state_folder_that_is_a_link_or_a_file_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "clone"
    root.mkdir()
    (root / ".nous").symlink_to(elsewhere)  # a cloned repository can carry it
    with pytest.raises(RootRefusedError) as refused:
        check_root(root)
    assert f"{root / '.nous'} is a symbolic link (to {elsewhere})" in str(refused.value)
    (root / ".nous").unlink()
    (root / ".nous").write_text("not a folder")
    with pytest.raises(RootRefusedError, match="is not a folder"):
        check_root(root)
    assert list(elsewhere.iterdir()) == []
