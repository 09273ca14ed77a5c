"""Writes a crash state into a fresh folder, with the identities recovery would see.

A replayed file is a new inode with new times, but the code under test may have recorded a
file's identity ("device:inode:size:mtime[:ctime…]", as FileSystem.stamp/fingerprint write it)
in a small text file (the operation journal) and compare it after the crash. After a real power
loss the inode is the same one and its times are those of its last durable change. So:
- each file's modification time is set to the one the run observed (by stat) for the file's last
  kept change, when the run observed it (an unobserved time cannot be in any record);
- in small text files of the state, a recorded "device:inode:" of a file present in the state is
  rewritten to the replayed file's, and a recorded status-change time that is the faithful one
  for that file to the replayed file's (it cannot be set).
A record of a file that the state does not hold, or of another time, is left as it was: it
does not match, as it would not after a real crash.
"""

import os
import re

_STAMP = re.compile(rb"\b(\d+):(\d+):(\d+):(\d+)\.(\d+)(?::(\d+)\.(\d+))?")
_MTIME_KINDS = ("write", "trunc", "creat")
_CTIME_KINDS = ("write", "trunc", "creat", "rename", "link", "unlink")


class Identities:
    """Per inode: the ops that change its times and the stat observations of it."""

    def __init__(self, initial, ops, observations, modes):
        self.initial, self.modes = initial, modes
        self.mtime_ops, self.ctime_ops, self.seen = {}, {}, {}
        for op in ops:
            if op.inode is None:
                continue
            if op.kind in _MTIME_KINDS:
                self.mtime_ops.setdefault(op.inode, []).append(op.index)
            if op.kind in _CTIME_KINDS:
                self.ctime_ops.setdefault(op.inode, []).append(op.index)
        self.by_number = {}
        for inode, info in initial.stats.items():
            self.by_number[(info.st_dev, info.st_ino)] = inode
        for obs in observations:
            self.seen.setdefault(obs.inode, []).append(obs)
            self.by_number[(obs.device, obs.number)] = obs.inode

    def _epoch_value(self, inode, changes, state, field):
        kept = [i for i in changes.get(inode, []) if i < state.prefix and i not in state.dropped]
        last = kept[-1] if kept else -1
        later = [i for i in changes.get(inode, []) if i > last]
        until = later[0] if later else 1 << 62
        if last < 0 and inode in self.initial.stats:
            info = self.initial.stats[inode]
            initial = (info.st_mtime_ns // 10**9, info.st_mtime_ns % 10**9) if field == "mtime" else (
                info.st_ctime_ns // 10**9, info.st_ctime_ns % 10**9)
        else:
            initial = None
        value = initial
        for obs in self.seen.get(inode, []):
            if last < obs.index <= until:
                value = getattr(obs, field)
        return value

    def faithful(self, inode, state):
        """(mtime, ctime) the inode has after this crash, as recorded by the run, or None each."""
        return (self._epoch_value(inode, self.mtime_ops, state, "mtime"),
                self._epoch_value(inode, self.ctime_ops, state, "ctime"))

    def for_state(self, inodes, state):
        return {path: (inode,) + self.faithful(inode, state) for path, inode in inodes.items()}


def _is_text(data):
    if data is None or len(data) > 65536 or b"\0" in data or data.startswith(b"SQLite format 3"):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def write_state(folder, tree, identity, identities):
    """Creates the state's files in `folder` (which must exist and be empty)."""
    for path in sorted(tree):
        full = os.path.join(folder, path)
        if tree[path] is None:
            os.makedirs(full, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as handle:
                handle.write(tree[path])
    path_of = {entry[0]: path for path, entry in identity.items() if tree.get(path) is not None}
    texts = [path for path in tree if _is_text(tree[path]) and _STAMP.search(tree[path])]
    replay = {path: os.stat(os.path.join(folder, path)) for path in tree if tree[path] is not None}

    def substitute(data, with_ctime):
        def replace(match):
            inode = identities.by_number.get((int(match.group(1)), int(match.group(2))))
            path = path_of.get(inode)
            if path is None:
                return match.group(0)
            info = replay[path]
            out = b"%d:%d:%s:%s.%s" % (info.st_dev, info.st_ino, match.group(3), match.group(4), match.group(5))
            if match.group(6) is not None:
                recorded = (int(match.group(6)), int(match.group(7)))
                if with_ctime and identity[path][2] == recorded:
                    out += b":%d.%d" % (info.st_ctime_ns // 10**9, info.st_ctime_ns % 10**9)
                else:
                    out += b":%s.%s" % (match.group(6), match.group(7))
            return out

        return _STAMP.sub(replace, data)

    for path in texts:
        with open(os.path.join(folder, path), "wb") as handle:
            handle.write(substitute(tree[path], False))
    for path, entry in identity.items():
        mode = identities.modes.get(entry[0])
        if mode is not None and path in tree:
            os.chmod(os.path.join(folder, path), mode)
    for path, (inode, mtime, _) in identity.items():
        if tree.get(path) is not None and mtime is not None:
            ns = mtime[0] * 10**9 + mtime[1]
            os.utime(os.path.join(folder, path), ns=(ns, ns))
    replay = {path: os.stat(os.path.join(folder, path)) for path in tree if tree[path] is not None}
    for path in texts:
        full = os.path.join(folder, path)
        before = os.stat(full)
        with open(full, "wb") as handle:
            handle.write(substitute(tree[path], True))
        os.utime(full, ns=(before.st_atime_ns, before.st_mtime_ns))
