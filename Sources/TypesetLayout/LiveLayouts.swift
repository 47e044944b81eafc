// Pango layouts alive now, and the most alive at once since the last reset: pagination must drop a
// paragraph's layout once its lines are drawn, so memory stays flat however long the document is. Tests
// read the counts (a count, not a size: no RSS figures in tests); `make bench` measures the memory itself.

import Foundation

public enum LiveLayouts {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live = 0  // guarded by `lock`
    nonisolated(unsafe) private static var most = 0  // guarded by `lock`

    /// Layouts alive now (each `LayoutHandle` owns one PangoLayout).
    public static var count: Int { lock.withLock { live } }
    /// The most layouts alive at once since `resetPeak`.
    public static var peak: Int { lock.withLock { most } }
    public static func resetPeak() { lock.withLock { most = live } }

    static func made() {
        lock.withLock {
            live += 1
            most = max(most, live)
        }
    }

    static func freed() { lock.withLock { live -= 1 } }
}
