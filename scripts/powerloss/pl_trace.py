"""Records one program run with strace and turns it into the file-system operations on one folder.

The operations are the ones a power loss can partly undo: data writes (with their bytes), size
changes, file and folder creation, rename, link, unlink, and the flushes (fsync, fdatasync, a
folder's fsync) that make them durable. `stat` results are kept too ("observations") so that a
replayed state can give recovery the same answers about file identity and times (pl_replay).

strace runs with -xx (every byte of every string as \\xHH), -y (descriptors with their paths),
-v (whole stat structures) and -s large enough for every write: a write whose recorded bytes are
fewer than it wrote is an error, never silently modelled.
"""

import os
import re
import subprocess

SYSCALLS = [
    "open", "openat", "creat", "read", "readv", "write", "pwrite64", "writev", "pwritev", "pwritev2",
    "lseek", "ftruncate", "truncate", "fallocate", "fsync", "fdatasync", "sync", "syncfs",
    "rename", "renameat", "renameat2", "link", "linkat", "unlink", "unlinkat", "mkdir", "mkdirat",
    "rmdir", "close", "dup", "dup2", "dup3", "fcntl", "copy_file_range", "sendfile", "splice",
    "mmap", "fchmod", "chmod", "fchmodat", "fork", "vfork", "clone", "clone3", "chdir", "stat", "lstat", "fstat", "newfstatat", "statx",
]

STRING_LIMIT = 1 << 24


class TraceError(Exception):
    """The trace holds something the model cannot represent faithfully."""


def run_traced(argv, cwd, env, trace_path, stdin=None, timeout=600):
    """Runs argv under strace, writing the trace to trace_path. Returns the CompletedProcess."""
    command = [
        "strace", "-f", "-qq", "-y", "-xx", "-v", "-s", str(STRING_LIMIT), "-e", "abbrev=none",
        "-e", "signal=none", "-o", trace_path, "-e", "trace=" + ",".join(SYSCALLS), "--",
    ] + list(argv)
    return subprocess.run(command, cwd=cwd, env=env, input=stdin, capture_output=True, timeout=timeout)


# MARK: - Lines

_HEX = re.compile(r"\\x([0-9a-f]{2})")


def decode_bytes(text):
    """The bytes of an strace -xx string body (without its quotes)."""
    return bytes(int(h, 16) for h in _HEX.findall(text))


def decode_text(text):
    return decode_bytes(text).decode("utf-8", "surrogateescape")


def split_args(text):
    """Splits an argument list at its top-level commas (strings, brackets and <paths> respected)."""
    args, depth, start, i, quoted = [], 0, 0, 0, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[start:i].strip())
            start = i + 1
        i += 1
    tail = text[start:].strip()
    if tail:
        args.append(tail)
    return args


_END_RE = re.compile(r"\) *= ")
_FD_CREATORS = ("open", "openat", "creat", "dup", "dup2", "dup3", "fcntl")


def calls(trace_path):
    """Yields (name, args text, return text, entry, end) per completed call, in effect order,
    and ("<entry>", args so far, "0", entry, entry) where an interrupted call began.

    A call that another thread interrupted is printed in two lines; its effect is placed at its
    end, except for calls that make a descriptor (open, dup...), placed at their start: another
    thread may use the descriptor before strace prints the end. `entry` is the position of the
    call's start, so that a flush counts only what was written before it began.
    """
    pending, out, seq = {}, [], 0
    line_re = re.compile(r"^(\d+) +(.*)$")
    with open(trace_path, "r", encoding="ascii", errors="replace") as handle:
        for raw in handle:
            match = line_re.match(raw.rstrip("\n"))
            if not match:
                continue
            tid, rest = int(match.group(1)), match.group(2)
            if rest.startswith("+++") or rest.startswith("---"):
                continue
            seq += 1
            if rest.endswith(" <unfinished ...>"):
                head = rest[: -len(" <unfinished ...>")]
                pending[tid] = (head, seq)
                open_paren = head.find("(")
                if open_paren > 0:
                    # Marks where the call began: its descriptor is resolved there (another
                    # thread may close and reuse it before this call's end is printed).
                    out.append((seq, seq, "<entry>", head[open_paren + 1:], "0", seq))
                continue
            entry = seq
            resumed = re.match(r"^<\.\.\. (\w+) resumed>(.*)$", rest)
            if resumed:
                head, entry = pending.pop(tid, (None, seq))
                if head is None:
                    continue
                tail = resumed.group(2)
                rest = head + ("" if head.endswith("(") or tail.startswith(")") else ", ") + tail.lstrip(", ")
            open_paren = rest.find("(")
            ends = list(_END_RE.finditer(rest))
            if open_paren < 0 or not ends:
                continue
            name = rest[:open_paren]
            position = entry if name in _FD_CREATORS else seq
            out.append((position, seq, name, rest[open_paren + 1: ends[-1].start()], rest[ends[-1].end():], entry))
    out.sort(key=lambda item: (item[0], item[1]))
    for _, done, name, args, result, entry in out:
        yield name, args, result, entry, done


_FD_RE = re.compile(r"^(-?\d+|AT_FDCWD)(?:<([^>]*)>)?(\(deleted\))?$")


def parse_fd(arg):
    """(fd number, decoded path or None, deleted) of an strace -y descriptor."""
    match = _FD_RE.match(arg.strip())
    if not match:
        return None, None, False
    number = -100 if match.group(1) == "AT_FDCWD" else int(match.group(1))
    path = decode_text(match.group(2)) if match.group(2) is not None else None
    return number, path, bool(match.group(3))


def parse_string(arg):
    """The bytes of a quoted -xx string argument, and whether strace cut it short."""
    arg = arg.strip()
    if not arg.startswith('"'):
        return None, False
    end = arg.rfind('"')
    return decode_bytes(arg[1:end]), arg[end + 1:].startswith("...")


def parse_return(text):
    """(integer result or None, decoded path of a returned descriptor or None)."""
    text = text.strip()
    match = re.match(r"^(-?\d+|0x[0-9a-f]+)(?:<([^>]*)>)?", text)
    if not match:
        return None, None
    value = int(match.group(1), 0)
    return value, decode_text(match.group(2)) if match.group(2) else None
