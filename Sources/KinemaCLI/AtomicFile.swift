import Foundation

/// A file written through a temporary sibling and renamed into place on `commit()`, so readers and
/// a failed or killed run never see a partial file at `path`. A symbolic link to a regular file is
/// followed (the file is replaced, the link stays). Anything else that is not a regular file is
/// written in place, since renaming over it would replace it: a device or a pipe (`/dev/null`, a
/// FIFO), and a link to this process's own stdout or stderr (`/dev/stdout` redirected to a file).
final class AtomicFile {
    let path: String
    private let temporaryPath: String?
    private var descriptor: Int32
    private var committed = false
    /// The temporary file's slot in `TemporaryFiles`, which removes it if a signal ends the run.
    private var cleanupSlot: Int?

    /// Creates the temporary file beside `path` (beside the file it links to, for a link).
    /// - Throws: `CLIError` naming `flag`, the path and the system's reason.
    init(path requested: String, flag: String = "-o") throws {
        path = Self.followingLinks(requested)
        if let fd = try Self.openInPlace(path, flag: flag) {
            descriptor = fd
            temporaryPath = nil
            return
        }
        let (fd, temporaryPath, slot) = TemporaryFiles.create(path + ".tmp-XXXXXX")
        guard fd >= 0 else {
            throw CLIError("'\(flag)' cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        descriptor = fd
        self.temporaryPath = temporaryPath
        cleanupSlot = slot
        fchmod(fd, 0o644)
    }

    /// A descriptor to write `path` through directly, when it exists and is not a regular file (a
    /// device, a pipe, a link `followingLinks` left in place); nil otherwise. Appending: a link to
    /// this process's stdout redirected with `>>` keeps what it held.
    /// - Throws: `CLIError` naming `flag`, the path and the system's reason.
    static func openInPlace(_ path: String, flag: String) throws -> Int32? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG else { return nil }
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError("'\(flag)' cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        return fd
    }

    /// The regular file a symbolic link names (its links resolved), so that the rename lands on the
    /// file and leaves the link in place; for a dangling link, the path it names, which the rename
    /// creates (as a shell's `>` would). Any other path as given: not a link, a link to something
    /// other than a regular file, or to this process's stdout or stderr (renaming onto that file
    /// would cut the process off from what it writes there).
    static func followingLinks(_ path: String, depth: Int = 0) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let real = realpath(path, nil) else {
            guard errno == ENOENT, depth < 8, let target = linkTarget(path) else { return path }
            return followingLinks(target, depth: depth + 1)
        }
        defer { free(real) }
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return path }
        for stream in [STDOUT_FILENO, STDERR_FILENO] {
            var own = stat()
            if fstat(stream, &own) == 0 && own.st_dev == info.st_dev && own.st_ino == info.st_ino { return path }
        }
        return String(cString: real)
    }

    /// What the link at `path` names, relative to the link's directory.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = (path as NSString).deletingLastPathComponent
        return target.hasPrefix("/") || directory.isEmpty ? target : directory + "/" + target
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
        cleanupSlot.map(TemporaryFiles.remove)
    }

    deinit {
        if !committed {
            if descriptor >= 0 { close(descriptor) }
            if let temporaryPath { unlink(temporaryPath) }
            cleanupSlot.map(TemporaryFiles.remove)
        }
    }
}
