// The C heap in use, for tests that count the bytes a structure keeps (ReleasedBlockTests, TagTreeMemoryTests).

import Foundation
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Glibc)
/// Bytes glibc's allocator has handed out and not taken back (`malloc_info`, looked up at run time).
enum HeapBytes {
    typealias Report = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32

    static func inUse() -> Int? {
        guard let symbol = dlsym(nil, "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let status = unsafeBitCast(symbol, to: Report.self)(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        let xml = String(cString: buffer)
        func last(_ tag: String) -> Int? {
            guard let start = xml.range(of: tag, options: .backwards) else { return nil }
            let rest = xml[start.upperBound...]
            guard let open = rest.range(of: "size=\""), let close = rest[open.upperBound...].firstIndex(of: "\"")
            else { return nil }
            return Int(rest[open.upperBound..<close])
        }
        guard let current = last("<system type=\"current\""), let fast = last("<total type=\"fast\""),
              let free = last("<total type=\"rest\""), let mapped = last("<total type=\"mmap\"") else { return nil }
        return current - fast - free + mapped
    }
}
#endif
