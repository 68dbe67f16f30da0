import Foundation

/// The files a command writes and reads, checked before anything is written: two outputs naming
/// one file would leave only the last one written (`simulate --events o.csv -o o.csv` kept the
/// events and lost the trajectory), and an output that is also an input would replace what the
/// command is reading. Devices and pipes (`/dev/null`, `/dev/stdout`, a FIFO) may be named twice.
enum DistinctFiles {
    /// - Throws: `CLIError` naming both flags and the file, for two outputs or an output and an
    ///   input that are one file (through links and `..` too).
    static func check(outputs: [(flag: String, path: String?)], inputs: [(flag: String, path: String?)] = []) throws {
        var seen: [(flag: String, path: String, identity: String)] = []
        for (flag, path) in inputs + outputs {
            guard let path, let identity = identity(path) else { continue }
            if let earlier = seen.first(where: { $0.identity == identity }) {
                let isInput = inputs.contains { $0.flag == earlier.flag }
                throw CLIError(
                    "'\(flag)' and '\(earlier.flag)' name one file ('\(path)'): "
                        + (isInput ? "an output must not replace an input." : "give each output its own file."))
            }
            seen.append((flag, path, identity))
        }
    }

    /// What makes two paths one file: the device and inode of an existing regular file; for a path
    /// not there yet, its directory's real path and its name; nil for anything else.
    static func identity(_ path: String) -> String? {
        let path = AtomicFile.followingLinks(path)
        var info = stat()
        if stat(path, &info) == 0 {
            return (info.st_mode & S_IFMT) == S_IFREG ? "\(info.st_dev):\(info.st_ino)" : nil
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let real = realpath(directory, nil) else { return "path:" + url.standardized.path }
        defer { free(real) }
        return "path:" + String(cString: real) + "/" + url.lastPathComponent
    }
}
