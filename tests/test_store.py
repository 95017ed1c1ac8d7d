"""The repository on a real SQLite file: raw mail kept, submissions replace, snapshots round-trip."""

from pathlib import Path

import pytest

from moderator.store.db import Store, hash_secret, verify_secret


def test_seat_secret_is_hashed_and_verifies(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    store.create_game("g1", "1914")
    seat = store.add_seat("g1", "germany", "Kaiser@Example.org", "pickelhaube")
    assert "pickelhaube" not in seat.secret_hash
    assert verify_secret("pickelhaube", seat.secret_hash)
    assert not verify_secret("wrong", seat.secret_hash)
    assert store.seat("g1", "germany").email == "kaiser@example.org"


def test_replacing_a_seat_deactivates_the_old_one(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    store.create_game("g1", "1914")
    store.add_seat("g1", "france", "a@x", "one")
    store.add_seat("g1", "france", "b@x", "two")
    assert [s.email for s in store.seats("g1")] == ["b@x"]
    assert len(store.seats("g1", active_only=False)) == 2


def test_raw_message_is_kept_byte_for_byte(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    raw = b"From: a@x\r\nSubject: \xff odd\r\n\r\nbody\x00"
    mid, new = store.store_incoming(raw, uid=7)
    assert new and store.message(mid).raw == raw
    assert [m.id for m in store.messages("in", "new")] == [mid]


def test_a_message_fetched_twice_is_stored_once(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    raw = b"From: a@x\r\nMessage-ID: <1@x>\r\n\r\norders"
    first, _ = store.store_incoming(raw, uid=7, uidvalidity=100)
    assert store.store_incoming(raw, uid=7, uidvalidity=100) == (first, False)  # the same UID again
    assert store.store_incoming(raw, uid=1, uidvalidity=200) == (first, False)  # after a UIDVALIDITY reset
    other, new = store.store_incoming(raw + b"!", uid=2, uidvalidity=200)
    assert new and other != first
    assert len(store.messages("in")) == 2


def test_a_fetched_batch_is_stored_as_one_by_one_would(tmp_path: Path) -> None:
    """store_incoming_batch (the intake's two queries a batch) knows a message the way
    store_incoming does: by (UIDVALIDITY, UID) with the same bytes, else by its bytes; a
    second copy inside the batch finds the first; each new one has its first attempt counted."""
    from datetime import UTC, datetime, timedelta

    from moderator.store.db import Incoming

    store = Store.at(tmp_path / "m.db")
    old, _ = store.store_incoming(b"old", uid=7, uidvalidity=100)
    reused, _ = store.store_incoming(b"before the reset", uid=8, uidvalidity=100)
    now = datetime.now(UTC)
    with store.transaction():
        stored = store.store_incoming_batch([
            Incoming(b"old", 7, 100),  # fetched again
            Incoming(b"old", 1, 200),  # after a UIDVALIDITY reset: its bytes
            Incoming(b"new one", 8, 100),  # a UID reused for other bytes (the mailbox was rebuilt)
            Incoming(b"twice", 9, 100),
            Incoming(b"twice", 10, 100),  # the server delivered it twice
        ], now, timedelta(minutes=2))
    assert stored[:2] == [(old, False), (old, False)]
    assert stored[2][1] and stored[2][0] != reused
    assert stored[3][1] and stored[4] == (stored[3][0], False)
    assert [m.attempts for m in store.messages("in", "new")] == [0, 0, 1, 1]
    with store.transaction():  # the same batch again: nothing new
        assert [new for _, new in store.store_incoming_batch([Incoming(b"new one", 8, 100)], now,
                                                             timedelta(minutes=2))] == [False]


def test_reads_kept_for_a_transaction_are_forgotten_when_it_writes_them(tmp_path: Path) -> None:
    """Inside a transaction the game, seats, settings, snapshot key and rulings are read once
    (a burst of mail asks for them on every message); a write of any of them, or a savepoint
    rolled back, makes the next read go to the database again."""
    import pytest

    store = Store.at(tmp_path / "m.db")
    store.create_game("g1", "1914")
    with store.transaction():
        assert store.game("g1").turn == 1 and store.seats("g1") == [] and store.setting("k") is None
        store.update_game("g1", turn=2)
        store.add_seat("g1", "france", "a@x", "one")
        store.set_setting("k", "v")
        store.add_rulings("g1", 2, ["NOTE x"], applies="now", source="test")
        assert store.game("g1").turn == 2 and [s.email for s in store.seats("g1")] == ["a@x"]
        assert store.setting("k") == "v" and len(store.rulings("g1", 2, "now")) == 1
        assert store.snapshot_key("g1", 2) is None
        store.save_snapshot("g1", 2, "{}")
        assert store.snapshot_key("g1", 2) is not None
        with pytest.raises(ZeroDivisionError), store.savepoint():
            store.set_setting("k", "undone")
            assert store.setting("k") == "undone"
            _ = 1 / 0
        assert store.setting("k") == "v"


def test_a_unit_of_work_is_all_or_nothing(tmp_path: Path) -> None:
    import pytest

    store = Store.at(tmp_path / "m.db")
    store.create_game("g1", "1914")
    with pytest.raises(ZeroDivisionError), store.transaction():
        store.update_game("g1", turn=2)
        store.save_snapshot("g1", 2, "{}")
        assert store.game("g1").turn == 2  # seen inside the unit of work
        _ = 1 / 0
    assert store.game("g1").turn == 1 and store.snapshot("g1", 2) is None
    with store.transaction():
        store.update_game("g1", turn=2)
    assert store.game("g1").turn == 2


def test_sqlite_is_write_ahead_and_fully_synchronous(tmp_path: Path) -> None:
    from sqlalchemy import text

    store = Store.at(tmp_path / "m.db")
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        # A savepoint's journal in memory (Debian's SQLite put it in a file: writes per mail)
        assert conn.execute(text("PRAGMA temp_store")).scalar() == 2  # MEMORY


def test_a_second_daemon_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    import subprocess
    import sys

    import pytest

    from moderator.store.db import AlreadyRunning

    store = Store.at(tmp_path / "m.db")
    store.lock_for_daemon()
    other = Store.at(tmp_path / "m.db")
    with pytest.raises(AlreadyRunning, match="another moderator daemon"):
        other.lock_for_daemon()
    # Another process too (flock is per open file, so this is what a second daemon sees).
    code = ("import sys; from moderator.store.db import Store, AlreadyRunning\n"
            f"try: Store.at({str(tmp_path / 'm.db')!r}).lock_for_daemon()\n"
            "except AlreadyRunning: sys.exit(3)\n")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 3
    store.unlock()
    other.lock_for_daemon()  # free again once the first let go (or died: the kernel releases it)


def test_later_submission_replaces_earlier(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    store.create_game("g1", "1914")
    _, replaced = store.add_submission("g1", "germany", 1, text="a", normalized="a", diagnostics=[], message=None)
    assert not replaced
    _, replaced = store.add_submission("g1", "germany", 1, text="b", normalized="b", diagnostics=[], message=None)
    assert replaced
    assert store.current_submissions("g1", 1)["germany"].text == "b"


def test_a_submission_inside_a_transaction_is_seen_by_the_rows_already_read(tmp_path: Path) -> None:
    """submit() writes with SQLAlchemy Core: a submission the transaction already read as a
    row object reads as replaced afterwards, and the one written later than the new mail
    stays current (the new one kept for the record only)."""
    from datetime import UTC, datetime

    store = Store.at(tmp_path / "m.db")
    store.create_game("g1", "1914")
    noon, one = datetime(2026, 1, 1, 12, tzinfo=UTC), datetime(2026, 1, 1, 13, tzinfo=UTC)
    first, _ = store.add_submission("g1", "germany", 1, text="a", normalized="a", diagnostics=[], message=None,
                                    written=noon)
    with store.transaction():
        held = store.current_submissions("g1", 1)["germany"]
        second, replaced, later = store.submit("g1", "germany", 1, text="b", normalized="b", diagnostics=[],
                                               message=None, written=one)
        assert (held.id, held.current, replaced, later) == (first, False, True, None)
        assert store.current_submissions("g1", 1)["germany"].id == second
        _, replaced, later = store.submit("g1", "germany", 1, text="c", normalized="c", diagnostics=[],
                                          message=None, written=noon)
        assert not replaced and later is not None and (later.id, later.text) == (second, "b")
    assert store.current_submissions("g1", 1)["germany"].text == "b"


def test_snapshot_round_trip_and_hash_format(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    store.save_snapshot("g1", 2, '{"x": 1}\n')
    assert store.snapshot("g1", 2) == '{"x": 1}\n'
    assert store.snapshot("g1", 3) is None
    assert hash_secret("s", "salt") == hash_secret("s", "salt")


def test_a_verified_password_is_remembered_but_a_wrong_one_never_passes() -> None:
    from moderator.store import db

    stored = db.hash_secret("right")
    assert db.verify_secret("right", stored) and db.verify_secret("right", stored)  # the second from memory
    assert not db.verify_secret("wrong", stored) and not db.verify_secret("right", db.hash_secret("other"))
    assert not db.verify_secret("right", stored.replace("$", "$0", 1))  # another salt: the digest differs


def test_a_seats_later_mails_do_not_pay_the_key_derivation_but_every_wrong_guess_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PBKDF2 (120,000 rounds, most of a mail's CPU were it paid per mail) runs once for a
    seat's right password in a process, and for every wrong one; what is remembered is a keyed
    digest, never the password."""
    from moderator.store import db

    stored = db.hash_secret("kaiser")
    derived: list[str] = []
    real = db.hash_secret
    monkeypatch.setattr(db, "hash_secret", lambda secret, salt=None: derived.append(secret) or real(secret, salt))
    assert all(db.verify_secret("kaiser", stored) for _ in range(5))
    assert derived == ["kaiser"]
    assert not any(db.verify_secret("kaiserin", stored) for _ in range(3))
    assert derived == ["kaiser"] + ["kaiserin"] * 3
    assert all(len(key) == 32 and b"kaiser" not in key for key in db._verified)


def test_a_message_row_changed_in_a_rolled_back_savepoint_reads_as_the_database_has_it(tmp_path: Path) -> None:
    """update_message() inside a SQLite transaction writes one Core UPDATE and tells the row
    object the session holds; a savepoint rolled back (one mail of a group failing) undoes
    the change in the database, and the row object must not keep it."""
    store = Store.at(tmp_path / "db")
    row_id, _ = store.store_incoming(b"From: a@t.local\r\n\r\nx")
    with store.transaction():
        held = store.message(row_id)  # the row object the transaction's session holds (as a group's rows)
        assert held is not None
        store.update_message(row_id, status="processed", note="kept")
        assert (held.status, held.note) == ("processed", "kept")
        with pytest.raises(RuntimeError), store.savepoint():
            store.update_message(row_id, status="failed", note="undone")
            assert (held.status, held.note) == ("failed", "undone")
            raise RuntimeError("the mail failed")
        assert (held.status, held.note) == ("processed", "kept")
        assert store.message(row_id) is held
        assert store.message_statuses([row_id]) == {row_id: "processed"}
        with pytest.raises(KeyError):
            store.update_message(row_id + 100, status="processed")
    row = store.message(row_id)
    assert row is not None and (row.status, row.note) == ("processed", "kept")


def test_the_games_with_queued_mail_and_a_setting_taken_once(tmp_path: Path) -> None:
    """What the daemon's look for reports out reads (service/daemon.py _keep_full_turns):
    which games still have mail in the outbox (one light query), every reports-out setting in
    one query, and a setting taken by one UPDATE only while it holds the value named."""
    store = Store.at(tmp_path / "db")
    ids = [store.queue_outgoing(b"x", game_id=g, recipients="a@t.local", subject="s", message_id=f"<{n}@t>")
           for n, g in enumerate(("g", "g", "h", None))]
    store.update_message(ids[2], status="sent")
    assert store.games_with_queued_mail() == {"g", None}
    store.set_setting("reports-out:g", "3")
    store.set_setting("reports-out:h", "")
    store.set_setting("desk-secret", "hash")
    assert store.settings_starting("reports-out:") == {"reports-out:g": "3", "reports-out:h": ""}
    assert not store.take_setting("reports-out:g", "2")  # another turn's: left alone
    assert store.take_setting("reports-out:g", "3")
    assert not store.take_setting("reports-out:g", "3")  # taken already
    assert store.setting("reports-out:g") == ""
