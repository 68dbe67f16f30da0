import Foundation

/// The temporary files of the writers in flight (`AtomicFile`), removed when SIGINT, SIGTERM or
/// SIGHUP ends the process, which then ends with that signal's status as it would have without
/// them. A signal handler may only call async-signal-safe functions (unlink, signal, raise), so
/// the paths wait in a fixed table of C strings that the handler reads without locking or
/// allocating.
enum TemporaryFiles {
    /// At most this many files are covered at once (a command writes one or two).
    static let capacity = 64
    /// The table the handler walks: a C string per file in flight, nil for a free slot.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    private static let lock = NSLock()
    /// The signals that end a run early and leave it time to clean up.
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// Whether the handlers are installed (once, on the first file).
    nonisolated(unsafe) private static var installed = false

    /// Creates a new file at `template` (ending in `XXXXXX`, as `mkstemp` takes it) and covers it
    /// until `remove(_:)`, with the three signals held off in between, so that no signal finds the
    /// file made but not yet covered. The slot is nil when the table is full: the file is then
    /// left to its writer's cleanup on a normal exit.
    /// - Returns: the descriptor (negative, with `errno` set, on failure), the path and the slot.
    static func create(_ template: String) -> (descriptor: Int32, path: String, slot: Int?) {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for signal in signals { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var bytes = Array(template.utf8CString)
        let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let path = bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let failure = errno
        guard descriptor >= 0 else {
            errno = failure
            return (descriptor, path, nil)
        }
        return (descriptor, path, add(path))
    }

    /// Covers `path` until `remove(_:)`; nil when the table is full.
    private static func add(_ path: String) -> Int? {
        lock.withLock {
            if !installed {
                _ = slots
                for signal in signals where hasDefaultAction(signal) {
                    Foundation.signal(signal, handle)
                }
                installed = true
            }
            guard let slot = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
            slots[slot] = strdup(path)
            return slot
        }
    }

    /// Stops covering the file in `slot` (it was renamed into place or removed).
    static func remove(_ slot: Int) {
        lock.withLock {
            let path = slots[slot]
            slots[slot] = nil
            free(path)
        }
    }

    /// Whether `signal` still has its default action: a signal the embedding program ignores
    /// stays ignored, one it handles stays its own.
    private static func hasDefaultAction(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        #if canImport(Glibc)
            return current.__sigaction_handler.sa_handler == nil
        #else
            return current.__sigaction_u.__sa_handler == nil
        #endif
    }

    /// Removes every covered file, then ends the process with `signal` as the default action does.
    private static let handle: @convention(c) (Int32) -> Void = { signal in
        for slot in 0..<TemporaryFiles.capacity {
            if let path = TemporaryFiles.slots[slot] { unlink(path) }
        }
        Foundation.signal(signal, SIG_DFL)
        raise(signal)
    }
}
