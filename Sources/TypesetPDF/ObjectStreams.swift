// Compressed object streams and a cross-reference stream (PDF 1.5, 7.5.7 and 7.5.8) for the tagging stage's
// new file. The structure tree is thousands of small dictionaries that repeat the same keys: written as plain
// objects with a 20-byte table entry each, they were most of a tagged table's bytes (7.4 MB of elements and
// 2.9 MB of table in 11.9 MB for 20,000 rows). Packed a few hundred to a stream and compressed, they take a
// fraction of that. cairo's own objects are copied as they are; the stage's pages, annotations and elements
// are packed (IncrementalUpdate.startPacking).

/// Where each packed object went: object number -> (object stream, index in it), 4 bytes a number.
struct PackedObjects {
    /// Per object number: (the stream's place in `streams` << 9 | index) + 1; 0 for an object not packed.
    private var slots: [UInt32] = []
    private var streams: [UInt32] = []
    private static let indexBits = 9

    func place(_ number: Int) -> (stream: Int, index: Int)? {
        guard number >= 0, number < slots.count, slots[number] > 0 else { return nil }
        let slot = Int(slots[number] - 1)
        return (Int(streams[slot >> Self.indexBits]), slot & (1 << Self.indexBits - 1))
    }

    func contains(_ number: Int) -> Bool { number >= 0 && number < slots.count && slots[number] > 0 }

    /// Room for numbers below `count` at once (the elements' numbers are reserved together).
    mutating func reserve(through count: Int) {
        if count > slots.count { slots += repeatElement(0, count: count - slots.count) }
    }

    /// Objects of one stream, in order. Numbers stay below 2^32 (the file's table); a stream holds at most
    /// `ObjectStreamPack.maximumObjects`.
    mutating func add(_ numbers: [Int], stream: Int) {
        guard let s = UInt32(exactly: stream), numbers.count <= 1 << Self.indexBits,
              let ordinal = UInt32(exactly: streams.count), ordinal < 1 << (32 - Self.indexBits) - 1 else { return }
        streams.append(s)
        for (index, number) in numbers.enumerated() where number >= 0 {
            if number >= slots.count { slots += repeatElement(0, count: max(number + 1 - slots.count, slots.count / 2)) }
            slots[number] = (ordinal << UInt32(Self.indexBits) | UInt32(index)) + 1
        }
    }
}

/// The objects of one object stream being written: their bodies one after another, and where each begins.
struct ObjectStreamPack {
    /// A stream is closed past either bound: a few hundred elements, and small enough to decompress quickly.
    static let maximumObjects = 512
    static let maximumBytes = 1 << 16

    var entries: [(number: Int, offset: Int)] = []

    var isFull: Bool { entries.count >= Self.maximumObjects }

    /// The stream's data: pairs `number offset`, then the bodies from `/First`. Returns it and `/First`.
    func data(bodies: [UInt8]) -> (data: [UInt8], first: Int) {
        var header: [UInt8] = []
        header.appendWriting(maximum: 24 * entries.count + 1) { out in
            for (k, entry) in entries.enumerated() {
                if k > 0 { out.put(0x20) }
                out.putInt(entry.number)
                out.put(0x20)
                out.putInt(entry.offset)
            }
            out.put(0x0A)
        }
        return (header + bodies, header.count)
    }

    /// Takes the plain-object end (`endobj`) off the last body written: inside a stream, objects have none.
    static func trimEnd(_ bodies: inout [UInt8]) {
        let end = Array("endobj\n".utf8)
        guard bodies.count >= end.count, bodies[(bodies.count - end.count)...].elementsEqual(end) else { return }
        bodies.removeLast(end.count)
    }
}

/// The cross-reference stream that ends the file (PDF 1.5, 7.5.8): one entry per object number, each a type
/// byte, an offset or object stream number, and a generation or index.
enum CrossReferenceStream {
    /// The width of the middle field for values up to `largest`.
    static func width(largest: Int) -> Int {
        var width = 1
        while width < 8 && largest >> (8 * width) != 0 { width += 1 }
        return width
    }

    /// The entries for numbers 0 ..< `size`, compressed a few thousand at a time into `deflate`.
    static func write(size: Int, width: Int, offset: (Int) -> Int?, packed: PackedObjects, into deflate: DeflateStream) {
        var data = [UInt8]()
        data.reserveCapacity(4096 * (width + 3))
        func put(_ type: UInt8, _ field: Int, _ last: Int) {
            data.append(type)
            for k in stride(from: width - 1, through: 0, by: -1) { data.append(UInt8(truncatingIfNeeded: field >> (8 * k))) }
            data.append(UInt8(truncatingIfNeeded: last >> 8))
            data.append(UInt8(truncatingIfNeeded: last))
        }
        for n in 0 ..< size {
            if let place = packed.place(n) {
                put(2, place.stream, place.index)
            } else if n > 0, let at = offset(n) {
                put(1, at, 0)
            } else {
                put(0, 0, n == 0 ? 0xFFFF : 0)
            }
            if n % 4096 == 4095 {
                deflate.add(data)
                data.removeAll(keepingCapacity: true)
            }
        }
        deflate.add(data, finish: true)
    }
}
