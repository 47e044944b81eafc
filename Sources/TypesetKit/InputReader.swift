// Reads every input through one bounded path: the document, standard input, includes, templates and data.
// Reading stops one byte past the bound, so `/dev/zero`, `yes |` or a huge file costs at most that much
// memory, and a directory or a closed descriptor is a message instead of a trap.

import Foundation
import RTSyntax

enum InputReader {
    enum Failure: Error, Equatable {
        /// More than `limit` bytes.
        case tooLarge(limit: Int)
        /// The system's reason (`no such file or directory`, `it is a directory`, ...).
        case unreadable(String)

        /// The message after `cannot read NAME: ` or as a whole for `tooLarge`.
        func message(naming name: String) -> String {
            switch self {
            case .tooLarge(let limit):
                return "\(name) is too large: the limit is \(limit >> 20) MB per input (split a document with @include)"
            case .unreadable(let reason):
                return "cannot read \(name): \(reason)"
            }
        }
    }

    /// The bound for one input: the same as for one RT file.
    static let limit = InputLimits.maxBytes
    /// Stands for an input over the bound where a reader only takes bytes (includes): its size says it all.
    static let overBound = [UInt8](repeating: 0x0A, count: limit + 1)

    static func contents(ofFile path: String, limit: Int = InputReader.limit) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable(reason(errno))) }
        defer { close(fd) }
        return contents(ofDescriptor: fd, limit: limit)
    }

    static func standardInput(limit: Int = InputReader.limit) -> Result<[UInt8], Failure> {
        contents(ofDescriptor: STDIN_FILENO, limit: limit)
    }

    /// Reads `fd` to its end in chunks; fails past `limit` bytes or on any read error.
    static func contents(ofDescriptor fd: Int32, limit: Int) -> Result<[UInt8], Failure> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(reason(errno))) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(.unreadable("it is a directory")) }
        if info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) > limit { return .failure(.tooLarge(limit: limit)) }
        var bytes: [UInt8] = []
        // A file's size is known: one buffer of that size, not one grown by doubling, which can hold twice the
        // input for the whole run (issue 14: memory).
        if info.st_mode & S_IFMT == S_IFREG && info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return .success(bytes) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(reason(errno)))
            }
            bytes.append(contentsOf: chunk[0 ..< n])
            if bytes.count > limit { return .failure(.tooLarge(limit: limit)) }
        }
    }

    /// `strerror` in the lower case the rest of the messages use (`No such file` -> `no such file`).
    static func reason(_ code: Int32) -> String {
        if code == EISDIR { return "it is a directory" }
        let text = String(cString: strerror(code))
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
