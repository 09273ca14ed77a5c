#!/usr/bin/env python3
"""GRDB 7.8 side by side with SQLCipherBench's raw C (c-seed) and our API, interleaved.
usage: run.py DIR RUNS [--instructions]   (DIR: a SQLCipherBench --dir with its fixtures)
GRDBBENCH: the GRDBBench binary (prepare.sh prints it); SQLCIPHERBENCH: ours (release build)."""
import atexit, os, re, shutil, statistics, subprocess, sys, tempfile

directory, runs = sys.argv[1], int(sys.argv[2])
instructions = "--instructions" in sys.argv
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
grdb = os.environ.get("GRDBBENCH", os.path.join(root, ".build/grdb-comparison/.build/release/GRDBBench"))
ours = os.environ.get("SQLCIPHERBENCH", os.path.join(root, ".build/release/SQLCipherBench"))
scratch = tempfile.mkdtemp(prefix="grdb-comparison-")
atexit.register(shutil.rmtree, scratch, True)
N, L = 100000, 10000
# (label, GRDB workload + args, raw-C job, our job, GRDB ratio quoted when the targets were set, wall/instr)
rows = [
    ("insert 100k: GRDB db.execute(sql:arguments:) / ours db.execute(sql, values…)",
     ["insert-natural", N, 0], ["insert-formatted", "c-seed", N, 0], ["insert-formatted", "swift", N, 0], None),
    ("insert 100k: GRDB makeStatement + execute / ours prepare + execute",
     ["insert-statement", N, 0], ["insert-formatted", "c-seed", N, 0], ["insert-formatted-prepared", "swift", N, 0], "1.60 / 1.53"),
    ("read 5 × 100k: GRDB Row.fetchCursor / ours " + os.environ.get("CURSOR_LABEL", "fetchCursor"),
     ["read-cursor", N, 5], ["read-lengths", "c-seed", N, 5], [os.environ.get("CURSOR_JOB", "read-cursor"), "swift", N, 5], "1.30 / 1.23"),
    ("read 5 × 100k: GRDB Row.fetchAll / ours fetchAll",
     ["fetchall", N, 5], ["read-lengths", "c-seed", N, 5], ["fetchall", "swift", N, 5], "3.04 / 2.32"),
    ("10k lookups in one read { }: GRDB Row.fetchOne(db, sql:) / ours db.fetchOne",
     ["lookups-read", N, L], ["lookups-in-read", "c-seed", N, L], ["lookups-in-read", "swift", N, L], None),
    ("10k lookups in one read { }: GRDB cachedStatement + Row.fetchOne / ours prepare + forEachRow",
     ["lookups-read-statement", N, L], ["lookups-in-read", "c-seed", N, L], ["lookups-prepared-in-read", "swift", N, L], None),
    ("10k lookups, C in autocommit: GRDB cachedStatement in one read { } (the quoted form)",
     ["lookups-read-statement", N, L], ["lookups", "c-seed", N, L], None, "0.76 / 1.18"),
    ("10k lookups per call: GRDB dbQueue.read { Row.fetchOne } / ours manager.readSync { fetchOne }",
     ["lookups-per-call", N, L], ["lookups", "c-seed", N, L], ["lookups", "swift", N, L], None),
]

def strip(path):
    copy = os.path.join(scratch, os.path.basename(path) + "-stripped")
    subprocess.run(["cp", path, copy], check=True)
    subprocess.run(["strip", "--strip-debug", copy], check=True)
    return copy

binaries = {"grdb": grdb, "ours": ours}
if instructions:
    binaries = {k: strip(v) for k, v in binaries.items()}

def spawn(kind, args):
    if kind == "grdb":
        command = [binaries["grdb"], "--child", directory] + [str(a) for a in args]
    else:
        command = [binaries["ours"], "--child", directory] + [str(a) for a in args] + ["0", "0"]
    if instructions:
        command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=/dev/null"] + command
    done = subprocess.run(command, capture_output=True, text=True)
    line = [l for l in done.stdout.splitlines() if l.startswith("RESULT")]
    if done.returncode != 0 or not line:
        raise SystemExit(f"{command}: {done.stderr[-500:]}")
    _, seconds, rss, checksum = line[-1].split()
    value = float(seconds)
    if instructions:
        value = float(re.findall(r"Collected : (\d+)", done.stderr)[-1])
    return value, int(rss), checksum

samples = {}
for run in range(runs):
    for label, g, c, o, _ in rows:
        jobs = [("grdb", tuple(g)), ("c", tuple(c))] + ([("ours", tuple(o))] if o else [])
        for kind, args in (jobs if run % 2 == 0 else jobs[::-1]):
            key = (kind, args)
            if len(samples.setdefault(key, [])) > run:
                continue
            samples[key].append(spawn("grdb" if kind == "grdb" else "ours", args))
        print(f"run {run + 1}: {label}", file=sys.stderr)

def cell(key):
    values = [v for v, _, _ in samples[key]]
    scale = 1e6 if instructions else 1e-3
    f = lambda x: f"{x / scale:.1f}" if instructions else f"{x / scale:.1f}"
    median = statistics.median(values)
    return median, (f(median) if len(values) == 1 else f"{f(median)} [{f(min(values))}–{f(max(values))}]")

unit = "M instr" if instructions else "ms"
print(f"| workload | GRDB {unit} | raw C {unit} | GRDB ÷ C | ours {unit} | ours ÷ C | GRDB quoted (wall / instr) | peak RSS MiB (GRDB / C / ours) |")
print("|---|---|---|---|---|---|---|---|")
for label, g, c, o, quoted in rows:
    gm, gt = cell(("grdb", tuple(g)))
    cm, ct = cell(("c", tuple(c)))
    om, ot = cell(("ours", tuple(o))) if o else (None, "—")
    checks = {s[2] for k in [("grdb", tuple(g)), ("c", tuple(c))] + ([("ours", tuple(o))] if o else []) for s in samples[k]}
    rss = "— (valgrind)" if instructions else " / ".join(f"{max(s[1] for s in samples[k]) / 1024:.1f}" if k in samples else "—"
                     for k in [("grdb", tuple(g)), ("c", tuple(c)), ("ours", tuple(o)) if o else None] if k)
    mismatch = " **CHECKSUM MISMATCH**" if len(checks) > 1 else ""
    print(f"| {label}{mismatch} | {gt} | {ct} | {gm / cm:.3f} | {ot} | {'—' if om is None else f'{om / cm:.3f}'} | {quoted or '—'} | {rss} |")
