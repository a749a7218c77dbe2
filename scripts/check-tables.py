#!/usr/bin/env python3
"""Check lbanalyze's reading of per-step tables against Python's csv module.

For every CSV or TSV file under the paths given, this reads the rows with
Python's csv module (as the harness that wrote them would read them back),
works out the run's turns and final score itself, and compares them with what
`lbanalyze batch --format json` says of the same file:

    scripts/check-tables.py --lbanalyze bin/lbanalyze --turn Step --score Reward DIR...
    scripts/check-tables.py --lbanalyze bin/lbanalyze --turn Step --reward Reward DIR...
    scripts/check-tables.py --lbanalyze bin/lbanalyze --preset --turn Step --score Reward DIR...

--score: the column is the score after each step (the final score is the last
row's); --reward: the column is what each step adds (the final score is their
sum, math.fsum). The step numbers must run 0, 1, 2 ... or 1, 2, 3 ..., and the
turns are the rows. Without --preset lbanalyze is given the same field map
(--fields); with it, none: its preset must read the files as the map says.
Scores agree to 1e-6. It prints each file that differs, then a summary, and
the size of lbanalyze's standard error; the exit status is 1 when any differs.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys


def tables(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".csv", ".tsv")):
                    yield os.path.join(root, f)


def expected(path, turn, col, reward):
    """The turns and final score of one table, as Python's csv module reads it."""
    csv.field_size_limit(sys.maxsize)
    delim = "\t" if path.endswith(".tsv") else ","
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = [r for r in csv.reader(f, delimiter=delim) if r]
    head, rows = rows[0], rows[1:]
    t, c = head.index(turn), head.index(col)
    steps = [int(float(r[t])) for r in rows]
    first = steps[0] if steps else 0
    if steps != list(range(first, first + len(steps))) or first not in (0, 1):
        return None, None, "its steps do not run from 0 or 1 one by one"
    values = [float(r[c]) for r in rows]
    if reward:
        return len(rows), math.fsum(values), ""
    return len(rows), values[-1] if values else 0.0, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lbanalyze", default="lbanalyze")
    ap.add_argument("--turn", required=True)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--score")
    group.add_argument("--reward")
    ap.add_argument("--preset", action="store_true", help="give lbanalyze no field map: its preset reads the files")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    col, reward = (a.reward, True) if a.reward else (a.score, False)
    cmd = [a.lbanalyze, "batch", "--format", "json"]
    if not a.preset:
        cmd += ["--fields", "turn=%s,%s=%s" % (a.turn, "reward" if reward else "score", col)]
    run = subprocess.run(cmd + a.paths, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("lbanalyze exited %d:\n%s" % (run.returncode, run.stderr[:4000]))
    got = {}
    for ep in json.loads(run.stdout)["episodes"]:
        got.setdefault(ep["source"], []).append(ep)
    files = agree = 0
    ids = set()
    for path in tables(a.paths):
        files += 1
        turns, score, why = expected(path, a.turn, col, reward)
        eps = got.pop(path, [])
        if why:
            print("%s: %s" % (path, why))
        elif len(eps) != 1:
            print("%s: lbanalyze has %d episodes of it, want 1" % (path, len(eps)))
        elif eps[0]["turns"] != turns or abs(eps[0]["final_score"] - score) > 1e-6:
            print("%s: lbanalyze %d turns, final score %r; Python's csv %d turns, final score %r"
                  % (path, eps[0]["turns"], eps[0]["final_score"], turns, score))
        else:
            agree += 1
            ids.add(eps[0]["episode_id"])
    for path in sorted(got):
        print("%s: read by lbanalyze, not a table here" % path)
    print("%d tables: %d agree on turns and final score (to 1e-6), %d do not; %d distinct episode ids among those that agree"
          % (files, agree, files - agree, len(ids)))
    print("lbanalyze's standard error: %d bytes" % len(run.stderr.encode()))
    sys.exit(0 if agree == files else 1)


if __name__ == "__main__":
    main()
