"""The pictures as a person sees them (docs/draw.md "Screenshot").

`collsynth draw` writes SVG through Graphviz, and the other drawing tests count the SVG's
elements. Here headless Chromium, the browser a reader opens the file in, renders the SVG to a
PNG, and the test looks at the pixels: the whole picture is inside the page (nothing clipped),
the bottleneck cut shows as one filled box per marked node, the bottleneck links are red, and a
highlighted tree is blue. Skipped when Chromium or Pillow is absent (scripts/setup.sh installs
both: Debian's `chromium` and `python3-pil`).
"""

import json
import math
import re
import shutil
import subprocess
from collections import deque

import pytest

import collsynth

Image = pytest.importorskip("PIL.Image")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

# export/graphviz.cc: the fill of a marked (cut) node, the heat map's colour from utilisation
# 4/5 up, and a highlighted tree's links.
CUT_FILL = (0xF4, 0xA5, 0x82)
HOT_RED = (0xD7, 0x30, 0x27)
TREE_BLUE = (0x21, 0x66, 0xAC)
MARGIN = 40  # white CSS pixels around the picture in the window


def _screenshot(svg, png, profile):
    """Renders `svg` in headless Chromium into a window MARGIN px larger than the picture
    (Graphviz sizes it in pt; CSS has 4/3 px per pt) and returns the PIL image."""
    text = svg.read_text()
    found = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', text)
    assert found, "Graphviz's SVG names its size in pt"
    width, height = (math.ceil(float(x) * 4 / 3) for x in found.groups())
    window = (width + MARGIN, height + MARGIN)
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--user-data-dir={profile}", f"--screenshot={png}",
                    f"--window-size={window[0]},{window[1]}", svg.resolve().as_uri()],
                   check=True, capture_output=True, timeout=120)
    image = Image.open(png).convert("RGB")
    assert image.size == window
    return image, (width, height)


def _near(pixel, colour, tolerance=10):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def _components(image, colour):
    """Sizes of the 4-connected regions of pixels of `colour` (anti-aliased edges excluded)."""
    w, h = image.size
    px = image.load()
    seen = [[False] * w for _ in range(h)]
    sizes = []
    for y in range(h):
        for x in range(w):
            if seen[y][x] or not _near(px[x, y], colour):
                continue
            seen[y][x] = True
            todo, size = deque([(x, y)]), 0
            while todo:
                cx, cy = todo.popleft()
                size += 1
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and not seen[ny][nx] and _near(px[nx, ny],
                                                                                   colour):
                        seen[ny][nx] = True
                        todo.append((nx, ny))
            sizes.append(size)
    return sizes


def _ink_box(image):
    """The bounding box of every pixel that is not white."""
    w, h = image.size
    px = image.load()
    xs, ys = [], []
    for y in range(h):
        for x in range(w):
            if not _near(px[x, y], (255, 255, 255), 24):
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _count(image, colour):
    return sum(1 for p in image.getdata() if _near(p, colour))


@pytest.fixture
def two_cluster(topologies, tmp_path):
    g = collsynth.Topology.from_file(topologies / "two_cluster.json")
    s = collsynth.pipeline(g, symmetric=False)
    return g, s


def test_heat_map_shows_the_cut_and_the_bottleneck_links(two_cluster, tmp_path):
    g, s = two_cluster
    cut = set(json.loads(s.to_json())["bottleneck_cut"])
    assert 0 < len(cut) < len(g.nodes)
    svg = tmp_path / "heat.svg"
    collsynth.draw(g, svg, schedule=s)
    image, (width, height) = _screenshot(svg, tmp_path / "heat.png", tmp_path / "profile")
    image.save(tmp_path / "heat.png")
    box = _ink_box(image)
    assert box is not None, "the page is blank"
    left, top, right, bottom = box
    # the whole drawing is on the page, inside the picture's own size: nothing clipped
    assert right < width + MARGIN // 2 and bottom < height + MARGIN // 2, (box, width, height)
    assert right - left > width // 2 and bottom - top > height // 2, (box, width, height)
    # one filled box per marked node, each big enough to see (a box is 54 x 36 pt at least)
    boxes = [size for size in _components(image, CUT_FILL) if size > 200]
    assert len(boxes) == len(cut), (sorted(boxes), sorted(cut))
    # the bottleneck links (utilisation 1) are drawn red, and nothing else is
    assert _count(image, HOT_RED) > 50
    assert _count(image, TREE_BLUE) == 0


def test_a_tree_is_blue_no_link_is_red_and_the_cut_stays_marked(two_cluster, tmp_path):
    g, s = two_cluster
    cut = set(json.loads(s.to_json())["bottleneck_cut"])
    svg = tmp_path / "tree.svg"
    collsynth.draw(g, svg, schedule=s, tree="c11:0")
    image, _ = _screenshot(svg, tmp_path / "tree.png", tmp_path / "profile")
    assert _count(image, TREE_BLUE) > 50
    assert _count(image, HOT_RED) == 0
    assert len([size for size in _components(image, CUT_FILL) if size > 200]) == len(cut)
