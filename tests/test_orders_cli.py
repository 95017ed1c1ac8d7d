"""`moderator check`: exit 0 when clean, 1 when an order has an error; --json output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.cli import main


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "orders.txt"
    p.write_text(text, encoding="utf-8")
    return p


def test_clean_orders_exit_0_and_mask_the_secret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "NATION Germany\nPASSWORD swordfish\nRESEARCH Tanks\nMOVE 2 inf FROM Berlin TO Hamburg\n")
    assert main(["check", str(path), "--nation", "Germany"]) == 0
    out = capsys.readouterr().out
    assert "MOVE 2 inf FROM Berlin TO Hamburg" in out and "swordfish" not in out and "PASSWORD ******" in out


def test_errors_exit_1_with_line_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "RESEARCH Tanks\nMOVE 2 inf FROM Berlin TO Pariss\n")
    assert main(["check", str(path), "--nation", "German Empire"]) == 1
    out = capsys.readouterr().out
    assert "line 2, column 27: error" in out and "Did you mean Paris" in out


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "PASSWORD x\nNOTE hello\nRESEARCH Nothing\n")
    assert main(["check", str(path), "--nation", "Germany", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["header"]["secret"] == "******" and data["errors"] == 1
    assert data["orders"] == ["NOTE hello"]
    assert {d["code"] for d in data["diagnostics"]} == {"note", "unknown-tech"}
