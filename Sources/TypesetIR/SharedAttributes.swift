// Character attributes and paragraph styles are large values (some 400 and 300 bytes: family, colours, link,
// language, indents ...), and a long document has tens of thousands of runs and paragraphs with only a few
// dozen distinct ones. They are therefore held as references to one shared, immutable copy per distinct
// value: the IR of a 350,000-word report takes less than half the memory, and equal ones compare by identity
// first. Sharing saves memory only; a copy that is not shared behaves the same.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One immutable value, shared by everything that has it. Equal and hashed by value.
@usableFromInline
final class Shared<Value: Hashable & Sendable>: Hashable, Sendable {
    /// Read straight from other modules (`@inlinable` getters): a run's font size costs no copy.
    @usableFromInline let value: Value
    init(_ value: Value) { self.value = value }

    @usableFromInline static func == (a: Shared, b: Shared) -> Bool { a === b || a.value == b.value }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension Shared where Value == CharacterAttributes {
    static func of(_ value: CharacterAttributes) -> Shared { sharedAttributes.intern(value) }
}

extension Shared where Value == ParagraphStyle {
    static func of(_ value: ParagraphStyle) -> Shared { sharedStyles.intern(value) }
}

let sharedAttributes = Interner<CharacterAttributes>()
let sharedStyles = Interner<ParagraphStyle>()

extension Lowering {
    /// Lets go of the tables that share equal attributes and styles, once a document is lowered: they held up to
    /// 4,096 values each for the whole run (links to distinct targets are distinct values): 0.3 MB less heap
    /// when the tagging stage peaks at the end of a 350,000-word report. The IR keeps the values it uses;
    /// what is interned later (running headers, a `--watch` rebuild) fills them again.
    public static func releaseSharedValues() {
        sharedAttributes.removeAll()
        sharedStyles.removeAll()
    }
}

/// A table of shared values. `@unchecked Sendable`: `table` and `recent` are only touched under `mutex`
/// (lowering may run on several threads).
final class Interner<Value: Hashable & Sendable>: @unchecked Sendable {
    /// Distinct values kept at most: documents have a few dozen; a generated one with a colour per word
    /// must not grow the table without bound (past it, values are simply not shared).
    static var capacity: Int { 4096 }
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var table: [Value: Shared<Value>] = [:]
    /// The values interned last, newest first: runs alternate between a few (body text and links, `a *b* c`),
    /// and comparing with them costs less than hashing a 400-byte value.
    private var recent: [Shared<Value>] = []
    static var recentCount: Int { 4 }

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func intern(_ value: Value) -> Shared<Value> {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        for k in recent.indices where recent[k].value == value {
            let found = recent[k]
            if k > 0 { remember(found, at: k) }
            return found
        }
        if let found = table[value] {
            remember(found, at: nil)
            return found
        }
        let made = Shared(value)
        if table.count < Self.capacity { table[value] = made }
        remember(made, at: nil)
        return made
    }

    func removeAll() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        table = [:]
        recent = []
    }

    /// Moves `shared` to the front of `recent` (from index `k`, or new).
    private func remember(_ shared: Shared<Value>, at k: Int?) {
        if let k {
            // Swapped down to the front: no array is shifted and no reference counted.
            for j in stride(from: k, to: 0, by: -1) { recent.swapAt(j, j - 1) }
            return
        }
        if recent.count >= Self.recentCount { recent.removeLast() }
        recent.insert(shared, at: 0)
    }
}
