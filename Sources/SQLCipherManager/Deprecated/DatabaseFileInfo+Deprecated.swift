// MARK: - Deprecated spellings (removed in the next release)

extension DatabaseFileInfo.Kind {
    /// Deprecated: use ``DatabaseFileKind/folder`` (the library says "folder" everywhere).
    /// Still matches in a `switch` and compares equal to `.folder`.
    @available(*, deprecated, renamed: "folder")
    public static var directory: DatabaseFileInfo.Kind { .folder }
}
