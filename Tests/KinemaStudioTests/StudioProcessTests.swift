import Foundation
import Testing

/// The `kinema-studio` binary as a user runs it: it refuses a port in use with one clear line, and
/// SIGINT or SIGTERM stop it cleanly (exit 0, "stopped").
@Suite(.serialized)
struct StudioProcessTests {
    /// A started studio and what it prints on stderr.
    final class Server: @unchecked Sendable {
        let process = Process()
        private let pipe = Pipe()
        private let lock = NSLock()
        private var text = ""

        init(_ arguments: [String]) throws {
            process.executableURL = Binaries.url("kinema-studio")
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = pipe
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        var stderr: String { lock.withLock { text } }

        /// Waits up to `seconds` for `condition`.
        func wait(_ seconds: Double, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return condition()
        }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsItCleanly(_ signal: Int32) throws {
        let port = try Binaries.freePort()
        let server = try Server(["--port", "\(port)"])
        #expect(server.wait(30) { server.stderr.contains("serving http://127.0.0.1:\(port)/") }, "\(server.stderr)")
        kill(server.process.processIdentifier, signal)
        #expect(server.wait(10) { !server.process.isRunning }, "still running after the signal")
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        #expect(server.wait(2) { server.stderr.contains("kinema-studio: stopped") }, "\(server.stderr)")
    }

    @Test func aPortInUseIsRefusedWithAClearMessage() throws {
        let port = try Binaries.freePort()
        let first = try Server(["--port", "\(port)"])
        defer { first.process.terminate() }
        #expect(first.wait(30) { first.stderr.contains("serving") }, "\(first.stderr)")
        let second = try Server(["--port", "\(port)"])
        #expect(second.wait(30) { !second.process.isRunning })
        #expect(second.process.terminationStatus == 1)
        #expect(second.stderr.contains("port \(port) on 127.0.0.1 is in use"), "\(second.stderr)")
        #expect(second.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [["--port", "0"], ["--port", "70000"], ["--host", "not an address"], ["--colour", "red"]])
    func badFlagsAreOneLineErrors(_ arguments: [String]) throws {
        let server = try Server(arguments)
        #expect(server.wait(30) { !server.process.isRunning })
        #expect(server.process.terminationStatus != 0)
        #expect(!server.stderr.isEmpty && !server.stderr.contains("serving"), "\(server.stderr)")
    }
}
