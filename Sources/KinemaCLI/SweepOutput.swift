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
            FileHandle.standardOutput.write(Data(header.utf8))
            return
        }
        let manager = FileManager.default
        if resume, manager.fileExists(atPath: partial) {
            let data = try Data(contentsOf: URL(fileURLWithPath: partial))
            let text = String(decoding: data, as: UTF8.self)
            guard text.hasPrefix(header) else {
                throw CLIError("'--resume' found '\(partial)' from a different sweep (its header differs); remove it or drop --resume.")
            }
            // Keep whole lines only: a kill can cut the last one short.
            let complete = text.lastIndex(of: "\n").map { text[...$0] } ?? ""
            rowsAlreadyWritten = complete.split(separator: "\n", omittingEmptySubsequences: false).count - 2
            try Data(complete.utf8).write(to: URL(fileURLWithPath: partial))
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
            FileHandle.standardOutput.write(Data(text.utf8))
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
