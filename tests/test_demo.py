"""`make run`'s demo: its ready-made orders are clean for every demo seat (but Russia's
deliberate typo), and a whole demo turn runs to its reports."""

import subprocess
import sys
from pathlib import Path

import pytest

from moderator.orders import check_text, parse_orders
from moderator.service.demo import ROBOT_PLAYERS, SEATS, run_demo, sample_orders
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario


@pytest.mark.parametrize("nation", SEATS)
def test_sample_orders_check_clean(nation: str) -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "demo")
    result = check_text(sample_orders(state, world, nation, scenario), nation, state, world, scenario)
    assert [d.message for d in result.diagnostics if d.severity == "error"] == []


def test_the_deliberate_mistake_gets_a_did_you_mean() -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "demo")
    result = check_text(sample_orders(state, world, "russia", scenario, with_mistake=True), "russia", state, world,
                        scenario)
    [error] = [d for d in result.diagnostics if d.severity == "error"]
    assert "Did you mean" in error.message


def test_the_robots_use_every_kind_of_order_the_engine_resolves() -> None:
    """The demo is where a broken event shows first: its robots' turn uses the orders the
    engine carries out, on land, at sea and in the air (demo_orders' docstring lists them)."""
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "demo")
    kinds = {type(o).__name__ for n in ROBOT_PLAYERS
             for o in parse_orders(sample_orders(state, world, n, scenario)).orders}
    assert kinds >= {"DeclareWar", "Attack", "CombatCondition", "ArtillerySupport", "CasualtyOrder", "Incorporate",
                     "TaskForce", "TaskForceMission", "SubInterception", "NavalInvasion", "Recon", "Rebase",
                     "Build", "BuildTrench", "Move", "StrategicMove", "Research", "Espionage", "CounterEspionage",
                     "Gift", "AirRetreat", "LetPass", "DefendWith", "SubDetection", "SubWarfare", "Transfer"}


@pytest.mark.slow
def test_demo_runs_a_whole_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo(tmp_path / "demo", deadline_seconds=6, poll_seconds=1, exit_after_turn=True, ports=(0, 0)) == 0
    out = capsys.readouterr().out
    for step in ("demo player germany@demo.local mailed its orders", "receipt for German Empire",
                 "deadline reached for demo turn 1", "resolved demo turn 1", "turn 1 is done"):
        assert step in out
    sent = sorted((tmp_path / "demo" / "sent").iterdir())
    assert len([p for p in sent if p.suffix == ".png"]) >= len(SEATS)
    # The reports print the demo's real deadline (seconds away), not a ten-day default.
    from datetime import UTC, datetime, timedelta
    from email import message_from_bytes, policy

    from moderator.store.db import Store

    # The reports print turn 2's deadline as turn 1's resolution set it (the game's deadline
    # may have moved on since, counted again from when the reports went out: test_full_turn.py),
    # so compare with the record.
    resolved = Store.at(tmp_path / "demo" / "moderator.db").turn_record("demo", 1).resolved  # type: ignore[union-attr]
    mails = [message_from_bytes(p.read_bytes(), policy=policy.default) for p in sent if p.suffix == ".eml"]
    report = next(m for m in mails if "report for German Empire" in str(m["Subject"]))
    text = report.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    due = text.split("Orders are due by ", 1)[1].split(".\n", 1)[0]
    printed = datetime.strptime(due, "%A %d %B %Y, %H:%M UTC").replace(tzinfo=UTC)
    resolved = resolved if resolved.tzinfo else resolved.replace(tzinfo=UTC)
    assert abs(printed - (resolved + timedelta(seconds=6))) < timedelta(minutes=1), due
    assert any(part.get_filename() == "report.json" for part in report.iter_attachments())


def _demo_until_banner(root: Path, *, sigint_ignored: bool = False) -> subprocess.Popen[str]:
    """The demo in its own process (its own main thread, where signals land), once it is up;
    `sigint_ignored`: started as a background job of a shell without job control is (a
    script's `cmd &`, a CI step), which ignores SIGINT, and the process inherits that."""
    import signal

    launcher = ("import sys; from pathlib import Path; from moderator.service.demo import run_demo; "
                "sys.exit(run_demo(Path(sys.argv[1]), deadline_seconds=600, poll_seconds=1, robots=False, "
                "ports=(0, 0)))")
    process = subprocess.Popen([sys.executable, "-c", launcher, str(root)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored
                               else None)
    assert process.stdout is not None
    for line in process.stdout:
        if "=== moderator demo" in line:
            return process
    process.wait(10)
    raise AssertionError(f"the demo did not start: {process.stderr.read() if process.stderr else ''}")


@pytest.mark.parametrize("signum", ["SIGTERM", pytest.param("SIGINT", marks=pytest.mark.slow)])
def test_the_demo_stops_cleanly_on_sigterm_as_on_ctrl_c(tmp_path: Path, signum: str) -> None:
    """`make run` under a service manager or `kill`: SIGTERM stops the daemon and the mail
    server and exits 0, as Ctrl-C (SIGINT) does, with no traceback. Started with SIGINT
    ignored, as a background job of a script or a CI step is: the demo stops on it all the
    same (it hung until killed, the test failing on such a CI run)."""
    import signal

    process = _demo_until_banner(tmp_path / "demo", sigint_ignored=True)
    try:
        process.send_signal(getattr(signal, signum))
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "stopping" in out and "Traceback" not in err


def test_an_interrupt_while_the_daemon_starts_stops_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C right after the banner can land inside Daemon.start(): the daemon is stopped all
    the same (before, its jobs went on polling the stopped mail server until the interpreter
    exited, its database lock held)."""
    from moderator.service.daemon import Daemon

    started: list[Daemon] = []
    real_start = Daemon.start

    def start_then_interrupted(self: Daemon) -> None:
        real_start(self)
        started.append(self)
        raise KeyboardInterrupt

    monkeypatch.setattr(Daemon, "start", start_then_interrupted)
    assert run_demo(tmp_path / "demo", deadline_seconds=600, poll_seconds=1, robots=False, ports=(0, 0)) == 0
    [daemon] = started
    assert not daemon.scheduler.running and not daemon.svc.store.daemon_locked
