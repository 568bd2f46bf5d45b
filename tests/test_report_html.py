"""`kernelscope analyze --format html`: one self-contained page. The structure is checked on the
text; then a real headless Chromium runs the page's script, and its DOM and a screenshot are
checked (skipped only where no Chromium can be found; .ci/run installs one)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope.cli import cli

from headless_chromium import dump_dom, find_chromium, screenshot

ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    page = folder / "report.html"
    result = CliRunner().invoke(cli, ["analyze", "--registers", "estimate", "--format", "html", "-o", str(page),
                                      *map(str, EXAMPLES)])
    assert result.exit_code == 0, result.output
    analysis = json.loads(CliRunner().invoke(cli, ["analyze", "--registers", "estimate", "--format", "json",
                                                   *map(str, EXAMPLES)]).output)
    return page, analysis


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def elements(text: str) -> list[tuple[str, dict]]:
    parser = Elements()
    parser.feed(text)
    return parser.tags


def with_class(tags, tag: str, css_class: str) -> list[dict]:
    return [attrs for name, attrs in tags if name == tag and css_class in (attrs.get("class") or "").split()]


def own_accesses(analysis) -> list[dict]:
    return [a for f in analysis["files"] for k in f["kernels"] for a in k["accesses"] if not a.get("in_function")]


def test_the_page_fetches_nothing(report):
    page, _ = report
    tags = elements(page.read_text())
    assert not [a for _, a in tags if "src" in a]
    assert not [a for _, a in tags if a.get("href", "").startswith(("http:", "https:", "//"))]
    assert not [a for name, a in tags if name == "link"]
    assert "@import" not in page.read_text() and "url(http" not in page.read_text()


def test_every_access_and_every_finding_is_on_its_line(report):
    page, analysis = report
    tags = elements(page.read_text())
    assert len(with_class(tags, "span", "chip")) == len(own_accesses(analysis))
    assert len(with_class(tags, "tr", "finding")) == len(analysis["diagnostics"])
    kernels = [k for f in analysis["files"] for k in f["kernels"]]
    assert len(with_class(tags, "svg", "sweep-chart")) == len([k for k in kernels if k["occupancy"]])
    assert len(with_class(tags, "svg", "roofline-chart")) == 1


def test_costly_lines_are_hotter_than_ideal_ones(report):
    page, analysis = report
    text = page.read_text()
    hues = {}
    for match in re.finditer(r'<tr id="L(\d+)-(\d+)" class="src annotated" style="background:hsla\((\d+),', text):
        hues[(int(match.group(1)), int(match.group(2)))] = int(match.group(3))
    transpose = next(i for i, f in enumerate(analysis["files"]) if f["path"].endswith("transpose.cu"))
    conflict = next(d["line"] for d in analysis["diagnostics"] if d["rule"] == "KS103")
    uncoalesced = next(d["line"] for d in analysis["diagnostics"] if d["rule"] == "KS101")
    ideal = [line for (f, line), hue in hues.items() if f == transpose and line not in (conflict, uncoalesced)]
    assert ideal and all(hues[(transpose, line)] > hues[(transpose, conflict)] for line in ideal)
    assert all(hues[(transpose, line)] > hues[(transpose, uncoalesced)] for line in ideal)


def test_roofline_names_the_memory_roof_and_the_kernels_left_out(report):
    page, analysis = report
    text = page.read_text()
    assert "memory roof" in text and "requested global byte" in text and "not DRAM traffic" in text
    left_out = re.search(r'<ul class="left-out">(.*?)</ul>', text).group(1)
    flopless = [k["name"] for f in analysis["files"] for k in f["kernels"]
                if k["intensity"]["flops_per_thread"] == 0]
    assert flopless and all(f"<code>{name}</code>" in left_out for name in flopless)


chromium = find_chromium()
needs_chromium = pytest.mark.skipif(chromium is None, reason="no Chromium found (apt-get install chromium)")


@needs_chromium
def test_in_chromium_the_script_runs_and_no_roofline_labels_overlap(report):
    page, analysis = report
    dom = dump_dom(chromium, page)
    tags = elements(dom)
    body = next(a for name, a in tags if name == "body")
    assert body.get("data-ready") == "1"
    (chart,) = with_class(tags, "svg", "roofline-chart")
    assert chart.get("data-overlaps") == "0"
    assert len(with_class(tags, "span", "chip")) == len(own_accesses(analysis))


@needs_chromium
def test_in_chromium_the_report_renders_to_a_screenshot(report, tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image, ImageStat

    page, _ = report
    image = Image.open(screenshot(chromium, page, tmp_path / "report.png", height=900)).convert("RGB")
    assert image.size == (1300, 900)
    # a rendered page has text and colour in it, not a blank (white or black) canvas
    assert max(ImageStat.Stat(image).stddev) > 20
    colours = image.resize((130, 90)).getcolors(130 * 90)
    assert colours is not None and len(colours) > 20
