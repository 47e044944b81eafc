// What typeset may do to the path named by `-o`. It replaces regular files it could have written, writes
// into devices and pipes (`-o /dev/null`), and never removes or replaces anything else: not a directory,
// not the input, not a file that is not one of its own outputs.

import Foundation

enum OutputTarget {
    /// Nothing there, or a regular file: render beside it and rename into place.
    case replaceable
    /// A character device, FIFO or socket: write the bytes into it.
    case stream
    /// A directory: an error, and nothing is touched.
    case directory

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { self = .replaceable; return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: self = .directory
        case S_IFREG: self = .replaceable
        default: self = .stream
        }
    }

    /// True when `a` and `b` name the same existing file (same device and inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Removes `path` only if it is a regular file (not a link) that starts like an output of `format`,
    /// so a failed build never deletes a source, a directory or a device.
    static func removeStale(_ path: String, format: OutputFormat) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        let head = handle.readData(ofLength: 8)
        try? handle.close()
        let signature: [UInt8]
        switch format {
        case .pdf: signature = Array("%PDF-".utf8)
        case .png: signature = [0x89, 0x50, 0x4E, 0x47]
        case .svg: signature = Array("<?xml".utf8)
        }
        guard head.starts(with: signature) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
