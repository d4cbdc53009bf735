#!/usr/bin/env python3
"""Reads the XUnit files lit wrote for each test lane (scripts/test.sh).

  lit-results.py missing FEATURE LANE.xml   tests skipped for lack of FEATURE,
                                            one path (relative to the suite)
                                            a line
  lit-results.py summary LANE.xml...        one line a lane, then the
                                            closing line "lit: N passed,
                                            N failed, N skipped"

A test counts once a lane: passed or failed where it ran. It counts as
skipped only when no lane ran it (e.g. a `REQUIRES: pku` test that the host
skipped counts where the VM lane ran it).
"""
import os
import sys
import xml.etree.ElementTree as ET


NOT_SELECTED = "Test not selected"


def cases(xml_path):
    """(path in suite, outcome, skip reason) of every test of a lane."""
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        # lit writes classname "<suite>.<dir/with/dots_as_underscores>".
        folder = case.get("classname").split(".", 1)[1]
        path = folder + "/" + case.get("name")
        if case.find("failure") is not None:
            yield path, "failed", ""
        elif case.find("skipped") is not None:
            reason = case.find("skipped").get("message", "")
            # --filter/--filter-out: left out on request, not skipped.
            outcome = "excluded" if reason.startswith(NOT_SELECTED) else "skipped"
            yield path, outcome, reason
        else:
            yield path, "passed", ""


def missing(feature, xml_path):
    wanted = "Missing required feature(s): "
    for path, outcome, reason in cases(xml_path):
        if outcome == "skipped" and reason.startswith(wanted):
            if feature in [f.strip() for f in reason[len(wanted):].split(",")]:
                print(path)


def summary(xml_paths):
    ran, skipped = set(), set()
    totals = {"passed": 0, "failed": 0}
    for xml_path in xml_paths:
        lane = {"passed": 0, "failed": 0, "skipped": 0, "excluded": 0}
        for path, outcome, _ in cases(xml_path):
            lane[outcome] += 1
            if outcome == "skipped":
                skipped.add(path)
            elif outcome != "excluded":
                ran.add(path)
                totals[outcome] += 1
        name = os.path.basename(xml_path).removesuffix(".xml")
        excluded = f" ({lane['excluded']} filtered out)" if lane["excluded"] else ""
        print(f"lane {name}: {lane['passed']} passed, {lane['failed']} failed, "
              f"{lane['skipped']} skipped{excluded}")
    never_ran = sorted(skipped - ran)
    for path in never_ran:
        print(f"not run in any lane: {path}")
    print(f"lit: {totals['passed']} passed, {totals['failed']} failed, "
          f"{len(never_ran)} skipped")
    return 1 if totals["failed"] else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "missing":
        missing(argv[2], argv[3])
        return 0
    if len(argv) >= 3 and argv[1] == "summary":
        return summary(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
