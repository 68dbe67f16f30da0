import Foundation

/// Hands a sweep's rows to worker threads a batch at a time and writes the finished rows in order
/// as soon as they are contiguous (a reorder buffer): no worker waits for the others at the end of
/// a chunk, and no stage is serial. The worker that finishes the rows next in order writes them,
/// with every finished row after them, 256 rows or more at a time (one writer at a time, outside
/// the lock). Claims run at most `window` rows ahead of the rows written, so memory stays flat.
final class SweepScheduler: @unchecked Sendable {
    private let condition = NSCondition()
    private let end: Int
    private let window: Int
    private let write: (String, _ written: Int) throws -> Void
    private var nextClaim: Int
    /// The first row not yet handed to `write`.
    private var nextWrite: Int
    /// Finished rows not yet written, by their first row's index.
    private var finished: [Int: [String]] = [:]
    private var pending = "", pendingRows = 0
    private var writing = false
    /// The first error of a row (an invalid combination) or of a write.
    private(set) var failure: Error?
    private(set) var writeFailed = false

    /// Rows `first..<end`, at most `window` rows claimed ahead of the ones written; `write` gets
    /// each block of rows in order with the number of rows written after it.
    init(rows first: Int, to end: Int, window: Int, write: @escaping (String, _ written: Int) throws -> Void) {
        (self.end, self.window, self.write, nextClaim, nextWrite) = (end, window, write, first, first)
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

    /// Stores the finished rows of `range`; writes what is now contiguous if no one else is.
    func finish(_ range: Range<Int>, _ rows: [String]) {
        condition.lock()
        defer { condition.unlock() }
        finished[range.lowerBound] = rows
        guard !writing else { return }
        writing = true
        defer { writing = false }
        while failure == nil {
            while let rows = finished.removeValue(forKey: nextWrite + pendingRows) {
                for row in rows { pending += row }
                pendingRows += rows.count
            }
            guard pendingRows >= 256 || (pendingRows > 0 && nextWrite + pendingRows == end) else { return }
            let (text, count) = (pending, pendingRows)
            (pending, pendingRows) = ("", 0)
            condition.unlock()
            var error: Error?
            do { try write(text, nextWrite + count) } catch let failed { error = failed }
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
