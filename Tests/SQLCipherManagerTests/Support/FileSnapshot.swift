// FileSnapshot, FileSet and SplitMix64 live in FuzzHarness (shared with the fuzz target); every
// test file sees them through this import.
@_exported import FuzzHarness
