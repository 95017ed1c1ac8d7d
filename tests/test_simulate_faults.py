"""No exception anywhere (issue 14): an exception the daemon catches so that it can go on
(Daemon._guard, service/daemon.py) is a fault that `moderator simulate` counts; the soak
fails on any, and the daemon keeps running (issue 11)."""

from __future__ import annotations

import pytest

from moderator.bots.simulate import simulate
from moderator.service.daemon import Daemon


def test_a_fault_in_a_guarded_daemon_step_fails_the_soak_and_the_daemon_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon's first mail poll fails (whenever it comes: before or after the bot's
    orders reach the mailbox): the daemon goes on, a later poll takes the orders, the
    turn is resolved and every mail delivered, and the summary names the fault with its
    traceback and is not OK."""
    real = Daemon._poll
    polls: list[int] = []

    def first_fails(self: Daemon) -> None:
        polls.append(1)
        if len(polls) == 1:
            raise RuntimeError("injected: the first poll fails")
        real(self)

    monkeypatch.setattr(Daemon, "_poll", first_fails)
    summary = simulate(1, "fault", ["serbia"], mail=True, maps=False)
    text = summary.text()
    # the daemon went on after the fault: the orders taken in, the turn resolved, reported, replayed
    assert len(polls) > 1 and summary.turns == 1 and summary.replays == {1: True}, text
    assert summary.errors == [] and summary.refused == [] and summary.delivery == [], text
    assert summary.mails["receipt"] == 1 and summary.mails["report"] == 18, text
    # and nothing of the fault was lost
    assert summary.faults is not None and len(summary.faults) == 1, text
    fault = summary.faults[0]
    assert fault.what in ("mail poll", "mail poll before the deadline"), text
    assert (fault.error, fault.times) == ("RuntimeError: injected: the first poll fails", 1)
    assert "in first_fails" in fault.trace and "_guard" in fault.trace
    assert (f"Daemon faults (exceptions the daemon caught and went on from): 1: {fault.what} failed: "
            "RuntimeError: injected: the first poll fails (1x)") in text
    assert "DAEMON FAULTS: 1" in text and "Traceback (most recent call last)" in text
    assert not summary.ok and "Result: PROBLEMS FOUND" in text
