#!/usr/bin/env python3
"""Runs a command and measures its whole process tree.

    scripts/measure-tree.py RESULT.json [--part NAME=REGEX ...] -- COMMAND [ARGS...]

Writes {"wall": s, "user": s, "sys": s, "cpu_from": "cgroup"|"rusage",
"peak_mib": MiB, "status": n, "parts": {NAME: MiB}} to RESULT.json and exits
with the command's status. CPU time is every descendant's, the Spark JVM,
its Python workers and each tally worker included. Where this process may
make a cgroup (cgroup v2, or v1's cpuacct: root, or a delegated subtree),
the command runs in one of its own and the CPU time is the cgroup's
(`cpu_from: "cgroup"`): exact, whoever reaps whom. Otherwise it is the
rusage of the reaped processes (`"rusage"`): this process becomes the
tree's subreaper (prctl PR_SET_CHILD_SUBREAPER), so orphans are reaped here,
but the children of a process that ignores SIGCHLD are reaped by the
kernel, and their time (with that of their own children) is counted
nowhere. PySpark's daemon ignores SIGCHLD: the rusage of a Spark job with
the arrow wiring, whose Python workers are the daemon's children and run
the tally workers, came out at less than half of its cgroup's. Peak memory is the largest sum, over the
live descendants, of their proportional set size (PSS, so pages shared
between processes count once), sampled every 0.1 s. A part's peak is the
same sum over the descendants whose command line (its arguments joined by
spaces) matches REGEX (`re.search`): the Spark driver's side of a job, say,
apart from the executors.
"""

import ctypes
import json
import os
import re
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


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def tree_kib(root: int, parts: dict) -> tuple:
    """(the tree's PSS, each part's PSS) in KiB, one sample."""
    kids, total, by_part = children_map(), 0, dict.fromkeys(parts, 0)
    todo = list(kids.get(root, []))
    while todo:
        pid = todo.pop()
        kib = pss_kib(pid)
        total += kib
        if parts:
            line = command_line(pid)
            for name, pattern in parts.items():
                if pattern.search(line):
                    by_part[name] += kib
        todo.extend(kids.get(pid, []))
    return total, by_part


class CPUGroup:
    """A cgroup of this measurement's own, read for the CPU time of everything in it.

    `make()` returns None where no cgroup can be made here (no cgroup file
    system, or no permission).
    """

    def __init__(self, path: str, v2: bool):
        self.path, self.v2 = path, v2

    @classmethod
    def make(cls):
        name = f"tally-measure-{os.getpid()}"
        own = ""
        try:
            with open("/proc/self/cgroup") as f:
                own = next((line.split(":", 2)[2].strip() for line in f if line.startswith("0::")), "")
        except OSError:
            pass
        candidates = [(os.path.join(root, own.lstrip("/"), name), True)
                      for root in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified")
                      if own and os.path.exists(os.path.join(root, "cgroup.procs"))
                      and os.path.exists(os.path.join(root, "cpu.stat"))]
        candidates += [(os.path.join(root, name), False)
                       for root in ("/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/cpu,cpuacct")
                       if os.path.exists(os.path.join(root, "cpuacct.usage"))]
        for path, v2 in candidates:
            try:
                os.mkdir(path)
            except OSError:
                continue
            return cls(path, v2)
        return None

    def join(self, pid: int) -> None:
        with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
            f.write(str(pid))

    def cpu(self) -> tuple:
        """(user s, system s) of everything that ran in the group."""
        if self.v2:
            with open(os.path.join(self.path, "cpu.stat")) as f:
                stat = dict(line.split() for line in f)
            return int(stat["user_usec"]) / 1e6, int(stat["system_usec"]) / 1e6
        with open(os.path.join(self.path, "cpuacct.stat")) as f:
            stat = dict(line.split() for line in f)
        tick = os.sysconf("SC_CLK_TCK")
        # cpuacct.usage (ns) is exact; cpuacct.stat splits it in ticks.
        with open(os.path.join(self.path, "cpuacct.usage")) as f:
            total = int(f.read()) / 1e9
        user, system = int(stat["user"]) / tick, int(stat["system"]) / tick
        share = user / (user + system) if user + system else 1.0
        return total * share, total * (1 - share)

    def remove(self) -> None:
        try:
            os.rmdir(self.path)
        except OSError:
            pass   # something of the command's still runs in it; the group stays


def main() -> int:
    args = sys.argv[2:]
    parts = {}
    while len(args) >= 2 and args[0] == "--part" and "=" in args[1]:
        name, _, pattern = args[1].partition("=")
        parts[name] = re.compile(pattern)
        args = args[2:]
    if len(sys.argv) < 4 or not args or args[0] != "--" or len(args) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    result, command = sys.argv[1], args[1:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("measure-tree: cannot become a subreaper; orphans' CPU would be lost", file=sys.stderr)
        return 70
    group = CPUGroup.make()
    start = time.monotonic()
    child = os.fork()
    if child == 0:
        try:
            if group:
                group.join(os.getpid())
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    user = system = 0.0
    peak = 0
    part_peaks = dict.fromkeys(parts, 0)
    status = None
    while True:
        total, by_part = tree_kib(os.getpid(), parts)
        peak = max(peak, total)
        for name, kib in by_part.items():
            part_peaks[name] = max(part_peaks[name], kib)
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
    cpu_from = "rusage"
    if group:
        user, system = group.cpu()
        cpu_from = "cgroup"
        group.remove()
    with open(result, "w") as f:
        json.dump({"wall": round(wall, 3), "user": round(user, 3), "sys": round(system, 3), "cpu_from": cpu_from,
                   "peak_mib": round(peak / 1024, 1), "status": status,
                   "parts": {name: round(kib / 1024, 1) for name, kib in part_peaks.items()}}, f)
        f.write("\n")
    return status if status is not None and status >= 0 else 1


if __name__ == "__main__":
    sys.exit(main())
