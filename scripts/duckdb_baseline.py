#!/usr/bin/env python3
"""A DuckDB baseline for `make bench`: the contract CSVs tally writes, computed
with plain SQL from the same data folder, so tally's time reads as a ratio to a
script a data engineer could write in an afternoon.

    python3 scripts/duckdb_baseline.py --data DIR --out DIR --period YYYY-MM
    python3 scripts/duckdb_baseline.py --compare TALLY_OUT DUCKDB_OUT

Writes statements/balances.csv, kpis/swipes_daily.csv, leaderboards/leaderboard.csv,
activity/scores.csv, activity/summary.csv, kpis/mrr.csv and kpis/conversion.csv
(the contract's first columns of each). Follows the rules of README.md
("Monthly couple statements"), docs/kpis.md and docs/fitness.md, with the
simplifications docs/performance.md lists ("The DuckDB baseline"): it filters
bad rows instead of reporting them (no rejects.csv, no run.json), writes no
XLSX or text, skips the Apple Health exports and reads only the Subscriber
report of App Store Connect's two.

It reads and computes the way a fast DuckDB script does, so that the ratio
measures tally and not a slow baseline:
- each input file is a view over DuckDB's own parallel reader, scanned once
  by the stage that needs it, straight into a narrow table of its valid,
  typed rows;
- tables keep the order of their file (preserve_insertion_order), so `rowid`
  is a row's place in it and settles "first row wins" and "later row wins",
  with no pass numbering the rows;
- repeated ids are found by grouping on their hash, and only their losing
  rows are ranked and deleted, where a window would sort every row by its id;
- each ledger entry carries its split as a list, so the couple checks and the
  largest-remainder shares are list expressions on the entry's own row, not
  joins and windows over one row per member.
Each stage's time on stderr includes reading its files.
"""
import argparse
import glob
import os
import re
import sys
import time

import duckdb

FIELDS = {
    "couples": ["id", "name", "currency", "createdAt"],
    "members": ["id", "coupleId", "displayName", "role", "joinedAt"],
    "expenses": ["id", "coupleId", "paidBy", "amount", "currency", "date", "description", "tag", "cardId",
                 "agreementId", "splitType", "split", "updatedAt", "deletedAt"],
    "settlements": ["id", "coupleId", "fromMember", "toMember", "amount", "currency", "date", "note"],
    "agreements": ["id", "coupleId", "description", "amount", "currency", "paidBy", "splitType", "split", "tag",
                   "dayOfMonth", "startDate", "endDate"],
    "fx": ["date", "currency", "base", "rate"],
    "activity": ["userId", "date", "steps", "activeCalories", "walkingDistanceKm"],
    "swipes": ["id", "fromUserId", "toUserId", "action", "timestamp"],
    "challenges": ["id", "groupId", "name", "startDate", "endDate"],
    "checkin_members": ["groupId", "userId", "joinedAt", "leftAt"],
    "checkins": ["id", "groupId", "challengeId", "userId", "displayName", "checkInPhotoURL", "workoutEntryId",
                 "workoutDurationMinutes", "createdAt"],
    "products": ["productId", "app", "plan", "period", "price", "currency"],
    "events": ["id", "app", "userId", "event", "productId", "context", "timestamp"],
}

# A timestamp the contract accepts ends with Z or an offset; one without is refused.
WITH_OFFSET = r"'(Z|[+-][0-9]{2}(:?[0-9]{2})?)$'"
MONEY = r"'^-?[0-9]+(\.[0-9]+)?$'"


def norm(name):
    return name.replace("_", "").lower()


def find_table(data, dataset, table):
    for ext in ("csv", "ndjson", "jsonl"):
        for suffix in ("", ".gz"):
            path = os.path.join(data, dataset, f"{table}.{ext}{suffix}")
            if os.path.exists(path):
                return path, ext
    return None, None


def define_view(con, view, data, dataset, table):
    """A view `view` of the table's file with the contract's camelCase fields, every value text (NULL when
    absent). Nothing is read until a stage selects from it."""
    path, ext = find_table(data, dataset, table)
    fields = FIELDS[view]
    if path is None:
        con.sql(f"CREATE VIEW {view} AS SELECT " + ", ".join(f"NULL::VARCHAR AS {f}" for f in fields) + " WHERE false")
        return
    quoted = path.replace("'", "''")
    if ext == "csv":
        source = (f"read_csv('{quoted}', header = true, all_varchar = true, delim = ',', quote = '\"', escape = '\"', "
                  "ignore_errors = true)")
    else:
        # The contract's fields, read as text: no sampling pass over the file, unknown fields ignored.
        columns = ", ".join(f"{f}: 'VARCHAR'" for f in fields)
        source = (f"read_json('{quoted}', format = 'newline_delimited', records = true, columns = {{{columns}}}, "
                  "ignore_errors = true)")
    columns = [row[0] for row in con.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()]
    by_norm = {norm(c.lstrip("\ufeff")): c for c in columns}
    select = []
    for f in fields:
        column = by_norm.get(norm(f))
        select.append(f'CAST("{column}" AS VARCHAR) AS {f}' if column else f"NULL::VARCHAR AS {f}")
    con.sql(f"CREATE VIEW {view} AS SELECT {', '.join(select)} FROM {source}")


def products_from_config(data):
    """The `products:` entries of tally.yml, one flow mapping per line (as tally.yml writes them)."""
    path = os.path.join(data, "tally.yml")
    rows = []
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            m = re.match(r"\s*-\s*\{(.*)\}\s*$", line)
            if not m:
                continue
            entry = {}
            for part in m.group(1).split(","):
                key, _, value = part.partition(":")
                entry[key.strip()] = value.strip().strip('"')
            if "productId" in entry:
                rows.append(tuple(entry.get(f) for f in FIELDS["products"]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data")
    parser.add_argument("--out")
    parser.add_argument("--period", help="YYYY-MM")
    parser.add_argument("--timezone", default="America/Sao_Paulo")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--compare", nargs=2, metavar=("TALLY_OUT", "DUCKDB_OUT"),
                        help="only compare the CSVs of a tally run with the baseline's and print the agreement")
    args = parser.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    if not (args.data and args.out and args.period):
        parser.error("--data, --out and --period are required")
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}", args.period):
        sys.exit(f"--period '{args.period}' is not a month like 2026-06")
    started = time.monotonic()
    con = duckdb.connect()
    con.sql(f"SET TimeZone = '{args.timezone}'")
    if args.threads:
        con.sql(f"SET threads = {args.threads}")
    # Tables keep the order of the rows that fill them: rowid is then the order of the file.
    con.sql("SET preserve_insertion_order = true")
    for view, dataset, table in [
        ("couples", "expenses", "couples"), ("members", "expenses", "members"), ("expenses", "expenses", "expenses"),
        ("settlements", "expenses", "settlements"), ("agreements", "expenses", "agreements"), ("fx", "expenses", "fx"),
        ("activity", "health", "activity"), ("swipes", "swipes", "swipes"), ("challenges", "checkins", "challenges"),
        ("checkin_members", "checkins", "members"), ("checkins", "checkins", "checkins"),
        ("products", "subscriptions", "products"), ("events", "subscriptions", "events"),
    ]:
        define_view(con, view, args.data, dataset, table)
    con.execute("CREATE TABLE config_products (productId VARCHAR, app VARCHAR, plan VARCHAR, period VARCHAR, "
                "price VARCHAR, currency VARCHAR)")
    extra = products_from_config(args.data)
    if extra:
        con.executemany("INSERT INTO config_products VALUES (?, ?, ?, ?, ?, ?)", extra)

    y, m = map(int, args.period.split("-"))
    con.sql(f"""CREATE MACRO period_first() AS DATE '{y:04d}-{m:02d}-01'""")
    con.sql("CREATE MACRO period_last() AS last_day(period_first())")
    # S and T: the first instant of the period and the first after it (local midnights).
    con.sql("CREATE MACRO period_start() AS period_first()::TIMESTAMP::TIMESTAMPTZ")
    con.sql("CREATE MACRO period_end() AS (period_first() + INTERVAL 1 MONTH)::TIMESTAMP::TIMESTAMPTZ")
    con.sql("CREATE MACRO minor(code) AS CASE WHEN code = 'JPY' THEN 0 ELSE 2 END")
    con.sql(f"CREATE MACRO ts(x) AS CASE WHEN regexp_matches(x, {WITH_OFFSET}) THEN try_cast(x AS TIMESTAMPTZ) END")
    con.sql("""CREATE MACRO fmt(v, mu) AS CASE WHEN mu = 0 THEN CAST(v AS VARCHAR)
               ELSE (CASE WHEN v < 0 THEN '-' ELSE '' END) || CAST(abs(v) // 100 AS VARCHAR) || '.'
                    || lpad(CAST(abs(v) % 100 AS VARCHAR), 2, '0') END""")
    # The tie rotation of an id: the sum of its characters' codes.
    con.sql("CREATE MACRO rotation(id) AS list_sum([ascii(ch) FOR ch IN string_split(id, '')])")
    con.sql("CREATE MACRO rate4(n, d) AS CASE WHEN d > 0 THEN printf('%.4f', round(n / d, 4)) ELSE '' END")

    out = args.out
    for folder in ("statements", "kpis", "leaderboards", "activity"):
        os.makedirs(os.path.join(out, folder), exist_ok=True)
    timings = []

    def stage(name, body):
        t = time.monotonic()
        body()
        timings.append((name, time.monotonic() - t))

    stage("statements", lambda: statements(con, out, args.period))
    stage("swipes_daily", lambda: swipes_daily(con, out))
    stage("leaderboards", lambda: leaderboards(con, out))
    stage("activity", lambda: activity(con, out, args.period))
    stage("kpis", lambda: kpis(con, out, args.period, args.data))
    total = time.monotonic() - started
    print("duckdb " + duckdb.__version__ + ": " + ", ".join(f"{n} {s:.2f} s" for n, s in timings)
          + f"; {total:.2f} s in all", file=sys.stderr)


def copy(con, query, path):
    con.sql(f"COPY ({query}) TO '{path}' (HEADER, DELIMITER ',')")


def drop_repeats(con, table, key, order="rowid", among="true"):
    """Deletes from `table`, among the rows `among` selects, every row but the first (by `order`) of each `key`
    found on more than one (NULL being one key too). Grouping by the key's hash finds the few repeated keys
    without a sort, and cheaper than by the text itself; only their rows are then ranked, by the key itself, so a
    collision of two keys' hashes changes nothing."""
    con.sql(f"""
    DELETE FROM {table} WHERE rowid IN (
        SELECT rowid FROM {table}
        WHERE {among} AND hash({key}) IN (SELECT hash({key}) FROM {table} WHERE {among} GROUP BY 1 HAVING count(*) > 1)
        QUALIFY row_number() OVER (PARTITION BY {key} ORDER BY {order}) > 1)""")


def statements(con, out, period):
    con.sql("""
    CREATE TABLE couple AS SELECT id, name, currency FROM couples WHERE id IS NOT NULL AND id <> '';
    CREATE TABLE member AS SELECT id, coupleId, displayName FROM members WHERE coupleId IN (SELECT id FROM couple);
    -- Each couple's member ids, sorted: the equal split's members and the membership checks.
    CREATE TABLE roster AS SELECT coupleId, list(id ORDER BY id) AS ids FROM member GROUP BY coupleId;
    CREATE TABLE rate AS
        SELECT try_cast(date AS DATE) AS date, currency, base, CAST(rate AS DECIMAL(18, 8)) AS rate
        FROM fx WHERE try_cast(date AS DATE) IS NOT NULL AND try_cast(rate AS DECIMAL(18, 8)) > 0;
    -- The valid expense versions of known couples, in file order.
    CREATE TABLE expense_row AS
        SELECT id, coupleId, paidBy, currency, agreementId, splitType, split, deletedAt,
               try_cast(date AS DATE) AS day, ts(updatedAt) AS updated,
               CAST(round(CAST(amount AS DECIMAL(18, 4)) * (CASE WHEN currency = 'JPY' THEN 1 ELSE 100 END)) AS BIGINT) AS minor_amount
        FROM expenses
        WHERE id <> '' AND regexp_matches(amount, """ + MONEY + """)
          AND length(split_part(amount, '.', 2)) <= minor(currency)
          AND try_cast(date AS DATE) IS NOT NULL AND ts(updatedAt) IS NOT NULL
          AND coalesce(splitType, '') IN ('', 'equal', 'shares', 'percentage', 'exact', 'full')
          AND coupleId IN (SELECT id FROM couple);
    """)
    # The winning version of each id: the latest updatedAt (ties: the later row); deletedAt then removes it.
    drop_repeats(con, "expense_row", "id", order="updated DESC, rowid DESC")
    con.sql("""
    CREATE TABLE live AS
        SELECT id, coupleId, paidBy, currency, agreementId, coalesce(splitType, '') AS splitType,
               coalesce(split, '') AS split, day, minor_amount
        FROM expense_row WHERE coalesce(deletedAt, '') = '' AND day <= period_last();
    -- Agreements: a synthetic expense for every month up to the period without a real one.
    CREATE TABLE agreement_month AS
        WITH a AS (
            SELECT id, coupleId, paidBy, currency, amount, dayOfMonth, splitType, split,
                   try_cast(startDate AS DATE) AS start_day,
                   least(coalesce(try_cast(endDate AS DATE), period_last()), period_last()) AS end_day
            FROM agreements WHERE coupleId IN (SELECT id FROM couple) AND try_cast(startDate AS DATE) IS NOT NULL
        ), months AS (
            SELECT a.*, unnest(generate_series(date_trunc('month', start_day), date_trunc('month', end_day), INTERVAL 1 MONTH))::DATE AS month
            FROM a WHERE start_day <= end_day
        )
        SELECT 'agreement:' || id || ':' || strftime(month, '%Y-%m') AS id, coupleId, paidBy, currency,
               CAST(round(CAST(amount AS DECIMAL(18, 4)) * (CASE WHEN currency = 'JPY' THEN 1 ELSE 100 END)) AS BIGINT) AS minor_amount,
               make_date(year(month), month(month), least(CAST(dayOfMonth AS INTEGER), day(last_day(month)))) AS day,
               coalesce(splitType, '') AS splitType, coalesce(split, '') AS split
        FROM months
        WHERE NOT EXISTS (SELECT 1 FROM live l WHERE l.agreementId = months.id AND date_trunc('month', l.day) = months.month);
    -- The ledger in the couple's currency: an entry in another currency at the latest rate on or before its date,
    -- rounded half away from zero (and left out without one). Only those few go through the ASOF join, which sorts
    -- its input. Each entry carries its couple's members and its split's members and values, parsed into a list.
    CREATE TABLE entry AS
        WITH ledger AS (
            SELECT l.*, c.currency AS couple_currency
            FROM (SELECT id, coupleId, paidBy, currency, minor_amount, day, splitType, split FROM live
                  UNION ALL SELECT id, coupleId, paidBy, currency, minor_amount, day, splitType, split FROM agreement_month) l
            JOIN couple c ON c.id = l.coupleId
        ), converted AS (
            SELECT *, minor_amount AS amount FROM ledger WHERE currency = couple_currency
            UNION ALL
            SELECT l.*, CAST(round(l.minor_amount * r.rate * (CASE minor(l.couple_currency) - minor(l.currency)
                             WHEN 2 THEN 100 WHEN -2 THEN 0.01 ELSE 1 END)) AS BIGINT) AS amount
            FROM ledger l ASOF JOIN rate r ON l.currency = r.currency AND l.couple_currency = r.base AND l.day >= r.date
            WHERE l.currency <> l.couple_currency
        )
        SELECT c.*, r.ids AS members,
               CASE WHEN c.splitType IN ('shares', 'percentage', 'exact', 'full') THEN
                   [{memberId: trim(split_part(p, ':', 1)),
                     value: try_cast(nullif(trim(split_part(p, ':', 2)), '') AS DECIMAL(18, 6))}
                    FOR p IN string_split(c.split, ';') IF trim(p) <> ''] END AS listed
        FROM converted c LEFT JOIN roster r USING (coupleId);
    -- The couple checks run on the winning version: the payer and the split's members belong to the couple,
    -- percentages sum to 100, exact values to the amount, and no member is listed twice (but in full).
    -- Each is written as its failure, which a NULL (nothing listed) never is.
    CREATE TABLE checked AS
        SELECT * EXCLUDE (members, listed),
               -- Weights: equal and full 1 (and a listed member without a value), shares, percentage and exact
               -- their values scaled to integers; sorted by member for the rotation among tied remainders.
               list_sort(CASE WHEN splitType IN ('', 'equal') THEN [{memberId: m, w: 1::HUGEINT} FOR m IN members]
                              ELSE [{memberId: p.memberId,
                                     w: CASE WHEN p.value IS NULL THEN 1 ELSE CAST(p.value * 1000000 AS HUGEINT) END}
                                    FOR p IN listed] END) AS weights
        FROM entry
        WHERE coalesce(list_contains(members, paidBy), false)
          AND NOT coalesce(NOT list_has_all(members, [p.memberId FOR p IN listed]), false)
          AND NOT coalesce(splitType = 'percentage' AND list_sum([p.value FOR p IN listed]) <> 100, false)
          AND NOT coalesce(splitType = 'exact' AND list_sum([p.value FOR p IN listed])
                           * (CASE WHEN currency = 'JPY' THEN 1 ELSE 100 END) <> abs(minor_amount), false)
          AND NOT coalesce(splitType <> 'full'
                           AND len(listed) <> len(list_distinct([p.memberId FOR p IN listed])), false);
    -- The contract's largest-remainder rule among the members of positive weight: each takes its floor, and the
    -- cents left go one each by remainder, largest first, the tied ones taking turns by a rotation of the id.
    CREATE TABLE share AS
        WITH w AS (
            SELECT id, coupleId, day, amount, [x FOR x IN weights IF x.w > 0] AS weights FROM checked
        ), q AS (
            SELECT id, coupleId, day, amount,
                   [{memberId: x.memberId, base: abs(amount) * x.w // total, rem: abs(amount) * x.w % total}
                    FOR x IN weights] AS parts
            FROM (SELECT *, list_sum([x.w FOR x IN weights]) AS total FROM w)
        ), r AS (
            SELECT *, abs(amount) - list_sum([x.base FOR x IN parts]) AS leftover, [x.rem FOR x IN parts] AS rems FROM q
        ), ranked AS (
            -- For each member: how many have a larger remainder (before), how many share its remainder (tied),
            -- and its place among those (pos, by member id). The lambdas compare the remainders alone: handing
            -- each member that short list costs far less than handing it the parts.
            SELECT id, coupleId, day, amount, leftover,
                   unnest(list_transform(parts, lambda x, i: {
                       memberId: x.memberId, base: x.base,
                       before: len([y FOR y IN rems IF y > x.rem]),
                       tied: len([y FOR y IN rems IF y = x.rem]),
                       pos: len([y FOR y IN rems[:i - 1] IF y = x.rem])})) AS m
            FROM r
        )
        -- The cents left reach none of a member's tie, all of it, or only some: then the rotation (worked out for
        -- those rows alone) picks which.
        SELECT coupleId, day, m.memberId,
               sign(amount) * (m.base + CASE WHEN leftover - m.before <= 0 THEN 0
                                             WHEN leftover - m.before >= m.tied THEN 1
                                             WHEN ((m.pos - rotation(id) % m.tied) + m.tied) % m.tied < leftover - m.before
                                             THEN 1 ELSE 0 END) AS share
        FROM ranked;
    CREATE TABLE settlement AS
        SELECT s.id, s.coupleId, s.fromMember, s.toMember, s.day,
               CASE WHEN s.currency = s.couple_currency THEN s.minor_amount
                    ELSE CAST(round(s.minor_amount * r.rate * (CASE minor(s.couple_currency) - minor(s.currency)
                         WHEN 2 THEN 100 WHEN -2 THEN 0.01 ELSE 1 END)) AS BIGINT) END AS amount
        FROM (SELECT s.*, c.currency AS couple_currency, try_cast(s.date AS DATE) AS day,
                     CAST(round(CAST(s.amount AS DECIMAL(18, 4)) * (CASE WHEN s.currency = 'JPY' THEN 1 ELSE 100 END)) AS BIGINT) AS minor_amount
              FROM settlements s JOIN couple c ON c.id = s.coupleId
              WHERE regexp_matches(s.amount, """ + MONEY + """) AND try_cast(s.date AS DATE) <= period_last()
                AND s.fromMember <> s.toMember) s
        ASOF LEFT JOIN rate r ON s.currency = r.currency AND s.couple_currency = r.base AND s.day >= r.date
        WHERE s.currency = s.couple_currency OR r.rate IS NOT NULL;
    """)
    copy(con, f"""
        WITH movement AS (
            SELECT coupleId, paidBy AS memberId, day, amount AS paid, 0 AS share, 0 AS sent, 0 AS received FROM checked
            UNION ALL SELECT coupleId, memberId, day, 0, share, 0, 0 FROM share
            UNION ALL SELECT coupleId, fromMember, day, 0, 0, amount, 0 FROM settlement
            UNION ALL SELECT coupleId, toMember, day, 0, 0, 0, amount FROM settlement
        ), by_member AS (
            -- Summed per member before the join to the members, which then sees one row per member, not per movement.
            SELECT coupleId, memberId,
                   sum(paid - share + sent - received) FILTER (WHERE day < period_first()) AS opening,
                   sum(paid) FILTER (WHERE day >= period_first()) AS paid,
                   sum(share) FILTER (WHERE day >= period_first()) AS share,
                   sum(sent) FILTER (WHERE day >= period_first()) AS sent,
                   sum(received) FILTER (WHERE day >= period_first()) AS received
            FROM movement GROUP BY coupleId, memberId
        ), totals AS (
            SELECT m.coupleId, m.id AS memberId, coalesce(sum(opening), 0) AS opening, coalesce(sum(paid), 0) AS paid,
                   coalesce(sum(share), 0) AS share, coalesce(sum(sent), 0) AS sent, coalesce(sum(received), 0) AS received
            FROM member m LEFT JOIN by_member v ON v.coupleId = m.coupleId AND v.memberId = m.id
            GROUP BY ALL
        )
        SELECT t.coupleId, '{period}' AS period, t.memberId, m.displayName, c.currency,
               fmt(opening, minor(c.currency)) AS opening, fmt(paid, minor(c.currency)) AS paid,
               fmt(share, minor(c.currency)) AS share, fmt(sent, minor(c.currency)) AS settlementsSent,
               fmt(received, minor(c.currency)) AS settlementsReceived,
               fmt(opening + paid - share + sent - received, minor(c.currency)) AS closing
        FROM totals t JOIN member m ON m.id = t.memberId AND m.coupleId = t.coupleId JOIN couple c ON c.id = t.coupleId
        ORDER BY t.coupleId, t.memberId""", os.path.join(out, "statements", "balances.csv"))


def swipes_daily(con, out):
    # The timestamp is parsed once, into the table; the few rows it refuses are deleted after (a filter on it in
    # the same query would parse every timestamp twice).
    con.sql("""
    CREATE TABLE swipe AS
        SELECT id, fromUserId AS a, toUserId AS b, action, ts(timestamp) AS moment
        FROM swipes
        WHERE action IN ('like', 'pass', 'super_like', 'report') AND fromUserId <> toUserId AND coalesce(id, '') <> ''""")
    con.sql("DELETE FROM swipe WHERE moment IS NULL")
    drop_repeats(con, "swipe", "id")   # the first row of an id wins
    # A match: each liked the other, neither ever reported the other; it forms at the later first like. Only the
    # period's matches are counted: one of its two first likes is in the period, so the pair has a like there, and
    # only such pairs (either way round) need their first likes, not every pair that ever liked.
    con.sql("""
    CREATE TABLE match AS
        WITH liked AS (
            SELECT a, b, moment FROM swipe WHERE action IN ('like', 'super_like') AND moment < period_end()
        ), recent AS (
            SELECT DISTINCT a, b FROM liked WHERE moment >= period_start()
        ), candidate AS (
            SELECT a, b FROM recent UNION SELECT b, a FROM recent
        ), first_like AS (
            SELECT a, b, min(moment) AS moment FROM liked SEMI JOIN candidate USING (a, b) GROUP BY a, b
        ), reported AS (
            SELECT DISTINCT least(a, b) AS x, greatest(a, b) AS y FROM swipe WHERE action = 'report'
        )
        SELECT l.a, l.b, greatest(l.moment, r.moment) AS moment
        FROM first_like l JOIN first_like r ON r.a = l.b AND r.b = l.a AND l.a < l.b
        ANTI JOIN reported p ON p.x = l.a AND p.y = l.b
        WHERE greatest(l.moment, r.moment) >= period_start();
    """)
    copy(con, """
        WITH days AS (SELECT unnest(generate_series(period_first(), period_last(), INTERVAL 1 DAY))::DATE AS date),
        s AS (
            SELECT moment::DATE AS date, count(*) AS swipes, count(DISTINCT a) AS swipers,
                   count(*) FILTER (WHERE action = 'like') AS likes, count(*) FILTER (WHERE action = 'super_like') AS superLikes,
                   count(*) FILTER (WHERE action = 'pass') AS passes, count(*) FILTER (WHERE action = 'report') AS reports
            FROM swipe WHERE moment >= period_start() AND moment < period_end() GROUP BY 1
        ), mt AS (SELECT moment::DATE AS date, count(*) AS matches FROM match GROUP BY 1)
        SELECT strftime(d.date, '%Y-%m-%d') AS date, coalesce(swipes, 0) AS swipes, coalesce(swipers, 0) AS swipers,
               coalesce(likes, 0) AS likes, coalesce(superLikes, 0) AS superLikes, coalesce(passes, 0) AS passes,
               coalesce(reports, 0) AS reports, coalesce(matches, 0) AS matches,
               rate4(coalesce(likes, 0) + coalesce(superLikes, 0), coalesce(swipes, 0)) AS likeRate,
               rate4(coalesce(matches, 0), coalesce(likes, 0) + coalesce(superLikes, 0)) AS matchRate
        FROM days d LEFT JOIN s USING (date) LEFT JOIN mt USING (date) ORDER BY d.date""",
         os.path.join(out, "kpis", "swipes_daily.csv"))


def leaderboards(con, out):
    con.sql("""
    CREATE TABLE challenge AS
        SELECT id, groupId, try_cast(startDate AS DATE) AS start_day, try_cast(endDate AS DATE) AS end_day FROM challenges;
    CREATE TABLE membership AS SELECT groupId, userId, ts(joinedAt) AS joined, ts(leftAt) AS left_at FROM checkin_members;
    -- Check-ins with an id and a valid createdAt, in file order (createdAt parsed once, as for swipes).
    CREATE TABLE checkin AS
        SELECT groupId, challengeId, userId, displayName, checkInPhotoURL, workoutEntryId,
               ts(createdAt) AS moment, try_cast(workoutDurationMinutes AS INTEGER) AS minutes
        FROM checkins WHERE coalesce(id, '') <> '';
    DELETE FROM checkin WHERE moment IS NULL""")
    # A duplicate workout is any later one (by createdAt, then file order) of the same workoutEntryId, whatever
    # the other rules say of the first.
    drop_repeats(con, "checkin", "workoutEntryId", order="moment, rowid", among="coalesce(workoutEntryId, '') <> ''")
    con.sql("""
    -- The other check-in rules in the contract's order.
    CREATE TABLE counted AS
        SELECT c.challengeId, c.userId, c.displayName, c.minutes, c.moment, c.moment::DATE AS day, c.rowid AS line
        FROM checkin c JOIN challenge h ON h.id = c.challengeId AND h.groupId = c.groupId
        WHERE coalesce(c.checkInPhotoURL, '') <> '' AND c.minutes >= 30
          AND EXISTS (SELECT 1 FROM membership m WHERE m.groupId = c.groupId AND m.userId = c.userId
                      AND m.joined <= c.moment AND (m.left_at IS NULL OR c.moment < m.left_at))
          AND c.moment::DATE BETWEEN h.start_day AND h.end_day;
    CREATE MACRO board(as_of) AS TABLE
        SELECT h.id AS challengeId, h.groupId, k.userId, count(*) AS checkins, sum(k.minutes) AS minutes,
               arg_max(k.displayName, (k.moment, k.line)) AS displayName,
               rank() OVER (PARTITION BY h.id ORDER BY count(*) DESC, sum(k.minutes) DESC) AS rank
        FROM challenge h JOIN counted k ON k.challengeId = h.id
        WHERE h.start_day <= as_of AND k.day <= as_of
        GROUP BY h.id, h.groupId, k.userId;
    """)
    copy(con, """
        SELECT b.challengeId, b.groupId, strftime(period_last(), '%Y-%m-%d') AS asOf, b.rank, b.userId, b.displayName,
               b.checkins, b.minutes, CAST(p.rank - b.rank AS VARCHAR) AS rankChange
        FROM board(period_last()) b LEFT JOIN board(period_last() - 7) p USING (challengeId, userId)
        ORDER BY b.challengeId, b.rank, b.userId""", os.path.join(out, "leaderboards", "leaderboard.csv"))


def activity(con, out, period):
    con.sql("""
    -- The period's valid rows in file order; the last row of a user and day wins.
    CREATE TABLE activity_row AS
        SELECT userId, try_cast(date AS DATE) AS date, CAST(steps AS BIGINT) AS steps,
               CAST(activeCalories AS DECIMAL(18, 3)) AS cal, CAST(walkingDistanceKm AS DECIMAL(18, 3)) AS km
        FROM activity
        WHERE try_cast(date AS DATE) BETWEEN period_first() AND period_last() AND try_cast(steps AS BIGINT) >= 0
          AND try_cast(activeCalories AS DECIMAL(18, 3)) >= 0 AND try_cast(walkingDistanceKm AS DECIMAL(18, 3)) >= 0;
    CREATE TABLE day_row AS
        SELECT * FROM activity_row QUALIFY row_number() OVER (PARTITION BY userId, date ORDER BY rowid DESC) = 1;
    -- The score exactly, in hundred-thousandths: 40·min(steps/10000, 1) + 30·min(cal/500, 1) + 30·min(km/5, 1)
    -- (calories and distance have at most 3 decimals).
    CREATE TABLE scored AS
        SELECT *, 400 * least(steps, 10000) + 6 * least(CAST(cal * 1000 AS BIGINT), 500000)
                  + 600 * least(CAST(km * 1000 AS BIGINT), 5000) AS score FROM day_row;
    -- A day's value as tally writes it: the exact value, trailing zeros trimmed.
    CREATE MACRO trimmed(x) AS rtrim(rtrim(printf('%.3f', x), '0'), '.');
    -- Tenths rounded half away from zero (scores are never negative), written with one decimal.
    CREATE MACRO tenths(n, d) AS (2 * n + d) // (2 * d);
    CREATE MACRO one_decimal(t) AS CAST(t // 10 AS VARCHAR) || '.' || CAST(t % 10 AS VARCHAR);
    """)
    copy(con, """SELECT userId, strftime(date, '%Y-%m-%d') AS date, steps, trimmed(cal) AS activeCalories,
                        trimmed(km) AS walkingDistanceKm, one_decimal(tenths(score, 10000)) AS score
                 FROM scored ORDER BY userId, date""", os.path.join(out, "activity", "scores.csv"))
    copy(con, f"""SELECT userId, '{period}' AS period, count(*) AS days, one_decimal(tenths(sum(score), 10000 * count(*))) AS avgScore,
                         one_decimal(tenths(max(score), 10000)) AS bestScore, count(*) FILTER (WHERE steps >= 10000) AS daysAt10kSteps
                  FROM scored GROUP BY userId ORDER BY userId""", os.path.join(out, "activity", "summary.csv"))


def subscriber_reports(con, data):
    """App Store Connect Subscriber reports as contract events: a refund (or a negative price) `refunded`, a free
    trial `trial_started`, any other row `subscribed`, at 12:00 UTC of the Event Date (docs/kpis.md)."""
    parts = []
    for path in sorted(glob.glob(os.path.join(data, "subscriptions", "*"))):
        if not re.search(r"\.(txt|tsv)(\.gz)?$", path):
            continue
        source = f"read_csv('{path}', header = true, all_varchar = true, delim = '\t', quote = '', ignore_errors = true)"
        columns = {norm(c).replace(" ", "").replace("-", ""): c
                   for (c, *_) in con.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()}
        if "subscriberid" not in columns:
            continue   # the Subscription Event report has no users: it feeds no per-user figure
        col = lambda *names: next((f'"{columns[n]}"' for n in names if n in columns), "NULL")
        name = os.path.basename(path)
        parts.append(f"""
            SELECT 'appstore:{name}:' || (row_number() OVER () + 1) AS id, {col('appname', 'app', 'title')} AS app,
                   {col('subscriberid', 'subscriberidentifier')} AS userId,
                   CASE WHEN lower(coalesce({col('refund')}, '')) = 'yes' OR try_cast({col('customerprice')} AS DOUBLE) < 0 THEN 'refunded'
                        WHEN {col('subscriptionoffertype', 'offertype', 'introductorypricetype')} = 'Free Trial' THEN 'trial_started'
                        ELSE 'subscribed' END AS event,
                   {col('subscriptionname', 'subscription', 'productid', 'sku')} AS productId, NULL AS context,
                   strftime(try_cast({col('eventdate', 'date', 'begindate')} AS DATE), '%Y-%m-%d') || 'T12:00:00Z' AS timestamp
            FROM {source}""")
    con.sql("CREATE TABLE appstore AS " + (" UNION ALL ".join(parts) if parts else
            "SELECT NULL::VARCHAR AS id, NULL::VARCHAR AS app, NULL::VARCHAR AS userId, NULL::VARCHAR AS event, "
            "NULL::VARCHAR AS productId, NULL::VARCHAR AS context, NULL::VARCHAR AS timestamp WHERE false"))


def kpis(con, out, period, data):
    subscriber_reports(con, data)
    con.sql("""
    CREATE TABLE product AS
        SELECT productId, app, plan, period, currency,
               CAST(round(CAST(price AS DECIMAL(18, 4)) * (CASE WHEN currency = 'JPY' THEN 1 ELSE 100 END)) AS BIGINT) AS price
        FROM (SELECT productId, app, plan, period, price, currency, 0 AS pref FROM products
              UNION ALL SELECT productId, app, plan, period, price, currency, 1 FROM config_products)
        QUALIFY row_number() OVER (PARTITION BY productId ORDER BY pref) = 1""")
    # The valid events in order, the file's before the reports' (rowid keeps that order; the timestamp is parsed
    # once, as for swipes); the first row of an id wins.
    valid = """
        SELECT id, app, userId, event, nullif(productId, '') AS productId, ts(timestamp) AS moment FROM {}
        WHERE event IN ('signup', 'paywall_shown', 'trial_started', 'subscribed', 'renewed', 'upgraded', 'downgraded',
                        'cancelled', 'expired', 'refunded')
          AND NOT (event IN ('subscribed', 'upgraded', 'downgraded') AND coalesce(productId, '') = '')
          AND (coalesce(productId, '') = '' OR productId IN (SELECT productId FROM product))"""
    con.sql("CREATE TABLE event AS " + valid.format("events"))
    con.sql("INSERT INTO event " + valid.format("appstore"))
    con.sql("DELETE FROM event WHERE moment IS NULL")
    drop_repeats(con, "event", "id")
    # Paid at T: the latest paying event before T is not followed, before T, by expired or refunded.
    copy(con, f"""
        WITH before AS (SELECT *, rowid AS line FROM event WHERE moment < period_end()),
        paying AS (
            SELECT app, userId, max_by(moment, (moment, line)) AS moment,
                   max_by(productId, (moment, line)) FILTER (WHERE productId IS NOT NULL) AS productId
            FROM before WHERE event IN ('subscribed', 'renewed', 'upgraded', 'downgraded') GROUP BY app, userId
        ), ended AS (
            SELECT app, userId, max(moment) AS moment FROM before WHERE event IN ('expired', 'refunded') GROUP BY app, userId
        ), paid AS (
            SELECT p.app, p.userId, p.productId FROM paying p LEFT JOIN ended e USING (app, userId)
            WHERE e.moment IS NULL OR e.moment < p.moment
        )
        SELECT pr.app, pr.plan, count(*) AS subscribers,
               fmt(sum(CASE WHEN pr.period = 'yearly' THEN CAST(round(pr.price / 12) AS BIGINT) ELSE pr.price END), minor(pr.currency)) AS mrr,
               pr.currency, '{period}' AS period
        FROM paid p JOIN product pr ON pr.productId = p.productId
        GROUP BY pr.app, pr.plan, pr.currency ORDER BY pr.app, pr.plan, pr.currency""",
         os.path.join(out, "kpis", "mrr.csv"))
    copy(con, """
        WITH signup AS (SELECT app, userId, min(moment) AS moment FROM event WHERE event = 'signup' GROUP BY ALL),
        sub AS (SELECT app, userId, min(moment) AS moment FROM event WHERE event = 'subscribed' GROUP BY ALL)
        SELECT s.app, strftime(s.moment, '%Y-%m') AS cohort, count(*) AS signups,
               count(*) FILTER (WHERE b.moment >= s.moment AND b.moment <= s.moment + INTERVAL 30 DAY) AS converted,
               rate4(count(*) FILTER (WHERE b.moment >= s.moment AND b.moment <= s.moment + INTERVAL 30 DAY), count(*)) AS conversionRate
        FROM signup s LEFT JOIN sub b USING (app, userId)
        WHERE s.moment < period_end()
        GROUP BY ALL ORDER BY s.app, cohort""", os.path.join(out, "kpis", "conversion.csv"))


# The files compared, their key columns and the columns that must agree.
COMPARED = [
    ("statements/balances.csv", ["coupleId", "memberId"],
     ["opening", "paid", "share", "settlementsSent", "settlementsReceived", "closing"]),
    ("kpis/swipes_daily.csv", ["date"],
     ["swipes", "swipers", "likes", "superLikes", "passes", "reports", "matches", "likeRate", "matchRate"]),
    ("leaderboards/leaderboard.csv", ["challengeId", "userId"], ["rank", "checkins", "minutes", "displayName", "rankChange"]),
    ("activity/scores.csv", ["userId", "date"], ["steps", "activeCalories", "walkingDistanceKm", "score"]),
    ("activity/summary.csv", ["userId"], ["days", "avgScore", "bestScore", "daysAt10kSteps"]),
    ("kpis/mrr.csv", ["app", "plan", "currency"], ["subscribers", "mrr"]),
    ("kpis/conversion.csv", ["app", "cohort"], ["signups", "converted", "conversionRate"]),
]


def compare(tally_out, duck_out):
    """Prints, per file, the rows each side wrote and how many agree; returns 1 when any differ."""
    import csv

    def rows(path, key, columns):
        with open(path, encoding="utf-8-sig", newline="") as f:
            return {tuple(r[k] for k in key): tuple(r[c] for c in columns) for r in csv.DictReader(f)}

    differ = False
    for name, key, columns in COMPARED:
        a = rows(os.path.join(tally_out, name), key, columns)
        b = rows(os.path.join(duck_out, name), key, columns)
        same = sum(1 for k in a if b.get(k) == a[k])
        differ |= same != len(a) or len(a) != len(b)
        print(f"  {name:30} tally {len(a):8,} rows, duckdb {len(b):8,}, identical {same:8,}")
        for k in sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[:3]:
            print(f"      {k}: tally {a.get(k)} duckdb {b.get(k)}")
    return 1 if differ else 0


if __name__ == "__main__":
    main()
