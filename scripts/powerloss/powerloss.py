#!/usr/bin/env python3
"""Power-loss explorer for cipherdb's flows: ALICE-style (OSDI 2014).

For each flow and journal mode: make a 500-row fixture, run the one operation under strace,
turn the trace into the folder's operations (pl_ops), build every crash state a POSIX file
system may leave (pl_model: each prefix, non-durable writes and folder operations dropped or
reordered, in bounded families), replay each distinct state into a fresh folder (pl_replay),
run recovery and check it (pl_check). Prints each bad state and one summary line per flow and
mode; exits 1 when any state is bad (2 on a setup error).

  scripts/powerloss/powerloss.py [--flows a,b] [--modes delete,wal,wal-pending] [--budget N] [--jobs N]

Needs strace, the sqlcipher shell and a built cipherdb (and FaultInjectionHelper for
first-launch): `swift build` first.
"""

import argparse
import json
import multiprocessing
import os
import random
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pl_check  # noqa: E402
import pl_flows  # noqa: E402
import pl_model  # noqa: E402
import pl_ops  # noqa: E402
import pl_replay  # noqa: E402
import pl_trace  # noqa: E402

FAMILY_ORDER = ["none", "data-lost", "dirs-lost", "dirs-cut", "dir-skip", "file-lost", "file-only", "all",
                "write-skip", "write-only"]


class SetupError(Exception):
    pass


def fixture_key(flow):
    if flow.fixture_key is not None:
        return flow.fixture_key
    return pl_flows.PLAIN if flow.fixture == "plaintext" else pl_flows.password(pl_flows.OLD)


def make_fixture(flow, mode, run, tools, scratch):
    """Creates the fixture in `run`; returns what the checks need to know about it."""
    os.makedirs(run)
    db = os.path.join(run, flow.db)
    key = fixture_key(flow)
    info = {}
    if flow.fixture == "header":
        pl_flows.create_database(db, pl_flows.password(pl_flows.OLD), wal=mode != "delete")
        result = tools.cipherdb(run, ["plaintext-header", flow.db, "on", "--password-env", "PL_OLD"] + pl_flows.KDF)
        if result.returncode != 0:
            raise SetupError("plaintext-header on for the fixture failed: %s" % pl_check._text(result))
    else:
        pl_flows.create_database(db, key, wal=mode != "delete")
    if flow.fixture == "slots":
        result = tools.cipherdb(run, ["keys", flow.db, "convert", "--password-env", "PL_OLD"] + pl_flows.KDF)
        if result.returncode != 0:
            raise SetupError("keys convert for the fixture failed: %s" % pl_check._text(result))
        shutil.copytree(run, scratch)
        key, result = pl_flows.export_key(tools, scratch, flow.db, pl_flows.OLD)
        shutil.rmtree(scratch)
        if key is None:
            raise SetupError("export-key of the fixture failed: %s" % pl_check._text(result))
        info["old_key"] = key
    if mode == "wal-pending":
        pl_flows.add_pending_rows(db, key)
    expected = pl_flows.open_copy(run, flow.db, key, scratch)
    if not expected["opened"] or expected["integrity"] != "ok":
        raise SetupError("the fixture does not open: %s" % expected["error"])
    rows = pl_flows.ROWS + (pl_flows.PENDING_ROWS if mode == "wal-pending" else 0)
    if expected["count"] != rows:
        raise SetupError("the fixture has %d rows, not %d" % (expected["count"], rows))
    info["expected"] = (expected["count"], expected["digest"])
    info["rows"] = expected["rows"]
    return info


def select(states, budget, seed):
    """Up to `budget` states, interleaving the families so that a small budget still spans them."""
    if budget is None or len(states) <= budget:
        return states
    rng = random.Random(seed)
    by_family = {}
    for state in states:
        by_family.setdefault(state.family, []).append(state)
    for group in by_family.values():
        rng.shuffle(group)
    order = [f for f in FAMILY_ORDER if f in by_family]
    chosen, i = [], 0
    while len(chosen) < budget:
        for family in order:
            if i < len(by_family[family]) and len(chosen) < budget:
                chosen.append(by_family[family][i])
        i += 1
    return sorted(chosen, key=lambda s: (s.prefix, len(s.dropped)))


_G = {}


def check_state(job):
    number, tree, identity = job
    folder = os.path.join(_G["base"], "state-%d" % number, "w")
    os.makedirs(folder)
    pl_replay.write_state(folder, tree, identity, _G["identities"])
    try:
        problems, notes = _G["checker"].check(folder)
    except Exception as error:  # a check that cannot run is a finding, not a crash of the explorer
        problems, notes = ["check-error: %r" % (error,)], {}
    if not _G["keep"] or not problems:
        shutil.rmtree(os.path.dirname(folder), ignore_errors=True)
    return number, problems, notes


def explore(flow, mode, args, tools, base):
    started = time.time()
    work = os.path.join(base, "%s-%s" % (flow.name, mode))
    run = os.path.join(work, "run")
    os.makedirs(work)
    fixture = make_fixture(flow, mode, run, tools, os.path.join(work, "scratch"))
    initial = pl_ops.Initial(run)
    trace_path = os.path.join(work, "trace.txt")
    argv = tools.argv(flow.command, os.path.realpath(run))
    result = pl_trace.run_traced(argv, run, tools.env(), trace_path)
    if result.returncode != 0:
        raise SetupError("the traced %s failed (exit %d): %s" % (flow.name, result.returncode, pl_check._text(result)))
    if flow.kind == "rotate":
        shutil.copytree(run, os.path.join(work, "scratch"))
        fixture["new_key"], _ = pl_flows.export_key(tools, os.path.join(work, "scratch"), flow.db, pl_flows.OLD)
        shutil.rmtree(os.path.join(work, "scratch"))
    recorder = pl_ops.record(initial, trace_path, os.path.realpath(run))
    ops = recorder.ops
    identities = pl_replay.Identities(initial, ops, recorder.observations, recorder.modes)
    candidates = pl_model.candidate_states(ops)
    if args.keep:
        covers = pl_model.first_covers(ops)
        with open(os.path.join(work, "ops.txt"), "w") as handle:
            for op in ops:
                durable = "durable at #%d" % covers[op.index] if covers[op.index] < len(ops) else "never made durable"
                handle.write("#%d %s%s\n" % (op.index, op.desc, "" if op.is_sync else "  (%s)" % durable))
    pool_size = len(candidates)
    if args.budget is not None:
        # Building every candidate's folder costs more than a small budget's checks: keep a
        # spread-out sample of them, which still leaves enough distinct folders to choose from.
        candidates = select(candidates, args.budget * 25, args.seed)
    unique = {}
    for state in candidates:
        tree, inodes = pl_model.build_tree(initial, ops, state)
        state.identity = identities.for_state(inodes, state)
        state.key = pl_model.state_key(tree, state.identity)
        if state.key not in unique:
            state.tree = tree
            unique[state.key] = state
    states = select(list(unique.values()), args.budget, args.seed)
    _G.update(base=work, identities=identities, checker=pl_check.Checker(flow, fixture, tools), keep=args.keep)
    jobs = [(i, s.tree, s.identity) for i, s in enumerate(states)]
    bad = []
    pool = multiprocessing.get_context("fork").Pool(args.jobs)
    try:
        for number, problems, notes in pool.imap_unordered(check_state, jobs):
            if problems:
                bad.append((states[number], problems, notes, number))
        pool.close()
    finally:
        pool.terminate()
        pool.join()
    bad.sort(key=lambda item: (item[0].prefix, len(item[0].dropped)))
    categories = {}
    for state, problems, notes, number in bad:
        for category in sorted({p.split(":", 1)[0] for p in problems}):
            categories[category] = categories.get(category, 0) + 1
        if not args.quiet:
            print("BAD %s/%s state %d: %s" % (flow.name, mode, number, state.describe(ops)))
            for problem in problems:
                print("    " + problem)
            for path, lines in notes.items():
                for line in lines:
                    print("    (%s) %s" % (path, line))
            if args.keep:
                print("    replayed folder (after recovery): %s" % os.path.join(work, "state-%d" % number, "w"))
    summary = {
        "flow": flow.name, "mode": mode, "ops": len(ops), "candidates": pool_size, "unique": len(unique),
        "explored": len(states), "bad": len(bad), "categories": categories, "seconds": round(time.time() - started, 1),
        "warnings": recorder.warnings,
    }
    print("SUMMARY %-22s %-12s ops=%-4d candidates=%-6d unique=%-5d explored=%-5d bad=%-4d %s(%.0fs)" % (
        flow.name, mode, len(ops), pool_size, len(unique), len(states), len(bad),
        " ".join("%s=%d" % kv for kv in sorted(categories.items())) + (" " if categories else ""), summary["seconds"]))
    sys.stdout.flush()
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return summary


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    flows = pl_flows.flows()
    parser.add_argument("--flows", default=",".join(flows), help="comma-separated, from: " + ", ".join(flows))
    parser.add_argument("--modes", default=",".join(pl_flows.MODES), help="comma-separated, from: " + ", ".join(pl_flows.MODES))
    parser.add_argument("--budget", type=int, default=None, help="at most N distinct states per flow and mode (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--cipherdb", default=os.path.join(repo, ".build", "debug", "cipherdb"))
    parser.add_argument("--helper", default=os.path.join(repo, ".build", "debug", "FaultInjectionHelper"))
    parser.add_argument("--workdir", default=None, help="where fixtures and states go (default: a new temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the bad states' folders and the traces")
    parser.add_argument("--quiet", action="store_true", help="only the summary lines")
    parser.add_argument("--json", default=None, help="write the summaries to this file")
    args = parser.parse_args()
    # A parent (a test runner's thread) may have blocked signals: the pool and the programs
    # under test need SIGTERM, SIGCHLD and the others delivered as usual.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for tool in ("strace", "sqlcipher"):
        if shutil.which(tool) is None:
            print("powerloss: %s is not installed (scripts/ensure-deps.sh installs it)" % tool, file=sys.stderr)
            return 2
    for path in (args.cipherdb,):
        if not os.access(path, os.X_OK):
            print("powerloss: %s is not built; run `swift build` first" % path, file=sys.stderr)
            return 2
    tools = pl_check.Tools(args.cipherdb, args.helper)
    base = tempfile.mkdtemp(prefix="powerloss-", dir=args.workdir)
    summaries, failed = [], False
    try:
        for name in args.flows.split(","):
            for mode in args.modes.split(","):
                try:
                    summaries.append(explore(flows[name], mode, args, tools, base))
                except (SetupError, pl_trace.TraceError) as error:
                    print("ERROR %s/%s: %s" % (name, mode, error))
                    failed = True
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    total = sum(s["explored"] for s in summaries)
    bad = sum(s["bad"] for s in summaries)
    print("TOTAL states explored=%d bad=%d in %d flow x mode runs%s" % (total, bad, len(summaries), " (setup errors above)" if failed else ""))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(summaries, handle, indent=1)
    return 2 if failed else (1 if bad else 0)


if __name__ == "__main__":
    sys.exit(main())
