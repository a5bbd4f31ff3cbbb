#!/usr/bin/env python3
"""A stand-in for Microsoft Graph's calendar API and the identity platform, for calport's tests.

Python 3 standard library only; it listens on 127.0.0.1 only. It is a stand-in for Graph as
Microsoft documents it, not for calport: it never knows what calport will send.

    python3 graph_emulator.py [--port 0] [--token T] [--mailbox-zone Z] [--fault-every N] [--faults ...]
        [--mailboxes N|UPN,...] [--delegate UPN] [--app-client-id ID --app-secret S --app-certificate PEM]

prints "PORT <n>" once listening. Control endpoints (no auth, not Graph): GET /_emulator/state
(?mailbox=UPN for another mailbox than the first), POST /_emulator/config (JSON with any command-line setting),
POST /_emulator/seed ({"events": [POST /me/events bodies]}, created in one request), POST /_emulator/revoke (revokes every
refresh token, as an admin's "revoke sessions" does), POST /_emulator/expire-delta (evicts every
calendarView/delta sync state, so that a saved deltaLink is 410 Gone).

How this file is organised, and how to add a behaviour
------------------------------------------------------
It is one program in sections, one per resource, in this order: zones and times; recurrence
(patterns, validation, expansion); the mailbox (events, transactionIds, mail, concurrency);
rendering (API version members, Prefer headers, $select/$expand); routes per resource (/me,
calendars, mailboxSettings, events, calendarView, instances, $batch); the directory (users,
/users/{id | userPrincipalName}, who may open which mailbox); the identity platform; faults and
control. To add a behaviour:
  1. put it in the section of its resource, next to the behaviours it interacts with;
  2. above it, write a `# Source:` comment with the Graph documentation page (URL and title) or the
     issue thread that reports it; where the documentation is silent, take the strictest
     behaviour reported in the field and say so ("Docs silent; strictest seen: ...");
  3. answer errors as Graph does: `raise GraphError(status, code, message)` (status, error.code,
     error.message as the service writes them);
  4. add a test pinning the behaviour to its source in Tests/GraphServiceTests/EmulatorBehaviourTests.swift
     and a row in the table in docs/graph-service.md.
Anything a test needs to observe goes into `Mailbox.dump()` (GET /_emulator/state), never into
Graph's own answers.
"""

import argparse
import base64
import datetime as dt
import hashlib
import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC = dt.timezone.utc


class GraphError(Exception):
    """An error answer: HTTP status, Graph error code and message, and headers (Retry-After)."""

    def __init__(self, status, code, message, headers=None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}

    def body(self):
        return {"error": {"code": self.code, "message": self.message}}


def not_found():
    return GraphError(404, "ErrorItemNotFound", "The specified object was not found in the store.")


# =============================================================================================
# Zones and times
# =============================================================================================

# Source: dateTimeTimeZone resource, https://learn.microsoft.com/graph/api/resources/datetimetimezone
# ("timeZone: one of the values supported by Windows, or an IANA name"); the Windows ids the tests
# use, as CLDR's windowsZones.xml maps them for territory 001.
WINDOWS_ZONES = {
    "UTC": "UTC",
    "tzone://Microsoft/Utc": "UTC",
    "Pacific Standard Time": "America/Los_Angeles",
    "Mountain Standard Time": "America/Denver",
    "Central Standard Time": "America/Chicago",
    "Eastern Standard Time": "America/New_York",
    "GMT Standard Time": "Europe/London",
    "W. Europe Standard Time": "Europe/Berlin",
    "Romance Standard Time": "Europe/Paris",
    "Central European Standard Time": "Europe/Warsaw",
    "India Standard Time": "Asia/Calcutta",
    "China Standard Time": "Asia/Shanghai",
    "Tokyo Standard Time": "Asia/Tokyo",
    "AUS Eastern Standard Time": "Australia/Sydney",
}


def zone(name):
    """The tzinfo for a Windows or IANA name, or Graph's 400 for an unknown zone."""
    iana = WINDOWS_ZONES.get(name, name)
    try:
        return ZoneInfo(iana)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        # Source: field reports of POST /me/events with an unsupported zone, e.g.
        # https://github.com/microsoftgraph/msgraph-sdk-dotnet/issues (TimeZoneNotSupportedException).
        raise GraphError(400, "TimeZoneNotSupportedException",
                         f"A valid TimeZone value must be specified. The following TimeZone value is not supported: '{name}'.")


def parse_local(text):
    """A Graph dateTime (up to 7 fraction digits) as a naive datetime."""
    try:
        return dt.datetime.fromisoformat(str(text)[:19])
    except (TypeError, ValueError):
        raise GraphError(400, "RequestBodyRead", f"Cannot convert the literal '{text}' to a dateTime.")


def parse_query_time(text):
    """A calendarView bound: with an offset as given, without one as UTC.

    Source: List calendarView, https://learn.microsoft.com/graph/api/user-list-calendarview
    (startDateTime and endDateTime are required; "represented in ISO 8601 format"; a value
    without an offset is read as UTC)."""
    if text is None:
        raise GraphError(400, "ErrorInvalidParameter", "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.")
    try:
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise GraphError(400, "ErrorInvalidParameter", f"The value '{text}' of parameter 'StartDateTime' is invalid.")
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def format_local(value):
    return value.strftime("%Y-%m-%dT%H:%M:%S") + ".0000000"


def format_utc(value):
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_utc(date_time_zone):
    return parse_local(date_time_zone["dateTime"]).replace(tzinfo=zone(date_time_zone["timeZone"])).astimezone(UTC)


def utc_key(text):
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


# =============================================================================================
# Recurrence: the six pattern types, validated and expanded as Graph does
# =============================================================================================

INDEXES = ["first", "second", "third", "fourth", "last"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

# Source: recurrencePattern resource, https://learn.microsoft.com/graph/api/resources/recurrencepattern
# — the "Required properties" column of its pattern table, per type.
REQUIRED_PATTERN_MEMBERS = {
    "daily": ["interval"],
    "weekly": ["interval", "daysOfWeek"],
    "absoluteMonthly": ["interval", "dayOfMonth"],
    "relativeMonthly": ["interval", "daysOfWeek"],
    "absoluteYearly": ["interval", "dayOfMonth", "month"],
    "relativeYearly": ["interval", "daysOfWeek", "month"],
}
# Source: recurrenceRange resource, https://learn.microsoft.com/graph/api/resources/recurrencerange
# — startDate always; endDate for "endDate"; numberOfOccurrences for "numbered".
REQUIRED_RANGE_MEMBERS = {"endDate": ["startDate", "endDate"], "noEnd": ["startDate"], "numbered": ["startDate", "numberOfOccurrences"]}


def invalid_recurrence(message):
    # Docs silent on the error code; the service answers 400 ErrorInvalidRequest-style codes.
    return GraphError(400, "ErrorInvalidRecurrence", message)


def validate_recurrence(recurrence):
    pattern, range_ = recurrence.get("pattern") or {}, recurrence.get("range") or {}
    kind = pattern.get("type")
    if kind not in REQUIRED_PATTERN_MEMBERS:
        raise invalid_recurrence(f"Unsupported recurrence pattern type {kind!r}.")
    for member in REQUIRED_PATTERN_MEMBERS[kind]:
        if pattern.get(member) in (None, [], 0):
            raise invalid_recurrence(f"A recurrence pattern of type '{kind}' requires '{member}'.")
    if not isinstance(pattern["interval"], int) or pattern["interval"] < 1:
        raise invalid_recurrence("The recurrence pattern's interval must be a positive integer.")
    for day in pattern.get("daysOfWeek") or []:
        if day not in WEEKDAYS:
            raise invalid_recurrence(f"'{day}' is not a day of the week.")
    if "dayOfMonth" in REQUIRED_PATTERN_MEMBERS[kind] and not 1 <= int(pattern["dayOfMonth"]) <= 31:
        raise invalid_recurrence("dayOfMonth must be between 1 and 31.")
    if "month" in REQUIRED_PATTERN_MEMBERS[kind] and not 1 <= int(pattern["month"]) <= 12:
        raise invalid_recurrence("month must be between 1 and 12.")
    if pattern.get("index", "first") not in INDEXES:
        raise invalid_recurrence(f"'{pattern.get('index')}' is not a week index.")
    kind = range_.get("type")
    if kind not in REQUIRED_RANGE_MEMBERS:
        raise invalid_recurrence(f"Unsupported recurrence range type {kind!r}.")
    for member in REQUIRED_RANGE_MEMBERS[kind]:
        if range_.get(member) in (None, "", 0):
            raise invalid_recurrence(f"A recurrence range of type '{kind}' requires '{member}'.")
    try:
        start = dt.date.fromisoformat(range_["startDate"])
        if kind == "endDate" and dt.date.fromisoformat(range_["endDate"]) < start:
            raise invalid_recurrence("The recurrence range's endDate is before its startDate.")
    except (TypeError, ValueError):
        raise invalid_recurrence("startDate and endDate must be dates (YYYY-MM-DD).")
    if range_.get("recurrenceTimeZone"):
        zone(range_["recurrenceTimeZone"])


def on_day(pattern, day):
    """Whether an absolute pattern's dayOfMonth, or a relative one's index and daysOfWeek, is this day."""
    if pattern["type"].startswith("absolute"):
        # Docs silent on months without that day; Outlook's behaviour seen in the field: the
        # occurrence falls on the month's last day (a series on the 31st meets every month).
        last = ((day.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)).day
        return day.day == min(int(pattern.get("dayOfMonth")), last)
    if WEEKDAYS[day.weekday()] not in pattern.get("daysOfWeek", []):
        return False
    index = pattern.get("index", "first")
    if index == "last":
        return (day + dt.timedelta(days=7)).month != day.month
    return INDEXES.index(index) == (day.day - 1) // 7


def pattern_dates(recurrence, until_date):
    """The dates of a recurrence, in its zone, up to until_date.

    Source: recurrencePattern and recurrenceRange resources (links above): the range starts at
    startDate, the first occurrence is the first day on or after it that fits the pattern."""
    pattern, range_ = recurrence["pattern"], recurrence["range"]
    interval = max(int(pattern.get("interval", 1)), 1)
    day = dt.date.fromisoformat(range_["startDate"])
    last = dt.date.fromisoformat(range_["endDate"]) if range_["type"] == "endDate" else until_date
    remaining = int(range_.get("numberOfOccurrences", 0)) if range_["type"] == "numbered" else None
    kind = pattern["type"]
    first_day = WEEKDAYS.index(pattern.get("firstDayOfWeek", "sunday"))
    week_start = day - dt.timedelta(days=(day.weekday() - first_day) % 7)
    start = day
    while day <= min(last, until_date) and (remaining is None or remaining > 0):
        if kind == "daily":
            match = (day - start).days % interval == 0
        elif kind == "weekly":
            match = ((day - week_start).days // 7) % interval == 0 and WEEKDAYS[day.weekday()] in pattern["daysOfWeek"]
        elif kind in ("absoluteMonthly", "relativeMonthly"):
            match = ((day.year - start.year) * 12 + day.month - start.month) % interval == 0 and on_day(pattern, day)
        else:
            match = (day.year - start.year) % interval == 0 and day.month == pattern.get("month") and on_day(pattern, day)
        if match:
            yield day
            if remaining is not None:
                remaining -= 1
        day += dt.timedelta(days=1)


# =============================================================================================
# The mailbox: events, transactionIds, mail sent, concurrency
# =============================================================================================

# Source: event resource, v1.0 and beta, https://learn.microsoft.com/graph/api/resources/event?view=graph-rest-1.0
# and ?view=graph-rest-beta: members marked read-only there. A POST or PATCH that sets one is refused.
READ_ONLY = {
    "id", "iCalUId", "createdDateTime", "lastModifiedDateTime", "changeKey", "type", "seriesMasterId",
    "originalStart", "isCancelled", "webLink", "cancelledOccurrences", "exceptionOccurrences", "isOrganizer",
    "occurrenceId", "uid", "bodyPreview", "instances",
}

# Source: the beta event resource (?view=graph-rest-beta) lists these; the v1.0 resource does not.
# On /v1.0, OData answers $select/$expand of them with 400 "Could not find a property named ...".
BETA_ONLY = {"exceptionOccurrences", "cancelledOccurrences", "occurrenceId", "uid"}

# Source: Microsoft Graph throttling limits, Outlook service limits,
# https://learn.microsoft.com/graph/throttling-limits#outlook-service-limits: "4 concurrent
# requests" per app and mailbox; "Outlook service batching": a $batch's Outlook requests run 4 at
# a time in parallel, or one at a time when chained with dependsOn
# (https://github.com/microsoftgraph/microsoft-graph-docs/pull/20833). Over the limit the service
# answers 429 ApplicationThrottled "Application is over its MailboxConcurrency limit." (field
# reports: https://github.com/alcionai/corso/issues/3695, https://github.com/twentyhq/twenty/issues/11070).
MAILBOX_CONCURRENCY = 4


# Source: calendar resource type, https://learn.microsoft.com/graph/api/resources/calendar — id,
# name, color (a calendarColor name, "auto" by default), hexColor ("#RRGGBB", empty when none was
# set), isDefaultCalendar, canEdit, canShare, canViewPrivateItems, isRemovable, owner
# (emailAddress: name and address), changeKey; List calendars,
# https://learn.microsoft.com/graph/api/user-list-calendars (GET /me/calendars or
# /users/{id | userPrincipalName}/calendars: a collection of calendar objects).
CALENDAR_COLORS = {"auto": "", "lightBlue": "#a6d1f5", "lightGreen": "#87d28e", "lightOrange": "#fcab73",
                   "lightGray": "#c0c0c0", "lightYellow": "#f4d07a", "lightTeal": "#6cdad0", "lightPink": "#f1a7c6",
                   "lightBrown": "#d6b896", "lightRed": "#f8a1a5"}


class Mailbox:
    """One user's mailbox: calendars and events, transactionIds, mail sent, operations in flight.

    `index` is the mailbox's place in --mailboxes (1 first); the first mailbox keeps the ids the
    single-mailbox tests know (AAMkDefault, AAMkEvt00001), the others carry their index in every id,
    so that a request sent to the wrong mailbox finds nothing rather than another user's event."""

    def __init__(self, args, index=1, upn="user@example.com"):
        self.lock = threading.RLock()
        self.args = args
        self.index = index
        self.user = {"id": f"user-{index}", "userPrincipalName": upn, "mail": upn,
                     "displayName": "Emulated User" if index == 1 else f"Emulated User {index}"}
        self.prefix = "AAMk" if index == 1 else f"AAMkU{index}"
        self.events = {}  # id -> stored event (masters keep "_exceptions" and "_cancelled" by originalStart)
        self.transactions = {}  # transactionId -> (event id, canonical body)
        self.mail = []  # what Graph would have sent: invitations, updates, cancellations
        self.calendars = [self.new_calendar(self.prefix + "Default", "Calendar", "auto", default=True),
                          self.new_calendar(self.prefix + "Second", "Second", "lightBlue")]
        self.delegates = set()  # user ids with Full Access to this mailbox (--delegate)
        self.next_id = 1
        self.operations = 0  # Outlook operations in flight: requests plus running $batch items
        self.max_operations = 0
        self.max_requested = 0  # the most operations clients asked to run at once, throttled ones included
        self.throttled = 0  # MailboxConcurrency 429s given
        self.delta = DeltaTracker()  # calendarView/delta sync states (section "calendarView delta")
        self.upload_sessions = {}  # uploadUrl token -> attachment upload in progress
        self.upload_puts = 0  # PUTs to upload URLs accepted

    @property
    def owner(self):
        return {"name": self.user["displayName"], "address": self.user["userPrincipalName"]}

    # ----- calendars

    def new_calendar(self, calendar_id, name, color, default=False):
        return {"id": calendar_id, "name": name, "color": color, "hexColor": CALENDAR_COLORS.get(color, ""),
                "isDefaultCalendar": default, "changeKey": hashlib.sha1(calendar_id.encode()).hexdigest()[:16],
                "canShare": True, "canViewPrivateItems": True, "canEdit": True, "isRemovable": not default,
                "owner": self.owner}

    def calendar_ids(self):
        return [calendar["id"] for calendar in self.calendars]

    def create_calendar(self, body):
        """Source: Create calendar, https://learn.microsoft.com/graph/api/user-post-calendars —
        POST /me/calendars (or /users/{id}/calendars) with a name answers 201 and the calendar.
        Docs silent on a repeated name; seen in the field: 409 ErrorFolderExists "A folder with
        the specified name already exists." (Exchange compares folder names without case)."""
        name = (body or {}).get("name")
        if not isinstance(name, str) or not name.strip():
            raise GraphError(400, "ErrorInvalidRequest", "The 'name' property is required.")
        if any(calendar["name"].casefold() == name.casefold() for calendar in self.calendars):
            raise GraphError(409, "ErrorFolderExists", "A folder with the specified name already exists.")
        color = body.get("color", "auto")
        if color not in CALENDAR_COLORS:
            raise GraphError(400, "RequestBodyRead", f"Requested value '{color}' was not found.")
        calendar = self.new_calendar(f"{self.prefix}Cal{len(self.calendars) + 1:03d}", name, color)
        self.calendars.append(calendar)
        return 201, calendar

    # ----- concurrency

    def reserve(self, wanted):
        """Takes up to `wanted` operation slots; returns how many were free."""
        with self.lock:
            self.max_requested = max(self.max_requested, self.operations + wanted)
            granted = max(0, min(wanted, MAILBOX_CONCURRENCY - self.operations))
            self.operations += granted
            self.max_operations = max(self.max_operations, self.operations)
            return granted

    def release(self, count):
        with self.lock:
            self.operations -= count

    def concurrency_error(self):
        with self.lock:
            self.throttled += 1
        return GraphError(429, "ApplicationThrottled", "Application is over its MailboxConcurrency limit.",
                          {"Retry-After": str(self.args.retry_after)})

    # ----- validation, as the service does it

    def validate(self, body, creating):
        if not isinstance(body, dict):
            raise GraphError(400, "RequestBodyRead", "The request body must be a JSON object.")
        for key in body:
            if key in READ_ONLY or key.startswith("@"):
                raise GraphError(400, "RequestBodyRead", f"The property '{key}' cannot be set.")
        if creating:
            # Source: Create event, https://learn.microsoft.com/graph/api/user-post-events — start and end.
            for key in ("start", "end"):
                if key not in body:
                    raise GraphError(400, "ErrorInvalidRequest", f"The '{key}' property is required.")
        for key in ("start", "end"):
            if key in body:
                value = body[key]
                if not isinstance(value, dict) or "dateTime" not in value or "timeZone" not in value:
                    raise GraphError(400, "ErrorInvalidRequest", f"'{key}' needs dateTime and timeZone.")
                to_utc(value)
        if "start" in body and "end" in body and to_utc(body["end"]) < to_utc(body["start"]):
            raise GraphError(400, "ErrorInvalidRequest", "The end of the event is before its start.")
        # Source: event resource, isAllDay: "If true, ... start and end time must be set to midnight
        # and be in the same time zone."
        if body.get("isAllDay"):
            for key in ("start", "end"):
                if key in body and parse_local(body[key]["dateTime"]).time() != dt.time(0, 0):
                    raise GraphError(400, "ErrorPropertyValidationFailure",
                                     "Your request can't be completed. If the event is an all-day event, it has to start and end at midnight.")
        if body.get("recurrence") is not None:
            validate_recurrence(body["recurrence"])

    # ----- events

    def create(self, calendar, body):
        self.validate(body, creating=True)
        # Source: event resource, transactionId: "A custom identifier specified by a client app for
        # the server to avoid redundant POST operations in case of client retries to create the
        # same event." The docs are silent on the answer; strictest seen in the field: a repeat
        # with the same body answers 201 with the event already made (nothing new is created, no
        # mail sent), and the same id with a different body is 400 ErrorDuplicateTransactionId.
        transaction = body.get("transactionId")
        canonical = json.dumps(body, sort_keys=True)
        if transaction and transaction in self.transactions:
            event_id, earlier = self.transactions[transaction]
            if earlier != canonical or event_id not in self.events:
                raise GraphError(400, "ErrorDuplicateTransactionId",
                                 "An event with the same transactionId but different content already exists.")
            return 201, self.events[event_id]
        event_id = f"{self.prefix}Evt{self.next_id:05d}"
        self.next_id += 1
        stamp = format_utc(dt.datetime.now(UTC)).replace("Z", ".0000000Z")
        event = dict(body)
        extended = take_extended(event)
        if event.get("recurrence"):
            # Docs silent; seen in the field: Graph returns the recurrence zone it used, the start's.
            range_ = dict(event["recurrence"]["range"])
            range_.setdefault("recurrenceTimeZone", body["start"]["timeZone"])
            event["recurrence"] = {"pattern": event["recurrence"]["pattern"], "range": range_}
        event.update({
            "id": event_id, "calendar": calendar,
            "iCalUId": "040000008200E00074C5B7101A82E008" + hashlib.sha1(event_id.encode()).hexdigest().upper(),
            "createdDateTime": stamp, "lastModifiedDateTime": stamp,
            "type": "seriesMaster" if body.get("recurrence") else "singleInstance",
            # Source: event resource: originalStartTimeZone/originalEndTimeZone, "the time zone
            # set when the event was created".
            "originalStartTimeZone": body["start"]["timeZone"], "originalEndTimeZone": body["end"]["timeZone"],
            # Source: event resource, organizer, and Create event: the event is created in, and
            # organised by, the mailbox's owner; an organizer in the body is ignored (docs silent
            # on the body member; strictest seen in the field: it never takes effect).
            "organizer": {"emailAddress": self.owner}, "isOrganizer": True,
            "_exceptions": {}, "_cancelled": set(), "_extended": extended, "_exception_extended": {},
            "_exception_attachments": {},
        })
        if not event.get("body"):
            event["body"] = {"contentType": "text", "content": ""}
        self.events[event_id] = event
        if transaction:
            self.transactions[transaction] = (event_id, canonical)
        # Source: Create event: "...sends the meeting request to the attendees" — an invitation each.
        self.send_mail("invitation", event, None)
        return 201, event

    def send_mail(self, kind, event, occurrence, changes=None):
        """Records the message Graph sends each attendee of a meeting the owner organises."""
        for attendee in event.get("attendees") or []:
            address = ((attendee or {}).get("emailAddress") or {}).get("address")
            if address:
                self.mail.append({"kind": kind, "to": address, "eventId": event["id"], "occurrence": occurrence,
                                  "subject": (changes or {}).get("subject", event.get("subject"))})

    def lookup(self, event_id):
        """(master or single event, originalStart key or None) for an event or occurrence id."""
        master_id, _, key = event_id.partition(".occ.")
        event = self.events.get(master_id)
        if event is None:
            raise not_found()
        if key:
            if event["type"] != "seriesMaster" or key not in dict(
                    self.occurrence_starts(event, utc_key(key) + dt.timedelta(days=3))):
                raise not_found()
            return event, key
        return event, None

    def update(self, event_id, body):
        self.validate(body, creating=False)
        event, key = self.lookup(event_id)
        if "transactionId" in body:
            # Source: event resource, transactionId: "you can't change transactionId in a subsequent update".
            raise GraphError(400, "ErrorInvalidRequest", "transactionId cannot be changed.")
        body = dict(body)
        extended = take_extended(body)
        if key is None:
            event["_extended"].update(extended)
            if body.get("recurrence") is not None and event["type"] != "seriesMaster":
                raise GraphError(400, "ErrorInvalidRequest", "A single event cannot be made a series.")
            event.update({k: v for k, v in body.items() if k != "organizer"})  # the owner stays organizer
            event["lastModifiedDateTime"] = format_utc(dt.datetime.now(UTC)).replace("Z", ".0000000Z")
            # Source: Update event, https://learn.microsoft.com/graph/api/event-update: a change to
            # a meeting the owner organises is sent to its attendees (strictest: every PATCH).
            self.send_mail("update", event, None, body)
            return 200, event
        if "start" in body:
            self.check_boundaries(event, key, to_utc(body["start"]))
        event["_exceptions"].setdefault(key, {}).update(body)
        event["_exception_extended"].setdefault(key, {}).update(extended)
        self.send_mail("update", event, key, body)
        return 200, self.occurrence(event, key)

    def check_boundaries(self, master, key, new_start):
        """Source: EWS ResponseCodeType, ErrorOccurrenceCrossingBoundary,
        https://learn.microsoft.com/exchange/client-developer/web-service-reference/responsecode —
        an occurrence may not be moved onto or past an adjacent occurrence. Docs silent on what
        "onto" means; strictest (Outlook's own rule): the new start's date, in the series' zone,
        must fall strictly between the dates of the occurrences before and after it."""
        tz = zone(series_zone(master))
        starts = [(k, self.effective_start(master, k)) for k, _ in self.occurrence_starts(master, None)]
        position = [k for k, _ in starts].index(key)
        day = new_start.astimezone(tz).date()
        before = starts[position - 1][1].astimezone(tz).date() if position > 0 else None
        after = starts[position + 1][1].astimezone(tz).date() if position + 1 < len(starts) else None
        if (before is not None and day <= before) or (after is not None and day >= after):
            raise GraphError(400, "ErrorOccurrenceCrossingBoundary",
                             "An occurrence cannot be moved onto or past an adjacent occurrence of the same series.")

    def effective_start(self, master, key):
        override = master["_exceptions"].get(key, {})
        return to_utc(override["start"]) if "start" in override else self.pattern_start(master, key)

    def delete(self, event_id):
        event, key = self.lookup(event_id)
        # Source: Delete event, https://learn.microsoft.com/graph/api/event-delete: "If the event is
        # a meeting, deleting the event on the organizer's calendar sends a cancellation message to
        # the meeting attendees."
        self.send_mail("cancellation", event, key)
        if key is None:
            del self.events[event["id"]]
        else:
            event["_cancelled"].add(key)
            event["_exceptions"].pop(key, None)
            event["_exception_attachments"].pop(key, None)
        return 204, None

    # ----- occurrences

    def occurrence_starts(self, master, window_end):
        """(originalStart key, pattern start UTC) of every uncancelled occurrence up to window_end.

        Source: recurrenceRange resource: recurrenceTimeZone is the zone of the series; its
        occurrences keep their wall-clock time there (start converted into it)."""
        tz = zone(series_zone(master))
        clock = to_utc(master["start"]).astimezone(tz).time() if not master.get("isAllDay") else dt.time(0)
        horizon = (window_end or dt.datetime(2100, 1, 1, tzinfo=UTC)).date() + dt.timedelta(days=2)
        for day in pattern_dates(master["recurrence"], horizon):
            start = dt.datetime.combine(day, clock).replace(tzinfo=tz).astimezone(UTC)
            key = self.original_start(master, day, start)
            if key not in master["_cancelled"]:
                yield key, start

    def original_start(self, master, day, start):
        """An occurrence's originalStart, in UTC.

        Source: event resource, originalStart: "The start time that the event was originally
        scheduled to have, in UTC." For all-day occurrences the docs are silent; strictest seen in
        the field: midnight of the date in the mailbox's zone, in UTC (e.g. T08:00:00Z for a
        Pacific mailbox in winter), whatever the event's zone."""
        if master.get("isAllDay"):
            midnight = dt.datetime.combine(day, dt.time(0)).replace(tzinfo=zone(self.args.mailbox_zone))
            return format_utc(midnight)
        return format_utc(start)

    def pattern_start(self, master, key):
        return dict(self.occurrence_starts(master, utc_key(key) + dt.timedelta(days=3)))[key]

    def occurrence(self, master, key):
        """The stored occurrence at key, as an event dict (before rendering)."""
        start = self.pattern_start(master, key)
        duration = to_utc(master["end"]) - to_utc(master["start"])
        body = {k: v for k, v in master.items() if not k.startswith("_")}
        body.update({
            "id": f"{master['id']}.occ.{key}", "seriesMasterId": master["id"], "type": "occurrence",
            "originalStart": key, "recurrence": None,
            # Source: event resource, iCalUId: "This ID is different for each occurrence in a recurring series."
            "iCalUId": master["iCalUId"] + hashlib.sha1(key.encode()).hexdigest()[:16].upper(),
        })
        body.pop("transactionId", None)
        if master.get("isAllDay"):
            day = start.astimezone(zone(series_zone(master))).date()
            days = (parse_local(master["end"]["dateTime"]) - parse_local(master["start"]["dateTime"])).days
            body["start"] = {"dateTime": format_local(dt.datetime.combine(day, dt.time(0))), "timeZone": master["start"]["timeZone"]}
            body["end"] = {"dateTime": format_local(dt.datetime.combine(day + dt.timedelta(days=days), dt.time(0))),
                           "timeZone": master["end"]["timeZone"]}
        else:
            body["start"] = {"dateTime": format_local(start.replace(tzinfo=None)), "timeZone": "UTC"}
            body["end"] = {"dateTime": format_local((start + duration).replace(tzinfo=None)), "timeZone": "UTC"}
        if key in master["_exceptions"]:
            body.update(master["_exceptions"][key])
            body["type"] = "exception"
            # An exception holds its own files (attachment_holder): hasAttachments says whether it has any.
            body["hasAttachments"] = bool(master["_exception_attachments"].get(key, {}).get("_attachments"))
        return body

    def instances(self, master, window_start, window_end):
        """Source: List instances, https://learn.microsoft.com/graph/api/event-list-instances —
        the occurrences and exceptions of a series in the window; cancelled ones are absent."""
        found = []
        for key, _ in self.occurrence_starts(master, window_end + dt.timedelta(days=366)):
            instance = self.occurrence(master, key)
            if overlaps(instance, window_start, window_end):
                found.append((to_utc(instance["start"]), instance))
        return found

    def view(self, calendar, window_start, window_end):
        """Source: List calendarView, https://learn.microsoft.com/graph/api/user-list-calendarview —
        "occurrences, exceptions, and single instances of events" in the window; never masters."""
        found = []
        for event in self.events.values():
            if event["calendar"] != calendar:
                continue
            if event["type"] == "seriesMaster":
                found += self.instances(event, window_start, window_end)
            elif overlaps(event, window_start, window_end):
                found.append((to_utc(event["start"]), event))
        found.sort(key=lambda pair: (pair[0], pair[1]["id"]))
        return [instance for _, instance in found]

    def dump(self):
        events = []
        for event in self.events.values():
            entry = {k: v for k, v in event.items() if not k.startswith("_")}
            entry["exceptions"] = {key: value for key, value in sorted(event["_exceptions"].items())}
            entry["cancelled"] = sorted(event["_cancelled"])
            entry["singleValueExtendedProperties"] = [
                {"id": pid, "value": value} for pid, value in sorted(event["_extended"].values())]
            entry["exceptionExtendedProperties"] = {
                key: [{"id": pid, "value": value} for pid, value in sorted(props.values())]
                for key, props in sorted(event["_exception_extended"].items())}
            entry["attachments"] = attachment_dump(event)
            entry["exceptionAttachments"] = {
                key: attachment_dump(holder) for key, holder in sorted(event["_exception_attachments"].items())}
            events.append(entry)
        return {"user": self.user, "events": events, "mail": self.mail, "calendars": self.calendars,
                "uploadPuts": self.upload_puts,
                **self.summary()}

    def summary(self):
        return {"userPrincipalName": self.user["userPrincipalName"], "eventCount": len(self.events),
                "operationsInFlight": self.operations, "maxOperationsInFlight": self.max_operations,
                "maxOperationsRequested": self.max_requested, "mailboxThrottled": self.throttled}


def series_zone(master):
    """The zone a series' occurrences keep their clock in: recurrenceTimeZone, else the start's."""
    return ((master.get("recurrence") or {}).get("range") or {}).get("recurrenceTimeZone") or master["start"]["timeZone"]


def overlaps(event, window_start, window_end):
    begin, end = to_utc(event["start"]), to_utc(event["end"])
    return (begin < window_end and end > window_start) or (begin == end and window_start <= begin < window_end)


# =============================================================================================
# Rendering: API versions, Prefer headers, $select and $expand
# =============================================================================================

class Preferences:
    """The Prefer header's preferences that Graph's calendar API honours."""

    def __init__(self, header):
        self.time_zone = None
        self.body_type = "html"
        self.max_page_size = None
        self.immutable_ids = False
        for part in (header or "").split(","):
            name, _, value = part.strip().partition("=")
            value = value.strip().strip('"')
            # Source: Get event, https://learn.microsoft.com/graph/api/event-get, "Support various
            # time zones": Prefer: outlook.timezone sets the zone of start and end; "If the
            # Prefer: outlook.timezone header is not specified, the start and end times are
            # returned in UTC."
            if name == "outlook.timezone":
                self.time_zone = value
            # Source: Get event: Prefer: outlook.body-content-type="text" returns body as text;
            # otherwise, and by default, HTML.
            elif name == "outlook.body-content-type" and value in ("text", "html"):
                self.body_type = value
            # Source: Paging Microsoft Graph data, https://learn.microsoft.com/graph/paging —
            # "Prefer: odata.maxpagesize={x}" asks for pages of at most x.
            elif name == "odata.maxpagesize" and value.isdigit():
                self.max_page_size = int(value)
            # Source: Get immutable identifiers for Outlook resources,
            # https://learn.microsoft.com/graph/outlook-immutable-id — Prefer: IdType="ImmutableId".
            elif name == "IdType" and value == "ImmutableId":
                self.immutable_ids = True

    def applied(self):
        """Source: Paging and outlook-immutable-id: Preference-Applied names what was honoured."""
        applied = []
        if self.time_zone:
            applied.append(f'outlook.timezone="{self.time_zone}"')
        if self.max_page_size:
            applied.append(f"odata.maxpagesize={self.max_page_size}")
        if self.immutable_ids:
            applied.append('IdType="ImmutableId"')
        return {"Preference-Applied": ", ".join(applied)} if applied else {}


def text_to_html(text):
    return ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body>'
            + html.escape(text).replace("\n", "<br>") + "</body></html>")


def html_to_text(markup):
    markup = re.sub(r"(?is)<(head|style|script)\b.*?</\1>", "", markup)
    markup = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", markup)
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def check_members(version, query):
    """Source: the v1.0 event resource has no exceptionOccurrences or cancelledOccurrences; OData
    answers a $select or $expand of an unknown member with this error (the message OData writes)."""
    if version == "beta":
        return
    for option in ("$select", "$expand"):
        for name in (first(query, option) or "").split(","):
            name = name.strip().split("(")[0]
            if name in BETA_ONLY:
                raise GraphError(400, "BadRequest",
                                 f"Could not find a property named '{name}' on type 'microsoft.graph.event'.")


def render(mailbox, event, prefs, version, query=None, master=None):
    """The event as Graph returns it: members of the API version, times and body as preferred."""
    query = query or {}
    body = {k: v for k, v in event.items() if not k.startswith("_") and k != "calendar"}
    for name in BETA_ONLY:
        body.pop(name, None)
    if not body.get("transactionId"):
        # Source: event resource, transactionId: "only returned in a response payload if an app has set it".
        body.pop("transactionId", None)
    out_zone = prefs.time_zone or "UTC"
    for name in ("start", "end"):
        if name not in body:
            continue
        if body.get("isAllDay"):
            # Docs silent; seen in the field: an all-day event keeps its midnight, labelled with the zone asked for.
            body[name] = {"dateTime": body[name]["dateTime"], "timeZone": out_zone}
        else:
            local = to_utc(body[name]).astimezone(zone(out_zone)).replace(tzinfo=None)
            body[name] = {"dateTime": format_local(local), "timeZone": out_zone}
    stored = body.get("body") or {"contentType": "text", "content": ""}
    if stored.get("contentType", "text").lower() != prefs.body_type:
        content = stored.get("content", "")
        body["body"] = {"contentType": prefs.body_type,
                        "content": text_to_html(content) if prefs.body_type == "html" else html_to_text(content)}
    if version == "beta" and event.get("type") == "seriesMaster":
        selected = (first(query, "$select") or "").split(",")
        # Source: beta event resource, cancelledOccurrences: "Returned only on $select in a Get
        # operation which specifies the ID of a series master event."
        if "cancelledOccurrences" in selected:
            tz = zone(series_zone(event))
            body["cancelledOccurrences"] = [
                f"OID.{event['id']}.{utc_key(k).astimezone(tz).date().isoformat()}" for k in sorted(event["_cancelled"])]
        # Source: beta event resource, exceptionOccurrences: navigation property, with $expand.
        if "exceptionOccurrences" in (first(query, "$expand") or ""):
            body["exceptionOccurrences"] = [render(mailbox, mailbox.occurrence(event, key), prefs, version)
                                            for key in sorted(event["_exceptions"])]
    selected = [name for name in (first(query, "$select") or "").split(",") if name]
    if selected:
        # Source: Use query parameters, $select, https://learn.microsoft.com/graph/query-parameters:
        # only the members named (and id) are returned.
        body = {k: v for k, v in body.items() if k in selected or k in ("id", "exceptionOccurrences")}
    return body


# =============================================================================================
# Single-value extended properties (added for calport import's source identity)
# =============================================================================================

# Outlook extended properties overview (learn.microsoft.com/graph/api/resources/extended-properties-overview):
# a single-value property's id is "{type} {guid} Name {name}", "{type} {guid} Id {id}" or
# "{type} {proptag}"; "You cannot use the REST API to get all the extended properties of a specific
# instance in one call", so an event is rendered without them unless $expand names them.
# Create single-value extended property (learn.microsoft.com/graph/api/singlevaluelegacyextendedproperty-post-singlevalueextendedproperties):
# they are set with the POST that creates an event, or with a PATCH of an existing one, in a
# "singleValueExtendedProperties" array of {"id", "value"}; a PATCH sets the ones it names.
# Get singleValueLegacyExtendedProperty (learn.microsoft.com/graph/api/singlevaluelegacyextendedproperty-get):
# GET /me/events?$filter=singleValueExtendedProperties/Any(ep: ep/id eq '{id}' and ep/value eq '{v}')
# lists the events that have it ("The response body does not include the extended property");
# $expand=singleValueExtendedProperties($filter=id eq '{id}') includes it. "Filtering the string
# name (Name) in the id of an extended property is case-sensitive. Filtering the value property of
# an extended property is case-insensitive."

EXTENDED_ID = re.compile(
    r"^(Binary|Boolean|Currency|CLSID|Double|Float|Integer|Long|Object|String|SystemTime|Short)"
    r" (\{[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\} (Name \S.*|Id 0x[0-9A-Fa-f]{1,4})"
    r"|0x[0-9A-Fa-f]{8})$")
ANY_FILTER = re.compile(
    r"^singleValueExtendedProperties/Any\((\w+): \1/id eq '((?:[^']|'')*)' and \1/value eq '((?:[^']|'')*)'\)$")
EXPAND_EXTENDED = re.compile(r"singleValueExtendedProperties\(\$filter=((?:[^()']|'(?:[^']|'')*')*)\)")
EXPAND_ID = re.compile(r"^id eq '((?:[^']|'')*)'$")


def extended_key(property_id):
    """The id compared without regard to case, except for the string name (case-sensitive)."""
    head, sep, name = property_id.partition(" Name ")
    return head.lower() + sep + name


def take_extended(body):
    """Removes singleValueExtendedProperties from a POST or PATCH body: {key: (id, value)}."""
    entries = body.pop("singleValueExtendedProperties", None)
    if entries is None:
        return {}
    if not isinstance(entries, list):
        raise GraphError(400, "RequestBodyRead", "singleValueExtendedProperties must be an array.")
    found = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or \
                not isinstance(entry.get("value"), str):
            raise GraphError(400, "RequestBodyRead", "An extended property needs a string id and value.")
        if not EXTENDED_ID.match(entry["id"]):
            raise GraphError(400, "ErrorInvalidProperty", f"The extended property id '{entry['id']}' is not valid.")
        found[extended_key(entry["id"])] = (entry["id"], entry["value"])
    return found


def odata_literal(text):
    return text.replace("''", "'")


def list_events(mailbox, calendar, query, prefs, version):
    """GET /events: series masters and single events of the calendar, optionally filtered."""
    wanted = None
    text = first(query, "$filter")
    if text is not None:
        match = ANY_FILTER.match(text.strip())
        if not match:
            raise GraphError(400, "ErrorInvalidUrlQueryFilter", f"The query filter '{text}' is not supported.")
        wanted = (extended_key(odata_literal(match.group(2))), odata_literal(match.group(3)).lower())
    found = []
    for event in mailbox.events.values():
        if event["calendar"] != calendar:
            continue
        if wanted is not None:
            stored = event["_extended"].get(wanted[0])
            if stored is None or stored[1].lower() != wanted[1]:
                continue
        found.append(expand_extended(mailbox, render(mailbox, event, prefs, version, query), query))
    return found


def requested_extended(query):
    """The extended property keys $expand asks for; None when it asks for none."""
    expand = first(query, "$expand", "")
    match = EXPAND_EXTENDED.search(expand)
    if not match:
        if "singleValueExtendedProperties" in expand:
            raise GraphError(400, "BadRequest", "Expanding singleValueExtendedProperties needs a $filter on id.")
        return None
    keys = []
    for clause in re.split(r" or ", match.group(1)):
        clause_match = EXPAND_ID.match(clause.strip())
        if not clause_match:
            raise GraphError(400, "BadRequest", f"Unsupported filter on singleValueExtendedProperties: '{clause}'.")
        keys.append(extended_key(odata_literal(clause_match.group(1))))
    return keys


def expand_extended(mailbox, answer, query):
    """answer with the singleValueExtendedProperties $expand asks for (only the ones it has)."""
    keys = requested_extended(query)
    if keys is None:
        return answer
    master_id, _, key = answer["id"].partition(".occ.")
    event = mailbox.events.get(master_id)
    if event is None:
        return answer
    stored = event["_exception_extended"].get(key, {}) if key else event["_extended"]
    answer["singleValueExtendedProperties"] = [
        {"id": stored[k][0], "value": stored[k][1]} for k in keys if k in stored]
    return answer


def expand_all(mailbox, answers, query):
    return [expand_extended(mailbox, answer, query) for answer in answers]


# =============================================================================================
# calendarView delta: change tracking of a window (issue #22; kept in its own section)
# =============================================================================================

# Source: event: delta, https://learn.microsoft.com/graph/api/event-delta, and Get incremental
# changes to events in a calendar view, https://learn.microsoft.com/graph/delta-query-events:
# GET /me/calendarView/delta?startDateTime=…&endDateTime=… (or /calendars/{id}/calendarView/delta)
# starts a round; startDateTime and endDateTime are given on the first call only, "encoded in the
# tokens"; each page has @odata.nextLink (with $skiptoken) or, on the last one, @odata.deltaLink
# (with $deltatoken); "State tokens are completely opaque to the client". A delta call returns "the
# same properties you'd normally get from a GET /calendarView request" (occurrences, exceptions
# and single instances, never series masters); $select, $expand, $filter, $orderby and $search
# are not supported. Prefer: odata.maxpagesize sets the page size.
# Source: Use delta query to track changes, https://learn.microsoft.com/graph/delta-query-overview:
# removed instances are {"id", "@removed": {"reason": …}}; "Updated instances are represented by
# their id with at least the properties that have been updated, but additional properties may be
# included" — the strictest reading: an updated instance comes with its id and the members that
# changed only (the delta-query-events example shows whole events); an added one in full.
DELTA_UNSUPPORTED = ("$select", "$expand", "$filter", "$orderby", "$search")
# Source: delta-query-overview, "Token duration": for Outlook entities a token lives as long as
# the service's delta token cache keeps it. Docs silent on how many; strictest seen in the field
# (https://github.com/microsoftgraph/microsoft-graph-docs/issues/2350, 410 SyncStateNotFound "The
# sync state generation is not found; generation=149;[highest=157][157][155][156]"): the three
# latest generations of a sync state are kept, an older deltaLink is 410 Gone.
DELTA_GENERATIONS_KEPT = 3


def delta_members(event):
    """An instance's members as stored, each as canonical JSON: what a change compares."""
    return {k: json.dumps(v, sort_keys=True, default=str) for k, v in event.items() if not k.startswith("_")}


def delta_fingerprint(event):
    return hashlib.sha1(json.dumps(delta_members(event), sort_keys=True).encode()).hexdigest()


def sync_state_not_found(generation=None):
    # Source: https://github.com/microsoftgraph/microsoft-graph-docs/issues/2350 (410 Gone,
    # SyncStateNotFound, as the service answers an evicted or unknown deltaLink) and
    # delta-query-overview, "Token duration" ("a 40X-series error with error codes such as
    # syncStateNotFound").
    return GraphError(410, "SyncStateNotFound",
                      f"The sync state generation is not found; generation={generation or 0}.")


class DeltaTracker:
    """A mailbox's sync states (one per round chain, a snapshot per generation) and the pages of
    rounds being read. Tokens are random, so that a client can only copy them, never make one."""

    def __init__(self):
        self.states = {}  # $deltatoken -> {"chain", "generation", "calendar", "start", "end", "seen", "outside"}
        self.rounds = {}  # $skiptoken -> {"items": [...], "offset": n, "state": the state the round ends in}
        self.rounds_started = 0

    def token(self):
        return base64.urlsafe_b64encode(os.urandom(24)).rstrip(b"=").decode()

    def snapshot(self, mailbox, calendar, start, end):
        """(instances in the window by id, fingerprints of the calendar's single events outside it)."""
        seen = {event["id"]: (delta_members(event), event) for event in mailbox.view(calendar, start, end)}
        outside = {event["id"]: delta_fingerprint(event) for event in mailbox.events.values()
                   if event["calendar"] == calendar and event["type"] != "seriesMaster" and event["id"] not in seen}
        return seen, outside

    def expire(self):
        """Empties the token cache, as the service does when it evicts old states (test control)."""
        self.states.clear()
        self.rounds.clear()

    def start_round(self, mailbox, calendar, query):
        start, end = parse_query_time(first(query, "startDateTime")), parse_query_time(first(query, "endDateTime"))
        seen, outside = self.snapshot(mailbox, calendar, start, end)
        self.rounds_started += 1
        state = {"chain": self.rounds_started, "generation": 1, "calendar": calendar, "start": start, "end": end,
                 "seen": {k: v[0] for k, v in seen.items()}, "outside": outside}
        return [event for _, event in seen.values()], state

    def continue_round(self, mailbox, earlier):
        """The changes since `earlier`: instances added or changed in full, removed ones as @removed.

        Source: event: delta, "Response": a round "bound by the date range" returns under @removed
        with reason "deleted" the events of the range deleted since the last call, and the events
        *outside* the range added, deleted or updated since then."""
        seen, outside = self.snapshot(mailbox, earlier["calendar"], earlier["start"], earlier["end"])
        # (event, the members that changed, or None for one new to the window)
        changes = []
        for key, (members, event) in seen.items():
            before = earlier["seen"].get(key)
            if before is None:
                changes.append((event, None))
            elif before != members:
                changes.append((event, {name for name in set(members) | set(before)
                                        if members.get(name) != before.get(name)}))
        gone = [key for key in earlier["seen"] if key not in seen]
        gone += [key for key, print_ in outside.items() if earlier["outside"].get(key) != print_]
        gone += [key for key in earlier["outside"] if key not in outside and key not in seen]
        state = {**earlier, "generation": earlier["generation"] + 1,
                 "seen": {k: v[0] for k, v in seen.items()}, "outside": outside}
        removed = [{"@odata.type": "#microsoft.graph.event", "id": key, "@removed": {"reason": "deleted"}}
                   for key in dict.fromkeys(gone)]
        return changes, removed, state

    def keep(self, state):
        """Stores a round's final state under a new $deltatoken, evicting generations too old."""
        token = self.token()
        self.states[token] = state
        newest = max(s["generation"] for s in self.states.values() if s["chain"] == state["chain"])
        for key in [k for k, s in self.states.items()
                    if s["chain"] == state["chain"] and s["generation"] <= newest - DELTA_GENERATIONS_KEPT]:
            del self.states[key]
        return token


def delta_item(rendered, changed):
    """An instance as a delta round returns it: whole when new, else its id and what changed."""
    if changed is None:
        return rendered
    return {"@odata.type": "#microsoft.graph.event", "id": rendered["id"],
            **{name: value for name, value in rendered.items() if name in changed}}


def calendar_view_delta(mailbox, calendar, query, prefs, version, link_path, host):
    """GET …/calendarView/delta: a page of the round, with its nextLink or, last, its deltaLink."""
    for option in DELTA_UNSUPPORTED:
        if option in query:
            # Docs (event: delta, "OData query parameters") say these are unsupported; silent on
            # the answer. Strictest: the request is refused.
            raise GraphError(400, "BadRequest", f"The query parameter '{option}' is not supported with delta.")
    tracker = mailbox.delta
    skip, delta = first(query, "$skiptoken"), first(query, "$deltatoken")
    if skip is not None:
        # Docs silent on a $skiptoken used again; it names a page of a round, so a retried GET of
        # it (after a dropped answer) gets the same page.
        round_ = tracker.rounds.get(skip)
        if round_ is None:
            raise sync_state_not_found()
    else:
        if delta is not None:
            earlier = tracker.states.get(delta)
            if earlier is None:
                raise sync_state_not_found()
            changes, removed, state = tracker.continue_round(mailbox, earlier)
            items = [delta_item(render(mailbox, event, prefs, version), changed) for event, changed in changes]
            items += removed
        else:
            events, state = tracker.start_round(mailbox, calendar, query)
            items = [render(mailbox, event, prefs, version) for event in events]
        round_ = {"items": items, "offset": 0, "state": state}
    size = min(prefs.max_page_size or mailbox.args.page_size, mailbox.args.max_page_size)
    offset = round_["offset"]
    answer = {"@odata.context": f"http://{host}/{version}/$metadata#Collection(event)",
              "value": round_["items"][offset:offset + size]}
    if offset + size < len(round_["items"]):
        token = tracker.token()
        tracker.rounds[token] = {**round_, "offset": offset + size}
        answer["@odata.nextLink"] = f"http://{host}{link_path}?" + urllib.parse.urlencode({"$skiptoken": token})
    else:
        token = tracker.keep(round_["state"])
        answer["@odata.deltaLink"] = f"http://{host}{link_path}?" + urllib.parse.urlencode({"$deltatoken": token})
    return 200, answer


# =============================================================================================
# Attachments of events: list, get, $value, add (POST), upload sessions (createUploadSession, PUT)
# =============================================================================================
#
# Source: attachment resource type, https://learn.microsoft.com/graph/api/resources/attachment, and
# fileAttachment resource type, https://learn.microsoft.com/graph/api/resources/fileattachment:
# "@odata.type", id, name, contentType, size, isInline, lastModifiedDateTime; a file attachment adds
# contentBytes (base64). referenceAttachment (https://learn.microsoft.com/graph/api/resources/referenceattachment)
# has no members of its own on v1.0 (sourceUrl is beta only).
# Source: Attach large files to Outlook messages or events, https://learn.microsoft.com/graph/outlook-large-attachments:
# "under 3 MB, do a single POST on the attachments navigation property"; "between 3 MB and 150 MB,
# create an upload session"; PUTs of "up to 4 MB each time" with Content-Range and Content-Length;
# an intermediate PUT answers 200 with nextExpectedRanges (a single "{start}" for Outlook, see
# uploadSession resource type, https://learn.microsoft.com/graph/api/resources/uploadsession); the
# last answers 201 with a Location header naming the attachment; "Don't specify an Authorization
# request header": the uploadUrl is pre-authenticated.

# Docs: "under 3 MB" for POST. Silent on where exactly 3 MB is; strictest reading: 3,000,000 bytes
# of file (the decoded contentBytes), larger is refused as the service refuses an oversized request,
# 413 ErrorRequestEntityTooLarge (field: https://github.com/microsoftgraph/msgraph-sdk-dotnet/issues/1159).
ATTACHMENT_POST_LIMIT = 3_000_000
# Docs: "files up to 150 MB" with an upload session; strictest: 150 * 1024 * 1024 bytes.
ATTACHMENT_MAX = 150 * 1024 * 1024
# Docs: "up to 4 MB each time"; strictest: 4 * 1024 * 1024 bytes per PUT.
UPLOAD_CHUNK_MAX = 4 * 1024 * 1024
CONTENT_RANGE = re.compile(r"^bytes (\d+)-(\d+)/(\d+)$")


class RawBody:
    """An answer that is not JSON: a file attachment's raw contents (/$value)."""

    def __init__(self, data, content_type):
        self.data, self.content_type = data, content_type


def attachment_record(mailbox, event, name, content_type, data, route, inline=False):
    """Stores a file attachment on `event`; `route` ("post" or "uploadSession") is recorded for tests."""
    attachment_id = f"{event['id']}.att{len(event.setdefault('_attachments', [])) + 1:03d}"
    stored = {"@odata.type": "#microsoft.graph.fileAttachment", "id": attachment_id, "name": name,
              "contentType": content_type or "application/octet-stream", "size": len(data),
              "isInline": bool(inline), "lastModifiedDateTime": format_utc(dt.datetime.now(UTC)),
              "_data": data, "_route": route}
    event["_attachments"].append(stored)
    # Source: event resource, hasAttachments: "Set to true if the event has attachments."
    event["hasAttachments"] = True
    return stored


def render_attachment(stored, with_content, query=None):
    body = {k: v for k, v in stored.items() if not k.startswith("_")}
    if with_content and stored["@odata.type"] == "#microsoft.graph.fileAttachment":
        body["contentBytes"] = base64.b64encode(stored["_data"]).decode()
    selected = [n for n in (first(query or {}, "$select") or "").split(",") if n]
    if selected:
        # Source: Use query parameters, $select: only the members named (and id); @odata.type stays
        # so that a client can tell the derived types apart.
        body = {k: v for k, v in body.items() if k in selected or k in ("id", "@odata.type")}
    return body


def attachment_holder(mailbox, event_id, adding):
    """What holds the attachments of event `event_id`: the stored event (single or series master),
    or an exception's own record. Source: Add attachment (event-post-attachments) and List
    attachments (event-list-attachments) take POST and GET /me/events/{id}/attachments for an event
    id, and an exception is an event with an id of its own (event resource, type "exception";
    List instances). The docs are silent on what an exception starts with and on an occurrence not
    yet changed; strictest: an exception starts with no files of its own (the series' are not
    copied to it), and an unchanged occurrence shows its series' files but takes none (400), so a
    client must PATCH the occurrence, making it an exception, before attaching to it."""
    event, key = mailbox.lookup(event_id)
    if key is None:
        return event
    if key in event["_exceptions"]:
        holders = event["_exception_attachments"]
        # Only an attachment added makes a record: reading an exception's none leaves no trace in the dump.
        return holders.setdefault(key, {"id": event_id}) if adding else holders.get(key, {"id": event_id})
    if adding:
        raise GraphError(400, "ErrorInvalidRequest",
                         "An occurrence takes attachments only once it is an exception; update it first.")
    return event


def attachment_routes(handler, mailbox, method, parts, query, body):
    """The attachment routes under /events/{id}; None when `parts` is not one of them."""
    if len(parts) < 3 or parts[0] != "events" or parts[2] != "attachments":
        return None
    event = attachment_holder(mailbox, parts[1], adding=method == "POST")
    attachments = event.setdefault("_attachments", [])
    rest = parts[3:]
    # Source: List attachments, https://learn.microsoft.com/graph/api/event-list-attachments
    # (GET /me/events/{id}/attachments: a collection of attachment objects).
    if rest == [] and method == "GET":
        return 200, handler.page([render_attachment(a, True, query) for a in attachments], query, Preferences(None))
    # Source: Add attachment, https://learn.microsoft.com/graph/api/event-post-attachments: a
    # fileAttachment needs name and contentBytes; 201 with the attachment.
    if rest == [] and method == "POST":
        body = body or {}
        kind = body.get("@odata.type")
        if kind != "#microsoft.graph.fileAttachment":
            # Docs silent for v1.0 reference/item attachments created by calport; it sends none.
            raise GraphError(400, "ErrorInvalidRequest", f"Unsupported attachment type {kind!r}.")
        if not body.get("name") or not isinstance(body.get("contentBytes"), str):
            raise GraphError(400, "ErrorInvalidRequest", "A file attachment needs name and contentBytes.")
        try:
            data = base64.b64decode(body["contentBytes"], validate=True)
        except ValueError:
            raise GraphError(400, "ErrorInvalidRequest", "contentBytes is not base64.")
        if len(data) > ATTACHMENT_POST_LIMIT:
            raise GraphError(413, "ErrorRequestEntityTooLarge",
                             "The attachment is too large for this request; use an upload session.")
        stored = attachment_record(mailbox, event, body["name"], body.get("contentType"), data, "post",
                                   body.get("isInline"))
        return 201, render_attachment(stored, False)
    # Source: attachment: createUploadSession, https://learn.microsoft.com/graph/api/attachment-createuploadsession:
    # attachmentItem {attachmentType: "file", name, size (required), contentType, isInline}; 201 with an
    # uploadSession {uploadUrl, expirationDateTime, nextExpectedRanges: ["0-"]}.
    if rest == ["createUploadSession"] and method == "POST":
        item = (body or {}).get("AttachmentItem") or (body or {}).get("attachmentItem") or {}
        size = item.get("size")
        if item.get("attachmentType", "file") != "file" or not item.get("name") or not isinstance(size, int):
            raise GraphError(400, "ErrorInvalidRequest", "attachmentItem needs attachmentType file, name and size.")
        if size > ATTACHMENT_MAX:
            # Docs: "files up to 150 MB"; the error body is not documented, strictest seen: 413.
            raise GraphError(413, "ErrorRequestEntityTooLarge", f"The attachment size {size} exceeds the maximum of 150 MB.")
        if size <= 0:
            raise GraphError(400, "ErrorAttachmentSizeShouldNotBeLessThanMinimumSize",
                             "The attachment size must be greater than zero.")
        token = hashlib.sha256(os.urandom(16)).hexdigest()[:24]
        mailbox.upload_sessions[token] = {"event": parts[1], "name": item["name"],
                                          "contentType": item.get("contentType"), "size": size,
                                          "isInline": item.get("isInline"), "data": bytearray()}
        host = handler.headers.get("Host")
        expires = format_utc(dt.datetime.now(UTC) + dt.timedelta(hours=24))
        return 201, {"uploadUrl": f"http://{host}/_outlook/upload/{mailbox.index}/{token}?authtoken={token}",
                     "expirationDateTime": expires, "nextExpectedRanges": ["0-"]}
    # Source: Get attachment, https://learn.microsoft.com/graph/api/attachment-get: one attachment;
    # /$value is a file attachment's raw contents "based on its original content type"; "Attempting
    # to get the $value of a reference attachment returns HTTP 405".
    if len(rest) in (1, 2) and method == "GET":
        stored = next((a for a in attachments if a["id"] == rest[0]), None)
        if stored is None:
            raise not_found()
        if rest[1:] == ["$value"]:
            if stored["@odata.type"] == "#microsoft.graph.referenceAttachment":
                raise GraphError(405, "ErrorInvalidRequest", "The $value of a reference attachment is not available.")
            return 200, RawBody(bytes(stored["_data"]), stored["contentType"])
        if rest[1:] == []:
            return 200, render_attachment(stored, True, query)
    raise GraphError(400, "BadRequest", f"Unsupported request {method} /{'/'.join(parts)}.")


def upload_put(tenant, headers, path, raw):
    """A PUT to an uploadUrl: (status, JSON answer, headers). Source: Attach large files to Outlook
    messages or events (see above): Content-Range "bytes {start}-{end}/{total}" and Content-Length
    required; ranges in order, each up to 4 MB; no Authorization header."""
    parts = [p for p in path.split("/") if p]  # _outlook, upload, {mailbox index}, {token}
    if len(parts) != 4:
        return 404, {"error": {"code": "ErrorItemNotFound", "message": "Unknown upload session."}}, {}
    mailbox = next((m for m in tenant.mailboxes if str(m.index) == parts[2]), None)
    if headers.get("Authorization"):
        # Docs: "Don't specify an Authorization request header"; strictest: refused as Outlook does, 401.
        return 401, {"error": {"code": "InvalidAudienceForResource",
                               "message": "The uploadUrl is pre-authenticated; send no Authorization header."}}, {}
    if mailbox is None:
        return 404, {"error": {"code": "ErrorItemNotFound", "message": "Unknown upload session."}}, {}
    with mailbox.lock:
        session = mailbox.upload_sessions.get(parts[3])
        if session is None:
            return 404, {"error": {"code": "ErrorItemNotFound", "message": "Unknown upload session."}}, {}
        match = CONTENT_RANGE.match(headers.get("Content-Range") or "")
        if not match:
            return 400, {"error": {"code": "ErrorInvalidContentRange", "message": "Content-Range is missing or invalid."}}, {}
        start, end, total = (int(g) for g in match.groups())
        received = len(session["data"])
        if total != session["size"] or start != received or end < start or end - start + 1 != len(raw) \
                or end >= total:
            return 416, {"error": {"code": "ErrorInvalidContentRange",
                                   "message": f"Expected the range starting at {received} of {session['size']}."}}, {}
        if len(raw) > UPLOAD_CHUNK_MAX:
            return 413, {"error": {"code": "ErrorRequestEntityTooLarge", "message": "A PUT carries at most 4 MB."}}, {}
        session["data"] += raw
        mailbox.upload_puts += 1
        if len(session["data"]) < total:
            expires = format_utc(dt.datetime.now(UTC) + dt.timedelta(hours=24))
            return 200, {"expirationDateTime": expires, "nextExpectedRanges": [str(len(session["data"]))]}, {}
        del mailbox.upload_sessions[parts[3]]
        try:
            event = attachment_holder(mailbox, session["event"], adding=True)
        except GraphError:
            return 404, {"error": {"code": "ErrorItemNotFound", "message": "The event is gone."}}, {}
        stored = attachment_record(mailbox, event, session["name"], session["contentType"], bytes(session["data"]),
                                   "uploadSession", session["isInline"])
        location = f"https://outlook.office.com/api/v2.0/Users('{mailbox.user['id']}')/Events('{event['id']}')" \
                   f"/Attachments('{stored['id']}')"
        return 201, None, {"Location": location}


def attachment_dump(event):
    """What tests observe of an event's attachments: name, size, SHA-256 of the bytes, route used."""
    return [{"name": a["name"], "contentType": a["contentType"], "size": a["size"], "route": a["_route"],
             "sha256": hashlib.sha256(a["_data"]).hexdigest()} for a in event.get("_attachments", [])]


def seed_events(tenant, body):
    """Control (not Graph): creates each of `events` (bodies as for POST /me/events) in calendar
    `calendar` (default: the default one) of the first mailbox, or of `mailbox`, in one request, so
    that a measurement can fill a mailbox with thousands of events quickly."""
    mailbox = tenant.find(body["mailbox"]) if body.get("mailbox") else tenant.mailboxes[0]
    with mailbox.lock:
        calendar = body.get("calendar") or mailbox.calendars[0]["id"]
        return {"ids": [mailbox.create(calendar, event)[1]["id"] for event in body["events"]]}


def seed_attachment(tenant, body):
    """Control (not Graph): attaches the file at `path` to event `event` of the first mailbox, as a
    file attachment, or a reference/item attachment (`kind`) for tests of what export reports."""
    mailbox = tenant.find(body["mailbox"]) if body.get("mailbox") else tenant.mailboxes[0]
    with mailbox.lock:
        event = mailbox.events[body["event"]]
        data = open(body["path"], "rb").read() if body.get("path") else b""
        stored = attachment_record(mailbox, event, body["name"], body.get("contentType"), data, "seed")
        if body.get("kind") in ("reference", "item"):
            stored["@odata.type"] = f"#microsoft.graph.{body['kind']}Attachment"
        return {"id": stored["id"]}


# =============================================================================================
# Routes, per resource
# =============================================================================================

class Handler(BaseHTTPRequestHandler):
    server_version = "GraphEmulator/2.0"

    def log_message(self, format, *args):  # quiet: the tests read state, not logs
        pass

    def do_GET(self):
        self.handle_request("GET")

    def do_POST(self):
        self.handle_request("POST")

    def do_PATCH(self):
        self.handle_request("PATCH")

    def do_DELETE(self):
        self.handle_request("DELETE")

    def do_PUT(self):
        self.handle_request("PUT")

    # ----- plumbing

    @property
    def tenant(self):
        return self.server.tenant

    @property
    def args(self):
        return self.server.tenant.args

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send(self, status, body, headers=None):
        raw = isinstance(body, RawBody)
        data = body.data if raw else b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", body.content_type if raw else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def drop(self):
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def handle_request(self, method):
        url = urllib.parse.urlsplit(self.path)
        path, query = urllib.parse.unquote(url.path), urllib.parse.parse_qs(url.query)
        raw = self.read_body()
        if path.startswith("/_emulator/"):
            return self.control(method, path, query, raw)
        if "/oauth2/v2.0/" in path:
            return self.oauth(path, raw)
        if path.startswith("/_outlook/upload/") and method == "PUT":
            return self.send(*upload_put(self.tenant, self.headers, path, raw))
        version, _, rest = path.lstrip("/").partition("/")
        if version not in ("v1.0", "beta"):
            return self.send(400, {"error": {"code": "BadRequest", "message": f"Invalid version: {version}"}})
        self.serve_graph(method, version, "/" + rest, query, raw)

    def serve_graph(self, method, version, path, query, raw):
        args = self.args
        fault = self.next_fault()
        if fault == "drop":
            return self.drop()
        if fault in ("429", "503", "504"):
            headers = {"Retry-After": str(args.retry_after)} if fault == "429" else {}
            return self.send(int(fault), {"error": {"code": "TooManyRequests" if fault == "429" else "ServiceUnavailable",
                                                     "message": "injected fault"}}, headers)
        if fault == "500":
            # Source: Microsoft Graph error responses, https://learn.microsoft.com/graph/errors —
            # 500 Internal Server Error, code generalException ("An unspecified error has occurred").
            return self.send(500, {"error": {"code": "generalException", "message": "injected fault"}})
        if fault == "slow":
            time.sleep(args.slow_seconds)
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        principal = self.tenant.identity.principal(token)
        if principal is None:
            return self.send(401, {"error": {"code": "InvalidAuthenticationToken", "message": "Access token is empty or invalid."}})
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return self.send(400, {"error": {"code": "BadRequest", "message": "Invalid JSON."}})
        prefs = Preferences(self.headers.get("Prefer"))
        if path == "/$batch" and method == "POST":
            status, answer, headers = self.batch(version, body, principal, throttle_items=fault == "item429")
        else:
            try:
                mailbox, parts = self.tenant.open(principal, method, path)
            except GraphError as error:
                return self.send(error.status, error.body(), error.headers)
            status, answer, headers = self.operation(mailbox, method, version, parts, query, body, prefs)
        if fault == "drop-after":
            return self.drop()
        self.send(status, answer, headers)

    def operation(self, mailbox, method, version, parts, query, body, prefs):
        """One Outlook operation: it holds a slot of its mailbox while it runs, or is throttled."""
        if not mailbox.reserve(1):
            error = mailbox.concurrency_error()
            return error.status, error.body(), error.headers
        try:
            time.sleep(self.args.operation_seconds)
            return self.dispatch(mailbox, method, version, parts, query, body, prefs)
        finally:
            mailbox.release(1)

    def next_fault(self):
        tenant = self.tenant
        with tenant.lock:
            tenant.requests += 1
            every, kinds = tenant.args.fault_every, tenant.args.faults
            if not every or not kinds or tenant.requests % every:
                return None
            kind = kinds[tenant.faults % len(kinds)]
            tenant.faults += 1
            return kind

    def dispatch(self, mailbox, method, version, parts, query, body, prefs):
        try:
            with mailbox.lock:
                status, answer = self.route(mailbox, method, version, parts, query, body, prefs)
            return status, answer, prefs.applied()
        except GraphError as error:
            return error.status, error.body(), error.headers

    def route(self, mailbox, method, version, parts, query, body, prefs):
        """`parts`: the path after /me or /users/{id | userPrincipalName}, split at "/"."""
        path = "/" + "/".join(parts)
        # /me/calendars — Source: List calendars, https://learn.microsoft.com/graph/api/user-list-calendars,
        # and Create calendar, https://learn.microsoft.com/graph/api/user-post-calendars.
        if parts == ["calendars"] and method == "GET":
            return 200, self.page([dict(calendar) for calendar in mailbox.calendars], query, prefs)
        if parts == ["calendars"] and method == "POST":
            return mailbox.create_calendar(body)
        calendar = mailbox.calendars[0]["id"]
        if parts[:1] == ["calendars"] and len(parts) >= 3:
            calendar = parts[1]
            if calendar not in mailbox.calendar_ids():
                raise not_found()
            parts = parts[2:]
        # /me — Source: Get user, https://learn.microsoft.com/graph/api/user-get
        if parts == [] and method == "GET":
            return 200, dict(mailbox.user)
        # /me/mailboxSettings — Source: Get user mailbox settings,
        # https://learn.microsoft.com/graph/api/user-get-mailboxsettings (timeZone: a Windows id).
        if parts == ["mailboxSettings"] and method == "GET":
            return 200, {"timeZone": self.args.mailbox_zone}
        if parts == ["events"] and method == "POST":
            status, event = mailbox.create(calendar, body)
            return status, render(mailbox, event, prefs, version)
        if parts == ["events"] and method == "GET":
            check_members(version, query)
            return 200, self.page(list_events(mailbox, calendar, query, prefs, version), query, prefs)
        if parts == ["calendarView", "delta"] and method == "GET":
            return calendar_view_delta(mailbox, calendar, query, prefs, version,
                                       urllib.parse.urlsplit(self.path).path, self.headers.get("Host"))
        if parts == ["calendarView"] and method == "GET":
            check_members(version, query)
            start, end = parse_query_time(first(query, "startDateTime")), parse_query_time(first(query, "endDateTime"))
            # Only the page asked for is rendered, so that reading a large mailbox page by page
            # takes time linear in it (the answers are the same).
            return 200, self.page(mailbox.view(calendar, start, end), query, prefs,
                                  shown=lambda events: expand_all(
                                      mailbox, [render(mailbox, e, prefs, version, query) for e in events], query))
        attached = attachment_routes(self, mailbox, method, parts, query, body)
        if attached is not None:
            return attached
        if len(parts) == 2 and parts[0] == "events":
            if method == "GET":
                check_members(version, query)
                event, key = mailbox.lookup(parts[1])
                shown = mailbox.occurrence(event, key) if key else event
                return 200, expand_extended(mailbox, render(mailbox, shown, prefs, version, query), query)
            if method == "PATCH":
                status, event = mailbox.update(parts[1], body)
                return status, render(mailbox, event, prefs, version)
            if method == "DELETE":
                return mailbox.delete(parts[1])
        if len(parts) == 3 and parts[0] == "events" and parts[2] == "instances" and method == "GET":
            check_members(version, query)
            event, key = mailbox.lookup(parts[1])
            if key is not None or event["type"] != "seriesMaster":
                raise GraphError(400, "ErrorInvalidRequest", "Only a series master has instances.")
            start, end = parse_query_time(first(query, "startDateTime")), parse_query_time(first(query, "endDateTime"))
            items = expand_all(mailbox, [render(mailbox, i, prefs, version, query)
                                         for _, i in mailbox.instances(event, start, end)], query)
            return 200, self.page(items, query, prefs)
        raise GraphError(400, "BadRequest", f"Unsupported request {method} {path}.")

    def page(self, items, query, prefs, shown=lambda items: items):
        """Source: Paging Microsoft Graph data, https://learn.microsoft.com/graph/paging, and field
        reports (https://learn.microsoft.com/answers/questions/1488109): calendar collections come
        in pages of 10 unless Prefer: odata.maxpagesize asks for more, up to the service's cap;
        @odata.nextLink is the URL of the next page."""
        args = self.args
        size = min(prefs.max_page_size or args.page_size, args.max_page_size)
        skip = int(first(query, "$skiptoken", "0"))
        answer = {"value": shown(items[skip:skip + size])}
        if skip + size < len(items):
            rest = {k: v for k, v in query.items() if k != "$skiptoken"}
            rest["$skiptoken"] = [str(skip + size)]
            host = self.headers.get("Host")
            answer["@odata.nextLink"] = f"http://{host}{urllib.parse.urlsplit(self.path).path}?" + \
                urllib.parse.urlencode(rest, doseq=True)
        return answer

    def batch(self, version, body, principal, throttle_items):
        """Source: Combine multiple requests in one HTTP call using JSON batching,
        https://learn.microsoft.com/graph/json-batching: at most 20 requests; each answered in
        "responses" with its own status, headers and body; a request with a body needs a
        Content-Type; items run in parallel unless chained by dependsOn, and an item whose
        dependency failed is 424 Failed Dependency. Mailbox concurrency: see MAILBOX_CONCURRENCY —
        the items that would run beyond the mailbox's 4 get the 429 in their own response. The
        lanes are counted on the mailbox of the first item (the docs are silent on a batch that
        spans mailboxes; calport never sends one)."""
        requests = (body or {}).get("requests")
        if not isinstance(requests, list) or not requests:
            return 400, {"error": {"code": "BadRequest", "message": "Invalid batch payload format."}}, {}
        if len(requests) > 20:
            return 400, {"error": {"code": "BadRequest", "message": "Number of batch request steps exceeds the maximum of 20."}}, {}
        sequential = any(item.get("dependsOn") for item in requests)
        lanes = 1 if sequential else min(MAILBOX_CONCURRENCY, len(requests))
        try:
            first_path = urllib.parse.unquote(urllib.parse.urlsplit(requests[0].get("url", "")).path)
            lane_mailbox, _ = self.tenant.open(principal, requests[0].get("method", "GET"), first_path)
        except (GraphError, AttributeError):
            lane_mailbox = None
        granted = lane_mailbox.reserve(lanes) if lane_mailbox else lanes
        try:
            responses, statuses = [], {}
            for position, item in enumerate(requests):
                response = self.batch_item(version, item, position, lanes, granted, statuses, throttle_items,
                                           principal, lane_mailbox)
                statuses[str(item.get("id"))] = response["status"]
                responses.append(response)
                if position % lanes == lanes - 1:
                    time.sleep(self.args.operation_seconds)  # one wave of parallel items
            return 200, {"responses": responses}, {}
        finally:
            if lane_mailbox:
                lane_mailbox.release(granted)

    def batch_item(self, version, item, position, lanes, granted, statuses, throttle_items, principal, lane_mailbox):
        item_id = item.get("id")
        retry = {"Retry-After": str(self.args.retry_after)}
        if throttle_items and position % 3 == 0:
            return {"id": item_id, "status": 429, "headers": retry,
                    "body": {"error": {"code": "ApplicationThrottled", "message": "injected fault"}}}
        failed = [d for d in item.get("dependsOn") or [] if not 200 <= statuses.get(str(d), 0) < 300]
        if failed:
            return {"id": item_id, "status": 424, "body": {"error": {"code": "FailedDependency",
                                                                        "message": "A dependency failed."}}}
        if lane_mailbox and position % lanes >= granted:
            error = lane_mailbox.concurrency_error()
            return {"id": item_id, "status": 429, "headers": error.headers, "body": error.body()}
        if item.get("body") is not None and "content-type" not in {k.lower() for k in (item.get("headers") or {})}:
            return {"id": item_id, "status": 400, "body": {"error": {
                "code": "BadRequest", "message": "Content-Type header must be specified for a request with a body."}}}
        url = urllib.parse.urlsplit(item.get("url", ""))
        headers = {k.lower(): v for k, v in (item.get("headers") or {}).items()}
        method = item.get("method", "GET")
        try:
            mailbox, parts = self.tenant.open(principal, method, urllib.parse.unquote(url.path))
        except GraphError as error:
            return {"id": item_id, "status": error.status, "headers": error.headers, "body": error.body()}
        status, answer, headers = self.dispatch(mailbox, method, version, parts, urllib.parse.parse_qs(url.query),
                                                item.get("body"), Preferences(headers.get("prefer")))
        response = {"id": item_id, "status": status, "headers": headers}
        if answer is not None:
            response["body"] = answer
        return response

    # ----- identity platform

    def oauth(self, path, raw):
        form = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode()).items()}
        if self.headers.get("Content-Type", "").split(";")[0] != "application/x-www-form-urlencoded":
            return self.send(400, {"error": "invalid_request", "error_description": "form body expected"})
        token_url = f"http://{self.headers.get('Host')}{path}"
        status, answer = self.tenant.identity.token_endpoint(path, form, token_url)
        self.send(status, answer)

    # ----- control (not Graph)

    def control(self, method, path, query, raw):
        tenant = self.tenant
        with tenant.lock:
            if path == "/_emulator/state":
                wanted = first(query, "mailbox")
                mailbox = tenant.find(wanted) if wanted else tenant.mailboxes[0]
                if mailbox is None:
                    return self.send(404, {"error": f"no mailbox {wanted}"})
                with mailbox.lock:
                    return self.send(200, {**mailbox.dump(), **tenant.dump()})
            if path == "/_emulator/config" and method == "POST":
                for key, value in json.loads(raw or b"{}").items():
                    setattr(tenant.args, key, value)
                return self.send(200, {"ok": True})
            if path == "/_emulator/expire-delta" and method == "POST":
                for mailbox in tenant.mailboxes:
                    with mailbox.lock:
                        mailbox.delta.expire()
                return self.send(200, {"ok": True})
            if path == "/_emulator/seed" and method == "POST":
                return self.send(200, seed_events(tenant, json.loads(raw)))
            if path == "/_emulator/attach" and method == "POST":
                return self.send(200, seed_attachment(tenant, json.loads(raw)))
            if path == "/_emulator/revoke" and method == "POST":
                tenant.identity.revoke()
                return self.send(200, {"ok": True})
        return self.send(404, {"error": "unknown control endpoint"})


# =============================================================================================
# The directory: users, their mailboxes, and who may open which
# =============================================================================================

# Source: Use the Microsoft Graph API, https://learn.microsoft.com/graph/use-the-api, and Get user,
# https://learn.microsoft.com/graph/api/user-get: a user is addressed as /me (the signed-in user) or
# /users/{id | userPrincipalName}.
# Source: Microsoft Graph permissions reference, https://learn.microsoft.com/graph/permissions-reference
# (application permissions Calendars.Read, Calendars.ReadWrite, MailboxSettings.Read(Write),
# User.Read.All), and List events, https://learn.microsoft.com/graph/api/user-list-events
# ("Permissions": the same per route, delegated and application).
CALENDAR_ROLES = {"GET": {"Calendars.Read", "Calendars.ReadWrite"}}
SETTINGS_ROLES = {"MailboxSettings.Read", "MailboxSettings.ReadWrite"}
USER_ROLES = {"User.Read.All", "User.ReadWrite.All", "Directory.Read.All"}


def access_denied():
    # Source: field reports of another user's calendar opened without rights, delegated or app-only:
    # 403 ErrorAccessDenied "Access is denied. Check credentials and try again."
    # (https://github.com/microsoftgraph/microsoftgraph-postman-collections/issues/48,
    # https://github.com/microsoftgraph/msgraph-sdk-java/issues/616).
    return GraphError(403, "ErrorAccessDenied", "Access is denied. Check credentials and try again.")


def directory_denied():
    # Source: Get user, https://learn.microsoft.com/graph/api/user-get ("Permissions": another user's
    # profile needs User.Read.All or more); the directory's 403 is Authorization_RequestDenied
    # "Insufficient privileges to complete the operation." (Microsoft Graph error responses,
    # https://learn.microsoft.com/graph/errors).
    return GraphError(403, "Authorization_RequestDenied", "Insufficient privileges to complete the operation.")


class Tenant:
    """The directory the emulator serves: its mailboxes, its app registration, its sign-ins."""

    def __init__(self, args):
        self.lock = threading.RLock()
        self.args = args
        self.mailboxes = [Mailbox(args, index + 1, upn) for index, upn in enumerate(args.mailboxes)]
        for upn in args.delegate:
            mailbox = self.find(upn)
            if mailbox is None:
                raise SystemExit(f"--delegate {upn}: no such mailbox")
            mailbox.delegates.add(self.mailboxes[0].user["id"])
        self.identity = Identity(args, self.mailboxes[0].user["id"])
        self.requests = 0
        self.faults = 0

    def find(self, key):
        """The mailbox of a user id or userPrincipalName (which compares without case, as UPNs do)."""
        for mailbox in self.mailboxes:
            if key == mailbox.user["id"] or key.casefold() == mailbox.user["userPrincipalName"].casefold():
                return mailbox
        return None

    def open(self, principal, method, path):
        """(mailbox, path parts after the user) for /me/… or /users/{id | userPrincipalName}/…, after
        checking that the token's principal may do `method` there."""
        parts = [p for p in path.split("/") if p]
        if parts[:1] == ["me"]:
            if "app" in principal:
                # Source: field reports, e.g. https://github.com/microsoftgraph/msgraph-sdk-php/issues/1163:
                # /me with an app-only token is 400 BadRequest.
                raise GraphError(400, "BadRequest", "/me request is only valid with delegated authentication flow.")
            return self.find(principal["user"]), parts[1:]
        if parts[:1] != ["users"] or len(parts) < 2:
            raise GraphError(404, "BadRequest", f"Resource not found for the segment '{parts[0] if parts else ''}'.")
        mailbox = self.find(parts[1])
        if mailbox is None:
            # Docs silent; seen in the field: 404 ErrorInvalidUser for a user the directory lacks.
            raise GraphError(404, "ErrorInvalidUser", f"The requested user '{parts[1]}' is invalid.")
        rest = parts[2:]
        if "app" in principal:
            roles = principal["roles"]
            needed = (USER_ROLES if not rest else SETTINGS_ROLES if rest[:1] == ["mailboxSettings"]
                      else CALENDAR_ROLES.get(method, {"Calendars.ReadWrite"}))
            if not roles & needed:
                raise directory_denied() if not rest else access_denied()
        elif principal["user"] != mailbox.user["id"]:
            if not rest:
                raise directory_denied()  # calport asks for User.Read, the signed-in user's profile only
            if principal["user"] not in mailbox.delegates:
                raise access_denied()
        return mailbox, rest

    def dump(self):
        return {"requests": self.requests, "faults": self.faults,
                "refreshTokens": len(self.identity.refresh_tokens), "appTokensIssued": self.identity.app_issued,
                "mailboxes": [mailbox.summary() for mailbox in self.mailboxes]}


# =============================================================================================
# The identity platform: device code flow, refresh tokens, client credentials
# =============================================================================================

def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Certificate:
    """A registered certificate: its x5t (base64url SHA-1 of the DER) and its public key's PEM file."""

    def __init__(self, path):
        pem = open(path).read()
        der = base64.b64decode("".join(line for line in pem.splitlines() if line and not line.startswith("-----")))
        self.thumbprint = base64.urlsafe_b64encode(hashlib.sha1(der).digest()).rstrip(b"=").decode()
        # Kept in memory and written beside each signature checked: a file of its own outlived the
        # emulator, which the tests stop with a signal.
        self.public_key = subprocess.run(["openssl", "x509", "-in", path, "-pubkey", "-noout"], check=True,
                                         capture_output=True).stdout

    def verifies(self, data, signature):
        """RS256 (RSASSA-PKCS1-v1_5 with SHA-256), checked by the openssl command line."""
        with tempfile.TemporaryDirectory() as directory:
            data_path, signature_path = os.path.join(directory, "data"), os.path.join(directory, "signature")
            key_path = os.path.join(directory, "key.pem")
            for path, content in [(data_path, data), (signature_path, signature), (key_path, self.public_key)]:
                with open(path, "wb") as file:
                    file.write(content)
            result = subprocess.run(["openssl", "dgst", "-sha256", "-verify", key_path, "-signature",
                                     signature_path, data_path], capture_output=True)
            return result.returncode == 0


class Identity:
    """Source: Microsoft identity platform and the OAuth 2.0 device authorization grant flow,
    https://learn.microsoft.com/entra/identity-platform/v2-oauth2-device-code (the /devicecode
    answer; while polling: authorization_pending, slow_down, authorization_declined,
    bad_verification_code, expired_token), and Refresh tokens in the Microsoft identity platform,
    https://learn.microsoft.com/entra/identity-platform/refresh-tokens (a refresh token is replaced
    by a new one on every use; it can be revoked, and then is invalid_grant). Delegated tokens are
    the first mailbox's user's; app tokens (client credentials) are the registered app's, with the
    application roles it was granted (--app-roles)."""

    def __init__(self, args, user):
        self.args = args
        self.user = user
        self.access_tokens = {args.token: (float("inf"), {"user": user})} if args.token else {}
        self.refresh_tokens = set()
        self.device_codes = {}  # device_code -> {"left": polls before the user finishes, "last": time, "expires": time}
        self.issued = 0
        self.app_issued = 0
        self.certificates = {}  # path -> Certificate
        self.assertion_ids = set()  # jti values seen

    def now(self):
        """The identity platform's clock: this machine's, moved by --clock-skew."""
        return time.time() + self.args.clock_skew

    def principal(self, token):
        expires, principal = self.access_tokens.get(token, (0, None))
        return principal if expires > time.time() else None

    def revoke(self):
        self.refresh_tokens.clear()

    def token_endpoint(self, path, form, token_url):
        if not form.get("client_id"):
            return 400, {"error": "invalid_request", "error_description": "AADSTS900144: The request body must contain the following parameter: 'client_id'."}
        now = time.time()
        if path.endswith("/devicecode"):
            code = f"device-{len(self.device_codes) + 1}"
            self.device_codes[code] = {"left": self.args.pending_polls, "last": 0.0, "expires": now + self.args.device_code_lifetime}
            return 200, {"device_code": code, "user_code": "EMU-CODE", "interval": self.args.poll_interval,
                         "verification_uri": "https://microsoft.com/devicelogin", "expires_in": self.args.device_code_lifetime,
                         "message": "To sign in, enter the code EMU-CODE at https://microsoft.com/devicelogin"}
        grant = form.get("grant_type")
        if grant == "urn:ietf:params:oauth:grant-type:device_code":
            state = self.device_codes.get(form.get("device_code"))
            if state is None:
                return 400, {"error": "bad_verification_code", "error_description": "AADSTS70019: The device_code wasn't recognized."}
            if now >= state["expires"]:
                return 400, {"error": "expired_token", "error_description": "AADSTS70020: The provided value for the input parameter 'device_code' is not valid. This device code has expired."}
            too_soon = now - state["last"] < self.args.poll_interval
            state["last"] = now
            if too_soon:
                return 400, {"error": "slow_down", "error_description": "Polling too fast."}
            if state["left"] > 0:
                state["left"] -= 1
                return 400, {"error": "authorization_pending", "error_description": "AADSTS70016: OAuth 2.0 device flow error. Authorization is pending. Continue polling."}
            if self.args.device_outcome == "decline":
                return 400, {"error": "authorization_declined", "error_description": "AADSTS70000: The end user denied the authorization request."}
            if self.args.device_outcome == "expire":
                return 400, {"error": "expired_token", "error_description": "AADSTS70020: This device code has expired."}
            del self.device_codes[form["device_code"]]
            return 200, self.issue()
        if grant == "refresh_token":
            token = form.get("refresh_token")
            if token not in self.refresh_tokens:
                return 400, {"error": "invalid_grant", "error_description": "AADSTS700082: The refresh token has expired or was revoked."}
            # Strictest reading of rotation: the used refresh token is replaced, not kept.
            self.refresh_tokens.discard(token)
            return 200, self.issue()
        if grant == "client_credentials":
            return self.client_credentials(path, form, token_url)
        return 400, {"error": "unsupported_grant_type", "error_description": "AADSTS70003: The app requested an unsupported grant type."}

    def client_credentials(self, path, form, token_url):
        """Source: OAuth 2.0 client credentials flow, https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
        (client_id, scope "{resource}/.default", grant_type=client_credentials, and client_secret,
        or client_assertion_type urn:ietf:params:oauth:client-assertion-type:jwt-bearer with
        client_assertion; the answer has token_type, expires_in and access_token, no refresh token;
        the token carries the application roles an admin consented to, none without consent), and
        Microsoft identity platform certificate credentials,
        https://learn.microsoft.com/entra/identity-platform/certificate-credentials (the
        assertion: a JWT with alg RS256 and x5t, the certificate's base64url SHA-1 thumbprint; aud
        the token endpoint; iss and sub the client id; jti; nbf and exp). Error codes: AADSTS error
        codes, https://learn.microsoft.com/entra/identity-platform/reference-error-codes."""
        args, client = self.args, form["client_id"]
        tenant = path.strip("/").split("/")[0]
        if client != args.app_client_id:
            return 400, {"error": "unauthorized_client", "error_description": f"AADSTS700016: Application with identifier '{client}' was not found in the directory '{tenant}'."}
        if not form.get("scope", "").endswith("/.default"):
            return 400, {"error": "invalid_scope", "error_description": "AADSTS1002012: The provided value for scope is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI)."}
        if "client_secret" in form:
            if args.app_secret is None or form["client_secret"] != args.app_secret:
                return 401, {"error": "invalid_client", "error_description": f"AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '{client}'."}
        elif "client_assertion" in form:
            if form.get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
                return 400, {"error": "invalid_request", "error_description": "AADSTS50027: Invalid client_assertion_type."}
            refusal = self.check_assertion(form["client_assertion"], client, token_url)
            if refusal:
                return 401, {"error": "invalid_client", "error_description": refusal}
        else:
            return 401, {"error": "invalid_client", "error_description": "AADSTS7000218: The request body must contain the following parameter: 'client_assertion' or 'client_secret'."}
        self.app_issued += 1
        access = f"emu-app-access-{self.app_issued}-secret"
        roles = {role for role in args.app_roles.split(",") if role}
        self.access_tokens[access] = (time.time() + args.token_lifetime, {"app": client, "roles": roles})
        return 200, {"token_type": "Bearer", "expires_in": args.token_lifetime, "ext_expires_in": args.token_lifetime,
                     "access_token": access}

    def check_assertion(self, assertion, client, token_url):
        """None when the client assertion is good, else why it is refused (the AADSTS text)."""
        try:
            head, claims_text, signature_text = assertion.split(".")
            header, claims = json.loads(b64url_decode(head)), json.loads(b64url_decode(claims_text))
            signature = b64url_decode(signature_text)
        except (ValueError, TypeError):
            return "AADSTS50027: JWT token is invalid or malformed."
        if not isinstance(header, dict) or not isinstance(claims, dict) or header.get("alg") != "RS256":
            return "AADSTS50027: JWT token is invalid or malformed."
        path = self.args.app_certificate
        if path and path not in self.certificates:
            self.certificates[path] = Certificate(path)
        certificate = self.certificates.get(path)
        if certificate is None or header.get("x5t") != certificate.thumbprint:
            return f"AADSTS700027: Client assertion contains an invalid signature. [Reason - The key was not found., Thumbprint of key used by client: '{header.get('x5t')}']"
        if not certificate.verifies(f"{head}.{claims_text}".encode(), signature):
            return "AADSTS700027: Client assertion contains an invalid signature. [Reason - The provided signature value did not match the expected signature value.]"
        now = self.now()
        expires, starts = claims.get("exp"), claims.get("nbf", 0)
        if not isinstance(expires, (int, float)) or expires <= now or starts > now:
            stamp = dt.datetime.fromtimestamp(now, UTC).isoformat()
            return f"AADSTS700024: Client assertion is not within its valid time range. Current time: {stamp}, expiry time of assertion {dt.datetime.fromtimestamp(expires if isinstance(expires, (int, float)) else 0, UTC).isoformat()}."
        # Docs silent on the codes for a wrong audience, issuer or a replayed jti; the strictest
        # reading: each is refused as invalid_client.
        if claims.get("aud") != token_url:
            return f"AADSTS700212: The audience of the client assertion '{claims.get('aud')}' is not the token endpoint '{token_url}'."
        if claims.get("iss") != client or claims.get("sub") != client:
            return "AADSTS700023: The client assertion's issuer and subject must be the client id."
        if not claims.get("jti") or claims["jti"] in self.assertion_ids:
            return "AADSTS700236: The client assertion's jti is missing or was already used."
        self.assertion_ids.add(claims["jti"])
        return None

    def issue(self):
        self.issued += 1
        access, refresh = f"emu-access-{self.issued}-secret", f"emu-refresh-{self.issued}-secret"
        self.access_tokens[access] = (time.time() + self.args.token_lifetime, {"user": self.user})
        self.refresh_tokens.add(refresh)
        return {"token_type": "Bearer", "access_token": access, "refresh_token": refresh,
                "expires_in": self.args.token_lifetime, "scope": "Calendars.ReadWrite User.Read MailboxSettings.Read"}


def mailbox_list(text):
    """--mailboxes: a count (user@example.com, user2@example.com, …) or a list of UPNs."""
    if text.isdigit():
        return ["user@example.com"] + [f"user{index}@example.com" for index in range(2, int(text) + 1)]
    return [upn for upn in text.split(",") if upn]


def first(query, name, default=None):
    return query.get(name, [default])[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", default=None, help="a bearer token accepted without signing in")
    parser.add_argument("--page-size", type=int, default=10, help="Graph's page size without odata.maxpagesize")
    parser.add_argument("--max-page-size", type=int, default=1000, help="the largest odata.maxpagesize honoured")
    parser.add_argument("--mailbox-zone", default="Pacific Standard Time")
    parser.add_argument("--operation-seconds", type=float, default=0.0, help="how long each operation holds its mailbox slot")
    parser.add_argument("--fault-every", type=int, default=0, help="every Nth Graph request gets the next fault")
    parser.add_argument("--faults", type=lambda text: [f for f in text.split(",") if f], default=[],
                        help="cycle of 429,500,503,504,drop,drop-after,slow,item429")
    parser.add_argument("--retry-after", type=int, default=1)
    parser.add_argument("--slow-seconds", type=float, default=0.5)
    parser.add_argument("--token-lifetime", type=int, default=3600)
    parser.add_argument("--poll-interval", type=int, default=0)
    parser.add_argument("--pending-polls", type=int, default=2)
    parser.add_argument("--device-code-lifetime", type=int, default=900)
    parser.add_argument("--device-outcome", choices=["approve", "decline", "expire"], default="approve")
    parser.add_argument("--mailboxes", type=mailbox_list, default=["user@example.com"],
                        help="N, or UPNs separated by commas: the tenant's mailboxes (user@example.com, user2@…)")
    parser.add_argument("--delegate", action="append", default=[],
                        help="a UPN whose mailbox the signed-in (first) user has Full Access to")
    parser.add_argument("--app-client-id", default=None, help="the registered app's client id (client credentials)")
    parser.add_argument("--app-secret", default=None, help="its client secret")
    parser.add_argument("--app-certificate", default=None, help="its certificate (PEM), for client assertions")
    parser.add_argument("--app-roles", default="Calendars.ReadWrite,MailboxSettings.Read,User.Read.All",
                        help="the application roles consented for it, separated by commas (empty: no consent)")
    parser.add_argument("--clock-skew", type=float, default=0.0, help="seconds the identity platform's clock is ahead")
    args = parser.parse_args()
    # A parent may have blocked these (Foundation's Process passes its mask on); stop when asked.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.tenant = Tenant(args)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
