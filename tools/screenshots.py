"""Regenerate the screenshots in docs/images/ from the examples, in headless Chromium.

    python tools/screenshots.py            # needs chromium (apt-get install chromium) and Pillow

report.png: the HTML report of examples/transpose.cu (kernel cards, occupancy sweeps, the
annotated source with its findings); roofline.png: the roofline page of all examples/."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from headless_chromium import find_chromium, screenshot  # noqa: E402

SHOTS = {
    # name: (command after `kernelscope`, window width, window height, crop to rows with content)
    "report.png": (["analyze", "--format", "html", "examples/transpose.cu"], 1300, 2300),
    "roofline.png": (["roofline", "examples/"], 1000, 760),
}


def main() -> int:
    chromium = find_chromium()
    if chromium is None:
        print("no chromium found: apt-get install chromium", file=sys.stderr)
        return 2
    from PIL import Image, ImageChops

    with tempfile.TemporaryDirectory() as folder:
        for name, (command, width, height) in SHOTS.items():
            page = Path(folder) / (Path(name).stem + ".html")
            subprocess.run([sys.executable, "-m", "kernelscope", "-q", *command, "-o", str(page)], cwd=ROOT, check=True)
            shot = screenshot(chromium, page, Path(folder) / name, width, height)
            image = Image.open(shot).convert("RGB")
            # trim the blank margin below the page's content
            box = ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox()
            if box:
                image = image.crop((0, 0, width, min(height, box[3] + 16)))
            image.save(ROOT / "docs" / "images" / name, optimize=True)
            print(f"docs/images/{name}: {image.size[0]}x{image.size[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
