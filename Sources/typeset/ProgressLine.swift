// The progress line on a terminal: `typeset: typesetting page 12 of 40`, rewritten in place with `\r`.
// It appears only once a build has run for half a second (short builds stay silent) and is erased at the end.

import Foundation
import TypesetKit

final class ProgressLine: @unchecked Sendable {
    static let delay = 0.5
    /// At most ten rewrites a second: a fast renderer must not spend its time on the terminal.
    static let interval = 0.1

    private let enabled: Bool
    private let lock = NSLock()
    private let start = Date()
    private var state = BuildProgress(stage: "reading")
    private var shown = false
    private var done = false
    private var lastDraw = Date.distantPast

    init(enabled: Bool) {
        self.enabled = enabled
        guard enabled else { return }
        // A long stage may send no update for a while: show the line from a timer too.
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.delay) { [self] in
            lock.lock()
            defer { lock.unlock() }
            draw(force: true)
        }
    }

    func update(_ progress: BuildProgress) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let stageChanged = progress.stage != state.stage
        state = progress
        draw(force: stageChanged)
    }

    /// Caller holds the lock.
    private func draw(force: Bool) {
        let now = Date()
        guard !done, now.timeIntervalSince(start) >= Self.delay else { return }
        guard force || now.timeIntervalSince(lastDraw) >= Self.interval else { return }
        lastDraw = now
        shown = true
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + Self.text(of: state)).utf8))
    }

    static func text(of progress: BuildProgress) -> String {
        var text = "typeset: " + progress.stage
        if progress.pages > 0 || progress.totalPages != nil {
            text += progress.stage == "counting pages" ? ": \(progress.pages)" : " page \(progress.pages)"
            if let total = progress.totalPages { text += " of \(total)" }
        }
        return text + "..."
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        done = true
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
