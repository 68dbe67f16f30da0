import Foundation

/// Where sweep rows go: stdout, or `FILE.partial` (appended to as rows complete, flushed per
/// chunk) renamed to `FILE` at the end, so an interrupted run leaves no `FILE` and can resume.
/// A `FILE` that is not a regular file is written directly, like stdout, as `AtomicFile` writes it:
/// a device or a pipe (`/dev/null`, a FIFO), or a link to this process's stdout or stderr; a link
/// to a regular file is followed, so the link stays a link.
///
/// Beside `FILE.partial`, `FILE.partial.sweep` holds the sweep's fingerprint (the version and every
/// flag that changes the rows); `--resume` continues only a partial file of the same sweep. While
/// a run writes, it holds an exclusive lock on `FILE.partial`, so a second run with the same `-o`
/// fails at once instead of interleaving rows.
final class SweepOutput {
    let path: String?
    private var handle: FileHandle?
    /// Complete rows already in `FILE.partial` when resuming.
    private(set) var rowsAlreadyWritten = 0

    /// Rows go straight to `path` (not a regular file: `AtomicFile.openInPlace`), with no partial file.
    private var isDirect = false

    var partialPath: String? { isDirect ? nil : path.map { $0 + ".partial" } }
    var fingerprintPath: String? { isDirect ? nil : path.map { $0 + ".partial.sweep" } }

    init(path requested: String?, header: String, fingerprint: String, resume: Bool) throws {
        path = requested.map { AtomicFile.followingLinks($0) }
        // Checked before FILE.partial exists: a refused start leaves nothing behind.
        var info = stat()
        if let path, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw CLIError("'-o' must name a file, not a directory (got '\(requested ?? path)').")
        }
        if let path, let descriptor = try AtomicFile.openInPlace(path, flag: "-o") {
            isDirect = true
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try write(header)
            return
        }
        guard let partial = partialPath, let fingerprintPath else {
            try StandardStreams.writeOut(header)
            return
        }
        let descriptor = try Self.openRegular(partial, O_RDWR)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            throw CLIError(
                "'-o' '\(path ?? "")' is being written by another kinema sweep ('\(partial)' is locked); "
                    + "wait for it or choose another file.")
        }
        let existing = try handle.seekToEnd()
        if !resume && existing > 0 {
            StandardStreams.writeError(
                "kinema: note: replacing '\(partial)', left by an earlier run ('--resume' continues it instead).\n")
        }
        if resume, existing > 0 {
            let recorded = (try? String(contentsOfFile: fingerprintPath, encoding: .utf8)) ?? ""
            guard recorded == fingerprint else {
                throw CLIError(
                    "'--resume' found '\(partial)' from a different sweep (\(recorded.isEmpty ? "no fingerprint" : "other flags or version")); "
                        + "remove it or drop --resume.")
            }
            try handle.seek(toOffset: 0)
            let start = try handle.read(upToCount: header.utf8.count) ?? Data()
            guard start == Data(header.utf8) else {
                throw CLIError(
                    "'--resume' found '\(partial)' from a different sweep (its header differs); remove it or drop --resume."
                )
            }
            // Count whole lines in 1 MB blocks (memory stays flat in the file's size) and keep
            // only them: a kill can cut the last one short.
            var offset = UInt64(header.utf8.count), end = offset, lines = 0
            while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
                for (i, byte) in block.enumerated() where byte == UInt8(ascii: "\n") {
                    lines += 1
                    end = offset + UInt64(i) + 1
                }
                offset += UInt64(block.count)
            }
            rowsAlreadyWritten = lines
            try handle.truncate(atOffset: end)
        } else {
            try handle.truncate(atOffset: 0)
            if let failure = StandardStreams.writeAll(header, to: descriptor) {
                throw CLIError("'-o' cannot write '\(partial)': \(String(cString: strerror(failure))).")
            }
            let fingerprintFile: Int32
            do { fingerprintFile = try Self.openRegular(fingerprintPath, O_WRONLY | O_TRUNC) } catch {
                unlink(partial)  // empty, under this run's lock: nothing to resume
                throw error
            }
            defer { close(fingerprintFile) }
            if let failure = StandardStreams.writeAll(fingerprint, to: fingerprintFile) {
                throw CLIError("'-o' cannot write '\(fingerprintPath)': \(String(cString: strerror(failure))).")
            }
        }
        try handle.seekToEnd()
        self.handle = handle
    }

    /// Opens (creating) `path` as a regular file without following a link: a link or anything else
    /// planted at `FILE.partial` is refused, never written through.
    static func openRegular(_ path: String, _ mode: Int32) throws -> Int32 {
        let descriptor = open(path, mode | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            let reason =
                descriptor >= 0 || errno == ELOOP
                ? "it exists and is not a regular file" : String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw CLIError("'-o' cannot write '\(path)': \(reason) (remove it, or choose another '-o').")
        }
        return descriptor
    }

    func write(_ text: String) throws {
        guard let handle else {
            try StandardStreams.writeOut(text)
            return
        }
        // write(2) and fsync(2), so a full disk is "No space left on device", not a Cocoa error.
        // A device or a pipe has nothing to sync (fsync fails on a pipe).
        if let failure = StandardStreams.writeAll(text, to: handle.fileDescriptor)
            ?? (isDirect || fsync(handle.fileDescriptor) == 0 ? nil : errno)
        {
            throw CLIError("cannot write '\(partialPath ?? path ?? "")': \(String(cString: strerror(failure))).")
        }
    }

    /// Removes `FILE.partial` and its fingerprint (still under the lock): a combination was invalid,
    /// so no run of this sweep can finish, and `--resume` would only fail on it again.
    func discard() {
        guard let handle else { return }
        guard let partialPath, let fingerprintPath else {
            try? handle.close()
            return
        }
        unlink(partialPath)
        unlink(fingerprintPath)
        try? handle.close()
    }

    /// Renames `FILE.partial` onto `FILE` (still under the lock), then drops the fingerprint.
    func commit() throws {
        guard let handle else { return }
        guard let path, let partialPath, let fingerprintPath else {
            try handle.close()
            return
        }
        guard rename(partialPath, path) == 0 else {
            throw CLIError("cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        unlink(fingerprintPath)
        try handle.close()
    }
}
