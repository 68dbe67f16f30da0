import Foundation
import Testing

@testable import KinemaCLI

/// The sweep's reorder buffer on its own: rows finished out of order by many threads, with random
/// delays, come out once each and in order, in blocks of 256 rows or more (the last excepted),
/// never more than the window ahead of what was written; a failing row stops the claims.
struct SweepSchedulerTests {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var text = ""
        var blocks: [(rows: Int, written: Int)] = []
    }

    @Test(arguments: [1, 3, 16])
    func rowsComeOutInOrderWhateverOrderTheyFinishIn(threads: Int) throws {
        let (first, end, window) = (5, 3_005, 1_024)
        let log = Log()
        let scheduler = SweepScheduler(rows: first, to: end, window: window) { text, written in
            log.lock.lock()
            log.text += text
            log.blocks.append((text.split(separator: "\n").count, written))
            log.lock.unlock()
        }
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            var seed = UInt64(worker + 1) &* 0x9E37_79B9_7F4A_7C15
            while let claimed = scheduler.claim(8) {
                // xorshift: 0–200 µs of "work", so batches finish out of order.
                seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
                usleep(UInt32(seed % 200))
                scheduler.finish(claimed, claimed.map { "row \($0)\n" }.joined())
            }
        }
        #expect(scheduler.failure == nil)
        #expect(log.text == (first..<end).map { "row \($0)\n" }.joined())
        #expect(log.blocks.dropLast().allSatisfy { $0.rows >= 256 }, "\(log.blocks.map(\.rows))")
        #expect(log.blocks.last?.written == end)
    }

    @Test func claimsWaitForTheWriterBeyondTheWindow() throws {
        let scheduler = SweepScheduler(rows: 0, to: 10_000, window: 1_024) { _, _ in }
        var claimed: [Range<Int>] = []
        // Nothing finished: claims stop at the window (a claim that would wait is not made here).
        while claimed.count * 8 < 1_024, let range = scheduler.claim(8) { claimed.append(range) }
        #expect(claimed.last?.upperBound == 1_024)
        // Finish them all: 1,024 rows are written, and the next claim goes through at once.
        for range in claimed { scheduler.finish(range, range.map { "\($0)\n" }.joined()) }
        #expect(scheduler.claim(8) == 1_024..<1_032)
    }

    @Test func aFailedRowStopsTheClaims() throws {
        struct Bad: Error {}
        let scheduler = SweepScheduler(rows: 0, to: 100, window: 1_024) { _, _ in }
        #expect(scheduler.claim(8) == 0..<8)
        scheduler.fail(Bad())
        #expect(scheduler.claim(8) == nil)
        #expect(scheduler.failure is Bad && !scheduler.writeFailed)
    }

    @Test func aFailedWriteIsReportedAsOne() throws {
        struct Full: Error {}
        let scheduler = SweepScheduler(rows: 0, to: 16, window: 1_024) { _, _ in throw Full() }
        let range = try #require(scheduler.claim(16))
        scheduler.finish(range, range.map { "\($0)\n" }.joined())
        #expect(scheduler.failure is Full && scheduler.writeFailed)
        #expect(scheduler.claim(8) == nil)
    }
}
