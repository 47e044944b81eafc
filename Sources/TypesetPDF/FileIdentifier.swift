// The tagged file's /ID: a hash of every byte before its cross-reference table, so the same input gives the
// same file. FNV-1a is one chain of dependent multiplications (some 5 cycles a byte): for the 110 MB file of
// 250,000 links that is 0.2 s, so with more than one thread it runs on its own beside the writing (issue 8).

import Foundation

/// 128 bits of FNV-1a (two lanes) as hex: an identifier, not a checksum anyone relies on.
struct FNV128 {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
    private static let prime: UInt64 = 0x100_0000_01b3

    mutating func add(_ bytes: [UInt8]) {
        var a = self.a, b = self.b
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                a = (a ^ UInt64(byte)) &* Self.prime
                b = (b ^ UInt64(byte)) &* Self.prime &+ 1
            }
        }
        self.a = a
        self.b = b
    }

    var hex: String { CFormat.hex(a, 16) + CFormat.hex(b, 16) }
}

/// FNV128 of the chunks added, in order: here, or on a serial queue (at most a few chunks waiting, so memory
/// stays flat when the hash falls behind). `@unchecked Sendable`: `hash` is only touched on `queue`, or
/// only on the caller's thread when there is no queue.
final class FileHash: @unchecked Sendable {
    private var hash = FNV128()
    private let queue: DispatchQueue?
    private let room = DispatchSemaphore(value: 4)

    init(background: Bool) {
        queue = background ? DispatchQueue(label: "typeset.file-id") : nil
    }

    /// Whether added chunks are kept (by the queue) after `add` returns: the caller then writes into a new buffer.
    var keepsBuffers: Bool { queue != nil }

    func add(_ chunk: [UInt8]) {
        guard let queue else { return hash.add(chunk) }
        room.wait()
        queue.async {
            self.hash.add(chunk)
            self.room.signal()
        }
    }

    /// Waits for the chunks added.
    var hex: String {
        guard let queue else { return hash.hex }
        return queue.sync { hash.hex }
    }
}
