import Foundation

/// A progress bar with rate and ETA on stderr, drawn only when stderr is a terminal.
final class ProgressBar {
    let total: Int
    let start = Date()
    let startDone: Int
    let enabled = isatty(STDERR_FILENO) != 0

    init(total: Int, done: Int) {
        self.total = total
        startDone = done
    }

    func update(done: Int) {
        guard enabled, total > 0 else { return }
        let elapsed = Date().timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done - startDone) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let width = 30, filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = String(format: "\r[%@] %d/%d  %.1f rows/s  ETA %.0f s ", bar, done, total, rate, eta)
        StandardStreams.writeError(line)
    }

    func finish() {
        if enabled { StandardStreams.writeError("\n") }
    }
}
