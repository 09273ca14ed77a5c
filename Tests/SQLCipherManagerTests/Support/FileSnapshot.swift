// FileSnapshot and FileSet live in FuzzHarness (shared with the fuzz target); every
// test file sees them through this import.
@_exported import FuzzHarness
