#!/usr/bin/env python3
"""A Microsoft Graph calendar emulator for calport's tests (Python 3 standard library only).

It serves, on 127.0.0.1 only, what calport uses: /me, /me/mailboxSettings, events (POST, GET,
PATCH, DELETE), calendarView and instances with paging, JSON $batch, and the identity platform's
device code and token endpoints. It validates bodies the way the service does (required fields,
known time zone names, all-day events at midnight, read-only members, transactionId dedupe) and
injects faults: 429 with Retry-After, 503, 504, dropped connections before or after the request
is carried out, slow answers, and throttled items inside a $batch.

    python3 graph_emulator.py [--port 0] [--token T] [--fault-every N] [--faults 429,503,drop,...]

prints "PORT <n>" once listening. Control endpoints (no auth): GET /_emulator/state,
POST /_emulator/config (JSON with any of the command-line settings).
"""

import argparse
import datetime as dt
import hashlib
import json
import re
import signal
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

API = "/v1.0"
UTC = dt.timezone.utc

# The Windows zone names the tests use, as CLDR maps them (windowsZones.xml, territory 001).
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

# Members Graph sets itself; a POST or PATCH that carries them is refused.
READ_ONLY = {
    "id", "iCalUId", "createdDateTime", "lastModifiedDateTime", "changeKey", "type", "seriesMasterId",
    "originalStart", "isCancelled", "webLink", "cancelledOccurrences", "exceptionOccurrences", "isOrganizer",
}

PATTERNS = {"daily", "weekly", "absoluteMonthly", "relativeMonthly", "absoluteYearly", "relativeYearly"}
INDEXES = ["first", "second", "third", "fourth"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


class GraphError(Exception):
    """An error answer: status, Graph error code and message."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def zone(name):
    """The tzinfo for a Windows or IANA name, or a 400 as Graph answers for an unknown zone."""
    iana = WINDOWS_ZONES.get(name, name)
    try:
        return ZoneInfo(iana)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise GraphError(400, "TimeZoneNotSupportedException",
                         f"A valid TimeZone value must be specified. The following TimeZone value is not supported: '{name}'.")


def parse_local(text):
    """A Graph dateTime (7 fraction digits allowed) as a naive datetime."""
    try:
        return dt.datetime.fromisoformat(text[:19])
    except (TypeError, ValueError):
        raise GraphError(400, "RequestBodyRead", f"Cannot convert the literal '{text}' to a dateTime.")


def parse_query_time(text):
    """A calendarView bound: with an offset as given, without one as UTC."""
    if text is None:
        raise GraphError(400, "ErrorInvalidParameter", "startDateTime and endDateTime are required.")
    value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def format_local(value):
    return value.strftime("%Y-%m-%dT%H:%M:%S") + ".0000000"


def format_utc(value):
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_utc(date_time_zone):
    return parse_local(date_time_zone["dateTime"]).replace(tzinfo=zone(date_time_zone["timeZone"])).astimezone(UTC)


class Store:
    """Every calendar's events, behind one lock."""

    def __init__(self, args):
        self.lock = threading.RLock()
        self.args = args
        self.events = {}  # id -> stored event (masters keep "_exceptions" and "_cancelled")
        self.transactions = {}  # transactionId -> id
        self.calendars = ["AAMkDefault", "AAMkSecond"]
        self.next_id = 1
        self.tokens = {args.token: float("inf")} if args.token else {}
        self.refresh_tokens = set()
        self.device_codes = {}  # device_code -> polls left before sign-in completes
        self.requests = 0
        self.faults = 0
        self.in_flight = 0
        self.max_in_flight = 0  # most Graph requests being served at once

    # ----- validation, as the service does it

    def validate(self, body, creating):
        if not isinstance(body, dict):
            raise GraphError(400, "RequestBodyRead", "The request body must be a JSON object.")
        for key in body:
            if key in READ_ONLY or key.startswith("@"):
                raise GraphError(400, "RequestBodyRead", f"The property '{key}' cannot be set.")
        if creating:
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
        if body.get("isAllDay"):
            for key in ("start", "end"):
                if key in body and parse_local(body[key]["dateTime"]).time() != dt.time(0, 0):
                    raise GraphError(400, "ErrorPropertyValidationFailure",
                                     "Your request can't be completed. If the event is an all-day event, it has to start and end at midnight.")
        if "recurrence" in body and body["recurrence"] is not None:
            recurrence = body["recurrence"]
            pattern, range_ = recurrence.get("pattern", {}), recurrence.get("range", {})
            if pattern.get("type") not in PATTERNS:
                raise GraphError(400, "ErrorInvalidRecurrence", f"Unsupported pattern type {pattern.get('type')!r}.")
            if range_.get("type") not in ("endDate", "noEnd", "numbered") or "startDate" not in range_:
                raise GraphError(400, "ErrorInvalidRecurrence", "The recurrence range is invalid.")
            if range_.get("recurrenceTimeZone"):
                zone(range_["recurrenceTimeZone"])

    # ----- events

    def create(self, calendar, body):
        self.validate(body, creating=True)
        transaction = body.get("transactionId")
        if transaction and transaction in self.transactions:
            return 200, self.render(self.events[self.transactions[transaction]], None)
        event_id = f"evt{self.next_id:05d}"
        self.next_id += 1
        stamp = format_utc(dt.datetime.now(UTC)).replace("Z", ".0000000Z")
        event = dict(body)
        extended = take_extended(event)
        event.update({
            "id": event_id, "calendar": calendar,
            "iCalUId": "040000008200E00074C5B7101A82E008" + hashlib.sha1(event_id.encode()).hexdigest().upper(),
            "createdDateTime": stamp, "lastModifiedDateTime": stamp,
            "type": "seriesMaster" if body.get("recurrence") else "singleInstance",
            "originalStartTimeZone": body["start"]["timeZone"], "originalEndTimeZone": body["end"]["timeZone"],
            "_exceptions": {}, "_cancelled": set(), "_extended": extended, "_exception_extended": {},
        })
        self.events[event_id] = event
        if transaction:
            self.transactions[transaction] = event_id
        return 201, self.render(event, None)

    def lookup(self, event_id):
        """(master or single event, original start key or None) for an event or occurrence id."""
        master_id, _, key = event_id.partition(".occ.")
        event = self.events.get(master_id)
        if event is None:
            raise GraphError(404, "ErrorItemNotFound", "The specified object was not found in the store.")
        if key:
            if event["type"] != "seriesMaster" or key in event["_cancelled"] or key not in {
                    occ_key for occ_key, _ in self.occurrences(event, None)}:
                raise GraphError(404, "ErrorItemNotFound", "The specified object was not found in the store.")
            return event, key
        return event, None

    def update(self, event_id, body):
        self.validate(body, creating=False)
        event, key = self.lookup(event_id)
        body = dict(body)
        extended = take_extended(body)
        if key is None:
            event.update(body)
            event["_extended"].update(extended)
        else:
            event["_exceptions"].setdefault(key, {}).update(body)
            event["_exception_extended"].setdefault(key, {}).update(extended)
        return 200, self.render(event, key)

    def delete(self, event_id):
        event, key = self.lookup(event_id)
        if key is None:
            del self.events[event["id"]]
        else:
            event["_cancelled"].add(key)
            event["_exceptions"].pop(key, None)
        return 204, None

    # ----- recurrence expansion: the six pattern types Graph has

    def pattern_dates(self, recurrence, until_date):
        pattern, range_ = recurrence["pattern"], recurrence["range"]
        interval = max(int(pattern.get("interval", 1)), 1)
        day = dt.date.fromisoformat(range_["startDate"])
        last = dt.date.fromisoformat(range_["endDate"]) if range_["type"] == "endDate" else until_date
        remaining = int(range_.get("numberOfOccurrences", 0)) if range_["type"] == "numbered" else None
        kind = pattern["type"]
        first_day = WEEKDAYS.index(pattern.get("firstDayOfWeek", "sunday"))
        week_start = day - dt.timedelta(days=(day.weekday() - first_day) % 7)
        start = day
        while day <= last and (remaining is None or remaining > 0):
            if kind == "daily":
                match = (day - start).days % interval == 0
            elif kind == "weekly":
                weeks = (day - week_start).days // 7
                match = weeks % interval == 0 and WEEKDAYS[day.weekday()] in pattern.get("daysOfWeek", [])
            elif kind in ("absoluteMonthly", "relativeMonthly"):
                months = (day.year - start.year) * 12 + day.month - start.month
                match = months % interval == 0 and on_day(pattern, day)
            else:
                match = (day.year - start.year) % interval == 0 and day.month == pattern.get("month") \
                    and on_day(pattern, day)
            if match:
                yield day
                if remaining is not None:
                    remaining -= 1
            day += dt.timedelta(days=1)

    def occurrences(self, master, window_end):
        """(original start key, occurrence start UTC) of every uncancelled occurrence up to window_end."""
        local = parse_local(master["start"]["dateTime"])
        tz = zone(master["start"]["timeZone"])
        horizon = (window_end or dt.datetime(2100, 1, 1, tzinfo=UTC)).date() + dt.timedelta(days=2)
        for day in self.pattern_dates(master["recurrence"], horizon):
            start = dt.datetime.combine(day, local.time()).replace(tzinfo=tz).astimezone(UTC)
            key = format_utc(start)
            if key not in master["_cancelled"]:
                yield key, start

    def instances(self, master, window_start, window_end, out_zone):
        duration = to_utc(master["end"]) - to_utc(master["start"])
        result = []
        for key, start in self.occurrences(master, window_end):
            instance = self.render(master, key, out_zone, occurrence_start=start, duration=duration)
            begin, end = to_utc(instance["start"]), to_utc(instance["end"])
            if window_start is None or (begin < window_end and end > window_start) or \
                    (begin == end and window_start <= begin < window_end):
                result.append((begin, instance))
        return result

    # ----- rendering

    def render(self, event, key, out_zone=None, occurrence_start=None, duration=None):
        """The event (or its occurrence at key) as Graph returns it, times in out_zone (else as stored)."""
        body = {k: v for k, v in event.items() if not k.startswith("_") and k != "calendar"}
        if key is not None:
            if occurrence_start is None:
                occurrence_start = dt.datetime.fromisoformat(key.replace("Z", "+00:00"))
                duration = to_utc(event["end"]) - to_utc(event["start"])
            tz = event["start"]["timeZone"]
            local_start = occurrence_start.astimezone(zone(tz))
            body.update({
                "id": f"{event['id']}.occ.{key}", "seriesMasterId": event["id"], "type": "occurrence",
                "originalStart": key, "recurrence": None, "transactionId": None,
                "iCalUId": event["iCalUId"] + hashlib.sha1(key.encode()).hexdigest()[:16].upper(),
                "start": {"dateTime": format_local(local_start.replace(tzinfo=None)), "timeZone": tz},
                "end": {"dateTime": format_local((local_start + duration).replace(tzinfo=None)), "timeZone": tz},
            })
            if key in event["_exceptions"]:
                body.update(event["_exceptions"][key])
                body["type"] = "exception"
        elif event["type"] == "seriesMaster":
            body["cancelledOccurrences"] = [
                f"OID.{event['id']}.{dt.datetime.fromisoformat(k.replace('Z', '+00:00')).astimezone(zone(event['start']['timeZone'])).date().isoformat()}"
                for k in sorted(event["_cancelled"])]
        if out_zone:
            for name in ("start", "end"):
                if body.get("isAllDay"):
                    body[name] = {"dateTime": body[name]["dateTime"], "timeZone": out_zone}
                else:
                    local = to_utc(body[name]).astimezone(zone(out_zone)).replace(tzinfo=None)
                    body[name] = {"dateTime": format_local(local), "timeZone": out_zone}
        return body

    def exceptions_of(self, master, out_zone):
        return [self.render(master, key, out_zone) for key in sorted(master["_exceptions"])]

    def view(self, calendar, window_start, window_end, out_zone):
        found = []
        for event in self.events.values():
            if event["calendar"] != calendar:
                continue
            if event["type"] == "seriesMaster":
                found += self.instances(event, window_start, window_end, out_zone)
            else:
                begin, end = to_utc(event["start"]), to_utc(event["end"])
                if begin < window_end and (end > window_start or (begin == end and begin >= window_start)):
                    found.append((begin, self.render(event, None, out_zone)))
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
            events.append(entry)
        return {"events": events, "requests": self.requests, "faults": self.faults, "maxInFlight": self.max_in_flight}


class Handler(BaseHTTPRequestHandler):
    server_version = "GraphEmulator/1.0"

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

    # ----- plumbing

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send(self, status, body, headers=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
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
        store = self.server.store
        url = urllib.parse.urlsplit(self.path)
        path, query = urllib.parse.unquote(url.path), urllib.parse.parse_qs(url.query)
        raw = self.read_body()
        if path.startswith("/_emulator/"):
            return self.control(method, path, raw)
        if "/oauth2/v2.0/" in path:
            return self.oauth(path, raw)
        with store.lock:
            store.in_flight += 1
            store.max_in_flight = max(store.max_in_flight, store.in_flight)
        try:
            self.serve_graph(method, path, query, raw)
        finally:
            with store.lock:
                store.in_flight -= 1

    def serve_graph(self, method, path, query, raw):
        store = self.server.store
        fault = self.next_fault()
        if fault == "drop":
            return self.drop()
        if fault in ("429", "503", "504"):
            headers = {"Retry-After": str(store.args.retry_after)} if fault == "429" else {}
            return self.send(int(fault), {"error": {"code": "TooManyRequests" if fault == "429" else "ServiceUnavailable",
                                                     "message": "injected fault"}}, headers)
        if fault == "slow":
            time.sleep(store.args.slow_seconds)
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        with store.lock:
            valid = store.tokens.get(token, 0) > time.time()
        if not valid:
            return self.send(401, {"error": {"code": "InvalidAuthenticationToken", "message": "Access token is empty or invalid."}})
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return self.send(400, {"error": {"code": "BadRequest", "message": "Invalid JSON."}})
        if path == API + "/$batch" and method == "POST":
            status, answer, headers = self.batch(body, throttle_items=fault == "item429")
        else:
            status, answer, headers = self.dispatch(method, path, query, body, self.prefer())
        if fault == "drop-after":
            return self.drop()
        self.send(status, answer, headers)

    def next_fault(self):
        store = self.server.store
        with store.lock:
            store.requests += 1
            every, kinds = store.args.fault_every, store.args.faults
            if not every or not kinds or store.requests % every:
                return None
            kind = kinds[store.faults % len(kinds)]
            store.faults += 1
            return kind

    def prefer(self):
        """The Prefer header's outlook.timezone, if any."""
        for part in (self.headers.get("Prefer") or "").split(","):
            name, _, value = part.strip().partition("=")
            if name == "outlook.timezone":
                return value.strip('"')
        return None

    # ----- Graph

    def dispatch(self, method, path, query, body, out_zone):
        store = self.server.store
        try:
            with store.lock:
                status, answer = self.route(method, path, query, body, out_zone)
            return status, answer, {}
        except GraphError as error:
            return error.status, {"error": {"code": error.code, "message": error.message}}, {}

    def route(self, method, path, query, body, out_zone):
        store = self.server.store
        if not path.startswith(API + "/me"):
            raise GraphError(404, "BadRequest", f"Resource not found for the segment '{path}'.")
        parts = path[len(API) + 1:].split("/")[1:]  # after "me"
        calendar = store.calendars[0]
        if parts[:1] == ["calendars"] and len(parts) >= 3:
            calendar = parts[1]
            if calendar not in store.calendars:
                raise GraphError(404, "ErrorItemNotFound", "The specified object was not found in the store.")
            parts = parts[2:]
        if parts == [] and method == "GET":
            return 200, {"id": "user-1", "displayName": "Emulated User", "mail": "user@example.com",
                         "userPrincipalName": "user@example.com"}
        if parts == ["mailboxSettings"] and method == "GET":
            return 200, {"timeZone": store.args.mailbox_zone}
        if parts == ["events"] and method == "POST":
            return store.create(calendar, body)
        if parts == ["events"] and method == "GET":
            return 200, self.page(list_events(store, calendar, query), query)
        if parts == ["calendarView"] and method == "GET":
            start, end = parse_query_time(first(query, "startDateTime")), parse_query_time(first(query, "endDateTime"))
            return 200, self.page(expand_all(store, store.view(calendar, start, end, out_zone), query), query)
        if len(parts) == 2 and parts[0] == "events":
            if method == "GET":
                event, key = store.lookup(parts[1])
                answer = store.render(event, key, out_zone)
                if key is None and "exceptionOccurrences" in first(query, "$expand", ""):
                    answer["exceptionOccurrences"] = store.exceptions_of(event, out_zone)
                return 200, expand_extended(store, answer, query)
            if method == "PATCH":
                return store.update(parts[1], body)
            if method == "DELETE":
                return store.delete(parts[1])
        if len(parts) == 3 and parts[0] == "events" and parts[2] == "instances" and method == "GET":
            event, key = store.lookup(parts[1])
            if key is not None or event["type"] != "seriesMaster":
                raise GraphError(400, "ErrorInvalidRequest", "Only a series master has instances.")
            start, end = parse_query_time(first(query, "startDateTime")), parse_query_time(first(query, "endDateTime"))
            return 200, self.page([i for _, i in store.instances(event, start, end, out_zone)], query)
        raise GraphError(400, "BadRequest", f"Unsupported request {method} {path}.")

    def page(self, items, query):
        size = self.server.store.args.page_size
        skip = int(first(query, "$skiptoken", "0"))
        answer = {"value": items[skip:skip + size]}
        if skip + size < len(items):
            rest = {k: v for k, v in query.items() if k != "$skiptoken"}
            rest["$skiptoken"] = [str(skip + size)]
            host = self.headers.get("Host")
            answer["@odata.nextLink"] = f"http://{host}{urllib.parse.urlsplit(self.path).path}?" + \
                urllib.parse.urlencode(rest, doseq=True)
        return answer

    def batch(self, body, throttle_items):
        requests = (body or {}).get("requests")
        if not isinstance(requests, list) or not requests:
            return 400, {"error": {"code": "BadRequest", "message": "Invalid batch payload format."}}, {}
        if len(requests) > 20:
            return 400, {"error": {"code": "BadRequest", "message": "Number of batch request steps exceeds the maximum of 20."}}, {}
        responses = []
        for position, item in enumerate(requests):
            if throttle_items and position % 3 == 0:
                responses.append({"id": item.get("id"), "status": 429,
                                  "headers": {"Retry-After": str(self.server.store.args.retry_after)},
                                  "body": {"error": {"code": "ApplicationThrottled", "message": "injected fault"}}})
                continue
            if item.get("body") is not None and "content-type" not in {k.lower() for k in (item.get("headers") or {})}:
                responses.append({"id": item.get("id"), "status": 400, "body": {"error": {
                    "code": "BadRequest", "message": "Content-Type header must be specified for a request with a body."}}})
                continue
            url = urllib.parse.urlsplit(item.get("url", ""))
            status, answer, headers = self.dispatch(item.get("method", "GET"), API + urllib.parse.unquote(url.path),
                                                    urllib.parse.parse_qs(url.query), item.get("body"), None)
            response = {"id": item.get("id"), "status": status, "headers": headers}
            if answer is not None:
                response["body"] = answer
            responses.append(response)
        return 200, {"responses": responses}, {}

    # ----- identity platform

    def oauth(self, path, raw):
        store = self.server.store
        form = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode()).items()}
        if self.headers.get("Content-Type", "").split(";")[0] != "application/x-www-form-urlencoded":
            return self.send(400, {"error": "invalid_request", "error_description": "form body expected"})
        if not form.get("client_id"):
            return self.send(400, {"error": "invalid_request", "error_description": "client_id is missing"})
        with store.lock:
            if path.endswith("/devicecode"):
                code = f"device-{len(store.device_codes) + 1}"
                store.device_codes[code] = store.args.pending_polls
                return self.send(200, {"device_code": code, "user_code": "EMU-CODE", "interval": store.args.poll_interval,
                                       "verification_uri": "https://microsoft.com/devicelogin", "expires_in": 900,
                                       "message": "To sign in, enter the code EMU-CODE at https://microsoft.com/devicelogin"})
            grant = form.get("grant_type")
            if grant == "urn:ietf:params:oauth:grant-type:device_code":
                left = store.device_codes.get(form.get("device_code"))
                if left is None:
                    return self.send(400, {"error": "expired_token", "error_description": "unknown device code"})
                if left > 0:
                    store.device_codes[form["device_code"]] = left - 1
                    return self.send(400, {"error": "authorization_pending", "error_description": "pending"})
                return self.send(200, self.issue())
            if grant == "refresh_token":
                if form.get("refresh_token") not in store.refresh_tokens:
                    return self.send(400, {"error": "invalid_grant", "error_description": "bad refresh token"})
                return self.send(200, self.issue())
        return self.send(400, {"error": "unsupported_grant_type", "error_description": "unsupported grant"})

    def issue(self):
        store = self.server.store
        count = len(store.tokens) + len(store.refresh_tokens)
        access, refresh = f"emu-access-{count}-secret", f"emu-refresh-{count}-secret"
        store.tokens[access] = time.time() + store.args.token_lifetime
        store.refresh_tokens.add(refresh)
        return {"token_type": "Bearer", "access_token": access, "refresh_token": refresh,
                "expires_in": store.args.token_lifetime, "scope": "Calendars.ReadWrite User.Read MailboxSettings.Read"}

    # ----- control

    def control(self, method, path, raw):
        store = self.server.store
        with store.lock:
            if path == "/_emulator/state":
                return self.send(200, store.dump())
            if path == "/_emulator/config" and method == "POST":
                for key, value in json.loads(raw or b"{}").items():
                    setattr(store.args, key, value)
                return self.send(200, {"ok": True})
        return self.send(404, {"error": "unknown control endpoint"})


# ----- single-value extended properties
#
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


def list_events(store, calendar, query):
    """GET /events: series masters and single events of the calendar, optionally filtered."""
    wanted = None
    text = first(query, "$filter")
    if text is not None:
        match = ANY_FILTER.match(text.strip())
        if not match:
            raise GraphError(400, "ErrorInvalidUrlQueryFilter", f"The query filter '{text}' is not supported.")
        wanted = (extended_key(odata_literal(match.group(2))), odata_literal(match.group(3)).lower())
    found = []
    for event in store.events.values():
        if event["calendar"] != calendar:
            continue
        if wanted is not None:
            stored = event["_extended"].get(wanted[0])
            if stored is None or stored[1].lower() != wanted[1]:
                continue
        found.append(expand_extended(store, store.render(event, None), query))
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


def expand_extended(store, answer, query):
    """answer with the singleValueExtendedProperties $expand asks for (only the ones it has)."""
    keys = requested_extended(query)
    if keys is None:
        return answer
    master_id, _, key = answer["id"].partition(".occ.")
    event = store.events.get(master_id)
    if event is None:
        return answer
    stored = event["_exception_extended"].get(key, {}) if key else event["_extended"]
    answer["singleValueExtendedProperties"] = [
        {"id": stored[k][0], "value": stored[k][1]} for k in keys if k in stored]
    return answer


def expand_all(store, answers, query):
    return [expand_extended(store, answer, query) for answer in answers]


def on_day(pattern, day):
    """Whether an absolute pattern's dayOfMonth, or a relative one's index and daysOfWeek, is this day."""
    if pattern["type"].startswith("absolute"):
        return day.day == pattern.get("dayOfMonth")
    if WEEKDAYS[day.weekday()] not in pattern.get("daysOfWeek", []):
        return False
    index = pattern.get("index", "first")
    if index == "last":
        return (day + dt.timedelta(days=7)).month != day.month
    return INDEXES.index(index) == (day.day - 1) // 7


def first(query, name, default=None):
    return query.get(name, [default])[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", default=None, help="a bearer token accepted without signing in")
    parser.add_argument("--page-size", type=int, default=10)
    parser.add_argument("--mailbox-zone", default="Pacific Standard Time")
    parser.add_argument("--fault-every", type=int, default=0, help="every Nth Graph request gets the next fault")
    parser.add_argument("--faults", type=lambda text: [f for f in text.split(",") if f], default=[],
                        help="cycle of 429,503,504,drop,drop-after,slow,item429")
    parser.add_argument("--retry-after", type=int, default=1)
    parser.add_argument("--slow-seconds", type=float, default=0.5)
    parser.add_argument("--token-lifetime", type=int, default=3600)
    parser.add_argument("--poll-interval", type=int, default=0)
    parser.add_argument("--pending-polls", type=int, default=2)
    args = parser.parse_args()
    # A parent may have blocked these (Foundation's Process passes its mask on); stop when asked.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.store = Store(args)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
