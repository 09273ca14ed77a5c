#!/usr/bin/env python3
"""What the compiler cannot check of the layering (ARCHITECTURE.md).

The library is five SwiftPM targets (SQLCipherCore, SQLCipherKeys, SQLCipherEngine,
SQLCipherQuery, SQLCipherManager); a target imports only the ones Package.swift gives it, so
the compiler refuses a reference from one target to a target above it. This script checks
what lies inside one target, in code (comments and string literals are skipped):

- the folders of a target keep their order (LAYERS): a file may refer to the types, and the
  members added in extensions, of its own folder and of the folders before it in its target's
  list — by name, since the compiler sees one module;
- a name FORBIDDEN to a folder or a target (the SQLite, key, engine, query and record layers
  throw `SQLiteError` or their own errors, never `DatabaseManagerError`);
- SQLCipher's C API (CSQLCipher) is imported only in SQLCipherCore/SQLite/, libcrypto and
  libsodium (CCrypto, CSodium) only in SQLCipherCore/Crypto/ — SwiftPM would let any target
  above the core import them;
- the C library is reached only through SQLCipherCore/FileSystem/POSIX.swift: any other file
  that imports Glibc or Darwin, reads `errno`, or calls one of the file, descriptor or memory
  functions in LIBC_CALLS fails (`open`, `close`, `read`, `write` are left out: too many Swift
  methods share those names); and in the programs only TerminalIO/POSIXTerminal.swift does.

A folder missing from its target's list fails the check too, so a new folder has to be placed.

Every `package` declaration must be used by another target (tests excepted: they reach internals
through `@testable import`), else it should be `internal`. Uses are found by name (a member's
name, or the type's for an `init` or `subscript`), so a common name can look used when it is
not; `--package` lists each declaration with the targets that use it, for review.

Usage: scripts/check-layers.py [--package]
"""
import os
import re
import sys

# Each target's folders, bottom first: a folder may use its own row and every row before it.
# A target without folders (its files at its root) has nothing to order.
TARGETS = {
    "SQLCipherCore": [["SQLite", "FileSystem", "Crypto", "Errors"]],
    "SQLCipherKeys": [["Keys"], ["KeySlots"]],
    "SQLCipherEngine": [],
    "SQLCipherQuery": [["Query"], ["Records"], ["Migration"]],
    "SQLCipherManager": [["Errors"], ["Manager"], ["Flows"]],
}

# The C modules and the one folder that may import each.
C_MODULES = {"CSQLCipher": "SQLCipherCore/SQLite", "CCrypto": "SQLCipherCore/Crypto", "CSodium": "SQLCipherCore/Crypto"}
C_IMPORT = re.compile(r"\bimport\s+(%s)\b" % "|".join(C_MODULES))

# Names that some layers (a folder, or a target without folders) may not use, and why. The
# compiler already keeps the layers below the manager from naming its error; this says why.
FORBIDDEN = {
    "SQLite": {"DatabaseManagerError": "the SQLite layer fails with SQLiteError only"},
    "Keys": {"DatabaseManagerError": "the key layer throws DatabaseKeyError, KeyStoreError and KeySlotFailure"},
    "KeySlots": {"DatabaseManagerError": "the key-slot layer throws KeySlotError and KeySlotFailure"},
    "SQLCipherEngine": {"DatabaseManagerError": "the engine throws EngineFailure; the manager maps it"},
    "Query": {"DatabaseManagerError": "the query layer throws SQLiteError only"},
    "Records": {"DatabaseManagerError": "the record calls throw RecordError and SQLiteError only"},
}

# (folder that refers, name it refers to): why that one reference is accepted. Keep it empty
# where possible; every entry says why.
ALLOWED = {}

# The one file that may call the C library directly, and the calls looked for elsewhere.
POSIX_FILE = os.path.join("SQLCipherCore", "FileSystem", "POSIX.swift")
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


# The targets around the library, and the modules each may import: the programs, the demos and
# the benchmarks see the library as an app does (its public product, `SQLCipherManager`);
# SecretService is a key store, so it stands on the key layer (and the core, whose
# `KeyStoreError` it throws), not on the manager. A module named here but not in Package.swift
# still fails to compile; this check keeps Package.swift from growing a shortcut.
OUTER_IMPORTS = {
    os.path.join("Sources", "cipherdb"): {"Foundation", "SQLCipherManager", "TerminalIO"},
    os.path.join("Sources", "TerminalIO"): {"Foundation", "Dispatch", "Glibc", "Darwin"},
    os.path.join("Examples", "LoginDemo"): {"Foundation", "SQLCipherManager", "TerminalIO"},
    os.path.join("Examples", "FirstLaunchDemo"): {"Foundation", "SQLCipherManager"},
    os.path.join("Tests", "TopLevelScript"): {"Foundation", "SQLCipherManager"},
    os.path.join("Benchmarks", "SQLCipherBench"): {"Foundation", "SQLCipherManager", "CBaseline", "Synchronization"},
    os.path.join("Sources", "SQLCipherSecretService"): {"Foundation", "SQLCipherKeys", "SQLCipherCore", "CLibSecret"},
}
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+)?import\s+(?:(?:struct|class|enum|func|var|protocol)\s+)?(\w+)", re.M)


def outer_import_problems(repository):
    """Imports of the targets around the library outside what OUTER_IMPORTS gives each."""
    problems = []
    for top, allowed in OUTER_IMPORTS.items():
        for directory, _, names in os.walk(os.path.join(repository, top)):
            for name in sorted(n for n in names if n.endswith(".swift")):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    code = strip(handle.read())
                for match in IMPORT.finditer(code):
                    if match.group(1) not in allowed:
                        lineno = code.count("\n", 0, match.start()) + 1
                        problems.append(f"{path}:{lineno}: imports {match.group(1)}; {top} may import {', '.join(sorted(allowed))}")
    return problems


def read_target(root, target, rows, problems):
    """The target's Swift files: {path: (folder, code)}; a misplaced folder or file is a problem."""
    rank = {folder: row for row, folders in enumerate(rows) for folder in folders}
    files = {}
    for entry in sorted(os.listdir(root)):
        path = os.path.join(root, entry)
        if entry.endswith(".swift"):
            if rows:
                problems.append(f"{path}: a source file outside {target}'s layer folders")
            files[path] = ("", strip(open(path, encoding="utf-8").read()))
            continue
        if not os.path.isdir(path) or entry.endswith(".docc"):
            continue
        if entry not in rank:
            problems.append(f"{path}: a folder that is in no layer; add it to TARGETS in {sys.argv[0]} and ARCHITECTURE.md")
            continue
        for directory, _, names in os.walk(path):
            for name in sorted(names):
                if name.endswith(".swift"):
                    with open(os.path.join(directory, name), encoding="utf-8") as handle:
                        files[os.path.join(directory, name)] = (entry, strip(handle.read()))
    return files, rank


def order_problems(target, files, rank):
    """References from a folder to a folder after it in the same target, and forbidden names."""
    types, members, declared, problems = {}, {}, {}, []
    for folder, code in files.values():
        for name in DECLARATION.findall(code):
            types[name] = folder
        for name in extension_members(code):
            members.setdefault(name, set()).add(folder)
        for name in ANY_DECLARATION.findall(code):
            declared[name] = declared.get(name, 0) + 1
    # A member name counts only when it is declared once in the whole target.
    members = {name: folders.pop() for name, folders in members.items() if declared.get(name) == 1 and len(folders) == 1}
    for path, (folder, code) in sorted(files.items()):
        for lineno, line in enumerate(code.split("\n"), 1):
            for word in set(re.findall(r"\b[A-Za-z_]\w*\b", line)):
                forbidden = FORBIDDEN.get(folder or target, {})
                if word in forbidden:
                    problems.append(f"{path}:{lineno}: {word} in {folder or target}/: {forbidden[word]}")
                    continue
                owner = types.get(word) or members.get(word)
                if owner is None or owner == folder or rank.get(owner, 0) <= rank.get(folder, 0) or (folder, word) in ALLOWED:
                    continue
                kind = "type" if word in types else "member"
                problems.append(f"{path}:{lineno}: {folder}/ uses {owner}/'s {kind} {word}, a layer above it")
    return problems


def c_problems(sources, files):
    """C modules imported outside their folder; the C library called outside POSIX.swift."""
    problems = []
    for path, (_, code) in sorted(files.items()):
        relative = os.path.relpath(path, sources)
        if relative == POSIX_FILE:
            continue
        for lineno, line in enumerate(code.split("\n"), 1):
            if re.search(r"\b(?:let|var)\s+errno\b", line):
                continue
            for match in C_IMPORT.finditer(line):
                if not relative.startswith(C_MODULES[match.group(1)] + os.sep):
                    problems.append(f"{path}:{lineno}: {match.group(1)} imported outside {C_MODULES[match.group(1)]}/")
            for match in LIBC.finditer(line):
                problems.append(f"{path}:{lineno}: {match.group(0)} outside {POSIX_FILE}: call the POSIX wrapper instead")
    return problems


# `package` declarations and the targets that use them.
PACKAGE_DECLARATION = re.compile(
    r"^([ \t]*)(?:@\w+(?:\([^)]*\))?\s+)*package\s+(?:(?:static|final|override|mutating|nonisolated|convenience|"
    r"required|lazy|indirect)\s+)*(func|var|let|init|struct|class|enum|protocol|actor|typealias|subscript)\b[?!]?\s*(\w+)?",
    re.M)
ENCLOSING = re.compile(r"^([ \t]*)(?:[\w@()]+\s+)*(?:struct|class|enum|actor|protocol|extension)\s+([\w.]+)", re.M)
USER_ROOTS = ["Sources", "Examples", "Benchmarks"]


def swift_targets(repository):
    """{target: {path: code}} for every target under USER_ROOTS (the folder under each root)."""
    targets = {}
    for root in USER_ROOTS:
        top = os.path.join(repository, root)
        for target in sorted(os.listdir(top)) if os.path.isdir(top) else []:
            for directory, _, names in os.walk(os.path.join(top, target)):
                for name in sorted(n for n in names if n.endswith(".swift")):
                    path = os.path.join(directory, name)
                    with open(path, encoding="utf-8") as handle:
                        targets.setdefault(target, {})[path] = strip(handle.read())
    return targets


def package_declarations(code):
    """(line, kind, name, signature) of each `package` declaration, the signature running to its
    body's `{` or the line's end; an init or subscript is named by its type."""
    found = []
    for match in PACKAGE_DECLARATION.finditer(code):
        indent, kind, name = match.group(1), match.group(2), match.group(3)
        if kind in ("init", "subscript"):
            outer = [m for m in ENCLOSING.finditer(code, 0, match.start()) if len(m.group(1)) < len(indent)]
            name = outer[-1].group(2).split(".")[-1] if outer else None
        start = match.start() + match.group(0).index("package")
        end = min(i for i in (code.find("{", start), code.find("\n", start), len(code)) if i >= 0)
        if kind == "func" or kind == "init" or kind == "subscript":
            end = max(end, code.find(")", start) + 1)  # a parameter list split over lines
        if name:
            found.append((code.count("\n", 0, start) + 1, kind, name, code[start:end]))
    return found


def signature_words(code):
    """(line, word) of every `package` declaration's signature and every `public` line: the types
    those signatures use must be visible as widely as the declaration, which the compiler checks."""
    words = {(lineno, word) for lineno, _, _, signature in package_declarations(code)
             for word in re.findall(r"\b\w+\b", signature)}
    return words | {(lineno, word) for lineno, line in enumerate(code.split("\n"), 1)
                    if re.search(r"\bpublic\s", line) for word in re.findall(r"\b\w+\b", line)}


def package_uses(repository):
    """Each `package` declaration with the other targets that name it, or the signature in its
    own target that needs it; and the ones nothing needs."""
    targets = swift_targets(repository)
    words = {target: set().union(*(re.findall(r"\b\w+\b", code) for code in files.values()))
             for target, files in targets.items()}
    listing, unused = [], []
    for target, files in targets.items():
        signatures = {}
        for path, code in files.items():
            for lineno, word in signature_words(code):
                signatures.setdefault(word, []).append((path, lineno))
        for path, code in files.items():
            for lineno, kind, name, signature in package_declarations(code):
                users = sorted(other for other in targets if other != target and name in words[other])
                if not users and kind in ("struct", "class", "enum", "protocol", "typealias", "actor"):
                    users = [f"the signature at {os.path.basename(p)}:{n}" for p, n in signatures.get(name, [])
                             if (p, n) != (path, lineno)][:1]
                listing.append(f"{path}:{lineno}: package {kind} {name} <- {', '.join(users) or 'nobody'}")
                if not users and re.match(r"package\s+init\s*\(\s*rawValue\s*:", signature):
                    users = ["its protocol (RawRepresentable)"]
                if not users:
                    unused.append(f"{path}:{lineno}: package {kind} {name} is used by no other target: make it internal")
    return listing, unused

def main():
    repository = os.path.relpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    sources = os.path.join(repository, "Sources")
    problems, count = [], 0
    for target, rows in TARGETS.items():
        files, rank = read_target(os.path.join(sources, target), target, rows, problems)
        count += len(files)
        problems += order_problems(target, files, rank)
        problems += c_problems(sources, files)
    problems += program_libc_problems(repository)
    problems += outer_import_problems(repository)
    listing, unused = package_uses(repository)
    problems += unused
    if "--package" in sys.argv[1:]:
        print("\n".join(listing))
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layers: {len(problems)} references against the layer order (see ARCHITECTURE.md)")
        return 1
    print(f"check-layers: {count} files in {len(TARGETS)} targets, every reference points down the layers;"
          f" {len(OUTER_IMPORTS)} targets around them import only what they may;"
          f" {len(listing)} package declarations, each used by another target (--package lists them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
