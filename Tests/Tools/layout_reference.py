#!/usr/bin/env python3
"""An independent implementation of the waterfall layout rules, written from the issue text and DESIGN.md
rather than from the Swift code, for the test that checks `waterfall layout --json` against it.

Reads {"width", "columns", "columnSpacing", "rowSpacing", "insets": [T, L, B, R], "footerHeight",
"placement": "shortest" | "round-robin", "photos": [{"file", "width", "height"}]} on stdin (display sizes)
and prints the layout in the shape of `waterfall layout --json`.
"""
import json
import sys


def lay_out(spec):
    W, c = spec["width"], spec["columns"]
    g, r = spec["columnSpacing"], spec["rowSpacing"]
    T, L, B, R = spec["insets"]
    w = (W - L - R - (c - 1) * g) / c
    bottoms = [None] * c  # None: the column is empty
    items = []
    for index, photo in enumerate(spec["photos"]):
        if spec["placement"] == "round-robin":
            column = index % c
        else:  # the shortest column, leftmost on ties; an empty column counts as T high
            heights = [T if b is None else b for b in bottoms]
            column = heights.index(min(heights))
        x = L + column * (w + g)
        y = T if bottoms[column] is None else bottoms[column] + r
        h = photo["height"] / photo["width"] * w
        bottoms[column] = y + h
        items.append({"index": index, "file": photo["file"], "column": column, "x": x, "y": y, "width": w, "height": h})
    max_bottom = max([b for b in bottoms if b is not None], default=T)
    footer = {"x": 0, "y": max_bottom + B, "width": W, "height": spec["footerHeight"]}
    return {"width": W, "columns": c, "contentHeight": footer["y"] + footer["height"], "items": items, "footer": footer}


if __name__ == "__main__":
    json.dump(lay_out(json.load(sys.stdin)), sys.stdout)
