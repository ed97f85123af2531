"""Where the daemon and the commands log: stderr (and a rotating file); per-run lines at DEBUG."""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FILE_BYTES, LOG_FILE_BACKUPS = 10 * 1024 * 1024, 5
# APScheduler logs two lines at INFO for every run of every job (every 2 s for the
# decision loop), and watchfiles one ("N changes detected") for every batch of file
# events; they bury the status line, so they show only at DEBUG.
PER_RUN_LOGGERS = ("apscheduler.executors.default", "apscheduler.scheduler", "watchfiles.main")


def configure_logging(level: str, log_file: Path | None = None) -> None:
    """Log to stderr (and to a rotating ``log_file``); job runs only at DEBUG."""
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if log_file is not None:
        log_file = log_file.expanduser()
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(
            RotatingFileHandler(
                log_file, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8"
            )
        )
    logging.basicConfig(level=level, format=LOG_FORMAT, handlers=handlers, force=True)
    quiet = logging.DEBUG if level == "DEBUG" else logging.WARNING
    for name in PER_RUN_LOGGERS:
        logging.getLogger(name).setLevel(quiet)
