import Foundation

/// stdout and stderr written with `write(2)`, so a closed, full or broken stream is an error the
/// command reports, or a quiet exit when the reader went away, never a trap (`FileHandle.write`
/// traps on any failure).
enum StandardStreams {
    /// The reader of stdout went away (EPIPE): the command stops quietly.
    struct BrokenPipe: Error {}

    /// The exit status for `BrokenPipe`: what a shell reports for a process ended by SIGPIPE.
    static let brokenPipeStatus: Int32 = 128 + 13

    /// Writes `text` to stdout.
    /// - Throws: `BrokenPipe` when the reader has gone, `CLIError` naming the reason otherwise
    ///   (a closed descriptor, a full disk).
    static func writeOut(_ text: String) throws {
        guard let failure = writeAll(text, to: STDOUT_FILENO) else { return }
        if failure == EPIPE { throw BrokenPipe() }
        throw CLIError("cannot write to standard output: \(String(cString: strerror(failure))).")
    }

    /// Writes `text` to stderr; a failure there is dropped (there is nowhere left to report it).
    static func writeError(_ text: String) {
        _ = writeAll(text, to: STDERR_FILENO)
    }

    /// Writes all of `text` to `descriptor`, retrying after signals; the `errno` of a failure, or nil.
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
