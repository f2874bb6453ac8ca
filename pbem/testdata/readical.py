#!/usr/bin/env python3
"""Reads an iCalendar file on stdin with Python's icalendar (an independent
parser) and prints what calendar_test.go checks, as JSON."""
import json
import sys

import icalendar

cal = icalendar.Calendar.from_ical(sys.stdin.read())
out = {"method": str(cal.get("method", "")), "events": []}
for ev in cal.walk("VEVENT"):
    out["events"].append({
        "uid": str(ev.get("uid")),
        "sequence": int(ev.get("sequence", 0)),
        "start": ev.decoded("dtstart").isoformat(),
        "end": ev.decoded("dtend").isoformat(),
        "url": str(ev.get("url", "")),
        "summary": str(ev.get("summary")),
        "description": str(ev.get("description")),
        "alarms": [
            {"trigger": a.decoded("trigger").total_seconds(),
             "related": str(a.get("trigger").params.get("RELATED", "START")),
             "action": str(a.get("action"))}
            for a in ev.walk("VALARM")
        ],
    })
json.dump(out, sys.stdout)
