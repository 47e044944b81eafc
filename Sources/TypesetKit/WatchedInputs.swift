// What `--watch` compares between polls: each input's modification time, size and inode, as they were before
// the build read them. Stamped after the build (as before this file), a save that landed while the build ran
// (an editor still writing, a second save during a long build) counted as seen: the PDF kept the half-written
// or older text until the next edit (issue 8: never silently wrong). A file the build found for the first time
// (an include, an image) can only be stamped after it; it is stamped before every later build.

import Foundation

public struct WatchedInputs {
    /// One file's state; nil fields: the file is missing.
    struct Stamp: Equatable {
        var seconds: Int64?
        var nanoseconds: Int64?
        var size: Int64?
        var inode: UInt64?
    }

    private var stamps: [String: Stamp] = [:]

    /// `first`: files known to be read before the first build (the document itself).
    public init(_ first: [String]) {
        stamps = Self.stamps(of: first)
    }

    /// The files the last build read.
    public var files: [String] { Array(stamps.keys) }

    /// Runs `build`, which returns the files it read, and keeps their stamps from before it read them.
    public mutating func record(_ build: () -> [String]) {
        let before = Self.stamps(of: Array(stamps.keys))
        let read = build()
        var next: [String: Stamp] = [:]
        for path in read { next[path] = before[path] ?? Self.stamp(path) }
        stamps = next
    }

    /// Whether any file differs from its stamp now.
    public func changed() -> Bool {
        stamps.contains { path, stamp in Self.stamp(path) != stamp }
    }

    static func stamps(of paths: [String]) -> [String: Stamp] {
        var out: [String: Stamp] = [:]
        for path in paths { out[path] = stamp(path) }
        return out
    }

    static func stamp(_ path: String) -> Stamp {
        var info = stat()
        guard stat(path, &info) == 0 else { return Stamp() }
        return Stamp(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec),
                     size: Int64(info.st_size), inode: UInt64(info.st_ino))
    }
}
