#!/usr/bin/env python3
"""Runs a command and measures its whole process tree.

    scripts/measure-tree.py RESULT.json -- COMMAND [ARGS...]

Writes {"wall": s, "user": s, "sys": s, "peak_mib": MiB, "status": n} to
RESULT.json and exits with the command's status. CPU time is every
descendant's, the Spark JVM and each worker included: this process becomes
the tree's subreaper (prctl PR_SET_CHILD_SUBREAPER), so orphans are reaped
here and their rusage is counted. Peak memory is the largest sum, over the
live descendants, of their proportional set size (PSS, so pages shared
between processes count once), sampled every 0.1 s.
"""

import ctypes
import json
import os
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def children_map() -> dict:
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: fields follow the last ')'.
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_kib(root: int) -> int:
    kids, total = children_map(), 0
    todo = list(kids.get(root, []))
    while todo:
        pid = todo.pop()
        total += pss_kib(pid)
        todo.extend(kids.get(pid, []))
    return total


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    result, command = sys.argv[1], sys.argv[3:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("measure-tree: cannot become a subreaper; orphans' CPU would be lost", file=sys.stderr)
        return 70
    start = time.monotonic()
    child = os.fork()
    if child == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    user = system = 0.0
    peak = 0
    status = None
    while True:
        peak = max(peak, tree_kib(os.getpid()))
        try:
            while True:
                pid, code, usage = os.wait4(-1, os.WNOHANG)
                if pid == 0:
                    break
                user += usage.ru_utime
                system += usage.ru_stime
                if pid == child:
                    status = os.waitstatus_to_exitcode(code)
                    wall = time.monotonic() - start
        except ChildProcessError:
            break
        time.sleep(0.1)
    with open(result, "w") as f:
        json.dump({"wall": round(wall, 3), "user": round(user, 3), "sys": round(system, 3),
                   "peak_mib": round(peak / 1024, 1), "status": status}, f)
        f.write("\n")
    return status if status is not None and status >= 0 else 1


if __name__ == "__main__":
    sys.exit(main())
