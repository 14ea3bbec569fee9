#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plots a person can read: each panel's legend names every series of its
data, once, each in a marker and colour of its own; a series of two or more
points is joined by a line; a y axis over values more than 20 times apart
is logarithmic; the c2c map is in the ns c2c.txt prints.

    plots.py CYCLESTAT

Draws what the data says (tests/data/tree2, a sweep=cpus directory from
tests/sweep.py, a c2c tree written here) and checks the drawing against the
data's own series (cyclestat's CSV); then every SVG committed in
docs/plots/ against its own series.
"""
import csv
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as E

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "tap"))
import tap  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
tool = sys.argv[1]


def panels(svg_text):
    """each panel (a top-level <g>): its series names, legend entries, root"""
    root = E.fromstring(svg_text)
    out = []
    for g in root.findall(NS + "g"):
        series = [s for s in g.iter(NS + "g") if s.get("class") == "series"]
        items = [s for s in g.iter(NS + "g") if s.get("class") == "legend-item"]
        out.append((g, series, items))
    return out


def style(item):
    """a legend entry's marker: its colour and shape (the path's commands)"""
    p = [e for e in item if e.tag == NS + "path"][0]
    shape = "".join(c for c in p.get("d") if c.isalpha())
    return (p.get("fill"), shape + (p.get("stroke-width") or ""))


def check_doc(label, text, want=None):
    """legend == series in every panel; want: the data's series, all panels"""
    ok, why, drawn = True, [], []
    for g, series, items in panels(text):
        s = [x.get("data-name") for x in series]
        lg = [x.get("data-name") for x in items]
        drawn += s
        if sorted(s) != sorted(lg) or len(set(lg)) != len(lg):
            ok = False
            why.append("series %s, legend %s" % (s, lg))
        st = [style(x) for x in items]
        if len(set(st)) != len(st):
            ok = False
            why.append("two legend entries alike: %s" % st)
        for x in series:
            pts = [e for e in x if e.get("class") == "point"]
            lines = [e for e in x if e.get("class") == "line"]
            if len(pts) >= 2 and x.get("data-name") != "costs" and not lines:
                ok = False
                why.append("%s: %d points, no line" % (x.get("data-name"), len(pts)))
        titles = [t for t in g.iter(NS + "text") if t.get("class") == "axis-title"]
        if len(titles) != 2 or not titles[0].text:
            ok = False
            why.append("axis titles: %s" % [t.text for t in titles])
    tap.point(ok, "plots:%s_legend_names_every_series_once" % label, "; ".join(why))
    if want is not None:
        tap.point(sorted(set(drawn)) == sorted(set(want)), "plots:%s_series_are_the_datas" % label,
                  "drawn %s, data %s" % (sorted(set(drawn)), sorted(set(want))))


def run(*args):
    p = subprocess.run([tool] + list(args), capture_output=True, text=True)
    if p.returncode:
        sys.stderr.write(p.stderr)
    return p.stdout


tmp = tempfile.mkdtemp()
try:
    # a sweep=cpus directory: one series a fragment of the CSV, as the curve
    sweep = os.path.join(tmp, "sweep")
    subprocess.run([sys.executable, os.path.join(HERE, "sweep.py"), "gen", sweep], check=True)
    rows = list(csv.DictReader(io.StringIO(run("--format", "csv", sweep, "contend"))))
    svg = run("plot", sweep, "contend")
    check_doc("contention", svg, [r["fragment"] for r in rows])
    # contend:shared 8..32, private 4..8: within 20 times, a linear axis
    ytitle = [t.text for g, _, _ in panels(svg) for t in g.iter(NS + "text")
              if t.get("class") == "axis-title"][0]
    tap.point("log axis" not in ytitle and "core cycles" in ytitle,
              "plots:contention_axis_is_linear_within_20x_and_names_its_unit", ytitle)

    # tree2: a staircase a sweep (its name without /ARG), the rest as costs
    data = os.path.join(HERE, "data", "tree2")
    rows = list(csv.DictReader(io.StringIO(run("--format", "csv", data))))
    want = sorted({r["fragment"].split("/")[0] if "/" in r["fragment"] else "costs" for r in rows})
    svg = run("plot", data)
    check_doc("tree2", svg, want)
    costs = [g for g, s, _ in panels(svg) if [x.get("data-name") for x in s] == ["costs"]][0]
    ytitle = [t.text for t in costs.iter(NS + "text") if t.get("class") == "axis-title"][0]
    # its costs run from about 0.7 to 40 core cycles: more than 20 times apart
    tap.point("(log axis)" in ytitle, "plots:costs_spanning_decades_are_on_a_log_axis", ytitle)

    # c2c: the map's cells in ns, the figure c2c.txt prints: half the median
    # round trip less the timestamps (c2c_timestamps), at tsc_khz
    c2c = os.path.join(tmp, "c2c")
    os.makedirs(os.path.join(c2c, "c2c", "cpu0_cpu1"))
    with open(os.path.join(c2c, "info"), "w") as f:
        f.write("version: 0.2.0\ntsc_khz: 2600000\n")
    with open(os.path.join(c2c, "fragments"), "w") as f:
        f.write("c2c:cpu0_cpu1 2 a round trip\n")
    with open(os.path.join(c2c, "c2c", "cpu0_cpu1", "info"), "w") as f:
        f.write("name: c2c:cpu0_cpu1\nops: 2\nstate: ok\nensembles: 1\nsamples: 5\nc2c_timestamps: 10\n")
    with open(os.path.join(c2c, "c2c", "cpu0_cpu1", "cycles"), "w") as f:
        f.write("500\n520\n510\n505\n515\n")
    svg = run("plot", c2c)
    check_doc("c2c", svg, ["c2c"])
    cells = [t.text for t in E.fromstring(svg).iter(NS + "title") if t.text and " to cpu" in t.text]
    want = "%.1f ns" % ((510 - 10) / 2 * 1e6 / 2600000)
    tap.point(len(cells) == 2 and all(c.endswith(": " + want) for c in cells),
              "plots:c2c_cells_are_ns_less_the_timestamps_as_c2c_txt", "want %s, got %s" % (want, cells))

    # --hist: a panel a fragment, its legend naming it
    svg = run("--hist", "plot", data, "alu:add_dep")
    check_doc("histogram", svg, ["alu:add_dep"])

    # what the README shows: every committed plot, its legend against its series
    for path in sorted(glob.glob(os.path.join(HERE, "..", "..", "..", "docs", "plots", "*.svg"))):
        with open(path) as f:
            check_doc("docs_" + os.path.basename(path)[:-4], f.read())
finally:
    shutil.rmtree(tmp)
sys.exit(tap.done())
