#!/usr/bin/env python3
"""Writes benchmark inputs, deterministic for a given N: `generate.py KIND N PATH` with KIND
- ics: N events (VTIMEZONEs, three attendees, 30 % RRULEs, folded lines), ≈ 0.9 KB each;
- text: N text-heavy events as Outlook and Google export them (long folded UTF-8 descriptions with
  escaped newlines and commas, three attendees with non-ASCII names, VTIMEZONEs, 8 % RRULEs),
  ≈ 1.7 KB each (20,000 of them are 33 MB);
- series: N weekly or daily series of 132 occurrences each;
- graph: a Graph calendarView dump of N events;
- outlook: the same with the HTML body Outlook writes (4.6 KB each, escapes and non-ASCII)."""
import json
import random
import sys

ZONES = [
    ("Europe/Berlin", "W. Europe Standard Time", "+0100", "+0200", "-1SU", 3, "-1SU", 10, "020000", "030000"),
    ("America/New_York", "Eastern Standard Time", "-0500", "-0400", "2SU", 3, "1SU", 11, "020000", "020000"),
]


def vtimezone(zone):
    tzid, _, std, dst, dst_day, dst_month, std_day, std_month, dst_time, std_time = zone
    return [
        "BEGIN:VTIMEZONE", f"TZID:{tzid}",
        "BEGIN:DAYLIGHT", f"TZOFFSETFROM:{std}", f"TZOFFSETTO:{dst}", f"DTSTART:19700308T{dst_time}",
        f"RRULE:FREQ=YEARLY;BYMONTH={dst_month};BYDAY={dst_day}", "END:DAYLIGHT",
        "BEGIN:STANDARD", f"TZOFFSETFROM:{dst}", f"TZOFFSETTO:{std}", f"DTSTART:19701101T{std_time}",
        f"RRULE:FREQ=YEARLY;BYMONTH={std_month};BYDAY={std_day}", "END:STANDARD",
        "END:VTIMEZONE",
    ]


def fold(line):
    data = line.encode()
    out, chunk = [], 75
    while len(data) > chunk:
        cut = chunk
        while cut > 0 and (data[cut] & 0xC0) == 0x80:
            cut -= 1
        out.append(data[:cut].decode())
        data = b" " + data[cut:]
    out.append(data.decode())
    return out


def event(i, rng, recurring_share, count=44):
    zone = ZONES[i % len(ZONES)]
    day = 1 + i % 28
    month = 1 + (i // 28) % 12
    hour = 8 + i % 9
    lines = [
        "BEGIN:VEVENT", f"UID:bench-{i}@calport.example", "DTSTAMP:20260101T000000Z",
        f"DTSTART;TZID={zone[0]}:2026{month:02d}{day:02d}T{hour:02d}0000",
        f"DTEND;TZID={zone[0]}:2026{month:02d}{day:02d}T{hour:02d}4500",
        f"SUMMARY:Meeting {i} about the quarterly planning of project {rng.randint(1, 999)}",
        "DESCRIPTION:" + "Agenda\\n1. Status of the rollout\\n2. Risks and mitigations\\n3. Decisions about "
        "the next milestone, including budget, staffing and the timeline for the Q3 release",
        "LOCATION:Conference room " + str(rng.randint(1, 40)) + "\\, building B",
        f"ORGANIZER;CN=Organizer {i % 50}:mailto:organizer{i % 50}@example.com",
    ]
    for a in range(3):
        lines.append(
            f"ATTENDEE;CN=Attendee {a} of {i};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:"
            f"mailto:attendee{a}.{i}@example.com")
    if rng.random() < recurring_share:
        lines.append(f"RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT={count}" if i % 2 else "RRULE:FREQ=DAILY;INTERVAL=2;COUNT=132")
    lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT"]
    return lines


# Paragraphs in the languages an international company's calendar holds: multi-byte UTF-8 (2, 3 and
# 4 bytes), so folding has to find character boundaries and the writer's escaping sees commas,
# semicolons and newlines.
PARAGRAPHS = [
    "Bonjour à tous, voici l'ordre du jour de la réunion : état des lieux, prochaines étapes; décisions.",
    "Grüße aus München! Bitte prüft vorab die Änderungen am Budget, die Übersicht liegt im Teams-Kanal.",
    "会議の議題：第3四半期のリリース計画、予算、人員配置について話し合います。資料は事前に共有します。",
    "Повестка дня: статус проекта, риски и меры, решения по следующему этапу, бюджет и сроки выпуска.",
    "Join on your computer, mobile app or room device: https://teams.example.com/l/meetup-join/19%3ameeting",
    "¿Preguntas? Escribid a la lista; las actas se publican el viernes 🎉 — gracias, équipe 🚀.",
]


def text_event(i, rng, recurring_share):
    """One text-heavy event: what `event` writes, with a long description and non-ASCII names."""
    lines = event(i, rng, 0, 44)
    names = ["Zoë Łukasiewicz", "José Müller-Ñúñez", "李小龙", "Ærøskøbing Ödegaard", "Ангелина Петрова"]
    paragraphs = [PARAGRAPHS[(i + k) % len(PARAGRAPHS)] for k in range(rng.randint(6, 9))]
    description = "\\n\\n".join(p.replace(",", "\\,").replace(";", "\\;") for p in paragraphs)
    for position, line in enumerate(lines):
        if line.startswith("DESCRIPTION:") and position < 10:
            lines[position] = "DESCRIPTION:" + description
        elif line.startswith("ATTENDEE;CN="):
            a = int(line[len("ATTENDEE;CN=Attendee "):].split(" ", 1)[0])
            lines[position] = line.replace(f"CN=Attendee {a} of {i}", f'CN="{names[(i + a) % len(names)]}"', 1)
    if rng.random() < recurring_share:
        lines.insert(-6, "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=40" if i % 2 else "RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=12")
    return lines


def write_ics(path, count, recurring_share, make=None):
    rng = random.Random(count)
    with open(path, "w", newline="") as out:
        head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport//benchmark//EN"]
        for zone in ZONES:
            head += vtimezone(zone)
        out.write("\r\n".join(head) + "\r\n")
        for i in range(count):
            body = []
            lines = make(i, rng) if make else event(i, rng, recurring_share, 132 if recurring_share >= 1 else 44)
            for line in lines:
                body += fold(line)
            out.write("\r\n".join(body) + "\r\n")
        out.write("END:VCALENDAR\r\n")


# The body Outlook gives an event written in it (its HTML wrapper, a style block, one styled <div> a
# line): several kilobytes with escaped quotes, CRLFs, tabs and non-ASCII punctuation, where the
# benchmark's own body is 40 ASCII bytes.
OUTLOOK_BODY = (
    '<html>\r\n<head>\r\n<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\r\n'
    '<style type="text/css" style="display:none">\r\n<!--\r\np\r\n\t{margin-top:0;\r\n\tmargin-bottom:0}\r\n-->\r\n'
    '</style>\r\n</head>\r\n<body dir="ltr">\r\n'
    + "".join(
        '<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, Aptos_MSFontService, Calibri, '
        f'Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">Point {i}: the quarterly planning \u2013 '
        'budget, staffing &amp; timeline.</div>\r\n'
        for i in range(18))
    + "</body>\r\n</html>\r\n")


def write_graph(path, count, body=None):
    rng = random.Random(count)
    with open(path, "w") as out:
        for page_start in range(0, count, 1000):
            values = []
            for i in range(page_start, min(count, page_start + 1000)):
                zone = ZONES[i % len(ZONES)]
                day, month, hour = 1 + i % 28, 1 + (i // 28) % 12, 8 + i % 9
                values.append({
                    "id": f"AAMk{i:010d}", "iCalUId": f"bench-{i}@calport.example",
                    "subject": f"Meeting {i} about project {rng.randint(1, 999)}",
                    "bodyPreview": "Agenda", "body": {"contentType": "html", "content": body or "<p>Agenda</p><ol><li>Status</li></ol>"},
                    "start": {"dateTime": f"2026-{month:02d}-{day:02d}T{hour:02d}:00:00.0000000", "timeZone": zone[1]},
                    "end": {"dateTime": f"2026-{month:02d}-{day:02d}T{hour:02d}:45:00.0000000", "timeZone": zone[1]},
                    "isAllDay": False, "showAs": "busy", "sensitivity": "normal", "importance": "normal",
                    "isReminderOn": True, "reminderMinutesBeforeStart": 15, "type": "singleInstance",
                    "location": {"displayName": f"Room {rng.randint(1, 40)}"},
                    "organizer": {"emailAddress": {"name": f"Organizer {i % 50}", "address": f"organizer{i % 50}@example.com"}},
                    "attendees": [
                        {"type": "required", "status": {"response": "none", "time": "0001-01-01T00:00:00Z"},
                         "emailAddress": {"name": f"Attendee {a}", "address": f"attendee{a}.{i}@example.com"}}
                        for a in range(3)
                    ],
                    "createdDateTime": "2026-01-01T00:00:00Z", "lastModifiedDateTime": "2026-01-02T00:00:00Z",
                })
            out.write(json.dumps({"@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/calendarView",
                                  "value": values}) + "\n")


if __name__ == "__main__":
    kind, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "ics":
        write_ics(path, count, 0.3)
    elif kind == "text":
        write_ics(path, count, 0.08, lambda i, rng: text_event(i, rng, 0.08))
    elif kind == "series":
        write_ics(path, count, 1.0)
    elif kind == "outlook":
        write_graph(path, count, OUTLOOK_BODY)
    else:
        write_graph(path, count)
