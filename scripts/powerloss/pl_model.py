"""Crash states: what a file system may hold after a power loss part-way through the ops.

The model is POSIX's, as ALICE (OSDI 2014) uses it for its weakest file system:
- a data write or size change of a file is durable once a later fsync/fdatasync of that file
  returned; until then it may be lost, alone or with any others;
- a folder operation (create, mkdir, rename, link, unlink, rmdir) is durable once a later
  fsync of that folder returned; until then it may be lost or persist out of order;
- sync() makes everything durable. Each write call is atomic (no torn sectors).

A crash at prefix k keeps every op before k that was made durable before k, and some subset of
the others. The subsets tried (families):
  all        every op kept (a kill -9 at that point)               every prefix
  none       every non-durable op dropped                          every prefix
  data-lost  non-durable writes dropped, folder ops kept           at each flush or folder op
  dirs-lost  non-durable folder ops dropped, writes kept           "
  file-lost  one file's non-durable writes dropped                 "
  file-only  only one file's non-durable writes kept               "
  dirs-cut   the non-durable folder ops cut after the j-th (writes kept, and dropped)   "
  dir-skip   one non-durable folder op dropped, the later ones kept (reordered)         "
  write-skip one non-durable write dropped                         " (the last 8 per file)
  write-only one non-durable write kept, the others dropped         " (the last 8 per file)
Equal resulting folders are checked once.
"""

import hashlib


class State:
    """One crash state: the prefix length, the dropped op indices, the family, the folder."""

    __slots__ = ("prefix", "dropped", "family", "tree", "key", "identity")

    def __init__(self, prefix, dropped, family):
        self.prefix, self.dropped, self.family = prefix, dropped, family
        self.tree = None
        self.key = None
        self.identity = None

    def describe(self, ops):
        last = ops[self.prefix - 1].desc if self.prefix > 0 else "(nothing yet)"
        text = "crash after op #%d of %d (%s), family %s" % (self.prefix - 1, len(ops), last, self.family)
        if self.dropped:
            shown = ", ".join("#%d %s" % (i, ops[i].desc) for i in sorted(self.dropped)[:8])
            more = len(self.dropped) - 8
            text += "; lost: " + shown + (" and %d more" % more if more > 0 else "")
        return text


def first_covers(ops):
    """For each op, the index of the first later op that makes it durable (len(ops) if none).

    A flush covers what ended before the flush began (another thread may write meanwhile).
    """
    n = len(ops)
    covers = [n] * n
    syncs = {}
    global_syncs = []
    for op in ops:
        if op.kind == "fsync":
            syncs.setdefault(op.inode, []).append(op)
        elif op.kind == "sync":
            global_syncs.append(op)

    def first(candidates, op):
        for sync in candidates:
            if sync.index > op.index and op.end < sync.entry:
                return sync.index
        return n

    for op in ops:
        if op.is_data:
            covers[op.index] = min(first(syncs.get(op.inode, []), op), first(global_syncs, op))
        elif op.is_folder_op:
            covers[op.index] = min(max(first(syncs.get(f, []), op) for f in op.folders), first(global_syncs, op))
        else:
            covers[op.index] = op.index
    return covers


def candidate_states(ops, per_file_writes=8):
    """Every (prefix, dropped) pair the families above give, without duplicates of the pair."""
    covers = first_covers(ops)
    seen = set()
    out = []

    def add(prefix, dropped, family):
        key = (prefix, frozenset(dropped))
        if key not in seen:
            seen.add(key)
            out.append(State(prefix, frozenset(dropped), family))

    n = len(ops)
    for k in range(n + 1):
        unsynced = [j for j in range(k) if covers[j] >= k and (ops[j].is_data or ops[j].is_folder_op)]
        add(k, (), "all")
        add(k, unsynced, "none")
        boundary = k == n or ops[k].is_sync or ops[k].is_folder_op
        if not boundary or not unsynced:
            continue
        data = [j for j in unsynced if ops[j].is_data]
        folder = [j for j in unsynced if ops[j].is_folder_op]
        add(k, data, "data-lost")
        add(k, folder, "dirs-lost")
        by_file = {}
        for j in data:
            by_file.setdefault(ops[j].inode, []).append(j)
        for inode, writes in by_file.items():
            add(k, writes, "file-lost")
            add(k, [j for j in data if ops[j].inode != inode], "file-only")
            for j in writes[-per_file_writes:]:
                add(k, [j], "write-skip")
                add(k, [x for x in unsynced if x != j], "write-only")
        for cut in range(len(folder)):
            add(k, folder[cut:], "dirs-cut")
            add(k, folder[cut:] + data, "dirs-cut")
        for j in folder:
            add(k, [j], "dir-skip")
    return out


def build_tree(initial, ops, state):
    """The folder of a state: {relative path: bytes (file) or None (folder)} and path -> inode."""
    files = {inode: bytearray(data) for inode, data in initial.files.items()}
    folders = {inode: dict(entries) for inode, entries in initial.folders.items()}
    dropped = state.dropped
    for i in range(state.prefix):
        if i in dropped:
            continue
        op = ops[i]
        kind = op.kind
        if kind == "write":
            offset, data = op.args
            content = files.setdefault(op.inode, bytearray())
            if len(content) < offset:
                content.extend(b"\0" * (offset - len(content)))
            content[offset: offset + len(data)] = data
        elif kind == "trunc":
            content = files.setdefault(op.inode, bytearray())
            size = op.args[0]
            if len(content) > size:
                del content[size:]
            else:
                content.extend(b"\0" * (size - len(content)))
        elif kind == "creat":
            parent, name = op.args
            files.setdefault(op.inode, bytearray())
            folders.setdefault(parent, {})[name] = op.inode
        elif kind == "mkdir":
            parent, name = op.args
            folders.setdefault(op.inode, {})
            folders.setdefault(parent, {})[name] = op.inode
        elif kind == "rename":
            sparent, sname, tparent, tname, _ = op.args
            if folders.get(sparent, {}).get(sname) == op.inode:
                del folders[sparent][sname]
            folders.setdefault(tparent, {})[tname] = op.inode
        elif kind == "link":
            tparent, tname = op.args
            folders.setdefault(tparent, {})[tname] = op.inode
        elif kind in ("unlink", "rmdir"):
            parent, name = op.args
            if folders.get(parent, {}).get(name) == op.inode:
                del folders[parent][name]
    tree, inodes = {}, {}

    def walk(inode, rel, depth):
        if depth > 16:
            return
        for name, child in sorted(folders.get(inode, {}).items()):
            path = rel + name
            inodes[path] = child
            if child in folders:
                tree[path] = None
                walk(child, path + "/", depth + 1)
            else:
                tree[path] = bytes(files.get(child, b""))

    walk(initial.root, "", 0)
    return tree, inodes


def state_key(tree, identity):
    digest = hashlib.sha256()
    for path in sorted(tree):
        data = tree[path]
        digest.update(path.encode() + b"\0")
        digest.update(b"D" if data is None else hashlib.sha256(data).digest())
        digest.update(repr(identity.get(path)).encode())
    return digest.hexdigest()
