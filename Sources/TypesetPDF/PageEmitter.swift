// `--jobs` above 1: cairo writes each finished page (cairo_show_page: it replays the page's recording as PDF
// operators, the largest single cost of the main thread) on a thread of its own, while the main thread lays out
// and places the next page. The surface and its context belong to one thread at a time: the main thread waits
// for page N to be written before it draws page N+1, so cairo sees the same calls in the same order as with one
// job and writes the same bytes. Writing a page reads no Pango object, only cairo's scaled fonts, which cairo
// guards with their own locks (the shaping threads keep using them meanwhile).

import CPangoCairo
import Foundation

/// Writes pages on a background thread, one at a time, in order.
/// `@unchecked Sendable`: `status` and `written` are set by the writing block and read after `group.wait()`.
final class PageEmitter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "typeset.page-writer")
    private let group = DispatchGroup()
    /// False with one job: pages are written on the calling thread, as before.
    private let background: Bool
    private var status = CAIRO_STATUS_SUCCESS
    /// The page number in flight, reported when it is written.
    private var pending: Int?
    /// What the page in flight draws (its images' surfaces): released on this thread once it is written. Cairo's
    /// page recording holds only a copy-on-write snapshot of a surface it paints; destroying an SVG's recording
    /// surface copies it into that snapshot, which raced the writer's replay of it (SIGSEGV in cairo_show_page).
    private var retained: Any?

    init(background: Bool) { self.background = background }

    /// Off unless TYPESET_PAGE_WRITER=1. Measured on the 2-core bench machine it gained no wall time at 35,000
    /// words (the layout worker already keeps the second core busy) and cost some 7% at 350,000.
    static var enabledByEnvironment: Bool { getenv("TYPESET_PAGE_WRITER").map { String(cString: $0) } == "1" }
    /// TYPESET_PAGE_WRITER=0: off in `--watch` rebuilds too (for measuring what it gains there).
    static var disabledByEnvironment: Bool { getenv("TYPESET_PAGE_WRITER").map { String(cString: $0) } == "0" }

    /// Finishes the page drawn on `cr`. Call `wait` before drawing it: the page before must be written first.
    /// `keeping` stays alive until the page is written.
    func showPage(_ cr: OpaquePointer, number: Int, keeping: Any? = nil) {
        group.wait()
        pending = number
        retained = keeping
        let context = UnsafeSendable(cr)
        if background {
            queue.async(group: group) { [self] in
                cairo_show_page(context.value)
                status = cairo_status(context.value)
            }
        } else {
            cairo_show_page(cr)
            status = cairo_status(cr)
        }
    }

    /// Waits for the page in flight (before the next is drawn on the same context); returns its number (nil
    /// when none) or throws cairo's error.
    @discardableResult
    func wait() throws -> Int? {
        group.wait()
        let written = pending
        pending = nil
        retained = nil
        if status != CAIRO_STATUS_SUCCESS { throw PageEmitterError(status: status) }
        return written
    }

    deinit { group.wait() }
}

struct PageEmitterError: Error {
    var status: cairo_status_t
}

/// A C pointer handed to the writing thread, which alone uses it until `wait` returns.
private struct UnsafeSendable: @unchecked Sendable {
    let value: OpaquePointer
    init(_ value: OpaquePointer) { self.value = value }
}
