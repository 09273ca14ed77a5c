#!/usr/bin/env python3
"""Fails when a lower layer of Sources/SQLCipherManager refers to an upper layer (ARCHITECTURE.md).

Each folder is a layer. A Swift file may refer to the types of its own layer, of the layers
below it, and of Errors/ (the shared error types); Errors/ itself may refer only to the bottom
layer. Two kinds of reference are checked, in code (comments and string literals are skipped):

- a type: any top-level `struct`, `class`, `enum`, `protocol`, `actor` or `typealias` name
  declared in a folder the file may not use (nested types count through their outer name,
  as in `FileSystem.Failure`);
- a name FORBIDDEN to the folder (the SQLite and query layers throw `SQLiteError`, never
  `DatabaseManagerError`);
- a member that an upper layer adds in an `extension` (say `DatabaseManager.connect`, declared
  in Manager/): its name used in a lower layer, when no other declaration in the module has
  that name (so a common name such as `close` is never guessed at).

A folder missing from LAYERS fails the check too, so a new folder has to be placed. And the C
library is reached only through FileSystem/POSIX.swift: any other file that imports Glibc or
Darwin, reads `errno`, or calls one of the file, descriptor or memory functions listed in
LIBC_CALLS fails the check (`open`, `close`, `read`, `write` are left out: too many Swift
methods share those names). SQLCipher's C API (CSQLCipher) is imported only in SQLite/,
libcrypto and libsodium (CCrypto, CSodium) only in Crypto/.

Usage: scripts/check-layers.py [source folder]   (default: the repository's Sources/SQLCipherManager)
"""
import os
import re
import sys

# Bottom first. A folder may use its own row and every row above it in this list.
LAYERS = [
    ["SQLite", "FileSystem", "Crypto"],
    ["Keys"],
    ["KeySlots"],
    ["Engine"],
    ["Query"],
    ["Records"],
    ["Migration"],
    ["Manager"],
    ["Flows"],
]
# Usable from every layer; may itself use only LAYERS[0].
SHARED = "Errors"

# The C modules and the one folder that may import each.
C_MODULES = {"CSQLCipher": "SQLite", "CCrypto": "Crypto", "CSodium": "Crypto"}
C_IMPORT = re.compile(r"\bimport\s+(%s)\b" % "|".join(C_MODULES))

# Names of Errors/ that some layers may not use, and why.
FORBIDDEN = {
    "SQLite": {"DatabaseManagerError": "the SQLite layer fails with SQLiteError only"},
    "Query": {"DatabaseManagerError": "the query layer throws SQLiteError only"},
    "Records": {"DatabaseManagerError": "the record calls throw RecordError and SQLiteError only"},
}

# (folder that refers, name it refers to): why that one reference is accepted. Keep it empty
# where possible; every entry says why.
ALLOWED = {
    # `struct pollfd`'s field (FileWatch's poll), not DatabaseManager.events().
    ("FileSystem", "events"),
}

# The one file that may call the C library directly, and the calls looked for elsewhere.
POSIX_FILE = os.path.join("FileSystem", "POSIX.swift")
LIBC_CALLS = ("fsync fstat lstat flock fcntl unlink mkdir chmod fchmod chown statvfs realpath mkdtemp geteuid "
              "getentropy explicit_bzero memset_s strerror pread usleep access").split()
LIBC = re.compile(r"(?<![.\w])(?:(%s)\(|stat\((?!\))|(errno)\b(?!\s*:))|(import\s+(?:Glibc|Darwin)|canImport\(Glibc\))"
                  % "|".join(LIBC_CALLS))

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|final|open|indirect)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", re.M)
EXTENSION = re.compile(r"^(?:(?:public|internal|private|fileprivate|package)\s+)*extension\s+([\w.]+)", re.M)
MEMBER = re.compile(
    r"^\s+(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|static|final|override|"
    r"mutating|nonisolated|convenience|required|lazy)\s+)*(?:func|var|let)\s+(\w+)", re.M)
ANY_DECLARATION = re.compile(r"\b(?:func|var|let|case|struct|class|enum|protocol|actor|typealias)\s+(\w+)")


def strip(source):
    """The code without comments and with every string literal emptied."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3)
            out.append('""')
            i = n if j < 0 else j + 3
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] not in '"\n':
                j += 2 if source[j] == "\\" else 1
            out.append('""')
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def extension_members(code):
    """Names declared one level inside each top-level `extension` block."""
    names = set()
    for match in EXTENSION.finditer(code):
        start = code.find("{", match.end())
        depth, i = 0, start
        while i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            if depth == 0:
                break
            i += 1
        body = code[start + 1:i]
        # Only members at depth 1 of the extension: blank out nested braces' contents.
        flat, depth = [], 0
        for char in body:
            if char == "}":
                depth -= 1
            flat.append(char if depth == 0 else (" " if char != "\n" else "\n"))
            if char == "{":
                depth += 1
        names.update(MEMBER.findall("".join(flat)))
    return names


# The programs' side (the terminal layer, cipherdb, the examples): the C library is reached only
# through Sources/TerminalIO/POSIXTerminal.swift, with the terminal calls added to the list.
PROGRAM_ROOTS = [os.path.join("Sources", "TerminalIO"), os.path.join("Sources", "cipherdb"), "Examples"]
PROGRAM_POSIX_FILE = os.path.join("Sources", "TerminalIO", "POSIXTerminal.swift")
PROGRAM_LIBC = re.compile(r"(?<![.\w])(?:(%s)\(|stat\((?!\))|(errno)\b(?!\s*:))|(import\s+(?:Glibc|Darwin)|canImport\(Glibc\))"
                          % "|".join(LIBC_CALLS + "isatty tcgetattr tcsetattr signal sigaction getpass".split()))


def program_libc_problems(repository):
    """C library calls in the programs outside their one POSIX file."""
    problems = []
    for top in PROGRAM_ROOTS:
        for directory, _, names in os.walk(os.path.join(repository, top)):
            for name in sorted(names):
                path = os.path.join(directory, name)
                if not name.endswith(".swift") or path.endswith(PROGRAM_POSIX_FILE):
                    continue
                with open(path, encoding="utf-8") as handle:
                    code = strip(handle.read())
                for lineno, line in enumerate(code.split("\n"), 1):
                    for match in PROGRAM_LIBC.finditer(line):
                        problems.append(f"{path}:{lineno}: {match.group(0)} outside {PROGRAM_POSIX_FILE}: use POSIXTerminal")
    return problems


def main():
    default = os.path.relpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "SQLCipherManager"))
    root = sys.argv[1] if len(sys.argv) > 1 else default
    rank = {folder: row for row, folders in enumerate(LAYERS) for folder in folders}
    rank[SHARED] = -1
    files, problems = {}, []
    for folder in sorted(os.listdir(root)):
        path = os.path.join(root, folder)
        if not os.path.isdir(path) or folder.endswith(".docc"):
            continue
        if folder not in rank:
            problems.append(f"{path}: a folder that is in no layer; add it to LAYERS in {sys.argv[0]} and ARCHITECTURE.md")
            continue
        for directory, _, names in os.walk(path):
            for name in sorted(names):
                if name.endswith(".swift"):
                    with open(os.path.join(directory, name), encoding="utf-8") as handle:
                        files[os.path.join(directory, name)] = (folder, strip(handle.read()))
    for path in sorted(os.listdir(root)):
        if path.endswith(".swift"):
            problems.append(f"{root}/{path}: a source file outside the layer folders")

    types, members, declared = {}, {}, {}
    for folder, code in files.values():
        for name in DECLARATION.findall(code):
            types[name] = folder
        for name in extension_members(code):
            members.setdefault(name, set()).add(folder)
        for name in ANY_DECLARATION.findall(code):
            declared[name] = declared.get(name, 0) + 1
    # A member name counts only when it is declared once in the whole module.
    members = {name: folders.pop() for name, folders in members.items() if declared.get(name) == 1 and len(folders) == 1}

    def may_use(user, owner):
        if owner == user or owner == SHARED:
            return True
        if user == SHARED:
            return rank[owner] == 0
        return rank[owner] <= rank[user]

    for path, (folder, code) in sorted(files.items()):
        for lineno, line in enumerate(code.split("\n"), 1):
            for word in set(re.findall(r"\b[A-Za-z_]\w*\b", line)):
                if word in FORBIDDEN.get(folder, {}):
                    problems.append(f"{path}:{lineno}: {word} in {folder}/: {FORBIDDEN[folder][word]}")
                    continue
                owner = types.get(word) or members.get(word)
                if owner is None or may_use(folder, owner) or (folder, word) in ALLOWED:
                    continue
                kind = "type" if word in types else "member"
                problems.append(f"{path}:{lineno}: {folder}/ uses {owner}/'s {kind} {word}, a layer above it")
    for path, (folder, code) in sorted(files.items()):
        if path.endswith(POSIX_FILE):
            continue
        for lineno, line in enumerate(code.split("\n"), 1):
            if re.search(r"\b(?:let|var)\s+errno\b", line):
                continue
            for match in C_IMPORT.finditer(line):
                if folder != C_MODULES[match.group(1)]:
                    problems.append(f"{path}:{lineno}: {match.group(1)} imported outside {C_MODULES[match.group(1)]}/")
            for match in LIBC.finditer(line):
                problems.append(f"{path}:{lineno}: {match.group(0)} outside {POSIX_FILE}: call the POSIX wrapper instead")
    if len(sys.argv) <= 1:
        problems += program_libc_problems(os.path.dirname(os.path.dirname(default)))
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layers: {len(problems)} references against the layer order (see ARCHITECTURE.md)")
        return 1
    print(f"check-layers: {len(files)} files, every reference points down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
