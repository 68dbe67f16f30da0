import Foundation

/// A file written through a temporary sibling and renamed into place on `commit()`, so readers and
/// a failed or killed run never see a partial file at `path`. A symbolic link is followed (the
/// file it names is replaced, the link stays); a device or a pipe (`/dev/null`, `/dev/stdout`, a
/// FIFO) is written in place: renaming over it would replace it.
final class AtomicFile {
    let path: String
    private let temporaryPath: String?
    private var descriptor: Int32
    private var committed = false

    /// Creates the temporary file beside `path` (beside the file it links to, for a link).
    /// - Throws: `CLIError` naming `flag`, the path and the system's reason.
    init(path requested: String, flag: String = "-o") throws {
        path = Self.followingLinks(requested)
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            let fd = open(path, O_WRONLY | O_TRUNC)
            guard fd >= 0 else {
                throw CLIError("'\(flag)' cannot write '\(path)': \(String(cString: strerror(errno))).")
            }
            descriptor = fd
            temporaryPath = nil
            return
        }
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw CLIError("'\(flag)' cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        descriptor = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        fchmod(fd, 0o644)
    }

    /// The file a symbolic link names (its links resolved), so that the rename lands on the file
    /// and leaves the link in place; any other path (a dangling link included) as given.
    static func followingLinks(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let real = realpath(path, nil) else {
            return path
        }
        defer { free(real) }
        return String(cString: real)
    }

    /// Appends `text`.
    func write(_ text: String) throws {
        if let failure = StandardStreams.writeAll(text, to: descriptor) {
            throw CLIError("cannot write '\(path)': \(String(cString: strerror(failure))).")
        }
    }

    /// Flushes and renames the temporary file onto `path`.
    func commit() throws {
        guard let temporaryPath else {
            close(descriptor)
            descriptor = -1
            committed = true
            return
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            throw CLIError("cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else {
            throw CLIError("cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        committed = true
    }

    deinit {
        if !committed {
            if descriptor >= 0 { close(descriptor) }
            if let temporaryPath { unlink(temporaryPath) }
        }
    }
}
