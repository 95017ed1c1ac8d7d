"""Crash points for the fault-injection tests: kill -9 at a named step of the work.

`MODERATOR_CRASH_AT=name` (or `name@N`, the N-th time the step is reached) makes the
process kill itself with SIGKILL right there - no cleanup, no flush, no atexit: what a
power cut or the OOM killer does. The tests (tests/test_faults.py) run the daemon as a
subprocess with it, restart it without, and check that nothing was lost or done twice.
Unset (always, in production), a crash point costs one dictionary lookup.

The steps, in the order the work reaches them:
  intake.stored        a fetched batch's raw bytes are committed, not yet handled (once a message)
  intake.handled       a message's submission and receipt are committed (with its group,
                       service/inbox.py handle_group), the mailbox copies not yet moved
  intake.filed         the mailbox copies of a fetched batch are moved to the processed folder
  turn.computed        a turn is resolved in memory, nothing stored yet
  turn.reports-built   its reports are built, nothing stored yet
  turn.committed       the new turn, its records and its queued reports are committed
  outbox.accepted      the SMTP server accepted a message, the row is not yet marked sent
  outbox.marked        the row is marked sent
"""

from __future__ import annotations

import os
import signal
from collections import Counter

_reached: Counter[str] = Counter()


def crash_point(step: str) -> None:
    """Die here if the environment asks for it (see the module docstring)."""
    wanted = os.environ.get("MODERATOR_CRASH_AT")
    if not wanted:
        return
    name, _, nth = wanted.partition("@")
    if name != step:
        return
    _reached[step] += 1
    if _reached[step] >= int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
