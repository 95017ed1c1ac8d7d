"""The repository on a real SQLite file: raw mail kept, submissions replace, snapshots round-trip."""

from pathlib import Path

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
    mid = store.store_incoming(raw, uid=7)
    assert store.message(mid).raw == raw
    assert [m.id for m in store.messages("in", "new")] == [mid]


def test_later_submission_replaces_earlier(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    store.create_game("g1", "1914")
    _, replaced = store.add_submission("g1", "germany", 1, text="a", normalized="a", diagnostics=[], message=None)
    assert not replaced
    _, replaced = store.add_submission("g1", "germany", 1, text="b", normalized="b", diagnostics=[], message=None)
    assert replaced
    assert store.current_submissions("g1", 1)["germany"].text == "b"


def test_snapshot_round_trip_and_hash_format(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "m.db")
    store.save_snapshot("g1", 2, '{"x": 1}\n')
    assert store.snapshot("g1", 2) == '{"x": 1}\n'
    assert store.snapshot("g1", 3) is None
    assert hash_secret("s", "salt") == hash_secret("s", "salt")
