"""The operations of one traced run on one folder: a live model of the folder follows the trace
(names to inodes, descriptors to inodes and offsets) and records each durable-relevant step.

Op kinds: write (inode, offset, bytes), trunc (inode, size), creat / mkdir (folder, name, inode),
rename (from folder+name to folder+name, inode), link, unlink / rmdir (folder, name, inode),
fsync (inode: a file's data, or a folder's entries), sync (everything).
"""

import os
import re

import pl_trace
from pl_trace import TraceError


class Op:
    __slots__ = ("index", "kind", "inode", "folders", "args", "desc", "entry", "end")

    def __init__(self, kind, inode, folders, args, desc):
        self.index = -1
        self.entry = self.end = 0
        self.kind, self.inode, self.folders, self.args, self.desc = kind, inode, folders, args, desc

    @property
    def is_data(self):
        return self.kind in ("write", "trunc")

    @property
    def is_folder_op(self):
        return self.kind in ("creat", "mkdir", "rename", "link", "unlink", "rmdir")

    @property
    def is_sync(self):
        return self.kind in ("fsync", "sync")


class Observation:
    """What one stat call saw: after ops[0:index], inode (model id) had these recorded values."""

    __slots__ = ("index", "inode", "device", "number", "mtime", "ctime")

    def __init__(self, index, inode, device, number, mtime, ctime):
        self.index, self.inode, self.device, self.number, self.mtime, self.ctime = index, inode, device, number, mtime, ctime


class Initial:
    """The folder before the run: inode contents, folder entries, the root inode."""

    def __init__(self, root):
        self.root_path = os.path.realpath(root)
        self.files = {}  # inode -> bytes
        self.folders = {}  # inode -> {name: inode}
        self.names = {}  # inode -> relative path (for descriptions)
        self.stats = {}  # inode -> os.stat_result
        self.next_inode = 1
        self.root = self._load(self.root_path, "")

    def _load(self, path, rel):
        inode = self.next_inode
        self.next_inode += 1
        self.stats[inode] = os.lstat(path)
        self.names[inode] = rel or "."
        if os.path.isdir(path):
            entries = {}
            for name in sorted(os.listdir(path)):
                entries[name] = self._load(os.path.join(path, name), os.path.join(rel, name))
            self.folders[inode] = entries
        else:
            with open(path, "rb") as handle:
                self.files[inode] = handle.read()
        return inode


class _OpenFile:
    __slots__ = ("inode", "position", "append")

    def __init__(self, inode, append):
        self.inode, self.position, self.append = inode, 0, append


def is_shm(name):
    return name.endswith("-shm")


class Recorder:
    """Follows a trace over the live model of `initial`'s folder and collects ops and observations."""

    def __init__(self, initial, cwd):
        self.initial = initial
        self.root = initial.root_path
        self.cwd = cwd
        self.folders = {k: dict(v) for k, v in initial.folders.items()}
        self.sizes = {k: len(v) for k, v in initial.files.items()}
        self.kinds = {k: "dir" for k in initial.folders} | {k: "file" for k in initial.files}
        self.names = dict(initial.names)
        self.modes = {inode: info.st_mode & 0o7777 for inode, info in initial.stats.items()}
        self.umask = os.umask(0o022)
        os.umask(self.umask)
        self.next_inode = initial.next_inode
        self.descriptors = {}
        self.pinned = {}
        self.ops = []
        self.entry = self.end = 0
        self.observations = []
        self.warnings = []

    # MARK: paths

    def _relative(self, path):
        """The path's parts below the root, or None outside it."""
        path = os.path.normpath(path)
        if path == self.root:
            return []
        if not path.startswith(self.root + os.sep):
            return None
        return path[len(self.root) + 1:].split(os.sep)

    def _lookup(self, parts):
        inode = self.initial.root
        for part in parts:
            entries = self.folders.get(inode)
            if entries is None or part not in entries:
                return None
            inode = entries[part]
        return inode

    def _parent(self, parts):
        return self._lookup(parts[:-1]) if parts else None

    def _absolute(self, dirfd_arg, path_arg):
        path = pl_trace.decode_text(path_arg.strip()[1:-1]) if path_arg.strip().startswith('"') else path_arg
        if os.path.isabs(path):
            return path
        if dirfd_arg is None:
            return os.path.join(self.cwd, path)
        _, base, _ = pl_trace.parse_fd(dirfd_arg)
        return os.path.join(base or self.cwd, path)

    def _add(self, kind, inode, folders, args, desc):
        op = Op(kind, inode, tuple(folders), args, desc)
        op.index = len(self.ops)
        op.entry, op.end = self.entry, self.end
        self.ops.append(op)
        return op

    def _name(self, inode):
        return self.names.get(inode, "inode%d" % inode)

    # MARK: folder operations

    def _create(self, parts, kind, mode=None):
        parent = self._parent(parts)
        if parent is None:
            raise TraceError("created %s in a folder the model does not know" % "/".join(parts))
        inode = self.next_inode
        self.next_inode += 1
        self.kinds[inode] = kind
        self.names[inode] = "/".join(parts)
        self.modes[inode] = (mode if mode is not None else (0o777 if kind == "dir" else 0o666)) & ~self.umask
        if kind == "dir":
            self.folders[inode] = {}
        else:
            self.sizes[inode] = 0
        self.folders[parent][parts[-1]] = inode
        self._add("creat" if kind == "file" else "mkdir", inode, [parent], (parent, parts[-1]),
                  "%s %s" % ("create" if kind == "file" else "mkdir", "/".join(parts)))
        return inode

    def _rename(self, old, new, flags=""):
        source, target = self._relative(old), self._relative(new)
        if source is None and target is None:
            return
        if source is None or target is None:
            raise TraceError("rename across the folder's edge: %s -> %s" % (old, new))
        inode = self._lookup(source)
        sparent, tparent = self._parent(source), self._parent(target)
        if inode is None:
            return
        replaced = self.folders[tparent].get(target[-1])
        if "RENAME_EXCHANGE" in flags:
            self.folders[sparent][source[-1]], self.folders[tparent][target[-1]] = replaced, inode
            self._add("exchange", inode, {sparent, tparent}, (sparent, source[-1], tparent, target[-1]),
                      "exchange %s <-> %s" % ("/".join(source), "/".join(target)))
            raise TraceError("RENAME_EXCHANGE is not modelled")
        del self.folders[sparent][source[-1]]
        self.folders[tparent][target[-1]] = inode
        self.names[inode] = "/".join(target)
        self._add("rename", inode, {sparent, tparent}, (sparent, source[-1], tparent, target[-1], replaced),
                  "rename %s -> %s%s" % ("/".join(source), "/".join(target), " (replacing)" if replaced else ""))

    def _link(self, old, new):
        source, target = self._relative(old), self._relative(new)
        if source is None or target is None:
            if source is not None or target is not None:
                raise TraceError("link across the folder's edge: %s -> %s" % (old, new))
            return
        inode = self._lookup(source)
        tparent = self._parent(target)
        self.folders[tparent][target[-1]] = inode
        self._add("link", inode, [tparent], (tparent, target[-1]), "link %s -> %s" % ("/".join(source), "/".join(target)))

    def _unlink(self, path, folder=False):
        parts = self._relative(path)
        if parts is None:
            return
        inode = self._lookup(parts)
        if inode is None:
            return
        parent = self._parent(parts)
        del self.folders[parent][parts[-1]]
        self._add("rmdir" if folder else "unlink", inode, [parent], (parent, parts[-1]),
                  "%s %s" % ("rmdir" if folder else "unlink", "/".join(parts)))

    # MARK: descriptors and data

    def _file(self, fd_arg, positional=False):
        number, path, _ = pl_trace.parse_fd(fd_arg)
        pinned = self.pinned.get(self.entry)
        if pinned is not None and pinned[0] == number:
            return pinned[1]
        handle = self.descriptors.get(number)
        if handle is not None:
            return handle
        if path is not None and self._relative(path) is not None:
            inode = self._stat_path(path)
            if inode is not None and not positional:
                # A call whose open strace printed out of order (threads): its path names the
                # file, and it needs no file offset.
                return _OpenFile(inode, False)
            raise TraceError("descriptor %s of %s was never seen opened" % (number, path))
        return None

    def _write(self, handle, offset, data, call):
        inode = handle.inode
        if self.kinds.get(inode) != "file":
            return
        self.sizes[inode] = max(self.sizes[inode], offset + len(data))
        if is_shm(self._name(inode)):
            return
        self._add("write", inode, [], (offset, data), "%s %s @%d +%d" % (call, self._name(inode), offset, len(data)))

    def _truncate(self, inode, size, call):
        if inode is None or self.kinds.get(inode) != "file":
            return
        self.sizes[inode] = size
        if is_shm(self._name(inode)):
            return
        self._add("trunc", inode, [], (size,), "%s %s to %d" % (call, self._name(inode), size))

    def _open(self, path, flags, result, mode=None):
        number, returned = pl_trace.parse_return(result)
        if number is None or number < 0:
            return
        path = returned or path
        parts = self._relative(path)
        if parts is None:
            self.descriptors.pop(number, None)
            return
        inode = self._lookup(parts)
        if inode is None:
            if "O_CREAT" not in flags:
                raise TraceError("opened %s, which the model does not have" % path)
            inode = self._create(parts, "file", int(mode, 8) if mode else None)
        elif "O_TRUNC" in flags and self.kinds[inode] == "file" and self.sizes[inode] > 0:
            self._truncate(inode, 0, "open(O_TRUNC)")
        self.descriptors[number] = _OpenFile(inode, "O_APPEND" in flags)

    # MARK: dispatch

    def feed(self, name, args_text, result, entry=0, end=0):
        self.entry, self.end = entry, end
        if name == "<entry>":
            number, _, _ = pl_trace.parse_fd(pl_trace.split_args(args_text)[0] if args_text else "")
            if number in self.descriptors:
                self.pinned[entry] = (number, self.descriptors[number])
            return
        value, _ = pl_trace.parse_return(result)
        if value is None or (value < 0 and name != "lseek"):
            return
        args = pl_trace.split_args(args_text)
        handler = getattr(self, "_on_" + name, None)
        if handler is not None:
            handler(args, result, value)

    def _on_open(self, args, result, value):
        self._open(self._absolute(None, args[0]), args[1], result, args[2] if len(args) > 2 else None)

    def _on_openat(self, args, result, value):
        self._open(self._absolute(args[0], args[1]), args[2], result, args[3] if len(args) > 3 else None)

    def _on_creat(self, args, result, value):
        self._open(self._absolute(None, args[0]), "O_CREAT|O_WRONLY|O_TRUNC", result, args[1])

    def _chmod(self, inode, mode):
        if inode is not None:
            self.modes[inode] = int(mode, 8) & 0o7777

    def _on_fchmod(self, args, result, value):
        handle = self._file(args[0])
        self._chmod(handle.inode if handle else None, args[1])

    def _on_chmod(self, args, result, value):
        self._chmod(self._stat_path(self._absolute(None, args[0])), args[1])

    def _on_fchmodat(self, args, result, value):
        self._chmod(self._stat_path(self._absolute(args[0], args[1])), args[2])

    def _on_close(self, args, result, value):
        number, _, _ = pl_trace.parse_fd(args[0])
        self.descriptors.pop(number, None)

    def _dup(self, old_arg, new_number):
        number, _, _ = pl_trace.parse_fd(old_arg)
        if number in self.descriptors:
            self.descriptors[new_number] = self.descriptors[number]
        else:
            self.descriptors.pop(new_number, None)

    def _on_dup(self, args, result, value):
        self._dup(args[0], value)

    _on_dup2 = _on_dup
    _on_dup3 = _on_dup

    def _on_fcntl(self, args, result, value):
        if args[1] in ("F_DUPFD", "F_DUPFD_CLOEXEC"):
            self._dup(args[0], value)

    def _on_read(self, args, result, value):
        handle = self._file(args[0], positional=True)
        if handle is not None:
            handle.position += value

    _on_readv = _on_read

    def _on_lseek(self, args, result, value):
        handle = self._file(args[0], positional=True)
        if handle is not None and value >= 0:
            handle.position = value

    def _data(self, arg, value, call):
        data, cut = pl_trace.parse_string(arg)
        if data is None or (cut and len(data) < value) or len(data) < value:
            raise TraceError("%s: strace recorded %s of %d written bytes" % (call, len(data or b""), value))
        return data[:value]

    def _iov(self, arg, value, call):
        data = b"".join(pl_trace.decode_bytes(m) for m in re.findall(r'iov_base="([^"]*)"', arg))
        if len(data) < value:
            raise TraceError("%s: strace recorded %d of %d written bytes" % (call, len(data), value))
        return data[:value]

    def _on_write(self, args, result, value):
        handle = self._file(args[0], positional=True)
        if handle is None:
            return
        offset = self.sizes.get(handle.inode, 0) if handle.append else handle.position
        self._write(handle, offset, self._data(args[1], value, "write"), "write")
        handle.position = offset + value

    def _on_writev(self, args, result, value):
        handle = self._file(args[0], positional=True)
        if handle is None:
            return
        offset = self.sizes.get(handle.inode, 0) if handle.append else handle.position
        self._write(handle, offset, self._iov(args[1], value, "writev"), "writev")
        handle.position = offset + value

    def _on_pwrite64(self, args, result, value):
        handle = self._file(args[0])
        if handle is not None:
            self._write(handle, int(args[3], 0), self._data(args[1], value, "pwrite64"), "pwrite64")

    def _on_pwritev(self, args, result, value):
        handle = self._file(args[0])
        if handle is not None:
            self._write(handle, int(args[3], 0), self._iov(args[1], value, "pwritev"), "pwritev")

    _on_pwritev2 = _on_pwritev

    def _on_ftruncate(self, args, result, value):
        handle = self._file(args[0])
        if handle is not None:
            self._truncate(handle.inode, int(args[1], 0), "ftruncate")

    def _on_truncate(self, args, result, value):
        parts = self._relative(self._absolute(None, args[0]))
        if parts is not None:
            self._truncate(self._lookup(parts), int(args[1], 0), "truncate")

    def _on_fallocate(self, args, result, value):
        handle = self._file(args[0])
        if handle is not None:
            if args[1] != "0":
                raise TraceError("fallocate mode %s is not modelled" % args[1])
            end = int(args[2], 0) + int(args[3], 0)
            if end > self.sizes.get(handle.inode, 0):
                self._truncate(handle.inode, end, "fallocate")

    def _on_fsync(self, args, result, value, call="fsync"):
        handle = self._file(args[0])
        if handle is not None:
            self._add("fsync", handle.inode, [], (call,), "%s %s" % (call, self._name(handle.inode)))

    def _on_fdatasync(self, args, result, value):
        self._on_fsync(args, result, value, "fdatasync")

    def _on_sync(self, args, result, value):
        self._add("sync", None, [], (), "sync")

    _on_syncfs = _on_sync

    def _on_rename(self, args, result, value):
        self._rename(self._absolute(None, args[0]), self._absolute(None, args[1]))

    def _on_renameat(self, args, result, value):
        self._rename(self._absolute(args[0], args[1]), self._absolute(args[2], args[3]))

    def _on_renameat2(self, args, result, value):
        self._rename(self._absolute(args[0], args[1]), self._absolute(args[2], args[3]), args[4])

    def _on_link(self, args, result, value):
        self._link(self._absolute(None, args[0]), self._absolute(None, args[1]))

    def _on_linkat(self, args, result, value):
        self._link(self._absolute(args[0], args[1]), self._absolute(args[2], args[3]))

    def _on_unlink(self, args, result, value):
        self._unlink(self._absolute(None, args[0]))

    def _on_unlinkat(self, args, result, value):
        self._unlink(self._absolute(args[0], args[1]), "AT_REMOVEDIR" in args[2])

    def _on_rmdir(self, args, result, value):
        self._unlink(self._absolute(None, args[0]), True)

    def _on_mkdir(self, args, result, value):
        parts = self._relative(self._absolute(None, args[0]))
        if parts is not None:
            self._create(parts, "dir", int(args[1], 8))

    def _on_mkdirat(self, args, result, value):
        parts = self._relative(self._absolute(args[0], args[1]))
        if parts is not None:
            self._create(parts, "dir", int(args[2], 8))

    def _on_chdir(self, args, result, value):
        self.cwd = self._absolute(None, args[0])

    def _on_mmap(self, args, result, value):
        if "MAP_SHARED" in args[3] and "PROT_WRITE" in args[2]:
            handle = self._file(args[4])
            if handle is not None and not is_shm(self._name(handle.inode)):
                raise TraceError("shared writable mmap of %s is not modelled" % self._name(handle.inode))

    def _copy(self, args, result, value):
        handle = self._file(args[0]) if args else None
        if handle is not None or (len(args) > 2 and self._file(args[2]) is not None):
            raise TraceError("copy_file_range/sendfile/splice into the folder is not modelled")

    _on_copy_file_range = _copy
    _on_sendfile = _copy
    _on_splice = _copy

    def _on_fork(self, args, result, value):
        self.warnings.append("the program forked; descriptors are followed as one table")

    _on_vfork = _on_fork

    def _on_clone(self, args, result, value):
        if "CLONE_FILES" not in ",".join(args):
            self._on_fork(args, result, value)

    _on_clone3 = _on_clone

    # MARK: stat observations

    def _observe(self, inode, struct):
        if inode is None:
            return
        fields = dict(re.findall(r"(st_\w+|stx_\w+)=([^,{}]+)", struct))
        if "st_ino" in fields:
            dev = re.search(r"st_dev=makedev\((0x[0-9a-f]+), (0x[0-9a-f]+)\)", struct)
            device = os.makedev(int(dev.group(1), 16), int(dev.group(2), 16)) if dev else None
            number = int(fields["st_ino"])
            mtime = (int(fields["st_mtime"].split()[0]), int(fields.get("st_mtime_nsec", "0")))
            ctime = (int(fields["st_ctime"].split()[0]), int(fields.get("st_ctime_nsec", "0")))
        elif "stx_ino" in fields:
            device = os.makedev(int(fields.get("stx_dev_major", "0")), int(fields.get("stx_dev_minor", "0")))
            number = int(fields["stx_ino"])
            times = dict(re.findall(r"(stx_[mc]time)=\{tv_sec=(-?\d+), tv_nsec=(\d+)\}", struct) and
                         [(k, (int(s), int(n))) for k, s, n in re.findall(r"(stx_[mc]time)=\{tv_sec=(-?\d+), tv_nsec=(\d+)\}", struct)])
            if "stx_mtime" not in times:
                return
            mtime, ctime = times["stx_mtime"], times.get("stx_ctime", (0, 0))
        else:
            return
        self.observations.append(Observation(len(self.ops), inode, device, number, mtime, ctime))

    def _stat_path(self, path):
        parts = self._relative(path)
        return self._lookup(parts) if parts is not None else None

    def _on_stat(self, args, result, value):
        self._observe(self._stat_path(self._absolute(None, args[0])), args[1])

    _on_lstat = _on_stat

    def _on_fstat(self, args, result, value):
        handle = self._file(args[0])
        if handle is not None:
            self._observe(handle.inode, args[1])

    def _on_newfstatat(self, args, result, value):
        if args[1] == '""' and "AT_EMPTY_PATH" in args[3]:
            handle = self._file(args[0])
            self._observe(handle.inode if handle else None, args[2])
        else:
            self._observe(self._stat_path(self._absolute(args[0], args[1])), args[2])

    def _on_statx(self, args, result, value):
        if args[1] == '""' and "AT_EMPTY_PATH" in args[2]:
            handle = self._file(args[0])
            self._observe(handle.inode if handle else None, args[4])
        else:
            self._observe(self._stat_path(self._absolute(args[0], args[1])), args[4])


def record(initial, trace_path, cwd):
    """The ops and observations of a finished trace over `initial`'s folder."""
    recorder = Recorder(initial, cwd)
    for name, args_text, result, entry, end in pl_trace.calls(trace_path):
        recorder.feed(name, args_text, result, entry, end)
    return recorder
