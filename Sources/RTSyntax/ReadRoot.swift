// Trust boundary (RT section 11): files a document names (includes, images, fonts, templates) are read only
// under the root folder, judged on the real path (symlinks and `..` resolved) of exactly the file opened.
// Files named on the command line are trusted, and so is the folder of a template named there.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct ReadRoot: Sendable, Equatable {
    /// The root as the user gave it (for messages) and resolved.
    public let name: String
    public let folder: String
    /// Real paths of folders whose files may be read wherever they are.
    public private(set) var trusted: [String] = []

    /// nil when `folder` does not exist.
    public init?(_ folder: String) {
        guard let real = ReadRoot.realPath(folder) else { return nil }
        self.name = folder
        self.folder = real
    }

    public mutating func trust(folder: String) {
        if let real = ReadRoot.realPath(folder) { trusted.append(real) }
    }

    /// Why `path` (about to be opened) may not be read, or nil when it may. A path that does not resolve
    /// (no such file) passes: opening it fails with the usual message.
    public func refusal(_ path: String) -> String? {
        guard let real = ReadRoot.realPath(path) else { return nil }
        if let special = ReadRoot.specialFile(real) {
            // Opening a FIFO waits for a writer forever; a device or socket is no document's file (section 11).
            return "'\(path)' is \(special), not a file: a document may only read files"
        }
        for base in [folder] + trusted where ReadRoot.isInside(real, base) { return nil }
        let shown = name == folder ? "'\(folder)'" : "'\(name)' (\(folder))"
        return "'\(path)' is outside the root folder \(shown): a document may only read files under it; "
            + "typeset it with --root DIR to allow more"
    }

    /// What `path` is when it is neither a regular file nor a folder (stat(2) does not open it, so a FIFO
    /// does not block here), else nil.
    static func specialFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFSOCK: return "a socket"
        default: return "a device"
        }
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || folder == "/" || path.hasPrefix(folder + "/")
    }

    /// The nearest folder holding both (real paths): the default root of the current directory and the
    /// input's folder, so `cd build && typeset ../docs/r.rt` may read all of `..`.
    public static func commonFolder(_ a: String, _ b: String) -> String {
        guard let x = realPath(a), let y = realPath(b) else { return a }
        let p = x.split(separator: "/"), q = y.split(separator: "/")
        var shared = 0
        while shared < min(p.count, q.count) && p[shared] == q[shared] { shared += 1 }
        return "/" + p.prefix(shared).joined(separator: "/")
    }

    /// realpath(3): absolute, with every symlink and `..` resolved; nil when the file does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
