import ArgumentParser
import Foundation

/// `-o FILE`: where a command's data goes. Files are written atomically (a temporary file beside
/// the target, then a rename), so a failed run never leaves a partial file behind.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the data to FILE (atomically) instead of stdout.")
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
}
