// Temporary output files: named beside their target (so the final rename is atomic), remembered by the C
// signal handler until they are renamed into place or removed, so an interrupted build leaves nothing.

import CTempCleanup
import Foundation

final class TemporaryFile {
    let path: String
    /// The signal handler's slot (-1 when its table was full).
    private let slot: Int32
    /// Renamed into place or removed: nothing left to clean up.
    private var settled = false

    /// A fresh name beside `target`, or in $TMPDIR when `target` is a device such as `/dev/full` (where
    /// typeset must not create files).
    init(near target: String) {
        let place = OutputTarget(path: target) == .stream ? NSTemporaryDirectory() + "/typeset.out" : target
        path = Typesetter.temporaryPath(near: place)
        slot = typeset_cleanup_remember(path)
    }

    private func forget() {
        if !settled { typeset_cleanup_forget(slot) }
        settled = true
    }

    /// Removes the file unless it was renamed into place.
    func remove() {
        guard !settled else { return }
        unlink(path)
        forget()
    }

    /// Renames the file to `target`; removes it when the rename fails. The errno of a failure, or nil.
    func rename(to target: String) -> Int32? {
        defer { forget() }
        if Foundation.rename(path, target) == 0 { return nil }
        let code = errno
        unlink(path)
        return code
    }

    /// Makes SIGTERM, SIGINT, SIGHUP and SIGPIPE remove every remembered temporary before the process ends.
    static func installSignalCleanup() { typeset_cleanup_install() }
}

/// Writes all of `bytes` to `fd`; the errno of the first failure, or nil.
func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += n
    }
    return nil
}

/// Copies the file at `source` into `fd` (standard output, a device) in chunks; the errno of a failure.
func copyFile(_ source: String, to fd: Int32) -> Int32? {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { return errno }
    defer { close(input) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if n == 0 { return nil }
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        if let failure = writeAll(Array(chunk[0 ..< n]), to: fd) { return failure }
    }
}
