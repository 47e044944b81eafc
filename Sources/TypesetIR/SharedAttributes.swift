// Character attributes are a large value (some 400 bytes: family, colours, link, language ...), and a long
// document has tens of thousands of runs with only a few dozen distinct attribute sets. Runs therefore hold
// a reference to one shared, immutable copy per distinct set: the IR of a 350,000-word report shrinks by
// more than half, and equal runs compare by identity first.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One immutable attribute set, shared by every run that has it.
final class SharedAttributes: Sendable {
    let value: CharacterAttributes
    init(_ value: CharacterAttributes) { self.value = value }

    /// The shared copy of `value` (a new one once the table is full: sharing saves memory, it is not needed
    /// for correctness).
    static func of(_ value: CharacterAttributes) -> SharedAttributes { AttributeInterner.shared.intern(value) }
}

/// The table of shared attribute sets. `@unchecked Sendable`: `table` is only touched under `mutex`
/// (lowering may run on several threads).
final class AttributeInterner: @unchecked Sendable {
    static let shared = AttributeInterner()
    /// Distinct sets kept at most: documents have a few dozen; a generated one with a colour per word
    /// must not grow the table without bound.
    static let capacity = 4096
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var table: [CharacterAttributes: SharedAttributes] = [:]
    private var last: SharedAttributes?

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func intern(_ value: CharacterAttributes) -> SharedAttributes {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let last, last.value == value { return last }  // consecutive runs mostly repeat the body font
        if let found = table[value] {
            last = found
            return found
        }
        let made = SharedAttributes(value)
        if table.count < AttributeInterner.capacity { table[value] = made }
        last = made
        return made
    }
}
