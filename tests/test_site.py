"""The game's public page (`moderator site`): a static site with the public map and the
bulletin of every resolved turn, an archive, links that resolve, nothing that is not
public; rendered in a real headless browser where the machine has one (`make test`
installs Chromium from the system's packages where it can)."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from moderator.cli import main


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.refs.append(value)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    cfg = root / "moderator.toml"
    # [site]: every resolution publishes the page itself (service/site.py)
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{root / "m.db"}"\n[site]\ndir = "{root / "pub"}"\n',
                   encoding="utf-8")
    mp = pytest.MonkeyPatch()
    mp.setenv("MODERATOR_CONFIG", str(cfg))
    try:
        assert main(["game", "new", "g1", "--title", "Site game"]) == 0
        assert main(["seat", "add", "--game", "g1", "--nation", "Germany", "--email", "k@x.org"]) == 0
        assert main(["site", "--game", "g1", "--out", str(root / "empty")]) == 0  # before any turn
        assert "No turn has been resolved yet" in (root / "empty" / "index.html").read_text()
        for turn in (1, 2):  # the game starts at turn 1
            assert main(["resolve", "--game", "g1"]) == 0
            published = (root / "pub" / "g1" / "index.html").read_text(encoding="utf-8")
            assert f"Turn {turn}" in published and f"turn-{turn}.html" in published  # the new turn, at once
        assert main(["site", "--game", "g1", "--out", str(root / "pub" / "g1")]) == 0
        assert (root / "pub" / "g1" / "index.html").read_text(encoding="utf-8") == published  # the same page
    finally:
        mp.undo()
    return root / "pub" / "g1"


def test_every_turn_has_its_page_map_and_archive_entry(site: Path) -> None:
    pages = sorted(p.name for p in site.glob("turn-*.html"))
    assert pages == ["turn-1.html", "turn-2.html"]
    index = (site / "index.html").read_text()
    assert index == (site / "turn-2.html").read_text()  # the latest turn
    assert "Orders are due by" in index and "Orders are due by" not in (site / "turn-1.html").read_text()
    for page in ["index.html", *pages]:
        parser = Links()
        parser.feed((site / page).read_text())
        assert parser.refs and all((site / ref).exists() for ref in parser.refs), page
    for png in site.glob("map-turn-*.png"):
        assert png.read_bytes()[25] == 3  # palette PNG
    assert (site / "map-turn-2-small.png").stat().st_size < (site / "map-turn-2.png").stat().st_size


def test_the_site_holds_only_public_things(site: Path) -> None:
    for page in site.glob("*.html"):
        text = page.read_text()
        assert not re.search(r"\b\d+ (inf|infantry|art|artillery)\b", text)  # no units anywhere
        assert "treasury" not in text.lower() and "PASSWORD" not in text


def test_writing_again_keeps_the_drawn_maps(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn's public map never changes: a second run reuses the files, it draws nothing."""
    cfg = site.parent.parent / "moderator.toml"  # the site is <root>/pub/g1
    monkeypatch.setenv("MODERATOR_CONFIG", str(cfg))
    before = {p.name: p.read_bytes() for p in site.glob("*.png")}
    monkeypatch.setattr("moderator.reports.mapview.draw_view", lambda *a, **k: pytest.fail("drew a map again"))
    assert main(["site", "--game", "g1", "--out", str(site)]) == 0
    assert {p.name: p.read_bytes() for p in site.glob("*.png")} == before


def browser() -> str | None:
    return next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


def test_the_page_renders_in_a_headless_browser(site: Path, tmp_path: Path) -> None:
    exe = browser()
    if exe is None:
        pytest.skip("no Chromium on this machine: `make test` installs it with apt-get where it can "
                    "(apt-get install chromium); this test needs it to render the site")
    shot = tmp_path / "shot.png"
    dom = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          (site / "index.html").as_uri()], capture_output=True, text=True, timeout=120)
    assert "Turn 2" in dom.stdout and 'id="archive"' in dom.stdout
    subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={shot}", "--window-size=1280,1400", (site / "index.html").as_uri()],
                   capture_output=True, timeout=120, check=False)
    from PIL import Image

    with Image.open(shot) as img:
        colours = img.convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50  # the map drew: many colours, not a blank page or a broken image
