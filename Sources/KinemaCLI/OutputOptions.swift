import ArgumentParser
import Foundation

/// `-o FILE`: where a command's data goes. Files are written atomically (a temporary file beside
/// the target, then a rename), so a failed run never leaves a partial file behind.
struct OutputOptions: ParsableArguments {
    @Option(
        name: [.customShort("o"), .customLong("output")], help: "Write the data to FILE (atomically) instead of stdout."
    )
    var output: String?

    /// Writes `text` to the file, or to stdout.
    func emit(_ text: String) throws {
        guard let output else {
            try StandardStreams.writeOut(text)
            return
        }
        let file = try AtomicFile(path: output)
        try file.write(text)
        try file.commit()
    }

    /// Streams the data: `body` is handed a `write` that the text goes through as it is produced,
    /// to stdout or to the temporary file (renamed onto `-o FILE` once `body` returns), so memory
    /// stays flat however long the output.
    func stream(_ body: (_ write: (String) throws -> Void) throws -> Void) throws {
        guard let output else {
            try body(StandardStreams.writeOut)
            return
        }
        let file = try AtomicFile(path: output)
        try body(file.write)
        try file.commit()
    }
}
