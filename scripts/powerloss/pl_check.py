"""Recovery and the check of one replayed crash state.

A state is good when, after the recovery (the first cipherdb command on each of the flow's
files, which finishes or rolls back an interrupted operation; for first launch the next launch):
- the database opens with exactly one of the old and the new key (password and settings, raw
  key, or no key for plaintext), with every committed row (the fixture's, and those that were
  only in its -wal) and integrity_check ok;
- a copy (--to) is either absent or complete; the source of a copy is unchanged;
- no file holds plaintext rows where only encrypted data belongs;
- no file is left beside the database but SQLite's own and the flow's documented ones;
- what recovery said it did is what the files show;
- cipherdb itself opens the result with the user's password (key slots, recorded settings).
Each problem is "category: detail".
"""

import os
import re
import subprocess

import pl_flows
from pl_flows import MARKER, NEW, OLD


class Tools:
    def __init__(self, cipherdb, helper, timeout=300):
        self.cipherdb_path, self.helper_path, self.timeout = cipherdb, helper, timeout

    def env(self, extra=None):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
               "TMPDIR": os.environ.get("TMPDIR", "/tmp"), "PL_OLD": OLD, "PL_NEW": NEW, "LANG": "C.UTF-8"}
        # Sanitizer builds read their options from here; LeakSanitizer cannot run under strace.
        for name in ("TSAN_OPTIONS", "UBSAN_OPTIONS"):
            if name in os.environ:
                env[name] = os.environ[name]
        env["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
        env.update(extra or {})
        return env

    def argv(self, command, folder):
        program, words = command
        path = self.cipherdb_path if program == "cipherdb" else self.helper_path
        return [path] + [w.replace("{folder}", folder) for w in words]

    def cipherdb(self, folder, words, extra_env=None):
        return subprocess.run([self.cipherdb_path] + words, cwd=folder, env=self.env(extra_env), capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=self.timeout)

    def helper(self, folder, words):
        return subprocess.run([self.helper_path] + words, cwd=folder, env=self.env(), capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=self.timeout)


def _text(result):
    return (result.stdout + result.stderr).decode("utf-8", "replace").strip().replace("\n", " | ")


def files_of(folder):
    out = []
    for base, dirs, names in os.walk(folder):
        rel = os.path.relpath(base, folder)
        for name in dirs + names:
            out.append(os.path.normpath(os.path.join(rel, name)))
    return sorted(out)


def plaintext_files(folder, exempt):
    found = []
    for path in files_of(folder):
        full = os.path.join(folder, path)
        if path in exempt or not os.path.isfile(full):
            continue
        with open(full, "rb") as handle:
            if MARKER in handle.read():
                found.append(path)
    return found


class Checker:
    def __init__(self, flow, fixture, tools):
        self.flow, self.fixture, self.tools = flow, fixture, tools

    def recover(self, folder, problems):
        """Runs recovery; returns the notes cipherdb printed, per path."""
        notes = {}
        flow = self.flow
        if flow.kind == "first-launch":
            result = self.tools.helper(folder, ["first-launch", folder])
            if result.returncode != 0 or b"DONE" not in result.stdout:
                problems.append("recovery-failed: the next first launch failed (exit %d): %s" % (result.returncode, _text(result)[:300]))
            return notes
        for path in [flow.db] + ([flow.out] if flow.out else []):
            result = self.tools.cipherdb(folder, ["info", path])
            text = result.stdout.decode("utf-8", "replace")
            notes[path] = [line for line in text.splitlines() if line.startswith("recovery:")]
            if result.returncode not in (0, 3, 4, 5, 6) or result.returncode < 0:
                problems.append("recovery-failed: `cipherdb info %s` exit %d: %s" % (path, result.returncode, _text(result)[:300]))
        if flow.kind == "one-of" and flow.old["kind"] == "password" and flow.new["kind"] == "password":
            # What finishes an interrupted in-place rekey is opening with a password: the user
            # tries the old one, then the new one.
            for key in (flow.old, flow.new):
                words = ["verify", flow.db, "--password-env", "PL_PASSWORD", "--kdf-iter", str(key["kdf"]), "--legacy-kdf"]
                if self.tools.cipherdb(folder, words, {"PL_PASSWORD": key["secret"]}).returncode == 0:
                    break
        return notes

    def read(self, folder, path, key, tag):
        if key is None or not os.path.exists(os.path.join(folder, path)):
            return {"opened": False, "count": 0, "digest": None, "integrity": "none", "error": "absent"}
        return pl_flows.open_copy(folder, path, key, folder.rstrip("/") + ".try-" + tag)

    def expect_rows(self, result, what, problems):
        count, digest = self.fixture["expected"]
        if result["integrity"] != "ok":
            problems.append("integrity: %s: integrity_check says %s" % (what, result["integrity"][:200]))
        if result["digest"] != digest:
            if self.flow.kind == "first-launch" and result["count"] >= count and self._has_fixture_rows(result):
                return
            problems.append("rows-lost: %s has %d rows of t, %d committed (or other values)" % (what, result["count"], count))

    def _has_fixture_rows(self, result):
        return set(self.fixture["rows"]) <= set(result.get("rows", []))

    def check(self, folder):
        problems = []
        notes = self.recover(folder, problems)
        kind = self.flow.kind
        if kind == "copy":
            self.check_copy(folder, notes, problems)
        elif kind in ("one-of", "first-launch"):
            self.check_one_of(folder, notes, problems)
        elif kind == "convert":
            self.check_convert(folder, problems)
        elif kind == "slot-password":
            self.check_slot_password(folder, problems)
        elif kind == "rotate":
            self.check_rotate(folder, problems)
        strays = [p for p in files_of(folder) if not self.flow.allowed(p)]
        if strays:
            problems.append("stray-files: %s left after recovery" % ", ".join(strays))
        return problems, notes

    # MARK: flows

    def _one_of(self, folder, path, old, new, problems, labels=("old", "new")):
        results = {labels[0]: self.read(folder, path, old, "a"), labels[1]: self.read(folder, path, new, "b")}
        opening = [label for label, result in results.items() if result["opened"]]
        if not opening:
            problems.append("no-key-opens: %s opens with neither the %s nor the %s key" % (path, labels[0], labels[1]))
            return None
        if len(opening) == 2:
            problems.append("both-open: %s opens with both keys" % path)
        self.expect_rows(results[opening[0]], "%s under the %s key" % (path, opening[0]), problems)
        return opening[0]

    def _note_check(self, notes, path, opened, problems):
        for note in notes.get(path, []):
            if note.startswith("recovery: finished") and opened == "old":
                problems.append("untrue-message: recovery said %r but only the old key opens %s" % (note, path))
            if note.startswith("recovery: rolled back") and opened == "new":
                problems.append("untrue-message: recovery said %r but only the new key opens %s" % (note, path))

    def check_one_of(self, folder, notes, problems):
        flow = self.flow
        new = flow.new
        if flow.kind == "first-launch":
            new = read_key_file(os.path.join(folder, "keys", "db"))
        opened = self._one_of(folder, flow.db, flow.old, new, problems)
        self._note_check(notes, flow.db, opened, problems)
        if flow.kind == "first-launch" and opened == "old":
            problems.append("not-encrypted: after the next launch %s is still plaintext" % flow.db)
        if opened == "new" or flow.old["kind"] != "plain" or self._main_file_encrypted(folder):
            leaks = plaintext_files(folder, ())
            if leaks:
                problems.append("plaintext-left: row values readable in %s" % ", ".join(leaks))
        if flow.name == "settings" and opened:
            self.check_settings_record(folder, opened, problems)

    def _main_file_encrypted(self, folder):
        """True when the database file itself has no plaintext SQLite header (its -wal may)."""
        try:
            with open(os.path.join(folder, self.flow.db), "rb") as handle:
                return handle.read(16) != b"SQLite format 3\0"
        except OSError:
            return False

    def check_settings_record(self, folder, opened, problems):
        result = self.tools.cipherdb(folder, ["verify", "db.db", "--password-env", "PL_OLD"] + pl_flows.KDF)
        text = _text(result)
        if result.returncode == 0:
            if opened != "old":
                problems.append("untrue-message: verify with the old settings succeeded on the new file")
            return
        if opened == "new" and "--kdf-iter 8000" not in text:
            problems.append("settings-undiscoverable: the right password with the old options gets: %s" % text[:300])
        elif opened == "old":
            problems.append("verify-fails: the old settings open the file but verify says: %s" % text[:300])

    def check_copy(self, folder, notes, problems):
        flow = self.flow
        source = self.read(folder, flow.db, flow.old, "s")
        if not source["opened"]:
            problems.append("source-damaged: %s no longer opens with its key" % flow.db)
        else:
            self.expect_rows(source, "the source %s" % flow.db, problems)
        out_exists = os.path.exists(os.path.join(folder, flow.out))
        if out_exists:
            copy = self.read(folder, flow.out, flow.new, "c")
            if not copy["opened"]:
                problems.append("partial-copy: %s is left and does not open with its key" % flow.out)
            else:
                self.expect_rows(copy, "the copy %s" % flow.out, problems)
        for note in notes.get(flow.out, []) + notes.get(flow.db, []):
            if note.startswith("recovery: finished") and not out_exists:
                problems.append("untrue-message: recovery said %r but there is no %s" % (note, flow.out))
            if note.startswith("recovery: rolled back") and out_exists:
                problems.append("untrue-message: recovery said %r but %s is there" % (note, flow.out))
        plain_side = flow.db if flow.old["kind"] == "plain" else flow.out
        exempt = [plain_side + s for s in pl_flows.SQLITE_FILES]
        leaks = plaintext_files(folder, exempt)
        if leaks:
            problems.append("plaintext-left: row values readable in %s" % ", ".join(leaks))

    def verify(self, folder, secret, extra=()):
        return self.tools.cipherdb(folder, ["verify", "db.db", "--password-env", "PL_PASSWORD"] + list(extra), {"PL_PASSWORD": secret})

    def check_convert(self, folder, problems):
        # The user's next step is opening with the password: that finishes a conversion whose
        # slot file is still `.scm-keys.next`. Then the slots (if any) give the data key.
        result = self.verify(folder, OLD, pl_flows.KDF)
        if result.returncode != 0:
            result = self.verify(folder, OLD)
        if result.returncode != 0:
            problems.append("verify-fails: `cipherdb verify` with the password: %s" % _text(result)[:300])
        slots = os.path.exists(os.path.join(folder, "db.db.scm-keys"))
        new = export_key_quiet(self.tools, folder, OLD) if slots else None
        self._one_of(folder, "db.db", self.flow.old, new, problems, ("password", "slot data"))
        self._no_plaintext(folder, problems)

    def check_slot_password(self, folder, problems):
        accepted = [label for label, secret in (("old", OLD), ("new", NEW)) if self.verify(folder, secret).returncode == 0]
        if len(accepted) != 1:
            problems.append("%s: cipherdb verify accepts %s" % ("no-key-opens" if not accepted else "both-open",
                                                                "neither password" if not accepted else "both passwords"))
        if accepted:
            key = export_key_quiet(self.tools, folder, OLD if accepted[0] == "old" else NEW)
            result = self.read(folder, "db.db", key, "k")
            if not result["opened"]:
                problems.append("no-key-opens: the slot's data key does not open db.db")
            else:
                self.expect_rows(result, "db.db under the slot's data key", problems)
        self._no_plaintext(folder, problems)

    def check_rotate(self, folder, problems):
        result = self.verify(folder, OLD)
        opened = self._one_of(folder, "db.db", self.fixture["old_key"], self.fixture["new_key"], problems)
        if result.returncode != 0:
            problems.append("verify-fails: `cipherdb verify` with the password: %s" % _text(result)[:300])
        elif opened:
            key = export_key_quiet(self.tools, folder, OLD)
            expected = self.fixture["old_key" if opened == "old" else "new_key"]
            if key is None or key["hex"] != expected["hex"]:
                problems.append("slot-mismatch: the key slots hold another data key than the one that opens db.db")
        self._no_plaintext(folder, problems)

    def _no_plaintext(self, folder, problems):
        leaks = plaintext_files(folder, ())
        if leaks:
            problems.append("plaintext-left: row values readable in %s" % ", ".join(leaks))


def export_key_quiet(tools, folder, secret):
    key, _ = pl_flows.export_key(tools, folder, "db.db", secret)
    return key


def read_key_file(path):
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if len(data) == 32:
        return {"kind": "raw", "hex": data.hex()}
    text = data.strip().decode("ascii", "replace")
    return {"kind": "raw", "hex": text.lower()} if re.fullmatch(r"[0-9a-fA-F]{64}", text) else None
