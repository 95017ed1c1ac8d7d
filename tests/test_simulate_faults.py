"""No exception anywhere (issue 14): an exception the daemon catches so that it can go on
(Daemon._guard, service/daemon.py) is a fault that `moderator simulate` counts; the soak
fails on any, and the daemon keeps running (issue 11)."""

from __future__ import annotations

import pytest

from moderator.bots.simulate import simulate
from moderator.service.daemon import Daemon


def test_a_fault_in_a_guarded_daemon_step_fails_the_soak_and_the_daemon_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Keeping the whole turn fails at every deadline check, from the daemon's start on,
    while turn 1 waits for its orders: the soak's daemon still takes them, resolves the turn
    and delivers every mail, and the summary names the fault with its traceback and is not OK."""
    turns_open: set[int] = set()

    def broken(self: Daemon) -> None:
        turns_open.add(self.svc.game("soak").turn)
        raise RuntimeError("injected: the whole turn cannot be kept")

    monkeypatch.setattr(Daemon, "_keep_full_turns", broken)
    summary = simulate(1, "fault", ["serbia"], mail=True, maps=False)
    text = summary.text()
    # the daemon went on after the fault: the orders taken in, the turn resolved, reported, replayed
    assert 1 in turns_open and summary.turns == 1 and summary.replays == {1: True}, text
    assert summary.errors == [] and summary.refused == [] and summary.delivery == [], text
    assert summary.mails["receipt"] == 1 and summary.mails["report"] == 18, text
    # and nothing of the fault was lost
    assert summary.faults and {f.what for f in summary.faults} == {"keeping the whole turn"}, text
    assert summary.faults[0].error == "RuntimeError: injected: the whole turn cannot be kept"
    assert "in broken" in summary.faults[0].trace and "_guard" in summary.faults[0].trace
    assert (f"Daemon faults (exceptions the daemon caught and went on from): {len(summary.faults)}: "
            f"keeping the whole turn failed: RuntimeError: injected: the whole turn cannot be kept "
            f"({len(summary.faults)}x)") in text
    assert "DAEMON FAULTS" in text and "Traceback (most recent call last)" in text
    assert not summary.ok and "Result: PROBLEMS FOUND" in text

