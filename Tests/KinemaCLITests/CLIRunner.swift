import Foundation

/// Runs the built `kinema` executable, as a user would, and captures what it prints.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CLI {
    /// The `kinema` binary built beside this test bundle.
    static let executable: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("kinema")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        fatalError("kinema executable not found near \(bundle.path)")
    }()

    /// Runs `program` (the `kinema` binary unless given) with `arguments` and, when given, only
    /// `environment`; its stdout goes to `standardOutput` when given (and is not captured).
    static func run(
        _ arguments: [String], program: URL = executable, environment: [String: String]? = nil,
        standardOutput: FileHandle? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        try process.run()
        if standardOutput != nil { try out.fileHandleForWriting.close() }
        // Read before waiting so a large output cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Parses `kinema … --format json` output into a dictionary.
    static func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try run(arguments)
        guard result.status == 0 else { throw CLIFailure(result: result) }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    }

    /// Parses CSV output into its header and numeric rows.
    static func csv(_ arguments: [String]) throws -> (header: [String], rows: [[Double]]) {
        let result = try run(arguments)
        guard result.status == 0 else { throw CLIFailure(result: result) }
        var lines = result.stdout.split(separator: "\n").map(String.init)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        return (header, lines.map { $0.split(separator: ",").map { Double($0)! } })
    }
}

struct CLIFailure: Error, CustomStringConvertible {
    let result: CLIResult
    var description: String { "kinema exited \(result.status): \(result.stderr)" }
}

/// A new, empty directory under the system's temporary directory (the caller removes it).
func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
