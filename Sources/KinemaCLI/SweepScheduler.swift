import Foundation

/// Hands a sweep's rows to worker threads a claim at a time and writes the finished rows in order
/// as soon as they are contiguous (a reorder buffer): no worker waits for the others at the end of
/// a chunk, and no stage is serial. The worker that finishes the rows next in order writes them,
/// with every finished row after them, 256 rows or more at a time (one writer at a time, joining
/// and writing outside the lock). Claims run at most `window` rows ahead of the rows written, so
/// memory stays flat.
final class SweepScheduler: @unchecked Sendable {
    private let condition = NSCondition()
    private let end: Int
    private let window: Int
    private let write: (String, _ written: Int) throws -> Void
    private var nextClaim: Int
    /// The first row not yet handed to `write`.
    private var nextWrite: Int
    /// Finished rows not yet written, by their first row's index: the row after them and their text.
    private var finished: [Int: (end: Int, text: String)] = [:]
    /// Finished rows from `nextWrite` on, contiguous, not yet written.
    private var pending: [String] = [], pendingEnd: Int
    private var writing = false
    /// The first error of a row (an invalid combination) or of a write.
    private(set) var failure: Error?
    private(set) var writeFailed = false

    /// Rows `first..<end`, at most `window` rows claimed ahead of the ones written; `write` gets
    /// each block of rows in order with the number of rows written after it.
    init(rows first: Int, to end: Int, window: Int, write: @escaping (String, _ written: Int) throws -> Void) {
        (self.end, self.window, self.write, nextClaim, nextWrite, pendingEnd) = (
            end, window, write, first, first, first
        )
    }

    /// The next rows (at most `count`), or nil when all are claimed or a row has failed; waits
    /// while they would run more than `window` rows ahead of the ones written.
    func claim(_ count: Int) -> Range<Int>? {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil && nextClaim < end && nextClaim - nextWrite >= window { condition.wait() }
        guard failure == nil, nextClaim < end else { return nil }
        let range = nextClaim..<min(nextClaim + count, end)
        nextClaim = range.upperBound
        return range
    }

    /// Stores the text of the finished rows `range`; writes what is now contiguous if no one else is.
    func finish(_ range: Range<Int>, _ text: String) {
        condition.lock()
        defer { condition.unlock() }
        finished[range.lowerBound] = (range.upperBound, text)
        guard !writing else { return }
        writing = true
        defer { writing = false }
        while failure == nil {
            while let (after, text) = finished.removeValue(forKey: pendingEnd) {
                pending.append(text)
                pendingEnd = after
            }
            let count = pendingEnd - nextWrite
            guard count >= 256 || (count > 0 && pendingEnd == end) else { return }
            let (texts, written) = (pending, pendingEnd)
            pending.removeAll(keepingCapacity: true)
            condition.unlock()
            var error: Error?
            do { try write(texts.joined(), written) } catch let failed { error = failed }
            condition.lock()
            nextWrite += count
            if let error, failure == nil { (failure, writeFailed) = (error, true) }
            condition.broadcast()
        }
    }

    /// Stops the sweep at the first failing row: no more claims.
    func fail(_ error: Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }
}
