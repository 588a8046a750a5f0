#!/usr/bin/env python3
"""Splits a data folder (the contract's layout) into one folder per month, as
an app that exports monthly would deliver it, for the incremental bench.

    scripts/split-months.py DATA OUT PERIOD

Each log row goes to the month of its own date (an expense version by its
updatedAt, a settlement by its date, a swipe, check-in or subscription event
by its timestamp, a health row by its day, an App Store Connect report row by
its Event Date); rows dated after PERIOD go to PERIOD's folder, so loading
every folder up to PERIOD loads every row. The reference tables (couples,
members, cards, fx, agreements, challenges, memberships, swipe users,
products, connections) are carried whole by every month, as each month's
export carries the current copy; Apple Health exports go to the first month.
A line whose date cannot be read (a bad row, or the rest of a quoted field
over several lines) stays with the line before it, so every line of the input
is in exactly one month, in its order. Writes OUT/<YYYY-MM>/… and prints the
months, oldest first.
"""
import csv
import gzip
import os
import re
import shutil
import sys

DATA, OUT, PERIOD = sys.argv[1:4]

# table path (relative, without .gz) → how to read a line's month
CSV_COLUMN = {
    "expenses/expenses.csv": ("updated_at", "created_at", "date"),
    "expenses/settlements.csv": ("date",),
    "health/activity.csv": ("date",),
}
JSON_FIELD = {
    "swipes/swipes.ndjson": "timestamp",
    "checkins/checkins.ndjson": "createdAt",
}
LAST_COLUMN = {"subscriptions/events.csv"}
TSV_FIRST = {"subscriptions/Subscriber_Report.txt", "subscriptions/Subscription_Event_Report.txt"}
MONTH = re.compile(r"^(\d{4}-\d{2})")


def month_of(value):
    m = MONTH.match(value.strip().strip('"'))
    return min(m.group(1), PERIOD) if m else None


def opener(path, mode):
    return gzip.open(path, mode, compresslevel=1) if path.endswith(".gz") else open(path, mode)


def split_file(rel, src, key):
    """Writes src's lines to OUT/<month>/rel (streamed), the header first;
    returns the header, to be written to the months this file has no row of."""
    writers = {}
    pending = []          # lines before the first dated line
    with opener(src, "rb") as f:
        header = f.readline()
        names = next(csv.reader([header.decode("utf-8-sig")])) if ".csv" in rel else []
        month = None
        for line in f:
            found = key(line, names)
            if found:
                month = found
            if month is None:
                pending.append(line)
                continue
            w = writers.get(month)
            if w is None:
                path = os.path.join(OUT, month, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                w = writers[month] = opener(path, "wb")
                w.write(header)
            if pending:
                w.writelines(pending)
                pending = []
            w.write(line)
    for w in writers.values():
        w.close()
    return header, set(writers), pending


def csv_key(columns):
    def key(line, names):
        try:
            row = next(csv.reader([line.decode("utf-8", "replace")]))
        except (csv.Error, StopIteration):
            return None
        if len(row) != len(names):
            return None
        for c in columns:
            if c in names and row[names.index(c)].strip():
                return month_of(row[names.index(c)])
        return None
    return key


def json_key(field):
    pattern = re.compile(rb'"' + field.encode() + rb'"\s*:\s*"(\d{4}-\d{2})')
    def key(line, names):
        m = pattern.search(line)
        return min(m.group(1).decode(), PERIOD) if m else None
    return key


def last_column_key(line, names):
    return month_of(line.decode("utf-8", "replace").rstrip("\r\n").rsplit(",", 1)[-1])


def first_tsv_key(line, names):
    return month_of(line.decode("utf-8", "replace").split("\t", 1)[0])


shutil.rmtree(OUT, ignore_errors=True)
split = {}       # rel → (header, months written, undated lines)
copied = []      # rel of reference files and exports
for root, dirs, files in os.walk(DATA):
    dirs.sort()
    for name in sorted(files):
        if name.startswith("."):
            continue
        src = os.path.join(root, name)
        rel = os.path.relpath(src, DATA)
        base = rel[:-3] if rel.endswith(".gz") else rel
        if base in CSV_COLUMN:
            split[rel] = split_file(rel, src, csv_key(CSV_COLUMN[base]))
        elif base in JSON_FIELD:
            split[rel] = split_file(rel, src, json_key(JSON_FIELD[base]))
        elif base in LAST_COLUMN:
            split[rel] = split_file(rel, src, last_column_key)
        elif base in TSV_FIRST:
            split[rel] = split_file(rel, src, first_tsv_key)
        else:
            copied.append(rel)

months = sorted({m for _, written, _ in split.values() for m in written})
if not months:
    sys.exit(f"{DATA}: no dated rows found")
for rel, (header, written, undated) in split.items():
    # A table with no dated line at all keeps its lines in the first month.
    for month in months:
        if month in written:
            continue
        path = os.path.join(OUT, month, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with opener(path, "wb") as f:
            f.write(header)
            if month == months[0]:
                f.writelines(undated)
for rel in copied:
    exports = rel.startswith("health/") and not rel.endswith("activity.csv")
    for month in (months[:1] if exports else months):
        path = os.path.join(OUT, month, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.link(os.path.join(DATA, rel), path)
print(" ".join(months))
