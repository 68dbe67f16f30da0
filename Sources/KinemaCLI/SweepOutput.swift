import Foundation

/// Where sweep rows go: stdout, or `FILE.partial` (appended to as rows complete, flushed per
/// chunk) renamed to `FILE` at the end, so an interrupted run leaves no `FILE` and can resume.
final class SweepOutput {
    let path: String?
    private var handle: FileHandle?
    /// Complete rows already in `FILE.partial` when resuming.
    private(set) var rowsAlreadyWritten = 0

    var partialPath: String? { path.map { $0 + ".partial" } }

    init(path: String?, header: String, resume: Bool) throws {
        self.path = path
        guard let partial = path.map({ $0 + ".partial" }) else {
            try StandardStreams.writeOut(header)
            return
        }
        let manager = FileManager.default
        if resume, manager.fileExists(atPath: partial) {
            let reading = try FileHandle(forReadingFrom: URL(fileURLWithPath: partial))
            defer { try? reading.close() }
            let start = try reading.read(upToCount: header.utf8.count) ?? Data()
            guard start == Data(header.utf8) else {
                throw CLIError("'--resume' found '\(partial)' from a different sweep (its header differs); remove it or drop --resume.")
            }
            // Count whole lines in 1 MB blocks (memory stays flat in the file's size) and keep
            // only them: a kill can cut the last one short.
            var offset = UInt64(header.utf8.count), end = offset, lines = 0
            while let block = try reading.read(upToCount: 1 << 20), !block.isEmpty {
                for (i, byte) in block.enumerated() where byte == UInt8(ascii: "\n") {
                    lines += 1
                    end = offset + UInt64(i) + 1
                }
                offset += UInt64(block.count)
            }
            rowsAlreadyWritten = lines
            guard truncate(partial, off_t(end)) == 0 else {
                throw CLIError("'--resume' cannot trim '\(partial)': \(String(cString: strerror(errno))).")
            }
        } else {
            guard manager.createFile(atPath: partial, contents: Data(header.utf8)) else {
                throw CLIError("'-o' cannot write '\(partial)': \(String(cString: strerror(errno))).")
            }
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
        try handle?.seekToEnd()
    }

    func write(_ text: String) throws {
        guard let handle else {
            try StandardStreams.writeOut(text)
            return
        }
        try handle.write(contentsOf: Data(text.utf8))
        try handle.synchronize()
    }

    func commit() throws {
        guard let handle, let path, let partialPath else { return }
        try handle.close()
        guard rename(partialPath, path) == 0 else {
            throw CLIError("cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
    }
}
