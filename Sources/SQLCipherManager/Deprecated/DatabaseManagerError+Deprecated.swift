// MARK: - Deprecated spellings (removed in the next release)

extension DatabaseManagerError {
    /// Deprecated: use ``DatabaseManagerError/isFolder(path:)`` (the library says "folder"
    /// everywhere). Makes that case; a `case .isDirectory` pattern no longer matches.
    @available(*, deprecated, renamed: "isFolder(path:)")
    public static func isDirectory(path: String) -> DatabaseManagerError { .isFolder(path: path) }

    /// Deprecated: use ``DatabaseManagerError/parentFolderMissing(path:)`` (the library says
    /// "folder" everywhere). Makes that case; a `case .parentDirectoryMissing` pattern no longer matches.
    @available(*, deprecated, renamed: "parentFolderMissing(path:)")
    public static func parentDirectoryMissing(path: String) -> DatabaseManagerError { .parentFolderMissing(path: path) }
}
